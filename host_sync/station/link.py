"""The host's end of the frame layer (docs/PROTOCOL.md sections 2-3): byte for byte the device's.

frame = COBS(CBOR payload + CRC32 little-endian) + 0x00, CBOR by cbor2 in canonical mode (the
device's encoder is canonical too), so a message re-encoded here has the bytes the device
signed. Every way a frame can be bad has a short reason code, counted by `FrameReader` and
named in the log: the station reports what it refused and why, and nothing refused goes further.
"""

import hashlib
import hmac
import io
import zlib
from collections import Counter
from struct import pack, unpack

import cbor2

MAX_PAYLOAD = 1024
MAX_ENCODED = (MAX_PAYLOAD + 4) + (MAX_PAYLOAD + 4) // 254 + 1
TAG_SIZE = 32
DELIMITER = b"\x00"


class FrameError(ValueError):
    """A frame or message refused; `code` is the counter name, the text says why."""

    def __init__(self, code, text):
        ValueError.__init__(self, "%s: %s" % (code, text))
        self.code = code


# -- COBS ------------------------------------------------------------------------------------

def cobs_encode(data):
    """Standard COBS (blocks of up to 254 non-zero bytes led by length + 1); no empty block
    after a final full run, as the `cobs` package and the device do."""
    out = bytearray()
    parts = bytes(data).split(b"\x00")
    last = len(parts) - 1
    for n, part in enumerate(parts):
        full = False
        while len(part) >= 254:
            out.append(0xFF)
            out += part[:254]
            part = part[254:]
            full = True
        if n < last or part or not full:
            out.append(len(part) + 1)
            out += part
    return bytes(out)


def cobs_decode(data):
    if not data:
        raise FrameError("cobs", "empty packet")
    if b"\x00" in data:
        raise FrameError("cobs", "zero byte inside a packet")
    out = bytearray()
    i, size = 0, len(data)
    while i < size:
        code = data[i]
        end = i + code
        if end > size:
            raise FrameError("cobs", "block at %d runs %d bytes past the end" % (i, end - size))
        out += data[i + 1:end]
        i = end
        if code < 0xFF and i < size:
            out.append(0)
    return bytes(out)


# -- CBOR ------------------------------------------------------------------------------------

def cbor_encode(obj):
    return cbor2.dumps(obj, canonical=True)


_LEAVES = frozenset((type(None), bool, int, float, str, bytes))


def _plain(obj, depth=0):
    """Raise FrameError unless obj is made only of the CBOR subset of PROTOCOL.md section 1.
    A leaf is told by its exact type, checked where it lies, so only containers cost a call
    (a pull's batch holds some 500 leaves in 60 records)."""
    if type(obj) is list:
        items = obj
    elif type(obj) is dict:
        items = [x for pair in obj.items() for x in pair]
    elif type(obj) in _LEAVES:
        return
    else:
        raise FrameError("cbor", "%s is outside the protocol's CBOR subset" % type(obj).__name__)
    if items and depth >= 16:  # its items lie 17 deep
        raise FrameError("cbor", "nesting deeper than 16")
    for x in items:
        if type(x) not in _LEAVES:
            _plain(x, depth + 1)


def cbor_decode(payload):
    """One item of the protocol's subset in canonical form, nothing after it."""
    try:
        obj, rest = _decode_one(payload)
    except (cbor2.CBORDecodeError, ValueError, TypeError, RecursionError) as e:
        if isinstance(e, FrameError):
            raise
        raise FrameError("cbor", str(e) or type(e).__name__)
    if rest:
        raise FrameError("cbor", "%d trailing bytes" % rest)
    _plain(obj)
    if cbor_encode(obj) != payload:  # the device only writes canonical CBOR (PROTOCOL.md 1)
        raise FrameError("cbor", "not canonical (indefinite length, long head or key order)")
    return obj


def _decode_one(payload):
    stream = io.BytesIO(payload)
    obj = cbor2.CBORDecoder(stream, tag_hook=_no_tags).decode()
    return obj, len(payload) - stream.tell()


def _no_tags(decoder, tag):
    raise FrameError("cbor", "tag %d is not allowed" % tag.tag)


# -- frames ----------------------------------------------------------------------------------

def frame_cbor(payload):
    if len(payload) > MAX_PAYLOAD:
        raise FrameError("oversize", "%d bytes of CBOR, at most %d" % (len(payload), MAX_PAYLOAD))
    return cobs_encode(payload + pack("<I", zlib.crc32(payload))) + DELIMITER


def encode_frame(obj):
    """The frame (delimiter included) carrying obj."""
    return frame_cbor(cbor_encode(obj))


def decode_frame(raw):
    """The object in one frame given without its delimiter; FrameError if it is bad."""
    if len(raw) > MAX_ENCODED:
        raise FrameError("oversize", "%d encoded bytes, at most %d" % (len(raw), MAX_ENCODED))
    body = cobs_decode(raw)
    if len(body) < 5:
        raise FrameError("short", "%d bytes" % len(body))
    payload = body[:-4]
    if unpack("<I", body[-4:])[0] != zlib.crc32(payload):
        raise FrameError("crc", "checksum mismatch")
    return cbor_decode(payload)


