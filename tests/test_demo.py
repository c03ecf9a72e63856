"""`host-sync demo` end to end, small: 3 tables, 2 rounds of 2 boards, terminals as real
`micropython` processes on pseudo-terminals, simulated players and director, a sync after
each round. The scoring database must hold exactly the simulated truth (results, contracts,
declarers, scores, every call, the director's entries and the law paragraphs, the flags of
the irregularities), the scores must be Law 77's, and the exported PBN, USEBIO and CSV files
must read back as the same session.
"""

import io
from collections import Counter

import endplay.parsers.pbn as endplay_pbn
import pytest
from bridge import boards as law2
from bridge.calls import level, strain
from bridge.score import score
from bridge.seats import SEATS
from endplay.types import Bid, Card
from rich.console import Console

from host_sync.cli import main
from host_sync.demo.run import Demo
from host_sync.demo.truth import differences
from host_sync.event.db import open_db
from host_sync.interchange import usebio
from host_sync.interchange.files import load
from host_sync.interchange.pbn.read import read_file
from host_sync.interchange.pbn.session import session_from_games
from host_sync.interchange.travellers_csv import import_csv
from host_sync.scoring.imps import imps
from host_sync.scoring.team_session import score_teams
from host_sync.scoring.vp import match_vp

TABLES, ROUNDS, PER_ROUND = 3, 2, 2


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo")
    printed = io.StringIO()
    d = Demo(out, TABLES, ROUNDS, PER_ROUND, seed="test", irregular=0.6,
             console=Console(file=printed, width=120))
    status = d.run()
    db = open_db(str(out / "event.db"))
    yield {"demo": d, "status": status, "printed": printed.getvalue(), "db": db, "out": out}
    db.close()


def boards_of(d):
    """{(table, round, board): BoardTruth} of the simulation."""
    return {(rt.table, rt.round, b): t for rt in d.truths for b, t in rt.boards.items()}


def test_the_demo_says_the_database_is_the_truth(demo):
    assert demo["status"] == 0, demo["printed"]
    assert "demo: database agrees with the simulated truth (%d results)" % (
        TABLES * ROUNDS * PER_ROUND) in demo["printed"]
    assert differences(demo["db"], demo["demo"].truths, {
        t.table: t.ident for t in demo["demo"].terminals}) == []


def test_results_contracts_declarers_and_scores(demo):
    db, truth = demo["db"], boards_of(demo["demo"])
    rows = db.all("SELECT t.number AS tbl, ro.number AS rnd, r.* FROM results r "
                  "JOIN rounds ro ON ro.id = r.round_id JOIN tables t ON t.id = ro.table_id")
    got = {(r["tbl"], r["rnd"], r["board"]): r for r in rows}
    assert set(got) == set(truth) and len(truth) == TABLES * ROUNDS * PER_ROUND
    for key, t in truth.items():
        r = got[key]
        assert r["verified"] == 1 and r["source"] == "auction"
        if t.contract is None:
            assert (r["passed_out"], r["score_ns"]) == (1, 0)
            continue
        assert (r["bid"], r["risk"], r["declarer"], r["tricks"]) == t.contract + (t.tricks,)
        # Law 77, computed here from the stored contract: the simulation's score and the host's
        vul = law2.is_vulnerable(law2.vulnerability(r["board"]), r["declarer"])
        points = score(level(r["bid"]), strain(r["bid"]), r["risk"], vul, r["tricks"])
        assert r["score_ns"] == t.score_ns == (points if r["declarer"] % 2 == 0 else -points)
        assert r["shown_ns"] == r["score_ns"]  # the terminal showed the same score


def test_irregularities_were_flagged_and_ruled(demo):
    db, truth = demo["db"], boards_of(demo["demo"])
    ruled = [(key, t) for key, t in truth.items() if t.irregularities]
    assert ruled, "the seed should give irregular auctions"
    for (table, rnd, board), t in ruled:
        rid = db.value("SELECT ro.id FROM rounds ro JOIN tables tb ON tb.id = ro.table_id "
                       "WHERE tb.number = ? AND ro.number = ?", (table, rnd))
        flags = Counter((f["why"], f["law"]) for f in db.all(
            "SELECT why, law FROM flags WHERE round_id = ? AND board = ? AND "
            "source = 'terminal'", (rid, board)))
        held = [c["law"] for c in db.all(
            "SELECT law FROM calls WHERE round_id = ? AND board = ? AND law IS NOT NULL "
            "ORDER BY seq", (rid, board))]
        entries = [r["entry"] for r in db.all(
            "SELECT entry FROM rulings WHERE round_id = ? AND board = ? AND entry IS NOT NULL "
            "ORDER BY seq, id", (rid, board))]
        for law, _offender, _call, option in t.irregularities:
            assert flags[("irregular", law)] >= 1
            if option in ("accept", "reject"):
                assert option in entries
        assert held == [law for _, _, law in t.calls if law]
        assert flags[("irregular", held[0])] >= 1
    # nothing else on the director's list than what the players and director did
    whys = {f["why"] for f in db.all("SELECT why FROM flags")}
    assert whys <= {"irregular", "dispute"}


