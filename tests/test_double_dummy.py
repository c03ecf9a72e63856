"""The double-dummy analysis kept in the event database (migration 007, issue 15): a report or
a PBN export solves each deal once (endplay's DDS) and keeps what the solver said in the
`double_dummy` table, keyed by the deal itself; the next report of the same event calls no
solver, a corrected hand record is solved again, and a stored row that is not an analysis is
never shown: it is solved again and replaced. The numbers are endplay's, recomputed here
straight from endplay. PBN carries them as OptimumScore and OptimumResultTable (4.2.7, 5.7),
and endplay reads that export."""

import json
import random

import endplay.parsers.pbn as endplay_pbn
import pytest
from endplay import dds
from endplay.types import Deal, Denom, Player, Vul
from terminal_support import random_deal
from web_support import ROUNDS, TABLES, evening, play

from host_sync import cli
from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.reports import analysis

DENOMS = {"C": Denom.clubs, "D": Denom.diamonds, "H": Denom.hearts, "S": Denom.spades,
          "NT": Denom.nt}
VULS = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}


def dealt_evening(location, seed=5):
    """The live page's evening (3 tables, 6 boards, each played twice) with a random hand
    record on every board; {board: deal}."""
    db, movement = evening(location)
    sid = setup.session_id(db, setup.the_event(db)[0])
    rng = random.Random(seed)
    deals = {}
    for row in db.all("SELECT number, dealer, vul FROM boards WHERE session_id = ?", (sid,)):
        deals[row["number"]] = random_deal(rng)
        setup.set_deal(db, sid, row["number"], deals[row["number"]], row["dealer"],
                       row["vul"])
    for table in range(1, TABLES + 1):
        for rnd in range(1, ROUNDS + 1):
            play(db, movement, table, rnd)
    db.close()
    return deals


@pytest.fixture
def solver_calls(monkeypatch):
    """The deals endplay's calc_dd_table is asked to solve (the real solver still answers);
    the process's own cache of solved deals is emptied so that only the database's counts."""
    calls = []
    real = dds.calc_dd_table

    def counted(deal, *args, **kwargs):
        calls.append(deal.to_pbn())
        return real(deal, *args, **kwargs)

    monkeypatch.setattr(dds, "calc_dd_table", counted)
    analysis._solve.cache_clear()
    yield calls
    analysis._solve.cache_clear()


def report(location, out, calls):
    """`host-sync report LOCATION -o OUT` in this process, as a fresh process would run it
    (no deal solved in memory before); the solver calls it made and the board pages."""
    analysis._solve.cache_clear()
    before = len(calls)
    assert cli.main(["report", str(location), "-o", str(out)]) == 0
    pages = {p.name: p.read_text(encoding="utf-8") for p in (out / "en").glob("board-*.html")}
    return len(calls) - before, pages


def endplays(deal, dealer, vul):
    """(tricks {(seat, strain): n}, par score) straight from endplay (vul: ours or its)."""
    table = dds.calc_dd_table(Deal(deal))
    tricks = {(seat, strain): table[Player.find(seat), denom] for seat in "NESW"
              for strain, denom in DENOMS.items()}
    return tricks, dds.par(table, VULS.get(vul, vul), Player(dealer)).score


def stored(location):
    with open_db(location) as db:
        return {(r["deal"], r["dealer"], r["vul"]): json.loads(r["analysis"])
                for r in db.all("SELECT * FROM double_dummy")}


def test_the_second_report_calls_no_solver_and_the_numbers_are_endplays(
        event_location, tmp_path, solver_calls):
    deals = dealt_evening(event_location)
    first, pages = report(event_location, tmp_path / "one", solver_calls)
    assert first == len(deals) == 6
    again, pages_again = report(event_location, tmp_path / "two", solver_calls)
    assert again == 0 and pages_again == pages
    rows = stored(event_location)
    assert len(rows) == len(deals)
    for (deal, dealer, vul), kept in rows.items():
        tricks, par = endplays(deal, dealer, vul)
        assert kept["score"] == par
        assert {(seat, strain): kept["tricks"][seat][i] for seat in "NESW"
                for i, strain in enumerate(analysis.STRAINS)} == tricks
    with open_db(event_location) as db:  # each solved deal written with its audit row
        assert db.value("SELECT COUNT(*) FROM audit WHERE tbl = 'double_dummy' AND "
                        "actor = 'report' AND action = 'insert'") == len(deals)


def test_a_corrected_hand_record_is_solved_again(tmp_path, solver_calls):
    location = tmp_path / "event.db"
    deals = dealt_evening(location)
    report(location, tmp_path / "one", solver_calls)
    new = random_deal(random.Random(99))
    with open_db(location) as db:
        sid = setup.session_id(db, setup.the_event(db)[0])
        row = db.one("SELECT dealer, vul FROM boards WHERE session_id = ? AND number = 1",
                     (sid,))
        setup.set_deal(db, sid, 1, new, row["dealer"], row["vul"])
    calls, pages = report(location, tmp_path / "two", solver_calls)
    assert calls == 1 and solver_calls[-1] == Deal(new).to_pbn() != Deal(deals[1]).to_pbn()
    _, par = endplays(new, row["dealer"], row["vul"])
    side = "NS" if par >= 0 else "EW"
    assert ("Par: <b class=\"par\">%s %d" % (side, abs(par)) if par else "Pass") in \
        pages["board-1.html"]


