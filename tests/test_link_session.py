"""The sync conversation: the terminal's handler (terminal.link) refuses what it must, and the
station (host_sync.station.sync) refuses bad frames (CRC, CBOR, types, oversize, bad HMAC, unknown
terminal) with a logged reason and a count, while none of them reaches the database."""

import hashlib
import json
import logging
import os
import struct
import threading
import tty
import zlib

import pytest
import serial
from flash_support import settle
from sync_harness import Terminal, write_script
from sync_script import event_movement, table_round
from terminal.frame import encode_frame
from terminal.link import Link, Port  # noqa: E402

from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.station import link
from host_sync.station.ingest import fingerprint
from host_sync.station.sync import Session, SyncFailed

KEY = bytes(range(32))


# -- the terminal's handler ------------------------------------------------------------------

def hello(term):
    reply = term.handle({"m": "hello", "i": 1, "v": [3], "sn": bytes(range(16))})[0]
    return reply


def signed(term, msg):
    return link.sign(term.keys.key, term.nonce, msg)


def on_the_cable(replies):
    """The replies as the station reads them: framed by the terminal, decoded by the host (a
    pull's records go out as the journal holds them, already encoded)."""
    return [link.decode_frame(encode_frame(r)[:-1]) for r in replies]


def test_an_unregistered_terminal_answers_hello_and_refuses_the_rest(tmp_path):
    term = Link(str(tmp_path), "PICO-1")
    h = hello(term)
    assert (h["id"], h["event"], h["last"], len(h["nonce"])) == ("PICO-1", None, 0, 16)
    assert "h" not in h  # no key: nothing to prove
    assert term.handle({"m": "pull", "i": 2, "after": 0, "max": 5})[0]["code"] == "unregistered"
    assert term.handle({"m": "hello", "i": 3, "v": [7]})[0]["code"] == "version"
    for v in (1, 2):  # a station of protocol 1 or 2
        old = term.handle({"m": "hello", "i": 3, "v": [v]})[0]
        assert old["code"] == "version" and "version 3 only" in old["text"]
    assert term.handle({"m": "hello", "i": 3, "v": [3]})[0]["code"] == "bad_request"  # no sn
    assert term.handle([1, 2])[0]["code"] == "bad_request"


def register_request(term, code, event_fp="ev1", key=KEY):
    """A station's register in this conversation, tagged (`pt`) under a pairing code."""
    msg = {"m": "register", "i": 2, "event": event_fp, "key": key, "id": "PICO-1"}
    return dict(msg, pt=link.message_tag(code.encode(), term.nonce, msg, "pt"))


def register(term, event_fp="ev1", key=KEY, code=None):
    """hello, then register with the code of a pairing the director opened (or `code`)."""
    hello(term)
    if code is None:
        code = term.open_pairing()  # what the director's pairing screen does
    return term.handle(register_request(term, code, event_fp, key))


def wrong(code):
    return "%06d" % ((int(code) + 1) % 1000000)


def test_a_key_is_taken_only_in_a_pairing_opened_at_the_terminal(tmp_path):
    """No pairing open (the stranger's laptop on a new terminal's cable): no key, whatever
    the request says; a wrong code costs a try and three close the pairing; a tag of an
    older conversation is a replay; the right code in time is taken, once."""
    term = Link(str(tmp_path), "PICO-1")
    hello(term)
    plain = {"m": "register", "i": 2, "event": "ev1", "key": KEY, "id": "PICO-1"}
    refused = term.handle(plain)[0]
    assert refused["code"] == "pairing" and "no pairing open" in refused["text"]
    assert term.handle(register_request(term, "123456"))[0]["code"] == "pairing"
    assert not term.keys.registered() and not (tmp_path / "registration").exists()
    code = term.open_pairing()
    texts = [term.handle(register_request(term, wrong(code)))[0]["text"] for _ in range(3)]
    assert texts == ["wrong code: 2 tries left", "wrong code: 1 tries left",
                     "wrong code: the pairing is closed"]
    assert term.handle(register_request(term, code))[0]["code"] == "pairing"  # closed now
    assert term.paired == "closed" and not term.keys.registered()
    code = term.open_pairing()
    old = register_request(term, code)
    hello(term)  # a new conversation: the tag of the old one is a replay
    assert term.handle(old)[0]["code"] == "pairing" and term.pairing[2] == 2
    ok = term.handle(register_request(term, code))[0]
    link.check_signed(KEY, term.nonce, ok)
    assert term.keys.registered() and term.paired == "ok" and term.pairing is None
    assert Link(str(tmp_path)).keys.key == KEY  # on flash
    again = term.handle(register_request(term, code))[0]  # its ok was lost: the same key again
    assert again["m"] == "ok"


