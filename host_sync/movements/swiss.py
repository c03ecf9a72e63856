"""Swiss pairing (rules 1.5.6): the first round is drawn at random; later, opponents are drawn
at random among participants with similar standings (by points scored), and nobody meets the
same opponent twice.

Participants are ranked by score with ties in random order (that is the draw); then, from the
top, each takes the nearest-ranked participant it has not met for whom the rest can still all
be paired without a repeat (checked by a maximum matching, so a pairing is found whenever one
exists). With an odd count one participant has a bye (1.5.6 is silent; the usual practice):
the lowest-ranked among those with the fewest byes whose absence leaves a pairable field.
"""

import random
from collections import Counter, namedtuple

from host_sync.movements.model import MovementError

Pairing = namedtuple("Pairing", "matches bye")
Pairing.__doc__ = "matches: [(higher ranked, lower ranked), ...] top table first; bye or None."


def rank(standings, rng):
    """Participants best first; equal scores in random order (the draw)."""
    items = list(standings.items()) if isinstance(standings, dict) else list(standings)
    try:
        scores = {p: float(s) for p, s in items}
    except (TypeError, ValueError):
        raise MovementError("standings must be (participant, score) with numeric scores",
                            ru="таблица положения — это пары (участник, очки), где очки — "
                            "числа")
    if len(scores) != len(items):
        raise MovementError("a participant appears twice in the standings",
                            ru="участник дважды указан в таблице положения")
    order = list(scores)
    rng.shuffle(order)
    order.sort(key=lambda p: -scores[p])
    return order


def pair_round(standings, met=(), byes=(), rng=None):
    """Pairings for the next round.

    standings: {participant: score} or [(participant, score)]; met: past matches as (a, b);
    byes: participants who have had a bye (repeat for several); rng: random.Random (seed it
    to make the draw reproducible). Raises MovementError when no pairing avoids a repeat.
    """
    rng = rng or random.Random()
    order = rank(standings, rng)
    if len(order) < 2:
        raise MovementError("a Swiss round needs at least 2 participants",
                            ru="туру по швейцарской системе нужно не меньше 2 участников")
    met = {frozenset(m) for m in met}
    bye = None
    if len(order) % 2:
        had = Counter(byes)
        for i in sorted(range(len(order)), key=lambda i: (had[order[i]], -i)):
            if can_all_play(order[:i] + order[i + 1:], met):
                bye = order.pop(i)
                break
    if not can_all_play(order, met):
        raise MovementError("no Swiss pairing of %d participants avoids a repeat meeting"
                            % len(order), ru="любая жеребьёвка %d участников по швейцарской "
                            "системе сводит кого-то повторно" % len(order))
    matches = []
    while order:
        top = order.pop(0)
        for j, other in enumerate(order):
            rest = order[:j] + order[j + 1:]
            if frozenset((top, other)) not in met and can_all_play(rest, met):
                matches.append((top, other))
                order = rest
                break
    return Pairing(matches, bye)


def can_all_play(people, met):
    """True when `people` can all be paired with opponents they have not met: at once when
    everyone may still meet half of them (Dirac), else by Edmonds' blossom matching."""
    n = len(people)
    if n % 2:
        return False
    adj = [[j for j in range(n) if j != i and frozenset((people[i], people[j])) not in met]
           for i in range(n)]
    if all(2 * len(a) >= n for a in adj):
        return True
    return _maximum_matching(adj) * 2 == n


def _maximum_matching(adj):
    """Size of a maximum matching of the graph `adj` (lists of neighbours): Edmonds' blossom
    algorithm, started from a greedy matching."""
    n = len(adj)
    match = [-1] * n
    for v in range(n):
        if match[v] < 0:
            for u in adj[v]:
                if match[u] < 0:
                    match[u], match[v] = v, u
                    break
    for root in range(n):
        if match[root] < 0:
            end, parent = _augmenting_path(adj, match, root)
            while end >= 0:                                        # flip the path
                prev = parent[end]
                after = match[prev]
                match[end], match[prev] = prev, end
                end = after
    return sum(1 for m in match if m >= 0) // 2


def _augmenting_path(adj, match, root):
    """(free vertex reached, parent links) of an augmenting path from `root`, or (-1, ...)."""
    n = len(adj)
    used, parent, base = [False] * n, [-1] * n, list(range(n))
    used[root] = True
    queue = [root]

    def common_base(a, b):
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] < 0:
                break
            a = parent[match[a]]
        while not seen[base[b]]:
            b = parent[match[base[b]]]
        return base[b]

    def mark(v, b, child, blossom):
        while base[v] != b:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    while queue:
        v = queue.pop(0)
        for to in adj[v]:
            if base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] >= 0 and parent[match[to]] >= 0):
                b = common_base(v, to)
                blossom = [False] * n
                mark(v, b, to, blossom)
                mark(to, b, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = b
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] < 0:
                parent[to] = v
                if match[to] < 0:
                    return to, parent
                used[match[to]] = True
                queue.append(match[to])
    return -1, parent
