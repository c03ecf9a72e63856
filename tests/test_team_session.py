"""A teams session scored as teams: matches in IMPs and VPs, byes, the team standings, from
the library, from `host-sync score` and `report` on an event set up with `--movement teams`,
with the event's conditions (`event set --bye-vp --tie-break`), and on the live page."""

import re
import sqlite3
import time
from dataclasses import replace
from decimal import Decimal

import pytest
from web_support import WebServer, get, play

from host_sync.errors import Refused
from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.interchange.files import load
from host_sync.movements import round_robin, teams_movement
from host_sync.reports.console import byes_text, match_boards
from host_sync.reports.i18n import texts
from host_sync.scoring.session import Result, Session
from host_sync.scoring.team_session import TeamPlan, event_standings, score_teams
from host_sync.web.live import snapshot

# two matches of four teams in round 1, two boards each; team t's pairs are 2t-1 and 2t
PLAN = TeamPlan(teams={str(p): str((p + 1) // 2) for p in range(1, 9)},
                rounds={1: (("1", "4"), ("2", "3")), 2: (("1", "2"), ("4", "3"))},
                boards={(1, "1"): (1, 2), (1, "2"): (1, 2), (2, "1"): (3, 4), (2, "4"): (3, 4)})


def played(board, ns, ew, contract, declarer, tricks, rnd=1):
    return Result(board=board, ns=ns, ew=ew, contract=contract, declarer=declarer,
                  tricks=tricks, round=rnd)


def session(*results, plan=PLAN):
    return Session(results=list(results), teams=plan)


def test_a_match_compares_its_two_tables_and_converts_the_margin_to_vps():
    s = session(played(1, "1", "8", "4S", "N", 10), played(1, "7", "2", "4S", "N", 9),
                played(2, "1", "8", "3NT", "S", 9), played(2, "7", "2", "3NT", "S", 9))
    scored = score_teams(s, PLAN)
    first = scored.matches[0]
    # board 1: +420 in the open room, -50 in the closed: 470 = 10 IMPs to team 1; board 2 flat
    assert (first.home, first.away, first.boards) == ("1", "4", [(1, 10, -10), (2, 0, 0)])
    assert first.imps == (10, -10) and first.vp == (Decimal("16.46"), Decimal("3.54"))
    standings = {st.team: st for st in scored.standings}
    assert (standings["1"].vp, standings["1"].place, standings["4"].place) == (
        Decimal("16.46"), 1, 2)
    assert (standings["1"].imps_won, standings["1"].imps_lost) == (10, 0)
    # teams 2 and 3 have no result yet: no VPs, sharing the places after
    assert scored.matches[1].vp is None and [st.label for st in scored.standings[2:]] == [
        "3=", "3="]


def test_a_match_under_way_shows_its_margin_on_the_scale_of_the_whole_match():
    one = score_teams(session(played(1, "1", "8", "4S", "N", 10),
                              played(1, "7", "2", "4S", "N", 9)), PLAN).matches[0]
    assert one.boards == [(1, 10, -10)] and one.waiting == []
    assert one.vp == (Decimal("16.46"), Decimal("3.54"))  # 10 IMPs in a match of 2 boards
    waiting = score_teams(session(played(1, "1", "8", "4S", "N", 10)), PLAN).matches[0]
    assert (waiting.boards, waiting.waiting, waiting.vp) == ([], [1], None)


def test_a_bye_is_worth_the_conditions_vps_in_each_round_begun_only():
    plan = TeamPlan(teams={str(p): str((p + 1) // 2) for p in range(1, 7)},
                    rounds={1: (("1", "2"),), 2: (("1", "3"),), 3: (("2", "3"),)})
    s = session(played(1, "1", "4", "1NT", "N", 7), played(1, "3", "2", "1NT", "N", 7),
                plan=plan)
    scored = score_teams(s, plan)
    assert scored.byes == {1: ["3"]}
    by_team = {st.team: (st.vp, st.byes, st.matches) for st in scored.standings}
    assert by_team == {"1": (10, 0, 1), "2": (10, 0, 1), "3": (12, 1, 0)}
    assert {st.team: st.vp for st in score_teams(s, replace(plan, bye_vp="10.5")).standings}[
        "3"] == Decimal("10.5")


@pytest.mark.parametrize("bye", ["21", "-1", "12.345", "nan", "twelve", ""])
def test_a_bye_worth_no_vp_of_the_scale_is_refused(bye):
    with pytest.raises(Refused) as e:
        score_teams(session(), replace(PLAN, bye_vp=bye))
    assert "0 to 20 VPs" in str(e.value) and "от 0 до 20 ВП" in e.value.text("ru")


def assigned(board, ns, ew, points, rnd=1):
    return Result(board=board, ns=ns, ew=ew, assigned=points, round=rnd)


def test_equal_vps_share_the_place_or_the_imp_quotient_splits_them():
    # team 1 beats 4 by 3 IMPs (3 won, none lost), team 2 beats 3 by 3 (5 won, 2 lost)
    s = session(assigned(1, "1", "8", 90), assigned(1, "7", "2", 0),
                assigned(2, "1", "8", 0), assigned(2, "7", "2", 0),
                assigned(1, "3", "6", 200), assigned(1, "5", "4", 0),
                assigned(2, "3", "6", 0), assigned(2, "5", "4", 60))
    shared = score_teams(s, PLAN)
    assert [(st.team, st.label) for st in shared.standings] == [
        ("1", "1="), ("2", "1="), ("3", "3="), ("4", "3=")]
    quotient = score_teams(s, replace(PLAN, tie_break="quotient"))
    assert [(st.team, st.label) for st in quotient.standings] == [
        ("1", "1"), ("2", "2"), ("3", "3"), ("4", "4")]
    with pytest.raises(Refused):
        score_teams(s, replace(PLAN, tie_break="coin"))


@pytest.mark.parametrize("line", [played(1, "1", "99", "1NT", "N", 7),  # no such pair
                                  played(1, "1", "2", "1NT", "N", 7),  # a team against itself
                                  played(1, "1", "6", "1NT", "N", 7),  # 1 v 3: not in round 1
                                  played(1, "1", "8", "1NT", "N", 7, rnd=3),  # no round 3
                                  played(3, "1", "8", "1NT", "N", 7)])  # not round 1's board
def test_a_line_that_belongs_to_no_match_is_listed_apart_and_counts_for_nobody(line):
    """The host flagged it (`not_in_movement`, `wrong_board`): one such line stopped the
    scoring of the whole event; it is the director's to settle, the rest is scored."""
    good = [played(1, "1", "8", "4S", "N", 10), played(1, "7", "2", "4S", "N", 9)]
    scored = score_teams(session(*good, line), PLAN)
    assert scored.outside == [line]
    assert scored.matches[0].boards == [(1, 10, -10)] and scored.matches[0].waiting == []


def test_an_artificial_score_in_a_match_is_its_imps():
    art = Result(board=2, ns="1", ew="8", round=1, ns_artificial="A+", ew_artificial="A-")
    s = session(played(1, "1", "8", "4S", "N", 10), played(1, "7", "2", "4S", "N", 10), art,
                played(2, "7", "2", "3NT", "S", 9))
    first = score_teams(s, PLAN).matches[0]
    # the artificial table's award counts (A+ to team 1's NS, A- to team 4's EW: +3 / -3)
    assert first.boards == [(1, 0, 0), (2, 3, -3)] and first.imps == (3, -3)


# ---- from the command line: an event set up as a teams round robin ----

def teams_event(tmp_path, host, teams=4, boards=6):
    path = tmp_path / "teams.db"
    assert host("event", "create", path, "--name", "Кубок", "--movement", "teams", "--teams",
                teams, "--boards", boards)[0] == 0
    return path


def name_players(tmp_path, host, path, lines):
    names = tmp_path / "names.csv"
    names.write_text("section,pair,player1,player2\n" + lines)
    assert host("names", "import", path, names)[0] == 0


def enter(host, path, board, table, *result):
    status, out, err = host("result", "correct", path, "--board", board, "--table", table,
                            *result)
    assert status == 0, err


def test_score_ranks_the_teams_of_a_teams_event_not_its_pairs(tmp_path, host):
    path = teams_event(tmp_path, host)
    name_players(tmp_path, host, path, "A,1A,Ян,Лев\nA,1B,Ира,Юля\n")
    # round 1: table 1 is 1A v 4B, table 2 is 4A v 1B (the match of teams 1 and 4)
    enter(host, path, 1, 1, "4S", "N", 10)
    enter(host, path, 1, 2, "4S", "N", 9)
    enter(host, path, 2, 1, "3NT", "S", 9)
    enter(host, path, 2, 2, "3NT", "N", 10)
    status, out, err = host("--lang", "en", "score", path)
    assert status == 0, err
    assert "Team standings" in out and "Round 1 matches" in out
    # 10 IMPs on board 1, 1 back on board 2: 9 in a match of 2 boards
    assert "9 : -9" in out and "16.00 : 4.00" in out
    standings = out[out.index("Team standings"):]
    line = next(ln for ln in standings.splitlines() if "Ян" in ln)
    assert line.split("│")[2].strip() == "1" and "16.00" in line
    status, out, _ = host("--lang", "ru", "score", path)
    assert status == 0 and "Командный зачёт" in out and "Матчи тура 1" in out


def test_score_of_a_teams_event_with_an_odd_number_of_teams_gives_the_byes(tmp_path, host):
    path = teams_event(tmp_path, host, teams=5, boards=10)
    # round 1: team 1 has the bye; table 1 is 2A v 5B, table 2 is 5A v 2B
    enter(host, path, 1, 1, "4S", "N", 10)
    enter(host, path, 1, 2, "4S", "N", 10)
    status, out, err = host("--lang", "en", "score", path)
    assert status == 0, err
    assert "Bye: 1 (12.00 VP)" in out  # the default of the WBF's conditions
    assert host("event", "set", path, "--bye-vp", "14")[0] == 0
    status, out, err = host("--lang", "en", "score", path)
    assert status == 0, err
    assert "Bye: 1 (14.00 VP)" in out
    line = next(ln for ln in out.splitlines() if ln.split("│")[2:3] == [" 1    "])
    assert "14.00" in line
    for bad in ("25", "12.345", "много"):
        status, _, err = host("--lang", "en", "event", "set", path, "--bye-vp", bad,
                              "--venue", "Клуб")
        assert status == 2 and "0 to 20 VPs" in err
    assert "Venue: not given" in host("--lang", "en", "event", "show", path)[1]


def test_the_tie_break_is_the_event_s_and_score_and_report_follow_it(tmp_path, host):
    path = teams_event(tmp_path, host)
    # team 1 v 4 (tables 1, 2): 10 IMPs to team 1 on board 1, board 2 flat
    for board, table, result in ((1, 1, "4S N 10"), (1, 2, "4S N 9"), (2, 1, "1NT N 7"),
                                 (2, 2, "1NT N 7"),
                                 # team 2 v 3 (tables 3, 4): 11 IMPs to 2, then 1 back
                                 (1, 3, "6S N 12"), (1, 4, "4S N 12"), (2, 3, "1NT N 7"),
                                 (2, 4, "1NT N 8")):
        enter(host, path, board, table, *result.split())

    def places(out):
        standings = out[out.index("Team standings"):]
        return [(row[1].strip(), row[2].strip()) for row in
                (ln.split("│") for ln in standings.splitlines()) if len(row) > 3]
    # both winners by 10 IMPs: equal VPs share the place, and so do both losers
    assert places(host("--lang", "en", "score", path)[1]) == [
        ("1=", "1"), ("1=", "2"), ("3=", "3"), ("3=", "4")]
    assert host("event", "set", path, "--tie-break", "quotient")[0] == 0
    assert "equal VPs: the IMP quotient" in host("--lang", "en", "event", "show", path)[1]
    # team 1 lost no IMP, team 2 lost 1; team 3 won 1 of 11 lost, team 4 none of 10
    assert places(host("--lang", "en", "score", path)[1]) == [
        ("1", "1"), ("2", "2"), ("3", "3"), ("4", "4")]
    index = tmp_path / "site" / "en" / "index.html"
    assert host("report", path, "-o", tmp_path / "site", "--lang", "en")[0] == 0
    assert index.read_text().index("<td>1</td><td class=\"l\">1</td>") < \
        index.read_text().index("<td>2</td><td class=\"l\">2</td>")
    status, _, err = host("event", "set", path, "--tie-break", "coin")
    assert status == 2 and "coin" in err
    # a value written into the file by hand is refused where it is read, with the reason
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET bye_vp = '99'")
    db.commit()
    status, _, err = host("--lang", "en", "score", path)
    assert status == 2 and "0 to 20 VPs, at most two decimals, not '99'" in err


def test_a_teams_score_reads_what_the_director_entered_and_audits_nothing(tmp_path, host):
    path = teams_event(tmp_path, host)
    enter(host, path, 1, 1, "4S", "N", 10)
    status, out, err = host("result", "adjust", path, "--board", 1, "--table", 2,
                            "--artificial", "A-", "A+")
    assert status == 0 and "adjusted score NS A- / EW A+" in out, err  # not 40% / 60%
    before = sqlite3.connect(path).execute("SELECT COUNT(*) FROM audit").fetchone()
    status, out, err = host("--lang", "en", "score", path)
    assert status == 0, err
    assert "3 : -3" in out  # the closed room's A+ to team 1's EW, A- to team 4's NS
    assert sqlite3.connect(path).execute("SELECT COUNT(*) FROM audit").fetchone() == before


def test_the_report_of_a_teams_session_leads_with_the_teams_and_ranks_pairs_by_butler(
        tmp_path, host):
    path = teams_event(tmp_path, host)
    name_players(tmp_path, host, path, "A,1A,<b>Ян</b>,Лев\n")
    enter(host, path, 1, 1, "4S", "N", 10)
    enter(host, path, 1, 2, "4S", "N", 9)
    enter(host, path, 1, 3, "1NT", "N", 7)
    status, out, err = host("report", path, "-o", tmp_path / "site")
    assert status == 0, err
    index = (tmp_path / "site" / "en" / "index.html").read_text()
    standings = index[index.index("Team standings"):index.index("Round 1 matches")]
    assert "<td>16.46</td>" in standings and "<td>3.54</td>" in standings
    assert "&lt;b&gt;Ян&lt;/b&gt;" in standings and "<b>Ян" not in index
    matches = index[index.index("Round 1 matches"):]
    assert "10 : -10" in matches and "16.46 : 3.54" in matches
    assert "waiting for the other table: 1" in matches  # teams 2 and 3: one table so far
    assert "Butler IMPs" in index  # the pairs' own ranking in a teams event
    ru = (tmp_path / "site" / "ru" / "index.html").read_text()
    assert "Командный зачёт" in ru and "Матчи тура 1" in ru and "ждут второго стола" in ru


# ---- the live page: the matches of the boards every table has played ----

def test_the_live_page_of_a_teams_event_shows_the_matches_of_complete_boards(event_location):
    db = open_db(event_location, create=True)
    try:
        movement = teams_movement(round_robin(4), 2)
        setup.add_session(db, setup.create_event(db, "Кубок"), 1, movement)
        for table in range(1, 5):
            setup.register_terminal(db, "T%d" % table, 0)
        for table in (1, 2, 3):
            play(db, movement, table, 1)
        snap = snapshot(db)
        # boards 1-2 are played at every table of round 1 (each match its own copy): until
        # the fourth table has played them, no match of the round shows
        assert snap.public_boards() == frozenset() and snap.teams.rounds() == []
        assert snap.so_far.session.method == "butler"  # the pairs' own ranking in teams
        play(db, movement, 4, 1)
        snap = snapshot(db)
        matches = [m for _, ms in snap.teams.rounds() for m in ms]
        assert [(m.home, m.away) for m in matches] == [("1", "4"), ("2", "3")]
        assert all(m.vp is not None and sum(m.vp) == 20 and len(m.boards) == 2
                   for m in matches)
        assert sum(s.vp for s in snap.teams.standings) == 40
        # the pairs are labelled as event show and the names import say them, everywhere
        assert sorted(snap.session.pairs) == ["%d%s" % (t, ab) for t in (1, 2, 3, 4)
                                              for ab in "AB"]
        assert snap.pair_boards("1A") == snap.pair_boards("4B") == {1, 2}
        leader = snap.teams.standings[0]
        with WebServer(event_location) as web:
            en = get(web.url + "/en/")[1]
            ru = get(web.url + "/ru/")[1]
        assert "Team standings" in en and "Round 1 matches" in en
        assert "<td>%s</td>" % leader.label in en and "Командный зачёт" in ru
    finally:
        db.close()


# ---- the director's rulings: a technical defeat, a team removed (rule book 5.7.3) ----

# a round robin of four teams, one board a round (as `round_robin(4)` schedules it)
ROBIN = TeamPlan(teams={str(p): str((p + 1) // 2) for p in range(1, 9)},
                 rounds={1: (("1", "4"), ("2", "3")), 2: (("4", "3"), ("1", "2")),
                         3: (("2", "4"), ("3", "1"))},
                 boards={(r, home): (r,) for r, ms in {1: "12", 2: "41", 3: "23"}.items()
                         for home in ms})


def round_of(rnd, winner_points=0):
    """Both matches of round `rnd` on board `rnd`: the home team's NS scores
    `winner_points` in the open room, the closed room passes."""
    out = []
    for home, away in ROBIN.rounds[rnd]:
        h, a = (2 * int(home) - 1, 2 * int(home)), (2 * int(away) - 1, 2 * int(away))
        out += [assigned(rnd, str(h[0]), str(a[1]), winner_points, rnd),
                assigned(rnd, str(a[0]), str(h[1]), 0, rnd)]
    return out


def test_a_technical_defeat_gives_no_vp_to_the_team_and_the_bye_s_to_its_opponents():
    s = session(*round_of(1, 430), plan=ROBIN)  # 10 IMPs to each home team
    plan = replace(ROBIN, forfeits={(1, "1"): "неявка"}, bye_vp="13")
    first = score_teams(s, plan).matches[0]
    assert (first.ruling, first.against, first.vp) == ("forfeit", ("1",), (0, Decimal(13)))
    by_team = {st.team: st for st in score_teams(s, plan).standings}
    assert (by_team["1"].vp, by_team["4"].vp, by_team["1"].imps_won) == (0, 13, 0)
    assert by_team["2"].vp == Decimal("18.09")  # the other match as played


def test_a_team_removed_after_more_than_half_its_matches_loses_the_rest_as_they_begin():
    played = round_of(1, 430) + round_of(2, 430)  # team 4 played rounds 1 and 2 of 3
    plan = replace(ROBIN, removed={"4": "дисквалификация"})
    scored = score_teams(session(*played, plan=plan), plan)
    assert [m.ruling for m in scored.matches] == [""] * 6  # round 3 not begun
    scored = score_teams(session(*played, *round_of(3, 430)[2:], plan=plan), plan)
    technical = scored.matches[4]  # round 3: 2 v 4, not played: a technical defeat
    assert (technical.home, technical.away, technical.ruling, technical.vp) == (
        "2", "4", "technical", (Decimal(12), 0))
    removed = scored.standings[-1]
    assert (removed.team, removed.label, removed.removed) == ("4", "—", True)
    assert all(st.label != "—" for st in scored.standings[:-1])
    # the two matches it played stand for its opponents: team 3 lost to it in round 2
    assert {st.team: st.vp for st in scored.standings}["3"] == Decimal("1.91") + \
        Decimal("1.91") + Decimal("18.09")


def test_a_team_removed_after_half_its_matches_or_fewer_has_them_annulled_for_both_sides():
    plan = replace(ROBIN, removed={"4": "снялась"})
    scored = score_teams(session(*round_of(1, 430), plan=plan), plan)
    assert [(m.ruling, m.vp) for m in scored.matches if "4" in (m.home, m.away)] == [
        ("annulled", None)] * 3
    by_team = {st.team: st for st in scored.standings}
    assert (by_team["1"].vp, by_team["1"].matches) == (0, 0)  # its loss to 4 is gone
    assert by_team["2"].vp == Decimal("18.09") and by_team["4"].label == "—"


def test_the_director_rules_on_teams_from_the_command_line_audited_and_checked(tmp_path,
                                                                              host):
    path = teams_event(tmp_path, host, teams=5, boards=10)
    before = sqlite3.connect(path).execute("SELECT COUNT(*) FROM audit").fetchone()[0]
    for args, why in ((("withdraw", "--team", 6, "--reason", "x"), "teams 1 to 5, not 6"),
                      (("forfeit", "--team", 1, "--round", 1, "--reason", "x"),
                       "no match in round 1 (a bye)"),
                      (("forfeit", "--team", 2, "--round", 9, "--reason", "x"),
                       "rounds 1 to 5, not 9"),
                      (("withdraw", "--team", 2, "--reason", " "), "1 to 200 characters"),
                      (("withdraw", "--team", 2, "--reason", "a\nb"), "text on one line"),
                      (("reinstate", "--team", 2), "no such ruling")):
        status, _, err = host("team", args[0], path, *args[1:])
        assert status == 2 and why in err, (args, err)
    assert sqlite3.connect(path).execute("SELECT COUNT(*) FROM audit").fetchone()[0] == before
    enter(host, path, 1, 1, "4S", "N", 10)  # round 1: 2 v 5
    enter(host, path, 1, 2, "4S", "N", 9)
    status, out, err = host("team", "forfeit", path, "--team", 2, "--round", 1, "--reason",
                            "опоздание")
    assert status == 0 and "team 2 of section A: a technical defeat in round 1" in out, err
    assert host("team", "forfeit", path, "--team", 2, "--round", 1, "--reason", "x")[0] == 2
    status, out, err = host("team", "withdraw", path, "--team", 3, "--reason", "снялась")
    assert status == 0, err
    audit = sqlite3.connect(path).execute(
        "SELECT action, actor FROM audit WHERE tbl = 'team_rulings'").fetchall()
    assert audit == [("insert", "scorer"), ("insert", "scorer")]
    shown = host("--lang", "en", "event", "show", path)[1]
    assert "team 2 of section A: a technical defeat in round 1: опоздание" in shown
    assert "team 3 of section A removed (5.7.3): снялась" in shown
    out = host("--lang", "en", "score", path)[1]
    assert "0.00 : 12.00" in out and "technical defeat: 2" in out
    forfeited = next(m for m in score_teams(load(str(path))).matches if m.ruling)
    assert match_boards(forfeited, texts("en")).endswith("technical defeat: 2 (опоздание)")
    assert "Removed from the competition (5.7.3), keeps no place: 3 — снялась" in out
    status, out, err = host("team", "reinstate", path, "--team", 2, "--round", 1)
    assert status == 0, err
    out = host("--lang", "en", "score", path)[1]
    assert "technical defeat" not in out and "16.46 : 3.54" in out  # 10 IMPs, as played


def test_a_board_played_in_two_versions_at_a_match_s_tables_is_not_compared():
    fouled = played(2, "7", "2", "3NT", "S", 9)
    fouled.group = "b"  # the closed room played another version of board 2 (Law 81B)
    s = session(played(1, "1", "8", "4S", "N", 10), played(1, "7", "2", "4S", "N", 9),
                played(2, "1", "8", "3NT", "S", 10), fouled)
    m = score_teams(s, PLAN).matches[0]
    assert (m.boards, m.fouled, m.imps) == ([(1, 10, -10)], [2], (10, -10))


def test_a_percentage_in_a_match_leaves_its_board_unscored_not_the_event(tmp_path, host):
    """A percentage has no IMP value (Law 12C2b): the director is refused it at the host,
    and one that reached the database another way leaves only its board unscored."""
    path = teams_event(tmp_path, host)
    enter(host, path, 1, 1, "4S", "N", 10)
    enter(host, path, 1, 2, "4S", "N", 9)
    enter(host, path, 2, 1, "4S", "N", 10)
    status, _, err = host("result", "adjust", path, "--board", 2, "--table", 2,
                          "--artificial", "55%", "45%")
    assert status == 2 and "in a teams match an artificial score is A+, A or A-" in err
    enter(host, path, 2, 2, "4S", "N", 10)
    db = sqlite3.connect(path)
    db.execute("UPDATE results SET adjustment = ?, source = 'adjusted', bid = NULL WHERE "
               "board = 2 AND round_id = (SELECT ro.id FROM rounds ro JOIN tables t ON "
               "t.id = ro.table_id WHERE t.number = 2 AND ro.number = 1)",
               ('{"ew": 45, "how": "art", "ns": 55}',))
    db.commit()
    status, out, err = host("--lang", "en", "score", path)
    assert status == 0, err
    assert "10 : -10" in out  # board 1 still counts
    m = score_teams(load(str(path))).matches[0]
    assert (m.boards, [number for number, _ in m.unscored]) == ([(1, 10, -10)], [2])
    assert "board 2 not scored: artificial score 45% is a percentage: it has no IMP value" in \
        match_boards(m, texts("en"))


# ---- what a review of the above found (each failed before its fix) ----

def test_two_teams_removed_give_the_same_result_whichever_is_ruled_first():
    """Team 1's annulment marked its unplayed match with team 2, and team 2's removal then
    counted that as a match played (its own 1 of 3 became 2 of 3: its result stood)."""
    played = round_of(1, 430)  # 1 v 4 and 2 v 3 played
    for removed in ({"1": "x", "2": "y"}, {"2": "y", "1": "x"}):
        plan = replace(ROBIN, removed=removed)
        scored = score_teams(session(*played, plan=plan), plan)
        assert all(m.ruling == "annulled" for m in scored.matches
                   if {"1", "2"} & {m.home, m.away}), removed


def test_a_match_a_removed_team_forfeited_is_not_one_it_took_part_in():
    """5.7.3 counts the matches a team took part in: played 1, forfeited 1 of 3 is not more
    than half, so the one it played is annulled."""
    plan = replace(ROBIN, removed={"4": "снялась"}, forfeits={(2, "4"): "неявка"})
    scored = score_teams(session(*round_of(1, 430), plan=plan), plan)
    first = scored.matches[0]
    assert (first.home, first.away, first.ruling) == ("1", "4", "annulled")


def test_a_round_begun_in_one_section_gives_no_bye_in_another():
    plan = TeamPlan(teams={"A1": "A1", "A2": "A1", "A3": "A2", "A4": "A2", "A5": "A3",
                           "A6": "A3", "B1": "B1", "B2": "B1", "B3": "B2", "B4": "B2",
                           "B5": "B3", "B6": "B3"},
                    rounds={1: (("A2", "A3"), ("B2", "B3"))},
                    groups={t: t[0] for t in ("A1", "A2", "A3", "B1", "B2", "B3")})
    s = session(played(1, "A3", "A6", "1NT", "N", 7), plan=plan)  # section A only
    scored = score_teams(s, plan)
    assert scored.byes == {1: ["A1"]}
    assert {st.team: st.vp for st in scored.standings}["B1"] == 0
    both = score_teams(session(played(1, "A3", "A6", "1NT", "N", 7),
                               played(1, "B3", "B6", "1NT", "N", 7), plan=plan), plan)
    assert byes_text(both.byes[1], both.bye_vp, texts("ru")) == \
        "Свободны от игры: A1, B1 (по 12.00 ВП)"
    assert byes_text(scored.byes[1], scored.bye_vp, texts("en")) == "Bye: A1 (12.00 VP)"


def test_a_fouled_board_adjusted_at_both_tables_is_compared():
    a = Result(board=2, ns="1", ew="8", round=1, assigned=100, group="b")
    b = Result(board=2, ns="7", ew="2", round=1, assigned=-100)
    m = score_teams(session(a, b), PLAN).matches[0]
    assert (m.boards, m.fouled) == ([(2, 5, -5)], [])


def test_the_imp_quotient_ranks_more_won_above_less_when_none_was_lost():
    """Both matches won past the blitz (20 VPs each), none lost: 20 : 0 and 16 : 0 were one
    "infinite" quotient and shared the place."""
    plan = replace(ROBIN, tie_break="quotient")
    s = session(*round_of(1, 430), plan=plan)
    s.results[0].assigned, s.results[2].assigned = 3000, 2000  # 20 and 16 IMPs, on 1 board
    scored = score_teams(s, plan)
    assert [(st.team, st.vp, st.label) for st in scored.standings][:2] == [
        ("1", 20, "1"), ("2", 20, "2")]
    shared = score_teams(s, replace(plan, tie_break="shared"))
    assert [st.label for st in shared.standings][:2] == ["1=", "1="]


def test_hand_edited_conditions_and_rulings_are_refused_cleanly_and_spare_a_pairs_event(
        tmp_path, host):
    path = teams_event(tmp_path, host)
    enter(host, path, 1, 1, "4S", "N", 10)
    assert host("team", "withdraw", path, "--team", 2, "--reason", "снялась")[0] == 0
    status, _, err = host("--lang", "en", "team", "reinstate", path, "--team", 2, "--round", 0)
    assert status == 2 and "a round is a number from 1, not 0" in err  # not the removal
    db = sqlite3.connect(path)
    db.execute("UPDATE team_rulings SET team = 'two'")
    db.commit()
    for command in (["score", path], ["event", "show", path]):
        status, _, err = host("--lang", "en", *command)
        assert status == 2 and "team ruling 1 is not one (team 'two'" in err, command
    db.execute("UPDATE team_rulings SET team = 2")
    db.execute("UPDATE events SET tie_break = 'xyz'")
    db.commit()
    audit = db.execute("SELECT COUNT(*) FROM audit").fetchone()
    status, _, err = host("--lang", "en", "event", "set", path, "--bye-vp", "5")
    assert status == 2 and "tie-break 'xyz'" in err
    assert db.execute("SELECT bye_vp FROM events").fetchone() == (None,)  # nothing written
    assert db.execute("SELECT COUNT(*) FROM audit").fetchone() == audit
    pairs = tmp_path / "pairs.db"
    assert host("event", "create", pairs, "--name", "P", "--tables", 3)[0] == 0
    enter(host, pairs, 1, 1, "4S", "N", 10)
    other = sqlite3.connect(pairs)
    other.execute("UPDATE events SET bye_vp = '99', tie_break = 'xyz'")
    other.commit()
    status, out, err = host("--lang", "en", "score", pairs)
    assert status == 0 and "Team standings" not in out, err
    assert "Teams:" not in host("--lang", "en", "event", "show", pairs)[1]


def test_a_stray_line_is_listed_for_the_director_and_the_event_still_scores(tmp_path, host):
    """A round the movement does not have (the host stores it, flagged not_in_movement)."""
    path = teams_event(tmp_path, host, teams=5, boards=10)
    enter(host, path, 1, 1, "4S", "N", 10)
    enter(host, path, 1, 2, "4S", "N", 9)
    db = sqlite3.connect(path)
    table = db.execute("SELECT id FROM tables WHERE number = 1").fetchone()[0]
    rnd = db.execute("INSERT INTO rounds (table_id, number, ns_pair, ew_pair) VALUES "
                     "(?, 9, 3, 10)", (table,)).lastrowid
    db.execute("INSERT INTO results (round_id, board, verified, passed_out, source) VALUES "
               "(?, 1, 1, 1, 'host')", (rnd,))
    db.commit()
    status, out, err = host("--lang", "en", "score", path)
    assert status == 0, err
    assert "Outside every match, counted for nobody (the director's to settle): board 1, " \
        "round 9, NS 2A v EW 5B" in " ".join(out.split())  # pairs 3 and 10, as labelled
    assert "10 : -10" in out
    index = tmp_path / "site" / "en" / "index.html"
    assert host("report", path, "-o", tmp_path / "site", "--lang", "en")[0] == 0
    page = index.read_text()
    assert "board 1, round 9, NS 2A v EW 5B" in page and "Bye: 1 (12.00 VP)" in page


# ---- a round robin over several sessions ----

def two_day_cup(tmp_path, host):
    """Rounds 1-2 of a four-team round robin in session 1 (current), round 3 in session 2
    (tables 1-2: 2 v 4, tables 3-4: 3 v 1); team 1 beats 4 by 10 + 10 IMPs in round 1 (20
    VPs), and team 2 beats 4 by 11 IMPs on board 1 of session 2."""
    path = tmp_path / "cup.db"
    assert host("event", "create", path, "--name", "Кубок", "--movement", "teams", "--teams",
                4, "--boards-per-round", 2, "--matches", "1-2")[0] == 0
    assert host("session", "add", path, "--movement", "teams", "--teams", 4,
                "--boards-per-round", 2, "--matches", "3", "--later")[0] == 0
    for board in (1, 2):
        enter(host, path, board, 1, "4S", "N", 10, "--session", 1)
        enter(host, path, board, 2, "4S", "N", 9, "--session", 1)
    enter(host, path, 1, 1, "6S", "N", 12, "--session", 2)
    enter(host, path, 1, 2, "4S", "N", 12, "--session", 2)
    return path


def test_a_round_robin_over_two_sessions_and_its_event_standings(tmp_path, host):
    """`score --event` adds each team's VPs of both sessions."""
    path = two_day_cup(tmp_path, host)
    shown = host("--lang", "en", "event", "show", path)[1]
    second = shown[shown.index("Session 2"):]
    assert "Table 1: NS 2A — EW 4B" in second  # round 3 of the round robin: 2 v 4, 3 v 1
    status, out, err = host("--lang", "en", "score", path, "--event")
    assert status == 0, err
    rows = {r[2].strip(): [c.strip() for c in r[1:]] for r in
            (ln.split("│") for ln in out.splitlines()) if len(r) > 5}
    assert rows["1"][3:6] == ["20.00", "0.00", "20.00"]
    assert rows["4"][3:6] == ["0.00", "3.10", "3.10"] and rows["4"][0] == "3"
    assert rows["2"][5] == str(score_teams(load(str(path), session=2)).standings[0].vp)
    for args, why in ((["--event", "--session", 1], "--event takes an event database"),
                      (["--event"], "no teams session")):
        pairs = tmp_path / "pairs.db"
        if not pairs.exists():
            assert host("event", "create", pairs, "--name", "P", "--tables", 3)[0] == 0
        target = path if "--session" in args else pairs
        status, _, err = host("--lang", "en", "score", target, *args)
        assert status == 2 and why in err, (args, err)


@pytest.mark.parametrize("span", ["0-2", "2-9", "3-1", "x", "1_2"])
def test_the_rounds_of_a_round_robin_a_session_plays_are_checked(tmp_path, host, span):
    status, _, err = host("--lang", "en", "event", "create", tmp_path / "c.db", "--name", "C",
                          "--movement", "teams", "--teams", 4, "--matches", span)
    assert status == 2 and "the round robin has rounds 1 to 3" in err
    assert not (tmp_path / "c.db").exists()


def test_event_standings_add_the_sessions_and_a_team_removed_in_one_keeps_no_place():
    first = score_teams(session(*round_of(1, 430), plan=ROBIN), ROBIN)  # 1 and 2 win
    plan = replace(ROBIN, removed={"2": "снялась"})
    second = score_teams(session(*round_of(2, 430), plan=plan), plan)  # 4 and 1 win
    standings = event_standings({1: first, 2: second})
    by_team = {s.team: s for s in standings}
    assert by_team["1"].sessions == {1: Decimal("18.09"), 2: 0} and by_team["1"].vp == \
        Decimal("18.09")  # its round-2 match with 2 is annulled (2 played 1 of 3)
    assert by_team["4"].vp == Decimal("1.91") + Decimal("18.09") and by_team["4"].place == 1
    assert (standings[-1].team, standings[-1].label) == ("2", "—")


def event_table(page):
    """The rows of a page's event standings (its table.event), each its cells' text."""
    table = re.search(r'<table class="event">(.*?)</table>', page, re.S).group(1)
    return [re.findall(r"<td[^>]*>(.*?)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>",
                                                                         table)][1:]


def test_a_later_day_numbers_its_rounds_as_the_whole_round_robin_does(tmp_path, host):
    """Day 2 plays round 3 of the round robin: round 3 on its terminals (the rows they are
    given), in `event show`, in the director's `team forfeit` and on the report."""
    path = two_day_cup(tmp_path, host)
    assert host("session", "current", path, 2)[0] == 0
    with open_db(path) as db:
        setup.register_terminal(db, "PICO-A1", 0, section="A", table=1)
        assert [r["r"] for r in setup.table_config(db, "PICO-A1")["rounds"]] == [3]
    shown = host("--lang", "en", "event", "show", path)[1]
    assert "  Round 3\n" in shown.split("Session 2")[1]
    status, _, err = host("--lang", "en", "team", "forfeit", path, "--team", 4, "--round", 1,
                          "--reason", "неявка")
    assert status == 2 and "section A has rounds 3 to 3, not 1" in err
    assert host("team", "forfeit", path, "--team", 4, "--round", 3, "--reason", "неявка")[0] == 0
    assert host("report", path, "-o", tmp_path / "site")[0] == 0
    page = (tmp_path / "site" / "en" / "index.html").read_text()
    assert "Round 3 matches" in page and "Round 1 matches" not in page
    for edited in (1, 10):  # a first_round that is not the rounds its tables play
        with sqlite3.connect(path) as db:
            db.execute("UPDATE sections SET movement = json_set(movement, '$.options."
                       "first_round', ?) WHERE session_id = 2", (edited,))
        status, _, err = host("--lang", "en", "score", path, "--session", 2)
        assert status == 2 and "session 2 section A: its movement's round %d is not a round " \
            "its tables play (edited by hand?)" % edited in err, err


def test_a_later_day_s_report_ranks_the_event_over_the_days_so_far(tmp_path, host):
    """The index of session 2 adds the event's standings (each day's VPs, the total, the
    place) to the day's own; session 1's index, of its day alone, has no such table."""
    path = two_day_cup(tmp_path, host)
    enter(host, path, 1, 3, "4S", "N", 9, "--session", 1)  # round 1: 3 beats 2 by 10 IMPs
    enter(host, path, 1, 4, "4S", "N", 10, "--session", 1)
    status, _, err = host("report", path, "--session", 2, "-o", tmp_path / "site")
    assert status == 0, err
    en = (tmp_path / "site" / "en" / "index.html").read_text()
    # place, team, players, VP s1, VP s2, VP, played: team 2 leads the event, not day 1
    assert event_table(en) == [["1", "2", "", "3.54", "16.90", "20.44", "2"],
                               ["2", "1", "", "20.00", "0.00", "20.00", "1"],
                               ["3", "3", "", "16.46", "0.00", "16.46", "1"],
                               ["4", "4", "", "0.00", "3.10", "3.10", "2"]]
    assert "<th>VP s1</th><th>VP s2</th><th>VP</th>" in en
    day = en[en.index("<h2>Team standings"):en.index("Round 3 matches")]  # the event's 3
    assert "<td>16.90</td>" in day and "20.44" not in day  # the day's own table stays its own
    ru = (tmp_path / "site" / "ru" / "index.html").read_text()
    assert "<h2>Командный зачёт турнира</h2>" in ru and "<th>ВП с. 2</th>" in ru
    assert event_table(ru) == event_table(en)
    status, _, err = host("report", path, "-o", tmp_path / "day1")
    assert status == 0, err
    assert 'class="event"' not in (tmp_path / "day1" / "en" / "index.html").read_text()


def test_the_live_page_of_a_later_day_ranks_the_event_on_the_boards_everyone_may_see(
        tmp_path, host):
    """Day 2 live: the event's standings add day 1, whole, to the day's public view (its
    complete boards, less the boards held); a correction of day 1 reaches the page, and
    while the publication is held the page shows no standings at all."""
    path = two_day_cup(tmp_path, host)
    assert host("session", "current", path, 2)[0] == 0
    enter(host, path, 1, 3, "1NT", "N", 7)  # 3 v 1: board 1 flat, so board 1 is complete
    enter(host, path, 1, 4, "1NT", "N", 7)
    enter(host, path, 2, 1, "1NT", "N", 5)  # 2 v 4: 5 IMPs back to 4 on board 2, which
    enter(host, path, 2, 2, "1NT", "N", 7)  # tables 3 and 4 have not played yet
    db = open_db(str(path))
    try:
        snap = snapshot(db)
        assert snap.public_boards() == {1}
        rows = {s.team: (s.label, s.sessions, s.vp) for s in snap.event.standings}
        assert rows == {"1": ("1", {1: Decimal("20.00"), 2: Decimal("10.00")}, Decimal("30.00")),
                        "2": ("2", {1: 0, 2: Decimal("16.90")}, Decimal("16.90")),
                        "3": ("3", {1: 0, 2: Decimal("10.00")}, Decimal("10.00")),
                        "4": ("4", {1: 0, 2: Decimal("3.10")}, Decimal("3.10"))}
        # board 2 of 2 v 4 is compared in the day's full score, not on everyone's view
        assert {s.team: s.vp for s in score_teams(snap.session).standings}["2"] != \
            Decimal("16.90")
        enter(host, path, 1, 3, "4S", "N", 9, "--session", 1)  # day 1 corrected: 3 beats 2
        enter(host, path, 1, 4, "4S", "N", 10, "--session", 1)
        corrected = snapshot(db, previous=snap)
        assert corrected.public_marker > snap.public_marker
        assert [s.team for s in corrected.event.standings] == ["1", "3", "2", "4"]
        assert {s.team: s.vp for s in corrected.event.standings}["3"] == Decimal("26.46")
        with WebServer(path) as web:
            en = get(web.url + "/en/")[1]
            assert event_table(en) == [["1", "1", "", "20.00", "10.00", "30.00", "2"],
                                       ["2", "3", "", "16.46", "10.00", "26.46", "2"],
                                       ["3", "2", "", "3.54", "16.90", "20.44", "2"],
                                       ["4", "4", "", "0.00", "3.10", "3.10", "2"]]
            assert "Командный зачёт турнира" in get(web.url + "/ru/")[1]
            assert host("publish", "hold", path, "--board", 1)[0] == 0
            held = snapshot(db).event  # day 2 has nothing public left: no column of it
            assert held.sessions == [1] and all(2 not in s.sessions for s in held.standings)
            assert host("publish", "hold", path)[0] == 0
            deadline = time.monotonic() + 10
            while "holding the results" not in en and time.monotonic() < deadline:
                time.sleep(0.2)
                en = get(web.url + "/en/")[1]
            assert "holding the results" in en and "Event team standings" not in en
    finally:
        db.close()


@pytest.mark.parametrize("movement", [["--movement", "teams", "--teams", 4],
                                      ["--tables", 3]])
def test_score_of_a_session_with_no_result_yet_says_so(tmp_path, host, movement):
    path = tmp_path / "empty.db"
    assert host("event", "create", path, "--name", "E", *movement)[0] == 0
    status, out, err = host("--lang", "en", "score", path)
    assert status == 0 and "has no verified results to rank" in out, err


# ---- rule book 5.7.3 counted over the sessions of the competition ----

def three_round_cup(tmp_path, host):
    """A four-team round robin, one round a session of one board (round 1: 1 v 4 at tables
    1-2, 2 v 3 at 3-4; round 3 in session 3: 2 v 4, 3 v 1)."""
    path = tmp_path / "cup.db"
    assert host("event", "create", path, "--name", "Кубок", "--movement", "teams", "--teams",
                4, "--boards-per-round", 1, "--matches", "1")[0] == 0
    for rnd in (2, 3):
        assert host("session", "add", path, "--movement", "teams", "--teams", 4,
                    "--boards-per-round", 1, "--matches", rnd, "--later")[0] == 0
    return path


def event_rows(host, path):
    status, out, err = host("--lang", "en", "score", path, "--event")
    assert status == 0, err
    return {r[2].strip(): [c.strip() for c in r[1:]] for r in
            (ln.split("│") for ln in out.splitlines()) if len(r) > 5}


def test_a_team_removed_on_a_later_day_having_played_too_few_has_every_match_annulled(
        tmp_path, host):
    path = three_round_cup(tmp_path, host)
    enter(host, path, 1, 1, "1NT", "N", 8, "--session", 1)  # 1 beats 4 by 1 IMP (120 v 90)
    enter(host, path, 1, 2, "1NT", "N", 7, "--session", 1)
    assert event_rows(host, path)["1"][3] == "11.20"
    status, _, err = host("team", "withdraw", path, "--team", 4, "--session", 2, "--reason",
                          "неявка")
    assert status == 0, err
    # team 4 took part in 1 of its 3 matches: its day-1 match is annulled too, not only the
    # day it was removed on (counted within day 2 alone, day 1 kept team 1's 11.20 VPs)
    rows = event_rows(host, path)
    assert rows["1"][3] == "0.00" and rows["4"][0] == "—"
    status, out, _ = host("--lang", "en", "score", path, "--session", 1)
    assert "annulled: 4 removed (5.7.3)" in out


def test_a_team_removed_having_played_most_of_its_matches_loses_the_rest(tmp_path, host):
    path = three_round_cup(tmp_path, host)
    for session in (1, 2):  # rounds 1 and 2 played at every table
        for table in (1, 2, 3, 4):
            enter(host, path, 1, table, "3NT", "N", 9, "--session", session)
    status, _, err = host("team", "withdraw", path, "--team", 4, "--session", 3, "--reason",
                          "снялась")
    assert status == 0, err
    enter(host, path, 1, 3, "3NT", "N", 9, "--session", 3)  # round 3 begins: 3 v 1
    # 2 of its 3 matches played over the event: its round-3 match is a technical defeat,
    # team 2 gets the bye's 12 VPs (counted within day 3 alone it was annulled: 0 VPs)
    status, out, err = host("--lang", "en", "score", path, "--session", 3)
    assert status == 0 and "technical defeat: 4 (removed, 5.7.3)" in out, err
    assert event_rows(host, path)["2"][5] == "12.00"
