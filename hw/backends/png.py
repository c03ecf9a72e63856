"""A minimal PNG writer for 1-bit images: display screenshots for docs and tests.

Runs on CPython (deflate-compressed with zlib) and on MicroPython, whose unix port has no
zlib compressor: there the image goes into stored (uncompressed) deflate blocks, which every
PNG reader accepts. Lit pixels are white on black, as on the OLED.
"""

import struct

try:
    import zlib
except ImportError:
    zlib = None

try:
    from binascii import crc32
except ImportError:  # pragma: no cover - both interpreters have binascii.crc32
    from zlib import crc32


def _chunk(kind, body):
    return (struct.pack(">I", len(body)) + kind + body
            + struct.pack(">I", crc32(kind + body) & 0xFFFFFFFF))


def _adler32(data):
    a, b = 1, 0
    for byte in data:
        a = (a + byte) % 65521
        b = (b + a) % 65521
    return (b << 16) | a


def _zlib_stored(data):
    out = bytearray(b"\x78\x01")
    for at in range(0, max(len(data), 1), 65535):
        block = data[at:at + 65535]
        final = 1 if at + 65535 >= len(data) else 0
        out += struct.pack("<BHH", final, len(block), len(block) ^ 0xFFFF) + block
    out += struct.pack(">I", _adler32(data))
    return bytes(out)


def encode(width, height, pixel, scale=1):
    """PNG bytes of a width x height image where pixel(x, y) is truthy for a lit pixel,
    each image pixel drawn as a scale x scale square."""
    w, h = width * scale, height * scale
    raw = bytearray()
    row_bytes = (w + 7) // 8
    for y in range(height):
        row = bytearray(row_bytes)
        for x in range(width):
            if pixel(x, y):
                for k in range(x * scale, x * scale + scale):
                    row[k >> 3] |= 0x80 >> (k & 7)
        for _ in range(scale):
            raw.append(0)  # filter type: none
            raw += row
    raw = bytes(raw)
    body = zlib.compress(raw, 9) if zlib is not None else _zlib_stored(raw)
    header = struct.pack(">IIBBBBB", w, h, 1, 0, 0, 0, 0)  # 1-bit greyscale
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", body) + \
        _chunk(b"IEND", b"")
