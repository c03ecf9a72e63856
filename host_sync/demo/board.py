"""One board at a simulated table: the keys the players and the director press on the
terminal, and the truth the scoring database must end up holding.

The auction is made call by call by the bidders (bidders.py); every call is first tried on a
copy of the Laws engine (bridge.auction), so only the irregularities meant are made. Now and
then a player makes one on purpose: an insufficient bid (Law 27), a call out of rotation
(30/31), a bid of eight (38) or a double of his partner's bid (36). The terminal stops and
calls the director, who comes, types his PIN, reads the options the Laws give and picks one;
the players go on as the ruling left them (obligations to pass, a replacement bid). Then the
opening lead (from the hand record), the tricks, and the opponents' verification, now and
then refused first (a dispute) and entered again.

The truth is kept as the host stores it: each call as (seat, call, the law it was held under),
each director's entry and law paragraph applied as (entry, paragraph), the flags, and the
result line (contract, declarer, tricks, score).
"""

from bridge import boards as law2
from bridge.auction import Auction
from bridge.calls import DOUBLE, FIRST_BID, MAX_LEVEL, NT, PASS, bid, level, strain
from bridge.lawcodes import DIRECTOR, EV_ACCEPT, EV_REJECT, call_event
from bridge.rulings_text import choices
from bridge.score import score
from bridge.seats import lho, partner

from host_sync.demo.bidders import Bidders, cheapest
from host_sync.demo.hands import lead_card, longest, played_tricks

STRAIN_KEYS = ("C", "D", "H", "S", "NT")
SEAT_KEYS = ("C", "D", "H", "S")  # ♣♦♥♠ name N E S W where the terminal asks for a seat
RANK_KEYS = ("2", "3", "4", "5", "6", "7", "8", "9", "0", "C", "D", "H", "S")  # 0 = ten
RISK_KEYS = ("PASS", "X", "XX")
# How often the director picks each option the Laws give him.
OPTION_WEIGHTS = {"accept": 3, "reject": 4, "lho_calls": 1, "proper_calls": 1,
                  "offender_calls": 1}
LAST_BID = bid(MAX_LEVEL, NT)
# Irregular calls the players make, and how often each is planned for a board.
KINDS = {"insufficient": 3, "out_of_rotation": 2, "pass_out_of_rotation": 1,
         "above_seven": 1, "double_partner": 2}
TEXT = {"ru": {"board": "Сд%d ", "law": "Пр.%s"}, "en": {"board": "Bd%d ", "law": "Law %s"}}


def call_keys(c):
    """The keys of a call: PASS, X, XX, or level then strain."""
    if c < FIRST_BID:
        return RISK_KEYS[c]
    return "%d %s" % (level(c), STRAIN_KEYS[strain(c)])


def digit_keys(n):
    return " ".join(str(n))


class BoardTruth:
    """What the database must hold for one board at one table."""

    def __init__(self, board):
        self.board = board
        self.calls = []  # (seat, call, law held under or None)
        self.rulings = []  # (director's entry or None, law paragraph or None)
        self.flags = []  # (source, why, law)
        self.irregularities = []  # (law, offender, call, option) for the progress report
        self.contract = None  # (bid, risk, declarer), None when passed out
        self.tricks = 0
        self.score_ns = 0
        self.lead = None  # (seat, card) or None

    def line(self):
        """(bid, risk, declarer, passed_out, tricks, score_ns) as the results table has it."""
        if self.contract is None:
            return (None, None, None, 1, 0, 0)
        return self.contract + (0, self.tricks, self.score_ns)


