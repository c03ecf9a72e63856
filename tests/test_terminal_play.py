"""Play recording on the terminal (setting `play`): every card by seat checked against the
hand record, irregularities of the play for the director with the options of the Laws, claims,
the result filled in from the play (Law 64 transfers included), 79B, and resuming mid-play.

Results are checked against `bridge.board_replay` fed the same cards as a board log: the
replay tool's own reading of the Laws, independent of the terminal's records."""

import json

import pytest
from bridge.board_replay import replay_scenario
from bridge.cards import token
from terminal_support import (  # noqa: F401 (card_keys, legal_card: for the other tests)
    PIN,
    RANK_KEYS,
    SUIT_KEYS,
    Terminal,
    card_keys,
    impossible,
    legal_card,
    lowest,
    make_config,
)

PINKEYS = " ".join(PIN)
SEATS = "NESW"


def revoke_card(play, seat):
    """A card of another suit while seat holds the suit led, or None."""
    lead = play.cards[play.trick * 4 + play.leaders[play.trick]]
    led = (lead - 1) // 13
    if not lead or not play.holds(seat, led):
        return None
    for suit in range(4):
        if suit != led and play.holds(seat, suit):
            return suit * 13 + lowest(play.holds(seat, suit))
    return None


def current(term):
    return term.app.session.current


def play_of(term):
    return current(term).get_play()


def to_play(term):
    """Round 1 from the configuration; board 1 (dealer N): 4S by South, West to lead."""
    term.press("OK OK OK PASS PASS 4 S PASS PASS PASS")
    return term


def play_on(term, n):
    """n legal cards, each in turn."""
    for _ in range(n):
        term.press(card_keys(legal_card(play_of(term))))


def replay_result(term, deal):
    """The result bridge.board_replay gives for the terminal's records of board 1."""
    events = [{"seat": "N", "call": "P"}, {"seat": "E", "call": "P"},
              {"seat": "S", "call": "4S"}, {"seat": "W", "call": "P"},
              {"seat": "N", "call": "P"}, {"seat": "E", "call": "P"}]
    for kind, d in term.records():
        if kind == "card":
            events.append({"seat": SEATS[d["s"]], "card": token(d["cd"])})
        elif kind == "claim":
            events.append({"claim": SEATS[d["s"]], "tricks": d["tr"]})
            events.append({"director": "agree" if d["ok"] else "dispute"})
        elif kind == "pdir":
            ev = {"director": d["d"]}
            if "tr" in d:
                ev["tricks"] = d["tr"]
            events.append(ev)
    scenario = {"id": "t", "dealer": "N", "vulnerable": "None", "events": events}
    if deal:
        scenario["deal"] = deal
    out = replay_scenario(json.loads(json.dumps(scenario)))
    assert out["refused"] == [], out
    return out


def check_screen(term):
    lines = term.app.lines()
    assert len(lines) == 7 and all(len(x) <= 21 for x in lines), lines


@pytest.fixture
def config():
    return make_config(play=1)


@pytest.fixture
def term(tmp_path, config):
    return Terminal(tmp_path, config)


def test_legal_play_to_the_end_fills_the_result(term, config):
    to_play(term)
    assert "Ход: З" in term.text() and "Взятка 1" in term.text()
    for _ in range(52):
        check_screen(term)
        term.press(card_keys(legal_card(play_of(term))))
    cards = [d for k, d in term.records() if k == "card"]
    assert len(cards) == 52 and len({d["cd"] for d in cards}) == 52
    expected = replay_result(term, config["boards"][1]["pbn"])
    assert expected["status"] == "ended" and expected["flags"] == []
    assert "Розыгрыш: %d взяток" % expected["result"] in term.text()
    term.press("OK")
    assert term.records()[-1] == ("res", {"b": 1, "tr": expected["result"],
                                          "sc": expected["score_ns"]})
    term.press("OK OK")  # verified; next board
    assert "Сд2 " in term.text()
    assert impossible(term.records(), config) == []


def test_impossible_cards_are_refused_with_the_reason(term):
    to_play(term)
    deal = current(term).deal
    west_spades = deal[3 * 4 + 3]
    missing = next(r for r in range(13) if not west_spades >> r & 1)
    n = len(term.records())
    term.press("S " + RANK_KEYS[missing])
    assert len(term.records()) == n and "У З нет ♠" in term.text()
    lead = legal_card(play_of(term))
    term.press(card_keys(lead))
    term.press("MENU C " + card_keys(lead))  # North "plays" West's lead card again
    assert len(term.records()) == n + 1
    assert "У С нет" in term.text()
    term.press("MENU S " + card_keys(lead))  # West's lead card again
    assert len(term.records()) == n + 1 and "уже сыграна" in term.text()


