"""Team matches: the two tables of a board compared in IMPs, and a match converted to VPs.

Team A sits North-South in the open room and East-West in the closed room. With split
scores (Law 12C1e) each team is scored from its own two scores; in a knockout (Law 12C4)
both then get the mean of the two results.
"""

from fractions import Fraction

from host_sync.scoring.adjusted import artificial_imps, negate
from host_sync.scoring.imps import components, imps
from host_sync.scoring.vp import match_vp


def _own_imps(first, second):
    """IMPs of a team that scored `first` at one table and `second` (its own points) at the
    other."""
    total = 0
    for w1, s1 in components(first):
        for w2, s2 in components(second):
            total += w1 * w2 * imps(s1 + s2)
    return total


def board_imps(open_ns, closed_ns, open_ew=None, closed_ew=None, knockout=False):
    """(IMPs of team A, IMPs of team B) on one board.

    Scores are NS points (ints or weighted scores); open_ew / closed_ew are EW's own points
    when a score is split; a string "A+", "A", "A-" is an artificial score for that table
    (Law 12C2b: +3, 0, -3 IMPs to the side named NS; the other side gets the opposite).
    """
    if isinstance(open_ns, str) or isinstance(closed_ns, str):
        return _artificial(open_ns, closed_ns)
    a = _own_imps(open_ns, closed_ew if closed_ew is not None else negate(closed_ns))
    b = _own_imps(closed_ns, open_ew if open_ew is not None else negate(open_ns))
    if knockout and a != -b:
        mean = Fraction(a - b, 2)
        return mean, -mean
    return a, b


def _artificial(open_ns, closed_ns):
    """A table with an artificial score decides the board on its own (Law 12C2b)."""
    code = open_ns if isinstance(open_ns, str) else closed_ns
    value = artificial_imps(code)
    # the artificial value belongs to the NS pair of that table
    a = value if isinstance(open_ns, str) else -value
    return a, -a


def match(boards, knockout=False):
    """(net IMPs of A, net IMPs of B, VPs of A, VPs of B) over board tuples for board_imps.

    With split scores the two nets need not balance, and each team's VPs come from its own.
    """
    net_a = net_b = 0
    for board in boards:
        a, b = board_imps(*board, knockout=knockout)
        net_a += a
        net_b += b
    vp_a = match_vp(net_a, 0, len(boards))[0]
    vp_b = match_vp(net_b, 0, len(boards))[0]
    return net_a, net_b, vp_a, vp_b
