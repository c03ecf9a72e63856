"""Movements: every supported size is checked by its properties (who meets whom how often,
who plays which boards, how often each board set is played), plus the export and the words."""

import json
import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from host_sync.movements import (
    EW,
    NS,
    Movement,
    MovementError,
    Schedule,
    Seating,
    howell,
    match,
    mitchell,
    pair_round,
    round_robin,
    teams_movement,
)
from host_sync.movements.mitchell import max_rounds
from host_sync.movements.roundrobin import berger_round
from host_sync.movements.swiss import can_all_play
from host_sync.movements.teams import pairs_of, team_of


def assert_sound(mv):
    """Properties every movement has: nobody twice in a round, no pair plays a set twice."""
    sets_of = {p: [] for p in mv.pairs}
    for rno, rnd in enumerate(mv.rounds, 1):
        seated = [p for s in rnd for p in (s.ns, s.ew)]
        assert len(seated) == len(set(seated)), "round %d seats a pair twice" % rno
        assert len({s.table for s in rnd}) == len(rnd)
        for s in rnd:
            sets_of[s.ns].append(s.board_set)
            sets_of[s.ew].append(s.board_set)
    for p, sets in sets_of.items():
        assert len(sets) == len(set(sets)), "pair %d plays a board set twice" % p
    assert mv.problems() == []


def plays_per_pair(mv):
    return Counter(p for r in mv.rounds for s in r for p in (s.ns, s.ew))


# --- Mitchell --------------------------------------------------------------------------------

