"""Ingest: one terminal's journal records into the scoring database, re-validated.

`ingest(db, terminal_id, prev, records)` stores a batch in one transaction: the raw records
(the truth, keyed by (terminal, seq): a repeat is ignored), and what the host makes of them by
replaying the facts through the Laws core (docs/RECORDS.md): rounds claimed, calls and rulings,
the host's own contract and Law 77 score on each traveller line, and flags for the director
wherever the terminal's view or the movement disagrees. The terminal's derived values are
never taken: a disagreement is a flag, never an overwrite.

Records arrive as a chain: `prev` is the journal sequence just before the first record, so a
batch whose chain does not start at or below what is stored is a transit loss (refused, the
host pulls again) while a hole inside an unbroken chain is a journal gap (stored, flagged).
"""

import hashlib
import json
import logging
from collections import namedtuple

from bridge import boards as law2
from bridge import play_records
from bridge.auction import Auction
from bridge.calls import FIRST_BID, LAST_BID, MAX_LEVEL, level, strain
from bridge.cards import parse_deal, token
from bridge.lawcodes import DIRECTOR

from host_sync.event import corrections
from host_sync.event.auctions import replay
from host_sync.event.db import Pending, json_text, now
from host_sync.event.flags import detail
from host_sync.event.setup import current_session, terminal_key, the_event
from host_sync.scoring.session import ns_points
from host_sync.station.link import cbor_encode, shown

log = logging.getLogger("host_sync.station.ingest")

ACTOR = "sync"
LAST_CONTRACT = FIRST_BID + MAX_LEVEL * 5 - 1

Report = namedtuple("Report", "stored duplicates last refused")
Report.__doc__ = """What one batch did: records stored, repeats ignored, the last seq now stored,
and None or the reason the rest of the batch was refused (a broken chain)."""


class Invalid(ValueError):
    """A record whose fields break docs/RECORDS.md: stored as received, flagged, not applied."""


# -- field checks ----------------------------------------------------------------------------

def _int(data, name, low, high, optional=False):
    value = data.get(name)
    if type(value) is int and low <= value <= high:  # a bool is no number here
        return value
    if value is None and optional:
        return None
    raise Invalid("%s must be a whole number %d..%d, not %r" % (name, low, high, value))


def _text(data, name, choices=None, optional=False):
    value = data.get(name)
    if value is None and optional:
        return None
    # printable: a NUL or a control character has no business in a code or a section's
    # name, and PostgreSQL's text refuses a NUL (it failed the whole window)
    if not isinstance(value, str) or not value or len(value) > 40 or not value.isprintable() \
            or (choices and value not in choices):
        raise Invalid("%s must be %s, not %r" % (
            name, " or ".join(choices) if choices else "short printable text", value))
    return value


BIG = 10000  # no table, round, pair or board number is larger
# No journal reaches this seq, and the event database keeps none past it (its INTEGER columns
# are 32 bits on PostgreSQL): a record at or above it ends its window, as a broken chain does.
MAX_SEQ = 2 ** 31
SEAT = (0, 3)
CARD_REFUSALS = 3  # cards refused on one board before the director is called (terminal.session)
ADJ_HOW = ("art", "asg", "wgt", "np")


def _contract_fields(data):
    return (_int(data, "ct", FIRST_BID, LAST_CONTRACT), _int(data, "x", 0, 2),
            _int(data, "dcl", *SEAT))


def check(kind, data):
    """Raise Invalid unless data holds the fields RECORDS.md gives `kind` (extra keys pass)."""
    if not isinstance(data, dict):
        raise Invalid("the fields of a %s record must be a map" % kind)
    if not all(isinstance(name, str) for name in data):
        raise Invalid("the fields of a %s record must be named by text" % kind)
    if kind == "open":
        _text(data, "sec")
        for name in ("tbl", "rnd", "ns", "ew"):
            _int(data, name, 1, BIG)
        return
    if kind == "close":
        _int(data, "rnd", 1, BIG)
        return
    if kind == "flag":
        _int(data, "b", 1, BIG, optional=True)
        _text(data, "law", optional=True)
        _text(data, "why")
        return
    if kind == "td":
        _int(data, "ok", 0, 1)
        _int(data, "lock", 1, 1, optional=True)
        return
    if kind == "st":  # the self-test's outcome (terminal.boot.self_test)
        _int(data, "k", 0, 2 ** 32 - 1)
        for name, top in (("fl", 1), ("fr", 1 << 24), ("led", 16), ("bz", BIG), ("lit", 1)):
            _int(data, name, 0, top)
        _text(data, "fw")
        return
    if kind == "pair":
        _int(data, "t", 0, 2 ** 32)
        _fingerprint(data)
        return
    if kind not in _BOARD_KINDS:
        raise Invalid("unknown record kind %r" % kind)
    _int(data, "b", 1, BIG)
    _BOARD_KINDS[kind](data)


def _fingerprint(data):
    value = data.get("fp")
    if not isinstance(value, bytes) or len(value) != FINGERPRINT:
        raise Invalid("fp must be the key's %d-byte fingerprint, not %r" % (FINGERPRINT,
                                                                             value))
    return value


