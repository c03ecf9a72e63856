"""Mitchell: NS pairs stay at their tables, EW pairs move up one table, boards move down one.

NS pair t sits at table t; EW pair n+t starts at table t. With an odd number of tables every
EW pair meets every NS pair in n rounds. With an even number the EW pairs would meet the
boards they have played after n/2 rounds, so they skip a table once, after round n/2 (the
skip Mitchell: n-1 rounds at most, each EW pair misses the NS pair it skips). An arrow switch
in a round swaps the directions at every table, so the NS and EW fields score as one.
"""

from host_sync.errors import Both
from host_sync.movements.model import (
    NUMBER_OF_TABLES,
    Movement,
    MovementError,
    Seating,
    positive_int,
)


def max_rounds(tables):
    """The longest Mitchell in which no pair meets a pair or a board set twice."""
    return tables if tables % 2 else tables - 1


def mitchell(tables, boards_per_set, rounds=None, arrow_switch=()):
    """A Mitchell movement for `tables` tables (3 or more: with 2 it lasts one round in which
    each board is played once, so no result could be compared).

    rounds: how many rounds to play (default the maximum); arrow_switch: round numbers in
    which the arrow is switched, or "last".
    """
    n = positive_int(tables, NUMBER_OF_TABLES)
    if n < 3:
        raise MovementError("a Mitchell needs at least 3 tables: with %d every board would be "
                            "played once and no result compared (2 tables: a teams match)" % n,
                            ru="Митчеллу нужно не меньше 3 столов: при %d каждая сдача "
                            "сыграется один раз и её не с чем сравнить (2 стола — командный "
                            "матч)" % n)
    top = max_rounds(n)
    rounds = top if rounds is None else positive_int(rounds, Both("the number of rounds",
                                                                  "число туров"))
    if rounds > top:
        raise MovementError("a %d-table Mitchell has at most %d rounds, not %d" % (n, top, rounds),
                            ru="в Митчелле на %d столов не больше %d туров, а не %d" % (
                                n, top, rounds))
    switched = _switch_rounds(arrow_switch, rounds)
    skip_after = n // 2 if n % 2 == 0 and rounds > n // 2 else None
    plan = []
    for r in range(rounds):
        shift = r + (1 if skip_after is not None and r >= skip_after else 0)
        seats = []
        for t in range(1, n + 1):
            ns, ew = t, n + (t - 1 - shift) % n + 1
            board_set = (t - 1 + r) % n + 1
            if r + 1 in switched:
                ns, ew = ew, ns
            seats.append(Seating(t, ns, ew, board_set, r + 1 in switched))
        plan.append(seats)
    options = {"skip_after": skip_after, "arrow_switch": sorted(switched)}
    return Movement("mitchell", plan, boards_per_set, n, range(1, 2 * n + 1), None, options)


def _switch_rounds(arrow_switch, rounds):
    if arrow_switch == "last":
        return {rounds}
    try:
        chosen = {int(r) for r in arrow_switch}
    except (TypeError, ValueError):
        raise MovementError("arrow_switch must be round numbers or 'last', not %r"
                            % (arrow_switch,), ru="arrow_switch — номера туров или 'last', "
                            "а не %r" % (arrow_switch,)) from None
    bad = sorted(r for r in chosen if not 1 <= r <= rounds)
    if bad:
        raise MovementError("no round %s to switch the arrow in (there are %d)"
                            % (", ".join(map(str, bad)), rounds), ru="нет тура %s, чтобы "
                            "переключить стрелку (туров %d)" % (", ".join(map(str, bad)), rounds))
    return chosen
