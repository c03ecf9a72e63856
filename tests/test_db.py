"""The scoring database: migrations, WAL, foreign keys, and an audit row for every change.

The tests that take `db` run twice: on a SQLite file and on a database of a real PostgreSQL
server (tests/pg_server.py), where the same migrations, audit and savepoints must hold."""

import json
import sqlite3

import psycopg
import pytest

from host_sync.event import setup
from host_sync.event.db import DatabaseError, migrations, open_db
from host_sync.movements import mitchell


@pytest.fixture
def db(event_location):
    d = open_db(event_location, create=True)
    d.location = event_location
    yield d
    d.close()


def test_a_new_file_is_migrated_to_the_latest_schema_in_wal_mode(tmp_path):
    db = open_db(tmp_path / "event.db", create=True)
    assert db.version() == migrations()[-1][0]
    assert db.value("PRAGMA journal_mode") == "wal"
    assert db.value("PRAGMA foreign_keys") == 1
    # FULL: an acknowledged commit survives a power cut (the terminal deletes those records)
    assert db.value("PRAGMA synchronous") == 2
    tables = {r[0] for r in db.all("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"events", "sessions", "sections", "tables", "rounds", "boards", "pairs",
            "players", "results", "calls", "rulings", "flags", "terminals", "records",
            "audit", "syncs", "schema_version"} <= tables
    db.close()
    again = open_db(tmp_path / "event.db")  # opening again applies nothing twice
    assert again.value("SELECT COUNT(*) FROM schema_version") == len(migrations())
    again.close()


def test_a_missing_file_or_a_foreign_one_is_refused_and_left_alone(tmp_path):
    with pytest.raises(DatabaseError, match="no such event database"):
        open_db(tmp_path / "typo.db")
    assert not (tmp_path / "typo.db").exists()
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(DatabaseError, match="not a scoring database"):
        open_db(junk)
    assert junk.read_bytes() == b"this is not sqlite" * 100


def test_a_foreign_sqlite_file_or_an_empty_one_is_refused_and_left_alone(tmp_path):
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE contacts (name TEXT)")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    for create in (False, True):  # not even `event create` takes another program's file
        with pytest.raises(DatabaseError, match="not an event database.*contacts"):
            open_db(other, create=create)
        assert other.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    with pytest.raises(DatabaseError, match="empty file"):
        open_db(empty)
    assert empty.read_bytes() == b""
    open_db(empty, create=True).close()  # `event create` may fill an empty file
    assert open_db(empty).version() == migrations()[-1][0]


def test_a_path_in_a_missing_folder_is_a_path_problem(tmp_path):
    with pytest.raises(DatabaseError, match="no such folder"):
        open_db(tmp_path / "nowhere" / "club.db", create=True)


def test_a_newer_schema_than_this_code_knows_is_refused(db):
    with db.transaction():
        db.conn.execute("INSERT INTO schema_version VALUES (999, 'future')")
    db.close()
    with pytest.raises(DatabaseError, match="schema version 999"):
        open_db(db.location)


def test_opening_an_event_again_applies_no_migration_twice(db):
    tables = db.all("SELECT tbl FROM audit")  # any query of the schema's tables works
    assert tables == []
    db.close()
    again = open_db(db.location)
    assert again.version() == migrations()[-1][0]
    assert again.value("SELECT COUNT(*) FROM schema_version") == len(migrations())
    again.close()


def test_every_change_is_audited_with_old_and_new_values(db):
    eid = setup.create_event(db, "Club night")
    with db.transaction():
        assert db.update("events", {"id": eid}, {"name": "Club night 2"}, "director") is True
        assert db.update("events", {"id": eid}, {"name": "Club night 2"}, "director") is False
    rows = db.all("SELECT * FROM audit WHERE tbl = 'events' ORDER BY id")
    assert [(r["action"], r["actor"]) for r in rows] == [("insert", "scorer"),
                                                         ("update", "director")]
    assert json.loads(rows[1]["old"]) == {"name": "Club night"}
    assert json.loads(rows[1]["new"]) == {"name": "Club night 2"}
    assert json.loads(rows[1]["row_key"]) == {"id": eid}
    with db.transaction():
        assert db.delete("events", {"id": eid}, "director")
    last = db.one("SELECT * FROM audit ORDER BY id DESC LIMIT 1")
    assert last["action"] == "delete" and json.loads(last["old"])["name"] == "Club night 2"


def test_a_failed_transaction_leaves_neither_the_change_nor_its_audit(db):
    eid = setup.create_event(db, "Club night")
    before = db.value("SELECT COUNT(*) FROM audit")
    with pytest.raises(db.IntegrityError):
        with db.transaction():
            db.update("events", {"id": eid}, {"name": "Renamed"}, "director")
            db.insert("sessions", {"event_id": 999, "number": 1}, "director")  # no event 999
    assert db.value("SELECT name FROM events") == "Club night"
    assert db.value("SELECT COUNT(*) FROM audit") == before


def test_a_failed_inner_step_undoes_only_itself(db):
    """A nested transaction is a savepoint: the outer one catches the inner step's failure
    and commits its own change; the inner step's first write (before it failed) is gone."""
    eid = setup.create_event(db, "Club night")
    with db.transaction():
        db.update("events", {"id": eid}, {"name": "Outer"}, "director")
        with pytest.raises(db.IntegrityError):
            with db.transaction():
                db.update("events", {"id": eid}, {"name": "Inner"}, "director")
                db.insert("sessions", {"event_id": 999, "number": 1}, "director")
    assert db.value("SELECT name FROM events") == "Outer"
    news = [json.loads(r[0]) for r in db.all("SELECT new FROM audit WHERE tbl = 'events'")]
    assert {"name": "Inner"} not in news and {"name": "Outer"} in news


def test_migrations_split_where_sqlite_says_a_statement_ends():
    from host_sync.event.db import _statements
    sql = ("CREATE TABLE a (x TEXT DEFAULT 'a;b');\n-- one; comment\n"
           "INSERT INTO a VALUES ('c;\nd');\n")
    assert _statements(sql) == ["CREATE TABLE a (x TEXT DEFAULT 'a;b');",
                                "-- one; comment\nINSERT INTO a VALUES ('c;\nd');"]
    with pytest.raises(DatabaseError, match="ends inside a statement"):
        _statements("CREATE TABLE b (x TEXT")


def test_changes_outside_a_transaction_are_refused(db):
    with pytest.raises(RuntimeError, match="transaction"):
        db.insert("events", {"name": "x", "key": "00", "created_at": "now"}, "scorer")


def test_a_session_from_a_movement_fills_tables_rounds_boards_and_pairs(db):
    eid = setup.create_event(db, "Pairs")
    mv = mitchell(4, 3)
    setup.add_session(db, eid, 1, mv, names={1: ["Ann", "Bob"]})
    assert db.value("SELECT COUNT(*) FROM tables") == 4
    assert db.value("SELECT COUNT(*) FROM rounds") == sum(len(r) for r in mv.rounds)
    assert db.value("SELECT COUNT(*) FROM pairs") == len(mv.pairs)
    assert [r[0] for r in db.all("SELECT name FROM players ORDER BY position")] == ["Ann", "Bob"]
    boards = db.all("SELECT number, dealer, vul FROM boards ORDER BY number")
    assert [tuple(b) for b in boards[:4]] == [(1, 0, "None"), (2, 1, "NS"), (3, 2, "EW"),
                                             (4, 3, "All")]
    with pytest.raises(db.IntegrityError):  # one section letter per session
        with db.transaction():
            db.insert("sections", {"session_id": 1, "letter": "A"}, "scorer")


def test_terminal_keys_derive_from_the_event_secret_and_differ_per_terminal(db):
    setup.create_event(db, "Pairs")
    k1 = setup.register_terminal(db, "PICO-1", 0)
    k2 = setup.register_terminal(db, "PICO-2", 5)
    assert len(k1) == 32 and k1 != k2
    assert setup.register_terminal(db, "PICO-1", 0) == k1
    assert db.value("SELECT last_seq FROM terminals WHERE id = 'PICO-2'") == 5
    with pytest.raises(setup.SetupError):
        setup.register_terminal(db, "", 0)


def test_an_arrow_switched_round_stores_the_pairs_where_they_really_sit(db):
    """In a switched round the movement already seats the stationary pair EW; the database
    (and each terminal's configuration) must say so, not swap it back."""
    eid = setup.create_event(db, "Pairs")
    mv = mitchell(3, 2, arrow_switch="last")
    setup.add_session(db, eid, 1, mv)
    last = len(mv.rounds)
    rows = db.all("SELECT t.number, r.ns_pair, r.ew_pair FROM rounds r JOIN tables t "
                  "ON t.id = r.table_id WHERE r.number = ? ORDER BY t.number", (last,))
    assert [tuple(r) for r in rows] == [(s.table, s.ns, s.ew) for s in mv.rounds[-1]]
    assert all(s.switched and s.ew == s.table for s in mv.rounds[-1])  # NS pair t sits EW


def test_a_postgresql_url_that_names_no_database_or_a_foreign_one_is_refused(pg_server):
    with pytest.raises(DatabaseError, match="does not exist"):
        open_db(pg_server.url("no_such_event"))
    url = pg_server.fresh_url()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE contacts (name TEXT)")
    for create in (False, True):
        with pytest.raises(DatabaseError, match="not an event database.*contacts"):
            open_db(url, create=create)
    with psycopg.connect(url, autocommit=True) as conn:
        assert [r[0] for r in conn.execute("SELECT table_name FROM information_schema.tables "
                                           "WHERE table_schema = 'public'")] == ["contacts"]
    with pytest.raises(DatabaseError, match="empty file, not an event database"):
        open_db(pg_server.fresh_url())


def test_a_postgresql_password_never_reaches_a_message(pg_server):
    url = pg_server.url("no_such_event").replace("postgres@", "postgres:sekrit@")
    with pytest.raises(DatabaseError) as refused:
        open_db(url)
    assert "sekrit" not in str(refused.value) and "postgres:***@" in str(refused.value)


AUDIT_ROW = ("INSERT INTO audit (at, actor, terminal_id, tbl, row_key, action, old, new) "
             "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")


def test_many_rows_at_once_keep_every_character_and_their_order(db):
    """executemany of an INSERT inside db.batch() (on PostgreSQL one pipeline, as db.Pending
    flushes): tabs, line breaks, backslashes, the text `\\N`, placeholder look-alikes, NULLs,
    booleans and non-ASCII text come back as they went in, in their order."""
    texts = ["tab\there", "line\nbreak\r", "back\\slash", "\\N", "", "юникод ♠ ♥", "q ' \" ;",
             "%s ? $1"]
    eid = setup.create_event(db, "Club night")
    with db.transaction(), db.batch():
        db.conn.executemany(AUDIT_ROW, [(str(i), "many", None if i % 2 else text, "t", text,
                                         "insert", None, text) for i, text in enumerate(texts)])
        db.conn.executemany("INSERT INTO sessions (event_id, number, current) VALUES "
                            "(?, ?, ?)", [(eid, 1, True), (eid, 2, False)])
    rows = db.all("SELECT at, terminal_id, row_key, old, new FROM audit WHERE actor = 'many' "
                  "ORDER BY id")
    assert [tuple(r) for r in rows] == [(str(i), None if i % 2 else text, text, None, text)
                                        for i, text in enumerate(texts)]
    assert [tuple(r) for r in db.all("SELECT number, current FROM sessions ORDER BY id")] == [
        (1, 1), (2, 0)]


def test_many_rows_with_one_bad_row_store_none_of_them(db):
    """A row that breaks a constraint fails the whole batch with the backend's
    IntegrityError (on PostgreSQL raised at the pipeline's end), and a savepoint around it
    undoes all its rows (the ingest relies on it)."""
    eid = setup.create_event(db, "Club night")
    with db.transaction():
        with pytest.raises(db.IntegrityError):
            with db.transaction(), db.batch():
                db.conn.executemany("INSERT INTO sessions (event_id, number) VALUES (?, ?)",
                                    [(eid, 1), (eid, 2), (999, 3)])
        db.conn.executemany("INSERT INTO sessions (event_id, number) VALUES (?, ?)",
                            [(eid, 4), (eid, 5)])
    assert [r[0] for r in db.all("SELECT number FROM sessions ORDER BY number")] == [4, 5]


LOG_ROWS = {  # a row of each terminal log, naming terminal `t` and round `r`
    "records": lambda t, r: {"terminal_id": t, "seq": 1, "kind": "call", "body": "{}",
                             "round_id": r, "board": 1, "received_at": "now"},
    "calls": lambda t, r: {"terminal_id": t, "seq": 1, "round_id": r, "board": 1, "seat": 0,
                           "call": 0, "event": 0, "law": None},
    "rulings": lambda t, r: {"terminal_id": t, "seq": 1, "round_id": r, "board": 1,
                             "entry": None, "law": "27B1a"},
}


@pytest.mark.parametrize("table", sorted(LOG_ROWS))
def test_a_log_row_must_name_a_known_terminal_and_round_and_keeps_them(db, table):
    """The terminals' logs keep their keys to terminals and rounds on both backends (on
    PostgreSQL checked once per statement, migration 010): a row naming an unknown terminal
    or round is refused with its window's other rows, and a terminal or round that a log row
    names can be neither deleted nor renumbered."""
    setup.add_session(db, setup.create_event(db, "Club night"), 1, mitchell(4, 3))
    setup.register_terminal(db, "PICO-01", 0)
    setup.register_terminal(db, "PICO-02", 0)
    rid = db.value("SELECT MIN(id) FROM rounds")
    other = db.value("SELECT MAX(id) FROM rounds")
    row = LOG_ROWS[table]
    for bad in (row("PICO-99", rid), row("PICO-01", 10_000)):
        with pytest.raises(db.IntegrityError):
            with db.transaction(), db.batch():
                db.insert_rows(table, tuple(bad), [row("PICO-01", rid), bad])
    assert db.value("SELECT COUNT(*) FROM %s" % table) == 0
    with db.transaction(), db.batch():
        db.insert_rows(table, tuple(row("PICO-01", rid)), [row("PICO-01", rid)])
    for change in ("DELETE FROM terminals WHERE id = 'PICO-01'",
                   "DELETE FROM rounds WHERE id = %d" % rid,
                   "UPDATE rounds SET id = 10000 WHERE id = %d" % rid):
        with pytest.raises(db.IntegrityError):
            with db.transaction():
                db.conn.execute(change)
    with db.transaction():  # what no log row names goes as before
        db.conn.execute("DELETE FROM terminals WHERE id = 'PICO-02'")
        db.conn.execute("DELETE FROM round_boards WHERE round_id = %d" % other)
        db.conn.execute("DELETE FROM rounds WHERE id = %d" % other)
    assert db.value("SELECT COUNT(*) FROM %s" % table) == 1
    assert db.value("SELECT COUNT(*) FROM terminals") == 1


def test_the_server_tells_listeners_of_each_commit_that_moved_the_change_marker(pg_url):
    """A commit that added audit rows (the change marker moved) reaches a listener of any
    process; a transaction rolled back, or one that only wrote the terminals' logs (which
    no reader's marker counts), sends nothing (migration 011)."""
    from host_sync.event import postgres

    db = open_db(pg_url, create=True)
    setup.add_session(db, setup.create_event(db, "Club night"), 1, mitchell(4, 3))
    setup.register_terminal(db, "PICO-01", 0)
    rid = db.value("SELECT MIN(id) FROM rounds")
    listener = postgres.Listener(pg_url)
    try:
        assert not listener.wait(0.2)
        with pytest.raises(ZeroDivisionError):
            with db.transaction():
                db.update("terminals", {"id": "PICO-01"}, {"name": "one"}, "director")
                1 / 0
        assert not listener.wait(0.5)
        with db.transaction(), db.batch():
            db.insert_rows("calls", tuple(LOG_ROWS["calls"]("PICO-01", rid)),
                           [LOG_ROWS["calls"]("PICO-01", rid)])
        assert not listener.wait(0.5)
        with db.transaction():
            db.update("terminals", {"id": "PICO-01"}, {"name": "two"}, "director")
            db.update("terminals", {"id": "PICO-01"}, {"name": "three"}, "director")
        assert listener.wait(2)
        assert not listener.wait(0.3)  # one notice for the transaction
    finally:
        listener.close()
        db.close()


def test_a_commit_the_server_answered_with_rollback_is_an_error_not_a_success(pg_url):
    """PostgreSQL ends a transaction that an error aborted with ROLLBACK at its COMMIT, and
    no error: a caller that caught the error and went on would take its writes for stored
    (the station would acknowledge them to the terminal). The commit raises instead, sent on
    its own or with a batch's statements (postgres._committed)."""
    db = open_db(pg_url, create=True)
    try:
        eid = setup.create_event(db, "Club night")
        for batched in (False, True):
            with pytest.raises(psycopg.Error, match="rolled the transaction back"):
                with db.transaction():
                    db.update("events", {"id": eid}, {"name": "Lost"}, "director")
                    with pytest.raises(db.IntegrityError):
                        db.insert("sessions", {"event_id": 999, "number": 1}, "director")
                    if batched:
                        with db.batch():
                            db.commit_now()
            assert db.value("SELECT name FROM events") == "Club night"
        with pytest.raises(db.IntegrityError):  # a batch whose COMMIT was never answered
            with db.transaction(), db.batch():
                db.conn.executemany(SESSION_ROW, [(999, 1)])
                db.commit_now()
        with db.transaction(), db.batch():  # the connection goes on as before
            db.conn.executemany(SESSION_ROW, [(eid, 2)])
            db.commit_now()
        with db.transaction():
            db.update("events", {"id": eid}, {"name": "Kept"}, "director")
        assert db.value("SELECT name FROM events") == "Kept"
        assert db.all("SELECT number FROM sessions") == [(2,)]
    finally:
        db.close()


SESSION_ROW = "INSERT INTO sessions (event_id, number) VALUES (?, ?)"
