"""Power the terminal on under MicroPython from the flash tree, on the fake `machine`
(hw.backends.fake_machine, copied beside as a top-level module) and a virtual clock that
advances only when the terminal sleeps: tests/test_hw_boot.py.

    micropython boot_driver.py TURNS [EVENT...]

An EVENT is AT:ACTION, at virtual millisecond AT: press:R,C or release:R,C (matrix position),
unplug or plug (the display on I2C0). At the end one JSON line: whether main() returned a
terminal, the watchdog's feeds, the panel lit and its RAM's sum, the key clicks, the records.
"""

import json
import sys

import fake_machine as m

from hw.backends import machine_backend
from hw.profiles import pico

clock = [0]
events = []


def now():
    return clock[0]


class VirtualTime:
    @staticmethod
    def sleep_ms(ms):
        clock[0] += ms
        while events and events[0][0] <= clock[0]:
            act(events.pop(0)[1])

    @staticmethod
    def ticks_ms():
        return clock[0]


def act(what):
    if what == "unplug":
        m.world.i2c_devices[0].pop(pico.DISPLAY_ADDRESS)
    elif what == "plug":
        m.attach_i2c(0, pico.DISPLAY_ADDRESS, panel)
    else:
        verb, at = what.split(":")
        r, c = at.split(",")
        getattr(matrix, verb)(int(r), int(c))


m.reset()
m.world.clock = now
machine_backend.ticks_ms = now
panel = m.SSD1306Device()
m.attach_i2c(0, pico.DISPLAY_ADDRESS, panel)
matrix = m.KeyMatrix(pico.KEYPAD_ROWS, pico.KEYPAD_COLS)
for arg in sys.argv[2:]:
    at, what = arg.split(":", 1)
    events.append((int(at), what))
events.sort(key=lambda e: e[0])
act_now = [e for e in events if e[0] == 0]
for e in act_now:
    events.remove(e)
    act(e[1])

import main  # noqa: E402

main.time = VirtualTime
term = main.main(m, turns=int(sys.argv[1]))
wdt = m.world.watchdog
clicks = -1
if term is not None:
    clicks = sum(1 for _, what, v in term.board.buzzer._pwm.log if what == "freq" and v == 2400)
tested = None  # the self-test's `st` record, if the journal has one
if term is not None:
    for _seq, kind, data, _tag in term.journal.records_after(0):
        if kind == "st":
            tested = data
print('{"term": %s, "feeds": %d, "lit": %s, "ram": %d, "clicks": %d, "records": %d, '
      '"st": %s}' % ("false" if term is None else "true", wdt.feeds if wdt else -1,
                     "true" if panel.lit else "false", sum(panel.ram), clicks,
                     term.journal.last if term is not None else -1, json.dumps(tested)))
