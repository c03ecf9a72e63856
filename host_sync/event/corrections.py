"""Corrections at the host in the correction period (Law 79C), for `host-sync result`: a
table's result on a board corrected (contract, declarer, tricks), replaced by the director's
adjusted score (Law 12C: artificial per side, assigned, weighted, split; or not played), or
deleted.

Each change is one audited write (host_sync.event.db: who, when, the values it replaced) and
leaves the line verified with `corrected_at` set and no terminal or seq: the scoring, every
export and the terminals' travellers read it at once, and a terminal record synced later does
not replace it (migration 005, docs/RECORDS.md). The open flags of the board at that table are
marked resolved in the same transaction. Anything that makes no sense (no such table, board or
round; a contract that cannot be; tricks out of 0..13; weights not adding up to 100) is
refused with the reason and nothing is written.

An adjusted score is stored in the form of the terminal's `adj` record (docs/RECORDS.md), so
it is read the same wherever it was given; a split score (12C1e: each side its own assigned
score) is the host's own form `{"how": "split", "ns": part, "ew": part}`.
"""

import json
from collections import namedtuple

from bridge import boards as law2
from bridge.calls import parse_contract

from host_sync.errors import Refused
from host_sync.event import setup
from host_sync.event.db import now
from host_sync.event.results import code_points

ACTOR = "director"
ARTIFICIAL = {"A+": 60, "A": 50, "A-": 40}
SEAT_LETTERS = {"N": 0, "E": 1, "S": 2, "W": 3, "С": 0, "В": 1, "Ю": 2, "З": 3}

Where = namedtuple("Where", "session_id section table round_id round board")
Where.__doc__ = """The traveller line a correction is about: the round of `table` that had
`board`, in section `section` of the session."""


class CorrectionError(Refused):
    """A correction that makes no sense; the message says why and nothing was written."""


def locate(db, board, table, section=None, round_no=None, session=None):
    """The Where of board `board` at table `table`; CorrectionError if there is none, or if the
    table had the board in more than one round and `round_no` does not say which."""
    sid = setup.session_id(db, setup.the_event(db)[0], session)
    letters = [r[0] for r in db.all("SELECT letter FROM sections WHERE session_id = ? "
                                    "ORDER BY letter", (sid,))]
    if section is None:
        if len(letters) != 1:
            raise CorrectionError("the session has sections %s: say which with --section" %
                                  ", ".join(letters))
        section = letters[0]
    section = section.strip().upper()
    if section not in letters:
        raise CorrectionError("the session has no section %r" % section)
    rounds = db.all(
        "SELECT ro.id, ro.number FROM rounds ro JOIN tables t ON t.id = ro.table_id "
        "JOIN sections s ON s.id = t.section_id WHERE s.session_id = ? AND s.letter = ? "
        "AND t.number = ? AND (EXISTS (SELECT 1 FROM round_boards rb WHERE rb.round_id = "
        "ro.id AND rb.board = ?) OR EXISTS (SELECT 1 FROM results r WHERE r.round_id = ro.id "
        "AND r.board = ?)) ORDER BY ro.number", (sid, section, table, board, board))
    if round_no is not None:
        rounds = [r for r in rounds if r["number"] == round_no]
    if not rounds:
        raise CorrectionError("table %s%d did not play board %d%s" % (
            section, table, board, "" if round_no is None else " in round %d" % round_no))
    if len(rounds) > 1:
        raise CorrectionError("table %s%d had board %d in rounds %s: say which with --round" % (
            section, table, board, ", ".join(str(r["number"]) for r in rounds)))
    return Where(sid, section, table, rounds[0]["id"], rounds[0]["number"], board)


# -- reading the director's words ----------------------------------------------------------

def contract(text):
    """(bid code, risk) of '4S', '3NTX', '2HXX' (Russian БК for NT too); None for 'pass'."""
    word = str(text).strip().upper().replace("БК", "NT")
    try:
        return parse_contract("PASS" if word == "ПАС" else word)  # Law 18A: 1C..7NT only
    except ValueError:
        raise CorrectionError("contract %r: expected a bid 1C..7NT, with X or XX if doubled, "
                              "or pass" % (text,)) from None


def declarer(text):
    seat = SEAT_LETTERS.get(str(text).strip().upper())
    if seat is None:
        raise CorrectionError("declarer %r: expected N, E, S or W" % (text,))
    return seat


def tricks(text):
    try:
        value = int(text)
    except (TypeError, ValueError):
        value = -1
    if not 0 <= value <= 13:
        raise CorrectionError("tricks %r: declarer's tricks are a number 0..13" % (text,))
    return value


def part(text):
    """[percent, ct, x, dcl, tr] of '4S N 10' or '60% 4SX N 8' (percent 100 when left out)."""
    words = str(text).split()
    percent = 100
    if words and words[0].endswith("%"):
        try:
            percent = int(words.pop(0)[:-1])
        except ValueError:
            percent = -1
        if not 0 < percent <= 100:
            raise CorrectionError("%r: a weight is a percentage 1..100" % (text,))
    if len(words) != 3:
        raise CorrectionError("%r: expected CONTRACT DECLARER TRICKS such as '4S N 10', "
                              "with a weight first in a weighted score ('60%% 4S N 10')" %
                              (text,))
    made = contract(words[0])
    if made is None:
        raise CorrectionError("%r: an assigned score is a contract, not a pass" % (text,))
    return [percent, made[0], made[1], declarer(words[1]), tricks(words[2])]


