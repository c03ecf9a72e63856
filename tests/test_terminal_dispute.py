"""The dispute path (issue 15, item 2): the opponents refuse a result (Law 79A2: the score
is agreed by both sides, a disagreement goes to the director), the player goes back, enters
the lead and the tricks again; the refused result must be gone, only the new one goes to the
opponents, and their OK verifies the new one. Keyed in process (CPython), through the key
script runner under the real MicroPython, and ingested by the host: the old result is
nowhere on the screen, in the terminal's state or in the scoring database."""

import json

from conftest import run_device
from terminal_support import IDENT, Terminal, impossible, journal_records, make_config, write_config

# The keys: round 1, board 1, 1S by North passed out; East leads the ♦Q, 10 tricks;
# the opponents disagree (BACK), the player goes back to the lead (BACK), leads ♦Q again,
# 9 tricks, OK records them; the last OK is the opponents' agreement.
KEYS = "OK OK OK  1 S PASS PASS PASS  D D  1 0  OK  BACK  BACK  D D  9  OK"


def check_records(records):
    """The journal: 10 tricks refused and erased, then 9 tricks verified."""
    kinds = [(k, d) for k, d in records if k in ("res", "ver", "erase")]
    assert kinds == [("res", {"b": 1, "tr": 10, "sc": 170}), ("ver", {"b": 1, "ok": 0}),
                     ("erase", {"b": 1}), ("res", {"b": 1, "tr": 9, "sc": 140}),
                     ("ver", {"b": 1, "ok": 1})]
    assert not impossible(records)


def test_a_refused_result_is_gone_and_the_new_one_is_verified(tmp_path):
    term = Terminal(tmp_path, make_config()).press(KEYS)
    text = term.text()
    assert "Проверка" in text and "9 взяток (+2)" in text and "NS +140" in text
    assert "10" not in text.split("\n", 1)[1] and "+170" not in text
    board = term.app.session.current
    assert (board.tricks, board.score, board.verified) == (9, 140, False)
    term.press("OK")  # the opponents agree: the new result
    assert (board.tricks, board.score, board.verified) == (9, 140, True)
    assert "1♠ С +2" in term.text() and "NS +140" in term.text()
    check_records(term.records())
    term.start()  # and after a power cut, the same
    board = term.app.session.current
    assert (board.tricks, board.score, board.verified) == (9, 140, True)


def test_the_refused_result_cannot_be_verified_by_the_next_ok(tmp_path):
    """The bug: the OK after the refusal recorded the refused 10 tricks as verified."""
    term = Terminal(tmp_path, make_config()).press("OK OK OK 1 S PASS PASS PASS D D 1 0 OK")
    term.press("BACK")
    assert "Взятки разыгрывающего" in term.text()
    term.press("OK")  # nothing typed: nothing to record, nothing verified
    assert term.records()[-1] == ("erase", {"b": 1})
    assert term.app.session.current.tricks == -1


def test_the_same_under_micropython(tmp_path):
    """The key script runner under the real MicroPython writes the same records and ends on
    the same screen as CPython."""
    screens = {}
    for interpreter in ("micropython", "cpython"):
        out = tmp_path / interpreter
        out.mkdir()
        config = write_config(out / "config.cbor", make_config())
        (out / "d.keys").write_text(KEYS + "\nshot verify\nOK\nshot score\n")
        run = run_device(["-m", "terminal.keyscript", str(out / "d.keys"), str(out),
                          "--config", config], interpreter=interpreter, timeout=60)
        assert run.returncode == 0, run.stdout + run.stderr
        assert json.loads(run.stdout.decode().splitlines()[-1])["skipped"] == 0
        check_records([(k, d) for _s, k, d in journal_records(out / "journal")])
        screens[interpreter] = [(out / n).read_text() for n in ("verify.txt", "score.txt")]
    assert screens["micropython"] == screens["cpython"]
    assert "9 взяток (+2)" in screens["cpython"][0] and "+170" not in screens["cpython"][0]


def test_the_host_keeps_only_the_new_result(tmp_path):
    """Ingested, the scoring database holds one result for the board: 9 tricks, verified;
    the refused 10 tricks only in the audit, the dispute flagged for the director."""
    from sync_script import event_movement

    from host_sync.event import setup
    from host_sync.event.db import open_db
    from host_sync.station.ingest import ingest

    assert Terminal(tmp_path, make_config()).press(KEYS + " OK").app.session.current.verified
    db = open_db(tmp_path / "event.db", create=True)
    setup.add_session(db, setup.create_event(db, "Pairs"), 1, event_movement(12))
    setup.register_terminal(db, IDENT, 0)
    records = journal_records(tmp_path / "journal")
    assert ingest(db, IDENT, 0, records).refused is None
    rows = db.all("SELECT board, tricks, verified, score_ns FROM results")
    assert [tuple(r) for r in rows] == [(1, 9, 1, 140)]
    assert sorted(r[0] for r in db.all("SELECT source FROM flags WHERE why = 'dispute'")) == \
        ["host", "terminal"]  # the host's own from the ver 0, and the table's
    actions = [r[0] for r in db.all("SELECT action FROM audit WHERE tbl = 'results'")]
    assert actions == ["insert", "delete", "insert", "update"]
    db.close()
