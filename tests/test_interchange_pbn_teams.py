"""A teams session exported as PBN: each game says its match as team files do (HomeTeam,
VisitTeam, Room, ScoreIMP; a knockout's Stage; a group's Section), the TotalScoreTable ranks
the teams as the event database scored them, rulings and all, and the file reads back as
the pairs' lines it holds (the teams' scoring is not guessed from it)."""

import pytest

from host_sync.interchange.files import load
from host_sync.interchange.pbn.read import read_file
from host_sync.interchange.pbn.session import session_games
from host_sync.scoring.session import Result, Session
from host_sync.scoring.team_session import TeamPlan, score_teams
from host_sync.text import number_text


def enter(host, path, board, table, *result):
    status, _, err = host("result", "correct", path, "--board", board, "--table", table,
                          *result)
    assert status == 0, err


@pytest.fixture
def robin(tmp_path, host):
    """Round 1 of four teams, two boards: 1 beats 4 on both (10 and 12 IMPs); 2 v 3 has
    board 1 at one table only."""
    path = tmp_path / "cup.db"
    assert host("event", "create", path, "--name", "Кубок", "--movement", "teams", "--teams",
                4, "--boards-per-round", 2, "--matches", "1-2")[0] == 0
    for board in (1, 2):
        enter(host, path, board, 1, "4S", "N", 10)
        enter(host, path, board, 2, "4S", "N", 9)
    enter(host, path, 1, 3, "3NT", "N", 9)
    return path


def test_a_teams_session_s_games_say_their_match(robin, tmp_path, host):
    out = tmp_path / "cup.pbn"
    status, _, err = host("export", robin, "-o", out)
    assert status == 0, err
    games = list(read_file(out))
    by_room = {(g.tags["Board"], g.tags["Room"]): g.tags for g in games
               if g.tags["HomeTeam"] == "1"}
    assert by_room["1", "Open"]["VisitTeam"] == "4" and by_room["1", "Open"]["PairId_NS"] == "1A"
    assert by_room["1", "Closed"]["PairId_EW"] == "1B"  # the home team's other pair, EW
    # board 2 (NS vulnerable): 4S+1 by the home team's NS, 4S-1 by the visitors': +720
    assert [by_room["2", room]["ScoreIMP"] for room in ("Open", "Closed")] == ["NS 12",
                                                                              "NS -12"]
    assert {g.tags["Competition"] for g in games} == {"Teams"}
    lone = [g.tags for g in games if g.tags["HomeTeam"] == "2"]
    assert len(lone) == 1 and "ScoreIMP" not in lone[0]  # the other room has not played it
    again = load(out)  # the pairs' lines, as any PBN: the teams' scoring is the database's
    assert again.teams is None and len(again.results) == len(load(robin).results) == 5
    status, text, err = host("--lang", "en", "score", out)
    assert status == 0 and "Team standings" not in text and "Butler" in text, err


def total_rows(path):
    """The cells of the last game's TotalScoreTable, row by row."""
    header, rows = list(read_file(path))[-1].sections["TotalScoreTable"]
    return header, [row.split() for row in rows]


def test_the_teams_table_is_the_database_s_rulings_and_byes_and_all(tmp_path, host):
    """Five teams, round 1: one has a bye (12 VP); team 4 is given a technical defeat in its
    match, and team 3 is removed (5.7.3: its played match annulled, no place)."""
    path = tmp_path / "cup.db"
    assert host("event", "create", path, "--name", "Кубок", "--movement", "teams", "--teams",
                5, "--boards-per-round", 1, "--matches", "1")[0] == 0
    for table in (1, 2, 3, 4):
        enter(host, path, 1, table, "4S", "N", 10 if table % 2 else 9)
    assert host("team", "forfeit", path, "--team", 4, "--round", 1, "--reason", "неявка")[0] == 0
    assert host("team", "withdraw", path, "--team", 3, "--reason", "удаление")[0] == 0
    out = tmp_path / "cup.pbn"
    assert host("export", path, "-o", out)[0] == 0
    header, rows = total_rows(out)
    assert header.startswith("Rank\\4R;TeamId\\4R;Names;TotalVP")
    score = score_teams(load(path))
    assert [(r[0], r[1], r[3]) for r in rows] == [
        ("-" if s.removed else str(s.place), s.team, number_text(s.vp))
        for s in score.standings]
    assert {r[1]: r[0] for r in rows}["3"] == "-"
    bye = next(s.team for s in score.standings if s.byes)
    assert [bye, "12"] in [r[1:4:2] for r in rows]  # the bye's VPs
    assert all("=" not in r[0] for r in rows)  # 5.10: a tie's best rank, a number


