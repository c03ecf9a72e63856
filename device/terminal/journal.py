"""The power-safe journal: every result and ruling, appended to flash as link frames.

File = frames, each a CBOR array:
  [seq, kind, data, tag]  a record; seq strictly increasing, kind a short text,
                          tag = HMAC-SHA256(key, cbor([ident, seq, kind, data]))
  [base]                  written first by compaction: every seq <= base was acknowledged
  [base, kept]            by the host and removed; seqs after compaction continue above it.
                          `kept` is what the application needs of the removed records to
                          resume (terminal.store): written in the same file as the records
                          it complements, so one rename makes both durable at once.
                          A second `[base]` follows the first marker: when no record follows
                          either, the base is the only memory of the last seq, and one
                          flipped bit in a lone marker would start the seqs again from 1
                          (an empty frame, a lone 0x00, keeps the copies apart).

Power loss can only tear the last frame. On open the files are scanned (never loaded whole):
every whole valid record is kept; a torn tail is cut off logically by starting the next append
with _SEAL (0x01, then a delimiter), which makes the tail one bad frame that scans skip and the
next compaction drops (MicroPython files have no truncate()). A lone 0x00 would complete a
frame torn just before its delimiter and bring back a record never confirmed in place of the
confirmed one. Bad frames in the middle (flash damage): skipped, counted in `damaged`, later
records kept. When damage ends the file one seq is skipped (the damaged record may have
reached the host); a torn tail's seq is reused (its record was never durable).

Compaction writes PATH.new (marker + unacknowledged records), syncs it, renames it over PATH
(atomic on POSIX and littlefs; FAT deletes PATH first, so PATH.new alone is a finished one).

New records go to a small tail file PATH.t, appended whole to PATH (the fold) when the next
frame would take it past _TAIL: on littlefs an append to a file above its inline limit erases
and copies a 4 KB block, within it the append is one metadata commit (docs/PROTOCOL.md,
section 4, with the figures). A fold cut short leaves records of PATH.t in PATH too: they are
skipped, and the open finishes the fold.
"""

import os

from terminal import cbor, const, hmac256
from terminal.frame import FrameReader, decode_payload, encode_frame, frame_payload

_TAG_SIZE = const(32)
_TAG_ITEM = const(2 + _TAG_SIZE)  # the tag's bytes in a record's CBOR: its head, then itself
_CHUNK = const(256)
_TAIL = const(512)
_SEAL = b"\x01\x00"  # COBS code 1 adds a zero byte to whatever frame it ends: its CRC fails


def _durable(f):
    """Push f's bytes to the medium: fsync on CPython, os.sync on boards that have it."""
    f.flush()
    if hasattr(os, "fsync"):
        os.fsync(f.fileno())
    elif hasattr(os, "sync"):
        os.sync()


def _markers(base, kept):
    """The compaction marker, [base] or [base, kept] with the application's state, and its
    second copy of the base (the module docstring), an empty frame between them: a flipped
    delimiter then joins at most one copy to its neighbour."""
    return encode_frame([base] if kept is None else [base, kept]) + b"\x00" + \
        encode_frame([base])


