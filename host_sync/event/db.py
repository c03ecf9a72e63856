"""The scoring database: SQLite in WAL mode (or PostgreSQL, given a URL), plain SQL
migrations, audited changes.

Every change goes through `insert`, `update` or `delete`, which write the change and its audit
row (who, when, which terminal, which table and row, old and new values as JSON) in the caller's
transaction, so a change is never stored without its audit nor audited without being stored.
The exception is the insert-only logs of what the terminals sent (`LOGS`), whose rows are
never changed: each row is its own record of when it came and from which terminal.
One `Database` per thread: SQLite connections are not shared between the sync threads; WAL lets
readers run while one writer holds the lock, and `busy_timeout` makes writers queue.
A `postgresql://user@host/dbname` URL instead of a file opens the event on a PostgreSQL server,
where several sync stations feed one event; what differs there is in host_sync.event.postgres.
"""

import datetime
import json
import sqlite3
import time
from contextlib import contextmanager, nullcontext
from json.encoder import c_make_encoder, encode_basestring_ascii
from pathlib import Path

from host_sync.errors import Refused
from host_sync.event import postgres

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
BUSY_TIMEOUT_MS = 30000
POSTGRES_SUFFIX = ".postgresql.sql"


class DatabaseError(Refused):
    """The file is not a scoring database this code can use; the message says why."""


_clock = (None, None)  # the last millisecond now() spelled and its text, swapped as one


def now():
    """The time stamps of the database: UTC, ISO 8601 to the millisecond. The text of the
    last millisecond asked for is kept: the ingest stamps several rows of a record in one
    (the spelling costs ten times the clock)."""
    global _clock
    ms = time.time_ns() // 1000000
    last = _clock
    if ms == last[0]:
        return last[1]
    text = datetime.datetime.fromtimestamp(ms // 1000, datetime.timezone.utc).replace(
        microsecond=ms % 1000 * 1000).isoformat(timespec="milliseconds")
    _clock = (ms, text)
    return text


def migrations():
    """(version, path) of every migration file, in order: NNN_name.sql. A migration that
    PostgreSQL must spell otherwise (triggers) has its variant beside it, NNN_name.postgresql.sql,
    which that backend runs instead (`_postgres_variant`)."""
    found = []
    for path in sorted(MIGRATIONS.glob("*.sql")):
        if path.name.endswith(POSTGRES_SUFFIX):
            continue
        head = path.name.split("_", 1)[0]
        if not head.isdigit():
            raise DatabaseError("migration %s does not start with its number" % path.name,
                                ru="миграция %s не начинается со своего номера" % path.name)
        found.append((int(head), path))
    return found


def _python_step(version):
    """The part of migration `version` that SQL cannot spell, run after its file in the same
    transaction with the Database; None for most. 008: PBKDF2 of the director's PIN."""
    if version == 8:
        from host_sync.event import pin
        return pin.migrate_clear_pin
    return None


def _postgres_variant(path):
    variant = path.with_name(path.name[:-len(".sql")] + POSTGRES_SUFFIX)
    return variant if variant.is_file() else None


def _bytes_hex(value):
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    raise TypeError("not JSON: %r" % (value,))


def _json_text():
    """json.dumps(value, sort_keys=True, default=_bytes_hex) as one function made once: the
    ingest encodes several values per record, and JSONEncoder.encode builds a new C encoder
    at every call (about half the cost of a small value). Python's own encoder where its C
    accelerator is missing. No check for circular values: the callers' values are trees."""
    if c_make_encoder is None:
        return json.JSONEncoder(sort_keys=True, default=_bytes_hex).encode
    encode = c_make_encoder(None, _bytes_hex, encode_basestring_ascii, None, ": ", ", ", True,
                            False, True)
    return lambda value: "".join(encode(value, 0))


json_text = _json_text()


def _json(value):
    return None if value is None else json_text(value)


