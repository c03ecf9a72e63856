"""COBS and frames: against an independent COBS reference, under damage, and on MicroPython."""

import random
import struct
import zlib

import cbor2
import pytest
from conftest import run_device
from hypothesis import given, settings
from hypothesis import strategies as st
from terminal import cobs  # noqa: E402
from terminal.frame import MAX_ENCODED, MAX_PAYLOAD, FrameReader, decode_frame, encode_frame  # noqa: E402


def reference_cobs(data):
    """COBS straight from its definition: each zero-separated piece, cut into 254-byte blocks."""
    out = b""
    pieces = data.split(b"\x00")
    for n, piece in enumerate(pieces):
        final = n == len(pieces) - 1
        while len(piece) >= 254:
            out += b"\xff" + piece[:254]
            piece = piece[254:]
            if final and not piece:
                return out
        out += bytes([len(piece) + 1]) + piece
    return out


# Published examples (Cheshire & Baker's COBS, as listed on its Wikipedia page)
R254 = bytes(range(1, 255))
VECTORS = [
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x00\x11\x00", b"\x01\x02\x11\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (R254, b"\xff" + R254),
    (b"\x00" + R254, b"\x01\xff" + R254),
    (R254 + b"\xff", b"\xff" + R254 + b"\x02\xff"),
    (R254[1:] + b"\xff\x00", b"\xff" + R254[1:] + b"\xff\x01\x01"),
    (R254[2:] + b"\xff\x00\x01", b"\xfe" + R254[2:] + b"\xff\x02\x01"),
]


@pytest.mark.parametrize("data,encoded", VECTORS)
def test_cobs_published_vectors(data, encoded):
    assert cobs.encode(data) == encoded
    assert cobs.decode(encoded) == data


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=1200) | st.lists(st.sampled_from(
    [b"\x00", b"\x01" * 253, b"\x02" * 254, b"\x03" * 255]), max_size=6).map(b"".join))
def test_cobs_matches_reference_and_round_trips(data):
    encoded = cobs.encode(data)
    assert encoded == reference_cobs(data)
    assert b"\x00" not in encoded
    assert len(encoded) <= len(data) + len(data) // 254 + 1
    assert cobs.decode(encoded) == data


def test_cobs_decode_accepts_the_empty_block_after_a_final_254_run():
    assert cobs.decode(b"\xff" + R254 + b"\x01") == R254


@pytest.mark.parametrize("raw,message", [
    (b"", "empty packet"),
    (b"\x02a\x00", "zero byte"),
    (b"\x00", "zero byte"),
    (b"\x05ab", "runs 2 bytes past the end"),
    (b"\x02a\x09", "runs 8 bytes past the end"),
])
def test_cobs_decode_refuses_bad_packets(raw, message):
    with pytest.raises(ValueError, match="^cobs: .*" + message):
        cobs.decode(raw)


MESSAGES = [{"m": "hello", "v": 1, "id": "T07"}, [5, "result", {"board": 3}, b"\x00" * 32],
            {"m": "ack", "seq": 2**40}, "Пас", list(range(300)), {"blob": bytes(900)}]


@pytest.mark.parametrize("msg", MESSAGES)
def test_frame_layout_and_round_trip(msg):
    frame = encode_frame(msg)
    assert frame.endswith(b"\x00") and frame.count(b"\x00") == 1
    body = reference_cobs_decode(frame[:-1])
    payload = cbor2.dumps(msg, canonical=True)
    assert body == payload + struct.pack("<I", zlib.crc32(payload))
    assert decode_frame(frame[:-1]) == msg


def reference_cobs_decode(raw):
    out, i = b"", 0
    while i < len(raw):
        code = raw[i]
        out += raw[i + 1:i + code]
        i += code
        if code < 255 and i < len(raw):
            out += b"\x00"
    return out


def raw_frame(payload, crc=None):
    """A frame body (no delimiter) over any payload bytes, with its CRC or a given one."""
    crc = zlib.crc32(payload) if crc is None else crc
    return cobs.encode(payload + struct.pack("<I", crc))


@pytest.mark.parametrize("raw,message", [
    (raw_frame(b"\xa0", crc=1), "frame: crc mismatch"),
    (raw_frame(b"\x9f\x01\xff"), "frame: cbor: indefinite length"),
    (raw_frame(b"\x01\x01"), "frame: cbor: 1 trailing bytes"),
    (raw_frame(b""), "frame: too short"),
    (b"\x09abc", "frame: cobs: block at 0 runs"),
    (b"\x01" * (MAX_ENCODED + 1), "frame: oversize"),
])
def test_decode_frame_names_what_is_wrong(raw, message):
    with pytest.raises(ValueError, match="^" + message):
        decode_frame(raw)


def test_payload_size_limit():
    encode_frame(b"x" * (MAX_PAYLOAD - 3))  # head 0x59 + 2 length bytes: exactly MAX_PAYLOAD
    with pytest.raises(ValueError, match="^frame: oversize: 1025 bytes of CBOR"):
        encode_frame(b"x" * (MAX_PAYLOAD - 2))
    assert len(encode_frame(b"x" * (MAX_PAYLOAD - 3))) - 1 <= MAX_ENCODED


