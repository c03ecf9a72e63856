"""`host-sync serve`: watch the serial ports, sync every terminal plugged in, several at once.

A port is found by USB VID:PID (`serial.tools.list_ports`; MicroPython boards on the RP2040
show as 2E8A) or by an explicit path or glob (`--port '/dev/pts/*'`). Each new port gets a
thread with its own database connection; a port that has been synced is left alone until it
disappears (the terminal is unplugged), so plugging it in again syncs it again. A port whose
sync failed is retried after `retry` seconds. Progress is a live table (rich) per port, and
the station's LEDs and buzzer (host_sync.station.indicators) follow the same events.

Ctrl-C or SIGTERM (a service manager stopping the station, a shutdown) stops the station
cleanly (`serve_forever`): no new sync starts, the syncs in progress run to their end with the
table still live, and a second signal (or the grace time) abandons them, which is safe because
a terminal forgets nothing it has not been told is stored and each window is stored in one
transaction: an abandoned sync's records are pulled at its next sync. With `once` the station
syncs the terminals plugged in when it starts, each once, and stops by itself when the last
one has ended: a scorer's script at the end of a round, or one station of several in a test.
`Station.summary` says what the station did and what is still pending.
"""

import errno
import glob
import logging
import os
import signal
import threading
import time
from collections import Counter
from contextlib import contextmanager

import serial
from serial.tools import list_ports

from host_sync.event.db import DatabaseError, open_db
from host_sync.event.flags import director_list
from host_sync.event.setup import SetupError
from host_sync.station.sync import PairingCodes, Session, SyncFailed

log = logging.getLogger("host_sync.station.serve")

USB_IDS = ((0x2E8A, 0x0005),)  # MicroPython on RP2040 (Raspberry Pi Pico)
BAUD = 115200
POLL_S = 0.5  # how often the station looks for ports plugged in or pulled out
# The note of a terminal that went silent past the timeout (sync.Session.request waits on).
SLOW = "медленный терминал, ждём / slow terminal, waiting"
# The live table's own words (`render`); a sync's phases (sync.Session._phase) and states.
LIVE_WORDS = {
    "ru": {"columns": ("порт", "терминал", "состояние", "записано", "осталось", "повторы",
                       "отклонено", "примечание"),
           "states": {"syncing": "синхронизация", "done": "готово", "error": "ошибка",
                      "in use": "занят",
                      "connecting": "подключение", "registering": "регистрация",
                      "pulling": "приём записей", "sending": "отправка",
                      "closing": "завершение"},
           "abandoned": "прервано: что не записано, остаётся на терминале до следующей "
                        "синхронизации",
           "stopping": "остановка: эта синхронизация заканчивается (Ctrl-C ещё раз прервёт её)",
           "in_use": "порт занят другой станцией или программой"},
    "en": {"columns": ("port", "terminal", "state", "stored", "left", "dups", "refused", "note"),
           "states": {},
           "abandoned": "abandoned: what it has not stored stays on the terminal for its next "
                        "sync",
           "stopping": "stopping: finishing this sync (Ctrl-C again abandons it)",
           "in_use": "the port is taken by another station or program"},
}


def discover(patterns=(), usb_ids=USB_IDS):
    """Port paths to sync: USB ports with a known VID:PID, plus the paths the patterns match."""
    found = []
    for info in list_ports.comports():
        if (info.vid, info.pid) in usb_ids:
            found.append(info.device)
    for pattern in patterns:
        found += sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [
            p for p in [pattern] if os.path.exists(p)]
    return list(dict.fromkeys(found))