def test_every_round_claimed_by_its_terminal_and_closed(demo):
    rows = demo["db"].all("SELECT t.number, r.number AS rnd, r.terminal_id, r.closed "
                          "FROM rounds r JOIN tables t ON t.id = r.table_id "
                          "WHERE r.number <= ?", (ROUNDS,))
    assert sorted(tuple(r) for r in rows) == [
        (t, rnd, "DEMO-T%02d" % t, 1) for t in range(1, TABLES + 1)
        for rnd in range(1, ROUNDS + 1)]


def test_exports_read_back(demo):
    out, db = demo["out"], demo["db"]
    lines = {(r["board"], str(r["ns_pair"]), str(r["ew_pair"])): r for r in db.all(
        "SELECT r.*, ro.ns_pair, ro.ew_pair FROM results r JOIN rounds ro ON ro.id = r.round_id")}

    def same(session):
        assert len(session.results) == len(lines)
        for res in session.results:
            row = lines[(res.board, res.ns, res.ew)]
            if row["passed_out"]:
                assert res.contract.upper() in ("PASS", "AP", "P")
                continue
            assert res.declarer == SEATS[row["declarer"]]
            assert res.tricks == row["tricks"]
            assert res.ns_points(session.board(res.board).vul()) == row["score_ns"]

    same(session_from_games(read_file(out / "session.pbn")))
    same(usebio.import_xml((out / "session.xml").read_text(encoding="utf-8")))
    same(import_csv((out / "travellers.csv").read_text(encoding="utf-8")))
    index = (out / "report" / "ru" / "index.html").read_text(encoding="utf-8")
    names = demo["demo"].club[1][0][0]
    assert names in index and (out / "report" / "en" / "index.html").exists()
    assert demo["printed"].count("Итоги:") == 2  # the ranking of the NS and EW fields


def test_a_one_round_demo_scores_every_board_as_average_and_publishes(tmp_path):
    """After round 1 of a Mitchell each board has one result: nothing to compare, every pair
    stands at 50 % (no crash in the ranking, the PBN export or the report's chart)."""
    printed = io.StringIO()
    d = Demo(tmp_path, 3, 1, 2, seed="one", console=Console(file=printed, width=120),
             lang="en")
    assert d.run() == 0, printed.getvalue()
    assert printed.getvalue().count("50.00") == 6
    assert (tmp_path / "report" / "en" / "index.html").exists()
    assert "TotalScoreTable" in (tmp_path / "session.pbn").read_text()


def test_endplay_reads_the_demo_pbn_with_every_recorded_auction(demo):
    """endplay, an outside reader, takes the whole export (the lead-only play sections
    included: the first trick written whole, '-' for the cards not recorded, PBN 3.6), and
    every traveller line whose auction was recorded has its [Auction], call for call."""
    text = (demo["out"] / "session.pbn").read_text(encoding="utf-8")
    boards, games = endplay_pbn.loads(text), list(read_file(demo["out"] / "session.pbn"))
    recorded = demo["db"].value("SELECT COUNT(*) FROM (SELECT DISTINCT round_id, board "
                                "FROM calls)")
    assert len(boards) == len(games) == TABLES * ROUNDS * PER_ROUND
    # the par of each board from the report's analysis (kept in the event database)
    assert all(board.info["OptimumScore"].split()[0] in ("NS", "EW") for board in boards)
    assert recorded and sum(1 for g in games if g.calls) == recorded
    for board, game in zip(boards, games):
        # endplay shows a call with a note as alerted ('2♣!*'): the call is before the '!'
        assert [str(b).split("!")[0] for b in board.auction] == [str(Bid(c)) for c in game.calls]
        assert sum(b.alertable for b in board.auction) == sum(n is not None
                                                              for n in game.call_notes)
        assert board.play == ([Card(game.plays[0])] if game.plays else [])


