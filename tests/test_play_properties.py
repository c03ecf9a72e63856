"""Properties of the play engine over random deals, with an independent referee.

The referee here deals, plays and counts tricks by itself (sets of cards, its own trick
winner); the engine only sees the events, through the whole-board replay tool:
- a random legal play never raises an irregularity, and the result is the referee's count;
- one revoke inserted at random is always found at its trick and seat, and the tricks moved
  are those of Law 64 (64A1/64A2, none under 64B1, 64B3 for dummy, 64B6 in the 12th trick);
- without a hand record the same revoke is found exactly when the offender later plays the
  suit he failed to follow, with the same transfer.
"""

from bridge import cards
from bridge.board_replay import replay_scenario
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from trick_referee import winner

SEATS = "NESW"


def deal_text(hands):
    parts = []
    for seat in range(4):
        suits = []
        for suit in (3, 2, 1, 0):
            ranks = sorted((c % 13 for c in hands[seat] if c // 13 == suit), reverse=True)
            suits.append("".join(cards.RANKS[r] for r in ranks))
        parts.append(".".join(suits))
    return "N:" + " ".join(parts)


def referee(rng, declarer, trump, revoke_trick=None):
    """Deal and play a board at random; one revoke in revoke_trick if anyone can make it.

    Returns (deal, events, winners, revoke) with revoke = (trick, seat, suit) or None.
    """
    pack = list(range(52))
    rng.shuffle(pack)
    hands = [set(pack[i * 13:i * 13 + 13]) for i in range(4)]
    text = deal_text(hands)
    leader = (declarer + 1) & 3
    events, winners, revoke = [], [], None
    for t in range(13):
        trick = {}
        for k in range(4):
            seat = (leader + k) & 3
            held = sorted(hands[seat])
            legal = held
            if k:
                led = trick[leader] // 13
                follow = [c for c in held if c // 13 == led]
                others = [c for c in held if c // 13 != led]
                legal = follow or held
                if t == revoke_trick and revoke is None and follow and others:
                    legal, revoke = others, (t, seat, led)
            c = rng.choice(legal)
            hands[seat].discard(c)
            trick[seat] = c
            events.append({"seat": SEATS[seat], "card": cards.token(c)})
        leader = winner(trick, leader, trump)
        winners.append(leader)
    return text, events, winners, revoke


def law64(revoke, winners, dummy):
    """Tricks moved by Law 64 for the one revoke, from the referee's own trick winners."""
    t, seat = revoke[0], revoke[1]
    off = seat & 1
    later = any(w & 1 == off for w in winners[t + 1:])
    if t == 11 or seat == dummy:
        return 0  # 64B6, 64B3
    if winners[t] == seat:
        return 2 if later else 1  # 64A1
    return 1 if (winners[t] & 1 == off or later) else 0  # 64A2, else 64B1


boards = st.tuples(st.randoms(use_true_random=False), st.integers(0, 3), st.integers(0, 4))


def replay(text, events, declarer, trump, with_deal=True):
    obj = {"id": "p", "contract": "1" + ("C", "D", "H", "S", "NT")[trump],
           "declarer": SEATS[declarer], "events": events}
    if with_deal:
        obj["deal"] = text
    return replay_scenario(obj)


@settings(max_examples=300, deadline=None)
@given(boards)
def test_random_legal_play_never_flags_an_irregularity(board):
    rng, declarer, trump = board
    text, events, winners, _ = referee(rng, declarer, trump)
    for with_deal in (True, False):
        out = replay(text, events, declarer, trump, with_deal)
        assert out["status"] == "ended" and out["pending"] is None
        assert out["revokes"] == [] and out["rulings"] == [] and out["flags"] == []
        assert out["refused"] == []
        assert out["result"] == sum(1 for w in winners if w & 1 == declarer & 1)
        assert [t["winner"] for t in out["tricks"]] == [SEATS[w] for w in winners]


@settings(max_examples=300, deadline=None)
@given(boards, st.integers(0, 11))
def test_inserted_revoke_always_found_and_transfer_is_law_64(board, k):
    rng, declarer, trump = board
    text, events, winners, revoke = referee(rng, declarer, trump, k)
    assume(revoke is not None)
    t, seat, suit = revoke
    moved = law64(revoke, winners, (declarer + 2) & 3)
    won = sum(1 for w in winners if w & 1 == declarer & 1)
    expected = won + (moved if seat & 1 != declarer & 1 else -moved)

    out = replay(text, events, declarer, trump)
    assert [(r["trick"], r["seat"], r["suit"]) for r in out["revokes"]] == \
        [(t + 1, SEATS[seat], "CDHS"[suit])]
    assert out["revokes"][0]["established"] and out["revokes"][0]["transfer"] == moved
    assert out["result"] == expected and out["pending"] is None and out["refused"] == []

    blind = replay(text, events, declarer, trump, with_deal=False)
    plays_suit_later = any(e["seat"] == SEATS[seat] and e["card"][0] == "CDHS"[suit]
                           for e in events[(t + 1) * 4:])
    if plays_suit_later:
        assert [(r["trick"], r["seat"], r["inferred"]) for r in blind["revokes"]] == \
            [(t + 1, SEATS[seat], True)]
        assert blind["result"] == expected
    else:
        assert blind["revokes"] == [] and blind["result"] == won
