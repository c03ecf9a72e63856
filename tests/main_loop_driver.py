"""The terminal's whole main loop (device/main.py's `Terminal`: keypad, screen, application and
link on one journal) under micropython, for the tests that talk to it on a pty
(tests/main_loop.py starts it).

argv: FOLDER KEYS SCREEN IDENT MODE. MODE "all": every key of KEYS queued at once, each
screen appended to SCREEN as a line. MODE "chunks": a line of KEYS every 40 turns of the loop
(keys pressed while frames come in), then "keys done" on stderr; SCREEN holds the screen now.
Then it follows KEYS, so that a test can answer what the screen shows: each line appended
later is pressed at once, or `wait MS` moves the board's clock MS milliseconds on (a locked
PIN's wait, director mode's time-out), and "fed N" on stderr says the Nth of them is handled.
"""

import os
import sys
import time

import main

from hw.backends import sim

FOLDER, KEYS, SCREEN, IDENT, MODE = sys.argv[1:6]
CHUNKS = MODE == "chunks"
TERM = []
SKEW = [0]  # milliseconds the board's clock is ahead of the real one (`wait MS`)


class Display(sim.SimDisplay):
    def show(self):
        sim.SimDisplay.show(self)
        if not TERM:
            return
        lines = " | ".join(TERM[0].app.lines())
        if CHUNKS:  # whole or not at all: the test reads it while the loop runs
            with open(SCREEN + ".new", "w") as f:
                f.write(lines)
            os.rename(SCREEN + ".new", SCREEN)
        else:
            with open(SCREEN, "a") as f:
                f.write(lines + "\n")


def clock():
    return time.ticks_add(time.ticks_ms(), SKEW[0])


def follow(f):
    """Press the lines appended to KEYS (f, read to its end) as they come, for ever."""
    fed, line = 0, ""
    while True:
        line += f.readline()  # "" until the test appends; a line may come in two reads
        if not line.endswith("\n"):
            TERM[0].run(turns=40)
            continue
        words, line = line.split(), ""
        if words and words[0] == "wait":
            SKEW[0] += int(words[1])
            TERM[0].run(turns=2)  # the clock's turn: App.tick sees the new time
        else:
            board.keypad.feed(" ".join(words))
            TERM[0].run(turns=2 * len(words) + 2)  # a key is a poll down and one up
        fed += 1
        sys.stderr.write("fed %d\n" % fed)


board = sim.open_board(sim.ScriptKeypad(), clock)
board.display = Display()
TERM.append(main.Terminal(board, FOLDER, IDENT, sys.stdin.buffer, sys.stdout.buffer))
board.display.show()  # the first screen, drawn before TERM held the terminal
with open(KEYS) as f:
    if CHUNKS:
        chunk = f.readline()
        while chunk:
            board.keypad.feed(chunk)
            TERM[0].run(turns=40)
            chunk = f.readline()
        sys.stderr.write("keys done\n")
        follow(f)
    else:
        board.keypad.feed(f.read())
TERM[0].run()
