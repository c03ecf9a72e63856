"""A small CBOR (RFC 8949) encoder and strict decoder for the link and the journal.

The board has no cbor2, so the terminal carries this; the host uses cbor2 and the tests check
that both give the same bytes. Supported: ints in the 64-bit range (either sign), bytes
(bytearray encodes as bytes), str, list/tuple (decoded as list), dict, True/False/None, float;
and `Raw`, an item encoded already (encoding only).

Encoding is deterministic and equals `cbor2.dumps(obj, canonical=True)`: shortest heads,
definite lengths, map keys ordered by their encoded bytes (shorter first, then bytewise), floats
in the shortest of float16/32/64 that holds the value exactly (NaN as f97e00). Because of this
the host can re-encode a decoded message and get the bytes the device signed.

Decoding accepts any head width but rejects, with a ValueError starting "cbor:", truncated
input, trailing bytes, indefinite lengths, tags, simple values other than false/true/null,
nesting deeper than 16 levels, lengths beyond the remaining input (checked before anything is
allocated), duplicate or unhashable map keys and invalid UTF-8 (MicroPython's own UTF-8 check is
laxer than CPython's: it lets encoded surrogates and overlong forms through).
"""

from struct import pack, unpack

from terminal import const

_MAX_DEPTH = const(16)
_FLOATS = const(((0xF9, ">e"), (0xFA, ">f"), (0xFB, ">d")))  # float16/32/64: head, format


# Every item of a record passes through `_head` and `_encode`: each is kept small enough that
# MicroPython makes its call frame on the C stack. A function whose state (arguments, locals,
# the deepest expression) is above 11 words gets its frame from the heap at every call, which
# cost more than the encoding itself (~3,500 instructions on the unix port each, the
# allocator's search for a free run). The rarer cases go to the larger functions below them.


def _head(kind, n, out):
    """Append the initial byte(s) of an item to out: major type `kind` and unsigned argument
    n, shortest."""
    if n < 24:
        out.append(kind << 5 | n)
    else:
        _long_head(kind, n, out)


def _long_head(kind, n, out):
    """_head of an argument of 24 or more: it follows in 1, 2, 4 or 8 bytes."""
    for extra in (24, 25, 26, 27):
        width = 1 << (extra - 24)
        if n < 1 << (8 * width):
            out.append(kind << 5 | extra)
            out.extend(n.to_bytes(width, "big"))
            return
    raise ValueError("cbor: integer outside the 64-bit range")


def _encode(value, out, level):
    """Append the canonical bytes of value, nested `level` deep, to the bytearray out (a
    byte at a time where it can: an object per head, as before, made a record's encoding
    ~1.6 KB of garbage on the board). Ints and texts, most of a record, here; the rest in
    `_encode_other`."""
    if level > _MAX_DEPTH:
        raise ValueError("cbor: nesting deeper than %d" % _MAX_DEPTH)
    if value is None or value is True or value is False:
        out.append(0xF6 if value is None else 0xF5 if value else 0xF4)
    elif isinstance(value, int):
        if value >= 0:
            _head(0, value, out)
        else:
            _head(1, -1 - value, out)
    elif isinstance(value, str):
        raw = value.encode("utf-8")
        _head(3, len(raw), out)
        out.extend(raw)
    else:
        _encode_other(value, out, level)


def _encode_other(value, out, level):
    """_encode of bytes, arrays, maps, Raw and floats (and the refusal of anything else)."""
    if isinstance(value, (bytes, bytearray)):
        _head(2, len(value), out)
        out.extend(value)
    elif isinstance(value, (list, tuple)):
        _head(4, len(value), out)
        for item in value:
            _encode(item, out, level + 1)
    elif isinstance(value, dict):
        _head(5, len(value), out)
        texts, pairs = _ordered_keys(value, level)
        for _, raw, key in pairs:
            if texts:
                _head(3, len(raw), out)
            out.extend(raw)
            _encode(value[key], out, level + 1)
    elif isinstance(value, Raw):
        out.extend(value.data)
    elif isinstance(value, float):
        if value != value:
            out.extend(b"\xf9\x7e\x00")  # NaN
            return
        for ib, fmt in _FLOATS:  # the shortest of float16/32/64 that holds it exactly
            try:
                raw = pack(fmt, value)
            except (OverflowError, ValueError):  # CPython: out of float16 range
                continue
            if unpack(fmt, raw)[0] == value:
                out.append(ib)
                out.extend(raw)
                return
        raise ValueError("cbor: float %r does not fit float64" % (value,))
    else:
        raise ValueError("cbor: cannot encode %s" % type(value).__name__)


