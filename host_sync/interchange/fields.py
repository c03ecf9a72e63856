"""What the results files of this project (PBN, CSV travellers, USEBIO) carry alike, with one
writer and one reader for every format so they cannot drift apart:

- the `Adjusted` text of a traveller line: "assigned" (the score is in the file's score
  fields), "weighted 1/3 110;2/3 -50" (Law 12C1c) or "artificial NS A+ EW A-" (Law 12C2);
- a board's dealer and vulnerability as the board was dealt (boards dealt to another rotation
  than Law 2's keep their own: the scoring must follow the boards as they are);
- a number in a field: plain ASCII digits, as the writers write it (`plain_number`);
- the section of a pair in a session of several, from its label ("A1", a team's pair "A1B":
  `section_letters`).

A `where` is English text, or a Both carrying its Russian ("line 5" / "строка 5").
"""

import re
from fractions import Fraction

from bridge import boards as board_rules
from bridge.seats import SEATS, parse_seat

from host_sync.errors import Both, at, russian

MAX_DIGITS = 9  # of a number in a file: no board, table, round or score has more
SECTION_LABEL = re.compile("([A-Z])[0-9]+[AB]?")  # "A1": pair 1 of section A; "A1B": team 1's


def adjusted_text(result):
    """The Adjusted text of a Result ('' for a played line)."""
    kind = result.kind()
    if kind == "artificial":
        parts = [("NS", result.ns_artificial), ("EW", result.ew_artificial)]
        return "artificial " + " ".join("%s %s" % p for p in parts if p[1])
    if kind == "weighted":
        return "weighted " + weighted_text(result.weighted)
    return "assigned" if kind in ("assigned", "split") else ""


def weighted_text(parts):
    """"1/3 110;2/3 -50" of ((weight, NS points), ...)."""
    return ";".join("%s %d" % (Fraction(w), s) for w, s in parts)


def plain_number(text, signed=False, digits=MAX_DIGITS):
    """The int of `text` when it is ASCII digits only (after one sign when `signed`: a score,
    which PBN files write "+110" as often as "110"), else None. int() also takes "1_0", " 7 ",
    "+5" as a board and "٣", which no writer writes and a hostile file may (and a 5,000-digit
    number, which costs int() its time)."""
    body = text[1:] if signed and text[:1] in ("-", "+") else text
    if body.isascii() and body.isdigit() and len(body) <= digits:
        return int(text)
    return None


def file_number(text, what, where, signed=False, digits=MAX_DIGITS):
    """`plain_number` of a file's field `what` (its name, or a Both), or Refused at `where`
    saying why not, in both languages."""
    value = plain_number(text, signed, digits)
    if value is None:
        en, ru = _not_plain(text, signed, digits)
        raise at(where, "%s %r is not a number in the digits 0-9: %s" % (what, text, en),
                 "%s %r — не число из цифр 0–9: %s" % (russian(what), text, ru))
    return value


def _not_plain(text, signed, digits):
    """(English, Russian) of why `text` is not a plain number."""
    if not text:
        return "it is empty", "пусто"
    if any(c.isspace() for c in text):
        return "it has a space", "в нём пробел"
    if "_" in text:
        return "it has '_'", "в нём знак «_»"
    if text[0] == "+" and not signed:
        return "it has a '+' sign", "в нём знак «+»"
    if text[0] == "-" and not signed:
        return "it cannot be negative", "оно не может быть отрицательным"
    if any(c.isdigit() and not c.isascii() for c in text):
        return "it has a digit other than 0-9", "в нём цифра не из 0–9"
    body = text[1:] if signed and text[:1] == "-" else text
    if body.isascii() and body.isdigit():
        return "it has more than %d digits" % digits, "в нём больше %d цифр" % digits
    return "it has letters or other signs", "в нём буквы или другие знаки"


WEIGHT = Both("weighted score weight", "вес взвешенного счёта")
WEIGHT_POINTS = Both("weighted score points", "очки взвешенного счёта")


