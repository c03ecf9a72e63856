"""Sync benchmarks: protocol efficiency, time to sync a 32-board terminal, host ingest rate,
and 30 terminals at once, each against a named peer measured in the same run.

Terminals are real `micropython` processes on pseudo-terminals (tests/sync_harness.py). The
UART figure is computed: the time measured over the pty plus the bytes on the wire at 10 bits
per byte over 115,200 baud (the pty moves bytes at memory speed), as if nothing overlapped.
A second figure is measured on a paced cable: each chunk the cable forwards (either way, one
at a time) is held for its time at 115,200 baud, so what overlaps the wire (the terminal
reading its journal while a batch is on the way, the station storing) is seen. The clock
starts once the terminal is up (a board runs before its cable is plugged): the micropython
process's start and its journal scan are not a sync's. Medians of BENCH_REPEAT runs.
"""

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import serial  # noqa: E402
from sync_harness import Terminal, write_script  # noqa: E402
from sync_script import table_round  # noqa: E402

from host_sync.demo.ptys import Faults  # noqa: E402
from host_sync.event import setup  # noqa: E402
from host_sync.event.db import open_db  # noqa: E402
from host_sync.movements import mitchell  # noqa: E402
from host_sync.station import link  # noqa: E402
from host_sync.station.ingest import ingest  # noqa: E402
from host_sync.station.serve import Station  # noqa: E402
from host_sync.station.sync import Session  # noqa: E402

REPEAT = int(os.environ.get("BENCH_REPEAT", "5"))
BAUD = 115200
MOVEMENT = mitchell(8, 8, 4)  # 4 rounds of 8 boards: one table plays 32 boards


class Paced(Faults):
    """A cable at BAUD: each chunk is held for its time on a UART before it goes on."""

    def apply(self, data):
        time.sleep(len(data) * 10 / BAUD)
        return data


def session_records(table=1):
    """The records of one table over the whole session (32 boards)."""
    out = []
    for rnd in range(1, MOVEMENT.round_count + 1):
        out += table_round(1000 * table + rnd, MOVEMENT, table, rnd)[0]
    return out


def new_event(folder):
    db = open_db(Path(folder) / "event.db", create=True)
    eid = setup.create_event(db, "bench")
    setup.add_session(db, eid, 1, MOVEMENT)
    return db


def prepared_terminal(folder, ident, table, db_path):
    """A terminal paired with the station (its director's pairing screen, the code typed at
    the station) whose journal holds its table's 32 boards."""
    term = Terminal(Path(folder) / ident, ident)
    port = term.plug(pair=True)
    st = Station(db_path, [port], register=True, timeout=1.0, code=term.code)
    st.poll()
    st.wait_idle(30)
    term.unplug()
    term.play(write_script(Path(folder) / (ident + ".jsonl"), session_records(table)))
    return term


def sync_32_boards(paced=False):
    """(seconds over the pty, bytes on the wire, record payload bytes, records); paced: on a
    cable at BAUD."""
    with tempfile.TemporaryDirectory() as tmp:
        db = new_event(tmp)
        term = prepared_terminal(tmp, "PICO-B", 1, db.path)
        port = term.plug(faults=Paced() if paced else None)
        time.sleep(1.0)  # the terminal starts and opens its journal
        start = time.perf_counter()
        with serial.Serial(port, timeout=0.02) as s:
            p = Session(db, s, timeout=2.0).run()
        elapsed = time.perf_counter() - start
        wire = term.cable.moved
        term.unplug()
        payload = sum(len(link.cbor_encode([q, k, d]))
                      for q, (k, d) in enumerate(session_records(), 1))
        db.close()
        return elapsed, wire, payload, p.stored


def ingest_rate():
    """(records per second through ingest, records per second of a bare executemany)."""
    records = [(seq, kind, data) for seq, (kind, data) in enumerate(session_records(), 1)]
    with tempfile.TemporaryDirectory() as tmp:
        db = new_event(tmp)
        setup.register_terminal(db, "PICO-I", 0)
        start = time.perf_counter()
        for i in range(0, len(records), 64):
            ingest(db, "PICO-I", records[i][0] - 1, records[i:i + 64])
        ours = len(records) / (time.perf_counter() - start)
        import json
        db.conn.execute("CREATE TABLE bare (t TEXT, q INTEGER, k TEXT, body TEXT, "
                        "PRIMARY KEY (t, q))")
        start = time.perf_counter()
        for i in range(0, len(records), 64):
            with db.transaction():
                db.conn.executemany("INSERT INTO bare VALUES ('PICO-I', ?, ?, ?)", [
                    (q, k, json.dumps(d, sort_keys=True)) for q, k, d in records[i:i + 64]])
        bare = len(records) / (time.perf_counter() - start)
        db.close()
        return ours, bare, len(records)


