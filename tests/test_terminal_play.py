"""Play recording on the terminal (setting `play`): every card by seat checked against the
hand record, irregularities of the play for the director with the options of the Laws, claims,
the result filled in from the play (Law 64 transfers included), 79B, and resuming mid-play.

Results are checked against `bridge.board_replay` fed the same cards as a board log: the
replay tool's own reading of the Laws, independent of the terminal's records."""

import json

import pytest
from bridge.board_replay import replay_scenario
from bridge.cards import parse_card, token
from terminal.config import suit_masks
from terminal_support import (  # noqa: F401 (card_keys, legal_card: for the other tests)
    PIN,
    RANK_KEYS,
    SUIT_KEYS,
    Terminal,
    board_entry,
    card_keys,
    impossible,
    legal_card,
    lowest,
    make_config,
)
from test_play_laws import DEAL as LAWS_DEAL
from test_play_laws import events

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


AUCTION = [{"seat": "N", "call": "P"}, {"seat": "E", "call": "P"},
           {"seat": "S", "call": "4S"}, {"seat": "W", "call": "P"},
           {"seat": "N", "call": "P"}, {"seat": "E", "call": "P"}]  # to_play's


def replay(evs, deal):
    """bridge.board_replay's reading of board 1 (to_play's auction, then evs)."""
    scenario = {"id": "t", "dealer": "N", "vulnerable": "None", "events": AUCTION + evs}
    if deal:
        scenario["deal"] = deal
    return replay_scenario(json.loads(json.dumps(scenario)))


def replay_result(term, deal):
    """The result bridge.board_replay gives for the terminal's records of board 1."""
    evs = []
    for kind, d in term.records():
        if kind == "card":
            evs.append({"seat": SEATS[d["s"]], "card": token(d["cd"])})
        elif kind == "claim":
            evs.append({"concede" if d.get("con") else "claim": SEATS[d["s"]],
                        "tricks": d["tr"]})
            evs.append({"director": ("dispute", "agree", "object")[d["ok"]]})
        elif kind == "pdir":
            ev = {"director": d["d"]}
            for field, name in (("tr", "tricks"), ("su", "suit"), ("s", "seat"),
                                ("cd", "card"), ("t", "trick")):
                if field in d:
                    value = d[field]
                    ev[name] = ("CDHS"[value] if field == "su" else SEATS[value]
                                if field == "s" else token(value) if field == "cd"
                                else value + 1 if field == "t" else value)
            evs.append(ev)
    out = replay(evs, deal)
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
    deal = suit_masks(current(term).deal)
    west_spades = deal[3 * 4 + 3]
    missing = next(r for r in range(13) if not west_spades >> r & 1)
    n = len(term.records())
    term.press("S " + RANK_KEYS[missing])  # journaled, in words that name nobody's cards
    assert term.records()[n:] == [("rc", {"b": 1, "s": 3, "cd": 39 + missing})]
    assert "Карта не принята" in term.text()
    lead = legal_card(play_of(term))
    term.press(card_keys(lead))
    term.press("MENU C " + card_keys(lead))  # North "plays" West's lead card
    assert term.records()[n + 2:] == [("rc", {"b": 1, "s": 0, "cd": lead})]
    assert "Карта не принята" in term.text()
    term.press("MENU S " + card_keys(lead))  # West's lead card again
    assert len(term.records()) == n + 3 and "уже сыграна" in term.text()


def refused_screen(term, cd):
    """The screen after West (to lead) is given card cd, and what was journaled."""
    n = len(term.records())
    term.press(card_keys(cd))
    return term.text(), term.records()[n:]


