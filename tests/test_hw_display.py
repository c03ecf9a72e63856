"""Display: SSD1306 driver vs the datasheet, framebuf equivalence, text, screenshots.

The driver runs against fake_machine's SSD1306Device, which decodes every I2C byte the way
the controller does; the pure-Python framebuf must give the real MicroPython framebuf's bytes
for the same calls; screenshots of mock auction screens (Russian and English) are written to
docs/ and read back with an independent PNG decoder.
"""

import errno

import pytest
from hw_support import ROOT, decode_png, run_scenario
from hypothesis import given, settings
from hypothesis import strategies as st

from hw import ssd1306, text
from hw.backends import fake_machine, machine_backend, pyframebuf, sim
from hw.profiles import pico

DOCS = ROOT / "docs"


@pytest.fixture
def board():
    fake_machine.reset()
    device = fake_machine.attach_i2c(pico.I2C_ID, pico.DISPLAY_ADDRESS,
                                     fake_machine.SSD1306Device())
    b = machine_backend.open_board(pico, fake_machine)
    b.device = device
    b.i2c = b.display.i2c
    return b


# The datasheet's power-on flow (SSD1306 rev 1.1, "software initialization" and command
# table): configure with the display off, enable the charge pump (8Dh 14h), then AFh.
DATASHEET_INIT = [
    (0xAE,), (0x20, 0x00), (0x40,), (0xA1,), (0xA8, 63), (0xC8,), (0xD3, 0), (0xDA, 0x12),
    (0xD5, 0x80), (0xD9, 0xF1), (0xDB, 0x30), (0x81, 0xFF), (0xA4,), (0xA6,), (0x8D, 0x14),
    (0xAF,),
]
FULL_WINDOW = [(0x21, 0, 127), (0x22, 0, 7)]


def test_init_sequence_is_the_datasheets(board):
    assert board.device.commands == DATASHEET_INIT + FULL_WINDOW
    assert board.device.lit, "display on, charge pump on before it, 64 rows, alt COM pins"
    assert board.device.charge_pump_at_on


def test_every_command_is_its_own_control_byte_write_and_data_is_one_stream(board):
    transactions = board.i2c.transactions
    commands, data = transactions[:-1], transactions[-1]
    assert all(addr == 0x3C and len(b) == 2 and b[0] == 0x80 for addr, b in commands)
    assert data[0] == 0x3C and len(data[1]) == 1025 and data[1][0] == 0x40


def test_show_puts_the_framebuffer_in_the_controller_ram(board):
    d = board.display
    d.fill(0)
    d.rect(0, 0, 128, 64, 1)
    text.draw(d, "Пас ♠", 3, 3)
    d.show()
    assert bytes(board.device.ram) == bytes(d.buffer)
    assert board.device.ram[0] == 0xFF and board.device.ram[1] == 0x01  # corner, border
    d.fill(0)
    d.show()
    assert bytes(board.device.ram) == bytes(1024)
    assert board.device.commands[-2:] == FULL_WINDOW


def test_show_sends_only_the_dirty_pages_and_the_panel_still_matches(board):
    """One text line changed (line 3: rows 27..35, pages 3 and 4): the address window is
    those two pages, 256 data bytes go over I2C instead of 1024, and the controller's RAM
    is the whole framebuffer again."""
    d = board.display
    for i in range(text.ROWS):
        text.draw_line(d, "line %d" % i, i, i == 0)
    d.show()
    sent = board.device.data_bytes
    text.draw_line(d, "changed", 3)
    d.windows = [(3, 4, 0, 128)]
    d.show()
    assert board.device.commands[-2:] == [(0x21, 0, 127), (0x22, 3, 4)]
    assert board.device.data_bytes - sent == 256
    assert bytes(board.device.ram) == bytes(d.buffer)
    d.show()  # the whole screen again after a show
    assert board.device.commands[-2:] == FULL_WINDOW


