"""The terminal: firmware size, the heap a 32-board session needs, and key handling speed.

The session is the one tests/test_terminal_session.py plays (8 rounds, full auctions,
irregularities and rulings, results, adjusted scores), run once on CPython and once on the
real MicroPython with the code in a ROMFS image (on the board: flash). Two heap figures:
the live peak (gc.mem_alloc() after gc.collect() at every key, less the image buffer), and
the least heap that runs the whole session (`-X heapsize` with the image and the GC table
bytes that cover it on top, as tests/test_terminal_session.py gives it: on the board both are
flash; scanned up from the live peak in KiB steps until three sizes in a row run:
fragmentation makes the answer not quite monotonic), which is what the board must have.
The peer for the heap is the heap the test gives (twice the board budget of
tests/test_terminal_session.py); the peer for speed is CPython running the same keys.

Then the cost of one key, before (the tree at BEFORE, from `git archive`) and now, from the
simulator's ROMFS image under MicroPython (bench/key_cost.py): time, bytes allocated (collections
follow: one per gc.threshold bytes, 12,288 both), bytes sent to the display, and with the
journal on a littlefs in RAM formatted as the Pico's (hw/backends/ramflash.py) the flash
erased and programmed per record and the share of record-storing keys that erased no block.

With --instructions, also the machine instructions of each key, counted by valgrind's
callgrind (bench/key_cost.py), the median over three heap layouts: what the load of a shared
machine does not move (~6 minutes).

    python bench/terminal_bench.py [--keys-only] [--instructions]
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

import callgrind  # noqa: E402
from conftest import micropython_path, run_image  # noqa: E402
from terminal_support import (  # noqa: E402
    make_config,
    play_session_script,
    session_script,
    write_config,
)
from test_terminal_session import FACTOR, ROM_PLAY_BUDGET, ROM_SESSION_BUDGET  # noqa: E402

REPEAT = 3
KEY_REPEAT = 5  # runs of the key costs, before and now in turn
BEFORE = "9e7f353"  # main before session 8's text caches and stack frames
GC_THRESHOLD = {"before": 12288, "now": 12288}  # gc.threshold in terminal/__init__.py
PICO_BLOCKS_HEAP = "466k"  # this port's 32-byte blocks, as many as the Pico's 16-byte ones
# Journal folders of three name lengths: MicroPython's allocator searches for a free run from
# the lowest free block up, so the sizes of what was allocated before (the journal's path is a
# new str at every record) move a key's count by up to ~10%; the figures are medians over them.
LAYOUTS = ("o", "key-out", "the-journal-of-the-key-costs")
FLASH_BLOCKS = 300  # a 1.2 MB littlefs, about the Pico's
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


def key_cost(root, tmp, script, config, flash=False):
    """bench/key_cost.py's report for the tree at root, run from that tree's simulator image
    (its own tools/romfs.py) as the board runs its code."""
    shutil.copy(ROOT / "hw" / "backends" / "ramflash.py", tmp / "ramflash.py")
    shutil.copy(ROOT / "bench" / "key_cost.py", tmp / "key_cost.py")
    image = tmp / "sim.img"
    if not image.exists():
        subprocess.run([sys.executable, str(root / "tools" / "romfs.py"), str(image), "--sim",
                        "--quiet"], check=True, cwd=str(root))
    out = tmp / "key-out"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    cmd = [micropython_path(), "-X", "heapsize=%s" % ("8m" if flash else "2m"), "key_cost.py",
           str(image), str(script), str(config), str(out)] + (
               [str(FLASH_BLOCKS)] if flash else [])
    proc = subprocess.run(cmd, capture_output=True, cwd=str(tmp), timeout=900,
                          env={"MICROPYPATH": "/nonexistent"})  # the image's code only
    if proc.returncode:
        raise SystemExit("key_cost failed: %s%s" % (proc.stdout[-2000:], proc.stderr[-2000:]))
    return json.loads(proc.stdout.decode().splitlines()[-1])


def key_instructions(root, tmp, script, config, collections=False, out_name="key-out"):
    """(median, 90th percentile, mean) of the x86-64 instructions of a key under callgrind:
    each key is the one step of a map in bench/key_cost.py, counted alone (a dump after
    each step; the map's closing step is a second, tiny dump). With `collections`, of a
    whole collection after each key instead, in a heap of the Pico's number of blocks (the
    sweep's work; the mark's is the live objects', the same on both). The journal is kept in
    the folder `out_name` (see LAYOUTS). The image and the copies beside it are key_cost's,
    which key_rows has run in `tmp` already."""
    dumps = tmp / "callgrind"
    shutil.rmtree(dumps, ignore_errors=True)
    dumps.mkdir()
    out = tmp / out_name
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    subprocess.run(["valgrind", "--tool=callgrind", "--collect-atstart=no",
                    "--toggle-collect=map_iternext", "--dump-after=map_iternext",
                    "--callgrind-out-file=%s" % (dumps / "cg"), micropython_path(),
                    "-X", "heapsize=" + (PICO_BLOCKS_HEAP if collections else "2m"),
                    "key_cost.py", str(tmp / "sim.img"), str(script), str(config), str(out)] +
                   (["collections"] if collections else []),
                   check=True, capture_output=True, cwd=str(tmp), timeout=3600,
                   env={"MICROPYPATH": "/nonexistent"})
    shutil.rmtree(out)
    counts = [callgrind.total(dumps / ("cg.%d" % n))
              for n in range(1, len(list(dumps.glob("cg.*"))) + 1)]
    keys = sorted(counts[i] + counts[i + 1] for i in range(0, len(counts) - 1, 2))
    return keys[len(keys) // 2], keys[len(keys) * 9 // 10], sum(keys) // len(keys)


def key_instructions_over_layouts(root, tmp, script, config):
    """key_instructions' three figures, each the median over LAYOUTS, and the medians of
    each layout: where the heap's free runs lie moves a key's count by up to ~10%."""
    runs = [key_instructions(root, tmp, script, config, out_name=name) for name in LAYOUTS]
    return tuple(statistics.median(r[i] for r in runs) for i in range(3)), [r[0] for r in runs]


def key_rows(tmp):
    """Before and now: the 32-board auction session's keys."""
    before = tmp / "before"
    before.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", BEFORE], capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(before)], input=archive, check=True)
    shutil.copy(ROOT / "hw" / "font_data.py", before / "hw" / "font_data.py")
    script = tmp / "keys.keys"
    script.write_text(session_script())
    config = write_config(tmp / "keys.cbor", make_config())
    trees = (("before (%s)" % BEFORE, before), ("now", ROOT))
    runs = {name: [] for name, _ in trees}
    for _ in range(KEY_REPEAT):  # interleaved: the machine's load moves both alike
        for name, root in trees:
            here = tmp / ("run-" + name.split()[0])
            here.mkdir(exist_ok=True)
            runs[name].append(key_cost(root, here, script, config))
    if "--instructions" in sys.argv:
        print("| 32-board session, x86-64 instructions (callgrind) | a key: median | 90th "
              "percentile | mean | a collection: median | a key with its share of "
              "collections: mean |")
        print("|---|---|---|---|---|---|")
        layouts = {}
        for name, root in trees:
            here = tmp / ("run-" + name.split()[0])
            (median, p90, mean), layouts[name] = key_instructions_over_layouts(
                root, here, script, config)
            collection = key_instructions(root, here, script, config, True)[0]
            share = runs[name][0]["alloc_mean"] / GC_THRESHOLD[name.split()[0]]
            print("| %s | %d | %d | %d | %d | %d |" % (name, median, p90, mean, collection,
                                                      mean + share * collection))
        print("\nMedians over %d layouts (journal folders of %s characters), each layout's "
              "median key: %s." % (len(LAYOUTS), ", ".join(str(len(n)) for n in LAYOUTS),
                                   "; ".join("%s %s" % (name, ", ".join(
                                       "%d" % m for m in medians))
                                             for name, medians in layouts.items())))
        print("A collection in a heap of the Pico's 14,600 blocks (-X heapsize=%s); its "
              "share a key is the key's mean allocation over gc.threshold (%d B before, %d "
              "now): this port's bytes, about twice the board's." % (
                  PICO_BLOCKS_HEAP, GC_THRESHOLD["before"], GC_THRESHOLD["now"]))
        print()
    rows = {}
    for name, root in trees:
        row = dict(runs[name][0])  # all but the times are the same in every run
        for k in ("median_us", "p90_us"):
            row[k] = statistics.median(r[k] for r in runs[name])
        row.update({k: v for k, v in key_cost(root, tmp / ("run-" + name.split()[0]), script,
                                              config, True).items()
                    if k.endswith("_per_record") or k == "record_keys_without_erase"})
        rows[name] = row
    print("| 32-board session, per key | median | 90th percentile | bytes allocated "
          "(median) | bytes allocated (mean) | collections (mean) | bytes to the display "
          "(mean) | I2C at 400 kHz (median, mean) | flash erased per record | flash "
          "programmed per record | records without an erase |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, r in rows.items():
        print("| %s | %d µs | %d µs | %d | %d | %.2f | %d | %.1f ms, %.1f ms | %d | %d | %d%% |"
              % (name, r["median_us"], r["p90_us"], r["alloc_median"], r["alloc_mean"],
                 r["alloc_mean"] / GC_THRESHOLD[name.split()[0]], r["display_bytes"],
                 r["i2c_median_us"] / 1000, r["i2c_mean_us"] / 1000, r["erased_per_record"],
                 r["programmed_per_record"], r["record_keys_without_erase"]))
    print("\n%d keys, %d records; MicroPython unix port from each tree's ROMFS image, the "
          "collector off around each key (collections = bytes / gc.threshold: %d before, "
          "%d now); times the median of %d interleaved runs, the rest the same in every run; "
          "I2C the display's bytes and address windows at 9 clocks a byte (bench/key_cost.py)."
          % (rows["now"]["keys"], rows["now"]["records"], GC_THRESHOLD["before"],
             GC_THRESHOLD["now"], KEY_REPEAT))


def main():
    if "--keys-only" in sys.argv:
        with tempfile.TemporaryDirectory() as tmp:
            key_rows(Path(tmp))
        return
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
    budgets = {"auction and results": FACTOR * ROM_SESSION_BUDGET,
               "every card recorded too": FACTOR * ROM_PLAY_BUDGET}
    print("| 32-board session | keys | live heap peak | least heap that runs | vs the heap "
          "the test gives | CPython s | MicroPython s | MicroPython / CPython |")
    print("|---|---|---|---|---|---|---|---|")
    for name, rows in sessions.items():
        cp, mp = rows["cpython"], rows["micropython"]
        print("| %s | %d | %d bytes | %d KiB | %.2f | %.2f | %.2f | %.2f |" % (
            name, mp[1]["keys"], mp[1]["peak"], rows["least"], rows["least"] * 1024 / budgets[name],
            cp[0], mp[0], mp[0] / cp[0]))
    print("\nmedian of %d runs; the seconds include each interpreter's start and, for "
          "MicroPython, reading the image. CPython fsyncs the journal after every record; the "
          "MicroPython unix port has no sync call, so its time is the application's alone."
          % REPEAT)
    print()
    with tempfile.TemporaryDirectory() as tmp:
        key_rows(Path(tmp))


if __name__ == "__main__":
    main()
