"""Boards: the machine backend on the fake machine (pins, PWM, matrix), the simulator's
keypads, buzzer and LEDs, all on a virtual clock."""

import pytest
from hw_support import run_device

from hw import buzzer, keys, layout
from hw.backends import fake_machine, machine_backend, sim
from hw.backends.keyboard import KeyboardKeypad
from hw.keys import HOLD, RELEASE
from hw.profiles import pico


class Clock:
    def __init__(self):
        self.now = 0

    def __call__(self):
        return self.now


@pytest.fixture
def machine_board():
    fake_machine.reset()
    fake_machine.attach_i2c(pico.I2C_ID, pico.DISPLAY_ADDRESS, fake_machine.SSD1306Device())
    clock = Clock()
    board = machine_backend.open_board(pico, fake_machine)
    board.ticks_ms = clock
    board.clock = clock
    board.switches = fake_machine.KeyMatrix(pico.KEYPAD_ROWS, pico.KEYPAD_COLS)
    return board


def test_profile_uses_every_pin_once_and_leaves_uart0_free():
    pins = [pico.I2C_SDA, pico.I2C_SCL, pico.BUZZER, *pico.KEYPAD_ROWS, *pico.KEYPAD_COLS,
            *(gpio for _name, gpio in pico.LEDS)]
    assert len(pins) == len(set(pins))
    assert not {0, 1} & set(pins)
    assert (len(pico.KEYPAD_ROWS), len(pico.KEYPAD_COLS)) == (layout.ROWS, layout.COLS)


def test_machine_board_reads_a_key_through_the_pins(machine_board):
    r, c = divmod(layout.LAYOUT.index(keys.SPADES), layout.COLS)
    machine_board.switches.press(r, c)
    events = []
    for ms in range(0, 1000, 5):
        machine_board.clock.now = ms
        event = machine_board.poll()
        if event is not None:
            events.append((ms, event))
    assert events == [(20, keys.SPADES), (720, keys.SPADES | HOLD)]
    rows = [fake_machine.world.pins[g] for g in pico.KEYPAD_ROWS]
    assert all(p.mode == fake_machine.Pin.OPEN_DRAIN and p.latch == 1 for p in rows), \
        "rows are released between scans"


def test_buzzer_plays_a_pattern_on_the_pwm_and_falls_silent(machine_board):
    b = machine_board.buzzer
    pwm = b._pwm
    fake_machine.world.now = 100
    b.play(buzzer.ERROR, 100)
    for ms in range(100, 500, 10):
        fake_machine.world.now = ms
        b.update(ms)
    assert [(t, what, v) for t, what, v in pwm.log if t >= 100] == [
        (100, "freq", 440), (100, "duty", buzzer.HALF), (220, "duty", 0),
        (280, "freq", 440), (280, "duty", buzzer.HALF), (400, "duty", 0)]
    assert not b.playing and pwm.duty_u16() == 0


def test_sound_off_plays_nothing(machine_board):
    b = machine_board.buzzer
    b.enabled = False
    before = len(b._pwm.log)
    b.play(buzzer.DIRECTOR, 0)
    assert len(b._pwm.log) == before and not b.playing


def test_leds_drive_their_pins_and_blink(machine_board):
    red = machine_board.leds["red"]
    pin = fake_machine.world.pins[dict(pico.LEDS)["red"]]
    assert pin.mode == fake_machine.Pin.OUT and pin.latch == 0
    red.on()
    assert pin.latch == 1
    red.blink(400, 0)
    seen = []
    for ms in range(0, 1000, 100):
        red.update(ms)
        seen.append(pin.latch)
    assert seen == [1, 1, 0, 0, 1, 1, 0, 0, 1, 1]
    red.off()
    red.update(5000)
    assert pin.latch == 0


def test_sim_board_plays_a_key_script_and_refuses_a_bad_name():
    clock = Clock()
    board = sim.open_board(sim.ScriptKeypad("1 s pass  XX\nOK"), clock)
    got = []
    event = board.poll()
    while event is not None:
        got.append(event)
        event = board.poll()
    assert got == [1, 1 | RELEASE, keys.SPADES, keys.SPADES | RELEASE, keys.PASS,
                   keys.PASS | RELEASE, keys.REDOUBLE, keys.REDOUBLE | RELEASE,
                   keys.OK, keys.OK | RELEASE]
    board.keypad.feed("DIR ENTER")
    assert board.poll() == keys.DIRECTOR and board.poll() == keys.DIRECTOR | RELEASE
    with pytest.raises(ValueError, match="ENTER"):
        board.poll()
    board.buzzer.play(buzzer.CLICK, 0)
    clock.now = 50
    board.poll()
    assert board.buzzer._pwm.tones == [(0, 0), (0, 2400), (50, 0)]
    assert sorted(board.leds) == ["board", "green", "red"]


def test_keyboard_keypad_maps_keys_and_arrow_escapes():
    typed = iter("1s\x1b[B\x1b[Zpz\r")
    pad = KeyboardKeypad(lambda: next(typed, ""))
    got = []
    event = pad.poll(0)
    while event is not None:
        got.append(event)
        event = pad.poll(0)
    assert [e for e in got if not e & RELEASE] == [1, keys.SPADES, keys.DOWN, keys.PASS,
                                                   keys.OK]
    assert len(got) == 10


def test_a_long_session_script_costs_no_memory_per_key():
    script = " ".join(["1 S PASS X XX OK 7 NT BACK DOWN"] * 300)
    code = ("import gc; from hw.backends import sim\n"
            "s = %r\n"
            "k = sim.ScriptKeypad(s); gc.collect(); a = gc.mem_alloc(); n = 0\n"
            "while k.poll(0) is not None: n += 1\n"
            "gc.collect(); print(n, gc.mem_alloc() - a)" % script)
    proc = run_device(["-c", code], interpreter="micropython", heapsize="64k")
    assert proc.returncode == 0, proc.stderr.decode()
    count, grown = map(int, proc.stdout.split())
    assert count == 6000 and grown < 1024
