"""Text in the generated 6x9 font (Latin, Cyrillic, suits) drawn into any FrameBuffer.

The display is 128x64, so a screen holds COLUMNS = 21 characters by ROWS = 7 lines of
LINE = 9 pixels. Each glyph goes from the font's bytes object through one cell (no copy of
the font, no object per glyph), so drawing is done by framebuf's C code on the board. A
character the font lacks is drawn as '?', so no text can crash a screen.
"""

from hw import display, font_data
from hw.display import const, framebuf

WIDTH = font_data.WIDTH
HEIGHT = font_data.HEIGHT
LINE = HEIGHT
COLUMNS = display.WIDTH // WIDTH
ROWS = display.HEIGHT // LINE

_GLYPHS = memoryview(font_data.GLYPHS)  # slices of a memoryview are not copies
_HLSB = const(3)  # framebuf.MONO_HLSB, the font's layout
# The whole font as one tall blit source (a glyph is HEIGHT rows of one byte), and one glyph
# cell: a glyph is copied into the cell by blitting the font at its offset (the cell clips
# it), and the cell onto the display. No object is made per glyph; a slice and a source
# tuple per glyph were ~96 bytes of garbage each, ~4 KB a key.
_FONT = (font_data.GLYPHS, WIDTH, len(font_data.GLYPHS), _HLSB)
_CELL = framebuf.FrameBuffer(bytearray(HEIGHT), WIDTH, HEIGHT, _HLSB)
# blit's palette maps a glyph's set pixels to 0 and its background to 1, and key=1 then skips
# the background: dark text on a lit bar.
_INVERT = framebuf.FrameBuffer(bytearray(1), 2, 1, _HLSB)
_INVERT.pixel(0, 0, 1)


def glyph(code):
    """The font's glyph number for a code point (font_data.FALLBACK, the '?' glyph, when the
    font lacks it)."""
    if 0x20 <= code < 0x7F:
        return code - 0x20
    ranges = font_data.RANGES  # (first, last, glyph) by first: the range is found by halves
    lo, hi = 0, len(ranges) // 3  # (the suits are last of 17: a walk took ~20,000
    while lo < hi:  # instructions on the unix port for each one drawn)
        mid = (lo + hi) >> 1
        if ranges[3 * mid + 1] < code:
            lo = mid + 1
        else:
            hi = mid
    lo *= 3
    if lo < len(ranges) and ranges[lo] <= code:
        return ranges[lo + 2] + code - ranges[lo]
    return font_data.FALLBACK


def width(s):
    """Width of s in pixels (the font is monospaced)."""
    return len(s) * WIDTH


def _char(raw, i):
    """The character whose UTF-8 starts at raw[i], as its code point << 3 | its length in
    bytes (one small int: a pair would be an object a character). Beyond the Basic
    Multilingual Plane the code is 0x110000, not in the font."""
    code = raw[i]
    if code < 0x80:
        return code << 3 | 1
    if code < 0xE0:
        return ((code & 0x1F) << 6 | raw[i + 1] & 0x3F) << 3 | 2
    if code < 0xF0:
        return ((code & 0x0F) << 12 | (raw[i + 1] & 0x3F) << 6 | raw[i + 2] & 0x3F) << 3 | 3
    return 0x110000 << 3 | 4


def blit(fb, code, x, y, color):
    """The glyph of `code` at scale 1 through the cell: only its set pixels, in `color`.
    (Called for every character drawn: its frame is kept within MicroPython's 11 words on
    the C stack, the inverted blit's five arguments in `_blit_dark`.)"""
    _CELL.blit(_FONT, 0, -glyph(code) * HEIGHT)
    if color:
        fb.blit(_CELL, x, y, 0)
    else:
        _blit_dark(fb, x, y)


def _blit_dark(fb, x, y):
    fb.blit(_CELL, x, y, 1, _INVERT)


def draw(fb, s, x, y, color=1, scale=1):
    """Draw s with its top-left corner at (x, y); returns the x just after it.

    Only the glyphs' set pixels are drawn, in `color` (0 draws dark text on a lit area);
    clipping at the edges is the framebuffer's. scale=2 or 3 draws large digits or a
    contract with each font pixel a scale x scale square.

    The characters are decoded from s's UTF-8 bytes: iterating a str on MicroPython makes
    each character a qstr, which would keep every letter ever shown in RAM for good.
    """
    raw = s.encode()
    i, n = 0, len(raw)
    while i < n:
        code = _char(raw, i)
        i += code & 7
        code >>= 3
        if scale == 1:
            blit(fb, code, x, y, color)
        else:
            at = glyph(code) * HEIGHT
            for row in range(HEIGHT):
                bits = _GLYPHS[at + row]
                col = 0
                while bits:
                    if bits & 0x80:
                        fb.fill_rect(x + col * scale, y + row * scale, scale, scale, color)
                    bits = (bits << 1) & 0xFF
                    col += 1
        x += WIDTH * scale
    return x


def draw_line(fb, s, row, inverted=False, before=None):
    """Draw s on text line `row` (0..ROWS-1) of a full-width display, clearing it first;
    returns the pixel columns drawn, (first, last + 1).

    An inverted line is dark text on a lit bar: the menu cursor and the warning banner.
    With `before`, the text that line shows now (drawn the same way, inverted or not), only
    the characters that differ from it are drawn, each cell cleared first: a key changes a
    few characters of a line, and the display is then sent only those columns
    (hw.ssd1306's `windows`). Both texts are walked as UTF-8 bytes, a character at a time.
    """
    y = row * LINE
    if before is None:
        fb.fill_rect(0, y, display.WIDTH, LINE, 1 if inverted else 0)
        draw(fb, s[:COLUMNS], 0, y, 0 if inverted else 1)
        return 0, display.WIDTH
    new, old = s.encode(), before.encode()
    nn, no = len(new), len(old)
    i, n, start = 0, min(nn, no), 0  # the bytes in common, and their columns
    while i < n and new[i] == old[i]:
        start += new[i] & 0xC0 != 0x80  # a character's first byte
        i += 1
    if i < nn and new[i] & 0xC0 == 0x80:  # they differ inside a character
        while new[i] & 0xC0 == 0x80:
            i -= 1
        start -= 1
    tail = 0  # the bytes in common at the end: once only they are left on both sides, at
    while tail < n - i and new[nn - 1 - tail] == old[no - 1 - tail]:  # the same column,
        tail += 1  # the rest of the line is as it was
    j = i
    first, end = COLUMNS, 0
    for col in range(start, COLUMNS):
        if nn - i == no - j <= tail:
            break
        a = new[i] if i < nn else 0  # each side's character (its code point), ASCII
        if a > 0x7F:  # without a call
            a = _char(new, i)
            i += a & 7
            a >>= 3
        elif a:
            i += 1
        b = old[j] if j < no else 0
        if b > 0x7F:
            b = _char(old, j)
            j += b & 7
            b >>= 3
        elif b:
            j += 1
        if a != b:
            x = col * WIDTH
            fb.fill_rect(x, y, WIDTH, LINE, 1 if inverted else 0)
            if a:
                blit(fb, a, x, y, 0 if inverted else 1)
            first = min(first, col)
            end = col + 1
    return (first * WIDTH, end * WIDTH) if end else (0, 0)
