"""Several sync stations on one PostgreSQL event (issue 17): each station's thread has its own
connection, as `serve` processes on different machines would, and they ingest different
terminals' journals at the same time, and the same terminal's windows twice over (a station
that took over from one killed mid-sync). The database must equal a one-station SQLite run of
the same evening row for row: nothing lost, nothing doubled, every terminal's records in its
own order. The database does the ordering (the records' key, the chain check on last_seq, the
writers' lock taken in each transaction); the threads share nothing."""

import random
import threading

from sync_harness import Faults
from sync_script import database_digest, event_movement, results_in, table_round
from test_sync_e2e import TABLES as E2E_TABLES
from test_sync_e2e import make_event, setup_terminals, station_sync

from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.station.ingest import ingest
from host_sync.station.serve import Station

TABLES = 6
ROUNDS = 2
WINDOW = 7  # records per pull, not a divisor of a round's length: windows straddle boards


def evening():
    """{terminal: numbered records}: each table's terminal plays every round of the evening."""
    mv = event_movement(TABLES, 2, ROUNDS)
    journals = {}
    for table in range(1, TABLES + 1):
        records = []
        for rnd in range(1, ROUNDS + 1):
            records += table_round(100 * table + rnd, mv, table, rnd)[0]
        journals["PICO-%02d" % table] = [(i + 1, k, d) for i, (k, d) in enumerate(records)]
    return mv, journals


def new_event(location, mv, journals):
    db = open_db(location, create=True)
    setup.add_session(db, setup.create_event(db, "Championship"), 1, mv)
    for tid in journals:
        setup.register_terminal(db, tid, 0)
    return db


def sync_windows(location, tid, journal, start=0):
    """One station syncing one terminal: pull windows, each ingested on its own connection's
    transaction, the next window chained to what the database says it stored."""
    db = open_db(location)
    try:
        i = start
        while i < len(journal):
            prev = db.value("SELECT last_seq FROM terminals WHERE id = ?", (tid,))
            window = [r for r in journal if prev < r[0] <= prev + WINDOW]
            if not window:
                break
            report = ingest(db, tid, prev, window)
            assert report.refused is None, report.refused
            i = report.last
    finally:
        db.close()


def test_stations_syncing_one_postgresql_event_equal_one_sqlite_station(pg_url, tmp_path):
    mv, journals = evening()
    one = new_event(tmp_path / "one-station.db", mv, journals)
    for tid, journal in journals.items():
        ingest(one, tid, 0, journal)
    expected = database_digest(one)
    one.close()

    new_event(pg_url, mv, journals).close()
    errors = []

    def station(tid, journal):
        try:
            sync_windows(pg_url, tid, journal)
        except BaseException as e:  # the test thread reports it
            errors.append((tid, e))

    # two stations per terminal (the second one re-sends windows the first one already
    # stored, or races it for the same window), three terminals at a time on each
    threads = [threading.Thread(target=station, args=(tid, j))
               for tid, j in journals.items() for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert not errors
    db = open_db(pg_url)
    got = database_digest(db)
    assert sum(len(j) for j in journals.values()) == len(got["records"])
    assert got == expected
    # every stored record was audited exactly once, whichever station stored it
    assert db.value("SELECT COUNT(*) FROM audit WHERE tbl = 'records'") == len(got["records"])
    db.close()


def test_a_repeat_of_a_whole_evening_from_another_station_changes_nothing(pg_url):
    mv, journals = evening()
    db = new_event(pg_url, mv, journals)
    for tid, journal in journals.items():
        ingest(db, tid, 0, journal)
    before, audit = database_digest(db), db.value("SELECT COUNT(*) FROM audit")
    other = open_db(pg_url)
    for tid, journal in journals.items():
        report = ingest(other, tid, 0, journal)
        assert (report.stored, report.duplicates) == (0, len(journal))
    assert database_digest(db) == before
    assert db.value("SELECT COUNT(*) FROM audit") == audit
    other.close()
    db.close()


def stations_sync(url, groups, faults, timeout=0.3):
    """One pass of several `serve` stations at once, each with its own terminals and ports
    (host_sync.station.serve.Station: its own threads, each with its own connection to the
    event); returns the terminals that did not finish."""
    ports = [{t.ident: t.plug(faults(t)) for t in group} for group in groups]
    stations = [Station(url, list(p.values()), timeout=timeout) for p in ports]
    try:
        for station in stations:
            station.poll()
        for station in stations:
            assert station.wait_idle(60), "a station did not finish"
        states = {path: state for st in stations for path, state, _, _ in st.snapshot()}
    finally:
        for group in groups:
            for t in group:
                t.unplug()
    return [[t for t in group if states[p[t.ident]] != "done"] for group, p in zip(groups, ports)]


def test_micropython_terminals_on_two_stations_and_faulty_cables_equal_one_sqlite_station(
        pg_url, tmp_path):
    """The issue's acceptance shape, at the size of the e2e tests: 8 real micropython terminals
    on pseudo-terminals, half on each of two stations syncing one PostgreSQL event at the same
    time, a third of them through the faulty cable of tests/test_sync_e2e.py; re-plugged until
    all are synced, the event equals a clean one-station SQLite run row for row."""
    (tmp_path / "one").mkdir()
    sqlite_path = make_event(tmp_path / "one" / "event.db")
    one, truth = setup_terminals(tmp_path / "one", sqlite_path)
    assert all(s == ("done", None) for s in station_sync(sqlite_path, one).values())
    with open_db(sqlite_path) as db:
        expected = database_digest(db)
        assert results_in(db) == truth

    (tmp_path / "pg").mkdir()
    make_event(pg_url)
    terminals, pg_truth = setup_terminals(tmp_path / "pg", pg_url)
    assert pg_truth == truth
    plugs = []

    def faults(term):
        n = int(term.ident[-2:])
        if n % 3:
            return None
        seed = n * 7919 + len(plugs)
        plugs.append(Faults(seed, drop=0.04, corrupt=0.04, duplicate=0.04, delay=0.1,
                            cut_after=random.Random(seed).randint(50, 1500)))
        return plugs[-1]

    groups = [terminals[:E2E_TABLES // 2], terminals[E2E_TABLES // 2:]]
    for n in range(8):  # the last pass through a sound cable, as sync_until_done does
        groups = [g for g in stations_sync(pg_url, groups, faults if n < 7 else lambda t: None)
                  if g]
        if not groups:
            break
    assert not groups, "terminals never synced"
    assert plugs and sum(sum(f.counts.values()) for f in plugs) > 0  # the cable did its worst
    with open_db(pg_url) as db:
        assert database_digest(db) == expected
        assert db.value("SELECT COUNT(*) FROM audit WHERE tbl = 'records'") == \
            len(expected["records"])
