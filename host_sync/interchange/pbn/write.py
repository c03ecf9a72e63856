"""Writer for PBN 2.1 export format (the standard "Portable Bridge Notation 2.1", beside a
team checkout ../shared/ref/pbn_v21.txt; section numbers below refer to it).

A game is written as: an optional leading comment, the 15 mandatory tags in their order
(3.4; "?" when unknown), the other identification tags sorted by name, the auction section
(3.5, dealer first, 4 calls a line, notes after it), the play section (3.6, opening leader
first, one trick a line) and the supplemental sections sorted by name (5; tables laid out
with their column widths, 5.2). Lines end in CRLF (2.3); games are separated by an empty
line (3). Input is `pbn.Game` (what the reader returns, or one built by hand).
"""

import re

from bridge import boards as board_rules
from bridge.seats import SEATS, lho, parse_seat

from host_sync.interchange.fields import plain_number
from host_sync.interchange.pbn.tables import Table, pbn_string

MANDATORY = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
             "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result")
_NOT_IDENTIFICATION = {"Auction", "Play", "Note"}
_VUL_EXPORT = {"None": "None", "NS": "NS", "EW": "EW", "All": "All"}
_RANKS = "AKQJT98765432"
CRLF = "\r\n"
HEADER = ["% PBN 2.1", "% EXPORT"]


def tag_line(name, value):
    return "[%s %s]" % (name, pbn_string(value))


def _seat(text):
    """A seat index, or None when the text names no seat ('?', '', '^E' for a swapped one)."""
    try:
        return parse_seat(text.strip())
    except ValueError:
        return None


def _dealer(game):
    text = game.tags.get("Dealer", "").strip()
    if text:
        return _seat(text)
    board = game.tags.get("Board", "")
    number = plain_number(board)
    return board_rules.dealer(number) if number else None


def export_deal(deal, dealer):
    """Deal value with the dealer's hand first and every suit's ranks in descending order."""
    match = re.fullmatch(r"\s*([NESWnesw])\s*:\s*(.*)", deal or "")
    if match is None:
        return deal
    first = parse_seat(match.group(1))
    hands = match.group(2).split()
    if len(hands) != 4:
        return deal
    def tidy(hand):
        if hand == "-":
            return hand
        return ".".join("".join(sorted(suit.upper(), key=_RANKS.index)) for suit in
                        hand.split("."))
    by_seat = {(first + i) % 4: tidy(h) for i, h in enumerate(hands)}
    start = first if dealer is None else dealer
    return "%s:%s" % (SEATS[start], " ".join(by_seat[(start + i) % 4] for i in range(4)))


def export_vulnerable(text):
    try:
        return _VUL_EXPORT[board_rules.parse_vulnerability(text)]
    except (ValueError, KeyError):
        return text


def export_result(result, declarer):
    """Result tag as the declarer's tricks (3.4.15); other forms are kept when unreadable."""
    parts = result.replace("^", "").split()
    caret = "^" if result.strip().startswith("^") else ""
    seat = _seat(declarer.strip().lstrip("^"))
    if len(parts) == 1 or seat is None:
        return result
    side = "NS" if seat in (0, 2) else "EW"
    for i in range(0, len(parts) - 1, 2):
        tricks = plain_number(parts[i + 1])
        if parts[i] == side and tricks is not None:
            return caret + parts[i + 1]
        if parts[i] in ("NS", "EW") and tricks is not None:
            return caret + str(13 - tricks)
    return result


def _identification(game):
    tags = game.tags
    dealer = _dealer(game)
    lines = []
    for name in MANDATORY:
        value = tags.get(name, "?")
        if name == "Deal":
            value = export_deal(value, dealer)
        elif name == "Vulnerable":
            value = export_vulnerable(value)
        elif name == "Result" and "Result" in tags:
            value = export_result(value, tags.get("Declarer", ""))
        elif name == "Contract":
            value = value.upper() if value.upper() != "PASS" else "Pass"
        lines.append(tag_line(name, value))
    others = sorted(n for n in tags if n not in MANDATORY and n not in _NOT_IDENTIFICATION
                    and n not in game.sections)
    lines += [tag_line(n, tags[n]) for n in others]
    return lines


