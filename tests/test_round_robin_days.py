"""A round robin in cycles and in the chief director's round order (rule book 1.5.3), over
several sessions: each day plays rounds of it no other day has set up, the same cycles and
order; the second cycle swaps home and away; 5.7.3 counts a removed team's matches over every
cycle."""

import json
import sqlite3

import pytest

from host_sync.event.db import open_db
from host_sync.event.results import session_from_db
from host_sync.movements import round_robin
from host_sync.movements.teams import team_of
from host_sync.scoring.team_session import score_teams


def create(host, path, *more):
    status, out, err = host("--lang", "en", "event", "create", path, "--name", "Лига",
                            "--movement", "teams", "--teams", 4, "--boards-per-round", 1, *more)
    assert status == 0, err
    return out


def add_day(host, path, *more, lang="en"):
    return host("--lang", lang, "session", "add", path, "--movement", "teams", "--teams", 4,
                "--boards-per-round", 1, "--later", *more)


def matches(path, session):
    """{round: [(home team, away team)]} of a session as its tables were set up."""
    with sqlite3.connect(path) as db:
        mv = json.loads(db.execute("SELECT sc.movement FROM sections sc JOIN sessions s ON "
                                   "s.id = sc.session_id WHERE s.number = ?",
                                   (session,)).fetchone()[0])
    first = mv["options"].get("first_round", 1)
    return {first + i: [(team_of(ns), team_of(ew)) for table, ns, ew, _, _ in sorted(seats)
                        if table % 2] for i, seats in enumerate(mv["rounds"])}


def sessions(path):
    with sqlite3.connect(path) as db:
        return db.execute("SELECT COUNT(*) FROM sessions").fetchone()[0]


def test_a_second_cycle_plays_the_first_again_home_and_away_swapped(tmp_path, host):
    path = tmp_path / "league.db"
    out = create(host, path, "--cycles", 2, "--matches", "1-3")
    assert "3 rounds" in out
    status, out, err = add_day(host, path, "--cycles", 2, "--matches", "4-6")
    assert status == 0, err
    first, second = matches(path, 1), matches(path, 2)
    assert sorted(second) == [4, 5, 6]
    assert {r: [(a, h) for h, a in m] for r, m in first.items()} == {
        r - 3: m for r, m in second.items()}
    assert first[1] == list(round_robin(4).rounds[0])
    shown = host("--lang", "en", "event", "show", path)[1]
    assert "a round robin (1.5.3): 4 teams, cycles 2, rounds 4-6 of 6" in shown
    assert "туры 1-3 из 6" in host("--lang", "ru", "event", "show", path)[1]


@pytest.mark.parametrize("first, again, en, ru", [
    ((), ("--matches", "1"), "round 1 of this round robin is session 1's already",
     "тур 1 этого кругового турнира уже в сессии 1"),
    (("--matches", "1-2"), ("--matches", "2-3"), "round 2 of this round robin is session 1's "
     "already; give --matches the rounds still to play (a second cycle: --cycles 2 on every "
     "day)", "тур 2 этого кругового турнира уже в сессии 1"),
    (("--matches", "1-2"), ("--cycles", 2, "--matches", "3-6"), "session 1 plays this round "
     "robin with 1 cycle(s) and Berger's round order; a later day must play it alike",
     "сессия 1 играет этот круговой турнир в 1 круг(а), порядок туров по Бергеру"),
    (("--matches", "1-2"), ("--round-order", "3,2,1", "--matches", "3"), "session 1 plays "
     "this round robin with 1 cycle(s) and Berger's round order", "следующий день должен "
     "играть так же"),
])
def test_a_day_that_would_play_a_round_twice_or_another_robin_is_refused(tmp_path, host,
                                                                        first, again, en, ru):
    path = tmp_path / "league.db"
    create(host, path, *first)
    status, _, err = add_day(host, path, *again)
    assert status == 2 and en in err, err
    status, _, err = add_day(host, path, *again, lang="ru")
    assert status == 2 and ru in err, err
    assert sessions(path) == 1  # nothing stored


def test_a_new_stage_or_another_round_robin_starts_its_rounds_anew(tmp_path, host):
    path = tmp_path / "league.db"
    create(host, path, "--sections", "A,B")  # groups A and B, all three rounds
    status, _, err = add_day(host, path)  # a final of four in one section: another robin
    assert status == 0, err
    assert sorted(matches(path, 2)) == [1, 2, 3]


def test_the_chief_director_s_round_order_is_kept_on_every_day(tmp_path, host):
    path = tmp_path / "league.db"
    create(host, path, "--round-order", "3,1,2", "--matches", "1")
    berger = [list(r) for r in round_robin(4).rounds]
    assert matches(path, 1) == {1: berger[2]}
    status, _, err = add_day(host, path, "--round-order", "3,1,2", "--matches", "2-3")
    assert status == 0, err
    assert matches(path, 2) == {2: berger[0], 3: berger[1]}
    assert "; the round order 3,1,2" in host("--lang", "en", "event", "show", path)[1]
    for bad, en in (("3,1", "the round order must list rounds 1 to 3 once each"),
                    ("3,1,x", "--round-order takes round numbers separated by commas")):
        status, _, err = add_day(host, path, "--round-order", bad)
        assert status == 2 and en in err, err
    status, _, err = add_day(host, path, "--cycles", 9)
    assert status == 2 and "--cycles is 1 to 8, not 9" in err
    status, _, err = host("--lang", "en", "session", "add", path, "--tables", 3, "--cycles", 2)
    assert status == 2 and "are for --movement teams" in err


def test_a_team_removed_after_one_cycle_of_two_has_played_half_its_matches(tmp_path, host):
    """5.7.3 over the whole round robin: after cycle 1 of 2 a team has played 3 of its 6
    matches, not more than half: its results are annulled, where in a round robin of one
    cycle (3 of 3) they would stand and nothing be left to forfeit."""
    def play_cycle_one(path):
        for table in range(1, 5):
            for board in (1, 2, 3):
                status, _, err = host("result", "correct", path, "--board", board, "--table",
                                      table, "--session", 1, "4S", "N", 10 if table % 2 else 9)
                assert status == 0, err
        assert host("team", "withdraw", path, "--team", 4, "--session", 1, "--reason",
                    "удаление")[0] == 0
        with open_db(path) as db:
            return [m.ruling for m in score_teams(session_from_db(db, 1)).matches
                    if "4" in (m.home, m.away)]

    two = tmp_path / "two.db"
    create(host, two, "--cycles", 2, "--matches", "1-3")
    assert play_cycle_one(two) == ["annulled"] * 3
    one = tmp_path / "one.db"
    create(host, one)
    assert play_cycle_one(one) == [""] * 3
