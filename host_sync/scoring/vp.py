"""The WBF continuous 20-VP scale (2013): VPs for an IMP margin in a match of N boards.

X = 15 * sqrt(N) is the blitz margin, tau = (sqrt(5) - 1) / 2, and the winner gets
min(20, 10 + 10 * (1 - tau^(3M/X)) / (1 - tau^3)) to two decimals; the loser 20 minus that.
"""

import math
from decimal import ROUND_HALF_UP, Decimal

from host_sync.errors import Refused

TAU = (math.sqrt(5) - 1) / 2


def blitz(boards):
    """The IMP margin that wins 20 VPs."""
    return 15 * math.sqrt(boards)


def winner_vp(margin, boards):
    """VPs of the winner of a match won by `margin` IMPs (a Decimal with two places)."""
    if boards < 1:
        raise Refused("a match has at least one board, not %r" % (boards,),
                      ru="в матче хотя бы одна сдача, а не %r" % (boards,))
    margin = abs(margin)
    exact = 10 + 10 * (1 - TAU ** (3 * margin / blitz(boards))) / (1 - TAU ** 3)
    value = Decimal(repr(min(20.0, exact))).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return min(value, Decimal(20))


def match_vp(imps_a, imps_b, boards):
    """(VPs of side A, VPs of side B) for a match that ended imps_a to imps_b."""
    win = winner_vp(imps_a - imps_b, boards)
    lose = Decimal(20) - win
    return (win, lose) if imps_a >= imps_b else (lose, win)
