"""The headless simulator: a key script drives the terminal on the simulator board.

    python tools/sim.py --keys SCRIPT --out DIR        (CPython)
    micropython tools/romrun.py IMAGE terminal.keyscript SCRIPT DIR [--config F] [--heap N]

The script format is in docs/SIM.md: key names (hw.keys), `shot NAME`, `expect TEXT`,
`wait MS`, `restart`, `#` comments. The journal is written to DIR/journal; `shot` writes
DIR/NAME.png and DIR/NAME.txt. The script is read a line at a time, so a whole session's
script costs no RAM. At the end one JSON line reports what happened (keys, records, boards,
the heap peak on MicroPython); a failed `expect` or a bad line stops the run with exit 1.
"""

import gc
import sys

import terminal
from hw import keys
from hw.backends import sim
from hw.board import Board
from hw.buzzer import Buzzer
from hw.leds import Led
from terminal import const
from terminal.config import Config

KEY = b"simulator-event-key-32-bytes...."
IDENT = "SIM"
_STEP_MS = const(40)  # virtual time between two key events


class Runner:
    """The terminal on the simulator board, and the board's clock: virtual milliseconds that
    advance only with the script (`runner()` is the time)."""

    def __init__(self, out, config=None, image=-1):
        self.out = out
        self.config = config  # the configuration file, or None
        self.now = 0
        self.board = Board(sim.SimDisplay(copy=False), sim.ScriptKeypad(),
                           Buzzer(sim.SimPwm(self)),
                           {"red": Led(sim.SimPin()), "green": Led(sim.SimPin())}, self)
        self.keys = 0
        self.image = image  # >= 0: sample the heap (MicroPython, code in ROMFS)
        self.peak = 0
        self.modules = list(sys.modules)  # what the runner itself needs
        self.link = None  # the sync link, when a station is cabled (pair below)
        self.start()

    def __call__(self):
        return self.now

    def start(self):
        """Power on: the journal recovers, the app rebuilds its state from it. A restart is
        a power cut: the modules the terminal loaded are dropped too, as the board boots with
        an empty heap."""
        self.loop = None
        self.app = None
        terminal.forget([m for m in sys.modules if m not in self.modules])
        gc.collect()
        config = Config.load(self.config) if self.config else Config(None)
        gc.collect()  # the decoded file is gone: only the compact configuration stays
        # after the configuration, so that their peaks do not add up
        from terminal.app import App
        from terminal.journal import Journal
        from terminal.loop import Loop

        journal = Journal(self.out + "/journal", KEY, IDENT)
        self.app = App(journal, config)
        self.app.link = self.link
        self.loop = Loop(self.app, self.board)
        self.sample()

    def sample(self):
        if self.image >= 0:
            gc.collect()
            used = gc.mem_alloc() - self.image
            if used > self.peak:
                self.peak = used

    def line(self, text):
        """Run one script line; returns an error text or None."""
        at = text.find("#")
        if at >= 0:
            text = text[:at]
        words = text.split()
        if not words:
            return None
        cmd = words[0]
        if cmd in ("shot", "expect"):  # what the screen says, only for them (not every key)
            screen = "\n".join(self.app.lines())
        if cmd == "shot" and len(words) == 2:  # DIR/NAME.png and the lines in DIR/NAME.txt
            path = self.out + "/" + words[1] + ".%s"
            with open(path % "png", "wb") as f:
                f.write(self.board.display.png(4))
            with open(path % "txt", "w") as f:
                f.write(screen + "\n")
        elif cmd == "expect" and len(words) > 1:
            want = text.strip()[6:].strip()
            if want not in screen:
                return "expected %r on the screen:\n%s" % (want, screen)
        elif cmd == "wait" and len(words) == 2:
            self.now += int(words[1])
            self.loop.step()
        elif cmd == "restart" and len(words) == 1:
            self.start()
        else:
            for w in words:  # each key pressed on one step, released on the next
                try:
                    keys.code(w)
                except ValueError:
                    return "not a key or command: %r" % w
                self.board.keypad.feed(w)
                self.now += _STEP_MS
                self.loop.step()
                self.now += _STEP_MS
                self.loop.step()
                self.keys += 1
                self.sample()
        return None

    def report(self):
        j = self.app.journal
        return ('{"keys": %d, "records": %d, "boards_done": %d, "skipped": %d, "peak": %d}'
                % (self.keys, j.last, self.app.boards_done, self.app.session.skipped,
                   self.peak))


def pair(runner, link, pin="0000"):
    """What a person does to pair the terminal with the station: director mode (DIR, the
    PIN, OK), 6 (terminal.pairing); returns the code read off the screen, or None when the
    screen shows none. `link` is the terminal's sync link (on the runner's journal)."""
    runner.link = runner.app.link = link
    if runner.line("DIR " + " ".join(pin) + " OK 6"):
        return None
    code = "".join([c for c in runner.app.lines()[2] if "0" <= c <= "9"])
    return code if len(code) == 6 else None


def run(script, out, config=None, image=-1, trace=False):
    """Run a script file; returns (error or None, runner). With trace, after each line the
    seq of the last stored record is printed ("seq N"): what the screen had confirmed."""
    runner = Runner(out, config, image)
    return play(runner, script, trace), runner


def play(runner, script, trace=False):
    """Run a script file on a runner that already holds the terminal; the error or None."""
    n = 0
    with open(script) as f:
        for text in f:
            n += 1
            error = runner.line(text)
            if error:
                return "line %d: %s" % (n, error)
            if trace:
                print("seq", runner.app.journal.last)
    return None


def main(argv):
    if len(argv) < 2:
        print("usage: keyscript SCRIPT OUTDIR [--config FILE] [--heap IMAGE_BYTES] [--trace]")
        return 2
    config = None
    image = -1
    trace = "--trace" in argv
    i = 2
    while i + 1 < len(argv):
        if argv[i] == "--config":
            config = argv[i + 1]
        elif argv[i] == "--heap":
            image = int(argv[i + 1])
        i += 1
    error, runner = run(argv[0], argv[1], config, image, trace)
    print(runner.report())
    if error:
        print("error: " + error)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