def test_a_line_outside_every_match_says_no_match():
    """Board 3 played at a table whose match plays boards 1-2 counts for nobody: its game
    names no match (a reader would put it in one)."""
    plan = TeamPlan(teams={"1A": "1", "1B": "1", "2A": "2", "2B": "2"},
                    rounds={1: (("1", "2"),)}, boards={(1, "1"): (1, 2)})
    results = [Result(1, "1A", "2B", "4S", "N", 10, round=1),
               Result(1, "2A", "1B", "4S", "N", 9, round=1),
               Result(3, "1A", "2B", "3NT", "N", 9, round=1)]
    games = session_games(Session(name="E", results=results, teams=plan, method="butler"))
    tagged = {g.tags["Board"]: "HomeTeam" in g.tags for g in games}
    assert tagged == {"1": True, "3": False}


def test_a_knockout_s_games_are_marked_and_its_table_ranks_the_pairs(tmp_path, host):
    path = tmp_path / "ko.db"
    assert host("event", "create", path, "--name", "Кубок", "--movement", "teams", "--teams",
                2, "--knockout", "--segments", 2, "--boards-per-round", 1)[0] == 0
    for board, (a, b) in ((1, (10, 9)), (2, (9, 10))):  # +10 IMPs, then -12: 2 goes through
        enter(host, path, board, 1, "4S", "N", a, "--session", 1)
        enter(host, path, board, 2, "4S", "N", b, "--session", 1)
    out = tmp_path / "ko.pbn"
    assert host("export", path, "-o", out)[0] == 0
    assert {g.tags["Stage"] for g in read_file(out)} == {"Knockout"}
    assert "TotalVP" not in total_rows(out)[0]  # no VPs in a knockout


def test_a_teams_session_of_two_groups_keeps_its_sections_in_pbn_and_usebio(tmp_path, host):
    """Groups A and B (sections) of two teams each: the PBN games give their Section, the
    teams table its Group; USEBIO writes a SECTION a group, its team pairs numbered 1A,
    1B... within it, and reads back as the session's labels (A1A...)."""
    path = tmp_path / "groups.db"
    assert host("event", "create", path, "--name", "Группы", "--movement", "teams", "--teams",
                2, "--sections", "A,B", "--boards-per-round", 1)[0] == 0
    for letter, tricks in (("A", 10), ("B", 8)):
        enter(host, path, 1, 1, "4S", "N", tricks, "--section", letter)
        enter(host, path, 1, 2, "4S", "N", 9, "--section", letter)
    assert host("export", path, "-o", tmp_path / "groups.pbn")[0] == 0
    games = list(read_file(tmp_path / "groups.pbn"))
    assert sorted((g.tags["Section"], g.tags["HomeTeam"], g.tags["Room"]) for g in games) == [
        ("A", "A1", "Closed"), ("A", "A1", "Open"), ("B", "B1", "Closed"), ("B", "B1", "Open")]
    header, rows = total_rows(tmp_path / "groups.pbn")
    assert "Group" in header and sorted(r[:3] for r in rows) == [
        ["1", "A", "A1"], ["1", "B", "B2"], ["2", "A", "A2"], ["2", "B", "B1"]]  # B2 won
    from_db = load(path)
    assert host("export", path, "-o", tmp_path / "groups.xml")[0] == 0
    text = (tmp_path / "groups.xml").read_text(encoding="utf-8")
    assert text.count("<SECTION ") == 2 and "<NS_PAIR_NUMBER>1A</NS_PAIR_NUMBER>" in text
    assert sorted(load(tmp_path / "groups.xml").pairs) == sorted(from_db.pairs)