class FrameReader:
    """Cuts a byte stream into decoded messages; bad frames are counted by reason, not raised."""

    def __init__(self, on_refused=None):
        self._buf = bytearray()
        self._skip = False
        self.refused = Counter()
        self.on_refused = on_refused  # called with each FrameError, e.g. to log it

    def feed(self, data):
        """The messages completed by data, in order."""
        out = []
        parts = bytes(data).split(DELIMITER)
        for n, part in enumerate(parts):
            if not self._skip:
                if len(self._buf) + len(part) > MAX_ENCODED:
                    self._skip = True
                    self._buf = bytearray()
                else:
                    self._buf += part
            if n == len(parts) - 1:
                break  # no delimiter after this part yet
            if self._skip:
                self._skip = False
                self.refuse(FrameError("oversize", "no delimiter within %d bytes" % MAX_ENCODED))
            elif self._buf:
                raw, self._buf = bytes(self._buf), bytearray()
                try:
                    out.append(decode_frame(raw))
                except FrameError as e:
                    self.refuse(e)
        return out

    def refuse(self, error):
        """Count a refusal (also for well-formed frames whose content is refused later)."""
        self.refused[error.code] += 1
        if self.on_refused:
            self.on_refused(error)


# -- tags ------------------------------------------------------------------------------------

def record_tag(key, terminal_id, seq, kind, data):
    """HMAC-SHA256(key, cbor([terminal_id, seq, kind, data])) of a journal record."""
    return hmac.new(key, cbor_encode([terminal_id, seq, kind, data]), hashlib.sha256).digest()


def check_record(key, terminal_id, record):
    """(seq, kind, data) of a record array [seq, kind, data, tag]; FrameError if refused."""
    if not (isinstance(record, list) and len(record) == 4):
        raise FrameError("type", "a record is a 4-item array, not %r" % (_short(record),))
    seq, kind, data, tag = record
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
        raise FrameError("type", "record seq must be a positive int, not %r" % (_short(seq),))
    if not isinstance(kind, str) or not kind:
        raise FrameError("type", "record %d: kind must be non-empty text" % seq)
    if not isinstance(tag, bytes) or len(tag) != TAG_SIZE:
        raise FrameError("type", "record %d: tag must be %d bytes" % (seq, TAG_SIZE))
    if not hmac.compare_digest(record_tag(key, terminal_id, seq, kind, data), tag):
        raise FrameError("hmac", "record %d of %s: tag does not verify" % (seq, terminal_id))
    return seq, kind, data


def batch_record(record, prev):
    """(seq, kind, data) of a record as a pull batch carries it: [kind, data] for the seq
    after prev (the batch's previous record, or its p), [seq, kind, data] after a gap (its
    authenticity is the batch's tag); FrameError("type") if it is neither."""
    if isinstance(record, list) and len(record) == 2:
        record = [prev + 1] + record
    if not (isinstance(record, list) and len(record) == 3):
        raise FrameError("type", "a record is a 2- or 3-item array, not %s" % shown(
            _short(record)))
    seq, kind, data = record
    if isinstance(seq, bool) or not isinstance(seq, int) or seq <= prev:
        raise FrameError("type", "record seq must be an int above %d, not %s" % (
            prev, shown(_short(seq))))
    if not isinstance(kind, str) or not kind:
        raise FrameError("type", "record %d: kind must be non-empty text" % seq)
    return seq, kind, data


def message_tag(key, nonce, message, name="h"):
    """The tag `h` of a session message: HMAC-SHA256(key, nonce + cbor(message without h));
    with name="pt" and the pairing code as the key, a `register`'s proof of the code."""
    body = {k: v for k, v in message.items() if k != name}
    return hmac.new(key, nonce + cbor_encode(body), hashlib.sha256).digest()


CODE_DIGITS = 6  # the pairing code the terminal shows (terminal.pairing)


def code_ok(code):
    """Whether code is a pairing code as the terminal's screen shows it: 6 digits."""
    return isinstance(code, str) and len(code) == CODE_DIGITS and code.isascii() and \
        code.isdigit()


def sign(key, nonce, message):
    """message with its tag `h` added (a new dict)."""
    out = dict(message)
    out["h"] = message_tag(key, nonce, message)
    return out


def check_signed(key, nonce, message):
    tag = message.get("h")
    if not isinstance(tag, bytes) or not hmac.compare_digest(
            message_tag(key, nonce, message), tag):
        raise FrameError("hmac", "%s message: tag does not verify" % message.get("m"))


MAX_IDENT = 32  # as the terminal's keystore (device/terminal/keystore.py)
_IDENT_CHARS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_.:")


def ident_ok(ident):
    """Whether ident is a terminal identity (terminal.keystore.ident_ok): 1 to 32 letters,
    digits or -_.:, so that it reaches no console or report with a control character in it."""
    return isinstance(ident, str) and 0 < len(ident) <= MAX_IDENT and set(ident) <= _IDENT_CHARS


def shown(text, limit=200):
    """text as it may be shown on a console or in a log: control characters (escape codes,
    newlines) as Python escapes, cut to `limit` characters. For anything a terminal sent."""
    text = str(text)
    out = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[:limit])
    return out if len(text) <= limit else out + "..."


def event_fingerprint(event_key):
    """The event's public name on the link: 16 hex digits of sha256 of its secret."""
    return hashlib.sha256(event_key).hexdigest()[:16]


def _short(value):
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
