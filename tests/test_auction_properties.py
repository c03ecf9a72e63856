"""Property tests of the auction engine: any entries, from any seat, in any order.

Whatever happens at the table, the engine must not crash; what it reports as standing must
be an auction the Laws allow (checked by a plain checker below, independent of the engine);
a player obliged to pass has a non-pass call standing only through Law 37A; and the state
rebuilt from the journal equals the live state.
"""

from bridge.auction import Auction
from bridge.lawcodes import (
    EV_ACCEPT,
    EV_ARTIFICIAL,
    EV_DELIBERATE,
    EV_REJECT,
    EV_SAME_MEANING,
    EV_SIMULTANEOUS,
    EV_UNINTENDED,
)
from hypothesis import example, given, settings
from hypothesis import strategies as st

FLAGS = st.sampled_from([0] * 12 + [EV_ARTIFICIAL, EV_SAME_MEANING, EV_UNINTENDED,
                                    EV_DELIBERATE, EV_SIMULTANEOUS])
CALL = st.one_of(st.sampled_from([0] * 6 + [1, 2]), st.integers(3, 40), st.integers(0, 47))
# (offset from the player in turn, call, flags) or a director's entry.
EVENT = st.one_of(
    st.tuples(st.sampled_from([0] * 8 + [1, 2, 3]), CALL, FLAGS),
    st.sampled_from([EV_ACCEPT, EV_REJECT]),
)


def to_event(a, e):
    """Turn a generated entry into a journal event, aimed mostly at the player in turn."""
    if isinstance(e, int):
        return e
    offset, call, flags = e
    base = a.turn if a.turn is not None else (a.pending[0] if a.pending else a.dealer)
    return call | ((base + offset) & 3) << 6 | flags


def lho(s):
    return (s + 1) & 3


def check_standing(a):
    """A plain legality check of the standing calls (Laws 17-22), allowing only what the
    rulings say was let stand: insufficient bids (27A), calls out of rotation (29A, 37A)."""
    seats = [p >> 6 for p in a.calls]
    calls = [p & 63 for p in a.calls]
    expected, last_bid, last_bidder, risk, risk_seat = a.dealer, -1, -1, 0, -1
    breaks = insufficient = passes = 0
    for i, (seat, call) in enumerate(zip(seats, calls)):
        assert passes < 3 or (last_bid < 0 and passes < 4), "a call after the auction ended"
        if seat != expected:
            breaks += 1
        expected = lho(seat)
        if call == 0:
            passes += 1
            continue
        passes = 0
        if call >= 3:
            assert call <= 37, "a bid above seven stands"
            insufficient += call <= last_bid
            last_bid, last_bidder, risk = call, seat, 0
        elif call == 1:
            assert last_bid >= 0 and risk == 0 and (seat ^ last_bidder) & 1, "bad double"
            risk, risk_seat = 1, seat
        else:
            assert risk == 1 and (seat ^ risk_seat) & 1, "bad redouble"
            risk, risk_seat = 2, seat
    assert breaks <= a.rulings.count("29A") + a.rulings.count("37A")
    assert insufficient <= a.rulings.count("27A")
    ended = (last_bid >= 0 and passes == 3) or passes == 4
    after_end = a.status == "director" and a.turn is None  # 39, or a change of the last pass
    assert ended == (a.status in ("ended", "passed_out") or after_end)
    if a.status == "ended":
        assert a.contract()[0] == last_bid and a.declarer() is not None
        assert all(seats[j] == lho(seats[j - 1]) for j in range(len(seats) - 3, len(seats)))
    if a.status == "passed_out":
        assert calls == [0, 0, 0, 0]
    if a.status in ("ended", "passed_out"):
        assert a.must_pass == {} and a.turn is None


def play(entries, dealer):
    a = Auction(dealer)
    for e in entries:
        before_calls, before_must = list(a.calls), dict(a.must_pass)
        before_rulings = len(a.rulings)
        a.apply(to_event(a, e))
        new = a.rulings[before_rulings:]
        if a.calls[:len(before_calls)] == before_calls:
            for p in a.calls[len(before_calls):]:
                if p & 63 and (p >> 6) in before_must:
                    assert "37A" in new, ("a barred player's call stands", a.calls, new)
        check_standing(a)
    a.flush()
    check_standing(a)
    return a


@settings(max_examples=400, deadline=None)
@given(st.lists(EVENT, max_size=40), st.integers(0, 3))
# Found by hypothesis: S's second pass, at W's turn after E's inadmissible double was ruled
# (36B bars W), was taken as a change of S's pass; undoing it lost W's obligation.
@example([(0, 0, 0), (0, 3, 0), (0, 0, 0), (2, 1, 0), EV_REJECT, (3, 0, 0), (0, 4, 0)], 0)
# Found by hypothesis: W's pass replacing his bid under 37B closed the auction on a pass out of
# rotation (Law 34 reopened it, a rebuild), and then the obligations of 37B were laid on the
# rebuilt auction: E, barred by them, had his insufficient bid accepted (27A).
@example([(0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 3, 0), (1, 3, 0), EV_ACCEPT, (0, 0, 0),
          (0, 0, 0), (0, 0, EV_UNINTENDED), (0, 3, 0), (0, 0, 0), EV_REJECT, EV_ACCEPT], 0)
def test_any_entries_keep_the_auction_legal(entries, dealer):
    play(entries, dealer)


@settings(max_examples=300, deadline=None)
@given(st.lists(EVENT, max_size=40), st.integers(0, 3))
def test_journal_replay_rebuilds_the_same_state(entries, dealer):
    a = play(entries, dealer)
    b = Auction.from_events(dealer, a.events)
    assert b.snapshot() == a.snapshot()


@settings(max_examples=200, deadline=None)
@given(st.lists(EVENT, max_size=30), st.integers(0, 3), st.data())
def test_replay_of_any_prefix_matches(entries, dealer, data):
    """The terminal may lose power after any event: the journal so far rebuilds that state."""
    a = Auction(dealer)
    cut = data.draw(st.integers(0, len(entries)))
    for e in entries[:cut]:
        a.apply(to_event(a, e))
    assert Auction.from_events(dealer, a.events).snapshot() == a.snapshot()


def test_call_returns_law_codes():
    a = Auction(0)
    assert a.call(0, 8) is None  # 2H
    assert a.call(1, 5) == "27"  # 1H insufficient
    assert a.call(3, 0) == "refused"  # W may not call while E's bid awaits the director
    assert a.reject() and a.call(1, 10) is None and a.rulings == ["27B1a"]
