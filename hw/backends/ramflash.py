"""A NOR flash in RAM for MicroPython's littlefs (vfs.VfsLfs2), for tests and bench/: the
board's filesystem without the board, so the journal meets a real littlefs, a full one
included, and what each record costs the flash can be counted.

The block device protocol is MicroPython's extended one (readblocks/writeblocks with an
offset, ioctl 1-6, docs "vfs.AbstractBlockDev"). The part's contract is enforced as the
RP2040's QSPI flash has it: a program can only clear bits (1 -> 0), so a block must be erased
(all 0xFF) before it is written again (ValueError otherwise: littlefs never does it, a bug in
a driver would). `erased` counts block erases and `programmed` the bytes written.

`mount` formats and mounts it as the Pico's firmware does (ports/rp2/modules/_boot.py:
`VfsLfs2(bdev, progsize=256)`, the flash's page): the program size sets littlefs's cache
(4 x 256 B) and so its inline limit (512 B), which decides what an append costs.

Power cuts: with `cut` set to n, the n-th erase or program from then on is the last: a program
lands only its first half, an erase leaves its block half erased, and every operation after it
raises OSError (the power is off, for good: the files the old mount left open can never
write). `power_on` is the next start: the same bytes under a new device, mounted afresh.
"""

import vfs

_BLOCK = 4096  # the Pico's flash sector, the block size of its littlefs
PROGSIZE = 256  # the Pico's littlefs program size (its flash page)
_OFF = OSError(5)  # EIO, made once: a finaliser may write with the heap locked after a cut


def mount(blocks, path):
    """A fresh RamFlash of `blocks` formatted and mounted at path as on the Pico."""
    dev = RamFlash(blocks)
    vfs.VfsLfs2.mkfs(dev, progsize=PROGSIZE)
    remount(dev, path)
    return dev


def remount(dev, path):
    """dev's filesystem mounted at path, as the firmware does at start (the last mount
    dropped)."""
    try:
        vfs.umount(path)
    except OSError:
        pass
    vfs.mount(vfs.VfsLfs2(dev, progsize=PROGSIZE), path)


def power_on(dev, path):
    """The start after a power cut: dev's bytes, on a new device mounted at path."""
    dev.cut = 0  # whatever still holds the old device finds the power off
    new = RamFlash(dev.blocks, dev.block_size, dev.data)
    remount(new, path)
    return new


class RamFlash:
    def __init__(self, blocks, block_size=_BLOCK, data=None):
        self.block_size = block_size
        self.blocks = blocks
        self._ones = b"\xff" * block_size  # an erased block
        self.erased = 0
        self.programmed = 0
        self.cut = None
        self.data = data
        if data is None:  # a new part comes erased
            self.data = bytearray(blocks * block_size)
            for i in range(blocks):
                self.ioctl(6, i)
            self.erased = 0

    def _power(self):
        """True while this operation lands whole; False for the one the power cut halves."""
        if self.cut is None:
            return True
        if self.cut <= 0:
            raise _OFF  # the power is off
        self.cut -= 1
        return self.cut > 0

    def readblocks(self, n, buf, off=0):
        at = n * self.block_size + off
        try:
            buf[:] = self.data[at:at + len(buf)]
        except MemoryError:  # a finaliser's close after a power cut: the heap is locked
            for i in range(len(buf)):
                buf[i] = self.data[at + i]

    def writeblocks(self, n, buf, off=None):
        if off is None:  # the simple protocol: erase, then program whole blocks
            for i in range(len(buf) // self.block_size):
                self.ioctl(6, n + i)
            off = 0
        whole = self._power()  # first: after a cut nothing below may allocate
        at = n * self.block_size + off
        old = self.data[at:at + len(buf)]
        for i in range(len(buf)):
            if buf[i] & old[i] != buf[i]:
                raise ValueError("flash: programming block %d at %d sets bits an erase did "
                                 "not" % (n, off + i))
        size = len(buf) if whole else len(buf) // 2
        self.data[at:at + size] = buf[:size]
        self.programmed += size
        if not whole:
            raise _OFF

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.blocks
        if op == 5:  # block size
            return self.block_size
        if op == 6:  # erase
            whole = self._power()
            at = arg * self.block_size
            size = self.block_size if whole else self.block_size // 2
            self.data[at:at + size] = self._ones[:size]
            self.erased += 1
            if not whole:
                raise _OFF
            return 0
        return 0  # 1 init, 2 deinit, 3 sync: nothing to do in RAM