def test_codes_are_fresh_and_a_pairing_left_open_expires(tmp_path):
    term = Link(str(tmp_path), "PICO-1")
    codes = {term.open_pairing() for _ in range(50)}
    assert len(codes) > 45 and all(len(c) == 6 and c.isdigit() for c in codes)
    hello(term)
    code = term.open_pairing()
    term.pairing[1] -= 181  # opened over three minutes ago
    assert term.handle(register_request(term, code))[0]["code"] == "pairing"
    assert term.paired == "expired" and not term.keys.registered()


def test_registration_proves_the_key_and_requests_need_its_tag(tmp_path):
    term = Link(str(tmp_path), "PICO-1")
    ok = register(term)[0]
    link.check_signed(KEY, term.nonce, ok)
    [paired] = term.journal.records_after(0)  # the pairing journaled: the fact, not the key
    assert paired[:2] == (1, "pair") and paired[2]["fp"] == fingerprint(KEY)  # as the host
    assert KEY not in settle(tmp_path / "journal")
    term.journal.append("board", {"b": 1})
    unsigned = {"m": "ack", "i": 3, "seq": 1}
    assert term.handle(unsigned)[0]["code"] == "auth"
    assert term.handle(link.sign(os.urandom(32), term.nonce, unsigned))[0]["code"] == "auth"
    old_nonce = term.nonce
    hello(term)  # a new conversation: a request signed for the old one is a replay
    assert term.handle(link.sign(KEY, old_nonce, unsigned))[0]["code"] == "auth"
    assert term.journal.base == 0
    assert term.handle(signed(term, {"m": "ack", "i": 4, "seq": 3}))[0]["code"] == "ack_beyond"
    assert term.handle(signed(term, {"m": "ack", "i": 5, "seq": 1}))[0] == {
        "m": "acked", "i": 5, "base": 1}


def test_bye_acknowledges_and_compacts_after_its_answer(tmp_path):
    """The station's bye carries `seq`, what it has stored: the terminal answers first and
    compacts after (the station does not wait for the flash), only as far as the
    application allows; a seq beyond the journal is refused and nothing ends."""
    term = Link(str(tmp_path), "PICO-1", ack_limit=lambda seq: min(seq, 4))
    register(term)  # seq 1: the pairing
    for b in range(1, 7):
        term.journal.append("board", {"b": b})
    beyond = term.handle(signed(term, {"m": "bye", "i": 3, "seq": 8}))
    assert beyond[0]["code"] == "ack_beyond" and not term.done and term.journal.base == 0
    answer = term.handle(signed(term, {"m": "bye", "i": 4, "seq": 5}))
    assert next(answer) == {"m": "bye", "i": 4} and term.journal.base == 0  # not yet
    assert list(answer) == [] and term.journal.base == 4 and term.done
    assert [r[0] for r in term.journal.records_after(0)] == [5, 6, 7]


