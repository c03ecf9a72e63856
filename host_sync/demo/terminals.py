"""The demo's terminals: real `micropython` processes, one per table, each on its own pty.

Each runs tools/demo_terminal.py from the ROMFS image (tools/romfs.py --sim), as the board
runs its code from flash: it answers the station, then plays each round's key script when
the file appears in its folder and answers the station again. Its stderr says when a round
is played ("played R {report}") or why it stopped.
"""

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path

from host_sync.demo.ptys import Plug

ROOT = Path(__file__).resolve().parents[2]
HEAP = "512k"  # the ROMFS image is read into the heap here; on the board it is flash


def micropython():
    beside = Path(sys.executable).parent / "micropython"
    found = str(beside) if beside.exists() else shutil.which("micropython")
    if not found:
        raise RuntimeError("the micropython interpreter is not installed: run `make setup`")
    return found


class ImageBuild:
    """The ROMFS image with the simulator modules (tools/romfs.py --sim), built in the
    background while the event is set up."""

    def __init__(self, path):
        self.path = path
        self.proc = subprocess.Popen([sys.executable, str(ROOT / "tools" / "romfs.py"),
                                      str(path), "--sim", "--quiet"], cwd=str(ROOT),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def wait_done(self):
        out, err = self.proc.communicate()
        if self.proc.returncode:
            raise RuntimeError("tools/romfs.py failed: %s" % err.decode(errors="replace"))
        return self.path


class TerminalFailed(RuntimeError):
    """A terminal stopped: a key script that did not go as the players expected, or a link
    that went away. The message carries the terminal's own words."""


class DemoTerminal:
    """One table's terminal process and its flash folder."""

    def __init__(self, folder, ident, table, image, rounds):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.ident = ident
        self.table = table
        env = dict(os.environ, MICROPYPATH=str(ROOT / "tools"))
        self.plug = Plug([micropython(), "-X", "heapsize=" + HEAP,
                          str(ROOT / "tools" / "romrun.py"), str(image), "demo_terminal",
                          str(self.folder), ident, str(rounds)], env=env, cwd=str(ROOT))
        self.port = self.plug.port
        self.said = []  # every line of stderr
        self.played = queue.Queue()  # (round, report) or (None, why it stopped)
        self.shown = queue.Queue()  # the pairing code its screen shows, once (or None)
        threading.Thread(target=self._listen, daemon=True, name="stderr " + ident).start()

    def _listen(self):
        for raw in self.plug.proc.stderr:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self.said.append(line)
            if line.startswith("code "):
                self.shown.put(line[5:])
            elif line.startswith("played "):
                rnd, report = line[7:].split(" ", 1)
                self.played.put((int(rnd), json.loads(report)))
            elif line.startswith(("error:", "link:")) or "Traceback" in line:
                self.played.put((None, line))
        self.played.put((None, "the terminal stopped: %s" % " | ".join(self.said[-6:])))
        self.shown.put(None)

    def code(self, timeout=60):
        """The pairing code the director's screen shows (the terminal is paired first)."""
        try:
            code = self.shown.get(timeout=timeout)
        except queue.Empty:
            code = None
        if code is None:
            raise TerminalFailed("%s: no pairing code on its screen: %s" % (
                self.ident, " | ".join(self.said[-6:])))
        return code

    def start_round(self, rnd, script):
        """Hand the players their keys: the file appears whole (written, then renamed)."""
        path = self.folder / ("round%d.keys" % rnd)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(script, encoding="utf-8")
        tmp.rename(path)

    def wait_played(self, rnd, timeout=60):
        """The terminal's report of round `rnd` (keys, records, heap peak)."""
        try:
            got, report = self.played.get(timeout=timeout)
        except queue.Empty:
            raise TerminalFailed("%s: round %d not played in %ds" % (self.ident, rnd,
                                                                      timeout)) from None
        if got != rnd:
            more = " | ".join(self.said[-8:])
            raise TerminalFailed("%s (table %d): %s" % (self.ident, self.table, more or report))
        return report

    def close(self):
        """Unplug; returns the process's exit status."""
        return self.plug.close(wait=5)
