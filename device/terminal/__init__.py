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
    # pieces. 2 KB (the 64 KiB guard's) ran ~6 collections a key (a key allocates ~12 KB);
    # 12 KB runs about one, and the sessions still need only 68 KiB (ROMFS; 62 at 2 KB) and
    # 92 with every card, in the 80 and 108 the heap test gives (BENCHMARKS.md).
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
