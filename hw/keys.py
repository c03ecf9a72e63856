"""Key codes of the terminal's keypad, their names, and the physical 5x5 layout.

Codes are small ints: the digits are their own value (0..9, and 1..9 are also the bid
levels; 8 and 9 exist so that a bid above seven can be entered and ruled on, Law 38), the
strains are 10 + bridge strain number (C=0 .. NT=4, as in bridge.calls).

The layout (matrix row by row, as the keys sit on the panel):

    C     D     H     S     NT        strains in rank order, as on a bidding card
    1     2     3     PASS  UP
    4     5     6     X     DOWN
    7     8     9     XX    MENU
    BACK  0     OK    -     DIR

Why: a bid is two presses, level then strain, and the strain row sits directly above the
level block, so the finger moves up one row in rank order (1 then C is a step straight up).
PASS, X and XX, a third of all calls (PASS alone is most of them), are one press each, in
the column right beside the digits, PASS nearest. The digits form a phone block (1 top-left,
0 under 8) because board, pair and trick numbers are typed there too, with BACK and OK where
a phone has * and #. Navigation is a column of its own on the right edge. DIR sits alone in
the bottom-right corner with an unfitted position beside it, so a finger aiming at OK or XX
cannot call the director by accident. 24 keys on 10 GPIO (5 rows, 5 columns).
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
NO_KEY = 0xFF  # a matrix position with no key fitted

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

ROWS = 5
COLS = 5
LAYOUT = bytes((
    CLUBS, DIAMONDS, HEARTS, SPADES, NOTRUMP,
    1, 2, 3, PASS, UP,
    4, 5, 6, DOUBLE, DOWN,
    7, 8, 9, REDOUBLE, MENU,
    BACK, 0, OK, NO_KEY, DIRECTOR,
))

# Keys that auto-repeat while held (scrolling and deleting); every other key reports one
# HOLD instead, e.g. a held BACK could clear a field, a held DIR confirm a director call.
REPEATING = (UP, DOWN, BACK)


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
