"""The device's CBOR against cbor2 (the host's): the same bytes, the same objects, strict errors."""

import math
import random

import cbor2
import pytest
from conftest import run_device
from hypothesis import given, settings
from hypothesis import strategies as st
from link_runner import dump  # noqa: E402
from terminal import cbor  # noqa: E402

INTS = st.integers(min_value=-2**64, max_value=2**64 - 1)
SCALARS = st.none() | st.booleans() | INTS | st.binary(max_size=300) | st.text(max_size=300)
# a map's keys are never text and byte strings together (docs/PROTOCOL.md section 1)
TEXT_KEYS = INTS | st.text(max_size=20)
BYTE_KEYS = INTS | st.binary(max_size=20)


def values(floats):
    leaves = SCALARS | floats
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=6)
                        | st.dictionaries(TEXT_KEYS, inner, max_size=6)
                        | st.dictionaries(BYTE_KEYS, inner, max_size=6), max_leaves=30)


ANY_FLOAT = st.floats(allow_nan=True, allow_infinity=True) | st.floats(width=16) \
    | st.floats(width=32)
EQ_FLOAT = st.floats(allow_nan=False, allow_infinity=True) | st.floats(width=16, allow_nan=False)


@settings(max_examples=400, deadline=None)
@given(values(ANY_FLOAT))
def test_encoding_is_byte_exact_with_cbor2_canonical(obj):
    assert cbor.encode(obj) == cbor2.dumps(obj, canonical=True)


@settings(max_examples=400, deadline=None)
@given(values(EQ_FLOAT))
def test_decoding_inverts_cbor2_canonical_and_default(obj):
    assert cbor.decode(cbor2.dumps(obj, canonical=True)) == obj
    # cbor2's default form (float64, maps in insertion order) decodes too, and re-encodes
    # to the canonical bytes: what the host needs to check a tag on a re-encoded message
    assert cbor.decode(cbor2.dumps(obj)) == obj
    assert cbor.encode(cbor.decode(cbor2.dumps(obj))) == cbor2.dumps(obj, canonical=True)


@settings(max_examples=200, deadline=None)
@given(st.lists(values(EQ_FLOAT), max_size=30), values(EQ_FLOAT))
def test_items_encoded_already_go_in_as_they_stand(items, other):
    """A pull's records are sent as the journal holds them (cbor.Raw): the message has the
    bytes it would have with the records decoded and encoded again."""
    raw = cbor.raw_array(len(items), b"".join(cbor.encode(x) for x in items))
    assert cbor.encode({"r": raw, "o": other}) == cbor2.dumps({"r": items, "o": other},
                                                             canonical=True)


@settings(max_examples=300, deadline=None)
@given(values(EQ_FLOAT))
def test_every_truncation_is_refused(obj):
    raw = cbor.encode(obj)
    for cut in range(len(raw)):
        with pytest.raises(ValueError, match="^cbor: "):
            cbor.decode(raw[:cut])


@settings(max_examples=1000, deadline=None)
@given(st.binary(max_size=40) | st.sampled_from([b"\xf9\x7e\x01", b"\xf9\x80\x00"]))
def test_random_bytes_decode_or_raise_valueerror_and_agree_with_cbor2(raw):
    """Valid input decodes like cbor2 does (cbor2 accepts more); anything else is a ValueError."""
    try:
        obj = cbor.decode(raw)
    except ValueError as e:
        assert str(e).startswith("cbor: ")
        return
    theirs = cbor2.loads(raw)
    assert dump(obj) == dump(theirs)


BAD = [
    (b"", "truncated"),
    (b"\x18", "truncated"),
    (b"\x19\x01", "truncated"),
    (b"\x62a", "string length 2 beyond"),
    (b"\x5b\xff\xff\xff\xff\xff\xff\xff\xff", "string length 18446744073709551615 beyond"),
    (b"\x9b\x00\x00\x00\x01\x00\x00\x00\x00", "array length 4294967296 beyond"),
    (b"\xba\x10\x00\x00\x00\x01\x02", "map length 268435456 beyond"),
    (b"\x9f\x01\xff", "indefinite length"),
    (b"\x5f\x41a\xff", "indefinite length"),
    (b"\x1c", "reserved head"),
    (b"\xc1\x1a\x00\x00\x00\x00", "tags are not supported"),
    (b"\xc2\x41\x01", "tags are not supported"),
    (b"\xf7", "unsupported simple value 23"),
    (b"\xf8\x20", "unsupported simple value 24"),
    (b"\x01\x01", "1 trailing bytes"),
    (b"\xa2\x01\x01\x01\x02", "duplicate map key 1"),
    (b"\xa1\x80\x01", "map key of type list"),
    (b"\xa2\x61a\x01\x41a\x02", "mixes text and byte-string keys"),
    (b"\xa1\xa0\x01", "map key of type dict"),
    (b"\x81" * 40 + b"\x01", "nesting deeper than 16"),
    (b"\x62\xff\xfe", "invalid UTF-8"),
    (b"\xfa\x00\x00", "truncated"),
]


