"""What the live page may show, read from the event database at one moment (a `Snapshot`).

The embargo (the players' top complaint about live results is a board shown too early):
- everyone's view (rankings, travellers, every pair's public scorecard) holds a board's results
  until every table that plays it in the movement has a result for it, and the rankings are
  scored on those complete boards only;
- a pair's own view (its link carries a key only that pair is given, `pair_key`) adds the
  boards that pair has played, each with the lines of every table that has played it so far,
  and never a board it has not played;
- the director holds or releases the whole publication (`set_held`): while it is held nobody
  sees a result; or single boards (`set_held_boards`: a board fouled, a ruling pending): a
  held board is on nobody's view, its own pairs' included, and out of the public rankings;
- a later session of a teams round robin adds the event's standings over the sessions so far:
  the earlier ones are over and count whole, this one's part is everyone's view's (its
  complete boards less those held), and while the publication is held there are none.
"Played" means the table has a line in `results` (scored, waiting for the director, or an
adjusted score), so a line the host has not verified still counts as played, and a table that
has not synced yet keeps the board out of everyone's view. Only the lines of the rounds that
play the board count towards that: a board keyed in by mistake at a table whose round does not
play it (flagged wrong_board) makes no table of it played.

Changes are noticed by the database's change marker, MAX(audit.id): every change to the event
is written with its audit row in the same transaction (host_sync.event.db), a sync as well as a
correction or a hold, and reading the largest key of an index costs next to nothing. Most
commits change nothing a page shows (a sync's calls, cards and flags; a terminal's last seq):
`snapshot` then gives back the Snapshot it was handed, unscored again, so open pages are sent
no change. And most lines change nothing on everyone's view (the embargo holds the board):
the Snapshot keeps `public_marker`, the marker at which that view last changed, so a phone on
the rankings fetches its page when a board is released, not at every sync.
"""

import hashlib
import hmac
import json
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from host_sync.errors import Refused
from host_sync.event import setup
from host_sync.event.results import (
    earlier_team_sessions,
    event_so_far,
    pair_labeller,
    session_from_db,
)
from host_sync.scoring.session import score_session
from host_sync.scoring.team_session import score_teams

PUBLICATION = "publication"  # the event setting the director's hold is kept in
HELD_BOARDS = "held_boards"  # the event setting of the boards held one by one
HELD, OPEN = "held", "open"
ACTOR = "director"
PAIR_KEY_HEX = 16  # 64 bits of HMAC: not guessable over a club's network


def change_marker(db):
    """A number that grows with every change to the event (0 for none yet)."""
    return db.value("SELECT MAX(id) FROM audit") or 0


def is_held(db, event_id):
    return db.value("SELECT value FROM settings WHERE event_id = ? AND name = ?",
                    (event_id, PUBLICATION)) == '"%s"' % HELD


def set_held(db, held, actor=ACTOR):
    """Hold (True) or release (False) the publication; audited like every change, so open
    pages follow at once. Returns whether it changed anything."""
    with db.transaction():  # read and written under the writer's lock (`set_held_boards`)
        event_id = setup.the_event(db)[0]
        if is_held(db, event_id) == held:
            return False
        setup.set_setting(db, event_id, PUBLICATION, HELD if held else OPEN, actor)
        return True


def held_boards(db, event_id):
    """The boards the director holds one by one (a frozenset of numbers)."""
    text = db.value("SELECT value FROM settings WHERE event_id = ? AND name = ?",
                    (event_id, HELD_BOARDS))
    return frozenset(json.loads(text)) if text else frozenset()


def set_held_boards(db, boards, held, actor=ACTOR):
    """Hold (True) or release (False) these boards of the current session (refused for a board
    it does not play); audited. Returns whether it changed anything. The boards held are read
    and written in one transaction, under the writer's lock: two directors holding a board
    each at once (two machines) both have theirs held, where the second write had undone the
    first's."""
    with db.transaction():
        event_id = setup.the_event(db)[0]
        known = {row[0] for row in db.all("SELECT number FROM boards WHERE session_id = ?",
                                          (setup.session_id(db, event_id),))}
        unknown = sorted(set(boards) - known)
        if unknown:
            listed = ", ".join(map(str, unknown))
            raise Refused("board %s: not played in this session" % listed,
                          ru="сдача %s: в этой сессии не играется" % listed)
        before = held_boards(db, event_id)
        after = before | set(boards) if held else before - set(boards)
        if after == before:
            return False
        setup.set_setting(db, event_id, HELD_BOARDS, sorted(after), actor)
        return True


def pair_key(event_key, session_id, label):
    """The key in a pair's own link: an HMAC of its session and label under the event's
    secret, so the host can check a link without storing keys and one pair's link opens no
    other pair's view: not in another session either, where its number may be another pair's
    (a link of the first session opened the second's pair of that number)."""
    return hmac.new(event_key, b"web-pair:%d:%s" % (session_id, str(label).encode("utf-8")),
                    hashlib.sha256).hexdigest()[:PAIR_KEY_HEX]


