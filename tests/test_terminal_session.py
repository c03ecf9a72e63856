"""A whole 32-board session (8 rounds; full auctions, irregularities and rulings, results,
verification, a dispute, adjusted scores, an erased result, corrections) on the real
MicroPython with the code in a ROMFS image, under a heap budget; the same session with every
card recorded (setting `play`) under its own budget; and the same records as CPython writes
from the same keys.

The heap is measured from inside (terminal.keyscript): gc.mem_alloc() after gc.collect()
at every key, minus the image buffer (on the board the image is flash). The budgets are the
figures this code meets on the 64-bit unix port today; the issue's 64 KB is not met yet
(BENCHMARKS.md): objects there are about twice their RP2040 size. What the heap holds is
mostly the loaded modules' function and class objects (about 110 bytes per function, 300 per
class, even with the bytecode in flash) and the qstr pool (its pools double: 7 KB more past
630 names, 14 KB more past 1270). So the app loads one group of screens at a time
(App.use: round, board, director, traveller, play) and forgets the others, and the
configuration's parser is dropped once it is read. The run's heap leaves 16 KB above the
budget for what a key allocates between two samples (a screen module loading, a frame).
"""

import json
import subprocess

import pytest
from conftest import ROOT, micropython_path
from terminal import keyscript  # noqa: E402
from terminal_support import (
    journal_records,
    make_config,
    play_session_script,
    session_script,
    write_config,
)

# measured 79,294..79,326 bytes (91,142 before the screens were loaded by turns, 79,922
# before the UI text keys were numbered in the image and the Laws' texts forgotten)
# The budgets keep 1.5 KB above the measured peaks: the run's own paths (tmp folders, the
# repository's location) sit in the heap and differ from machine to machine.
HEAP_BUDGET = 79 * 1024
PLAY_HEAP_BUDGET = 95 * 1024  # measured 95,262..95,390 bytes (99,718, then 95,570 before)
GC_BLOCK = 16  # the unix port's GC block (64-bit): the heap size is rounded up to it


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    folder = tmp_path_factory.mktemp("session")
    script = folder / "session.keys"
    script.write_text(session_script())
    config = write_config(folder / "config.cbor", make_config())
    return folder, script, config


def test_session_in_cpython(session):
    folder, script, config = session
    out = folder / "cpython"
    out.mkdir()
    error, runner = keyscript.run(str(script), str(out), config)
    assert error is None, error
    records = journal_records(out / "journal")
    kinds = [k for _, k, _ in records]
    assert kinds.count("open") == 8 and kinds.count("close") == 8
    assert sorted(d["b"] for _, k, d in records if k == "board") == list(range(1, 33))
    assert {d["law"] for _, k, d in records if k == "flag" and d["why"] == "irregular"} == \
        {"27", "38"}
    assert {d["how"] for _, k, d in records if k == "adj"} == {"art", "asg", "wgt", "np"}
    verified = {d["b"] for _, k, d in records if k == "ver" and d["ok"] == 1}
    adjusted = {d["b"] for _, k, d in records if k == "adj"}
    assert verified | adjusted == set(range(1, 33))


def run_in_rom(folder, script, config, budget):
    """The key script under MicroPython, code in a ROMFS image, with a heap of the image, the
    budget and 16 KB for transient allocations and fragmentation; returns (the report, the
    journal)."""
    image = folder / "sim.img"
    if not image.exists():
        subprocess.run([str(ROOT / ".venv" / "bin" / "python"),
                        str(ROOT / "tools" / "romfs.py"), str(image), "--sim", "--quiet"],
                       check=True)
    size = image.stat().st_size
    heap = (size + budget + 16 * 1024 + GC_BLOCK - 1) // GC_BLOCK * GC_BLOCK
    out = folder / "micropython"
    out.mkdir()
    run = subprocess.run([micropython_path(), "-X", "heapsize=%d" % heap,
                          str(ROOT / "tools" / "romrun.py"), str(image), "terminal.keyscript",
                          str(script), str(out), "--config", config],
                         capture_output=True, timeout=120, env={"MICROPYPATH": "/nonexistent"})
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(run.stdout.decode().splitlines()[0])
    print("image %d bytes, heap peak %d bytes over %d samples" % (size, report["peak"],
                                                                  report["samples"]))
    assert report["samples"] == report["keys"] + 1
    return report, out / "journal"


def test_session_under_micropython_within_the_heap_budget(session):
    folder, script, config = session
    report, journal = run_in_rom(folder, script, config, HEAP_BUDGET)
    assert 0 < report["peak"] <= HEAP_BUDGET
    cpython = folder / "cpython" / "journal"
    if not cpython.exists():  # the CPython test ran in another worker (pytest -n)
        (folder / "cpython").mkdir(exist_ok=True)
        keyscript.run(str(script), str(folder / "cpython"), config)
    assert [(k, d) for _, k, d in journal_records(journal)] == \
        [(k, d) for _, k, d in journal_records(cpython)]


def test_session_with_the_play_recorded_within_its_heap_budget(tmp_path):
    rehearsal = tmp_path / "rehearsal"
    rehearsal.mkdir()
    data, text = play_session_script(rehearsal)
    script = tmp_path / "play.keys"
    script.write_text(text)
    config = write_config(tmp_path / "config.cbor", data)
    report, journal = run_in_rom(tmp_path, script, config, PLAY_HEAP_BUDGET)
    assert 0 < report["peak"] <= PLAY_HEAP_BUDGET and report["boards_done"] == 32
    records = journal_records(journal)
    assert [(k, d) for _, k, d in records] == \
        [(k, d) for _, k, d in journal_records(rehearsal / "journal")]
    assert sum(1 for _, k, _ in records if k == "card") > 32 * 40
    # a claim on every fourth board but the passed-out ones (4, 16, 28)
    assert sum(1 for _, k, d in records if k == "claim" and d["ok"] == 1) == 5


def test_the_image_numbers_the_ui_text_keys_and_keeps_every_text():
    """tools/romfs.py writes t("key") as t(N) in the image; each text must stay the same, and
    a key also named elsewhere (a table looked up at run time) must keep its name."""
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    import romfs
    from terminal import ui_text

    texts = {rel: src.read_text(encoding="utf-8") for rel, src in romfs.sources(True)
             if rel.startswith("terminal/")}
    numbers = romfs.ui_text_numbers(texts)
    assert len(numbers) > 100 and "section" not in numbers  # round_ui._FIELDS looks it up
    numbered = {}
    exec(compile(romfs.numbered(romfs.UI_TEXT, texts[romfs.UI_TEXT], numbers), "ui_text",
                 "exec"), numbered)
    assert 't(%d)' % numbers["start"] in romfs.numbered("terminal/round_ui.py",
                                                        texts["terminal/round_ui.py"], numbers)
    try:
        for lang in ui_text.LANGS:
            ui_text.set_lang(lang)
            numbered["set_lang"](lang)
            for key, n in numbers.items():
                assert numbered["t"](n) == ui_text.t(key)
            assert numbered["t"]("section") == ui_text.t("section") != "section"
    finally:
        ui_text.set_lang("ru")
