"""Ingest on both event databases, side by side in one run (issue 17): re-validated records per
second through host_sync.station.ingest into a SQLite file and into a PostgreSQL database, each
against a bare executemany of the same rows on the same backend, and several stations (threads,
each with its own connection) ingesting different terminals of one PostgreSQL event at once.

The PostgreSQL server is a real one started here (tests/pg_server.py) with its durable defaults
(fsync on, synchronous commit), as SQLite runs with synchronous = FULL: every 64-record commit
must survive a power cut. Medians of BENCH_REPEAT runs.

On a shared machine the commits' fsyncs make the figures swing by 2-10x between runs (the
bare peers too). Figures that hold stiller: the host's CPU per record (process time of the
ingest, which leaves out the disk and the PostgreSQL server's own work), the server's CPU per
record (the time on a CPU of the connection's backend process, from /proc: the server runs
here), and BENCH_DURABLE=0, which runs both backends without fsync (the server as the tests
run it, SQLite with synchronous = OFF, the bare peers likewise) to show the code's own speed.

Two volumes: one table's session (its terminal's 32 boards, ~575 records), and the evening
(all 8 tables of the movement, 4,167 records, one terminal after another, as a station syncs
them through the evening). The event is set up, closed and opened again before the ingest,
as `serve` opens an event that `event create` made: setting up leaves the SQLite WAL full of
the schema's pages, and its checkpoint is setup's cost, not a sync's. A table's session alone
carries the first window's costs (each statement's first preparation, the caches' first
reads), which a station running through an evening pays once.

With --instructions, also the x86-64 instructions of the evening on PostgreSQL, counted by
valgrind's callgrind, on each side: this process's (a child python under callgrind that sets
the event up and ingests, minus one that only sets it up) and the connection's backend process
(the server itself run under callgrind, one count per backend). Those do not move with the
machine's speed (the times above swing by 2x between runs); each against the same count for the
bare executemany of the same rows.

    python bench/pg_ingest_bench.py [--instructions]
"""

import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

import callgrind  # noqa: E402
from pg_server import Server  # noqa: E402
from sync_bench import MOVEMENT, session_records  # noqa: E402

from host_sync.event import setup  # noqa: E402
from host_sync.event.db import open_db  # noqa: E402
from host_sync.station.ingest import ingest  # noqa: E402

REPEAT = int(os.environ.get("BENCH_REPEAT", "5"))
DURABLE = os.environ.get("BENCH_DURABLE", "1") != "0"
STATIONS = 3
WINDOW = 64


def numbered(table=1):
    return [(seq, kind, data) for seq, (kind, data) in enumerate(session_records(table), 1)]


def terminal(table):
    return "PICO-%02d" % table


def new_event(location, terminals):
    """The event set up for `terminals`, closed and opened again as a station opens it."""
    db = open_db(location, create=True)
    setup.add_session(db, setup.create_event(db, "bench"), 1, MOVEMENT)
    for tid in terminals:
        setup.register_terminal(db, tid, 0)
    db.close()
    db = open_db(location)
    if not DURABLE and not db.postgres:
        db.conn.execute("PRAGMA synchronous = OFF")
    return db


def feed(db, tid, records):
    for i in range(0, len(records), WINDOW):
        ingest(db, tid, records[i][0] - 1, records[i:i + WINDOW])


# The peer: the same rows in the same windows, each record's JSON into one plain table.
BARE = "CREATE TABLE bare (t TEXT, q INTEGER, k TEXT, body TEXT, PRIMARY KEY (t, q))"


def bare_feed(db, tid, journal):
    """The bare peer's statements for one terminal: its rows in windows, no Python between."""
    for i in range(0, len(journal), WINDOW):
        with db.transaction():
            db.conn.executemany("INSERT INTO bare VALUES (?, ?, ?, ?)", [
                (tid, q, k, json.dumps(d, sort_keys=True)) for q, k, d in journal[i:i + WINDOW]])


def on_cpu(pid):
    """Seconds process `pid` has run on a CPU (Linux's schedstat: nanoseconds)."""
    return int(Path("/proc/%d/schedstat" % pid).read_text().split()[0]) / 1e9


