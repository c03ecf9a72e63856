"""The configuration the sync host pushes to a terminal: one CBOR map in a file on flash.

Its content is defined in docs/CONFIG.md: this table's part of the movement, pair names and
player numbers, the boards (dealer, vulnerability, hand record), the settings and the
director's PIN hash. A missing or malformed file never stops the terminal: `Config.load`
keeps whatever parts are valid, falls back to the defaults (Law 2 boards, everything typed
in by hand) and says what it dropped in `errors`.

RAM: the decoded file is dropped once read. What stays is compact: the boards in one
bytearray (a byte of dealer and vulnerability, then the hand record as 2 bits per card:
the seat that holds it), the player numbers packed in ints; pair names are for the host's
reports and are not kept.
"""

import binascii
import hashlib
import sys

from bridge import boards

from terminal import cbor

PATH = "config.cbor"
DEFAULT_SALT = "bridge-td"
DEFAULT_PIN = "0000"  # a terminal that was never configured; docs/CONFIG.md says change it
_SETTINGS = {"lang": "ru", "auction": 1, "lead": 1, "quick": 1, "play": 0}
_VULS = ("None", "NS", "EW", "All")


def pin_hash(salt, pin):
    """The stored form of a director's PIN: sha256(salt + PIN) as lowercase hex."""
    h = hashlib.sha256((salt + pin).encode())
    return binascii.hexlify(h.digest()).decode()


def _player(n):
    return isinstance(n, int) and 0 <= n < 0x20000


def _hands(text):
    """A whole PBN deal's 16 suit masks, or None (bad or partial: nothing to check against).

    bridge.cards is loaded for this and dropped again: the terminal needs it only here."""
    from bridge import cards

    try:
        hands = cards.parse_deal(text)
    except ValueError:
        hands = None
    if hands is not None and None in hands:
        hands = None
    return hands


def forget_parser():
    """Drop bridge.cards once the configuration is read (it is not needed after)."""
    sys.modules.pop("bridge.cards", None)
    bridge = sys.modules.get("bridge")
    if bridge is not None and hasattr(bridge, "cards"):
        delattr(bridge, "cards")


class Config:
    """Read-only view of the pushed configuration, with defaults for what is missing."""

    def __init__(self, data=None):
        self.errors = []
        if not isinstance(data, dict):
            if data is not None:
                self.errors.append("not a map")
            data = {}
        self.event = self._text(data, "event", None)
        self.terminal = self._text(data, "term", None)
        self.section = self._text(data, "sec", "A")
        self.table = self._int(data, "tbl", 0, 1, 999)
        self.salt = self._text(data, "salt", DEFAULT_SALT)
        self._pin = self._text(data, "pin", pin_hash(DEFAULT_SALT, DEFAULT_PIN))
        self.settings = dict(_SETTINGS)
        given = data.get("set")
        if isinstance(given, dict):
            for k in _SETTINGS:
                v = given.get(k)
                if isinstance(v, type(_SETTINGS[k])):
                    self.settings[k] = v
        self.rounds = self._rounds(data.get("rounds"))
        self.players = {}
        for pair, got in self._map(data, "players", list).items():
            if len(got) == 2 and _player(got[0]) and _player(got[1]):
                self.players[pair] = got[0] << 17 | got[1]
        self._at = {}  # board -> offset of its 14 bytes in self._boards
        self._boards = self._pack_boards(data.get("boards"))
        self.pushed = bool(self.table and self.rounds)

    @classmethod
    def load(cls, path=PATH):
        try:
            with open(path, "rb") as f:
                raw = f.read()
        except OSError:
            return cls(None)
        try:
            data = cbor.decode(raw)
        except ValueError as e:
            c = cls(None)
            c.errors.append(str(e))
            return c
        raw = None  # the file's bytes are not needed while the configuration is built
        c = cls(data)
        forget_parser()
        return c

    # -- validation of the parts -------------------------------------------------------------

    def _text(self, data, key, default):
        v = data.get(key, default)
        if v is not None and not isinstance(v, str):
            self.errors.append(key)
            return default
        return v

    def _int(self, data, key, default, low, high):
        v = data.get(key, default)
        if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
            if key in data:
                self.errors.append(key)
            return default
        return v

    def _map(self, data, key, kind):
        v = data.get(key)
        out = {}
        if isinstance(v, dict):
            for k in v:
                if isinstance(k, int) and isinstance(v[k], kind):
                    out[k] = v[k]
        elif v is not None:
            self.errors.append(key)
        return out

    def _rounds(self, given):
        """{round: (ns, ew, first board, last board, NS goes to table, EW goes to table)}."""
        out = {}
        if given is None:
            return out
        if not isinstance(given, list):
            self.errors.append("rounds")
            return out
        for r in given:
            try:
                row = (r["ns"], r["ew"], r["b"][0], r["b"][1], r.get("nns", 0), r.get("new", 0))
                ok = isinstance(r["r"], int) and r["r"] > 0 and row[2] <= row[3]
                for v in row:
                    ok = ok and isinstance(v, int) and v >= 0
                if ok:
                    out[r["r"]] = row
                else:
                    self.errors.append("round")
            except (KeyError, TypeError, IndexError, AttributeError):
                self.errors.append("round")
        return out

    def _pack_boards(self, given):
        """The boards' bytes: dealer | vulnerability << 2 | 16 if a hand record follows,
        then 13 bytes of 2-bit seats by card; bad entries are dropped and named."""
        if not isinstance(given, dict):
            return b""
        good = [b for b in given if isinstance(b, int) and b > 0 and isinstance(given[b], dict)]
        out = bytearray(14 * len(good))
        at = 0
        for b in sorted(good):
            v = given[b]
            dealer = v.get("d", boards.dealer(b))
            vul = v.get("v", boards.vulnerability(b))
            deal = v.get("pbn")
            hands = _hands(deal) if isinstance(deal, str) else None
            if dealer not in (0, 1, 2, 3) or vul not in _VULS or (deal is not None and
                                                                  hands is None):
                self.errors.append("board %d" % b)
                continue
            out[at] = dealer | _VULS.index(vul) << 2 | (16 if hands else 0)
            if hands:
                for seat in range(4):
                    for suit in range(4):
                        mask = hands[seat * 4 + suit]
                        for rank in range(13):
                            if mask >> rank & 1:
                                card = suit * 13 + rank
                                out[at + 1 + card // 4] |= seat << (card % 4 * 2)
            self._at[b] = at
            at += 14
        return out

    # -- what the terminal asks --------------------------------------------------------------

    def round(self, r):
        return self.rounds.get(r)

    def board(self, b):
        """(dealer, vulnerability, hand record or None): the pushed values, else Law 2's.
        A hand record is 16 suit masks, seat * 4 + suit (as bridge.cards.parse_deal)."""
        at = self._at.get(b)
        if at is None:
            return (boards.dealer(b), boards.vulnerability(b), None)
        head = self._boards[at]
        hands = None
        if head & 16:
            hands = [0] * 16
            for card in range(52):
                seat = self._boards[at + 1 + card // 4] >> (card % 4 * 2) & 3
                hands[seat * 4 + card // 13] |= 1 << (card % 13)
        return (head & 3, _VULS[head >> 2 & 3], hands)

    def pair_players(self, pair):
        got = self.players.get(pair)
        return None if got is None else (got >> 17, got & 0x1FFFF)

    def pin_ok(self, pin):
        return pin_hash(self.salt, pin) == self._pin
