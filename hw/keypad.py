"""Key-matrix scanning with debounce, hold and auto-repeat, as a pure state machine.

The hardware is reached only through `read_row(r)`, which drives matrix row r and returns a
bit mask of the columns that read pressed (bit c = column c). Every call to scan(now) reads
all rows once; the caller supplies the time, so tests drive the machine with a virtual clock.

Rules:
- debounce: a key changes state only after its raw reading has differed from its debounced
  state continuously for debounce_ms; any bounce back restarts that key's timer. Keys are
  timed separately, so a chattering contact never delays another key.
- ghosting: the matrix has no diodes, so three keys on the corners of a rectangle make the
  fourth read pressed. Any two rows that read two or more common columns make the frame
  ambiguous; such a frame changes no key and restarts every pending timer (keys already down
  stay down), so a ghost is never reported as a key.
- a held key reports HOLD once after hold_ms; keys in `repeating` report REPEAT instead, at
  hold_ms and every repeat_ms after. Only the last key pressed is tracked for this.

Events are small ints, a key code plus its kind (hw.keys: PRESS, RELEASE, HOLD, REPEAT).
"""

from hw.keys import HOLD, RELEASE, REPEAT
from hw.ticks import ticks_add, ticks_diff

_QUEUE = 16


class Keypad:
    def __init__(self, read_row, rows, cols, layout, repeating=(), debounce_ms=20,
                 hold_ms=700, repeat_ms=150):
        if len(layout) != rows * cols:
            raise ValueError("layout has %d keys for a %dx%d matrix" % (len(layout), rows, cols))
        self._read_row = read_row
        self._rows = rows
        self._cols = cols
        self._layout = layout
        self._repeating = repeating
        self._debounce = debounce_ms
        self._hold = hold_ms
        self._repeat = repeat_ms
        self._row_bits = [0] * rows
        self._since = [0] * (rows * cols)
        self.down = 0  # debounced state: bit r*cols+c set while that key is pressed
        self._pending = 0
        self._held = -1  # matrix position of the key tracked for HOLD/REPEAT
        self._held_due = 0
        self._queue = bytearray(_QUEUE)
        self._head = 0
        self._count = 0
        self.dropped = 0  # events lost because nobody read the queue

    def poll(self, now):
        """Scan once and return the next event, or None."""
        self.scan(now)
        return self.get()

    def get(self):
        if not self._count:
            return None
        event = self._queue[self._head]
        self._head = (self._head + 1) % _QUEUE
        self._count -= 1
        return event

    def _push(self, event):
        if self._count == _QUEUE:
            self.dropped += 1
            return
        self._queue[(self._head + self._count) % _QUEUE] = event
        self._count += 1

    def scan(self, now):
        raw = 0
        cols = self._cols
        bits = self._row_bits
        for r in range(self._rows):
            bits[r] = self._read_row(r)
            raw |= bits[r] << (r * cols)
        if raw & (raw - 1) and self._ambiguous():
            self._pending = 0
        else:
            self._debounce_frame(raw, now)
        self._hold_tick(now)

    def _ambiguous(self):
        bits = self._row_bits
        for i in range(self._rows - 1):
            if bits[i]:
                for j in range(i + 1, self._rows):
                    common = bits[i] & bits[j]
                    if common & (common - 1):
                        return True
        return False

    def _debounce_frame(self, raw, now):
        diff = raw ^ self.down
        started = diff & ~self._pending
        k = 0
        while started:
            if started & 1:
                self._since[k] = now
            started >>= 1
            k += 1
        self._pending = diff
        k = 0
        while diff:
            if diff & 1 and ticks_diff(now, self._since[k]) >= self._debounce:
                self._flip(k, now)
            diff >>= 1
            k += 1

    def _flip(self, k, now):
        bit = 1 << k
        self.down ^= bit
        self._pending &= ~bit
        key = self._layout[k]
        if key == 0xFF:  # no key fitted at this position
            return
        if self.down & bit:
            self._push(key)
            self._held = k
            self._held_due = ticks_add(now, self._hold)
        else:
            self._push(key | RELEASE)
            if self._held == k:
                self._held = -1

    def _hold_tick(self, now):
        k = self._held
        if k < 0 or ticks_diff(now, self._held_due) < 0:
            return
        key = self._layout[k]
        if key in self._repeating:
            self._push(key | REPEAT)
            self._held_due = ticks_add(now, self._repeat)
        else:
            self._push(key | HOLD)
            self._held = -1  # one HOLD per press
