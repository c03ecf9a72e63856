"""The terminal application: link (COBS frames of CBOR), power-safe journal, screens, config.

Everything here runs on the board (MicroPython) and under CPython in tests.
"""

import gc
import sys

try:
    from micropython import const  # noqa: F401 (the terminal's modules import it from here)
except ImportError:  # CPython: the value itself (mpy-cross folds `_X = const(...)` by name)
    def const(x):
        return x

# Only MicroPython's small heap is worth re-importing screens for; CPython (tests, simulator
# on a desktop) keeps them loaded and so runs the same code without the import cost.
SCARCE_HEAP = sys.implementation.name == "micropython"

if SCARCE_HEAP and hasattr(gc, "threshold"):
    # Collect after every 12 KB allocated rather than when the heap is full: a key's garbage
    # is freed before longer-lived objects are placed between it, and the heap stays in fewer
    # pieces. 2 KB (the 64 KiB guard's) ran ~6 collections a key. A collection costs about half
    # a median key (~480,000 instructions on the unix port over the Pico's number of blocks),
    # yet a larger threshold costs more: from 40 KB on this port (20 KB on the board's half-size
    # objects) the heap's pieces make every key's allocations dearer, the median key +20%
    # (BENCHMARKS.md, session 8); 12 KB is ~0.5 collections a key on the board.
    gc.threshold(12288)


def forget(names):
    """Drop modules from sys.modules and from their package, so that their functions and
    classes are freed once nothing refers to them (even run from flash, each costs heap).
    Their names stay interned; importing one again loads it afresh."""
    if not SCARCE_HEAP:
        return
    for name in names:
        if sys.modules.pop(name, None) is not None:
            at = name.rfind(".")
            package = sys.modules.get(name[:at])
            if package is not None and hasattr(package, name[at + 1:]):
                delattr(package, name[at + 1:])
