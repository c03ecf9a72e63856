"""The auction of a traveller line as the host reads it from the stored facts, for the PBN
export (PBN 2.1 section 3.5): the calls that stand, dealer first, each with a note where the
director ruled on the way to it.

The facts are the `call` and `dir` records of the terminal that claimed the round (its current
journal, valid records only), replayed through the Laws core as ingest does
(host_sync.station.ingest), so the calls are the host's own: a call the director rejected is
not among them, an accepted one is. A note ("Law 27; accept 27A": the law the call was held
under, the director's entry and the paragraphs applied) goes on the irregular call if it
stands, else on the first standing call made after it; what follows the last standing call
goes on the last one.
"""

import json

from bridge import boards as law2
from bridge.auction import Auction
from bridge.calls import to_pbn
from bridge.lawcodes import EV_ACCEPT, EV_REJECT, call_event


def replay(auction, kind, d):
    """Give the auction one stored call or director entry; False if the engine refuses it."""
    if kind == "dir":
        entry = {"accept": EV_ACCEPT, "reject": EV_REJECT}.get(d["d"])
        return entry is not None and auction.apply(entry)
    change = {1: "unintended", 2: "deliberate"}.get(d.get("ch"))
    return auction.apply(call_event(d["s"], d["c"], artificial=bool(d.get("art")),
                                    same_meaning=bool(d.get("sm")), change=change))


def line_auction(db, round_id, board, dealer=None):
    """((PBN call, note text or None), ...) of the board at that round, dealer first; () when
    no auction was recorded (a quick entry, an adjusted score) or it is not over."""
    rnd = db.one("SELECT ro.terminal_id, te.journal_offset FROM rounds ro "
                 "JOIN terminals te ON te.id = ro.terminal_id WHERE ro.id = ?", (round_id,))
    if rnd is None:
        return ()
    rows = db.all("SELECT seq, kind, body FROM records WHERE round_id = ? AND board = ? AND "
                  "terminal_id = ? AND kind IN ('call', 'dir') AND valid = 1 AND seq > ? "
                  "ORDER BY seq", (round_id, board, rnd["terminal_id"], rnd["journal_offset"]))
    if not rows:
        return ()
    a = Auction(law2.dealer(board) if dealer is None else dealer)
    for row in rows:
        replay(a, row["kind"], json.loads(row["body"]))
    if not a.is_over() or len(a.events) != len(rows):
        return ()
    notes = []
    for row in rows:
        note = _note(db, rnd["terminal_id"], row)
        held = [j for j, r in enumerate(rows[:len(notes)]) if r["kind"] == "call" and notes[j]]
        if row["kind"] == "dir" and held and note:  # the entry goes with the call it ruled on
            notes[held[-1]] += "; " + note
            note = None
        notes.append(note)
    out = []
    for packed, origin in zip(a.calls, a.origin):
        upto = origin + 1  # the records up to the one that made this call (-1: the engine's)
        mine = [n for n in notes[:upto] if n]
        notes[:upto] = [None] * len(notes[:upto])
        out.append([to_pbn(packed & 63), mine])
    if out:
        out[-1][1] += [n for n in notes if n]
    return tuple((call, "; ".join(mine) or None) for call, mine in out)


def _note(db, terminal_id, row):
    """What the director's list holds for this record ("Law 27; accept 27A"): the law a call
    was held under, each entry and paragraph applied; None for a call that stood as made."""
    law = db.value("SELECT law FROM calls WHERE terminal_id = ? AND seq = ?",
                   (terminal_id, row["seq"])) if row["kind"] == "call" else None
    parts = ["Law %s" % law] if law else []
    parts += [" ".join(x for x in (r["entry"], r["law"]) if x) for r in db.all(
        "SELECT entry, law FROM rulings WHERE terminal_id = ? AND seq = ? ORDER BY id",
        (terminal_id, row["seq"]))]
    return "; ".join(p for p in parts if p) or None
