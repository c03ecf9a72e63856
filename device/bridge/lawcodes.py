"""Names shared by the auction engine, its rectifications and the rulings table.

Statuses and law codes are short strings (interned by both interpreters, so comparing them
costs a pointer check); journal events are small ints, so a whole auction's history is a list
of ints that the terminal can write to its journal and replay (`Auction.from_events`).
"""

# Status of an auction.
AUCTION = "auction"
DIRECTOR = "director"
ENDED = "ended"
PASSED_OUT = "passed_out"

# The law that governs a pending irregular call.
CHANGE = "25"  # a deliberate change of call (Law 25B)
INSUFFICIENT = "27"
PASS_OUT_OF_ROTATION = "30"
BID_OUT_OF_ROTATION = "31"
DOUBLE_OUT_OF_ROTATION = "32"
INADMISSIBLE_DOUBLE = "36"
MUST_PASS = "37"
ABOVE_SEVEN = "38"
AFTER_FINAL_PASS = "39"

# Obligations to pass.
NEXT = "next"
THROUGHOUT = "throughout"

# Journal events. A call: call | seat << 6 | flags; a director's entry: one of DIRECTOR_*.
EV_SEAT_SHIFT = 6
EV_ARTIFICIAL = 1 << 8  # the director judges the call artificial (27B1a, 29C, 30C, 31)
EV_SAME_MEANING = 1 << 9  # a replacement with the same or a more precise meaning (27B1b)
EV_UNINTENDED = 1 << 10  # a change of call, Law 25A
EV_DELIBERATE = 2 << 10  # a change of call, Law 25B
EV_CHANGE = 3 << 10
EV_SIMULTANEOUS = 1 << 12  # made together with the call of the player in turn (Law 33)
EV_ACCEPT = 1 << 13
EV_REJECT = 2 << 13
EV_FLUSH = 3 << 13  # the end of the entries: a held simultaneous call is made now
EV_DIRECTOR = 3 << 13
EV_EXPOSED = 1 << 15  # | seat << 6: a card exposed during the auction (Law 24B/C)


def call_event(seat, call, artificial=False, same_meaning=False, change=None,
               simultaneous=False):
    """The journal event of a call; change is None, "unintended" or "deliberate"."""
    ev = call | seat << EV_SEAT_SHIFT
    if artificial:
        ev |= EV_ARTIFICIAL
    if same_meaning:
        ev |= EV_SAME_MEANING
    if change == "unintended":
        ev |= EV_UNINTENDED
    elif change == "deliberate":
        ev |= EV_DELIBERATE
    elif change is not None:
        raise ValueError("change must be 'unintended' or 'deliberate'")
    if simultaneous:
        ev |= EV_SIMULTANEOUS
    return ev


def ev_seat(ev):
    return (ev >> EV_SEAT_SHIFT) & 3


def ev_call(ev):
    return ev & 63


def is_director(ev):
    return ev & EV_DIRECTOR != 0
