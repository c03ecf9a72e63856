"""The auction period: rotation (Law 17), sufficiency (18), doubles (19), the end (22).

`Auction` records a call only when the Laws let it stand. Any other call is named by the law
that governs it (change of call 25, insufficient bid 27, out of rotation 30/31/32, inadmissible
double 36, obligation to pass 37, above seven 38, after the final pass 39) and held as
`pending` in status DIRECTOR; what the director and the players then do with it is the
business of `bridge.rectify` (the mixin this class inherits).

Everything that happens at the table is a journal event (a small int, see `bridge.lawcodes`),
appended to `events`; `Auction.from_events(dealer, events)` replays them into the same state,
which is how the terminal rebuilds an auction after a power loss, and how the engine itself
cancels calls (Laws 17D2, 25): it replays the journal up to the cancelled call.

Calls in `calls` are packed small ints, (seat << 6) | call, so a long auction costs a list of
small ints and no tuples on the MicroPython heap.
"""

from bridge.calls import DOUBLE, FIRST_BID, MAX_LEVEL, PASS, REDOUBLE, check
from bridge.lawcodes import (
    ABOVE_SEVEN,
    AFTER_FINAL_PASS,
    AUCTION,
    BID_OUT_OF_ROTATION,
    CHANGE,
    DIRECTOR,
    DOUBLE_OUT_OF_ROTATION,
    ENDED,
    EV_ACCEPT,
    EV_DIRECTOR,
    EV_FLUSH,
    EV_REJECT,
    EV_SIMULTANEOUS,
    INADMISSIBLE_DOUBLE,
    INSUFFICIENT,
    MUST_PASS,
    NEXT,
    PASS_OUT_OF_ROTATION,
    PASSED_OUT,
    call_event,
)
from bridge.rectify import Rectification
from bridge.seats import lho, same_side

__all__ = (
    "ABOVE_SEVEN",
    "AFTER_FINAL_PASS",
    "AUCTION",
    "BID_OUT_OF_ROTATION",
    "CHANGE",
    "DIRECTOR",
    "DOUBLE_OUT_OF_ROTATION",
    "ENDED",
    "INADMISSIBLE_DOUBLE",
    "INSUFFICIENT",
    "MUST_PASS",
    "PASSED_OUT",
    "PASS_OUT_OF_ROTATION",
    "REFUSED",
    "Auction",
    "call_of",
    "pack",
    "seat_of",
)

REFUSED = "refused"  # what `call` returns for a call the engine does not take (see `refused`)
LAST_LEGAL_BID = FIRST_BID + MAX_LEVEL * 5 - 1

# What a replay rebuilds: every attribute but the journal and the history of rulings.
_STATE = ("calls", "origin", "turn", "status", "pending", "must_pass", "lead", "last_bid",
          "last_bidder", "risk", "risk_seat", "passes", "_pev", "_pflags", "_pkind", "_porig",
          "_watch", "_repeat", "_replace", "_no_double", "_held")


def pack(seat, call):
    return (seat << 6) | call


def seat_of(packed):
    return packed >> 6


def call_of(packed):
    return packed & 63


