"""Millisecond ticks: MicroPython's wrapping time.ticks_* and a CPython stand-in.

Drivers take `now` as an argument (so tests feed a virtual clock) and compare times only with
ticks_diff, which is right across MicroPython's tick wrap-around.
"""

try:
    from time import ticks_add, ticks_diff, ticks_ms
except ImportError:  # CPython
    import time

    def ticks_ms():
        return int(time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, b):
        return a + b