FINGERPRINT = 8  # bytes of SHA-256 of a terminal's key in its `pair` record


def fingerprint(key):
    """What a `pair` record carries of the key: the first bytes of its SHA-256, never the
    key."""
    return hashlib.sha256(key).digest()[:FINGERPRINT]


def _seat_card(d):
    return _int(d, "s", *SEAT), _int(d, "cd", 0, 51)


def _check_call(d):
    _int(d, "s", *SEAT)
    _int(d, "c", 0, LAST_BID)
    _int(d, "ch", 1, 2, optional=True)
    _int(d, "art", 0, 1, optional=True)
    _int(d, "sm", 0, 1, optional=True)


def _check_quick(d):
    if d.get("po") is not None:
        _int(d, "po", 1, 1)
    else:
        _contract_fields(d)


def _check_adj(d):
    how = _text(d, "how", ADJ_HOW)
    if how == "art":
        _int(d, "ns", 0, 100)
        _int(d, "ew", 0, 100)
    elif how == "asg":
        _contract_fields(d)
        _int(d, "tr", 0, 13)
    elif how == "wgt":
        parts = d.get("parts")
        if not isinstance(parts, list) or not parts:
            raise Invalid("parts must be a non-empty list")
        for p in parts:
            if not isinstance(p, list) or len(p) != 5:
                raise Invalid("each part is [percent, ct, x, dcl, tr], not %r" % (p,))
            _contract_fields({"ct": p[1], "x": p[2], "dcl": p[3]})
            _int({"pc": p[0], "tr": p[4]}, "pc", 0, 100)
            _int({"tr": p[4]}, "tr", 0, 13)
        if sum(p[0] for p in parts) != 100:
            raise Invalid("the weights of the parts must add up to 100")


def _check_fix(d):
    pairs = d.get("pr")
    if not isinstance(pairs, list) or len(pairs) != 2:
        raise Invalid("pr must be [NS pair, EW pair], not %r" % (pairs,))
    _int({"pr": pairs[0]}, "pr", 1, BIG), _int({"pr": pairs[1]}, "pr", 1, BIG)
    how = _text(d, "how", ("res", "erase") + ADJ_HOW)
    if how == "res":
        _check_quick(d)
        _int(d, "tr", 0, 13, optional=d.get("po") is not None)  # a pass-out has no tricks
        _int(d, "sc", -10000, 10000, optional=True)
    elif how != "erase":
        _check_adj(d)


def _check_pdir(d):
    _text(d, "d", play_records.ENTRIES)
    _int(d, "su", 0, 3, optional=True)
    _int(d, "cd", 0, 51, optional=True)
    _int(d, "tr", 0, 13, optional=True)
    _int(d, "s", *SEAT, optional=True)
    _int(d, "t", 0, 12, optional=True)


_BOARD_KINDS = {
    "board": lambda d: None,
    "call": _check_call,
    "dir": lambda d: _text(d, "d", ("accept", "reject")),
    "quick": _check_quick,
    "lead": _seat_card,
    "card": _seat_card,
    "rc": _seat_card,
    "claim": lambda d: (_int(d, "s", *SEAT), _int(d, "tr", 0, 13), _int(d, "ok", 0, 2),
                        _int(d, "con", 0, 1, optional=True)),
    "pdir": _check_pdir,
    "res": lambda d: (_int(d, "tr", 0, 13), _int(d, "sc", -10000, 10000)),
    "ver": lambda d: _int(d, "ok", 0, 1),
    "adj": _check_adj,
    "erase": lambda d: None,
    "fix": _check_fix,
}


# -- scoring ---------------------------------------------------------------------------------

def ns_score(board, vul, bid, risk, declarer, tricks):
    """Law 77 score for NS of a contract made by `declarer` with `tricks` won."""
    return ns_points(level(bid), strain(bid), risk, vul, declarer, tricks)


# -- the batch -------------------------------------------------------------------------------

def ingest(db, terminal_id, prev, records, actor=ACTOR):
    """Store one chained batch of (seq, kind, data) records of a known terminal.

    prev: the journal sequence just before records[0]. Returns a Report.
    """
    with db.transaction():
        t, last_round = _terminal(db, terminal_id)
        if t is None:
            raise LookupError("terminal %s is not registered at this event" % terminal_id)
        last = t["last_seq"]
        if prev > last:
            return Report(0, 0, last, "chain: records after %d arrived, %d is stored" % (
                prev, last))
        run = _Run(db, t, last_round, actor)
        stored = duplicates = 0
        previous = prev
        for seq, kind, data in records:
            if seq <= previous:
                return _finish(t, run, stored, duplicates, last,
                               "chain: seq %d after %d" % (seq, previous))
            previous = seq
            if seq >= MAX_SEQ:
                return _finish(t, run, stored, duplicates, last,
                               "chain: seq %d is past any journal's (%d)" % (seq, MAX_SEQ - 1))
            if seq <= last:
                duplicates += 1
                continue
            if seq > last + 1:
                run.flag(seq, None, "journal_gap", None,
                         detail("journal_gap", last + 1, seq - 1))
            run.apply_safely(seq, kind, data)
            last = seq
            stored += 1
        return _finish(t, run, stored, duplicates, last, None)