class Database:
    """A connection to one event file; `with db.transaction():` around every change."""

    def __init__(self, path, create=False):
        self.path = str(path)
        self.postgres = postgres.is_url(self.path)
        self._depth = 0
        self._committed = False  # commit_now ended the transaction before its block did
        if self.postgres:
            self.IntegrityError = postgres.IntegrityError
            self.conn = postgres.Connection(self.path)
            self.path = postgres.safe(self.path)
            self._begin, self._commit = self.conn.begin, self.conn.commit
        else:
            self.IntegrityError = sqlite3.IntegrityError
            self.conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000,
                                        isolation_level=None, check_same_thread=True)
            self.conn.row_factory = sqlite3.Row
            self._begin = lambda: self.conn.execute("BEGIN IMMEDIATE")
            self._commit = lambda: self.conn.execute("COMMIT")
        try:
            self._check_owner(create)  # before any pragma or migration writes to the file
            if not self.postgres:
                self._sqlite_pragmas()
            self.migrate()
        except BaseException:
            self.conn.close()
            raise

    def _sqlite_pragmas(self):
        self.conn.execute("PRAGMA busy_timeout = %d" % BUSY_TIMEOUT_MS)
        self.conn.execute("PRAGMA foreign_keys = ON")
        mode = self.conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode != "wal" and self.path != ":memory:":
            raise DatabaseError("%s: SQLite refused WAL mode (%s)" % (self.path, mode),
                                ru="%s: SQLite не включил режим WAL (%s)" % (self.path, mode))
        # FULL even in WAL: the station acknowledges a batch right after its commit and the
        # terminal then deletes those records, so a commit must survive a power cut. Cost:
        # one fsync of the WAL per commit (one per 64-record pull window; bench/sync_bench.py).
        self.conn.execute("PRAGMA synchronous = FULL")
        # What an UPDATE or DELETE replaces is overwritten with zeros in the file, not left in
        # its free space: migration 008's redaction of the director's PIN must leave no copy
        # (the default of Debian's SQLite already, not of every build)
        self.conn.execute("PRAGMA secure_delete = ON")

    def _tables(self):
        if self.postgres:
            return self.conn.table_names()
        return [r[0] for r in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]

    def _check_owner(self, create):
        """Refuse a file that is not an event database before touching it: another program's
        SQLite file (it has tables but no schema_version) always, and a database with no
        tables at all (a zero-byte file) unless we are creating the event."""
        tables = self._tables()
        if "schema_version" in tables:
            return
        if tables:
            raise DatabaseError("%s is not an event database: it holds the tables of another "
                                "program (%s); it was left as it was" % (
                                    self.path, ", ".join(tables[:5])),
                                ru="%s — не база турнира: в ней таблицы другой программы "
                                "(%s); файл оставлен как был" % (self.path,
                                                                 ", ".join(tables[:5])))
        if not create:
            raise DatabaseError("%s is an empty file, not an event database (create one with "
                                "`host-sync event create`)" % self.path,
                                ru="%s — пустой файл, а не база турнира (создайте её командой "
                                "`host-sync event create`)" % self.path)

    def close(self):
        self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- schema --------------------------------------------------------------------------

    def version(self):
        if "schema_version" not in self._tables():
            return 0
        return self.conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] or 0

    def migrate(self):
        """Apply every migration newer than the file's version, each in its own transaction
        (which looks at the version again: stations opening one event at once apply it once)."""
        with self.transaction():
            self.conn.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                              "version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
        known = migrations()
        current = self.version()
        if known and current > known[-1][0]:
            raise DatabaseError("%s has schema version %d; this host-sync knows up to %d" % (
                self.path, current, known[-1][0]), ru="у %s версия схемы %d; этот host-sync "
                "знает версии до %d" % (self.path, current, known[-1][0]))
        for version, path in known:
            if version <= current:
                continue
            with self.transaction():
                if self.version() >= version:  # another station migrated it meanwhile
                    continue
                variant = _postgres_variant(path) if self.postgres else None
                if variant is not None:  # one script: its function bodies hold semicolons
                    self.conn.script(variant.read_text())
                else:
                    for statement in _statements(path.read_text()):
                        self.conn.execute(postgres.ddl(statement) if self.postgres else statement)
                step = _python_step(version)
                if step is not None:
                    step(self)
                self.conn.execute("INSERT INTO schema_version VALUES (?, ?)", (version, now()))

    # -- transactions --------------------------------------------------------------------

    @contextmanager
    def transaction(self):
        """BEGIN IMMEDIATE ... COMMIT, ROLLBACK on any exception (on PostgreSQL: BEGIN and the
        event's writer lock, the same one writer at a time; the COMMIT tells the listeners,
        postgres.Listener). Inside another transaction
        it is a SAVEPOINT: an inner step that fails undoes its own writes and nothing else, so
        a caller that catches its exception goes on with its own writes intact and none of the
        inner step's half done."""
        if self._depth:
            name = "step%d" % self._depth
            self.conn.execute("SAVEPOINT " + name)
            self._depth += 1
            try:
                yield self
            except BaseException:
                self.conn.execute("ROLLBACK TO " + name)
                raise
            finally:
                self._depth -= 1
                self.conn.execute("RELEASE " + name)
            return
        self._begin()
        self._depth = 1
        try:
            yield self
        except BaseException:
            self._depth = 0
            self._committed = False
            self.conn.execute("ROLLBACK")
            raise
        if self._committed:  # commit_now
            self._committed = False
            return
        self._depth = 0
        self._commit()

    def commit_now(self):
        """COMMIT the outermost transaction here, before its block ends: inside `batch`, sent
        with the batch's statements (on PostgreSQL one round trip for both). No change may
        follow in the block, whose end then commits nothing. Inside an inner transaction (a
        savepoint) nothing happens: the outer one commits."""
        if self._depth != 1:
            return
        self._depth = 0
        self._committed = True
        self._commit()

    def _require_transaction(self):
        if not self._depth:
            raise RuntimeError("database changes must be made inside db.transaction()")

    # -- reading -------------------------------------------------------------------------

    def all(self, sql, args=()):
        return self.conn.execute(sql, args).fetchall()

    def one(self, sql, args=()):
        return self.conn.execute(sql, args).fetchone()

    def all_of(self, reads):
        """The rows of each (sql, args) of `reads`: on PostgreSQL sent together and answered
        together, one round trip for all of them."""
        if not reads:
            return []
        if self.postgres:
            return self.conn.all_of(reads)
        return [self.conn.execute(sql, args).fetchall() for sql, args in reads]

    def value(self, sql, args=()):
        row = self.conn.execute(sql, args).fetchone()
        return None if row is None else row[0]

    # -- audited changes -----------------------------------------------------------------

    def insert(self, table, values, actor, terminal=None, key=None):
        """INSERT a row and audit it (a row of `LOGS` is its own audit); returns the rowid.
        `key` names the row in the audit (default: its rowid)."""
        self._require_transaction()
        names = list(values)
        cur = self.conn.execute("INSERT INTO %s (%s) VALUES (%s)" % (
            table, ", ".join(names), ", ".join("?" * len(names))), [values[n] for n in names])
        if table not in LOGS:
            row_key = key if key is not None else {"id": cur.lastrowid}
            self._audit(actor, terminal, table, row_key, "insert", None, values)
        return cur.lastrowid

    def update(self, table, key, values, actor, terminal=None):
        """UPDATE the row named by key (a dict of columns) and audit what changed.

        Only columns whose value differs are written; returns False if nothing changed (and
        then nothing is audited), and raises LookupError if there is no such row.
        """
        self._require_transaction()
        where = " AND ".join("%s = ?" % k for k in key)
        old = self.conn.execute("SELECT %s FROM %s WHERE %s" % (
            ", ".join(values), table, where), list(key.values())).fetchone()
        if old is None:
            raise LookupError("no %s row %r" % (table, key))
        changed = {n: v for n, v in values.items() if old[n] != v}
        if not changed:
            return False
        self.conn.execute("UPDATE %s SET %s WHERE %s" % (
            table, ", ".join("%s = ?" % n for n in changed), where),
            list(changed.values()) + list(key.values()))
        self._audit(actor, terminal, table, key, "update", {n: old[n] for n in changed}, changed)
        return True

    def delete(self, table, key, actor, terminal=None):
        """DELETE the row named by key and audit its last values; False if there was none."""
        self._require_transaction()
        where = " AND ".join("%s = ?" % k for k in key)
        old = self.conn.execute("SELECT * FROM %s WHERE %s" % (table, where),
                                list(key.values())).fetchone()
        if old is None:
            return False
        self.conn.execute("DELETE FROM %s WHERE %s" % (table, where), list(key.values()))
        self._audit(actor, terminal, table, key, "delete", dict(old), None)
        return True

    def _audit(self, actor, terminal, table, key, action, old, new):
        self.conn.execute(AUDIT_INSERT, _audit_row(now(), actor, terminal, table, key, action,
                                                   old, new))

    def batch(self):
        """A block whose statements the backend may send together (PostgreSQL: one round
        trip, an error raised at the block's end at the latest); SQLite runs them as they
        come."""
        return self.conn.batch() if self.postgres else nullcontext()

    def next_ids_read(self, tables):
        """(sql, args) of the one-row read of the id each table's next INSERT would take, so
        that rows written together (`Pending`) can be named in their audit rows; a caller
        may send it with its own reads (`all_of`). PostgreSQL takes the number from the
        table's sequence (as its own INSERTs take them: `ids_used` gives back the unused)."""
        if self.postgres:
            return "SELECT %s" % ", ".join(
                "nextval(pg_get_serial_sequence(?, 'id'))" for _ in tables), tuple(tables)
        return "SELECT %s" % ", ".join(
            "(SELECT COALESCE(MAX(id), 0) + 1 FROM %s)" % t for t in tables), ()

    def ids_used(self, next_ids):
        """The ids below next_ids[table] are taken (`Pending` counted them from `next_ids`):
        PostgreSQL's sequences go on from there; SQLite's next id is the table's largest."""
        if self.postgres and next_ids:
            self.conn.ids_used(next_ids)

    def insert_rows(self, table, names, rows):
        """INSERT the rows (dicts with the columns `names`, in that order): on PostgreSQL all
        of them bound as one parameter (postgres.Connection.insert_rows)."""
        if self.postgres:
            self.conn.insert_rows(table, names, json_text(rows))
        else:
            self.conn.executemany("INSERT INTO %s (%s) VALUES (%s)" % (
                table, ", ".join(names), ", ".join("?" * len(names))),
                [tuple(row.values()) for row in rows])

    def insert_audits(self, audits):
        """The audit rows of `audits`, (at, actor, terminal, table, key, action, old, new)
        with the key and values as Python values, in order. On PostgreSQL they go as one JSON
        parameter whose nested key and values the server keeps as JSON text spelled as
        `json_text` spells them (it keeps a json value's text as given), so no value is
        encoded on its own."""
        if self.postgres:
            self.conn.insert_rows("audit", AUDIT_COLUMNS, json_text([
                dict(zip(AUDIT_COLUMNS, audit)) for audit in audits]))
        else:
            self.conn.executemany(AUDIT_INSERT, [_audit_row(*audit) for audit in audits])


