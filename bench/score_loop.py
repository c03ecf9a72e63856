"""Device-side benchmark: Law 77 scores of every contract, vulnerability and trick count."""

import json
import sys

from bridge.score import score
from clock import ticks_diff, ticks_us


def one_pass():
    for level in range(1, 8):
        for strain in range(5):
            for risk in range(3):
                for vul in (False, True):
                    for tricks in range(14):
                        score(level, strain, risk, vul, tricks)


def main():
    repeat = int(sys.argv[1])
    times = []
    for _ in range(repeat):
        start = ticks_us()
        one_pass()
        times.append(ticks_diff(ticks_us(), start))
    times.sort()
    print(json.dumps({"scores": 2940, "us_per_score": times[len(times) // 2] / 2940}))


main()
