"""A knockout of teams (rule book 1.5.4), one session a round: each match won on total IMPs
over its segments (Law 12C4), the first round seeded or taken from a qualifying stage, each
next one the winners of the last, a tie settled by the director (`team through`), the
final's too; from the library and from the command line."""

import json
import sqlite3
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from host_sync.event import knockout_draw
from host_sync.event.knockout_draw import first_round, seeding
from host_sync.interchange.files import load
from host_sync.movements.teams import team_of
from host_sync.reports.console import knockout_boards
from host_sync.reports.i18n import texts
from host_sync.scoring.knockout import KnockoutMatch, knockout_matches
from host_sync.scoring.session import Result, Session
from host_sync.scoring.team_session import TeamPlan, score_teams

# one match of teams 1 and 2 over two segments of one board each (boards 1 and 2)
PLAN = TeamPlan(teams={"1": "1", "2": "1", "3": "2", "4": "2"},
                rounds={1: (("1", "2"),), 2: (("1", "2"),)},
                boards={(1, "1"): (1,), (2, "1"): (2,)}, knockout=True)


def line(board, ns, ew, points):
    return Result(board=board, ns=ns, ew=ew, assigned=points, round=board)


def ko(*results, plan=PLAN):
    return knockout_matches(score_teams(Session(results=list(results), teams=plan)))


def test_a_knockout_match_is_won_on_the_total_of_its_segments():
    # segment 1: team 1 +420 / -50 = 470: 10 IMPs; segment 2: team 2 gains 620 + 100: 12
    (m,) = ko(line(1, "1", "4", 420), line(1, "3", "2", -50),
              line(2, "1", "4", -100), line(2, "3", "2", 620))
    assert [s.imps for s in m.segments] == [(10, -10), (-12, 12)]
    assert (m.imps, m.complete, m.winner, m.tied()) == ((-2, 2), True, "2", False)


def test_a_match_under_way_or_tied_has_no_winner():
    (under_way,) = ko(line(1, "1", "4", 420), line(1, "3", "2", -50))
    assert (under_way.imps, under_way.complete, under_way.winner) == ((10, -10), False, None)
    (tied,) = ko(line(1, "1", "4", 420), line(1, "3", "2", 420),  # the same at both tables
                 line(2, "1", "4", 100), line(2, "3", "2", 100))
    assert tied.complete and tied.winner is None and tied.tied()


def test_a_technical_defeat_in_a_segment_decides_the_match():
    plan = TeamPlan(**{**PLAN.__dict__, "forfeits": {(2, "1"): "неявка"}})
    (m,) = ko(line(1, "1", "4", 420), line(1, "3", "2", 50), plan=plan)
    assert (m.complete, m.winner, m.ruling) == (True, "2", "forfeit")
    both = TeamPlan(**{**PLAN.__dict__, "forfeits": {(1, "1"): "-", (1, "2"): "-"}})
    (m,) = ko(plan=both)
    assert (m.complete, m.winner, m.tied()) == (True, None, False)  # both out


def test_unbalanced_split_scores_are_averaged_in_a_knockout():
    # Law 12C4: team 1 gains 10 IMPs on its own scores, team 2 loses only 6 on its own
    open_room = Result(board=1, ns="1", ew="4", assigned=420, assigned_ew=-420, round=1)
    closed = Result(board=1, ns="3", ew="2", assigned=50, assigned_ew=150, round=1)
    (m,) = ko(open_room, closed)
    assert m.imps[0] == -m.imps[1]