def _move(token, note, nags):
    """One call or card with its note reference and NAGs (3.5.2: note first, NAGs sorted)."""
    parts = [token]
    if note is not None:
        parts.append("=%d=" % note)
    parts += ["$%d" % n for n in sorted(nags)]
    return " ".join(parts)


def _moves_lines(items, notes, nags, irregular, start_skip, per_line, end):
    """Group moves 4 a line; irregularity marks (^I, ^S, ^R, ^L) go before their move."""
    marks = {}
    for position, mark in irregular:
        marks.setdefault(position, []).append(mark)
    tokens = []
    for i in range(start_skip, len(items)):
        tokens.append(" ".join(marks.get(i, []) + [_move(items[i], notes[i], nags[i])]))
    tail = marks.get(len(items), [])
    lines = [" ".join(tokens[i:i + per_line]) for i in range(0, len(tokens), per_line)]
    closing = " ".join(tail + ([end] if end else []))
    if closing:
        lines.append(closing)
    return lines


def _auction(game):
    if game.auction_first is None:
        return []
    dealer = _dealer(game)
    first = _seat(game.auction_first)
    if first is None:
        return []
    skip = 0
    if dealer is not None and first != dealer:
        # leading '-' placeholders for the seats before the dealer are dropped (3.5)
        skip = (dealer - first) % 4
        if any(c != "-" for c in game.calls[:skip]) or game.auction_irregularities:
            skip, dealer = 0, first
    else:
        dealer = first
    lines = [tag_line("Auction", SEATS[dealer])]
    lines += _moves_lines(game.calls, game.call_notes, game.call_nags,
                          [(p - skip, m) for p, m in game.auction_irregularities], skip, 4,
                          game.auction_end)
    lines += [tag_line("Note", "%d:%s" % (i, t)) for i, t in sorted(game.auction_notes.items())]
    return lines


def _play(game):
    if game.play_first is None:
        return []
    first = _seat(game.play_first)
    if first is None:
        return []
    declarer = _seat(game.tags.get("Declarer", "").strip().lstrip("^"))
    leader = first if declarer is None else lho(declarer)
    shift = (leader - first) % 4
    plays, notes, nags = list(game.plays), list(game.card_notes), list(game.card_nags)
    irregular = list(game.play_irregularities)
    if shift and not irregular and len(plays) % 4 == 0:
        # tricks are given by seat columns (3.6): rotate each line to start with the leader
        order = [i + (j + shift) % 4 for i in range(0, len(plays), 4) for j in range(4)]
        plays, notes, nags = ([seq[k] for k in order] for seq in (plays, notes, nags))
    else:
        leader = first
    lines = [tag_line("Play", SEATS[leader])]
    lines += _moves_lines(plays, notes, nags, irregular, 0, 4, game.play_end)
    lines += [tag_line("Note", "%d:%s" % (i, t)) for i, t in sorted(game.play_notes.items())]
    return lines


def _sections(game):
    lines = []
    for name in sorted(game.sections):
        value, raw = game.sections[name]
        try:
            table = Table.parse(value, raw)
            lines.append(tag_line(name, table.value()))
            lines += table.lines()
        except ValueError:  # not a table: a user-defined section, kept as read
            lines.append(tag_line(name, value))
            lines += [line.strip() for line in raw]
    return lines


def _comments(game):
    """Comments go first in the game, one brace comment each; their line breaks stay."""
    lines = []
    for text in game.comments:
        lines += ("{%s}" % text.replace("}", ")")).splitlines() or ["{}"]
    return lines


def game_lines(game):
    """The export-format lines of one game."""
    return (_comments(game) + _identification(game) + _auction(game) + _play(game)
            + _sections(game))


def export_text(games):
    """The whole file: header, then the games separated by empty lines, CRLF line ends."""
    blocks = [game_lines(g) for g in games]
    lines = list(HEADER)
    for i, block in enumerate(blocks):
        if i:
            lines.append("")
        lines += block
    return CRLF.join(lines) + CRLF

