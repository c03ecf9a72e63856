"""The station keeps its head with a slow terminal (a starved process, a busy machine): bytes
arriving mean the terminal is alive and the station waits on; only silence counts a try and
ends the sync; an answer that comes after the request was sent again is taken, and the second
answer it made unnecessary is counted as late, not refused; the live table says "slow
terminal, waiting" while the station waits on a silent terminal. A fake terminal on a real
pseudo-terminal (test_attack_station.Fake) plays the slow one."""

import os
import time

import pytest
import serial
import test_attack_station as attack
from rich.console import Console
from sync_script import event_movement, table_round
from test_attack_station import Fake, fingerprint, key_of

from host_sync.station import ingest, link, serve
from host_sync.station.sync import Session, SyncFailed

known_db = attack.db  # the fixture: an event whose terminal KNOWN has stored 6 records


def signed(fake, key, msg, **fields):
    """The terminal's signed answer to msg (the conversation's nonce: the station's, ours)."""
    return link.sign(key, fake.sn + fake.nonce, dict(fields, i=msg["i"]))


def known_terminal(db, slow_pull=0.0, pull_answers=True, last=6, pull=None):
    """A fake KNOWN terminal of db's event holding the 6 records stored: it answers every
    request at once, except the pulls: the first answered after `slow_pull` seconds of
    silence, the next after 0.1 s (none, with pull_answers False); or, with `pull`, as
    pull(fake, key, msg) says, its journal's last seq being `last`."""
    key, fp = key_of(db), fingerprint(db)
    pulls = []

    def answer(fake, msg):
        m = msg["m"]
        if m == "hello":
            fake.sn = msg["sn"]
            return [fake.hello(msg, key, event=fp, base=0, last=last)]
        if m == "pull" and pull is not None:
            return pull(fake, key, msg)
        if m == "pull":
            pulls.append(msg["i"])
            if not pull_answers:
                return []
            time.sleep(slow_pull if len(pulls) == 1 else 0.1)  # the second: apart from it
            return [signed(fake, key, msg, m="recs", p=6, r=[], last=6)]
        if m == "ack":
            return [signed(fake, key, msg, m="acked", base=msg["seq"])]
        if m == "put":  # the event's configuration and travellers, taken chunk by chunk
            at = msg["at"] + len(msg["d"])
            return [signed(fake, key, msg, m="have", at=at, ok=at == msg["size"])]
        if m == "bye":
            return [signed(fake, key, msg, m="bye")]
        return [signed(fake, key, msg, m="error", code="unexpected", text=m)]

    fake = Fake(answer)
    fake.pulls = pulls
    return fake


def sync(db, fake, timeout, tries=6):
    fake.start()
    shown = []
    try:
        with serial.Serial(fake.path, timeout=0.02) as port:
            session = Session(db, port, timeout=timeout, tries=tries,
                              on_progress=lambda p: shown.append(p.slow))
            try:
                session.run()
            except SyncFailed as e:
                return session, shown, str(e)
    finally:
        os.close(fake._slave)
    return session, shown, None


def test_a_terminal_sending_slowly_is_waited_for_not_asked_again(known_db):
    """A hello answer that takes 4 timeouts to come, a few bytes at a time, was cut off by
    the per-message deadline: the hello was sent again and again and the sync failed after
    its tries. Each byte now says the terminal is alive: one hello, its answer taken."""

    def trickle(fake, msg):
        frame = b"\x00" + link.encode_frame(fake.hello(msg))  # a keyless claimant's hello

        def send():
            for at in range(0, len(frame), 8):
                os.write(fake.master, frame[at:at + 8])
                time.sleep(0.8 * 8 / len(frame))  # 0.8 s in all, never 0.2 s of silence
        return send

    fake = Fake(trickle)
    session, _, why = sync(known_db, fake, timeout=0.2, tries=2)
    assert "holds no key (flash wiped?)" in why  # the hello arrived whole and was read
    assert [m["m"] for m in fake.heard] == ["hello"]
    assert session.progress.retries == 0 and session.progress.refused == {"keyless": 1}


def test_an_answer_after_a_silence_is_taken_and_its_double_is_late_not_refused(known_db):
    """The first pull is answered after 1.5 timeouts of silence: the station sends it again
    (a try spent on silence, the table says it waits), takes the first answer when it comes,
    and the terminal's answer to the second send, which comes during the next request, is
    counted as late: the sync is done with nothing refused (the main-loop test saw 15
    'stale' replies under load for this)."""
    fake = known_terminal(known_db, slow_pull=0.45)
    session, shown, why = sync(known_db, fake, timeout=0.3)
    p = session.progress
    assert why is None and p.outcome == "done"
    assert len(fake.pulls) == 2 and p.retries == 1
    assert p.late == 1 and not p.refused, (p.late, p.refused)
    assert True in shown and p.slow is False  # said while waiting, cleared by the answer


