"""The heap the largest legitimate configuration takes to load on the terminal (issue 14):
a 12-table Howell seen from table 1 (23 rounds, 92 boards of 4 a round, hand records for the
round due, 24 pairs with long names, a long event name), built by the station's own
`setup.table_config`, then `Config.load` under `micropython -X heapsize=` for growing heaps,
next to an empty configuration (the peer: the code's own cost, compiled from source here).

    .venv/bin/python bench/config_heap.py
"""

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "device"))
sys.path.insert(0, str(ROOT / "tests"))

from bridge import boards as law2  # noqa: E402
from conftest import micropython_path  # noqa: E402

from host_sync.event import setup  # noqa: E402
from host_sync.event.db import open_db  # noqa: E402
from host_sync.movements import howell  # noqa: E402
from host_sync.station import link  # noqa: E402

DEAL = "N:AKQJ.T98.765.432 T98.AKQJ.432.765 765.765.AKQJ.T98 432.432.T98.AKQJ"
LOAD = """
import gc
from terminal.config import Config
c = Config.load(%r)
gc.collect()
print(len(c.errors), c.pushed, gc.mem_alloc())
"""


def largest(folder):
    db = open_db(Path(folder) / "e.db", create=True)
    eid = setup.create_event(db, "Чемпионат России по спортивному бриджу, парный турнир, финал")
    movement = howell(12, 4)
    names = {p: ["Александра Константиновна Иванова-%d" % p,
                 "Владимир Александрович Петров-%d" % p] for p in movement.pairs}
    sid = setup.add_session(db, eid, 1, movement, names=names)
    for b in range(1, 93):  # 23 sets of 4
        setup.set_deal(db, sid, b, DEAL, law2.dealer(b), law2.vulnerability(b))
    setup.set_director_pin(db, eid, "123456")
    setup.register_terminal(db, "T1", 0, section="A", table=1)
    config = setup.table_config(db, "T1")
    db.close()
    return link.cbor_encode(config)


def smallest_heap_kib(path):
    """(KiB, bytes left allocated) of the smallest heap, in steps of 8 KiB, that loads it."""
    env = {"MICROPYPATH": "%s:%s:.frozen" % (ROOT / "device", ROOT)}
    for kib in range(16, 257, 8):
        run = subprocess.run([micropython_path(), "-X", "heapsize=%dK" % kib, "-c",
                              LOAD % str(path)], capture_output=True, text=True, env=env)
        if run.returncode == 0:
            errors, pushed, alloc = run.stdout.split()
            assert errors == "0", run.stdout
            return kib, int(alloc)
    raise SystemExit("does not load in 256 KiB")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        big, empty = Path(tmp) / "big.cbor", Path(tmp) / "empty.cbor"
        big.write_bytes(largest(tmp))
        empty.write_bytes(link.cbor_encode({}))
        kib, alloc = smallest_heap_kib(big)
        peer, peer_alloc = smallest_heap_kib(empty)
        print("| measure | value | peer | peer value | ratio |")
        print("|---|---|---|---|---|")
        print("| Config.load, 12-table Howell at table 1 (%d B) | %d KiB (%d B kept) | an empty "
              "configuration | %d KiB (%d B kept) | %.2f |" % (
                  len(big.read_bytes()), kib, alloc, peer, peer_alloc, kib / peer))


if __name__ == "__main__":
    main()
