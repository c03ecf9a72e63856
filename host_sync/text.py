"""How numbers and names read for people, in every room that prints them (files, reports, the
console): a score to two places, a list of boards as ranges, and which characters no name on
one line may hold."""

import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

# Control characters (line breaks, NUL, escapes): no name or tag holds one. A no-break space is
# text, as an exported spreadsheet gives it (str.isprintable() says it is not).
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def number_text(value, places=2, whole=True):
    """A score for a table: an integer when whole (unless whole=False: a column of
    percentages), else rounded half up to `places`."""
    value = Fraction(value)
    if whole and value.denominator == 1:
        return str(value.numerator)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return str(exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def vp_text(vp):
    """VPs as the scale gives them, always with their two decimals (12.00, 7.45)."""
    return number_text(vp, whole=False)


def ranges(numbers):
    """'1-4, 7, 9-12' for a collection of board numbers ('' when empty)."""
    out, run = [], []
    for n in sorted(numbers):
        if run and n == run[-1] + 1:
            run.append(n)
            continue
        if run:
            out.append(_run(run))
        run = [n]
    if run:
        out.append(_run(run))
    return ", ".join(out)


def _run(run):
    return "%d-%d" % (run[0], run[-1]) if len(run) > 1 else str(run[0])
