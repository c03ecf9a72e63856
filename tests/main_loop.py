"""Start the terminal's whole main loop under micropython on a pty (tests/main_loop_driver.py),
for the tests that talk to it as the station or an attacker would, and press keys on it as the
director would, answering what its screen shows."""

import os
import select
import time
from pathlib import Path

from conftest import DEVICE, ROOT, micropython_path
from terminal import director, ui_text
from terminal_support import PIN

from host_sync.demo.ptys import Plug

DRIVER = Path(__file__).resolve().parent / "main_loop_driver.py"


def texts(key):
    """The terminal's text `key` in each of its languages (MENU 3 switches them)."""
    was = ui_text.lang()
    try:
        out = []
        for lang in ui_text.LANGS:
            ui_text.set_lang(lang)
            out.append(ui_text.t(key))
        return out
    finally:
        ui_text.set_lang(was)


class MainLoop(Plug):
    """main.Terminal on `flash` (a folder), pressing the keys in the file `keys` (each line a
    chunk when `chunks`), writing its screens to `screen`. With chunks, once its own keys are
    done, `press` adds more and `screen` reads what they led to."""

    def __init__(self, flash, keys, screen, ident, chunks=False):
        env = dict(os.environ, MICROPYPATH=os.pathsep.join([str(DEVICE), str(ROOT), ".frozen"]))
        Plug.__init__(self, [micropython_path(), str(DRIVER), str(flash), str(keys), str(screen),
                             ident, "chunks" if chunks else "all"], env=env, cwd=str(ROOT))
        self.keys, self.screen_file = Path(keys), Path(screen)
        # a chunk is 40 turns of the loop, 0.2 s at least (a turn without a key sleeps 5 ms):
        # a second each leaves room for a loaded machine
        self.chunks_s = 60 + len(self.keys.read_text().splitlines()) if chunks else 0
        self.done = False  # it has said "keys done"
        self.fed = 0
        self._err = b""

    def said(self, line, timeout=120):
        """Wait until the driver says `line` on stderr (AssertionError if it does not)."""
        fd = self.proc.stderr.fileno()
        deadline = time.monotonic() + timeout
        while (line + "\n").encode() not in self._err:
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.poll() is not None:
                if select.select([fd], [], [], 0)[0]:  # its last words (a traceback)
                    self._err += os.read(fd, 65536)
                raise AssertionError("the main loop (exit %s) did not say %r: %s" % (
                    self.proc.poll(), line, self._err[-600:].decode(errors="replace")))
            if select.select([fd], [], [], min(left, 1.0))[0]:
                self._err += os.read(fd, 4096)
        self._err = self._err.split((line + "\n").encode(), 1)[1]

    def ready(self):
        """Return once the terminal has pressed the chunks (its screen is written then)."""
        if not self.done:
            self.said("keys done", self.chunks_s)
            self.done = True

    def press(self, script):
        """Press the keys of `script` (or `wait MS`: the board's clock moves on) once the
        chunks are done, and return when the terminal has handled them."""
        self.ready()
        with open(self.keys, "a") as f:
            f.write(script + "\n")
        self.fed += 1
        self.said("fed %d" % self.fed)

    def screen(self):
        """The 7 lines on the screen now."""
        self.ready()
        return self.screen_file.read_text().split(" | ")

    def wait_screen(self, wanted, timeout=20):
        """Wait until wanted(the screen's lines) is true (AssertionError if it is not)."""
        deadline = time.monotonic() + timeout
        while not wanted(self.screen()):
            assert time.monotonic() < deadline, "the screen stayed %s" % self.screen()
            time.sleep(0.05)

    def pair(self, pin=PIN, tries=3):
        """Open a pairing as the director does, from whatever screen the table left (any
        call or ruling pending, director mode open or not, the PIN locked by wrong ones):
        once no station talks to it, BACK out of what is open, DIR, and when the PIN is locked
        he waits the lock out (on the board's clock); then his PIN, OK, 6. The code the
        pairing screen shows."""
        code, locked = [s.split("%")[0] for s in texts("pair_code")], texts("td_locked")
        syncing = texts("syncing")
        for _ in range(tries):
            self.wait_screen(lambda shown: shown[0] not in syncing)
            self.press("BACK " * 10 + "DIR")
            if self.screen()[3] in locked:
                self.press("wait %d" % director._LOCK_MS)
            self.press("%s OK 6" % " ".join(pin))
            shown = self.screen()
            for prefix in code:
                if shown[2].startswith(prefix):
                    return shown[2][len(prefix):].replace(" ", "")
        raise AssertionError("no pairing screen after %d tries: %s" % (tries, shown))


def plug_main_loop(flash, keys, screen, ident, chunks=False):
    """A MainLoop on its pty (the Plug the station's port is cabled to)."""
    return MainLoop(flash, keys, screen, ident, chunks)