@pytest.mark.parametrize("msg", MESSAGES[:4])
def test_every_single_byte_change_is_detected(msg):
    frame = encode_frame(msg)[:-1]
    for i in range(len(frame)):
        for value in (0x01, 0x02, 0x7F, 0xFE, frame[i] ^ 0x40, frame[i] ^ 0x01):
            if value == frame[i] or value == 0:
                continue
            bad = frame[:i] + bytes([value]) + frame[i + 1:]
            with pytest.raises(ValueError, match="^frame: "):
                decode_frame(bad)


def feed_all(reader, stream, sizes):
    """Feed stream in chunks of the given sizes (cycled); all messages in order."""
    out, i, n = [], 0, 0
    while i < len(stream):
        size = sizes[n % len(sizes)]
        out += reader.feed(stream[i:i + size])
        i, n = i + size, n + 1
    return out


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(MESSAGES), min_size=1, max_size=8),
       st.lists(st.integers(1, 300), min_size=1, max_size=10))
def test_reader_reassembles_any_chunking(msgs, sizes):
    stream = b"".join(encode_frame(m) for m in msgs)
    reader = FrameReader()
    assert feed_all(reader, stream, sizes) == msgs
    assert reader.dropped == 0 and not reader.partial()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(MESSAGES), st.binary(max_size=40)),
                min_size=1, max_size=8),
       st.lists(st.integers(1, 64), min_size=1, max_size=5))
def test_reader_resyncs_after_garbage_between_frames(pairs, sizes):
    """A sender that leads each frame with a zero loses nothing to noise between frames."""
    stream = b"".join(garbage + b"\x00" + encode_frame(m) for m, garbage in pairs)
    reader = FrameReader()
    assert feed_all(reader, stream, sizes) == [m for m, _ in pairs]
    assert reader.dropped <= sum(g.count(0) + 1 for _, g in pairs if g)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(MESSAGES[:4]), min_size=3, max_size=8), st.data())
def test_a_damaged_frame_costs_only_itself(msgs, data):
    frames = [encode_frame(m) for m in msgs]
    victim = data.draw(st.integers(0, len(frames) - 1))
    body = frames[victim][:-1]
    at = data.draw(st.integers(0, len(body) - 1))
    how = data.draw(st.sampled_from(["drop", "duplicate", "flip"]))
    if how == "drop":
        body = body[:at] + body[at + 1:]
    elif how == "duplicate":
        body = body[:at + 1] + body[at:]
    else:
        body = body[:at] + bytes([body[at] ^ 0x10 or 0x20]) + body[at + 1:]
    frames[victim] = body + b"\x00"
    reader = FrameReader()
    got = feed_all(reader, b"".join(frames), [7])
    assert got == msgs[:victim] + msgs[victim + 1:]
    assert reader.dropped == 1 and reader.error.startswith("frame: ")


def test_duplicated_frames_are_delivered_twice_for_the_protocol_to_ignore():
    frame = encode_frame({"seq": 1})
    assert FrameReader().feed(frame + frame) == [{"seq": 1}, {"seq": 1}]


def test_reader_bounds_its_buffer_and_recovers_after_an_endless_frame():
    reader = FrameReader()
    for _ in range(50):
        assert reader.feed(b"\x55" * 100) == []
        assert reader._buf is None or len(reader._buf) <= MAX_ENCODED  # None: discarding
    assert reader.partial()
    frame = encode_frame({"m": "hello"})
    assert reader.feed(b"\x00" + frame) == [{"m": "hello"}]
    assert reader.dropped == 1 and reader.error.startswith("frame: oversize")
    assert not reader.partial()


def test_empty_frames_are_ignored():
    reader = FrameReader()
    assert reader.feed(b"\x00\x00\x00") == []
    assert reader.dropped == 0


def noisy_stream(seed):
    """Frames with noise, drops and duplicates, and what a reader must deliver from it."""
    rng = random.Random(seed)
    stream, expected = b"", []
    for n in range(60):
        msg = {"n": n, "pad": "z" * rng.randrange(200)}
        frame = encode_frame(msg)
        fate = rng.randrange(5)
        if fate == 0:  # noise before the frame, ended by a zero
            stream += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 30))) + b"\x00"
        elif fate == 1:  # a byte lost inside the frame
            at = rng.randrange(len(frame) - 1)
            stream += frame[:at] + frame[at + 1:]
            continue
        stream += frame
        expected.append(msg)
    return stream, expected


@pytest.mark.parametrize("interpreter", ["micropython", "cpython"])
def test_reader_on_the_real_interpreter(interpreter):
    stream, expected = noisy_stream(7)
    proc = run_device(["tests/link_runner.py", "frames", "13"], interpreter=interpreter,
                      stdin=stream, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    lines = proc.stdout.decode().splitlines()
    got = [cbor2.loads(bytes.fromhex(line.split()[1])) for line in lines[:-1]]
    assert got == expected
    reader = FrameReader()
    assert feed_all(reader, stream, [13]) == expected
    assert lines[-1] == "dropped %d" % reader.dropped