def test_without_a_hand_record_a_card_played_twice_is_refused(tmp_path):
    config = make_config(play=1)
    del config["boards"]
    t = to_play(Terminal(tmp_path, config))
    t.press("S 2 C 2 C 3 C 4")  # West leads the spade 2 and wins it (spades are trumps)
    n = len(t.records())
    t.press("H 2")
    t.press("MENU H S 2")  # South "plays" the spade 2
    assert "уже сыграна" in t.text() and len(t.records()) == n + 1


def test_a_revoke_is_flagged_and_its_transfer_is_in_the_result(term, config):
    to_play(term)
    found = None
    for _ in range(40):
        play = play_of(term)
        lead = play.cards[play.trick * 4 + play.leaders[play.trick]]
        if lead and play.turn != play.declarer and play.turn != (play.declarer + 2) % 4:
            bad = revoke_card(play, play.turn)
            if bad is not None:
                found = (play.turn, bad)
                break
        play_on(term, 1)
    assert found, "no chance for a defender to revoke"
    term.press(card_keys(found[1]))
    assert "Пр.61 Фальшренонс" in term.text()
    assert term.records()[-1] == ("flag", {"b": 1, "law": "61", "why": "irregular"})
    check_screen(term)
    term.press("OK")  # the play goes on
    assert "Ход:" in term.text()
    term.press("DIR %s OK" % PINKEYS)
    assert "2 решение: пр.61" in term.text()  # the director may still have it corrected
    term.press("BACK")
    while play_of(term).status == "play":
        play_on(term, 1)
    play = play_of(term)
    moved = play.transfers()
    expected = replay_result(term, config["boards"][1]["pbn"])
    assert expected["revokes"][0]["established"] and "64C" in expected["flags"]
    assert expected["result"] == play.declarer_tricks() == \
        play.won(0) + sum(n for _, n, _ in moved)  # South declares: NS tricks + transfer
    assert moved[0][1] == expected["revokes"][0]["transfer"]
    assert "Розыгрыш: %d взяток" % expected["result"] in term.text()
    term.press("OK")
    assert term.records()[-1][1]["tr"] == expected["result"]


def test_a_revoke_corrected_by_the_director(term):
    to_play(term)
    play_on(term, 1)  # West leads; North (dummy) to play
    for _ in range(40):
        play = play_of(term)
        if play.turn == 1 and revoke_card(play, 1) is not None:
            break
        play_on(term, 1)
    bad = revoke_card(play_of(term), 1)
    term.press(card_keys(bad) + " OK")
    term.press("DIR %s OK 2" % PINKEYS)
    assert "Исправить" in term.text()
    term.press("1 OK")
    assert term.records()[-1] == ("pdir", {"b": 1, "d": "correct"})
    play = play_of(term)
    assert play.revokes[0][3] & 4  # corrected: the card went back (62B) and is a penalty card
    assert "Штр.: В" in term.text() and play.turn == 1


def test_lead_out_of_turn_gives_the_declarer_his_options(term):
    to_play(term)
    east = current(term).deal
    cd = 13 * 2 + lowest(east[1 * 4 + 2]) if east[1 * 4 + 2] else None
    assert cd is not None
    term.press("MENU D " + card_keys(cd))  # East leads: it is West's lead
    assert term.records()[-2] == ("card", {"b": 1, "s": 1, "cd": cd})
    assert term.records()[-1] == ("flag", {"b": 1, "law": "54", "why": "irregular"})
    assert "ДИРЕКТОР" in term.text() and "Пр.54" in term.text() and term.app.alert()
    n = len(term.records())
    term.press("C 2 S 2")  # nobody plays until the director rules
    assert len(term.records()) == n
    term.press("DIR %s OK 2" % PINKEYS)
    text = term.text()
    assert "Пр.54 В:" in text and "1 Разыгрывающий" in text
    term.press("DOWN DOWN DOWN DOWN")
    assert "3 Ход взят назад" in term.text() or "взят назад" in term.text()
    term.press("3 OK")  # 54D: the lead goes back, a major penalty card
    assert term.records()[-2:] == [("pdir", {"b": 1, "d": "reject"}),
                                   ("flag", {"b": 1, "law": "50D2", "why": "irregular"})]
    assert "Пр.50D2 З" in term.text()  # West leads: the declarer's lead options come next
    term.press("1")
    assert "Масть: ♣♦♥♠" in term.text()
    term.press("H OK")  # 50D2a: West must lead a heart; East's card is picked up
    assert term.records()[-1] == ("pdir", {"b": 1, "d": "require", "su": 2})
    assert not term.app.alert() and "Ход: З" in term.text()
    assert play_of(term).lead_rule == (3, "require", 2)