def test_seeds_meet_as_a_bracket_says_and_the_top_seeds_have_the_byes():
    assert seeding(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    mv = first_round([1, 2, 3, 4, 5, 6], 2, 4)
    assert mv.options["bracket"] == [1, None, 4, 5, 2, None, 3, 6]
    assert [(team_of(s.ns), team_of(s.ew)) for s in mv.rounds[0] if s.table % 2] == [
        (4, 5), (3, 6)]
    assert mv.round_count == 2 and mv.boards_per_set == 4  # two segments of 4 boards


# ---- from the command line ----

def movement(path, session):
    with sqlite3.connect(path) as db:
        row = db.execute("SELECT sc.movement FROM sections sc JOIN sessions s ON "
                         "s.id = sc.session_id WHERE s.number = ?", (session,)).fetchone()
    return json.loads(row[0])


def enter(host, path, board, table, session, *result):
    status, _, err = host("result", "correct", path, "--board", board, "--table", table,
                          "--session", session, *result)
    assert status == 0, err


def through(host, path, team, *more):
    return host("--lang", "en", "team", "through", path, "--team", team, "--reason",
                "4 extra boards, 9 : 2", *more)


def add_round(host, *more):
    return host("--lang", "en", "session", "add", *more, "--movement", "teams", "--knockout",
                "--boards-per-round", 1)


def test_a_knockout_from_the_seeds_to_its_winner(tmp_path, host):
    path = tmp_path / "ko.db"
    status, out, err = host("--lang", "en", "event", "create", path, "--name", "Кубок",
                            "--movement", "teams", "--teams", 4, "--knockout", "--segments", 2,
                            "--boards-per-round", 1)
    assert status == 0, err
    assert "knockout round (teams: 4): 1 v 4 (tables 1-2), 2 v 3 (tables 3-4)" in out
    status, _, err = add_round(host, path, "--segments", 2)
    assert status == 2 and "1 v 4 (not complete)" in err and "2 v 3 (not complete)" in err
    for board in (1, 2):  # team 1 wins both segments; 2 and 3 are flat
        enter(host, path, board, 1, 1, "4S", "N", 10)
        enter(host, path, board, 2, 1, "4S", "N", 9)
        for table in (3, 4):
            enter(host, path, board, table, 1, "3NT", "N", 9)
    status, out, err = host("--lang", "en", "score", path, "--session", 1)
    assert status == 0 and "Knockout matches" in out, err
    rows = {r[1].strip(): [c.strip() for c in r[1:]] for r in
            (ln.split("│") for ln in out.splitlines()) if len(r) > 5}
    # board 2 is NS vulnerable: +620 and -100, 12 IMPs
    assert rows["1"][:6] == ["1", "4", "10 : -10", "12 : -12", "22 : -22", "1"]
    assert rows["2"][4:6] == ["0 : 0", "tied"]
    status, _, err = host("report", path, "--session", 1, "-o", tmp_path / "site")
    assert status == 0, err
    index = (tmp_path / "site" / "en" / "index.html").read_text()
    ko = index[index.index("Knockout matches"):]
    assert ("<td>10 : -10</td><td>12 : -12</td><td>22 : -22</td><td class=\"l\">1</td>"
            in ko) and "<td>0 : 0</td><td class=\"l\">tied</td>" in ko
    assert "Team standings" not in index and "Round 1 matches" not in index  # no VPs
    ru = (tmp_path / "site" / "ru" / "index.html").read_text()
    assert "Матчи олимпийской системы" in ru and ">ничья<" in ru
    status, _, err = add_round(host, path)
    assert status == 2 and "2 v 3 (tied)" in err and "team through" in err
    status, _, err = through(host, path, 1)
    assert status == 2 and "1 v 4 is not a tie to decide (already decided for team 1)" in err
    status, out, err = through(host, path, 3)
    assert status == 0 and "2 v 3, tied: team 3 goes through: 4 extra boards, 9 : 2" in out
    status, out, err = host("--lang", "en", "score", path, "--session", 1)
    assert status == 0 and "after a tie" in out, err  # the cell wraps: its words on the page
    assert host("report", path, "--session", 1, "-o", tmp_path / "site")[0] == 0
    assert "3 (after a tie: 4 extra boards, 9 : 2)" in (
        tmp_path / "site" / "en" / "index.html").read_text()
    status, out, err = add_round(host, path)
    assert status == 0, err
    final = movement(path, 2)
    assert final["options"] == {"bracket": [1, 3], "schedule": "knockout"}
    assert "knockout round (teams: 2): 1 v 3 (tables 1-2)" in out
    enter(host, path, 1, 1, 2, "4S", "N", 9)  # team 3 wins the final by 10 IMPs
    enter(host, path, 1, 2, 2, "4S", "N", 10)
    status, _, err = add_round(host, path)
    assert status == 2 and "the knockout is over: team 3 won it" in err


def test_a_knockout_after_a_qualifying_round_robin_takes_its_best_teams(tmp_path, host):
    path = tmp_path / "mixed.db"
    assert host("event", "create", path, "--name", "Кубок", "--movement", "teams", "--teams", 4,
                "--boards-per-round", 1, "--matches", "1")[0] == 0
    # round 1 of the round robin: 1 v 4 and 2 v 3; 1 wins by 10 IMPs, 2 by 1 (on 1 board)
    enter(host, path, 1, 1, 1, "4S", "N", 10)
    enter(host, path, 1, 2, 1, "4S", "N", 9)
    enter(host, path, 1, 3, 1, "1NT", "N", 8)
    enter(host, path, 1, 4, 1, "1NT", "N", 7)
    status, _, err = add_round(host, path)
    assert status == 2 and "takes --teams N" in err
    status, _, err = add_round(host, path, "--teams", 5)
    assert status == 2 and "between 2 and the 4 teams placed" in err
    status, out, err = add_round(host, path, "--teams", 2)
    assert status == 0, err
    assert movement(path, 2)["options"]["bracket"] == [1, 2]  # places 1 and 2 in the final
    status, out, err = host("--lang", "en", "score", path, "--event")
    assert status == 0 and "VP s2" not in out and "VP s1" in out  # no VPs in a knockout


def test_a_qualifying_line_through_a_shared_place_is_refused(tmp_path, host):
    path = tmp_path / "tie.db"
    assert host("event", "create", path, "--name", "E", "--movement", "teams", "--teams", 4,
                "--boards-per-round", 1, "--matches", "1")[0] == 0
    for table in (1, 2, 3, 4):  # both matches flat: all four share place 1
        enter(host, path, 1, table, 1, "3NT", "N", 9)
    status, _, err = add_round(host, path, "--teams", 2)
    assert status == 2 and "shared across the qualifying line" in err


@pytest.mark.parametrize("options, why", [
    (["--teams", 4, "--knockout", "--sections", "A,B"], "one bracket"),
    (["--teams", 4, "--segments", 2], "--segments and --double are for --knockout"),
    (["--teams", 4, "--knockout", "--swiss"], "no --swiss"),
    (["--teams", 4, "--knockout", "--segments", 0], "1 to 16 segments"),
    (["--teams", 1, "--knockout"], "at least 2 teams"),
    (["--knockout"], "takes --teams N"),
])
def test_a_knockout_that_cannot_be_drawn_creates_no_file(tmp_path, host, options, why):
    path = tmp_path / "e.db"
    status, _, err = host("--lang", "en", "event", "create", path, "--name", "E",
                          "--movement", "teams", *options)
    assert status == 2 and why in err and not path.exists(), err


def test_a_hand_edited_bracket_is_refused_not_followed(tmp_path, host):
    path = tmp_path / "ko.db"
    assert host("event", "create", path, "--name", "E", "--movement", "teams", "--teams", 2,
                "--knockout", "--boards-per-round", 1)[0] == 0
    with sqlite3.connect(path) as db:
        mv = movement(path, 1)
        mv["options"]["bracket"] = [1, 1, "x"]
        db.execute("UPDATE sections SET movement = ?", (json.dumps(mv),))
    status, _, err = add_round(host, path)
    assert status == 2 and "bracket is not one" in err


# ---- the director's rulings in a knockout, and what a review found ----

def ko_event(tmp_path, host, teams, segments=1):
    path = tmp_path / "ko.db"
    assert host("event", "create", path, "--name", "Кубок", "--movement", "teams", "--teams",
                teams, "--knockout", "--segments", segments, "--boards-per-round", 1)[0] == 0
    return path


def home_wins(host, path, match, board, session=1):
    """The home team of match `match` wins board `board` by 10 IMPs."""
    enter(host, path, board, 2 * match - 1, session, "4S", "N", 10)
    enter(host, path, board, 2 * match, session, "4S", "N", 9)


def test_a_team_removed_from_a_knockout_loses_its_match_and_is_not_drawn(tmp_path, host):
    path = ko_event(tmp_path, host, 4)
    home_wins(host, path, 1, 1)  # 1 beats 4
    home_wins(host, path, 2, 1)  # 2 beats 3
    assert host("team", "withdraw", path, "--team", 2, "--reason", "удаление")[0] == 0
    status, out, err = add_round(host, path)  # 5.7.3: 2 loses this match and all to come
    assert status == 0, err
    assert movement(path, 2)["options"]["bracket"] == [1, 3]


def test_a_final_is_decided_when_a_team_is_removed_part_way(tmp_path, host):
    path = ko_event(tmp_path, host, 2, segments=3)
    home_wins(host, path, 1, 1)
    home_wins(host, path, 1, 2)  # two segments of three played; segment 3 never begins
    assert host("team", "withdraw", path, "--team", 1, "--reason", "удаление")[0] == 0
    status, out, err = host("--lang", "en", "score", path)
    rows = {r[1].strip(): [c.strip() for c in r[1:]] for r in
            (ln.split("│") for ln in out.splitlines()) if len(r) > 5}
    assert status == 0 and rows["1"][6] == "2", out  # team 2 goes through
    status, _, err = add_round(host, path)
    assert status == 2 and "the knockout is over: team 2 won it" in err


def test_two_finalists_both_out_end_the_knockout_with_no_winner(tmp_path, host):
    path = ko_event(tmp_path, host, 2)
    for team in (1, 2):
        assert host("team", "forfeit", path, "--team", team, "--round", 1, "--reason",
                    "неявка")[0] == 0
    status, _, err = add_round(host, path)
    assert status == 2 and "no team is left" in err


def test_a_tied_final_is_decided_by_the_director_and_ends_the_knockout(tmp_path, host):
    path = ko_event(tmp_path, host, 2)
    for table in (1, 2):
        enter(host, path, 1, table, 1, "3NT", "N", 9)
    status, _, err = add_round(host, path)
    assert status == 2 and "1 v 2 (tied)" in err
    assert through(host, path, 2)[0] == 0
    status, _, err = through(host, path, 1)  # the other team of the same tie
    assert status == 2 and "already decided for team 2" in err
    status, _, err = through(host, path, 2)
    assert status == 2 and "already decided for team 2" in err
    status, _, err = add_round(host, path)
    assert status == 2 and "the knockout is over: team 2 won it" in err
    status, _, err = host("report", path, "-o", tmp_path / "site")
    assert status == 0, err
    ru = (tmp_path / "site" / "ru" / "index.html").read_text()
    assert "2 (после ничьей: 4 extra boards, 9 : 2)" in ru
    status, out, _ = host("--lang", "en", "event", "show", path)
    assert "team 2 of section A went through a tied match: 4 extra boards, 9 : 2" in out


def test_a_tie_decision_is_taken_back_until_the_next_round_is_drawn(tmp_path, host):
    path = ko_event(tmp_path, host, 4)
    home_wins(host, path, 1, 1)
    for table in (3, 4):
        enter(host, path, 1, table, 1, "3NT", "N", 9)  # 2 v 3 tied
    assert through(host, path, 2)[0] == 0
    reinstate = ("--lang", "en", "team", "reinstate", path, "--team", 2, "--through")
    status, _, err = host(*reinstate, "--round", 1)
    assert status == 2 and "one of the two" in err
    assert host(*reinstate)[0] == 0
    status, _, err = host(*reinstate)
    assert status == 2 and "was not named through a tie" in err
    assert through(host, path, 3)[0] == 0
    enter(host, path, 1, 4, 1, "3NT", "N", 10)  # corrected: 3 (NS at table 4) wins by 1 IMP
    status, _, err = add_round(host, path)
    assert status == 2 and "team 3 was named through a tie in session 1, but its match " \
        "is not tied now" in err
    assert host(*reinstate[:5], "--team", 3, "--through")[0] == 0
    status, _, err = add_round(host, path)
    assert status == 0, err
    assert movement(path, 2)["options"]["bracket"] == [1, 3]
    enter(host, path, 1, 4, 1, "3NT", "N", 9)  # tied again, with round 2 drawn on 3
    status, _, err = through(host, path, 2, "--session", 1)
    assert status == 2 and "session 2's knockout round is drawn on them" in err
    status, _, err = host(*reinstate[:5], "--team", 3, "--through", "--session", 1)
    assert status == 2 and "was not named through a tie" in err  # not "drawn on them"


def test_a_decision_stands_while_a_later_session_is_not_a_knockout_round(tmp_path, host):
    path = ko_event(tmp_path, host, 2)
    for table in (1, 2):
        enter(host, path, 1, table, 1, "3NT", "N", 9)
    assert through(host, path, 1)[0] == 0
    assert host("session", "add", path, "--tables", 3, "--later")[0] == 0  # another evening
    status, _, err = host("--lang", "en", "team", "reinstate", path, "--team", 1, "--through",
                          "--session", 1)
    assert status == 0, err


def test_a_removal_after_a_decision_draws_as_the_ruling_says(tmp_path, host):
    path = ko_event(tmp_path, host, 4)
    for table in (1, 2):
        enter(host, path, 1, table, 1, "3NT", "N", 9)  # 1 v 4 tied
    home_wins(host, path, 2, 1)
    assert through(host, path, 1)[0] == 0
    assert host("team", "withdraw", path, "--team", 4, "--reason", "удаление")[0] == 0
    status, _, err = add_round(host, path)
    assert status == 0, err
    assert movement(path, 2)["options"]["bracket"] == [1, 2]


def test_a_tie_decision_is_refused_where_there_is_no_tie(tmp_path, host):
    path = ko_event(tmp_path, host, 4)
    status, _, err = through(host, path, 1)
    assert status == 2 and "1 v 4 is not a tie to decide (not complete)" in err
    status, _, err = through(host, path, 9)
    assert status == 2 and "teams 1 to 4, not 9" in err or "no match" in err, err
    status, _, err = host("--lang", "en", "team", "through", path, "--team", 1, "--reason",
                          "x\ny")
    assert status == 2 and "one line" in err
    robin = tmp_path / "robin.db"
    assert host("event", "create", robin, "--name", "E", "--movement", "teams", "--teams", 2,
                "--boards-per-round", 1)[0] == 0
    for table in (1, 2):
        enter(host, robin, 1, table, 1, "3NT", "N", 9)
    status, _, err = through(host, robin, 1)
    assert status == 2 and "session 1 is not a knockout round" in err
    with sqlite3.connect(robin) as db:
        assert db.execute("SELECT COUNT(*) FROM knockout_ties").fetchone() == (0,)


def test_a_shared_place_across_the_bye_line_is_refused(tmp_path, host):
    """Six teams of a round robin's first round into a knockout of 3: the best one goes
    through without a match; two teams sharing first place cannot be told apart."""
    path = tmp_path / "mixed.db"
    assert host("event", "create", path, "--name", "E", "--movement", "teams", "--teams", 6,
                "--boards-per-round", 1, "--matches", "1")[0] == 0
    home_wins(host, path, 1, 1)
    home_wins(host, path, 2, 1)  # two teams on 20 VPs
    enter(host, path, 1, 5, 1, "1NT", "N", 8)  # the third match won by 1 IMP
    enter(host, path, 1, 6, 1, "1NT", "N", 7)
    status, _, err = add_round(host, path, "--teams", 3)
    assert status == 2 and "shared across the bye line" in err


def test_a_bracket_that_does_not_pair_the_matches_played_is_refused(tmp_path, host):
    path = ko_event(tmp_path, host, 4)
    mv = movement(path, 1)
    mv["options"]["bracket"] = [1, 2, 4, 3]  # a bracket, but not the round's matches
    with sqlite3.connect(path) as db:
        db.execute("UPDATE sections SET movement = ?", (json.dumps(mv),))
    status, _, err = add_round(host, path)
    assert status == 2 and "bracket is not one" in err
    status, out, err = host("--lang", "en", "event", "show", path)
    assert status == 0 and "a knockout round (1.5.4): bracket 1-2, 4-3" in out


def test_a_swiss_does_not_follow_a_knockout_and_score_event_says_why_it_is_empty(tmp_path,
                                                                                  host):
    path = ko_event(tmp_path, host, 4)
    home_wins(host, path, 1, 1)
    status, _, err = host("--lang", "en", "score", path, "--event")
    assert status == 2 and "counts for VPs" in err
    home_wins(host, path, 2, 1)
    status, _, err = host("--lang", "en", "session", "add", path, "--movement", "teams",
                          "--swiss")
    assert status == 2 and "a Swiss round does not follow one" in err


def away_wins(host, path, match, board, session):
    """The away team of match `match` wins board `board` by 10 IMPs."""
    enter(host, path, board, 2 * match - 1, session, "4S", "N", 9)
    enter(host, path, board, 2 * match, session, "4S", "N", 10)


def matches_of(path, session):
    mv = movement(path, session)
    return [(team_of(ns), team_of(ew)) for table, ns, ew, _, _ in sorted(mv["rounds"][0])
            if table % 2], mv["options"]


def test_a_double_knockout_puts_a_loser_down_and_ends_after_two_defeats(tmp_path, host):
    """Rule book 1.5.5 with four teams: 1 and 2 win round 1; 1 beats 2 above while 3 beats 4
    below (4 is out: two defeats); 2 comes down and beats 3; the grand final 1 v 2 goes to 2,
    so 1 has lost once too and they play again; 1 wins it."""
    path = tmp_path / "de.db"
    status, out, err = host("--lang", "en", "event", "create", path, "--name", "Кубок",
                            "--movement", "teams", "--teams", 4, "--knockout", "--double",
                            "--boards-per-round", 1)
    assert status == 0, err
    assert matches_of(path, 1) == ([(1, 4), (2, 3)], {
        "bracket": [1, 4, 2, 3], "double": True, "lower": [], "final": 0,
        "schedule": "knockout"})
    home_wins(host, path, 1, 1, 1)
    home_wins(host, path, 2, 1, 1)
    plays = [((1, 2), (3, 4)), ((3, 2),), ((1, 2),), ((2, 1),)]
    results = [(home_wins, home_wins), (away_wins,), (away_wins,), (away_wins,)]
    for session, (expected, won) in enumerate(zip(plays, results), 2):
        status, out, err = add_round(host, path)
        assert status == 0, (session, err)
        played, options = matches_of(path, session)
        assert tuple(played) == expected, (session, played, options)
        for match, wins in enumerate(won, 1):
            wins(host, path, match, 1, session)
    assert matches_of(path, 4)[1]["final"] == 1 and matches_of(path, 5)[1]["final"] == 2
    assert matches_of(path, 3)[1]["bracket"] == [1, None]  # the upper winner waits
    status, out, err = host("--lang", "en", "event", "show", path)
    assert "lower bracket 3-2" in out and "the grand final's second match" in out
    status, _, err = add_round(host, path)
    assert status == 2 and "the knockout is over: team 1 won it" in err
    status, _, err = add_round(host, path, "--double")
    assert status == 2 and "leave out --teams and --double" in err


def test_a_double_knockout_whose_upper_winner_wins_the_grand_final_ends_there(tmp_path,
                                                                              host):
    path = tmp_path / "de2.db"
    assert host("event", "create", path, "--name", "E", "--movement", "teams", "--teams", 2,
                "--knockout", "--double", "--boards-per-round", 1)[0] == 0
    home_wins(host, path, 1, 1, 1)  # 1 beats 2, which goes down
    assert add_round(host, path)[0] == 0
    assert matches_of(path, 2) == ([(1, 2)], {"bracket": [1, 2], "double": True, "lower": [],
                                              "final": 1, "schedule": "knockout"})
    home_wins(host, path, 1, 1, 2)
    status, _, err = add_round(host, path)
    assert status == 2 and "team 1 won it" in err


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 24), st.randoms(use_true_random=False))
def test_in_a_double_knockout_every_team_but_the_winner_is_out_after_exactly_two_defeats(
        teams, rng):
    """The lower bracket's rounds, drawn from any results: nobody plays after a second
    defeat, nobody is out before it, and one team is left."""
    options = first_round(list(range(1, teams + 1)), 1, 1, double=True).options
    losses = Counter()
    for _ in range(4 * teams):
        pairs = knockout_draw._pairs(options["bracket"]) + knockout_draw._pairs(
            options["lower"])
        assert pairs and all(losses[t] < 2 for p in pairs for t in p)
        matches = []
        for a, b in pairs:
            loser = rng.choice((a, b))
            losses[loser] += 1
            matches.append(KnockoutMatch(str(a), str(b), complete=True,
                                         winner=str(b if loser == a else a)))
        decide = knockout_draw._Decisions(matches, set())
        upper, lower = decide.round(options["bracket"]), knockout_draw.Lower.of(options, 1)
        below = decide.round(lower.slots)
        try:
            slots, lower = lower.next(options["bracket"], upper, below)
        except knockout_draw.KnockoutError as over:
            (winner,) = [t for t in range(1, teams + 1) if losses[t] < 2]
            assert "team %d won it" % winner in str(over)
            assert all(losses[t] == 2 for t in range(1, teams + 1) if t != winner)
            return
        options = knockout_draw._round(slots, 1, 1, lower).options
    raise AssertionError("the knockout did not end")


