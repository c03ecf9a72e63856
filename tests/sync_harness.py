"""Terminals on real pseudo-terminals for the sync tests and the benchmark.

Each terminal is a real `micropython` process running tests/terminal_script.py on a pty,
cabled to the station's port (host_sync.demo.ptys: the pty plumbing and the cable's faults).
"""

import os
import subprocess
import sys
import time
from pathlib import Path

from conftest import DEVICE, ROOT, micropython_path

from host_sync.demo.ptys import Faults, Plug

__all__ = ["Faults", "Terminal", "write_script"]

SCRIPT = ROOT / "tests" / "terminal_script.py"


def interpreter_cmd(interpreter):
    """The command and environment of a terminal process: the device's code, and the
    simulator board (hw/, at the root) for the keys and screen of a pairing."""
    path = os.pathsep.join([str(DEVICE), str(ROOT)])
    if interpreter == "micropython":
        return [micropython_path()], {"MICROPYPATH": path + os.pathsep + ".frozen"}
    return [sys.executable], {"PYTHONPATH": path}


class Terminal:
    """One terminal: its flash folder, its identity, and the processes that run on it."""

    def __init__(self, folder, ident, interpreter="micropython"):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.ident = ident
        self.interpreter = interpreter
        self.plugged = None
        self.port = None
        self.code = None  # the pairing code its screen showed (plug(pair=True))

    def _env(self):
        cmd, extra = interpreter_cmd(self.interpreter)
        env = dict(os.environ)
        env.update(extra)
        return cmd, env

    def plug(self, faults=None, pair=False):
        """Start the terminal's link on a fresh pty and cable it; returns the station's port
        path (the slave end of the station's pty pair). pair: a person first opens a pairing
        on its keypad (director mode, 6) and reads the code off its screen into `code`, for
        the station to type (Session's `code`)."""
        cmd, env = self._env()
        self.plugged = Plug(cmd + [str(SCRIPT), "pair" if pair else "link", str(self.folder),
                                   self.ident], env=env, cwd=str(ROOT), faults=faults)
        self.port = self.plugged.port
        if pair:
            said = self.plugged.proc.stderr.readline().decode(errors="replace").split()
            if said[:1] != ["code"] or len(said) != 2 or not said[1].isdigit():
                raise RuntimeError("%s showed no pairing code: %s" % (self.ident, said))
            self.code = said[1]
        return self.port

    @property
    def cable(self):
        return self.plugged.cable if self.plugged else None

    def unplug(self):
        """Pull the cable: the terminal sees a hang-up (and is killed if it lingers)."""
        if self.plugged:
            self.plugged.close()
        self.plugged = None

    def play(self, script_path, kill_after=None):
        """Journal a scripted round; kill_after: seconds after which the process is killed
        (mid-write, most likely). Returns the completed process, or None if killed."""
        cmd, env = self._env()
        proc = subprocess.Popen(cmd + [str(SCRIPT), "play", str(self.folder), str(script_path)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                                cwd=str(ROOT))
        if kill_after is None:
            out, err = proc.communicate(timeout=60)
            if proc.returncode:
                raise RuntimeError("play failed: %s" % err.decode())
            return out
        time.sleep(kill_after)
        proc.kill()
        proc.communicate()
        return None


def write_script(path, records):
    """The scripted round as play reads it: JSON lines of [kind, fields]."""
    import json
    with open(path, "w") as f:
        for kind, data in records:
            f.write(json.dumps([kind, data]) + "\n")
    return path
