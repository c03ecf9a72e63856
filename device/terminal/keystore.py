"""The terminal's registration: its identity, the event it belongs to and that event's key.

One frame in one small file, replaced atomically (written to PATH.new, then renamed), so a
power cut leaves either the old registration or the new one. A missing or unreadable file
means "not registered": the terminal then journals under PROVISIONAL_KEY, and registration
re-tags those records under the event key (terminal.link, docs/PROTOCOL.md section 5).
"""

import os

from terminal.frame import decode_frame, encode_frame

PROVISIONAL_KEY = b"unregistered-terminal"  # the journal's key until the station registers it
MAX_IDENT = 32  # characters of a terminal identity (a board's unique id is 16 hex digits)
_IDENT_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_.:"


def ident_ok(ident):
    """Whether ident is an identity a terminal may carry: 1 to MAX_IDENT letters, digits or
    `-_.:`. Every hello carries it, and a scorer's console shows it: a longer one would make
    the hello too big for a frame (a brick), a control character would reach the console."""
    if not isinstance(ident, str) or not 0 < len(ident) <= MAX_IDENT:
        return False
    for ch in ident:
        if ch not in _IDENT_CHARS:
            return False
    return True


def _read(path):
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError:
        return None
    try:
        obj = decode_frame(raw[:-1]) if raw.endswith(b"\x00") else None
    except ValueError:
        return None
    # a registration stored by an older version with an identity no hello can carry is no
    # registration: the terminal comes up unregistered rather than unable to answer
    if isinstance(obj, dict) and isinstance(obj.get("key"), bytes) and \
            len(obj["key"]) == 32 and isinstance(obj.get("event"), str) and \
            ident_ok(obj.get("id")):
        return obj
    return None


class Keystore:
    """`ident` (str or None), `event` (the event's fingerprint or None), `key` (bytes or None)."""

    def __init__(self, path, ident=None):
        self.path = path
        new = path + ".new"
        try:
            os.stat(new)
            if _read(new) is not None and _read(path) is None:
                os.rename(new, path)  # cut inside a FAT rename: the new file is complete
            else:
                os.remove(new)
        except OSError:
            pass
        obj = _read(path)
        self.ident = obj["id"] if obj else ident
        self.event = obj["event"] if obj else None
        self.key = obj["key"] if obj else None

    def registered(self):
        return self.key is not None

    def save(self, ident, event, key):
        """Store a registration durably, then use it."""
        new = self.path + ".new"
        with open(new, "wb") as f:
            f.write(encode_frame({"id": ident, "event": event, "key": key}))
            f.flush()
            if hasattr(os, "fsync"):
                os.fsync(f.fileno())
        try:
            os.remove(self.path)  # FAT cannot rename over a file; littlefs and POSIX can
        except OSError:
            pass
        os.rename(new, self.path)
        self.ident, self.event, self.key = ident, event, key
