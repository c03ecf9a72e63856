"""IMPs (Law 78B): the scale, team-match comparison, cross-IMPs and Butler (IMPs against a datum).

Cross-IMPs and Butler work on the distinct scores of a board with their counts: each distinct
score is compared with the whole field by bisecting the sorted scores at the 24 band edges, so a
board with thousands of results costs (distinct scores) x 48 bisections, not results^2.
"""

from bisect import bisect_left, bisect_right
from collections import Counter
from fractions import Fraction
from itertools import accumulate

from host_sync.errors import Refused

# Lower bound of each IMP band: a difference of 20..40 is 1 IMP, ..., 4000 and more is 24.
IMP_SCALE = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300,
             1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000)


def imps(difference):
    """The IMPs for a points difference (sign kept)."""
    value = bisect_right(IMP_SCALE, abs(difference))
    return value if difference >= 0 else -value


def _weighted_counts(entries):
    """Counter of score -> total weight over entries (a score or a list of (weight, score))."""
    counts = Counter()
    for entry in entries:
        for weight, score in components(entry):
            counts[score] += weight
    return counts


def components(entry):
    """A plain score is one component of weight 1; a weighted score (12C1c) is its list."""
    if isinstance(entry, (list, tuple)):
        return entry
    return ((1, entry),)


def cross_imps(entries):
    """Each entry's average IMPs against every other entry of the board (Fractions).

    Entries are NS scores, or weighted scores as lists of (weight, score) whose weights sum
    to 1; each comparison with a weighted score is the weighted sum of its components.
    """
    n = len(entries)
    if n < 2:
        return [Fraction(0)] * n
    if all_plain(entries):
        against_all = _against_field(Counter(entries))
        value = {s: Fraction(total, n - 1) for s, total in against_all.items()}
        return [value[s] for s in entries]
    against_all = _against_field(_weighted_counts(entries))
    result = []
    for entry in entries:
        parts = components(entry)
        total = 0
        for weight, score in parts:
            # remove the comparisons of this entry with itself
            own = sum(w2 * imps(score - s2) for w2, s2 in parts)
            total += weight * (against_all[score] - own)
        result.append(Fraction(total) / (n - 1))
    return result


def all_plain(entries):
    """True when no entry is a weighted score (every entry is one plain score)."""
    return not any(isinstance(entry, (list, tuple)) for entry in entries)


def _against_field(counts):
    """Distinct score -> its IMPs summed against every score of the field (weighted by count).

    An opponent's score t costs k IMPs when s - t reaches the k-th band edge, so the sum is, over
    the band edges b, the weight at or below s - b minus the weight at or above s + b.
    """
    scores = sorted(counts)
    below = [0, *accumulate(counts[t] for t in scores)]  # below[i]: weight of scores[:i]
    total = below[-1]
    out = {}
    for s in scores:
        won = sum(below[bisect_right(scores, s - edge)] for edge in IMP_SCALE)
        lost = sum(total - below[bisect_left(scores, s + edge)] for edge in IMP_SCALE)
        out[s] = won - lost
    return out


def datum(scores, trim=0):
    """Butler datum: the mean NS score after dropping `trim` highest and lowest, to the nearest 10.

    A mean exactly half way between two tens goes up (towards NS), as most programs do.
    """
    ordered = sorted(scores)
    if trim and len(ordered) > 2 * trim:
        ordered = ordered[trim:len(ordered) - trim]
    if not ordered:
        raise Refused("no scores to make a datum from", ru="нет результатов, чтобы вычислить датум")
    mean = Fraction(sum(ordered), len(ordered))
    tens = mean / 10
    floor = tens.numerator // tens.denominator
    return 10 * (floor + 1 if tens - floor >= Fraction(1, 2) else floor)


def scaled_trim(count):
    """Results dropped at each end for the datum: 1 up to 10 results, 2 up to 25, one more per 15.

    This is the rule of the `bridge-scorer` package; fields of 3 or fewer drop nothing.
    """
    if count <= 3:
        return 0
    return -((10 - count) // 15) + 1  # ceil((count - 10) / 15) + 1


def expected_score(entry):
    """A plain score, or the weighted mean of a weighted score's components."""
    return sum(Fraction(w) * s for w, s in components(entry)) if isinstance(
        entry, (list, tuple)) else entry


def butler(entries, trim=0):
    """(datum, IMPs of each entry against it); a weighted entry gets the weighted sum."""
    if all_plain(entries):
        base = datum(entries, trim)
        value = {s: imps(s - base) for s in set(entries)}
        return base, [value[s] for s in entries]
    base = datum([expected_score(e) for e in entries], trim)
    return base, [sum(w * imps(s - base) for w, s in components(e)) for e in entries]
