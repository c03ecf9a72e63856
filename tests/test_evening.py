"""A whole evening (issue 15, "What must be true"): three real micropython terminals on
pseudo-terminals play two rounds of a Mitchell with simulated players and director
(host_sync.demo's machinery), synced by the station after each round. In the correction
period (Law 79C: «ошибка в записи или подсчете результата может быть исправлена до окончания
периода исправлений») a result of the closed round 1 is corrected at table 1's terminal in
director mode, another at the host (`host-sync result correct`), and an adjusted score is
given (`host-sync result adjust`, Law 12C2). After a last sync the database, the travellers
on the terminals, the rankings and every export (PBN, USEBIO, CSV, HTML) agree with each other
and with the audit.

The correction made at the terminal is its `fix` record, which the host applies to the closed
round's line (host_sync.event.corrections.terminal_fix) like its own corrections.
"""

import io
import json
from pathlib import Path

import pytest
from rich.console import Console
from terminal.traveller import lines_of

from host_sync import cli
from host_sync.demo.run import PIN, Demo
from host_sync.event.db import open_db
from host_sync.interchange.files import load, save
from host_sync.scoring.session import score_session

TABLES, ROUNDS, PER_ROUND = 3, 2, 2
PIN_KEYS = " ".join(PIN)
# At table 1, before round 2 is opened: director mode, DOWN to board 1 of the closed round 1,
# 2 = correct its result: 3NT by East, nine tricks (the keys of tests/test_terminal_corrections)
TERMINAL_FIX = "DIR %s OK DOWN 2 3 NT D OK UP OK\nBACK\n" % PIN_KEYS


@pytest.fixture(scope="module")
def evening(tmp_path_factory):
    """The evening played, corrected and synced again: (demo, its folder, what was done)."""
    out = tmp_path_factory.mktemp("evening")
    demo = Demo(out, TABLES, ROUNDS, PER_ROUND, seed="evening", lang="ru", irregular=0.3,
                console=Console(file=io.StringIO(), width=120))
    demo.prepare()
    image = demo.setup()
    demo.rounds = ROUNDS + 1  # the terminals live one round more: the sync after corrections
    try:
        demo.start_terminals(image)
        demo.play_round(1)
        demo.sync("round 1")
        table1 = demo.terminals[0]
        demo.play_round(2, before={table1: TERMINAL_FIX})
        demo.sync("round 2")
        done = corrections_at_the_host(demo.db_path)
        for t in demo.terminals:  # nothing to play: they sync and take the travellers
            t.start_round(ROUNDS + 1, "# the correction period\n")
        for t in demo.terminals:
            t.wait_played(ROUNDS + 1)
        demo.sync("after the corrections")
    finally:
        for t in demo.terminals:
            t.close()
    return demo, Path(out), done


def host(*args):
    assert cli.main([str(a) for a in args]) == 0


def corrections_at_the_host(db_path):
    """Table 2's board of round 1 corrected, table 3's board of round 2 adjusted (A+ / A-)."""
    with open_db(db_path) as db:
        first = {r["tbl"]: r["board"] for r in db.all(
            "SELECT t.number AS tbl, MIN(r.board) AS board FROM results r JOIN rounds ro ON "
            "ro.id = r.round_id JOIN tables t ON t.id = ro.table_id WHERE ro.number = ? "
            "GROUP BY t.number", (1,))}
        second = {r["tbl"]: r["board"] for r in db.all(
            "SELECT t.number AS tbl, MAX(r.board) AS board FROM results r JOIN rounds ro ON "
            "ro.id = r.round_id JOIN tables t ON t.id = ro.table_id WHERE ro.number = ? "
            "GROUP BY t.number", (2,))}
    host("result", "correct", db_path, "--table", 2, "--board", first[2], "--round", 1,
         "4S", "N", 10, "--actor", "Судья")
    host("result", "adjust", db_path, "--table", 3, "--board", second[3], "--round", 2,
         "--artificial", "A+", "A-", "--actor", "Судья")
    return {"corrected": (2, 1, first[2]), "adjusted": (3, 2, second[3])}


def line(db, table, rnd, board):
    return db.one("SELECT r.* FROM results r JOIN rounds ro ON ro.id = r.round_id JOIN tables "
                  "t ON t.id = ro.table_id WHERE t.number = ? AND ro.number = ? AND "
                  "r.board = ?", (table, rnd, board))


def standings(session):
    return [(s.pair, s.direction, s.total, s.percent, s.place)
            for s in score_session(session).standings]


def results(session):
    return sorted((r.board, str(r.ns), str(r.ew), r.contract, r.declarer, r.tricks,
                   r.ns_artificial, r.ew_artificial) for r in session.results)


