"""A Board bundles the terminal's devices, whichever backend built them.

The terminal's main loop calls board.poll() and gets the next key event (or None); poll also
advances the buzzer and the LEDs. The display is a FrameBuffer with show().
"""


class Board:
    def __init__(self, display, keypad, buzzer, leds, ticks_ms):
        self.display = display
        self.keypad = keypad
        self.buzzer = buzzer
        self.leds = leds  # {"green": Led, "red": Led, ...}
        self.ticks_ms = ticks_ms

    def poll(self):
        now = self.ticks_ms()
        self.buzzer.update(now)
        for led in self.leds.values():
            led.update(now)
        return self.keypad.poll(now)
