"""A pure-Python subset of MicroPython's `framebuf`, for CPython where the C module is missing.

Only what hw/ and the screens use: the 1-bit formats MONO_VLSB, MONO_HLSB and MONO_HMSB, and
fill, fill_rect, pixel, hline, vline, rect, line and blit (with key and palette, and a
(buffer, width, height, format[, stride]) tuple as source). Each operation follows
extmod/modframebuf.c step by step, so the same drawing calls give byte-identical buffers;
tests/test_hw_display.py checks that against the real module under `micropython`.
Import it only through `hw.display.framebuf`, which picks the real module when there is one.
"""

MONO_VLSB = 0
MVLSB = 0
MONO_HLSB = 3
MONO_HMSB = 4
_FORMATS = (MONO_VLSB, MONO_HLSB, MONO_HMSB)


class FrameBuffer:
    def __init__(self, buf, width, height, fmt, stride=None):
        if fmt not in _FORMATS:
            raise ValueError("format %r is not in the pure-Python framebuf subset" % (fmt,))
        if isinstance(buf, (bytes, str)) or not hasattr(buf, "__len__"):
            raise TypeError("object with buffer protocol required")
        self._buf = memoryview(buf).cast("B") if not isinstance(buf, bytearray) else buf
        self._width = width
        self._height = height
        self._format = fmt
        stride = width if stride is None else stride
        self._stride = (stride + 7) & ~7 if fmt != MONO_VLSB else stride

    # pixel access, one function per layout as in modframebuf.c
    def _index(self, x, y):
        if self._format == MONO_VLSB:
            return (y >> 3) * self._stride + x, y & 7
        offset = x & 7 if self._format == MONO_HMSB else 7 - (x & 7)
        return (x + y * self._stride) >> 3, offset

    def _set(self, x, y, col):
        index, offset = self._index(x, y)
        b = self._buf
        b[index] = (b[index] & ~(1 << offset) & 0xFF) | ((col != 0) << offset)

    def _get(self, x, y):
        index, offset = self._index(x, y)
        return (self._buf[index] >> offset) & 1

    def _fill_rect(self, x, y, w, h, col):
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self._height or x >= self._width:
            return
        xend = min(self._width, x + w)
        yend = min(self._height, y + h)
        x = max(x, 0)
        y = max(y, 0)
        for yy in range(y, yend):
            for xx in range(x, xend):
                self._set(xx, yy, col)

    def fill(self, col):
        self._fill_rect(0, 0, self._width, self._height, col)

    def fill_rect(self, x, y, w, h, col):
        self._fill_rect(x, y, w, h, col)

    def pixel(self, x, y, col=None):
        if 0 <= x < self._width and 0 <= y < self._height:
            if col is None:
                return self._get(x, y)
            self._set(x, y, col)
        return None

    def hline(self, x, y, w, col):
        self._fill_rect(x, y, w, 1, col)

    def vline(self, x, y, h, col):
        self._fill_rect(x, y, 1, h, col)

    def rect(self, x, y, w, h, col, fill=False):
        if fill:
            self._fill_rect(x, y, w, h, col)
            return
        self._fill_rect(x, y, w, 1, col)
        self._fill_rect(x, y + h - 1, w, 1, col)
        self._fill_rect(x, y, 1, h, col)
        self._fill_rect(x + w - 1, y, 1, h, col)

    def line(self, x1, y1, x2, y2, col):
        dx, sx = (x2 - x1, 1) if x2 - x1 > 0 else (x1 - x2, -1)
        dy, sy = (y2 - y1, 1) if y2 - y1 > 0 else (y1 - y2, -1)
        steep = dy > dx
        if steep:
            x1, y1, dx, dy, sx, sy = y1, x1, dy, dx, sy, sx
        e = 2 * dy - dx
        for _ in range(dx):
            px, py = (y1, x1) if steep else (x1, y1)
            if 0 <= px < self._width and 0 <= py < self._height:
                self._set(px, py, col)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        if 0 <= x2 < self._width and 0 <= y2 < self._height:
            self._set(x2, y2, col)

    def blit(self, source, x, y, key=-1, palette=None):
        source = _as_framebuffer(source)
        palette = None if palette is None else _as_framebuffer(palette)
        if x >= self._width or y >= self._height or -x >= source._width or -y >= source._height:
            return
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = max(0, -x), max(0, -y)
        x0end = min(self._width, x + source._width)
        y0end = min(self._height, y + source._height)
        for dy in range(y0end - y0):
            for dx in range(x0end - x0):
                col = source._get(x1 + dx, y1 + dy)
                if palette is not None:
                    col = palette._get(col, 0)
                if col != key:
                    self._set(x0 + dx, y0 + dy, col)


class _ReadOnly(FrameBuffer):
    """A blit source over a read-only buffer, as framebuf accepts a tuple for one."""

    def __init__(self, buf, width, height, fmt, stride=None):
        FrameBuffer.__init__(self, bytearray(0), width, height, fmt, stride)
        self._buf = memoryview(buf).cast("B")


def _as_framebuffer(obj):
    if isinstance(obj, FrameBuffer):
        return obj
    if isinstance(obj, (tuple, list)) and len(obj) in (4, 5):
        return _ReadOnly(*obj)
    raise TypeError("blit source must be a FrameBuffer or (buffer, width, height, format)")
