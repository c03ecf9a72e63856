"""Run under MicroPython with a small heap: play a journal of events (small ints, as the
terminal stores them), then rebuild the auction from that journal as after a power loss.
Prints whether both states agree and the number of standing calls.

    micropython -X heapsize=32k tests/heap_probe.py EVENTS_FILE   (dealer, then the events)
"""

import gc
import sys

from bridge.auction import Auction


def main(path):
    with open(path) as f:
        numbers = [int(x) for x in f.read().split()]
    dealer = numbers.pop(0)
    live = Auction(dealer)
    for ev in numbers:
        live.apply(ev)
    del numbers
    calls, state = len(live.calls), live.snapshot()
    events = live.events
    del live
    gc.collect()
    same = Auction.from_events(dealer, events).snapshot() == state
    print('{"same": ' + ("true" if same else "false") + ', "calls": ' + str(calls) + "}")


main(sys.argv[1])
