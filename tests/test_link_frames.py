"""The host's frame layer (host_sync.station.link: cbor2, its COBS, zlib CRC32, hmac) against the
device's (terminal.cbor/cobs/frame/hmac256 under the real MicroPython): the same bytes both
ways, the same refusals, the same tags."""

import json
import os
import random

import cbor2
import pytest
from conftest import run_device
from terminal import cobs as dev_cobs  # noqa: E402
from terminal import frame as dev_frame  # noqa: E402
from terminal import hmac256  # noqa: E402
from terminal.journal import Journal  # noqa: E402

from host_sync.station import link
from host_sync.station.link import FrameError, FrameReader, decode_frame, encode_frame

MESSAGES = [
    {"m": "hello", "v": [1]},
    {"m": "hello", "i": 1, "v": 1, "id": "PICO-01", "fw": "0.1", "event": None,
     "nonce": b"\x00\x01\x02\x03\x00\x00\xff\x10", "base": 0, "last": 70000, "damaged": 0},
    {"m": "recs", "i": 300, "p": 12,
     "r": [[13, "call", {"b": 1, "s": 0, "c": 7}, bytes(32)],
           [14, "res", {"b": 1, "tr": 9, "sc": -1400}, b"\xff" * 32]]},
    {"m": "put", "i": 2 ** 33, "f": "config.cbor", "at": 0, "size": 900, "d": bytes(900)},
    {"m": "error", "i": None, "code": "auth", "text": "Тег не сходится ♠♥"},
    [True, False, None, -1, -24, -25, -256, -65537, 2 ** 63, -(2 ** 64), 1.5, 0.1],
    {1: "a", "bb": 2, -3: [{}], "a": {"x": []}},
    b"\x00" * 254 + b"\x01" * 254,
]


