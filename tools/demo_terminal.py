"""One table's terminal for `host-sync demo`, run by the real `micropython` from the ROMFS
image, with this folder (tools/) on MICROPYPATH:

    micropython -X heapsize=256k tools/romrun.py IMAGE demo_terminal FOLDER IDENT ROUNDS

stdin/stdout is the terminal's USB link (the slave end of a pty). FOLDER is its flash: the
registration, the pushed configuration and the journal. The process lives for the whole
session, as the board stays powered between rounds:

1. the director pairs it (director mode with a new terminal's PIN, 6: terminal.keyscript.pair
   on the simulator board) and the code its screen shows goes to stderr (`code NNNNNN`), for
   the station to type; then it answers the sync station until the station says bye (the
   pairing: the event's key and the table's configuration arrive);
2. for each round r = 1..ROUNDS it waits for FOLDER/round<r>.keys (the players' keys, the key
   script format of docs/SIM.md), plays them through the application on the simulator board
   (terminal.keyscript's Runner: the board's own main loop), writes `played R {report}` to
   stderr (keys, records, heap peak), and answers the station again until bye.

The application and the link share one journal and the link compacts only what
terminal.store.ack_limit allows, as on the board. A failed `expect` or a link that hangs up
ends the process with status 1 and the reason on stderr.
"""

import os
import sys
import time

from terminal import keyscript, store
from terminal.keystore import PROVISIONAL_KEY
from terminal.link import Link, serve


def say(text):
    sys.stderr.write(text + "\n")


def wait_for(path):
    while True:
        try:
            os.stat(path)
            return
        except OSError:
            time.sleep(0.02)


def play(runner, path):
    """Run one round's key script; returns an error text or None."""
    error = keyscript.play(runner, path)
    return error and "%s %s" % (path, error)


def answer(link):
    """Serve the station until bye; False (said on stderr) if the link went away instead."""
    how = serve(link, sys.stdin.buffer, sys.stdout.buffer)
    if how != "bye":
        say("link: " + how)
        return False
    return True


def main(argv):
    """The session; an exception is written to stderr (the unix port would print it on
    stdout, which is the link) and ends the process with status 1."""
    try:
        return session(argv)
    except Exception as e:
        if hasattr(sys, "print_exception"):
            sys.print_exception(e, sys.stderr)
        else:
            import traceback
            traceback.print_exc()
        return 1


def session(argv):
    folder, ident, rounds = argv[0], argv[1], int(argv[2])
    image = int(argv[argv.index("--heap") + 1]) if "--heap" in argv else -1
    # The key script runner signs its journal as the simulator; this terminal signs with the
    # provisional key until it is paired, then with the key and identity the station gave.
    keyscript.KEY, keyscript.IDENT = PROVISIONAL_KEY, ident
    runner = keyscript.Runner(folder, None, image)  # new: no configuration yet
    link = Link(folder, ident, journal=runner.app.journal,
                ack_limit=lambda seq: store.ack_limit(runner.app.session, seq))
    code = keyscript.pair(runner, link)
    if code is None:
        say("error: no pairing code on the screen: " + " | ".join(runner.app.lines()))
        return 1
    say("code " + code)
    if not answer(link):
        return 1
    keyscript.KEY, keyscript.IDENT = link.keys.key, link.keys.ident
    runner.config = folder + "/config.cbor"
    runner.start()  # the pushed configuration, on the journal under the event's key
    link.journal = runner.app.journal
    for r in range(1, rounds + 1):
        path = "%s/round%d.keys" % (folder, r)
        wait_for(path)
        error = play(runner, path)
        if error:
            say("error: " + error)
            return 1
        say("played %d %s" % (r, runner.report()))
        if not answer(link):
            return 1
    return 0
