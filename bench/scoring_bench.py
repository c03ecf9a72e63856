"""Scoring speed and agreement against the npm package `bridge-scorer` (run with node).

Three jobs on one board of 10,000 results (matchpoints, cross-IMPs, Butler with the
package's trimming rule) and a 1,000-pair, 26-board session end to end (scoring every
contract, matchpointing every board, totalling and ranking each direction), the session
also as the first call of a fresh process, loading the code counted (host_sync's scoring
modules; node's `require` of the package), as a one-off `host-sync results` meets it.
Both sides get the same results; every value is checked equal before a time is printed.
The peer gets each session result pre-digested (level, strain, risk, vulnerability, boards
already apart): host_sync's side parses the contract texts, derives each board's
vulnerability and groups the results inside the timed call. Prints a markdown table of
medians and ratios. `node_modules` is installed under bench/ on first use.
"""

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bridge import boards as board_rules
from bridge.score import score as contract_score

from host_sync.scoring import imps, matchpoints
from host_sync.scoring.session import Result, Session, score_session

BENCH = Path(__file__).resolve().parent
REPEAT = int(os.environ.get("BENCH_REPEAT", "5"))
STRAINS = ("C", "D", "H", "S", "NT")


def random_result(rng, board):
    """A plausible table result: contract, declarer, tricks; 1 in 30 passed out."""
    if rng.random() < 1 / 30:
        return None
    level, strain = rng.randint(1, 7), rng.randrange(5)
    risk = rng.choice((0, 0, 0, 0, 1, 2))
    declarer = rng.randrange(4)
    tricks = max(0, min(13, 6 + level + rng.choice((-3, -2, -1, -1, 0, 0, 0, 1, 1, 2))))
    return level, strain, risk, declarer, tricks


def encode(result, board):
    """One result for both sides: NS score for Python, the declarer's view for node."""
    if result is None:
        return {"declarer": "", "ns_score": 0}
    level, strain, risk, declarer, tricks = result
    vul = board_rules.is_vulnerable(board_rules.vulnerability(board), declarer)
    points = contract_score(level, strain, risk, vul, tricks)
    return {"declarer": "NESW"[declarer], "declarer_score": points,
            "ns_score": points if declarer in (0, 2) else -points,
            "level": level, "strain": STRAINS[strain], "risk": ("", "X", "XX")[risk],
            "vul": vul, "tricks": tricks}


def make_data(seed=2026):
    rng = random.Random(seed)
    board = [encode(random_result(rng, 1), 1) for _ in range(10_000)]
    session = []
    for number in range(1, 27):
        lines = []
        for table in range(1, 501):
            line = encode(random_result(rng, number), number)
            line.update(ns="N%d" % table, ew="E%d" % ((table + number) % 500 + 1))
            lines.append(line)
        session.append(lines)
    return {"board": board, "session": session}


def to_session(data):
    s = Session(method="mp")
    for number, lines in enumerate(data["session"], start=1):
        for r in lines:
            contract = "Pass" if not r["declarer"] else "%d%s%s" % (r["level"], r["strain"],
                                                                   r["risk"])
            s.results.append(Result(number, r["ns"], r["ew"], contract, r["declarer"],
                                    r.get("tricks")))
    return s


def timed(job):
    times, result = [], None
    for _ in range(REPEAT):
        start = time.perf_counter()
        result = job()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), result


def python_side(data):
    scores = [r["ns_score"] for r in data["board"]]
    out = {"matchpoints": timed(lambda: matchpoints.matchpoints(scores)),
           "cross_imps": timed(lambda: imps.cross_imps(scores)),
           "butler": timed(lambda: imps.butler(scores, imps.scaled_trim(len(scores))))}
    session = to_session(data)
    out["session"] = timed(lambda: whole(session))
    return out


def whole(session):
    """The call a results report makes, end to end: score the session (`score_session`:
    every contract, every board, 12C2(c), totals, ranks) and read every pair's standing."""
    scored = score_session(session)
    return {s.pair: [s.total, s.label] for s in scored.standings}


