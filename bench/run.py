"""`make bench`: every benchmark of the project, each against its named peer in the same run.

Runs each bench script in turn (they print markdown tables of medians and ratios), prints
everything and keeps a copy in build/bench.md, from which BENCHMARKS.md is written.
"""

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = [
    ("Laws core: auction checking and contract scoring", "core_bench.py"),
    ("Play: checking cards", "play_bench.py"),
    ("Link: CBOR, frames, journal", "link_bench.py"),
    ("Hardware: display text and keypad scan", "hw_bench.py"),
    ("Terminal: firmware size, session heap, key handling", "terminal_bench.py"),
    ("Scoring: matchpoints and sessions against bridge-scorer", "scoring_bench.py"),
    ("Sync: protocol efficiency, sync time, ingest", "sync_bench.py"),
    ("Live page: a sync to the result on the open page", "web_bench.py"),
]


def main():
    out = ["# make bench, %s\n" % time.strftime("%Y-%m-%d %H:%M")]
    for title, script in SCRIPTS:
        path = ROOT / "bench" / script
        if not path.exists():
            continue
        start = time.monotonic()
        proc = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                              cwd=ROOT)
        section = ["## %s (`python bench/%s`, %.0f s)\n" % (title, script,
                                                           time.monotonic() - start)]
        section.append(proc.stdout if proc.returncode == 0 else
                       "FAILED (exit %d):\n```\n%s\n```\n" % (proc.returncode, proc.stderr[-2000:]))
        print("\n".join(section), flush=True)
        out.extend(section)
    (ROOT / "build").mkdir(exist_ok=True)
    (ROOT / "build" / "bench.md").write_text("\n".join(out))


if __name__ == "__main__":
    main()
