"""Status LEDs on plain GPIO outputs: on, off, or blinking without blocking.

The terminal has a green LED (ready, synced) and a red one (director called, error); the
Pico's own LED mirrors activity. blink() toggles at period_ms/2 from update(now).
"""

from hw.ticks import ticks_add, ticks_diff


class Led:
    def __init__(self, pin, active_high=True):
        self._pin = pin
        self._on_level = 1 if active_high else 0
        self.lit = False
        self._half = 0  # half-period while blinking, 0 when steady
        self._due = 0
        self._write(False)

    def _write(self, lit):
        self.lit = lit
        self._pin.value(self._on_level if lit else 1 - self._on_level)

    def on(self):
        self._half = 0
        self._write(True)

    def off(self):
        self._half = 0
        self._write(False)

    def blink(self, period_ms, now):
        """Blink with the given period, starting lit."""
        self._half = max(1, period_ms // 2)
        self._write(True)
        self._due = ticks_add(now, self._half)

    def update(self, now):
        if self._half and ticks_diff(now, self._due) >= 0:
            self._write(not self.lit)
            self._due = ticks_add(now, self._half)