def groups_cup(tmp_path, host, named="AB", played="AB"):
    """Two groups of four, one round of their round robin each (1 v 4, 2 v 3), the
    sections `named` named; in A the home teams win by 10 and by 1 IMPs, in B the away
    teams do (B4 and B3 win): A1, B4, A2, B3 go through."""
    path = tmp_path / "groups.db"
    assert host("event", "create", path, "--name", "Кубок", "--movement", "teams", "--teams",
                4, "--sections", "A,B", "--boards-per-round", 1, "--matches", "1")[0] == 0
    names = tmp_path / "names.csv"
    names.write_text("section,pair,player1,player2\n" + "".join(
        "%s,%d%s,%s%d%s-1,%s%d%s-2\n" % (g, t, p, g, t, p, g, t, p)
        for g in named for t in range(1, 5) for p in "AB"))
    assert host("names", "import", path, names)[0] == 0
    for letter, narrow in (("A", ("1NT", "N", 8)), ("B", ("1NT", "N", 7))):
        if letter not in played:
            continue
        big = ("4S", "N", 10) if letter == "A" else ("4S", "N", 9)
        small = ("4S", "N", 9) if letter == "A" else ("4S", "N", 10)
        for table, result in ((1, big), (2, small), (3, narrow),
                              (4, ("1NT", "N", 7 if letter == "A" else 8))):
            status, _, err = host("result", "correct", path, "--board", 1, "--table", table,
                                  "--section", letter, "--session", 1, *result)
            assert status == 0, err
    return path


