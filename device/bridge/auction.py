"""The auction period and its irregularities: Laws 17-22 and their rectification, 17D2, 25-39.

`Auction` records a call only when the Laws let it stand. Any other call is named by the law
that governs it (change of call 25, insufficient bid 27, out of rotation 30/31/32, inadmissible
double 36, obligation to pass 37, above seven 38, after the final pass 39) and held as
`pending` in status "director". It is settled by a director's entry (accept / reject) or by a
call that the Laws treat as settling it (acceptance by calling 27A1/29A/25B1, LHO calling first
36A/37A/38D/39B, the proper player calling first 28B, a premature replacement 27C); the engine
then enforces what the ruling left behind: obligations to pass, calls to repeat (31A1, 32B1), a
replacement to judge (27B), and Law 26 lead restrictions, which arise only once the offender's
final call at that turn is known. Every paragraph applied is appended to `rulings`.

Everything that happens at the table is a journal event (a small int, see `bridge.lawcodes`),
appended to `events`; `Auction.from_events(dealer, events)` replays them into the same state,
which is how the terminal rebuilds an auction after a power loss, and how the engine itself
cancels calls (Laws 17D2, 25): it replays the journal up to the cancelled call.

Calls in `calls` are packed small ints, (seat << 6) | call, so a long auction costs a list of
small ints and no tuples on the MicroPython heap. Seats are 0..3 (N, E, S, W) and turn by
arithmetic: LHO (seat + 1) & 3, partner (seat + 2) & 3, RHO (seat + 3) & 3; two seats are
partners when (a ^ b) & 1 == 0. Calls are the codes of `bridge.calls`.

Memory (docs/AUCTION_LOG.md, "Memory"): this is one module with one class and no imports, so
that the board's heap holds a single module, class and qstr table for the whole engine. The
codes, statuses and journal bits it needs are private compile-time constants below (MicroPython
folds `_NAME = const(...)` into the bytecode: no heap, no dict slot); they are the values that
`bridge.calls` and `bridge.lawcodes` publish. Law codes ("27") are literals; the paragraphs
of `rulings` ("31B") are cut from one string when applied (_label), not interned names.
Private methods return True when they took an event, False when the engine refuses it.
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

REFUSED = "refused"  # what `call` returns for a call the engine does not take (see `refused`)

_PASS = const(0)
_DOUBLE = const(1)
_REDOUBLE = const(2)
_FIRST_BID = const(3)
_LAST_LEGAL_BID = const(37)  # 7NT (Law 18A)
_LAST_CODE = const(47)  # 9NT: bids above seven are entered only to be ruled on (Law 38)

_AUCTION = const("auction")
_DIRECTOR = const("director")
_ENDED = const("ended")
_PASSED_OUT = const("passed_out")
_NEXT = const("next")
_THROUGHOUT = const("throughout")

_EV_ARTIFICIAL = const(0x100)
_EV_SAME_MEANING = const(0x200)
_EV_UNINTENDED = const(0x400)
_EV_DELIBERATE = const(0x800)
_EV_SIMULTANEOUS = const(0x1000)
_EV_ACCEPT = const(0x2000)
_EV_REJECT = const(0x4000)
_EV_DIRECTOR = const(0x6000)  # also EV_FLUSH
_EV_CHANGE = const(0xC00)
_EV_EXPOSED = const(0x8000)  # a card of seat exposed during the auction (Law 24)

# The paragraphs the engine applies (`rulings`, `lead`), each cut from one string when it is
# applied: as literals they would be ~35 names interned on the board for good. _P<label> is
# its offset << 3 | its length (tests/test_auction_laws.py checks every one against its name).
_PARAGRAPHS = const("17D2 25A 25B1 25B2 26A 26B 27A 27B1a 27B1b 27B2 27B3 27B4 27C 28A 28B 29A "
                    "30A 30B1 30B2 30B3 31A1 31A2a 31A2b 31B 32A 32B1 32B2 36A 36B 37A 37B 39B 39C")
_P17D2 = const(4)
_P25A = const(43)
_P25B1 = const(76)
_P25B2 = const(116)
_P26A = const(155)
_P26B = const(187)
_P27A = const(219)
_P27B1a = const(253)
_P27B1b = const(301)
_P27B2 = const(348)
_P27B3 = const(388)
_P27B4 = const(428)
_P27C = const(467)
_P28A = const(499)
_P28B = const(531)
_P29A = const(563)
_P30A = const(595)
_P30B1 = const(628)
_P30B2 = const(668)
_P30B3 = const(708)
_P31A1 = const(748)
_P31A2a = const(789)
_P31A2b = const(837)
_P31B = const(883)
_P32A = const(915)
_P32B1 = const(948)
_P32B2 = const(988)
_P36A = const(1027)
_P36B = const(1059)
_P37A = const(1091)
_P37B = const(1123)
_P39B = const(1155)
_P39C = const(1187)


def _label(code):
    """The text of a paragraph constant _P...: "27B1a"."""
    return _PARAGRAPHS[code >> 3:(code >> 3) + (code & 7)]


# Watches: (kind, seat whose next standing call triggers it, offender, withdrawn call, event)
_W_LEAD = const(0)  # Law 26 when the offender's final call at that turn is known
_W_31A = const(1)  # the offender's RHO calls: 31A1 or 31A2
_W_31A2 = const(2)  # the offender calls after RHO's call: 31A2a or 31A2b
_W_32B = const(3)  # the offender's RHO calls: 32B1 or 32B2

# Whose turn the offender took, by (turn - offender) & 3: his own, his LHO's, partner's, RHO's.
_WHERE = const((None, "lho", "partner", "rho"))


# What a replay rebuilds: every attribute but the journal and the history of rulings.
_STATE = const(("calls", "origin", "turn", "status", "pending", "must_pass", "lead",
                "last_bid", "last_bidder", "risk", "risk_seat", "passes", "_pev", "_pkind",
                "_porig", "_watch", "_repeat", "_replace", "_no_double", "_held"))


def _check(call):
    """The call code, or ValueError (`bridge.calls.check`, which the engine does not import)."""
    if not (type(call) is int and 0 <= call <= _LAST_CODE):
        raise ValueError(f"not a call code: {call!r}")
    return call


class Auction:
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
        self.status = _AUCTION
        self.pending = None  # (seat, call, law) awaiting the director
        self.must_pass = {}  # seat -> "next" | "throughout"
        self.lead = []  # (offender, "26A" | "26B", mask of suits): one per rectification
        self.last_bid = -1  # code of the last standing bid, -1 before the first
        self.last_bidder = -1
        self.risk = 0  # 0, 1 doubled, 2 redoubled: of the last bid
        self.risk_seat = -1  # who doubled or redoubled it
        self.passes = 0  # consecutive passes at the end of the standing auction
        self._pev = -1  # journal index of the pending call (its event: the director's judgments)
        self._pkind = None  # which paragraph the pending call falls under, where it matters
        self._porig = -1  # journal index of the call a pending change would replace
        self._watch = []  # rectifications that wait for a player's next standing call
        self._repeat = {}  # seat -> call he must repeat (31A1, 32B1)
        self._replace = None  # (offender, insufficient bid, its event): 27B awaits a call
        self._no_double = -1  # seat that may not double or redouble at this turn (30B2b)
        self._held = None  # (event, index) of a simultaneous call (Law 33)

    @staticmethod
    def from_events(dealer, events):
        """The auction that these journal events produce (the terminal's rebuild)."""
        a = Auction(dealer)
        for ev in events:
            a.apply(ev)
        return a

    # -- what the Laws say of a call -------------------------------------------------------

    def classify(self, seat, call):
        """None if `seat` may make `call` now, else the code of the law that governs it."""
        _check(call)
        if self.status == _ENDED or self.status == _PASSED_OUT:
            return "39"
        if call >= _FIRST_BID:
            if call > _LAST_LEGAL_BID:
                return "38"
        elif call == _DOUBLE:
            # Law 19A1: only the last bid, made by an opponent, not yet doubled.
            if self.last_bid < 0 or self.risk or not (seat ^ self.last_bidder) & 1:
                return "36"
        elif call == _REDOUBLE and (self.risk != 1 or not (seat ^ self.risk_seat) & 1):
            return "36"  # Law 19B1: only the last double, by an opponent, not yet redoubled
        if call != _PASS and seat in self.must_pass:
            return "37"  # inadmissible (35.2) in or out of rotation
        if seat != self.turn:
            # Laws 30-32, or Law 25 for a new call by the player who has just called.
            if call == _PASS:
                return "30"
            if (seat + 1) & 3 == self.turn and self.calls and self.calls[-1] >> 6 == seat:
                return "25"
            return "31" if call >= _FIRST_BID else "32"
        if call != _PASS and call < _FIRST_BID and seat == self._no_double:
            return "37"  # 30B2b: no double or redouble at this turn
        if call >= _FIRST_BID and call <= self.last_bid:
            return "27"
        return None

    # -- the journal -------------------------------------------------------------------------

    def call(self, seat, call):
        """Make a call: None if it stands (or settles a pending one), else the law or REFUSED."""
        _check(call)
        if seat not in (0, 1, 2, 3):
            raise ValueError(f"not a seat: {seat!r}")
        if not self.apply(call | seat << 6):
            return REFUSED
        return self.pending[2] if self.status == _DIRECTOR else None

    def change(self, seat, call, deliberate=False):
        """A player replaces his own last call (Law 25A, or 25B if deliberate)."""
        return self.apply(_check(call) | seat << 6 |
                          (_EV_DELIBERATE if deliberate else _EV_UNINTENDED))

    def accept(self):
        return self.apply(_EV_ACCEPT)

    def reject(self):
        return self.apply(_EV_REJECT)

    def card_exposed(self, seat):
        """Law 24B/C: a card of `seat` exposed in the auction bars partner's next call."""
        return self.apply(_EV_EXPOSED | seat << 6)

    def flush(self):
        """The entries are over: a held simultaneous call is made now."""
        return self._held is None or self.apply(_EV_DIRECTOR)

    def apply(self, ev):
        """Journal one event and act on it; False if the engine refused it."""
        i = len(self.events)
        self.events.append(ev)
        held = self._held
        if held is not None:
            self._held = None
            if ev & (_EV_DIRECTOR | _EV_EXPOSED) == 0 and self.status == _AUCTION \
                    and (ev >> 6) & 3 == self.turn:
                # Law 33: the simultaneous call comes after this call in turn
                ok = self._done(ev, i)
                self.rulings.append("33")
                self._done(held[0], held[1])
                return ok
            self._done(held[0], held[1])
        if ev & _EV_SIMULTANEOUS and not ev & _EV_DIRECTOR and self.status == _AUCTION \
                and (ev >> 6) & 3 != self.turn:
            self._held = (ev, i)
            return True
        return self._done(ev, i)

    def _done(self, ev, i):
        """Act on event `ev` (journal index i); a refused one is noted in `refused`."""
        kind = ev & _EV_DIRECTOR
        if ev & _EV_EXPOSED:
            self._oblige(((ev >> 6) + 2) & 3, _NEXT)
            ok = True
        elif kind == _EV_ACCEPT:
            ok = self._accept()
        elif kind == _EV_REJECT:
            ok = self._reject()
        elif kind:  # the flush: nothing more to do
            ok = True
        elif ev & _EV_CHANGE:
            ok = self._change((ev >> 6) & 3, ev & 63, ev, i)
        else:
            ok = self._process_call((ev >> 6) & 3, ev & 63, ev, i)
        if not ok:
            self.refused.append(i)
        return ok

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
        out = [self.dealer, tuple(self.events), tuple(self.rulings), tuple(self.refused)]
        for name in _STATE:
            value = getattr(self, name)
            if isinstance(value, dict):
                value = tuple(sorted(value.items()))
            elif isinstance(value, list):
                value = tuple(value)
            out.append(value)
        return tuple(out)

    # -- recording ---------------------------------------------------------------------------

    def record(self, seat, call, origin=-1):
        """Append a call that stands (legal, or accepted by the Laws) and move the turn on."""
        self.calls.append(seat << 6 | call)
        self.origin.append(origin)
        if self.must_pass and self.must_pass.get(seat) == _NEXT:
            del self.must_pass[seat]
        if call == _PASS:
            self.passes += 1
        else:
            self.passes = 0
            if call >= _FIRST_BID:
                self.last_bid = call
                self.last_bidder = seat
                self.risk = 0
                self.risk_seat = -1
            else:
                self.risk = call  # DOUBLE=1, REDOUBLE=2
                self.risk_seat = seat
        if seat == self._no_double:
            self._no_double = -1
        self.turn = (seat + 1) & 3
        if self._watch:
            self._fire(seat, call)
        if self.passes == 4 or (self.passes == 3 and self.last_bid >= 0):
            self._end()

    def _end(self):
        """Law 22A, unless a closing pass was out of rotation (Laws 17D2, 34)."""
        calls = self.calls
        for j in range(len(calls) - 3, len(calls)):
            if calls[j] >> 6 != ((calls[j - 1] >> 6) + 1) & 3:  # it skipped a turn
                self._rebuild(self.origin[j])
                self._rule(_P17D2)
                return
        self.status = _ENDED if self.last_bid >= 0 else _PASSED_OUT
        self.turn = None
        self.must_pass = {}
        self._watch = []
        self._repeat = {}
        self._replace = None
        self._no_double = -1

    # -- an irregular call is held before the director ------------------------------------

    def _process_call(self, seat, call, ev, i):
        if self.status == _DIRECTOR:
            return self._while_pending(seat, call, ev, i)
        if self.status == _AUCTION:
            turn = self.turn
            if seat != turn and seat == (turn + 1) & 3 and turn in self.must_pass:
                self._rule(_P28A)  # the barred RHO's pass, then this call in turn
                self.record(turn, _PASS, i)
            if self._repeat and seat == self.turn and seat in self._repeat:
                if call != self._repeat[seat]:
                    return False
                del self._repeat[seat]
            replace = self._replace
            if replace is not None and seat == replace[0] and seat == self.turn:
                self._replace = None
                return self._replacement(replace, seat, call, ev, i)
        law = self.classify(seat, call)
        if law is None:
            self.record(seat, call, i)
        else:
            self._hold(seat, call, law, ev, i)
        return True

    def _hold(self, seat, call, law, ev, i):
        """Put an irregular call before the director, noting which paragraph it falls under."""
        if law == "30" and ev & _EV_ARTIFICIAL:
            law = "31"  # Law 30C: an artificial pass is ruled under Law 31
        kind = None
        self._porig = -1
        if law == "25" or law == "30":
            self._porig = self._own_last_call(seat)
            if law == "25" and self._porig < 0:  # not his own call: out of rotation
                law = "31" if call >= _FIRST_BID else "32"
        if law in ("30", "31", "32", "36"):
            kind = None if self.turn is None else _WHERE[(self.turn - seat) & 3]
            if law == "30":  # Law 30: A before any bid, else B1/B2/B3 by whose turn it took
                if self.last_bid < 0:
                    kind = _P30A
                elif kind == "partner":
                    kind = _P30B2
                elif kind == "lho" and self._porig >= 0:
                    kind = _P30B3  # he has just called: a change of call
                else:
                    kind = _P30B1
        self.pending = (seat, call, law)
        self._pev = i
        self._pkind = kind
        self.status = _DIRECTOR

    def situation(self):
        """The row of `rulings_text`'s choices that the pending irregularity falls under."""
        if self.pending is None:
            return None
        law, kind = self.pending[2], self._pkind
        if law == "27":
            return "27" if kind is None else "27/B4"
        if law == "30":
            return "30/" + _label(kind)
        if law == "31" or law == "32":
            return law + "/" + kind
        if law == "36" and kind == "rho":
            return "36/rho"
        return law

    # -- calls while an irregularity is pending ----------------------------------------------

    def _while_pending(self, seat, call, ev, i):
        offender, _, law = self.pending
        if seat == offender:
            if law == "27":
                return self._premature(seat, call, ev, i)
            return False
        if seat == (offender + 1) & 3:  # the offender's LHO calls before any rectification
            if law == "36" or law == "38" or law == "39":
                # 36A, 38 (38D) and 39B: the call and every later call are cancelled
                pev = self._pev
                self._clear_pending()
                if law == "36":
                    self._rule(_P36A)
                elif law == "38":
                    self.rulings.append("38")
                    self._pass_for(offender, pev)
                else:
                    self._rule(_P39B)
                return True
            if law == "37":
                self._rule(_P37A)
                self._stand()
            elif not self._accept():
                return False
            return self._process_call(seat, call, ev, i)
        if seat == self.turn and (seat ^ offender) & 1 and law in ("30", "31", "32", "36"):
            self._clear_pending()
            self._rule(_P28B)  # in rotation; the call out of rotation is cancelled
            return self._process_call(seat, call, ev, i)
        return False

    def _premature(self, seat, call, ev, i):
        """Law 27C: the offender replaced his insufficient bid before the ruling."""
        self._rule(_P27C)
        kind, pev = self._pkind, self._pev
        insufficient = self.pending[1]
        self._clear_pending()
        if kind is not None:  # a second insufficient bid: ruled as in 27B3
            self._barred(_P27B4, seat, kind[0], kind[1])
            return self._process_call(seat, call, ev, i)
        return self._replacement((seat, insufficient, self.events[pev]), seat, call, ev, i)

    # -- the director's entries --------------------------------------------------------------

    def _accept(self):
        """The player entitled to accept does so (25B1, 27A, 29A); False where none may."""
        if self.pending is None:
            return False
        law = self.pending[2]
        if law == "27":
            self._rule(_P27A)
            self._stand()
        elif law == "25" or self._pkind == _P30B3:
            if self._pkind == _P30B3:
                self._rule(_P30B3)
            self._rule(_P25B1)
            # The first call is withdrawn and the new one stands, under the Laws.
            seat, call, _ = self.pending
            pev = self._pev
            self._rebuild(self._porig)
            self._process_call(seat, call, self.events[pev], pev)
        elif law in ("30", "31", "32"):
            self._rule(_P29A)
            self._stand()
        else:
            return False  # Laws 32 (inadmissible), 36-39: never accepted
        return True

    def _reject(self):
        """Not accepted: the call is cancelled and the rectification of its law applies."""
        if self.pending is None:
            return False
        offender, call, law = self.pending
        kind, pev = self._pkind, self._pev
        flags = self.events[pev]
        self._clear_pending()
        if law == "27":
            if kind is None:
                self._replace = (offender, call, flags)  # 27B: the replacement decides
            else:
                self._barred(_P27B4, offender, kind[0], kind[1])
        elif law == "30":  # the paragraph was settled when the pass was held
            self._rule(kind)
            if kind == _P30B3:
                self._rule(_P25B2)  # a change of call, not accepted: the first stands
            elif kind == _P30B2:
                self._oblige(offender, _THROUGHOUT)
                self._no_double = (offender + 2) & 3
            else:
                self._oblige(offender, _NEXT)
        elif law == "31" or law == "32":  # 26B may apply to a double (32), so no flags
            if law == "32":
                flags = 0
            if kind == "rho":  # the offender's RHO calls next: 31A / 32B
                self._watch.append((_W_31A if law == "31" else _W_32B, self.turn, offender,
                                    call, flags))
            else:
                self._barred(_P31B if law == "31" else _P32A, offender, call, flags)
        elif law == "25":
            self._rule(_P25B2)
        elif law == "36":
            self._barred(_P36B, offender, call, flags)
        elif law == "37" or law == "38":
            if law == "37":
                self._rule(_P37B)
            else:
                self.rulings.append("38")
            self._lead(offender, call, flags, _PASS)
            self._pass_for(offender, pev)
        else:  # Law 39: 39C for a defender's bid, double or redouble, else 39B
            declarer = self.declarer()
            if declarer is None or call == _PASS or not (offender ^ declarer) & 1:
                self._rule(_P39B)
            else:
                self._rule(_P39C)
                self._lead(offender, call, flags, None)
        return True

    def _clear_pending(self):
        self.pending = None
        self._pkind = None
        self._porig = -1
        if self.status == _DIRECTOR:
            self.status = _AUCTION if self.turn is not None else (
                "ended" if self.last_bid >= 0 else "passed_out")

    def _stand(self):
        """The pending call stands where it was made; the rotation goes on from its maker.

        An insufficient bid accepted under Law 27 (27A) stands as it is; a bid that stands
        there but is insufficient (accepted out of rotation 29A, or by 37A) is then an
        insufficient bid in rotation: Law 27 (27A2).
        """
        seat, call, law = self.pending
        pev = self._pev
        flags = self.events[pev]
        self._clear_pending()
        if law != "27" and _FIRST_BID <= call <= self.last_bid:
            self.turn = seat
            self._hold(seat, call, "27", flags, pev)
        else:
            self.record(seat, call, pev)

    def _pass_for(self, offender, origin):
        """37B, 38: a pass replaces the call (if it was in turn); both offenders must pass
        throughout. The pass is recorded last: it may end the auction, or reopen it under
        Law 34 (a rebuild), and neither may be followed by the obligations it settled."""
        self._oblige(offender, _THROUGHOUT)
        self._oblige((offender + 2) & 3, _THROUGHOUT)
        if offender == self.turn:
            self.record(offender, _PASS, origin)

    def _rule(self, code):
        """Note that paragraph `code` (a _P... constant) applied."""
        self.rulings.append(_label(code))

    def _barred(self, code, offender, withdrawn, flags):
        """27B3, 27B4, 31B, 32A, 36B (code): partner passes throughout; Law 26 on the final
        call."""
        self._rule(code)
        self._oblige((offender + 2) & 3, _THROUGHOUT)
        self._watch.append((_W_LEAD, offender, offender, withdrawn, flags))

    def _replacement(self, replace, seat, call, ev, i):
        """Law 27B: the offender's call that replaces his insufficient bid."""
        _, insufficient, ins_ev = replace
        law = self.classify(seat, call)
        # 27B1a: the lowest sufficient bid in the strain of the insufficient one
        s, last = (insufficient - _FIRST_BID) % 5, self.last_bid - _FIRST_BID
        lowest = _FIRST_BID + (last // 5 + (0 if last % 5 < s else 1)) * 5 + s
        if law is None and call == lowest and not (ins_ev | ev) & _EV_ARTIFICIAL:
            self._rule(_P27B1a)
        elif law is None and ev & _EV_SAME_MEANING:
            self._rule(_P27B1b)
        elif call == _DOUBLE or call == _REDOUBLE:
            # the attempted call is cancelled; he calls again
            self._barred(_P27B3, seat, insufficient, ins_ev)
            return True
        elif law == "27":
            self._hold(seat, call, law, ev, i)
            self._pkind = (insufficient, ins_ev)  # 27B4, unless LHO accepts it
            return True
        elif law is None:
            self._rule(_P27B2)
            self._oblige((seat + 2) & 3, _THROUGHOUT)
            self.record(seat, call, i)
            self._lead(seat, insufficient, ins_ev, call)
            return True
        if law is None:
            self.record(seat, call, i)
        else:
            self._hold(seat, call, law, ev, i)
        return True

    def _fire(self, seat, call):
        """Run the watches that wait for this player's standing call."""
        keep = []
        for w in self._watch:
            if w[1] != seat:
                keep.append(w)
                continue
            kind, _, offender, withdrawn, flags = w
            if kind == _W_LEAD:
                self._lead(offender, withdrawn, flags, call)
            elif kind == _W_31A2:
                # 31A2: (a) he repeats the strain of his natural bid: partner passes once
                if withdrawn >= _FIRST_BID and not flags & _EV_ARTIFICIAL and \
                        call >= _FIRST_BID and (call - withdrawn) % 5 == 0:
                    self._rule(_P31A2a)
                    self._oblige((offender + 2) & 3, _NEXT)
                else:  # (b) partner passes throughout, Law 26
                    self._rule(_P31A2b)
                    self._oblige((offender + 2) & 3, _THROUGHOUT)
                    self._lead(offender, withdrawn, flags, call)
            elif call == _PASS:  # 31A1 / 32B1: the offender must repeat his call
                self._rule(_P31A1 if kind == _W_31A else _P32B1)
                self._repeat[offender] = withdrawn
            elif kind == _W_31A:
                keep.append((_W_31A2, offender, offender, withdrawn, flags))
            else:
                self._rule(_P32B2)
                self._oblige((offender + 2) & 3, _THROUGHOUT)
                keep.append((_W_LEAD, offender, offender, withdrawn, 0))
        self._watch = keep

    # -- obligations and lead restrictions ---------------------------------------------------

    def _oblige(self, seat, kind):
        """Add an obligation to pass; "throughout" is never weakened to "next"."""
        if self.status != _AUCTION and self.status != _DIRECTOR:
            return
        if kind == _THROUGHOUT or seat not in self.must_pass:
            self.must_pass[seat] = kind

    def _lead(self, offender, withdrawn, flags, final):
        """Law 26 for a withdrawn call, once the offender's final call is `final`."""
        if final == withdrawn:
            return  # he chose the same call: nothing was withdrawn in effect
        s = (withdrawn - _FIRST_BID) % 5
        if withdrawn >= _FIRST_BID and s < 4 and not flags & _EV_ARTIFICIAL:
            # 26A1: not if he named the suit in the legal auction (a natural bid)
            calls, origin, events = self.calls, self.origin, self.events
            for j in range(len(calls)):
                c = calls[j] & 63
                if calls[j] >> 6 == offender and c >= _FIRST_BID and \
                        (c - _FIRST_BID) % 5 == s and not events[origin[j]] & _EV_ARTIFICIAL:
                    return
            self.lead.append((offender, _label(_P26A), 1 << s))  # 26A2
        else:
            self.lead.append((offender, _label(_P26B), 0))

    # -- Law 25: changes of call -------------------------------------------------------------

    def _change(self, seat, call, ev, i):
        """A player replaces his own call before his LHO calls (25A, or 25B if deliberate)."""
        unintended = ev & _EV_CHANGE == _EV_UNINTENDED
        if self.status == _DIRECTOR:
            if self.pending[0] != seat:
                return False
            if unintended:  # the pending call was not the one he meant
                self._rule(_P25A)
                self._rebuild(self._pev)
                return self._process_call(seat, call, ev, i)
            if self.pending[2] == "27":
                return self._premature(seat, call, ev, i)
            return False
        k = self._own_last_call(seat)
        if k < 0:
            return False  # nothing of his to change, or his LHO has called
        if unintended:
            self._rule(_P25A)
            self._rebuild(k)
            return self._process_call(seat, call, ev, i)
        self._hold(seat, call, "25", ev, i)
        return True

    def _own_last_call(self, seat):
        """Journal index of the last standing call if this player made it himself, else -1."""
        if not self.calls or self.calls[-1] >> 6 != seat:
            return -1
        k = self.origin[-1]
        ev = self.events[k] if k >= 0 else _EV_DIRECTOR
        if ev & _EV_DIRECTOR or (ev >> 6) & 3 != seat or ev & 63 != self.calls[-1] & 63:
            return -1
        if k != len(self.events) - 2:
            return -1  # something happened since (another call, a ruling): no longer a change
        return k

    # -- the outcome -------------------------------------------------------------------------

    def is_over(self):
        return self.status == _ENDED or self.status == _PASSED_OUT

    def declarer(self):
        """The first player of the declaring side to name the final strain (section 1.2)."""
        if self.status != _ENDED:
            return None
        final = (self.last_bid - _FIRST_BID) % 5
        for packed in self.calls:
            c = packed & 63
            if c >= _FIRST_BID and (c - _FIRST_BID) % 5 == final and \
                    not ((packed >> 6) ^ self.last_bidder) & 1:
                return packed >> 6
        return None

    def contract(self):
        """(bid, risk, declarer) once a contract is reached, else None (passed out: None)."""
        if self.status != _ENDED:
            return None
        return (self.last_bid, self.risk, self.declarer())
