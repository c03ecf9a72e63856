"""Reader for PBN 2.1 files in import format (standard library only).

The standard is "Portable Bridge Notation 2.1" (beside a team checkout:
../shared/ref/pbn_v21.txt); section numbers below refer to it.  Reading happens in two stages:

* ``_Lexer`` turns the whole text into tokens (tag pairs, comments, data
  chunks, game breaks).  It has to run over the whole file, not game by game,
  because a brace comment may hold the semi-empty lines that otherwise
  separate games (3, 3.8).
* ``_GameBuilder`` assembles one game from its tokens: tags, the auction and
  play sections (3.5, 3.6), supplemental sections (5) and comments;
  ``_Inheritance`` carries the "#" / "##" tag values from game to game (4.8).

Real files depart from the standard in a few known ways, and each is read
with a warning rather than lost: a tag the game already has starts the next
game (3.4 says it is ignored, but vugraph software wrote games with no blank
line between them), an unquoted tag value (``[Datum 2000.01.01]``) is taken
up to its ']', and a suit letter with no rank in a play section is the
unknown card '-'.

Malformed content never raises: the game gets an ``error`` text and reading
goes on with the next game.  Only ``read_file`` raises, for a file that
cannot be read as PBN at all.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, NamedTuple

from host_sync.errors import Refused

__all__ = ["PbnError", "Game", "parse_text", "read_file", "iter_pbn_files"]


class PbnError(Refused):
    """A malformed file or game; message says where (file, line) and what."""


@dataclass
class Game:
    """One game of a PBN file, as read (import format), after # / ## inheritance.

    ``card_notes`` and ``card_nags`` are parallel to ``plays`` the way
    ``call_notes`` and ``call_nags`` are parallel to ``calls``; play suffixes
    become NAG 7..12 (3.7).
    """

    index: int  # 0-based position of the game in its file
    line: int  # 1-based line of the game's first tag
    tags: dict = field(default_factory=dict)  # name -> value; no Note tags
    tag_order: list = field(default_factory=list)  # names in order of first appearance
    auction_first: str | None = None  # Auction tag value; None without auction section
    calls: list = field(default_factory=list)  # 'Pass', 'X', 'XX', '1C'..'9NT', 'AP', '-'
    call_notes: list = field(default_factory=list)  # per call: note index or None
    call_nags: list = field(default_factory=list)  # per call: NAG ints (suffixes as 1..6)
    auction_irregularities: list = field(default_factory=list)  # (calls before it, '^I'...)
    auction_end: str | None = None  # '*', '+' or None
    auction_notes: dict = field(default_factory=dict)  # note index -> text
    play_first: str | None = None  # Play tag value; None without play section
    plays: list = field(default_factory=list)  # 'SA', 'HT', ... or '-'
    card_notes: list = field(default_factory=list)  # per card: note index or None
    card_nags: list = field(default_factory=list)  # per card: NAG ints (suffixes as 7..12)
    play_notes: dict = field(default_factory=dict)  # note index -> text
    play_end: str | None = None  # '*', '+' or None
    play_irregularities: list = field(default_factory=list)  # (cards before it, '^R'...)
    sections: dict = field(default_factory=dict)  # tag name -> (value, raw data lines)
    comments: list = field(default_factory=list)  # comment texts without delimiters
    error: str | None = None  # first problem found, as "source:line: what"
    warnings: list = field(default_factory=list)  # departures from the standard read anyway


# --------------------------------------------------------------------------
# Lexer

class _Token(NamedTuple):
    kind: str  # "tag", "bad_tag", "comment", "data", "error", "break"
    line: int  # 1-based line where the token starts
    text: str = ""  # tag name, comment text, data text or error message
    value: str = ""  # tag value
    warning: str = ""  # a tag read although it departs from the standard (unquoted value)


_LINE_END = re.compile(r"\r\n|\r|\n")
_SPACE = re.compile(r"\s*")
_NAME = re.compile(r"[A-Za-z0-9_]+")
_STRING = re.compile(r'"((?:\\.|[^"\\])*)"')
_STRING_ESCAPE = re.compile(r'\\([\\"])')
# An unquoted tag value as old files write it ('[Datum 2000.01.01]'): up to the ']'.
_BARE_VALUE = re.compile(r'[^\]\["{};]*')
# Data runs until a tag, a comment or the end of the line; a quoted string
# (section element, 5.1) may hold any of those characters.
_DATA = re.compile(r'(?:[^\[{;"]|"(?:\\.|[^"\\])*")+')


def _is_semi_empty(line: str) -> bool:
    """Only spaces and tabs (3): such a line separates games."""
    return line.strip(" \t\v\f") == ""


def _is_escape(line: str) -> bool:
    """A '%' in the first column makes the line ignored (2.4)."""
    return line.startswith("%")


class _Lexer:
    """Cursor over the lines of a file that yields ``_Token``s."""

    def __init__(self, text: str):
        self.lines = _LINE_END.split(text)
        self.row = 0
        self.col = 0
        # Past this row no '}' can close a brace comment; saves rescanning
        # to the end of the file for every unclosed '{'.
        self.last_brace_row = max(
            (row for row, line in enumerate(self.lines) if "}" in line), default=-1)

    def tokens(self) -> Iterator[_Token]:
        while self.row < len(self.lines):
            line = self.lines[self.row]
            if self.col == 0 and _is_escape(line):
                self._next_line()
            elif self.col == 0 and _is_semi_empty(line):
                yield _Token("break", self.row + 1)
                self._next_line()
            else:
                token = self._scan(line)
                if token is not None:
                    yield token

    def _next_line(self) -> None:
        self.row += 1
        self.col = 0

    def _scan(self, line: str) -> _Token | None:
        """Read the token at the cursor; None at the end of the line."""
        start = self.col
        self.col = _SPACE.match(line, self.col).end()
        if self.col >= len(line):
            self._next_line()
            return None
        char = line[self.col]
        if char == "{":
            return self._brace_comment()
        if char == ";":
            token = _Token("comment", self.row + 1, line[self.col + 1:])
            self._next_line()
            return token
        if char == "[":
            return self._tag()
        return self._data(line, start)

    def _brace_comment(self) -> _Token:
        """A comment up to the next '}', across lines (3.8)."""
        first_row, col = self.row, self.col + 1
        parts = []
        for row in range(first_row, self.last_brace_row + 1):
            line = self.lines[row]
            end = line.find("}", col)
            if end >= 0:
                parts.append(line[col:end])
                self.row, self.col = row, end + 1
                return _Token("comment", first_row + 1, "\n".join(parts))
            parts.append(line[col:])
            col = 0
        # No '}' until the end of the file: end the comment at the next
        # semi-empty line so the following games can still be read.
        self._next_line()
        while self.row < len(self.lines) and not _is_semi_empty(self.lines[self.row]):
            self._next_line()
        return _Token("error", first_row + 1, "unterminated brace comment '{'")

    def _tag(self) -> _Token:
        """A tag pair '[' name "value" ']'; it may span lines (3.3)."""
        first = self.row + 1
        self.col += 1
        if not self._skip_tag_space():
            return self._bad_tag(first, "unterminated tag pair: tag name expected after '['")
        name = _NAME.match(self.lines[self.row], self.col)
        if name is None:
            return self._bad_tag(first, "tag name expected after '['")
        self.col = name.end()
        name = name.group()
        if not self._skip_tag_space():
            return self._bad_tag(first, f"tag {name}: quoted value expected after the name")
        if self.lines[self.row][self.col] != '"':
            return self._bare_tag(first, name)
        value = _STRING.match(self.lines[self.row], self.col)
        if value is None:
            return self._bad_tag(first, f"tag {name}: unterminated string")
        self.col = value.end()
        if not self._skip_tag_space() or self.lines[self.row][self.col] != "]":
            return self._bad_tag(first, f"tag {name}: ']' expected after the value")
        self.col += 1
        return _Token("tag", first, name, _STRING_ESCAPE.sub(r"\1", value.group(1)))

    def _bare_tag(self, first: int, name: str) -> _Token:
        """A value without quotes, closed by ']' on the same line: read, with a warning
        (files of the 1990s write '[Datum 2000.01.01]'); anything else is a bad tag."""
        line = self.lines[self.row]
        value = _BARE_VALUE.match(line, self.col)
        end = value.end()
        if end >= len(line) or line[end] != "]" or not value.group().strip():
            return self._bad_tag(first, f"tag {name}: quoted value expected after the name")
        self.col = end + 1
        text = value.group().strip()
        return _Token("tag", first, name, text,
                      f"tag {name}: value {text!r} is not quoted; read as it stands")

    def _skip_tag_space(self) -> bool:
        """Skip white space inside a tag pair; False if the game ends first."""
        while True:
            self.col = _SPACE.match(self.lines[self.row], self.col).end()
            if self.col < len(self.lines[self.row]):
                return True
            following = self.row + 1
            if (following >= len(self.lines) or _is_semi_empty(self.lines[following])
                    or _is_escape(self.lines[following])):
                return False
            self.row, self.col = following, 0

    def _bad_tag(self, first: int, message: str) -> _Token:
        """Report a broken tag pair and resume at the next line."""
        where = self.row + 1
        self._next_line()
        if where != first:
            message += f" (tag pair begins at line {first})"
        return _Token("bad_tag", where, message)

    def _data(self, line: str, start: int) -> _Token:
        """Text that is neither tag nor comment; keeps its leading spaces."""
        match = _DATA.match(line, self.col)
        if match is None:  # a '"' that is never closed on this line
            token = _Token("error", self.row + 1, "unterminated string")
            self._next_line()
            return token
        self.col = match.end()
        return _Token("data", self.row + 1, line[start:self.col].rstrip())


# --------------------------------------------------------------------------
# Inheritance (4.8)

_NO_INHERITANCE = frozenset(
    {"Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction", "Play", "Note"})


class _Inheritance:
    """Tag values carried from game to game within one file."""

    def __init__(self):
        self.previous: dict[str, str] = {}  # value in the latest game having the tag
        self.sticky: dict[str, str] = {}  # "##" values, for all later games

    def resolve(self, name: str, value: str) -> tuple[str, str | None]:
        """Return the tag's real value and an error message (or None)."""
        problem = None
        if value.startswith("#") and name in _NO_INHERITANCE:
            # Old files do this (e.g. Deal "#" for the other room); the value
            # is still inherited so a lenient caller can use it.
            problem = f"tag {name} may not use '#' inheritance (value {value!r})"
        if value.startswith("##"):
            self.sticky[name] = value[2:]
            return value[2:], problem
        if value == "#":
            return self.previous.get(name, ""), problem
        if name in self.sticky:  # a "##" tag redefined mid-file keeps applying
            self.sticky[name] = value
        return value, problem

    def finish(self, game: Game) -> None:
        """Give the game the "##" tags it omits, then remember its values."""
        for name, value in self.sticky.items():
            if name not in game.tags:
                game.tags[name] = value
                game.tag_order.append(name)
        self.previous.update(game.tags)