class Journal:
    """Append-only record store for one terminal; see the module docstring for the format."""

    def __init__(self, path, key, ident):
        if not isinstance(key, bytes) or not key:
            raise ValueError("journal: the key must be non-empty bytes")
        if not isinstance(ident, str) or not ident:
            raise ValueError("journal: the terminal id must be a non-empty str")
        self.path = path
        # the tags' key as HMAC pads (made once, not per record), and the identity they cover
        self._key = (hmac256.pads(key), cbor.encode(ident))
        new = path + ".new"
        try:
            os.stat(new)
        except OSError:
            pass
        else:
            try:
                os.stat(path)
            except OSError:
                os.rename(new, path)  # cut inside a FAT rename: the new file is complete
            else:
                os.remove(new)  # compaction cut before its rename: the old file stands
        open(path, "ab").close()  # created if missing
        self.tail = path + ".t"
        # PATH.t's length as this journal's appends left it, or None: read from the file at
        # the next append (a stat per record costs a littlefs lookup and a tuple on the heap)
        self._tail_size = None
        # Called at every chunk a scan reads (main.py: the watchdog's feed), or None.
        self.feed = None
        self.base = 0
        self.last = 0
        reader = FrameReader()
        bad_before_last = 0
        for record, _ in self._scan(reader):
            self.last = record[0]
            bad_before_last = reader.dropped
        self.last = max(self.last, self.base)
        damaged_after_last = reader.dropped - bad_before_last
        if self._torn_at > bad_before_last:
            damaged_after_last -= 1  # PATH's torn end: a fold's copy of records PATH.t holds
        if damaged_after_last:
            self.last += 1  # the damaged last record may have reached the host: skip its seq
        self.damaged = reader.dropped
        self._seal = reader.partial() and self._tail_read  # PATH's own is self._main_seal
        if self._overlap:
            try:
                self._refold()
            except OSError:
                pass  # a full flash: records are read right as they are, the next fold retries
        # The application's checkpoint() -> (seq, state): compaction goes no further than
        # seq and keeps state in its marker (terminal.store), else None: up to any seq.
        self.checkpoint = None
        # The application's apply(seq, kind, data) (terminal.store), for a record the link
        # appends beside it (a pairing's `pair`), else None
        self.follow = None

    def _scan(self, reader):
        """(record, its frame's payload) of every valid record of PATH then PATH.t, in order;
        markers raise self.base, bad frames count. The files are fed to reader one delimiter
        at a time, so that a bad frame is counted in reader.dropped before the next good
        record is yielded. Once PATH is read,
        self._held is the last seq it holds and self._main_seal whether it ends torn (that
        torn end, dropped when the seal is fed, is no damage: self._torn_at); records
        of PATH.t at or below self._held set self._overlap (a fold cut short, the module
        docstring) and are skipped."""
        self._held = None
        self._overlap = self._tail_read = False
        self._torn_at = 0  # reader.dropped once the seal ended PATH's torn end, if it did
        previous = self.base
        for path in (self.path, self.tail):
            if self._held is not None:
                try:
                    os.stat(path)
                except OSError:
                    return  # no tail
                self._tail_read = True
                if self._main_seal:
                    reader.feed(_SEAL)  # PATH's torn end stays apart from the tail
                    self._torn_at = reader.dropped
            for obj, payload in self._objects(path, reader):
                if not isinstance(obj, list):
                    reader.drop("journal: frame is not an array")
                elif len(obj) in (1, 2) and isinstance(obj[0], int):
                    self.base = max(self.base, obj[0])
                    previous = max(previous, obj[0])
                elif not (len(obj) == 4 and isinstance(obj[0], int) and isinstance(obj[1], str)
                          and isinstance(obj[3], bytes) and len(obj[3]) == _TAG_SIZE):
                    reader.drop("journal: not a record")
                elif obj[0] > previous:
                    previous = obj[0]
                    yield obj, payload
                elif self._held is not None and obj[0] <= self._held:
                    self._overlap = True
                else:
                    reader.drop("journal: not a record in sequence")
            if self._held is None:
                self._held = previous
                self._main_seal = reader.partial()

    def _objects(self, path, reader):
        """(message, its payload) of each frame of one file, fed to reader one delimiter at
        a time."""
        with open(path, "rb") as f:
            while True:
                chunk = f.read(_CHUNK)
                if not chunk:
                    return
                if self.feed is not None:
                    self.feed()
                start = 0
                while start < len(chunk):
                    end = chunk.find(b"\x00", start) + 1 or len(chunk)
                    for payload in reader.feed(chunk[start:end], True):
                        try:
                            obj = decode_payload(payload)
                        except ValueError as e:
                            reader.drop(str(e))
                            continue
                        yield obj, payload
                    start = end

    def _frame(self, seq, kind, data):
        """The frame of a record, tagged under the journal's key and identity."""
        # 0x84 heads a CBOR array of four items: [ident, seq, kind, data] and the record,
        # made in one buffer that the frame then takes (frame_payload) as it stands
        out = bytearray(b"\x84")
        for item in (seq, kind, data):
            cbor.encode_into(item, out)
        padded, ident = self._key
        tag = hmac256.digest(None, b"\x84", ident, memoryview(out)[1:], padded=padded)
        out.extend(b"\x58\x20")  # the tag's head: 32 bytes
        out.extend(tag)
        return frame_payload(out)

    def append(self, kind, data):
        """Store a record durably; return its seq. Nothing is written if it is refused."""
        if not isinstance(kind, str) or not kind:
            raise ValueError("journal: the record kind must be a non-empty str")
        seq = self.last + 1
        frame = self._frame(seq, kind, data)
        size = self._tail_size
        if size is None:
            try:
                size = os.stat(self.tail)[6]
            except OSError:
                size = 0
        if size and size + len(_SEAL) + len(frame) > _TAIL:
            self._fold()  # an OSError here has written nothing of this record
            size = 0
        if self._seal:
            frame = _SEAL + frame
        try:
            with open(self.tail, "ab") as f:
                f.write(frame)
                _durable(f)
        except OSError:
            self._seal = True  # part of the frame may be there: end it before the next one
            self.last = seq  # and never reuse this seq, in case all of it is there
            self._tail_size = None
            raise
        self._seal = False
        self.last = seq
        self._tail_size = size + len(frame)
        return seq

    def _fold(self):
        """PATH.t appended whole to PATH (after _SEAL if PATH ends torn), synced, then
        removed. A failed append leaves the tail in place and filters the retry."""
        if self._overlap:
            return self._refold()
        with open(self.tail, "rb") as f:
            data = f.read()
        self._append_main(data)
        self._main_seal = self._seal  # a torn end of the tail is PATH's now
        self._seal = False

    def _refold(self):
        """Finish a fold cut short: the records of PATH.t above the last seq PATH holds."""
        data = bytearray()
        for record, _ in self._scan(FrameReader()):
            if self._held is not None:
                data += encode_frame(record)
        self._append_main(data)
        self._main_seal = self._seal = self._overlap = False

    def _append_main(self, data):
        """data appended to PATH and synced, then PATH.t removed."""
        try:
            with open(self.path, "ab") as f:
                if self._main_seal:
                    f.write(_SEAL)
                f.write(data)
                _durable(f)
        except OSError:
            self._main_seal = self._overlap = True  # part may be there: filter the retry
            raise
        self._tail_size = None
        os.remove(self.tail)

    def _replaced(self):
        """After PATH.new was renamed over PATH: every record is in PATH, the tail goes."""
        self._tail_size = None
        try:
            os.remove(self.tail)
        except OSError:
            pass
        self.damaged = 0
        self._seal = self._main_seal = self._overlap = False

    def records_after(self, seq):
        """Iterate (seq, kind, data, tag) of the stored records with a seq above `seq`."""
        for record, _ in self._scan(FrameReader()):
            if record[0] > seq:
                yield tuple(record)

    def encoded_after(self, seq):
        """Iterate (seq, kind and data as the record's CBOR holds them, one after the other)
        of the stored records with a seq above `seq`: sliced out of the frame as it was
        written (`_frame`: the array's head, seq, kind, data, tag), so a pull sends them as
        they stand instead of encoding each again (terminal.link.Link.pull)."""
        for record, payload in self._scan(FrameReader()):
            seq_at = record[0]
            if seq_at > seq:
                info = payload[1] & 31  # the seq's head: its argument in 0, 1, 2, 4, 8 bytes
                at = 2 if info < 24 else 2 + (1 << (info - 24))
                yield seq_at, memoryview(payload)[at:len(payload) - _TAG_ITEM]

    def kept(self):
        """What the last compaction kept for the application (the marker's second item), or
        None. Only the file's first frame is read."""
        reader = FrameReader()
        with open(self.path, "rb") as f:
            while True:
                chunk = f.read(_CHUNK)
                if not chunk:
                    return None
                for obj in reader.feed(chunk):
                    if isinstance(obj, list) and len(obj) == 2 and isinstance(obj[0], int):
                        return obj[1]
                    return None
                if reader.dropped:
                    return None

    def rekey(self, key, ident):
        """Tag every record held, and every later one, under a new key and identity: at
        registration, the records made before it (under the provisional key) become the
        event's. Power-safe as compaction is: PATH.new, synced, renamed over PATH."""
        if not isinstance(key, bytes) or not key or not isinstance(ident, str) or not ident:
            raise ValueError("journal: a key is non-empty bytes and an identity a str")
        self._key = (hmac256.pads(key), cbor.encode(ident))
        kept = self.kept()
        new = self.path + ".new"
        with open(new, "wb") as f:
            f.write(_markers(self.base, kept))
            for seq, kind, data, _tag in self.records_after(self.base):
                f.write(self._frame(seq, kind, data))
            _durable(f)
        os.rename(new, self.path)
        self._replaced()

    def acknowledge(self, seq):
        """The host has stored every record up to seq: compact them away, power-safely.
        With a `checkpoint` (the application's), only up to its seq, if not beyond `seq`,
        and its state goes into the marker.

        Returns True when the file was compacted, False when seq was already acknowledged
        (or the application has no checkpoint that far).
        """
        if not isinstance(seq, int) or seq > self.last:
            raise ValueError("journal: cannot acknowledge %r, the last record is %d" % (
                seq, self.last))
        kept = None
        if self.checkpoint is not None:
            upto, kept = self.checkpoint()
            if kept is None or upto > seq:
                return False
            seq = upto
        if seq <= self.base:
            return False
        new = self.path + ".new"
        with open(new, "wb") as f:
            f.write(_markers(seq, kept))
            for record in self.records_after(seq):
                f.write(encode_frame(list(record)))
            _durable(f)
        os.rename(new, self.path)
        self.base = seq
        self._replaced()
        return True