def artificial(code):
    """The percentage of 'A+', 'A', 'A-' or '55%' (0..100)."""
    text = str(code).strip().upper()
    if text in ARTIFICIAL:
        return ARTIFICIAL[text]
    try:
        value = int(text[:-1]) if text.endswith("%") else -1
    except ValueError:
        value = -1
    if not 0 <= value <= 100:
        raise CorrectionError("artificial score %r: expected A+, A, A- or a percentage such "
                              "as 55%%" % (code,))
    return value


def adjustment(art=None, assigned=None, split=None, not_played=False):
    """The stored adjustment of exactly one of: art (NS code, EW code), assigned (a list of
    part texts: one is assigned, more are weighted), split (NS part text, EW part text), or
    not_played."""
    given = [x for x in (art, assigned, split) if x] + ([True] if not_played else [])
    if len(given) != 1:
        raise CorrectionError("give one adjusted score: --artificial, --assigned, --split or "
                              "--not-played")
    if not_played:
        return {"how": "np"}
    if art:
        return {"how": "art", "ns": artificial(art[0]), "ew": artificial(art[1])}
    if split:
        ns, ew = part(split[0]), part(split[1])
        if ns[0] != 100 or ew[0] != 100:
            raise CorrectionError("a split score gives each side one assigned score, "
                                  "without weights")
        return {"how": "split", "ns": ns[1:], "ew": ew[1:]}
    parts = [part(x) for x in assigned]
    if len(parts) == 1:
        if parts[0][0] != 100:
            raise CorrectionError("one assigned score has no weight; a weighted score has "
                                  "two parts or more")
        _, ct, x, dcl, tr = parts[0]
        return {"how": "asg", "ct": ct, "x": x, "dcl": dcl, "tr": tr}
    if sum(p[0] for p in parts) != 100:
        raise CorrectionError("the weights of a weighted score add up to %d%%, not 100%%" %
                              sum(p[0] for p in parts))
    return {"how": "wgt", "parts": parts}


# -- the writes ----------------------------------------------------------------------------

def _vul(db, where):
    vul = db.value("SELECT vul FROM boards WHERE session_id = ? AND number = ?",
                   (where.session_id, where.board))
    return vul or law2.vulnerability(where.board)


def _write(db, where, values, actor):
    """Put `values` on the line (insert or update), as the host's, and resolve the board's
    flags at that table; returns the old line (a dict) or None."""
    values = dict(values, verified=1, terminal_id=None, seq=None, corrected_at=now())
    with db.transaction():
        old = db.one("SELECT * FROM results WHERE round_id = ? AND board = ?",
                     (where.round_id, where.board))
        if old is None:
            db.insert("results", dict(values, round_id=where.round_id, board=where.board),
                      actor)
        else:
            db.update("results", {"id": old["id"]}, values, actor)
        _resolve_flags(db, where, actor)
    return None if old is None else dict(old)


def _resolve_flags(db, where, actor):
    for row in db.all("SELECT id FROM flags WHERE round_id = ? AND board = ? AND resolved = 0",
                      (where.round_id, where.board)):
        db.update("flags", {"id": row["id"]}, {"resolved": 1}, actor)


def correct(db, where, contract_text, declarer_text=None, tricks_text=None, actor=ACTOR):
    """The table's result replaced by `contract_text` ('pass', or a contract with its
    declarer and declarer's tricks), scored by Law 77."""
    made = contract(contract_text)
    if made is None:
        if declarer_text is not None or tricks_text is not None:
            raise CorrectionError("a passed-out board has no declarer and no tricks")
        values = {"bid": None, "risk": None, "declarer": None, "passed_out": 1, "tricks": 0,
                  "score_ns": 0}
    else:
        if declarer_text is None or tricks_text is None:
            raise CorrectionError("a contract needs its declarer and declarer's tricks: "
                                  "4S N 10")
        seat, won = declarer(declarer_text), tricks(tricks_text)
        values = {"bid": made[0], "risk": made[1], "declarer": seat, "passed_out": 0,
                  "tricks": won, "score_ns": code_points(_vul(db, where), made[0], made[1],
                                                       seat, won)}
    values.update(source="host", shown_ns=None, adjustment=None)
    return _write(db, where, values, actor)


def adjust(db, where, adj, actor=ACTOR):
    """The table's result replaced by the adjusted score `adj` (from `adjustment`)."""
    values = {"source": "adjusted", "passed_out": 0, "bid": None, "risk": None,
              "declarer": None, "tricks": None, "score_ns": None, "shown_ns": None,
              "adjustment": json.dumps(adj, sort_keys=True)}
    if adj["how"] == "asg":
        values.update(bid=adj["ct"], risk=adj["x"], declarer=adj["dcl"], tricks=adj["tr"],
                      score_ns=code_points(_vul(db, where), adj["ct"], adj["x"], adj["dcl"],
                                         adj["tr"]))
    return _write(db, where, values, actor)


def delete(db, where, actor=ACTOR):
    """The table's line on the board removed (the audit keeps its last values); the old line."""
    with db.transaction():
        old = db.one("SELECT * FROM results WHERE round_id = ? AND board = ?",
                     (where.round_id, where.board))
        if old is None:
            raise CorrectionError("table %s%d has no result on board %d to delete" % (
                where.section, where.table, where.board))
        if old["corrected_at"] is not None:  # the triggers keep a corrected line from deletes
            db.update("results", {"id": old["id"]}, {"corrected_at": None}, actor)
        db.delete("results", {"id": old["id"]}, actor)
        _resolve_flags(db, where, actor)
    return dict(old)

