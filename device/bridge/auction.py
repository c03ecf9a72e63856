"""The auction period: rotation (Law 17), sufficiency (18), doubles (19), the end (22).

`Auction` records a call only when the Laws let it stand. Any other call is named by the law
that governs it (insufficient bid 27, out of rotation 30/31/32, inadmissible double 36,
obligation to pass 37, above seven 38, after the final pass 39) and held as `pending` in status
DIRECTOR, never silently recorded. The director's rectification (the Laws engine issue) works on
that pending call and on `must_pass`; this module only knows what is legal.

Calls in `calls` are packed small ints, (seat << 6) | call, so a long auction costs a list of
small ints and no tuples on the MicroPython heap.
"""

from bridge.calls import PASS, DOUBLE, REDOUBLE, FIRST_BID, MAX_LEVEL, level, strain, check
from bridge.seats import lho, same_side

AUCTION = "auction"
DIRECTOR = "director"
ENDED = "ended"
PASSED_OUT = "passed_out"

# Law codes of the irregularities this module detects.
INSUFFICIENT = "27"
PASS_OUT_OF_ROTATION = "30"
BID_OUT_OF_ROTATION = "31"
DOUBLE_OUT_OF_ROTATION = "32"
INADMISSIBLE_DOUBLE = "36"
MUST_PASS = "37"
ABOVE_SEVEN = "38"
AFTER_FINAL_PASS = "39"

_OUT_OF_ROTATION = (PASS_OUT_OF_ROTATION, DOUBLE_OUT_OF_ROTATION, DOUBLE_OUT_OF_ROTATION)


def pack(seat, call):
    return (seat << 6) | call


def seat_of(packed):
    return packed >> 6


def call_of(packed):
    return packed & 63


class Auction:
    """One board's auction from the dealer's first call to its end."""

    def __init__(self, dealer):
        if dealer not in (0, 1, 2, 3):
            raise ValueError("dealer must be a seat 0..3, not %r" % (dealer,))
        self.dealer = dealer
        self.calls = []
        self.turn = dealer
        self.status = AUCTION
        self.pending = None  # (seat, call, law) awaiting the director
        self.must_pass = {}  # seat -> "next" | "throughout" (filled by rectifications)
        self.last_bid = -1  # code of the last standing bid, -1 before the first
        self.last_bidder = -1
        self.risk = 0  # 0, 1 doubled, 2 redoubled: of the last bid
        self.risk_seat = -1  # who doubled or redoubled it
        self.passes = 0  # consecutive passes at the end of the standing auction

    # -- what the Laws say of a call -------------------------------------------------------

    def may_double(self, seat):
        """Law 19A1: only the last bid, made by an opponent, not yet doubled."""
        return self.last_bid >= 0 and self.risk == 0 and not same_side(seat, self.last_bidder)

    def may_redouble(self, seat):
        """Law 19B1: only the last double, made by an opponent, not yet redoubled."""
        return self.risk == 1 and not same_side(seat, self.risk_seat)

    def classify(self, seat, call):
        """None if `seat` may make `call` now, else the code of the law that governs it."""
        check(call)
        if self.status == ENDED or self.status == PASSED_OUT:
            return AFTER_FINAL_PASS
        if call >= FIRST_BID and level(call) > MAX_LEVEL:
            return ABOVE_SEVEN
        if (call == DOUBLE and not self.may_double(seat)) or (
                call == REDOUBLE and not self.may_redouble(seat)):
            return INADMISSIBLE_DOUBLE
        if seat != self.turn:
            return BID_OUT_OF_ROTATION if call >= FIRST_BID else _OUT_OF_ROTATION[call]
        if call != PASS and seat in self.must_pass:
            return MUST_PASS
        if call >= FIRST_BID and call <= self.last_bid:
            return INSUFFICIENT
        return None

    # -- recording ---------------------------------------------------------------------------

    def call(self, seat, call):
        """Record a legal call and return None; hold an irregular one and return its law."""
        if self.status == DIRECTOR:
            raise ValueError("the director must rule on the pending call first")
        law = self.classify(seat, call)
        if law is None:
            self.record(seat, call)
        else:
            self.pending = (seat, call, law)
            self.status = DIRECTOR
        return law

    def record(self, seat, call):
        """Append a call that stands (legal, or accepted by the Laws) and move the turn on."""
        self.calls.append(pack(seat, call))
        if call == PASS:
            self.passes += 1
            if self.must_pass.get(seat) == "next":
                del self.must_pass[seat]
        else:
            self.passes = 0
            if call >= FIRST_BID:
                self.last_bid = call
                self.last_bidder = seat
                self.risk = 0
                self.risk_seat = -1
            else:
                self.risk = call  # DOUBLE=1, REDOUBLE=2
                self.risk_seat = seat
        self.turn = lho(seat)
        if self.last_bid < 0 and self.passes == 4:
            self._close(PASSED_OUT)
        elif self.last_bid >= 0 and self.passes == 3:
            self._close(ENDED)

    def _close(self, status):
        self.status = status
        self.turn = None
        self.must_pass = {}

    # -- the outcome -------------------------------------------------------------------------

    def is_over(self):
        return self.status == ENDED or self.status == PASSED_OUT

    def declarer(self):
        """The first player of the declaring side to name the final strain (section 1.2)."""
        if self.status != ENDED:
            return None
        final = strain(self.last_bid)
        for packed in self.calls:
            seat, c = packed >> 6, packed & 63
            if c >= FIRST_BID and strain(c) == final and same_side(seat, self.last_bidder):
                return seat
        return None

    def contract(self):
        """(bid, risk, declarer) once a contract is reached, else None (passed out: None)."""
        if self.status != ENDED:
            return None
        return (self.last_bid, self.risk, self.declarer())
