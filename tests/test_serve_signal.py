"""`host-sync serve` stopped with Ctrl-C or SIGTERM, or by itself with --once: real signals to a
real `host-sync serve` process syncing real micropython terminals on pseudo-terminals through
slow cables. One Ctrl-C (or SIGTERM, as a service manager stops it) lets the syncs in progress
finish; a second abandons them, safely: what was not stored is still on the terminal and the
next sync stores it, nothing lost and nothing doubled. Either way serve prints what it did and
what is pending, and exits 128 + the signal (130, 143). `--once` syncs the terminals plugged in
at its start and exits 0, or 1 naming what is pending."""

import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from conftest import ROOT
from sync_harness import Faults, Terminal, write_script
from sync_script import event_movement, results_in, table_round

from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.station.serve import Station

TABLES = 2  # terminals, at the first two tables of a 3-table Mitchell


@pytest.fixture
def evening(tmp_path):
    """An event whose 2 registered terminals have each journalled round 1 (not yet
    synced): (database path, terminals, the results they hold)."""
    path = tmp_path / "event.db"
    with open_db(path, create=True) as db:
        setup.add_session(db, setup.create_event(db, "Serve"), 1, event_movement(3))
    terminals = [Terminal(tmp_path / ("flash%d" % n), "PICO-%d" % n)
                 for n in range(1, TABLES + 1)]
    for term in terminals:  # each paired at its keypad: the station types the code it shows
        station = Station(str(path), [term.plug(pair=True)], register=True, timeout=0.5,
                          code=term.code)
        try:
            station.poll()
            assert station.wait_idle(60)
            assert [s for _, s, _, _ in station.snapshot()] == ["done"]
        finally:
            term.unplug()
    truth = {}
    for n, term in enumerate(terminals, 1):
        records, lines = table_round(40 + n, event_movement(3), n, 1)
        term.play(write_script(tmp_path / ("round%d.jsonl" % n), records))
        truth.update({(n, 1, b): line for b, line in lines.items()})
    yield path, terminals, truth
    for t in terminals:
        t.unplug()


@pytest.fixture
def start_serve():
    """Start `host-sync serve` on ports; the fixture kills whatever is still running at the
    end, so a serve that hangs cannot take over the next test's ptys (their numbers are
    reused). It runs with faulthandler on, for `stopped`."""
    started = []

    def start(path, ports, *options):
        started.append(subprocess.Popen(
            [sys.executable, "-X", "faulthandler", "-m", "host_sync", "serve", str(path),
             "--timeout", "2"] + [a for p in ports for a in ("--port", p)] + list(options),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=str(ROOT),
            env=dict(os.environ, COLUMNS="160")))
        return started[-1]
    yield start
    for serve in started:
        if serve.poll() is None:
            serve.kill()
            serve.communicate()


def stopped(serve, timeout):
    """serve's (stdout, stderr) once it has exited; if it has not within `timeout`, the
    failure shows where every thread of it was (faulthandler's dump on SIGABRT)."""
    try:
        return serve.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        serve.send_signal(signal.SIGABRT)
        out, err = serve.communicate()
        raise AssertionError("serve did not stop within %d s of Ctrl-C; its threads:\n%s\n%s"
                             % (timeout, err, out)) from None


