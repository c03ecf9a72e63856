"""`make flash` for a stock Raspberry Pi Pico (tools/flash.py): the plan printed without a
board names every file of the tree and the mpremote commands that copy it, and the app runs
from that exact tree under the real MicroPython (the heap tests in
tests/test_terminal_session.py play whole sessions from it)."""

import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, micropython_path
from flash_support import board_tree, flash, romfs


def files_in(folder):
    return sorted(p.relative_to(folder).as_posix() for p in Path(folder).rglob("*")
                  if p.is_file())


def test_the_plan_names_every_file_and_the_commands_with_no_board():
    got = subprocess.run([sys.executable, str(ROOT / "tools" / "flash.py"), "--plan"],
                         capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, PATH="/usr/bin:/bin"))  # no mpremote to find
    assert got.returncode == 0, got.stderr
    out = got.stdout
    tree = ROOT / "build" / "flash"
    names = files_in(tree)
    want = sorted([rel[:-3] + ".mpy" for rel, _ in romfs.sources()] + ["main.py"])
    assert names == want
    for name in names:
        assert "%8d  %s\n" % ((tree / name).stat().st_size, name) in out
    assert "%d files" % len(names) in out
    assert ("mpremote cp -r build/flash/bridge build/flash/hw build/flash/terminal : + "
            "cp build/flash/main.py :main.py + df") in out
    assert "mpremote romfs deploy build/firmware/romfs.img" in out
    assert "romfs query" in out
    # nothing a board is never given: the desktop backends, the test fakes, the host's tools
    assert not any("fake_machine" in n or "keyscript" in n or "rpi" in n for n in names)


def test_the_copy_is_one_mpremote_command_sequence_ending_with_the_free_flash():
    cmds = flash.commands(Path("t"))
    fs = cmds["filesystem"]
    assert fs.count("+") == 2 and fs[-1] == "df" and fs[1:3] == ["cp", "-r"]
    assert fs[3:7] == ["t/bridge", "t/hw", "t/terminal", ":"]
    assert cmds["romfs"][1:3] == ["romfs", "deploy"] and cmds["romfs"][-1] == "df"
    assert flash.commands(Path("t"), "/dev/ttyACM0")["probe"][1:3] == ["connect",
                                                                      "/dev/ttyACM0"]


def test_the_probe_picks_the_path_and_refuses_an_old_firmware():
    import pytest

    stock = "mpy (1, 27) 6\nROMFS is not enabled on this device\n"
    assert flash.path_for(stock) == "filesystem"
    assert flash.path_for("mpy (1, 25) 6\nNo ROMFS partitions available\n") == "filesystem"
    assert flash.path_for("mpy (1, 27) 6\nROMFS0 partition has size 131072 bytes (32 "
                          "blocks of 4096 bytes each)\n") == "romfs"
    for old in ("mpy (1, 22) 6\n", "mpy (1, 18) 5\n", "Traceback ...\n"):
        with pytest.raises(SystemExit):
            flash.path_for(old)


def test_the_app_runs_from_the_planned_tree_byte_for_byte(tmp_path):
    """The simulator's modules are added to the planned tree, never put in place of a
    planned file; a key script then runs from the tree under micropython with nothing else
    on its path."""
    tree = tmp_path / "tree"
    planned, added = board_tree(tree)
    alone = tmp_path / "alone"
    flash.build_tree(alone)
    assert files_in(alone) == sorted(n for n, _ in planned)
    for name, _ in planned:
        assert (tree / name).read_bytes() == (alone / name).read_bytes(), name
    assert sorted(n for n, _ in added) == sorted(r[:-3] + ".mpy" for r in romfs.SIM_ONLY)
    (tmp_path / "s.keys").write_text("shot first\n")
    (tmp_path / "out").mkdir()
    got = subprocess.run([micropython_path(), "-m", "terminal.keyscript", "s.keys", "out"],
                         capture_output=True, cwd=str(tmp_path), timeout=60,
                         env=dict(os.environ, MICROPYPATH="tree"))
    assert got.returncode == 0, got.stdout + got.stderr
    assert (tmp_path / "out" / "first.txt").read_text(encoding="utf-8").startswith(
        "\u041d\u0430\u0447\u0430\u043b\u043e")  # Начало сессии: the start screen
