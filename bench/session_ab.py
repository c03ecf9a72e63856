"""CPU time of the bench's 1,000-pair session in two source trees, taken in turns.

    python bench/session_ab.py BEFORE_TREE [AFTER_TREE] [ROUNDS]

Each tree (a checkout or a `git archive` export; AFTER_TREE defaults to this one) runs in
a process of its own, with its own host_sync and bridge but this tree's bench: it builds
the bench's session once, then scores it end to end (`scoring_bench.whole`) when told to.
The parent asks each in turn for 11 calls, ROUNDS times, so both see the same load. Prints,
per tree, the min and median `time.process_time` of its calls and its first call (made
before any round: the caches cold, the imports done), and the ratios. On a shared machine
the wall clock moves with the other jobs; CPU time moves less.
"""

import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CALLS = 11

CHILD = """
import sys, time
sys.path.insert(0, sys.argv[1])
import scoring_bench as bench
import host_sync
print(host_sync.__file__, flush=True)
session = bench.to_session(bench.make_data())
start = time.process_time()
bench.whole(session)
print(time.process_time() - start, flush=True)
for line in sys.stdin:
    times = []
    for _ in range(int(line)):
        start = time.process_time()
        bench.whole(session)
        times.append(time.process_time() - start)
    print(" ".join(map(repr, times)), flush=True)
"""


def child(tree):
    """A process scoring with `tree`'s host_sync and bridge, and this tree's bench."""
    tree = Path(tree).resolve()
    env = dict(os.environ, PYTHONPATH="%s:%s" % (tree, tree / "device"))
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(HERE)], env=env, cwd=tree,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    loaded = proc.stdout.readline().strip()
    if not loaded.startswith(str(tree)):
        raise SystemExit("%s: host_sync came from %s" % (tree, loaded))
    return proc


def main():
    before = sys.argv[1]
    after = sys.argv[2] if len(sys.argv) > 2 else str(HERE.parent)
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    procs = {"before": child(before), "after": child(after)}
    first = {name: float(p.stdout.readline()) * 1000 for name, p in procs.items()}
    times = {name: [] for name in procs}
    for _ in range(rounds):
        for name, p in procs.items():
            p.stdin.write("%d\n" % CALLS)
            p.stdin.flush()
            times[name] += [float(t) * 1000 for t in p.stdout.readline().split()]
    for p in procs.values():
        p.stdin.close()
        p.wait()
    for name in procs:
        print("%-6s min %.2f ms, median %.2f ms, first call %.2f ms (%d calls)" % (
            name, min(times[name]), statistics.median(times[name]), first[name],
            len(times[name])))
    print("after / before: min %.2f, median %.2f, first call %.2f" % (
        min(times["after"]) / min(times["before"]),
        statistics.median(times["after"]) / statistics.median(times["before"]),
        first["after"] / first["before"]))


if __name__ == "__main__":
    main()
