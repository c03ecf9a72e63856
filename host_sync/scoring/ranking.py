"""Rankings with ties: equal totals share the best place, shown as "3=" (1224 ranking)."""


def rank(values, key=None, reverse=True):
    """Places (1-based ints) of `values`, best first: higher is better unless reverse=False.

    Ties share the best place of their group: 10, 20, 20, 5 -> 3, 1, 1, 4.
    """
    keyed = [v if key is None else key(v) for v in values]
    order = sorted(range(len(keyed)), key=lambda i: keyed[i], reverse=reverse)
    places = [0] * len(keyed)
    for position, i in enumerate(order):
        previous = order[position - 1] if position else None
        if previous is not None and keyed[previous] == keyed[i]:
            places[i] = places[previous]
        else:
            places[i] = position + 1
    return places


def labels(places):
    """Place labels: a place shared by several is suffixed with '='."""
    counts = {}
    for p in places:
        counts[p] = counts.get(p, 0) + 1
    return ["%d=" % p if counts[p] > 1 else str(p) for p in places]