# --------------------------------------------------------------------------
# Auction and play sections (3.5, 3.6)

_CALL = re.compile(r"[1-9](?:[CDHS]|NT)|X|XX|AP|-")
_CARD = re.compile(r"[SHDC][AKQJT2-9]|-")
# a note reference or NAG of up to 9 digits (a longer one is an unknown token: int() of
# thousands of digits raised instead of the reader's message)
_MOVE_TOKEN = re.compile(r"=[0-9]{1,9}=|\$[0-9]{1,9}|[!?]{1,2}|\^.?|[*+]|[A-Za-z0-9-]+|\S")
_SUFFIX_NAG = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
_NOTE_VALUE = re.compile(r"\s*([0-9]{1,9})\s*:(.*)", re.DOTALL)  # ASCII digits, int() bounded


def _normalise_call(token: str) -> str | None:
    upper = token.upper()
    if upper == "PASS":
        return "Pass"
    return upper if _CALL.fullmatch(upper) else None


def _normalise_card(token: str) -> str | None:
    upper = token.upper()
    return upper if _CARD.fullmatch(upper) else None


class _Moves:
    """The calls or cards of one section with their annotations (3.5.2)."""

    def __init__(self, kind: str, normalise: Callable[[str], str | None], nag_offset: int):
        self.kind = kind  # "call" or "card", for messages
        self.normalise = normalise
        self.nag_offset = nag_offset  # suffix "!" is NAG 1 for calls, 7 for cards
        self.items: list[str] = []
        self.notes: list[int | None] = []
        self.nags: list[list[int]] = []
        self.has_suffix: list[bool] = []
        self.irregularities: list[tuple[int, str]] = []
        self.end: str | None = None
        self.note_texts: dict[int, str] = {}
        self.warnings: list[str] = []  # departures read anyway, taken by the game builder

    def feed(self, text: str) -> str | None:
        """Read one data chunk; return the first problem found, if any."""
        problem = None
        for token in _MOVE_TOKEN.findall(text):
            found = self._token(token)
            problem = problem or found
        return problem

    def _token(self, token: str) -> str | None:
        if token[0] in "=$!?":
            return self._annotation(token)
        if token in ("*", "+"):
            return self._end_marker(token)
        if token in ("^I", "^S", "^R", "^L"):
            self.irregularities.append((len(self.items), token))
            return self._after_end(token)
        move = self.normalise(token)
        if move is None and self.kind == "card" and token.upper() in ("S", "H", "D", "C"):
            # a suit without its rank (old vugraph files): the card is unknown, which is
            # what '-' says (3.6: "A dash '-' is used for each card that is unknown")
            self.warnings.append(f"card {token!r} has no rank; read as '-' (unknown card)")
            move = "-"
        if move is None:
            return f"unknown {self.kind} token {token!r}"
        self.items.append(move)
        self.notes.append(None)
        self.nags.append([])
        self.has_suffix.append(False)
        return self._after_end(token)

    def _end_marker(self, token: str) -> str | None:
        problem = self._after_end(token)
        self.end = token
        return problem

    def _after_end(self, token: str) -> str | None:
        if self.end == "*":
            return f"{token!r} after the end marker '*'"
        return None

    def _annotation(self, token: str) -> str | None:
        if token in ("=", "$"):
            return f"unknown {self.kind} token {token!r}"
        if not self.items:
            return f"annotation {token!r} before any {self.kind}"
        if token[0] == "=":
            if self.notes[-1] is not None:
                return f"second note reference {token!r} on {self.items[-1]!r}"
            self.notes[-1] = int(token[1:-1])
        elif token[0] == "$":
            self.nags[-1].append(int(token[1:]))
        else:
            if self.has_suffix[-1]:
                return f"second suffix {token!r} on {self.items[-1]!r}"
            self.has_suffix[-1] = True
            self.nags[-1].append(self.nag_offset + _SUFFIX_NAG[token])
        return None

    def add_note(self, value: str) -> str | None:
        """A [Note "n:text"] tag explaining reference =n= (3.5.5)."""
        match = _NOTE_VALUE.fullmatch(value)
        if match is None:
            return f"Note value {value!r} is not 'index:text'"
        index = int(match.group(1))
        if index in self.note_texts:
            return f"second Note for index {index}"
        self.note_texts[index] = match.group(2)
        return None