def test_a_knockout_after_a_stage_of_groups_crosses_them_and_keeps_the_names(tmp_path, host):
    """Rule book 1.5.7's own example: a round robin in groups, then a knockout; the best
    two of each group: A1 v B2 and B1 v A2, numbered 1 to 4."""
    path = groups_cup(tmp_path, host)
    status, _, err = add_round(host, path, "--teams", 3)
    assert status == 2 and "a multiple of 2" in err
    status, out, err = add_round(host, path, "--teams", 4)
    assert status == 0, err
    played, options = matches_of(path, 2)
    # seeds A1 (1), B1 (4), A2 (2), B2 (3) -> knockout teams 1-4; 1 v 4 is A1 v B2
    assert options["from"] == ["A1", "B4", "A2", "B3"] and played == [(1, 4), (2, 3)]
    assert "numbered for the knockout: 1 = A1, 2 = B4, 3 = A2, 4 = B3" in out
    with sqlite3.connect(path) as db:
        named = dict(db.execute(
            "SELECT p.number, pl.name FROM players pl JOIN pairs p ON p.id = pl.pair_id JOIN "
            "sections s ON s.id = p.section_id JOIN sessions se ON se.id = s.session_id "
            "WHERE se.number = 2 AND pl.position = 1").fetchall())
    assert named[1] == "A1A-1" and named[4] == "B4B-1" and named[7] == "B3A-1"
    shown = host("--lang", "en", "event", "show", path)[1]
    assert "numbered from the groups: 1 = A1, 2 = B4" in shown
    home_wins(host, path, 1, 1, 2)
    assert host("report", path, "--session", 2, "-o", tmp_path / "site")[0] == 0
    index = (tmp_path / "site" / "en" / "index.html").read_text()
    groups = index[index.index("Event team standings"):index.index("Knockout matches")]
    assert "A1A-1" in groups and "B4A-1" in groups  # the groups' names, not the knockout's


