"""Scripted rounds for the sync tests and the benchmark: the records a table journals, and the
truth the database must end up holding.

An auction is drawn at random among the calls the Laws core lets stand (with, now and then, an
insufficient bid that the director lets stand after LHO accepts it, Law 27A1), so every round
exercises calls, a director's entry and its ruling, results and verification.
"""

import random

from bridge import boards as law2
from bridge.auction import Auction
from bridge.calls import DOUBLE, FIRST_BID, MAX_LEVEL, PASS, level, strain
from bridge.lawcodes import DIRECTOR
from bridge.score import score

from host_sync.movements import mitchell

LAST = FIRST_BID + MAX_LEVEL * 5 - 1


def event_movement(tables, boards_per_set=4, rounds=None):
    return mitchell(tables, boards_per_set, rounds)


def _choose(rng, a):
    """A call the engine takes as it stands, by the player in turn."""
    seat = a.turn
    if rng.random() < 0.08 and a.classify(seat, DOUBLE) is None:
        return DOUBLE
    low = a.last_bid + 1 if a.last_bid >= 0 else FIRST_BID
    if rng.random() < 0.55 or low > FIRST_BID + 5 * 4 + 4:
        return PASS
    return rng.randint(low, min(LAST, low + 6))


def board_records(rng, board, irregular=0.25):
    """(records, truth) of one board: truth = (bid, risk, declarer, passed_out, tricks, ns)."""
    a = Auction(law2.dealer(board))
    out = [("board", {"b": board})]
    injected = False
    while not a.is_over():
        if not injected and a.last_bid > FIRST_BID and rng.random() < irregular:
            injected = True
            seat, bad = a.turn, rng.randint(FIRST_BID, a.last_bid - 1)
            law = a.call(seat, bad)
            out.append(("call", {"b": board, "s": seat, "c": bad}))
            if a.status == DIRECTOR:
                a.accept()
                out.append(("dir", {"b": board, "d": "accept"}))
            if law is None or a.status == DIRECTOR:
                raise AssertionError("the engine did not hold and settle an insufficient bid")
            continue
        seat, call = a.turn, _choose(rng, a)
        if a.call(seat, call) is not None:
            raise AssertionError("the generator made an irregular call by mistake")
        out.append(("call", {"b": board, "s": seat, "c": call}))
    c = a.contract()
    if c is None:
        tricks, ns, truth = 0, 0, (None, None, None, 1)
    else:
        bid, risk, declarer = c
        tricks = max(0, min(13, level(bid) + 6 + rng.choice((-2, -1, 0, 0, 0, 1))))
        points = score(level(bid), strain(bid), risk,
                       law2.is_vulnerable(law2.vulnerability(board), declarer), tricks)
        ns = points if declarer in (0, 2) else -points
        truth = (bid, risk, declarer, 0)
    out.append(("res", {"b": board, "tr": tricks, "sc": ns}))
    out.append(("ver", {"b": board, "ok": 1}))
    return out, truth + (tricks, ns)


def table_round(seed, movement, table, rnd, section="A"):
    """(records, truth) of one table in one round of `movement`: truth maps board -> line."""
    rng = random.Random(seed)
    s = movement.seating(rnd, table)
    ns, ew = (s.ew, s.ns) if s.switched else (s.ns, s.ew)
    records = [("open", {"sec": section, "tbl": table, "rnd": rnd, "ns": ns, "ew": ew})]
    truth = {}
    for b in movement.board_numbers(s.board_set):
        recs, line = board_records(rng, b)
        records += recs
        truth[b] = line
    records.append(("close", {"rnd": rnd}))
    return records, truth


def results_in(db):
    """{(table, round, board): (bid, risk, declarer, passed_out, tricks, score_ns)} of the
    verified results in the database, for comparing with the truth."""
    rows = db.all(
        "SELECT t.number AS tbl, ro.number AS rnd, r.board, r.bid, r.risk, r.declarer, "
        "r.passed_out, r.tricks, r.score_ns FROM results r JOIN rounds ro ON ro.id = r.round_id "
        "JOIN tables t ON t.id = ro.table_id WHERE r.verified = 1")
    return {(r["tbl"], r["rnd"], r["board"]): (r["bid"], r["risk"], r["declarer"],
                                              r["passed_out"], r["tricks"], r["score_ns"])
            for r in rows}


def database_digest(db):
    """Everything synced, without the time stamps: equal for a clean run and a faulty one. A
    pairing's record is its kind alone: its fields are the terminal's clock and a fingerprint
    of the key, made from each event's own secret (ingest checks it: `pair_key_mismatch`)."""
    return {
        "records": [tuple(r) if r[2] != "pair" else tuple(r[:3]) for r in db.all(
            "SELECT terminal_id, seq, kind, body, round_id, board FROM records "
            "ORDER BY terminal_id, seq")],
        "results": [tuple(r) for r in db.all(
            "SELECT round_id, board, bid, risk, declarer, passed_out, source, tricks, "
            "score_ns, shown_ns, verified, terminal_id, seq FROM results "
            "ORDER BY round_id, board")],
        "calls": [tuple(r) for r in db.all("SELECT * FROM calls ORDER BY terminal_id, seq")],
        "rulings": [tuple(r)[1:] for r in db.all(
            "SELECT * FROM rulings ORDER BY terminal_id, seq, id")],
        "flags": [tuple(r)[1:] for r in db.all(
            "SELECT * FROM flags ORDER BY terminal_id, seq, why")],
        "terminals": [tuple(r) for r in db.all(
            "SELECT id, last_seq, section, table_no FROM terminals ORDER BY id")],
    }
