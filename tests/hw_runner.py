"""Runs hw/ drawing, display and keypad scenarios and prints what they produced, as JSON.

The same file runs under CPython (pure-Python framebuf) and the real `micropython` (its C
framebuf), so tests/test_hw_*.py can assert that both give byte-identical results:
`python tests/hw_runner.py SCENARIO` from the repository root.
"""

import json
import sys

from hw import keys, layout, text  # noqa: E402
from hw.backends import fake_machine, machine_backend  # noqa: E402
from hw.display import framebuf  # noqa: E402
from hw.keypad import Keypad  # noqa: E402
from hw.profiles import pico  # noqa: E402


def hexed(buf):
    return "".join("%02x" % b for b in buf)


def framebuf_ops():
    """Every framebuf operation hw/ relies on, with clipping at all four edges."""
    out = {"module": framebuf.__name__}
    vbuf = bytearray(128 * 64 // 8)
    fb = framebuf.FrameBuffer(vbuf, 128, 64, framebuf.MONO_VLSB)
    fb.fill(0)
    fb.pixel(0, 0, 1)
    fb.pixel(127, 63, 1)
    fb.pixel(128, 10, 1)
    fb.pixel(-1, 10, 1)
    fb.hline(-5, 3, 20, 1)
    fb.vline(100, 60, 10, 1)
    fb.rect(10, 10, 30, 20, 1)
    fb.rect(50, 5, 12, 9, 1, True)
    fb.fill_rect(120, -3, 20, 6, 1)
    for x2, y2 in ((127, 40), (90, 63), (20, 63), (0, 45), (5, 0), (60, 2), (200, -40)):
        fb.line(64, 32, x2, y2, 1)
    fb.line(-10, 70, 140, -7, 0)
    out["pixel_get"] = [fb.pixel(0, 0), fb.pixel(1, 0), fb.pixel(127, 63), fb.pixel(500, 0)]
    hbuf = bytearray(((20 + 7) // 8) * 13)
    hb = framebuf.FrameBuffer(hbuf, 20, 13, framebuf.MONO_HLSB)
    hb.fill(0)
    hb.line(0, 0, 19, 12, 1)
    hb.rect(2, 2, 15, 8, 1)
    hb.pixel(19, 0, 1)
    out["hlsb"] = hexed(hbuf)
    fb.blit(hb, 100, 40)
    fb.blit(hb, -4, -3, 0)
    fb.blit((bytes(hbuf), 20, 13, framebuf.MONO_HLSB), 118, 58, 1)
    palette = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
    palette.pixel(0, 0, 1)
    fb.blit((memoryview(hbuf), 20, 13, framebuf.MONO_HLSB), 70, 20, 1, palette)
    out["vlsb"] = hexed(vbuf)
    return out


def text_screens():
    """Russian, English, suits, a character the font lacks, inverse, scaled and clipped."""
    buf = bytearray(1024)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    out = {}
    text.draw_line(fb, "Сдача 7 Сд:Ю Зона:все", 0, True)
    ends = [text.draw(fb, "1♠ Пас 2♥ Х ХХ 3БК", 0, 9),
            text.draw(fb, "Board 7 Dlr S Vul All", 0, 18),
            text.draw(fb, "♣♦♥♠ Ёё Щщ gjpqy €", 0, 27),
            text.draw(fb, "4♠X", 2, 37, 1, 2),
            text.draw(fb, "edge", 110, 58),
            text.draw(fb, "neg", -7, -4)]
    fb.fill_rect(60, 37, 60, 18, 1)
    ends.append(text.draw(fb, "=10 +1", 62, 41, 0))
    out["ends"] = ends
    out["buffer"] = hexed(buf)
    return out


def ssd1306():
    """The display driver on the fake machine: init, draw, show."""
    fake_machine.reset()
    device = fake_machine.attach_i2c(pico.I2C_ID, pico.DISPLAY_ADDRESS,
                                     fake_machine.SSD1306Device())
    board = machine_backend.open_board(pico, fake_machine)
    text.draw(board.display, "Привет ♠♥", 0, 0)
    board.display.show()
    return {"commands": [list(c) for c in device.commands], "ram": hexed(device.ram),
            "buffer": hexed(board.display.buffer), "lit": device.lit,
            "data_bytes": device.data_bytes}


def keypad_ghost():
    """A real ghost on the fake matrix: three corners of a rectangle pressed."""
    fake_machine.reset()
    matrix = machine_backend.PinMatrix(fake_machine.Pin, pico.KEYPAD_ROWS, pico.KEYPAD_COLS)
    switches = fake_machine.KeyMatrix(pico.KEYPAD_ROWS, pico.KEYPAD_COLS)
    pad = Keypad(matrix.read_row, layout.ROWS, layout.COLS, layout.LAYOUT, layout.REPEATING)
    script = {0: ("press", 1, 0), 100: ("press", 1, 1), 200: ("press", 2, 0),
              300: ("release", 1, 0), 400: ("release", 1, 1), 500: ("release", 2, 0)}
    events = []
    ghost_read = None
    for now in range(0, 600, 5):
        if now in script:
            action, r, c = script[now]
            getattr(switches, action)(r, c)
        if now == 250:
            ghost_read = matrix.read_row(2)
        ev = pad.poll(now)
        while ev is not None:
            events.append([now, keys.NAMES[ev & 0x1F], ev & 0x60])
            ev = pad.get()
    return {"events": events, "row2_during_ghost": ghost_read}


SCENARIOS = {"framebuf": framebuf_ops, "text": text_screens, "ssd1306": ssd1306,
             "keypad_ghost": keypad_ghost}

if __name__ == "__main__":
    print(json.dumps(SCENARIOS[sys.argv[1]]()))