# ---- what a second review found: removals across stages, groups, names, byes ----

def test_a_removal_stays_in_its_stage_across_the_knockout_s_renumbering(tmp_path, host):
    path = groups_cup(tmp_path, host)
    assert add_round(host, path, "--teams", 4)[0] == 0  # knockout 2 is B1 (B4), 3 is A2
    assert host("team", "withdraw", path, "--team", 2, "--session", 2, "--reason",
                "удаление")[0] == 0
    # knockout team 2 is out; group team A2 (knockout 3) keeps its group place
    status, out, err = host("--lang", "en", "score", path, "--event")
    rows = {r[2].strip(): [c.strip() for c in r[1:]] for r in
            (ln.split("│") for ln in out.splitlines()) if len(r) > 5}
    assert status == 0 and rows["A2"][0] == "2" and rows["B4"][0] == "1", out
    home_wins(host, path, 1, 1, 2)  # 1 v 4 (A1 v B3): A1 wins; 2 v 3 is 3's
    status, out, err = add_round(host, path)
    assert status == 0 and movement(path, 3)["options"]["bracket"] == [1, 3], err


def test_a_team_removed_from_a_knockout_leaves_the_rounds_before_as_played(tmp_path, host):
    path = ko_event(tmp_path, host, 4)
    home_wins(host, path, 1, 1)  # round 1: 1 beats 4 by 10, 2 beats 3
    home_wins(host, path, 2, 1)
    assert add_round(host, path)[0] == 0  # the final, 1 v 2
    assert host("team", "withdraw", path, "--team", 1, "--session", 2, "--reason",
                "удаление")[0] == 0
    first = knockout_matches(score_teams(load(str(path), session=1)))[0]
    assert (first.winner, first.ruling, first.imps) == ("1", "", (10, -10))
    final = knockout_matches(score_teams(load(str(path), session=2)))[0]
    assert (final.winner, final.ruling) == ("2", "technical")
    assert "technical defeat: 1 (removed, 5.7.3)" in knockout_boards(final, texts("en"))


