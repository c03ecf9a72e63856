"""PBN supplemental tables (PBN 2.1 chapter 5.2): ScoreTable, TotalScoreTable and the like.

The tag value describes the columns ("Rank\\3R;Contract\\5L;..."): a name, an optional '+' or
'-' order mark before it, and an optional minimum width with L/R alignment after a backslash.
Rows are the section elements in order, as many per row as there are columns. Elements are
section tokens or quoted strings (names); '?' is unknown, '-' irrelevant, '^' marks an
artificial score.
"""

import re
from dataclasses import dataclass, field

from host_sync.errors import Refused
from host_sync.text import CONTROL

# A width is up to 3 ASCII digits: \d takes "٣", and a width of a billion padded each cell to
# a gigabyte when the table was written back (rescore).
_COLUMN = re.compile(r"([+-]?)([^\\;+-][^\\;]*)(?:\\([0-9]{1,3})([LR]?))?$")
_ELEMENT = re.compile(r'"((?:\\.|[^"\\])*)"|(\S+)')
_STRING_COLUMNS = ("Names", "Names_NS", "Names_EW")


def pbn_string(value):
    """A PBN string token (a tag's value, a table's name cell): one line, so a control
    character (a line break kept in a name by an older import) becomes a space, where it
    ended the string and the file with it; backslash and quote escaped."""
    text = CONTROL.sub(" ", str(value))
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


@dataclass
class Column:
    name: str
    width: int = 0
    align: str = ""  # "L", "R" or "" (none given)
    order: str = ""  # "+" descending, "-" ascending, "" none

    @classmethod
    def parse(cls, text):
        match = _COLUMN.match(text.strip())
        if match is None:
            raise Refused("table column %r is not name[\\width[L|R]]" % text,
                          ru="столбец таблицы %r не в виде имя[\\ширина[L|R]]" % text)
        order, name, width, align = match.groups()
        return cls(name, int(width or 0), align or "", order)

    def spec(self):
        text = self.order + self.name
        if self.width:
            text += "\\%d%s" % (self.width, self.align)
        return text

    def cell(self, value):
        """One element in export form: quoted when a string column, padded to the width."""
        text = value
        if self.name in _STRING_COLUMNS or not value or re.search(r"\s", value):
            text = pbn_string(value)
        if len(text) < self.width:
            text = text.ljust(self.width) if self.align == "L" else text.rjust(self.width)
        return text


@dataclass
class Table:
    columns: list
    rows: list = field(default_factory=list)  # each a list of element texts (unquoted)

    @classmethod
    def parse(cls, value, lines):
        """A table from its tag value and raw data lines (as `pbn.Game.sections` holds them)."""
        columns = [Column.parse(part) for part in value.split(";") if part.strip()]
        if not columns:
            raise Refused("table has no columns", ru="у таблицы нет столбцов")
        elements = []
        for line in lines:
            for quoted, token in _ELEMENT.findall(line):
                elements.append(re.sub(r'\\([\\"])', r"\1", quoted) if not token else token)
        if len(elements) % len(columns):
            raise Refused("table has %d elements, not a multiple of its %d columns" % (
                len(elements), len(columns)), ru="в таблице %d элементов, а это не кратно "
                "числу её столбцов (%d)" % (len(elements), len(columns)))
        width = len(columns)
        return cls(columns, [elements[i:i + width] for i in range(0, len(elements), width)])

    @classmethod
    def from_game(cls, game, name):
        """The table `name` of a game, or None when the game has none."""
        if name not in game.sections:
            return None
        return cls.parse(*game.sections[name])

    def names(self):
        return [c.name for c in self.columns]

    def dicts(self):
        return [dict(zip(self.names(), row)) for row in self.rows]

    def value(self):
        return ";".join(c.spec() for c in self.columns)

    def lines(self):
        """Export form: one row per line, elements padded to their column widths."""
        return [" ".join(c.cell(v) for c, v in zip(self.columns, row)).rstrip()
                for row in self.rows]

    def column(self, name):
        return self.names().index(name)

    def set_column(self, name, values, width=0, align="R"):
        """Replace (or append) a column's values, one per row."""
        if name in self.names():
            index = self.column(name)
        else:
            self.columns.append(Column(name, width, align if width else ""))
            index = len(self.columns) - 1
            for row in self.rows:
                row.append("")
        for row, value in zip(self.rows, values):
            row[index] = value
