"""The configuration the sync host pushes to a terminal: one CBOR map in a file on flash.

Its content is defined in docs/CONFIG.md: this table's part of the movement, pair names and
player numbers, the boards (dealer, vulnerability, hand record), the settings and the
director's PIN hash. A missing or malformed file never stops the terminal: `Config.load`
keeps whatever parts are valid, falls back to the defaults (Law 2 boards, everything typed
in by hand) and says what it dropped in `errors`.

RAM: the decoded file is dropped once read. What stays is three packed tables, bytes looked
up by key (a handful of records, so a scan): the rounds, the player numbers, the boards (a
byte of dealer and vulnerability, then the hand record as 2 bits per card: the seat that
holds it). Pair names are for the host's reports and are not kept.

A closed round's hand records are forgotten (`forget`): zeroed in the table and nulled in the
file, so a terminal holds no deal of a round it has played (docs/SECURITY.md).
"""

import gc
import os
import sys

from bridge import boards

import terminal
from terminal import cbor, const, hmac256

PATH = "config.cbor"
_MAX_ITEMS = const(4000)  # CBOR items in the file: the largest movement's takes ~1,500
_MAX_SIZE = const(16384)  # bytes of the file (terminal.link.MAX_FILE)
_BOARD = const(16)  # bytes of a board in Config._boards (as terminal.config_parse packs them)


class Config:
    """Read-only view of the pushed configuration, with defaults for what is missing."""

    def __init__(self, data=None):
        """The parser (terminal.config_parse) is loaded for this and dropped again: the
        terminal needs it only here and when a round closes (forget)."""
        self.path = None  # the file it was read from (load)
        _parser("fill", self, data)

    @staticmethod
    def load(path=PATH):
        try:
            os.stat(path)
        except OSError:  # a rewrite (forget) cut on FAT, which removes PATH before renaming
            try:  # PATH.w over it: PATH.w is complete by then
                os.rename(path + ".w", path)
            except OSError:
                pass
        try:
            # the size first (only the link writes the file, in bounds: this is a damaged
            # flash); read(n) would allocate n bytes however small the file is
            big = os.stat(path)[6] > _MAX_SIZE
            with open(path, "rb") as f:
                raw = b"" if big else f.read()
        except OSError:
            return Config(None)
        try:
            if big:
                raise ValueError("cbor: more items than allowed")
            data = cbor.decode(raw, _MAX_ITEMS)
        except ValueError as e:
            c = Config(None)
            c.errors.append(str(e))
            return c
        raw = None  # the file's bytes are not needed while the configuration is built
        c = Config(data)
        c.path = path
        # The tables were made above the decoded file; copied once it is freed, they move
        # down into its room, and the top of the heap is one free block again for what
        # loads next (the qstr pools need up to 7 KB in one piece). The boards' stays
        # writable: forget() zeroes a closed round's hand records in place.
        data = None
        gc.collect()
        c._boards = bytearray(c._boards)
        c._rounds, c._players = bytes(c._rounds), bytes(c._players)
        return c

    # -- what the terminal asks --------------------------------------------------------------

    def round(self, r):
        """(ns, ew, first board, last board, NS goes to table, EW goes to table) or None."""
        return _record(self._rounds, 14, r, 2)

    def next_round(self, after):
        """The table's first round above `after` (past a round the table sits out, or in a
        stage the event numbers from 6), else after + 1."""
        for at in range(0, len(self._rounds), 14):  # the table is packed in round order
            r = self._rounds[at] | self._rounds[at + 1] << 8
            if r > after:
                return r
        return after + 1

    def board(self, b):
        """(dealer, vulnerability, hand record or None): the pushed values, else Law 2's.
        The hand record stays packed as the host sent it (13 bytes: see holder)."""
        at = _find(self._boards, _BOARD, b)
        if at < 0:
            return (boards.dealer(b), boards.vulnerability(b), None)
        head = self._boards[at + 2]
        hand = self._boards[at + 3:at + _BOARD] if head & 16 else None
        return (head & 3, boards.VULS[head >> 2 & 3], hand)

    def pair_players(self, n):
        """(first player's number, second's) of pair n, or None."""
        return _record(self._players, 8, n, 3)

    def forget(self, numbers):
        """Forget the hand records of boards `numbers` (a closed round's), in RAM and in the
        file (terminal.config_parse.forget); True if any was held."""
        return _parser("forget", self, numbers)

    def pin_ok(self, pin):
        """Whether pin (digits) is the director's: its PBKDF2 under the pushed salt and
        rounds, then the HMAC of this terminal's identity under that, compared with the
        pushed check (host_sync.event.pin); 0000 on a terminal never configured (_pin
        None); nothing when the pushed PIN part was malformed (_pin empty: the next sync
        mends it, and director mode stays shut rather than open to 0000)."""
        if self._pin is None:
            return pin == "0000"
        if not self._pin:
            return False
        key = hmac256.pbkdf2(pin.encode(), self.salt.encode(), self.kdf)
        return hmac256.equal(hmac256.digest(key, b"pin " + self.terminal.encode()),
                             self._pin)


def _parser(name, *args):
    """terminal.config_parse's function `name` on args: the module is loaded for the call
    and dropped again (with what it loaded), as the terminal needs it rarely."""
    loaded = list(sys.modules)
    from terminal import config_parse

    got = getattr(config_parse, name)(*args)
    terminal.forget([m for m in sys.modules if m not in loaded])
    return got


def holder(hand, card):
    """The seat (0..3) holding card (suit * 13 + rank) in a packed hand record: 2 bits per
    card, four cards a byte (docs/CONFIG.md). Asked card by card, a board's record stays
    13 bytes in RAM rather than a list of masks."""
    return hand[card >> 2] >> (card & 3) * 2 & 3


def suit_masks(hand):
    """A packed hand record as 16 suit masks, seat * 4 + suit (as bridge.cards.parse_deal):
    what the play engine takes."""
    masks = [0] * 16
    for card in range(52):
        masks[holder(hand, card) * 4 + card // 13] |= 1 << (card % 13)
    return masks


def _find(table, size, key):
    """The offset of key's record in a packed table (records of `size` bytes, each starting
    with its key in 2 bytes, little-endian), or -1."""
    for at in range(0, len(table), size):
        if table[at] | table[at + 1] << 8 == key:
            return at
    return -1


def _record(table, size, key, width):
    """The values of key's record as a tuple of ints `width` bytes each, or None."""
    at = _find(table, size, key)
    if at < 0:
        return None
    return tuple(int.from_bytes(table[i:i + width], "little") for i in range(at + 2, at + size,
                                                                             width))
