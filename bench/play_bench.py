"""Benchmark: checking one card of the play (bridge.play), CPython against MicroPython.

Run from the project: `python bench/play_bench.py` (host: runs both interpreters and prints
a markdown table). The same file is the device-side script (`micropython bench/play_bench.py
--device N REPEAT`): it deals N boards with its own small generator (same deals on both
interpreters), plays each with random legal cards, then times replaying every card through
`Play.card` (the check the terminal makes), and measures the heap one board's play state
holds on MicroPython. The peer is CPython on the same machine, in the same run.
"""

import gc
import json
import sys

from clock import ticks_diff, ticks_us


class Lcg:
    """A tiny deterministic generator: identical sequences on both interpreters."""

    def __init__(self, seed):
        self.state = seed

    def below(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


def deal(rng):
    pack = list(range(52))
    for i in range(51, 0, -1):
        j = rng.below(i + 1)
        pack[i], pack[j] = pack[j], pack[i]
    masks = [0] * 16
    for i in range(52):
        c = pack[i]
        masks[(i // 13) * 4 + c // 13] |= 1 << (c % 13)
    return masks


def random_play(Play, masks, declarer, trump, rng):
    """A legal play of the whole board: [(seat, card)] in the order played."""
    p = Play(declarer, trump, masks)
    out = []
    while p.status == "play":
        seat = p.turn
        lead = p.cards[p.trick * 4 + p.leaders[p.trick]] - 1
        suits = [lead // 13] if lead >= 0 and p.hands[seat * 4 + lead // 13] else range(4)
        pool = []
        for s in suits:
            m = p.hands[seat * 4 + s]
            for r in range(13):
                if m >> r & 1:
                    pool.append(s * 13 + r)
        c = pool[rng.below(len(pool))]
        p.card(seat, c)
        out.append((seat, c))
    return out


def device(boards, repeat):
    from bridge.play import Play
    rng = Lcg(2026)
    games = []
    for b in range(boards):
        masks = deal(rng)
        declarer, trump = b & 3, b % 5
        games.append((masks, declarer, trump, random_play(Play, masks, declarer, trump, rng)))
    runs = []
    for _ in range(repeat):
        elapsed = 0
        for masks, declarer, trump, plays in games:
            start = ticks_us()
            p = Play(declarer, trump, masks)
            for seat, c in plays:
                p.card(seat, c)
            elapsed += ticks_diff(ticks_us(), start)
        runs.append(elapsed)
    runs.sort()
    result = {"boards": boards, "cards": boards * 52,
              "us_per_card": runs[len(runs) // 2] / (boards * 52)}
    if hasattr(gc, "mem_alloc"):  # MicroPython: the heap one board's play state holds
        masks, declarer, trump, plays = games[0]
        gc.collect()
        before = gc.mem_alloc()
        p = Play(declarer, trump, masks)
        for seat, c in plays:
            p.card(seat, c)
        gc.collect()
        result["state_bytes"] = gc.mem_alloc() - before
    print(json.dumps(result))


def session(boards):
    """A session as the terminal plays it: one board at a time, only the results kept."""
    from bridge.play import Play
    rng = Lcg(7)
    results = []
    for b in range(boards):
        masks = deal(rng)
        plays = random_play(Play, masks, b & 3, b % 5, rng)
        results.append(len(plays))
        gc.collect()
    print(json.dumps({"boards": boards, "cards": sum(results)}))


def smallest_heap_kb(script, compiled, boards, low=4, high=64):
    """The smallest -X heapsize (KB) in which a session of `boards` runs, by bisection."""
    import os
    import subprocess

    from conftest import micropython_path
    env = dict(os.environ, MICROPYPATH=str(compiled))
    ok = {}
    while low < high:
        mid = (low + high) // 2
        proc = subprocess.run([micropython_path(), "-X", "heapsize=%dk" % mid, script,
                               "--session", str(boards)], check=False, capture_output=True,
                              env=env,
                              timeout=600)
        ok[mid] = proc.returncode == 0
        if ok[mid]:
            high = mid
        else:
            low = mid + 1
    return low


def host():
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root / "tests"))
    from conftest import run_device
    args = [str(Path(__file__).resolve()), "--device", "200", "7"]
    rows = {}
    for interpreter in ("cpython", "micropython"):
        proc = run_device(args, interpreter=interpreter, timeout=1200)
        if proc.returncode != 0:
            raise SystemExit("%s failed: %s" % (interpreter, proc.stderr.decode()))
        rows[interpreter] = json.loads(proc.stdout)
    import tempfile

    from conftest import compile_device
    with tempfile.TemporaryDirectory() as tmp:
        compile_device(tmp)  # as on the board: .mpy files, no compiling on the heap
        heap = smallest_heap_kb(args[0], tmp, 32)
        base = smallest_heap_kb(args[0], tmp, 0)
    peer = rows["cpython"]["us_per_card"]
    print("| Interpreter | Boards | Cards | us per card checked (median of 7) | vs CPython |")
    print("|---|---|---|---|---|")
    for name in ("cpython", "micropython"):
        r = rows[name]
        print("| %s | %d | %d | %.2f | %.1fx |" % (name, r["boards"], r["cards"],
                                                    r["us_per_card"], r["us_per_card"] / peer))
    print()
    print("One board's play state after 52 cards (MicroPython heap): %d bytes" %
          rows["micropython"]["state_bytes"])
    print("Smallest MicroPython heap for a 32-board session of full play (.mpy): %d KB;"
          " the same script with 0 boards (interpreter, this script compiled from source,"
          " the modules loaded): %d KB" % (heap, base))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--device":
        device(int(sys.argv[2]), int(sys.argv[3]))
    elif len(sys.argv) > 1 and sys.argv[1] == "--session":
        session(int(sys.argv[2]))
    else:
        host()
