"""The terminal's entry point on the board: MicroPython runs this file at power-on.

The code is in the ROMFS image mounted at /rom (tools/romfs.py, `make firmware`); this file
and the data live on the board's filesystem: the journal, the pushed configuration
(config.cbor, docs/CONFIG.md) and the registration the sync station wrote.

The configuration is read first and its decoded form dropped before the application is
imported, so their heap peaks do not add up. The loop polls the keypad (and through it the
buzzer and the LEDs), redraws when the screen changed, and serves the sync station on the USB
serial port (stdin/stdout) between two polls: while a conversation goes on the SYNC screen
shows and keys wait; a configuration it brings is taken at once (the app is rebuilt from the
journal on it, exactly as after a power cut).

Start-up (`main`): the keys held at power-on choose the way (BACK and DIR: maintenance, the
USB REPL left open for `make flash`; MENU: the self-test of docs/HARDWARE.md, its outcome
journaled as an `st` record for the host); otherwise
Ctrl-C on the link is made plain data (micropython.kbd_intr(-1): the REPL is never reached
while main.py runs), the boot screen shows the firmware, the terminal id and the table (or
what to do about a missing or damaged configuration), and the terminal starts under a
watchdog (machine.WDT, fed every turn). Any exception is written to error.log on the board
and the terminal is rebuilt from the journal where it was; three in a row without a key
handled between them bring the fault screen, which waits for OK.
"""

import gc
import os
import sys
import time

from terminal.config import Config

from hw import keys
from hw.ticks import ticks_diff

FOLDER = "."
SYNC_QUIET_MS = 3000  # a conversation that has sent nothing for this long is over
WATCHDOG_MS = 8000  # the RP2040's longest is 8388 ms; a rebuild after a sync is well inside
LOG = "error.log"
LOG_MAX = 8192  # past this the log starts again (the older one kept as error.log.1)
FAILURES = 3  # exceptions in a row, no key handled between them, before the fault screen


class Terminal:
    """The application, its loop on the board and the sync link, sharing one journal."""

    def __init__(self, board, folder, ident, stream_in=None, stream_out=None, feed=None):
        from terminal.journal import Journal
        from terminal.keystore import PROVISIONAL_KEY, Keystore

        self.board = board
        self.folder = folder
        self.handled = False
        keys = Keystore(folder + "/registration", ident)
        self.journal = Journal(folder + "/journal", keys.key or PROVISIONAL_KEY, keys.ident)
        self.journal.feed = feed  # a long journal's scans keep the watchdog fed
        keys = None
        self.app = self.loop = None
        self.link = self.port = None
        self.start()
        self.heard = 0
        if stream_in is not None:
            self.open_link(ident, stream_in, stream_out)

    def start(self):
        """(Re)build the application on the journal and the configuration on flash. A
        pairing open on the old one's screen dies with it (terminal.pairing)."""
        if self.link is not None:
            self.link.close_pairing()
        self.app = self.loop = None
        gc.collect()
        config = Config.load(self.folder + "/config.cbor")
        gc.collect()
        from terminal.app import App
        from terminal.loop import Loop

        self.app = App(self.journal, config)
        self.app.link = self.link  # the director's pairing screen opens a pairing on it
        self.loop = Loop(self.app, self.board)

    def open_link(self, ident, stream_in, stream_out):
        """The sync link on the stream. It may compact the journal only as far as
        terminal.store.ack_limit allows (the records of the round being played stay)."""
        from terminal import link, store

        self.link = link.Link(self.folder, ident, journal=self.journal,
                              ack_limit=lambda seq: store.ack_limit(self.app.session, seq))
        self.port = link.Port(self.link, stream_in, stream_out)
        self.app.link = self.link

    def step(self):
        """One turn: a key, then the link. True when something happened."""
        busy = self.loop.step()
        if self.port is None:
            return busy
        got = self.port.step(0)
        now = self.board.ticks_ms()
        if got == "data":
            self.heard = now
            busy = True
        elif got is not None:  # the stream is gone (only off the board: a closed pty)
            self.port = None
            self.link.talking = False
        link = self.link
        talking = link.talking and ticks_diff(now, self.heard) < SYNC_QUIET_MS
        if not talking:
            link.talking = False
        if talking != self.app.syncing:
            self.app.syncing = talking
            if not talking and link.files_changed:
                link.files_changed = False
                self.start()  # the new configuration, on the same journal
            else:
                self.loop.redraw()
        return busy

    def run(self, feed=None, turns=-1):
        """The loop: a turn, the watchdog fed (`feed`, if any), a short sleep when nothing
        happened; `turns` turns (tests), or for ever. `handled` says whether a key or link
        data was."""
        while turns:
            turns -= 1
            if feed is not None:
                feed()
            if self.step():
                self.handled = True
            else:
                time.sleep_ms(5)