def test_a_team_removed_after_its_segments_were_played_is_noted(tmp_path, host):
    path = ko_event(tmp_path, host, 2)
    home_wins(host, path, 1, 1)
    assert host("team", "withdraw", path, "--team", 1, "--reason", "удаление")[0] == 0
    (m,) = knockout_matches(score_teams(load(str(path))))
    assert m.winner == "2" and knockout_boards(m, texts("en")).endswith(
        "technical defeat: 1 (removed, 5.7.3)")


def test_a_team_with_a_bye_can_be_removed_and_is_not_drawn(tmp_path, host):
    path = ko_event(tmp_path, host, 3)  # 1 has the bye, 2 v 3
    status, _, err = host("team", "withdraw", path, "--team", 1, "--reason", "неявка")
    assert status == 0, err
    home_wins(host, path, 1, 1)
    status, _, err = add_round(host, path)
    assert status == 2 and "the knockout is over: team 2 won it" in err


def test_a_round_robin_s_count_is_over_its_whole_schedule_before_its_later_days_exist(
        tmp_path, host):
    """8 teams, 7 matches each; day 1 plays rounds 1-3. A team removed after them took part
    in 3 of 7: annulled, whether day 2 is set up yet or not."""
    path = tmp_path / "rr.db"
    assert host("event", "create", path, "--name", "E", "--movement", "teams", "--teams", 8,
                "--boards-per-round", 1, "--matches", "1-3")[0] == 0
    for board in (1, 2, 3):
        for table in range(1, 9):
            enter(host, path, board, table, 1, "3NT", "N", 9)
    assert host("team", "withdraw", path, "--team", 3, "--reason", "удаление")[0] == 0
    status, out, err = host("--lang", "en", "score", path)
    assert status == 0 and out.count("annulled: 3 removed (5.7.3)") == 3, out


