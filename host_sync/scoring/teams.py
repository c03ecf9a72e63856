"""Team matches: the two tables of a board compared in IMPs, and a match converted to VPs.

Team A sits North-South in the open room and East-West in the closed room. With split
scores (Law 12C1e) each team is scored from its own two scores; in a knockout (Law 12C4)
both then get the mean of the two results.
"""

from fractions import Fraction

from host_sync.errors import Refused
from host_sync.scoring.adjusted import artificial_imps, check_weighted, negate, session_rule
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
    when a score is split. A string "A+", "A", "A-" is an artificial score (Law 12C2b: +3, 0,
    -3 IMPs): given for NS, it stands for the table's EW as the opposite code unless EW's own
    code is given (12C1e: awards need not balance; Law 80B: both sides may be non-offending).
    Each artificial table's award counts for its two teams on its own; a played table facing
    an artificial one compares with nothing.
    """
    return board_result(open_ns, closed_ns, open_ew, closed_ew, knockout)[0]


def board_result(open_ns, closed_ns, open_ew=None, closed_ew=None, knockout=False):
    """((IMPs of A, IMPs of B), (A's artificial codes, B's) or None when both tables
    played)."""
    scores = (open_ns, closed_ns, open_ew, closed_ew)
    for score in scores:
        _check_score(score)
    artificial = any(isinstance(x, str) for x in scores)
    if (open_ns is None or closed_ns is None) and not artificial:
        raise Refused("a team board needs a score at both tables (or an artificial one)",
                      ru="у сдачи в командах должен быть счёт за обоими столами (или "
                      "искусственный)")
    codes = None
    if artificial:
        (a, b), codes = _artificial(open_ns, closed_ns, open_ew, closed_ew)
    else:
        a = _own_imps(open_ns, closed_ew if closed_ew is not None else negate(closed_ns))
        b = _own_imps(closed_ns, open_ew if open_ew is not None else negate(open_ns))
    if knockout and a != -b:  # 12C4: unbalanced results, each team gets their mean
        mean = Fraction(a - b, 2)
        return (mean, -mean), codes
    return (a, b), codes


OPPOSITE = {"A+": "A-", "A": "A", "A-": "A+"}


def _check_score(score):
    """Refused unless a score is a number, a weighted score, an artificial code or None (an
    EW score not given)."""
    if score is None or isinstance(score, str) or isinstance(score, (int, Fraction)) and \
            not isinstance(score, bool):
        return
    if isinstance(score, (list, tuple)):
        check_weighted(score)
        return
    raise Refused("a team board's score is points, a weighted score or A+ / A / A-, not %r"
                  % (score,), ru="счёт сдачи в командах — очки, взвешенный счёт или A+ / A / "
                  "A-, а не %r" % (score,))


def _artificial(open_ns, closed_ns, open_ew, closed_ew):
    """((IMPs of A, IMPs of B), (A's codes, B's codes)) of a board with an artificial score
    at one table or both: team A is the open room's NS and the closed room's EW."""
    codes_a, codes_b = [], []
    for ns, ew, ns_team, ew_team in ((open_ns, open_ew, codes_a, codes_b),
                                     (closed_ns, closed_ew, codes_b, codes_a)):
        if not isinstance(ns, str) and not isinstance(ew, str):
            continue  # played: nothing to compare it with
        if not isinstance(ns, str) or ew is not None and not isinstance(ew, str):
            raise Refused("an artificial score is given for the table's NS, and EW's own "
                          "code (if any) as a code too", ru="искусственный счёт задаётся для "
                          "NS стола, а свой код EW (если есть) — тоже кодом")
        ns_team.append(ns)
        ew_team.append(ew if ew is not None else OPPOSITE.get(ns, ns))
    return (sum(map(artificial_imps, codes_a)), sum(map(artificial_imps, codes_b))), (
        codes_a, codes_b)


def match(boards, scheduled=None, knockout=False):
    """(net IMPs of A, net IMPs of B, VPs of A, VPs of B) over board tuples for board_imps,
    the VPs on the scale of a match of `scheduled` boards (default: those given)."""
    return match_of([board_result(*board, knockout=knockout) for board in boards], scheduled,
                    knockout)


def match_of(results, scheduled=None, knockout=False):
    """`match` over each board's `board_result`, made once by a caller that also shows them.

    With split scores the two nets need not balance, and each team's VPs come from its own.
    Law 12C2(c) in IMPs: each A+ a team has on a board becomes its IMPs a board on its
    other boards when that is more, each A- when that is less (an A+ at both tables is two
    awards, each raised: one A+ and a played table must not be worth more than two A+).
    """
    imps, artificial = zip(*results) if results else ((), ())
    nets = []
    for team in (0, 1):
        played = [r[team] for r, a in zip(imps, artificial) if a is None]
        average = Fraction(sum(played), len(played)) if played else None
        net = 0
        for r, a in zip(imps, artificial):
            codes = a[team] if a is not None else ()
            net += sum(session_rule(c, artificial_imps(c), average) for c in codes) \
                if codes and not knockout else r[team]
        nets.append(net)
    vp_a = match_vp(nets[0], 0, scheduled or len(results))[0]
    vp_b = match_vp(nets[1], 0, scheduled or len(results))[0]
    return nets[0], nets[1], vp_a, vp_b