def test_a_refused_card_names_nobody_and_every_refusal_reads_the_same(tmp_path, config):
    """Law 16C: the keypad must not tell where a card lies. Every card West was not dealt
    (each held by partner, an opponent or dummy-to-be) is refused with the same screen, to
    the pixel: first on a fresh board, then one after another on one board, where the third
    and every later one call the director instead (the same screen for each of those)."""
    def fresh(name):
        (tmp_path / name).mkdir()
        return to_play(Terminal(tmp_path / name, config))

    term = fresh("one")
    deal = suit_masks(current(term).deal)
    west = [s * 13 + r for s in range(4) for r in range(13) if deal[12 + s] >> r & 1]
    others = [cd for cd in range(52) if cd not in west]
    assert len(west) == 13 and len(others) == 39
    firsts = set()
    for i, cd in enumerate(others[::3]):  # a dozen cards, each the first refusal of a board
        text, recs = refused_screen(fresh(str(i)), cd)
        assert recs == [("rc", {"b": 1, "s": 3, "cd": cd})]
        firsts.add(text)
    assert len(firsts) == 1 and "Карта не принята" in text and "директора" not in text
    screens = [refused_screen(term, cd) for cd in others]
    assert [r for _text, r in screens] == [[("rc", {"b": 1, "s": 3, "cd": cd})]
                                          for cd in others]
    assert {screens[0][0], screens[1][0]} == firsts
    called = {text for text, _r in screens[2:]}
    assert len(called) == 1 and "Вызовите директора" in called.pop()
    assert term.app.alert() and term.app.session.flags == [(1, "16C", "card_refusals")]
    from terminal.director_lists import FlagsScreen  # the director's list on the terminal

    assert FlagsScreen("").window(term.app) == ["Сд1 Пр.16C отказы"]
    term.start()  # after a power cut: the same count, the same single flag
    assert term.app.session.current.refused == 39
    assert term.app.session.flags == [(1, "16C", "card_refusals")]
    term.press(card_keys(west[0]))  # West's own card is still taken
    assert term.records()[-1] == ("card", {"b": 1, "s": 3, "cd": west[0]})


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
    east = suit_masks(current(term).deal)
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
    assert "Пр.54 В:" in text and "1 принять ход" in text  # a short line each
    term.press("DOWN DOWN DOWN DOWN")
    assert "3 назад: штрафная" in term.text()
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
    deal = suit_masks(current(term).deal)
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


def test_a_claim_in_the_middle_of_a_trick_counts_that_trick(term):
    """68: a claim concerns «взяткам, отличным от текущей»; made in the middle of a trick
    while a later trick remains, the current one is among the remaining it claims."""
    to_play(term)
    play_on(term, 2)
    term.press("MENU 1 C 1 3 OK OK")  # North claims all 13: East agrees
    assert term.records()[-1][0] == "claim" and term.records()[-1][1]["tr"] == 13
    assert play_of(term).status == "ended"


def test_a_claim_in_the_middle_of_the_last_trick_is_refused(term):
    to_play(term)
    play_on(term, 49)  # the 13th trick is led
    n = len(term.records())
    term.press("MENU 1 1 OK")
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


def test_a_concession_agreed_gives_the_tricks_to_the_opponents(term, config):
    to_play(term)
    play_on(term, 8)  # two tricks: 11 left
    term.press("MENU 1 UP")
    assert "Уступка" in term.text() and "Уступает: Ю" in term.text()
    term.press("2 OK")  # South concedes 2 of the 11
    assert "Взяток стороне EW: 2" in term.text() and "68Б2" not in term.text()
    check_screen(term)
    n = len(term.records())
    term.press("X")  # declarer's concession: no partner's objection to enter (68B2)
    assert len(term.records()) == n
    term.press("OK")
    assert term.records()[-1] == ("claim", {"b": 1, "s": 2, "tr": 2, "ok": 1, "con": 1})
    expected = replay_result(term, config["boards"][1]["pbn"])
    assert expected["result"] == play_of(term).won(0) + 9 == play_of(term).declarer_tricks()
    assert "Розыгрыш: %d взяток" % expected["result"] in term.text()