def weighted_parts(text, where):
    """((weight, NS points), ...) of "1/3 110;2/3 -50"; Refused naming `where`."""
    parts = []
    for part in text.split(";"):
        fields = part.split()
        if len(fields) != 2:
            raise at(where, "weighted score %r is not 'weight points;...'" % text,
                     "взвешенный счёт %r не в виде «вес очки;...»" % text)
        weight, points = fields
        numerator, slash, denominator = weight.partition("/")
        numerator = file_number(numerator, WEIGHT, where)
        denominator = file_number(denominator, WEIGHT, where) if slash else 1
        if not denominator:
            raise at(where, "weighted score %r: a weight's denominator is 0" % text,
                     "взвешенный счёт %r: знаменатель веса — 0" % text)
        parts.append((Fraction(numerator, denominator),
                      file_number(points, WEIGHT_POINTS, where, signed=True)))
    return tuple(parts)


def apply_adjusted(result, text, score_ns, score_ew, where):
    """Set the adjusted score of `text` on a Result read from a file. An assigned score takes
    the file's NS and EW scores (ints or None): EW alone means NS the opposite, and an EW
    score other than minus NS's makes it split (Law 12C1e). ValueError naming `where`."""
    text = (text or "").strip()
    if not text:
        return
    if text == "assigned":
        if score_ns is None and score_ew is None:
            raise at(where, "Adjusted assigned needs a Score (NS n, EW n or both)",
                     "для Adjusted assigned нужен счёт Score (NS n, EW n или оба)")
        result.assigned = score_ns if score_ns is not None else -score_ew
        split = score_ew is not None and score_ew != -result.assigned
        result.assigned_ew = score_ew if split else None
    elif text.startswith("weighted "):
        result.weighted = weighted_parts(text[len("weighted "):], where)
    elif text.startswith("artificial "):
        parts = text.split()[1:]
        codes = dict(zip(parts[::2], parts[1::2]))
        if len(parts) % 2 or not codes or set(codes) - {"NS", "EW"}:
            raise at(where, "Adjusted %r is not 'artificial NS code EW code'" % text,
                     "Adjusted %r не в виде «artificial NS код EW код»" % text)
        result.ns_artificial, result.ew_artificial = codes.get("NS"), codes.get("EW")
    else:
        raise at(where, "Adjusted %r is not understood" % text,
                 "значение Adjusted %r не распознано" % text)


def dealt_fields(board):
    """(dealer letter, vulnerability) of a scoring-model Board, as the files write them."""
    return SEATS[board.dealer_seat()], board.vul()


def set_dealt(session, number, dealer, vul, where):
    """Give board `number` of `session` the dealer and vulnerability a file gives it (texts,
    '' or None where not given: Law 2's then). ValueError naming `where` for a bad value or
    one that contradicts what an earlier line said of the same board."""
    board = session.board(number)
    for text, parse, attr, name, expected in (
            (dealer, parse_seat, "dealer", "Dealer", "N, E, S или W"),
            (vul, board_rules.parse_vulnerability, "vulnerability", "Vulnerable",
             "None, NS, EW или All")):
        if not (text or "").strip():
            continue
        try:
            value = parse(text.strip())
        except ValueError as e:
            raise at(where, "%s %s" % (name, e), "%s %r: ожидалось %s" % (
                name, text.strip(), expected)) from None
        old = getattr(board, attr)
        if old is not None and old != value:
            shown = SEATS[old] if attr == "dealer" else old
            raise at(where, "board %d is %s above, %s here (%s)" % (
                number, shown, text.strip(), name), "у сдачи %d выше было %s, здесь %s (%s)" % (
                number, shown, text.strip(), name))
        setattr(board, attr, value)


def section_letters(labels):
    """{label: its section's letter} when every label is a pair of a session of several
    sections as event.results labels them ("A1", a team's pair "A1B") and more than one
    letter is among them; else {} (one section, or labels of another kind)."""
    found = {label: SECTION_LABEL.fullmatch(str(label)) for label in labels}
    if not all(found.values()) or len({m.group(1) for m in found.values()}) < 2:
        return {}
    return {label: m.group(1) for label, m in found.items()}