# --------------------------------------------------------------------------
# Game assembly

class _GameBuilder:
    """Collects the tokens of one game (between semi-empty lines, or up to a repeated tag)."""

    def __init__(self, index: int, source: str, inheritance: _Inheritance):
        self.game = Game(index=index, line=0)
        self.source = source
        self.inheritance = inheritance
        self.started = False  # a game begins at its first tag (3)
        self.section: str | None = None  # tag whose data is being read
        self.moves: _Moves | None = None  # open auction or play section
        self.auction: _Moves | None = None
        self.play: _Moves | None = None
        self.section_value = ""
        self.section_lines: dict[int, str] = {}

    def fail(self, line: int, message: str) -> None:
        if self.game.error is None:
            self.game.error = f"{self.source}:{line}: {message}"

    def warn(self, line: int, message: str) -> None:
        self.game.warnings.append(f"{self.source}:{line}: {message}")

    def repeats(self, token: _Token) -> bool:
        """Whether token is a tag this game already has (Note tags may repeat, 3.5.5)."""
        return token.kind == "tag" and token.text != "Note" and token.text in self.game.tags

    def add(self, token: _Token) -> None:
        if token.kind in ("tag", "bad_tag") and not self.started:
            self.started = True
            self.game.line = token.line
        if token.kind == "tag":
            if token.warning:
                self.warn(token.line, token.warning)
            self._tag(token)
        elif token.kind == "data":
            self._data(token)
        elif token.kind == "comment":
            self.game.comments.append(token.text)
        else:
            self.fail(token.line, token.text)

    def _tag(self, token: _Token) -> None:
        name, raw = token.text, token.value
        if name == "Note":
            self._note(token)
            return
        self._close_section()
        self.section, self.moves = name, None
        value, problem = self.inheritance.resolve(name, raw)
        if problem and value:  # forbidden, but what it means is clear: keep it, say so
            self.warn(token.line, problem)
        elif problem:
            self.fail(token.line, problem + " and there is no earlier value to inherit")
        self.game.tags[name] = value
        self.game.tag_order.append(name)
        self.section_value = value
        if name == "Auction":
            self.auction = self.moves = _Moves("call", _normalise_call, 0)
            self.game.auction_first = value.upper()
        elif name == "Play":
            self.play = self.moves = _Moves("card", _normalise_card, 6)
            self.game.play_first = value.upper()

    def _note(self, token: _Token) -> None:
        """Notes belong to the auction or play section they follow (3.5.5, 3.6.5)."""
        owner = self.auction if self.section == "Auction" else (self.play or self.auction)
        if owner is None:
            self.fail(token.line, "Note tag outside the auction and play sections")
            return
        if token.value.startswith("#"):
            self.fail(token.line, "tag Note may not use '#' inheritance")
        problem = owner.add_note(token.value)
        if problem:
            self.fail(token.line, problem)

    def _data(self, token: _Token) -> None:
        if self.moves is not None:
            problem = self.moves.feed(token.text)
            if problem:
                self.fail(token.line, f"{self.section} section: {problem}")
            for warning in self.moves.warnings:
                self.warn(token.line, f"{self.section} section: {warning}")
            self.moves.warnings.clear()
        elif self.section is None and not self.started:
            self.fail(token.line, f"text before the first tag: {token.text.strip()!r}")
        elif self.section is not None:
            previous = self.section_lines.get(token.line)
            self.section_lines[token.line] = (
                token.text if previous is None else f"{previous} {token.text.strip()}")

    def _close_section(self) -> None:
        """Keep a supplemental section that had data (5.1)."""
        if self.section_lines and self.section not in self.game.sections:
            self.game.sections[self.section] = (
                self.section_value, list(self.section_lines.values()))
        self.section_lines = {}

    def finish(self) -> Game:
        self._close_section()
        self.inheritance.finish(self.game)
        game = self.game
        if self.auction is not None:
            game.calls, game.call_notes, game.call_nags = (
                self.auction.items, self.auction.notes, self.auction.nags)
            game.auction_irregularities = self.auction.irregularities
            game.auction_end, game.auction_notes = self.auction.end, self.auction.note_texts
        if self.play is not None:
            game.plays, game.card_notes, game.card_nags = (
                self.play.items, self.play.notes, self.play.nags)
            game.play_irregularities = self.play.irregularities
            game.play_end, game.play_notes = self.play.end, self.play.note_texts
        return game


