"""An evening for the live page's tests and benchmark, and `host-sync web` as a real process.

The evening: one Mitchell session of 3 tables, 2 boards a round, 2 rounds, so every board is
played at two tables, in different rounds: after a round each board has been played once, and
the embargo has something to hold. Table t's terminal is "T<t>"; `play` journals and ingests
one table's round as a sync does (host_sync.station.ingest, in its own transaction).
"""

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

from sync_script import event_movement, table_round

from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.station.ingest import ingest
from host_sync.web.live import pair_key

TABLES, BOARDS, ROUNDS = 3, 2, 2
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def evening(location):
    """(db, movement) of a new event at `location` (a file or a PostgreSQL URL)."""
    db = open_db(location, create=True)
    movement = event_movement(TABLES, BOARDS, ROUNDS)
    setup.add_session(db, setup.create_event(db, "Live pairs"), 1, movement)
    for table in range(1, TABLES + 1):
        setup.register_terminal(db, "T%d" % table, 0)
    return db, movement


def link_key(db, label):
    """The key in pair `label`'s own link for the event's current session."""
    event_id, _, key = setup.the_event(db)
    return pair_key(key, setup.session_id(db, event_id), label)


def play(db, movement, table, rnd, seed=1):
    """Ingest table's round `rnd`; returns (its NS pair, its EW pair, the boards played)."""
    terminal = "T%d" % table
    records, truth = table_round(seed * 100 + table * 10 + rnd, movement, table, rnd)
    last = db.value("SELECT last_seq FROM terminals WHERE id = ?", (terminal,))
    report = ingest(db, terminal, last, [(last + 1 + i, k, d) for i, (k, d) in
                                         enumerate(records)])
    assert report.stored == len(records), report
    return records[0][1]["ns"], records[0][1]["ew"], set(truth)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url):
    """(status, body) of a GET, 4xx included."""
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8")


class WebServer:
    """`python -m host_sync web LOCATION --port P` running until the `with` ends."""

    def __init__(self, location, *options):
        self.port = free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "host_sync", "web", str(location), "--port", str(self.port)]
            + list(options), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    def __enter__(self):
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError("web exited: %s" % self.proc.stdout.read().decode())
            try:
                if get(self.url + "/ru/")[0] == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        self.__exit__()
        raise AssertionError("web did not answer in 90 s")

    def __exit__(self, *exc):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()
