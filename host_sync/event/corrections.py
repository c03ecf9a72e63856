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

A terminal's `fix` record (the director's correction made at the table, docs/RECORDS.md)
goes through the same writes (`terminal_fix`, called by station.ingest), within the session's
correction period (`close_period`).

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
from host_sync.event.flags import detail
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
    section = setup.chosen_section(db, sid, section)
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
            section, table, board, "" if round_no is None else " in round %d" % round_no),
            ru="стол %s%d не играл сдачу %d%s" % (
                section, table, board, "" if round_no is None else " в туре %d" % round_no))
    if len(rounds) > 1:
        played = ", ".join(str(r["number"]) for r in rounds)
        raise CorrectionError("table %s%d had board %d in rounds %s: say which with --round" % (
            section, table, board, played), ru="стол %s%d играл сдачу %d в турах %s: укажите "
            "нужный в --round" % (section, table, board, played))
    return Where(sid, section, table, rounds[0]["id"], rounds[0]["number"], board)


# -- reading the director's words ----------------------------------------------------------

def contract(text):
    """(bid code, risk) of '4S', '3NTX', '2HXX' (Russian БК for NT too); None for 'pass'."""
    word = str(text).strip().upper().replace("БК", "NT")
    try:
        return parse_contract("PASS" if word == "ПАС" else word)  # Law 18A: 1C..7NT only
    except ValueError:
        raise CorrectionError("contract %r: expected a bid 1C..7NT, with X or XX if doubled, "
                              "or pass" % (text,), ru="контракт %r: ожидалась заявка 1C..7NT "
                              "(с X или XX при контре и реконтре) или пас" % (text,)) from None


def declarer(text):
    seat = SEAT_LETTERS.get(str(text).strip().upper())
    if seat is None:
        raise CorrectionError("declarer %r: expected N, E, S or W" % (text,),
                              ru="разыгрывающий %r: ожидалось N, E, S или W" % (text,))
    return seat


def tricks(text):
    try:
        value = int(text)
    except (TypeError, ValueError):
        value = -1
    if not 0 <= value <= 13:
        raise CorrectionError("tricks %r: declarer's tricks are a number 0..13" % (text,),
                              ru="взятки %r: взятки разыгрывающего — число от 0 до 13" % (text,))
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
            raise CorrectionError("%r: a weight is a percentage 1..100" % (text,),
                                  ru="%r: вес — процент от 1 до 100" % (text,))
    if len(words) != 3:
        raise CorrectionError("%r: expected CONTRACT DECLARER TRICKS such as '4S N 10', "
                              "with a weight first in a weighted score ('60%% 4S N 10')" %
                              (text,), ru="%r: ожидалось КОНТРАКТ РАЗЫГРЫВАЮЩИЙ ВЗЯТКИ, "
                              "например '4S N 10', а во взвешенном счёте сначала вес "
                              "('60%% 4S N 10')" % (text,))
    made = contract(words[0])
    if made is None:
        raise CorrectionError("%r: an assigned score is a contract, not a pass" % (text,),
                              ru="%r: назначенный счёт — это контракт, а не пас" % (text,))
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
                              "as 55%%" % (code,), ru="искусственный счёт %r: ожидалось A+, "
                              "A, A- или процент, например 55%%" % (code,))
    return value


def adjustment(art=None, assigned=None, split=None, not_played=False):
    """The stored adjustment of exactly one of: art (NS code, EW code), assigned (a list of
    part texts: one is assigned, more are weighted), split (NS part text, EW part text), or
    not_played."""
    given = [x for x in (art, assigned, split) if x] + ([True] if not_played else [])
    if len(given) != 1:
        raise CorrectionError("give one adjusted score: --artificial, --assigned, --split or "
                              "--not-played", ru="укажите один скорректированный счёт: "
                              "--artificial, --assigned, --split или --not-played")
    if not_played:
        return {"how": "np"}
    if art:
        return {"how": "art", "ns": artificial(art[0]), "ew": artificial(art[1])}
    if split:
        ns, ew = part(split[0]), part(split[1])
        if ns[0] != 100 or ew[0] != 100:
            raise CorrectionError("a split score gives each side one assigned score, "
                                  "without weights", ru="раздельный счёт назначает каждой "
                                  "стороне один счёт, без весов")
        return {"how": "split", "ns": ns[1:], "ew": ew[1:]}
    parts = [part(x) for x in assigned]
    if len(parts) == 1:
        if parts[0][0] != 100:
            raise CorrectionError("one assigned score has no weight; a weighted score has "
                                  "two parts or more", ru="у одного назначенного счёта нет "
                                  "веса; во взвешенном счёте две части или больше")
        _, ct, x, dcl, tr = parts[0]
        return {"how": "asg", "ct": ct, "x": x, "dcl": dcl, "tr": tr}
    if sum(p[0] for p in parts) != 100:
        total = sum(p[0] for p in parts)
        raise CorrectionError("the weights of a weighted score add up to %d%%, not 100%%" %
                              total, ru="веса взвешенного счёта в сумме %d%%, а не 100%%" %
                              total)
    return {"how": "wgt", "parts": parts}


