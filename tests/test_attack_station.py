"""Attacks on the sync station from a fake device on its port (docs/SECURITY.md): a thread on
a real pseudo-terminal answers `host_sync.station.sync.Session` as an attacker's laptop would. Each
test shows what the fake tries, then that the station refuses it with a clear message, writes
nothing, sends no key and no configuration, and stays bounded in time and memory."""

import logging
import os
import threading
import time
import tty

import pytest
import serial
from sync_script import event_movement, table_round

from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.station import link
from host_sync.station.ingest import ingest
from host_sync.station.sync import MAX_MESSAGES, Session, SyncFailed

KNOWN = "PICO-01"


class Fake(threading.Thread):
    """A device on a pty: `answer(fake, msg)` returns the messages to send (or raw bytes);
    everything the station sent is kept in `heard`, every byte in `raw`."""

    def __init__(self, answer):
        threading.Thread.__init__(self, daemon=True)
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.path = os.ttyname(slave)
        self._slave = slave
        self.answer = answer
        self.heard, self.raw = [], b""
        self.nonce = os.urandom(16)

    def run(self):
        """Answer until the station's end is gone (its last slave closed: EIO), then close
        the master: a pty pair left open per fake ran a long fuzz out of descriptors."""
        reader = link.FrameReader()
        try:
            while True:
                data = os.read(self.master, 4096)
                self.raw += data
                for msg in reader.feed(data):
                    self.heard.append(msg)
                    out = self.answer(self, msg)
                    if isinstance(out, bytes):
                        os.write(self.master, out)
                    elif callable(out):
                        out()
                    else:
                        os.write(self.master, b"".join(b"\x00" + link.encode_frame(m)
                                                       for m in out))
        except OSError:
            return
        finally:
            os.close(self.master)

    def hello(self, msg, key=None, **fields):
        """A hello as the terminal of KNOWN would give it (signed when key is given)."""
        reply = {"m": "hello", "i": msg["i"], "v": 3, "id": KNOWN, "fw": "0.2", "event": None,
                 "nonce": self.nonce, "base": 0, "last": 0, "damaged": 0,
                 "config.cbor": None, "travellers.cbor": None}
        reply.update(fields)
        return link.sign(key, msg["sn"] + self.nonce, reply) if key else reply


@pytest.fixture
def db(tmp_path):
    """An event whose terminal KNOWN has synced one round (6 records stored)."""
    d = open_db(tmp_path / "event.db", create=True)
    setup.add_session(d, setup.create_event(d, "Pairs"), 1, event_movement(4))
    setup.register_terminal(d, KNOWN, 0)
    recs, _ = table_round(3, event_movement(4), 1, 1)
    ingest(d, KNOWN, 0, [(n, k, v) for n, (k, v) in enumerate(recs[:6], 1)])
    yield d
    d.close()


def key_of(db):
    return bytes.fromhex(db.value("SELECT key FROM terminals WHERE id = ?", (KNOWN,)))


def fingerprint(db):
    return link.event_fingerprint(setup.the_event(db)[2])


def state(db):
    """Everything a sync could change."""
    return [db.all("SELECT * FROM %s ORDER BY 1" % t) for t in (
        "terminals", "records", "flags", "results", "syncs")]


def run(db, fake, register=True, timeout=0.5):
    fake.start()
    try:
        with serial.Serial(fake.path, timeout=0.02) as port:
            session = Session(db, port, register=register, timeout=timeout, tries=2)
            with pytest.raises(SyncFailed) as failed:
                session.run()
    finally:
        os.close(fake._slave)
    return session, str(failed.value)