def many_at_once(n):
    """(seconds for n terminals at once, seconds for one alone) of 32-board syncs."""
    with tempfile.TemporaryDirectory() as tmp:
        db = new_event(tmp)
        path = db.path
        db.close()
        terms = [prepared_terminal(tmp, "PICO-%02d" % i, 1 + i % 8, path) for i in range(n)]
        ports = [t.plug() for t in terms]
        start = time.perf_counter()
        st = Station(path, ports, timeout=2.0)
        st.poll()
        st.wait_idle(600)
        together = time.perf_counter() - start
        ok = sum(1 for _, state, _, _ in st.snapshot() if state == "done")
        for t in terms:
            t.unplug()
        return together, ok


def main():
    load_before = os.getloadavg()[0]  # the times move with the machine's load: said with them
    syncs = [sync_32_boards() for _ in range(REPEAT)]
    t_pty = statistics.median(s[0] for s in syncs)
    wire, payload, stored = syncs[0][1], syncs[0][2], syncs[0][3]
    t_uart = t_pty + wire * 10 / BAUD
    t_paced = statistics.median(sync_32_boards(paced=True)[0] for _ in range(REPEAT))
    rates = [ingest_rate() for _ in range(REPEAT)]
    ours = statistics.median(r[0] for r in rates)
    bare = statistics.median(r[1] for r in rates)
    at_once = [many_at_once(30) for _ in range(max(1, REPEAT // 2))]
    together = statistics.median(a[0] for a in at_once)
    print("| measure | value | peer | peer value | ratio |")
    print("|---|---|---|---|---|")
    print("| protocol efficiency, 32-board terminal (%d records) | %d payload B / %d wire B "
          "= %.2f | payload alone | %d B | %.2f |" % (
              stored, payload, wire, payload / wire, payload, payload / wire))
    own = payload * 10 / BAUD  # the payload's own time on the wire
    print("| the same against issue 14's target (at least 0.90) | %.2f | target | 0.90 | "
          "%.2f |" % (payload / wire, payload / wire / 0.90))
    print("| time to sync a 32-board terminal, pty (micropython) | %.3f s | - | - | - |" % t_pty)
    print("| time to sync a 32-board terminal, 115,200-baud UART (computed) | %.2f s | wire "
          "time alone | %.2f s | %.2f |" % (t_uart, wire * 10 / BAUD, t_uart / (
              wire * 10 / BAUD)))
    print("| the same against the payload's own wire time (issue 14: within 1.15) | %.2f s | "
          "payload wire time | %.2f s | %.2f |" % (t_uart, own, t_uart / own))
    print("| the same on a cable paced at 115,200 baud (measured) | %.2f s | payload wire time "
          "| %.2f s | %.2f |" % (t_paced, own, t_paced / own))
    print("| host ingest (records/s, batches of 64, re-validated) | %.0f | bare SQLite "
          "executemany of the same rows | %.0f | %.2f |" % (ours, bare, ours / bare))
    print("| 30 terminals x 32 boards at once, pty | %.2f s (%d/30 done) | 30 x one alone "
          "| %.2f s | %.2f |" % (together, at_once[0][1], 30 * t_pty, together / (30 * t_pty)))
    print("\nmedians of %d runs (30 at once: %d); payload = canonical CBOR of the records' "
          "[seq, kind, fields]; wire = every byte both ways: framing, the batch tags (protocol "
          "3: one per recs message, none per record), hello, config and travellers (deflated) "
          "included; the clock starts once the terminal is up; load average (1 min) %.1f at "
          "the start, %.1f at the end." % (REPEAT, len(at_once), load_before, os.getloadavg()[0]))


if __name__ == "__main__":
    main()