def test_the_application_may_keep_records_it_still_needs(tmp_path):
    term = Link(str(tmp_path), "PICO-1", ack_limit=lambda seq: min(seq, 2))
    register(term)  # seq 1: the pairing
    for b in range(1, 6):
        term.journal.append("board", {"b": b})
    assert term.handle(signed(term, {"m": "ack", "i": 3, "seq": 5}))[0]["base"] == 2
    assert [r[0] for r in term.journal.records_after(0)] == [3, 4, 5, 6]


def test_a_key_once_set_changes_only_in_another_pairing(tmp_path):
    term = Link(str(tmp_path), "PICO-1")
    register(term)
    term.journal.append("board", {"b": 1})
    other = os.urandom(32)
    hello(term)
    assert term.handle(register_request(term, "000000", "ev2", other))[0]["code"] == "pairing"
    assert Link(str(tmp_path)).keys.event == "ev1"  # kept on flash as it was
    ok = register(term, "ev2", other)[0]  # the director pairs it with another station
    link.check_signed(other, term.nonce, ok)
    again = Link(str(tmp_path))
    assert (again.keys.event, again.keys.key) == ("ev2", other)
    records = list(again.journal.records_after(0))  # re-tagged under the new key
    assert [link.check_record(other, "PICO-1", list(r))[1] for r in records] == [
        "pair", "board", "pair"]  # each pairing journaled
    assert records[-1][2]["fp"] == fingerprint(other)


def test_pull_chains_batches_under_the_frame_limit(tmp_path):
    term = Link(str(tmp_path), "PICO-1")
    register(term)
    for n in range(40):
        term.journal.append("res", {"b": n + 1, "tr": 7, "sc": 90, "pad": "x" * 40})
    batches = on_the_cable(term.handle(signed(term, {"m": "pull", "i": 9, "after": 3,
                                                     "max": 30})))
    # the last batch ends the answer: it says the journal's last seq, no other does
    assert [b.get("last") for b in batches] == [None] * (len(batches) - 1) + [41]
    assert len(batches) > 1
    prev = 3
    seqs = []
    for b in batches:
        assert b["p"] == prev and len(link.cbor_encode(b)) <= link.MAX_PAYLOAD
        for r in b["r"]:
            seqs.append(link.batch_record(r, prev)[0])
            prev = seqs[-1]
    assert seqs == list(range(4, 34))
    for b in batches:  # the batch is authenticated, not each record
        link.check_signed(KEY, term.nonce, b)
    # no gap: every seq is implied by the one before it, and no record carries a tag
    assert all(len(r) == 2 and r[0] == "res" for b in batches for r in b["r"])
    forged = dict(batches[0], r=batches[0]["r"][::-1])  # reordered: its tag fails
    with pytest.raises(link.FrameError, match="hmac"):
        link.check_signed(KEY, term.nonce, forged)


class Writes:
    """A terminal's output stream that keeps each write apart."""

    def __init__(self):
        self.writes = []

    def write(self, data):
        self.writes.append(bytes(data))


def test_a_pull_answer_is_streamed_frame_by_frame(tmp_path, monkeypatch):
    """Port.step writes each batch as soon as it is made (the first on the wire while the
    journal is read for the next), the answer's first frame led by a zero; the last batch,
    with `last`, ends it, and the whole window (MAX_PULL, here made 256) comes in one
    answer, whatever `max` asks."""
    monkeypatch.setattr("terminal.link.MAX_PULL", 256)
    term = Link(str(tmp_path), "PICO-1")
    register(term)
    for n in range(300):
        term.journal.append("res", {"b": n + 1, "tr": 7, "sc": 90})
    r, w = os.pipe()
    out = Writes()
    port = Port(term, os.fdopen(r, "rb", buffering=0), out)
    os.write(w, b"\x00" + link.encode_frame(signed(term, {"m": "pull", "i": 4, "after": 0,
                                                          "max": 1000})))
    assert port.step(2000) == "data"
    os.close(w)
    assert len(out.writes) > 3 and out.writes[0][0] == 0
    assert all(x[0] != 0 and x.count(0) == 1 for x in out.writes[1:])  # one frame a write
    batches = [m for x in out.writes for m in link.FrameReader().feed(x)]
    assert len(batches) == len(out.writes) and "last" in batches[-1]
    assert all("last" not in b for b in batches[:-1])
    assert sum(len(b["r"]) for b in batches) == 256 and batches[-1]["last"] == 301  # + pair