def test_lead_out_of_turn_accepted_declarer_plays_second(term):
    to_play(term)
    deal = current(term).deal
    cd = lowest(deal[1 * 4 + 0])  # East's lowest club
    term.press("MENU D " + card_keys(cd))
    term.press("DIR %s OK 2 1 OK" % PINKEYS)  # 54B: accepted
    assert term.records()[-1] == ("pdir", {"b": 1, "d": "accept"})
    assert play_of(term).turn == 2 and "Ход: Ю" in term.text()


def test_claim_agreed_fills_the_result(term, config):
    to_play(term)
    play_on(term, 8)  # two tricks
    term.press("MENU 1")
    assert "Претензия" in term.text() and "Заявляет: Ю" in term.text()
    term.press("1 4")  # 14 of 11: the 4 is refused
    assert "Взяток из 11: 1" in term.text()
    term.press("BACK 9 OK")
    assert "Противники согласны?" in term.text()
    term.press("OK")
    assert term.records()[-1] == ("claim", {"b": 1, "s": 2, "tr": 9, "ok": 1})
    expected = replay_result(term, config["boards"][1]["pbn"])
    assert expected["result"] == play_of(term).won(0) + 9
    assert "Розыгрыш: %d взяток" % expected["result"] in term.text()


def test_claim_in_the_middle_of_a_trick_is_refused(term):
    to_play(term)
    play_on(term, 2)
    n = len(term.records())
    term.press("MENU 1 5 OK")
    assert "Доиграйте взятку" in term.text() and len(term.records()) == n


def test_claim_disputed_goes_to_the_director_with_the_remaining_hands(term, config):
    to_play(term)
    play_on(term, 4)
    term.press("MENU 1 C 1 2 OK BACK")  # North claims 12: disputed
    assert term.records()[-2:] == [("claim", {"b": 1, "s": 0, "tr": 12, "ok": 0}),
                                   ("flag", {"b": 1, "law": "70", "why": "irregular"})]
    assert "Пр.70" in term.text() and term.app.alert()
    term.press("DIR %s OK 2" % PINKEYS)
    assert "Остаток:" in term.text()
    hands = play_of(term).remaining_hands()
    term.press("DOWN")
    assert ("С " + hands[0])[:21] in term.text()
    term.press("1 1 0 OK")  # the director rules 10 of the 12 for NS
    assert term.records()[-1] == ("pdir", {"b": 1, "d": "rule", "tr": 10})
    expected = replay_result(term, config["boards"][1]["pbn"])
    assert expected["result"] == play_of(term).won(0) + 10
    assert "Розыгрыш: %d взяток" % expected["result"] in term.text()
    assert not term.app.alert()


def test_tricks_other_than_the_play_are_a_79b_flag(term):
    to_play(term)
    play_on(term, 4)
    term.press("MENU 1 1 2 OK OK")  # South claims all 12 left: agreed
    result = play_of(term).declarer_tricks()
    term.press("DOWN OK")
    assert term.records()[-2][1]["tr"] == result - 1
    assert term.records()[-1] == ("flag", {"b": 1, "law": "79B", "why": "dispute"})


def test_resume_mid_play_and_mid_irregularity(term, config):
    to_play(term)
    play_on(term, 8)
    before = term.text()
    state = bytes(play_of(term).cards)
    term.start()
    assert term.text() == before and bytes(play_of(term).cards) == state
    play = play_of(term)
    seat = (play.turn + 1) & 3  # a lead out of turn
    term.press("MENU " + "CDHS"[seat] + " " + card_keys(legal_card(play, seat)))
    assert "ДИРЕКТОР" in term.text()
    term.start()
    assert "ДИРЕКТОР" in term.text() and term.app.alert()
    assert term.app.session.skipped == 0


def test_skipping_the_play_goes_to_the_tricks_and_back(term):
    to_play(term)
    play_on(term, 3)
    term.press("MENU 5")
    assert "Взятки разыгрывающего" in term.text()
    term.press("BACK")
    assert "Взятка 1" in term.text() and "Ход: Ю" in term.text()


def test_play_screens_in_english(term):
    to_play(term)
    term.press("MENU 3")
    play_on(term, 1)
    assert "Trick 1" in term.text() and "To play: N" in term.text()
    term.press("MENU")
    assert "1 claim" in term.text()
