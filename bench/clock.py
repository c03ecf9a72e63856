"""Microsecond ticks for the device-side bench scripts: MicroPython's, or a CPython stand-in."""

try:
    from time import ticks_diff, ticks_us
except ImportError:  # CPython
    import time

    def ticks_us():
        return int(time.perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b
