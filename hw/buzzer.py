"""A piezo buzzer on a PWM pin, playing short tone patterns without blocking.

A pattern is a flat tuple of steps, frequency Hz then duration ms (one tuple, not one per
step: each tuple is an object in RAM); frequency 0 is a rest. play() starts one and
update(now), called from the main loop, moves it on; a new pattern replaces the one playing.
Silence is duty 0, so the PWM keeps its slice configured between tones.
"""

from hw.ticks import ticks_add, ticks_diff

HALF = 32768  # duty_u16 for a square wave: loudest for a piezo

CLICK = (2400, 12)                                 # key accepted
CONFIRM = (1800, 60)                               # call or result recorded
ERROR = (440, 120, 0, 60, 440, 120)                # key not valid here
DIRECTOR = (880, 180, 0, 90, 880, 180, 0, 90, 1320, 360)  # irregularity: call the TD


class Buzzer:
    def __init__(self, pwm):
        self._pwm = pwm
        self.enabled = True  # the player's "sound off" setting
        self._pattern = ()
        self._step = 0  # the index of the step's frequency in the pattern
        self._due = 0
        pwm.duty_u16(0)

    @property
    def playing(self):
        return self._step < len(self._pattern)

    def play(self, pattern, now):
        if not self.enabled:
            return
        self._pattern = pattern
        self._step = 0
        self._start(now)

    def stop(self):
        self._pattern = ()
        self._step = 0
        self._pwm.duty_u16(0)

    def update(self, now):
        while self.playing and ticks_diff(now, self._due) >= 0:
            self._step += 2
            if self.playing:
                self._start(self._due)
            else:
                self._pwm.duty_u16(0)

    def _start(self, at):
        freq, ms = self._pattern[self._step], self._pattern[self._step + 1]
        if freq:
            self._pwm.freq(freq)
            self._pwm.duty_u16(HALF)
        else:
            self._pwm.duty_u16(0)
        self._due = ticks_add(at, ms)
