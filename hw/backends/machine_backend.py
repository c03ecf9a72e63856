"""The terminal's devices on MicroPython's `machine` module, wired by a board profile.

open_board() takes the machine module as an argument so tests can pass
hw.backends.fake_machine, which checks every call against the real library's contract.
"""

from hw import layout
from hw.board import Board
from hw.buzzer import Buzzer
from hw.keypad import Keypad
from hw.leds import Led
from hw.ssd1306 import SSD1306
from hw.ticks import ticks_ms


class PinMatrix:
    """Key matrix pins: rows open-drain (released = high-Z, never driven high, so two
    pressed keys in one column cannot short two outputs), columns inputs with pull-ups.
    read_row(r) pulls row r low and returns the columns that read low."""

    def __init__(self, pin_class, row_ids, col_ids):
        self._rows = [pin_class(r, pin_class.OPEN_DRAIN, value=1) for r in row_ids]
        self._cols = [pin_class(c, pin_class.IN, pin_class.PULL_UP) for c in col_ids]

    def read_row(self, r):
        row = self._rows[r]
        row.value(0)
        mask = 0
        bit = 1
        for col in self._cols:
            if not col.value():
                mask |= bit
            bit <<= 1
        row.value(1)
        return mask


def open_board(profile=None, machine=None):
    if profile is None:
        from hw.profiles import pico as profile
    if machine is None:
        import machine
    pin = machine.Pin
    i2c = machine.I2C(profile.I2C_ID, scl=pin(profile.I2C_SCL), sda=pin(profile.I2C_SDA),
                      freq=profile.I2C_FREQ)
    display = SSD1306(i2c, profile.DISPLAY_ADDRESS)
    matrix = PinMatrix(pin, profile.KEYPAD_ROWS, profile.KEYPAD_COLS)
    keypad = Keypad(matrix.read_row, len(profile.KEYPAD_ROWS), len(profile.KEYPAD_COLS),
                    layout.LAYOUT, layout.REPEATING)
    buzzer = Buzzer(machine.PWM(pin(profile.BUZZER)))
    leds = {}
    for name, number in profile.LEDS:
        leds[name] = Led(pin(number, pin.OUT))
    return Board(display, keypad, buzzer, leds, ticks_ms)
