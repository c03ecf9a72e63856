"""Score one board: every line of its traveller, both directions, any scoring method.

Methods: "mp" (matchpoints, 2/1 scale), "cross-imps", "butler" (IMPs against a datum) and
"total" (total points). Each direction is scored on its own field, which is what split
scores need; artificial lines drop out of the comparisons and the rest are scaled to the full
field (Neuberg for matchpoints); fouled-board groups are scored apart (Law 81).
"""

from fractions import Fraction

from host_sync.errors import Refused
from host_sync.scoring import imps as imp_scoring
from host_sync.scoring import matchpoints as mp_scoring
from host_sync.scoring.adjusted import artificial_imps, artificial_percent

METHODS = ("mp", "cross-imps", "butler", "total")
SIDES = ("ns", "ew")


def check_method(method):
    if method not in METHODS:
        raise Refused("scoring method %r: expected one of %s" % (method, ", ".join(METHODS)),
                      ru="способ подсчёта %r: ожидался один из %s" % (method, ", ".join(METHODS)))
    return method


def score_board(lines, method="mp", trim=0):
    """[(NS value, EW value)] for each line: 2/1 matchpoints, IMPs or points.

    `trim` is the number of results dropped at each end for a Butler datum (per group).
    """
    check_method(method)
    if all(_plain_line(line) for line in lines):
        return list(zip(*score_plain([line.ns for line in lines], method, trim)))
    field = len(lines)
    values = [[None, None] for _ in lines]
    for column, side in enumerate(SIDES):
        groups = {}
        for i, line in enumerate(lines):
            code = line.artificial(side)
            if code:
                values[i][column] = _artificial_value(code, method, field)
            else:
                groups.setdefault(line.group, []).append(i)
        for members in groups.values():
            entries = [lines[i].entry(side) for i in members]
            for i, value in zip(members, _score_group(entries, method, field, trim)):
                values[i][column] = value
    return [tuple(v) for v in values]


def score_plain(scores, method="mp", trim=0):
    """(NS values, EW values) for the common traveller: NS points only (ints), none artificial,
    weighted, split or fouled. EW's values follow from NS's (top minus NS matchpoints, IMPs
    and points negated): Butler's too, against the one datum of the board (a datum of its
    own for EW, rounded from the negated scores, could differ by ten points, and a line then
    cost one side an IMP the other did not win; Law 78B compares the two scores once)."""
    if method == "mp":
        ns = mp_scoring.plain_matchpoints(scores)
        top = mp_scoring.top(len(scores))
        return ns, [top - mp for mp in ns]
    if method == "cross-imps":
        ns = imp_scoring.cross_imps(scores)
    elif method == "butler":
        ns = imp_scoring.butler(scores, trim)[1]
    else:
        ns = scores
    return ns, [-value for value in ns]


def _plain_line(line):
    return (line.ew is None and line.group is None and not line.ns_artificial
            and not line.ew_artificial and line.ns is not None
            and not isinstance(line.ns, (list, tuple)))


def _score_group(entries, method, field, trim):
    if method == "mp":
        return [mp_scoring.neuberg(mp, len(entries), field)
                for mp in mp_scoring.matchpoints(entries)]
    if method == "cross-imps":
        return imp_scoring.cross_imps(entries)
    if method == "butler":
        return imp_scoring.butler(entries, trim)[1]
    return [imp_scoring.expected_score(e) for e in entries]


def _artificial_value(code, method, field):
    if method == "mp":
        return artificial_percent(code) * mp_scoring.top(field) / 100
    if method in ("cross-imps", "butler"):
        return Fraction(artificial_imps(code))
    raise Refused("artificial score %s in a total-points event: assign a score instead" % code,
                  ru="искусственный счёт %s в турнире на сумму очков: назначьте вместо него счёт"
                  % code)
