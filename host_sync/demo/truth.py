"""The simulated truth against the scoring database: every table's round and board as the
players and the director made it, and as the host stored it after the syncs.

Compared per table, round and board: the traveller line (contract, declarer, tricks, score;
verified), every call with the law it was held under, every director's entry and law
paragraph applied, the flags for the director, the opening lead; per round: the pairs,
their player numbers, the terminal that opened it and its closing. Anything the database
holds that the truth does not (a flag of the host's own, a result at a table that did not
play the board) is a difference too.
"""

import json
from collections import Counter

_ROUND = ("SELECT t.number AS tbl, ro.number AS rnd, ro.id AS rid FROM rounds ro "
          "JOIN tables t ON t.id = ro.table_id")


def database_view(db):
    """{(table, round): {"round": (...), "boards": {board: {...}}}} of everything stored."""
    rounds = {r["rid"]: (r["tbl"], r["rnd"]) for r in db.all(_ROUND)}
    view = {}

    def board(rid, b):
        entry = view.setdefault(rounds[rid], {"round": None, "boards": {}})
        return entry["boards"].setdefault(b, {"line": None, "calls": [], "rulings": [],
                                              "flags": Counter(), "lead": None})

    for r in db.all("SELECT ro.id, ro.ns_pair, ro.ew_pair, ro.terminal_id, ro.closed, "
                    "rec.body FROM rounds ro LEFT JOIN records rec ON rec.round_id = ro.id "
                    "AND rec.kind = 'open' AND rec.valid = 1"):
        if r["body"] is not None:
            entry = view.setdefault(rounds[r["id"]], {"round": None, "boards": {}})
            entry["round"] = (r["ns_pair"], r["ew_pair"], json.loads(r["body"]).get("pl"),
                              r["terminal_id"], r["closed"])
    for r in db.all("SELECT * FROM results"):
        board(r["round_id"], r["board"])["line"] = (
            r["bid"], r["risk"], r["declarer"], r["passed_out"], r["tricks"], r["score_ns"],
            r["verified"])
    for r in db.all("SELECT * FROM calls ORDER BY terminal_id, seq"):
        board(r["round_id"], r["board"])["calls"].append((r["seat"], r["call"], r["law"]))
    for r in db.all("SELECT * FROM rulings ORDER BY terminal_id, seq, id"):
        board(r["round_id"], r["board"])["rulings"].append((r["entry"], r["law"]))
    for r in db.all("SELECT * FROM flags"):
        if r["round_id"] is None or r["board"] is None:
            entry = view.setdefault(("-", "-"), {"round": None, "boards": {}})
            entry["boards"].setdefault(0, {"flags": Counter()})["flags"][
                (r["source"], r["why"], r["law"], r["detail"])] += 1
            continue
        board(r["round_id"], r["board"])["flags"][(r["source"], r["why"], r["law"])] += 1
    for r in db.all("SELECT round_id, board, body FROM records WHERE kind = 'lead' "
                    "AND valid = 1 ORDER BY terminal_id, seq"):
        d = json.loads(r["body"])
        board(r["round_id"], r["board"])["lead"] = (d["s"], d["cd"])
    return view


def truth_view(rounds, terminals):
    """The same shape from the simulation: rounds = [RoundTruth], terminals = {table: id}."""
    view = {}
    for rt in rounds:
        boards = {}
        for b, t in rt.boards.items():
            boards[b] = {"line": t.line() + (1,), "calls": t.calls, "rulings": t.rulings,
                         "flags": Counter(t.flags), "lead": t.lead}
        view[(rt.table, rt.round)] = {
            "round": (rt.ns, rt.ew, rt.players, terminals[rt.table], 1), "boards": boards}
    return view


def differences(db, rounds, terminals):
    """Lines naming every difference between the database and the truth (empty: none)."""
    have, want = database_view(db), truth_view(rounds, terminals)
    out = []
    for key in sorted(set(have) | set(want), key=str):
        where = "table %s round %s" % key
        h, w = have.get(key), want.get(key)
        if h is None or w is None:
            out.append("%s: %s" % (where, "not in the database" if h is None else
                                   "in the database, not played: %r" % (h,)))
            continue
        if h["round"] != w["round"]:
            out.append("%s: pairs, players, terminal, closed: database %r, truth %r" % (
                where, h["round"], w["round"]))
        for b in sorted(set(h["boards"]) | set(w["boards"])):
            hb, wb = h["boards"].get(b), w["boards"].get(b)
            if hb is None or wb is None:
                out.append("%s board %s: %s" % (where, b, "missing in the database"
                                                if hb is None else "not played: %r" % (hb,)))
                continue
            for part in ("line", "calls", "rulings", "flags", "lead"):
                if hb[part] != wb[part]:
                    out.append("%s board %s: %s: database %r, truth %r" % (
                        where, b, part, hb[part], wb[part]))
    return out
