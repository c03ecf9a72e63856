"""Matchpoints (Law 78A) and Neuberg's formula for boards with fewer results than the field.

Matchpoints are kept on the 2/1 scale (2 per score beaten, 1 per score equalled) as integers,
or Fractions when a weighted score (Law 12C1c) takes part; the 1/0.5 scale is the same halved.
The whole board is scored in one sort of its distinct scores, so 10,000 results cost a few
milliseconds; a board of plain scores (no weighted score) stays in integers throughout.
"""

from collections import Counter
from fractions import Fraction
from itertools import accumulate

from host_sync.scoring.imps import all_plain, components


def matchpoints(entries):
    """2/1-scale matchpoints of each entry against all the others.

    An entry is a score (higher is better) or a weighted score: a list of (weight, score)
    whose weights sum to 1; every comparison with it counts in proportion to the weights.
    """
    if all_plain(entries):
        return plain_matchpoints(entries)
    weights = Counter()
    for entry in entries:
        for weight, score in components(entry):
            weights[score] += weight
    scores = sorted(weights)
    below = [0] + list(accumulate(weights[s] for s in scores))  # weight strictly below
    index = {s: i for i, s in enumerate(scores)}
    result = []
    for entry in entries:
        parts = components(entry)
        total = 0
        for weight, score in parts:
            i = index[score]
            field = 2 * below[i] + weights[score]
            own = sum(w2 * (2 if score > s2 else 1 if score == s2 else 0) for w2, s2 in parts)
            total += weight * (field - own)
        result.append(total)
    return result


def plain_matchpoints(scores):
    """2/1-scale matchpoints of plain integer scores: each distinct score is valued once
    (2 per score below it, 1 per other equal score) and the values looked up per result."""
    counts = Counter(scores)
    value = {}
    below = 0
    for score in sorted(counts):
        count = counts[score]
        value[score] = 2 * below + count - 1
        below += count
    return [value[score] for score in scores]


def top(count):
    """The 2/1-scale top of a board played `count` times."""
    return 2 * (count - 1)


def neuberg(mp, scored, field):
    """Neuberg: a 2/1-scale score among `scored` results raised to a field of `field` results."""
    if scored == field:
        return mp
    return (mp + 1) * Fraction(field, scored) - 1


def percentage(mp, count):
    """Matchpoints as a percentage of the top (50 when the board has a single result)."""
    t = top(count)
    return Fraction(100 * mp, t) if t else Fraction(50)


