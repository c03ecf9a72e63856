"""Generate hw/font_data.py, the terminal's display font, from a real bitmap font.

Source: the public-domain X11 "misc-fixed" 6x9 font (ISO 10646 encoded) from Debian's
`xfonts-base` package (/usr/share/fonts/X11/misc/6x9.pcf.gz). It is a character-cell font
with 5-pixel-wide letters in a 6-pixel cell, 7 pixels above the baseline and 2 below, so a
128x64 display holds 21 columns by 7 lines, with real descenders and Cyrillic and suit glyphs
drawn by type designers, not by us.

The output stores every glyph as HEIGHT bytes, one per pixel row, in MicroPython framebuf's
MONO_HLSB layout (bit 7 = leftmost pixel), so hw/text.py can `blit` a glyph straight out of
the bytes object. Run `python tools/make_font.py` to regenerate, `--check` to verify that the
committed file is what this generator makes from the installed font.
"""

import argparse
import gzip
import hashlib
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = Path("/usr/share/fonts/X11/misc/6x9.pcf.gz")
DEFAULT_OUT = ROOT / "hw" / "font_data.py"
INSTALL_HINT = "install Debian's xfonts-base package: apt-get install xfonts-base"

# What the terminal writes: ASCII, Russian, the four suits, and a few symbols for menus.
CODE_POINTS = (
    list(range(0x20, 0x7F))
    + [0xAB, 0xB7, 0xBB]                  # « · »
    + [0x401] + list(range(0x410, 0x450)) + [0x451]  # Ё А..я ё
    + [0x2014, 0x2026, 0x2116]            # — … №
    + list(range(0x2190, 0x2194))         # ← ↑ → ↓
    + [0x25B2, 0x25B6, 0x25BC]            # ▲ ▶ ▼
    + [0x2660, 0x2663, 0x2665, 0x2666]    # ♠ ♣ ♥ ♦
)
FALLBACK = ord("?")

# PCF table types (X.Org libXfont, pcf.h)
_PROPERTIES, _ACCELERATORS, _METRICS, _BITMAPS, _ENCODINGS, _BDF_ACCELERATORS = 1, 2, 4, 8, 32, 256


