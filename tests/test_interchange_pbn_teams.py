"""A teams session exported as PBN and read back: each game says its match as team files do
(HomeTeam, VisitTeam, Room, ScoreIMP; a knockout's Stage), the TotalScoreTable ranks the
teams, and `score FILE.pbn` scores the matches the event database scored."""

import pytest

from host_sync.interchange.files import load
from host_sync.interchange.pbn.read import read_file
from host_sync.interchange.pbn.session import session_from_games
from host_sync.interchange.pbn.write import export_text
from host_sync.scoring.knockout import knockout_matches
from host_sync.scoring.team_session import score_teams


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


def standings(score):
    return [(s.team, s.label, s.vp, s.matches, s.imps_won, s.imps_lost)
            for s in score.standings]


def test_a_teams_session_s_games_say_their_match_and_read_back_as_the_same_matches(
        robin, tmp_path, host):
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
    total = games[-1].sections["TotalScoreTable"]
    assert total[0].startswith("Rank\\4R;TeamId\\4R;Names;TotalVP")
    assert total[1][0].split()[:5] == ["1", "1", '"-"', "20", "22"]
    from_file, from_db = load(out), load(robin)
    assert from_file.teams.teams == {p: t for p, t in from_db.teams.teams.items()
                                     if p in from_file.teams.teams}
    assert standings(score_teams(from_file)) == standings(score_teams(from_db))
    status, text, err = host("--lang", "en", "score", out)
    assert status == 0 and "Team standings" in text and "22 : -22" in text, err


def test_a_knockout_s_games_are_marked_and_read_back_as_a_knockout(tmp_path, host):
    path = tmp_path / "ko.db"
    assert host("event", "create", path, "--name", "Кубок", "--movement", "teams", "--teams",
                2, "--knockout", "--segments", 2, "--boards-per-round", 1)[0] == 0
    for board, (a, b) in ((1, (10, 9)), (2, (9, 10))):  # +10 IMPs, then -12: 2 goes through
        enter(host, path, board, 1, "4S", "N", a, "--session", 1)
        enter(host, path, board, 2, "4S", "N", b, "--session", 1)
    out = tmp_path / "ko.pbn"
    assert host("export", path, "-o", out)[0] == 0
    games = list(read_file(out))
    assert {g.tags["Stage"] for g in games} == {"Knockout"}
    assert "TotalVP" not in games[-1].sections["TotalScoreTable"][0]  # no VPs in a knockout
    (m,) = knockout_matches(score_teams(load(out)))
    (db,) = knockout_matches(score_teams(load(path)))
    assert (m.home, m.away, m.imps, m.winner) == (db.home, db.away, db.imps, db.winner)
    assert m.winner == "2"


@pytest.mark.parametrize("edit, message, named", [
    (lambda t: t.pop("Room"), "gives its match", 1),
    (lambda t: t.update(Room="Lounge"), "gives its match", 1),
    (lambda t: t.update(HomeTeam="x" * 9), "gives its match", 1),
    (lambda t: t.update(VisitTeam=t["HomeTeam"]), "gives its match", 1),
    (lambda t: t.update(Round="?"), "gives its match", 1),
    (lambda t: t.update(Section="Open hall"), "gives its match", 1),
    (lambda t: t.update(Section="B"), "plays in groups 'B' and ''", 3),
    (lambda t: t.update(Room="Closed"), "plays for teams 4 and 1", 4),  # 1A: 4's, then 1's
    (lambda t: t.update(HomeTeam="2", VisitTeam="4"), "plays another match", 2),
])
def test_a_teams_file_whose_games_disagree_is_refused_naming_the_game(robin, tmp_path, host,
                                                                      edit, message, named):
    """Game 1 is 1 v 4 in the open room (1A v 4B), game 2 is 2 v 3, game 4 board 2 of 1 v 4
    open."""
    out = tmp_path / "cup.pbn"
    assert host("export", robin, "-o", out)[0] == 0
    games = list(read_file(out))
    edit(games[0].tags)
    bad = tmp_path / "bad.pbn"
    bad.write_text(export_text(games), encoding="utf-8")
    status, _, err = host("--lang", "en", "score", bad)
    assert status == 2 and "game %d: " % named in err and message in err, err
    status, _, err = host("--lang", "ru", "score", bad)
    assert status == 2 and "игра %d: " % named in err, err
    with pytest.raises(Exception, match=message):
        session_from_games(games)


def test_a_teams_session_of_two_groups_keeps_its_sections_in_pbn_and_usebio(tmp_path, host):
    """Groups A and B (sections) of two teams each: the PBN games give their Section and read
    back as the same two groups' matches; USEBIO writes a SECTION a group, its team pairs
    numbered 1A, 1B... within it, and reads back as the session's labels (A1A...)."""
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
    from_file, from_db = load(tmp_path / "groups.pbn"), load(path)
    assert standings(score_teams(from_file)) == standings(score_teams(from_db))
    assert host("export", path, "-o", tmp_path / "groups.xml")[0] == 0
    text = (tmp_path / "groups.xml").read_text(encoding="utf-8")
    assert text.count("<SECTION ") == 2 and "<NS_PAIR_NUMBER>1A</NS_PAIR_NUMBER>" in text
    assert sorted(load(tmp_path / "groups.xml").pairs) == sorted(from_db.pairs)