def test_a_gap_in_the_journal_is_sent_with_its_seq_and_the_rest_implied(tmp_path):
    """A record destroyed by flash damage leaves a hole in the seqs: the record after it
    carries its seq, the others have it implied by the one before (the chain), and the
    station reads the same seqs back."""
    term = Link(str(tmp_path), "PICO-1")
    register(term)  # seq 1: the pairing
    for n in range(5):
        term.journal.append("board", {"b": n + 1})
    raw = settle(tmp_path / "journal")  # the tail file's records onto the journal's
    frames = raw.split(b"\x00")
    third = [n for n, f in enumerate(frames) if f][-3]  # the records are the last 5 frames
    frames[third] = frames[third][:4] + bytes([frames[third][4] % 255 + 1]) + \
        frames[third][5:]
    (tmp_path / "journal").write_bytes(b"\x00".join(frames))
    term = Link(str(tmp_path))
    assert term.journal.damaged == 1
    hello(term)
    [batch] = on_the_cable(term.handle(signed(term, {"m": "pull", "i": 3, "after": 0,
                                                     "max": 64})))
    assert [len(r) for r in batch["r"]] == [2, 2, 2, 3, 2] and batch["r"][3][0] == 5
    prev, seqs = batch["p"], []
    for r in batch["r"]:
        seqs.append(link.batch_record(r, prev)[0])
        prev = seqs[-1]
    assert seqs == [1, 2, 3, 5, 6] and batch["last"] == 6
    with pytest.raises(link.FrameError, match="above 2"):
        link.batch_record([2, "board", {}], 2)  # a seq that goes back is no record


def deflated(data):
    packer = zlib.compressobj(9, zlib.DEFLATED, -9)
    return packer.compress(data) + packer.flush()


def test_a_pushed_file_resumes_where_it_stopped_and_must_match_its_digest(tmp_path):
    term = Link(str(tmp_path), "PICO-1")
    register(term)
    raw = os.urandom(1000) + bytes(1000)  # deflate shrinks the zeros, not the noise
    data = deflated(raw)
    size, sha = len(data), hashlib.sha256(raw).digest()
    assert size < 1100

    def put(at, d, digest=None):
        msg = {"m": "put", "i": 3, "f": "config.cbor", "at": at, "size": size, "d": d}
        return term.handle(signed(term, dict(msg, sha=digest) if digest else msg))[0]

    assert put(0, data[:400])["at"] == 400
    assert put(800, data[800:], sha)["at"] == 400  # a lost chunk: the terminal says where it is
    assert put(400, data[400:800])["at"] == 800
    bad = put(800, data[800:], bytes(32))  # the last chunk, with another digest: dropped
    assert bad["code"] == "sha" and not (tmp_path / "config.cbor").exists()
    assert put(800, data[800:], sha)["at"] == 0  # dropped: sent again from the start
    assert put(0, data[:800])["at"] == 800
    done = put(800, data[800:], sha)
    assert (done["at"], done["ok"]) == (size, True)
    assert (tmp_path / "config.cbor").read_bytes() == raw  # inflated, in place
    again = put(800, data[800:], sha)  # the answer was lost: the file is in place already
    assert (again["at"], again["ok"]) == (size, True)
    assert hello(term)["config.cbor"] == sha
    refused = term.handle(signed(term, {"m": "put", "i": 6, "f": "../main.py", "at": 0,
                                        "size": 1, "d": b"x"}))[0]
    assert refused["code"] == "bad_request"


