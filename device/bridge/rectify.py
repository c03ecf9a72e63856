"""What happens to an irregular call: the rectifications of Laws 17D2 and 25-39.

A mixin of `bridge.auction.Auction`: the auction holds an irregular call as `pending`; this
module settles it on a director's entry (accept / reject), on a call that the Laws treat as
settling it (acceptance by calling 27A1/29A/25B1, LHO calling first 36A/37A/38D/39B, the proper
player calling first 28B, a premature replacement 27C), and then enforces what the ruling
left behind: obligations to pass, calls to repeat (31A1, 32B1), a replacement to judge (27B),
and Law 26 lead restrictions, which arise only once the offender's final call at that turn
is known. Every paragraph applied is appended to `rulings`.

Methods return True when they took the event, False when the engine refuses it.
"""

from bridge.calls import DOUBLE, FIRST_BID, PASS, REDOUBLE
from bridge.lawcodes import (
    ABOVE_SEVEN,
    AFTER_FINAL_PASS,
    AUCTION,
    BID_OUT_OF_ROTATION,
    CHANGE,
    DIRECTOR,
    DOUBLE_OUT_OF_ROTATION,
    ENDED,
    EV_ARTIFICIAL,
    EV_CHANGE,
    EV_DIRECTOR,
    EV_SAME_MEANING,
    EV_UNINTENDED,
    INADMISSIBLE_DOUBLE,
    INSUFFICIENT,
    MUST_PASS,
    NEXT,
    PASS_OUT_OF_ROTATION,
    PASSED_OUT,
    THROUGHOUT,
)
from bridge.seats import lho, partner, rho, same_side

_OUT_OF_ROTATION = (PASS_OUT_OF_ROTATION, BID_OUT_OF_ROTATION, DOUBLE_OUT_OF_ROTATION)

# Where the offender called, seen from him: the player whose turn it was is his ...
AT_RHO = "rho"
AT_PARTNER = "partner"
AT_LHO = "lho"

# Watches: (kind, seat whose next standing call triggers it, offender, withdrawn call, event)
W_LEAD = "26"  # Law 26 when the offender's final call at that turn is known
W_31A = "31A"  # the offender's RHO calls: 31A1 or 31A2
W_31A2 = "31A2"  # the offender calls after RHO's call: 31A2a or 31A2b
W_32B = "32B"  # the offender's RHO calls: 32B1 or 32B2