@pytest.mark.parametrize("damage", [
    "not json", "[]", '{"tricks": {}, "score": 0, "par": []}',
    lambda a: dict(a, score=a["score"] + 5),  # no bridge score ends in 5
    lambda a: dict(a, tricks=dict(a["tricks"], N=[14] * 5)),
    lambda a: dict(a, tricks=dict(a["tricks"], N=[True] * 5)),
    lambda a: dict(a, par=[[8, "S", "N", "", 0]]),
    lambda a: dict(a, par=[[4, "S", "N", "XXX", 0]]),
    lambda a: dict(a, par=[[4, "S"]]),
])
def test_a_damaged_stored_analysis_is_solved_again_never_shown(tmp_path, solver_calls,
                                                               damage):
    location = tmp_path / "event.db"
    dealt_evening(location)
    _, pages = report(location, tmp_path / "one", solver_calls)
    with open_db(location) as db:
        row = db.one("SELECT deal, analysis FROM double_dummy ORDER BY deal LIMIT 1")
        text = damage if isinstance(damage, str) else json.dumps(
            damage(json.loads(row["analysis"])))
        db.conn.execute("UPDATE double_dummy SET analysis = ? WHERE deal = ?",
                        (text, row["deal"]))
    calls, pages_again = report(location, tmp_path / "two", solver_calls)
    assert calls == 1 and solver_calls[-1] == Deal(row["deal"]).to_pbn()
    assert pages_again == pages
    assert stored(location)[next(k for k in stored(location) if k[0] == row["deal"])] == \
        json.loads(row["analysis"])  # replaced by what the solver says


def test_the_pbn_export_carries_the_par_and_the_tricks_and_endplay_reads_it(
        tmp_path, solver_calls):
    location, pbn = tmp_path / "event.db", tmp_path / "out.pbn"
    deals = dealt_evening(location)
    assert cli.main(["export", str(location), "-o", str(pbn)]) == 0
    assert len(solver_calls) == len(deals)  # solved for the export, kept for the report
    assert report(location, tmp_path / "site", solver_calls)[0] == 0
    boards = endplay_pbn.loads(pbn.read_text(encoding="utf-8"))
    assert len(boards) == TABLES * ROUNDS * 2
    with_table = 0
    for board in boards:
        tricks, par = endplays(board.deal.to_pbn(), int(board.dealer), board.vul)
        assert board.info["OptimumScore"] == ("NS %d" % par if par >= 0 else "EW %d" % -par)
        table = board.info.get("OptimumResultTable")
        if table is not None:
            with_table += 1
            assert table["headers"] == ["Declarer", "Denomination", "Result"]
            got = {(row[0], row[1]): int(row[2]) for row in table["rows"]}
            assert len(got) == 20 and got == tricks
    assert with_table == len(deals)  # once a board, beside its ScoreTable


def test_a_file_of_more_boards_than_a_session_has_solves_only_the_first(tmp_path, capsys,
                                                                        monkeypatch):
    """A hostile results file of MAX_SOLVED + 2 dealt boards (100 deals took 29.5 s and 303 MB):
    the first MAX_SOLVED are solved (by a stand-in here, counted: the limit is known before
    anything is solved), the last two show their hands with no table and say why, and the
    report and the PBN export name them."""
    from host_sync.interchange.files import save
    from host_sync.scoring.session import Board, Result, Session
    rng, session = random.Random(3), Session(method="mp")
    for n in range(1, analysis.MAX_SOLVED + 3):
        session.boards[n] = Board(n, random_deal(rng))
        session.results += [Result(n, "1", "2", "3NT", "N", 9), Result(n, "3", "4", "4S", "S", 9)]
    save(session, tmp_path / "big.pbn")
    solved = []
    stand_in = analysis.Analysis({seat: dict.fromkeys(analysis.STRAINS, 7) for seat in "NESW"},
                                 0, (), {})
    monkeypatch.setattr(analysis, "_solve", lambda *key: solved.append(key) or stand_in)
    site = tmp_path / "site"
    assert cli.main(["report", str(tmp_path / "big.pbn"), "-o", str(site), "--lang", "en"]) == 0
    assert len(solved) == analysis.MAX_SOLVED == 64
    assert "report: boards 65-66 have no double-dummy analysis: it is made for at most 64 " \
        "boards a session" in capsys.readouterr().err
    note = "No double-dummy analysis: it is made for at most 64 boards a session"
    for n in (1, 64, 65, 66):
        html = (site / "en" / ("board-%d.html" % n)).read_text(encoding="utf-8")
        assert ('class="dd"' in html, note in html, "Hands" in html) == (n < 65, n > 64, True)
    assert cli.main(["export", str(tmp_path / "big.pbn"), "-o", str(tmp_path / "out.pbn")]) == 0
    assert len(solved) == 2 * 64 and "export: boards 65-66" in capsys.readouterr().err


def test_boards_past_the_limit_are_neither_solved_nor_kept(tmp_path, solver_calls, monkeypatch):
    """With the event database: past the limit (4 here) nothing is solved nor stored."""
    from host_sync.interchange.files import load
    location = tmp_path / "event.db"
    dealt_evening(location)
    monkeypatch.setattr(analysis, "MAX_SOLVED", 4)
    session = load(location)
    found = analysis.board_analyses(session, location)
    assert [n for n, a in found.items() if a] == [1, 2, 3, 4] == sorted(found)[:4]
    assert analysis.unsolved(session) == [5, 6] and found[5] is found[6] is None
    assert len(solver_calls) == len(stored(location)) == 4
