"""A round at one simulated table: the key script its terminal plays and the truth of it.

The players open the round from the pushed configuration (their player numbers are filled in
from it), play the round's boards in order (board.py: auction, irregularities and the
director, lead, tricks, verification) and close the round.
"""

import random

from bridge import cards

from host_sync.demo.board import BoardPlay


class RoundTruth:
    """One table in one round: pairs, player numbers and each board's truth."""

    def __init__(self, table, rnd, ns, ew, players):
        self.table = table
        self.round = rnd
        self.ns, self.ew = ns, ew
        self.players = players  # [N, E, S, W] federation numbers (0: not known)
        self.boards = {}  # board -> BoardTruth


def round_play(seed, table, row, deals, numbers, pin, lang="ru", irregular=0.25,
               dispute=0.06):
    """(key script text, RoundTruth) of `table` in the round `row` of its configuration
    ({"r", "ns", "ew", "b": [first, last]}); deals: {board: PBN deal}, numbers: {pair:
    [player numbers]}."""
    rng = random.Random("%s-%d-%d" % (seed, table, row["r"]))
    ns, ew = numbers.get(row["ns"], [0, 0]), numbers.get(row["ew"], [0, 0])
    truth = RoundTruth(table, row["r"], row["ns"], row["ew"], [ns[0], ew[0], ns[1], ew[1]])
    lines = ["# table %d, round %d: NS %d v EW %d" % (table, row["r"], row["ns"], row["ew"]),
             "OK OK  # the round from the configuration; player numbers filled in",
             "expect NS %d - EW %d" % (row["ns"], row["ew"])]
    for b in range(row["b"][0], row["b"][1] + 1):
        lines.append("OK  # board %d" % b)
        play = BoardPlay(rng, b, cards.parse_deal(deals[b]), pin, lang, irregular,
                         dispute).play()
        lines += play.keys
        truth.boards[b] = play.truth
    lines.append("OK OK OK  # the round's boards are done: close it")
    return "\n".join(lines) + "\n", truth