def wait_for_syncs(path, count, timeout=60):
    """Until the station has started `count` syncs of this evening (their rows exist)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with sqlite3.connect(path) as conn:
            if conn.execute("SELECT COUNT(*) FROM syncs WHERE stored = 0 AND finished_at IS "
                            "NULL").fetchone()[0] >= count:
                return
        time.sleep(0.05)
    raise AssertionError("the syncs did not start")


def slow(seed):
    return Faults(seed=seed, delay=1.0, max_delay=0.03)


@pytest.mark.parametrize("stop, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_one_ctrl_c_lets_the_syncs_in_progress_finish_and_says_what_was_done(
        evening, start_serve, stop, status):
    path, terminals, truth = evening
    ports = [t.plug(slow(n)) for n, t in enumerate(terminals)]
    serve = start_serve(path, ports)
    wait_for_syncs(path, TABLES)
    serve.send_signal(stop)
    out, err = stopped(serve, 60)
    assert serve.returncode == status, err
    with open_db(path) as db:
        assert results_in(db) == truth  # finished, not cut off
        assert db.value("SELECT COUNT(*) FROM syncs WHERE outcome = 'done'") == 2 * TABLES
        stored = db.value("SELECT SUM(stored) FROM (SELECT stored FROM syncs ORDER BY id DESC "
                          "LIMIT ?)", (TABLES,))  # serve's syncs, after the pairings'
    assert "stopped: 2 terminals synced, %d records stored, 0 repeats" % stored in out
    assert "flags raised: 0; open in the event: 0" in out and "nothing pending" in out
    table = out.split("stopped:")[0]  # the live table's last state: no row left mid-sync
    assert table.count(" done ") == TABLES and "pulling" not in table


def test_a_second_ctrl_c_abandons_them_and_the_next_sync_stores_the_rest(evening, start_serve):
    path, terminals, truth = evening
    ports = [t.plug(Faults(seed=n, delay=1.0, max_delay=0.3)) for n, t in enumerate(terminals)]
    serve = start_serve(path, ports)
    wait_for_syncs(path, TABLES)
    serve.send_signal(signal.SIGINT)
    time.sleep(0.3)
    serve.send_signal(signal.SIGINT)
    out, err = stopped(serve, 30)
    assert serve.returncode == 130, err
    pending = [line for line in out.splitlines() if line.startswith("pending: ")]
    assert len(pending) == TABLES and all("abandoned" in line for line in pending), out
    assert "nothing pending" not in out and "abandoned: what it has not stored" in out
    for t in terminals:
        t.unplug()
    ports = [t.plug() for t in terminals]
    station = Station(str(path), ports, timeout=0.5)
    station.poll()
    assert station.wait_idle(60)
    assert [s for _, s, _, _ in station.snapshot()] == ["done"] * TABLES
    with open_db(path) as db:
        assert results_in(db) == truth
        assert db.value("SELECT COUNT(*) FROM records") == db.value(
            "SELECT COUNT(DISTINCT terminal_id || ':' || seq) FROM records")


def test_once_syncs_the_terminals_plugged_in_and_exits_saying_which_did_not(evening,
                                                                          start_serve,
                                                                          tmp_path):
    path, terminals, truth = evening
    ports = [t.plug(slow(n)) for n, t in enumerate(terminals)]
    unplugged = str(tmp_path / "ttyACM9")  # named, but no terminal on it
    serve = start_serve(path, ports + [unplugged], "--once")
    out, err = stopped(serve, 120)
    assert serve.returncode == 1, (out, err)
    with open_db(path) as db:
        assert results_in(db) == truth
    pending = [line for line in out.splitlines() if line.startswith("pending: ")]
    assert pending == ["pending: %s (terminal ?): port not found; ? records still on it"
                       % unplugged], out
    assert "stopped: 2 terminals synced" in out

    serve = start_serve(path, ports, "--once")  # again: nothing new, nothing pending
    out, err = stopped(serve, 120)
    assert serve.returncode == 0, (out, err)
    assert "stopped: 2 terminals synced, 0 records stored" in out and "nothing pending" in out
    with open_db(path) as db:
        assert results_in(db) == truth


def test_once_with_no_terminal_plugged_in_is_refused(evening, start_serve, tmp_path):
    path = evening[0]
    with open_db(path) as db:
        syncs = db.value("SELECT COUNT(*) FROM syncs")
    serve = start_serve(path, [str(tmp_path / "ttyACM9")], "--once")
    out, err = stopped(serve, 60)
    assert serve.returncode == 2 and "--once: no terminal is plugged in" in err, (out, err)
    with open_db(path) as db:
        assert db.value("SELECT COUNT(*) FROM syncs") == syncs
