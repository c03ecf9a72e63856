"""`make sim` in a console too small for the display says so, in Russian and English, and
stops before drawing (tools/sim.py)."""

import os
import subprocess
import sys

import pytest
from conftest import ROOT


@pytest.mark.parametrize("columns, lines", [(80, 24), (200, 30), (129, 40)])
def test_a_console_smaller_than_130_by_40_is_told_and_nothing_is_drawn(tmp_path, columns,
                                                                       lines):
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "sim.py"), "--out",
                           str(tmp_path)], env=dict(os.environ, COLUMNS=str(columns),
                                                    LINES=str(lines)),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert "нужно окно не меньше 130 столбцов и 40 строк, а сейчас %dx%d" % (columns, lines) \
        in done.stderr
    assert "needs a console of at least 130 columns and 40 lines" in done.stderr
    assert not (tmp_path / "journal").exists()
