"""Round robin (rules 1.5.3): every participant meets every other once per cycle, in one or
several cycles; the chief director may change the order of the rounds.

Rounds follow the Berger tables: for n participants (a dummy added when n is odd: whoever
meets it has the bye), in round r participant n meets p0 with 2*p0 - 1 = r (mod n-1), and
p0+k meets p0-k (mod n-1) for k = 1..n/2-1; the home side is the smaller number when the two
numbers add up to an odd total, the larger otherwise, and n is at home in even rounds. Later
cycles repeat the first with home and away exchanged in every other cycle.
"""

from host_sync.errors import Both
from host_sync.movements.model import MovementError, Schedule, positive_int


def berger_round(n, r):
    """Round r (1-based) of the Berger table for an even n: [(home, away), ...], table order."""
    m = n - 1

    def wrap(x):
        return (x - 1) % m + 1

    p0 = next(p for p in range(1, n) if wrap(2 * p - 1) == wrap(r))
    matches = [(n, p0) if r % 2 == 0 else (p0, n)]
    for k in range(1, n // 2):
        a, b = wrap(p0 + k), wrap(p0 - k)
        low, high = min(a, b), max(a, b)
        matches.append((low, high) if (a + b) % 2 else (high, low))
    return matches


def round_robin(participants, cycles=1, order=None):
    """The Schedule of a round robin among `participants` (a count, or a list of ids).

    cycles: how many times everyone meets everyone; order: the rounds in the order the chief
    director sets (a permutation of 1..rounds), default the Berger order.
    """
    if isinstance(participants, int):
        participants = list(range(1, positive_int(participants, Both("the number of teams",
                                                                     "число команд")) + 1))
    participants = list(participants)
    if len(participants) < 2:
        raise MovementError("a round robin needs at least 2 participants",
                            ru="круговой системе нужно не меньше 2 участников")
    positive_int(cycles, Both("the number of cycles", "число кругов"))
    n = len(participants) + len(participants) % 2
    rounds = []
    for cycle in range(cycles):
        for r in range(1, n):
            matches = []
            for home, away in berger_round(n, r):
                if max(home, away) > len(participants):
                    continue                                   # the dummy: a bye
                if cycle % 2:
                    home, away = away, home
                matches.append((participants[home - 1], participants[away - 1]))
            rounds.append(matches)
    if order is not None:
        order = list(order)
        if sorted(order) != list(range(1, len(rounds) + 1)):
            raise MovementError("the round order must list rounds 1 to %d once each, not %r"
                                % (len(rounds), order), ru="порядок туров — туры с 1 по %d, "
                                "каждый по разу, а не %r" % (len(rounds), order))
        rounds = [rounds[i - 1] for i in order]
    return Schedule(participants, rounds, "roundrobin")
