"""The Laws core under CPython and MicroPython, and contract scoring against endplay.

Every figure is the median of several runs in this same process tree, so the ratios compare
like with like on a noisy machine. Paste the printed table into BENCHMARKS.md.
"""

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from bridge import boards  # noqa: E402
from bridge.seats import parse_seat  # noqa: E402
from conftest import CORPUS, compile_device, run_device  # noqa: E402

from host_sync.interchange.pbn.check import check_game, replay_auction  # noqa: E402
from host_sync.interchange.pbn.read import iter_pbn_files, read_file  # noqa: E402

REPEAT = int(os.environ.get("BENCH_REPEAT", "5"))
HEAP = "32k"


def corpus_auctions(path):
    """Write every legal corpus auction as `dealer code code ...`; return the count."""
    count = 0
    with open(path, "w") as out:
        for pbn in iter_pbn_files([CORPUS]):
            for game in read_file(pbn):
                line = check_game(pbn, game)
                if line.get("auction") != "legal":
                    continue
                dealer = parse_seat(game.tags["Dealer"]) if game.tags.get("Dealer") \
                    else boards.dealer(line["board"])
                auction, _, _ = replay_auction(game, dealer)
                if auction.calls and (auction.calls[0] >> 6) == dealer:
                    out.write(" ".join([str(dealer)] + [str(p & 63) for p in auction.calls]) + "\n")
                    count += 1
    return count


def device_json(args, interpreter, heapsize=None, path=None):
    proc = run_device(args, interpreter=interpreter, heapsize=heapsize, timeout=1200, path=path)
    if proc.returncode != 0:  # MicroPython prints its traceback on stdout
        raise SystemExit("%s failed: %s%s" % (interpreter, proc.stdout.decode()[-2000:],
                                               proc.stderr.decode()[-2000:]))
    return json.loads(proc.stdout)


def smallest_heap_kb(args, path=None, low=2, high=256):
    """The smallest -X heapsize (KB) under which `args` still runs to the end, by bisection."""
    while low < high:
        mid = (low + high) // 2
        if run_device(args, heapsize="%dk" % mid, timeout=1200, path=path).returncode == 0:
            high = mid
        else:
            low = mid + 1
    return low


def bench_auctions(path):
    """MicroPython runs the .mpy files mpy-cross makes, as the board loads them."""
    rows = {}
    args = ["bench/auction_replay.py", path, str(REPEAT)]
    rows["cpython"] = device_json(args, "cpython")
    with tempfile.TemporaryDirectory() as firmware:
        compile_device(firmware)
        rows["micropython"] = device_json(args, "micropython", HEAP, firmware)
        once = ["bench/auction_replay.py", path, "1"]
        rows["micropython"]["heap_kb_mpy"] = smallest_heap_kb(once, firmware)
    rows["micropython"]["heap_kb"] = smallest_heap_kb(once)
    return rows


def bench_scores():
    """Our Law 77 score against endplay's Contract.score on all 2,940 cases, CPython."""
    from bridge.score import score
    from endplay.types import Contract, Denom, Penalty, Player, Vul

    denoms = (Denom.clubs, Denom.diamonds, Denom.hearts, Denom.spades, Denom.nt)
    penalties = (Penalty.passed, Penalty.doubled, Penalty.redoubled)
    cases = [(lv, s, r, v, t) for lv in range(1, 8) for s in range(5) for r in range(3)
             for v in (False, True) for t in range(14)]
    contracts = [(Contract(level=lv, denom=denoms[s], declarer=Player.north,
                           penalty=penalties[r], result=t - lv - 6), Vul.both if v else Vul.none)
                 for lv, s, r, v, t in cases]

    def ours():
        for case in cases:
            score(*case)

    def theirs():
        for c, v in contracts:
            c.score(v)

    timings = {"ours": [], "endplay": []}
    for _ in range(REPEAT):
        for name, fn in (("ours", ours), ("endplay", theirs)):
            start = time.perf_counter()
            fn()
            timings[name].append((time.perf_counter() - start) * 1e6 / len(cases))
    mp = device_json(["bench/score_loop.py", str(REPEAT)], "micropython", HEAP)
    return {name: statistics.median(v) for name, v in timings.items()} | {
        "micropython": mp["us_per_score"]}


def bench_replay_tool():
    """Scenarios per second of `-m bridge.replay` on the law scenarios, both interpreters.

    The process start (an empty input) is timed too and taken off, so the figure is the
    tool's own rate.
    """
    lines = (ROOT / "tests" / "scenarios" / "laws.jsonl").read_bytes().splitlines()
    lines = [x for x in lines if x.strip()] * 40
    stdin = b"\n".join(lines) + b"\n"
    rates = {}
    with tempfile.TemporaryDirectory() as firmware:
        compile_device(firmware)
        for interpreter, path in (("cpython", None), ("micropython", firmware)):
            runs, empty = [], []
            for _ in range(REPEAT):
                for data, into in ((stdin, runs), (b"", empty)):
                    start = time.perf_counter()
                    proc = run_device(["-m", "bridge.replay"], interpreter=interpreter,
                                      stdin=data, path=path)
                    into.append(time.perf_counter() - start)
                    if proc.returncode != 0 or (data and len(proc.stdout.splitlines())
                                                != len(lines)):
                        raise SystemExit("bridge.replay failed on %s" % interpreter)
            rates[interpreter] = len(lines) / (statistics.median(runs) - statistics.median(empty))
    return len(lines), rates


def main():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "auctions.txt")
        n = corpus_auctions(path)
        auctions = bench_auctions(path)
    scores = bench_scores()
    cp, mp = auctions["cpython"], auctions["micropython"]
    print("## Auction checking: %d corpus auctions, %d calls, median of %d runs" % (
        n, cp["calls"], REPEAT))
    print()
    print("| interpreter | µs per call | calls per second | smallest heap: .py sources / .mpy |")
    print("|---|---|---|---|")
    print("| CPython %s | %.2f | %.0f | - |" % (sys.version.split()[0], cp["us_per_call"],
                                               1e6 / cp["us_per_call"]))
    print("| MicroPython unix (.mpy), -X heapsize=%s | %.2f | %.0f | %s |" % (
        HEAP, mp["us_per_call"], 1e6 / mp["us_per_call"],
        "%d KB / %d KB" % (mp["heap_kb"], mp["heap_kb_mpy"])))
    print("| ratio MicroPython / CPython | %.2f | | |" % (mp["us_per_call"] / cp["us_per_call"]))
    print()
    print("## Contract scoring (Law 77), all 2,940 cases, median of %d runs" % REPEAT)
    print()
    print("| implementation | µs per score | ratio to endplay |")
    print("|---|---|---|")
    print("| bridge.score (CPython) | %.3f | %.2f |" % (scores["ours"],
                                                      scores["ours"] / scores["endplay"]))
    print("| endplay Contract.score (CPython) | %.3f | 1.00 |" % scores["endplay"])
    print("| bridge.score (MicroPython) | %.3f | %.2f |" % (
        scores["micropython"], scores["micropython"] / scores["endplay"]))
    count, rates = bench_replay_tool()
    print()
    print("## The replay tool: %d law scenarios through `-m bridge.replay`, median of %d runs"
          % (count, REPEAT))
    print()
    print("| interpreter | scenarios per second | ratio to CPython |")
    print("|---|---|---|")
    for name in ("cpython", "micropython"):
        print("| %s | %.0f | %.2f |" % (name, rates[name], rates[name] / rates["cpython"]))


if __name__ == "__main__":
    main()
