"""COBS (Consistent Overhead Byte Stuffing): a packet with no zero byte, so 0x00 can end a frame.

Standard Cheshire-Baker COBS, as the PyPI `cobs` package does it: blocks of at most 254
non-zero bytes, each led by (length + 1); a 0xFF block carries no implied zero, and a final
254-byte block gets no empty block after it. Decoding also accepts that empty block.
"""


def encode(data, delimit=False):
    """The COBS form of data (bytes-like): one byte longer per 254 bytes, never a zero byte;
    with delimit, the frame's 0x00 after it. Made in one bytearray of its exact size (its
    length counted first), the data's blocks copied in through a memoryview: no copy of the
    data, no block of its own, no growing buffer."""
    size = len(data)
    out = bytearray(_encoded_size(data, size) + (1 if delimit else 0))
    view = memoryview(data)
    start = at = 0
    while True:
        end = data.find(b"\x00", start)
        last = end < 0
        if last:
            end = size
        segment = start
        while end - start >= 254:
            out[at] = 0xFF
            out[at + 1:at + 255] = view[start:start + 254]
            at += 255
            start += 254
        if not last or start < end or start == segment:
            out[at] = end - start + 1
            out[at + 1:at + 1 + end - start] = view[start:end]
            at += 1 + end - start
        if last:
            return out
        start = end + 1


def _encoded_size(data, size):
    """The length of `encode(data)`: each zero byte becomes a block's code, one code leads,
    and each run of 254 non-zero bytes adds one, except a last run that ends the data."""
    extra = 1
    start = 0
    while True:
        end = data.find(b"\x00", start)
        last = end < 0
        if last:
            end = size
        run = end - start
        extra += run // 254
        if last:
            return size + extra - (1 if run and run % 254 == 0 else 0)
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
