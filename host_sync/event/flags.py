"""The director's list as the database holds it: every flag (raised by a terminal's `flag`
record or by the host's re-validation on ingest), every ruling (a director's entry and the
Law paragraphs the engine applied) and every PIN tried on a terminal's keypad (its `td`
record: right, wrong, or wrong and locking the keypad) and every pairing with the station
(its `pair` record: the key's fingerprint), with where and when, for
`host-sync flags`: director mode's use is reviewed here (docs/SECURITY.md).

Where: the session, section, table, round and board of the round the record belongs to (a
flag raised before any round has none). When: the time the host received the record that
raised it (the terminals have no clock), or, for a flag without a stored record (records
compacted elsewhere), the time its audit row was written.

A flag's state is `ruled` when the director has answered it: it is marked resolved (a host
correction of the board marks its flags, host_sync.event.corrections), or a ruling of the same
terminal on the same round and board follows it, or the board's result is an adjusted score;
otherwise it is `open`.
"""

import json
from collections import namedtuple

Entry = namedtuple("Entry", "kind session section table round board law what detail state at "
                            "terminal seq")
Entry.__doc__ = """One line of the director's list. kind: 'flag', 'ruling' or 'entry'; what:
the flag's short code (`why`), the ruling's entry ('accept', 'reject', a play entry, or None
when the engine applied a paragraph by itself), the PIN entry's 'pin_ok', 'pin_bad',
'pin_lock', or 'paired' (a pairing); state: 'open' or 'ruled' for a flag, None otherwise;
table, round, board None where the database has none."""

_WHERE = ("LEFT JOIN rounds ro ON ro.id = x.round_id "
          "LEFT JOIN tables t ON t.id = ro.table_id "
          "LEFT JOIN sections sec ON sec.id = t.section_id "
          "LEFT JOIN sessions s ON s.id = COALESCE(sec.session_id, %s) "
          "LEFT JOIN records rec ON rec.terminal_id = x.terminal_id AND rec.seq = x.seq ")

_RULED = ("x.resolved = 1 OR EXISTS (SELECT 1 FROM rulings ru WHERE ru.terminal_id = "
          "x.terminal_id AND ru.round_id = x.round_id AND ru.board = x.board AND ru.seq > x.seq) "
          "OR EXISTS (SELECT 1 FROM results r WHERE r.round_id = x.round_id AND r.board = "
          "x.board AND r.source = 'adjusted')")


def director_list(db, session=None, only_open=False):
    """Every flag and ruling of the event (of session number `session` if given), in the
    order they arrived; with only_open, the flags still open and no rulings."""
    flags = db.all(
        "SELECT 'flag' AS kind, s.number AS session, sec.letter AS section, t.number AS tbl, "
        "ro.number AS rnd, x.board, x.law, x.why AS what, x.detail, x.terminal_id, x.seq, "
        "CASE WHEN " + _RULED + " THEN 'ruled' ELSE 'open' END AS state, "
        "COALESCE(rec.received_at, (SELECT MIN(a.at) FROM audit a WHERE a.tbl = 'flags' "
        "AND a.action = 'insert' AND a.row_key = '{\"id\": ' || x.id || '}')) AS at "
        "FROM flags x " + _WHERE % "x.session_id")
    rulings = [] if only_open else db.all(
        "SELECT 'ruling' AS kind, s.number AS session, sec.letter AS section, "
        "t.number AS tbl, ro.number AS rnd, x.board, x.law, x.entry AS what, '' AS detail, "
        "x.terminal_id, x.seq, NULL AS state, rec.received_at AS at "
        "FROM rulings x " + _WHERE % "NULL")
    tried = [] if only_open else [dict(r, **_entry(r["what"], r["body"])) for r in db.all(
        "SELECT 'entry' AS kind, s.number AS session, sec.letter AS section, "
        "t.number AS tbl, ro.number AS rnd, NULL AS board, NULL AS law, x.body, "
        "x.kind AS what, x.terminal_id, x.seq, NULL AS state, x.received_at AS at "
        "FROM records x " + _WHERE % "NULL" +
        "WHERE x.kind IN ('td', 'pair') AND x.valid = 1")]
    entries = [Entry(r["kind"], r["session"], r["section"], r["tbl"], r["rnd"], r["board"],
                     r["law"], r["what"], r["detail"], r["state"], r["at"], r["terminal_id"],
                     r["seq"])
               for r in list(flags) + list(rulings) + list(tried)
               if session is None or r["session"] == session]
    if only_open:
        entries = [e for e in entries if e.state == "open"]
    return sorted(entries, key=lambda e: (e.session or 0, e.at or "", e.terminal or "",
                                          e.seq or 0, e.kind))


def _entry(kind, body):
    """what and detail of a director's entry at a keypad from its stored record (checked on
    ingest): a `td` is 'pin_ok', 'pin_lock' (the wrong PIN that locked the keypad) or
    'pin_bad'; a `pair` is 'paired', its detail the key's fingerprint and the terminal's
    clock in seconds (a board whose clock nobody set counts from its own epoch: a hint of
    order, not a date)."""
    d = json.loads(body)
    if kind == "pair":
        return {"what": "paired", "detail": "key %s, terminal clock %d s" % (d["fp"], d["t"])}
    return {"what": "pin_ok" if d["ok"] == 1 else "pin_lock" if d.get("lock") else "pin_bad",
            "detail": ""}
