"""The play period (Laws 41-71, 79A): every card checked, every irregularity held or flagged.

`Play.card(seat, card)` records a card that the Laws let stand and returns None; a lead out of
turn (53-56), a premature lead or play by a defender (57A), a failure to play a penalty card
(52), a declarer's choice of lead restrictions (50D2), a lead before the trick is complete
(67A) are held as `pending` (law, seat, card) in status DIRECTOR until the director's entry
(`Play.director`), or a card that the Laws treat as settling it (acceptance by playing, 53A
and 60A; the proper lead 53C; declarer playing on, 52B1b). A revoke does not stop the play:
it is noted in `revokes`, established by the Laws (63A) and rectified at the end (64).
Input the table cannot have produced (a card not in that hand, a card played twice) raises
ValueError and changes nothing.

The state is small on purpose (a few hundred bytes, see BENCHMARKS.md): the remaining hands
are 16 suit masks, the tricks a 52-byte array by seat (card + 1, 0 for none), so premature
plays simply fill their seat's slot; lists of packed small ints hold penalty cards.
"""

from bridge.cards import hand_text, is_honour, mask_cards
from bridge.seats import lho, partner, same_side

PLAY = "play"
DIRECTOR = "director"
CLAIM = "claim"
ENDED = "ended"

# Laws of the irregularities held for the director.
LOOT_OPENING = "54"  # the opening lead faced by the wrong defender
LOOT_OPENING_DECLARER = "54E"  # the declaring side tries to make the opening lead
LOOT_DEFENDER = "53"  # a later lead out of turn by a defender (53, 56)
LOOT_DECLARER = "55"  # the declarer leads out of turn, from either hand
PREMATURE = "57"  # a defender leads or plays before his partner has played
PENALTY_FAILURE = "52"  # a defender does not play a penalty card the Laws require
LEAD_OPTIONS = "50D2"  # the partner of a major penalty card's owner is to lead
DEFECTIVE = "67"  # a lead to the next trick while a seat has not played to this one
DISPUTED = "70"  # a disputed claim or concession
DESIGNATE = "51A"  # a defender plays one of two or more penalty cards he could play
LATER = "62C1"  # a corrected revoke: a non-offender's later card, withdrawn at his choice
LATER_PARTNER = "62C2"  # then the offending side's next card, withdrawn at its choice

# Restrictions chosen by the declarer: (seat, kind, suit); 57A ones hold for one trick.
REQUIRE = "require"
FORBID = "forbid"
HIGHEST = "highest"
LOWEST = "lowest"

# Penalty cards: seat << 7 | major << 6 | card.
MAJOR = 64

# Revokes: [trick, seat, suit, flags, law]
ESTABLISHED = 1
FACED = 2  # a failure to play a faced card (64B3)
CORRECTED = 4
INFERRED = 8  # found later without a hand record (the player showed out, then played it)
WAIVED = 16  # the director found it too late (64B4, 64B5)
DEEMED = 32  # a defective trick treated as a revoke (67B1): transfer as in 64A2
FACED_CARD = 64  # the revoke card was a penalty card of his (a faced card, 62B2)
FACED_MAJOR = 128  # ... a major one


def side(seat):
    return seat & 1


