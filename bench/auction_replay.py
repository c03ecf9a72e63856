"""Device-side benchmark: replay auctions through the Laws core, one line at a time.

Input lines: `dealer call call ...` as small ints (see bench/run.py). Streams the file so the
whole corpus replays inside a 32 KB MicroPython heap. Prints one JSON object.
"""

import gc
import json
import sys

from bridge.auction import Auction
from clock import ticks_diff, ticks_us


def replay(path):
    """Replay every auction of the file; return (auctions, calls, microseconds)."""
    auctions = calls = elapsed = 0
    with open(path) as f:
        for line in f:
            codes = [int(x) for x in line.split()]
            start = ticks_us()
            a = Auction(codes[0])
            seat = codes[0]
            for c in codes[1:]:
                if a.call(seat, c) is not None:
                    raise ValueError("corpus auction refused: " + line)
                seat = (seat + 1) & 3
            elapsed += ticks_diff(ticks_us(), start)
            auctions += 1
            calls += len(codes) - 1
    return auctions, calls, elapsed


def main():
    path, repeat = sys.argv[1], int(sys.argv[2])
    gc.collect()
    runs = [replay(path) for _ in range(repeat)]
    auctions, calls = runs[0][0], runs[0][1]
    times = sorted(r[2] for r in runs)
    print(json.dumps({"auctions": auctions, "calls": calls,
                      "us_per_call": times[len(times) // 2] / calls}))


main()