def _device(code, stdin):
    proc = run_device(["-c", code], stdin=stdin, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout.decode().split()


DEVICE_REFRAME = """
import sys
from terminal import cbor
from terminal.frame import encode_frame, decode_frame
for line in sys.stdin:
    a, b = line.split()
    obj = cbor.decode(bytes.fromhex(a))
    print(encode_frame(obj).hex())
    try:
        print(cbor.encode(decode_frame(bytes.fromhex(b)[:-1])).hex())
    except ValueError as e:
        print("refused")
"""


def _lines(objs):
    return "".join("%s %s\n" % (link.cbor_encode(o).hex(), encode_frame(o).hex())
                   for o in objs).encode()


def test_frames_are_byte_for_byte_the_device_s_under_micropython():
    out = _device(DEVICE_REFRAME, _lines(MESSAGES))
    for n, obj in enumerate(MESSAGES):
        assert out[2 * n] == encode_frame(obj).hex(), obj  # device frame == host frame
        assert out[2 * n + 1] == link.cbor_encode(obj).hex()  # device read the host's frame


def test_random_records_frame_alike_under_micropython():
    rng = random.Random(3)
    objs = []
    for _ in range(60):
        data = {"b": rng.randint(1, 36), "s": rng.randint(0, 3), "c": rng.randint(0, 47),
                "note": "".join(rng.choice("ab\u0444\u2660") for _ in range(rng.randint(0, 9)))}
        objs.append([rng.randint(1, 2 ** 32), rng.choice(["call", "res", "dir"]), data,
                     os.urandom(32)])
    out = _device(DEVICE_REFRAME, _lines(objs))
    assert out[0::2] == [encode_frame(o).hex() for o in objs]


def test_cobs_is_the_device_s_on_every_length_and_zero_pattern():
    rng = random.Random(1)
    for n in list(range(0, 520)) + [1028, 1033]:
        for data in (bytes(rng.randrange(256) for _ in range(n)), b"\x01" * n, bytes(n),
                     bytes(rng.choice((0, 7)) for _ in range(n))):
            encoded = link.cobs_encode(data)
            assert encoded == dev_cobs.encode(data)
            assert link.cobs_decode(encoded) == data
            assert b"\x00" not in encoded


BAD = {
    "crc": lambda f: f[:3] + bytes([f[3] ^ 0x20]) + f[4:],
    "cobs": lambda f: bytes([0x30]) + f[1:],
    "short": lambda f: link.cobs_encode(b"\x01\x02\x03") + b"\x00",
    "oversize": lambda f: link.cobs_encode(b"\x01" * 1100) + b"\x00",
}


@pytest.mark.parametrize("code", sorted(BAD))
def test_bad_frames_are_refused_by_both_ends_with_their_reason(code):
    frame = BAD[code](encode_frame({"m": "pull", "after": 3, "max": 64}))
    with pytest.raises(FrameError) as e:
        decode_frame(frame[:-1])
    assert e.value.code == code
    with pytest.raises(ValueError):
        dev_frame.decode_frame(frame[:-1])


@pytest.mark.parametrize("payload,why", [
    (b"\x01\x02", "trailing"),            # two items
    (b"\xc1\x01", "tag"),                 # a tag (epoch time)
    (b"\x9f\x01\xff", "indefinite"),      # indefinite-length array
    (b"\x62\xff\xfe", "utf"),             # invalid UTF-8
    (b"\x5a\xff\xff\xff\xff", "length"),  # a length beyond the input
    (b"\xa1\x61\x6b\xd9\x01\x02\x81\x01", "set"),  # a set (tag 258) in a map
    (b"\x82\x01\xd8\x25\x50" + bytes(16), "uuid"),  # a UUID (tag 37) in an array
    (b"\x81" * 17 + b"\x01", "17 deep"),  # 17 arrays: their item lies 17 deep
    (b"\x81" * 16 + b"\xa1\x01\x02", "map 17 deep"),
])
def test_cbor_outside_the_protocol_subset_is_refused_as_cbor(payload, why):
    frame = link.frame_cbor(payload)
    with pytest.raises(FrameError) as e:
        decode_frame(frame[:-1])
    assert e.value.code == "cbor", why
    with pytest.raises(ValueError):
        dev_frame.decode_frame(frame[:-1])


def test_cbor_16_deep_is_taken_by_both_ends():
    payload = b"\x81" * 16 + b"\x01"
    nested = dev_frame.decode_frame(link.frame_cbor(payload)[:-1])
    assert decode_frame(link.frame_cbor(payload)[:-1]) == nested


def test_reader_resynchronises_and_counts_each_refusal():
    good = [{"m": "end", "i": n, "sent": n, "last": n} for n in range(5)]
    stream = (b"noise\x00" + encode_frame(good[0]) + BAD["crc"](encode_frame(good[1])) +
              encode_frame(good[2]) + b"\x07" * 3000 + b"\x00" + encode_frame(good[3]) +
              b"\x00\x00" + encode_frame(good[4]))
    for size in (1, 7, 64, len(stream)):
        reader = FrameReader()
        got = []
        for i in range(0, len(stream), size):
            got += reader.feed(stream[i:i + size])
        assert got == [good[0], good[2], good[3], good[4]]
        assert dict(reader.refused) == {"cobs": 1, "crc": 1, "oversize": 1}


def test_record_tags_of_the_device_journal_verify_on_the_host(tmp_path):
    key, ident = os.urandom(32), "PICO-77"
    j = Journal(str(tmp_path / "journal"), key, ident)
    j.append("res", {"b": 3, "tr": 10, "sc": 620})
    j.append("call", {"b": 4, "s": 1, "c": 0})
    records = [list(r) for r in j.records_after(0)]
    assert [link.check_record(key, ident, r) for r in records] == [
        (1, "res", {"b": 3, "tr": 10, "sc": 620}), (2, "call", {"b": 4, "s": 1, "c": 0})]
    forged = [1, "res", {"b": 3, "tr": 11, "sc": 650}, records[0][3]]
    for bad, who in ((forged, ident), (records[0], "PICO-78")):
        with pytest.raises(FrameError) as e:
            link.check_record(key, who, bad)
        assert e.value.code == "hmac"
    with pytest.raises(FrameError) as e:
        link.check_record(key, ident, [1, "res", {}, b"short"])
    assert e.value.code == "type"


def test_message_tags_agree_with_the_device_hmac():
    key, nonce = os.urandom(32), os.urandom(8)
    msg = {"m": "ack", "i": 9, "seq": 120}
    signed = link.sign(key, nonce, msg)
    from terminal import cbor
    assert hmac256.digest(key, nonce + cbor.encode(msg)) == signed["h"]
    link.check_signed(key, nonce, signed)
    for tampered in (dict(signed, seq=121), link.sign(key, b"other!!!", msg)):
        with pytest.raises(FrameError):
            link.check_signed(key, nonce, tampered)


def test_canonical_cbor_is_what_cbor2_canonical_gives():
    for obj in MESSAGES:
        assert link.cbor_encode(obj) == cbor2.dumps(obj, canonical=True)
    assert json.loads(json.dumps(link.event_fingerprint(b"k" * 32)))  # printable text
