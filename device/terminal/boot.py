"""What the terminal shows before the application and when it failed: the boot screen, the
missing or damaged configuration, the fault screen, maintenance and the self-test.

A module of its own so that main.py loads it at power-on and forgets it once the
application runs (terminal.forget): none of it is needed between two boots, except the
fault screen, which loads it again. Every screen is drawn straight on the board's display
with hw.text, 7 lines, the first inverted, as the application draws its own.
"""

import os
import sys

from hw import buzzer, keys, text
from hw.keys import KEY_MASK, KIND_MASK, PRESS, REPEAT
from hw.ticks import ticks_diff
from terminal import const
from terminal.ui_text import t

_BOOT_MS = const(3000)  # the boot screen stays this long, or until a key
_CONFIG_MS = const(15000)  # a missing or damaged configuration: long enough to read
_ALL_KEYS = const(25 - 1)  # the 5x5 matrix has one position without a key (hw.layout)
_TEST_FILE = "selftest.tmp"


def draw(board, lines):
    """Show 7 lines (fewer are padded), the first as the title bar."""
    d = board.display
    for i in range(text.ROWS):
        text.draw_line(d, lines[i] if i < len(lines) else "", i, i == 0)
    d.show()


def held(board, wait, ms=100):
    """The keys pressed at power-on: the keypad polled for `ms` (past its debounce)."""
    out = []
    start = board.ticks_ms()
    while ticks_diff(board.ticks_ms(), start) < ms:
        event = board.poll()
        if event is not None and event & KIND_MASK == PRESS:
            out.append(event & KEY_MASK)
        wait(5)
    return out


def firmware():
    """The MicroPython release the board runs (os.uname().release, e.g. 1.24.1)."""
    try:
        return os.uname().release
    except AttributeError:  # CPython on Windows; the simulator's desktop
        return "%d.%d.%d" % sys.implementation.version[:3]


def boot_lines(config, ident):
    """The boot screen: firmware, terminal id, section and table; then, if the
    configuration is missing or damaged, what to do about it."""
    lines = [config.terminal or "Bridge", t("boot_fw") % firmware(), t("boot_id") % ident[:16],
             t("boot_tbl") % (config.section, config.table or "-")]
    if config.errors:
        lines[0] = t("cfg_bad")
        lines += [t("cfg_bad1") % config.errors[0], t("cfg_bad2"), t("cfg_bad3")]
    elif config.event is None:
        lines[0] = t("cfg_none")
        lines += [t("cfg_none1"), t("cfg_none2"), t("cfg_none3")]
    return lines


def boot_screen(board, config, ident, wait, feed):
    """Show the boot screen until a key or its time is up (longer when the configuration
    needs the club's attention)."""
    draw(board, boot_lines(config, ident))
    ms = _CONFIG_MS if config.errors or config.event is None else _BOOT_MS
    until_key(board, wait, feed, ms)


def until_key(board, wait, feed, ms=-1):
    """Poll (feeding the watchdog) until a key is pressed, or `ms` have passed if ms >= 0;
    returns the key or None."""
    start = board.ticks_ms()
    while ms < 0 or ticks_diff(board.ticks_ms(), start) < ms:
        feed()
        event = board.poll()
        if event is not None and event & KIND_MASK == PRESS:
            return event & KEY_MASK
        wait(10)
    return None


def fault(board, wait, feed):
    """After repeated failures: say so, that the records are safe, and wait for OK."""
    board.buzzer.play(buzzer.ERROR, board.ticks_ms())
    draw(board, [t("fault"), t("fault1"), t("fault2"), t("fault3"), "", "", t("fault4")])
    while until_key(board, wait, feed) != keys.OK:
        pass


def maintenance(board):
    draw(board, [t("maint"), t("maint1"), t("maint2"), t("maint3")])


def flash_check(folder):
    """Write, read back and remove a file on the board's filesystem; (works, free KiB)."""
    path = folder + "/" + _TEST_FILE
    data = bytes(range(256))
    try:
        with open(path, "wb") as f:
            f.write(data)
        with open(path, "rb") as f:
            ok = f.read() == data
        os.remove(path)
    except OSError:
        ok = False
    try:
        st = os.statvfs(folder)
        free = st[0] * st[3] // 1024
    except (OSError, AttributeError):
        free = 0
    return ok, free


def self_test(board, folder, wait, feed):
    """The check after assembly (docs/HARDWARE.md): the whole panel lit, then every key
    counted with a click, the LEDs stepping on each key, and the flash written and read.
    Held BACK leaves; returns the outcome, the fields of the `st` record main.py journals
    (docs/RECORDS.md): `k` the keys seen (a bit per key code), `fl` 1 when the flash check
    passed, `fr` its free KiB, `led` the LEDs stepped, `bz` the clicks played, `lit` 1 (the
    whole panel was lit), `fw` the firmware."""
    d = board.display
    d.fill(1)
    d.show()
    until_key(board, wait, feed, 1000)
    ok, free = flash_check(folder)
    seen = 0
    leds = list(board.leds.values())
    last = "-"
    n = 0
    while True:
        count = bin(seen).count("1")
        draw(board, [t("st_title"), t("st_keys") % (count, _ALL_KEYS), t("st_last") % last,
                     t("st_flash") % (t("st_ok") if ok else t("st_bad"), free),
                     t("st_all") if count == _ALL_KEYS else "", "", t("st_exit")])
        while True:
            feed()
            event = board.poll()
            if event is not None and event & KIND_MASK in (PRESS, REPEAT):
                break
            wait(5)
        k = event & KEY_MASK
        if event & KIND_MASK == REPEAT:  # BACK held (it repeats: hw.layout.REPEATING)
            if k == keys.BACK:
                for led in leds:
                    led.off()
                return {"k": seen, "fl": 1 if ok else 0, "fr": free, "led": len(leds),
                        "bz": n, "lit": 1, "fw": firmware()[:40]}
            continue
        seen |= 1 << k
        last = keys.NAMES[k]
        board.buzzer.play(buzzer.CLICK, board.ticks_ms())
        for i in range(len(leds)):
            if i == n % len(leds):
                leds[i].on()
            else:
                leds[i].off()
        n += 1