def test_a_defenders_concession_his_partner_objects_to_is_void_and_the_play_goes_on(term,
                                                                                       config):
    to_play(term)
    play_on(term, 4)
    leader = play_of(term).turn
    term.press("MENU 3 MENU 1 D UP 1 1 OK")  # in English: East concedes the 11 left...
    assert "Concedes: E" in term.text() and "X objection 68B2" in term.text()
    assert "Tricks to NS: 11" in term.text()
    check_screen(term)
    term.press("X")  # ...and West objects at once
    assert term.records()[-2:] == [("claim", {"b": 1, "s": 1, "tr": 11, "ok": 2, "con": 1}),
                                   ("flag", {"b": 1, "law": "68B2", "why": "irregular"})]
    assert "Call the director" in term.text() and term.app.alert()
    p = play_of(term)
    assert p.status == "play" and p.claim is None and p.turn == leader
    assert "68B2" in p.rulings
    play_on(term, 4)  # the play goes on
    assert replay_result(term, config["boards"][1]["pbn"])["result"] is None


def test_a_defenders_claim_of_fewer_than_all_concedes_the_rest_and_partner_may_void_it(term):
    to_play(term)
    play_on(term, 4)  # 12 left
    term.press("MENU 1 D 9 OK")  # East claims 9 of the 12: he concedes 3 (68B1)
    assert "X возражение 68Б2" in term.text()
    term.press("X")
    assert term.records()[-2:] == [("claim", {"b": 1, "s": 1, "tr": 9, "ok": 2}),
                                   ("flag", {"b": 1, "law": "68B2", "why": "irregular"})]
    assert play_of(term).status == "play" and "Вызовите директора" in term.text()


def test_a_play_record_the_engine_refuses_is_refused_alike_after_a_power_cut(term):
    """A record no screen writes (the declarer's concession voided, a card for a board
    not started): skipped live, and skipped again when the journal is replayed, keeping
    nothing and making no board."""
    to_play(term)
    play_on(term, 4)
    plays = len(current(term).plays)
    term.app.commit("claim", {"b": 1, "s": 2, "tr": 3, "ok": 2, "con": 1})
    term.app.commit("card", {"b": 9, "s": 0, "cd": 0})
    for _ in range(2):
        session = term.app.session
        assert session.skipped == 2 and len(session.boards[1].plays) == plays
        assert sorted(session.boards) == [1] and play_of(term).status == "play"
        term.start()


def test_a_disputed_concession_is_ruled_for_the_side_that_conceded(term, config):
    to_play(term)
    play_on(term, 8)  # 11 left
    term.press("MENU 1 UP 2 OK BACK")  # South concedes 2 of them: disputed
    assert term.records()[-2:] == [("claim", {"b": 1, "s": 2, "tr": 2, "ok": 0, "con": 1}),
                                   ("flag", {"b": 1, "law": "70", "why": "irregular"})]
    term.press("DIR %s OK 2 1" % PINKEYS)
    assert "Взяток стороне NS: _" in term.text()
    check_screen(term)
    term.press("1 0 OK")  # the director gives North-South 10 of the 11
    assert term.records()[-1] == ("pdir", {"b": 1, "d": "rule", "tr": 10})
    expected = replay_result(term, config["boards"][1]["pbn"])
    assert expected["result"] == play_of(term).won(0) + 10 == play_of(term).declarer_tricks()


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


# -- every option of the director on the play, through the keys --------------------------------
# The situations are tests/test_play_laws.py's, on its deal (South 4S, West leads), in its
# notation; each is entered through the terminal's keys, then the option is chosen on the
# director's screen with the keys of what it needs. The record it writes must be the entry
# the notation names, and the engine's state what bridge.board_replay makes of the notation.

