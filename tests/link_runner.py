"""Drives the terminal's link layer (CBOR, frames, journal) for the tests, on either interpreter.

`micropython tests/link_runner.py MODE ARGS` (MICROPYPATH=device) or the same under CPython:
  cbor FILE          each line of FILE is hex CBOR: print "ok REENCODED_HEX DUMP" or "error MSG"
  frames CHUNK       cut stdin into frames, fed CHUNK bytes at a time: one "msg HEX" line per
                     message (its CBOR re-encoded), then "dropped N"
  recover PATH       open the journal: print its state, then each record, as JSON lines
  count PATH         open the journal and count its records: print "LAST COUNT"
  append PATH N      append N records (N = 0: until killed), printing "seq S" after each is durable
  ack PATH SEQ       acknowledge SEQ; print "compacted" or "nothing"
"""

import json
import struct
import sys

from terminal import cbor
from terminal.frame import FrameReader
from terminal.journal import Journal

KEY = b"per-event key for the link tests"
IDENT = "T07"


def dump(obj):
    """A typed, order-independent text form of a decoded object, the same on both interpreters."""
    if obj is None or obj is True or obj is False:
        return {None: "null", True: "true", False: "false"}[obj]
    if isinstance(obj, int):
        return "i%d" % obj
    if isinstance(obj, float):  # by bits, so -0.0 differs from 0.0; NaN payloads are not kept
        return "fnan" if obj != obj else "f" + struct.pack(">d", obj).hex()
    if isinstance(obj, str):
        return "s" + obj.encode("utf-8").hex()
    if isinstance(obj, bytes):
        return "b" + obj.hex()
    if isinstance(obj, list):
        return "[" + ",".join([dump(x) for x in obj]) + "]"
    return "{" + ",".join(sorted([dump(k) + ":" + dump(v) for k, v in obj.items()])) + "}"


def record_data(n):
    """The data of test record n: sizes vary so frames end at many different offsets."""
    return {"board": n, "calls": list(range(n % 7)), "note": "x" * (n * 5 % 23)}


def run_cbor(path):
    with open(path) as f:
        for line in f:
            try:
                obj = cbor.decode(bytes.fromhex(line.strip()))
                print("ok", cbor.encode(obj).hex(), dump(obj))
            except ValueError as e:
                print("error", e)


def run_frames(chunk):
    reader = FrameReader()
    stream = sys.stdin.buffer
    while True:
        data = stream.read(chunk)
        if not data:
            break
        for msg in reader.feed(data):
            print("msg", cbor.encode(msg).hex())
    print("dropped", reader.dropped)


def run_recover(path):
    j = Journal(path, KEY, IDENT)
    print(json.dumps({"base": j.base, "last": j.last, "damaged": j.damaged}))
    for s, k, d, t in j.records_after(0):
        print(json.dumps([s, k, dump(d), t.hex()]))


def run_count(path):
    j = Journal(path, KEY, IDENT)
    n = 0
    for _ in j.records_after(0):
        n += 1
    print(j.last, n)


def run_append(path, count):
    j = Journal(path, KEY, IDENT)
    n = 0
    while count == 0 or n < count:
        n += 1
        seq = j.append("result", record_data(j.last + 1))
        sys.stdout.write("seq %d\n" % seq)
        if hasattr(sys.stdout, "flush"):
            sys.stdout.flush()


def main():
    mode, arg = sys.argv[1], sys.argv[2]
    if mode == "cbor":
        run_cbor(arg)
    elif mode == "frames":
        run_frames(int(arg))
    elif mode == "recover":
        run_recover(arg)
    elif mode == "count":
        run_count(arg)
    elif mode == "append":
        run_append(arg, int(sys.argv[3]))
    elif mode == "ack":
        print("compacted" if Journal(arg, KEY, IDENT).acknowledge(int(sys.argv[3])) else "nothing")


if __name__ == "__main__":
    main()
