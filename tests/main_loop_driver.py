"""The terminal's whole main loop (device/main.py's `Terminal`: keypad, screen, application and
link on one journal) under micropython, for the tests that talk to it on a pty
(tests/main_loop.py starts it).

argv: FOLDER KEYS SCREEN IDENT MODE. MODE "all": every key of KEYS queued at once, each
screen appended to SCREEN as a line. MODE "chunks": a line of KEYS every 40 turns of the loop
(keys pressed while frames come in), then "keys done" on stderr; SCREEN holds the screen now.
"""

import sys

import main

from hw.backends import sim

FOLDER, KEYS, SCREEN, IDENT, MODE = sys.argv[1:6]
CHUNKS = MODE == "chunks"
TERM = []


class Display(sim.SimDisplay):
    def show(self):
        sim.SimDisplay.show(self)
        if TERM:
            with open(SCREEN, "w" if CHUNKS else "a") as f:
                f.write(" | ".join(TERM[0].app.lines()) + ("" if CHUNKS else "\n"))


board = sim.open_board(sim.ScriptKeypad())
board.display = Display()
TERM.append(main.Terminal(board, FOLDER, IDENT, sys.stdin.buffer, sys.stdout.buffer))
with open(KEYS) as f:
    if CHUNKS:
        for chunk in f:
            board.keypad.feed(chunk)
            TERM[0].run(turns=40)
        sys.stderr.write("keys done\n")
    else:
        board.keypad.feed(f.read())
TERM[0].run()