def test_a_deflate_bomb_is_refused_and_the_file_in_place_kept(tmp_path):
    """A few hundred bytes that inflate beyond the 16 KB a pushed file may hold (a station
    with the key gone bad, or a bug): refused by digest, the file in place kept as it was."""
    term = Link(str(tmp_path), "PICO-1")
    register(term)
    (tmp_path / "config.cbor").write_bytes(b"old")
    bomb = bytes(1 << 20)
    data = deflated(bomb)
    assert len(data) < 1100
    reply = term.handle(signed(term, {"m": "put", "i": 3, "f": "config.cbor", "at": 0,
                                      "size": len(data), "d": data,
                                      "sha": hashlib.sha256(bomb).digest()}))[0]
    assert reply["code"] == "sha" and "16384" in reply["text"]
    assert (tmp_path / "config.cbor").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir() if "config" in p.name) == ["config.cbor"]


# -- the station against a terminal that sends bad frames ------------------------------------

class BadTerminal(threading.Thread):
    """A terminal on a pty that answers the station properly, except that its answer to the
    first pull is `bad` (raw bytes) before the good records."""

    def __init__(self, key, ident, records, bad):
        threading.Thread.__init__(self, daemon=True)
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.path = os.ttyname(slave)
        self._slave = slave
        self.key, self.tid, self.records, self.bad = key, ident, records, bad
        self.nonce = os.urandom(16)
        self.session = b""  # the conversation's nonce: the station's sn and self.nonce
        self.pulls = 0

    def sign(self, msg, key=None):
        return link.sign(key or self.key, self.session, msg)

    def send(self, *msgs, raw=b""):
        os.write(self.master, raw + b"".join(b"\x00" + link.encode_frame(m) for m in msgs))

    def run(self):
        reader = link.FrameReader()
        try:
            while True:
                data = os.read(self.master, 4096)
                for msg in reader.feed(data):
                    self.answer(msg)
        except OSError:
            return

    def answer(self, msg):
        i = msg["i"]
        if msg["m"] == "hello":
            self.session = msg["sn"] + self.nonce
            self.send(self.sign({
                "m": "hello", "i": i, "v": 3, "id": self.tid, "fw": "bad", "event": self.event,
                "nonce": self.nonce, "base": 0, "last": len(self.records), "damaged": 0}))
        elif msg["m"] == "pull":
            self.pulls += 1
            after = msg["after"]
            good = [r for r in self.records if r[0] > after]
            raw = self.bad(i, after) if self.pulls == 1 else b""
            self.send(self.sign({"m": "recs", "i": i, "p": after, "r": good,
                                 "last": len(self.records)}), raw=raw)
        elif msg["m"] == "ack":
            self.send({"m": "acked", "i": i, "base": msg["seq"]})
        elif msg["m"] == "put":
            self.send({"m": "have", "i": i, "f": msg["f"], "at": msg["size"], "ok": "sha" in msg})
        else:
            self.send({"m": msg["m"] if msg["m"] == "bye" else "ok", "i": i})


@pytest.fixture
def station_db(tmp_path):
    db = open_db(tmp_path / "event.db", create=True)
    eid = setup.create_event(db, "Pairs")
    setup.add_session(db, eid, 1, event_movement(4))
    yield db
    db.close()


def records_for(n=6):
    """[seq, kind, data] as a pull batch carries them (the batch is tagged, not each)."""
    recs, _ = table_round(3, event_movement(4), 1, 1)
    return [[seq, kind, data] for seq, (kind, data) in enumerate(recs[:n], 1)]


def recs_frame(t, i, after, records, key=None):
    return b"\x00" + link.encode_frame(t.sign({"m": "recs", "i": i, "p": after, "r": records},
                                              key))


def bad_crc_frame(t, i, after, records):
    """A batch whose CRC is wrong and whose framing is right: the CRC changed before COBS
    (a byte of the encoded frame flipped could land on a COBS code byte, or make a zero
    that split the frame: then it failed as another kind, now and then)."""
    payload = link.cbor_encode(t.sign({"m": "recs", "i": i, "p": after, "r": records}))
    crc = zlib.crc32(payload) ^ 1
    return b"\x00" + link.cobs_encode(payload + struct.pack("<I", crc)) + link.DELIMITER


