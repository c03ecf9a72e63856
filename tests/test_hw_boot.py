"""Start-up on the board (device/main.py, terminal.boot), run under MicroPython from the
flash tree on the contract-enforcing fake `machine` with a virtual clock
(tests/boot_driver.py): the watchdog is fed through the boot screen and every turn, an
exception is logged to error.log and the terminal restarts where it was, never a traceback
on the link, maintenance leaves the REPL alone, and the self-test counts every key."""

import json
import os
import shutil
import subprocess

import pytest
from conftest import ROOT, micropython_path
from flash_support import board_tree
from terminal_support import make_config, write_config

OK = "4,2"  # matrix positions (hw/layout.py)
BACK, DIR, MENU = "4,0", "4,4", "3,4"


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    folder = tmp_path_factory.mktemp("boot-tree")
    board_tree(folder / "tree")
    return folder / "tree"


def power_on(tree, folder, turns, *events, config=True):
    """Run main() for `turns` loop turns; (the report, stdout, error.log or None)."""
    folder.mkdir(exist_ok=True)
    shutil.copy(ROOT / "hw" / "backends" / "fake_machine.py", folder / "fake_machine.py")
    shutil.copy(ROOT / "tests" / "boot_driver.py", folder / "boot_driver.py")
    if config:
        write_config(folder / "config.cbor", make_config())
    got = subprocess.run([micropython_path(), "boot_driver.py", str(turns)] + list(events),
                         capture_output=True, cwd=str(folder), timeout=120,
                         env=dict(os.environ, MICROPYPATH="%s:." % tree))
    out = got.stdout.decode()
    assert got.returncode == 0, out + got.stderr.decode()
    log = folder / "error.log"
    return json.loads(out.splitlines()[-1]), out, log.read_text() if log.exists() else None


def keys_at(at, *positions):
    """Press and release each matrix position in turn, 200 ms apart, from `at`."""
    out = []
    for p in positions:
        out += ["%d:press:%s" % (at, p), "%d:release:%s" % (at + 100, p)]
        at += 200
    return out


def test_boot_then_keys_under_the_watchdog(tree, tmp_path):
    report, out, log = power_on(tree, tmp_path / "a", 3000, *keys_at(4000, OK, OK))
    assert report["term"] and report["lit"] and report["records"] > 0
    assert report["feeds"] > 3000  # every turn and every poll of the boot screen
    assert log is None and "Traceback" not in out


def test_an_exception_is_logged_and_the_terminal_restarts_where_it_was(tree, tmp_path):
    """The display's cable comes loose while a key is handled (EIO), then is plugged back;
    after the fault screen's OK the terminal is rebuilt from the journal: the same records,
    the same screen as a run without the fault, and nothing of it on the link (stdout)."""
    clean, _, _ = power_on(tree, tmp_path / "clean", 3000, *keys_at(4000, OK, OK))
    events = keys_at(4000, OK) + ["4150:unplug"] + keys_at(4200, OK) + ["4500:plug"] + \
        keys_at(5000, OK)  # the fault screen's OK: three failures in a row came before
    report, out, log = power_on(tree, tmp_path / "fault", 3000, *events)
    assert log.count("OSError: [Errno 5] EIO") >= 3 and "Traceback" in log
    assert "Traceback" not in out and ">>>" not in out
    assert report["term"] and report["records"] == clean["records"]
    assert report["ram"] == clean["ram"]


def test_maintenance_at_power_on_leaves_the_repl_and_starts_no_watchdog(tree, tmp_path):
    report, _, log = power_on(tree, tmp_path / "m", 100, "0:press:" + BACK, "0:press:" + DIR)
    assert report["term"] is False and report["feeds"] == -1 and report["lit"]
    assert log is None


def test_self_test_clicks_every_key_and_leaves_on_a_held_back(tree, tmp_path):
    from hw import layout

    positions = ["%d,%d" % divmod(i, 5) for i, k in enumerate(layout.LAYOUT)
                 if k != layout.NO_KEY]
    events = ["0:press:" + MENU, "150:release:" + MENU] + keys_at(2000, *positions) + \
        ["8000:press:" + BACK, "10000:release:" + BACK]
    report, out, log = power_on(tree, tmp_path / "s", 3000, *events)
    assert report["term"] and log is None
    # the self-test's 24 keys and held BACK (released into the app: no record, no click)
    assert report["clicks"] >= 24
    assert not (tmp_path / "s" / "selftest.tmp").exists()
    # its outcome is journaled for the host (docs/RECORDS.md `st`): every key, the flash
    st = report["st"]
    assert st["k"] == sum(1 << k for k in layout.LAYOUT if k != layout.NO_KEY)
    assert st["fl"] == 1 and st["lit"] == 1 and st["led"] >= 2
    assert st["bz"] == 25  # a click for each key, and for the press of the BACK held
    assert st["fw"]


def test_a_partial_self_test_is_journaled_as_it_was(tree, tmp_path):
    """Five keys pressed, then BACK held: the record says which five (and BACK), no more."""
    from hw import layout

    positions = ["%d,%d" % divmod(i, 5) for i, k in enumerate(layout.LAYOUT)
                 if k != layout.NO_KEY][:5]
    events = ["0:press:" + MENU, "150:release:" + MENU] + keys_at(2000, *positions) + \
        ["4000:press:" + BACK, "6000:release:" + BACK]
    report, _, log = power_on(tree, tmp_path / "p", 2000, *events)
    pressed = [k for k in layout.LAYOUT if k != layout.NO_KEY][:5]
    assert log is None and report["st"]["k"] == sum(1 << k for k in pressed) | (
        1 << layout.LAYOUT[4 * 5 + 0])
    assert report["st"]["bz"] == 6


def test_no_self_test_no_record(tree, tmp_path):
    report, _, _ = power_on(tree, tmp_path / "n", 2000, *keys_at(4000, OK))
    assert report["st"] is None


def test_the_boot_screen_says_what_to_do_about_the_configuration():
    from terminal import boot, ui_text
    from terminal.config import Config

    missing = boot.boot_lines(Config(None), "e66141040")
    bad = Config("not a map")
    assert ui_text.t("cfg_none") in missing[0] and ui_text.t("cfg_none1") in missing
    assert "ID e66141040" in missing and any("MicroPython" in x for x in missing)
    assert boot.boot_lines(bad, "x")[0] == ui_text.t("cfg_bad")
    assert ui_text.t("cfg_bad1") % "not a map" in boot.boot_lines(bad, "x")
