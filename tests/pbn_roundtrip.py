"""What a PBN game means, independent of how it was laid out: for export round-trip tests."""

import re

from bridge import boards as board_rules
from bridge.seats import parse_seat

from host_sync.interchange.pbn.tables import Table
from host_sync.interchange.pbn.write import MANDATORY, export_deal, export_result, export_vulnerable

NORMALISED = {"Deal", "Vulnerable", "Result", "Contract", "Auction", "Play", "Note"}


def plays_by_seat(game):
    """{(trick, seat): card}: the play section without its column order."""
    if game.play_first is None:
        return None
    first = parse_seat(game.play_first)
    return {(i // 4, (first + i) % 4): card for i, card in enumerate(game.plays)}


def calls_from_dealer(game):
    """The calls with the placeholders before the dealer removed."""
    if game.auction_first is None:
        return None
    calls = list(game.calls)
    dealer = game.tags.get("Dealer", "").strip()
    if dealer:
        skip = (parse_seat(dealer) - parse_seat(game.auction_first)) % 4
        if all(c == "-" for c in calls[:skip]) and not game.auction_irregularities:
            calls = calls[skip:]
    return calls


def meaning(game):
    tags = {k: v for k, v in game.tags.items() if k not in NORMALISED and k not in game.sections}
    for name in MANDATORY:  # export writes "?" for a missing mandatory tag (3.4)
        if name not in NORMALISED:
            tags.setdefault(name, "?")
    dealer = game.tags.get("Dealer", "").strip()
    if dealer:
        seat = parse_seat(dealer) if dealer in ("N", "E", "S", "W") else None
    else:
        board = game.tags.get("Board", "")
        seat = board_rules.dealer(int(board)) if board.isdigit() else None
    sections = {}
    for name, (value, lines) in game.sections.items():
        try:
            table = Table.parse(value, lines)
            sections[name] = ([c.name for c in table.columns], table.rows)
        except ValueError:
            sections[name] = (value, " ".join(" ".join(lines).split()))
    return {
        "tags": tags,
        "deal": export_deal(game.tags.get("Deal", "?"), seat),
        "vulnerable": export_vulnerable(game.tags.get("Vulnerable", "?")),
        "result": export_result(game.tags["Result"], game.tags.get("Declarer", ""))
        if "Result" in game.tags else "?",
        "contract": re.sub("^PASS$", "Pass", game.tags.get("Contract", "?").upper()),
        "calls": calls_from_dealer(game),
        "call_notes": game.call_notes, "call_nags": [sorted(n) for n in game.call_nags],
        "auction_notes": game.auction_notes, "auction_end": game.auction_end,
        "plays": plays_by_seat(game), "play_notes": game.play_notes,
        "play_end": game.play_end,
        "sections": sections,
        "comments": [c.replace("}", ")") for c in game.comments],
    }
