"""The terminal: firmware size, the heap a 32-board session needs, and key handling speed.

The session is the one tests/test_terminal_session.py plays (8 rounds, full auctions,
irregularities and rulings, results, adjusted scores), run once on CPython and once on the
real MicroPython with the code in a ROMFS image (on the board: flash). Two heap figures:
the live peak (gc.mem_alloc() after gc.collect() at every key, less the image buffer), and
the least heap that runs the whole session (`-X heapsize` with the image and the GC table
bytes that cover it on top, as tests/test_terminal_session.py gives it: on the board both are
flash; scanned up from the live peak in KiB steps until three sizes in a row run:
fragmentation makes the answer not quite monotonic), which is what the board must have.
The peer for the heap is the issue's 64 KiB budget; the peer for speed is CPython running
the same keys.
"""

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0:0] = [str(ROOT / "tests"), str(ROOT / "device"), str(ROOT)]

from conftest import micropython_path, run_image  # noqa: E402
from terminal_support import (  # noqa: E402
    make_config,
    play_session_script,
    session_script,
    write_config,
)

REPEAT = 3
BUDGET = 64 * 1024
HEAP = "400k"  # room enough to measure; the figure is the peak actually used


def build_image(path, sim):
    args = [sys.executable, str(ROOT / "tools" / "romfs.py"), str(path), "--quiet"]
    subprocess.run(args + (["--sim"] if sim else []), check=True)
    return path.stat().st_size


def run(interpreter, image, script, config, out, heap=HEAP):
    """(seconds, report) of one run of the key script; None if it failed (a heap too small)."""
    if interpreter == "micropython":
        cmd = [micropython_path(), "-X", "heapsize=" + heap, str(ROOT / "tools" / "romrun.py"),
               str(image), "terminal.keyscript", str(script), str(out), "--config", str(config)]
        env = {"MICROPYPATH": "/nonexistent"}
    else:
        cmd = [sys.executable, "-m", "terminal.keyscript", str(script), str(out),
               "--config", str(config)]
        env = {"PYTHONPATH": "%s:%s" % (ROOT / "device", ROOT), "PATH": "/usr/bin:/bin"}
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, env=env, cwd=str(ROOT), timeout=600)
    seconds = time.perf_counter() - start
    if proc.returncode:
        if heap != HEAP:
            return None
        raise SystemExit("%s failed: %s%s" % (interpreter, proc.stdout[-2000:],
                                               proc.stderr[-2000:]))
    return seconds, json.loads(proc.stdout.decode().splitlines()[0])


def least_heap(folder, script, config, peak):
    """The least heap in KiB (`-X heapsize` as for the board, the image on top as the tests
    give it: conftest.run_image) from which three sizes in a row run the session. The run is
    the test's, names and all: the names a run interns (its arguments among them) move the
    answer by up to a KiB."""
    shutil.copy(folder.parent / "sim.img", folder / "sim.img")  # run_image copies romrun.py
    kib, good = -(-peak // 1024), 0
    while good < 3:
        out = folder / "micropython"
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir()
        proc = run_image(folder, "sim.img", ["terminal.keyscript", script.name, out.name,
                                             "--config", Path(config).name], kib * 1024)
        good = good + 1 if proc.returncode == 0 else 0
        kib += 1
    return kib - 3


def session(tmp, name, script_text, config_data, image):
    """The session's key script (named as tests/test_terminal_session.py names it) timed on
    both interpreters, and its least heap."""
    folder = tmp / name
    folder.mkdir()
    script = folder / ("session.keys" if name == "auction" else "play.keys")
    script.write_text(script_text)
    config = write_config(folder / "config.cbor", config_data)
    rows = {}
    for interpreter in ("cpython", "micropython"):
        runs = []
        for n in range(REPEAT):
            out = folder / ("%s-%d" % (interpreter, n))
            out.mkdir()
            runs.append(run(interpreter, image, script, config, out))
        seconds = statistics.median(r[0] for r in runs)
        rows[interpreter] = (seconds, runs[0][1])
    rows["least"] = least_heap(folder, script, config, rows["micropython"][1]["peak"])
    return rows


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        firmware = build_image(tmp / "romfs.img", sim=False)
        sim = build_image(tmp / "sim.img", sim=True)
        rehearsal = tmp / "rehearsal"
        rehearsal.mkdir()
        play_config, play_text = play_session_script(rehearsal)
        sessions = {
            "auction and results": session(tmp, "auction", session_script(), make_config(),
                                           tmp / "sim.img"),
            "every card recorded too": session(tmp, "play", play_text, play_config,
                                               tmp / "sim.img"),
        }
    main_py = (ROOT / "device" / "main.py").stat().st_size
    print("Firmware (`make firmware`): ROMFS image %d bytes + main.py %d bytes; the simulator's "
          "image (with its backend and key-script runner) %d bytes.\n" % (firmware, main_py, sim))
    print("| 32-board session | keys | live heap peak | least heap that runs | vs 64 KiB "
          "budget | CPython s | MicroPython s | MicroPython / CPython |")
    print("|---|---|---|---|---|---|---|---|")
    for name, rows in sessions.items():
        cp, mp = rows["cpython"], rows["micropython"]
        print("| %s | %d | %d bytes | %d KiB | %.2f | %.2f | %.2f | %.2f |" % (
            name, mp[1]["keys"], mp[1]["peak"], rows["least"], rows["least"] * 1024 / BUDGET,
            cp[0], mp[0], mp[0] / cp[0]))
    print("\nmedian of %d runs; the seconds include each interpreter's start and, for "
          "MicroPython, reading the image. CPython fsyncs the journal after every record; the "
          "MicroPython unix port has no sync call, so its time is the application's alone."
          % REPEAT)


if __name__ == "__main__":
    main()