def _terminal(db, terminal_id):
    """(the terminal's row or None, the round of the last record stored from its current
    journal or None), read in one statement. Facts come from the current journal only: a
    journal restarted after a wiped flash (terminal reset) starts its rounds and boards over."""
    row = db.one(
        "SELECT t.*, (SELECT r.round_id FROM records r WHERE r.terminal_id = t.id AND "
        "r.seq > t.journal_offset ORDER BY r.seq DESC LIMIT 1) AS last_round FROM terminals t "
        "WHERE t.id = ?", (terminal_id,))
    return row, (None if row is None else row["last_round"])


def _finish(t, run, stored, duplicates, last, refused):
    """The window's writes and the terminal's new last_seq, held and written together (the
    run holds the writer's lock since it read `t`: its last_seq and last_seen are still
    those), audited as db.update audits a change: the columns that changed."""
    if stored:
        new = {"last_seq": last, "last_seen": now()}
        changed = {n: v for n, v in new.items() if t[n] != v}
        if changed:
            run.pending.update("terminals", t["id"], {n: t[n] for n in changed}, changed)
    run.pending.flush(commit=True)  # the window's last statements: COMMIT sent with them
    return Report(stored, duplicates, last, refused)


_ABSENT = object()  # in _Run's undo log: the cache had no entry