def _ordered_keys(value, level):
    """(texts, [(length, raw, key)]): the keys of the dict `value` in canonical order, by
    their encoding, shorter first, then bytewise (no two keys of a dict encode alike, so the
    keys themselves are never compared). When every key is a str (texts True), as in every
    record the terminal makes, raw is the key's UTF-8 alone: that order is the UTF-8's (its
    length, then its bytes; the heads of two keys of one length are equal), without making
    each key's encoding; otherwise raw is the key's whole encoding."""
    pairs = []
    for key in value:
        if not isinstance(key, str):
            break
        raw = key.encode("utf-8")
        pairs.append((len(raw), raw, key))
    else:
        pairs.sort()
        return True, pairs
    pairs = []
    for key in value:
        raw = bytearray()
        _encode(key, raw, level + 1)
        pairs.append((len(raw), bytes(raw), key))
    pairs.sort()
    return False, pairs


class Raw:
    """An item given as its canonical CBOR bytes, which `encode` copies as they stand: a pull
    answers with records read from the journal, already encoded there, without decoding and
    re-encoding each (terminal.link.Link.pull)."""

    def __init__(self, data):
        self.data = data


def raw_array(count, items):
    """The Raw array of `count` items given as their encodings one after the other."""
    out = bytearray()
    _head(4, count, out)
    out.extend(items)
    return Raw(out)


def encode(value):
    """The canonical CBOR bytes of value (ValueError for what CBOR here cannot carry)."""
    return bytes(encode_into(value, bytearray()))


def encode_into(value, out):
    """Append the canonical CBOR bytes of value to the bytearray out and return out: a
    record's items go into one buffer (terminal.journal), not one bytes each joined."""
    _encode(value, out, 0)
    return out


def decode(data, items=None):
    """The one object encoded in data (bytes-like); ValueError "cbor: ..." if it is not exact.
    items: at most this many items in all (a bound on the heap the decoded object takes: a
    16 KB file of one-byte items would be a list of 16,000)."""
    if not isinstance(data, bytes):
        data = bytes(data)
    obj, end = _item(data, 0, 0, None if items is None else [items])
    if end != len(data):
        raise ValueError("cbor: %d trailing bytes" % (len(data) - end))
    return obj


def _item(b, i, level, count=None):
    """Decode the item at b[i], nested `level` deep; return (object, index after it).
    count: [items still allowed], or None for no bound."""
    if level > _MAX_DEPTH:
        raise ValueError("cbor: nesting deeper than %d" % _MAX_DEPTH)
    if count is not None:
        count[0] -= 1
        if count[0] < 0:
            raise ValueError("cbor: more items than allowed")
    size = len(b)
    if i >= size:
        raise ValueError("cbor: truncated")
    ib = b[i]
    major = ib >> 5
    n = ib & 31
    i += 1
    if major == 7:  # simple values and floats
        if n == 20:
            return False, i
        if n == 21:
            return True, i
        if n == 22:
            return None, i
        if 25 <= n <= 27:
            width = 1 << (n - 24)
            if i + width > size:
                raise ValueError("cbor: truncated")
            return unpack(_FLOATS[n - 25][1], b[i:i + width])[0], i + width
        raise ValueError("cbor: unsupported simple value %d" % n)
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
    if count is not None and n > count[0]:  # before the list or map is made
        raise ValueError("cbor: more items than allowed")
    if major == 4:
        if n > size - i:  # every item takes at least one byte
            raise ValueError("cbor: array length %d beyond the input" % n)
        items = []
        for _ in range(n):
            item, i = _item(b, i, level + 1, count)
            items.append(item)
        return items, i
    if n > (size - i) // 2:
        raise ValueError("cbor: map length %d beyond the input" % n)
    result = {}
    kinds = 0  # 1: a text key seen, 2: a byte-string key seen
    for _ in range(n):
        key, i = _item(b, i, level + 1, count)
        if isinstance(key, (list, dict)):
            raise ValueError("cbor: map key of type %s" % type(key).__name__)
        # MicroPython compares the keys of a small map one by one and warns on stderr (the
        # link, on the board) at each byte string compared with text: never mixed here
        kinds |= 1 if isinstance(key, str) else 2 if isinstance(key, bytes) else 0
        if kinds == 3:
            raise ValueError("cbor: a map mixes text and byte-string keys")
        if key in result:
            raise ValueError("cbor: duplicate map key %r" % (key,))
        result[key], i = _item(b, i, level + 1, count)
    return result, i
