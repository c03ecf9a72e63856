"""Adjusted scores (Laws 12 and 81): what a board's line holds when it was not simply played.

* assigned (12C1a): the director's score replaces the table result; it is just a score.
* weighted (12C1c): a list of (weight, NS score) whose weights sum to 1.
* split (12C1e): the two sides' scores need not balance; each side is scored on its own field.
* artificial (12C2): "A+", "A", "A-" (60 / 50 / 40 % in pairs, +3 / 0 / -3 IMPs in teams),
  or an explicit percentage such as "55%"; 12C2(c) then replaces A+ / A- by the contestant's
  session percentage when that is above 60 % (non-offender) or below 40 % (offender).
* fouled board (81): results are split into groups; each group is scored on its own and
  scaled to the full field (Neuberg), so groups are never compared with each other.
"""

from dataclasses import dataclass
from fractions import Fraction

from host_sync.errors import Refused

ARTIFICIAL_PERCENT = {"A+": Fraction(60), "A": Fraction(50), "A-": Fraction(40)}
ARTIFICIAL_IMPS = {"A+": 3, "A": 0, "A-": -3}


def check_artificial(code):
    """Return the code in its canonical form; ValueError for anything else."""
    text = str(code).strip().upper().replace(" ", "")
    if text in ARTIFICIAL_PERCENT:
        return text
    if text.endswith("%"):
        try:
            value = Fraction(text[:-1])
        except ValueError:
            value = None
        if value is not None and 0 <= value <= 100:
            return "%s%%" % text[:-1]
    raise Refused("artificial score %r: expected A+, A, A- or a percentage like 55%%" % (code,),
                  ru="искусственный счёт %r: ожидалось A+, A, A- или процент, например 55%%"
                  % (code,))


def artificial_percent(code):
    """The percentage of the top an artificial score is worth in a pairs event."""
    code = check_artificial(code)
    return ARTIFICIAL_PERCENT.get(code) or Fraction(code[:-1])


def artificial_imps(code):
    """The IMPs an artificial score is worth (Law 12C2b); percentages have no IMP meaning."""
    code = check_artificial(code)
    if code not in ARTIFICIAL_IMPS:
        raise Refused("artificial score %s is a percentage: it has no IMP value" % code,
                      ru="искусственный счёт %s — процент: в ИМПах он ничего не стоит" % code)
    return ARTIFICIAL_IMPS[code]


def session_rule(code, board_value, session_value):
    """Law 12C2(c): the value an A+ / A- finally gets, given the contestant's session average.

    `board_value` is the artificial value (60 % or +3 IMPs...), `session_value` the same
    contestant's average on the boards of the session that were not artificial (as a
    percentage, or IMPs per board). Other codes keep their value.
    """
    if session_value is None:
        return board_value
    if code == "A+" and session_value > board_value:
        return session_value
    if code == "A-" and session_value < board_value:
        return session_value
    return board_value


def check_weighted(parts):
    """A weighted score: tuple of (Fraction weight, int NS score), weights positive, sum 1."""
    if not parts:
        raise Refused("a weighted score needs at least one (weight, score) part",
                      ru="во взвешенном счёте нужна хотя бы одна часть (вес, счёт)")
    clean = []
    for weight, score in parts:
        weight = Fraction(weight)
        if weight <= 0:
            raise Refused("weighted score: weight %s is not positive" % weight,
                          ru="взвешенный счёт: вес %s не больше нуля" % weight)
        clean.append((weight, int(score)))
    total = sum(w for w, _ in clean)
    if total != 1:
        raise Refused("weighted score: weights add up to %s, not 1" % total,
                      ru="взвешенный счёт: сумма весов %s, а не 1" % total)
    return tuple(clean)


def negate(entry):
    """The other side's view of a score or weighted score."""
    if isinstance(entry, (list, tuple)):
        return tuple((w, -s) for w, s in entry)
    return -entry


@dataclass(frozen=True)
class Line:
    """One table's result on a board, as the board scorer sees it.

    `ns` is NS's points (int) or a weighted score; `ew` is EW's own points when the score is
    split (None: the negation of `ns`). A side with an artificial code has no points.
    `group` names the version of a fouled board the table played (None: the only version).
    """

    ns: object = None
    ew: object = None
    ns_artificial: str | None = None
    ew_artificial: str | None = None
    group: object = None

    def entry(self, side):
        """The points of 'ns' or 'ew' (a score or weighted score), None if artificial."""
        if side == "ns":
            return None if self.ns_artificial else self.ns
        if self.ew_artificial:
            return None
        if self.ew is not None:
            return self.ew
        if self.ns is None:
            raise Refused("a line without NS points needs EW points or an artificial code",
                          ru="результату без очков NS нужны очки EW или искусственный счёт")
        return negate(self.ns)

    def artificial(self, side):
        return self.ns_artificial if side == "ns" else self.ew_artificial
