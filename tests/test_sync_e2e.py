"""End to end: 8 terminals as real `micropython` processes on pseudo-terminals, each playing a
scripted round; the station (`host_sync.station.serve.Station`) syncs them all at once, through a
cable that may drop, corrupt, duplicate and delay bytes or cut the link; terminals are killed
mid-write and the host mid-sync. Whatever happens, once everything is synced again the
database equals the one a clean run gives: nothing lost, nothing doubled.
"""

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter

import pytest
from conftest import ROOT
from sync_harness import Faults, Terminal, write_script
from sync_script import database_digest, event_movement, results_in, table_round

from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.interchange.pbn.read import read_file
from host_sync.station.serve import Station

TABLES = 8
ROUND = 1


def make_event(path, tables=TABLES):
    db = open_db(path, create=True)
    eid = setup.create_event(db, "E2E pairs")
    names = {p: ["Player %dA" % p, "Player %dB" % p] for p in range(1, 2 * tables + 1)}
    setup.add_session(db, eid, 1, event_movement(tables), names=names)
    setup.set_director_pin(db, eid, "2468")
    db.close()
    return path


def station_sync(db_path, terminals, faults=None, register=False, timeout=0.3):
    """Plug every terminal in (through its cable), run the station until all are synced or
    failed, unplug; returns {ident: (state, error)}. register: each terminal is paired first,
    as a person does it (director mode, 6 on its keypad), and the station types each code."""
    ports = {t.ident: t.plug(faults(t) if faults else None, pair=register) for t in terminals}
    codes = {t.ident: t.code for t in terminals} if register else None
    station = Station(db_path, list(ports.values()), register=register, timeout=timeout,
                      code=codes)
    try:
        station.poll()
        assert station.wait_idle(60), "the station did not finish"
        states = {path: (state, error) for path, state, _, error in station.snapshot()}
    finally:
        for t in terminals:
            t.unplug()
    return {ident: states[path] for ident, path in ports.items()}


def sync_until_done(db_path, terminals, faults=None, rounds=8):
    """Re-plug the terminals that failed until every one has synced (a scorer would)."""
    left = list(terminals)
    for n in range(rounds):
        states = station_sync(db_path, left, faults if n < rounds - 1 else None)
        left = [t for t in left if states[t.ident][0] != "done"]
        if not left:
            return n + 1
    raise AssertionError("terminals never synced: %s" % [t.ident for t in left])


def setup_terminals(tmp, db_path, kill_play=False, tables=TABLES):
    """Register fresh terminals at the station (one a table of make_event's event), then
    journal each one's scripted round."""
    movement = event_movement(tables)
    terminals = [Terminal(tmp / ("flash%d" % t), "PICO-%02d" % t) for t in range(1, tables + 1)]
    states = station_sync(db_path, terminals, register=True)
    assert all(s == ("done", None) for s in states.values()), states
    truth = {}
    rng = random.Random(5)
    for n, term in enumerate(terminals, 1):
        records, lines = table_round(100 + n, movement, n, ROUND)
        script = write_script(tmp / ("round%d.jsonl" % n), records)
        if kill_play and n % 2:
            term.play(script, kill_after=rng.uniform(0.0, 0.05))  # killed mid-round
            with open(term.folder / "journal", "ab") as f:
                f.write(bytes(rng.randrange(1, 256) for _ in range(rng.randint(1, 40))))
        term.play(script)  # the terminal is switched on again and the round goes on
        truth.update({(n, ROUND, b): line for b, line in lines.items()})
    return terminals, truth


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("clean")
    db_path = make_event(tmp / "event.db")
    terminals, truth = setup_terminals(tmp, db_path)
    states = station_sync(db_path, terminals)
    db = open_db(db_path)
    yield {"db": db, "states": states, "truth": truth, "terminals": terminals}
    db.close()