BAD_ANSWERS = {
    "crc": lambda t: lambda i, a: bad_crc_frame(t, i, a, t.records[:2]),
    "cbor": lambda t: lambda i, a: b"\x00" + link.frame_cbor(b"\xa1\x61m\x9f\xff\x01"),
    "type": lambda t: lambda i, a: recs_frame(t, i, a, [["one", "call", {}]]),
    "oversize": lambda t: lambda i, a: b"\x00" + b"\x05" * 3000,
    "hmac": lambda t: lambda i, a: recs_frame(t, i, a, [  # a forged batch: another key
        [1, "open", {"sec": "A", "tbl": 1, "rnd": 1, "ns": 1, "ew": 9}]], key=os.urandom(32)),
}


@pytest.mark.parametrize("code", sorted(BAD_ANSWERS))
def test_bad_frames_are_refused_counted_logged_and_never_stored(station_db, code, caplog):
    db = station_db
    ident = "PICO-BAD"
    key = setup.register_terminal(db, ident, 0)
    bad = BadTerminal(key, ident, records_for(), None)
    bad.event = link.event_fingerprint(setup.the_event(db)[2])
    bad.bad = BAD_ANSWERS[code](bad)
    bad.start()
    caplog.set_level(logging.WARNING, "host_sync.station.sync")
    with serial.Serial(bad.path, timeout=0.02) as port:
        p = Session(db, port, timeout=0.3).run()
    os.close(bad.master)
    assert p.refused[code] >= 1
    assert any(code in r.getMessage() for r in caplog.records)
    stored = [tuple(r) for r in db.all("SELECT seq, kind, body FROM records ORDER BY seq")]
    # only the good records are there: none of the bad frame's content
    assert stored == [(r[0], r[1], json.dumps(r[2], sort_keys=True)) for r in bad.records]
    assert json.loads(db.value("SELECT refused FROM syncs"))[code] >= 1


def test_an_unknown_terminal_is_refused_and_nothing_is_stored(station_db, tmp_path):
    term = Terminal(tmp_path / "flash", "PICO-NEW")
    port = term.plug()
    try:
        with serial.Serial(port, timeout=0.02) as s:
            session = Session(station_db, s, timeout=0.5)
            with pytest.raises(SyncFailed, match="unknown terminal PICO-NEW"):
                session.run()
    finally:
        term.unplug()
    assert session.progress.refused["unknown_terminal"] == 1
    assert station_db.value("SELECT COUNT(*) FROM terminals") == 0
    assert not (tmp_path / "flash" / "registration").exists()


def test_a_terminal_holding_another_key_stores_nothing(station_db, tmp_path):
    """A terminal whose key is not the one this event gave it: its hello does not verify, the
    station sends it nothing, and nothing it holds reaches the database."""
    term = Terminal(tmp_path / "flash", "PICO-TWIN")
    setup.register_terminal(station_db, "PICO-TWIN", 0)
    Link(str(tmp_path / "flash"), "PICO-TWIN")  # flash folder exists
    fp = link.event_fingerprint(setup.the_event(station_db)[2])
    from terminal.keystore import Keystore
    Keystore(str(tmp_path / "flash" / "registration")).save("PICO-TWIN", fp, os.urandom(32))
    recs, _ = table_round(5, event_movement(4), 1, 1)
    term.play(write_script(tmp_path / "round.jsonl", recs[:5]))
    port = term.plug()
    try:
        with serial.Serial(port, timeout=0.02) as s:
            session = Session(station_db, s, timeout=0.3, tries=3)
            with pytest.raises(SyncFailed, match="did not prove it holds the key"):
                session.run()
    finally:
        term.unplug()
    assert station_db.value("SELECT COUNT(*) FROM records") == 0
