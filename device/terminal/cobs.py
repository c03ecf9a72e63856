"""COBS (Consistent Overhead Byte Stuffing): a packet with no zero byte, so 0x00 can end a frame.

Standard Cheshire-Baker COBS, as the PyPI `cobs` package does it: blocks of at most 254
non-zero bytes, each led by (length + 1); a 0xFF block carries no implied zero, and a final
254-byte block gets no empty block after it. Decoding also accepts that empty block.
"""


def encode(data):
    """The COBS form of data (bytes-like): one byte longer per 254 bytes, never a zero byte."""
    data = bytes(data)
    out = bytearray()
    start = 0
    size = len(data)
    while True:
        end = data.find(b"\x00", start)
        last = end < 0
        if last:
            end = size
        segment = start
        while end - start >= 254:
            out.append(0xFF)
            out += data[start:start + 254]
            start += 254
        if not last or start < end or start == segment:
            out.append(end - start + 1)
            out += data[start:end]
        if last:
            return bytes(out)
        start = end + 1


def decode(data):
    """The bytes that one COBS packet (no delimiter) encodes; ValueError "cobs: ..." if bad."""
    data = bytes(data)
    size = len(data)
    if not size:
        raise ValueError("cobs: empty packet")
    if data.find(b"\x00") >= 0:
        raise ValueError("cobs: zero byte inside a packet")
    out = bytearray()
    i = 0
    while i < size:
        code = data[i]
        end = i + code
        if end > size:
            raise ValueError("cobs: block at %d runs %d bytes past the end" % (i, end - size))
        out += data[i + 1:end]
        i = end
        if code < 0xFF and i < size:
            out.append(0)
    return bytes(out)
