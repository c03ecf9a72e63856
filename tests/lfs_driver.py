"""The journal on the Pico's littlefs (tests/test_journal.py), under MicroPython:
hw.backends.ramflash formatted as the Pico's firmware formats it.

    micropython lfs_driver.py cuts FIRST LAST RECORDS
    micropython lfs_driver.py cost RECORDS

cuts: for each CUT in FIRST..LAST a fresh flash where records are appended until the CUT-th
erase or program from then on (half done, then the power is off); then power on again, open
the journal, append one more record and open it once more. Prints a JSON line per cut: [cut,
the seqs append() returned, the seqs read back after the power came back, the seq appended
then, the seqs read back at the end]. (The files the dead mount left open report their
failed closes on the way: every line that is not JSON.)

cost: RECORDS appended; prints a JSON list of [blocks erased, bytes programmed] per record.
"""

import json
import sys

from terminal.journal import Journal

from hw.backends import ramflash

KEY = b"per-event key for the link tests"


def data(n):
    """Sizes vary so that the tail folds at different records."""
    return {"board": n, "calls": list(range(n % 7)), "note": "x" * (n * 5 % 23)}


def seqs(journal):
    return [r[0] for r in journal.records_after(0)]


def one(cut, records):
    dev = ramflash.mount(40, "/flash")
    journal = Journal("/flash/journal", KEY, "T07")
    dev.cut = cut
    confirmed = []
    try:
        for n in range(1, records + 1):
            confirmed.append(journal.append("result", data(n)))
    except OSError:
        pass
    ramflash.power_on(dev, "/flash")
    journal = Journal("/flash/journal", KEY, "T07")
    got = seqs(journal)
    after = journal.append("result", data(journal.last + 1))
    return [cut, confirmed, got, after, seqs(Journal("/flash/journal", KEY, "T07"))]


def cost(records):
    dev = ramflash.mount(300, "/flash")  # about the Pico's 1.4 MB filesystem
    journal = Journal("/flash/journal", KEY, "T07")
    out = []
    for n in range(1, records + 1):
        erased, programmed = dev.erased, dev.programmed
        journal.append("result", data(n))
        out.append([dev.erased - erased, dev.programmed - programmed])
    return out


def main():
    if sys.argv[1] == "cost":
        print(json.dumps(cost(int(sys.argv[2]))))
        return
    first, last, records = [int(a) for a in sys.argv[2:5]]
    for cut in range(first, last + 1):
        print(json.dumps(one(cut, records)))


main()
