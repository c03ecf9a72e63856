"""Start the terminal's whole main loop under micropython on a pty (tests/main_loop_driver.py),
for the tests that talk to it as the station or an attacker would."""

import os
from pathlib import Path

from conftest import DEVICE, ROOT, micropython_path

from host_sync.demo.ptys import Plug

DRIVER = Path(__file__).resolve().parent / "main_loop_driver.py"


def plug_main_loop(flash, keys, screen, ident, chunks=False):
    """A Plug running main.Terminal on `flash` (a folder), pressing the keys in the file
    `keys` (each line a chunk when `chunks`), writing its screens to `screen`."""
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([str(DEVICE), str(ROOT), ".frozen"]))
    return Plug([micropython_path(), str(DRIVER), str(flash), str(keys), str(screen), ident,
                 "chunks" if chunks else "all"], env=env, cwd=str(ROOT))