def parse_text(text: str, source: str = "<text>") -> Iterator[Game]:
    """Yield the games of a PBN text; malformed games carry an ``error``."""
    inheritance = _Inheritance()
    builder = _GameBuilder(0, source, inheritance)
    for token in _Lexer(text).tokens():
        if builder.repeats(token):
            # 3.4 would ignore a repeated tag; files of vugraph software write the next
            # game's tags straight after the last game's last tag or section, so a tag the
            # game already has (a second Event, Board, Deal, Auction...) starts the next one
            yield builder.finish()
            builder = _GameBuilder(builder.game.index + 1, source, inheritance)
            builder.warn(token.line, f"tag {token.text} repeats without a blank line "
                                     "before it: a new game starts here")
        if token.kind != "break":
            builder.add(token)
        elif builder.started:
            yield builder.finish()
            builder = _GameBuilder(builder.game.index + 1, source, inheritance)
        else:  # text or comments without any tag are not a game
            builder = _GameBuilder(builder.game.index, source, inheritance)
    if builder.started:
        yield builder.finish()


# --------------------------------------------------------------------------
# Files

_UTF8_BOM = b"\xef\xbb\xbf"
_ANY_TAG = re.compile(r'\[\s*[A-Za-z0-9_]+\s*"')


def _decode(data: bytes) -> str:
    """UTF-8 (BOM optional); older files are cp1252 or Latin-1 (2.2)."""
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM):]
    for encoding in ("utf-8", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            pass
    return data.decode("latin-1")


def read_file(path) -> Iterator[Game]:
    """Decode bytes (utf-8 with BOM handling, fall back to cp1252/latin-1), then parse_text.

    Raises PbnError (with the path) when the file cannot be read at all
    (missing, a directory, binary garbage with NUL bytes, not PBN at all: no
    tag pair anywhere).  The checks run at call time; games are then read
    lazily.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise PbnError(f"{path}: cannot read file: {exc.strerror or exc}",
                       ru=f"{path}: не прочитать файл: {exc.strerror or exc}") from exc
    nul = data.find(b"\0")
    if nul >= 0:
        raise PbnError(f"{path}: binary data (NUL byte at offset {nul}), not a PBN file",
                       ru=f"{path}: двоичные данные (байт NUL на позиции {nul}), а не PBN")
    text = _decode(data)
    if not _ANY_TAG.search(text):
        raise PbnError(f"{path}: not a PBN file (no tag pair found)",
                       ru=f"{path}: не файл PBN (нет ни одного тега)")
    return parse_text(text, str(path))


def iter_pbn_files(paths) -> Iterator[Path]:
    """Expand files and folders (recursively) into PBN files (*.pbn case-insensitive), sorted;
    a missing path raises PbnError.

    A file named explicitly is taken whatever its extension.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    found: set[Path] = set()
    for path in map(Path, paths):
        if path.is_dir():
            found.update(p for p in path.rglob("*")
                         if p.suffix.lower() == ".pbn" and p.is_file())
        elif path.exists():
            found.add(path)
        else:
            raise PbnError(f"{path}: no such file or folder",
                           ru=f"{path}: нет такого файла или папки")
    return iter(sorted(found))
