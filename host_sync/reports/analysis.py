"""What a hand record shows under the diagram: double-dummy tricks, par and high-card points.

The tricks and par come from a real solver, Bo Haglund's DDS through endplay
(endplay.dds.calc_dd_table and par), never from our own search: a club compares them with the
travellers, and a wrong par would read as a wrong score. Solving a deal costs a good part of a
second of CPU, so each (deal, dealer, vulnerability) is solved once per process (the Russian
and English pages of a report run share it). A deal the solver cannot take (a hand missing or
short of cards, a card twice) gets no analysis: the page shows the hands it has and no table.
"""

from collections import namedtuple
from functools import lru_cache

from bridge.seats import SEATS

STRAINS = ("C", "D", "H", "S", "NT")  # the table's columns, lowest first as hand records show
DENOM = ("S", "H", "D", "C", "NT")  # endplay's Denom order
HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}

Analysis = namedtuple("Analysis", "tricks par_score par hcp")
Analysis.__doc__ = """tricks: {seat letter: {strain: tricks declarer takes}}; par_score: NS
points of the par (Law 77 sign: minus when EW's); par: the par contracts as (level, strain,
declarer seat letter, risk '', 'X' or 'XX', tricks over (+) or under (-) the contract);
hcp: {seat letter: high-card points}."""


def hcp(deal):
    """{seat letter: high-card points} of a PBN Deal value ('N:AKQ.. ...'); {} when unreadable;
    a hand shown as '-' is left out."""
    try:
        first, hands = deal.split(":", 1)
        start = SEATS.index(first.strip().upper())
    except ValueError:
        return {}
    return {SEATS[(start + i) % 4]: sum(HCP.get(c, 0) for c in hand.upper())
            for i, hand in enumerate(hands.split()) if hand != "-"}


def analyse(deal, dealer, vul):
    """The Analysis of a PBN Deal value for a board with `dealer` (seat index) and `vul`
    ('None', 'NS', 'EW', 'All'); None when the deal is not four full hands."""
    if not deal or ":" not in deal:
        return None
    return _solve(deal.strip(), dealer, vul)


@lru_cache(maxsize=256)
def _solve(deal, dealer, vul):
    from endplay import dds  # here: only a report loads the solver library
    from endplay.types import Deal, Player, Vul
    vulnerable = {"None": Vul.none, "All": Vul.both, "NS": Vul.ns, "EW": Vul.ew}.get(vul)
    if vulnerable is None or dealer not in range(4):
        return None  # a board's own tags out of range: no par rather than a wrong one
    try:
        parsed = Deal(deal)
        if any(len(parsed[Player.find(s)]) != 13 for s in "NESW") or len(
                {str(c) for s in "NESW" for c in parsed[Player.find(s)]}) != 52:
            return None
        table = dds.calc_dd_table(parsed)
    except (ValueError, RuntimeError, KeyError, IndexError):
        return None
    tricks = {seat: {strain: table[Player.find(seat), DENOM.index(strain)] for strain in STRAINS}
              for seat in SEATS}
    parlist = dds.par(table, vulnerable, Player(dealer))
    par = []
    for c in parlist:  # read each contract as it comes: the iterator reuses its records
        par.append((c.level, DENOM[int(c.denom)],
                    SEATS[int(c.declarer)], {1: "", 2: "X", 4: "XX"}[int(c.penalty)],
                    int(c.result)))
    return Analysis(tricks, parlist.score, tuple(par), hcp(deal))
