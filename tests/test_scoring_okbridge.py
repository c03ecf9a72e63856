"""Every ScoreTable row of the OKbridge files reproduced by host_sync.scoring.

The MP files print each result's percentage and the IMP files its cross-IMPs (average IMPs
against every other result). How OKbridge printed them, found by reproducing all 792 MP rows
and 15,897 IMP rows:

* MP_NS: a score that nobody else got is printed to 0.01; a score shared by several tables
  is rounded to 0.1 (so 87.38 prints as 87.40); rounding is C's "%.2f"/"%.1f" on a double.
* IMP_NS: "%.2f" of the average; where the exact value ends in 5 at the third decimal
  (e.g. -6.525) OKbridge's double arithmetic went either way, so either neighbour is right.
* Eight rows lost the last character of two columns (the IMP is printed with one decimal):
  their real score is ten times the printed Score_NS (-550 printed "-55") and the IMP value
  is cut, not rounded, to one decimal. Every other row of their boards confirms the real
  score: with it, all of them are reproduced.
* imp_03 board 201 has the same fault without the telltale decimal: its "3S N 8 -50" row
  counted as -500 for every other row (and is printed with the -50 group's value).
* imp_05 board 699 cannot be reproduced: no single changed score, added result or other
  divisor makes its 16 rows agree (checked by search); it is named here, not skipped.
"""

from decimal import ROUND_DOWN, Decimal
from fractions import Fraction

import pytest

from host_sync.interchange.pbn.read import read_file
from host_sync.interchange.pbn.tables import Table
from host_sync.scoring.imps import cross_imps
from host_sync.scoring.matchpoints import matchpoints, percentage

OKBRIDGE = "okbridge-scoretables"
LOST_DIGIT_ROWS = {("imp_03.pbn", "201", "39")}  # (file, board, rank): real score x10
UNEXPLAINED_BOARDS = {("imp_05.pbn", "699")}


def _games(corpus):
    for path in sorted((corpus / OKBRIDGE).glob("*.pbn")):
        for game in read_file(path):
            yield path.name, game


def _as_decimal(value):
    return Decimal(value.numerator) / Decimal(value.denominator)


def okbridge_mp_text(value, shared):
    """How OKbridge printed a percentage (see the module docstring)."""
    as_float = float(value)
    return "%.1f0" % as_float if shared else "%.2f" % as_float


def okbridge_imp_matches(value, printed, cut):
    exact = _as_decimal(value)
    if cut:
        return str(exact.quantize(Decimal("0.1"), rounding=ROUND_DOWN)) == printed
    if "%.2f" % float(value) == printed:
        return True
    scaled = Fraction(value) * 100
    return scaled.denominator == 2 and abs(Fraction(printed) - Fraction(value)) == Fraction(1, 200)


def _expand(table, value_column):
    """[(row, real NS score, cut)] one per result: rows repeated by their Multiplicity."""
    out = []
    for row in table.dicts():
        cut = len(row[value_column].split(".")[-1]) == 1
        score = int(row["Score_NS"]) * (10 if cut else 1)
        out += [(row, score, cut)] * int(row["Multiplicity"])
    return out


def test_matchpoint_percentages_reproduced(corpus):
    checked = 0
    for name, game in _games(corpus):
        table = Table.from_game(game, "ScoreTable")
        if "MP_NS" not in table.names():
            continue
        results = _expand(table, "MP_NS")
        scores = [score for _, score, _ in results]
        mps = matchpoints(scores)
        seen = set()
        for (row, score, _), mp in zip(results, mps):
            if id(row) in seen:
                continue
            seen.add(id(row))
            shared = scores.count(score) > 1
            text = okbridge_mp_text(percentage(mp, len(scores)), shared)
            assert text == row["MP_NS"], (name, game.tags["Board"], row)
            checked += 1
    assert checked == 792


def test_cross_imps_reproduced(corpus):
    checked = unexplained = 0
    for name, game in _games(corpus):
        table = Table.from_game(game, "ScoreTable")
        if "IMP_NS" not in table.names():
            continue
        board = game.tags["Board"]
        results = _expand(table, "IMP_NS")
        scores = [10 * s if (name, board, row["Rank"]) in LOST_DIGIT_ROWS else s
                  for row, s, _ in results]
        values = cross_imps(scores)
        seen = set()
        for (row, _, cut), value in zip(results, values):
            if id(row) in seen or (name, board, row["Rank"]) in LOST_DIGIT_ROWS:
                continue
            seen.add(id(row))
            ok = okbridge_imp_matches(value, row["IMP_NS"], cut)
            if (name, board) in UNEXPLAINED_BOARDS:
                unexplained += not ok
                continue
            assert ok, (name, board, row, float(value))
            checked += 1
    assert checked == 15_890  # all rows but board 201's faulty row and board 699
    assert unexplained == 16  # every row of board 699 is off: the table is inconsistent


@pytest.mark.parametrize("tag, column", [("ScoreMP", "MP_NS"), ("ScoreIMP", "IMP_NS")])
def test_game_tag_reproduced(corpus, tag, column):
    """Each game's own ScoreMP / ScoreIMP tag ("EW -x" is NS x) is its score's value.

    The tag keeps the digits the table lost: board 275's tag is "NS 21.85" for the row
    printed "320  21.8", whose Score tag is the real "NS 3200".
    """
    checked = 0
    for name, game in _games(corpus):
        if tag not in game.tags or (name, game.tags["Board"]) in UNEXPLAINED_BOARDS:
            continue
        results = _expand(Table.from_game(game, "ScoreTable"), column)
        scores = [10 * s if (name, game.tags["Board"], row["Rank"]) in LOST_DIGIT_ROWS else s
                  for row, s, _ in results]
        own_side, own_score = game.tags["Score"].split()
        own = int(own_score) if own_side == "NS" else -int(own_score)
        side, printed = game.tags[tag].split()
        printed = printed if side == "NS" else str(-Decimal(printed))
        index = scores.index(own)
        if column == "MP_NS":
            value = percentage(matchpoints(scores)[index], len(scores))
            assert okbridge_mp_text(value, scores.count(own) > 1) == printed, game.tags
        else:
            assert okbridge_imp_matches(cross_imps(scores)[index], printed, False), game.tags
        checked += 1
    assert checked == (26 if tag == "ScoreMP" else 576)
