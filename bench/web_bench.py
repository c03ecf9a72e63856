"""The live page: time from a sync's commit (a table's round ingested, as a station stores a
terminal just plugged in) to the open page's stream announcing it and the page showing the new
board, against the peer the issue names: the 10 s reload of the common live pages (TabScore2,
ScoreBridge reload every 10-30 s).

Run: .venv/bin/python bench/web_bench.py (BENCH_REPEAT=N rounds of the evening, default 5).
A real `host-sync web` process on an SQLite event; the client reads /events as a browser's
EventSource does and then fetches the page, as base.html's script does.
"""

import os
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "device"))

from web_support import WebServer, evening, get, play  # noqa: E402

RELOAD_PEER_S = 10.0


def main():
    repeat = int(os.environ.get("BENCH_REPEAT", "5"))
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(repeat):
            location = Path(tmp) / ("event%d.db" % n)
            db, movement = evening(location)
            with WebServer(location) as web:
                stream = urllib.request.urlopen(web.url + "/events", timeout=30)
                stream.readline()  # "event: change" with the marker of now
                stream.readline()
                stream.readline()
                play(db, movement, 1, 1)
                play(db, movement, 2, 1)
                play(db, movement, 3, 1)
                start = time.monotonic()
                second = play(db, movement, 1, 2)[2]  # completes these boards
                while True:
                    line = stream.readline().decode()
                    if line.startswith("data:"):
                        body = get(web.url + "/ru/")[1]
                        if "/ru/board/%d" % min(second) in body:
                            break
                times.append(time.monotonic() - start)
                stream.close()
            db.close()
    median = statistics.median(times)
    print("| figure | value | peer | peer value | ratio |")
    print("|---|---|---|---|---|")
    print("| sync commit to result on the open live page (median of %d) | %.2f s | page "
          "reload every 10 s (mean wait) | %.1f s | %.2f |" % (
              repeat, median, RELOAD_PEER_S / 2, median / (RELOAD_PEER_S / 2)))


if __name__ == "__main__":
    main()
