"""The terminal's entry point on the board: MicroPython runs this file at power-on.

The code is in the ROMFS image mounted at /rom (tools/romfs.py, `make firmware`); this file
and the data live on the board's filesystem: the journal, the pushed configuration
(config.cbor, docs/CONFIG.md) and the registration the sync station wrote.

The configuration is read first and its decoded form dropped before the application is
imported, so their heap peaks do not add up. The loop polls the keypad (and through it the
buzzer and the LEDs), redraws when the screen changed, and gives the sync link its turn.
"""

import gc
import time

from terminal.config import Config

FOLDER = "."
JOURNAL = FOLDER + "/journal"
PROVISIONAL_KEY = b"unregistered-terminal"  # until the sync station registers the terminal


def open_link(app):
    """HOOK for the sync link (terminal.link, issue 5): build the link handler, or None.

    The link owns the registration (event key, terminal id) and may compact the journal only
    as far as terminal.store.ack_limit allows (the records of the round being played stay).
    """
    try:
        from terminal import link
    except ImportError:
        return None
    from terminal import store

    return link.Link(FOLDER, ack_limit=lambda seq: store.ack_limit(app.session, seq))


def poll_link(handler):
    """HOOK: give the sync link its turn in the main loop (non-blocking); called every turn."""
    if handler is not None and hasattr(handler, "poll"):
        handler.poll()


def journal_identity():
    """(key, terminal id) for the journal: the registration if there is one."""
    try:
        from terminal.keystore import Keystore

        keys = Keystore(FOLDER + "/registration")
        if keys.registered():
            return keys.key, keys.ident
    except ImportError:
        pass
    import binascii

    import machine

    return PROVISIONAL_KEY, binascii.hexlify(machine.unique_id()).decode()


def main():
    config = Config.load(FOLDER + "/config.cbor")
    gc.collect()
    from terminal.app import App
    from terminal.journal import Journal
    from terminal.loop import Loop

    from hw.backends.machine_backend import open_board

    board = open_board()
    key, ident = journal_identity()
    app = App(Journal(JOURNAL, key, ident), config)
    loop = Loop(app, board)
    handler = open_link(app)
    while True:
        if not loop.step():
            time.sleep_ms(5)
        poll_link(handler)


main()