def test_a_silent_terminal_is_given_up_after_its_tries_each_waiting_longer(known_db):
    """Silence is the only reason to give up: 3 tries of growing waits (0.2, 0.4, 0.8 s:
    doubling up to SLOW_WAIT timeouts), then the sync fails saying so."""
    fake = known_terminal(known_db, pull_answers=False)
    start = time.monotonic()
    session, shown, why = sync(known_db, fake, timeout=0.2, tries=3)
    took = time.monotonic() - start
    assert why == "no answer to pull after 3 tries"
    assert len(fake.pulls) == 3 and took >= 0.2 + 0.4 + 0.8
    assert True in shown


def test_the_live_table_says_slow_terminal_waiting(known_db, tmp_path):
    """While the station waits on a silent terminal, its row's note says so, in Russian and
    English (the table is one line per port)."""
    fake = known_terminal(known_db, pull_answers=False)
    fake.start()
    station = serve.Station(str(tmp_path / "event.db"), [fake.path], timeout=0.3)
    try:
        station.poll()
        deadline = time.monotonic() + 10
        text = ""
        while time.monotonic() < deadline and serve.SLOW not in text:
            console = Console(record=True, width=250)
            console.print(serve.render(station))
            text = console.export_text()
            time.sleep(0.05)
        assert "медленный терминал, ждём / slow terminal, waiting" in text, text
        assert station.wait_idle(30)
        (_, state, _, error), = station.snapshot()
        assert state == "error" and "no answer to pull" in error
    finally:
        os.close(fake._slave)


def batched_pull(records, apart):
    """A pull answered with `records` (after the 6 stored) in recs batches of 4 records, all
    written at once (apart 0) or each `apart` seconds after the one before."""

    def pull(fake, key, msg):
        frames = []
        for at in range(0, len(records), 4):
            batch = {"m": "recs", "p": 6 + at, "r": [list(r) for r in records[at:at + 4]]}
            if at + 4 >= len(records):
                batch["last"] = 6 + len(records)
            frames.append(b"\x00" + link.encode_frame(signed(fake, key, msg, **batch)))
        if not apart:
            return b"".join(frames)

        def send():
            for frame in frames:
                os.write(fake.master, frame)
                time.sleep(apart)
        return send
    return pull


@pytest.mark.parametrize("apart, stores", [(0, [32]), (0.2, [4] * 8)])
def test_batches_that_come_together_are_stored_in_one_commit(known_db, monkeypatch, apart,
                                                            stores):
    """A terminal that sends faster than the station stores (a pty, a USB CDC port) has the
    batches waiting on the line stored together, one transaction and one commit instead of
    one each; batches that come apart (a UART: 90 ms a full batch) are each stored as it
    comes, while the next is on the wire. Every record is stored either way."""
    recs, _ = table_round(3, event_movement(4), 1, 1)
    new = recs[6:38]
    assert len(new) == 32
    calls = []
    real = ingest.ingest
    monkeypatch.setattr(ingest, "ingest", lambda db, tid, prev, records: calls.append(
        len(records)) or real(db, tid, prev, records))
    fake = known_terminal(known_db, last=38, pull=batched_pull(new, apart))
    session, _, why = sync(known_db, fake, timeout=1.0)
    assert why is None and session.progress.stored == 32
    assert calls == stores
    assert known_db.value("SELECT max(seq) FROM records WHERE terminal_id = ?",
                          (attack.KNOWN,)) == 38


@pytest.mark.parametrize("answers, outcome", [(True, "done"), (False, "no answer to pull "
                                                                        "after 1 tries")])
def test_a_sync_done_marks_the_terminal_seen_in_the_commit_of_its_outcome(known_db, answers,
                                                                          outcome):
    """`event show` says when a terminal last synced, even with nothing new to store: the
    sync that is done says so with its outcome, in one commit; one that fails does not."""
    with known_db.transaction():
        known_db.conn.execute("UPDATE terminals SET last_seen = NULL")
    fake = known_terminal(known_db, pull_answers=answers)
    session, _, why = sync(known_db, fake, timeout=0.5, tries=1)
    assert session.progress.stored == 0 and session.progress.outcome == outcome
    assert known_db.value("SELECT outcome FROM syncs") == outcome
    seen = known_db.value("SELECT last_seen FROM terminals WHERE id = ?", (attack.KNOWN,))
    assert (seen is not None) == answers