PAIRS_51A = "E:HA d:reject d:none E:HK d:reject d:none W:H2 N:H8 E:HK"  # 2 penalty cards
FAILURE_52 = "E:HA d:reject d:none W:H2 N:H8 E:HJ"  # HJ, not the penalty card HA
LOOT_53 = "W:CA N:C2 E:C5 S:C8 E:HA"  # West won trick 1; East leads
LOOT_55 = "W:D8 N:D5 E:D2 S:DA N:SA"  # South won trick 1; dummy leads
LATER_62C2 = "W:S2 N:SA E:S8 S:S5 N:H8 E:C5 S:H5 W:H2 d:correct d:withdraw"
CLAIMED = "W:CA N:C2 E:C5 S:C8 S:claim=10 d:agree"  # 11 remaining: 1 left to the defence
REVOKE_CLAIMED = "W:CA N:C2 E:HJ S:C8 S:claim=12 d:agree"  # East's revoke, established
SHORT = "W:CA N:C2 E:C5 W:CK d:omit N:C3 E:C6 S:C9 S:claim=11 d:agree"  # S missed trick 1
OPTIONS = [
    # (situation, the entry in the notation, keys on the ruling screen, the record's fields)
    ("E:HA", "d:accept", "1", {"d": "accept"}),
    ("E:HA", "d:spread", "2", {"d": "spread"}),
    ("E:HA", "d:reject", "3", {"d": "reject"}),
    ("N:SA", "d:reject", "1", {"d": "reject"}),  # 54E
    (LOOT_53, "d:accept", "1", {"d": "accept"}),
    (LOOT_53, "d:reject", "2", {"d": "reject"}),
    (LOOT_55, "d:accept", "1", {"d": "accept"}),
    (LOOT_55, "d:reject", "2", {"d": "reject"}),
    ("W:CA N:C2 W:CK", "d:highest", "1", {"d": "highest"}),
    ("W:CA N:C2 W:CK", "d:lowest", "2", {"d": "lowest"}),
    ("W:CA N:C2 W:CK", "d:forbid:D", "3 D", {"d": "forbid", "su": 1}),
    (PAIRS_51A, "d:accept", "1", {"d": "accept"}),
    (PAIRS_51A, "d:designate:card=HA", "2 H S", {"d": "designate", "cd": parse_card("HA")}),
    (FAILURE_52, "d:accept", "1", {"d": "accept"}),
    (FAILURE_52, "d:reject", "2", {"d": "reject"}),
    ("E:HA d:reject", "d:require:H", "1 H", {"d": "require", "su": 2}),
    ("E:HA d:reject", "d:forbid:H", "2 H", {"d": "forbid", "su": 2}),
    ("E:HA d:reject", "d:none", "3", {"d": "none"}),
    ("W:CA N:C2 E:C5 W:CK", "d:supply:card=C8", "1 C 8", {"d": "supply", "cd": 6}),
    ("W:CA N:C2 E:C5 W:CK", "d:omit", "2", {"d": "omit"}),
    ("W:CA N:H8 E:C5 S:C8 d:correct", "d:withdraw", "1", {"d": "withdraw"}),  # 62C1
    ("W:CA N:H8 E:C5 S:C8 d:correct", "d:keep", "2", {"d": "keep"}),
    (LATER_62C2, "d:withdraw", "1", {"d": "withdraw"}),
    (LATER_62C2, "d:keep", "2", {"d": "keep"}),
    ("W:CA N:C2 E:C5 S:C8 S:claim=12 d:dispute", "d:rule=9", "1 9", {"d": "rule", "tr": 9}),
    ("W:CA N:H8", "d:correct", "1", {"d": "correct"}),  # 62B: nothing held, a revoke
    ("W:CA N:C2 E:C5 S:C8", "d:object=3:seat=W", "1 S 3", {"d": "object", "s": 3, "tr": 3}),
    ("W:CA N:C2 E:HJ S:C8", "d:object=2:seat=E", "2 D 2", {"d": "object", "s": 1, "tr": 2}),
    (CLAIMED, "d:withdraw=1:seat=S", "1 H 1", {"d": "withdraw", "s": 2, "tr": 1}),  # 71
    (CLAIMED, "d:withdraw=2:seat=E", "1 D 2", {"d": "withdraw", "s": 1, "tr": 2}),  # 69B
    (REVOKE_CLAIMED, "d:64B4", "2", {"d": "64B4"}),
    (REVOKE_CLAIMED, "d:64B5", "3", {"d": "64B5"}),
    (SHORT, "d:defective:seat=S:trick=1:card=C8", "2 H 1 C 8",
     {"d": "defective", "s": 2, "t": 0, "cd": 6}),
]