AUDIT_COLUMNS = ("at", "actor", "terminal_id", "tbl", "row_key", "action", "old", "new")
AUDIT_INSERT = "INSERT INTO audit (%s) VALUES (%s)" % (", ".join(AUDIT_COLUMNS),
                                                     ", ".join("?" * len(AUDIT_COLUMNS)))

# The insert-only logs of what the terminals sent: `records` (every journal record as received,
# with its received_at: the raw truth) and what re-validation reads from each of them, `calls`
# and `rulings`, keyed by the record. Nothing updates or deletes their rows, so a row is its own
# audit: an audit row of its insert would repeat it, and those were two thirds of a sync's audit
# rows and a fifth to a third of SQLite's time for it (BENCHMARKS.md, Ingest). Every other
# change has its audit row, the change marker of the live page included (host_sync.web.live).
LOGS = frozenset(("records", "calls", "rulings"))


def _audit_row(at, actor, terminal, table, key, action, old, new):
    return (at, actor, terminal, table, _json(key), action, _json(old), _json(new))


_GONE = object()  # in Pending's undo log: the column was not set before


class Pending:
    """Audited changes held back and written together (a row of `LOGS` has no audit row):
    one statement per table (and shape of update) and one for all their audit rows, however
    many rows, where `Database.insert` and `update` cost two or three per row (and on
    PostgreSQL each statement is a round trip to the server). The sync ingest gathers a pull
    window's writes here.

    Each audit row keeps the time its change was made and the order of the changes; a row
    of a table in `ids` (no natural key) gets its id when it is written, a row added with
    `row_id` (`new_id`) has it at once, so later changes in the window can name it. An update
    of a row held here is merged into it. The caller reads back from its own copies of what
    it holds (the ingest keeps them), and flushes before a write whose trigger reads the
    tables (migration 005's). `mark` and `drop` forget what was held since a mark: what a
    failed step held back is never written; `saved` and `restore` put back what a flush wrote
    inside a savepoint that was then rolled back."""

    def __init__(self, db, actor, terminal, ids=()):
        self.db, self.actor, self.terminal = db, actor, terminal
        self.ids = set(ids)
        self.inserts = []  # (table, values) in the order they were added
        self.held = {}  # (table, id) -> values of a held insert that has its id
        self.updates = {}  # (table, id) -> {column: value} for rows already written
        self.audits = []  # (at, table, key or None, action, old, new, values of the insert)
        self.undo = []  # (dict, column, value before or _GONE)
        self.next_ids = {}  # table -> the next id counted here, until the next flush

    def new_id(self, table):
        """An id for a row of `table` to be added now (fresh in the database and here): the
        first of a flush's ids comes from the database, the next ones are counted here (one
        statement per table and flush, not one per row; `_take_ids`)."""
        self._take_ids([table])
        fresh = self.next_ids[table]
        self.next_ids[table] = fresh + 1
        return fresh

    def _take_ids(self, tables):
        """Make sure `next_ids` counts on from the database's next id for each table (one
        statement for all of them, db.next_ids_read) and from the ids held here. Sound
        because the caller holds the writer's lock (db.transaction): no other writer takes
        ids of these tables before `flush` tells the database how far this count went."""
        read = self.ids_read(tables)
        if read is not None:
            self.counted(read, self.db.one(*read[1]))

    def ids_read(self, tables):
        """(tables, (sql, args)): the read of the next ids of `tables` and of the flush's own
        (`ids`) not counted yet, for a caller to send with its reads (db.all_of) and give its
        row to `counted`; None when all are counted."""
        missing = sorted((set(tables) | self.ids) - set(self.next_ids))
        return (missing, self.db.next_ids_read(missing)) if missing else None

    def counted(self, read, row):
        """Count on from the row of `ids_read`'s read (and from the ids held here)."""
        for table, fresh in zip(read[0], row):
            held = [r["id"] for t, r in self.inserts if t == table and "id" in r]
            self.next_ids[table] = max([fresh] + [i + 1 for i in held])

    def insert(self, table, values, key=None, row_id=None):
        row = dict(values) if row_id is None else dict(values, id=row_id)
        self.inserts.append((table, row))
        if row_id is not None:
            self.held[(table, row_id)] = row
            key = key or {"id": row_id}
        if table not in LOGS:
            self.audits.append((now(), table, key, "insert", None, dict(values), row))

    def update(self, table, row_id, old, changed):
        """Set `changed` on the row `row_id` (old: its values before, for the audit)."""
        target = self.held.get((table, row_id))
        if target is None:
            target = self.updates.setdefault((table, row_id), {})
        for name, value in changed.items():
            self.undo.append((target, name, target.get(name, _GONE)))
            target[name] = value
        self.audits.append((now(), table, {"id": row_id}, "update", old, dict(changed), None))

    def mark(self):
        return len(self.inserts), len(self.audits), len(self.undo)

    def drop(self, mark):
        inserts, audits, undo = mark
        for target, name, value in reversed(self.undo[undo:]):
            if value is _GONE:
                del target[name]
            else:
                target[name] = value
        del self.undo[undo:]
        for table, row in self.inserts[inserts:]:
            self.held.pop((table, row.get("id")), None)
        del self.inserts[inserts:]
        del self.audits[audits:]

    def saved(self):
        return (list(self.inserts), dict(self.held), {k: dict(v) for k, v in
                                                      self.updates.items()},
                list(self.audits), list(self.undo))

    def restore(self, saved):
        self.inserts, self.held, self.updates, self.audits, self.undo = (
            list(saved[0]), dict(saved[1]), dict(saved[2]), list(saved[3]), list(saved[4]))

    def flush(self, commit=False):
        """Write what is held and its audit rows: on PostgreSQL in one round trip (db.batch),
        each table's rows and the audit rows as one parameter (db.insert_rows); commit: the
        transaction ends here, its COMMIT sent with them (db.commit_now)."""
        db = self.db
        if not self.audits and not self.inserts:
            if self.next_ids and db.postgres:  # counted and not used: given back
                db._require_transaction()
                with db.batch():
                    db.ids_used(self.next_ids)
                    if commit:
                        db.commit_now()
                self.next_ids = {}
            return
        db._require_transaction()
        unnamed = [(t, row) for t, row in self.inserts if t in self.ids and "id" not in row]
        self._take_ids({t for t, _row in unnamed})
        for table, row in unnamed:
            row["id"] = self.next_ids[table]
            self.next_ids[table] += 1
        with db.batch():
            db.ids_used(self.next_ids)
            shapes = {}  # (table, columns) -> rows, in the order each shape first appears
            for table, row in self.inserts:
                shapes.setdefault((table, tuple(row)), []).append(row)
            for (table, names), rows in shapes.items():
                db.insert_rows(table, names, rows)
            for sql, rows in _grouped(
                    ("UPDATE %s SET %s WHERE id = ?" % (
                        table, ", ".join("%s = ?" % n for n in changed)),
                     list(changed.values()) + [row_id])
                    for (table, row_id), changed in self.updates.items() if changed):
                db.conn.executemany(sql, rows)
            db.insert_audits([
                (at, self.actor, self.terminal, table,
                 key if key is not None else {"id": row["id"]}, action, old, new)
                for at, table, key, action, old, new, row in self.audits])
            if commit:
                db.commit_now()
        self.inserts, self.held, self.updates, self.audits, self.undo = [], {}, {}, [], []
        self.next_ids = {}


