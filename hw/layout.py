"""The physical 5x5 keypad: where each key (hw.keys) sits in the matrix, and which repeat.

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

The caps' legends: each suit key carries three, the suit (large), the honour it enters where
a card's rank is asked (♣ В/J, ♦ Д/Q, ♥ К/K, ♠ Т/A: rank order, left to right) and the seat
where a player is asked (♣ С/N, ♦ В/E, ♥ Ю/S, ♠ З/W: the screen's column order), so that no
player has to remember that the ♠ key is the ace. The screen repeats them where a rank or a
seat is asked, and the player's menu (MENU 5 on the round overview) draws this panel with its
legends (docs/screens/keypad-ru.png).

A module of its own: the board's keypad driver needs it, the application and the simulator
do not, and every name here would stay interned in their heap.
"""

from hw.keys import (
    BACK,
    CLUBS,
    DIAMONDS,
    DIRECTOR,
    DOUBLE,
    DOWN,
    HEARTS,
    MENU,
    NOTRUMP,
    OK,
    PASS,
    REDOUBLE,
    SPADES,
    UP,
)

NO_KEY = 0xFF  # a matrix position with no key fitted
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
