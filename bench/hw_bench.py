"""Display drawing speed under the real `micropython`: a full screen of hw.text (6x9 font,
Cyrillic and suits, one blit per glyph) against the peer, framebuf's own built-in
FrameBuffer.text (8x8 ASCII font, C loop), and the keypad scan against a bare read of the
same 25 keys.

Run: `python bench/hw_bench.py` from the repository root (prints a markdown table of
medians over BENCH_REPEAT runs, each timing many iterations inside one micropython process).
"""

import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from conftest import micropython_path  # noqa: E402

REPEAT = int(os.environ.get("BENCH_REPEAT", "5"))

DEVICE_CODE = r"""
import sys, time, framebuf
sys.path.insert(0, '.')
from hw import keys, layout, text
from hw.keypad import Keypad
buf = bytearray(1024)
fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
ru = 'Сдача 7 Сд:Ю Зона:все'
en = 'Board 7 Dlr:S Vul:All'
N = 200

def screen_hw():
    for r in range(7):
        text.draw_line(fb, ru, r, r == 0)

def screen_builtin():
    for r in range(7):
        fb.fill_rect(0, r * 9, 128, 9, 0)
        fb.text(en[:16], 0, r * 9, 1)

rows = [0] * 5
def read_row(r):
    return rows[r]

pad = Keypad(read_row, 5, 5, layout.LAYOUT, layout.REPEATING)

def scan_keypad():
    for t in range(10):
        pad.scan(t)

def scan_bare():
    for t in range(10):
        raw = 0
        for r in range(5):
            raw |= read_row(r) << (r * 5)

for name, fn in (('hw', screen_hw), ('builtin', screen_builtin), ('scan', scan_keypad),
                 ('bare', scan_bare)):
    start = time.ticks_us()
    for _ in range(N):
        fn()
    print(name, time.ticks_diff(time.ticks_us(), start) / N)
"""


def run_once():
    env = dict(os.environ)
    proc = subprocess.run([micropython_path(), "-c", DEVICE_CODE], capture_output=True,
                          cwd=str(ROOT), env=env, timeout=120, check=True)
    return {name: float(value) for name, value in
            (line.split() for line in proc.stdout.decode().splitlines())}


def main():
    runs = [run_once() for _ in range(REPEAT)]
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    print("| hw under micropython (unix port) | median µs | peer | peer µs | ratio |")
    print("| --- | ---: | --- | ---: | ---: |")
    print("| full screen, 7 lines x 21 chars of hw.text (6x9, Cyrillic) | %.0f | "
          "FrameBuffer.text, 7 lines x 16 chars (8x8 ASCII) | %.0f | %.2f |"
          % (med["hw"], med["builtin"], med["hw"] / med["builtin"]))
    print("| keypad: 10 scans with debounce/ghost checks (5x5) | %.0f | "
          "10 bare reads of the 5 rows | %.0f | %.2f |"
          % (med["scan"], med["bare"], med["scan"] / med["bare"]))


if __name__ == "__main__":
    main()
