"""The play period as the journal records it (docs/RECORDS.md: `card`, `claim`, `pdir`).

One reading of a recorded card, claim or director's entry, shared by the terminal
(terminal.session), the host's ingest (host_sync.ingest) and the board replay tool
(bridge.board_replay), so the Laws engine gets the same calls wherever a board is replayed.
Fields are small ints: seats 0..3, cards `bridge.cards` codes, suits 0..3 (C D H S).
"""

from bridge.play import Play

FIRST_BID = 3  # call codes of bridge.calls: a bid is 3 + (level - 1) * 5 + strain
KINDS = ("card", "claim", "pdir")
# The director's entries on the play (docs/BOARD_LOG.md), the `d` of a `pdir` record.
ENTRIES = ("accept", "spread", "reject", "highest", "lowest", "forbid", "require", "none",
           "supply", "omit", "rule", "correct", "withdraw", "64B4", "64B5", "defective",
           "object", "designate", "keep")


def start(contract, deal=None, lead=None):
    """The Play of a contract (bid, risk, declarer), checked against the hand record (16
    suit masks) when there is one, and its Law 26 entries against the auction's lead
    restrictions (`Auction.lead`) when the auction is known."""
    bid, _risk, declarer = contract
    return Play(declarer, (bid - FIRST_BID) % 5, deal, lead)


def claim(play, seat, tricks, answer=None, concession=False):
    """Law 68: seat claims `tricks` of the remaining for his side (or, as a concession,
    concedes them); with `answer` the table's answer follows at once: 1 agreed (69A), 0
    disputed (the director, 70), 2 voided: a defender conceded tricks (a concession, or a
    claim of fewer than all, which concedes the rest: 68B1) and his partner objected at
    once (68B2: the play goes on). ValueError, nothing changed, for anything else."""
    if answer not in (None, 0, 1, 2):
        raise ValueError("a claim's answer is 0, 1 or 2, not %r" % (answer,))
    play.make_claim(seat, tricks, concession, voided=answer == 2)
    if answer in (0, 1):
        play.director(("dispute", "agree")[answer])


def entry(play, option, suit=None, c=None, tricks=None, seat=None, trick=None):
    """A director's entry on the play (docs/BOARD_LOG.md): True if the engine took it."""
    return play.director(option, suit, c, tricks, seat, trick)


def apply(play, kind, d):
    """One record's fields to the engine: a card gives None (it stands) or the law it is held
    under, a claim None, a director's entry True/False. ValueError for a record no table can
    have produced (a card not in that hand, played twice, a claim out of range)."""
    if kind == "card":
        return play.card(d["s"], d["cd"])
    if kind == "claim":
        ok, con = d.get("ok"), d.get("con", 0)
        if ok not in (0, 1, 2) or con not in (0, 1):
            raise ValueError("a claim is agreed (ok 1), disputed (ok 0) or, a defender's "
                             "concession (con 1), voided by his partner (ok 2)")
        claim(play, d["s"], d["tr"], ok, con == 1)
        return None
    if kind == "pdir":
        if not isinstance(d["d"], str):
            raise ValueError("a director's entry is a word")
        return entry(play, d["d"], d.get("su"), d.get("cd"), d.get("tr"), d.get("s"),
                     d.get("t"))
    raise ValueError("not a play record: %r" % (kind,))
