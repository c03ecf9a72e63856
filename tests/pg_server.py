"""A real PostgreSQL server for the tests: Debian's `postgresql` binaries (tools/system-deps.sh
installs them), a cluster made by initdb in a temporary folder, started by pg_ctl on a free
local port, stopped and removed at the end. initdb refuses to run as root, so as root (CI, the
project's machines) the cluster belongs to the `postgres` user that the Debian package creates.

Each test gets a database of its own (`fresh_url`); fsync is off, since a test server's data
need not survive a power cut (bench/pg_ingest_bench.py asks for `durable`: the defaults)."""

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import psycopg


def binaries():
    """The newest PostgreSQL's bin folder, or an error that says what to install."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda p: int(Path(p).parent.parent.name))
    if not found:
        raise RuntimeError("PostgreSQL is not installed: run `sh tools/system-deps.sh` as root "
                           "(Debian package postgresql)")
    return Path(found[-1]).parent


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One running cluster; `admin` is its superuser's URL to the `postgres` database."""

    def __init__(self, durable=False):
        self.bin = binaries()
        self.root = Path(tempfile.mkdtemp(prefix="host-sync-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.as_user = []
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", self.data, "-A", "trust", "-U", "postgres", "--no-locale",
                  "-E", "UTF8")
        options = "-c listen_addresses=127.0.0.1 -p %d -k %s" % (self.port, self.root)
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._start(options)
        self.admin = self.url("postgres")
        self._count = 0

    def _start(self, options):
        self._run("pg_ctl", "-D", self.data, "-l", self.root / "server.log", "-w", "-o",
                  options, "start")

    def _run(self, tool, *args):
        done = subprocess.run(self.as_user + [str(self.bin / tool)] + [str(a) for a in args],
                              capture_output=True, text=True, cwd=self.root)
        if done.returncode:
            raise RuntimeError("%s failed: %s%s" % (tool, done.stdout, done.stderr))

    def url(self, dbname):
        return "postgresql://postgres@127.0.0.1:%d/%s" % (self.port, dbname)

    def fresh_url(self):
        """A new empty database on the server, for one test."""
        self._count += 1
        name = "event_%d_%d" % (os.getpid(), self._count)
        with psycopg.connect(self.admin, autocommit=True) as conn:
            conn.execute("CREATE DATABASE %s" % name)
        return self.url(name)

    def stop(self):
        try:
            self._run("pg_ctl", "-D", self.data, "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
