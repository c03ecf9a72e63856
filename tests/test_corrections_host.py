"""`host-sync result`: a table's result corrected, adjusted (Law 12C) or deleted at the host in
the correction period (Law 79C), after its round closed; every change audited, the scoring,
the exports and the terminals' travellers reading the corrected line, and a later sync of the
terminal's own older records leaving it as the host set it."""

import json

import pytest
from bridge.calls import parse
from sync_script import database_digest, event_movement, table_round

from host_sync.cli import main
from host_sync.event import corrections, setup
from host_sync.event.db import open_db
from host_sync.event.results import session_from_db
from host_sync.interchange.files import load, save
from host_sync.scoring.session import score_session
from host_sync.station.ingest import ingest

T1, T2 = "PICO-01", "PICO-02"
MOVEMENT = event_movement(4)


def numbered(records, first=1):
    return [(first + i, kind, data) for i, (kind, data) in enumerate(records)]


@pytest.fixture
def event(event_location):
    """Round 1 of a 4-table Mitchell played, verified and closed at tables 1 (boards 1-4) and
    2 (boards 5-8), synced from their terminals; in a SQLite file and on PostgreSQL (whose
    migration 005 is its own spelling of the rule's triggers)."""
    path = event_location
    with open_db(path, create=True) as db:
        setup.add_session(db, setup.create_event(db, "Пары"), 1, MOVEMENT)
        for tid, table in ((T1, 1), (T2, 2)):
            setup.register_terminal(db, tid, 0)
            records, _ = table_round(table, MOVEMENT, table, 1)
            ingest(db, tid, 0, numbered(records))
        assert db.value("SELECT COUNT(*) FROM rounds WHERE closed = 1") == 2
    return path


def line(db, table, board):
    return db.one("SELECT r.* FROM results r JOIN rounds ro ON ro.id = r.round_id "
                  "JOIN tables t ON t.id = ro.table_id WHERE t.number = ? AND r.board = ?",
                  (table, board))


def test_a_result_corrected_after_its_round_closed_is_what_everything_reads(event, tmp_path,
                                                                            capsys):
    with open_db(event) as db:
        before = dict(line(db, 1, 1))
    assert main(["result", "correct", str(event), "--table", "1", "--board", "1",
                 "4SX", "N", "9", "--actor", "Иванов", "--lang", "en"]) == 0
    said = capsys.readouterr().out
    assert said.startswith("board 1, table A1, round 1: 4SX N 9, NS -100 (was: ")
    with open_db(event) as db:
        row = line(db, 1, 1)
        # Law 77: 4S doubled, not vulnerable (board 1), one down = -100 for NS
        assert (row["bid"], row["risk"], row["declarer"], row["tricks"], row["score_ns"]) == (
            parse("4S"), 1, 0, 9, -100)
        assert (row["verified"], row["terminal_id"], row["seq"], row["source"]) == (
            1, None, None, "host")
        audit = db.one("SELECT * FROM audit WHERE tbl = 'results' ORDER BY id DESC LIMIT 1")
        assert (audit["actor"], audit["action"]) == ("Иванов", "update")
        old = json.loads(audit["old"])
        assert old["score_ns"] == before["score_ns"] and old["seq"] == before["seq"]
        assert json.loads(audit["new"])["score_ns"] == -100
        scored = [r for r in session_from_db(db).results if r.board == 1]
        assert [(r.contract, r.declarer, r.tricks) for r in scored] == [("4SX", "N", 9)]
        assert setup.travellers(db, T1)[1][0][2:] == [parse("4S"), 1, 0, 9, -100]
    for ext in ("pbn", "xml", "csv"):
        out = tmp_path / ("results." + ext)
        save(session_from_db(open_db(event)), out)
        back = [r for r in load(out).results if r.board == 1]
        assert [(r.contract, r.tricks) for r in back] == [("4SX", 9)], ext