def test_a_knockout_after_groups_is_refused_clearly_when_it_cannot_be_seeded(tmp_path, host):
    path = groups_cup(tmp_path, host, played="A")
    status, _, err = add_round(host, path, "--teams", 4)
    assert status == 2 and "not complete: session 1 round 1: B1 v B4" in err
    (tmp_path / "more").mkdir()
    path = groups_cup(tmp_path / "more", host)
    status, _, err = add_round(host, path, "--teams", 10)
    assert status == 2 and "group A, B has fewer teams placed" in err
    for team in (1, 2, 3, 4):
        for letter in "AB":
            assert host("team", "withdraw", path, "--team", team, "--section", letter,
                        "--reason", "x")[0] == 0
    status, _, err = add_round(host, path, "--teams", 4)
    assert status == 2 and "no team of the groups keeps a place" in err


def test_a_later_knockout_round_names_each_team_from_its_own_group(tmp_path, host):
    path = groups_cup(tmp_path, host, named="A")
    assert add_round(host, path, "--teams", 4)[0] == 0
    home_wins(host, path, 1, 1, 2)  # 1 (A1) and 2 (B4) reach the final
    home_wins(host, path, 2, 1, 2)
    assert add_round(host, path)[0] == 0
    with sqlite3.connect(path) as db:
        named = dict(db.execute(
            "SELECT p.number, pl.name FROM players pl JOIN pairs p ON p.id = pl.pair_id JOIN "
            "sections s ON s.id = p.section_id JOIN sessions se ON se.id = s.session_id "
            "WHERE se.number = 3 AND pl.position = 1").fetchall())
    assert named == {1: "A1A-1", 2: "A1B-1"}  # team 2 came from group B, never named


@pytest.mark.parametrize("edit, why", [
    ({"final": True}, "lower bracket is not one"),
    ({"bracket": [1, 10 ** 9]}, "bracket is not one"),
    ({"lower": [99, None]}, "bracket is not one"),  # a team the knockout never had
])
def test_a_hand_edited_double_knockout_is_refused_or_shown(tmp_path, host, edit, why):
    path = tmp_path / "de.db"
    assert host("event", "create", path, "--name", "E", "--movement", "teams", "--teams", 2,
                "--knockout", "--double", "--boards-per-round", 1)[0] == 0
    mv = movement(path, 1)
    mv["options"].update(edit)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE sections SET movement = ?", (json.dumps(mv),))
    assert host("--lang", "en", "event", "show", path)[0] == 0
    status, _, err = add_round(host, path)
    assert status == 2 and why in err


def test_a_lower_bracket_bye_goes_to_a_team_that_has_not_had_one():
    assert knockout_draw._lower_slots([3, 6, 1], []) == [3, 6, 1, None]
    assert knockout_draw._lower_slots([3, 6, 1], [], rested=[1]) == [3, 1, 6, None]
    assert knockout_draw._lower_slots([3, 6, 1], [], rested=[1, 6, 3]) == [3, 6, 1, None]


def test_a_tie_is_decided_on_a_postgresql_event_as_in_a_file(host, pg_url):
    """The decision scores the session inside the writer's transaction: on the server too."""
    assert host("event", "create", pg_url, "--name", "Кубок", "--movement", "teams", "--teams",
                2, "--knockout", "--boards-per-round", 1)[0] == 0
    for table in (1, 2):
        enter(host, pg_url, 1, table, 1, "3NT", "N", 9)
    assert through(host, pg_url, 1)[0] == 0
    status, _, err = through(host, pg_url, 2)
    assert status == 2 and "already decided for team 1" in err
    status, _, err = add_round(host, pg_url)
    assert status == 2 and "the knockout is over: team 1 won it" in err


