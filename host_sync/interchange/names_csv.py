"""Pair names and federation player numbers from a CSV file, as a scorer or Excel writes it.

Columns (a header row names them, in any order): section, pair, player1, player2, and
optionally number1, number2 and, in a teams event, team: the team's name, on one or both
of its pairs' lines (Russian headers work too: секция, пара, игрок1, игрок2, номер1, номер2,
команда). UTF-8 with or without a BOM, or Windows-1251 as Russian Excel saves "CSV"; fields
separated by commas, semicolons (Russian Excel) or tabs, whichever the header uses.
A pair is its number, or its label in the movement (a team's "3B").

Reading checks every line and reports every bad one with its line number; importing checks
each pair against the session's movement and stores everything in one transaction, or
nothing.
"""

import csv
import io
from collections import namedtuple
from pathlib import Path

from host_sync.errors import FileProblems, Refused, at
from host_sync.event import setup
from host_sync.interchange.fields import plain_number
from host_sync.movements.teams import team_of
from host_sync.text import CONTROL

REQUIRED = ("section", "pair", "player1", "player2")
OPTIONAL = ("number1", "number2", "team")
HEADER_ALIASES = {"секция": "section", "пара": "pair", "игрок1": "player1",
                  "игрок2": "player2", "номер1": "number1", "номер2": "number2",
                  "команда": "team"}
# Cyrillic capitals that look like the Latin section letters a Russian keyboard gives.
SECTION_LOOKALIKES = str.maketrans("АВСЕНКМОРТХ", "ABCEHKMOPTX")
MAX_NAME = 60

PairNames = namedtuple("PairNames", "line section pair players team")
PairNames.__doc__ = """One line of the file: section letter, pair (number or label text),
[(name, number or None), (name, number or None)] and its team's name ("" when not given)."""


class NamesError(FileProblems):
    """A names CSV file that cannot be imported."""


def decode(data):
    """The text of a CSV file: UTF-8 (BOM or not), else Windows-1251."""
    if b"\0" in data:
        raise Refused("binary data, not a CSV text file",
                      ru="двоичные данные, а не текстовый файл CSV")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1251")
    except UnicodeDecodeError:
        raise Refused("neither UTF-8 nor Windows-1251 text",
                      ru="текст не в UTF-8 и не в Windows-1251") from None


def _column(title):
    key = title.strip().lower().replace(" ", "").replace("_", "")
    return HEADER_ALIASES.get(key, key)


def read_names(path):
    """Every pair of the file as PairNames; NamesError listing every bad line."""
    where = str(path)
    try:
        text = decode(Path(path).read_bytes())
    except FileNotFoundError as e:
        raise NamesError([at(where, e.strerror, "нет такого файла")]) from None
    except (OSError, ValueError) as e:
        raise NamesError([at(where, e if isinstance(e, Refused) else
                             getattr(e, "strerror", None) or str(e))]) from None
    head = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=head.count)
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    problems, out = [], []
    try:
        header = [_column(c) for c in next(rows, [])]
    except csv.Error as e:
        raise NamesError([_unreadable("%s:1" % where, e)]) from None
    twice = sorted({c for c in header if c and header.count(c) > 1})
    if twice:
        raise NamesError([at("%s:1" % where, "the column %s is given twice" % c,
                             "столбец %s указан дважды" % c) for c in twice])
    missing = [c for c in REQUIRED if c not in header]
    unknown = [c for c in header if c and c not in REQUIRED + OPTIONAL]
    if missing or unknown:
        raise NamesError([at("%s:1" % where, "the header needs the columns %s (optional %s)%s%s"
                             % (", ".join(REQUIRED), ", ".join(OPTIONAL),
                                "; missing: " + ", ".join(missing) if missing else "",
                                "; unknown: " + ", ".join(unknown) if unknown else ""),
                             "в заголовке нужны столбцы %s (по желанию %s)%s%s" % (
                                 ", ".join(REQUIRED), ", ".join(OPTIONAL),
                                 "; нет: " + ", ".join(missing) if missing else "",
                                 "; неизвестные: " + ", ".join(unknown) if unknown else ""))])
    while True:
        try:
            row = next(rows)
        except StopIteration:
            break
        except csv.Error as e:
            problems.append(_unreadable("%s:%d" % (where, rows.line_num), e))
            break
        line = rows.line_num
        if not any(cell.strip() for cell in row):
            continue
        try:
            entry = _entry(line, header, row)
        except ValueError as e:
            problems.append(at("%s:%d" % (where, line), e))
            continue
        out.append(entry)
    if not out and not problems:
        problems.append(at(where, "no pairs in the file", "в файле нет пар"))
    if problems:
        raise NamesError(problems)
    return out


def _unreadable(where, e):
    """A line the csv module cannot read (its words are English: they name the fault)."""
    return at(where, str(e), "CSV не читается: %s" % e)