class _Run:
    """Applies records of one terminal within one transaction.

    A window of records is written in a few statements, not several per record (issue 17:
    on PostgreSQL every statement is a round trip): the records, calls, rulings and flags it
    adds are held in `pending` and written together, and what the replay reads back comes
    from what this run holds: the facts of each board (`facts`, read from the database once
    per board and then kept up to date), the rounds, boards and flags it has seen. This is
    sound because the run holds the writer's lock: nobody else changes those rows meanwhile.
    Writes that must happen at once (a round or table gets its id, a traveller line meets the
    triggers of migration 005) flush what is held first."""

    def __init__(self, db, t, round_id, actor):
        self.db = db
        self.tid = t["id"]
        self.actor = actor
        self.pending = Pending(db, actor, self.tid, ids=("rulings", "flags"))
        self.facts = {}  # (round, board) -> [seq, kind, fields as stored, valid] by seq;
        # fields read from the database stay their JSON text until a replay asks (`_valid`)
        self.rounds = {}  # round id -> {number, closed, terminal_id}
        self.boards = {}  # board number -> the session's boards row, None if it has none
        self.planned = {}  # round id -> its boards
        self.flagged = set()  # (seq, why) raised in this run
        self.first_new = t["last_seq"] + 1  # records from here on are new in this run
        self.results = {}  # (round, board) -> its traveller line as held here, or None
        self.undo = []  # (cache, key, value before or _ABSENT) of `results` and `rounds`,
        # to put back when a record fails
        self.mark = None  # where the record being applied began in `pending`
        self.savepoint = False  # the record's savepoint is open
        self.saved = None  # what `pending` held before a flush inside the savepoint
        self.session = t["session_id"] or current_session(db, t["event_id"])
        self.placed = t["table_no"] is not None
        if not self.placed:  # not placed: no configuration ties it to an older session
            self.session = current_session(db, t["event_id"]) or self.session
            if self.session != t["session_id"]:
                self.pending.update("terminals", self.tid, {"session_id": t["session_id"]},
                                    {"session_id": self.session})
        self.terminal = t  # its row as read at the start of the run, for the audit's old values
        self.since = t["journal_offset"]  # facts come from its current journal (`_terminal`)
        self.round = round_id
        if self.round is not None:
            self._load_round()
        self.auctions = {}
        self.plays = {}

    # -- storage helpers --

    def _touch(self):
        """Before a write that goes to the database at once (it must, to get its id): inside
        a record, the record's savepoint is opened, so a failing record undoes its own writes
        and nothing else."""
        if self.mark is not None and not self.savepoint:
            self.db.conn.execute("SAVEPOINT record")
            self.savepoint = True

    def _flush(self):
        """Write everything held now (a trigger is about to read it); inside a record, what
        it wrote is kept to be held again if the record's savepoint is rolled back."""
        self._touch()
        if self.savepoint and self.saved is None:
            self.saved = self.pending.saved()
        self.pending.flush()

    def _insert(self, table, values):
        self._touch()
        return self.db.insert(table, values, self.actor, self.tid)

    def _update(self, table, key, values):
        self._touch()
        return self.db.update(table, key, values, self.actor, self.tid)

    def flag(self, seq, board, why, law, detail, source="host"):
        if (seq, why) in self.flagged or seq < self.first_new and self.db.one(
                "SELECT 1 FROM flags WHERE terminal_id = ? AND seq = ? AND why = ?",
                (self.tid, seq, why)):
            return
        self.flagged.add((seq, why))
        self.pending.insert("flags", {"session_id": self.session, "round_id": self.round,
                                      "board": board, "terminal_id": self.tid, "seq": seq,
                                      "source": source, "why": why, "law": law,
                                      "detail": detail})

    def apply_safely(self, seq, kind, data):
        """apply() inside its own savepoint: an authentic record that the checks let through
        but that still cannot be applied (odd fields no check foresaw) is rolled back, stored
        as received with valid = 0 and flagged `invalid_record`, so it never blocks the
        terminal's later records (a poison record). The traceback goes to the log: it is a
        gap in check() to close."""
        conn = self.db.conn
        round_before = self.round
        self.mark, self.savepoint, self.saved = self.pending.mark(), False, None
        undo = len(self.undo)
        try:
            self.apply(seq, kind, data)
        except Exception as e:
            if self.savepoint:
                conn.execute("ROLLBACK TO record")
                conn.execute("RELEASE record")
            if self.saved is not None:
                self.pending.restore(self.saved)
            self.pending.drop(self.mark)
            for cache, key, before in reversed(self.undo[undo:]):
                if before is _ABSENT:
                    cache.pop(key, None)
                else:
                    cache[key] = before
            del self.undo[undo:]
            self.mark, self.savepoint, self.saved = None, False, None
            log.exception("terminal %s record %d (%s) could not be applied", self.tid, seq,
                          shown(kind))
            self.round = round_before
            self.auctions.clear()
            self.plays.clear()
            self.flagged = {f for f in self.flagged if f[0] != seq}
            for facts in self.facts.values():
                facts[:] = [f for f in facts if f[0] != seq]
            board = data.get("b") if isinstance(data, dict) else None
            self._store(seq, kind, data, board if type(board) is int and 1 <= board <= BIG
                        else None, valid=0)
            self.flag(seq, None, "invalid_record", None, detail(
                "not_applied", shown(kind, 40), shown(repr(e), 120)))
            return
        if self.savepoint:
            conn.execute("RELEASE record")
        self.mark, self.savepoint, self.saved = None, False, None
        del self.undo[:]

    def apply(self, seq, kind, data):
        board = data.get("b") if isinstance(data, dict) else None
        try:
            check(kind, data)
        except Invalid as e:  # kept as received with valid = 0: no reader takes it as a fact
            sane = type(board) is int and 1 <= board <= BIG
            self._store(seq, kind, data, board if sane else None, valid=0)
            self.flag(seq, None, "invalid_record", None,
                      detail("bad_record", shown(kind, 40), str(e)))
            return
        if kind == "open":
            self._open(seq, data)  # sets self.round before the record is stored
        self._store(seq, kind, data, board)
        if kind == "open":
            return
        if kind == "td":  # a director's entry at the keypad, in a round or between rounds
            if data.get("lock"):
                self.flag(seq, None, "pin_lockout", None, "", source="terminal")
            return
        if kind == "st":  # a self-test at power-on: listed (event.flags), outside any round
            return
        if kind == "pair":  # the terminal took a key at a pairing, in a round or between
            self._pair(seq, data)
            return
        if self.round is None:
            self.flag(seq, board, "no_round", None, detail("before_open", kind))
            return
        if not self._claimant():
            return  # stored, flagged at its open; the director decides whose table it is
        if kind == "close":
            self._close(seq, data)
        elif kind == "flag":
            self.flag(seq, data.get("b"), data["why"], data.get("law"), "", source="terminal")
        else:
            getattr(self, "_" + kind)(seq, board, data)

    def _store(self, seq, kind, data, board, valid=1):
        key = {"terminal_id": self.tid, "seq": seq}
        body = _body(data)
        if not valid:  # its kind may be anything a frame holds: kept as a console shows it
            kind = shown(kind, 40)
        self.pending.insert("records", dict(key, kind=kind, board=board, round_id=self.round,
                                            body=body, valid=valid, received_at=now()), key)
        if self.round is not None and board is not None:
            # a valid record's checked fields (whole numbers, texts, lists of them) read back
            # from its body as they are: the run keeps them, not a decoding of the body (an
            # invalid one's fields are never replayed: its text is kept)
            self._facts(board).append([seq, kind, data if valid else body, valid])

    def _facts(self, board):
        """The stored records of `board` at this round from the terminal's current journal, in
        order, as [seq, kind, fields, valid]: read once a round (`_load_round`), then kept by
        _store."""
        key = (self.round, board)
        if key not in self.facts:
            if (self.round, None) not in self.facts:
                self._load_round()
            self.facts.setdefault(key, [])
        return self.facts[key]

    def _load_round(self):
        """Read what the replay needs of the current round, those reads sent together (on
        PostgreSQL one round trip, not one each): its row, its records from the terminal's
        current journal, its traveller lines, and its planned boards with their rows of the
        session's boards; each only if this run does not hold it already (what it holds is
        newer than the database: it may not be written yet)."""
        rid = self.round
        reads = {}
        if rid not in self.rounds:
            reads["round"] = ("SELECT number, closed, terminal_id FROM rounds WHERE id = ?",
                              (rid,))
        if (rid, None) not in self.facts:
            reads["facts"] = ("SELECT seq, kind, body, valid, board FROM records WHERE "
                              "round_id = ? AND terminal_id = ? AND board IS NOT NULL AND "
                              "seq > ? ORDER BY seq", (rid, self.tid, self.since))
        if (rid, None) not in self.results:
            reads["results"] = ("SELECT * FROM results WHERE round_id = ?", (rid,))
        if rid not in self.planned:
            reads["planned"] = ("SELECT p.board, b.number, b.dealer, b.vul, b.deal FROM "
                                "round_boards p LEFT JOIN boards b ON b.session_id = ? AND "
                                "b.number = p.board WHERE p.round_id = ?", (self.session, rid))
        ids = self.pending.ids_read(("results",))  # the window's new ids: counted from here
        if ids is not None:
            reads["ids"] = ids[1]
        got = dict(zip(reads, self.db.all_of(list(reads.values()))))
        if "ids" in got:
            self.pending.counted(ids, got["ids"][0])
        if "round" in got:
            self.rounds[rid] = dict(got["round"][0])
        if "facts" in got:
            self.facts[(rid, None)] = []
            for seq, kind, body, valid, board in got["facts"]:
                self.facts.setdefault((rid, board), []).append([seq, kind, body, valid])
        if "results" in got:
            self.results[(rid, None)] = None
            for row in got["results"]:
                line = dict(zip(row.keys(), row))  # not dict(row): a lookup by name per column
                self.results.setdefault((rid, line["board"]), line)
        if "planned" in got:
            self.planned[rid] = [r[0] for r in got["planned"]]
            for r in got["planned"]:
                self.boards.setdefault(r[0], None if r["number"] is None else r)

    def _valid(self, board, kinds, below=None, above=0):
        """The valid facts of `board` of these kinds, seq in (above, below), their fields
        decoded (a window mostly asks for the boards it plays: the round's others stay text)."""
        found = [f for f in self._facts(board) if f[3] and f[1] in kinds and f[0] > above and (
            below is None or f[0] < below)]
        for f in found:
            if type(f[2]) is str:
                f[2] = json.loads(f[2])
        return found

    def _round(self):
        """This round's row (number, closed, claimant), read once per run."""
        if self.round not in self.rounds:
            self._load_round()
        return self.rounds[self.round]

    def _set_round(self, rid, row):
        """This run's copy of round `rid`'s row from now on (put back if the record fails)."""
        self.undo.append((self.rounds, rid, self.rounds.get(rid, _ABSENT)))
        self.rounds[rid] = row

    def _claimant(self):
        return self._round()["terminal_id"] == self.tid

    # -- rounds --

    def _open(self, seq, d):
        db = self.db
        if d["ns"] == d["ew"]:
            self.flag(seq, None, "same_pair", None, detail(
                "same_pair", d["ns"], d["sec"], d["tbl"], d["rnd"]))
        found = db.one(  # the section, its table and the round there, in one read
            "SELECT s.id AS section_id, t.id AS table_id, r.id, r.number, r.ns_pair, "
            "r.ew_pair, r.terminal_id, r.closed FROM sections s "
            "LEFT JOIN tables t ON t.section_id = s.id AND t.number = ? "
            "LEFT JOIN rounds r ON r.table_id = t.id AND r.number = ? "
            "WHERE s.session_id = ? AND s.letter = ?",
            (d["tbl"], d["rnd"], self.session, d["sec"]))
        if found is None:
            self.round = None
            self.flag(seq, None, "unknown_table", None, detail("unknown_section", d["sec"]))
            return
        tid = found["table_id"]
        if tid is None:
            tid = self._insert("tables", {"section_id": found["section_id"],
                                          "number": d["tbl"]})
        if found["id"] is None and d["ns"] == d["ew"]:
            self.round = None  # no traveller line sets a pair against itself: no_round flags
            return
        if found["id"] is None:
            self.round = self._insert("rounds", {"table_id": tid, "number": d["rnd"],
                                                 "ns_pair": d["ns"], "ew_pair": d["ew"],
                                                 "terminal_id": self.tid})
            self._set_round(self.round, {"number": d["rnd"], "closed": 0,
                                         "terminal_id": self.tid})
            self.flag(seq, None, "not_in_movement", None, detail(
                "not_in_movement", d["sec"], d["tbl"], d["rnd"]))
        else:
            self.round = found["id"]
            if (found["ns_pair"], found["ew_pair"]) != (d["ns"], d["ew"]):
                self.flag(seq, None, "pairs_mismatch", None,
                          detail("pairs_mismatch", d["ns"], d["ew"], found["ns_pair"],
                                 found["ew_pair"]))
            row = self.rounds.get(self.round) or {
                "number": found["number"], "closed": found["closed"],
                "terminal_id": found["terminal_id"]}
            if row["terminal_id"] is None:  # the first claim: held, written with the window
                self.pending.update("rounds", self.round, {"terminal_id": None},
                                    {"terminal_id": self.tid})
                row = dict(row, terminal_id=self.tid)
            elif row["terminal_id"] != self.tid:
                self.flag(seq, None, "table_claimed", None,
                          detail("table_claimed", d["sec"], d["tbl"], d["rnd"],
                                 row["terminal_id"]))
            self._set_round(self.round, row)
        self._load_round()
        if not self.placed:
            t = self.terminal
            new = {"section": d["sec"], "table_no": d["tbl"]}
            changed = {n: v for n, v in new.items() if t[n] != v}
            self.pending.update("terminals", self.tid, {n: t[n] for n in changed}, changed)
            self.placed = True

    def _pair(self, seq, d):
        """A pairing (a director's entry: listed by `host-sync flags`); its fingerprint must
        be this terminal's key as the host derives it, else the key it took is another's."""
        if d["fp"] != fingerprint(terminal_key(the_event(self.db)[2], self.tid)):
            self.flag(seq, None, "pair_key_mismatch", None,
                      detail("pair_key_mismatch", d["fp"].hex()))

    def _close(self, seq, d):
        number = self._round()["number"]
        if d["rnd"] != number:
            self.flag(seq, None, "wrong_round", None, detail("wrong_round", d["rnd"], number))
            return
        self.pending.update("rounds", self.round, {"closed": 0}, {"closed": 1})
        self._set_round(self.round, dict(self._round(), closed=1))

    def _after_close(self, seq, board):
        if self._round()["closed"]:
            self.flag(seq, board, "after_close", None, detail("after_close"))
            return True
        return False

    # -- boards and auctions --

    def _board_row(self, board):
        """The session's boards row of `board` (dealer, vul, deal), or None: a planned board's
        row comes with its round's (`_load_round`), another's is read when first asked."""
        if board not in self.boards:
            self.boards[board] = self.db.one(
                "SELECT number, dealer, vul, deal FROM boards WHERE session_id = ? AND "
                "number = ?", (self.session, board))
        return self.boards[board]

    def _vul(self, board):
        row = self._board_row(board)
        return row and row["vul"] or law2.vulnerability(board)

    def _dealer(self, board):
        """The board's stored dealer (a deal imported in another rotation keeps its own, and
        the terminal starts the auction with it); Law 2's for a board the session lacks."""
        row = self._board_row(board)
        return law2.dealer(board) if row is None or row["dealer"] is None else row["dealer"]

    def _board(self, seq, board, d):
        if self._after_close(seq, board):
            return
        if self.round not in self.planned:
            self._load_round()
        planned = self.planned[self.round]
        if planned and board not in planned:
            self.flag(seq, board, "wrong_board", None,
                      detail("wrong_board", board, str(planned)))

    def auction(self, seq, board):
        """The host's auction of a board at this round before record `seq`, rebuilt from the
        stored facts (and then kept up to date for the rest of the batch)."""
        key = (self.round, board)
        if key not in self.auctions:
            a = Auction(self._dealer(board))
            for _seq, kind, fields, _valid in self._valid(board, ("call", "dir"), below=seq):
                replay(a, kind, fields)
            self.auctions[key] = a
        return self.auctions[key]

    def _call(self, seq, board, d):
        if self._after_close(seq, board):
            return
        a = self.auction(seq, board)
        done, pending = len(a.rulings), a.pending
        ok = replay(a, "call", d)
        law = a.pending[2] if ok and a.status == DIRECTOR and a.pending is not pending else None
        key = {"terminal_id": self.tid, "seq": seq}
        self.pending.insert("calls", dict(key, round_id=self.round, board=board, seat=d["s"],
                                          call=d["c"], event=a.events[-1], law=law), key)
        self._rulings(seq, board, None, a.rulings[done:])
        if not ok:
            self.flag(seq, board, "refused_call", None,
                      detail("refused_call"))

    def _dir(self, seq, board, d):
        if self._after_close(seq, board):
            return
        a = self.auction(seq, board)
        done = len(a.rulings)
        if not replay(a, "dir", d):
            self.flag(seq, board, "refused_dir", None,
                      detail("refused_dir", d["d"]))
        self._rulings(seq, board, d["d"], a.rulings[done:] or [None])

    def _rulings(self, seq, board, entry, laws):
        for law in laws:
            self.pending.insert("rulings", {"terminal_id": self.tid, "seq": seq,
                                            "round_id": self.round, "board": board,
                                            "entry": entry, "law": law})

    def _contract(self, seq, board):
        """(bid, risk, declarer, passed_out, source) the host stands by, or None."""
        a = self.auction(seq, board)
        quick = self._quick_contract(board)
        if a.events:
            if not a.is_over():
                law = a.pending[2] if a.status == DIRECTOR else None
                self.flag(seq, board, "auction_incomplete", law,
                          detail("auction_" + a.status))
                return None
            c = a.contract()
            mine = (c[0], c[1], c[2], 0) if c else (None, None, None, 1)
            if quick is not None and quick != mine:
                self.flag(seq, board, "contract_mismatch", None,
                          detail("contract_mismatch", repr(quick), repr(mine)))
            return mine + ("auction",)
        if quick is None:
            self.flag(seq, board, "no_contract", None, detail("no_contract"))
            return None
        return quick + ("quick",)

    def _quick_contract(self, board):
        quick = self._valid(board, ("quick",))
        if not quick:
            return None
        d = quick[-1][2]
        if d.get("po"):
            return (None, None, None, 1)
        return (d["ct"], d["x"], d["dcl"], 0)

    def _quick(self, seq, board, d):
        self._after_close(seq, board)
        self.plays.pop((self.round, board), None)  # a new contract: the play starts over

    # -- results --

    def _result(self, board):
        """The board's traveller line at this round (a dict), or None: read once per run, then
        kept as this run changes it."""
        if (self.round, None) not in self.results:
            self._load_round()
        return self.results.get((self.round, board))

    def _set_result(self, board, line):
        key = (self.round, board)
        self.undo.append((self.results, key, self.results.get(key, _ABSENT)))
        self.results[key] = line

    def _put_result(self, seq, board, values):
        values = dict(values, terminal_id=self.tid, seq=seq)
        old = self._result(board)
        if old is None:
            row_id = self.pending.new_id("results")
            line = dict(values, round_id=self.round, board=board)
            self.pending.insert("results", line, row_id=row_id)
            self._set_result(board, dict(line, id=row_id, corrected_at=None))
        else:
            self._update_result(board, old, values)

    def _update_result(self, board, old, values):
        changed = {n: v for n, v in values.items() if old[n] != v}
        if not changed:
            return
        if old["corrected_at"] is not None:  # migration 005's triggers rule on it: at once
            self._flush()
            self._update("results", {"id": old["id"]}, values)
            self._set_result(board, dict(self.db.one("SELECT * FROM results WHERE id = ?",
                                                     (old["id"],))))
            return
        self.pending.update("results", old["id"], {n: old[n] for n in changed}, changed)
        self._set_result(board, dict(old, **changed))

    def _res(self, seq, board, d):
        if self._after_close(seq, board):
            return
        old = self._result(board)
        if old is not None and old["verified"]:
            self.flag(seq, board, "result_exists", None,
                      detail("result_exists"))
            return
        c = self._contract(seq, board)
        values = {"tricks": d["tr"], "shown_ns": d["sc"], "verified": 0, "adjustment": None,
                  "bid": None, "risk": None, "declarer": None, "passed_out": 0,
                  "source": "auction", "score_ns": None}
        if c is not None:
            bid, risk, declarer, passed_out, source = c
            values.update(bid=bid, risk=risk, declarer=declarer, passed_out=passed_out,
                          source=source)
            values["score_ns"] = 0 if passed_out else ns_score(
                board, self._vul(board), bid, risk, declarer, d["tr"])
            if values["score_ns"] != d["sc"]:
                self.flag(seq, board, "score_mismatch", None,
                          detail("score_mismatch", d["sc"], values["score_ns"]))
        self._put_result(seq, board, values)
        self._check_play(seq, board, d["tr"])

    def _check_play(self, seq, board, tricks):
        """79B: the tricks agreed differ from what the recorded play gives (Law 64 included)."""
        if not self._valid(board, ("card", "claim")):
            return
        p = self.play(seq, board)
        if p is not None and p.status == "ended" and p.declarer_tricks() != tricks:
            self.flag(seq, board, "tricks_mismatch", "79B",
                      detail("tricks_mismatch", p.declarer_tricks(), tricks))

    def _ver(self, seq, board, d):
        old = self._result(board)
        if old is None:
            self.flag(seq, board, "no_result", None, detail("no_result"))
        elif d["ok"]:
            self._update_result(board, old, {"verified": 1, "seq": seq})
        else:
            self.flag(seq, board, "dispute", None, detail("dispute"))

    def _adj(self, seq, board, d):
        values = {"source": "adjusted", "verified": 1, "passed_out": 0, "bid": None,
                  "risk": None, "declarer": None, "tricks": None, "score_ns": None,
                  "shown_ns": None, "adjustment": _body(d)}
        if d["how"] == "asg":
            values.update(bid=d["ct"], risk=d["x"], declarer=d["dcl"], tricks=d["tr"],
                          score_ns=ns_score(board, self._vul(board), d["ct"], d["x"], d["dcl"],
                                            d["tr"]))
        self._put_result(seq, board, values)

    def _erase(self, seq, board, d):
        old = self._result(board)
        if old is not None:
            self._flush()  # the row may be held here, and migration 005's triggers read
            self.db.delete("results", {"id": old["id"]}, self.actor, self.tid)
            row = self.db.one("SELECT * FROM results WHERE id = ?", (old["id"],))
            self._set_result(board, None if row is None else dict(row))

    def _fix(self, seq, board, d):
        """The correction reads the rounds and lines from the database and writes at once
        (corrections.terminal_fix): what this run holds (a round's close, lines and their
        counted ids) is written first, and the lines it keeps are read again when next
        asked, since the correction may have written any of them (a later record of the
        board in this window would otherwise add a second line, which the table refuses)."""
        self._flush()
        corrections.terminal_fix(self, seq, board, d)
        for key in list(self.results):
            self.undo.append((self.results, key, self.results.pop(key)))

    # -- the play (recorded card by card) --

    def play(self, seq, board):
        """The host's play of a board at this round before record `seq`: the Laws engine on
        the host's own contract and the session's hand record, fed the stored cards, claims
        and director's entries (docs/RECORDS.md); None while there is no contract to play."""
        key = (self.round, board)
        if key not in self.plays:
            p = None
            contract = self._play_contract(seq, board)
            if contract is not None:
                quick = self._quick_contract(board) is not None  # no auction: no lead list
                lead = None if quick else self.auction(seq, board).lead
                p = play_records.start(contract, self._deal(board), lead)
                for _seq, kind, fields, _valid in self._valid(
                        board, ("card", "claim", "pdir"), below=seq,
                        above=self._quick_seq(board, seq)):
                    try:
                        play_records.apply(p, kind, fields)
                    except ValueError:
                        pass  # flagged when it arrived
            self.plays[key] = p
        return self.plays[key]

    def _play_contract(self, seq, board):
        quick = self._quick_contract(board)
        if quick is not None:
            return None if quick[3] else quick[:3]
        a = self.auction(seq, board)
        return a.contract() if a.events and a.is_over() else None

    def _quick_seq(self, board, seq):
        quick = self._valid(board, ("quick",), below=seq)
        return quick[-1][0] if quick else 0

    def _deal(self, board):
        row = self._board_row(board)
        text = row and row["deal"]
        try:
            hands = parse_deal(text) if text else None
        except ValueError:
            return None
        return None if hands is None or None in hands else hands

    def _play_record(self, seq, board, kind, d, entry=None):
        """Give one play record to the host's engine; (the engine's answer, the play), or
        (None, None) when it was refused (flagged)."""
        if self._after_close(seq, board):
            return None, None
        p = self.play(seq, board)
        if p is None:
            self.flag(seq, board, "refused_" + kind, None, detail("no_contract_play", kind))
            return None, None
        done = len(p.rulings)
        try:
            got = play_records.apply(p, kind, d)
        except ValueError as e:
            self.flag(seq, board, "refused_" + kind, None, detail("laws_refuse", str(e)))
            return None, None
        self._rulings(seq, board, entry, list(p.rulings[done:]) or ([None] if entry else []))
        return got, p

    def _card(self, seq, board, d):
        self._play_record(seq, board, "card", d)

    def _claim(self, seq, board, d):
        _got, p = self._play_record(seq, board, "claim", d)
        if not d["ok"]:
            hands = p.remaining_hands() if p is not None else None
            self.flag(seq, board, "dispute", "70", (
                detail("claim_disputed_hands", " ".join(hands)) if hands
                else detail("claim_disputed")))

    def _pdir(self, seq, board, d):
        got, p = self._play_record(seq, board, "pdir", d, entry=d["d"])
        if p is not None and got is False:
            self.flag(seq, board, "refused_pdir", None,
                      detail("refused_pdir", d["d"]))

    def _lead(self, seq, board, d):
        self._after_close(seq, board)

    def _rc(self, seq, board, d):
        """A card the terminal refused because the hand record does not give it to the seat
        (its screen said only "card not accepted"). Checked against the session's hand
        record; the third on a board calls the director (Law 16C: the table may have learnt
        where cards are not), as the terminal did."""
        if self._after_close(seq, board):
            return
        deal = self._deal(board)
        s, cd = d["s"], d["cd"]
        if deal is not None and deal[s * 4 + cd // 13] >> cd % 13 & 1:
            self.flag(seq, board, "refused_card_held", None,
                      detail("refused_card_held", token(cd), "NESW"[s]))
        refused = self._valid(board, ("rc",))
        if len(refused) == CARD_REFUSALS:
            self.flag(seq, board, "card_refusals", "16C", detail(
                "card_refusals", CARD_REFUSALS,
                ", ".join("NESW"[f[2]["s"]] + " " + token(f[2]["cd"]) for f in refused)))


def _body(data):
    """The record's fields as JSON (bytes as hex); fields JSON cannot name (a map keyed by
    bytes, or by numbers and text together) are kept as the record's canonical CBOR in hex."""
    try:
        return json_text(data)
    except (TypeError, ValueError):
        return json.dumps({"cbor": cbor_encode(data).hex()})


def compacted(db, terminal_id, base, actor=ACTOR):
    """The terminal compacted records this database never stored (it was restored from an
    older copy, or another station acknowledged them): flag it and go on after `base`."""
    with db.transaction():
        t, last_round = _terminal(db, terminal_id)
        if base <= t["last_seq"]:
            return
        run = _Run(db, t, last_round, actor)
        run.flag(base, None, "records_compacted", None,
                 detail("records_compacted", t["last_seq"] + 1, base))
        run.pending.flush()
        db.update("terminals", {"id": terminal_id}, {"last_seq": base}, actor, terminal_id)
