"""Reading valgrind's callgrind output: the benches that count instructions share it."""

import re
from pathlib import Path

_SUMMARY = re.compile(rb"^summary: (\d+)", re.M)


def total(path):
    """The instructions a callgrind output file (or one of its dumps) counts: its `summary`
    line (its `totals` line, the sum of the cost lines, can differ by a few thousand)."""
    return int(_SUMMARY.search(Path(path).read_bytes()).group(1))