def test_older_records_synced_later_leave_the_correction_standing(event):
    """The terminal re-sends what it journalled (a restore), and records it made before the
    correction arrive after it: a verification, the director's erase and adjusted score."""
    with open_db(event) as db:
        where = corrections.locate(db, 2, 1)
        corrections.correct(db, where, "3NT", "S", "10")
        corrected = dict(line(db, 1, 2))
        last = db.value("SELECT last_seq FROM terminals WHERE id = ?", (T1,))
        records, _ = table_round(1, MOVEMENT, 1, 1)
        assert ingest(db, T1, 0, numbered(records)).duplicates == len(records)
        late = [("ver", {"b": 2, "ok": 1}), ("erase", {"b": 2}),
                ("adj", {"b": 2, "how": "art", "ns": 40, "ew": 60}),
                ("res", {"b": 2, "tr": 7, "sc": -100})]
        report = ingest(db, T1, last, numbered(late, first=last + 1))
        assert report.stored == len(late) and report.refused is None
        assert dict(line(db, 1, 2)) == corrected
        refused = db.all("SELECT * FROM audit WHERE tbl = 'results' AND action = 'refused'")
        assert [json.loads(a["new"] or "{}").get("seq") for a in refused] == [
            last + 1, None, last + 3]  # the verification, the erase, the adjusted score
        stands = db.all("SELECT seq, law FROM flags WHERE why = 'host_correction_stands'")
        assert [(r["seq"], r["law"]) for r in stands] == [
            (last + 1, "79C"), (last + 2, "79C"), (last + 3, "79C")]


def test_every_adjusted_score_of_law_12c_is_scored_as_given(event):
    """... and reaches the terminals' travellers as the adjusted score it is (board 3: EW
    vulnerable, NS not: 4H by S +420, -50 one down)."""
    with open_db(event) as db:
        where = corrections.locate(db, 3, 1)
        pairs = setup.travellers(db, T1)[3][0][:2]
        for adj, kind, shown in (
                ((("A+", "A-"), None, None), "artificial", ["art", 60, 40]),
                ((None, ["4H S 10"], None), "assigned", ["asg", parse("4H"), 0, 2, 10, 420]),
                ((None, ["60% 4H S 10", "40% 4H S 9"], None), "weighted", ["wgt", 232]),
                ((None, None, ["4H S 10", "4H S 9"]), "split", ["split", 420, 50])):
            corrections.adjust(db, where, corrections.adjustment(*adj))
            got = [r for r in session_from_db(db).results if r.board == 3]
            assert [r.kind() for r in got] == [kind]
            assert setup.travellers(db, T1)[3] == [pairs + shown]
        split = got[0]
        assert (split.assigned, split.assigned_ew) == (420, 50)
        corrections.adjust(db, where, corrections.adjustment(not_played=True))
        assert [r for r in session_from_db(db).results if r.board == 3] == []
        assert 3 not in setup.travellers(db, T1)  # not played there: no line to show
        assert score_session(session_from_db(db)).standings


def test_a_fouled_board_s_groups_are_scored_apart_from_the_database(event, capsys, tmp_path):
    """Law 81B: «разделяет результаты на группы и производит подсчет результатов в каждой
    группе отдельно». The director puts a table's line in a group (`result fouled`): read
    from the database it is compared only within its group, raised to the whole field
    (Neuberg), the exports carry it, and --clear puts it back."""
    with open_db(event) as db:
        setup.register_terminal(db, "PICO-04", 0)  # table 4 plays boards 1-4 in round 2
        records, _ = table_round(4, MOVEMENT, 4, 2)
        ingest(db, "PICO-04", 0, numbered(records))
        plain = score_session(session_from_db(db)).lines
        board = next(b for b in (1, 2, 3, 4) if sorted(x.ns_value for x in plain[b]) == [0, 2])
        assert main(["result", "fouled", str(event), "--table", "1", "--board", str(board),
                     "--group", "B"]) == 0
        assert ", group B" in capsys.readouterr().out
        assert line(db, 1, board)["fouled"] == "B"
        audit = db.one("SELECT * FROM audit WHERE tbl = 'results' ORDER BY id DESC LIMIT 1")
        assert json.loads(audit["new"]) == {"fouled": "B"}
        session = session_from_db(db)
        assert sorted(r.group or "" for r in session.results if r.board == board) == ["", "B"]
        assert [x.ns_value for x in score_session(session).lines[board]] == [1, 1]
        save(session, tmp_path / "fouled.pbn")
        again = load(tmp_path / "fouled.pbn")
        assert sorted(r.group or "" for r in again.results if r.board == board) == ["", "B"]
        assert main(["--lang", "ru", "result", "fouled", str(event), "--table", "1",
                     "--board", str(board), "--clear"]) == 0
        assert "группа B" in capsys.readouterr().out and line(db, 1, board)["fouled"] is None
        assert {r.group for r in session_from_db(db).results} == {None}


