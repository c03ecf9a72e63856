"""The live page: time from a sync's commit (a table's round ingested, as a station stores a
terminal just plugged in) to the open page's stream announcing it and the page showing the new
board, on an SQLite event and on a PostgreSQL one side by side, against the peer the issue
names: the 10 s reload of the common live pages (TabScore2, ScoreBridge reload every 10-30 s).

Run: .venv/bin/python bench/web_bench.py (BENCH_REPEAT=N evenings on each backend, default 5,
taken in turn so that both see the same load). A real `host-sync web` process; the client
reads /events as a browser's EventSource does and then fetches the page, as base.html's script
does. The PostgreSQL server is a real one started here (tests/pg_server.py) with its durable
defaults (fsync on), as SQLite runs with synchronous = FULL: the commit costs what it costs a
station. On SQLite the page's watcher finds the change at its next look at the change marker
(every 0.5 s); on PostgreSQL the commit's NOTIFY wakes it.
"""

import os
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "device"))

from pg_server import Server  # noqa: E402
from web_support import WebServer, evening, get, play  # noqa: E402

from host_sync.web.app import POLL_S  # noqa: E402
from host_sync.web.live import change_marker  # noqa: E402

RELOAD_PEER_S = 10.0


def seen(stream, marker=None):
    """Read the page's stream to its next change (to the change `marker`, if given)."""
    while True:
        line = stream.readline().decode()
        if line.startswith("data:") and (marker is None or int(line[5:]) == marker):
            return


def plug_to_page(location, phase):
    """(seconds from the start of the ingest to the page showing its boards, seconds from the
    ingest's commit to that) for a new evening at `location`, the round synced at a moment
    `phase` (a random.Random) picks after the page has taken the last change."""
    db, movement = evening(location)
    try:
        with WebServer(location) as web:
            stream = urllib.request.urlopen(web.url + "/events", timeout=30)
            seen(stream)  # the marker of now
            play(db, movement, 1, 1)
            play(db, movement, 2, 1)
            play(db, movement, 3, 1)
            seen(stream, change_marker(db))
            time.sleep(phase.uniform(0, POLL_S))  # a terminal comes at any moment of a poll
            start = time.monotonic()
            second = play(db, movement, 1, 2)[2]  # completes these boards
            committed = time.monotonic()
            seen(stream)  # the page fetches itself at a change, as base.html's script does
            while "/ru/board/%d" % min(second) not in get(web.url + "/ru/")[1]:
                seen(stream)
            shown = time.monotonic()
            stream.close()
    finally:
        db.close()
    return shown - start, shown - committed


def main():
    repeat = int(os.environ.get("BENCH_REPEAT", "5"))
    runs = {"SQLite": [], "PostgreSQL": []}
    phase = random.Random(17)
    server = Server(durable=True)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for n in range(repeat):
                runs["SQLite"].append(plug_to_page(Path(tmp) / ("event%d.db" % n), phase))
                runs["PostgreSQL"].append(plug_to_page(server.fresh_url(), phase))
    finally:
        server.stop()
    med = {name: (statistics.median(r[0] for r in got), statistics.median(r[1] for r in got))
           for name, got in runs.items()}
    print("| measure | value | peer | peer value | ratio |")
    print("|---|---|---|---|---|")
    for name, (whole, _) in med.items():
        print("| sync to result on the open live page, %s (s, from the ingest's start) | "
              "%.2f s | page reload every 10 s (mean wait) | %.1f s | %.2f |" % (
                  name, whole, RELOAD_PEER_S / 2, whole / (RELOAD_PEER_S / 2)))
    lite, pg = med["SQLite"][1], med["PostgreSQL"][1]
    print("| commit to result on the open live page, PostgreSQL (s, woken by NOTIFY) | %.2f s "
          "| the same on SQLite (0.5 s poll) | %.2f s | %.2f |" % (pg, lite, pg / lite))
    print("\nmedians of %d evenings on each backend, taken in turn" % repeat)

if __name__ == "__main__":
    main()
