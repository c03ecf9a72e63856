"""Random deals and a rough judgment of them, for the simulated players of `host-sync demo`.

A deal is 16 suit masks (bridge.cards.parse_deal: seat * 4 + suit). The judgment is the
table-talk kind, not double dummy: high-card points, suit lengths, and an estimate of the
tricks a side takes in a strain from its points and trump fit, calibrated on the usual rules
(26 points for game, 33 for a small slam, 37 for a grand). The players bid towards what
their side can make; the result is that estimate plus the luck of the play.
"""

import random

from bridge import boards as law2
from bridge import cards
from bridge.calls import NT
from bridge.score import score

HCP = (0,) * 9 + (1, 2, 3, 4)  # by rank: jack 1, queen 2, king 3, ace 4
RANKS = cards.RANKS


def random_deal(rng):
    """A PBN Deal value 'N:AKQ.JT9.876.5432 ...' from a seeded shuffle."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = []
    for seat in range(4):
        held = deck[seat * 13:(seat + 1) * 13]
        suits = []
        for suit in (3, 2, 1, 0):
            ranks = sorted((c % 13 for c in held if c // 13 == suit), reverse=True)
            suits.append("".join(RANKS[r] for r in ranks))
        hands.append(".".join(suits))
    return "N:" + " ".join(hands)


def length(masks, seat, suit):
    return cards.bit_count(masks[seat * 4 + suit])


def points(masks, seat):
    """High-card points of a seat's hand."""
    total = 0
    for suit in range(4):
        m = masks[seat * 4 + suit]
        for r in range(9, 13):
            if m >> r & 1:
                total += HCP[r]
    return total


def longest(masks, seat):
    """The seat's longest suit (the higher-ranking of equals)."""
    return max(range(4), key=lambda s: (length(masks, seat, s), s))


def balanced(masks, seat):
    shape = sorted(length(masks, seat, s) for s in range(4))
    return shape[0] >= 2 and shape[3] <= 5 and shape[1] >= 3 or shape == [2, 3, 4, 4]


def tricks(masks, side, strain):
    """Estimated tricks for `side` (0 NS, 1 EW) as declarer in `strain` (a float)."""
    a, b = side, side + 2
    hcp = points(masks, a) + points(masks, b)
    if strain == NT:
        return 9 + (hcp - 26) / 2.6
    fit = length(masks, a, strain) + length(masks, b, strain)
    short = min(min(length(masks, a, s), length(masks, b, s)) for s in range(4) if s != strain)
    ruffs = {0: 1.0, 1: 0.6, 2: 0.2}.get(short, 0) if fit >= 8 else 0
    return 10 + (hcp - 26) / 2.6 + (fit - 8) * 0.7 + ruffs


def target(masks, side, board):
    """(level, strain, tricks) of the best contract the side expects to make (the one that
    scores most for it), or None when it expects to make nothing."""
    vulnerable = law2.is_vulnerable(law2.vulnerability(board), side)
    best = None
    for strain in range(5):
        t = tricks(masks, side, strain)
        level = min(7, int(t + 0.25) - 6)  # a quarter trick of optimism, not for slams
        while level >= 6 and t < level + 6.4:
            level -= 1
        if level < 1:
            continue
        value = score(level, strain, 0, vulnerable, level + 6)
        if best is None or value > best[0]:
            best = (value, level, strain, t)
    return None if best is None else best[1:]


def played_tricks(rng, masks, declarer, strain):
    """Tricks the declarer's side takes at the table: the estimate and the luck of the play."""
    t = tricks(masks, declarer & 1, strain) + rng.gauss(0, 0.9)
    return max(0, min(13, int(round(t))))


def lead_card(rng, masks, leader, trump):
    """An opening lead: from the leader's longest side suit, top of a sequence or fourth
    best, as a card code."""
    suits = [s for s in range(4) if masks[leader * 4 + s] and s != trump] or \
        [s for s in range(4) if masks[leader * 4 + s]]
    suit = max(suits, key=lambda s: (length(masks, leader, s), rng.random()))
    held = cards.mask_cards(suit, masks[leader * 4 + suit])  # highest first
    if len(held) >= 2 and held[0] - held[1] == 1 and held[0] % 13 >= cards.TEN:
        return held[0]  # top of touching honours
    return held[min(3, len(held) - 1)]


def deals(seed, numbers):
    """{board: PBN Deal value} for these board numbers, the same for the same seed."""
    rng = random.Random("deals-%s" % seed)
    return {b: random_deal(rng) for b in sorted(numbers)}