@dataclass
class Snapshot:
    """The event as the page may show it at `marker`."""
    marker: int
    held: bool
    session: object  # scoring.session.Session, every verified line so far
    everyone: object  # SessionScore of the complete boards only
    so_far: object  # SessionScore of every line so far: boards of a pair's own view only
    complete: frozenset  # boards every table has played
    played: dict = field(default_factory=dict)  # pair label -> frozenset of boards it played
    keys: dict = field(default_factory=dict)  # pair label -> its key
    held_boards: frozenset = frozenset()  # boards the director holds one by one
    read: tuple = ()  # what the views are made of, as read from the database (`snapshot`)
    public_marker: int = 0  # the marker at which everyone's view last changed
    public_read: tuple = ()  # what everyone's view is made of
    teams: object = None  # a teams session: the TeamScore of the complete boards only
    event: object = None  # a later day of a round robin: EventStandings, this day's as `teams`

    def pair_boards(self, label):
        """The boards a pair's own view shows: those it has played (none while held)."""
        if self.held:
            return frozenset()
        return self.played.get(label, frozenset()) - self.held_boards

    def public_boards(self):
        return frozenset() if self.held else self.complete - self.held_boards

    def check_key(self, label, key):
        """True when `key` is the pair's own: compared in constant time (a key that is not
        ASCII is no key: compare_digest refuses to compare such text, which was a 500)."""
        own, key = self.keys.get(label), str(key)
        return own is not None and key.isascii() and hmac.compare_digest(own, key)


def snapshot(db, number=None, method=None, previous=None):
    """The Snapshot of the event's session `number` (default: the current one), read in one
    transaction so that a sync landing meanwhile is either all in it or not at all.
    `previous` itself when it shows the same (the module docstring): its marker stays the
    one at which what the pages show last changed."""
    with _reading(db):
        marker = change_marker(db)
        event_id, _, event_key = setup.the_event(db)
        sid = setup.session_id(db, event_id, number)
        session = session_from_db(db, number, method)
        label = pair_labeller(setup.section_movements(db, sid))
        held = is_held(db, event_id)
        one_by_one = held_boards(db, event_id)
        expected = _counts(db.all(
            "SELECT rb.board, COUNT(*) FROM round_boards rb JOIN rounds ro ON ro.id = rb.round_id "
            "JOIN tables t ON t.id = ro.table_id JOIN sections s ON s.id = t.section_id "
            "WHERE s.session_id = ? AND ro.ns_pair IS NOT NULL AND ro.ew_pair IS NOT NULL "
            "GROUP BY rb.board", (sid,)))
        lines = sorted(tuple(r) for r in db.all(  # and whether the round plans the board
            "SELECT s.letter, ro.ns_pair, ro.ew_pair, r.board, EXISTS (SELECT 1 FROM "
            "round_boards rb WHERE rb.round_id = r.round_id AND rb.board = r.board) FROM "
            "results r JOIN rounds ro ON ro.id = r.round_id JOIN tables t ON "
            "t.id = ro.table_id JOIN sections s ON s.id = t.section_id WHERE "
            "s.session_id = ?", (sid,)))
        # the earlier days of a round robin: over, read whole, in the same moment
        this, earlier = (None, {}) if session.teams is None else \
            earlier_team_sessions(db, number)
    read = (held, one_by_one, expected, lines, session, earlier)
    if previous is not None and previous.read == read:
        return previous
    played, tables = {}, {}
    for letter, ns, ew, board, planned in lines:
        if planned:  # a board keyed at a table that does not play it counts for no table
            tables[board] = tables.get(board, 0) + 1
        for pair in (ns, ew):
            played.setdefault(label(letter, pair), set()).add(board)
    complete = frozenset(b for b, n in expected.items() if tables.get(b, 0) >= n)
    shown = complete - one_by_one
    public = replace(session, results=[r for r in session.results if r.board in shown])
    public_read = (True,) if held else (False, shown, one_by_one, public, earlier)  # rankings
    # name the boards held: holding one not complete yet changes that page too
    public_marker = previous.public_marker if previous is not None and \
        previous.public_read == public_read else marker
    teams = None if session.teams is None else score_teams(public)
    return Snapshot(marker, held, session, score_session(public), score_session(session),
                    complete, {p: frozenset(b) for p, b in played.items()},
                    {p: pair_key(event_key, sid, p) for p in session.pairs}, one_by_one, read,
                    public_marker, public_read, teams,
                    event_so_far(this, earlier, teams))


@contextmanager
def _reading(db):
    """A read-only transaction that sees one moment of the database and takes no writer's
    lock (db.transaction() would: BEGIN IMMEDIATE on SQLite, the advisory lock on PostgreSQL),
    so rebuilding the page never makes a station wait. On PostgreSQL a REPEATABLE READ
    transaction is one snapshot; a deferred BEGIN in WAL mode is one on SQLite."""
    db.conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" if db.postgres
                    else "BEGIN")
    try:
        yield
    finally:
        db.conn.execute("COMMIT")


def _counts(rows):
    return {board: count for board, count in rows}