@pytest.fixture
def laws_term(tmp_path):
    config = make_config(play=1)
    config["boards"][1] = board_entry(LAWS_DEAL)
    return to_play(Terminal(tmp_path, config))


def ruling_screen(term):
    term.press("DIR %s OK 2" % PINKEYS)
    assert type(term.app.screen).__name__ == "PlayRulingScreen", term.text()


def option_number(term, entry):
    """The digit of the first option of the director's screen that is this entry."""
    from terminal.play_director import play_pending

    got = play_pending(current(term))
    return [o[0] for o in got[3]].index(entry) + 1


def enter(term, text):
    """Events in tests/test_play_laws.py's notation through the keys: a card from its seat
    (MENU, the seat, the card; OK past a revoke's screen), a claim with its answer, a
    director's entry chosen on his screen."""
    evs = events(text)
    for i, ev in enumerate(evs):
        if "card" in ev and "director" not in ev:
            term.press("MENU %s %s" % (SUIT_KEYS[SEATS.index(ev["seat"])],
                                       card_keys(parse_card(ev["card"]))))
            if type(term.app.screen).__name__ == "RevokeScreen":
                term.press("OK")
        elif "claim" in ev:
            agreed = evs[i + 1]["director"] == "agree"
            term.press("MENU 1 %s %s OK %s" % (SUIT_KEYS[SEATS.index(ev["claim"])],
                                               " ".join(str(ev["tricks"])),
                                               "OK" if agreed else "BACK"))
        elif ev["director"] not in ("agree", "dispute"):
            ruling_screen(term)
            keys = [str(option_number(term, ev["director"]))]
            if "seat" in ev:
                keys.append(SUIT_KEYS[SEATS.index(ev["seat"])])
            for field in ("tricks", "trick"):
                if field in ev:
                    keys += list(str(ev[field]))
            if "suit" in ev:
                keys.append(ev["suit"])
            if "card" in ev:
                keys.append(card_keys(parse_card(ev["card"])))
            term.press(" ".join(keys) + " OK")


@pytest.mark.parametrize("situation, entry, keys, record", OPTIONS,
                         ids=["%s %s" % (o[0][-14:], o[1]) for o in OPTIONS])
def test_every_option_of_the_play_is_entered_with_the_terminal_keys(laws_term, situation,
                                                                    entry, keys, record):
    term = laws_term
    enter(term, situation)
    expected = replay(events(situation + " " + entry), LAWS_DEAL)
    assert expected["refused"] == [], expected
    ruling_screen(term)
    check_screen(term)
    term.press(keys)
    check_screen(term)
    term.press("OK")
    pdirs = [d for k, d in term.records() if k == "pdir"]
    assert pdirs[-1] == dict(record, b=1)
    got = replay_result(term, LAWS_DEAL)
    for field in ("status", "pending", "penalty_cards", "tricks", "revokes", "claim",
                  "result", "rulings", "lead_restriction"):
        assert got[field] == expected[field], field
    play = play_of(term)
    assert list(play.rulings) == expected["rulings"] and play.status == expected["status"]


