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
"""

import gc
import sys
import time

from terminal.config import Config

from hw.ticks import ticks_diff

FOLDER = "."
SYNC_QUIET_MS = 3000  # a conversation that has sent nothing for this long is over


class Terminal:
    """The application, its loop on the board and the sync link, sharing one journal."""

    def __init__(self, board, folder, ident, stream_in=None, stream_out=None):
        from terminal.journal import Journal
        from terminal.keystore import PROVISIONAL_KEY, Keystore

        self.board = board
        self.folder = folder
        keys = Keystore(folder + "/registration", ident)
        self.journal = Journal(folder + "/journal", keys.key or PROVISIONAL_KEY, keys.ident)
        keys = None
        self.app = self.loop = None
        self.start()
        self.link = self.port = None
        self.heard = 0
        if stream_in is not None:
            self.open_link(ident, stream_in, stream_out)

    def start(self):
        """(Re)build the application on the journal and the configuration on flash."""
        self.app = self.loop = None
        gc.collect()
        config = Config.load(self.folder + "/config.cbor")
        gc.collect()
        from terminal.app import App
        from terminal.loop import Loop

        self.app = App(self.journal, config)
        self.loop = Loop(self.app, self.board)

    def open_link(self, ident, stream_in, stream_out):
        """The sync link on the stream. It may compact the journal only as far as
        terminal.store.ack_limit allows (the records of the round being played stay)."""
        from terminal import link, store

        self.link = link.Link(self.folder, ident, journal=self.journal,
                              ack_limit=lambda seq: store.ack_limit(self.app.session, seq))
        self.port = link.Port(self.link, stream_in, stream_out)

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

    def run(self):
        while True:
            if not self.step():
                time.sleep_ms(5)


def main():
    import binascii

    import machine

    from hw.backends.machine_backend import open_board

    ident = binascii.hexlify(machine.unique_id()).decode()
    Terminal(open_board(), FOLDER, ident, sys.stdin.buffer, sys.stdout.buffer).run()


if __name__ == "__main__":
    main()