class BoardPlay:
    """Plays one board: `keys` (script lines) and `truth` after `play()`."""

    def __init__(self, rng, number, masks, pin, lang="ru", irregular=0.25, dispute=0.06):
        self.rng = rng
        self.number = number
        self.masks = masks
        self.pin = " ".join(pin)
        self.text = TEXT[lang]
        self.irregular = irregular
        self.dispute = dispute
        self.dealer = law2.dealer(number)
        self.auction = Auction(self.dealer)
        self.bidders = Bidders(rng, masks, number)
        self.keys = []
        self.truth = BoardTruth(number)

    def play(self):
        self.keys.append("expect " + self.text["board"] % self.number)
        self.bid()
        self.result()
        return self

    # -- the auction --

    def bid(self):
        """The auction; an irregularity is planned for some boards: its kind, and the call
        from which on it is made where it fits."""
        a, rng = self.auction, self.rng
        kind, at = None, 0
        if rng.random() < self.irregular:
            kind = rng.choices(list(KINDS), list(KINDS.values()))[0]
            at = rng.randrange(6)
        while not a.is_over():
            if kind and len(a.calls) >= at and self.irregularity(kind):
                kind = None
                self.rule()
                continue
            seat = a.turn
            call = self.first_clean(seat, [self.bidders.call(a, seat), PASS])
            self.keys.append(call_keys(call))
            self.make(seat, call)

    def first_clean(self, seat, wishes, flags=0):
        """The first call of `wishes` the Laws engine lets stand (or that settles what is
        pending) with nothing left for the director; failing them, the lowest call that does
        (a ruling may oblige the player to one call: 31A1 repeats the call out of rotation)."""
        for call in list(wishes) + list(range(LAST_BID + 1)):
            if call is None:
                continue
            copy = Auction.from_events(self.dealer, self.auction.events)
            if copy.apply(self.event(seat, call, flags)) and copy.status != DIRECTOR:
                return call
        raise AssertionError("board %d: no call for %s in %r" % (self.number, "NESW"[seat],
                                                                 wishes))

    @staticmethod
    def event(seat, call, flags):
        return call_event(seat, call, artificial=bool(flags & 1), same_meaning=bool(flags & 2))

    def make(self, seat, call, flags=0):
        """A call made at the terminal, as the host replays it."""
        a, t = self.auction, self.truth
        done, pending = len(a.rulings), a.pending
        if not a.apply(self.event(seat, call, flags)):
            raise AssertionError("board %d: the engine refused %r" % (self.number, call))
        held = a.status == DIRECTOR and a.pending is not pending
        t.calls.append((seat, call, a.pending[2] if held else None))
        t.rulings += [(None, law) for law in a.rulings[done:]]
        if a.status == DIRECTOR:
            self.flag_irregular()

    def flag_irregular(self):
        """The terminal flags the pending call for the director (and the host stores it)."""
        self.truth.flags.append(("terminal", "irregular", self.auction.pending[2]))

    def enter(self, entry):
        """A director's accept / reject entry."""
        a, t = self.auction, self.truth
        done = len(a.rulings)
        if not a.apply(EV_ACCEPT if entry == "accept" else EV_REJECT):
            raise AssertionError("board %d: the engine refused %s" % (self.number, entry))
        t.rulings += [(entry, law) for law in a.rulings[done:]] or [(entry, None)]
        if a.status == DIRECTOR:
            self.flag_irregular()

    # -- irregularities --

    def irregularity(self, kind):
        """Make an irregular call of this kind if it fits the auction now (else False)."""
        a = self.auction
        made = getattr(self, "_" + kind)(a, a.turn)
        if made is None or a.classify(made[0], made[1]) != made[2]:
            return False
        seat, call, law = made
        prefix = "" if seat == a.turn else "MENU %s " % SEAT_KEYS[seat]
        self.keys.append("%s%s  # %s" % (prefix, call_keys(call), kind.replace("_", " ")))
        self.make(seat, call)
        self.keys.append("expect " + self.text["law"] % law)
        return True

    def _insufficient(self, a, turn):
        """The bid the player means, a level too low (he missed the last bid)."""
        wish = self.bidders.call(a, turn)
        if wish < FIRST_BID or wish - 5 < FIRST_BID:
            return None
        return turn, wish - 5, "27"

    def _out_of_rotation(self, a, turn):
        """A player who wants to bid and does not wait for his turn."""
        seat = self.rng.choice((partner(turn), lho(turn)))
        wish = self.bidders.call(a, seat)
        if wish < FIRST_BID:
            wish = cheapest(a.last_bid, longest(self.masks, seat))
        return None if wish is None else (seat, wish, "31")

    def _pass_out_of_rotation(self, a, turn):
        return self.rng.choice((partner(turn), lho(turn))), PASS, "30"

    def _above_seven(self, a, turn):
        return turn, bid(MAX_LEVEL + 1, longest(self.masks, turn)), "38"

    def _double_partner(self, a, turn):
        if a.last_bid < 0 or a.last_bidder != partner(turn) or a.risk:
            return None
        return turn, DOUBLE, "36"

    # -- the director --

    def rule(self):
        """The director rules until nothing is pending; the players go on as ruled."""
        a, t = self.auction, self.truth
        at_rulings = False  # on the rulings screen already (a ruling led to another)
        while a.status == DIRECTOR:
            offender, call, law = a.pending
            options = [code for code, _ in choices(a.situation())[1]]
            choice, follow = self.option(options, offender)
            if not at_rulings:
                self.keys.append("DIR %s OK 2  # the director: PIN, rule" % self.pin)
            self.keys.append("%d OK  # %s" % (options.index(choice) + 1, choice))
            t.irregularities.append((law, offender, call, choice))
            at_rulings = False
            if choice in ("accept", "reject"):
                self.enter(choice)
                if a.status == DIRECTOR:
                    at_rulings = True
                elif choice == "reject" and law == "27" and a.turn == offender:
                    self.replace(offender, call)
            else:
                self.keys.append(call_keys(follow))
                self.make(self.caller(choice, offender), follow)

    def caller(self, choice, offender):
        a = self.auction
        if choice == "lho_calls":
            return lho(offender)
        if choice == "proper_calls":
            return a.turn if a.turn is not None else lho(offender)
        return offender

    def option(self, options, offender):
        """(option, the call that follows it or None): a random one the players can follow."""
        rng = self.rng
        order = sorted(options, key=lambda o: -rng.random() * OPTION_WEIGHTS[o])
        for choice in order:
            if choice in ("accept", "reject"):
                copy = Auction.from_events(self.dealer, self.auction.events)
                if copy.apply(EV_ACCEPT if choice == "accept" else EV_REJECT):
                    return choice, None
                continue
            seat = self.caller(choice, offender)
            try:
                return choice, self.first_clean(seat, [self.bidders.call(self.auction, seat),
                                                       PASS])
            except AssertionError:
                continue
        raise AssertionError("board %d: no option the players can follow in %r" % (
            self.number, options))

    def replace(self, offender, insufficient):
        """Law 27B: the offender replaces his insufficient bid; the director judges it
        natural (key 1) and it is, most often, the lowest sufficient bid in the strain."""
        a = self.auction
        wishes = [cheapest(a.last_bid, strain(insufficient)), self.bidders.call(a, offender),
                  PASS]
        call = self.first_clean(offender, wishes)
        self.keys.append("1 %s  # the replacement, judged natural" % call_keys(call))
        self.make(offender, call)

    # -- lead, tricks, verification --

    def result(self):
        a, t, rng = self.auction, self.truth, self.rng
        contract = a.contract()
        if contract is None:
            self.keys.append("OK  # passed out")
            self.keys.append("OK  # verified")
            return
        ct, risk, declarer = contract
        t.contract = contract
        if rng.random() < 0.8:
            leader = lho(declarer)
            card = lead_card(rng, self.masks, leader, strain(ct))
            t.lead = (leader, card)
            self.keys.append("%s %s  # lead" % (SEAT_KEYS[card // 13], RANK_KEYS[card % 13]))
        else:
            self.keys.append("OK  # no lead")
        tricks = played_tricks(rng, self.masks, declarer, strain(ct))
        vulnerable = law2.is_vulnerable(law2.vulnerability(self.number), declarer)
        points = score(level(ct), strain(ct), risk, vulnerable, tricks)
        t.tricks, t.score_ns = tricks, points if declarer in (0, 2) else -points
        if rng.random() < self.dispute:
            wrong = tricks + 1 if tricks < 13 else tricks - 1
            self.keys.append("%s OK BACK  # tricks; the opponents disagree" % digit_keys(wrong))
            t.flags += [("terminal", "dispute", None), ("host", "dispute", None)]
        self.keys.append("%s OK  # tricks" % digit_keys(tricks))
        self.keys.append("OK  # verified")