def test_eight_terminals_sync_at_once_and_the_database_is_the_truth(clean_run):
    db = clean_run["db"]
    assert all(s == ("done", None) for s in clean_run["states"].values())
    assert results_in(db) == clean_run["truth"]
    assert len(clean_run["truth"]) == TABLES * 4
    assert db.all("SELECT * FROM flags") == []
    # every table's round was claimed by its own terminal and closed
    rows = db.all("SELECT t.number, r.terminal_id, r.closed FROM rounds r JOIN tables t "
                  "ON t.id = r.table_id WHERE r.number = ?", (ROUND,))
    assert sorted(tuple(r) for r in rows) == [
        (n, "PICO-%02d" % n, 1) for n in range(1, TABLES + 1)]
    # every traveller line was audited as written in its transaction; the records are their
    # own log (host_sync.event.db.LOGS)
    assert db.value("SELECT COUNT(*) FROM audit WHERE tbl = 'results' AND action = 'insert'") == \
        db.value("SELECT COUNT(*) FROM results")
    assert db.value("SELECT COUNT(*) FROM audit WHERE tbl = 'records'") == 0


def test_terminals_compacted_and_got_their_configuration_and_travellers(clean_run):
    from terminal import cbor
    from terminal.config import Config
    from terminal.journal import Journal
    db = clean_run["db"]
    for n, term in enumerate(clean_run["terminals"], 1):
        key = bytes.fromhex(db.value("SELECT key FROM terminals WHERE id = ?", (term.ident,)))
        j = Journal(str(term.folder / "journal"), key, term.ident)
        assert j.base == j.last == db.value(
            "SELECT last_seq FROM terminals WHERE id = ?", (term.ident,))
        config = Config(cbor.decode((term.folder / "config.cbor").read_bytes()))
        assert config.errors == []
        assert (config.table, config.section) == (n, "A")
        assert config.round(ROUND)[2:4] == tuple(
            event_movement(TABLES).boards_for(ROUND, n)[i] for i in (0, -1))
        assert config.pin_ok("2468") and not config.pin_ok("1357")
        travellers = cbor.decode((term.folder / "travellers.cbor").read_bytes())
        boards = {b for (t, _, b) in clean_run["truth"] if t == n}
        assert set(travellers) == boards
        for b in boards:
            line = clean_run["truth"][(n, ROUND, b)]
            assert [line[5]] == [row[6] for row in travellers[b]]  # one table per board


def test_faulty_cables_lose_and_double_nothing(clean_run, tmp_path):
    db_path = make_event(tmp_path / "event.db")
    terminals, truth = setup_terminals(tmp_path, db_path)
    assert truth == clean_run["truth"]

    plugs = []

    def faults(term):
        n = int(term.ident[-2:])
        seed = n * 7919 + len(plugs)
        cut = random.Random(seed).randint(50, 1500) if n % 3 == 0 else None
        plugs.append(Faults(seed, drop=0.04, corrupt=0.04, duplicate=0.04, delay=0.1,
                            cut_after=cut))
        return plugs[-1]

    rounds = sync_until_done(db_path, terminals, faults)
    db = open_db(db_path)
    try:
        assert results_in(db) == truth
        assert database_digest(db) == database_digest(clean_run["db"])
        done = sum((Counter(f.counts) for f in plugs), Counter())
        refused = Counter()
        for row in db.all("SELECT refused FROM syncs"):
            refused.update(json.loads(row["refused"]))
        print("faults", dict(done), "refused", dict(refused), "plug rounds", rounds)
        assert all(done[k] for k in ("drop", "corrupt", "duplicate", "delay", "cut"))
        assert refused["crc"] + refused["cobs"] + refused["short"] > 0
    finally:
        db.close()


