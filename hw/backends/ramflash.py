"""A NOR flash in RAM for MicroPython's littlefs (vfs.VfsLfs2), for tests and bench/: the
board's filesystem without the board, so the journal meets a real littlefs, a full one
included, and what each record costs the flash can be counted.

The block device protocol is MicroPython's extended one (readblocks/writeblocks with an
offset, ioctl 1-6, docs "vfs.AbstractBlockDev"). The part's contract is enforced as the
RP2040's QSPI flash has it: a program can only clear bits (1 -> 0), so a block must be erased
(all 0xFF) before it is written again (ValueError otherwise: littlefs never does it, a bug in
a driver would). `erased` counts block erases and `programmed` the bytes written.
"""

_BLOCK = 4096  # the Pico's flash sector, the block size of its littlefs


class RamFlash:
    def __init__(self, blocks, block_size=_BLOCK):
        self.block_size = block_size
        self.blocks = blocks
        self._ones = b"\xff" * block_size  # an erased block
        self.data = bytearray(blocks * block_size)
        self.erased = 0
        self.programmed = 0
        for i in range(blocks):
            self.ioctl(6, i)
        self.erased = 0

    def readblocks(self, n, buf, off=0):
        at = n * self.block_size + off
        buf[:] = self.data[at:at + len(buf)]

    def writeblocks(self, n, buf, off=None):
        if off is None:  # the simple protocol: erase, then program whole blocks
            for i in range(len(buf) // self.block_size):
                self.ioctl(6, n + i)
            off = 0
        at = n * self.block_size + off
        old = self.data[at:at + len(buf)]
        for i in range(len(buf)):
            if buf[i] & old[i] != buf[i]:
                raise ValueError("flash: programming block %d at %d sets bits an erase did "
                                 "not" % (n, off + i))
        self.data[at:at + len(buf)] = buf
        self.programmed += len(buf)

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.blocks
        if op == 5:  # block size
            return self.block_size
        if op == 6:  # erase
            at = arg * self.block_size
            self.data[at:at + self.block_size] = self._ones
            self.erased += 1
            return 0
        return 0  # 1 init, 2 deinit, 3 sync: nothing to do in RAM
