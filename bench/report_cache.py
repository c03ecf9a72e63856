"""`host-sync report` of an event database, the first run against the second (issue 15): the
first solves every deal with endplay's DDS and keeps the analysis in the database's
`double_dummy` table (migration 007), the second reads it back and loads no solver. Its peer
in the same run: the same evening with no hand records (no analysis at all), what a report
cost before double-dummy tables were added.

    PATH=.venv/bin:$PATH .venv/bin/python bench/report_cache.py

Each run is a fresh `python -m host_sync report DB -o DIR` process (what the scorer types:
start-up and imports included), on a fresh copy of the evening for each first run;
BENCH_REPEAT runs of each (default 3), medians. The evening: a Mitchell of TABLES tables,
ROUNDS rounds of PER_ROUND boards (20 boards, each played 5 times), random deals, results
journaled and ingested as a sync does (tests/sync_script.py).
"""

import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "device")]

from sync_script import event_movement, table_round  # noqa: E402
from terminal_support import random_deal  # noqa: E402

from host_sync.event import setup  # noqa: E402
from host_sync.event.db import open_db  # noqa: E402
from host_sync.station.ingest import ingest  # noqa: E402

TABLES, PER_ROUND, ROUNDS = 5, 4, 5
REPEAT = int(os.environ.get("BENCH_REPEAT", "3"))


def evening(path, dealt):
    db = open_db(path, create=True)
    movement = event_movement(TABLES, PER_ROUND, ROUNDS)
    rng = random.Random(15)
    deals = {b: random_deal(rng) for b in range(1, TABLES * PER_ROUND + 1)} if dealt else None
    setup.add_session(db, setup.create_event(db, "Bench"), 1, movement, deals=deals)
    for table in range(1, TABLES + 1):
        terminal = "T%d" % table
        setup.register_terminal(db, terminal, 0)
        for rnd in range(1, ROUNDS + 1):
            records, _ = table_round(table * 10 + rnd, movement, table, rnd)
            last = db.value("SELECT last_seq FROM terminals WHERE id = ?", (terminal,))
            ingest(db, terminal, last, [(last + 1 + i, k, d) for i, (k, d) in
                                        enumerate(records)])
    solvable = db.value("SELECT COUNT(*) FROM boards WHERE deal IS NOT NULL")
    db.close()
    return solvable


def report(path, out):
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "host_sync", "report", str(path), "-o", str(out)],
                   cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - t


def main():
    work = Path(tempfile.mkdtemp(prefix="report-cache-"))
    try:
        bare, dealt = work / "bare.db", work / "dealt.db"
        evening(bare, False)
        boards = evening(dealt, True)
        none, first, second = [], [], []
        for i in range(REPEAT):
            none.append(report(bare, work / "out"))
            copy = work / ("run%d.db" % i)
            shutil.copy(dealt, copy)
            first.append(report(copy, work / "out"))
            second.append(report(copy, work / "out"))
        with open_db(work / "run0.db") as db:
            kept = db.value("SELECT COUNT(*) FROM double_dummy")
    finally:
        shutil.rmtree(work)
    first, second, none = (statistics.median(x) for x in (first, second, none))
    print("%d boards, %d kept solved after the first run; medians of %d runs" % (
        boards, kept, REPEAT))
    print()
    print("| measure | value | peer | peer value | ratio |")
    print("|---|---|---|---|---|")
    print("| report, second run: read from double_dummy, no solver loaded (s) | %.2f | first "
          "run: every deal solved (endplay) and kept | %.2f | %.3f |" % (second, first,
                                                                         second / first))
    print("| report, second run (s) | %.2f | the same evening without hand records (no "
          "analysis) | %.2f | %.2f |" % (second, none, second / none))


if __name__ == "__main__":
    main()
