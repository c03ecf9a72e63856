"""Per key, under MicroPython: time, bytes allocated, display bytes, and flash cost per record.

    micropython key_cost.py IMAGE SCRIPT CONFIG OUT [FLASH_BLOCKS | collections]

Run by bench/terminal_bench.py (key_rows) with the simulator's ROMFS image of a tree
(tools/romfs.py --sim, that tree's own: the same script measures an older tree too), mounted at
/rom as tools/romrun.py mounts it: the bytecode runs in place and the UI text keys are
numbered, as on the board. From source folders a screen change would compile its module on the
heap at that key, which the board never does. Each key of the script is handled by the
key-script runner (terminal.keyscript: the board's loop on the simulator board) with the collector
disabled around it, so `gc.mem_alloc()` before and after is the key's allocation; collections
per key follow from it and gc.threshold (terminal/__init__.py: one every that many bytes). With
FLASH_BLOCKS the journal is on a littlefs in RAM (ramflash.py beside this file, a copy of
hw/backends/ramflash.py, mounted as the Pico's firmware mounts it) and the erases and
programmed bytes are counted instead, with the share of record-storing keys that erased no
block (time is then the fake flash's, not reported). Prints one JSON line.

Each key runs as the one step of a `map`, so that callgrind can count the machine
instructions of each key alone (`--toggle-collect=map_iternext --dump-after=map_iternext`,
bench/terminal_bench.py --instructions): a figure the machine's load does not move. With
`collections`, each key runs outside any `map` and a whole collection (gc.collect()) after it
is the map's step instead: callgrind then counts the collector's work at each point of the
session (in a heap of the Pico's number of blocks: bench/terminal_bench.py).
"""

import gc
import os
import sys
import time

import vfs


def mount(image):
    """The image read into one buffer (on the board: flash) and mounted at /rom, first on
    the path."""
    buf = bytearray(os.stat(image)[6])
    with open(image, "rb") as f:
        f.readinto(buf)
    vfs.mount(vfs.VfsRom(buf), "/rom")
    sys.path.insert(0, "/rom")


def count_windows(d):
    """Count the address windows the display's show() sends (`d.windows`, hw.display; a
    tree whose display has none sends one, of its dirty pages) into `d.window_count`."""
    show = d.show
    d.window_count = 0

    def counted():
        windows = getattr(d, "windows", 0)
        d.window_count += len(windows) if windows else 1
        show()

    d.show = counted


def _sent(d):
    """(data bytes, address windows) the simulator's display has sent so far."""
    return getattr(d, "sent", d.frames * 1024), d.window_count


def _i2c_us(data, windows):
    """The time of that much at 400 kHz, 9 clocks a byte (its ACK): each window is six
    command writes of 3 bytes (address, control, command: hw.ssd1306.write_cmd) and a
    data write of the address and control byte before its data."""
    return (data + windows * (6 * 3 + 2)) * 9 * 10 // 4


def _collect(_):
    gc.collect()


def main():
    image, script, config, out = sys.argv[1:5]
    dev = None
    collections = sys.argv[5:] == ["collections"]
    if len(sys.argv) > 5 and not collections:
        import ramflash

        dev = ramflash.mount(int(sys.argv[5]), "/flash")  # as the Pico's firmware mounts it
        out = "/flash"
    mount(image)
    from terminal import keyscript

    from hw import keys
    runner = keyscript.Runner(out, config)
    times, allocs, i2c = [], [], []
    d = runner.board.display
    count_windows(d)
    erases = []  # blocks erased by each key that stored a record
    collected = 0  # keys followed by a counted collection (`collections`)
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
                if collections:
                    runner.line(w)
                    for _ in map(_collect, (0,)):  # the collection is the map's one step
                        pass
                    collected += 1
                    continue
                seq = runner.app and runner.app.journal.last
                e = dev.erased if dev is not None else 0
                sent, windows = _sent(d)
                step = map(runner.line, (w,))  # the key is this map's one step (callgrind)
                gc.collect()
                gc.disable()
                a = gc.mem_alloc()
                t = time.ticks_us()
                for _ in step:
                    pass
                dt = time.ticks_diff(time.ticks_us(), t)
                b = gc.mem_alloc()
                gc.enable()
                times.append(dt)
                allocs.append(b - a)
                sent2, windows2 = _sent(d)
                i2c.append(_i2c_us(sent2 - sent, windows2 - windows))
                if dev is not None and seq is not None and runner.app.journal.last != seq:
                    erases.append(dev.erased - e)
    if collections:
        print('{"keys": %d}' % collected)
        return
    times.sort()
    i2c.sort()
    n = len(times)
    report = {"keys": n, "median_us": times[n // 2], "p90_us": times[n * 9 // 10],
              "alloc_mean": sum(allocs) // n, "alloc_median": sorted(allocs)[n // 2],
              "display_bytes": _sent(d)[0] // n, "i2c_median_us": i2c[n // 2],
              "i2c_mean_us": sum(i2c) // n, "records": runner.app.journal.last}
    if dev is not None:
        report["erased_per_record"] = dev.erased * dev.block_size // report["records"]
        report["programmed_per_record"] = dev.programmed // report["records"]
        report["record_keys_without_erase"] = erases.count(0) * 100 // len(erases)
    print(str(report).replace("'", '"'))


main()