def test_show_sends_each_window_columns_only_and_the_panel_still_matches(board):
    """Two lines far apart changed in a few characters: each is its own window of its
    columns (the controller's horizontal addressing wraps inside the window), nothing
    between them is sent, and the controller's RAM is the framebuffer again."""
    d = board.display
    for i in range(text.ROWS):
        text.draw_line(d, "Сд5 line %d" % i, i, i == 0)
    d.show()
    sent = board.device.data_bytes
    windows = []
    for row, new in ((1, "Сд5 lime 1"), (6, "Сд5 line 6 ♠")):
        x0, x1 = text.draw_line(d, new, row, False, "Сд5 line %d" % row)
        windows.append((row * text.LINE // 8, (row * text.LINE + 8) // 8, x0, x1))
    assert [w[2:] for w in windows] == [(6 * 6, 7 * 6), (10 * 6, 12 * 6)]
    d.windows = windows
    d.show()
    assert board.device.commands[-4:] == [(0x21, 36, 41), (0x22, 1, 2),
                                          (0x21, 60, 71), (0x22, 6, 7)]
    assert board.device.data_bytes - sent == 2 * 6 + 2 * 12
    assert bytes(board.device.ram) == bytes(d.buffer)


@pytest.mark.parametrize("old,new,inverted", [
    ("Ход: С 3_", "Ход: В _", False), ("Пас все", "Pass", True), ("x" * 30, "", False),
    ("", "7♥ 3БК", True), ("same", "same", False)])
def test_a_line_drawn_over_its_old_text_is_the_line_drawn_afresh(old, new, inverted):
    """Drawing only the characters that differ from what the line shows gives the same
    pixels as clearing the line and drawing it whole, and says which columns it drew."""
    whole, over = (sim.SimDisplay() for _ in range(2))
    text.draw_line(whole, new, 2, inverted)
    text.draw_line(over, old, 2, inverted)
    x0, x1 = text.draw_line(over, new, 2, inverted, old)
    assert bytes(over.buffer) == bytes(whole.buffer)
    assert (x0 < x1) == (old[:21] != new[:21]) and x0 % 6 == 0 and x1 <= 21 * 6


_PIECE = st.text(alphabet="ab 3:_ПасБК\u2660\u2665\u2192", max_size=9)


@settings(max_examples=300, deadline=None)
@given(_PIECE, _PIECE, _PIECE, _PIECE, st.booleans())
def test_a_line_drawn_over_its_old_text_draws_exactly_the_columns_that_differ(
        head, old_middle, new_middle, tail, inverted):
    """Old and new texts sharing a beginning and an end, of 1, 2 and 3 UTF-8 bytes a
    character (draw_line skips the bytes in common at both ends): the pixels are the line
    drawn afresh, and the columns drawn run from the first column whose character differs
    to the last."""
    old, new = head + old_middle + tail, head + new_middle + tail
    whole, over = (sim.SimDisplay() for _ in range(2))
    text.draw_line(whole, new, 3, inverted)
    text.draw_line(over, old, 3, inverted)
    x0, x1 = text.draw_line(over, new, 3, inverted, old)
    assert bytes(over.buffer) == bytes(whole.buffer)
    differ = [c for c in range(text.COLUMNS)
              if (old[c:c + 1] or None) != (new[c:c + 1] or None)]
    assert (x0, x1) == ((differ[0] * 6, differ[-1] * 6 + 6) if differ else (0, 0))


def test_contrast_invert_and_power(board):
    d = board.display
    before = len(board.device.commands)
    with pytest.raises(ValueError, match="contrast"):
        d.contrast(300)
    assert len(board.device.commands) == before
    d.contrast(0x20)
    d.invert(True)
    d.poweroff()
    assert board.device.commands[before:] == [(0x81, 0x20), (0xA7,), (0xAE,)]
    assert board.device.inverse and not board.device.lit
    d.poweron()
    assert board.device.lit


def test_fake_i2c_enforces_the_library_contract(board):
    i2c = board.i2c
    with pytest.raises(TypeError, match="buffer protocol"):
        i2c.writeto(0x3C, [0x80, 0xAF])
    with pytest.raises(OSError) as missing:
        i2c.writeto(0x3D, b"\x80\xaf")
    assert missing.value.args[0] == errno.EIO
    with pytest.raises(ValueError, match="7-bit"):
        i2c.writeto(0x1FF, b"\x80\xaf")
    with pytest.raises(ValueError, match="bad SDA"):
        fake_machine.I2C(1, scl=3, sda=4)
    with pytest.raises(fake_machine.ContractError, match="in use by I2C0"):
        fake_machine.Pin(pico.I2C_SDA, fake_machine.Pin.OUT)


def test_fake_controller_rejects_what_the_ssd1306_would_misread(board):
    i2c = board.i2c
    for bad, message in ((b"\x80\xff", "not an SSD1306 command"),
                         (b"\x81\xaf", "bad control byte"),
                         (b"\x80\xa8\x80\x05", "invalid SSD1306 command A8 05"),
                         (b"\x80\x81\x40\x00", "awaits arguments")):
        fake_machine.reset()
        fake_machine.attach_i2c(0, 0x3C, fake_machine.SSD1306Device())
        bus = fake_machine.I2C(0, scl=5, sda=4)
        with pytest.raises(fake_machine.ContractError, match=message):
            bus.writeto(0x3C, bad)
    fake_machine.reset()
    fake_machine.attach_i2c(0, 0x3C, fake_machine.SSD1306Device())
    with pytest.raises(fake_machine.ContractError, match="400 kHz"):
        ssd1306.SSD1306(fake_machine.I2C(0, scl=5, sda=4, freq=1000000))
    assert i2c is not None


def test_fake_pins_model_floating_inputs_and_shorts():
    fake_machine.reset()
    Pin = fake_machine.Pin
    floating = Pin(20, Pin.IN)
    with pytest.raises(fake_machine.ContractError, match="floating"):
        floating.value()
    assert Pin(21, Pin.IN, Pin.PULL_UP).value() == 1
    high, low = Pin(2, Pin.OUT, value=1), Pin(3, Pin.OUT, value=0)
    switch = fake_machine.KeyMatrix((2,), (3,))
    switch.press(0, 0)
    probe = Pin(2)
    with pytest.raises(fake_machine.ContractError, match="short circuit"):
        fake_machine._level(probe.id)
    assert high.value() == 1 and low.value() == 0  # outputs read their own latch
    with pytest.raises(ValueError, match="invalid pin"):
        Pin(30)
    pwm = fake_machine.PWM(Pin(16))
    with pytest.raises(ValueError, match="duty_u16"):
        pwm.duty_u16(70000)
    with pytest.raises(ValueError, match="freq"):
        pwm.freq(2)


@pytest.mark.parametrize("scenario", ["framebuf", "text", "ssd1306"])
def test_pure_python_framebuf_matches_micropython_byte_for_byte(scenario):
    real = run_scenario(scenario, "micropython")
    ours = run_scenario(scenario, "cpython")
    if scenario == "framebuf":
        assert real.pop("module") == "framebuf"
        assert ours.pop("module") == "hw.backends.pyframebuf"
        assert real["vlsb"].strip("0"), "the scenario drew something"
    assert real == ours


def test_ssd1306_scenario_under_micropython_lights_the_panel():
    result = run_scenario("ssd1306", "micropython")
    assert result["lit"] and result["ram"] == result["buffer"]
    assert [tuple(c) for c in result["commands"]] == DATASHEET_INIT + FULL_WINDOW * 2
    assert result["data_bytes"] == 2 * 1024


def new_fb():
    buf = bytearray(1024)
    return pyframebuf.FrameBuffer(buf, 128, 64, pyframebuf.MONO_VLSB)


def glyph_pixel(ch, x, y):
    at = text.glyph(ord(ch)) * text.HEIGHT
    return (text.font_data.GLYPHS[at + y] >> (7 - x)) & 1


def test_inverted_line_is_dark_text_on_a_full_width_bar():
    fb = new_fb()
    text.draw_line(fb, "Ход ♦", 2, inverted=True)
    for y in range(18, 27):
        for x in range(128):
            expected = 1 - glyph_pixel("Ход ♦"[x // 6], x % 6, y - 18) if x < 30 else 1
            assert fb.pixel(x, y) == expected, (x, y)
    assert fb.pixel(0, 17) == 0 and fb.pixel(0, 27) == 0


def test_draw_line_clips_to_21_columns_and_clears_old_text():
    fb = new_fb()
    fb.fill(1)
    text.draw_line(fb, "x" * 30, 6)
    assert fb.pixel(127, 60) == 0 and fb.pixel(127, 53) == 1


def test_scaled_text_doubles_every_pixel():
    fb = new_fb()
    end = text.draw(fb, "7♥", 10, 5, 1, 2)
    assert end == 10 + 2 * 12
    for ch_i, ch in enumerate("7♥"):
        for y in range(18):
            for x in range(12):
                assert fb.pixel(10 + ch_i * 12 + x, 5 + y) == glyph_pixel(ch, x // 2, y // 2)


def test_unknown_characters_draw_as_question_marks_and_never_raise():
    a, b = new_fb(), new_fb()
    text.draw(a, "€\x00\u4e2d", 0, 0)
    text.draw(b, "???", 0, 0)
    assert bytes(a._buf) == bytes(b._buf)


def auction_screen(lines):
    """A mock auction screen (the real ones are the terminal's): a title bar, the seats,
    the calls in four 5-character columns, a prompt."""
    board = sim.open_board()
    d = board.display
    title, seats, rows, prompt = lines
    text.draw_line(d, title, 0, inverted=True)
    for col, seat in enumerate(seats):
        text.draw(d, seat, col * 30 + 6, text.LINE + 1)
    d.hline(0, 2 * text.LINE + 1, 128, 1)
    for r, calls in enumerate(rows):
        for col, call in enumerate(calls):
            text.draw(d, call, col * 30 + 6, (r + 2) * text.LINE + 3)
    text.draw_line(d, prompt, 6)
    d.show()
    return d


SCREENS = {
    "ru": ("Сдача 7 Сд:Ю Зона:все", "СВЮЗ",
           (("-", "-", "1♠", "Пас"), ("2♥", "Пас", "3♣", "Х"), ("ХХ", "Пас", "4БК", "Пас")),
           "Заявка З: 5♦_"),
    "en": ("Board 7 Dlr:S Vul:All", "NESW",
           (("-", "-", "1♠", "Pass"), ("2♥", "Pass", "3♣", "X"), ("XX", "Pass", "4NT", "Pass")),
           "West to call: 5♦_"),
}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_screenshots_are_written_and_read_back(language):
    d = auction_screen(SCREENS[language])
    path = DOCS / ("display-%s.png" % language)
    DOCS.mkdir(exist_ok=True)
    path.write_bytes(d.png(scale=4))
    width, height, rows = decode_png(path.read_bytes())
    assert (width, height) == (512, 256)
    for y in range(64):
        for x in range(128):
            want = sim.pixel_of(d.shown, x, y)
            assert rows[4 * y + 3][4 * x] == rows[4 * y][4 * x + 3] == want, (x, y)
    bar = sum(map(sum, rows[:36])) / (512 * 36)
    rest = sum(map(sum, rows[36:])) / (512 * 220)
    assert bar > 0.6 and rest < 0.25, "a lit title bar over dark text"


def test_half_block_rendering_packs_two_pixel_rows_per_character():
    d = sim.SimDisplay()
    d.pixel(0, 0, 1)
    d.pixel(1, 1, 1)
    d.fill_rect(2, 0, 1, 2, 1)
    d.show()
    lines = d.blocks()
    assert len(lines) == 32 and all(len(line) == 128 for line in lines)
    assert lines[0][:4] == "\u2580\u2584\u2588 " and set(lines[1]) == {" "}


def test_png_writer_under_micropython_has_no_zlib_and_still_writes_valid_png(tmp_path):
    from conftest import run_device

    code = ("from hw.backends import sim; from hw import text;"
            "d = sim.SimDisplay(); text.draw(d, 'Пас ♠', 0, 0); d.show();"
            "open(%r, 'wb').write(d.png(2))" % str(tmp_path / "mp.png"))
    proc = run_device(["-c", code], interpreter="micropython")
    assert proc.returncode == 0, proc.stderr.decode()
    width, height, rows = decode_png((tmp_path / "mp.png").read_bytes())
    fb = new_fb()
    text.draw(fb, "Пас ♠", 0, 0)
    assert (width, height) == (256, 128)
    assert all(rows[2 * y][2 * x] == fb.pixel(x, y) for y in range(64) for x in range(128))