@pytest.mark.parametrize("n", range(3, 31))
def test_full_mitchell_properties(n):
    mv = mitchell(n, 2)
    rounds = max_rounds(n)
    assert mv.round_count == rounds and mv.tables == n and mv.sets == n
    assert_sound(mv)
    assert all(len(r) == n for r in mv.rounds)                     # every pair every round
    assert set(mv.set_plays().values()) == {rounds}                # each set equally often
    meetings = mv.meetings()
    assert set(meetings.values()) == {1}
    assert all(min(m) <= n < max(m) for m in meetings)             # NS meets EW only
    for ew in range(n + 1, 2 * n + 1):
        met = {min(m) for m in meetings if ew in m}
        expected = set(range(1, n + 1))
        if n % 2 == 0:                                             # the skipped table
            expected.discard((ew - n - 1 + n // 2) % n + 1)
        assert met == expected
    for t in range(1, n + 1):                                      # NS pairs stay put
        assert all(mv.position(t, r) [1:3] == (t, NS) for r in range(1, rounds + 1))


@pytest.mark.parametrize("n", [4, 6, 10])
def test_even_mitchell_skips_once(n):
    mv = mitchell(n, 3)
    assert mv.options["skip_after"] == n // 2
    ew = n + 1
    moves = [(mv.next_position(ew, r).table - mv.position(ew, r).table) % n
             for r in range(1, mv.round_count)]
    assert moves == [1] * (n // 2 - 1) + [2] + [1] * (n - 2 - n // 2)
    assert mv.next_position(ew, mv.round_count) is None


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 30), st.data())
def test_any_mitchell_length_and_arrow_switch(n, data):
    rounds = data.draw(st.integers(1, max_rounds(n)))
    switch = data.draw(st.sets(st.integers(1, rounds), max_size=rounds))
    mv = mitchell(n, 1, rounds=rounds, arrow_switch=switch)
    assert_sound(mv)
    assert set(mv.set_plays().values()) == {rounds}
    assert set(mv.meetings().values()) == {1}
    assert plays_per_pair(mv) == Counter({p: rounds for p in range(1, 2 * n + 1)})
    for rno, rnd in enumerate(mv.rounds, 1):
        for s in rnd:
            home = s.ew if rno in switch else s.ns                 # the stationary pair
            assert home == s.table and s.switched == (rno in switch)
    assert mv.options["arrow_switch"] == sorted(switch)


def test_arrow_switch_last_round():
    mv = mitchell(5, 2, arrow_switch="last")
    assert [s.switched for s in mv.rounds[-1]] == [True] * 5
    assert not any(s.switched for r in mv.rounds[:-1] for s in r)
    assert mv.position(3, 5)[1:3] == (3, EW)


@pytest.mark.parametrize("kwargs, message", [
    ({"tables": 4, "boards_per_set": 2, "rounds": 4}, "at most 3 rounds"),
    ({"tables": 1, "boards_per_set": 2}, "at least 3 tables"),
    ({"tables": 2, "boards_per_set": 2}, "at least 3 tables: with 2 every board would be "
                                         "played once"),
    ({"tables": 5, "boards_per_set": 0}, "boards per set"),
    ({"tables": 5, "boards_per_set": 2, "arrow_switch": [6]}, "no round 6"),
    ({"tables": 5, "boards_per_set": 2, "arrow_switch": "first"}, "arrow_switch"),
    ({"tables": "5", "boards_per_set": 2}, "number of tables"),
])
def test_mitchell_rejects_bad_input(kwargs, message):
    with pytest.raises(MovementError, match=message):
        mitchell(**kwargs)


def test_mitchell_with_an_absent_pair():
    mv = mitchell(7, 3).without_pair(14)                           # 13 pairs
    assert_sound(mv)
    assert Counter(len(mv.sit_outs(r)) for r in range(1, 8)) == Counter({1: 7})
    assert sorted(p for r in range(1, 8) for p in mv.sit_outs(r)) == list(range(1, 8))
    assert set(mv.set_plays().values()) == {6}                     # pair 14 met each set once


# --- Howell ----------------------------------------------------------------------------------

@pytest.mark.parametrize("n", range(3, 13))
def test_howell_properties(n):
    mv = howell(n, 2)
    m = 2 * n - 1
    assert (mv.round_count, mv.sets, mv.tables, mv.pairs) == (m, m, n, tuple(range(1, 2 * n + 1)))
    assert_sound(mv)
    assert all(len(r) == n for r in mv.rounds)
    meetings = mv.meetings()
    assert set(meetings) == {frozenset(c) for c in combinations(mv.pairs, 2)}
    assert set(meetings.values()) == {1}                           # everyone meets once
    for p in mv.pairs:                                             # every set once each
        assert sorted(mv.position(p, r).board_set for r in range(1, m + 1)) == \
            list(range(1, m + 1))
        dirs = Counter(mv.position(p, r).direction for r in range(1, m + 1))
        assert abs(dirs[NS] - dirs[EW]) <= 1
    assert set(mv.set_plays().values()) == {n}
    shared = [len(mv.sharing(r)) for r in range(1, m + 1)]
    if n == 3:                                                     # no Room square of side 3
        assert sorted(shared) == [0, 0, 0, 0, 1]
    elif n == 5:                                                   # ... nor of side 5
        assert shared == [1] * m
    else:
        assert shared == [0] * m
        for t in range(1, n + 1):                                  # each table plays each set
            assert sorted(mv.seating(r, t).board_set for r in range(1, m + 1)) == \
                list(range(1, m + 1))


@pytest.mark.parametrize("n", range(3, 13))
def test_howell_with_odd_pairs(n):
    mv = howell(n, 3).without_pair(2 * n)
    assert_sound(mv)
    outs = [p for r in range(1, mv.round_count + 1) for p in mv.sit_outs(r)]
    assert sorted(outs) == list(range(1, 2 * n))                   # each sits out once
    assert set(mv.set_plays().values()) == {n - 1}
    assert set(mv.meetings().values()) == {1} and len(mv.meetings()) == (2 * n - 1) * (n - 1)


@pytest.mark.parametrize("n", [2, 13, 0])
def test_howell_sizes_outside_range(n):
    with pytest.raises(MovementError, match="Howell|tables"):
        howell(n, 2)


# --- round robin -----------------------------------------------------------------------------

def test_berger_table_matches_the_published_one():
    assert [berger_round(6, r) for r in range(1, 6)] == [
        [(1, 6), (2, 5), (3, 4)], [(6, 4), (5, 3), (1, 2)], [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)], [(3, 6), (4, 2), (5, 1)]]
    assert [berger_round(4, r) for r in range(1, 4)] == [
        [(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


@pytest.mark.parametrize("n", range(3, 21))
@pytest.mark.parametrize("cycles", [1, 2])
def test_round_robin_properties(n, cycles):
    sch = round_robin(n, cycles)
    per_cycle = n - 1 + n % 2
    assert len(sch.rounds) == per_cycle * cycles
    meetings = sch.meetings()
    assert set(meetings) == {frozenset(c) for c in combinations(range(1, n + 1), 2)}
    assert set(meetings.values()) == {cycles}
    for r in range(1, len(sch.rounds) + 1):
        assert len(sch.byes(r)) == n % 2                           # everyone plays or rests
    byes = Counter(p for r in range(1, len(sch.rounds) + 1) for p in sch.byes(r))
    assert byes == (Counter({p: cycles for p in range(1, n + 1)}) if n % 2 else Counter())
    home = Counter(m[0] for r in sch.rounds[:per_cycle] for m in r)
    away = Counter(m[1] for r in sch.rounds[:per_cycle] for m in r)
    assert all(abs(home[p] - away[p]) <= 2 for p in range(1, n + 1))
    if cycles == 2:                                                # the return leg swaps
        first = Counter(m for r in sch.rounds[:per_cycle] for m in r)
        second = Counter((b, a) for r in sch.rounds[per_cycle:] for a, b in r)
        assert first == second


def test_round_robin_order_and_names():
    sch = round_robin(["Spartak", "Zenit", "Dynamo", "CSKA"], order=[3, 1, 2])
    base = round_robin(["Spartak", "Zenit", "Dynamo", "CSKA"])
    assert sch.rounds == (base.rounds[2], base.rounds[0], base.rounds[1])
    assert "Spartak" in sch.describe(2, "en")
    with pytest.raises(MovementError, match="rounds 1 to 3"):
        round_robin(4, order=[1, 1, 2])
    with pytest.raises(MovementError, match="at least 2"):
        round_robin(1)


# --- teams -----------------------------------------------------------------------------------

def assert_teams_movement(mv, sch):
    assert_sound(mv)
    for rno, matches in enumerate(sch.rounds, 1):
        rnd = mv.rounds[rno - 1]
        assert len(rnd) == 2 * len(matches)
        for j, (home, away) in enumerate(matches):
            one, two = rnd[2 * j], rnd[2 * j + 1]
            assert one.board_set == two.board_set                  # the two tables share
            assert {team_of(one.ns), team_of(one.ew)} == {home, away}
            assert (team_of(one.ns), team_of(one.ew)) == (team_of(two.ew), team_of(two.ns))
            assert (mv.sharing(rno)[j][1]) == (one.table, two.table)
        played = sorted(team_of(p) for s in rnd for p in (s.ns, s.ew))
        assert played == sorted(t for m in matches for t in m for _ in (0, 1))
        assert all(s.ns % 2 == 1 and s.ew % 2 == 0 for s in rnd)    # first pairs sit NS
    assert len(set(mv.set_plays().values())) == 1                   # every set equally often


@pytest.mark.parametrize("n", range(2, 21))
def test_teams_round_robin_movement(n):
    sch = round_robin(n, cycles=2 if n < 6 else 1)
    mv = teams_movement(sch, 8)
    assert_teams_movement(mv, sch)
    cycles = 2 if n < 6 else 1
    meetings = mv.meetings()                                       # A1 v B2 and B1 v A2
    for a, b in combinations(range(1, n + 1), 2):
        assert meetings[frozenset((pairs_of(a)[0], pairs_of(b)[1]))] == cycles
        assert meetings[frozenset((pairs_of(b)[0], pairs_of(a)[1]))] == cycles
    assert sum(meetings.values()) == n * (n - 1) * cycles
    assert mv.copies == n // 2


@pytest.mark.parametrize("segments", [1, 2, 4, 8])
def test_single_teams_match(segments):
    mv = match(12, segments)
    assert_teams_movement(mv, Schedule([1, 2], [[(1, 2)]] * segments))
    assert mv.meetings() == Counter({frozenset((1, 4)): segments, frozenset((2, 3)): segments})
    assert mv.boards_for(segments, 2) == list(range(12 * segments - 11, 12 * segments + 1))


def test_teams_need_numbered_teams():
    with pytest.raises(MovementError, match="numbered"):
        teams_movement(round_robin(["a", "b"]), 8)
    with pytest.raises(MovementError, match="segments"):
        match(8, 0)


# --- Swiss -----------------------------------------------------------------------------------

def next_round(schedule, standings, rng=None):
    """`schedule` with one more Swiss round appended, its past matches and byes counted (as
    host_sync.event.swiss_draw draws a round from the database)."""
    rested = [p for r in range(1, len(schedule.rounds) + 1) for p in schedule.byes(r)]
    pairing = pair_round(list(standings.items()), [m for r in schedule.rounds for m in r],
                         rested, rng)
    return Schedule(schedule.participants, list(schedule.rounds) + [pairing.matches], "swiss")


def play_swiss(n, rounds, seed):
    rng = random.Random(seed)
    results = random.Random(seed + 1)
    sch = Schedule(range(1, n + 1), [], "swiss")
    score = {p: 0.0 for p in range(1, n + 1)}
    for r in range(rounds):
        sch = next_round(sch, score, rng)
        for a, b in sch.rounds[-1]:
            va = round(results.uniform(0, 20), 2)
            score[a] += va
            score[b] += 20 - va
        for p in sch.byes(len(sch.rounds)):
            score[p] += 12
    return sch


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 60), st.integers(0, 10 ** 6), st.data())
def test_swiss_never_repeats(n, seed, data):
    rounds = data.draw(st.integers(1, n // 2))     # Dirac: a repeat-free round always exists
    sch = play_swiss(n, rounds, seed)
    assert len(sch.rounds) == rounds
    assert set(sch.meetings().values()) == {1}                     # never twice
    for r in range(1, rounds + 1):
        playing = [p for m in sch.rounds[r - 1] for p in m]
        assert sorted(playing + sch.byes(r)) == list(range(1, n + 1))
        assert len(sch.byes(r)) == n % 2
    byes = [p for r in range(1, rounds + 1) for p in sch.byes(r)]
    assert len(byes) == len(set(byes))                             # nobody rests twice
    assert_teams_movement(teams_movement(sch, 4), sch)             # a Swiss of teams


def pairable_by_trying_all(people, met):
    if not people:
        return True
    top = people[0]
    return any(frozenset((top, b)) not in met
               and pairable_by_trying_all([x for x in people[1:] if x != b], met)
               for b in people[1:])


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 5).flatmap(lambda h: st.tuples(
    st.just(2 * h), st.sets(st.tuples(st.integers(0, 2 * h - 1), st.integers(0, 2 * h - 1))))))
def test_swiss_matching_agrees_with_trying_every_pairing(case):
    n, met = case
    met = {frozenset(m) for m in met if m[0] != m[1]}
    assert can_all_play(list(range(n)), met) == pairable_by_trying_all(list(range(n)), met)


def test_swiss_looks_ahead_when_the_nearest_opponent_blocks_the_rest():
    # 1 has met 3 and 3 has met 4: taking 2 for 1 would leave 3 v 4, a repeat
    pairing = pair_round({1: 3, 2: 2, 3: 1, 4: 0}, met=[(3, 4), (1, 3)])
    assert pairing == ([(1, 4), (2, 3)], None)
    assert pair_round({1: 3, 2: 2, 3: 1, 4: 0}, met=[(1, 3)]).matches == [(1, 2), (3, 4)]


def test_swiss_first_round_is_a_seeded_draw():
    standings = {p: 0 for p in range(1, 17)}
    one = pair_round(standings, rng=random.Random(7))
    assert one == pair_round(standings, rng=random.Random(7))
    draws = {frozenset(frozenset(m) for m in pair_round(standings, rng=random.Random(s)).matches)
             for s in range(30)}
    assert len(draws) > 20


def test_swiss_pairs_within_score_groups():
    # 16 teams after round 1: 8 winners (1 point) never met each other
    met = [(p, p + 8) for p in range(1, 9)]
    standings = {p: (1 if p <= 8 else 0) for p in range(1, 17)}
    for seed in range(20):
        pairing = pair_round(standings, met, rng=random.Random(seed))
        assert all((a <= 8) == (b <= 8) for a, b in pairing.matches)
        assert not {frozenset(m) for m in pairing.matches} & {frozenset(m) for m in met}


def test_swiss_bye_goes_to_the_lowest_without_one():
    standings = [(1, 30), (2, 20), (3, 10), (4, 5), (5, 0)]
    assert pair_round(standings, rng=random.Random(1)).bye == 5
    assert pair_round(standings, byes=[5], rng=random.Random(1)).bye == 4
    assert pair_round(standings, byes=[5, 4, 3, 2, 1], rng=random.Random(1)).bye == 5


def test_swiss_says_when_no_pairing_is_left():
    sch = play_swiss(4, 3, seed=3)                                 # everyone has met
    with pytest.raises(MovementError, match="avoids a repeat"):
        next_round(sch, {p: 0 for p in range(1, 5)})


@pytest.mark.parametrize("standings, message", [
    ({1: "x", 2: 0}, "numeric"),
    ([(1, 0), (1, 2)], "twice"),
    ({1: 0}, "at least 2"),
])
def test_swiss_rejects_bad_standings(standings, message):
    with pytest.raises(MovementError, match=message):
        pair_round(standings)


# --- the model: export, terminals, words, bad input -----------------------------------------

@pytest.mark.parametrize("mv", [mitchell(6, 3, arrow_switch="last"), howell(4, 2),
                                howell(5, 2).without_pair(10), teams_movement(round_robin(5), 8)],
                         ids=["mitchell", "howell", "howell-odd", "teams"])
def test_export_round_trip(mv):
    back = Movement.from_dict(json.loads(json.dumps(mv.to_dict())))
    assert back.to_dict() == mv.to_dict()
    assert back.rounds == mv.rounds and back.labels == mv.labels


def test_schedule_round_trip_and_words():
    sch = round_robin(7, cycles=2)
    assert Schedule.from_dict(json.loads(json.dumps(sch.to_dict()))).rounds == sch.rounds
    assert sch.describe(1, "ru").splitlines() == ["Тур 1", "2 — 7", "3 — 6", "4 — 5",
                                                  "Свободна от игры: 1"]
    with pytest.raises(MovementError, match="no round 15"):
        sch.byes(15)
    with pytest.raises(MovementError, match="plays twice"):
        Schedule([1, 2, 3], [[(1, 2), (2, 3)]])
    with pytest.raises(MovementError, match="not a schedule"):
        Schedule.from_dict({"rounds": []})


def test_an_absent_last_pair_keeps_its_table():
    mv = mitchell(5, 2).without_pair(5)                            # NS pair of table 5
    assert mv.tables == 5 and all(mv.seating(r, 5) is None for r in range(1, 6))
    assert mv.table_dict(5)["rounds"][0] == {"round": 1, "idle": True}
    assert Movement.from_dict(mv.to_dict()).tables == 5


def test_terminal_part_of_the_movement():
    mv = mitchell(5, 3)
    part = json.loads(json.dumps(mv.table_dict(2)))
    assert [r["ns"] for r in part["rounds"]] == [2] * 5
    first = part["rounds"][0]
    assert first["ew"] == 7 and first["boards"] == [4, 6]
    assert first["next"] == {"ns": [2, "NS"], "ew": [3, "EW"], "boards": 1}
    assert "next" not in part["rounds"][-1]
    with pytest.raises(MovementError, match="no table 6"):
        mv.table_dict(6)


def test_a_later_day_s_movement_numbers_its_rounds_as_the_event_does():
    robin = round_robin(6)
    day2 = teams_movement(Schedule(robin.participants, robin.rounds[2:5], robin.kind), 2,
                          {"first_round": 3})
    assert list(day2.round_numbers()) == [3, 4, 5] and day2.round_count == 3
    assert day2.describe(3, "en").startswith("Round 3\n")
    assert day2.seating(3, 1) == day2.rounds[0][0] and day2.seating(5, 1) == day2.rounds[2][0]
    part = day2.table_dict(1)["rounds"]
    assert [r["round"] for r in part] == [3, 4, 5] and "next" in part[1] and "next" not in part[2]
    assert day2.position(day2.pairs[0], 5).table is not None
    assert day2.next_position(day2.pairs[0], 5) is None
    with pytest.raises(MovementError, match="no round 1 .*rounds 3 to 5"):
        day2.seating(1, 1)
    assert Movement.from_dict(day2.to_dict()).round_numbers() == day2.round_numbers()
    for bad in (0, -1, True, "3", 70000):  # as a hand-edited row could hold
        data = dict(day2.to_dict(), options={"first_round": bad})
        with pytest.raises(MovementError, match="first round|up to 65535"):
            Movement.from_dict(data)


def test_idle_table_and_sit_out():
    mv = howell(4, 2).without_pair(8)
    assert mv.boards_for(1, 1) == [] and mv.seating(1, 1) is None
    assert mv.position(1, 1) == (1, None, None, None, None)
    assert mv.table_dict(1)["rounds"][0] == {"round": 1, "idle": True}
    with pytest.raises(MovementError, match="no round 8"):
        mv.position(1, 8)
    with pytest.raises(MovementError, match="pair 8"):
        mv.position(8, 1)


def test_describe_in_both_languages():
    mv = mitchell(3, 2, arrow_switch=[3]).without_pair(6)
    en, ru = mv.describe(3, "en"), mv.describe(3, "ru")
    assert en.splitlines()[0] == "Round 3" and ru.splitlines()[0] == "Тур 3"
    assert "Table 1: NS 5 — EW 1, boards 5-6 (arrow switch)" in en
    assert "Стол 1: СЮ 5 — ВЗ 1, сдачи 5-6 (стрелка переключена)" in ru
    assert en.splitlines()[-1].startswith("Sitting out: pair ")
    assert "Столы 1, 2, 3 играют общие сдачи" in howell(3, 3).describe(
        next(r for r in range(1, 6) if howell(3, 3).sharing(r)), "ru")
    with pytest.raises(MovementError, match="language"):
        mv.describe(1, "de")


@pytest.mark.parametrize("rounds, message, ru", [
    ([[Seating(1, 1, 2, 1), Seating(2, 1, 3, 2)]], "pair 1 is seated twice",
     "тур 1: пара 1 посажена дважды"),
    ([[Seating(1, 1, 2, 1)], [Seating(1, 1, 3, 1)]], "pair 1 plays board set 1 again",
     "тур 2: пара 1 снова играет комплект 1"),
    ([[Seating(1, 1, 2, 3)]], "no board set 3", "тур 1, стол 1: нет комплекта 3"),
    ([[Seating(1, 1, 2, 1), Seating(1, 3, 4, 2)]], "table 1 is used twice",
     "тур 1: стол 1 занят дважды"),
    ([[Seating(1, 2, 2, 1)]], "plays itself", "тур 1, стол 1: пара 2 играет сама с собой"),
])
def test_inconsistent_movement_is_refused(rounds, message, ru):
    """Each problem is said in both languages: the Russian scorer reads the list in Russian."""
    with pytest.raises(MovementError, match=message) as refused:
        Movement("custom", rounds, 2, 2)
    head, problems = refused.value.text("ru").split(": ", 1)
    assert head == "движение custom противоречиво" and ru in problems.split("; ")


@pytest.mark.parametrize("data", [{}, {"rounds": [[1, 2]]}, "x",
                                  {"kind": "k", "boards_per_set": 2, "sets": 1,
                                   "rounds": [[[1, 1, 1, 1, 0]]]}])
def test_from_dict_rejects_garbage(data):
    with pytest.raises(MovementError):
        Movement.from_dict(data)
