"""Processes on real pseudo-terminals, cabled to the port a sync station opens.

A terminal under simulation is a real process (the `micropython` unix port) whose stdin and
stdout are the slave end of one pty pair; the station opens the slave end of a second pair
with pyserial, exactly as it opens /dev/ttyACM0; a `Cable` thread forwards bytes between the
two master ends and can drop, corrupt, duplicate and delay them, or cut the link mid-frame.
Used by `host-sync demo` and by the sync tests.
"""

import os
import random
import select
import subprocess
import threading
import time
import tty


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


class Plug:
    """A process started on a fresh pty and cabled to the station's port (`port`, the slave
    end of the station's pty pair). stderr goes where `stderr` says (a pipe by default)."""

    def __init__(self, cmd, env=None, cwd=None, faults=None, stderr=subprocess.PIPE):
        t_master, t_slave = os.openpty()
        s_master, s_slave = os.openpty()
        tty.setraw(t_slave)
        tty.setraw(s_slave)
        self.proc = subprocess.Popen(cmd, stdin=t_slave, stdout=t_slave, stderr=stderr,
                                     env=env, cwd=cwd)
        os.close(t_slave)
        self.port = os.ttyname(s_slave)
        self._station_slave = s_slave  # kept open so the pair lives until unplugged
        self.cable = Cable(t_master, s_master, faults)
        self.cable.start()

    def close(self, wait=3):
        """Pull the cable: the process sees a hang-up (and is killed if it lingers).
        Returns its exit status."""
        self.cable.stop()
        try:
            self.proc.wait(wait)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stderr:
            self.proc.stderr.close()
        os.close(self._station_slave)
        return self.proc.returncode