def test_an_unproved_hello_moves_nothing_and_gets_nothing(db):
    """A hello claiming a known terminal of this event with base and last at 10^6 used to move
    the stored last_seq there (with a records_compacted flag) and get the configuration pushed,
    hand records and PIN hash included. Unsigned, or signed under another key, it gets only
    a refusal now: nothing written, nothing sent but the hello."""
    before, fp = state(db), fingerprint(db)
    for key in (None, os.urandom(32)):
        fake = Fake(lambda f, m, key=key: [f.hello(m, key, event=fp, base=10 ** 6,
                                                   last=10 ** 6)])
        session, why = run(db, fake)
        assert "did not prove it holds the key" in why
        assert session.progress.refused["hmac"] == 1
        assert [m["m"] for m in fake.heard] == ["hello"]
    assert state(db) == before


def test_the_station_gives_no_known_terminals_key_to_a_keyless_claimant(db):
    """A device with no key that claims the identity of a terminal that has synced (ids are
    public: every hello carries one) used to get that terminal's key, even without
    --register, and forged records under it. Now it is refused and told what a real wiped
    terminal needs (`terminal reset`); the key never crosses the cable."""
    before = state(db)
    fake = Fake(lambda f, m: [f.hello(m)])
    session, why = run(db, fake)
    assert "holds no key (flash wiped?)" in why and "terminal reset" in why
    assert [m["m"] for m in fake.heard] == ["hello"]
    assert key_of(db) not in fake.raw
    assert state(db) == before


def test_a_terminal_of_another_event_or_protocol_is_refused_clearly(db):
    """A device naming another event's fingerprint takes no key here; a terminal of protocol
    1 is told to update."""
    fake = Fake(lambda f, m: [f.hello(m, event="0123456789abcdef")])
    _, why = run(db, fake)
    assert "belongs to another event" in why
    for old in (1, 2):  # protocol 1, or 2 (an end message after the batches, no deflate)
        fake = Fake(lambda f, m, v=old: [f.hello(m, v=v)])
        _, why = run(db, fake)
        assert "speaks protocol version %d; this station speaks 3" % old in why


def test_escape_codes_from_a_device_never_reach_the_console(db, caplog):
    """A terminal id or an error text with escape codes (clear the screen, retitle the
    window) used to be printed as they came. The identity is refused, and all that a device
    says is shown with its control characters escaped."""
    caplog.set_level(logging.INFO)
    evil = "PICO\x1b[2J\x1b]0;owned\x07"
    fake = Fake(lambda f, m: [f.hello(m, id=evil)])
    _, why = run(db, fake)
    assert "identity" in why and "\x1b" not in why and "\\x1b" in why
    fake = Fake(lambda f, m: [{"m": "error", "i": m["i"], "code": "version\x1b[31m",
                               "text": "\x1b[2Jupdate\r\n"}])
    _, why = run(db, fake)
    assert "refused hello" in why and "\x1b" not in why and "\n" not in why
    assert not any("\x1b" in r.getMessage() for r in caplog.records)


def test_an_endless_pull_answer_is_cut_off_in_bounded_time(db):
    """A proved terminal whose pull answer never ends used to keep the station reading (74 to
    265 MB, no end). One answer is now at most MAX_MESSAGES messages: the sync fails with its
    reason, within seconds, and what verified before the flood is all that is stored."""
    key, fp = key_of(db), fingerprint(db)
    stop = threading.Event()

    def answer(f, m):
        if m["m"] == "hello":
            return [f.hello(m, key, event=fp, base=0, last=6)]

        def flood():
            frame = b"\x00" + link.encode_frame({"m": "recs", "i": m["i"], "p": 6, "r": []})
            while not stop.is_set():
                os.write(f.master, frame * 50)
        return flood

    before = state(db)[:4]
    started = time.monotonic()
    fake = Fake(answer)
    session, why = run(db, fake, timeout=1.0)
    stop.set()
    assert "sent over %d messages" % MAX_MESSAGES in why
    assert session.progress.refused["flood"] == 1
    assert time.monotonic() - started < 20
    assert state(db)[:3] == before[:3]  # the terminal, its records and flags are as they were