def ingest_rate(location, tables):
    """(records/s through ingest, records/s of a bare executemany, records, the ingest's
    process time per record in µs, the PostgreSQL backend's CPU time per record in µs or
    None) on one backend, the sessions of `tables` one terminal after another."""
    journals = {terminal(t): numbered(t) for t in tables}
    records = sum(len(j) for j in journals.values())
    db = new_event(location, list(journals))
    backend = db.value("SELECT pg_backend_pid()") if db.postgres else None
    server = backend and on_cpu(backend)
    start, cpu = time.perf_counter(), time.process_time()
    for tid, journal in journals.items():
        feed(db, tid, journal)
    ours = records / (time.perf_counter() - start)
    cpu = (time.process_time() - cpu) / records * 1e6
    if backend:
        server = (on_cpu(backend) - server) / records * 1e6
    with db.transaction():
        db.conn.execute(BARE)
    start = time.perf_counter()
    for tid, journal in journals.items():
        bare_feed(db, tid, journal)
    bare = records / (time.perf_counter() - start)
    db.close()
    return ours, bare, records, cpu, server


class Recorder:
    """A SQLite connection that keeps each execute and executemany it runs, in order."""

    def __init__(self, conn):
        self.conn, self.log = conn, []

    def execute(self, sql, params=()):
        self.log.append(("execute", sql, params))
        return self.conn.execute(sql, params)

    def executemany(self, sql, rows):
        rows = list(rows)
        self.log.append(("executemany", sql, rows))
        return self.conn.executemany(sql, rows)

    def __getattr__(self, name):
        return getattr(self.conn, name)


def statements_rate(folder, tables):
    """records/s of the statements that ingest sends to SQLite for `tables`, replayed on a
    copy of the event as it was before (the same reads, writes, commits and fsyncs, with none
    of ingest's Python between them): what the writes themselves allow."""
    journals = {terminal(t): numbered(t) for t in tables}
    db = new_event(folder / "kept.db", list(journals))
    db.close()
    shutil.copy(folder / "kept.db", folder / "replayed.db")
    db = open_db(folder / "kept.db")
    db.conn = recorder = Recorder(db.conn)
    for tid, journal in journals.items():
        feed(db, tid, journal)
    db.conn = recorder.conn
    db.close()
    db = open_db(folder / "replayed.db")
    if not DURABLE:
        db.conn.execute("PRAGMA synchronous = OFF")
    start = time.perf_counter()
    for method, sql, params in recorder.log:
        getattr(db.conn, method)(sql, params)
    rate = sum(len(j) for j in journals.values()) / (time.perf_counter() - start)
    db.close()
    for name in ("kept.db", "replayed.db"):
        (folder / name).unlink()
    return rate


def stations_rate(url):
    """records/s of STATIONS threads, each with its own connection, each feeding its own
    terminal's 32 boards into one PostgreSQL event at once."""
    tids = [terminal(t) for t in range(1, STATIONS + 1)]
    new_event(url, tids).close()
    journals = {tid: numbered(t) for t, tid in enumerate(tids, 1)}
    dbs = {tid: open_db(url) for tid in tids}
    threads = [threading.Thread(target=feed, args=(dbs[tid], tid, journals[tid])) for tid in tids]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    rate = sum(len(j) for j in journals.values()) / (time.perf_counter() - start)
    for db in dbs.values():
        db.close()
    return rate


EVENING = range(1, MOVEMENT.tables + 1)  # every table of the movement


def evening_job(url, job):
    """The evening on the event at `url` as one `job`: "ingest", "bare", or "none" (the event
    set up, nothing fed: what the other two count on top of). Returns the backend's pid."""
    journals = {terminal(t): numbered(t) for t in EVENING}
    db = new_event(url, list(journals))
    if job == "bare":
        with db.transaction():
            db.conn.execute(BARE)
    backend = db.value("SELECT pg_backend_pid()")
    for tid, journal in journals.items():
        if job == "ingest":
            feed(db, tid, journal)
        elif job == "bare":
            bare_feed(db, tid, journal)
    db.close()
    return backend


class CountedServer(Server):
    """The PostgreSQL server run under callgrind: each backend writes its own count when its
    connection closes (fsync off: the instructions are the same, the disk not waited for)."""

    def _start(self, options):
        self.proc = subprocess.Popen(
            self.as_user + ["valgrind", "--tool=callgrind", "--callgrind-out-file=%s/cg.%%p"
                            % self.root, str(self.bin / "postgres"), "-D", str(self.data)]
            + options.split(), cwd=self.root, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.5).close()
                time.sleep(2)  # the postmaster's start-up under valgrind, done listening
                return
            except OSError:
                time.sleep(0.5)
        raise RuntimeError("postgres under callgrind did not start")

    def backend_total(self, pid):
        path = self.root / ("cg.%d" % pid)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if path.exists() and "totals:" in path.read_text():  # written last
                return callgrind.total(path)
            time.sleep(0.5)
        raise RuntimeError("no callgrind count from backend %d" % pid)

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
        shutil.rmtree(self.root, ignore_errors=True)


