"""Cards as small ints and hands as four 13-bit suit masks.

A card is suit * 13 + rank, with suits C=0, D=1, H=2, S=3 (the strain numbers of
`bridge.calls`) and ranks 0 (two) .. 12 (ace), so the higher number of one suit is the higher
card. A hand is four small ints, one bit per rank, so "does he hold a card of the suit led"
is one AND and a whole deal is a list of 16 small ints: no bignums on a 32-bit board.
"""

from bridge.calls import SUIT_SYMBOLS
from bridge.seats import SEATS, parse_seat

SUITS = "CDHS"
RANKS = "23456789TJQKA"
RANK_NAMES = {
    "en": ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"),
    # Russian: туз, король, дама, валет.
    "ru": ("2", "3", "4", "5", "6", "7", "8", "9", "10",
           "\u0412", "\u0414", "\u041a", "\u0422"),
}
JACK = 9  # ranks from the jack up are honours (Law 50B; the ten is one too, see is_honour)
TEN = 8
FULL_SUIT = 0x1FFF


def card(suit, rank):
    return suit * 13 + rank


def suit_of(c):
    return c // 13


def rank_of(c):
    return c % 13


def is_honour(c):
    """Ace, king, queen, jack or ten (definition of 'honour' in the Laws)."""
    return c % 13 >= TEN


def parse_card(token):
    """'SA', 'h10', 'DT', 'C2' -> 0..51; anything else is a ValueError naming the token."""
    if isinstance(token, str):
        t = token.strip().upper()
        if t[1:] == "10":
            t = t[0] + "T"
        if len(t) == 2:
            s = SUITS.find(t[0])
            r = RANKS.find(t[1])
            if s >= 0 and r >= 0:
                return s * 13 + r
    raise ValueError("not a card: %r (expected suit C, D, H, S then rank 2..9, T, J, Q, K, A)"
                     % (token,))


def token(c):
    """The PBN card token: 'SA', 'HT', 'C2'."""
    return SUITS[c // 13] + RANKS[c % 13]


def display(c, lang="ru"):
    """What the terminal shows: '\u2660\u0422' (ru) or '\u2660A' (en)."""
    names = RANK_NAMES.get(lang) or RANK_NAMES["en"]
    return SUIT_SYMBOLS[c // 13] + names[c % 13]


def parse_hand(text):
    """One PBN hand 'AKQ.JT9.876.5432' (spades first) -> [clubs, diamonds, hearts, spades]."""
    parts = text.split(".")
    if len(parts) != 4:
        raise ValueError("a hand has four suits separated by dots, not %r" % (text,))
    masks = [0, 0, 0, 0]
    for i in range(4):
        suit = 3 - i
        for ch in parts[i].upper():
            r = RANKS.find(ch)
            if r < 0:
                raise ValueError("not a rank: %r in hand %r" % (ch, text))
            bit = 1 << r
            if masks[suit] & bit:
                raise ValueError("card %s twice in hand %r" % (SUITS[suit] + ch, text))
            masks[suit] |= bit
    return masks


def parse_deal(text):
    """A PBN Deal tag 'N:hand hand hand hand' -> 16 suit masks, seat * 4 + suit.

    The first hand belongs to the seat before the colon, the others follow clockwise.
    A '-' hand is unknown: its masks are None. Every known card must be dealt once only and
    every known hand must have 13 cards.
    """
    if not isinstance(text, str) or len(text) < 2 or text[1] != ":":
        raise ValueError("a deal starts with a seat and a colon, like 'N:...', not %r" % (text,))
    first = parse_seat(text[0])
    hands = text[2:].split()
    if len(hands) != 4:
        raise ValueError("a deal has four hands, found %d" % len(hands))
    masks = [None] * 16
    seen = [0, 0, 0, 0]
    for i in range(4):
        seat = (first + i) & 3
        if hands[i] == "-":
            continue
        hand = parse_hand(hands[i])
        count = 0
        for suit in range(4):
            if seen[suit] & hand[suit]:
                raise ValueError("a card of %s is dealt twice (hand of %s)"
                                 % (SUITS[suit], SEATS[seat]))
            seen[suit] |= hand[suit]
            masks[seat * 4 + suit] = hand[suit]
            count += bit_count(hand[suit])
        if count != 13:
            raise ValueError("the hand of %s has %d cards, not 13" % (SEATS[seat], count))
    return masks


def bit_count(mask):
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def mask_cards(suit, mask):
    """The cards of one suit mask, highest first."""
    out = []
    for r in range(12, -1, -1):
        if mask >> r & 1:
            out.append(suit * 13 + r)
    return out


def hand_text(masks, seat):
    """The PBN text of a seat's remaining cards, spades first: 'AK..Q2.' (a void is empty)."""
    parts = []
    for suit in (3, 2, 1, 0):
        m = masks[seat * 4 + suit]
        parts.append("".join(RANKS[c % 13] for c in mask_cards(suit, m)))
    return ".".join(parts)