# The session job once in a fresh interpreter, as `host-sync results` scores: loading the
# scoring modules is counted, building the session from the data is not (nor is it in node).
FIRST_CALL = """
import json, sys, time
start = time.perf_counter()
import host_sync.scoring.session
loading = time.perf_counter() - start
sys.path.insert(0, sys.argv[2])
import scoring_bench
with open(sys.argv[1]) as f:
    session = scoring_bench.to_session(json.load(f))
start = time.perf_counter()
result = scoring_bench.whole(session)
ms = (loading + time.perf_counter() - start) * 1000
print(json.dumps({"ms": ms, "result": {p: [str(t), label] for p, (t, label) in result.items()}}))
"""


def first_calls(data):
    """(ms, standings) of the session job's first call in a fresh process, (ours, node's),
    each the median of REPEAT processes."""
    install_peer()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(data, f)
    try:
        ours = [json.loads(subprocess.run(
            [sys.executable, "-c", FIRST_CALL, f.name, str(BENCH)], check=True,
            capture_output=True, text=True).stdout) for _ in range(REPEAT)]
        theirs = [json.loads(subprocess.run(
            ["node", str(BENCH / "bridge_scorer.js"), f.name, "first"], check=True,
            capture_output=True, text=True).stdout)["first"] for _ in range(REPEAT)]
    finally:
        os.unlink(f.name)
    return [(statistics.median(run["ms"] for run in runs), runs[-1]["result"])
            for runs in (ours, theirs)]


def install_peer():
    if not shutil.which("node"):
        raise SystemExit("node is not installed: the peer cannot run")
    if not (BENCH / "node_modules" / "bridge-scorer").exists():
        subprocess.run(["npm", "install", "--prefix", str(BENCH), "--no-save", "bridge-scorer"],
                       check=True, capture_output=True)


def node_side(data):
    install_peer()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(data, f)
    try:
        done = subprocess.run(["node", str(BENCH / "bridge_scorer.js"), f.name, str(REPEAT)],
                              check=True, capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    return {k: (v["ms"], v["result"]) for k, v in json.loads(done.stdout).items()}


def check_equal(ours, theirs):
    """Raise if any value differs; returns the number of values compared per job."""
    counts = {}
    mp = ours["matchpoints"][1]
    assert mp == theirs["matchpoints"][1], "matchpoints differ"
    counts["matchpoints"] = len(mp)
    cross = ours["cross_imps"][1]
    assert all(abs(float(a) - b) < 1e-9 for a, b in zip(cross, theirs["cross_imps"][1]))
    counts["cross_imps"] = len(cross)
    datum, values = ours["butler"][1]
    assert [datum, values] == theirs["butler"][1], "Butler differs"
    counts["butler"] = len(values)
    for job in ("session", "first"):
        mine, peer = ours[job][1], theirs[job][1]
        assert set(mine) == set(peer)
        for pair, (total, label) in mine.items():
            assert [int(total), label] == peer[pair], (pair, total, label, peer[pair])
        counts[job] = len(mine)
    return counts


def main():
    data = make_data()
    ours, theirs = python_side(data), node_side(data)
    ours["first"], theirs["first"] = first_calls(data)
    counts = check_equal(ours, theirs)
    rows = [("matchpoints", "one board, 10,000 results: matchpoints"),
            ("cross_imps", "one board, 10,000 results: cross-IMPs"),
            ("butler", "one board, 10,000 results: Butler (datum trimmed)"),
            ("session", "1,000 pairs x 26 boards end to end (13,000 results)"),
            ("first", "the same, first call in a fresh process (loading the code counted)")]
    print("| job | host_sync (CPython) ms | bridge-scorer 2.4.0 (node %s) ms | "
          "bridge-scorer / host_sync | values checked equal |" % subprocess.run(
              ["node", "--version"], capture_output=True, text=True, check=True).stdout.strip())
    print("|---|---:|---:|---:|---:|")
    for key, label in rows:
        print("| %s | %.1f | %.1f | %.2f | %d |" % (label, ours[key][0], theirs[key][0],
                                                   theirs[key][0] / ours[key][0], counts[key]))
    print("\nmedian of %d runs each (first call: of %d processes); python %s" % (
        REPEAT, REPEAT, sys.version.split()[0]))


if __name__ == "__main__":
    main()
