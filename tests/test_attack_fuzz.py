"""Seeded fuzz of the link (docs/SECURITY.md): random frames, unauthenticated and
authenticated-but-malformed, against the terminal's link loop (`terminal.link.Port`, the loop
the board's main.py runs between key polls) under the real `micropython` on a pty, and random
answers from a fake device against the station (`host_sync.station.sync.Session`).

The whole main loop (`main.Terminal`, keys pressed while the frames come) has its own fuzz
too. The suite runs small counts; the full counts are these commands, one at a time (issue
14; BENCHMARKS.md, "Protocol 3", has their times):

    ATTACK_FUZZ_MAIN_FRAMES=100000 nice -n 19 .venv/bin/python -m pytest -q \\
        tests/test_attack_fuzz.py -k main_loop
    ATTACK_FUZZ_FRAMES=100000 nice -n 19 .venv/bin/python -m pytest -q \\
        tests/test_attack_fuzz.py -k random_frames_never
    ATTACK_FUZZ_SYNCS=2000 nice -n 19 .venv/bin/python -m pytest -q \\
        tests/test_attack_fuzz.py -k station
"""

import os
import random
import threading
import time

import serial
from test_attack_station import KNOWN, Fake, fingerprint, key_of, state
from test_attack_station import db as db  # noqa: F401  (the fixture)
from test_attack_terminal import registered, sync, talk
from test_link_session import station_db as station_db  # noqa: F401  (the fixture)

from host_sync.station import link
from host_sync.station.sync import Session, SyncFailed
from hw import keys

FRAMES = int(os.environ.get("ATTACK_FUZZ_FRAMES", "3000"))
SYNCS = int(os.environ.get("ATTACK_FUZZ_SYNCS", "40"))
MAIN_FRAMES = int(os.environ.get("ATTACK_FUZZ_MAIN_FRAMES", "1500"))
NAMES = ["hello", "register", "pull", "ack", "put", "done", "bye", "recs", "end", "x"]
FIELDS = ["i", "v", "sn", "id", "event", "key", "after", "max", "seq", "f", "at", "size", "d",
          "sha", "h", "p", "r", "sent", "last", "nonce", "base"]


def value(rng, depth=0):
    """A random CBOR value, biased to what breaks parsers: edges of ints, odd types, nesting."""
    pick = rng.randrange(12 if depth < 3 else 8)
    if pick == 0:
        return rng.choice([0, 1, -1, 2 ** 31, 2 ** 32, 2 ** 63 - 1, -(2 ** 63), 2 ** 64 - 1])
    if pick == 1:
        return rng.randrange(-1000, 100000)
    if pick == 2:
        return rng.randbytes(rng.choice([0, 1, 8, 16, 32, 33, 200]))
    if pick == 3:
        return "".join(rng.choice("aZ9-\x00\x1b\u0416\U0001f0a1") for _ in range(rng.randrange(
            0, 60)))
    if pick == 4:
        return rng.choice([None, True, False, 1.5, float("nan")])
    if pick == 5:
        return rng.choice(["config.cbor", "travellers.cbor", "../main.py", "registration"])
    if pick == 6:
        return rng.choice(NAMES)
    if pick == 7:
        return ""
    if pick < 10:
        return [value(rng, depth + 1) for _ in range(rng.randrange(0, 6))]
    return {rng.choice(FIELDS + [1, b"k"]): value(rng, depth + 1)
            for _ in range(rng.randrange(0, 6))}


MALFORMED_SEQ = [-1, "1", 2 ** 64, 10 ** 9, None, [], b"", 1.0, True]


def message(rng):
    """A random request: a name (usually a real one) and random fields."""
    msg = {"m": rng.choice(NAMES)}
    for _ in range(rng.randrange(0, 7)):
        msg[rng.choice(FIELDS)] = value(rng)
    if msg["m"] == "ack":  # a well-formed ack would be the key-holder's legitimate request
        msg["seq"] = rng.choice(MALFORMED_SEQ)
    return msg


def frame(rng, msg):
    """The frame of msg, or one damaged on the way (noise, a flipped bit, CBOR not a map)."""
    try:
        raw = link.encode_frame(msg)
    except (ValueError, OverflowError):
        raw = link.encode_frame({"m": "x"})
    damage = rng.randrange(10)
    if damage == 0:
        return rng.randbytes(rng.randrange(1, 80)).replace(b"\x00", b"")
    if damage == 1:
        at = rng.randrange(len(raw) - 1)
        return raw[:at] + bytes([raw[at] ^ (1 << rng.randrange(8)) or 1]) + raw[at + 1:]
    if damage == 2:
        return link.frame_cbor(link.cbor_encode(value(rng)))[:-1]
    return raw[:-1]


class Drain(threading.Thread):
    """Reads the terminal's replies as they come, so that it never blocks writing them."""

    def __init__(self, port):
        threading.Thread.__init__(self, daemon=True)
        self.port, self.reader, self.replies, self.stop = port, link.FrameReader(), 0, False

    def run(self):
        while not self.stop:
            self.replies += len(self.reader.feed(self.port.read(4096)))


def pelt(port, rng, count, key=None, nonce=None):
    """Send count random frames in bursts of 50 (with a key, a third of them signed under it
    and the conversation's nonce) and check that the terminal answered on."""
    drain = Drain(port)
    drain.start()
    sent = 0
    while sent < count:
        burst = bytearray()
        for _ in range(50):
            msg = message(rng)
            if msg["m"] == "hello":
                msg["m"] = "x"  # keeps this conversation's nonce for the signed ones
            if key is not None and rng.randrange(3) == 0:
                msg = link.sign(key, nonce, msg)
            burst += b"\x00" + frame(rng, msg) + b"\x00"
            sent += 1
        port.write(bytes(burst))
        time.sleep(0.01)
    deadline = time.monotonic() + 60
    while drain.replies < sent // 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    drain.stop = True
    drain.join()
    assert drain.replies >= sent // 3, (drain.replies, sent)


