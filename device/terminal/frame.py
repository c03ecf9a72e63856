"""Frames: the unit of the serial link and of the journal file.

frame = COBS(cbor payload + CRC32 of the payload, 4 bytes little-endian) + b"\\x00".
The 0x00 delimiter lets a reader resynchronise after noise or a torn write: whatever lies
between two zeros is one candidate frame, checked by COBS, CRC and CBOR in that order.
"""

from binascii import crc32

from terminal import cbor, cobs, const

MAX_PAYLOAD = const(1024)  # CBOR bytes in one frame
_MAX_RAW = const(MAX_PAYLOAD + 4)
MAX_ENCODED = const(_MAX_RAW + _MAX_RAW // 254 + 1)  # COBS overhead, delimiter not counted


def frame_cbor(data):
    """The frame (delimiter included, a bytearray) carrying data, already CBOR-encoded."""
    return frame_payload(bytearray(data))


def frame_payload(buf):
    """The frame (delimiter included) carrying the CBOR in the bytearray buf, which is
    spent: its CRC is appended to it, so the payload is never copied (terminal.journal)."""
    if len(buf) > MAX_PAYLOAD:
        raise ValueError("frame: oversize: %d bytes of CBOR, at most %d" % (
            len(buf), MAX_PAYLOAD))
    crc = crc32(buf) & 0xFFFFFFFF
    for _ in range(4):
        buf.append(crc & 0xFF)
        crc >>= 8
    return cobs.encode(buf, True)


def encode_frame(value):
    """The frame carrying value (ValueError if CBOR cannot carry it or it is oversize)."""
    return frame_payload(cbor.encode_into(value, bytearray()))


def decode_frame(raw):
    """The object in one frame given without its delimiter; ValueError "frame: ..." if bad."""
    return decode_payload(unframe(raw))


def unframe(raw):
    """The CBOR payload of one frame given without its delimiter, its size, COBS and CRC
    checked but not decoded; ValueError "frame: ..." if bad."""
    if len(raw) > MAX_ENCODED:
        raise ValueError("frame: oversize: %d encoded bytes, at most %d" % (
            len(raw), MAX_ENCODED))
    try:
        body = cobs.decode(raw)
    except ValueError as e:
        raise ValueError("frame: " + str(e)) from None
    if len(body) < 5:
        raise ValueError("frame: too short (%d bytes)" % len(body))
    payload = body[:-4]
    if int.from_bytes(body[-4:], "little") != crc32(payload) & 0xFFFFFFFF:
        raise ValueError("frame: crc mismatch")
    return payload


def decode_payload(payload):
    """The object a frame's payload encodes; ValueError "frame: cbor: ..." if it is not."""
    try:
        return cbor.decode(payload)
    except ValueError as e:
        raise ValueError("frame: " + str(e)) from None


class FrameReader:
    """Cuts a byte stream fed in arbitrary chunks into decoded messages.

    Bad frames (noise, truncation, oversize) are dropped, counted in `dropped`, with the last
    reason in `error`; the reader carries on at the next delimiter. It never holds more than
    MAX_ENCODED bytes. Empty frames (two zeros in a row) are ignored, so a sender may put a
    zero before a frame to end whatever noise came before it.
    """

    def __init__(self):
        self._buf = bytearray()  # None while discarding an oversize frame up to its delimiter
        self.dropped = 0
        self.error = None

    def partial(self):
        """True while bytes of an unfinished frame are held (at the end of a file: a torn tail)."""
        return self._buf is None or len(self._buf) > 0

    def feed(self, data, raw=False):
        """The messages completed by data (bytes-like), in order, as a list; raw: their
        payloads instead, checked (COBS, CRC) but not decoded (the journal keeps a record's
        bytes beside its object: terminal.journal)."""
        opened = unframe if raw else decode_frame
        data = bytes(data)
        messages = []
        start = 0
        while True:
            end = data.find(b"\x00", start)
            part = data[start:] if end < 0 else data[start:end]
            if self._buf is not None:
                if len(self._buf) + len(part) > MAX_ENCODED:
                    self._buf = None
                else:
                    self._buf += part
            if end < 0:
                return messages
            start = end + 1
            if self._buf is None:
                self._buf = bytearray()
                self.drop("frame: oversize: no delimiter within %d bytes" % MAX_ENCODED)
            elif self._buf:
                raw = bytes(self._buf)
                self._buf = bytearray()
                try:
                    messages.append(opened(raw))
                except ValueError as e:
                    self.drop(str(e))

    def drop(self, reason):
        """Count a bad frame (also for callers that reject a well-formed frame's content)."""
        self.dropped += 1
        self.error = reason