class Rectification:
    """The director's side of the auction (Laws 17D2, 25-39)."""

    # -- a call event ------------------------------------------------------------------------

    def _event_call(self, ev, i):
        seat, call = (ev >> 6) & 3, ev & 63
        if ev & EV_CHANGE:
            return self._change(seat, call, ev, i)
        return self._process_call(seat, call, ev, i)

    def _process_call(self, seat, call, ev, i):
        if self.status == DIRECTOR:
            return self._while_pending(seat, call, ev, i)
        if self.status == AUCTION:
            turn = self.turn
            if seat != turn and seat == lho(turn) and turn in self.must_pass:
                self.rulings.append("28A")  # the barred RHO's pass, then this call in turn
                self.record(turn, PASS, i)
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
        if law == PASS_OUT_OF_ROTATION and ev & EV_ARTIFICIAL:
            law = BID_OUT_OF_ROTATION  # Law 30C: an artificial pass is ruled under Law 31
        kind = None
        self._porig = -1
        if law == CHANGE or law == PASS_OUT_OF_ROTATION:
            self._porig = self._own_last_call(seat)
            if law == CHANGE and self._porig < 0:  # not his own call: out of rotation
                law = BID_OUT_OF_ROTATION if call >= FIRST_BID else DOUBLE_OUT_OF_ROTATION
        if law == PASS_OUT_OF_ROTATION:
            kind = self._pass_paragraph(seat)
        elif law in _OUT_OF_ROTATION or law == INADMISSIBLE_DOUBLE:
            kind = self._where(seat)
        self.pending = (seat, call, law)
        self._pev = i
        self._pflags = ev
        self._pkind = kind
        self.status = DIRECTOR

    def _where(self, offender):
        """Whose turn the offender took: AT_RHO, AT_PARTNER, AT_LHO, or None (his own)."""
        turn = self.turn
        if turn == rho(offender):
            return AT_RHO
        if turn == partner(offender):
            return AT_PARTNER
        return AT_LHO if turn == lho(offender) else None

    def _pass_paragraph(self, offender):
        """Law 30: A before any bid, else B1/B2/B3 by whose turn the pass took."""
        if self.last_bid < 0:
            return "30A"
        where = self._where(offender)
        if where == AT_PARTNER:
            return "30B2"
        if where == AT_LHO and self._porig >= 0:
            return "30B3"  # he has just called: a change of call
        return "30B1"

    def situation(self):
        """The row of `rulings_text.CHOICES` that the pending irregularity falls under."""
        if self.pending is None:
            return None
        law, kind = self.pending[2], self._pkind
        if law == INSUFFICIENT:
            return "27" if kind is None else "27/B4"
        if law == PASS_OUT_OF_ROTATION:
            return "30/" + kind
        if law == BID_OUT_OF_ROTATION or law == DOUBLE_OUT_OF_ROTATION:
            return law + "/" + kind
        if law == INADMISSIBLE_DOUBLE and kind == AT_RHO:
            return "36/rho"
        return law

    # -- calls while an irregularity is pending ----------------------------------------------

    def _while_pending(self, seat, call, ev, i):
        offender, _, law = self.pending
        if seat == offender:
            if law == INSUFFICIENT:
                return self._premature(seat, call, ev, i)
            return False
        if seat == lho(offender):
            return self._lho_calls(seat, call, ev, i)
        if seat == self.turn and not same_side(seat, offender) and (
                law in _OUT_OF_ROTATION or law == INADMISSIBLE_DOUBLE):
            self._clear_pending()
            self.rulings.append("28B")  # in rotation; the call out of rotation is cancelled
            return self._process_call(seat, call, ev, i)
        return False

    def _lho_calls(self, seat, call, ev, i):
        """The offender's LHO calls before any rectification."""
        law = self.pending[2]
        if law == INADMISSIBLE_DOUBLE or law == ABOVE_SEVEN or law == AFTER_FINAL_PASS:
            self._cancel_with_later(law)  # LHO's call is cancelled too
            return True
        if law == MUST_PASS:
            self.rulings.append("37A")
            self._stand()
        elif not self._accept():
            return False
        return self._process_call(seat, call, ev, i)

    def _cancel_with_later(self, law):
        """36A, 38 (38D) and 39B: the call and every later call are cancelled."""
        offender, pev = self.pending[0], self._pev
        in_turn = offender == self.turn
        self._clear_pending()
        if law == INADMISSIBLE_DOUBLE:
            self.rulings.append("36A")
        elif law == ABOVE_SEVEN:
            self.rulings.append("38")
            self._pass_for(offender, in_turn, pev)
        else:
            self.rulings.append("39B")

    def _premature(self, seat, call, ev, i):
        """Law 27C: the offender replaced his insufficient bid before the ruling."""
        self.rulings.append("27C")
        kind, pev = self._pkind, self._pev
        insufficient = self.pending[1]
        self._clear_pending()
        if kind is not None:  # a second insufficient bid: ruled as in 27B3
            self._rule_27b4(seat, kind)
            return self._process_call(seat, call, ev, i)
        return self._replacement((seat, insufficient, self.events[pev]), seat, call, ev, i)

    # -- the director's entries --------------------------------------------------------------

    def _accept(self):
        """The player entitled to accept does so (25B1, 27A, 29A); False where none may."""
        if self.pending is None:
            return False
        law = self.pending[2]
        if law == INSUFFICIENT:
            self.rulings.append("27A")
            self._stand(True)
        elif law == CHANGE or self._pkind == "30B3":
            if self._pkind == "30B3":
                self.rulings.append("30B3")
            self.rulings.append("25B1")
            self._substitute()
        elif law in _OUT_OF_ROTATION:
            self.rulings.append("29A")
            self._stand()
        else:
            return False  # Laws 32 (inadmissible), 36-39: never accepted
        return True

    def _reject(self):
        """Not accepted: the call is cancelled and the rectification of its law applies."""
        if self.pending is None:
            return False
        offender, call, law = self.pending
        flags, kind, pev = self._pflags, self._pkind, self._pev
        in_turn = offender == self.turn
        self._clear_pending()
        if law == INSUFFICIENT:
            if kind is None:
                self._replace = (offender, call, flags)  # 27B: the replacement decides
            else:
                self._rule_27b4(offender, kind)
        elif law == PASS_OUT_OF_ROTATION:
            self._rule_30(offender, kind)
        elif law == BID_OUT_OF_ROTATION:
            self._rule_31(offender, call, flags, kind)
        elif law == DOUBLE_OUT_OF_ROTATION:
            self._rule_32(offender, call, kind)
        elif law == CHANGE:
            self.rulings.append("25B2")
        elif law == INADMISSIBLE_DOUBLE:
            self.rulings.append("36B")
            self._oblige(partner(offender), THROUGHOUT)
            self._watch.append((W_LEAD, offender, offender, call, flags))
        elif law == MUST_PASS:
            self.rulings.append("37B")
            self._pass_for(offender, in_turn, pev)
            self._lead(offender, call, flags, PASS)
        elif law == ABOVE_SEVEN:
            self.rulings.append("38")
            self._pass_for(offender, in_turn, pev)
            self._lead(offender, call, flags, PASS)
        else:
            self._rule_39(offender, call, flags)
        return True

    def _clear_pending(self):
        self.pending = None
        self._pkind = None
        self._porig = -1
        if self.status == DIRECTOR:
            self.status = AUCTION if self.turn is not None else (
                ENDED if self.last_bid >= 0 else PASSED_OUT)

    def _stand(self, insufficient_ok=False):
        """The pending call stands where it was made; the rotation goes on from its maker.

        A bid that stands there but is insufficient (accepted out of rotation 29A, or by
        37A) is then an insufficient bid in rotation: Law 27 (27A2).
        """
        seat, call, _ = self.pending
        pev, flags = self._pev, self._pflags
        self._clear_pending()
        if not insufficient_ok and FIRST_BID <= call <= self.last_bid:
            self.turn = seat
            self._hold(seat, call, INSUFFICIENT, flags, pev)
        else:
            self.record(seat, call, pev)

    def _substitute(self):
        """Law 25B1: the first call is withdrawn and the new one stands, under the Laws."""
        seat, call, _ = self.pending
        pev, porig = self._pev, self._porig
        self._rebuild(porig)
        self._process_call(seat, call, self.events[pev], pev)

    def _pass_for(self, offender, in_turn, origin):
        """37B, 38: a pass replaces the call; both offenders must pass throughout."""
        if in_turn:
            self.record(offender, PASS, origin)
        self._oblige(offender, THROUGHOUT)
        self._oblige(partner(offender), THROUGHOUT)

    # -- the paragraphs ------------------------------------------------------------------------

    def _rule_27b4(self, offender, kind):
        """27B4 (ruled as in B3): partner passes throughout, Law 26 on the final call."""
        self.rulings.append("27B4")
        self._oblige(partner(offender), THROUGHOUT)
        self._watch.append((W_LEAD, offender, offender, kind[0], kind[1]))

    def _replacement(self, replace, seat, call, ev, i):
        """Law 27B: the offender's call that replaces his insufficient bid."""
        _, insufficient, ins_ev = replace
        law = self.classify(seat, call)
        if law is None and call == self._lowest_in_strain(insufficient) and \
                not (ins_ev | ev) & EV_ARTIFICIAL:
            self.rulings.append("27B1a")
        elif law is None and ev & EV_SAME_MEANING:
            self.rulings.append("27B1b")
        elif call == DOUBLE or call == REDOUBLE:
            self.rulings.append("27B3")  # the attempted call is cancelled; he calls again
            self._oblige(partner(seat), THROUGHOUT)
            self._watch.append((W_LEAD, seat, seat, insufficient, ins_ev))
            return True
        elif law == INSUFFICIENT:
            self._hold(seat, call, law, ev, i)
            self._pkind = (insufficient, ins_ev)  # 27B4, unless LHO accepts it
            return True
        elif law is None:
            self.rulings.append("27B2")
            self._oblige(partner(seat), THROUGHOUT)
            self.record(seat, call, i)
            self._lead(seat, insufficient, ins_ev, call)
            return True
        if law is None:
            self.record(seat, call, i)
        else:
            self._hold(seat, call, law, ev, i)
        return True

    def _lowest_in_strain(self, bid):
        """The lowest sufficient bid in the strain of `bid` (27B1a)."""
        s = (bid - FIRST_BID) % 5
        last = self.last_bid
        lvl = (last - FIRST_BID) // 5 + (1 if (last - FIRST_BID) % 5 < s else 2)
        return FIRST_BID + (lvl - 1) * 5 + s

    def _rule_30(self, offender, kind):
        """Law 30: pass out of rotation, cancelled."""
        self.rulings.append(kind)
        if kind == "30B3":
            self.rulings.append("25B2")  # a change of call, not accepted: the first stands
        elif kind == "30B2":
            self._oblige(offender, THROUGHOUT)
            self._no_double = partner(offender)
        else:
            self._oblige(offender, NEXT)

    def _rule_31(self, offender, call, flags, where):
        """Law 31: a bid (or an artificial pass) out of rotation, cancelled."""
        if where == AT_RHO:
            self._watch.append((W_31A, self.turn, offender, call, flags))
            return
        self.rulings.append("31B")
        self._oblige(partner(offender), THROUGHOUT)
        self._watch.append((W_LEAD, offender, offender, call, flags))

    def _rule_32(self, offender, call, where):
        """Law 32: a double or redouble out of rotation, cancelled (26B may apply)."""
        if where == AT_RHO:
            self._watch.append((W_32B, self.turn, offender, call, 0))
            return
        self.rulings.append("32A")
        self._oblige(partner(offender), THROUGHOUT)
        self._watch.append((W_LEAD, offender, offender, call, 0))

    def _rule_39(self, offender, call, flags):
        """Law 39: cancelled; 39C for a defender's bid, double or redouble, else 39B."""
        declarer = self.declarer()
        if declarer is None or call == PASS or same_side(offender, declarer):
            self.rulings.append("39B")
        else:
            self.rulings.append("39C")
            self._lead(offender, call, flags, None)

    def _fire(self, seat, call):
        """Run the watches that wait for this player's standing call."""
        keep = []
        for w in self._watch:
            if w[1] != seat:
                keep.append(w)
                continue
            kind, _, offender, withdrawn, flags = w
            if kind == W_LEAD:
                self._lead(offender, withdrawn, flags, call)
            elif kind == W_31A2:
                self._rule_31a2(offender, withdrawn, flags, call)
            elif call == PASS:  # 31A1 / 32B1: the offender must repeat his call
                self.rulings.append("31A1" if kind == W_31A else "32B1")
                self._repeat[offender] = withdrawn
            elif kind == W_31A:
                keep.append((W_31A2, offender, offender, withdrawn, flags))
            else:
                self.rulings.append("32B2")
                self._oblige(partner(offender), THROUGHOUT)
                keep.append((W_LEAD, offender, offender, withdrawn, 0))
        self._watch = keep

    def _rule_31a2(self, offender, withdrawn, flags, call):
        """31A2: (a) he repeats the strain of his bid: partner passes once; else (b)."""
        natural = withdrawn >= FIRST_BID and not flags & EV_ARTIFICIAL
        if natural and call >= FIRST_BID and (call - withdrawn) % 5 == 0:
            self.rulings.append("31A2a")
            self._oblige(partner(offender), NEXT)
        else:
            self.rulings.append("31A2b")
            self._oblige(partner(offender), THROUGHOUT)
            self._lead(offender, withdrawn, flags, call)

    # -- obligations and lead restrictions ---------------------------------------------------

    def _oblige(self, seat, kind):
        """Add an obligation to pass; "throughout" is never weakened to "next"."""
        if self.status != AUCTION and self.status != DIRECTOR:
            return
        if kind == THROUGHOUT or seat not in self.must_pass:
            self.must_pass[seat] = kind

    def _lead(self, offender, withdrawn, flags, final):
        """Law 26 for a withdrawn call, once the offender's final call is `final`."""
        if final == withdrawn:
            return  # he chose the same call: nothing was withdrawn in effect
        s = (withdrawn - FIRST_BID) % 5
        if withdrawn >= FIRST_BID and s < 4 and not flags & EV_ARTIFICIAL:
            if not self._named(offender, s):
                self.lead.append((offender, "26A", 1 << s))  # 26A2
        else:
            self.lead.append((offender, "26B", 0))

    def _named(self, seat, s):
        """26A1: did this player name suit s in the legal auction (a natural bid)?"""
        calls, origin, events = self.calls, self.origin, self.events
        for j in range(len(calls)):
            c = calls[j] & 63
            if calls[j] >> 6 == seat and c >= FIRST_BID and (c - FIRST_BID) % 5 == s and \
                    not events[origin[j]] & EV_ARTIFICIAL:
                return True
        return False

    # -- Law 25: changes of call -------------------------------------------------------------

    def _change(self, seat, call, ev, i):
        """A player replaces his own call before his LHO calls (25A, or 25B if deliberate)."""
        unintended = ev & EV_CHANGE == EV_UNINTENDED
        if self.status == DIRECTOR:
            if self.pending[0] != seat:
                return False
            if unintended:  # the pending call was not the one he meant
                self.rulings.append("25A")
                self._rebuild(self._pev)
                return self._process_call(seat, call, ev, i)
            if self.pending[2] == INSUFFICIENT:
                return self._premature(seat, call, ev, i)
            return False
        k = self._own_last_call(seat)
        if k < 0:
            return False  # nothing of his to change, or his LHO has called
        if unintended:
            self.rulings.append("25A")
            self._rebuild(k)
            return self._process_call(seat, call, ev, i)
        self._hold(seat, call, CHANGE, ev, i)
        return True

    def _own_last_call(self, seat):
        """Journal index of the last standing call if this player made it himself, else -1."""
        if not self.calls or self.calls[-1] >> 6 != seat:
            return -1
        k = self.origin[-1]
        ev = self.events[k] if k >= 0 else EV_DIRECTOR
        if ev & EV_DIRECTOR or (ev >> 6) & 3 != seat or ev & 63 != self.calls[-1] & 63:
            return -1
        return k
