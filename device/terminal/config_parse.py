"""Reading the pushed configuration (docs/CONFIG.md) into a `terminal.config.Config`: every
part validated, what is malformed replaced by its default and named in `errors`.

A module of its own so that the terminal drops it once the configuration is read: it is not
needed after. The hand records come packed by the host (`hand`, 13 bytes): no PBN is parsed
here, so bridge.cards and its names never load for the configuration.
"""

import binascii
import os

from bridge import boards

from terminal import const
from terminal.config import _find, holder
from terminal.journal import _durable

_BOARD = const(16)  # bytes of a board in Config._boards (as terminal.config reads them)
# Bounds on the shape, checked before anything is built (docs/PROTOCOL.md, "Bounds"): far above
# any movement (a 12-table Howell plays 23 rounds of 4 boards), far below what the heap holds.
_MAX_ROUNDS = const(40)
_MAX_ROUND_BOARDS = const(36)  # boards of one round
_MAX_BOARD = const(999)  # board numbers 1..999
_MAX_BOARDS = const(128)  # boards pushed
_MAX_PAIRS = const(128)  # pairs with player numbers
_MAX_TEXT = const(120)  # characters of a text field (event name, section, salt, PIN hash)
_MAX_ERRORS = const(16)  # errors named
_MAX_KDF = const(20000)  # PBKDF2 rounds of the PIN: 20 times the host's, still seconds here
_HAND = b"\x64hand\x4d"  # CBOR of the text "hand" and the head of a 13-byte byte string
_NO_HAND = b"\x64hand\xf6"  # "hand": null, read as a board without a hand record


def fill(config, data):
    """Set the attributes of a Config (`config`) from the decoded file `data` (or None)."""
    config.errors = []
    if not isinstance(data, dict):
        if data is not None:
            config.errors.append("not a map")
        data = {}
    config.event = _text(config, data, "event", None)
    config.terminal = _text(config, data, "term", None)
    config.section = _text(config, data, "sec", "A")
    table = data.get("tbl", 0)
    if not isinstance(table, int) or isinstance(table, bool) or not 1 <= table <= 999:
        if "tbl" in data:
            config.errors.append("tbl")
        table = 0
    config.table = table
    closed = data.get("cc", 0)  # 1: the session's correction period is over (79C)
    if not _number(closed, 0, 1):
        config.errors.append("cc")
        closed = 0
    config.corrections_closed = closed == 1
    _pin(config, data)
    settings = config.settings = {"lang": "ru", "auction": 1, "lead": 1, "quick": 1, "play": 0}
    given = data.get("set")
    if isinstance(given, dict):
        for k in settings:  # a setting is taken if it has its default's type (bools are not
            v = given.get(k)  # ints here: MicroPython and CPython disagree on that)
            if k in given and (isinstance(v, bool) or not isinstance(v, type(settings[k]))):
                config.errors.append("set." + k)
            elif k in given:
                settings[k] = v
    elif given is not None:
        config.errors.append("set")
    config._rounds = _pack(_rounds(config, data.get("rounds")), 2)
    players = {}
    given = data.get("players")
    if isinstance(given, dict) and len(given) > _MAX_PAIRS:
        config.errors.append("players")
    elif isinstance(given, dict):
        for pair in given:  # {pair: [first player's number, second's]}, each below 0x20000
            got = given[pair]
            ok = _number(pair, 1, 0xFFFF) and isinstance(got, list) and len(got) == 2
            for n in got if ok else ():
                ok = ok and _number(n, 0, 0x1FFFF)
            if ok:
                players[pair] = got
            else:
                config.errors.append("players %r" % (pair,))
    elif given is not None:
        config.errors.append("players")
    config._players = _pack(players, 3)
    config._boards = _boards(config, data.get("boards"))
    config.pushed = bool(config.table and config._rounds)
    del config.errors[_MAX_ERRORS:]  # the shape's bounds keep it short; this keeps it shorter


def _pin(config, data):
    """The director's PIN part: `salt` (text), `kdf` (PBKDF2 rounds), `pv` 2 (the scheme:
    the check is HMAC(PBKDF2(PIN), 'pin ' + term), host_sync.event.pin) and `pin` (that
    check, 32 bytes in hex); `term` is needed too. None when there is none (a terminal never
    configured takes 0000: docs/CONFIG.md says change it); empty, so that no PIN opens
    director mode, when it is malformed or of an older host's scheme."""
    config.salt, config.kdf, config._pin = "", 0, None
    if "pin" not in data:
        return
    config._pin = b""
    salt, rounds, pin = data.get("salt"), data.get("kdf"), data.get("pin")
    if not (_number(rounds, 1, _MAX_KDF) and isinstance(salt, str) and
            0 < len(salt) <= _MAX_TEXT and isinstance(pin, str) and len(pin) == 64 and
            _number(data.get("pv"), 2, 2) and isinstance(config.terminal, str)):
        config.errors.append("pin")
        return
    try:
        config._pin = binascii.unhexlify(pin)
    except ValueError:
        config.errors.append("pin")
        return
    config.salt, config.kdf = salt, rounds


def _text(config, data, key, default):
    v = data.get(key, default)
    if v is not None and not (isinstance(v, str) and len(v) <= _MAX_TEXT):
        config.errors.append(key)
        return default
    return v


