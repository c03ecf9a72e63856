"""Terminals on real pseudo-terminals for the sync tests and the benchmark.

Each terminal is a real `micropython` process running tests/terminal_script.py with its
stdin/stdout on the slave end of one pty pair; the station opens the slave end of a second
pair with pyserial, exactly as it opens /dev/ttyACM0; a `Cable` thread forwards bytes between
the two master ends and can drop, corrupt, duplicate and delay them, or cut the link mid-frame.
"""

import os
import random
import select
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

from conftest import DEVICE, ROOT, micropython_path

SCRIPT = ROOT / "tests" / "terminal_script.py"


def interpreter_cmd(interpreter):
    if interpreter == "micropython":
        return [micropython_path()], {"MICROPYPATH": "%s%s.frozen" % (DEVICE, os.pathsep)}
    return [sys.executable], {"PYTHONPATH": str(DEVICE)}


class Faults:
    """What the cable does to each chunk of bytes, by probability, from a seeded generator."""

    def __init__(self, seed=0, drop=0.0, corrupt=0.0, duplicate=0.0, delay=0.0,
                 max_delay=0.02, cut_after=None):
        self.rng = random.Random(seed)
        self.drop, self.corrupt, self.duplicate, self.delay = drop, corrupt, duplicate, delay
        self.max_delay = max_delay
        self.cut_after = cut_after  # bytes forwarded (station to terminal and back) before a cut
        self.counts = {"drop": 0, "corrupt": 0, "duplicate": 0, "delay": 0, "cut": 0}

    def apply(self, data):
        r = self.rng
        if r.random() < self.drop:
            self.counts["drop"] += 1
            cut = r.randrange(len(data) + 1)
            return data[:cut] + data[cut + r.randint(1, 8):]
        if r.random() < self.corrupt:
            self.counts["corrupt"] += 1
            data = bytearray(data)
            i = r.randrange(len(data))
            data[i] ^= 1 << r.randrange(8)
            return bytes(data)
        if r.random() < self.duplicate:
            self.counts["duplicate"] += 1
            i = r.randrange(len(data) + 1)
            return data[:i] + data[max(0, i - r.randint(1, 40)):]
        if r.random() < self.delay:
            self.counts["delay"] += 1
            time.sleep(r.random() * self.max_delay)
        return data


class Cable(threading.Thread):
    """Forwards bytes between a terminal's pty master and the station's pty master."""

    def __init__(self, terminal_fd, station_fd, faults=None):
        threading.Thread.__init__(self, daemon=True)
        self.fds = (terminal_fd, station_fd)
        self.faults = faults
        self.moved = 0
        self.stopped = threading.Event()

    def run(self):
        a, b = self.fds
        try:
            while not self.stopped.is_set():
                ready, _, _ = select.select([a, b], [], [], 0.05)
                for fd in ready:
                    try:
                        data = os.read(fd, 4096)
                    except OSError:
                        return
                    if not data:
                        return
                    f = self.faults
                    if f and f.cut_after is not None and self.moved + len(data) >= f.cut_after:
                        part = data[:max(1, f.cut_after - self.moved)]
                        os.write(b if fd == a else a, part)
                        f.counts["cut"] += 1
                        return  # mid-frame, most likely: the link is gone
                    out = f.apply(data) if f else data
                    self.moved += len(data)
                    if out:
                        os.write(b if fd == a else a, out)
        finally:
            self.stopped.set()
            for fd in self.fds:
                try:
                    os.close(fd)
                except OSError:
                    pass

    def stop(self):
        self.stopped.set()
        self.join(2)


class Terminal:
    """One terminal: its flash folder, its identity, and the processes that run on it."""

    def __init__(self, folder, ident, interpreter="micropython"):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.ident = ident
        self.interpreter = interpreter
        self.proc = None
        self.cable = None
        self.port = None

    def _env(self):
        cmd, extra = interpreter_cmd(self.interpreter)
        env = dict(os.environ)
        env.update(extra)
        return cmd, env

    def plug(self, faults=None):
        """Start the terminal's link on a fresh pty and cable it; returns the station's port
        path (the slave end of the station's pty pair)."""
        t_master, t_slave = os.openpty()
        s_master, s_slave = os.openpty()
        tty.setraw(t_slave)
        tty.setraw(s_slave)
        cmd, env = self._env()
        self.proc = subprocess.Popen(cmd + [str(SCRIPT), "link", str(self.folder), self.ident],
                                     stdin=t_slave, stdout=t_slave, stderr=subprocess.PIPE,
                                     env=env, cwd=str(ROOT))
        os.close(t_slave)
        self.port = os.ttyname(s_slave)
        self._station_slave = s_slave  # kept open so the pair lives until unplugged
        self.cable = Cable(t_master, s_master, faults)
        self.cable.start()
        return self.port

    def unplug(self):
        """Pull the cable: the terminal sees a hang-up (and is killed if it lingers)."""
        if self.cable:
            self.cable.stop()
        if self.proc:
            try:
                self.proc.wait(3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc.stderr.close()
        if self.cable:
            os.close(self._station_slave)
        self.proc = self.cable = None

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
