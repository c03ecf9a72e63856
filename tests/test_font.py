"""The generated display font: reproducible from the installed source font, complete, fitting.

hw/font_data.py is made by tools/make_font.py from misc-fixed 6x9 (Debian xfonts-base); these
tests regenerate it and read glyphs back through the renderer and against the PCF file.
"""

import importlib.util

import pytest
from hw_support import ROOT

from hw import font_data, text
from hw.backends import pyframebuf

SOURCE = "/usr/share/fonts/X11/misc/6x9.pcf.gz"
RUSSIAN = "".join(chr(c) for c in range(0x410, 0x450)) + "Ёё"
SUITS = "\u2663\u2666\u2665\u2660"


@pytest.fixture(scope="module")
def make_font():
    spec = importlib.util.spec_from_file_location("make_font", ROOT / "tools" / "make_font.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def pcf(make_font):
    try:
        font, _digest = make_font.load(SOURCE)
    except FileNotFoundError:
        pytest.fail("%s is missing: %s" % (SOURCE, make_font.INSTALL_HINT))
    return font


def test_committed_font_is_what_the_generator_makes(make_font, tmp_path):
    out = tmp_path / "font_data.py"
    assert make_font.main(["--source", SOURCE, "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == (ROOT / "hw" / "font_data.py").read_text(
        encoding="utf-8")
    assert make_font.main(["--source", SOURCE, "--check"]) == 0


def test_check_mode_reports_a_stale_file(make_font, tmp_path, capsys):
    stale = tmp_path / "font_data.py"
    stale.write_text("WIDTH = 6\n", encoding="utf-8")
    assert make_font.main(["--source", SOURCE, "--out", str(stale), "--check"]) == 1
    assert "out of date" in capsys.readouterr().err
    assert stale.read_text(encoding="utf-8") == "WIDTH = 6\n"


def test_missing_source_font_says_which_package(make_font, tmp_path, capsys):
    assert make_font.main(["--source", str(tmp_path / "none.pcf.gz"),
                           "--out", str(tmp_path / "x.py")]) == 2
    assert "xfonts-base" in capsys.readouterr().err
    assert not (tmp_path / "x.py").exists()


def test_every_needed_glyph_exists():
    needed = "".join(chr(c) for c in range(0x20, 0x7F)) + RUSSIAN + SUITS + "«»—…№←↑→↓▲▶▼·"
    missing = [ch for ch in needed if text.glyph(ord(ch)) == font_data.FALLBACK and ch != "?"]
    assert missing == []
    assert text.glyph(ord("€")) == text.glyph(ord("?"))


def test_glyphs_fit_the_cell_and_a_line_holds_21_characters():
    assert (font_data.WIDTH, font_data.HEIGHT) == (6, 9)
    assert text.COLUMNS == 21 and text.ROWS == 7
    r = font_data.RANGES
    count = sum(r[i + 1] - r[i] + 1 for i in range(0, len(r), 3))
    assert len(font_data.GLYPHS) == count * font_data.HEIGHT
    assert isinstance(font_data.GLYPHS, bytes)
    spare_bits = (1 << (8 - font_data.WIDTH)) - 1
    assert all(b & spare_bits == 0 for b in font_data.GLYPHS), "a glyph is wider than its cell"
    # every glyph but space leaves the cell's right column blank, so letters never touch
    for ch in RUSSIAN + "ABCMWmw" + SUITS:
        at = text.glyph(ord(ch)) * font_data.HEIGHT
        assert not any(b & (0x80 >> (font_data.WIDTH - 1))
                       for b in font_data.GLYPHS[at:at + font_data.HEIGHT]), ch


def test_suits_are_four_different_glyphs():
    shapes = {bytes(font_data.GLYPHS[text.glyph(ord(s)) * 9:][:9]) for s in SUITS}
    assert len(shapes) == 4


def test_rendered_glyphs_match_the_source_font(pcf):
    sample = "Жёлт ЩИТ ♠♥♦♣ gjq 7NT"  # 21 characters: the whole width
    buf = bytearray(1024)
    fb = pyframebuf.FrameBuffer(buf, 128, 64, pyframebuf.MONO_VLSB)
    text.draw(fb, sample, 1, 3)
    for i, ch in enumerate(sample):
        cell = pcf.cell(ord(ch))
        for y in range(9):
            for x in range(6):
                assert fb.pixel(1 + i * 6 + x, 3 + y) == cell[y][x], (ch, x, y)
