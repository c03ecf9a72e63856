"""Simulated bidders: what each player at the table would like to call now.

Natural and simple, but the shape of real auctions: an opening (one of a suit, 1NT 15-17,
2NT 20-21) or a pass, overcalls and take-out doubles, raises towards what the side expects to
make (hands.target: a part score, a game, now and then a slam), penalty doubles of opponents
who overreach, the odd sacrifice and redouble. The players peek at their partner's hand to
judge the side's target (a simulation, not a bidding system). A call is only a wish: the
caller checks it against the Laws engine before it is made (board.py).
"""

from bridge.calls import DOUBLE, FIRST_BID, MAX_LEVEL, NT, PASS, REDOUBLE, bid, level, strain

from host_sync.demo.hands import balanced, length, longest, points, target, tricks


def cheapest(last, strain_):
    """The lowest bid in `strain_` above the bid `last` (-1: none yet), or None above 7NT."""
    for lvl in range(1, MAX_LEVEL + 1):
        b = bid(lvl, strain_)
        if b > last:
            return b
    return None


class Bidders:
    """The four players of one board."""

    def __init__(self, rng, masks, board):
        self.rng = rng
        self.masks = masks
        self.goal = [target(masks, side, board) for side in (0, 1)]

    def call(self, a, seat):
        """The call `seat` would make on auction `a` (bridge.auction.Auction)."""
        side = seat & 1
        last = a.last_bid
        ours = last >= 0 and (a.last_bidder & 1) == side
        if last >= 0 and not ours and a.risk == 0 and self._penalty(a, seat):
            return DOUBLE
        if ours and a.risk == 1 and self._redouble(a):
            return REDOUBLE
        goal = self.goal[side]
        if goal is None:
            return PASS
        goal_bid = bid(goal[0], goal[1])
        if last >= goal_bid:
            return PASS if ours else self._sacrifice(a, side, goal[1])
        if not self._side_has_bid(a, side):
            return self._first_bid(a, seat, goal)
        step = cheapest(last, goal[1])
        if step is None or step > goal_bid:
            return PASS
        if goal[0] >= 4 and self.rng.random() < 0.6:
            return goal_bid  # straight to game (or slam)
        return step

    # -- the side's first bid --

    def _side_has_bid(self, a, side):
        return any(packed & 63 >= FIRST_BID and (packed >> 6) & 1 == side
                   for packed in a.calls)

    def _first_bid(self, a, seat, goal):
        m, rng = self.masks, self.rng
        hcp = points(m, seat)
        suit = longest(m, seat)
        long_ = length(m, seat, suit)
        if a.last_bid < 0:  # an opening
            if balanced(m, seat) and 15 <= hcp <= 17:
                return bid(1, NT)
            if balanced(m, seat) and 20 <= hcp <= 21:
                return bid(2, NT)
            if hcp >= 12 or (hcp >= 10 and long_ >= 6):
                return bid(1, suit)
            return PASS
        if hcp >= 8 and long_ >= 5:  # an overcall
            return cheapest(a.last_bid, suit) or PASS
        if hcp >= 12 and rng.random() < 0.5 and a.risk == 0:
            return DOUBLE  # take-out
        if hcp >= 10:
            return cheapest(a.last_bid, goal[1]) or PASS
        return PASS

    # -- doubles and sacrifices --

    def _shortfall(self, a):
        """Tricks the last bid's side is expected to fall short of its contract by."""
        need = level(a.last_bid) + 6
        return need - tricks(self.masks, a.last_bidder & 1, strain(a.last_bid))

    def _penalty(self, a, seat):
        if points(self.masks, seat) < 8 or self._shortfall(a) < 1.5:
            return False
        return self.rng.random() < (0.6 if level(a.last_bid) >= 3 else 0.15)

    def _redouble(self, a):
        return self._shortfall(a) < -1.0 and self.rng.random() < 0.5

    def _sacrifice(self, a, side, strain_):
        """Bid on over the opponents' making game, cheaply, now and then."""
        step = cheapest(a.last_bid, strain_)
        if step is None or level(a.last_bid) < 4 or self._shortfall(a) > 0:
            return PASS
        if level(step) + 6 - tricks(self.masks, side, strain_) > 3:
            return PASS
        return step if self.rng.random() < 0.3 else PASS

