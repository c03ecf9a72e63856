"""The terminal on a littlefs that fills up, under MicroPython (tests/test_journal.py): the
filesystem is hw.backends.ramflash's flash in RAM, mostly taken by a padding file, and the
session's keys are pressed until the journal can store no more.

    micropython full_flash_driver.py KEYS CONFIG FREE_BYTES

Prints one JSON line: the seqs stored, the keys refused for a full flash, the notes shown,
the seqs a reopened journal holds, and its last seq.
"""

import json
import os
import sys

from terminal import ui_text
from terminal.app import App
from terminal.config import Config
from terminal.journal import Journal

from hw import keys
from hw.backends import ramflash

KEY = b"simulator-event-key-32-bytes...."
ramflash.mount(48, "/flash")
with open("/flash/pad", "wb") as f:  # leave about FREE_BYTES
    while os.statvfs("/flash")[0] * os.statvfs("/flash")[3] > int(sys.argv[3]):
        f.write(bytes(1024))
        f.flush()
journal = Journal("/flash/journal", KEY, "SIM")
stored = []  # the seqs append() returned: what the screen confirmed
append = journal.append
journal.append = lambda kind, data: stored.append(append(kind, data)) or stored[-1]
app = App(journal, Config.load(sys.argv[2]))
full = 0
notes = set()
with open(sys.argv[1]) as f:
    for line in f:
        words = line.split("#")[0].split()
        if not words or words[0] in ("shot", "expect", "wait", "restart"):
            continue
        for w in words:
            before = app.journal.last
            app.key(keys.code(w))
            if app.note == ui_text.t("flash_full"):
                full += 1
                notes.add(app.lines()[-1])
            elif app.note:
                notes.add(app.note)
            assert app.journal.last >= before
again = Journal("/flash/journal", KEY, "SIM")
print(json.dumps({"stored": stored, "refused": full, "notes": sorted(notes),
                  "reopened": [r[0] for r in again.records_after(0)], "last": again.last}))