def test_a_deleted_result_leaves_the_traveller_and_the_audit_keeps_it(event):
    with open_db(event) as db:
        corrections.correct(db, corrections.locate(db, 4, 1), "pass")
        corrections.delete(db, corrections.locate(db, 4, 1))
        assert line(db, 1, 4) is None
        assert 4 not in setup.travellers(db, T1)
        gone = db.one("SELECT * FROM audit WHERE tbl = 'results' AND action = 'delete'")
        assert json.loads(gone["old"])["passed_out"] == 1


def test_the_open_flags_of_the_board_are_ruled_by_the_correction(event):
    with open_db(event) as db:
        rnd = db.value("SELECT round_id FROM results WHERE board = 5")
        with db.transaction():
            db.insert("flags", {"session_id": 1, "round_id": rnd, "board": 5, "source": "host",
                                "why": "dispute", "terminal_id": T2, "seq": 99}, "test")
        corrections.correct(db, corrections.locate(db, 5, 2), "2D", "W", "8")
        assert db.value("SELECT resolved FROM flags WHERE seq = 99") == 1


@pytest.mark.parametrize("argv, why", [
    (["correct", "--table", "1", "--board", "99", "pass"], "did not play board 99"),
    (["correct", "--table", "7", "--board", "1", "pass"], "did not play board 1"),
    (["correct", "--table", "1", "--board", "1", "--section", "B", "pass"], "no section 'B'"),
    (["correct", "--table", "1", "--board", "1", "8S", "N", "10"], "expected a bid 1C..7NT"),
    (["correct", "--table", "1", "--board", "1", "4S", "N", "14"], "0..13"),
    (["correct", "--table", "1", "--board", "1", "4S", "Q", "10"], "N, E, S or W"),
    (["correct", "--table", "1", "--board", "1", "4S"], "needs its declarer"),
    (["correct", "--table", "1", "--board", "1", "pass", "N", "0"], "no declarer"),
    (["adjust", "--table", "1", "--board", "1"], "give one adjusted score"),
    (["adjust", "--table", "1", "--board", "1", "--artificial", "A+", "B"], "A+, A, A-"),
    (["adjust", "--table", "1", "--board", "1", "--assigned", "60% 4S N 10", "30% 4S N 9"],
     "add up to 90%"),
    (["adjust", "--table", "1", "--board", "1", "--assigned", "pass N 0"], "not a pass"),
    (["adjust", "--table", "1", "--board", "1", "--split", "60% 4S N 10", "4S N 9"],
     "without weights"),
    (["delete", "--table", "3", "--board", "9"], "has no result on board 9"),
    (["fouled", "--table", "3", "--board", "9", "--group", "B"], "no result on board 9 in"),
    (["fouled", "--table", "1", "--board", "1"], "give --group NAME, or --clear"),
    (["fouled", "--table", "1", "--board", "1", "--group", "B", "--clear"], "or --clear"),
    (["fouled", "--table", "1", "--board", "1", "--group", "x" * 17], "1 to 16 printable"),
    (["fouled", "--table", "1", "--board", "1", "--group", "a\tb"], "1 to 16 printable"),
])
def test_a_correction_that_makes_no_sense_is_refused_and_changes_nothing(event, capsys, argv,
                                                                         why):
    with open_db(event) as db:
        before = database_digest(db), db.value("SELECT COUNT(*) FROM audit")
    assert main(["result", argv[0], str(event)] + argv[1:]) == 2
    assert why in capsys.readouterr().err
    with open_db(event) as db:
        assert (database_digest(db), db.value("SELECT COUNT(*) FROM audit")) == before
