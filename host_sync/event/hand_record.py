"""A board's hand record in the form the terminal keeps (docs/CONFIG.md, `hand`): 13 bytes,
2 bits a card naming the seat that holds it.

The host packs it so that the terminal never parses PBN: bridge.cards (and calls, seats)
would stay interned in the terminal's heap for the whole session.
"""

from bridge import cards

SIZE = 13  # bytes: 52 cards, 4 a byte


def hand_bytes(deal):
    """The `hand` of a whole deal: a PBN Deal string ('N:AKQ.JT9.876.5432 ...') or
    bridge.cards' 16 suit masks (seat * 4 + suit). None for a partial or invalid deal (the
    terminal then has no hand record to check cards against).

    Card c = suit * 13 + rank (bridge.cards) is in byte c // 4, at bits (c % 4) * 2."""
    if isinstance(deal, str):
        try:
            deal = cards.parse_deal(deal)
        except ValueError:
            return None
    if not isinstance(deal, (list, tuple)) or len(deal) != 16:
        return None
    dealt = [0, 0, 0, 0]  # by suit: the cards some seat holds
    out = bytearray(SIZE)
    for seat in range(4):
        held = 0
        for suit in range(4):
            mask = deal[seat * 4 + suit]
            if not isinstance(mask, int) or mask & ~cards.FULL_SUIT or dealt[suit] & mask:
                return None
            dealt[suit] |= mask
            held += cards.bit_count(mask)
            for c in cards.mask_cards(suit, mask):
                out[c // 4] |= seat << (c % 4 * 2)
        if held != 13:
            return None
    return bytes(out)
