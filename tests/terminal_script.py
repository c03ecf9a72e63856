"""A terminal for the sync tests, run by the real `micropython` (or CPython) on a pty.

    terminal_script.py link FOLDER IDENT     answer the sync station on stdin/stdout
    terminal_script.py pair FOLDER IDENT     first pair it as a person does (director mode,
                                             6: terminal.keyscript.pair on the simulator
                                             board), say "code NNNNNN" on stderr (what the
                                             screen shows), then answer as `link` does
    terminal_script.py play FOLDER SCRIPT    journal the scripted round in SCRIPT (JSON lines
                                             of [kind, fields]) that the journal lacks yet

`play` stands in for the terminal application (issue 4): it appends the records a round at
the table produces, one durable append per record, resuming after the records already there
(so a play killed mid-write and started again journals each record once).
"""

import json
import sys

from terminal.link import Link, serve


def play(folder, script):
    link = Link(folder)
    if link.journal is None:
        raise SystemExit("play: the terminal is not registered")
    j = link.journal
    have = 0
    for _ in j.records_after(j.base):
        have += 1
    with open(script) as f:
        n = 0
        for line in f:
            n += 1
            if n <= have:
                continue
            kind, data = json.loads(line)
            j.append(kind, data)
    print("journaled", j.last)


def paired_link(folder, ident):
    """The terminal's link once a pairing is open on its keypad (the application and the
    link on one journal, as on the board), the code said on stderr."""
    from terminal import keyscript
    from terminal.keystore import PROVISIONAL_KEY, Keystore

    keys = Keystore(folder + "/registration", ident)
    keyscript.KEY, keyscript.IDENT = keys.key or PROVISIONAL_KEY, keys.ident
    try:
        open(folder + "/config.cbor").close()
        config = folder + "/config.cbor"
    except OSError:
        config = None
    runner = keyscript.Runner(folder, config)
    link = Link(folder, ident, journal=runner.app.journal)
    sys.stderr.write("code %s\n" % keyscript.pair(runner, link))
    return link


def main():
    mode, folder = sys.argv[1], sys.argv[2]
    if mode in ("link", "pair"):
        link = paired_link(folder, sys.argv[3]) if mode == "pair" else Link(folder, sys.argv[3])
        how = "bye"
        while how == "bye":  # stay on the cable, as a terminal does, until it is pulled
            how = serve(link, sys.stdin.buffer, sys.stdout.buffer)
        sys.stderr.write("link: %s\n" % how)
    elif mode == "play":
        play(folder, sys.argv[3])
    else:
        raise SystemExit("unknown mode %s" % mode)


main()