def test_random_frames_never_stop_the_terminal_nor_lose_a_record(station_db, tmp_path):
    """FRAMES random frames (a third of them signed under the key and the conversation's
    nonce: authenticated but malformed) to a registered terminal holding a round it has not
    synced: it answers on, and afterwards syncs every record to the station."""
    term, records = registered(station_db, tmp_path, "PICO-F1", 9)
    key = bytes.fromhex(station_db.value("SELECT key FROM terminals"))
    rng = random.Random(20261202)
    path = term.plug()
    try:
        with serial.Serial(path, timeout=0.02) as port:
            sn = os.urandom(16)
            nonce = sn + talk(port, {"m": "hello", "i": 1, "v": [3], "sn": sn})[0]["nonce"]
            pelt(port, rng, FRAMES, key, nonce)
        assert term.plugged.proc.poll() is None, "the terminal's loop ended"
        assert sync(station_db, path).stored == len(records)
    finally:
        term.unplug()


def test_random_answers_never_crash_the_station_nor_reach_the_database(db):  # noqa: F811
    """SYNCS conversations with a fake device that answers every request with random
    messages, signed under the terminal's key or not: each sync ends in SyncFailed (or
    done), never another exception, and the records, flags and results stay as they were.
    No sync leaves a file descriptor open (the full count ran out of them at sync 1004: the
    fakes' ptys)."""
    key, fp = key_of(db), fingerprint(db)
    before = state(db)[1:4]
    fds = len(os.listdir("/proc/self/fd"))
    rng = random.Random(20261203)
    for n in range(SYNCS):
        seed = rng.randrange(2 ** 32)

        def answer(f, m, r=random.Random(seed)):
            if m["m"] == "hello" and r.randrange(4):
                return [f.hello(m, key, event=fp, last=r.choice([0, 6, 7, 2 ** 30]))]
            out = []
            for _ in range(r.randrange(1, 4)):
                reply = message(r)
                reply["i"] = m.get("i") if r.randrange(4) else value(r)
                if r.randrange(2) and "sn" in m:
                    reply = link.sign(key, m["sn"] + f.nonce, reply)
                elif r.randrange(2):
                    reply = link.sign(key, getattr(f, "session", b""), reply)
                out.append(reply)
            if m["m"] == "hello":
                f.session = m["sn"] + f.nonce
            return b"".join(b"\x00" + frame(r, x) + b"\x00" for x in out)

        fake = Fake(answer)
        fake.start()
        try:
            with serial.Serial(fake.path, timeout=0.02) as port:
                try:
                    Session(db, port, timeout=0.1, tries=2).run()
                except SyncFailed:
                    pass
        finally:
            os.close(fake._slave)
            fake.join(10)
        assert state(db)[1:3] == before[:2], "sync %d (seed %d) changed the records" % (n, seed)
        assert len(os.listdir("/proc/self/fd")) == fds, "sync %d left a descriptor open" % n
    assert db.value("SELECT last_seq FROM terminals WHERE id = ?", (KNOWN,)) == 6


def test_random_frames_while_keys_are_pressed_never_stop_the_main_loop(station_db, tmp_path):
    """The whole main loop (`main.Terminal`: keypad, screen, application and link on one
    journal) under micropython on a pty: MAIN_FRAMES random frames on its cable while a table
    presses random keys. It never stops, the link answers on, and afterwards the director
    pairs it (director mode, 6) from whatever screen the keys left (MainLoop.pair: a call
    waiting for him, his PIN locked by the wrong ones they typed) and every record it made
    reaches the station. No hello is
    fuzzed here, so the keys are never held by a sync; the authenticated-but-malformed frames
    are the link loop's fuzz above."""
    from main_loop import plug_main_loop
    from terminal.journal import Journal
    from terminal_support import make_config, write_config

    # This seed's keys, by the suite's count, have a Law 27 call waiting for the director and
    # his PIN locked by wrong ones: the pairing at the end must wait the lock out.
    rng = random.Random(1)
    flash = tmp_path / "flash"
    flash.mkdir()
    write_config(flash / "config.cbor", make_config())
    # any key, biased to what moves a table on (OK, PASS, bids), so that records are made
    pool = keys.NAMES + ("OK", "PASS") * 8 + ("1", "2", "3", "4", "C", "D", "H", "S", "NT") * 2
    chunks = [" ".join(rng.choice(pool) for _ in range(rng.randrange(1, 12)))
              for _ in range(max(10, MAIN_FRAMES // 50))]
    (tmp_path / "keys").write_text("\n".join(chunks) + "\n")
    plug = plug_main_loop(flash, tmp_path / "keys", tmp_path / "screen", "PICO-FM", chunks=True)
    try:
        with serial.Serial(plug.port, timeout=0.02) as port:
            pelt(port, rng, MAIN_FRAMES)
        assert plug.proc.poll() is None, "the main loop ended"
        code = plug.pair()  # from wherever the keys left it: the director's way to pairing
        with serial.Serial(plug.port, timeout=0.02) as port:
            p = Session(station_db, port, register=True, timeout=1.0, code=code).run()
        assert p.outcome == "done" and plug.proc.poll() is None
    finally:
        plug.close()
    key = bytes.fromhex(station_db.value("SELECT key FROM terminals"))
    journal = Journal(str(flash / "journal"), key, "PICO-FM")
    assert station_db.value("SELECT COUNT(*) FROM records") == journal.last > 0
