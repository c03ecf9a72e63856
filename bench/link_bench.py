"""Link layer benchmark: frames and CBOR on CPython and MicroPython, against cbor2, and the journal.

`python bench/link_bench.py` runs the device part (`--device`, this same file) under both
interpreters and times cbor2 on the same message in this CPython: the host's peer. Prints a
markdown table of medians. The journal rate includes the durability call each interpreter has:
fsync on CPython, none on the MicroPython unix port (the board calls os.sync).
"""

import json
import os
import sys

from clock import ticks_diff, ticks_us

REPEAT = 7
LOOPS = 200
JOURNAL_RECORDS = 100

# A typical round-trip unit: a record as the terminal journals and sends it.
MESSAGE = [417, "res", {"b": 17, "tr": 10, "sc": 620, "ct": 18, "x": 0, "dcl": 2,
                        "calls": [0, 3, 0, 18, 0, 0, 0]}, bytes(range(32))]


def median_us(fn, loops):
    times = []
    for _ in range(REPEAT):
        start = ticks_us()
        for _ in range(loops):
            fn()
        times.append(ticks_diff(ticks_us(), start) / loops)
    times.sort()
    return times[len(times) // 2]


def device_main(tmpdir):
    from terminal import cbor
    from terminal.frame import FrameReader, decode_frame, encode_frame
    from terminal.journal import Journal

    payload = cbor.encode(MESSAGE)
    frame = encode_frame(MESSAGE)
    stream = frame * 20
    out = {
        "cbor_encode": median_us(lambda: cbor.encode(MESSAGE), LOOPS),
        "cbor_decode": median_us(lambda: cbor.decode(payload), LOOPS),
        "frame_encode": median_us(lambda: encode_frame(MESSAGE), LOOPS),
        "frame_decode": median_us(lambda: decode_frame(frame[:-1]), LOOPS),
        "reader_20": median_us(lambda: FrameReader().feed(stream), LOOPS // 10),
        "frame_bytes": len(frame),
    }
    path = tmpdir + "/bench.journal"
    appends = []
    for n in range(REPEAT):
        j = Journal("%s.%d" % (path, n), b"k" * 32, "T01")
        start = ticks_us()
        for _ in range(JOURNAL_RECORDS):
            j.append("res", MESSAGE[2])
        appends.append(ticks_diff(ticks_us(), start) / JOURNAL_RECORDS)
        start = ticks_us()
        for _ in j.records_after(0):
            pass
        appends[-1] = (appends[-1], ticks_diff(ticks_us(), start) / JOURNAL_RECORDS)
        os.remove("%s.%d" % (path, n))
    appends.sort()
    out["journal_append"], out["journal_scan"] = appends[len(appends) // 2]
    print(json.dumps(out))


def host_main():
    import statistics
    import tempfile
    import timeit
    from pathlib import Path

    import cbor2

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from conftest import run_device

    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for interpreter in ("cpython", "micropython"):
            proc = run_device(["bench/link_bench.py", "--device", tmp], interpreter=interpreter)
            if proc.returncode != 0:
                raise SystemExit("%s failed: %s" % (interpreter, proc.stderr.decode()))
            rows[interpreter] = json.loads(proc.stdout)
        heap_kb, import_kb, journal_size = smallest_heap_kb(tmp)
    payload = cbor2.dumps(MESSAGE, canonical=True)

    def peer(fn):
        return statistics.median(timeit.repeat(fn, number=LOOPS * 10, repeat=REPEAT)) \
            / (LOOPS * 10) * 1e6

    theirs = {"cbor_encode": peer(lambda: cbor2.dumps(MESSAGE, canonical=True)),
              "cbor_decode": peer(lambda: cbor2.loads(payload))}
    cp, mp = rows["cpython"], rows["micropython"]
    print("## Link layer: one %d-byte record frame, median of %d runs" % (cp["frame_bytes"],
                                                                          REPEAT))
    print()
    print("| operation | device code, CPython µs | device code, MicroPython µs "
          "| cbor2 (host peer) µs | CPython / cbor2 | MicroPython / cbor2 |")
    print("|---|---|---|---|---|---|")
    for key, name in (("cbor_encode", "CBOR encode"), ("cbor_decode", "CBOR decode")):
        print("| %s | %.2f | %.2f | %.2f | %.1f | %.1f |" % (
            name, cp[key], mp[key], theirs[key], cp[key] / theirs[key], mp[key] / theirs[key]))
    for key, name in (("frame_encode", "frame encode (CBOR+CRC+COBS)"),
                      ("frame_decode", "frame decode"),
                      ("reader_20", "FrameReader, 20 frames in one chunk"),
                      ("journal_append", "journal append (durable)"),
                      ("journal_scan", "journal scan, per record")):
        print("| %s | %.2f | %.2f | - | - | - |" % (name, cp[key], mp[key]))
    print()
    print("Journal appends per second: CPython (fsync each) %.0f, MicroPython unix %.0f." % (
        1e6 / cp["journal_append"], 1e6 / mp["journal_append"]))
    print("Smallest MicroPython heap that opens a %d-byte, 1,500-record journal, reads it all "
          "and appends, with the link modules as .mpy: %d KB (importing them alone: %d KB)." % (
              journal_size, heap_kb, import_kb))


# Open a big journal, read it all and append once: run alone for the smallest-heap search.
HEAP_PROBE = """
import sys
from terminal.journal import Journal
if len(sys.argv) > 1:
    j = Journal(sys.argv[1], b"k" * 32, "T01")
    for _ in j.records_after(0):
        pass
    j.append("res", %r)
"""


def smallest_heap_kb(tmp):
    """The smallest MicroPython heap (KB) for HEAP_PROBE on a 1,500-record journal, .mpy code."""
    import subprocess
    from pathlib import Path

    from conftest import micropython_path, run_device

    root = Path(__file__).resolve().parent.parent
    mpy_cross = str(Path(micropython_path()).parent / "mpy-cross")
    firmware = Path(tmp) / "firmware"
    (firmware / "terminal").mkdir(parents=True)
    probe = Path(tmp) / "heap_probe.py"
    probe.write_text(HEAP_PROBE % (MESSAGE[2],))
    sources = sorted((root / "device" / "terminal").glob("*.py")) + [probe]
    for src in sources:  # the probe too, so that compiling it does not count
        out = firmware / ("terminal" if src.parent.name == "terminal" else "") / (src.stem + ".mpy")
        subprocess.run([mpy_cross, "-o", str(out), str(src)], check=True)
    sys.path.insert(0, str(root / "device"))
    from terminal.journal import Journal

    big = Path(tmp) / "big.journal"
    j = Journal(str(big), b"k" * 32, "T01")
    for _ in range(1500):
        j.append("res", MESSAGE[2])
    pristine = big.read_bytes()

    def smallest(args):
        low, high = 4, 64
        while low < high:
            mid = (low + high) // 2
            big.write_bytes(pristine)
            proc = run_device(["-m", "heap_probe"] + args, heapsize="%dk" % mid, path=firmware)
            if proc.returncode == 0:
                high = mid
            else:
                low = mid + 1
        return low

    return smallest([str(big)]), smallest([]), len(pristine)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--device":
        device_main(sys.argv[2])
    else:
        host_main()