def test_the_host_corrections_are_stored_audited_and_reach_the_terminals(evening):
    demo, out, done = evening
    table, rnd, board = done["corrected"]
    with open_db(demo.db_path) as db:
        fixed = line(db, table, rnd, board)
        assert (fixed["bid"], fixed["declarer"], fixed["tricks"], fixed["verified"]) == (
            21, 0, 10, 1)  # 4S by North, ten tricks: made
        assert fixed["score_ns"] in (420, 620)  # Law 77: not vulnerable or vulnerable
        audit = db.all("SELECT * FROM audit WHERE tbl = 'results' AND actor = 'Судья' ORDER "
                       "BY id")
        assert len(audit) == 2
        assert json.loads(audit[0]["new"])["score_ns"] == fixed["score_ns"]
        assert json.loads(audit[0]["old"])["score_ns"] != fixed["score_ns"] or json.loads(
            audit[0]["old"])["bid"] != 21
        table3, rnd3, board3 = done["adjusted"]
        adjusted = line(db, table3, rnd3, board3)
        assert adjusted["source"] == "adjusted" and json.loads(adjusted["adjustment"]) == {
            "how": "art", "ns": 60, "ew": 40}
        assert json.loads(audit[1]["new"])["adjustment"] == adjusted["adjustment"]
        replayed = {}  # every results row rebuilt from its audit trail alone
        for a in db.all("SELECT action, row_key, new FROM audit WHERE tbl = 'results' ORDER "
                        "BY id"):
            key = json.loads(a["row_key"])["id"]
            if a["action"] == "delete":
                replayed.pop(key, None)
            else:
                replayed.setdefault(key, {}).update(json.loads(a["new"]))
        for row in db.all("SELECT * FROM results"):
            assert {k: row[k] for k in replayed[row["id"]] if k != "id"} == {
                k: v for k, v in replayed[row["id"]].items() if k != "id"}, row["id"]
        assert len(replayed) == db.value("SELECT COUNT(*) FROM results")
        every = db.all("SELECT r.*, t.number AS tbl, ro.ns_pair, ro.ew_pair FROM results r "
                       "JOIN rounds ro ON ro.id = r.round_id JOIN tables t ON t.id = "
                       "ro.table_id WHERE r.verified = 1 AND (r.score_ns IS NOT NULL OR "
                       "r.adjustment IS NOT NULL)")
    # every terminal holds the travellers of the boards it played, as the database has them,
    # the director's artificial score (Law 12C2) included as such: [ns, ew, "art", NS %, EW %]
    assert {r["board"] for r in every if r["tbl"] == table} >= {board}
    adjusted = 0
    for term in demo.terminals:
        for b in {r["board"] for r in every if r["tbl"] == term.table}:
            shown = sorted(tuple(x[:7]) for x in lines_of(str(term.folder), b))
            want = []
            for r in (r for r in every if r["board"] == b):
                if r["adjustment"]:
                    adj = json.loads(r["adjustment"])
                    assert adj["how"] == "art", adj  # the only kind this evening gives
                    want.append((r["ns_pair"], r["ew_pair"], "art", adj["ns"], adj["ew"]))
                    adjusted += 1
                else:
                    want.append((r["ns_pair"], r["ew_pair"], r["bid"], r["risk"],
                                 r["declarer"], r["tricks"], r["score_ns"]))
            assert shown == sorted(want), (term.ident, b)
    assert adjusted  # the adjusted score reached the terminals that played the board


def test_the_terminals_correction_reached_the_host(evening):
    """The correction made at table 1 is the terminal's `fix` record (docs/RECORDS.md), synced
    with the rest: 3NT by East, nine tricks, on board 1 for the pairs who played it there."""
    demo, out, done = evening
    with open_db(demo.db_path) as db:
        fixes = [json.loads(r["body"]) for r in db.all(
            "SELECT body FROM records WHERE terminal_id = ? AND kind = 'fix'",
            (demo.terminals[0].ident,))]
        pairs = db.one("SELECT ro.ns_pair, ro.ew_pair FROM rounds ro JOIN tables t ON t.id = "
                       "ro.table_id WHERE t.number = 1 AND ro.number = 1")
    assert [(f["b"], f["how"], f["ct"], f["x"], f["dcl"], f["tr"], f["pr"]) for f in fixes] == [
        (1, "res", 17, 0, 1, 9, [pairs["ns_pair"], pairs["ew_pair"]])]


def test_the_rankings_and_every_export_agree_with_the_database(evening):
    demo, out, done = evening
    session = load(demo.db_path)
    want = standings(session), results(session)
    table, rnd, board = done["corrected"]
    assert any(r[:6] == (board, r[1], r[2], "4S", "N", 10) for r in want[1])
    assert any(r[6] is not None for r in want[1])  # the adjusted score, A+ / A-
    for name in ("session.pbn", "session.xml", "travellers.csv"):
        save(session, out / name)
        again = load(out / name)
        assert (standings(again), results(again)) == want, name
    assert cli.main(["report", str(demo.db_path), "-o", str(out / "site")]) == 0
    with open_db(demo.db_path) as db:
        fixed = line(db, table, rnd, board)
    page = (out / "site" / "en" / ("board-%d.html" % board)).read_text(encoding="utf-8")
    assert str(fixed["score_ns"]) in page and ("4♠" in page or "4S" in page)
    index = (out / "site" / "en" / "index.html").read_text(encoding="utf-8")
    for pair, _direction, _total, percent, _place in want[0]:
        assert "%.2f" % float(percent) in index, pair


def test_the_terminals_correction_of_a_closed_round_is_the_databases(evening):
    """Table 1's director corrected board 1 of round 1 to 3NT by East, nine tricks: the
    database, its audit, the other terminal's traveller and the exports have it."""
    demo, out, done = evening
    with open_db(demo.db_path) as db:
        fixed = line(db, 1, 1, 1)
        assert (fixed["bid"], fixed["declarer"], fixed["tricks"], fixed["verified"]) == (
            17, 1, 9, 1)
        assert any(json.loads(a["new"]).get("bid") == 17 for a in db.all(
            "SELECT new FROM audit WHERE tbl = 'results' AND action = 'update'"))
    others = [t for t in demo.terminals[1:] if lines_of(str(t.folder), 1)]
    assert others and all((17, 1, 9) in [tuple(x[2:3] + x[4:6]) for x in
                                         lines_of(str(t.folder), 1)] for t in others)
    for name in ("session.pbn", "session.xml", "travellers.csv"):
        assert any(r.board == 1 and r.contract == "3NT" and r.declarer == "E" and
                   r.tricks == 9 for r in load(out / name).results), name
