"""The simulator backend: the same Board with no hardware, for tests and the desktop.

- SimDisplay is a 128x64 MONO_VLSB FrameBuffer like the SSD1306 one; show() keeps a copy of
  what the panel would show, which renders as PNG (png()) or as text with half-block
  characters (blocks(): 128 columns x 32 lines, two pixel rows per character cell).
- ScriptKeypad plays a key script ("1 S PASS X OK") as PRESS and RELEASE events
  (hw.backends.keyboard has the interactive one).
- SimPwm and SimPin record what the buzzer and LEDs were told (SimPwm the last 8 tones: the
  longest pattern, hw.buzzer.DIRECTOR, and its silence; a session's beeps cost no more).
"""

from hw import keys
from hw.board import Board
from hw.buzzer import Buzzer
from hw.display import HEIGHT, WIDTH, const, framebuf
from hw.leds import Led
from hw.ticks import ticks_ms

_TONES = const(8)


def pixel_of(buf, x, y, width=WIDTH):
    """A pixel of a MONO_VLSB buffer."""
    return (buf[(y >> 3) * width + x] >> (y & 7)) & 1


class SimDisplay(framebuf.FrameBuffer):
    """`shown` is what the panel shows since the last show(): on the board the controller's
    own memory, here a copy made in place (a frame allocates nothing). With copy=False it is
    the buffer itself, for a caller that always shows what it has just drawn (the key-script
    runner): the same pixels without a second kilobyte of heap the board does not spend."""

    def __init__(self, width=WIDTH, height=HEIGHT, copy=True):
        self.buffer = bytearray(width * height // 8)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self.size = (width, height)
        self.shown = bytearray(len(self.buffer)) if copy else self.buffer
        self.frames = 0
        self.windows = None  # what the next show() sends (as hw.ssd1306's): all of it
        self.sent = 0  # the data bytes the panel's controller would have received

    def show(self):
        windows, self.windows = self.windows, None
        if self.shown is not self.buffer:
            self.shown[:] = self.buffer
        self.frames += 1
        for first, last, start, end in windows or ((0, 7, 0, self.size[0]),):
            self.sent += (last - first + 1) * (end - start)

    def png(self, scale=4):
        from hw.backends import png  # only screenshots need the encoder

        shown, width = self.shown, self.size[0]
        return png.encode(width, self.size[1], lambda x, y: pixel_of(shown, x, y, width), scale)

    def blocks(self):
        """The shown image as lines of ' ', '▀', '▄', '█' (top pixel, bottom pixel)."""
        chars = (" ", "\u2580", "\u2584", "\u2588")
        shown, (width, height) = self.shown, self.size
        lines = []
        for y in range(0, height, 2):
            lines.append("".join(chars[pixel_of(shown, x, y, width)
                                       | pixel_of(shown, x, y + 1, width) << 1]
                                 for x in range(width)))
        return lines


class ScriptKeypad:
    """Keys from a script of key names separated by spaces ("1 S PASS X OK"): each key is
    pressed on one poll and released on the next. The script is read a name at a time, so
    a whole session's keys cost no more memory than the text itself; a bad name raises
    ValueError naming it when it is reached. It is scanned as bytes: indexing a str on
    MicroPython interns each character it returns, for good."""

    def __init__(self, script=""):
        self._script = script.encode()
        self._at = 0
        self._release = None

    def feed(self, script):
        self._script = self._script[self._at:] + b" " + script.encode()
        self._at = 0

    def poll(self, now):
        if self._release is not None:
            key, self._release = self._release, None
            return key | keys.RELEASE
        script, at, end = self._script, self._at, len(self._script)
        while at < end and script[at] in b" \t\r\n":
            at += 1
        start = at
        while at < end and script[at] not in b" \t\r\n":
            at += 1
        self._at = at
        name = script[start:at].decode()
        if not name:
            return None
        self._release = keys.code(name)
        return self._release


class SimPwm:
    def __init__(self, clock):
        self._clock = clock
        self.tones = []  # (time, frequency or 0 for silence), the last _TONES of them
        self._freq = 0

    def freq(self, value):
        self._freq = value

    def duty_u16(self, value):
        if len(self.tones) == _TONES:
            self.tones.pop(0)
        self.tones.append((self._clock(), self._freq if value else 0))


class SimPin:
    def __init__(self):
        self.level = 0

    def value(self, x):
        self.level = x


def open_board(keypad=None, clock=ticks_ms, profile=None):
    """A Board on the simulator with the profile's LEDs; keypad defaults to an empty
    ScriptKeypad, clock to real time (tests pass a virtual clock: any function returning
    milliseconds)."""
    if profile is None:
        from hw.profiles import pico as profile
    leds = {}
    for name, _gpio in profile.LEDS:
        leds[name] = Led(SimPin())
    return Board(SimDisplay(), keypad or ScriptKeypad(), Buzzer(SimPwm(clock)), leds, clock)
