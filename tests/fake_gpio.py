"""A stand-in for the `RPi.GPIO` module that enforces its contract, for tests off the Pi.

It keeps the real module's names, numbers and errors (RPi.GPIO 0.7): a numbering mode must be
set before any setup, a channel must exist on a 40-pin header in that mode, a channel must be
set up as an output before it is driven, pull-ups are for inputs and initial levels for
outputs, and cleanup() forgets everything (the mode too). `install()` puts it in sys.modules as
RPi.GPIO, so code that does `import RPi.GPIO as GPIO` gets it; `levels` and `history` show what
the pins did.
"""

import sys
import types

BOARD = 10
BCM = 11
OUT = 0
IN = 1
LOW = 0
HIGH = 1
PUD_OFF = 20
PUD_DOWN = 21
PUD_UP = 22
RPI_INFO = {"P1_REVISION": 3, "TYPE": "fake"}

# Header pin -> BCM GPIO number for the GPIO pins of the 40-pin header.
BOARD_TO_BCM = {3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23,
                18: 24, 19: 10, 21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5,
                31: 6, 32: 12, 33: 13, 35: 19, 36: 16, 37: 26, 38: 20, 40: 21}
BCM_CHANNELS = range(0, 28)

_mode = None
_warnings = True
directions = {}  # BCM number -> OUT / IN
levels = {}  # BCM number -> LOW / HIGH of outputs
history = []  # (BCM number, level) of every output() in order


def reset():
    """Back to a freshly imported module (between tests)."""
    global _mode, _warnings
    _mode = None
    _warnings = True
    directions.clear()
    levels.clear()
    del history[:]


def setwarnings(flag):
    global _warnings
    _warnings = bool(flag)


def setmode(mode):
    global _mode
    if mode not in (BOARD, BCM):
        raise ValueError("An invalid mode was passed to setmode()")
    if _mode is not None and mode != _mode:
        raise ValueError("A different mode has already been set!")
    _mode = mode


def getmode():
    return _mode


def _bcm(channel):
    if _mode is None:
        raise RuntimeError("Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) or "
                           "GPIO.setmode(GPIO.BCM)")
    if isinstance(channel, bool) or not isinstance(channel, int):
        raise ValueError("Channel must be an integer or list/tuple of integers")
    if _mode == BOARD:
        if channel not in BOARD_TO_BCM:
            raise ValueError("The channel sent is invalid on a Raspberry Pi")
        return BOARD_TO_BCM[channel]
    if channel not in BCM_CHANNELS:
        raise ValueError("The channel sent is invalid on a Raspberry Pi")
    return channel


def _channels(channel):
    return list(channel) if isinstance(channel, (list, tuple)) else [channel]


def _level(value):
    if value in (LOW, HIGH, True, False):
        return HIGH if value else LOW
    raise ValueError("An invalid value was passed to output()")


def setup(channel, direction, pull_up_down=PUD_OFF, initial=-1):
    if direction not in (IN, OUT):
        raise ValueError("An invalid direction was passed to setup()")
    if direction == OUT and pull_up_down != PUD_OFF:
        raise ValueError("pull_up_down parameter is not valid for outputs")
    if direction == IN and initial != -1:
        raise ValueError("initial parameter is not valid for inputs")
    if pull_up_down not in (PUD_OFF, PUD_DOWN, PUD_UP):
        raise ValueError("Invalid value for pull_up_down - should be either PUD_OFF, PUD_UP "
                         "or PUD_DOWN")
    for ch in _channels(channel):
        pin = _bcm(ch)
        directions[pin] = direction
        if direction == OUT:
            levels[pin] = _level(initial) if initial != -1 else LOW
        else:
            levels.pop(pin, None)


def output(channel, value):
    chans = _channels(channel)
    values = _channels(value) if isinstance(value, (list, tuple)) else [value] * len(chans)
    if len(values) != len(chans):
        raise RuntimeError("Number of channels != number of values")
    for ch, v in zip(chans, values):
        pin = _bcm(ch)
        if directions.get(pin) != OUT:
            raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
        levels[pin] = _level(v)
        history.append((pin, levels[pin]))


def input(channel):
    pin = _bcm(channel)
    if pin not in directions:
        raise RuntimeError("You must setup() the GPIO channel first")
    return levels.get(pin, LOW)


def cleanup(channel=None):
    """Every channel this program set up back to input; without a channel, the mode too."""
    global _mode
    if channel is None:
        directions.clear()
        levels.clear()
        _mode = None
        return
    for ch in _channels(channel):
        pin = _bcm(ch)
        directions.pop(pin, None)
        levels.pop(pin, None)


def install():
    """Make `import RPi.GPIO` give this module; returns it."""
    this = sys.modules[__name__]
    package = types.ModuleType("RPi")
    package.GPIO = this
    sys.modules["RPi"] = package
    sys.modules["RPi.GPIO"] = this
    return this
