"""bench/run.py turns the bench scripts' markdown tables into build/bench.json figures (issue
17: each figure with its name, value, unit, peer and peer value, for comparing two runs)."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import run  # noqa: E402

TABLES = """| measure | value | peer | peer value | ratio |
|---|---|---|---|---|
| host ingest on SQLite (records/s, batches of 64) | 4,860 | bare executemany | 10,845 | 0.45 |
| sync of 32 boards | 1.5 s | the same over a clean cable | 1.2 s | 1.25 |

| interpreter | µs per call | ratio to CPython |
|---|---:|---:|
| micropython | 2.7 | 3.1 |
"""


def test_every_figure_has_its_name_value_unit_and_peer():
    got = run.figures("S", TABLES)
    assert [(f["name"], f["value"], f["unit"], f["peer"], f["peer_value"]) for f in got] == [
        ("host ingest on SQLite (records/s, batches of 64)", 4860.0, "records/s",
         "bare executemany", 10845.0),
        ("sync of 32 boards", 1.5, "s", "the same over a clean cable", 1.2),
        ("micropython: µs per call", 2.7, "µs per call", None, None)]


def test_two_runs_compare_figure_by_figure(tmp_path, capsys):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps({"figures": run.figures("S", TABLES)}))
    new.write_text(json.dumps({"figures": run.figures("S", TABLES.replace("4,860", "9,720"))}))
    run.compare(old, new)
    assert "| S | host ingest on SQLite (records/s, batches of 64) | records/s | 4860.0 | " \
           "9720.0 | 2.00 |" in capsys.readouterr().out