def test_the_demo_against_postgresql_agrees_with_its_truth_and_with_sqlite(pg_url, tmp_path):
    """`host-sync demo --db URL` (issue 17): the same evening on a PostgreSQL event, smallest
    shape that still syncs twice (3 tables, 2 rounds of 1 board); the outputs go to --out, the
    database holds the same results as the SQLite run of the same seed, and a second run on
    the now full database is refused before anything is touched."""
    args = ["demo", "--tables", "3", "--rounds", "2", "--boards-per-round", "1", "--seed",
            "pg", "--lang", "en"]
    out, err = io.StringIO(), io.StringIO()
    assert main(args + ["--out", str(tmp_path / "pg"), "--db", pg_url], out, err) == 0, (
        out.getvalue() + err.getvalue())
    assert "demo: database agrees with the simulated truth (6 results)" in out.getvalue()
    assert not (tmp_path / "pg" / "event.db").exists()
    assert (tmp_path / "pg" / "session.pbn").exists()
    assert (tmp_path / "pg" / "report" / "en" / "index.html").exists()
    assert main(args + ["--out", str(tmp_path / "lite")], io.StringIO(), io.StringIO()) == 0

    def results(location):
        with open_db(location) as db:
            return sorted(tuple(r) for r in db.all(
                "SELECT t.number, ro.number, r.board, r.bid, r.risk, r.declarer, r.tricks, "
                "r.score_ns FROM results r JOIN rounds ro ON ro.id = r.round_id "
                "JOIN tables t ON t.id = ro.table_id"))

    assert results(pg_url) == results(str(tmp_path / "lite" / "event.db"))
    assert len(results(pg_url)) == 6
    with open_db(pg_url) as db:
        before = db.value("SELECT COUNT(*) FROM audit")
    again = io.StringIO()
    assert main(args + ["--out", str(tmp_path / "again"), "--db", pg_url], io.StringIO(),
                again) == 2
    assert "already holds an event" in again.getvalue()
    assert not (tmp_path / "again").exists()
    with open_db(pg_url) as db:
        assert db.value("SELECT COUNT(*) FROM audit") == before


def test_a_teams_demo_scores_its_matches_from_the_terminals_results(tmp_path):
    """`demo --teams 4`: a round of a teams round robin played on real terminals (two tables
    a match, each with its copy of the boards) is scored as matches: each team's IMPs are
    what the two tables' scores in the database give, and the VPs the scale's."""
    printed = io.StringIO()
    assert main(["--lang", "en", "demo", "--teams", "4", "--rounds", "1", "--boards-per-round",
                 "2", "--seed", "teams", "--out", str(tmp_path), "--irregular", "0"],
                printed, io.StringIO()) == 0, printed.getvalue()
    assert "Round 1 matches" in printed.getvalue() and "Team standings" in printed.getvalue()
    assert "Team standings" in (tmp_path / "report" / "en" / "index.html").read_text()
    with open_db(str(tmp_path / "event.db")) as db:
        rows = db.all("SELECT t.number AS tbl, r.board, r.score_ns FROM results r JOIN rounds "
                      "ro ON ro.id = r.round_id JOIN tables t ON t.id = ro.table_id")
    scores = {(r["tbl"], r["board"]): r["score_ns"] for r in rows}
    scored = score_teams(load(str(tmp_path / "event.db")))
    assert [(m.home, m.away) for m in scored.matches] == [("1", "4"), ("2", "3")]
    for j, m in enumerate(scored.matches):  # match j at tables 2j+1 (home NS), 2j+2
        net = sum(imps(scores[2 * j + 1, b] - scores[2 * j + 2, b]) for b in (1, 2))
        assert m.imps == (net, -net) and m.vp == match_vp(net, 0, 2)


@pytest.mark.parametrize("args, why", [(["--teams", "4", "--tables", "4"], "no --tables"),
                                       (["--teams", "1"], "--teams is 2 to 40")])
def test_a_teams_demo_takes_its_tables_from_the_teams(tmp_path, args, why):
    err = io.StringIO()
    assert main(["demo", "--out", str(tmp_path)] + args, io.StringIO(), err) == 2
    assert why in err.getvalue() and not (tmp_path / "event.db").exists()


def test_demo_db_takes_only_a_postgresql_url(tmp_path):
    err = io.StringIO()
    assert main(["demo", "--out", str(tmp_path), "--db", str(tmp_path / "x.db")],
                io.StringIO(), err) == 2
    assert "--db takes a postgresql:// URL" in err.getvalue()
    assert not (tmp_path / "x.db").exists()
