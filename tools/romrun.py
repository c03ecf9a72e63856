"""Run a module from a ROMFS image on the unix port, as the board runs its code from flash.

    micropython -X heapsize=N tools/romrun.py IMAGE MODULE [ARGS...]

The image (tools/romfs.py) is read into one buffer, mounted with `vfs.VfsRom` at /rom and put
first on sys.path, so the bytecode runs in place from that buffer as it does from the
board's flash. MODULE's main(argv) gets ARGS plus `--heap <image bytes>`, so a module that
measures the heap can subtract the buffer (on the board that buffer is flash, not RAM).
"""

import os
import sys

import vfs


def main():
    # Few names here: this file is compiled on the board's heap, every identifier interned.
    buf = bytearray(os.stat(sys.argv[1])[6])
    with open(sys.argv[1], "rb") as f:
        f.readinto(buf)
    vfs.mount(vfs.VfsRom(buf), "/rom")
    sys.path.insert(0, "/rom")
    __import__(sys.argv[2])
    sys.exit(sys.modules[sys.argv[2]].main(sys.argv[3:] + ["--heap", str(len(buf))]))


main()
