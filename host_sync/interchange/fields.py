"""What the results files of this project (PBN, CSV travellers, USEBIO) carry alike, with one
writer and one reader for every format so they cannot drift apart:

- the `Adjusted` text of a traveller line: "assigned" (the score is in the file's score
  fields), "weighted 1/3 110;2/3 -50" (Law 12C1c) or "artificial NS A+ EW A-" (Law 12C2);
- a board's dealer and vulnerability as the board was dealt (boards dealt to another rotation
  than Law 2's keep their own: the scoring must follow the boards as they are).
"""

from fractions import Fraction

from bridge import boards as board_rules
from bridge.seats import SEATS, parse_seat

from host_sync.errors import Refused


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


def weighted_parts(text, where):
    """((weight, NS points), ...) of "1/3 110;2/3 -50"; ValueError naming `where`."""
    try:
        return tuple((Fraction(w), int(s)) for w, s in (p.split() for p in text.split(";")))
    except (ValueError, ZeroDivisionError):
        raise Refused("%s: weighted score %r is not 'weight points;...'" % (
            where, text)) from None


def apply_adjusted(result, text, score_ns, score_ew, where):
    """Set the adjusted score of `text` on a Result read from a file. An assigned score takes
    the file's NS and EW scores (ints or None): EW alone means NS the opposite, and an EW
    score other than minus NS's makes it split (Law 12C1e). ValueError naming `where`."""
    text = (text or "").strip()
    if not text:
        return
    if text == "assigned":
        if score_ns is None and score_ew is None:
            raise Refused("%s: Adjusted assigned needs a Score (NS n, EW n or both)" % where)
        result.assigned = score_ns if score_ns is not None else -score_ew
        split = score_ew is not None and score_ew != -result.assigned
        result.assigned_ew = score_ew if split else None
    elif text.startswith("weighted "):
        result.weighted = weighted_parts(text[len("weighted "):], where)
    elif text.startswith("artificial "):
        parts = text.split()[1:]
        codes = dict(zip(parts[::2], parts[1::2]))
        if len(parts) % 2 or not codes or set(codes) - {"NS", "EW"}:
            raise Refused("%s: Adjusted %r is not 'artificial NS code EW code'" % (
                where, text))
        result.ns_artificial, result.ew_artificial = codes.get("NS"), codes.get("EW")
    else:
        raise Refused("%s: Adjusted %r is not understood" % (where, text))


def dealt_fields(board):
    """(dealer letter, vulnerability) of a scoring-model Board, as the files write them."""
    return SEATS[board.dealer_seat()], board.vul()


def set_dealt(session, number, dealer, vul, where):
    """Give board `number` of `session` the dealer and vulnerability a file gives it (texts,
    '' or None where not given: Law 2's then). ValueError naming `where` for a bad value or
    one that contradicts what an earlier line said of the same board."""
    board = session.board(number)
    for text, parse, attr, name in ((dealer, parse_seat, "dealer", "Dealer"),
                                    (vul, board_rules.parse_vulnerability, "vulnerability",
                                     "Vulnerable")):
        if not (text or "").strip():
            continue
        try:
            value = parse(text.strip())
        except ValueError as e:
            raise Refused("%s: %s %s" % (where, name, e)) from None
        old = getattr(board, attr)
        if old is not None and old != value:
            shown = SEATS[old] if attr == "dealer" else old
            raise Refused("%s: board %d is %s above, %s here (%s)" % (
                where, number, shown, text.strip(), name))
        setattr(board, attr, value)