POISON = [("board", {"b": [1, 2]}), ("board", {"b": {"x": 1}}), ("board", {"b": 2 ** 70}),
          ("flag", {"b": 2 ** 70, "why": "dircall"}), ("call", {"b": 1, "s": 0, "c": 2 ** 70}),
          ("adj", {"b": 1, "how": "art", "ns": b"\x01", "ew": 50}), ("x" * 50, {"b": 1})]


def test_an_extra_byte_string_in_an_adjustment_is_applied_and_blocks_nothing(db):
    """An applied adjustment with a byte string among its fields used to fail every later
    sync (its JSON could not be written): its fields are kept as the record's are."""
    data = {"b": 1, "how": "asg", "ct": 3, "x": 0, "dcl": 0, "tr": 9, "note": b"\x00"}
    report = ingest(db, KNOWN, 6, [(7, "adj", data), (8, "board", {"b": 2})])
    assert report.stored == 2 and report.refused is None
    assert db.value("SELECT valid FROM records WHERE seq = 7") == 1
    assert '"note": "00"' in db.value("SELECT adjustment FROM results WHERE board = 1")


def test_a_gap_in_the_checks_themselves_blocks_nothing_either(db, monkeypatch):
    """An error in check() other than Invalid (a gap the checks did not foresee) costs only
    its record, as an error in applying one does (ingest.apply_safely): stored as received,
    valid = 0, flagged, and the window's other records applied."""
    from host_sync.station import ingest as module

    def board_check(d):
        if "odd" in d:
            raise TypeError("a case check() did not foresee")

    monkeypatch.setitem(module._BOARD_KINDS, "board", board_check)
    report = ingest(db, KNOWN, 6, [(7, "board", {"b": 1, "odd": 1}), (8, "board", {"b": 2})])
    assert report.stored == 2 and report.refused is None
    assert [tuple(r) for r in db.all("SELECT seq, valid FROM records WHERE seq > 6 ORDER BY "
                                      "seq")] == [(7, 0), (8, 1)]
    assert "TypeError" in db.value("SELECT detail FROM flags WHERE seq = 7 AND why = "
                                   "'invalid_record'")


@pytest.mark.parametrize("kind, data", POISON)
def test_a_poison_record_is_stored_and_flagged_and_blocks_nothing(db, kind, data):
    """An authentic record with odd fields (a board that is a list, a map or a huge int, an
    unknown kind) must not block its terminal's later syncs: it is stored as received with
    valid = 0 and an `invalid_record` flag (docs/RECORDS.md), and the records after it are
    stored and applied. (Anything check() lets through that still fails to apply is rolled
    back to its savepoint and flagged the same way: ingest.apply_safely.)"""
    report = ingest(db, KNOWN, 6, [(7, kind, data), (8, "board", {"b": 2})])
    assert report.stored == 2 and report.refused is None
    assert db.value("SELECT valid FROM records WHERE seq = 7") == 0
    assert db.value("SELECT why FROM flags WHERE seq = 7") == "invalid_record"
    assert db.value("SELECT valid FROM records WHERE seq = 8") == 1
    assert ingest(db, KNOWN, 8, [(9, "board", {"b": 3})]).stored == 1


def test_a_journal_numbered_past_what_the_database_keeps_is_refused_before_any_write(db):
    """A proved terminal re-based after a reset (its seq 1 stored after the old journal's
    last) claiming a journal near 2^31: its base plus the offset is past what PostgreSQL's
    INTEGER columns hold, and the stored last_seq moved there went in on SQLite and failed
    the sync with a server error on PostgreSQL. Refused now, with nothing written."""
    with db.transaction():
        db.update("terminals", {"id": KNOWN}, {"journal_offset": 10}, "test")
    before = state(db)
    key, fp, top = key_of(db), fingerprint(db), 2 ** 31 - 5
    fake = Fake(lambda f, m: [f.hello(m, key, event=fp, base=top, last=top)])
    _, why = run(db, fake)
    assert "numbers its records past 2147483647" in why
    assert state(db) == before