def test_killed_terminals_and_a_killed_host_lose_and_double_nothing(clean_run, tmp_path):
    db_path = make_event(tmp_path / "event.db")
    terminals, truth = setup_terminals(tmp_path, db_path, kill_play=True)
    # the host is killed (SIGKILL) in the middle of syncing each of three terminals
    for term in terminals[:3]:
        port = term.plug(Faults(1, delay=1.0, max_delay=0.004))
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        host = subprocess.Popen([sys.executable, "-m", "host_sync", "sync",
                                 str(db_path), "--port", port, "--timeout", "0.5"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and host.poll() is None:
            con = sqlite3.connect(str(db_path), timeout=5)
            n = con.execute("SELECT COUNT(*) FROM records WHERE terminal_id = ?",
                            (term.ident,)).fetchone()[0]
            con.close()
            if n:
                break
            time.sleep(0.01)
        host.send_signal(signal.SIGKILL)
        host.communicate()
        term.unplug()
    db = open_db(db_path)
    partial = db.value("SELECT COUNT(*) FROM records")
    db.close()
    total = len(database_digest(clean_run["db"])["records"])
    print("records stored when the host was killed:", partial, "of", total)
    assert 0 < partial < total
    sync_until_done(db_path, terminals)
    db = open_db(db_path)
    try:
        assert results_in(db) == truth
        assert database_digest(db) == database_digest(clean_run["db"])
    finally:
        db.close()


def test_a_terminal_follows_the_session_made_current(tmp_path):
    """A new session made current between rounds: what the terminal recorded under the old
    configuration stays in the old session; once the station has pushed the new session's
    configuration, the terminal's records belong to the new one."""
    db_path = make_event(tmp_path / "event.db")
    term = Terminal(tmp_path / "flash", "PICO-01")
    assert station_sync(db_path, [term], register=True) == {"PICO-01": ("done", None)}
    db = open_db(db_path)
    setup.register_terminal(db, "PICO-01", 0, section="A", table=1)  # placed: it is given
    assert station_sync(db_path, [term]) == {"PICO-01": ("done", None)}  # session 1's table
    eid = setup.the_event(db)[0]
    setup.add_session(db, eid, 2, event_movement(TABLES))  # and it is current now
    sessions = [r["id"] for r in db.all("SELECT id FROM sessions ORDER BY number")]

    def claimed():
        return sorted(r["session_id"] for r in db.all(
            "SELECT se.session_id FROM rounds ro JOIN tables t ON t.id = ro.table_id "
            "JOIN sections se ON se.id = t.section_id WHERE ro.terminal_id = 'PICO-01'"))

    records, _ = table_round(7, event_movement(TABLES), 1, ROUND)
    term.play(write_script(tmp_path / "old.jsonl", records))  # made before the push
    assert station_sync(db_path, [term]) == {"PICO-01": ("done", None)}
    assert claimed() == [sessions[0]]
    assert db.value("SELECT session_id FROM terminals WHERE id = 'PICO-01'") == sessions[1]
    term.play(write_script(tmp_path / "new.jsonl", records))  # the new session's round 1
    assert station_sync(db_path, [term]) == {"PICO-01": ("done", None)}
    assert claimed() == sessions
    db.close()


def host_sync(*args):
    return subprocess.run([sys.executable, "-m", "host_sync", *map(str, args)],
                          capture_output=True, text=True, timeout=120, check=False)


def test_the_commands_place_sync_score_export_and_publish(tmp_path):
    """A scorer's evening with the real commands and a real terminal: a bad placement is
    refused before anything is stored, a malformed record is stored and flagged without
    blocking the rest, and the event database is scored, exported and published."""
    from bridge.calls import parse
    db_path = tmp_path / "club.db"
    assert host_sync("event", "create", db_path, "--name", "Club", "--tables", "4",
                     "--boards-per-round", "2").returncode == 0
    term = Terminal(tmp_path / "flash", "PICO-01")
    port = term.plug(pair=True)  # the director opens a pairing on its keypad: a code shows
    try:
        for place, why in ((("--section", "Z", "--table", "1"), "no section Z (the session "
                                                                 "has A)"),
                           (("--table", "99"), "table 99: the movement has 4 tables")):
            done = host_sync("terminal", "register", db_path, "--port", port, "--code",
                             term.code, *place)
            assert (done.returncode, done.stderr.strip()) == (2, "terminal register: " + why)
        assert sqlite3.connect(db_path).execute("SELECT COUNT(*) FROM terminals").fetchone() \
            == (0,)
        done = host_sync("terminal", "register", db_path, "--port", port, "--section", "a",
                         "--table", "1", "--code", term.code[:3] + " " + term.code[3:])
        assert done.returncode == 0 and "registered at table A1" in done.stdout, done.stderr
    finally:
        term.unplug()
    shown = host_sync("event", "show", db_path, "--lang", "en").stdout
    assert "PICO-01: section A table 1, last sync 20" in shown, shown  # not "never synced"
    calls = [("call", {"b": 1, "s": s, "c": parse(c)}) for s, c in
             zip((0, 1, 2, 3, 0, 1), ("1S", "Pass", "4S", "Pass", "Pass", "Pass"))]
    records = [("open", {"sec": "A", "tbl": 1, "rnd": 1, "ns": 1, "ew": 5}),
               ("board", {"b": 1}), ("call", {"b": 1, "c": 0})] + calls + [
        ("res", {"b": 1, "tr": 10, "sc": 420}), ("ver", {"b": 1, "ok": 1}),
        ("board", {"b": 2}), ("quick", {"b": 2, "ct": parse("3NT")}),
        ("quick", {"b": 2, "ct": parse("3NT"), "x": 0, "dcl": 1}),
        ("res", {"b": 2, "tr": 8, "sc": 50}), ("ver", {"b": 2, "ok": 1})]
    term.play(write_script(tmp_path / "round.jsonl", records))
    for _ in range(2):  # the second sync finds nothing new: nothing was left blocked
        port = term.plug()
        try:
            done = host_sync("sync", db_path, "--port", port)
        finally:
            term.unplug()
        assert done.returncode == 0 and "refused nothing" in done.stdout, done.stderr
    assert "0 stored" in done.stdout
    flagged = sqlite3.connect(db_path).execute(
        "SELECT why, seq FROM flags ORDER BY seq").fetchall()
    # seq 1 is the PIN entry of the pairing (`td`), seq 2 the pairing (`pair`), so the round's
    # records start at 3
    assert flagged == [("invalid_record", 5), ("invalid_record", 15)]

    done = host_sync("score", db_path, "--lang", "en")
    assert done.returncode == 0, done.stderr
    assert "Results: North-South" in done.stdout and "50.00" in done.stdout
    assert host_sync("export", db_path, "-o", tmp_path / "club.pbn").returncode == 0
    game = next(g for g in read_file(tmp_path / "club.pbn") if g.tags["Board"] == "2")
    assert (game.tags["Contract"], game.tags["Declarer"], game.tags["Score"]) == (
        "3NT", "E", "NS 50")
    assert host_sync("report", db_path, "-o", tmp_path / "site", "--lang", "ru").returncode == 0
    assert (tmp_path / "site" / "ru" / "index.html").exists()
    done = host_sync("score", db_path, "--session", "9")
    assert (done.returncode, done.stderr.strip()) == (2, "score: the event has no session 9")


def test_a_wiped_terminal_is_refused_until_reset_then_its_new_journal_is_stored(tmp_path):
    """A terminal's flash is wiped after it synced round 1 (same identity, journal from seq 1
    again): the sync refuses it and says what to run; `terminal reset` (confirmed) lets the
    next sync re-register it, and its round 2 is stored next to round 1 without a collision."""
    import shutil
    db_path = make_event(tmp_path / "event.db")
    movement = event_movement(TABLES)
    term = Terminal(tmp_path / "flash", "PICO-01")

    def sync(*extra, pair=False):
        """One sync; pair: the director first opens a pairing on the terminal, and the
        scorer types its code."""
        port = term.plug(pair=pair)
        try:
            code = ("--code", term.code) if pair else ()
            return host_sync("sync", db_path, "--port", port, *extra, *code)
        finally:
            term.unplug()

    assert sync("--register", pair=True).returncode == 0
    first, truth = table_round(11, movement, 1, 1)
    term.play(write_script(tmp_path / "r1.jsonl", first))
    assert sync().returncode == 0
    stored_before = sqlite3.connect(db_path).execute(
        "SELECT seq, kind, body FROM records ORDER BY seq").fetchall()
    # the pairing's PIN entry (`td`), the pairing (`pair`), the round
    assert len(stored_before) == 2 + len(first)
    # a reset asked for a terminal whose journal did not restart is dropped at its next sync
    assert host_sync("terminal", "reset", db_path, "PICO-01", "--yes").returncode == 0
    assert "0 stored, 0 repeats" in sync().stdout
    assert sqlite3.connect(db_path).execute("SELECT journal_offset, rebase FROM terminals"
                                            ).fetchall() == [(0, 0)]

    shutil.rmtree(term.folder)  # the flash is wiped: no key, no journal, no configuration
    term.folder.mkdir()
    for _ in range(2):  # refused every time, and nothing changes
        done = sync()
        assert done.returncode == 1
        # no key on the device: the station gives it none until the scorer resets it
        assert "holds no key (flash wiped?)" in done.stderr, done.stderr
        assert "run `host-sync terminal reset %s PICO-01`" % db_path in done.stderr
    assert host_sync("terminal", "reset", db_path, "PICO-99", "--yes").returncode == 2
    refused = subprocess.run([sys.executable, "-m", "host_sync", "terminal", "reset",
                              str(db_path), "PICO-01"], input="n\n", capture_output=True,
                             text=True, timeout=60)
    assert refused.returncode == 2 and "nothing changed" in refused.stderr
    assert sync().returncode == 1  # still refused: the reset was not confirmed
    done = subprocess.run([sys.executable, "-m", "host_sync", "terminal", "reset",
                           str(db_path), "PICO-01"], input="y\n", capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and "Reset it? [y/N]" in done.stdout, done.stderr

    done = sync()  # reset, but nobody paired it at the terminal: no key goes
    assert done.returncode == 1 and "pair it" in done.stderr, done.stderr
    done = sync(pair=True)  # paired again: it gets the event's key again
    assert done.returncode == 0, done.stderr
    second, truth2 = table_round(12, movement, 1, 2)
    term.play(write_script(tmp_path / "r2.jsonl", second))
    done = sync()
    assert done.returncode == 0 and "%d stored" % len(second) in done.stdout, done.stdout
    assert sync().returncode == 0  # and the next sync finds nothing new

    db = open_db(db_path)
    try:
        rows = db.all("SELECT seq, kind, body FROM records ORDER BY seq")
        old = len(stored_before)
        assert [tuple(r) for r in rows[:old]] == stored_before  # the old stay
        # then the new journal: the second pairing's PIN entry, the pairing and round 2
        assert [r["seq"] for r in rows] == list(range(1, old + 2 + len(second) + 1))
        assert [r["kind"] for r in rows[old:]] == ["td", "pair"] + [k for k, _ in second]
        expected = {(1, 1, b): line for b, line in truth.items()}
        expected.update({(1, 2, b): line for b, line in truth2.items()})
        assert results_in(db) == expected
        assert db.all("SELECT why FROM flags") == []
        assert db.value("SELECT COUNT(*) FROM audit WHERE tbl = 'terminals' AND actor = "
                        "'scorer' AND new = '{\"rebase\": 1}'") == 2
        t = setup.terminal(db, "PICO-01")
        assert (t["journal_offset"], t["rebase"]) == (old, 0)
    finally:
        db.close()
