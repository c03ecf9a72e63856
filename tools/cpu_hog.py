"""Keep every core of the machine busy, to run the sync tests as on a loaded station
(`make test-busy`): one spinning process per core, until killed or for --seconds.

The station must keep its head when the terminals and itself are starved of CPU
(host_sync.station.sync.Session.request: bytes arriving mean alive, only silence counts).
"""

import argparse
import multiprocessing
import os
import signal
import time


def spin(until):
    n = 0
    while until is None or time.monotonic() < until:
        n = (n * 31 + 7) % 1000003


def stop(*_):
    raise KeyboardInterrupt


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=None, help="stop after this long")
    ap.add_argument("--procs", type=int, default=os.cpu_count() or 1,
                    help="spinning processes (default: one per core)")
    args = ap.parse_args()
    until = None if args.seconds is None else time.monotonic() + args.seconds
    procs = [multiprocessing.Process(target=spin, args=(until,), daemon=True)
             for _ in range(args.procs)]
    for p in procs:
        p.start()
    signal.signal(signal.SIGTERM, stop)  # `kill` stops the spinners too
    try:
        for p in procs:
            p.join()
    except KeyboardInterrupt:
        for p in procs:
            p.terminate()
            p.join()


if __name__ == "__main__":
    main()