# -- the writes ----------------------------------------------------------------------------

def _vul(db, where):
    vul = db.value("SELECT vul FROM boards WHERE session_id = ? AND number = ?",
                   (where.session_id, where.board))
    return vul or law2.vulnerability(where.board)


def _write(db, where, values, actor, terminal=None):
    """Put `values` on the line (insert or update), as the host's, and resolve the board's
    flags at that table; returns the old line (a dict) or None. `terminal` names the terminal
    whose director made the correction (a `fix` record): it stays on the line, so a later fix
    can tell its own correction from the host's (`terminal_fix`)."""
    values = dict(values, verified=1, terminal_id=terminal, seq=None, corrected_at=now())
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
            raise CorrectionError("a passed-out board has no declarer and no tricks",
                                  ru="у сдачи, сыгранной в пас, нет ни разыгрывающего, "
                                  "ни взяток")
        values = {"bid": None, "risk": None, "declarer": None, "passed_out": 1, "tricks": 0,
                  "score_ns": 0}
    else:
        if declarer_text is None or tricks_text is None:
            raise CorrectionError("a contract needs its declarer and declarer's tricks: "
                                  "4S N 10", ru="контракту нужны разыгрывающий и его взятки: "
                                  "4S N 10")
        values = _played(db, where, made, declarer(declarer_text), tricks(tricks_text))
    values.update(source="host", shown_ns=None, adjustment=None)
    return _write(db, where, values, actor)


def _played(db, where, made, seat, won):
    """The line of contract `made` (bid code, risk) by `seat` with `won` tricks (Law 77)."""
    return {"bid": made[0], "risk": made[1], "declarer": seat, "passed_out": 0,
            "tricks": won, "score_ns": code_points(_vul(db, where), made[0], made[1], seat,
                                                   won)}


def adjust(db, where, adj, actor=ACTOR, terminal=None):
    """The table's result replaced by the adjusted score `adj` (from `adjustment`); in a
    teams section an artificial score is A+, A or A- (Law 12C2b: +3, 0, -3 IMPs), as a
    percentage has no IMP value and would leave the match unscorable."""
    if adj["how"] == "art" and not {adj["ns"], adj["ew"]} <= set(ARTIFICIAL.values()) and \
            setup.section_movements(db, where.session_id)[where.section].kind == "teams":
        raise CorrectionError("in a teams match an artificial score is A+, A or A- (Law 12C2b: "
                              "+3, 0, -3 IMPs), not a percentage", ru="в командном матче "
                              "искусственный счёт — A+, A или A- (Закон 12C2б: +3, 0, -3 "
                              "ИМПа), а не процент")
    values = {"source": "adjusted", "passed_out": 0, "bid": None, "risk": None,
              "declarer": None, "tricks": None, "score_ns": None, "shown_ns": None,
              "adjustment": json.dumps(adj, sort_keys=True)}
    if adj["how"] == "asg":
        values.update(bid=adj["ct"], risk=adj["x"], declarer=adj["dcl"], tricks=adj["tr"],
                      score_ns=code_points(_vul(db, where), adj["ct"], adj["x"], adj["dcl"],
                                         adj["tr"]))
    return _write(db, where, values, actor, terminal)


MAX_GROUP = 16  # characters of a fouled board's group name


def fouled(db, where, group, actor=ACTOR):
    """Law 81B: the line goes into the fouled board's group `group` (a short name: the
    version of the board it was played in), or back to the board as dealt (None); every
    group is scored apart (scoring.board, Neuberg to the whole field). Audited; returns the
    old line."""
    if group is not None and not (isinstance(group, str) and 0 < len(group) <= MAX_GROUP
                                  and group.isprintable() and group.strip() == group):
        raise CorrectionError("a group is 1 to %d printable characters, not %r" % (
            MAX_GROUP, group), ru="группа — от 1 до %d печатных знаков, а не %r" % (
            MAX_GROUP, group))
    with db.transaction():
        old = db.one("SELECT * FROM results WHERE round_id = ? AND board = ?",
                     (where.round_id, where.board))
        if old is None:
            raise CorrectionError(
                "table %s%d has no result on board %d in round %d to put in a group" % (
                    where.section, where.table, where.board, where.round),
                ru="у стола %s%d нет результата сдачи %d в туре %d, чтобы отнести его к "
                   "группе" % (where.section, where.table, where.board, where.round))
        db.update("results", {"id": old["id"]}, {"fouled": group}, actor)
    return dict(old)


def delete(db, where, actor=ACTOR):
    """The table's line on the board removed (the audit keeps its last values); the old line."""
    with db.transaction():
        old = db.one("SELECT * FROM results WHERE round_id = ? AND board = ?",
                     (where.round_id, where.board))
        if old is None:
            raise CorrectionError("table %s%d has no result on board %d to delete" % (
                where.section, where.table, where.board), ru="у стола %s%d нет результата "
                "сдачи %d, чтобы его удалить" % (where.section, where.table, where.board))
        if old["corrected_at"] is not None:  # the triggers keep a corrected line from deletes
            db.update("results", {"id": old["id"]}, {"corrected_at": None}, actor)
        db.delete("results", {"id": old["id"]}, actor)
        _resolve_flags(db, where, actor)
    return dict(old)