def test_a_correction_after_the_next_round_is_drawn_is_said_not_followed(tmp_path, host):
    """Round 1's 1 v 4 is corrected after round 2 was drawn with team 1: the draw stands (a
    round under way is not drawn again), and the correction and `score` of round 1 say that
    round 1 now puts team 4 through."""
    path = ko_event(tmp_path, host, 4)
    home_wins(host, path, 1, 1)  # 1 beats 4
    home_wins(host, path, 2, 1)  # 2 beats 3
    assert add_round(host, path)[0] == 0  # the final: 1 v 2
    status, _, err = host("--lang", "en", "result", "correct", path, "--board", 1, "--table", 1,
                          "--session", 2, "3NT", "N", 9)
    assert status == 0 and "warning" not in err, err  # the final's own results: nothing drawn
    status, _, err = host("--lang", "en", "result", "correct", path, "--board", 1, "--table", 1,
                          "--session", 1, "4S", "N", 8)  # now 4 wins by 2 IMPs
    assert status == 0 and "warning: session 2's knockout round was drawn 1-2; session 1's " \
        "results as they stand now give 4-2" in err, err
    assert movement(path, 2)["options"]["bracket"] == [1, 2]  # the draw stands
    status, _, err = host("--lang", "ru", "score", path, "--session", 1)
    assert status == 0 and "внимание: тур олимпийской системы сессии 2 разыгран так: 1-2" in err
    enter(host, path, 1, 1, 1, "3NT", "N", 9)  # tied now: nobody through
    enter(host, path, 1, 2, 1, "3NT", "N", 9)
    status, _, err = host("--lang", "en", "score", path, "--session", 1)
    assert "which now say: the next knockout round is drawn when every match is decided" in err
    enter(host, path, 1, 1, 1, "4S", "N", 10)  # as drawn again: nothing to say
    enter(host, path, 1, 2, 1, "4S", "N", 9)
    assert "warning" not in host("--lang", "en", "score", path, "--session", 1)[2]


def test_the_director_s_list_and_page_warn_of_a_round_corrected_after_its_draw(tmp_path,
                                                                               host):
    """`flags` (the whole event and --session) and the report's director page of the round
    corrected say what `score` says, until the results give the draw again."""
    path = ko_event(tmp_path, host, 4)
    home_wins(host, path, 1, 1)
    home_wins(host, path, 2, 1)
    assert add_round(host, path)[0] == 0  # the final: 1 v 2
    said = "warning: session 2's knockout round was drawn 1-2; session 1's results as they " \
        "stand now give 4-2"
    assert "warning" not in host("--lang", "en", "flags", path)[1]
    enter(host, path, 1, 1, 1, "4S", "N", 8)  # now 4 wins round 1's match by 2 IMPs
    for more in ((), ("--session", 1)):
        status, out, err = host("--lang", "en", "flags", path, *more)
        assert status == 0 and said in out, err
    assert "warning" not in host("--lang", "en", "flags", path, "--session", 2)[1]
    status, out, _ = host("--lang", "ru", "flags", path)
    assert "внимание: тур олимпийской системы сессии 2 разыгран так: 1-2" in out
    site = tmp_path / "site"
    assert host("report", path, "--session", 1, "-o", site)[0] == 0
    page = (site / "en" / "director.html").read_text()
    assert '<p class="warning">Warning: session 2&#39;s knockout round was drawn 1-2' in page
    assert "Внимание: тур олимпийской" in (site / "ru" / "director.html").read_text()
    enter(host, path, 1, 1, 1, "4S", "N", 10)  # as drawn again: nothing to say
    assert "warning" not in host("--lang", "en", "flags", path)[1]


def test_the_director_s_list_is_shown_when_a_session_cannot_be_scored(tmp_path, host):
    """A row edited by hand that the draw's check refuses (a team name of team 0 in round
    1) is said as the warning; the flags are listed all the same."""
    path = ko_event(tmp_path, host, 4)
    home_wins(host, path, 1, 1)
    home_wins(host, path, 2, 1)
    assert add_round(host, path)[0] == 0
    with sqlite3.connect(path) as db:
        section = db.execute("SELECT s.id FROM sections s JOIN sessions se ON "
                             "se.id = s.session_id WHERE se.number = 1").fetchone()[0]
        db.execute("INSERT INTO team_names (section_id, team, name) VALUES (?, 0, 'x')",
                   (section,))
    status, out, err = host("--lang", "en", "flags", path)
    assert status == 0 and "No flags and no rulings." in out, err
    assert "warning: team name 1 is not one (team 0)" in out


@pytest.mark.parametrize("team", ["'x'", "0", "-1", "2.5"])
def test_a_hand_edited_tie_decision_is_refused_naming_it(tmp_path, host, team):
    path = ko_event(tmp_path, host, 2)
    for table in (1, 2):
        enter(host, path, 1, table, 1, "3NT", "N", 9)
    assert through(host, path, 1)[0] == 0
    with sqlite3.connect(path) as db:
        db.execute("UPDATE knockout_ties SET team = %s" % team)
    for command in (("score", path), ("event", "show", path)):
        status, _, err = host("--lang", "en", *command)
        assert status == 2 and "tie decision 1 is not one" in err, err
    status, _, err = host("--lang", "ru", "score", path)
    assert status == 2 and "решение о ничьей 1 испорчено" in err
