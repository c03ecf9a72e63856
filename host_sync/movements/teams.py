"""Teams of four: each match is played at two tables that share the same boards.

Team t has pair 2t-1 (its first pair, always NS) and pair 2t (its second pair, always EW).
Match j of a round is played at tables 2j-1 and 2j: at the first the home team's first pair
sits NS against the away team's second pair; at the second the away team's first pair sits NS
against the home team's second pair. So each board is played once in each direction by
each team. Every match of a round plays the same set (set = round), which lets the scorer
compare across the field (Butler, cross-IMPs); each match needs its own copy of the boards.
"""

from host_sync.movements.model import Movement, MovementError, Schedule, Seating

MAX_TEAMS = 300  # 600 tables, beyond any playing room; a round robin of 1,000 took a minute


def pairs_of(team):
    """(first pair, second pair) of a team."""
    return 2 * team - 1, 2 * team


def team_of(pair):
    return (pair + 1) // 2


def teams_movement(schedule, boards_per_round, options=None):
    """The table movement of a Schedule of team matches (round robin, Swiss, or one match);
    `options` are kept with it (a Swiss draw's seed)."""
    teams = list(schedule.participants)
    if any(isinstance(t, bool) or not isinstance(t, int) or t < 1 for t in teams):
        raise MovementError("teams must be numbered 1, 2, ... for a teams movement",
                            ru="в командном движении команды нумеруются 1, 2, ...")
    plan, copies = [], 1
    for rno, matches in enumerate(schedule.rounds, 1):
        seats = []
        for j, (home, away) in enumerate(matches, 1):
            h1, h2 = pairs_of(home)
            a1, a2 = pairs_of(away)
            seats.append(Seating(2 * j - 1, h1, a2, rno))
            seats.append(Seating(2 * j, a1, h2, rno))
        copies = max(copies, len(matches))
        plan.append(seats)
    if not plan:
        raise MovementError("the schedule has no rounds", ru="в расписании нет туров")
    pairs = [p for t in teams for p in pairs_of(t)]
    labels = {p: "%d%s" % (team_of(p), "AB"[(p + 1) % 2]) for p in pairs}
    return Movement("teams", plan, boards_per_round, len(plan), pairs, labels,
                    dict(options or {}, schedule=schedule.kind), copies)


def match(boards_per_segment, segments):
    """Two teams, one match of `segments` segments (a knockout or a single teams match)."""
    if isinstance(segments, bool) or not isinstance(segments, int) or segments < 1:
        raise MovementError("a match needs a positive number of segments, not %r" % (segments,),
                            ru="в матче нужен хотя бы один сегмент, а не %r" % (segments,))
    return teams_movement(Schedule([1, 2], [[(1, 2)]] * segments, "match"), boards_per_segment)
