"""Cards (bridge.cards) and the play engine's own API (bridge.play), without the replay tool."""

import pytest
from bridge import cards
from bridge.play import DIRECTOR, PLAY, Play

DEAL = "N:AKQJ.T98.765.432 T98.AKQJ.432.765 765.765.AKQJ.T98 432.432.T98.AKQJ"
S, W, N, E = 2, 3, 0, 1


def c(token):
    return cards.parse_card(token)


def test_every_card_round_trips_and_orders_by_rank():
    tokens = [cards.token(i) for i in range(52)]
    assert tokens[0] == "C2" and tokens[12] == "CA" and tokens[51] == "SA"
    assert [cards.parse_card(t) for t in tokens] == list(range(52))
    assert c("h10") == c("HT") and c(" sa ") == 51


@pytest.mark.parametrize("bad", ["", "S", "SX", "XA", "S1", 51, None, "SAK"])
def test_bad_card_tokens_name_the_input(bad):
    with pytest.raises(ValueError, match="not a card"):
        cards.parse_card(bad)


def test_display_russian_and_english():
    assert cards.display(c("SA"), "ru") == "\u2660\u0422"
    assert cards.display(c("HQ"), "ru") == "\u2665\u0414"
    assert cards.display(c("DT"), "en") == "\u266610"
    assert cards.display(c("CJ"), "xx") == "\u2663J"  # unknown language: English


def test_honours_are_ten_to_ace():
    assert [cards.is_honour(c("S" + r)) for r in "9TJQKA"] == [False] + [True] * 5


def test_parse_deal_four_hands_clockwise_from_the_first_seat():
    masks = cards.parse_deal("E:" + DEAL[2:])  # the same hands, now starting with East
    assert cards.hand_text(masks, E) == "AKQJ.T98.765.432"
    assert cards.hand_text(masks, S) == "T98.AKQJ.432.765"


@pytest.mark.parametrize("bad,message", [
    ("N:AKQJ.T98.765.432 T98.AKQJ.432.765 765.765.AKQJ.T98", "four hands"),
    ("N:AKQJ.T98.765.432 T98.AKQJ.432.765 765.765.AKQJ.T98 432.432.T98.AKQ2", "twice"),
    ("N:AKQJ.T98.765.43 T98.AKQJ.432.765 765.765.AKQJ.T98 432.432.T98.AKQJ", "12 cards"),
    ("X:AKQJ.T98.765.432 T98.AKQJ.432.765 765.765.AKQJ.T98 432.432.T98.AKQJ", "not a seat"),
    ("AKQJ", "seat and a colon"),
    ("N:AKQJ.T98.765 T98.AKQJ.432.765 765.765.AKQJ.T98 432.432.T98.AKQJ", "four suits"),
])
def test_bad_deals_are_refused_with_a_reason(bad, message):
    with pytest.raises(ValueError, match=message):
        cards.parse_deal(bad)


def test_unknown_hands_stay_unknown():
    masks = cards.parse_deal("N:AKQJ.T98.765.432 - - -")
    assert masks[4:] == [None] * 12
    p = Play(S, 3, masks)
    with pytest.raises(ValueError, match="another hand"):
        p.card(W, c("SA"))  # North holds it
    assert p.card(W, c("CA")) is None


def test_trick_winner_trumps_and_notrump():
    for trump, winner in ((3, E), (4, W)):
        p = Play(S, trump, cards.parse_deal(DEAL))
        for seat, t in ((W, "CA"), (N, "C2"), (E, "S8"), (S, "C8")):
            p.card(seat, c(t))
        assert p.winners[0] - 1 == winner
    # E revoked in both (he held clubs); in no trump his spade cannot win


def test_card_not_in_hand_changes_nothing():
    p = Play(S, 3, cards.parse_deal(DEAL))
    before = (bytes(p.cards), list(p.hands), p.turn)
    for seat, t in ((W, "SA"), (W, "C2"), (5, "CA")):
        with pytest.raises(ValueError):
            p.card(seat, c(t))
    assert (bytes(p.cards), list(p.hands), p.turn) == before
    with pytest.raises(ValueError):
        p.card(W, 52)


def test_irregular_lead_is_held_until_the_director():
    p = Play(S, 3, cards.parse_deal(DEAL))
    assert p.card(E, c("HA")) == "54" and p.status == DIRECTOR
    with pytest.raises(ValueError, match="director must rule"):
        p.card(W, c("CA"))  # the offender's partner cannot settle it
    assert p.director("bogus") is False
    assert p.director("accept") is True and p.status == PLAY and p.turn == S


def test_constructor_refuses_bad_arguments():
    with pytest.raises(ValueError):
        Play(4, 3)
    with pytest.raises(ValueError):
        Play(0, 5)
    with pytest.raises(ValueError):
        Play(0, 3, [0] * 15)


def test_possible_results_of_a_partial_record():
    p = Play(S, 3, cards.parse_deal(DEAL))
    for seat, t in ((W, "CA"), (N, "C2"), (E, "C5"), (S, "C8")):
        p.card(seat, c(t))
    assert p.possible_results() == list(range(13))  # West won the first trick
    p.make_claim(S, 12)
    p.director("agree")
    assert p.declarer_tricks() == 12
    p.agree(11)
    assert "79B" in p.flags
    p.agree(12)
    assert "79B" not in p.flags
