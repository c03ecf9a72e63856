"""Rankings with ties: equal totals share the best place, shown as "3=" (1224 ranking)."""

from collections import Counter
from itertools import accumulate


def rank(values, key=None, reverse=True):
    """Places (1-based ints) of `values`, best first: higher is better unless reverse=False.

    Ties share the best place of their group: 10, 20, 20, 5 -> 3, 1, 1, 4. Keys are numbers
    (hashable): each distinct key is placed once, after the count of keys better than it.
    """
    keyed = list(values) if key is None else list(map(key, values))
    counts = Counter(keyed)
    order = sorted(counts, reverse=reverse)
    place = dict(zip(order, accumulate(map(counts.__getitem__, order), initial=1)))
    return list(map(place.__getitem__, keyed))


def labels(places):
    """Place labels: a place shared by several is suffixed with '='."""
    counts = {}
    for p in places:
        counts[p] = counts.get(p, 0) + 1
    return ["%d=" % p if counts[p] > 1 else str(p) for p in places]
