"""A small CBOR (RFC 8949) encoder and strict decoder for the link and the journal.

The board has no cbor2, so the terminal carries this; the host uses cbor2 and the tests check
that both give the same bytes. Supported: ints in the 64-bit range (either sign), bytes
(bytearray encodes as bytes), str, list/tuple (decoded as list), dict, True/False/None, float.

Encoding is deterministic and equals `cbor2.dumps(obj, canonical=True)`: shortest heads,
definite lengths, map keys ordered by their encoded bytes (shorter first, then bytewise), floats
in the shortest of float16/32/64 that holds the value exactly (NaN as f97e00). Because of this
the host can re-encode a decoded message and get the bytes the device signed.

Decoding accepts any head width but rejects, with a ValueError starting "cbor:", truncated
input, trailing bytes, indefinite lengths, tags, simple values other than false/true/null,
nesting deeper than MAX_DEPTH, lengths beyond the remaining input (checked before anything is
allocated), duplicate or unhashable map keys and invalid UTF-8 (MicroPython's own UTF-8 check is
laxer than CPython's: it lets encoded surrogates and overlong forms through).
"""

from struct import pack, unpack

MAX_DEPTH = 16
_FLOAT_FORMATS = ((0xF9, ">e"), (0xFA, ">f"), (0xFB, ">d"))


def _head(major, n):
    """The initial byte(s) of an item: major type and unsigned argument, shortest form."""
    mt = major << 5
    if n < 24:
        return bytes((mt | n,))
    if n < 0x100:
        return bytes((mt | 24, n))
    if n < 0x10000:
        return pack(">BH", mt | 25, n)
    if n < 0x100000000:
        return pack(">BI", mt | 26, n)
    if n < 0x10000000000000000:
        return pack(">BQ", mt | 27, n)
    raise ValueError("cbor: integer outside the 64-bit range")


def _float(x):
    if x != x:
        return b"\xf9\x7e\x00"
    for ib, fmt in _FLOAT_FORMATS:
        try:
            raw = pack(fmt, x)
        except (OverflowError, ValueError):  # CPython: out of float16 range
            continue
        if unpack(fmt, raw)[0] == x:
            return bytes((ib,)) + raw
    raise ValueError("cbor: float %r does not fit float64" % (x,))


def _encode(obj, out, depth):
    if depth > MAX_DEPTH:
        raise ValueError("cbor: nesting deeper than %d" % MAX_DEPTH)
    if obj is None:
        out.append(b"\xf6")
    elif obj is True:
        out.append(b"\xf5")
    elif obj is False:
        out.append(b"\xf4")
    elif isinstance(obj, int):
        out.append(_head(0, obj) if obj >= 0 else _head(1, -1 - obj))
    elif isinstance(obj, str):
        raw = obj.encode("utf-8")
        out.append(_head(3, len(raw)))
        out.append(raw)
    elif isinstance(obj, (bytes, bytearray)):
        out.append(_head(2, len(obj)))
        out.append(bytes(obj))
    elif isinstance(obj, (list, tuple)):
        out.append(_head(4, len(obj)))
        for item in obj:
            _encode(item, out, depth + 1)
    elif isinstance(obj, dict):
        pairs = []
        for key in obj:
            pairs.append((_encoded(key, depth + 1), key))
        pairs.sort(key=lambda p: (len(p[0]), p[0]))
        out.append(_head(5, len(pairs)))
        for raw, key in pairs:
            out.append(raw)
            _encode(obj[key], out, depth + 1)
    elif isinstance(obj, float):
        out.append(_float(obj))
    else:
        raise ValueError("cbor: cannot encode %s" % type(obj).__name__)


def _encoded(obj, depth):
    out = []
    _encode(obj, out, depth)
    return b"".join(out)


def encode(obj):
    """The canonical CBOR bytes of obj (ValueError for what CBOR here cannot carry)."""
    return _encoded(obj, 0)


def decode(data):
    """The one object encoded in data (bytes-like); ValueError "cbor: ..." if it is not exact."""
    if not isinstance(data, bytes):
        data = bytes(data)
    obj, end = _item(data, 0, 0)
    if end != len(data):
        raise ValueError("cbor: %d trailing bytes" % (len(data) - end))
    return obj


def _item(b, i, depth):
    """Decode the item at b[i]; return (object, index after it)."""
    if depth > MAX_DEPTH:
        raise ValueError("cbor: nesting deeper than %d" % MAX_DEPTH)
    size = len(b)
    if i >= size:
        raise ValueError("cbor: truncated")
    ib = b[i]
    major = ib >> 5
    n = ib & 31
    i += 1
    if major == 7:
        return _simple(b, i, n)
    if n >= 24:
        if n > 27:
            raise ValueError("cbor: indefinite length or reserved head 0x%02x" % ib)
        width = 1 << (n - 24)
        if i + width > size:
            raise ValueError("cbor: truncated")
        n = int.from_bytes(b[i:i + width], "big")
        i += width
    if major == 0:
        return n, i
    if major == 1:
        return -1 - n, i
    if major == 6:
        raise ValueError("cbor: tags are not supported (tag %d)" % n)
    if major < 4:
        if n > size - i:
            raise ValueError("cbor: string length %d beyond the input" % n)
        raw = b[i:i + n]
        if major == 2:
            return raw, i + n
        try:
            return str(raw, "utf-8"), i + n
        except UnicodeError:
            raise ValueError("cbor: invalid UTF-8 in a text string") from None
    if major == 4:
        if n > size - i:  # every item takes at least one byte
            raise ValueError("cbor: array length %d beyond the input" % n)
        items = []
        for _ in range(n):
            item, i = _item(b, i, depth + 1)
            items.append(item)
        return items, i
    if n > (size - i) // 2:
        raise ValueError("cbor: map length %d beyond the input" % n)
    result = {}
    for _ in range(n):
        key, i = _item(b, i, depth + 1)
        if isinstance(key, (list, dict)):
            raise ValueError("cbor: map key of type %s" % type(key).__name__)
        if key in result:
            raise ValueError("cbor: duplicate map key %r" % (key,))
        result[key], i = _item(b, i, depth + 1)
    return result, i


def _simple(b, i, n):
    if n == 20:
        return False, i
    if n == 21:
        return True, i
    if n == 22:
        return None, i
    if 25 <= n <= 27:
        width = 1 << (n - 24)
        if i + width > len(b):
            raise ValueError("cbor: truncated")
        return unpack(_FLOAT_FORMATS[n - 25][1], b[i:i + width])[0], i + width
    raise ValueError("cbor: unsupported simple value %d" % n)