CLIENT = """
import sys
sys.path.insert(0, sys.argv[1])
import pg_ingest_bench
pg_ingest_bench.evening_job(sys.argv[2], sys.argv[3])
"""


def instructions():
    """{(side, job): instructions a record of the evening} for side "client" and "server",
    job "ingest" and "bare", each the count with the job minus the count without."""
    records = sum(len(numbered(t)) for t in EVENING)
    counts = {}
    server = CountedServer()
    try:
        for job in ("none", "ingest", "bare"):
            counts["server", job] = server.backend_total(evening_job(server.fresh_url(), job))
    finally:
        server.stop()
    plain = Server()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for job in ("none", "ingest", "bare"):
                out = Path(tmp) / job
                # run from tmp: `-c` puts the working folder first on the path, which would
                # shadow a tree given by PYTHONPATH (as for a before/after run)
                subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=%s" % out,
                                sys.executable, "-c", CLIENT, str(ROOT / "bench"),
                                plain.fresh_url(), job], check=True, capture_output=True,
                               cwd=tmp)
                counts["client", job] = callgrind.total(out)
    finally:
        plain.stop()
    return {(side, job): (counts[side, job] - counts[side, "none"]) / records
            for side in ("client", "server") for job in ("ingest", "bare")}


def main():
    server = Server(durable=DURABLE)
    runs = {}  # (backend, volume) -> the runs' ingest_rate figures
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for volume, tables in (("one table", [1]), ("the evening", EVENING)):
                runs["SQLite", volume] = [ingest_rate(Path(tmp) / ("e%d-%d.db" % (
                    len(tables), i)), tables) for i in range(REPEAT)]
                runs["PostgreSQL", volume] = [ingest_rate(server.fresh_url(), tables)
                                              for _ in range(REPEAT)]
            floor = [statements_rate(Path(tmp), EVENING) for _ in range(REPEAT)]
        many = [stations_rate(server.fresh_url()) for _ in range(REPEAT)]
    finally:
        server.stop()
    med = statistics.median
    print("| measure | value | peer | peer value | ratio |")
    print("|---|---|---|---|---|")
    for (name, volume), rs in runs.items():
        ours, bare = med(r[0] for r in rs), med(r[1] for r in rs)
        print("| host ingest on %s, %s, %d records (records/s, batches of %d, re-validated) | "
              "%.0f | bare %s executemany of the same rows | %.0f | %.2f |" % (
                  name, volume, rs[0][2], WINDOW, ours, name, bare, ours / bare))
    ours = med(r[0] for r in runs["SQLite", "the evening"])
    print("| host ingest on SQLite, the evening (records/s) | %.0f | the same statements "
          "replayed with no Python between them | %.0f | %.2f |" % (
              ours, med(floor), ours / med(floor)))
    for (name, volume), rs in runs.items():
        print("| host CPU per record ingested on %s, %s (µs, process time) | %.1f | | | |" % (
            name, volume, med(r[3] for r in rs)))
    for volume in ("one table", "the evening"):
        print("| PostgreSQL server CPU per record ingested, %s (µs, its backend process) | "
              "%.1f | | | |" % (volume, med(r[4] for r in runs["PostgreSQL", volume])))
    one = med(r[0] for r in runs["PostgreSQL", "one table"])
    print("| %d stations ingesting into one PostgreSQL event at once (records/s) | %.0f | one "
          "station on PostgreSQL, one table | %.0f | %.2f |" % (
              STATIONS, med(many), one, med(many) / one))
    if "--instructions" in sys.argv:
        counted = instructions()
        for side, who in (("client", "this process"), ("server", "its backend process")):
            print("| x86-64 instructions a record, the evening on PostgreSQL, %s (%s, "
                  "callgrind) | %.0f k | the bare executemany of the same rows | %.0f k | "
                  "%.2f |" % (side, who, counted[side, "ingest"] / 1e3,
                              counted[side, "bare"] / 1e3,
                              counted[side, "ingest"] / counted[side, "bare"]))
    print("\nmedians of %d runs; one table: its terminal's 32 boards; the evening: the %d "
          "tables' terminals one after another%s" % (
              REPEAT, len(EVENING), "" if DURABLE else
              ", BENCH_DURABLE=0: no fsync on either backend"))


if __name__ == "__main__":
    main()