class Auction(Rectification):
    """One board's auction from the dealer's first call to its end."""

    def __init__(self, dealer):
        if dealer not in (0, 1, 2, 3):
            raise ValueError(f"dealer must be a seat 0..3, not {dealer!r}")
        self.dealer = dealer
        self.events = []  # the journal: every event, refused ones too
        self.rulings = []  # law paragraphs applied, in order (history: never rebuilt)
        self.refused = []  # journal indexes of refused events
        self.calls = []
        self.origin = []  # journal index of the event that made each standing call
        self.turn = dealer
        self.status = AUCTION
        self.pending = None  # (seat, call, law) awaiting the director
        self.must_pass = {}  # seat -> "next" | "throughout"
        self.lead = []  # (offender, "26A" | "26B", mask of suits) in the order they arose
        self.last_bid = -1  # code of the last standing bid, -1 before the first
        self.last_bidder = -1
        self.risk = 0  # 0, 1 doubled, 2 redoubled: of the last bid
        self.risk_seat = -1  # who doubled or redoubled it
        self.passes = 0  # consecutive passes at the end of the standing auction
        self._pev = -1  # journal index of the pending call
        self._pflags = 0  # its event (for the director's judgments on it)
        self._pkind = None  # which paragraph the pending call falls under, where it matters
        self._porig = -1  # journal index of the call a pending change would replace
        self._watch = []  # rectifications that wait for a player's next standing call
        self._repeat = {}  # seat -> call he must repeat (31A1, 32B1)
        self._replace = None  # (offender, insufficient bid, its event): 27B awaits a call
        self._no_double = -1  # seat that may not double or redouble at this turn (30B2b)
        self._held = None  # (event, index) of a simultaneous call (Law 33)

    @classmethod
    def from_events(cls, dealer, events):
        """The auction that these journal events produce (the terminal's rebuild)."""
        a = cls(dealer)
        for ev in events:
            a.apply(ev)
        return a

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
        if call >= FIRST_BID:
            if call > LAST_LEGAL_BID:
                return ABOVE_SEVEN
        elif (call == DOUBLE and not self.may_double(seat)) or (
                call == REDOUBLE and not self.may_redouble(seat)):
            return INADMISSIBLE_DOUBLE
        if call != PASS and seat in self.must_pass:
            return MUST_PASS  # inadmissible (35.2) in or out of rotation
        if seat != self.turn:
            return self._out_of_rotation(seat, call)
        if call != PASS and call < FIRST_BID and seat == self._no_double:
            return MUST_PASS  # 30B2b: no double or redouble at this turn
        if call >= FIRST_BID and call <= self.last_bid:
            return INSUFFICIENT
        return None

    def _out_of_rotation(self, seat, call):
        """Laws 30-32, or Law 25 for a new call by the player who has just called."""
        if call == PASS:
            return PASS_OUT_OF_ROTATION
        if lho(seat) == self.turn and self.calls and self.calls[-1] >> 6 == seat:
            return CHANGE
        return BID_OUT_OF_ROTATION if call >= FIRST_BID else DOUBLE_OUT_OF_ROTATION

    # -- the journal -------------------------------------------------------------------------

    def call(self, seat, call):
        """Make a call: None if it stands (or settles a pending one), else the law or REFUSED."""
        check(call)
        if seat not in (0, 1, 2, 3):
            raise ValueError(f"not a seat: {seat!r}")
        if not self.apply(call | seat << 6):
            return REFUSED
        return self.pending[2] if self.status == DIRECTOR else None

    def change(self, seat, call, deliberate=False):
        """A player replaces his own last call (Law 25A, or 25B if deliberate)."""
        return self.apply(call_event(seat, check(call),
                                     change="deliberate" if deliberate else "unintended"))

    def accept(self):
        return self.apply(EV_ACCEPT)

    def reject(self):
        return self.apply(EV_REJECT)

    def flush(self):
        """The entries are over: a held simultaneous call is made now."""
        return self._held is None or self.apply(EV_FLUSH)

    def apply(self, ev):
        """Journal one event and act on it; False if the engine refused it."""
        i = len(self.events)
        self.events.append(ev)
        held = self._held
        if held is not None:
            self._held = None
            if self._in_turn(ev):  # Law 33: the simultaneous call comes after this one
                ok = self._done(ev, i)
                self.rulings.append("33")
                self._done(held[0], held[1])
                return ok
            self._done(held[0], held[1])
        if ev & EV_SIMULTANEOUS and not ev & EV_DIRECTOR and self.status == AUCTION \
                and (ev >> 6) & 3 != self.turn:
            self._held = (ev, i)
            return True
        return self._done(ev, i)

    def _in_turn(self, ev):
        return ev & EV_DIRECTOR == 0 and self.status == AUCTION and (ev >> 6) & 3 == self.turn

    def _done(self, ev, i):
        ok = self._dispatch(ev, i)
        if not ok:
            self.refused.append(i)
        return ok

    def _dispatch(self, ev, i):
        kind = ev & EV_DIRECTOR
        if kind == EV_ACCEPT:
            return self._accept()
        if kind == EV_REJECT:
            return self._reject()
        if kind == EV_FLUSH:
            return True
        return self._event_call(ev, i)

    def _rebuild(self, k):
        """Replay the journal up to event k (not included): the state as it was then.

        The journal and the history of rulings and refusals stay as they are.
        """
        fresh = Auction(self.dealer)
        events = self.events
        for j in range(k):
            fresh.apply(events[j])
        for name in _STATE:
            setattr(self, name, getattr(fresh, name))

    def snapshot(self):
        """Everything the engine knows, as comparable data (replay equality in tests)."""
        return (self.dealer, tuple(self.events), tuple(self.rulings), tuple(self.refused)) + \
            tuple(_frozen(getattr(self, name)) for name in _STATE)

    # -- recording ---------------------------------------------------------------------------

    def record(self, seat, call, origin=-1):
        """Append a call that stands (legal, or accepted by the Laws) and move the turn on."""
        self.calls.append(pack(seat, call))
        self.origin.append(origin)
        if self.must_pass and self.must_pass.get(seat) == NEXT:
            del self.must_pass[seat]
        if call == PASS:
            self.passes += 1
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
        if seat == self._no_double:
            self._no_double = -1
        self.turn = lho(seat)
        if self._watch:
            self._fire(seat, call)
        if self.passes == 4 or (self.passes == 3 and self.last_bid >= 0):
            self._end()

    def _end(self):
        """Law 22A, unless a closing pass was out of rotation (Laws 17D2, 34)."""
        j = self._skipped_turn()
        if j >= 0:
            self._rebuild(self.origin[j])
            self.rulings.append("17D2")
        else:
            self._close(ENDED if self.last_bid >= 0 else PASSED_OUT)

    def _skipped_turn(self):
        """Index of the first closing pass that broke the rotation, else -1."""
        calls = self.calls
        n = len(calls)
        for j in range(n - 3, n):
            if calls[j] >> 6 != lho(calls[j - 1] >> 6):
                return j
        return -1

    def _close(self, status):
        self.status = status
        self.turn = None
        self.must_pass = {}
        self._watch = []
        self._repeat = {}
        self._replace = None
        self._no_double = -1

    # -- the outcome -------------------------------------------------------------------------

    def is_over(self):
        return self.status == ENDED or self.status == PASSED_OUT

    def declarer(self):
        """The first player of the declaring side to name the final strain (section 1.2)."""
        if self.status != ENDED:
            return None
        final = (self.last_bid - FIRST_BID) % 5
        for packed in self.calls:
            seat, c = packed >> 6, packed & 63
            if c >= FIRST_BID and (c - FIRST_BID) % 5 == final and \
                    same_side(seat, self.last_bidder):
                return seat
        return None

    def contract(self):
        """(bid, risk, declarer) once a contract is reached, else None (passed out: None)."""
        if self.status != ENDED:
            return None
        return (self.last_bid, self.risk, self.declarer())


def _frozen(value):
    if isinstance(value, dict):
        return tuple(sorted(value.items()))
    if isinstance(value, list):
        return tuple(value)
    return value
