"""The tree the unix port runs in the tests: exactly what `make flash` puts on a stock Pico
(tools/flash.py build_tree: the .mpy modules and main.py), plus the simulator's backend and
key-script runner (tools/romfs.py SIM_ONLY), compiled with the tree's own UI text numbering
so that every planned file runs byte for byte as the board gets it."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import flash  # noqa: E402
import romfs  # noqa: E402


def board_tree(dest):
    """Build the flash tree in dest with the simulator's modules added; returns
    (the plan's [(path, size)], the added [(path, size)])."""
    planned = flash.build_tree(dest)
    texts = {rel: src.read_text(encoding="utf-8") for rel, src in romfs.sources()
             if rel.startswith("terminal/")}
    added = romfs.compile_tree(dest, sim=True, only=romfs.SIM_ONLY,
                               numbers=romfs.ui_text_numbers(texts))
    return planned, added


def settle(path):
    """The journal at `path` in one file: PATH.t's bytes moved onto PATH and PATH.t removed,
    which is what a finished fold leaves (terminal.journal's module docstring), for the tests
    that cut, flip or compare the bytes of one file. Returns PATH's bytes."""
    path = Path(path)
    tail = tail_of(path)
    if tail.exists():
        with open(path, "ab") as f:
            f.write(tail.read_bytes())
        tail.unlink()
    return path.read_bytes()


def tail_of(path):
    """The journal's tail file beside PATH (terminal.journal: PATH.t)."""
    return path.with_name(path.name + ".t")