def _grouped(statements):
    """(sql, [args...]) per distinct statement, in the order each first appears."""
    groups = {}
    for sql, args in statements:
        groups.setdefault(sql, []).append(args)
    return groups.items()


def _statements(sql):
    """The statements of a migration file, split where SQLite itself says a statement is
    complete (so a semicolon in a literal or a comment does not cut one)."""
    found, pending = [], ""
    for line in sql.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            found.append(pending.strip())
            pending = ""
    if pending.strip() and not all(
            line.strip().startswith("--") or not line.strip() for line in pending.splitlines()):
        cut = pending.strip()[:60]
        raise DatabaseError("a migration ends inside a statement: %r" % cut,
                            ru="миграция обрывается посреди оператора: %r" % cut)
    return found


def open_db(path, create=False):
    """The database at path, migrated to the latest schema; DatabaseError if it is not one.

    With create=False a missing file is an error (a typo must not create an empty event).
    A PostgreSQL URL names a database that exists (`createdb`); with create=False an empty
    one is refused as an empty file is.
    """
    if postgres.is_url(path):
        try:
            return Database(path, create)
        except postgres.Error as e:
            # the server's own words, in the server's language
            raise DatabaseError("%s: %s" % (postgres.safe(path), str(e).strip()),
                                ru="%s: PostgreSQL не открыл базу: %s" % (
                                    postgres.safe(path), str(e).strip()))
    p = Path(path)
    if not create and not p.exists():
        raise DatabaseError("%s: no such event database (create it with `host-sync event "
                            "create`)" % path, ru="%s: нет такой базы турнира (создайте её "
                            "командой `host-sync event create`)" % path)
    if not p.parent.is_dir():
        raise DatabaseError("%s: no such folder %s" % (path, p.parent),
                            ru="%s: нет такой папки %s" % (path, p.parent))
    try:
        return Database(p, create)
    except sqlite3.DatabaseError as e:
        raise DatabaseError("%s: not a scoring database: %s" % (path, e),
                            ru="%s: это не база турнира: %s" % (path, e))