class Play:
    """One board's play from the opening lead to the tricks agreed (Law 79A)."""

    def __init__(self, declarer, trump, deal=None, lead=None):
        """lead: the auction's Law 26 restrictions, [(offender, "26A" | "26B", suit mask)]
        (bridge.auction's `lead`); None when the auction is not known (a contract given
        directly): then a Law 26 entry is taken on the director's word."""
        if declarer not in (0, 1, 2, 3):
            raise ValueError("declarer must be a seat 0..3, not %r" % (declarer,))
        if trump not in (0, 1, 2, 3, 4):
            raise ValueError("trump must be a strain 0..4 (4 = no trump), not %r" % (trump,))
        self.declarer = declarer
        self.trump = trump
        self.hands = list(deal) if deal is not None else [None] * 16
        if len(self.hands) != 16:
            raise ValueError("a deal is 16 suit masks")
        self.cards = bytearray(52)  # trick * 4 + seat -> card + 1
        self.leaders = bytearray(13)
        self.winners = bytearray(13)  # seat + 1 once the trick is closed
        self.leaders[0] = lho(declarer)
        self.trick = 0
        self.turn = lho(declarer)
        self.void_at = bytearray(16)  # seat * 4 + suit -> trick + 1 where he showed out
        self.status = PLAY
        self.pending = None  # (law, seat, card)
        self.penalty = ()  # lists once there is something to hold (saves heap)
        self.revokes = ()
        self.lead_rule = None  # (seat, REQUIRE | FORBID, suit)
        self.lead_waits = False  # lead_rule is Law 26's, awaiting its seat's first lead
        self.lead26 = None if lead is None else tuple(lead)
        self.lead_more = 0  # further suits forbidden with lead_rule's (51B2b), a mask
        self.forbidding = False  # 50D2 pending: a suit was forbidden, another may be (51B2b)
        self.designated = -1  # the penalty card the declarer designated (51A)
        self.undoing = None  # (offender, a non-offender withdrew) while 62C is offered
        self.relead = None  # [seat, card, kept]: a lead to the trick after a reopened one
        self.play_rule = None  # (seat, HIGHEST | LOWEST | FORBID, suit): this trick only
        self.rulings = ()  # the paragraphs applied, in order
        self.flags = ()  # matters left to the director's judgment: law codes
        self.claim = None  # [side, tricks of the remaining for that side, conceder or -1]
        self.agreed = None  # declarer's tricks as agreed at the table (79A)
        self.retracted = False  # the declarer must lead again from the proper hand (60B)

    # -- the hands ---------------------------------------------------------------------------

    def dummy(self):
        return partner(self.declarer)

    def is_defender(self, seat):
        return not same_side(seat, self.declarer)

    def holds(self, seat, suit):
        """The seat's remaining cards of a suit (mask), or None without a hand record."""
        return self.hands[seat * 4 + suit]

    def _check_card(self, seat, c):
        if seat not in (0, 1, 2, 3):
            raise ValueError("not a seat: %r" % (seat,))
        if not (type(c) is int and 0 <= c < 52):
            raise ValueError("not a card code: %r" % (c,))
        suit, bit = c // 13, 1 << (c % 13)
        mask = self.hands[seat * 4 + suit]
        if mask is None:
            if self.played(c):
                raise ValueError("that card has already been played")
            for other in range(4):
                m = self.hands[other * 4 + suit]
                if other != seat and m is not None and m & bit:
                    raise ValueError("that card is in another hand")
        elif not mask & bit:
            raise ValueError("that card is not in this hand")

    def played(self, c):
        """Whether card c lies in a trick (the check for hands without a hand record)."""
        c += 1
        cards = self.cards
        for i in range(self.trick * 4 + 4 if self.trick < 13 else 52):
            if cards[i] == c:
                return True
        return False

    def faced(self):
        """The opening lead is faced (41C): a card lies in the first trick."""
        return self.trick > 0 or any(self.cards[0:4])

    def won(self, s):
        """Tricks won in play by side s (0 NS, 1 EW)."""
        n = 0
        for k in range(self.trick):
            w = self.winners[k]
            if w and (w - 1) & 1 == s:
                n += 1
        return n

    def note(self, law):
        """Append a paragraph applied to the rulings."""
        if not self.rulings:
            self.rulings = []
        self.rulings.append(law)

    def _flag(self, law):
        if law not in self.flags:
            self.flags = list(self.flags) + [law]

    def _add_revoke(self, r):
        self.revokes = list(self.revokes) + [r]

    # -- a card ------------------------------------------------------------------------------

    def card(self, seat, c):
        """A card played (or led) by seat: None if it stands, else the law it is held under."""
        self._check_card(seat, c)
        if self.status is not PLAY:
            return self._while_pending(seat, c)
        base = self.trick * 4
        if not self.cards[base + self.leaders[self.trick]]:
            if self.retracted and seat != self.turn and self.is_defender(seat):
                self.note("60B")  # before the declarer's lead from the proper hand
                self.expose(seat, c, True, "60B", False)
                return None
            return self._lead(seat, c)
        if self.cards[base + seat]:
            return self._before_complete(seat, c)
        if seat != self.turn:
            return self._out_of_turn(seat, c)
        if self.penalty and self._to_designate(
                seat, c, (self.cards[base + self.leaders[self.trick]] - 1) // 13):
            return self._hold(DESIGNATE, seat, c)
        self._follow(seat, c)
        return None

    def _lead(self, seat, c):
        if seat != self.turn:
            if self.trick == 0 and not self.faced():
                law = LOOT_OPENING if self.is_defender(seat) else LOOT_OPENING_DECLARER
            else:
                law = LOOT_DEFENDER if self.is_defender(seat) else LOOT_DECLARER
            return self._hold(law, seat, c)
        if self.penalty and self._to_designate(seat, c, -1):
            return self._hold(DESIGNATE, seat, c)
        suit = c // 13
        rule = self.lead_rule
        if rule is not None:
            if rule[0] != seat:
                if not self.lead_waits:
                    self.lead_rule = None
            else:
                self.lead_waits = False
                if rule[1] == REQUIRE:
                    self.lead_rule = None
                    self._restriction(seat, c, suit != rule[2], self.holds(seat, rule[2]))
                else:
                    mask = 1 << rule[2] | self.lead_more
                    self._restriction(seat, c, mask >> suit & 1, self._others(seat, mask))
        if self.penalty and self._penalty_broken(seat, c, -1):
            return self._hold(PENALTY_FAILURE, seat, c)
        self._record(seat, c)
        return None

    def _follow(self, seat, c):
        base = self.trick * 4
        led = (self.cards[base + self.leaders[self.trick]] - 1) // 13
        suit = c // 13
        held = self.hands[seat * 4 + led]
        rule = self.play_rule
        revoked = False
        if rule is not None and rule[0] == seat:
            self.play_rule = None
            if held:
                if rule[1] == FORBID:
                    revoked = suit != led  # he follows suit; the forbidden suit is another
                else:
                    top = mask_cards(led, held)
                    need = top[0] if rule[1] == HIGHEST else top[-1]
                    revoked = c != need
                if revoked:
                    self._revoke(seat, led, c)
            elif held == 0:
                if rule[1] == FORBID:
                    self._restriction(seat, c, suit == rule[2],
                                      self._others(seat, 1 << rule[2]))
                else:
                    self.note("59")  # void: he cannot play highest or lowest
        elif held and suit != led:
            revoked = True
            self._revoke(seat, led, c)
        if self.penalty and not revoked and self._penalty_broken(seat, c, led):
            self._hold(PENALTY_FAILURE, seat, c)
            return
        self._record(seat, c)

    def _others(self, seat, mask):
        """Whether seat holds a card outside the suits of mask (None without a hand record)."""
        if self.hands[seat * 4] is None:
            return None
        for s in range(4):
            if not mask >> s & 1 and self.hands[seat * 4 + s]:
                return True
        return False

    def _restriction(self, seat, c, broken, could):
        """A lead or play against a restriction: a revoke if he could comply (61A), else 59."""
        if not broken:
            return
        if could:
            self._revoke(seat, c // 13, c)
        elif could is not None:
            self.note("59")

    def _out_of_turn(self, seat, c):
        """A play (not a lead) out of turn: 57A for a defender before his partner, else 57C."""
        base = self.trick * 4
        if self.is_defender(seat) and not self.cards[base + partner(seat)]:
            decl = self.declarer
            if self.cards[base + decl] and self.cards[base + partner(decl)]:
                self.note("57C1")  # declarer has played from both hands
                self._follow(seat, c)
                return None
            return self._hold(PREMATURE, seat, c)
        if not self.is_defender(seat):
            self.note("57C2")  # declarer's premature play is a played card
        self._follow(seat, c)
        return None

    def _before_complete(self, seat, c):
        """A card from a seat that has played to this trick: a lead to the next one."""
        base = self.trick * 4
        if self.is_defender(seat) and not self.cards[base + partner(seat)]:
            return self._hold(PREMATURE, seat, c)
        return self._hold(DEFECTIVE, seat, c)

    def _hold(self, law, seat, c):
        self.pending = (law, seat, c)
        self.status = DIRECTOR
        return law

    # -- recording ---------------------------------------------------------------------------

    def _record(self, seat, c):
        """Put a card that stands into its trick; close the trick when it is full."""
        suit, bit = c // 13, 1 << (c % 13)
        t = self.trick
        base = t * 4
        self.cards[base + seat] = c + 1
        i = seat * 4 + suit
        if self.hands[i] is not None:
            self.hands[i] &= ~bit
        elif self.void_at[i]:
            self._revoke_found(seat, suit)
        self.retracted = False
        if self.penalty:
            self._drop_penalty(seat, c)
        leader = self.leaders[t]
        if seat != leader:
            led = (self.cards[base + leader] - 1) // 13
            if suit != led and not self.void_at[seat * 4 + led]:
                self.void_at[seat * 4 + led] = t + 1
        if self.revokes:
            self._establish(seat, t)
        if self.cards[base] and self.cards[base + 1] and self.cards[base + 2] and \
                self.cards[base + 3]:
            self._close_trick()
        else:
            self.turn = self._next_turn()

    def _next_turn(self):
        base = self.trick * 4
        s = self.leaders[self.trick]
        for _ in range(4):
            if not self.cards[base + s]:
                return s
            s = (s + 1) & 3
        return None

    def winner(self, t):
        """The seat that wins trick t (Law 44D, 44E), from the cards in it."""
        base = t * 4
        best = self.cards[base + self.leaders[t]] - 1
        who = self.leaders[t]
        trump = self.trump
        for s in range(4):
            c = self.cards[base + s] - 1
            if c < 0 or s == self.leaders[t]:
                continue
            cs, bs = c // 13, best // 13
            if (cs == bs and c > best) or (cs == trump and bs != trump):
                best, who = c, s
        return who

    def _close_trick(self):
        t = self.trick
        w = self.winner(t)
        self.winners[t] = w + 1
        self.play_rule = None
        if t == 12:
            self.trick = 13
            self.turn = None
            self._end_play()
            return
        self.trick = t + 1
        self.leaders[t + 1] = w
        self.turn = w
        self._lead_options()
        relead = self.relead
        if relead is not None and relead[2] and self.status is PLAY:
            self.relead = None
            self.card(relead[0], relead[1])  # the lead kept under 62C1 (_take_back)

    def _end_play(self):
        """The play is over. It establishes no revoke: 63A lists a play to the next trick,
        naming a card for it and a claim or concession, and every revoke before the last
        trick has met the first by now."""
        self.status = ENDED
        self.turn = None
        if self.hands[0] is not None:
            for i in range(16):
                m = self.hands[i]
                if m is not None and m:
                    self._flag("67B")  # a hand has cards left: a defective trick
        self._flag_64c()
        for r in self.revokes:
            if r[0] == 11 and not r[3] & CORRECTED:
                self._flag("62D")

    def _flag_64c(self):
        """64C: «после любого установленного фальшренонса» the director judges the equity;
        a revoke corrected in time (62) was never established."""
        for r in self.revokes:
            if r[3] & ESTABLISHED and not r[3] & CORRECTED:
                self._flag("64C")
                return

    def _lead_options(self):
        """Law 50D2: the declarer chooses before the partner of a major penalty card leads."""
        leader = self.turn
        if not self.is_defender(leader):
            return
        for p in self.penalty:
            if p >> 7 == partner(leader) and p & MAJOR:
                self._hold(LEAD_OPTIONS, leader, -1)
                return

    # -- revokes (61-64) ---------------------------------------------------------------------

    def _revoke(self, seat, suit, c):
        """A failure to follow suit or to comply with a restriction (61A), playing card c;
        whether c was a penalty card of his is kept for its correction (62B2)."""
        flags = 0
        if seat == self.dummy():
            flags |= FACED
        else:
            held = self.hands[seat * 4 + suit]
            concealed = held
            for p in self.penalty:
                if p >> 7 != seat:
                    continue
                if p & 63 == c:
                    flags |= FACED_CARD | (FACED_MAJOR if p & MAJOR else 0)
                if (p & 63) // 13 == suit:
                    concealed &= ~(1 << (p & 63) % 13)
            if held and not concealed:
                flags |= FACED
        self._add_revoke([self.trick, seat, suit, flags, "61"])
        self.note("61")

    def _revoke_found(self, seat, suit):
        """Without a hand record: he showed out of suit earlier and now plays it (61A)."""
        t = self.void_at[seat * 4 + suit] - 1
        self.void_at[seat * 4 + suit] = 0
        for r in self.revokes:
            if r[1] == seat and r[2] == suit and r[0] == t:
                return
        flags = INFERRED | ESTABLISHED | (FACED if seat == self.dummy() else 0)
        self._add_revoke([t, seat, suit, flags, "61"])
        self.note("61")

    def _establish(self, seat, t):
        """Law 63A1: the offender or his partner plays to a later trick."""
        for r in self.revokes:
            if not r[3] & (ESTABLISHED | CORRECTED) and r[0] < t and same_side(r[1], seat):
                r[3] |= ESTABLISHED
                self.note("63A1")

    def establish_all(self, law, of_side=None):
        """A claim or concession (63A3) establishes the revokes of a side, or every one."""
        for r in self.revokes:
            if not r[3] & (ESTABLISHED | CORRECTED) and of_side in (None, side(r[1])):
                r[3] |= ESTABLISHED
                self.note(law)

    def transfers(self, claimed=None):
        """Law 64 for every established revoke: [(revoke index, tricks, law)], to the
        non-offending side. claimed: tricks of the unplayed ones won by (NS, EW)."""
        if claimed is None:
            claimed = self._claimed()
        out = []
        live = [r for r in self.revokes if r[3] & ESTABLISHED and not r[3] & CORRECTED]
        both = False
        for r in live:
            if not same_side(r[1], live[0][1]):
                both = True
        given = [0, 0]
        for i in range(len(self.revokes)):
            r = self.revokes[i]
            if not r[3] & ESTABLISHED or r[3] & CORRECTED:
                continue
            law, n = self._rule_64(r, claimed, both)
            off = side(r[1])
            # each revoke is rectified on its own (64A1, 64A2; only 64B2 and 64B7 exclude
            # one), but a trick is transferred only if there is one: together they move no
            # more tricks than the offending side won, in play and by claim
            n = max(0, min(n, self._won_from(0, off, claimed) - given[off]))
            given[off] += n
            out.append((i, n, law or ("64A1" if self._won_by(r[0]) == r[1] and
                                       not r[3] & DEEMED else "64A2")))
        return out

    def _rule_64(self, r, claimed, both):
        """(exception law or None, tricks) for one revoke, on its own paragraph (64A, 64B)."""
        t, seat, flags = r[0], r[1], r[3]
        if flags & WAIVED:
            return r[4], 0
        if both:
            return "64B7", 0
        for q in self.revokes:
            if q is r:
                break
            if q[1] == seat and q[2] == r[2] and q[3] & ESTABLISHED and not q[3] & CORRECTED:
                return "64B2", 0
        if flags & FACED:
            return "64B3", 0
        if t == 11:
            return "64B6", 0
        off = side(seat)
        later = self._won_from(t + 1, off, claimed)
        if self._won_by(t) == seat and not flags & DEEMED:
            return None, 1 + (1 if later else 0)
        if (self._won_by(t) is not None and side(self._won_by(t)) == off) or later:
            return None, 1
        return "64B1", 0

    def _won_by(self, t):
        w = self.winners[t] - 1 if t < 13 else -1
        return None if w < 0 else w

    def _won_from(self, t, s, claimed):
        n = claimed[s]
        for k in range(t, self.trick):
            w = self.winners[k]
            if w and (w - 1) & 1 == s:
                n += 1
        return n

    # -- penalty cards (24, 49-52) -----------------------------------------------------------

    def expose(self, seat, c, deliberate=False, law="49", options=True):
        """A card exposed by seat (49, 50; 24 after the auction; 58B2 with a played card).

        A defender's card becomes a penalty card, major if an honour, exposed deliberately, or
        when he then has more than one (50B); the declaring side's cards go back (48A).
        """
        self._check_card(seat, c)
        for p in self.penalty:
            if p & 63 == c:
                raise ValueError("that card is already a penalty card")
        if not self.is_defender(seat):
            self.note("48A")
            return
        major = deliberate or is_honour(c)
        mine = [i for i in range(len(self.penalty)) if self.penalty[i] >> 7 == seat]
        if mine:
            major = True
            for i in mine:
                self.penalty[i] |= MAJOR
        self.penalty = list(self.penalty) + [seat << 7 | (MAJOR if major else 0) | c]
        if not self.rulings or self.rulings[-1] != law:
            self.note(law)
        self.note("50B")
        if options and self.status is PLAY and self.turn is not None and \
                self.cards[self.trick * 4 + self.leaders[self.trick]] == 0:
            self._lead_options()

    def _drop_penalty(self, seat, c):
        for i in range(len(self.penalty)):
            p = self.penalty[i]
            if p & 63 == c and p >> 7 == seat:
                del self.penalty[i]
                return

    def _penalty_broken(self, seat, c, led):
        """Laws 50C, 50D1: does this card ignore a penalty card that had to be played?"""
        majors = []
        for p in self.penalty:
            if p >> 7 == seat:
                if p & 63 == c:
                    return False
                if p & MAJOR:
                    majors.append(p & 63)
                elif (p & 63) // 13 == c // 13 and not is_honour(c):
                    return True  # 50C: another small card of the minor penalty card's suit
        if not majors:
            return False
        if led < 0:
            return True  # a lead: the major penalty card is the card to lead
        held = self.hands[seat * 4 + led]
        for p in majors:
            if p // 13 == led or not held:
                return True  # it could legally be played now (50D1a)
        return False

    def _playable_penalty(self, seat, led):
        """seat's penalty cards he could legally play now (led -1: to a lead), as 50D1a."""
        held = None if led < 0 else self.hands[seat * 4 + led]
        return [p & 63 for p in self.penalty
                if p >> 7 == seat and (led < 0 or (p & 63) // 13 == led or not held)]

    def _to_designate(self, seat, c, led):
        """51A: c is one of two or more penalty cards seat could play, and the declarer has
        not designated it: he designates which one is played."""
        if self.designated == c:
            self.designated = -1
            return False
        playable = self._playable_penalty(seat, led)
        return len(playable) > 1 and c in playable

    def _lift(self, seat, suit):
        """The penalty cards of seat in suit stop being penalty cards (50D2a, 51B)."""
        self.penalty = [p for p in self.penalty
                        if not (p >> 7 == seat and (p & 63) // 13 == suit)]

    # -- while the director is awaited -------------------------------------------------------

    def _while_pending(self, seat, c):
        """A card while an irregularity is pending: settling it, if the Laws say so."""
        if self.status is not DIRECTOR:
            raise ValueError("the play has ended" if self.status is ENDED
                             else "a claim awaits agreement or the director")
        law, offender, held = self.pending
        if law in (LOOT_OPENING, LOOT_DEFENDER, LOOT_DECLARER):
            proper = self.turn
            if seat == proper and not same_side(seat, offender):
                # 53C: the opponent whose lead it was leads, even as the next hand: «его
                # карта не считается сыгранной после хода с отклонением»; the lead out of
                # turn goes back «без наказания»
                self.note("53C")
                self._clear()
                return self.card(seat, c)
            if seat == lho(offender):  # the next hand plays: the lead is accepted
                self.note("54B" if law is LOOT_OPENING else "53A")
                self.note("60A1")
                self._accept_lead()
                return self.card(seat, c)
            if law is LOOT_OPENING and seat == self.dummy():
                self.note("54B")  # 54B2: declarer plays second from dummy: the card stands
                self.note("54B2")
                self._accept_lead()
                return self.card(seat, c)
            if law is LOOT_DECLARER and seat == (offender + 3) & 3:
                self.note("53B")  # the lead stands; his own card is premature (57)
                self._accept_lead()
                return self.card(seat, c)
        elif law is PENALTY_FAILURE:
            if not self.is_defender(seat):
                self.note("52B1b")
                self._clear()
                self._accept_failure(offender, held)
                return self.card(seat, c)
        elif law is LEAD_OPTIONS and seat == offender:
            self.note("50D2")  # he led before the declarer chose: an exposed card
            self.expose(seat, c, True, "49", False)
            return None
        raise ValueError("the director must rule on the pending Law %s first" % law)

    def _clear(self):
        self.pending = None
        self.status = PLAY

    def _accept_lead(self):
        """Law 53A: the lead out of turn stands as if in turn."""
        seat, c = self.pending[1], self.pending[2]
        self._clear()
        self.leaders[self.trick] = seat
        self.turn = seat
        self._record(seat, c)

    def _accept_failure(self, seat, c):
        """52B1: the card stands; unplayed penalty cards stay penalty cards (52B1c)."""
        self._record(seat, c)

    # -- the director's entries --------------------------------------------------------------

    def director(self, option, suit=None, c=None, tricks=None, seat=None, trick=None):
        """A director's entry on the pending matter. True if taken, False if refused.

        suit: of a restriction (50D2, 57A3, 26); c: a card (67); tricks: of a claim ruling
        (70) or given back (69B, 71); seat and trick: of a defective trick found (67B1).
        """
        if self.status is CLAIM:
            return self._claim_entry(option, tricks)
        if self.status is ENDED:
            return self._after_end(option, tricks, seat, c, trick)
        if self.status is PLAY:
            return self._in_play(option, suit, seat, tricks)
        law, offender, held = self.pending
        handler = _HANDLERS.get(law)
        if handler is None:
            return False
        return handler(self, option, offender, held, suit, c, tricks)

    def _on_opening(self, option, offender, c, suit, card, tricks):
        if option == "accept":
            self.note("54B")
            self._accept_lead()
            return True
        if option == "spread":  # 54A: declarer faces his hand and becomes dummy
            self.note("54A")
            self.declarer = partner(self.declarer)
            self._accept_lead()
            return True
        if option == "reject":  # 54D: a major penalty card, the proper leader leads
            self.note("54D")
            self._clear()
            self.expose(offender, c, True, "54D", False)
            self._lead_options()
            return True
        return False

    def _on_opening_declarer(self, option, offender, c, suit, card, tricks):
        if option != "reject":
            return False
        self.note("54E")  # Law 24: the declaring side's card goes back
        self._clear()
        return True

    def _on_defender_lead(self, option, offender, c, suit, card, tricks):
        if option == "accept":
            self.note("53A")
            self._accept_lead()
            return True
        if option == "reject":
            self.note("56")
            self._clear()
            self.expose(offender, c, True, "54D", False)
            self._lead_options()
            return True
        return False

    def _on_declarer_lead(self, option, offender, c, suit, card, tricks):
        if option == "accept":
            self.note("55A")
            self._accept_lead()
            return True
        if option == "reject":
            self.note("55B2" if same_side(self.turn, offender) else "55B1")
            self._clear()
            self.retracted = not self.is_defender(self.turn)
            return True
        return False

    def _on_premature(self, option, offender, c, suit, card, tricks):
        """57A: the card becomes a major penalty card; the declarer restricts the partner.
        57A3 forbids «играть картой другой масти»: a suit other than the suit led."""
        kinds = {"highest": (HIGHEST, "57A1"), "lowest": (LOWEST, "57A2"),
                 "forbid": (FORBID, "57A3")}
        if option not in kinds or (option == "forbid" and suit not in (0, 1, 2, 3)) or \
                (option == "forbid" and suit == self._led_suit()):
            return False
        kind, law = kinds[option]
        self._clear()
        self.note(law)
        self.expose(offender, c, True, "57A", False)
        self.play_rule = (partner(offender), kind, suit)
        return True

    def _on_failure(self, option, offender, c, suit, card, tricks):
        if option == "accept":
            self.note("52B1a")
            self._clear()
            self._accept_failure(offender, c)
            return True
        if option == "reject":  # 52B2: play the penalty card; this one becomes one too
            self.note("52B2")
            self._clear()
            due = self._playable_penalty(offender, -1 if self._leading() else self._led_suit())
            self.expose(offender, c, True, "52B2", False)
            if len(due) == 1:
                self.designated = due[0]  # "заменить штрафной картой": that one, not 51A
            return True
        return False

    def _on_lead_options(self, option, leader, c, suit, card, tricks):
        """50D2 (51B with more penalty cards): require or forbid a suit, or no restriction.
        51B2b: with penalty cards in several suits the declarer may forbid "одну или более
        таких мастей": after a prohibition the choice stays open for another suit or none."""
        owner = partner(leader)
        more = self.forbidding
        if option == "none":
            if not more:
                self.note("50D2b")
            self.forbidding = False
            self._clear()
            return True
        if option not in (REQUIRE, FORBID) or suit is None or (more and option == REQUIRE):
            return False
        suits = [(p & 63) // 13 for p in self.penalty if p >> 7 == owner and p & MAJOR]
        if suit not in suits:
            return False
        self.note("51B" if more or len(suits) > 1 else "50D2a")
        self._lift(owner, suit)
        if more:
            self.lead_more |= 1 << suit
        else:
            self.lead_rule = (leader, REQUIRE if option == REQUIRE else FORBID, suit)
            self.lead_more = 0
            self.lead_waits = False
        self.forbidding = option == FORBID and any(
            p >> 7 == owner and p & MAJOR for p in self.penalty)
        if not self.forbidding:
            self._clear()
        return True

    def _on_designate(self, option, seat, c, suit, card, tricks):
        """51A: the declarer designates which penalty card is played (accept: the one led or
        played); the others stay penalty cards."""
        if option == "designate" and card is not None:
            if card not in self._playable_penalty(seat, -1 if self._leading() else
                                                  self._led_suit()):
                return False
            c = card
        elif option != "accept":
            return False
        self._clear()
        self.note("51A")
        self.designated = c
        self.card(seat, c)
        return True

    def _leading(self):
        return not self.cards[self.trick * 4 + self.leaders[self.trick]]

    def _led_suit(self):
        return (self.cards[self.trick * 4 + self.leaders[self.trick]] - 1) // 13

    def _on_defective(self, option, offender, c, suit, card, tricks):
        """67A1: the seat that did not play to the trick supplies a card now; or the
        director lets the trick stand short ("omit") and settles it later (67B)."""
        if option == "omit":
            self._clear()
            self._close_short()
        elif option == "supply" and card is not None:
            missing = self._next_turn()
            try:
                self._check_card(missing, card)
            except ValueError:
                return False
            self._clear()
            self.note("67A1")
            self.card(missing, card)
        else:
            return False
        if self.status is PLAY:
            self.card(offender, c)  # the held lead goes on (perhaps out of turn)
        return True

    def _in_play(self, option, suit, seat, tricks):
        """Entries with nothing pending: Law 26 lead restrictions, 62 correction, and 68B2
        ("если вистующий пытается уступить одну или более взяток, а его партнер немедленно
        возражает, уступка не происходит... Розыгрыш продолжается"): seat conceded `tricks`
        (claimable) and his partner objected at once."""
        if option == "correct":
            return self._correct_revoke()
        if option in (REQUIRE, FORBID) and suit in (0, 1, 2, 3) and seat in (0, 1, 2, 3):
            return self._law26(option == REQUIRE, suit, seat)
        if option == "object" and seat in (0, 1, 2, 3) and self.is_defender(seat) and \
                type(tricks) is int and 0 < tricks <= self.remaining() and \
                self.claimable():
            self.make_claim(seat, tricks, True, voided=True)
            return True
        return False

    def _law26(self, require, suit, seat):
        """Law 26: the declarer restricts the offender's partner "в ближайшую очередь хода
        партнера нарушителя (которая может быть и первым ходом)": entered any time before
        that seat's first lead, it waits for it. 26A: require or forbid a suit of the
        withdrawn call; 26B: forbid any one suit. Only what the auction gave, when known."""
        if not self.is_defender(seat) or self._has_led(seat):
            return False
        if self.lead26 is not None:
            for offender, law, mask in self.lead26:
                if partner(offender) == seat and (
                        mask >> suit & 1 if law == "26A" else not require):
                    break
            else:
                return False
        self.lead_rule = (seat, REQUIRE if require else FORBID, suit)
        self.lead_more = 0
        self.lead_waits = True
        self.note("26")
        return True

    def _has_led(self, seat):
        """Whether seat has led in turn to a trick of this play (his next turn to lead is
        over). A lead out of turn that was accepted (53A, 54A, 54B) was not his turn: the
        proper leader is the opening leader (declarer's LHO, before a 54A swap) or the
        winner of the trick before."""
        for t in range(self.trick + 1 if self.trick < 13 else 13):
            if t:
                proper = self.winners[t - 1] - 1
            else:
                proper = lho(self.declarer)
                if "54A" in self.rulings:
                    proper = partner(proper)
            if self.leaders[t] == seat == proper and self.cards[t * 4 + seat]:
                return True
        return False

    def _correct_revoke(self):
        """62A/62B: an unestablished revoke is corrected; the later cards of the trick are
        then offered back to their owners (62C1, 62C2), one at a time in rotation."""
        for r in self.revokes:
            if not r[3] & (ESTABLISHED | CORRECTED):
                break
        else:
            return False
        seat, t = r[1], r[0]
        if t != self.trick and not (t == self.trick - 1 and self._only_non_offenders(seat)):
            return False
        undone = self._take_back(t, seat)
        r[3] |= CORRECTED
        self.note("62B")
        if t == 11:
            self.note("62D")
        if r[3] & FACED_CARD:
            # 62B2: «если она была открытой картой вистующего» it is replaced «без
            # дальнейшего исправления»: back on the table as the penalty card it was
            self.note("62B2")
            self.penalty = list(self.penalty) + [
                seat << 7 | (MAJOR if r[3] & FACED_MAJOR else 0) | undone]
        elif self.is_defender(seat):
            # 62B1: major «если она была сыграна из закрытой руки вистующего»
            self.note("62B1")
            self.expose(seat, undone, True, "62B1", False)
        else:
            self.note("62B2")
        self.undoing = (seat, False)
        if self.relead is not None:
            self._hold(LATER, self.relead[0], self.relead[1])
        else:
            self._offer_later(lho(seat))
        return True

    def _offer_later(self, s):
        """Hold the next later card of the reopened trick, from seat s in rotation, whose
        owner may withdraw it: a non-offender's (62C1), or the offending side's once a
        non-offender has withdrawn his (62C2). None left: the offender plays again."""
        offender, withdrew = self.undoing
        t = self.trick
        while s != self.leaders[t]:
            c = self.cards[t * 4 + s] - 1
            if c >= 0 and not same_side(s, offender):
                self._hold(LATER, s, c)
                return
            if c >= 0 and withdrew:
                self._hold(LATER_PARTNER, s, c)
                return
            s = lho(s)
        self.undoing = None
        self._clear()
        self.turn = self._next_turn()

    def _on_later(self, option, s, c, suit, card, tricks):
        """62C1/62C2: the owner of a later card withdraws it to his hand or keeps it there;
        a defender's card withdrawn under 62C2 becomes a penalty card."""
        if option not in ("withdraw", "keep"):
            return False
        law = self.pending[0]
        relead = self.relead
        if relead is not None and not relead[2] and relead[0] == s and relead[1] == c:
            if option == "withdraw":  # his lead to the next trick goes back to his hand
                self.relead = None
                self.note(LATER)
            else:
                relead[2] = True
            self._offer_later(lho(self.undoing[0]))
            return True
        if option == "withdraw":
            self._withdraw_later(self.trick, s)
            self.note(law)
            if law == LATER:
                self.undoing = (self.undoing[0], True)
            elif self.is_defender(s):
                # 62C2 «становится штрафной картой»; 50B: a card «намеренно открытая в
                # процессе игры (например... при фальшренонсе и его последующей
                # коррекции)» is a major one: he played it
                self.expose(s, c, True, law, False)
        self._offer_later(lho(s))
        return True

    def _only_non_offenders(self, seat):
        base = self.trick * 4
        for s in range(4):
            if self.cards[base + s] and same_side(s, seat):
                return False
        return True

    def _take_back(self, t, seat):
        """Withdraw the revoke card of seat in trick t. When the revoke closed trick t and a
        non-offender has led to the next one (only he has played to it), the trick is
        reopened: his lead is off the table until trick t is complete again, and offered to
        him first under 62C1 («может взять назад»): kept, it is led again then, in turn or
        not as the corrected trick decides (53-56 if not)."""
        if t != self.trick:  # reopen the trick the revoke closed
            s = self.leaders[self.trick]
            if self.cards[self.trick * 4 + s]:
                self.relead = [s, self.cards[self.trick * 4 + s] - 1, False]
                self._withdraw_later(self.trick, s)
            self.winners[t] = 0
            self.trick = t
        c = self.cards[t * 4 + seat] - 1
        self._unplay(t, seat)
        self.turn = self._next_turn()
        self.status = PLAY
        return c

    def _withdraw_later(self, t, seat):
        """A card played after a revoke goes back to its owner's hand (62C): a revoke that
        card made goes with it (he plays to the trick again, following suit if he can)."""
        self._unplay(t, seat)
        for r in self.revokes:
            if r[0] == t and r[1] == seat and not r[3] & (ESTABLISHED | CORRECTED):
                r[3] |= CORRECTED

    def _unplay(self, t, seat):
        c = self.cards[t * 4 + seat] - 1
        self.cards[t * 4 + seat] = 0
        suit, bit = c // 13, 1 << (c % 13)
        if self.hands[seat * 4 + suit] is not None:
            self.hands[seat * 4 + suit] |= bit
        for i in range(4):
            if self.void_at[seat * 4 + i] == t + 1:
                self.void_at[seat * 4 + i] = 0

    # -- claims and concessions (68-71) ------------------------------------------------------

    def remaining(self):
        return 13 - self.trick

    def make_claim(self, seat, tricks, concession=False, voided=False):
        """Law 68: seat claims `tricks` of the remaining ones for his side (or, as a
        concession, concedes them to the opponents); in the middle of a trick the current
        one is among them (claimable). The play stops (68D). The claimer's side's revokes
        are established by it, the other side's when it agrees (63A3), not when it
        disputes; a defender's concession (a claim of fewer than all concedes the
        rest, 68B1) waits, as his partner may void it at once (68B2: "уступка не происходит").
        With `voided` that objection follows at once: ValueError, nothing changed, unless a
        defender conceded one or more tricks."""
        left = self.remaining()
        if self.status is not PLAY:
            raise ValueError("no claim now: the play is %s" % self.status)
        if seat not in (0, 1, 2, 3) or not (type(tricks) is int and 0 <= tricks <= left):
            raise ValueError("a claim is a seat's, of 0..%d of the remaining tricks, not %r"
                             % (left, tricks))
        if not self.claimable():
            raise ValueError("68: a statement about the current trick alone is not a claim")
        conceded = self.concedes(seat, tricks, concession)
        if voided and not conceded:
            raise ValueError("68B2 voids only a defender's concession of one or more tricks")
        self.claim = [1 - side(seat), tricks, seat] if concession else [side(seat), tricks, -1]
        self.note("68B" if concession else "68A")
        if not conceded:
            self.establish_all("63A3", side(seat))
        self.status = CLAIM
        self.turn = None
        if voided:
            self._claim_entry("object", None)

    def claimable(self):
        """68: a claim or concession must concern «взяткам, отличным от текущей»; made in
        the middle of a trick it does when a later trick remains, and then counts the
        current trick among the remaining ones it claims or concedes."""
        return self.trick < 12 or self._leading()

    def concedes(self, seat, tricks, concession):
        """The tricks a defender at seat concedes by claiming (the rest of the remaining, 68B1)
        or conceding `tricks`; 0 for the declaring side: what 68B2 lets his partner void."""
        if not self.is_defender(seat):
            return 0
        return tricks if concession else self.remaining() - tricks

    def _claim_entry(self, option, tricks):
        if option == "agree":
            self.establish_all("63A3")
            self.note("69A")
            self._claim_end()
            return True
        if option == "dispute":
            # 63A3 establishes the revokes of the side that «выступает или соглашается с
            # претензией или уступкой»: the claimer's (a defender's concession stands now
            # that it is disputed, not voided), not those of the side that disputes it
            got, n, conceder = self.claim
            self.establish_all("63A3", side(conceder) if conceder >= 0 else got)
            self.note("68D")
            self.status = DIRECTOR
            self.pending = (DISPUTED, -1, -1)
            self._flag(DISPUTED)
            return True
        if option == "object":  # 68B2: a defender's partner objects to his concession
            got, n, conceder = self.claim  # a claim keeps its side only: seat `got` is of it
            if not self.concedes(conceder if conceder >= 0 else got, n, conceder >= 0):
                return False
            self.note("68B2")
            self.claim = None
            self.status = PLAY
            self.turn = self._next_turn()
            return True
        return False

    def _on_disputed(self, option, offender, c, suit, card, tricks):
        """70: the director rules `tricks` of the remaining for the side that claimed or
        conceded (a concession's claim holds the opponents' share: the rest)."""
        left = self.remaining()
        if option != "rule" or not (type(tricks) is int and 0 <= tricks <= left):
            return False
        self.claim[1] = tricks if self.claim[2] < 0 else left - tricks
        self.note("70")
        self.pending = None
        self._claim_end()
        return True

    def _claim_end(self):
        self.status = ENDED
        self.turn = None
        self._flag_64c()

    def _claimed(self):
        out = [0, 0]
        if self.claim is not None:
            s, n = self.claim[0], self.claim[1]
            out[s] = n
            out[1 - s] = self.remaining() - n
        return out

    def _after_end(self, option, tricks, seat, c, trick):
        """After the play: withdrawn agreement (69B) or concession (71), a late revoke
        (64B4, 64B5), a defective trick found (67B1), the tricks agreed (79A)."""
        if option == "withdraw" and self.claim is not None:
            # the tricks go back to seat's side: 71 if that side made it (a claim concedes
            # the rest, 68B1), 69B if it agreed to lose them; without a seat, to the
            # conceding side of a concession, to the agreeing side of a claim
            got, n, conceder = self.claim
            back = 1 - got if seat is None else side(seat) if seat in (0, 1, 2, 3) else -1
            most = n if back == 1 - got else self.remaining() - n
            if back < 0 or not (type(tricks) is int and 0 < tricks <= most):
                return False
            self.claim[1] = n - tricks if back != got else n + tricks
            self.note("71" if back == (got if conceder < 0 else 1 - got) else "69B")
            return True
        if option == "correct":
            return self._correct_twelfth()
        if option in ("64B4", "64B5"):
            found = False
            for r in self.revokes:
                if r[3] & ESTABLISHED and not r[3] & CORRECTED:
                    r[3] |= WAIVED
                    r[4] = option
                    found = True
            if found:
                self.note(option)
            return found
        if option == "defective" and seat in (0, 1, 2, 3) and c is not None and \
                type(trick) is int and 0 <= trick < 13:
            return self._defective_found(seat, trick, c)
        return False

    def _correct_twelfth(self):
        """62D1: «Фальшренонс в двенадцатой взятке, даже установленный, необходимо
        скорректировать, если он обнаружен до возвращения всех четырех рук в коробку» (63B
        excepts it). The offender's two last cards change places, when his last one is of
        the suit led to the twelfth trick (the legal card he replaces it with); tricks 12
        and 13 are decided again. What the others' cards become (62C1, 62D2) is the
        director's."""
        for r in self.revokes:
            if r[0] == 11 and not r[3] & (CORRECTED | WAIVED | DEEMED):
                break
        else:
            return False
        a, b = 44 + r[1], 48 + r[1]
        last = self.cards[b] - 1
        if self.trick != 13 or not self.cards[a] or last < 0 or \
                last // 13 != (self.cards[44 + self.leaders[11]] - 1) // 13:
            return False
        self.cards[a], self.cards[b] = last + 1, self.cards[a]
        self.winners[11] = self.winner(11) + 1
        self.leaders[12] = self.winners[11] - 1
        self.winners[12] = self.winner(12) + 1
        r[3] |= CORRECTED
        self.note("62D1")
        self.flags = [f for f in self.flags if f not in ("62D", "64C")]
        self._flag_64c()
        if self.agreed is not None:
            self.agree(self.agreed)
        return True

    def _defective_found(self, seat, t, c):
        """67B1: seat did not play to trick t; the card he places is deemed a revoke."""
        if t >= self.trick or self.cards[t * 4 + seat]:
            return False
        try:
            self._check_card(seat, c)
        except ValueError:
            return False
        led = (self.cards[t * 4 + self.leaders[t]] - 1) // 13
        held = self.hands[seat * 4 + led]
        if held and c // 13 != led:
            return False  # 67B1a: he must choose a card of the suit led
        self.cards[t * 4 + seat] = c + 1
        if held is not None:
            self.hands[seat * 4 + c // 13] &= ~(1 << (c % 13))
        self._add_revoke([t, seat, led, ESTABLISHED | DEEMED, "67B1"])
        self.note("67B1a" if held else "67B1b")
        if "67B" in self.flags:
            self.flags.remove("67B")
        return True

    def _close_short(self):
        """The trick ends without the card of the seat that omitted to play (67)."""
        self.note("67")
        self._flag("67B")
        self._close_trick()

    # -- the result (79) ---------------------------------------------------------------------

    def declarer_tricks(self):
        """Tricks of the declaring side: played, claimed, and after Law 64 transfers."""
        claimed = self._claimed()
        s = side(self.declarer)
        n = self.won(s) + claimed[s]
        for i, k, law in self.transfers(claimed):
            n += k if side(self.revokes[i][1]) != s else -k
        return n

    def possible_results(self):
        """Declarer's tricks for every split of the unplayed tricks, lowest first: what a
        claim now could make the result (a partial record is checked against it, 79B)."""
        s = side(self.declarer)
        out = []
        left = self.remaining()
        for k in range(left + 1):
            claimed = [0, 0]
            claimed[s], claimed[1 - s] = k, left - k
            n = self.won(s) + k
            for i, moved, law in self.transfers(claimed):
                n += moved if side(self.revokes[i][1]) != s else -moved
            if n not in out:
                out.append(n)
        return sorted(out)

    def agree(self, tricks):
        """79A: the tricks the players agree on; a disagreement with the play is 79B."""
        if not (type(tricks) is int and 0 <= tricks <= 13):
            raise ValueError("tricks must be 0..13, not %r" % (tricks,))
        self.agreed = tricks
        if self.status is ENDED and tricks != self.declarer_tricks():
            self._flag("79B")
        elif "79B" in self.flags:
            self.flags.remove("79B")

    def remaining_hands(self):
        """The unplayed cards, for the director of a disputed claim (70B3)."""
        if self.hands[0] is None:
            return None
        return [hand_text(self.hands, s) for s in range(4)]


_HANDLERS = {
    LOOT_OPENING: Play._on_opening,
    LOOT_OPENING_DECLARER: Play._on_opening_declarer,
    LOOT_DEFENDER: Play._on_defender_lead,
    LOOT_DECLARER: Play._on_declarer_lead,
    PREMATURE: Play._on_premature,
    PENALTY_FAILURE: Play._on_failure,
    LEAD_OPTIONS: Play._on_lead_options,
    DEFECTIVE: Play._on_defective,
    DISPUTED: Play._on_disputed,
    DESIGNATE: Play._on_designate,
    LATER: Play._on_later,
    LATER_PARTNER: Play._on_later,
}