def _number(v, low, high):
    """Whether v is an int (not a bool) from low to high."""
    return isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def _pack(table, width):
    """A table of terminal.config from {key: values}: for each key (sorted) its record, the key
    in 2 bytes then each value in `width` bytes, little-endian."""
    out = bytearray()
    for key in sorted(table):
        for i, v in enumerate((key,) + tuple(table[key])):
            out += v.to_bytes(2 if i == 0 else width, "little")
    return out

def _rounds(config, data):
    """{round: (ns, ew, first board, last board, NS goes to table, EW goes to table)}, every
    number below 65536, from the file's `rounds` (data)."""
    out = {}
    if data is None:
        return out
    if not isinstance(data, list) or len(data) > _MAX_ROUNDS:
        config.errors.append("rounds")
        return out
    for r in data:
        try:  # pairs and boards from 1, two different pairs, the boards in order
            row = (r["ns"], r["ew"], r["b"][0], r["b"][1], r.get("nns", 0), r.get("new", 0))
            ok = _number(r["r"], 1, 0xFFFF) and row[0] != row[1] and len(r["b"]) == 2
            for i, v in enumerate(row):
                ok = ok and _number(v, 1 if i < 3 else 0, 0xFFFF)
            ok = ok and row[2] <= row[3] <= _MAX_BOARD and \
                row[3] - row[2] < _MAX_ROUND_BOARDS
            if ok and r["r"] in out:
                config.errors.append("round %d twice" % r["r"])
            elif ok:
                out[r["r"]] = row
            else:
                config.errors.append("round")
        except (KeyError, TypeError, IndexError, AttributeError):
            config.errors.append("round")
    return out

def _boards(config, data):
    """The boards' table, from the file's `boards` (data): per board 16 bytes, its number (2
    bytes, little-endian), dealer | vulnerability << 2 | 16 if a hand record follows, then
    the 13 bytes of `hand` (2-bit seats by card); bad entries are dropped and named.

    A `hand` is taken if it is 13 bytes and every seat holds 13 cards. A `pbn` (the hand
    record before `hand`) is not read: a board with one and no `hand` is dropped and named,
    so that a host that still sends PBN does not lose its hand records unseen."""
    if not isinstance(data, dict) or len(data) > _MAX_BOARDS:
        if data is not None:
            config.errors.append("boards")
        return b""
    good = []
    for b in data:
        if _number(b, 1, _MAX_BOARD) and isinstance(data[b], dict):
            good.append(b)
        else:
            config.errors.append("board %r" % (b,))
    out = bytearray(_BOARD * len(good))
    at = 0
    for b in sorted(good):
        v = data[b]
        dealer = v.get("d", boards.dealer(b))
        vul = v.get("v", boards.vulnerability(b))
        hand = v.get("hand")
        ok = _number(dealer, 0, 3) and vul in boards.VULS
        if hand is not None:
            count = [0, 0, 0, 0]  # cards by seat
            if isinstance(hand, bytes) and len(hand) == 13:
                for card in range(52):
                    count[holder(hand, card)] += 1
            ok = ok and count == [13, 13, 13, 13]
        elif "pbn" in v:
            ok = False
        if not ok:
            config.errors.append("board %d" % b)
            continue
        out[at] = b & 0xFF
        out[at + 1] = b >> 8
        out[at + 2] = dealer | boards.VULS.index(vul) << 2 | (0 if hand is None else 16)
        if hand is not None:
            out[at + 3:at + _BOARD] = hand
        at += _BOARD
    return out[:at]


def forget(config, numbers):
    """Forget the hand records of boards `numbers` (a closed round's: terminal.app): zeroed
    in place in the table (so that no copy of them stays in the configuration's RAM), and in
    the file they were read from each one's `hand` becomes null: the board keeps its dealer
    and vulnerability, the rest of the file is byte for byte as pushed. The file is written
    beside (PATH.w), synced, and renamed over PATH (atomic on littlefs; FAT removes PATH
    first: Config.load takes PATH.w when PATH is gone). True if any was held."""
    table = config._boards
    held = []
    for b in numbers:
        at = _find(table, _BOARD, b)
        if at >= 0 and table[at + 2] & 16:
            held.append(_HAND + bytes(table[at + 3:at + _BOARD]))
            table[at + 2] &= 15
            table[at + 3:at + _BOARD] = bytes(_BOARD - 3)
    if held and config.path:
        _rewrite(config.path, held)
    return bool(held)


def _rewrite(path, patterns):
    """PATH with every pattern (`"hand": h'...'`) made `"hand": null`, read and written in
    small pieces (a whole file would need its size in one block of heap)."""
    new = path + ".w"
    keep = len(_HAND) + 12  # a pattern's length less one: one may straddle two pieces
    with open(path, "rb") as src, open(new, "wb") as dst:
        buf = b""
        while True:
            piece = src.read(256)
            buf += piece
            for p in patterns:
                buf = buf.replace(p, _NO_HAND)
            if not piece:
                break
            dst.write(buf[:-keep])
            buf = buf[-keep:]
        dst.write(buf)
        _durable(dst)
    try:
        os.rename(new, path)
    except OSError:  # FAT renames over nothing
        os.remove(path)
        os.rename(new, path)
