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
