"""`make bench`: every benchmark of the project, each against its named peer in the same run.

Runs each bench script in turn (they print markdown tables of medians and ratios), prints
everything and keeps a copy in build/bench.md, from which BENCHMARKS.md is written, and every
figure of those tables in build/bench.json, so that a script can compare two runs
(`python bench/run.py --compare OLD.json NEW.json`).

A figure in bench.json is {"section", "name", "value", "unit", "peer", "peer_value", "text"}.
A table headed `measure | value | peer | peer value | ...` gives one figure a row, its unit
taken from the parentheses of the measure's name (or the words after the value's number); in
any other table every numeric cell after the first column is a figure named by its row and
its column (the column's header is its unit), with no peer; ratio columns are left out, being
derived from two figures.
"""

import json
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = [
    ("Laws core: auction checking and contract scoring", "core_bench.py"),
    ("Play: checking cards", "play_bench.py"),
    ("Link: CBOR, frames, journal", "link_bench.py"),
    ("Hardware: display text and keypad scan", "hw_bench.py"),
    ("Terminal: firmware size, session heap, key handling", "terminal_bench.py"),
    ("Scoring: matchpoints and sessions against bridge-scorer", "scoring_bench.py"),
    ("Sync: protocol efficiency, sync time, ingest", "sync_bench.py"),
    ("Ingest on SQLite and PostgreSQL, several stations", "pg_ingest_bench.py"),
    ("Live page: a sync to the result on the open page", "web_bench.py"),
    ("Report: double-dummy analysis kept in the database", "report_cache.py"),
]
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def number(text):
    """The first number in a table cell (1,234.5 -> 1234.5), or None."""
    found = _NUMBER.search(text.replace("\u2009", ""))
    return None if found is None else float(found.group().replace(",", ""))


def _cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def figures(section, text):
    """Every figure of the markdown tables in one script's output (see the module's doc)."""
    found, header = [], None
    for line in text.splitlines():
        if not line.lstrip().startswith("|"):
            header = None
            continue
        cells = _cells(line)
        if header is None:
            header = [c.lower() for c in cells]
            continue
        if all(set(c) <= set("-: ") for c in cells):
            continue
        if header[:4] == ["measure", "value", "peer", "peer value"] and len(cells) >= 4:
            unit = re.search(r"\(([^),]+)", cells[0])
            rest = _NUMBER.split(cells[1], 1)
            found.append({"section": section, "name": cells[0], "value": number(cells[1]),
                          "unit": unit.group(1) if unit else rest[-1].strip() or None,
                          "peer": cells[2], "peer_value": number(cells[3]), "text": cells[1]})
            continue
        for head, cell in zip(header[1:], cells[1:]):
            if "ratio" in head or head.startswith("vs") or number(cell) is None:
                continue
            found.append({"section": section, "name": "%s: %s" % (cells[0], head),
                          "value": number(cell), "unit": head, "peer": None,
                          "peer_value": None, "text": cell})
    return found


def compare(old_path, new_path):
    """Print each figure of two bench.json files side by side, with new / old."""
    def keyed(path):
        return {(f["section"], f["name"]): f for f in json.loads(Path(path).read_text())[
            "figures"]}
    old, new = keyed(old_path), keyed(new_path)
    print("| section | figure | unit | old | new | new / old |")
    print("|---|---|---|---:|---:|---:|")
    for key in list(old) + [k for k in new if k not in old]:
        a, b = old.get(key, {}).get("value"), new.get(key, {}).get("value")
        print("| %s | %s | %s | %s | %s | %s |" % (
            key[0], key[1], (new.get(key) or old.get(key))["unit"], a, b,
            "%.2f" % (b / a) if a and b is not None else "-"))


def main():
    if sys.argv[1:2] == ["--compare"] and len(sys.argv) == 4:
        return compare(sys.argv[2], sys.argv[3])
    out = ["# make bench, %s\n" % time.strftime("%Y-%m-%d %H:%M")]
    measured = []
    for title, script in SCRIPTS:
        path = ROOT / "bench" / script
        if not path.exists():
            continue
        start = time.monotonic()
        proc = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                              cwd=ROOT)
        section = ["## %s (`python bench/%s`, %.0f s)\n" % (title, script,
                                                           time.monotonic() - start)]
        section.append(proc.stdout if proc.returncode == 0 else
                       "FAILED (exit %d):\n```\n%s\n```\n" % (proc.returncode, proc.stderr[-2000:]))
        print("\n".join(section), flush=True)
        out.extend(section)
        if proc.returncode == 0:
            measured += figures(title, proc.stdout)
    (ROOT / "build").mkdir(exist_ok=True)
    (ROOT / "build" / "bench.md").write_text("\n".join(out))
    (ROOT / "build" / "bench.json").write_text(json.dumps(
        {"run": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "figures": measured}, indent=1,
        ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