def close_period(db, session=None, actor=ACTOR):
    """End the correction period of `session` (the current one when None): the terminals'
    `fix` records synced from now on are flagged, not applied (Law 79C). The host's own
    `host-sync result` stays open to the director. Returns the session's number; closing a
    closed period again changes nothing."""
    sid = setup.session_id(db, setup.the_event(db)[0], session)
    with db.transaction():
        row = db.one("SELECT number, corrections_closed_at FROM sessions WHERE id = ?", (sid,))
        if row["corrections_closed_at"] is None:
            db.update("sessions", {"id": sid}, {"corrections_closed_at": now()}, actor)
    return row["number"]


# -- the terminal's `fix` record -----------------------------------------------------------

FIX_ADJ_FIELDS = {"art": ("ns", "ew"), "asg": ("ct", "x", "dcl", "tr"), "wgt": ("parts",),
                  "np": ()}


def terminal_fix(run, seq, board, d):
    """Apply a terminal's `fix` record (docs/RECORDS.md), checked by ingest: the director's
    correction at the table of a board played there in a closed round (Law 79C).

    The round is the one of this terminal's table in which the pairs `pr` had `board` (Law 15:
    at most one), never found by the round the terminal is playing now. It goes through the
    host's own writes (`correct`'s line, `adjust`, `delete`): audited under an actor naming the
    terminal and the record, re-scored, flags of the board there resolved, and the travellers
    pushed at the next sync carry it. Refused with a flag for the director, changing nothing,
    after the session's correction period (`close_period`), when there is no such closed
    round, or when the line holds a correction made at the host
    (corrected_at set, no terminal: migration 005's rule, the host's correction stands)."""
    db = run.db
    ns, ew = d["pr"]
    if db.value("SELECT corrections_closed_at FROM sessions WHERE id = ?", (run.session,)):
        run.flag(seq, board, "correction_period_over", "79C",
                 detail("correction_period_over", board, ns, ew))
        return
    found = db.one(
        "SELECT ro.id, ro.number, ro.closed, t.number AS tbl, s.letter, s.session_id "
        "FROM rounds ro JOIN tables t ON t.id = ro.table_id "
        "JOIN sections s ON s.id = t.section_id "
        "WHERE ro.table_id = (SELECT table_id FROM rounds WHERE id = ?) "
        "AND ro.ns_pair = ? AND ro.ew_pair = ? AND (EXISTS (SELECT 1 FROM round_boards rb "
        "WHERE rb.round_id = ro.id AND rb.board = ?) OR EXISTS (SELECT 1 FROM results r "
        "WHERE r.round_id = ro.id AND r.board = ?))", (run.round, ns, ew, board, board))
    if found is None or not found["closed"]:
        run.flag(seq, board, "fix_no_round", "79C",
                 detail("fix_no_round", ns, ew, board))
        return
    where = Where(found["session_id"], found["letter"], found["tbl"], found["id"],
                  found["number"], board)
    old = db.one("SELECT corrected_at, terminal_id FROM results WHERE round_id = ? AND "
                 "board = ?", (where.round_id, board))
    if old is not None and old["corrected_at"] is not None and old["terminal_id"] is None:
        _flag_at(run, where.round_id, seq, board, "host_correction_stands", "79C",
                 "the terminal's correction of round %d would have changed the result "
                 "corrected at the host (%s); the host's correction stands" % (
                     where.round, d["how"]))
        return
    actor = "terminal %s fix %d" % (run.tid, seq)
    how = d["how"]
    if how == "erase":
        if old is not None:
            delete(db, where, actor)
    elif how == "res":
        if d.get("po"):
            values = {"bid": None, "risk": None, "declarer": None, "passed_out": 1,
                      "tricks": 0, "score_ns": 0}
        else:
            values = _played(db, where, (d["ct"], d["x"]), d["dcl"], d["tr"])
        values.update(source="terminal_fix", shown_ns=d.get("sc"), adjustment=None)
        _write(db, where, values, actor, run.tid)
        if d.get("sc") is not None and d["sc"] != values["score_ns"]:  # after: stays open
            _flag_at(run, where.round_id, seq, board, "score_mismatch", None,
                     "the terminal showed %d, the Laws give %d" % (d["sc"], values["score_ns"]))
    else:
        adj = dict((k, d[k]) for k in FIX_ADJ_FIELDS[how])
        adjust(db, where, dict(adj, how=how), actor, run.tid)


def _flag_at(run, round_id, *flag):
    """run.flag(*flag) filed under the corrected round, not the one the terminal is playing:
    the director's list shows the table, round and board the correction was about."""
    playing, run.round = run.round, round_id
    try:
        run.flag(*flag)
    finally:
        run.round = playing
