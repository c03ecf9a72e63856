"""Recompute the ScoreTables of a PBN results file and write it back (`host-sync rescore`).

Every game with a ScoreTable is scored again from its Score_NS (or Score_EW) column,
each row counted Multiplicity times: matchpoints (MP_NS/MP_EW on the 2/1 scale and
Percentage_NS/EW), cross-IMPs or Butler IMPs (IMP_NS/IMP_EW). A row whose score is not a
number ('-', '?', an artificial '^...') keeps its values and takes no part. The game's own
ScoreMP / ScorePercentage / ScoreIMP tag is set from its Score tag, and when the tables name
the pairs (PairId_NS, PairId_EW) a TotalScoreTable is added to the last game.
"""

from fractions import Fraction

from host_sync.errors import Both, Refused, at
from host_sync.interchange.fields import file_number, plain_number
from host_sync.interchange.files import write_whole
from host_sync.interchange.pbn.check import parse_side_value
from host_sync.interchange.pbn.read import PbnError, read_file
from host_sync.interchange.pbn.tables import Table
from host_sync.interchange.pbn.write import export_text
from host_sync.scoring import imps as imp_scoring
from host_sync.scoring import matchpoints as mp_scoring
from host_sync.scoring.ranking import rank
from host_sync.text import number_text

METHODS = ("mp", "cross-imps", "butler")


MAX_DIGITS = 5  # of a table's score: no bridge score has more


def _row_score(row):
    """The NS score of a table row, or None when it is not a plain number."""
    for name, sign in (("Score_NS", 1), ("Score_EW", -1)):
        score = plain_number(row.get(name, ""), signed=True, digits=MAX_DIGITS)
        if score is not None:
            return sign * score
    return None


class TotalScores:
    """Running totals per pair over the games of a file, for the TotalScoreTable."""

    def __init__(self, method):
        self.method = method
        self.totals = {}  # pair -> [total, maximum, boards]

    def add(self, pair, value, maximum):
        entry = self.totals.setdefault(pair, [0, 0, 0])
        entry[0] += value
        entry[1] += maximum
        entry[2] += 1

    def table(self):
        pairs = sorted(self.totals)
        if self.method == "mp":
            columns = "Rank\\4R;PairId\\6R;TotalMP\\8R;TotalPercentage\\6R;NrBoards\\3R"
            keys = [Fraction(100) * t / m if m else 50 for t, m, _ in (
                self.totals[p] for p in pairs)]
        else:
            columns = "Rank\\4R;PairId\\6R;TotalIMP\\8R;NrBoards\\3R"
            keys = [self.totals[p][0] for p in pairs]
        places = rank(keys)
        table = Table.parse(columns, [])
        for pair, key, place in sorted(zip(pairs, keys, places), key=lambda x: (x[2], x[0])):
            total, _, boards = self.totals[pair]
            row = [str(place), pair, number_text(total)]
            if self.method == "mp":
                row.append(number_text(key))
            row.append(str(boards))
            table.rows.append(row)
        return table


def _row(game, index):
    """Where a ScoreTable row is, in both languages."""
    game_no, board = game.index + 1, game.tags.get("Board", "?")
    return Both("game %d, board %s, row %d" % (game_no, board, index + 1),
                "игра %d, сдача %s, строка %d" % (game_no, board, index + 1))


def _multiplicity(game, index, row):
    """How many tables a ScoreTable row stands for: a whole number from 1 (1 when blank)."""
    text = row.get("Multiplicity") or ""
    if text.strip() in ("", "-"):
        return 1
    where = _row(game, index)
    count = file_number(text, "Multiplicity", where, digits=3)
    if count < 1:
        raise at(where, "Multiplicity %r is not a number of tables (1 to 999)" % text,
                 "Multiplicity %r — не число столов (от 1 до 999)" % text)
    return count