def log_exception(e, folder=FOLDER):
    """Append the traceback to the log on the board's filesystem, never raising: a full
    flash or a broken file must not turn one failure into another."""
    path = folder + "/" + LOG
    try:
        try:
            if os.stat(path)[6] > LOG_MAX:
                os.rename(path, path + ".1")
        except OSError:
            pass
        with open(path, "a") as f:
            f.write("-- %d ms\n" % time.ticks_ms())
            sys.print_exception(e, f)
    except Exception:  # noqa: BLE001 (nothing is left to tell)
        pass


def main(machine=None, stream_in=None, stream_out=None, turns=-1, folder=FOLDER):
    """Power-on. `machine` (tests: hw.backends.fake_machine), the link's streams (default:
    the USB serial port) and `turns` (tests: how many loop turns before returning) are for
    running it off the board."""
    import binascii

    import micropython
    import terminal
    from terminal import boot

    from hw.backends.machine_backend import open_board

    if machine is None:
        import machine
    if stream_in is None and turns < 0:
        stream_in, stream_out = sys.stdin.buffer, sys.stdout.buffer
    board = None
    while board is None:  # a display that does not answer: logged, tried again
        try:
            board = open_board(machine=machine)
        except Exception as e:  # noqa: BLE001
            log_exception(e, folder)
            time.sleep_ms(1000)
    ident = binascii.hexlify(machine.unique_id()).decode()
    pressed = boot.held(board, time.sleep_ms)
    if keys.BACK in pressed and keys.DIRECTOR in pressed:
        boot.maintenance(board)
        return None  # main.py ends: MicroPython's REPL takes the USB port (make flash)
    micropython.kbd_intr(-1)
    wdt = machine.WDT(timeout=WATCHDOG_MS)
    feed = wdt.feed
    tested = None  # the self-test's outcome, journaled once the journal is open
    if keys.MENU in pressed:
        tested = boot.self_test(board, folder, time.sleep_ms, feed)
    config = Config.load(folder + "/config.cbor")
    from terminal import ui_text

    ui_text.set_lang(config.settings["lang"])
    boot.boot_screen(board, config, ident, time.sleep_ms, feed)
    config = boot = None
    terminal.forget(["terminal.boot"])
    failures = 0
    term = None
    while turns:
        try:
            feed()
            if term is None:
                term = Terminal(board, folder, ident, stream_in, stream_out, feed)
            if tested is not None:  # an `st` record for the host (docs/RECORDS.md), tried
                record, tested = tested, None  # once: a full flash must not loop here
                term.journal.append("st", record)
            term.run(feed, 1 if turns > 0 else -1)
        except Exception as e:  # noqa: BLE001 (the boundary: every failure is logged)
            log_exception(e, folder)
            failures = 1 if term is not None and term.handled else failures + 1
            term = None
            gc.collect()
            if failures >= FAILURES:
                failures = 0
                try:
                    from terminal import boot

                    boot.fault(board, time.sleep_ms, feed)
                except Exception as e:  # noqa: BLE001 (the display itself may be what fails)
                    log_exception(e, folder)
                    time.sleep_ms(1000)
                terminal.forget(["terminal.boot"])
        if turns > 0:
            turns -= 1
    return term


if __name__ == "__main__":
    main()
