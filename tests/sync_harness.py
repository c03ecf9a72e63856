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
    if interpreter == "micropython":
        return [micropython_path()], {"MICROPYPATH": "%s%s.frozen" % (DEVICE, os.pathsep)}
    return [sys.executable], {"PYTHONPATH": str(DEVICE)}


class Terminal:
    """One terminal: its flash folder, its identity, and the processes that run on it."""

    def __init__(self, folder, ident, interpreter="micropython"):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.ident = ident
        self.interpreter = interpreter
        self.plugged = None
        self.port = None

    def _env(self):
        cmd, extra = interpreter_cmd(self.interpreter)
        env = dict(os.environ)
        env.update(extra)
        return cmd, env

    def plug(self, faults=None):
        """Start the terminal's link on a fresh pty and cable it; returns the station's port
        path (the slave end of the station's pty pair)."""
        cmd, env = self._env()
        self.plugged = Plug(cmd + [str(SCRIPT), "link", str(self.folder), self.ident], env=env,
                            cwd=str(ROOT), faults=faults)
        self.port = self.plugged.port
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
