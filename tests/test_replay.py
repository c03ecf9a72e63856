"""The replay tool (AUCTION_LOG.md) on both interpreters: same bytes, and the expected ones.

Every tests/scenarios/NAME.jsonl is replayed by `python -m bridge.replay` and by the real
`micropython -m bridge.replay`; both outputs must equal NAME.expected.jsonl byte for byte.
"""

import json
import os
import subprocess

import pytest
from bridge.replay import parse_scenario
from conftest import ROOT, compile_device, micropython_path, mpy_cross, run_device, run_image
from mpremote.romfs import VfsRomWriter

SCENARIOS = ROOT / "tests" / "scenarios"
INPUTS = sorted(p for p in SCENARIOS.glob("*.jsonl") if not p.name.endswith(".expected.jsonl"))
INTERPRETERS = ("cpython", "micropython")


def replay(path, interpreter, heapsize=None):
    proc = run_device(["-m", "bridge.replay"], interpreter=interpreter,
                      stdin=path.read_bytes(), heapsize=heapsize)
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout


@pytest.mark.parametrize("path", INPUTS, ids=[p.stem for p in INPUTS])
def test_scenarios_on_both_interpreters(path):
    expected = path.with_name(path.stem + ".expected.jsonl").read_bytes()
    outputs = [replay(path, i) for i in INTERPRETERS]
    assert outputs[0] == outputs[1], "CPython and MicroPython disagree"
    assert outputs[0] == expected


def test_one_output_per_scenario_in_order():
    """Blank lines are skipped; every other line, valid or not, gives one line out."""
    for path in INPUTS:
        lines = [x for x in path.read_text().splitlines() if x.strip()]
        out = path.with_name(path.stem + ".expected.jsonl").read_text().splitlines()
        assert len(out) == len(lines)
        for line, result in zip(lines, out):
            try:
                sid = json.loads(line).get("id")
            except (ValueError, AttributeError):
                sid = None
            assert json.loads(result)["id"] == (sid if isinstance(sid, (str, int)) else None)


def test_output_keys_in_contract_order():
    keys = ["id", "status", "turn", "calls", "contract", "declarer", "must_pass", "lead",
            "rulings", "refused"]
    for line in (SCENARIOS / "laws.expected.jsonl").read_text().splitlines():
        assert list(json.loads(line)) == keys


def run_compiled(module, tmp_path, heapsize, stdin):
    """Run `micropython -m module` with the bridge package compiled to .mpy, as on the board,
    input on stdin. The run starts in the compiled folder with "." as its path, so no path
    of this machine (repository, tmp folder) takes room in the small heap."""
    fw = compile_device(tmp_path / "fw")
    env = dict(os.environ, MICROPYPATH=".")
    cmd = [micropython_path(), "-X", "heapsize=" + heapsize, "-m", module]
    return subprocess.run(cmd, input=stdin, capture_output=True, env=env, cwd=str(fw),
                          timeout=120, check=False)


def run_in_rom(module, tmp_path, heapsize, stdin):
    """Run module.main() with the bridge package and the module compiled into a ROMFS image,
    as the board runs its code from flash (tools/romrun.py), in the heap of -X heapsize=
    `heapsize` with the image on top (conftest.heap_with_image); input on stdin."""
    fw = compile_device(tmp_path / "rom")
    subprocess.run([mpy_cross(), "-o", str(fw / (module + ".mpy")),
                    str(ROOT / "tests" / (module + ".py"))], check=True, capture_output=True)
    writer = VfsRomWriter()
    writer.mkfile(module + ".mpy", (fw / (module + ".mpy")).read_bytes())
    writer.opendir("bridge")
    for mpy in sorted((fw / "bridge").glob("*.mpy")):
        writer.mkfile(mpy.name, mpy.read_bytes())
    writer.closedir()
    (tmp_path / "probe.img").write_bytes(writer.finalise())
    return run_image(tmp_path, "probe.img", [module], heapsize, stdin)


# The budget for the engine on the board: 32 KB, with the bytecode in flash (a ROMFS
# image, as the terminal runs it). Measured on the 64-bit unix port (pointers twice the
# RP2040's): the probe needs about 26 KB there. The replay tool also decodes the whole JSON
# scenario line (~27 KB of dicts for the long one) and imports calls and lawcodes, from .mpy
# files loaded into the heap: it needs 50 KB.
ENGINE_HEAP = 32 * 1024
TOOL_HEAP = "64k"


def test_journal_rebuild_in_small_heap(tmp_path):
    """The engine plays a 60-call auction full of irregularities and rebuilds it from its
    journal within ENGINE_HEAP."""
    dealer, events = parse_scenario(json.loads((SCENARIOS / "long.jsonl").read_text()))
    journal = " ".join(str(x) for x in [dealer] + events).encode()
    proc = run_in_rom("heap_probe", tmp_path, ENGINE_HEAP, journal)
    assert proc.returncode == 0, proc.stderr.decode()
    assert json.loads(proc.stdout) == {"same": True, "calls": 61}


def test_replay_tool_long_auction_in_small_heap(tmp_path):
    path = SCENARIOS / "long.jsonl"
    proc = run_compiled("bridge.replay", tmp_path, TOOL_HEAP, path.read_bytes())
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout == path.with_name("long.expected.jsonl").read_bytes()


def test_whole_board_scenarios_go_through_the_same_tool():
    """One input mixing an auction scenario, the whole board of docs/BOARD_LOG.md and a bad
    line: bridge.replay answers each in order, the board as bridge.board_replay does."""
    auction_in = (SCENARIOS / "laws.jsonl").read_text().splitlines()[0]
    auction_out = (SCENARIOS / "laws.expected.jsonl").read_text().splitlines()[0]
    doc = (ROOT / "docs" / "BOARD_LOG.md").read_text()
    board_in, board_out = (" ".join(b.split("```")[0].split())
                           for b in doc.split("```json")[1:3])
    stdin = "\n".join([auction_in, board_in, "{not json"]).encode() + b"\n"
    outputs = [run_device(["-m", "bridge.replay"], interpreter=i, stdin=stdin).stdout
               for i in INTERPRETERS]
    assert outputs[0] == outputs[1]
    lines = outputs[0].decode().splitlines()
    assert lines[0] == auction_out
    assert json.loads(lines[1]) == json.loads(board_out)
    assert json.loads(lines[2]) == {"id": None, "error": "not valid JSON"}
