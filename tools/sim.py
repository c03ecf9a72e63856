"""The terminal in a console window, or headless from a key script (docs/SIM.md).

    python tools/sim.py [--config FILE] [--out DIR]                 interactive
    python tools/sim.py --keys SCRIPT --out DIR [--config FILE]     headless

Interactive: the 128x64 display is drawn in place with half-block characters (the console
needs 130 columns and 40 lines); keys are typed on the keyboard (hw.backends.keyboard):

    0-9 digits        c d h s n  strains C D H S NT     p PASS  x X  r XX
    Enter OK          Backspace BACK    arrows UP/DOWN   m MENU  ! DIR      q quit

The journal is DIR/journal (default build/sim), so quitting and starting again resumes
where the table was, as after a power cut. FILE is the pushed configuration: CBOR, or JSON
with the same content (docs/CONFIG.md; map keys that are numbers may be written as strings).
Headless runs the same loop from a key script and writes the journal and PNG screenshots.
"""

import argparse
import json
import os
import select
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0:0] = [str(ROOT / "device"), str(ROOT)]

from terminal import cbor, keyscript  # noqa: E402
from terminal.app import App  # noqa: E402
from terminal.config import Config  # noqa: E402
from terminal.journal import Journal  # noqa: E402
from terminal.loop import Loop  # noqa: E402

from host_sync.event.hand_record import hand_bytes  # noqa: E402
from hw.backends import sim  # noqa: E402
from hw.backends.keyboard import KeyboardKeypad  # noqa: E402

_INT_KEYED = ("names", "players", "boards")
LEGEND = ("keys: 0-9  c d h s n = C D H S NT  p x r = PASS X XX  Enter=OK  "
          "Backspace=BACK  arrows=UP/DOWN  m=MENU  !=DIR  q=quit")


COLUMNS, LINES = 130, 40  # the 128x64 display in half blocks, with its frame and the legend


def console_too_small(size):
    """What to tell the user (Russian and English) when the console cannot show the display
    whole, or None: a smaller one would scroll it into garbage."""
    if size.columns >= COLUMNS and size.lines >= LINES:
        return None
    return ("Симулятору нужно окно не меньше %d столбцов и %d строк, а сейчас %dx%d: "
            "увеличьте окно.\nThe simulator needs a console of at least %d columns and %d "
            "lines; this one is %dx%d: make it larger.\n" % (
                COLUMNS, LINES, size.columns, size.lines, COLUMNS, LINES, size.columns,
                size.lines))


def config_file(path, out):
    """The configuration as the CBOR file the terminal reads (JSON is converted)."""
    if path is None or not path.endswith(".json"):
        return path
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    for key in _INT_KEYED:
        if isinstance(data.get(key), dict):
            data[key] = {int(k): v for k, v in data[key].items()}
    for board in (data.get("boards") or {}).values():  # JSON has no byte strings: a `hand`
        if isinstance(board, dict) and isinstance(board.get("hand"), str):  # may be PBN text
            board["hand"] = hand_bytes(board["hand"]) or board["hand"]
    target = os.path.join(out, "config.cbor")
    with open(target, "wb") as f:
        f.write(cbor.encode(data))
    return target


def interactive(config_path, out):
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)

    def read_char():
        if select.select([fd], [], [], 0)[0]:
            ch = os.read(fd, 1).decode("latin-1")
            if ch in ("q", "\x03", "\x04"):
                raise KeyboardInterrupt
            return ch
        return ""

    board = sim.open_board(KeyboardKeypad(read_char))
    config = Config.load(config_path) if config_path else Config(None)
    app = App(Journal(os.path.join(out, "journal"), keyscript.KEY, keyscript.IDENT), config)
    loop = Loop(app, board)
    shown = -1
    tty.setraw(fd)
    try:
        sys.stdout.write("\x1b[2J")
        while True:
            if not loop.step():
                time.sleep(0.01)
            if board.display.frames != shown:
                shown = board.display.frames
                frame = "\r\n".join(board.display.blocks())
                sys.stdout.write("\x1b[H" + frame + "\r\n\r\n" + LEGEND + "\x1b[K\r\n")
                sys.stdout.flush()
    except KeyboardInterrupt:
        pass
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        sys.stdout.write("\r\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description="the bridge terminal in a console")
    ap.add_argument("--keys", help="a key script (docs/SIM.md): run headless")
    ap.add_argument("--out", default=str(ROOT / "build" / "sim"),
                    help="folder for the journal and screenshots")
    ap.add_argument("--config", help="the pushed configuration (.cbor or .json)")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    config_path = config_file(args.config, args.out)
    if args.keys:
        error, runner = keyscript.run(args.keys, args.out, config_path)
        print(runner.report())
        if error:
            print("error: " + error, file=sys.stderr)
            return 1
        return 0
    narrow = console_too_small(shutil.get_terminal_size((0, 0)))
    if narrow:
        sys.stderr.write(narrow)
        return 2
    interactive(config_path, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
