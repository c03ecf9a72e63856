"""Key codes of the terminal's keypad, their names, and key events.

Codes are small ints: the digits are their own value (0..9, and 1..9 are also the bid
levels; 8 and 9 exist so that a bid above seven can be entered and ruled on, Law 38), the
strains are 10 + bridge strain number (C=0 .. NT=4, as in bridge.calls). Where each key sits
on the panel is hw.layout (the keypad driver's business; the application never asks).
"""

STRAIN_BASE = 10
CLUBS = 10
DIAMONDS = 11
HEARTS = 12
SPADES = 13
NOTRUMP = 14
PASS = 15
DOUBLE = 16
REDOUBLE = 17
OK = 18
BACK = 19
UP = 20
DOWN = 21
MENU = 22
DIRECTOR = 23
COUNT = 24

# Key events (hw.keypad, the simulators) are small ints: the key code (< 32) plus its kind.
# A PRESS event is the key code itself, so `if event == keys.OK` reads naturally.
PRESS = 0x00
RELEASE = 0x20
HOLD = 0x40
REPEAT = 0x60
KEY_MASK = 0x1F
KIND_MASK = 0x60

NAMES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
         "C", "D", "H", "S", "NT", "PASS", "X", "XX",
         "OK", "BACK", "UP", "DOWN", "MENU", "DIR")

def digit(key):
    """0..9 for a digit key, else -1."""
    return key if 0 <= key <= 9 else -1


def strain(key):
    """0..4 (C, D, H, S, NT as in bridge.calls) for a strain key, else -1."""
    return key - STRAIN_BASE if CLUBS <= key <= NOTRUMP else -1


def code(name):
    """The key code for a name in NAMES (any case); ValueError for anything else."""
    upper = name.upper()
    for i in range(COUNT):
        if NAMES[i] == upper:
            return i
    raise ValueError("no key named %r" % (name,))