class PcfFont:
    """The parts of a PCF bitmap font the generator needs: cell size and glyph pixels."""

    def __init__(self, data):
        if data[:4] != b"\x01fcp":
            raise ValueError("not a PCF font file")
        (count,) = struct.unpack_from("<i", data, 4)
        self._data = data
        self._tables = {}
        for i in range(count):
            kind, _fmt, _size, offset = struct.unpack_from("<4i", data, 8 + 16 * i)
            self._tables[kind] = offset
        self.properties = self._read_properties()
        self.ascent, self.descent = self._read_ascent_descent()
        self._metrics = self._read_metrics()
        self._bitmaps = self._read_bitmaps()
        self._encoding = self._read_encoding()

    def _table(self, kind):
        offset = self._tables[kind]
        (fmt,) = struct.unpack_from("<i", self._data, offset)
        return fmt, (">" if fmt & 4 else "<"), offset + 4

    def _read_properties(self):
        _fmt, order, p = self._table(_PROPERTIES)
        (count,) = struct.unpack_from(order + "i", self._data, p)
        p += 4
        raw = []
        for _ in range(count):
            raw.append(struct.unpack_from(order + "ibi", self._data, p))
            p += 9
        p += (4 - (count & 3)) & 3
        (size,) = struct.unpack_from(order + "i", self._data, p)
        strings = self._data[p + 4:p + 4 + size]

        def text(at):
            return strings[at:strings.index(b"\0", at)].decode("latin-1")

        return {text(name): (text(value) if is_text else value) for name, is_text, value in raw}

    def _read_ascent_descent(self):
        kind = _BDF_ACCELERATORS if _BDF_ACCELERATORS in self._tables else _ACCELERATORS
        _fmt, order, p = self._table(kind)
        return struct.unpack_from(order + "2i", self._data, p + 8)

    def _read_metrics(self):
        fmt, order, p = self._table(_METRICS)
        metrics = []
        if fmt & 0x100:  # compressed: five unsigned bytes biased by 0x80
            (count,) = struct.unpack_from(order + "h", self._data, p)
            p += 2
            for _ in range(count):
                metrics.append(tuple(b - 0x80 for b in self._data[p:p + 5]))
                p += 5
        else:
            (count,) = struct.unpack_from(order + "i", self._data, p)
            p += 4
            for _ in range(count):
                metrics.append(struct.unpack_from(order + "5h", self._data, p))
                p += 12
        return metrics  # (left bearing, right bearing, advance, ascent, descent)

    def _read_bitmaps(self):
        fmt, order, p = self._table(_BITMAPS)
        (count,) = struct.unpack_from(order + "i", self._data, p)
        offsets = struct.unpack_from(order + "%di" % count, self._data, p + 4)
        start = p + 4 + 4 * count + 16
        pad = 1 << (fmt & 3)
        msb_bit = bool(fmt & 8)
        msb_byte = bool(fmt & 4)
        unit = 1 << ((fmt >> 4) & 3)
        glyphs = []
        for index, (lsb, rsb, _adv, asc, desc) in enumerate(self._metrics):
            width = rsb - lsb
            stride = ((width + 7) // 8 + pad - 1) // pad * pad
            rows = []
            for r in range(asc + desc):
                at = start + offsets[index] + r * stride
                row = bytearray(self._data[at:at + stride])
                if msb_bit != msb_byte and unit > 1:
                    for k in range(0, stride, unit):
                        row[k:k + unit] = row[k:k + unit][::-1]
                if not msb_bit:
                    row = bytearray(int("{:08b}".format(b)[::-1], 2) for b in row)
                bits = int.from_bytes(row, "big")
                rows.append(tuple((bits >> (stride * 8 - 1 - c)) & 1 for c in range(width)))
            glyphs.append(rows)
        return glyphs

    def _read_encoding(self):
        _fmt, order, p = self._table(_ENCODINGS)
        min2, max2, min1, max1, _default = struct.unpack_from(order + "5h", self._data, p)
        columns = max2 - min2 + 1
        total = columns * (max1 - min1 + 1)
        indices = struct.unpack_from(order + "%dH" % total, self._data, p + 10)
        return {(min1 + k // columns) * 256 + min2 + k % columns: g
                for k, g in enumerate(indices) if g != 0xFFFF}

    @property
    def cell_width(self):
        return max(m[2] for m in self._metrics)

    def has(self, code):
        return code in self._encoding

    def cell(self, code):
        """The glyph as a list of rows of 0/1, cell_width wide and ascent+descent high."""
        index = self._encoding[code]
        lsb, rsb, _adv, asc, _desc = self._metrics[index]
        rows = self._bitmaps[index]
        width = self.cell_width
        if lsb < 0 or rsb > width or asc > self.ascent:
            raise ValueError("glyph U+%04X does not fit the %dx%d cell"
                             % (code, width, self.ascent + self.descent))
        out = []
        for y in range(self.ascent + self.descent):
            gy = y - (self.ascent - asc)
            line = [0] * width
            if 0 <= gy < len(rows):
                for gx, bit in enumerate(rows[gy]):
                    line[lsb + gx] = bit
            out.append(line)
        return out


def load(path):
    raw = Path(path).read_bytes()
    data = gzip.decompress(raw) if str(path).endswith(".gz") else raw
    return PcfFont(data), hashlib.sha256(data).hexdigest()


def ranges(codes):
    """Runs of consecutive code points as (first, last, index of first glyph)."""
    out = []
    for index, code in enumerate(codes):
        if out and out[-1][1] == code - 1:
            out[-1][1] = code
        else:
            out.append([code, code, index])
    return [tuple(r) for r in out]


def glyph_bytes(rows):
    """One MONO_HLSB byte per row: bit 7 is the leftmost pixel."""
    return bytes(sum(bit << (7 - x) for x, bit in enumerate(row)) for row in rows)


def render(font, digest, source_name):
    width, height = font.cell_width, font.ascent + font.descent
    if width > 8:
        raise ValueError("cells wider than 8 pixels need more than one byte per row")
    missing = [c for c in CODE_POINTS if not font.has(c)]
    if missing:
        raise ValueError("the source font lacks " + ", ".join("U+%04X" % c for c in missing))
    codes = sorted(CODE_POINTS)
    lines = [
        '"""GENERATED by tools/make_font.py: do not edit; run `python tools/make_font.py`.',
        "",
        "Source: %s from Debian package xfonts-base," % source_name,
        "XLFD %s," % font.properties.get("FONT", "?"),
        "sha256 of the uncompressed font %s." % digest,
        "Its copyright notice: %s" % font.properties.get("COPYRIGHT", "none"),
        "",
        "Each glyph is HEIGHT bytes in framebuf MONO_HLSB layout (one byte per pixel row, bit 7",
        "leftmost); glyph i starts at GLYPHS[i * HEIGHT]. RANGES maps code points to glyph",
        "indices: a flat tuple of (first code point, last code point, index of the first).",
        '"""',
        "",
        "WIDTH = %d" % width,
        "HEIGHT = %d" % height,
        "RANGES = (",
    ]
    for first, last, index in ranges(codes):
        lines.append("    0x%04X, 0x%04X, %d," % (first, last, index))
    lines.append(")")
    lines.append("FALLBACK = %d  # '?'" % codes.index(FALLBACK))
    lines.append("GLYPHS = (")
    for code in codes:
        data = glyph_bytes(font.cell(code))
        literal = "".join("\\x%02x" % b for b in data)
        name = "space" if code == 0x20 else chr(code)
        lines.append("    b'%s'  # U+%04X %s" % (literal, code, name))
    lines.append(")")
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if --out differs from what the generator makes")
    args = parser.parse_args(argv)
    if not args.source.exists():
        print("make_font: %s not found; %s" % (args.source, INSTALL_HINT), file=sys.stderr)
        return 2
    font, digest = load(args.source)
    text = render(font, digest, args.source.name)
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print("make_font: %s is out of date; run tools/make_font.py" % args.out,
                  file=sys.stderr)
            return 1
        return 0
    args.out.write_text(text, encoding="utf-8")
    print("make_font: wrote %s (%d glyphs, %d bytes of glyph data)"
          % (args.out, len(CODE_POINTS), len(CODE_POINTS) * (font.ascent + font.descent)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
