"""Per key, under MicroPython: time, bytes allocated, display bytes, and flash cost per record.

    micropython key_cost.py SCRIPT CONFIG OUT [FLASH_BLOCKS]

Run by bench/terminal_bench.py (key_rows), from source folders so that the same script
measures an older tree too. Each key of the script is handled by the key-script runner
(terminal.keyscript: the board's loop on the simulator board) with the collector disabled
around it, so `gc.mem_alloc()` before and after is the key's allocation; collections per
key follow from it and gc.threshold (terminal/__init__.py: one every that many bytes). With
FLASH_BLOCKS the journal is on a littlefs in RAM (ramflash.py beside this file, a copy of
hw/backends/ramflash.py) and the erases and programmed bytes are counted instead (time is
then the fake flash's, not reported). Prints one JSON line.
"""

import gc
import sys
import time

from terminal import keyscript

from hw import keys


def main():
    script, config, out = sys.argv[1:4]
    dev = None
    if len(sys.argv) > 4:
        import ramflash
        import vfs

        dev = ramflash.RamFlash(int(sys.argv[4]))
        vfs.VfsLfs2.mkfs(dev)
        vfs.mount(vfs.VfsLfs2(dev), "/flash")
        out = "/flash"
    runner = keyscript.Runner(out, config)
    times, allocs = [], []
    with open(script) as f:
        for text in f:
            words = text.split("#")[0].split()
            if not words:
                continue
            if words[0] in ("shot", "expect", "wait", "restart"):
                runner.line(text)
                continue
            for w in words:
                keys.code(w)
                gc.collect()
                gc.disable()
                a = gc.mem_alloc()
                t = time.ticks_us()
                runner.line(w)
                dt = time.ticks_diff(time.ticks_us(), t)
                b = gc.mem_alloc()
                gc.enable()
                times.append(dt)
                allocs.append(b - a)
    times.sort()
    n = len(times)
    d = runner.board.display
    report = {"keys": n, "median_us": times[n // 2], "p90_us": times[n * 9 // 10],
              "alloc_mean": sum(allocs) // n, "alloc_median": sorted(allocs)[n // 2],
              "display_bytes": getattr(d, "sent", d.frames * 1024) // n,
              "records": runner.app.journal.last}
    if dev is not None:
        report["erased_per_record"] = dev.erased * dev.block_size // report["records"]
        report["programmed_per_record"] = dev.programmed // report["records"]
    print(str(report).replace("'", '"'))


main()
