"""Run under MicroPython with a small heap: play a journal of events (small ints, as the
terminal stores them), then rebuild the auction from that journal as after a power loss.
Prints whether both states agree and the number of standing calls.

    micropython -X heapsize=N tools/romrun.py IMAGE heap_probe < EVENTS   (dealer, then the
    events; the image holds bridge/ and this module, tests/test_replay.py builds it)
"""

import gc
import sys

from bridge.auction import Auction


def main(argv=()):
    numbers = [int(x) for x in sys.stdin.read().split()]
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
    return 0
