"""Helpers for the hw/ tests: hw importable in-process, hw_runner.py on both interpreters."""

import json

from conftest import ROOT, run_device  # noqa: F401  (re-exported for the hw tests)

_cache = {}


def run_scenario(name, interpreter):
    """hw_runner.py's JSON for one scenario (run once per interpreter per session)."""
    if (name, interpreter) not in _cache:
        proc = run_device(["tests/hw_runner.py", name], interpreter=interpreter, timeout=60)
        assert proc.returncode == 0, proc.stderr.decode()
        _cache[name, interpreter] = json.loads(proc.stdout)
    return _cache[name, interpreter]


def decode_png(data):
    """(width, height, rows of 0/1) of a 1-bit greyscale PNG, checking every chunk CRC;
    independent of hw.backends.png, so a test can read back what it wrote."""
    import struct
    import zlib

    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    at, idat, header = 8, b"", None
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert zlib.crc32(kind + body) == crc, "bad CRC in %r" % kind
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour, _c, _f, interlace = header
    assert (depth, colour, interlace) == (1, 0, 0)
    raw = zlib.decompress(idat)
    stride = (width + 7) // 8
    rows = []
    for y in range(height):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        assert line[0] == 0, "filter type %d" % line[0]
        rows.append([(line[1 + x // 8] >> (7 - x % 8)) & 1 for x in range(width)])
    return width, height, rows
