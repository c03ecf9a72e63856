"""Keys typed on a computer's keyboard, for the desktop simulator.

Digits are digits; c d h s n are the strains, p x r PASS, X and XX; Enter is OK, Backspace
BACK, the up and down arrows UP and DOWN, m MENU and ! DIR.
"""

from hw import keys
from hw.keys import RELEASE

_CHAR_KEYS = {
    "c": keys.CLUBS, "d": keys.DIAMONDS, "h": keys.HEARTS, "s": keys.SPADES,
    "n": keys.NOTRUMP, "p": keys.PASS, "x": keys.DOUBLE, "r": keys.REDOUBLE,
    "\r": keys.OK, "\n": keys.OK, "\x7f": keys.BACK, "\x08": keys.BACK,
    "m": keys.MENU, "!": keys.DIRECTOR,
}
_ESCAPES = {"[A": keys.UP, "[B": keys.DOWN}


def key_for_char(ch):
    """The key a keyboard character stands for, or None."""
    if "0" <= ch <= "9":
        return ord(ch) - 48
    return _CHAR_KEYS.get(ch.lower())


class KeyboardKeypad:
    """Keys typed on a terminal in raw mode; `read_char()` returns one character or ''
    when none is waiting (the caller owns the terminal mode and the non-blocking read)."""

    def __init__(self, read_char):
        self._read_char = read_char
        self._escape = None
        self._release = None

    def poll(self, now):
        if self._release is not None:
            key, self._release = self._release, None
            return key | RELEASE
        ch = self._read_char()
        while ch:
            if self._escape is not None:
                self._escape += ch
                if len(self._escape) == 2:
                    key, self._escape = _ESCAPES.get(self._escape), None
                    if key is not None:
                        self._release = key
                        return key
            elif ch == "\x1b":
                self._escape = ""
            else:
                key = key_for_char(ch)
                if key is not None:
                    self._release = key
                    return key
            ch = self._read_char()
        return None
