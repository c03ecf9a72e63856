"""The terminal's display panel: 128x64 pixels, one bit each, drawn through `framebuf`.

Screens draw on a framebuf.FrameBuffer (MONO_VLSB, the SSD1306 controller's own page layout:
byte i of page p holds column i, rows 8p..8p+7, LSB on top) with framebuf's methods and
hw.text. The controller's driver is hw.ssd1306; the simulator (hw.backends.sim) draws on the
same kind of buffer, so it loads only this module.
"""

try:
    import framebuf  # noqa: F401 (the drawing module of hw.text, hw.ssd1306 and the sim)
except ImportError:  # CPython: the pure-Python subset, byte-identical for what we use
    from hw.backends import pyframebuf as framebuf  # noqa: F401
try:
    from micropython import const
except ImportError:  # CPython
    def const(value):
        return value

WIDTH = const(128)
HEIGHT = const(64)
# What a show() sends is a list of address windows of the controller's RAM (`windows`), each
# (first page, last page, first pixel column, last column + 1); None: all of it.
_WINDOW_COST = const(20)  # the I2C bytes of a window beyond its data: 6 command writes of 3
# bytes (hw.ssd1306.write_cmd) and the data write's address and control byte


def add_window(windows, first, last, start, end):
    """Add the window (first page, last page, first column, last column + 1) to the list
    `windows`, joined with the last one when they share a page and one window costs no more
    bytes than two (two text lines of 9 pixels share a page). Called for each line drawn:
    its frame stays on the C stack, the joining's (heap-sized) is `_join`'s."""
    if windows and windows[-1][1] >= first:
        _join(windows, first, last, start, end)
    else:
        windows.append((first, last, start, end))


def _join(windows, first, last, start, end):
    """add_window after a window sharing a page with this one."""
    top, bottom, left, right = windows[-1]
    joined = (bottom - top + 1 if bottom > last else last - top + 1,
              min(left, start), max(right, end))
    if joined[0] * (joined[2] - joined[1]) <= ((bottom - top + 1) * (right - left) +
                                               (last - first + 1) * (end - start) +
                                               _WINDOW_COST):
        windows[-1] = (top, max(bottom, last), joined[1], joined[2])
    else:
        windows.append((first, last, start, end))