SCREEN_TEXTS = {  # the director's screens with no card held, and what they ask for
    "ru": {"menu": "2 решение: пр.68", "68": ["Пр.68", "1 уступки нет"],
           "68_full": "Уступка вистующего",
           "seat": "Игрок: ♣♦♥♠=С/В/Ю/З", "tricks": "Взяток: 3, OK",
           "79C": ["Пр.79C", "1 уступка отменена", "2 дефектная взятка"],
           "79C_full": "После розыгрыша",
           "trick": "Взятка 2, карта: _", "card": "Взятка 2, карта: ♣_"},
    "en": {"menu": "2 rule: law 68", "68": ["Law 68", "1 no concession"],
           "68_full": "A defender's",
           "seat": "Player: ♣♦♥♠=N/E/S/W", "tricks": "Tricks: 3, OK",
           "79C": ["Law 79C", "1 concession void", "2 defective trick"],
           "79C_full": "After the play",
           "trick": "Trick 2, card: _", "card": "Trick 2, card: ♣_"},
}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_concession_objected_and_the_correction_period_in_both_languages(tmp_path, lang):
    """68B2: «если вистующий пытается уступить одну или более взяток, а его партнер
    немедленно возражает, уступка не происходит... Розыгрыш продолжается»; after the play,
    until the result is verified, 71/69B, 64B4/64B5 and 67B1 (a verified result is erased
    first, as any result the director changes)."""
    words = SCREEN_TEXTS[lang]
    config = make_config(play=1, lang=lang)
    config["boards"][1] = board_entry(LAWS_DEAL)
    term = to_play(Terminal(tmp_path, config))
    enter(term, "W:CA N:C2 E:C5 S:C8")
    term.press("DIR %s OK" % PINKEYS)
    assert words["menu"] in term.text().lower()
    term.press("2")
    for w in words["68"]:  # the options a short line each
        assert w in term.text()
    assert words["68_full"] not in term.text()
    term.press("1")  # the option's digit: the law's and the option's texts in full
    assert words["68_full"] in term.text() and words["seat"] in term.text()
    term.press("D")  # East: no entry yet, the tricks are asked for
    term.press("OK")
    assert [k for k, _ in term.records()].count("pdir") == 0
    term.press("3")
    assert words["tricks"] in term.text()
    check_screen(term)
    term.press("OK")
    assert term.records()[-1] == ("pdir", {"b": 1, "d": "object", "s": 1, "tr": 3})
    assert play_of(term).status == "play" and play_of(term).rulings[-1] == "68B2"
    # a declarer's "concession" is no defender's: refused, nothing changes
    term.press("DIR %s OK 2 1 H 3 OK" % PINKEYS)
    assert term.records()[-1] == ("pdir", {"b": 1, "d": "object", "s": 2, "tr": 3})
    assert play_of(term).rulings[-1] == "68B2" and term.app.note
    term.press("BACK BACK BACK")
    enter(term, "W:CK N:C3 E:C6 W:CQ d:omit N:C4 E:C7 S:C9 S:claim=10 d:agree")  # S missed
    ruling_screen(term)
    seen = term.text()
    for _ in range(4):
        seen += term.press("DOWN").text()
    for w in words["79C"]:
        assert w in seen
    assert words["79C_full"] in term.press("2").text()
    term.press("H 2")
    assert words["trick"] in term.text()
    term.press("C")
    assert words["card"] in term.text()
    check_screen(term)
    term.press("0 OK")
    assert term.records()[-1] == ("pdir", {"b": 1, "d": "defective", "s": 2, "t": 1, "cd": 8})
    assert play_of(term).rulings[-1] == "67B1a"
    expected = replay(events("W:CA N:C2 E:C5 S:C8 d:object=3:seat=E W:CK N:C3 E:C6 W:CQ "
                             "d:omit N:C4 E:C7 S:C9 S:claim=10 d:agree "
                             "d:defective:seat=S:trick=2:card=CT"), LAWS_DEAL)
    assert expected["refused"] == [] and expected["result"] == play_of(term).declarer_tricks()
    assert expected["rulings"] == list(play_of(term).rulings)
    term.press("OK OK")  # the result, verified: the correction period's entries need it erased
    assert term.records()[-1][0] == "ver"
    term.press("BACK DIR %s OK" % PINKEYS)
    term.press("UP")
    assert "2 " not in term.text().split("\n")[2]
    term.press("2")
    assert type(term.app.screen).__name__ != "PlayRulingScreen"