def _entry(line, header, row):
    if len(row) > len(header) and any(cell.strip() for cell in row[len(header):]):
        raise Refused("%d fields, the header has %d" % (len(row), len(header)),
                      ru="полей %d, а в заголовке %d" % (len(row), len(header)))
    cells = {name: row[i].strip() if i < len(row) else "" for i, name in enumerate(header)}
    section = cells["section"].upper().translate(SECTION_LOOKALIKES)
    if not (len(section) == 1 and section in setup.SECTION_LETTERS):
        raise Refused("the section is one letter A to Z, not %r" % cells["section"],
                      ru="секция — одна буква от A до Z, а не %r" % cells["section"])
    if not cells["pair"]:
        raise Refused("no pair number", ru="нет номера пары")
    players = []
    for i in (1, 2):
        name = cells["player%d" % i]
        if not name:
            raise Refused("no name for player %d" % i, ru="нет имени игрока %d" % i)
        players.append((_name(name, "player %d" % i, "игрока %d" % i),
                        _number(cells.get("number%d" % i, ""), i)))
    team = cells.get("team", "")
    return PairNames(line, section, cells["pair"], players,
                     team and _name(team, "the team", "команды"))


def _name(text, en, ru):
    """A player's or a team's name as it may be stored: short, on one line."""
    if len(text) > MAX_NAME:
        raise Refused("the name of %s is longer than %d characters" % (en, MAX_NAME),
                      ru="имя %s длиннее %d знаков" % (ru, MAX_NAME))
    if CONTROL.search(text):  # a line break in a name broke every PBN file after it
        raise Refused("the name of %s holds a line break or a control character" % en,
                      ru="в имени %s перевод строки или управляющий знак" % ru)
    return text


def _number(text, i):
    if not text:
        return None
    number = plain_number(text)
    if not (number and number <= setup.MAX_PLAYER_NUMBER):
        raise Refused("player %d's number must be a whole number from 1 to %d, not %r" % (
            i, setup.MAX_PLAYER_NUMBER, text), ru="номер игрока %d — целое число от 1 до %d, "
            "а не %r" % (i, setup.MAX_PLAYER_NUMBER, text))
    return number


def _pair_number(movement, text):
    """The pair a line names in this movement (its number or its label), or None."""
    number = plain_number(text)
    if number in movement.pairs:
        return number
    for pair in movement.pairs:
        if movement.label(pair).upper() == text.upper():
            return pair
    return None


def import_names(db, session_id, entries, source="", actor=setup.ACTOR):
    """Store the names and numbers of `entries` in the session, and the names of their
    teams, all or nothing; returns (pairs named, teams named). NamesError names every line
    whose section or pair the session does not have, and every team name that is not for a
    teams section or that another line of the team gives otherwise."""
    movements = setup.section_movements(db, session_id)
    problems, resolved, seen, teams = [], [], {}, {}
    for e in entries:
        movement = movements.get(e.section)
        if movement is None:
            problems.append(at("%s:%d" % (source, e.line), "the session has no section %s "
                               "(it has %s)" % (e.section, ", ".join(movements)),
                               "в сессии нет секции %s (есть %s)" % (e.section,
                                                                      ", ".join(movements))))
            continue
        pair = _pair_number(movement, e.pair)
        if pair is None:
            pairs = ", ".join(movement.label(p) for p in movement.pairs)
            problems.append(at("%s:%d" % (source, e.line), "section %s has no pair %s (its "
                               "pairs: %s)" % (e.section, e.pair, pairs),
                               "в секции %s нет пары %s (её пары: %s)" % (e.section, e.pair,
                                                                          pairs)))
            continue
        if (e.section, pair) in seen:
            problems.append(at("%s:%d" % (source, e.line), "section %s pair %s is already "
                               "named on line %d" % (e.section, e.pair, seen[e.section, pair]),
                               "секция %s, пара %s уже названа в строке %d" % (
                                   e.section, e.pair, seen[e.section, pair])))
            continue
        seen[e.section, pair] = e.line
        resolved.append((e.section, pair, e.players))
        if e.team:
            problem = _team_problem(movement, e, teams.get((e.section, team_of(pair))))
            if problem:
                problems.append(at("%s:%d" % (source, e.line), *problem))
            teams.setdefault((e.section, team_of(pair)), (e.team, e.line))
    if problems:
        raise NamesError(problems)
    with db.transaction():
        sections = {}
        for letter, pair, players in resolved:
            if letter not in sections:
                sections[letter] = setup.section_id(db, session_id, letter)
            setup.set_players(db, sections[letter], pair, players, actor)
        for (letter, team), (name, _) in teams.items():
            setup.set_team_name(db, sections[letter], team, name, actor)
    return len(resolved), len(teams)


def _team_problem(movement, entry, named):
    """(English, Russian) of what is wrong with a line's team name, given `named`, the
    (name, line) another line gave its team; None when nothing is."""
    if movement.kind != "teams":
        return ("section %s is not played by teams: a team name is for a teams movement"
                % entry.section, "в секции %s играют не команды: название команды только для "
                "командного турнира" % entry.section)
    if named and named[0] != entry.team:
        return ("the team is named %r on line %d and %r here" % (named[0], named[1],
                                                                  entry.team),
                "команда названа %r в строке %d и %r здесь" % (named[0], named[1], entry.team))
    return None