class Station:
    """The sync station's loop: one sync thread per plugged-in terminal."""

    def __init__(self, db_path, patterns=(), register=False, timeout=1.0, retry=5.0,
                 usb_ids=USB_IDS, indicators=None, on_change=None, open_port=None, code=None,
                 lang="en"):
        self.db_path = db_path
        self.lang = lang  # of the live table and of each sync's reason (LIVE_WORDS)
        self.patterns = tuple(patterns)
        self.register = register
        self.code = PairingCodes(code)  # the pairing code(s) its sessions share
        self.timeout = timeout
        self.retry = retry
        self.usb_ids = usb_ids
        self.indicators = indicators
        self.on_change = on_change or (lambda station: None)
        # exclusive: a second station on the machine (or a terminal program) finds the port
        # taken, where both talked to one terminal at once and each refused the other's tags
        self.open_port = open_port or (lambda path: serial.Serial(path, BAUD, timeout=0.02,
                                                                  exclusive=True))
        self.lock = threading.Lock()
        self.ports = {}  # path -> {"progress", "state", "thread", "finished"}
        self.finished = []  # [(path, state, progress, error)] of every sync that ended
        self.stop = threading.Event()
        self.abandoned = False  # stopped without waiting for the syncs in progress
        self.first_flag = None  # flags.id above which the flags were raised while serving
        self.absent = []  # with run(once=True): the named ports not there when it started

    def poll(self):
        """Start syncs on new ports; forget ports that are gone. Returns the present ports.
        A scan that fails (pyserial reading a USB device that left mid-scan) changes
        nothing: the next poll looks again."""
        try:
            present = discover(self.patterns, self.usb_ids)
        except (OSError, ValueError, TypeError) as e:
            log.warning("the scan of the ports failed (%s): trying again", e)
            with self.lock:
                return list(self.ports)
        now = time.monotonic()
        with self.lock:
            for path in list(self.ports):
                entry = self.ports[path]
                if path not in present and entry["state"] != "syncing":
                    del self.ports[path]
                    if self.indicators:
                        self.indicators.gone(path)
            for path in present:
                entry = self.ports.get(path)
                if entry is None or (entry["state"] in ("error", "in use") and
                                     now - entry["finished"] >= self.retry):
                    self._start(path)
        return present

    def _start(self, path):
        entry = {"progress": None, "state": "syncing", "finished": 0.0, "error": None}
        self.ports[path] = entry
        entry["thread"] = threading.Thread(target=self._sync, args=(path, entry), daemon=True,
                                           name="sync " + path)
        if self.indicators:
            self.indicators.syncing(path)
        entry["thread"].start()

    def _sync(self, path, entry):
        state, error = "error", None
        try:
            db = open_db(self.db_path)
            try:
                with self.open_port(path) as port:
                    session = Session(db, port, name=path, register=self.register,
                                      timeout=self.timeout, on_progress=self._progress(entry),
                                      code=self.code)
                    entry["progress"] = session.progress
                    session.run()
                    state = "done"
            finally:
                db.close()
        except (SyncFailed, SetupError, DatabaseError) as e:  # said in one line, per port
            error = e.text(self.lang)
        except OSError as e:  # serial.SerialException is one
            if isinstance(e, serial.SerialException) and e.errno in (errno.EAGAIN,
                                                                     errno.EWOULDBLOCK):
                state, error = "in use", LIVE_WORDS[self.lang]["in_use"]  # another station's
            else:
                error = "port: %s" % e
                log.error("%s: %s", path, error)
        except Exception as e:  # a bug must not take the station down: report it per port
            error = "internal error: %r" % (e,)
            log.exception("%s: sync crashed", path)
        with self.lock:
            entry["state"], entry["error"], entry["finished"] = state, error, time.monotonic()
            self.finished.append((path, state, entry["progress"], error))
        if self.indicators:
            {"done": self.indicators.done, "in use": self.indicators.gone}.get(
                state, self.indicators.error)(path)  # in use: another station's to show
        self.on_change(self)

    def _progress(self, entry):
        def update(progress):
            entry["progress"] = progress
            self.on_change(self)
        return update

    def busy(self):
        with self.lock:
            return any(e["state"] == "syncing" for e in self.ports.values())

    def snapshot(self):
        """[(path, state, progress, error)] for the display."""
        with self.lock:
            return [(p, e["state"], e["progress"], e["error"]) for p, e in sorted(
                self.ports.items())]

    def run(self, interval=POLL_S, interrupted=lambda: False, once=False):
        """Poll every `interval` seconds until stop is set (or `interrupted()`), telling
        on_change after each poll (the display shows a port that came or went even when no
        sync reports). With `once`, only the first poll starts syncs, a failed one is not
        retried (it is pending in the summary), a port named (not a glob) but not there is
        `absent`, and it returns when no sync is running."""
        if self.first_flag is None:
            self.first_flag = self._flags()[0]
        polled = False
        while not self.stop.is_set() and not interrupted():
            if not (once and polled):
                present = self.poll()
                polled = True
                if once:
                    self.absent = [p for p in self.patterns
                                   if not glob.has_magic(p) and p not in present]
            self.on_change(self)
            if once and not self.busy():
                return
            self.stop.wait(interval)

    def _flags(self):
        """(highest flag id, flags still open) in the event database now."""
        with open_db(self.db_path) as db:
            return (db.value("SELECT COALESCE(MAX(id), 0) FROM flags"),
                    len(director_list(db, only_open=True)))

    def summary(self):
        """What the station did since it started, for the scorer when it stops: a dict of
        `terminals` synced (identities), records `stored` (by abandoned syncs too: stored is
        stored), `repeats`, `refused` (by code),
        `flags` raised meanwhile and `open_flags` in the event, and `pending`: [(port,
        terminal or None, records left on it or None, why)] for every sync that was
        abandoned (why "abandoned"), every terminal whose last sync failed (wherever it was
        plugged: one cable serves terminal after terminal, and another's sync on that port
        says nothing of this one's records), a port whose last sync failed before its
        terminal said who it was, and every port `absent` (why "absent")."""
        with self.lock:
            finished = list(self.finished)
            running = [(p, e["progress"]) for p, e in sorted(self.ports.items())
                       if e["state"] == "syncing"]
        every = [p for _, _, p, _ in finished if p] + [p for _, p in running if p]
        refused = Counter()
        for progress in every:
            refused.update(progress.refused)
        last = {}  # terminal, or port for a sync that failed before its hello: its last sync
        for path, state, progress, error in finished:
            terminal = progress and progress.terminal
            last[("terminal", terminal) if terminal else ("port", path)] = (
                path, state, progress, error)
            if terminal and state == "done":  # the port's failure before a hello was this
                last.pop(("port", path), None)
        pending = [(path, progress and progress.terminal, progress and progress.pending,
                    error) for path, state, progress, error in sorted(
                        last.values(), key=lambda e: (e[0], e[2] and e[2].terminal or ""))
                   if state == "error"]
        pending += [(path, progress and progress.terminal, progress and progress.pending,
                     "abandoned") for path, progress in running]
        pending += [(path, None, None, "absent") for path in self.absent]
        top, still_open = self._flags()
        return {"terminals": sorted({p.terminal for _, state, p, _ in finished
                                     if state == "done" and p and p.terminal}),
                "stored": sum(p.stored for p in every),
                "repeats": sum(p.duplicates for p in every),
                "refused": dict(refused), "pending": pending,
                "flags": top - (self.first_flag or 0), "open_flags": still_open}

    def wait_idle(self, timeout):
        """Wait until no sync is running (for scripts and tests); False on time-out."""
        deadline = time.monotonic() + timeout
        while self.busy():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True


