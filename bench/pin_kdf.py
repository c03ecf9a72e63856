"""The director's PIN check (issue 14, host_sync.event.pin): the terminal's PBKDF2-HMAC-SHA256
(terminal.hmac256.pbkdf2) at the host's PIN_ROUNDS and the HMAC of its identity under that,
per attempt, under `micropython` (the unix port), against its peers in the same run: CPython's
hashlib.pbkdf2_hmac and hmac (C, what an attacker holding a terminal's configuration file
would run; from the host's K alone, the PBKDF2 without the HMAC), and the RP2040 estimate.

    PATH=.venv/bin:$PATH .venv/bin/python bench/pin_kdf.py

The estimate multiplies the unix port's time by FACTOR: the SHA-256 compressions dominate an
iteration (four 64-byte blocks), C code on both ports, so the ratio is one of clock and
instruction set (x86-64 at ~3 GHz against a Cortex-M0+ at 125 MHz with no barrel rotate),
which puts it at 70 (the interpreter's own ratio, issue 18) to 120. The upper end is taken,
on the fastest of the runs (the others wait for the machine: this one is shared).
"""

import hashlib
import hmac
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "device"))
sys.path.insert(0, str(ROOT / "tests"))

from conftest import micropython_path  # noqa: E402

from host_sync.event.pin import PIN_ROUNDS  # noqa: E402

FACTOR = 120
REPEAT = 15
SCRIPT = """
import time
from terminal import hmac256
for _ in range(%d):
    t = time.ticks_us()
    hmac256.digest(hmac256.pbkdf2(b"20261202", b"0123456789abcdef", %d), b"pin T3")
    print(time.ticks_diff(time.ticks_us(), t))
""" % (REPEAT, PIN_ROUNDS)


def unix_port_us():
    env = {"MICROPYPATH": "%s:%s:.frozen" % (ROOT / "device", ROOT)}
    run = subprocess.run([micropython_path(), "-c", SCRIPT], capture_output=True, text=True,
                         env=env, check=True)
    return [int(x) for x in run.stdout.split()]


def hashlib_us(check=True):
    """One guess against a terminal's configuration (K, then the check), or with
    check=False against the host's K."""
    out = []
    for _ in range(REPEAT):
        t = time.perf_counter()
        key = hashlib.pbkdf2_hmac("sha256", b"20261202", b"0123456789abcdef", PIN_ROUNDS)
        if check:
            hmac.new(key, b"pin T3", "sha256").digest()
        out.append((time.perf_counter() - t) * 1e6)
    return out


def main():
    unix, peer, from_key = unix_port_us(), hashlib_us(), hashlib_us(check=False)
    print("| PIN check, %d rounds, per attempt | fastest | median |" % PIN_ROUNDS)
    print("|---|---|---|")
    print("| terminal.hmac256 pbkdf2 + digest, micropython unix port | %.1f ms | %.1f ms |" % (
        min(unix) / 1000, statistics.median(unix) / 1000))
    print("| hashlib.pbkdf2_hmac + hmac (CPython, C): the attacker's, from a terminal's "
          "configuration | %.2f ms | %.2f ms |" % (min(peer) / 1000,
                                                  statistics.median(peer) / 1000))
    print("| hashlib.pbkdf2_hmac alone: the attacker's, from the host's K | %.2f ms | "
          "%.2f ms |" % (min(from_key) / 1000, statistics.median(from_key) / 1000))
    print("| RP2040 estimate (unix port × %d) | %.2f s | |" % (FACTOR, min(unix) * FACTOR / 1e6))
    for digits in (4, 6, 8):
        print("| every %d-digit PIN with hashlib, one core | %s | |" % (
            digits, _span(10 ** digits * min(peer) / 1e6)))


def _span(seconds):
    for unit, size in (("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return "%.1f %s" % (seconds / size, unit)
    return "%.1f s" % seconds


if __name__ == "__main__":
    main()
