"""Complete Howell: 2n pairs at n tables meet each other once in 2n-1 rounds.

Rounds come from the cyclic construction: pair 2n stays at table 1 (alternating NS and EW),
pairs 1..2n-1 rotate; in round r (0-based, pairs counted from 0 mod m=2n-1) table 1 has 2n v r
and table k+1 has r+k (NS) v r-k (EW). Board sets: the set at table k+1 is r + c_k (mod m),
with offsets c_k chosen so that every pair plays each of the m sets exactly once (then every
set is played n times, and each table plays every set once). That is a Room square; none
exists of side 3 or 5 (Mullin & Wallis, 1975), so 3 and 5 tables must share boards: for 5
tables the cyclic plan with two tables sharing one set each round, for 3 tables the plan
found by searching every assignment (one round in which all three tables share a set).
With 2n-1 pairs use `howell(n, ...).without_pair(2 * n)`: table 1 is then a sit-out.
"""

from functools import cache

from host_sync.movements.model import (
    NUMBER_OF_TABLES,
    Movement,
    MovementError,
    Seating,
    positive_int,
)

TABLES = range(3, 13)


def howell(tables, boards_per_set):
    """A complete Howell for 3 to 12 tables: pairs 1..2n, 2n-1 rounds, 2n-1 board sets."""
    n = positive_int(tables, NUMBER_OF_TABLES)
    if n not in TABLES:
        raise MovementError("a Howell is built for %d to %d tables, not %d"
                            % (TABLES[0], TABLES[-1], n), ru="Хауэлл строится на %d–%d "
                            "столов, а не на %d" % (TABLES[0], TABLES[-1], n))
    m = 2 * n - 1
    sets = _set_plan(n)
    plan = []
    for r in range(m):
        matches = _round_matches(n, r)
        seats = []
        for k, (ns, ew) in enumerate(matches):
            if k == 0 and r % 2:
                ns, ew = ew, ns
            seats.append(Seating(k + 1, ns + 1, ew + 1, sets[r][k] + 1))
        plan.append(seats)
    return Movement("howell", plan, boards_per_set, m, range(1, 2 * n + 1), None,
                    {"stationary": 2 * n})


def _round_matches(n, r):
    """Round r of the circle method, pairs counted from 0; pair 2n-1 is the stationary one."""
    m = 2 * n - 1
    return [(m, r)] + [((r + k) % m, (r - k) % m) for k in range(1, n)]


@cache
def _set_plan(n):
    """sets[r][k]: the board set (from 0) at table k+1 in round r."""
    m = 2 * n - 1
    offsets = _cyclic_offsets(n, shared=0)
    if offsets is None and n <= 3:
        return _searched_plan(n)
    if offsets is None:
        offsets = _cyclic_offsets(n, shared=1)
    return [[(r + c) % m for c in offsets] for r in range(m)]


def _cyclic_offsets(n, shared):
    """Offsets c_0..c_{n-1} with c_0, c_k - k, c_k + k all different mod 2n-1 (so each pair
    meets each set once), at most `shared` of them repeating an earlier offset (sharing)."""
    m = 2 * n - 1
    chosen, hit = [], set()

    def extend(k, repeats):
        if k == n:
            return True
        for c in range(m):
            again = repeats + (c in chosen)
            seen = {c} if k == 0 else {(c - k) % m, (c + k) % m}
            if again > shared or len(seen) < (1 if k == 0 else 2) or seen & hit:
                continue
            chosen.append(c)
            hit.update(seen)
            if extend(k + 1, again):
                return True
            chosen.pop()
            hit.difference_update(seen)
        return False

    return list(chosen) if extend(0, 0) else None


def _searched_plan(n):
    """Every assignment of sets to matches, fewest shared tables first (small n only)."""
    m = 2 * n - 1
    slots = [(r, k, match) for r in range(m) for k, match in enumerate(_round_matches(n, r))]
    pair_sets = [set() for _ in range(m + 1)]
    round_sets = [[] for _ in range(m)]
    plan = [[None] * n for _ in range(m)]

    def fill(i, shared, limit):
        if i == len(slots):
            return True
        r, k, (a, b) = slots[i]
        for s in range(m):
            more = shared + (s in round_sets[r])
            if s in pair_sets[a] or s in pair_sets[b] or more > limit:
                continue
            pair_sets[a].add(s)
            pair_sets[b].add(s)
            round_sets[r].append(s)
            plan[r][k] = s
            if fill(i + 1, more, limit):
                return True
            pair_sets[a].discard(s)
            pair_sets[b].discard(s)
            round_sets[r].pop()
        return False

    for limit in range(m * n):
        if fill(0, 0, limit):
            return plan
    raise MovementError("no Howell board plan for %d tables" % n,
                        ru="нет плана сдач Хауэлла на %d столов" % n)