def render(station):
    """The live table of the station: one row per port. Every text a device or a port can
    put there (an identity, an error quoting what it sent, a port's name) is escaped: rich
    reads "[...]" as markup, and a hello naming itself "[/]" froze the table and stopped
    serve with a MarkupError at Ctrl-C."""
    from rich.markup import escape
    from rich.table import Table
    words = LIVE_WORDS[station.lang]
    table = Table(title="host-sync serve: %s" % escape(str(station.db_path)), expand=False)
    for col in words["columns"]:
        table.add_column(col)
    styles = {"syncing": "yellow", "done": "green", "error": "red", "in use": "blue"}
    stopping = station.stop.is_set()
    for path, state, p, error in station.snapshot():
        if stopping and state == "syncing":
            error = words["abandoned" if station.abandoned else "stopping"]
        if not error and state == "syncing" and p and p.slow:
            error = SLOW
        refused = ", ".join("%s %d" % kv for kv in sorted(p.refused.items())) if p else ""
        shown = p.phase if p and state == "syncing" else state
        first, _, rest = shown.partition(" ")  # "sending config.cbor"
        shown = " ".join([words["states"].get(first, first)] + ([rest] if rest else []))
        table.add_row(escape(path), escape((p and p.terminal) or "?"),
                      "[%s]%s[/]" % (styles[state], escape(shown)),
                      str(p.stored if p else 0), "" if not p or p.pending is None
                      else str(p.pending), str(p.duplicates if p else 0), escape(refused),
                      escape(error or ""))
    return table


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def logs_above(console):
    """The log's records printed by the live display's console, above its table: a handler
    writing to the terminal itself wrote under the table, which then overwrote the line (and
    left a copy of its header behind for each one), so the scorer never saw a warning."""
    from rich.logging import RichHandler
    root = logging.getLogger()
    saved = root.handlers[:]
    handler = RichHandler(console=console, show_path=False, markup=False)
    handler.setFormatter(logging.Formatter("%(name)s %(message)s"))
    root.handlers = [handler]
    try:
        yield
    finally:
        root.handlers = saved


def serve_forever(station, interval=POLL_S, console=None, grace=30.0, once=False):
    """Run the station with a live display until Ctrl-C or SIGTERM (or until station.stop is
    set, or with `once` until its syncs have ended), then stop cleanly: the syncs in progress
    finish with the display still live, for at most `grace` seconds or until a second signal
    abandons them. Returns (the station's summary, the first signal that stopped it or None).

    The signals are taken by a handler that only counts them, never as a KeyboardInterrupt: one
    raised at an arbitrary point can land inside a lock (rich's Live, a threading.Event) and
    leave it held, and a thread then waits on it forever: a serve that never exited after
    Ctrl-C was seen in a CI run, its two threads waiting on locks."""
    from rich.live import Live
    signals = []
    previous = {number: signal.signal(number, lambda signum, frame: signals.append(signum))
                for number in STOP_SIGNALS}
    try:
        with Live(render(station), console=console, refresh_per_second=4) as live, \
                logs_above(live.console):
            station.on_change = lambda s: live.update(render(s))
            try:
                station.run(interval, interrupted=lambda: bool(signals), once=once)
            finally:
                station.stop.set()
            deadline = time.monotonic() + grace
            while station.busy() and len(signals) < 2 and time.monotonic() < deadline:
                time.sleep(0.02)
            station.abandoned = station.busy()  # their records stay on the terminals
            station.on_change = lambda s: None
            live.update(render(station))
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    return station.summary(), (signals[0] if signals else None)