def rescore_game(game, method, trim, totals):
    """Recompute the game's ScoreTable in place; returns False when it has none."""
    table = Table.from_game(game, "ScoreTable")
    if table is None:
        return False
    rows = table.dicts()
    scores = [_row_score(r) for r in rows]
    counts = [_multiplicity(game, i, r) for i, r in enumerate(rows)]
    for i, r in enumerate(rows):
        if r.get("PairId_NS") not in (None, "", "-") and r.get("PairId_NS") == r.get("PairId_EW"):
            raise at(_row(game, i), "pair %s is both NS and EW; a pair cannot play against "
                     "itself" % r["PairId_NS"], "пара %s и NS, и EW: пара не может играть "
                     "сама с собой" % r["PairId_NS"])
    played = [i for i, s in enumerate(scores) if s is not None]
    expanded = [scores[i] for i in played for _ in range(counts[i])]
    values = _values(expanded, method, trim)
    per_score = dict(zip(expanded, values))  # equal scores get equal values
    if method == "mp":
        top = mp_scoring.top(len(expanded))
        ns = {i: per_score[scores[i]] for i in played}
        _set(table, rows, "MP_NS", ns, lambda v: number_text(v))
        _set(table, rows, "MP_EW", ns, lambda v: number_text(top - v))
        _set(table, rows, "Percentage_NS", ns, lambda v: number_text(mp_scoring.percentage(
            v, len(expanded))))
        _set(table, rows, "Percentage_EW", ns, lambda v: number_text(mp_scoring.percentage(
            top - v, len(expanded))))
    else:
        ns = {i: per_score[scores[i]] for i in played}
        _set(table, rows, "IMP_NS", ns, number_text)
        _set(table, rows, "IMP_EW", ns, lambda v: number_text(-v))
    game.sections["ScoreTable"] = (table.value(), table.lines())
    _own_tag(game, method, per_score, len(expanded))
    if {"PairId_NS", "PairId_EW"} <= set(table.names()):
        maximum = mp_scoring.top(len(expanded)) if method == "mp" else 0
        for i in played:
            value = per_score[scores[i]]
            totals.add(rows[i]["PairId_NS"], value, maximum)
            totals.add(rows[i]["PairId_EW"], (maximum - value) if method == "mp" else -value,
                       maximum)
    return True


def _values(scores, method, trim):
    if not scores:
        return []
    if method == "mp":
        return mp_scoring.matchpoints(scores)
    if method == "cross-imps":
        return imp_scoring.cross_imps(scores)
    if trim is None:
        trim = imp_scoring.scaled_trim(len(scores))
    return imp_scoring.butler(scores, trim)[1]


def _set(table, rows, column, values, fmt):
    old = table.column(column) if column in table.names() else None
    texts = [fmt(values[i]) if i in values else (table.rows[i][old] if old is not None else "-")
             for i in range(len(rows))]
    table.set_column(column, texts, width=6)


def _own_tag(game, method, per_score, count):
    text = game.tags.get("Score", "").strip()
    if not text:
        return
    declarer = game.tags.get("Declarer", "").strip().lstrip("^")
    try:
        seat = "NESW".index(declarer) if declarer else None
        own = parse_side_value(text, seat)
    except ValueError:
        return
    if own not in per_score:
        return
    value = per_score[own]
    if method == "mp":
        game.tags["ScoreMP"] = "NS %s" % number_text(value)
        game.tags["ScorePercentage"] = "NS %s" % number_text(mp_scoring.percentage(value, count))
    else:
        game.tags["ScoreIMP"] = "NS %s" % number_text(value)


def rescore_file(source, target, method="mp", trim=None):
    """Rescore every game of `source` and write the file to `target`; returns (games, tables)."""
    if method not in METHODS:
        raise Refused("method %r: expected one of %s" % (method, ", ".join(METHODS)),
                      ru="способ подсчёта %r: ожидался один из %s" % (method, ", ".join(METHODS)))
    games = list(read_file(source))
    broken = [g for g in games if g.error]
    if broken:  # the reader's own words are English (pbn.read)
        raise PbnError(broken[0].error, ru="игра PBN не прочитана: %s" % broken[0].error)
    totals = TotalScores(method)
    tables = sum(rescore_game(g, method, trim, totals) for g in games)
    if totals.totals and games:
        table = totals.table()
        games[-1].sections["TotalScoreTable"] = (table.value(), table.lines())
    write_whole(target, export_text(games))
    return len(games), tables
