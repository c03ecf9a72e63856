"""Seats as small ints (N=0, E=1, S=2, W=3), so rotation is arithmetic modulo 4."""

SEATS = "NESW"
N, E, S, W = 0, 1, 2, 3


def parse_seat(text):
    """'N'/'E'/'S'/'W' (any case) -> 0..3; anything else is a ValueError naming the input."""
    if isinstance(text, str) and len(text) == 1:
        i = SEATS.find(text.upper())
        if i >= 0:
            return i
    raise ValueError("not a seat: %r (expected N, E, S or W)" % (text,))


def seat_name(seat):
    return SEATS[seat]


def lho(seat):
    """Left-hand opponent: the next player in rotation (Law 17C, clockwise)."""
    return (seat + 1) & 3


def partner(seat):
    return (seat + 2) & 3


def rho(seat):
    return (seat + 3) & 3


def same_side(a, b):
    """True for partners (and a seat with itself): N-S are side 0, E-W side 1."""
    return (a & 1) == (b & 1)