@pytest.mark.parametrize("raw,message", BAD)
def test_strict_decoding_names_the_problem(raw, message):
    with pytest.raises(ValueError, match="^cbor: .*" + message):
        cbor.decode(raw)


@pytest.mark.parametrize("obj,message", [
    (2**64, "64-bit range"),
    (-2**64 - 1, "64-bit range"),
    (object(), "cannot encode object"),
    ({1, 2}, "cannot encode set"),
    ([[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]], "nesting deeper than 16"),
    ({"k": {"k": {"k": {"k": {"k": {"k": {"k": {"k": {"k": {"k": {"k": {"k": {"k": {"k": {
        "k": {"k": {"k": 1}}}}}}}}}}}}}}}}}, "nesting deeper than 16"),
])
def test_encoding_refuses_what_it_cannot_carry(obj, message):
    with pytest.raises(ValueError, match="^cbor: .*" + message):
        cbor.encode(obj)


def test_cyclic_structure_is_refused_not_a_crash():
    loop = []
    loop.append(loop)
    with pytest.raises(ValueError, match="nesting deeper"):
        cbor.encode(loop)


# --- the real MicroPython interpreter on a fixed corpus -------------------------------------

EDGE_INTS = [0, 1, 23, 24, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63, 2**64 - 1]
EDGE_FLOATS = [0.0, -0.0, 1.5, 0.1, 65504.0, 65520.0, 1e-7, 5.960464477539063e-08,
               3.4028234663852886e38, 1e300, math.inf, -math.inf, math.nan]


def corpus_objects():
    """Edge cases plus seeded random nested messages."""
    rng = random.Random(1234)
    objs = EDGE_INTS + [-1 - n for n in EDGE_INTS] + EDGE_FLOATS + [
        None, True, False, b"", b"\x00\xff" * 200, "", "Пас 1БК ♠♥ 🂡", "x" * 300,
        [], {}, {"b": 1, "a": 2, 10: 3, -1: 4, "aa": 6}, {b"x": 5, 1: 0}, [[[]], {"": {}}]]

    def rand(depth):
        kind = rng.randrange(9 if depth < 4 else 6)
        if kind == 0:
            return rng.choice(EDGE_INTS) * rng.choice((1, -1))
        if kind == 1:
            return rng.randrange(-1000, 1000)
        if kind == 2:
            return "".join(rng.choice("aбв♣ \u20ac\U0001F600") for _ in range(rng.randrange(30)))
        if kind == 3:
            return bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
        if kind == 4:
            return rng.choice(EDGE_FLOATS + [None, True, False])
        if kind == 5:
            return rng.uniform(-1e6, 1e6)
        if kind in (6, 7):
            return [rand(depth + 1) for _ in range(rng.randrange(6))]
        return {rng.choice((rng.randrange(-30, 30), "k%d" % rng.randrange(50))): rand(depth + 1)
                for _ in range(rng.randrange(6))}

    return objs + [rand(0) for _ in range(300)]


@pytest.mark.parametrize("interpreter", ["micropython", "cpython"])
def test_corpus_on_the_real_interpreter(tmp_path, interpreter):
    objs = corpus_objects()
    lines = [cbor2.dumps(o, canonical=True).hex() for o in objs]
    lines += [cbor2.dumps(o).hex() for o in objs]  # default form: float64, insertion order
    lines += [raw.hex() for raw, _ in BAD]
    path = tmp_path / "vectors.txt"
    path.write_text("\n".join(lines) + "\n")
    proc = run_device(["tests/link_runner.py", "cbor", str(path)], interpreter=interpreter,
                      timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    out = proc.stdout.decode().splitlines()
    assert len(out) == len(lines)
    for obj, line in zip(objs + objs, out, strict=False):
        status, encoded, text = line.split(" ", 2)
        assert status == "ok", (obj, line)
        assert bytes.fromhex(encoded) == cbor2.dumps(obj, canonical=True), obj
        assert text == dump(obj)
    for (raw, message), line in zip(BAD, out[2 * len(objs):], strict=True):
        assert line.startswith("error cbor: ") and message in line, (raw, line)
