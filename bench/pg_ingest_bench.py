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
"""

import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

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


def new_event(location, terminals):
    db = open_db(location, create=True)
    if not DURABLE and not db.postgres:
        db.conn.execute("PRAGMA synchronous = OFF")
    setup.add_session(db, setup.create_event(db, "bench"), 1, MOVEMENT)
    for tid in terminals:
        setup.register_terminal(db, tid, 0)
    return db


def feed(db, tid, records):
    for i in range(0, len(records), WINDOW):
        ingest(db, tid, records[i][0] - 1, records[i:i + WINDOW])


def on_cpu(pid):
    """Seconds process `pid` has run on a CPU (Linux's schedstat: nanoseconds)."""
    return int(Path("/proc/%d/schedstat" % pid).read_text().split()[0]) / 1e9


def ingest_rate(location):
    """(records/s through ingest, records/s of a bare executemany, records, the ingest's
    process time per record in µs, the PostgreSQL backend's CPU time per record in µs or
    None) on one backend."""
    records = numbered()
    db = new_event(location, ["PICO-I"])
    backend = db.value("SELECT pg_backend_pid()") if db.postgres else None
    server = backend and on_cpu(backend)
    start, cpu = time.perf_counter(), time.process_time()
    feed(db, "PICO-I", records)
    ours = len(records) / (time.perf_counter() - start)
    cpu = (time.process_time() - cpu) / len(records) * 1e6
    if backend:
        server = (on_cpu(backend) - server) / len(records) * 1e6
    with db.transaction():
        db.conn.execute("CREATE TABLE bare (t TEXT, q INTEGER, k TEXT, body TEXT, "
                        "PRIMARY KEY (t, q))")
    start = time.perf_counter()
    for i in range(0, len(records), WINDOW):
        with db.transaction():
            db.conn.executemany("INSERT INTO bare VALUES ('PICO-I', ?, ?, ?)", [
                (q, k, json.dumps(d, sort_keys=True)) for q, k, d in records[i:i + WINDOW]])
    bare = len(records) / (time.perf_counter() - start)
    db.close()
    return ours, bare, len(records), cpu, server


def stations_rate(url):
    """records/s of STATIONS threads, each with its own connection, each feeding its own
    terminal's 32 boards into one PostgreSQL event at once."""
    tids = ["PICO-%02d" % t for t in range(1, STATIONS + 1)]
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


def main():
    server = Server(durable=DURABLE)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            lite = [ingest_rate(Path(tmp) / ("e%d.db" % i)) for i in range(REPEAT)]
        pg = [ingest_rate(server.fresh_url()) for _ in range(REPEAT)]
        many = [stations_rate(server.fresh_url()) for _ in range(REPEAT)]
    finally:
        server.stop()
    med = statistics.median
    print("| measure | value | peer | peer value | ratio |")
    print("|---|---|---|---|---|")
    for name, runs in (("SQLite", lite), ("PostgreSQL", pg)):
        ours, bare = med(r[0] for r in runs), med(r[1] for r in runs)
        print("| host ingest on %s (records/s, batches of %d, re-validated) | %.0f | bare %s "
              "executemany of the same rows | %.0f | %.2f |" % (
                  name, WINDOW, ours, name, bare, ours / bare))
    for name, runs in (("SQLite", lite), ("PostgreSQL", pg)):
        print("| host CPU per record ingested on %s (µs, process time) | %.1f | | | |" % (
            name, med(r[3] for r in runs)))
    print("| PostgreSQL server CPU per record ingested (µs, its backend process) | %.1f | | "
          "| |" % med(r[4] for r in pg))
    one = med(r[0] for r in pg)
    print("| %d stations ingesting into one PostgreSQL event at once (records/s) | %.0f | one "
          "station on PostgreSQL | %.0f | %.2f |" % (STATIONS, med(many), one, med(many) / one))
    print("\nmedians of %d runs of %d records each (one terminal's 32 boards)%s" % (
        REPEAT, lite[0][2], "" if DURABLE else ", BENCH_DURABLE=0: no fsync on either backend"))


if __name__ == "__main__":
    main()
