"""The Laws of play, one rectification at a time, each test quoting the clause of the seed text
(shared/seeds/001, section 5.4: Law 24 and Laws 41-71, 79) that it checks.

Every board is replayed through `bridge.board_replay` (the whole-board tool) from compact
events; the last test replays them all again under MicroPython and compares the bytes.

The deal (declarer South, 4S, West leads; dummy North):
    N  AKQJ.T98.765.432       E  T98.AKQJ.432.765
    S  765.765.AKQJ.T98       W  432.432.T98.AKQJ
"""

import json

from bridge import play_records
from bridge.board_replay import encode, replay_scenario
from bridge.calls import parse
from bridge.cards import parse_card, parse_deal
from conftest import run_device

DEAL = "N:AKQJ.T98.765.432 T98.AKQJ.432.765 765.765.AKQJ.T98 432.432.T98.AKQJ"
TRICK1 = "W:CA N:C2 E:C5 S:C8"  # West wins
S_WINS = "W:D8 N:D5 E:D2 S:DA"  # South wins
SCENARIOS = []


def events(text):
    """'W:CA' a card; 'd:accept', 'd:require:H', 'd:rule=12' director entries; 'W:x:SK'
    exposed; 'S:claim=13', 'E:concede=2'; 'agreed=9'; 'W:CA+CK' two cards at once."""
    out = []
    for word in text.split():
        head, _, rest = word.partition(":")
        if head == "d":
            parts = rest.split(":")
            ev = {"director": parts[0].split("=")[0]}
            if "=" in parts[0]:
                ev["tricks"] = int(parts[0].split("=")[1])
            for p in parts[1:]:
                key, _, value = p.partition("=")
                ev[key] = int(value) if key == "trick" else value
            if len(parts) > 1 and "=" not in parts[1]:
                ev = {"director": ev["director"], "suit": parts[1]}
            out.append(ev)
        elif head.startswith("agreed"):
            out.append({"agreed": int(head.split("=")[1])})
        elif rest.startswith("x:"):
            out.append({"seat": head, "exposed": rest[2:]})
        elif rest.startswith(("claim=", "concede=")):
            kind, n = rest.split("=")
            out.append({kind: head, "tricks": int(n)})
        elif "+" in rest:
            first, *also = rest.split("+")
            out.append({"seat": head, "card": first, "also": also})
        else:
            out.append({"seat": head, "card": rest})
    return out


def play(text, contract="4S", declarer="S", extra=(), **kw):
    """Replay the events after the auction (contract given) and return the output object."""
    obj = {"id": "t%d" % len(SCENARIOS), "deal": DEAL, "contract": contract,
           "declarer": declarer, "events": events(text) + list(extra)}
    obj.update(kw)
    SCENARIOS.append(obj)
    return replay_scenario(obj)


def finish(text, pick=min, revoke_trick=None, deal=DEAL):
    """The events of `text`, then play on to the end: each player plays pick() of the cards
    that follow suit (else of all his cards). In trick revoke_trick (0-based) the first
    follower who can revoke does, with pick() of his other suits. None if he never can."""
    from bridge.board_replay import Board
    from bridge.cards import token
    b = Board(None, deal, "4S", "S")
    evs = events(text)
    for i, ev in enumerate(evs):
        b.event(ev, i)
    p = b.play
    revoked = revoke_trick is None
    while p.status == "play":
        seat = p.turn
        lead = p.cards[p.trick * 4 + p.leaders[p.trick]] - 1
        pool = [s * 13 + r for s in range(4) for r in range(13) if p.hands[seat * 4 + s] >> r & 1]
        follow = [c for c in pool if lead >= 0 and c // 13 == lead // 13]
        others = [c for c in pool if c not in follow]
        if not revoked and p.trick == revoke_trick and follow and others:
            revoked, follow = True, others
        evs.append({"seat": "NESW"[seat], "card": token(pick(follow or pool))})
        b.event(evs[-1], len(evs) - 1)
    return evs if revoked else None


def rulings(out):
    return out["rulings"]


# -- Law 41, 44: the opening lead and a normal trick ---------------------------------------

def test_41_44_opening_lead_and_trick():
    """41A: 'вистующий слева от предполагаемого разыгрывающего делает первый ход';
    44G: 'Ход в следующую взятку делается с руки, которая выиграла последнюю взятку.'"""
    out = play(TRICK1)
    assert out["tricks"] == [{"leader": "W", "cards": ["CA", "C2", "C5", "C8"], "winner": "W"}]
    assert out["turn"] == "W" and out["status"] == "play" and out["rulings"] == []
    assert out["won"] == {"NS": 0, "EW": 1}


def test_44e_trump_wins():
    """44D: 'Взятка, содержащая козырь, выигрывается тем игроком, который положил в нее самый
    старший козырь.'"""
    out = play("W:CA N:C2 E:C5 S:C8 W:D8 N:S2")
    assert out["refused"] == [5]  # N holds no S2: "not in this hand" changes nothing
    out = play("W:H2 N:H8 E:HA S:H5 E:HK S:H6 W:H3 N:H9 E:HQ S:S5")
    assert out["revokes"][0]["seat"] == "S"  # S still held H7: a revoke, noted not stopped
    out = play("W:H2 N:H8 E:HA S:H5 E:HK S:H6 W:H3 N:H9 E:HQ S:H7 W:H4 N:HT E:HJ S:S5 W:D8"
               " N:D5")
    assert out["tricks"][3]["winner"] == "S" and out["revokes"] == []


# -- Laws 53-56: leads out of turn --------------------------------------------------------

def test_54_opening_lead_out_of_turn_held_with_options():
    """54: 'Открытый первый ход вне очереди': the declarer's options are shown."""
    out = play("E:HA")
    assert out["status"] == "director" and out["turn"] is None
    assert out["pending"] == {"law": "54", "seat": "E", "card": "HA",
                              "options": [["accept", "54B"], ["spread", "54A"],
                                          ["reject", "54D"]]}


def test_54a_declarer_spreads_and_becomes_dummy():
    """54A: 'разыгрывающий может выложить свою руку; он становится болваном... Болван
    становится разыгрывающим.'"""
    out = play("E:HA d:spread S:H5 W:H2 N:H8")
    assert out["declarer"] == "N" and rulings(out) == ["54A"]
    assert out["tricks"][0] == {"leader": "E", "cards": ["HA", "H5", "H2", "H8"],
                                "winner": "E"}


def test_54b_declarer_accepts_and_plays_second():
    """54B1: 'Вторая карта в эту взятку играется с руки разыгрывающего.'"""
    out = play("E:HA d:accept")
    assert out["turn"] == "S" and out["declarer"] == "S" and rulings(out) == ["54B"]


def test_54b_acceptance_by_playing():
    """53A: the lead 'становится правильным ходом... если игра сделана с руки, следующей по
    очередности после хода с отклонением'; 60A1: such play forfeits the right to rectify."""
    out = play("E:HA S:H5")
    assert rulings(out) == ["54B", "60A1"] and out["turn"] == "W"


def test_54b2_declarer_plays_second_from_dummy_and_it_stands():
    """54Б2: «Если разыгрывающий играет второй картой в эту взятку с руки болвана, то карту
    болвана не разрешено взять назад иначе как для исправления фальшренонса» (declarer
    playing from dummy accepts the lead, and dummy's card stands, as a premature play 57C2)."""
    out = play("E:HA N:H8", contract="2S")
    assert out["refused"] == [] and rulings(out) == ["54B", "54B2", "57C2"]
    assert out["tricks"][0]["cards"] == ["HA", None, None, "H8"] and out["turn"] == "S"
    out = play("E:HA N:H8 S:H5 W:H2", contract="2S")
    assert out["tricks"][0]["winner"] == "E" and out["turn"] == "E"


def test_54d_declarer_refuses_lead_major_penalty_card_and_lead_options():
    """54D: 'Взятая назад карта становится старшей штрафной, и применяется Правило 50Г.'
    50D2(a): 'потребовать от вистующего пойти в масть штрафной карты... карта перестает быть
    штрафной и поднимается'."""
    out = play("E:HA d:reject")
    assert out["penalty_cards"] == [{"seat": "E", "card": "HA", "kind": "major"}]
    assert out["pending"]["law"] == "50D2" and out["pending"]["seat"] == "W"
    assert [o[0] for o in out["pending"]["options"]] == ["require", "forbid", "none"]
    out = play("E:HA d:reject d:require:H")
    assert out["penalty_cards"] == [] and out["lead_restriction"] == {
        "seat": "W", "kind": "require", "suit": "H"}
    out = play("E:HA d:reject d:require:H W:CA")  # W holds hearts: a revoke (61A)
    assert out["revokes"][0]["seat"] == "W" and "61" in rulings(out)
    out = play("E:HA d:reject d:forbid:H W:H2")
    assert out["revokes"][0]["suit"] == "H"


def test_50d2b_no_restriction_card_stays_and_must_be_played():
    """50D2(b): 'не требовать и не запрещать ход... штрафная карта остается штрафной'; 50D1a:
    'Старшей штрафной картой необходимо сыграть при первой законной возможности'; 50D1b: the
    obligation to follow suit comes first."""
    out = play("E:HA d:reject d:none W:CA N:C2 E:C5")  # follows clubs: allowed (50D1b)
    assert out["penalty_cards"][0]["card"] == "HA" and out["pending"] is None
    out = play("E:HA d:reject d:none W:CA N:C2 E:C5 S:C8 d:none W:H2 N:H8 E:HK")
    assert out["pending"]["law"] == "52"  # HA had to be played to a heart lead


def test_54e_declaring_side_tries_to_lead():
    """54E: 'Если игрок разыгрывающей стороны пытается сделать первый ход, применяется
    Правило 24' (the offender declares or is dummy: the card goes back to the hand)."""
    out = play("N:SA")
    assert out["pending"]["law"] == "54E"
    out = play("N:SA d:reject W:CA")
    assert rulings(out) == ["54E"] and out["penalty_cards"] == []
    assert out["tricks"][0]["cards"][0] == "CA"


def test_53a_56_defender_lead_out_of_turn():
    """53A: any lead out of turn 'может трактоваться как правильный'; 56 (see 54D): not
    accepted, the card is a major penalty card."""
    out = play(TRICK1 + " E:HA")
    assert out["pending"]["law"] == "53" and out["pending"]["options"] == [
        ["accept", "53A"], ["reject", "56"]]
    out = play(TRICK1 + " E:HA d:accept")
    assert rulings(out) == ["53A"] and out["turn"] == "S"
    out = play(TRICK1 + " E:HA d:reject")
    assert "56" in rulings(out) and out["penalty_cards"][0]["kind"] == "major"
    assert out["pending"]["law"] == "50D2"  # West, to lead, has a partner with a penalty card


def test_55_declarer_lead_out_of_turn():
    """55A: 'любой из вистующих может принять этот ход... или же потребовать взять его
    назад'; 55B1: 'возвращает карту... Дальнейшего исправления нет'; 55B2: 'Он обязан сделать
    ход с правильной руки.'"""
    out = play(TRICK1 + " S:DA")
    assert out["pending"]["law"] == "55"
    out = play(TRICK1 + " S:DA d:reject")
    assert rulings(out) == ["55B1"] and out["turn"] == "W" and out["penalty_cards"] == []
    out = play(S_WINS + " N:SA d:reject")
    assert rulings(out) == ["55B2"] and out["turn"] == "S"
    out = play(S_WINS + " N:SA d:accept")
    assert rulings(out) == ["55A"] and out["turn"] == "E"


def test_53b_53c_play_after_declarer_lead_out_of_turn():
    """53B: 'Если вистующий справа от той руки, с которой разыгрывающим был сделан ход вне
    очереди, играет... этот ход остается и применяется Правило 57'; 53C: the proper lead by
    the opponent 'остается, а все карты, сыгранные в эту взятку по ошибке, могут быть взяты
    назад без наказания'."""
    out = play(TRICK1 + " S:DA E:D2")
    assert rulings(out)[:1] == ["53B"] and out["pending"]["law"] == "57"
    out = play(TRICK1 + " N:SA W:CK")
    assert rulings(out) == ["53C"] and out["tricks"][1]["leader"] == "W"


def test_60b_defender_plays_before_declarer_leads_from_proper_hand():
    """60B: 'Когда вистующий играет после того, как от разыгрывающего потребовали взять назад
    ход вне очереди... но до того, как разыгрывающий пошел с правильной руки, карта вистующего
    становится старшей штрафной картой.'"""
    out = play(S_WINS + " N:SA d:reject W:S2")
    assert "60B" in rulings(out) and out["penalty_cards"] == [
        {"seat": "W", "card": "S2", "kind": "major"}]
    assert out["turn"] == "S"


# -- Laws 24, 48-52: exposed and penalty cards --------------------------------------------

def test_24_card_exposed_in_the_auction():
    """24: 'Если нарушитель станет вистующим, то каждая такая карта становится штрафной картой'
    (24B: an honour, partner must pass at his next turn); picked up by declarer or dummy."""
    auction = [{"seat": "S", "call": "1S"}, {"seat": "W", "exposed": "CA"},
               {"seat": "N", "exposed": "S2"}, {"seat": "W", "call": "P"},
               {"seat": "N", "call": "4S"}, {"seat": "E", "call": "P"},
               {"seat": "S", "call": "P"}, {"seat": "W", "call": "P"}]
    obj = {"id": "24", "dealer": "S", "deal": DEAL, "events": auction}
    SCENARIOS.append(obj)
    out = replay_scenario(obj)
    assert out["contract"] == "4S" and out["declarer"] == "S"
    assert out["penalty_cards"] == [{"seat": "W", "card": "CA", "kind": "major"}]
    assert "24B" in rulings(out) and "24" in rulings(out)  # N's card goes back (N is dummy)
    obj = dict(obj, id="24-lead", events=auction + events("W:CK"))
    SCENARIOS.append(obj)
    assert replay_scenario(obj)["pending"]["law"] == "52"  # CA must be led (50D1a)


def test_48a_declarer_exposes_no_penalty():
    """48A: 'никакая карта с руки разыгрывающего или болвана никогда не становится штрафной'."""
    out = play("S:x:DA")
    assert out["penalty_cards"] == [] and rulings(out) == ["48A"]


def test_49_50b_minor_and_major_penalty_cards():
    """50B: 'Единственная карта, рангом ниже онера и открытая ненамеренно... становится
    младшей штрафной картой. Любая карта ранга онера... становится старшей'; 'когда один из
    вистующих имеет две или более штрафные карты, все такие карты становятся старшими'."""
    out = play("W:x:D8")
    assert out["penalty_cards"] == [{"seat": "W", "card": "D8", "kind": "minor"}]
    out = play("W:x:DT")
    assert out["penalty_cards"][0]["kind"] == "major"
    out = play("W:x:D8 W:x:D9")
    assert [p["kind"] for p in out["penalty_cards"]] == ["major", "major"]


def test_50c_minor_penalty_card():
    """50C: 'ему не разрешено играть любой другой картой той же масти рангом ниже онера, пока
    он не сыграет штрафной картой, но ему дано право сыграть вместо нее онером'."""
    assert play("W:x:D8 W:D9")["pending"]["law"] == "52"
    out = play("W:x:D8 W:DT")
    assert out["pending"] is None and out["penalty_cards"][0]["card"] == "D8"
    out = play("W:x:D8 W:CA")  # another suit: no restriction on the minor penalty card
    assert out["pending"] is None


def test_51_two_penalty_cards_declarer_designates_or_restricts():
    """51A: 'разыгрывающий обозначает, какой из них надлежит сыграть'; 51B1(a): when partner
    is required to lead the suit, 'карты этой масти перестают быть штрафными картами'."""
    out = play("W:x:D8 W:x:D9 W:D9 d:accept")
    assert out["pending"] is None and out["penalty_cards"] == [
        {"seat": "W", "card": "D8", "kind": "major"}]
    out = play(S_WINS + " E:x:H2 E:x:H3", extra=[])
    assert out["refused"] == [4, 5]  # E holds neither card: refused, nothing changes
    out = play("W:S2 N:SA E:S8 S:S5 E:x:HA E:x:HK N:H8 E:HQ")  # N leads; E must play HA/HK
    assert out["pending"]["law"] == "52"
    out = play("W:CA N:C2 E:x:HA E:x:HK E:C5 S:C8")
    assert out["pending"]["law"] == "50D2"
    out = play("W:CA N:C2 E:x:HA E:x:HK E:C5 S:C8 d:require:H")
    assert "51B" in rulings(out) and out["penalty_cards"] == []


def test_51a_declarer_designates_which_penalty_card_is_played():
    """51А: «Если очередь играть вистующего и он имеет две или более штрафные карты, которые
    могут быть законно сыграны, то разыгрывающий обозначает, какой из них надлежит сыграть в
    эту очередь» (the declarer, not the defender, chooses the card)."""
    out = play("W:x:D8 W:x:D9 W:D9")
    assert out["pending"] == {"law": "51A", "seat": "W", "card": "D9",
                              "options": [["accept", "51A"], ["designate", "51A"]]}
    out = play("W:x:D8 W:x:D9 W:D9 d:designate:card=D8")
    assert out["tricks"][0]["cards"][0] == "D8" and rulings(out)[-1] == "51A"
    assert out["penalty_cards"] == [{"seat": "W", "card": "D9", "kind": "major"}]
    out = play("W:x:D8 W:x:D9 W:D9 d:designate:card=CA")  # not a penalty card: refused
    assert out["refused"] == [3] and out["pending"]["law"] == "51A"
    out = play("W:S2 N:SA E:S8 S:S5 E:x:HA E:x:HK N:H8 E:HK")  # following: both hearts
    assert out["pending"]["law"] == "51A"
    out = play("W:S2 N:SA E:S8 S:S5 E:x:HA E:x:D4 N:H8 E:HA")  # only HA can be played
    assert out["pending"] is None and out["tricks"][1]["cards"][1] == "HA"


def test_51b2b_declarer_forbids_more_than_one_suit():
    """51Б2(б): «Когда вистующий имеет штрафные карты более чем в одной масти и ход его
    партнера, разыгрывающий может запретить партнеру вистующего ходить в одну или более таких
    мастей; но тогда вистующий поднимает все штрафные карты в каждой из запрещенных
    разыгрывающим мастей»."""
    base = "E:x:HA E:x:D4 d:forbid:H"
    out = play(base)
    assert out["pending"]["law"] == "50D2" and out["pending"]["seat"] == "W"
    assert out["penalty_cards"] == [{"seat": "E", "card": "D4", "kind": "major"}]
    out = play(base + " d:forbid:D")
    assert out["pending"] is None and out["penalty_cards"] == [] and out["refused"] == []
    assert rulings(out)[-2:] == ["51B", "51B"]
    assert out["lead_restriction"] == {"seat": "W", "kind": "forbid", "suit": "H",
                                       "suits": ["D", "H"]}
    out = play(base + " d:forbid:D W:D8")  # W holds clubs and spades: a revoke (61A)
    assert out["revokes"][0]["seat"] == "W"
    out = play(base + " d:require:D")  # 51Б2(а) and (б) are alternatives
    assert out["refused"] == [3]
    out = play(base + " d:none W:CA")  # no further suit: D4 stays a penalty card
    assert out["penalty_cards"] == [{"seat": "E", "card": "D4", "kind": "major"}]
    assert "50D2b" not in rulings(out) and out["tricks"][0]["cards"][0] == "CA"


def test_52_failure_to_play_a_penalty_card():
    """52B1(a): 'разыгрывающий может принять такой ход или игру'; 52B1(b): 'обязан принять...
    если он после этого сыграл'; 52B2: 'вистующий обязан заменить штрафной картой ту карту...
    становится старшей штрафной картой'."""
    base = "W:CA N:C2 E:x:HA E:C5 S:C8 d:none W:H2 N:H8 E:HK"
    assert play(base)["pending"]["law"] == "52"
    out = play(base + " d:accept")
    assert "52B1a" in rulings(out) and out["penalty_cards"][0]["card"] == "HA"
    out = play(base + " S:H5")
    assert "52B1b" in rulings(out) and out["tricks"][1]["cards"] == ["H2", "H8", "HK", "H5"]
    out = play(base + " d:reject E:HA")
    assert "52B2" in rulings(out) and out["penalty_cards"] == [
        {"seat": "E", "card": "HK", "kind": "major"}]
    assert out["tricks"][1]["cards"][2] == "HA"


# -- Laws 57-60: premature play, simultaneous plays, inability, play after illegal play ------

def test_57a_premature_play_declarer_options():
    """57A: the card 'становится старшей штрафной картой', and declarer may require partner to
    play 'самой старшей' (1) or 'самой младшей' (2) card of the suit led, or forbid a suit (3)."""
    base = S_WINS + " S:DK E:D3"
    out = play(base)
    assert out["pending"]["law"] == "57" and out["pending"]["seat"] == "E"
    out = play(base + " d:highest W:D9")
    assert out["revokes"][0]["seat"] == "W" and "57A1" in rulings(out)  # 61A: DT required
    out = play(base + " d:highest W:DT N:D6 E:D3")
    assert out["revokes"] == [] and out["penalty_cards"] == []
    out = play(base + " d:lowest W:D9 N:D6 E:D4")
    assert out["pending"]["law"] == "52"  # E's D3 is a major penalty card: it must be played


def test_57a_premature_lead_to_next_trick():
    """57A: 'Когда вистующий ходит в следующую взятку прежде, чем его партнер сыграл в
    текущую'."""
    out = play("W:CA N:C2 W:CK")
    assert out["pending"]["law"] == "57" and out["pending"]["card"] == "CK"
    out = play("W:CA N:C2 W:CK d:forbid:H E:C5")
    assert out["penalty_cards"] == [{"seat": "W", "card": "CK", "kind": "major"}]
    assert "57A3" in rulings(out)


def test_57c_declarer_premature_play_and_both_hands_played():
    """57C2: 'Карта преждевременной игры (не хода) разыгрывающего с любой руки является
    сыгранной картой'; 57C1: no rectification 'если разыгрывающий сыграл картами с обеих рук'."""
    out = play("W:S2 N:SA E:S8 S:S5 N:H8 S:H5 W:H2 E:HA")
    assert rulings(out) == ["57C2", "57C1"] and out["pending"] is None
    assert out["tricks"][1] == {"leader": "N", "cards": ["H8", "HA", "H5", "H2"],
                                "winner": "E"}


def test_58_simultaneous_plays():
    """58A: 'считаются последовавшими за ними'; 58B2: 'если он является вистующим, то все
    остальные открытые карты становятся штрафными'."""
    out = play("W:CA+CK")
    assert "58B2" in rulings(out) and out["penalty_cards"] == [
        {"seat": "W", "card": "CK", "kind": "major"}]
    out = play("W:CA", extra=[{"seat": "N", "card": "C2", "simultaneous": True}])
    assert rulings(out) == ["58A"] and out["tricks"][0]["cards"][:2] == ["CA", "C2"]
    out = play("W:CA N:C2+C3")
    assert "58B1" in rulings(out) and out["penalty_cards"] == []


def test_59_inability_to_comply():
    """59: 'Игрок может сыграть любой законной в других обстоятельствах картой, если он не в
    состоянии пойти либо сыграть, как требуется'."""
    base = S_WINS + " S:DK W:D9 N:D6 E:D3 S:DQ W:DT N:D7 E:D4 S:DJ E:HA d:highest W:CJ"
    out = play(base)
    assert "59" in rulings(out) and out["revokes"] == []


# -- Laws 61-64: revokes ------------------------------------------------------------------

def test_61_revoke_detected_from_the_hand_record():
    """61A: 'Невыполнение игры в масть в соответствии с Правилом 44... представляет собой
    фальшренонс'."""
    out = play("W:CA N:C2 E:HJ")
    assert out["revokes"] == [{"law": "61", "trick": 1, "seat": "E", "suit": "C",
                               "established": False, "corrected": False, "inferred": False,
                               "transfer": 0}]
    assert out["status"] == "play"  # the play goes on: the Laws leave the revoke to be found


def test_61_revoke_found_later_without_hand_record():
    """Without a hand record the revoke shows when the player later plays the suit he
    failed to follow (61A, established by then, 63A1)."""
    obj = {"id": "nodeal", "contract": "4S", "declarer": "S",
           "events": events("W:CA N:C2 E:HJ S:C8 W:CK N:C3 E:C5 S:C9")}
    SCENARIOS.append(obj)
    out = replay_scenario(obj)
    assert [(r["trick"], r["seat"], r["inferred"], r["established"]) for r in out["revokes"]] \
        == [(1, "E", True, True)]


def test_62_correction_before_established():
    """62B: 'нарушитель берет назад карту... и заменяет ее любой законной картой'; 62B1: 'Взятая
    таким образом назад карта становится старшей штрафной... если она была сыграна из
    закрытой руки вистующего'; 62C1: the non-offender 'может взять назад' a later card."""
    out = play("W:CA N:C2 E:HJ S:C8 d:correct d:withdraw E:C5")
    assert rulings(out) == ["61", "62B", "62B1", "50B", "62C1"]
    assert out["revokes"][0]["corrected"] and out["revokes"][0]["transfer"] == 0
    assert out["penalty_cards"] == [{"seat": "E", "card": "HJ", "kind": "major"}]
    assert out["tricks"][0]["cards"] == ["CA", "C2", "C5", None]  # S's C8 went back
    out = play("W:CA N:H8 d:correct N:C2")  # dummy's card: replaced without penalty (62B2)
    assert "62B2" in rulings(out) and out["penalty_cards"] == []


def test_62c_a_later_card_that_revoked_too_takes_its_revoke_back_with_it():
    """62В1: the non-offender «может взять назад и вернуть в свою руку любую карту, которой он,
    возможно, сыграл после фальшренонса»: East's heart, itself a revoke, goes back to his
    hand and he follows suit; nothing of his is left to correct (found by the terminal's
    fuzz test: a later `correct` took back a legal card, or failed on a missing one)."""
    out = play("W:CA N:H8 E:HJ S:C8 d:correct d:withdraw d:keep N:C2 E:C5 d:correct")
    assert out["refused"] == [9] and out["tricks"][0]["cards"] == ["CA", "C2", "C5", "C8"]
    assert [(r["seat"], r["corrected"]) for r in out["revokes"]] == [("N", True), ("E", True)]


def test_62c_later_cards_withdrawn_only_if_their_owners_choose():
    """62В1: «Каждый игрок ненарушившей стороны может взять назад и вернуть в свою руку любую
    карту, которой он, возможно, сыграл после фальшренонса» (may, not must); 62В2: «После
    того, как игрок ненарушившей стороны берет таким образом карту назад, следующий по
    очередности игрок нарушившей стороны может взять назад свою сыгранную карту, но если
    игрок с этой рукой является вистующим, то карта становится штрафной картой»."""
    base = "W:CA N:C2 E:C5 S:C8 W:CK N:C3 E:D2 S:C9 d:correct"
    out = play(base, contract="2S")
    assert out["pending"] == {"law": "62C1", "seat": "S", "card": "C9",
                              "options": [["withdraw", "62C1"], ["keep", "62C1"]]}
    out = play(base + " d:keep E:C6", contract="2S")  # S keeps his C9
    assert out["tricks"][1]["cards"] == ["CK", "C3", "C6", "C9"] and out["refused"] == []
    out = play(base + " d:withdraw E:C6 S:CT", contract="2S")
    assert out["tricks"][1]["cards"] == ["CK", "C3", "C6", "CT"] and "62C1" in rulings(out)
    # dummy revokes (2nd hand), E (non-offender) then S (dummy's partner) played after him
    out = play("W:CA N:H8 E:C5 S:C8 d:correct d:keep N:C2")
    assert out["tricks"][0]["cards"] == ["CA", "C2", "C5", "C8"] and out["pending"] is None
    out = play("W:CA N:H8 E:C5 S:C8 d:correct d:withdraw")
    assert out["pending"]["law"] == "62C2" and out["pending"]["seat"] == "S"
    # a defender's card withdrawn under 62C2 becomes a penalty card, a major one (50B: «любая
    # карта, намеренно открытая в процессе игры (например... при фальшренонсе и его
    # последующей коррекции)»): he played it
    out = play("W:S2 N:SA E:S8 S:S5 N:H8 E:C5 S:H5 W:H2 d:correct d:withdraw d:withdraw")
    assert out["penalty_cards"] == [{"seat": "E", "card": "C5", "kind": "major"},
                                    {"seat": "W", "card": "H2", "kind": "major"}]
    assert rulings(out)[-3:] == ["62C1", "62C2", "50B"]
    assert out["tricks"][1]["cards"] == ["H8", None, None, None] and out["turn"] == "E"


def test_63a1_established_then_no_correction():
    """63A1: 'Когда нарушитель или его партнер ходит или играет в следующую взятку'; 63B: 'его
    не разрешено корректировать'."""
    out = play("W:CA N:C2 E:HJ S:C8 W:CK d:correct")
    assert out["revokes"][0]["established"] and "63A1" in rulings(out)
    assert out["refused"] == [5]


def test_64a2_revoke_trick_won_by_partner():
    """64A2: the revoke trick 'не выиграна нарушившим игроком, тогда, если нарушившая сторона
    выиграла эту или любую из последующих взяток... одна взятка передается'."""
    out = play("W:CA N:C2 E:HJ S:C8 S:claim=12 d:agree")
    assert out["revokes"][0]["transfer"] == 1 and out["revokes"][0]["law"] == "64A2"
    assert out["result"] == 13 and "63A3" in rulings(out) and "64C" in out["flags"]


def test_64a1_revoke_trick_won_by_offender():
    """64A1: 'взятка, в которой произошел фальшренонс, передается ненарушившей стороне вместе
    с одной из любых последующих взяток, выигранных нарушившей стороной'."""
    base = "W:CA N:C2 E:S8 S:C8"  # E ruffs a club while holding clubs and wins the trick
    out = play(base + " E:claim=0 d:agree")
    assert out["tricks"][0]["winner"] == "E"
    assert (out["revokes"][0]["transfer"], out["revokes"][0]["law"]) == (1, "64A1")
    assert out["result"] == 13
    out = play(base + " S:claim=10 d:agree")  # EW win two of the later tricks: two move
    assert out["revokes"][0]["transfer"] == 2 and out["result"] == 12


def test_64b1_no_trick_won_by_offending_side():
    """64B1: 'Если нарушившая сторона не выиграла ни взятку с фальшренонсом, ни какую-либо из
    последующих взяток.'"""
    out = play("W:D8 N:D5 E:HJ S:DA S:claim=12 d:agree")
    assert (out["revokes"][0]["transfer"], out["revokes"][0]["law"]) == (0, "64B1")
    assert out["result"] == 13


def test_64b2_second_revoke_same_player_same_suit():
    """64B2: 'Если это последующий фальшренонс того же игрока в той же масти.'"""
    out = play("W:CA N:C2 E:HJ S:C8 W:CK N:C3 E:HQ S:C9 S:claim=11 d:agree")
    assert [(r["transfer"], r["law"]) for r in out["revokes"]] == [(1, "64A2"), (0, "64B2")]


def test_64b3_revoke_by_dummy():
    """64B3: 'Если фальшренонс был совершен невыполнением игры любой открытой на столе картой
    ... включая карту в руке болвана.'"""
    out = play("W:CA N:H8 E:C5 S:C8 W:CK N:C2 E:C6 S:C9 S:claim=11 d:agree")
    assert (out["revokes"][0]["transfer"], out["revokes"][0]["law"]) == (0, "64B3")


def test_64b6_revoke_in_twelfth_trick():
    """64B6: 'Если это фальшренонс в двенадцатой взятке.' (62D: it must still be corrected if
    found before the hands are returned: a flag for the director.)"""
    import random
    for seed in range(500):  # random legal play until someone can revoke in trick 12
        evs = finish("", random.Random(seed).choice, 11)
        if evs:
            break
    obj = {"id": "64B6", "deal": DEAL, "contract": "4S", "declarer": "S", "events": evs}
    SCENARIOS.append(obj)
    out = replay_scenario(obj)
    assert out["status"] == "ended"
    assert [(r["trick"], r["transfer"], r["law"]) for r in out["revokes"]] == [(12, 0, "64B6")]
    assert "62D" in out["flags"] and "64C" in out["flags"]


def test_64b7_both_sides_revoke():
    """64B7: 'Когда обе стороны сделали фальшренонс в одной и той же сдаче.'"""
    out = play("W:CA N:C2 E:HJ S:C8 W:D8 N:D5 E:D2 S:H5 S:claim=11 d:agree")
    assert [r["law"] for r in out["revokes"]] == ["64B7", "64B7"]
    assert all(r["transfer"] == 0 for r in out["revokes"])


def test_64_two_revokes_by_one_side_never_give_more_than_it_won():
    """64А1: the revoke trick «передается ненарушившей стороне вместе с одной из любых
    последующих взяток, выигранных нарушившей стороной»; 64А2: «одна взятка передается»: the
    tricks transferred are tricks the offending side won. E ruffs trick 1 holding clubs (64A1:
    2), W fails to follow hearts in trick 2 (64A2: 1); EW won only those two tricks."""
    out = play("W:CA N:C2 E:S8 S:C8 E:HA S:H5 W:D8 N:H8 S:claim=11 d:agree")
    assert [(r["seat"], r["trick"], r["transfer"]) for r in out["revokes"]] == [
        ("E", 1, 2), ("W", 2, 0)]
    assert out["won"] == {"NS": 0, "EW": 2} and out["result"] == 13


def test_64b4_64c_director_entries_after_the_play():
    """64B4: attention drawn only after the next board's call: no rectification; 64C: 'Судья
    ... должен назначить компенсирующую запись' — shown as a flag after every revoke."""
    out = play("W:CA N:C2 E:HJ S:C8 S:claim=12 d:agree d:64B4")
    assert out["revokes"][0]["transfer"] == 0 and out["revokes"][0]["law"] == "64B4"
    assert out["result"] == 12 and "64C" in out["flags"]


# -- Laws 53C, 57A3, 62-64, 68 as the seed text says them (issue 16) ------------------------

def test_64a_two_revokes_by_one_player_in_different_suits_are_each_rectified():
    """64А1 and 64А2 rectify each established revoke; 64Б2 excludes only «последующий
    фальшренонс того же игрока в той же масти». East fails to follow clubs in trick 1 (West
    wins it: 64А2, one trick) and ruffs a diamond in trick 2 holding diamonds (he wins it:
    64А1, that trick); East-West won exactly those two tricks, and both move."""
    out = play("W:CA N:C2 E:HJ S:C8 W:D8 N:D5 E:S8 S:DA S:claim=11 d:agree")
    assert [(r["seat"], r["suit"], r["trick"], r["law"], r["transfer"])
            for r in out["revokes"]] == [("E", "C", 1, "64A2", 1), ("E", "D", 2, "64A1", 1)]
    assert out["won"] == {"NS": 0, "EW": 2} and out["result"] == 13


def test_63_a_revoke_corrected_in_time_is_never_established_and_gets_no_64c_flag():
    """63А lists how a revoke becomes established (a play to the next trick, a card named
    for it, a claim or concession): the end of the play is not one of them; 62А: corrected
    before it is established; 64В applies «после любого установленного фальшренонса»."""
    evs = finish("W:CA N:C2 E:C5 S:DJ d:correct S:C8")  # the declarer's: no penalty card
    obj = {"id": "corrected", "deal": DEAL, "contract": "4S", "declarer": "S", "events": evs}
    SCENARIOS.append(obj)
    out = replay_scenario(obj)
    assert out["status"] == "ended"
    assert [(r["established"], r["corrected"], r["transfer"]) for r in out["revokes"]] == [
        (False, True, 0)]
    assert "64C" not in out["flags"]


def test_62b2_a_minor_penalty_card_used_to_revoke_stays_minor_when_corrected():
    """62Б2: «Карта может быть заменена без дальнейшего исправления, если... она была открытой
    картой вистующего»; 62Б1 makes the card major only «если она была сыграна из закрытой
    руки вистующего». East's D4, a minor penalty card (50Б), is played on a club lead while
    he holds clubs; corrected, it is the minor penalty card it was."""
    out = play("E:x:D4 W:CA N:C2 E:D4 S:C8 d:correct d:keep E:C5")
    assert out["penalty_cards"] == [{"seat": "E", "card": "D4", "kind": "minor"}]
    assert "62B2" in rulings(out) and "62B1" not in rulings(out)
    assert out["tricks"][0]["cards"] == ["CA", "C2", "C5", "C8"]
    out = play("W:CA N:C2 E:D4 S:C8 d:correct d:keep E:C5")  # from his concealed hand
    assert out["penalty_cards"] == [{"seat": "E", "card": "D4", "kind": "major"}]


def test_62c1_the_lead_to_the_next_trick_is_the_non_offenders_to_withdraw_or_keep():
    """62В1: «Каждый игрок ненарушившей стороны может взять назад и вернуть в свою руку любую
    карту, которой он, возможно, сыграл после фальшренонса» (may: an option, not a return).
    South (declarer) fails to follow a diamond; West wins and leads to trick 2; the
    correction reopens trick 1 and West's lead is offered to him first."""
    base = "W:D8 N:D5 E:D2 S:H5 W:CA d:correct"
    out = play(base)
    assert out["pending"] == {"law": "62C1", "seat": "W", "card": "CA",
                              "options": [["withdraw", "62C1"], ["keep", "62C1"]]}
    assert len(out["tricks"]) == 1 and out["tricks"][0]["cards"][3] is None
    out = play(base + " d:withdraw S:DA")  # back in his hand; South now wins trick 1
    assert out["tricks"][0]["winner"] == "S" and out["turn"] == "S" and len(out["tricks"]) == 1
    out = play(base + " d:keep S:DA")  # South wins trick 1: West's kept lead is out of turn
    assert out["pending"]["law"] == "53" and out["pending"]["card"] == "CA"
    out = play("W:CA N:C2 E:C5 S:H5 W:CK d:correct d:keep S:C8")  # West wins trick 1 anyway
    assert out["tricks"][1] == {"leader": "W", "cards": ["CK", None, None, None],
                                "winner": None}
    assert out["turn"] == "N" and out["pending"] is None and out["refused"] == []


def test_57a3_the_suit_forbidden_is_another_than_the_suit_led():
    """57А3: «Запретить партнеру нарушителя играть картой другой масти, указываемой
    разыгрывающим»: the suit led cannot be forbidden (57А1, 57А2 concern it)."""
    base = S_WINS + " S:DK E:D3"
    out = play(base + " d:forbid:D")
    assert out["refused"] == [6] and out["pending"]["law"] == "57"
    out = play(base + " d:forbid:H")
    assert out["refused"] == [] and "57A3" in rulings(out)


def test_53c_the_proper_leader_leads_even_as_the_next_hand():
    """53В: «если надлежащей была очередь ходить у оппонента того игрока, который сделал ход
    вне очереди, этот оппонент может сделать свой надлежащий ход... и его карта не считается
    сыгранной после хода с отклонением... все карты, сыгранные в эту взятку по ошибке,
    могут быть взяты назад без наказания». South won trick 1 and is to lead; East leads out
    of turn; South, East's next hand, leads: his lead, not an acceptance (53А)."""
    out = play(S_WINS + " E:HA S:H5")
    assert rulings(out) == ["53C"] and out["penalty_cards"] == []
    assert out["tricks"][1] == {"leader": "S", "cards": ["H5", None, None, None],
                                "winner": None}
    assert out["turn"] == "W"


def test_63a3_the_side_that_disputes_a_claim_does_not_establish_its_revokes():
    """63А3: established «когда представитель нарушившей стороны выступает или соглашается с
    претензией или уступкой»: disputing is neither. East and South revoke in trick 1; South
    claims (his own revoke is established), East-West dispute (East's is not)."""
    out = play("W:CA N:C2 E:HJ S:DJ S:claim=12 d:dispute")
    assert {r["seat"]: r["established"] for r in out["revokes"]} == {"E": False, "S": True}
    out = play("W:CA N:C2 E:HJ S:DJ S:claim=12 d:dispute d:rule=12")
    assert [(r["seat"], r["transfer"]) for r in out["revokes"]] == [("E", 0), ("S", 1)]


def test_68_a_claim_in_the_middle_of_a_trick_concerns_the_later_ones_too():
    """68: «необходимо, чтобы оно относилось к взяткам, отличным от текущей. Если оно
    действительно относится к последующим взяткам, то...» it is a claim: made in the middle
    of a trick, it counts that trick among the remaining ones; in the middle of the last
    trick there is no later one, and nothing to claim."""
    out = play("W:CA N:C2 S:claim=12 d:agree")
    assert out["refused"] == [] and out["result"] == 12 and out["status"] == "ended"
    assert out["tricks"][0]["cards"] == ["CA", "C2", None, None]
    cards = [e for e in finish("") if "card" in e][:49]  # the 13th trick led
    obj = {"id": "68-last", "deal": DEAL, "contract": "4S", "declarer": "S",
           "events": cards + [{"claim": "S", "tricks": 1}]}
    SCENARIOS.append(obj)
    out = replay_scenario(obj)
    assert out["refused"] == [49] and out["status"] == "play"


def test_62d1_a_twelfth_trick_revoke_is_corrected_after_the_play():
    """62Г1: «Фальшренонс в двенадцатой взятке, даже установленный, необходимо
    скорректировать, если он обнаружен до возвращения всех четырех рук в коробку»; 63Б
    excepts it. The offender's last two cards change places and tricks 12 and 13 are
    decided again."""
    import random
    for seed in range(500):
        evs = finish("", random.Random(seed).choice, 11)
        if evs:
            break
    obj = {"id": "62D1", "deal": DEAL, "contract": "4S", "declarer": "S",
           "events": evs + [{"director": "correct"}]}
    SCENARIOS.append(obj)
    before = replay_scenario(dict(obj, events=evs))
    out = replay_scenario(obj)
    assert out["refused"] == [] and "62D1" in rulings(out)
    assert "62D" not in out["flags"] and "64C" not in out["flags"]
    assert out["revokes"][0]["corrected"]
    seat = out["revokes"][0]["seat"]
    played = [{(("NESW".index(t["leader"]) + i) % 4): c for i, c in enumerate(t["cards"])}
              for t in (before["tricks"][11], before["tricks"][12],
                        out["tricks"][11], out["tricks"][12])]
    s = "NESW".index(seat)
    assert (played[2][s], played[3][s]) == (played[1][s], played[0][s])
    assert replay_scenario(dict(obj, events=evs + [{"director": "correct"}] * 2))[
        "refused"] == [len(evs) + 1]  # once


# -- Law 67: defective tricks --------------------------------------------------------------

def test_67a1_omitted_card_supplied():
    """67A1: 'Чтобы исправить пропуск игры во взятку, нарушитель восполняет ее картой, которой
    он может законно сыграть.'"""
    out = play("W:CA N:C2 E:C5 W:CK")  # South has not played to the first trick
    assert out["pending"]["law"] == "67"
    out = play("W:CA N:C2 E:C5 W:CK", extra=[{"director": "supply", "card": "C8"}])
    assert out["tricks"][0]["cards"] == ["CA", "C2", "C5", "C8"]
    assert out["tricks"][1]["cards"][0] == "CK" and "67A1" in rulings(out)


def test_67b1_defective_trick_found_at_the_end():
    """67B1(a): 'у нарушителя есть карта той масти... Считается, что он совершил фальшренонс
    в дефектной взятке и подлежит потере одной взятки, передаваемой в соответствии с
    Правилом 64А2'."""
    evs = finish("W:CA N:C2 E:C5 W:CK d:omit")
    obj = {"id": "67B", "deal": DEAL, "contract": "4S", "declarer": "S", "events": evs}
    out = replay_scenario(obj)
    assert out["status"] == "ended" and "67B" in out["flags"]
    played = {e["card"] for e in evs if e.get("seat") == "S"}
    left = [c for c in ("S7", "S6", "S5", "H7", "H6", "H5", "DA", "DK", "DQ", "DJ", "CT", "C9",
                        "C8") if c not in played]
    assert len(left) == 1  # South kept the card he did not play to the first trick
    obj["events"] = evs + [{"director": "defective", "seat": "S", "trick": 1, "card": left[0]}]
    SCENARIOS.append(obj)
    after = replay_scenario(obj)
    assert ("67B1a" if left[0][0] == "C" else "67B1b") in rulings(after)
    assert "67B" not in after["flags"] and after["refused"] == []
    assert after["revokes"][-1]["law"] == "64A2" and after["revokes"][-1]["transfer"] == 1
    assert after["result"] == out["result"] - 1


# -- Laws 68-71, 79: claims, concessions, the tricks agreed --------------------------------

def test_68_69a_agreed_claim_records_the_tricks():
    """68D: 'После претензии или уступки розыгрыш прекращается'; 69A: 'Результат записывается
    так, как если бы взятки... были выиграны либо проиграны в ходе розыгрыша'."""
    out = play(TRICK1 + " S:claim=12")
    assert out["status"] == "claim" and out["remaining"] is not None
    out = play(TRICK1 + " S:claim=12 d:agree", vulnerable="None")
    assert out["result"] == 12 and out["status"] == "ended" and out["score_ns"] == 480


def test_70_disputed_claim_director_rules():
    """70A: 'любое сомнение относительно претензии должно разрешаться против выступившего с
    претензией'; 70B3: the director may have the remaining cards faced."""
    out = play(TRICK1 + " S:claim=12 d:dispute")
    assert out["pending"]["law"] == "70" and "70" in out["flags"]
    assert out["remaining"] == ["AKQJ.T98.765.43", "T98.AKQJ.432.76", "765.765.AKQJ.T9",
                                "432.432.T98.KQJ"]
    out = play(TRICK1 + " S:claim=12 d:dispute d:rule=11")
    assert out["result"] == 11 and "70" in rulings(out)


def test_68b2_defender_concession_partner_objects():
    """68B2: 'если вистующий пытается уступить одну или более взяток, а его партнер немедленно
    возражает, уступка не происходит... Розыгрыш продолжается.'"""
    out = play(TRICK1 + " E:concede=12 d:object")
    assert out["status"] == "play" and out["claim"] is None and "68B2" in rulings(out)
    assert out["turn"] == "W"


def test_71_concession_withdrawn_and_69b_agreement_withdrawn():
    """71: 'в течение установленного в Правиле 79В Периода Коррекции Судья должен отменить
    уступку... если игрок уступил взятку, которую его сторона в действительности выиграла';
    69B: 'Согласие с претензией или уступкой... может быть взято назад'."""
    out = play("W:concede=13 d:agree d:withdraw=3")
    assert out["result"] == 10 and "71" in rulings(out)
    out = play("S:claim=13 d:agree d:withdraw=1")
    assert out["result"] == 12 and "69B" in rulings(out)


def test_71_69b_the_tricks_withdrawn_go_to_the_side_named():
    """68Б1: «претензия на некоторое количество взяток является уступкой остальных»; 71:
    «Судья должен отменить уступку... если игрок уступил взятку, которую его сторона в
    действительности выиграла»; 69Б: «Согласие с претензией или уступкой... может быть
    взято назад». With a seat the tricks go to that seat's side: 71 when that side made the
    claim or concession, 69B when it agreed to it; never more than it gave away."""
    def back(statement, tricks, seat):
        return play(statement + " d:agree", extra=[
            {"director": "withdraw", "tricks": tricks, "seat": seat}])

    out = back("S:claim=10", 2, "N")  # the claimer conceded 3: two of them come back
    assert out["result"] == 12 and rulings(out)[-1] == "71"
    out = back("S:claim=10", 2, "E")
    assert out["result"] == 8 and rulings(out)[-1] == "69B"
    out = back("E:concede=3", 1, "W")
    assert out["result"] == 2 and rulings(out)[-1] == "71"
    out = back("E:concede=3", 1, "N")
    assert out["result"] == 4 and rulings(out)[-1] == "69B"
    assert back("S:claim=10", 4, "N")["refused"] == [2]  # only 3 were conceded


def test_68b2_an_objected_concession_entered_between_tricks():
    """68Б2: «если вистующий пытается уступить одну или более взяток, а его партнер немедленно
    возражает, уступка не происходит... Розыгрыш продолжается». One entry: the defender's
    seat and the tricks."""
    out = play(TRICK1 + " d:object=3:seat=E W:CK")
    assert out["status"] == "play" and out["claim"] is None and out["refused"] == []
    assert rulings(out) == ["68B", "68B2"]
    assert play(TRICK1 + " d:object=3:seat=S")["refused"] == [4]  # not a defender
    out = play("W:CA d:object=3:seat=E")  # mid-trick: it concerns later tricks too (68)
    assert out["refused"] == [] and out["status"] == "play" and out["turn"] == "N"
    assert play(TRICK1 + " d:object=13:seat=E")["refused"] == [4]  # 12 remain


def recorded(cards, claim):
    """The engine as the terminal and the host drive it (bridge.play_records): 4S by South,
    the cards ('W:CA N:C2 ...'), then one `claim` record's fields (ValueError if refused)."""
    p = play_records.start((parse("4S"), 0, 2), parse_deal(DEAL))
    for word in cards.split():
        p.card("NESW".index(word[0]), parse_card(word[2:]))
    play_records.apply(p, "claim", dict({"b": 1}, **claim))
    return p


def test_63a3_a_claim_establishes_its_own_sides_revokes_at_once_the_others_on_agreement():
    """63A3: a revoke is established «когда представитель нарушившей стороны выступает или
    соглашается с претензией или уступкой». South (declarer) and East revoke in trick 1;
    the trick is complete, so a claim may follow."""
    revokes = "W:CA N:C2 E:HJ S:DJ"

    def established(text):
        return {r["seat"]: r["established"] for r in play(revokes + " " + text)["revokes"]}

    assert established("S:claim=12") == {"E": False, "S": True}  # awaiting East-West
    assert established("S:claim=12 d:agree") == {"E": True, "S": True}
    assert established("E:claim=12") == {"E": True, "S": False}  # all: nothing conceded
    assert established("E:claim=9") == {"E": False, "S": False}  # 68B2 may still void it
    assert established("E:claim=9 d:object") == {"E": False, "S": False}


def test_68b2_a_defenders_claim_of_fewer_than_all_voided_in_the_replay_tool():
    """The board replay tool's form of the same: the claim, then partner's `object`."""
    out = play(TRICK1 + " E:claim=9 d:object W:CK")
    assert out["status"] == "play" and out["refused"] == [] and rulings(out) == ["68A", "68B2"]
    assert play(TRICK1 + " E:claim=12 d:object")["refused"] == [5]  # conceded nothing
    assert play(TRICK1 + " S:concede=2 d:object")["refused"] == [5]  # the declarer's


def test_a_claim_of_true_tricks_is_refused_alike_on_both_interpreters():
    """JSON's true is not a number of tricks: CPython's bool is an int and MicroPython's is
    not, so the engine asks for an int itself (the last test replays this on MicroPython)."""
    out = play(TRICK1, extra=[{"claim": "S", "tricks": True}])
    assert out["refused"] == [4] and out["status"] == "play"


def test_70_a_disputed_concession_is_ruled_for_the_conceding_side():
    """70: the director's number is the tricks of the remaining for the side that claimed or
    conceded, as for a claim: South concedes 2 of 12, disputed, the director gives South's
    side 11 of the 12."""
    out = play(TRICK1 + " S:concede=2 d:dispute d:rule=11")
    assert out["result"] == 11 and "70" in rulings(out)
    out = play(TRICK1 + " E:concede=2 d:dispute d:rule=1")  # EW keep 1 (+ the first trick)
    assert out["result"] == 11


def test_68b2_a_voided_concession_establishes_no_revoke():
    """63A3: a revoke is established when «представитель нарушившей стороны выступает или
    соглашается с претензией или уступкой»; 68B2: «уступка не происходит». South's revoke
    in trick 1 can still be corrected (62A) after West's concession is voided; it is
    established once a claim stands."""
    revoke = "W:CA N:C2 E:C5 S:DJ"  # South holds clubs
    p = recorded(revoke, {"s": 3, "tr": 1, "ok": 2, "con": 1})
    assert p.status == "play" and "63A3" not in p.rulings and p.rulings[-2:] == ["68B", "68B2"]
    assert play_records.apply(p, "pdir", {"b": 1, "d": "correct"}) is True
    p = recorded(revoke, {"s": 2, "tr": 12, "ok": 1})
    assert "63A3" in p.rulings and p.revokes[0][3] & 1  # established


def test_68b2_a_defenders_claim_of_fewer_than_all_is_a_concession_his_partner_voids():
    """68B1: «претензия на некоторое количество взяток является уступкой остальных»; 68B2:
    «если вистующий пытается уступить одну или более взяток, а его партнер немедленно
    возражает, уступка не происходит». A claim of all the remaining concedes nothing, and
    neither does a concession of none: there is nothing to void."""
    def after(claim):
        try:
            return recorded(TRICK1, dict({"ok": 2}, **claim))
        except ValueError:
            return None

    p = after({"s": 1, "tr": 9})  # East claims 9 of 12: concedes 3; West objects
    assert p.status == "play" and p.claim is None and p.rulings[-2:] == ["68A", "68B2"]
    assert after({"s": 1, "tr": 12}) is None  # all of them: nothing conceded
    assert after({"s": 1, "tr": 0, "con": 1}) is None  # none conceded
    assert after({"s": 2, "tr": 9}) is None  # the declarer's: 68B2 is a defender's
    assert after({"s": 1, "tr": 13}) is None  # more than remain


def test_79_tricks_agreed_flow_into_result_and_disagreement_flagged():
    """79A1: 'Количество выигранных взяток должно быть согласовано'; 79B: 'Если впоследствии
    возникает разногласие, необходимо вызвать Судью'."""
    out = play(TRICK1 + " S:claim=12 d:agree agreed=12")
    assert out["agreed"] == 12 and out["flags"] == []
    out = play(TRICK1 + " S:claim=12 d:agree agreed=11")
    assert "79B" in out["flags"] and out["result"] == 12


def test_26_lead_restriction_from_the_auction():
    """26A: after a withdrawn call the declarer may require or forbid a lead of the suit;
    61A: failing to lead as required, when able, is a revoke."""
    out = play("", extra=[{"director": "require", "suit": "H", "seat": "W"}])
    assert out["lead_restriction"] == {"seat": "W", "kind": "require", "suit": "H"}
    out = play("", extra=[{"director": "require", "suit": "H", "seat": "W"},
                          {"seat": "W", "card": "CA"}])
    assert out["revokes"][0]["seat"] == "W"


def test_26_requirement_read_from_json_is_still_a_requirement():
    """26А2(а): «потребовать от партнера нарушителя пойти в эту масть»; 61А: failing to lead
    as required when able is a revoke. The entry arrives as JSON text (the replay tool) or
    CBOR (the host), not as the engine's own string object, and must mean the same."""
    line = json.dumps({"id": "req", "deal": DEAL, "contract": "4S", "declarer": "S",
                       "events": [{"director": "require", "suit": "H", "seat": "W"},
                                  {"seat": "W", "card": "CA"}]})
    out = replay_scenario(json.loads(line))
    assert out["revokes"][0]["seat"] == "W" and out["lead_restriction"] is None
    SCENARIOS.append(json.loads(line))


def auction_board(calls, text="", extra=()):
    """A whole board: the auction ('N:1S E:1H d:reject ...', dealer N), then the play."""
    evs = []
    for word in calls.split():
        head, _, rest = word.partition(":")
        evs.append({"director": rest} if head == "d" else {"seat": head, "call": rest})
    obj = {"id": "a%d" % len(SCENARIOS), "dealer": "N", "deal": DEAL,
           "events": evs + events(text) + list(extra)}
    SCENARIOS.append(obj)
    return replay_scenario(obj)


# E's 1H is replaced by 2C (27B2): 26A on hearts for E; declarer N, E leads, partner W.
AUCTION_26A = "N:1S E:1H d:reject E:2C S:2S W:P N:P E:P"
# W's double out of rotation (32A), cancelled: 26B for W; declarer N, E (partner) leads.
AUCTION_26B = "N:1S W:X d:reject E:P S:2S W:P N:P E:P"
NO_IRREGULARITY = "N:1S E:P S:2S W:P N:P E:P"


def w26(kind, suit, seat="W"):
    return {"director": kind, "suit": suit, "seat": seat}


def test_26_restriction_waits_for_the_partners_first_lead():
    """26А2: «в ближайшую очередь хода партнера нарушителя (которая может быть и первым
    ходом) разыгрывающий может: (а) потребовать от партнера нарушителя пойти в эту масть»
    (at the offender's partner's next turn to lead, which may be the opening lead): E, the
    offender, leads first; his partner W is restricted at his first lead, in trick 2.
    61А: failing to lead as required, when able, is a revoke."""
    out = auction_board(AUCTION_26A, "", [w26("require", "H")])
    assert out["lead"] == [{"offender": "E", "law": "26A", "suits": ["H"]}]
    out = auction_board(AUCTION_26A, "", [w26("require", "H")] + events("E:C7 S:C8 W:CA N:C2"))
    assert out["lead_restriction"] == {"seat": "W", "kind": "require", "suit": "H"}
    out = auction_board(AUCTION_26A, "", [w26("require", "H")] +
                        events("E:C7 S:C8 W:CA N:C2 W:S2"))  # W holds hearts
    assert [(r["seat"], r["trick"], r["law"]) for r in out["revokes"]] == [("W", 2, "61")]
    assert out["lead_restriction"] is None
    # entered when W first has the lead, after trick 1
    out = auction_board(AUCTION_26A, "E:C7 S:C8 W:CA N:C2", [w26("require", "H")] +
                        events("W:H2"))
    assert out["refused"] == [] and out["revokes"] == [] and "26" in rulings(out)
    assert out["lead_restriction"] is None
    # once W has led, his "next turn to lead" is over: no entry any more
    out = auction_board(AUCTION_26A, "E:C7 S:C8 W:CA N:C2 W:S2 N:SA", [w26("forbid", "H")])
    assert out["refused"] == [14]


def test_26_an_accepted_lead_out_of_turn_is_not_the_partners_turn_to_lead():
    """26А2: «в ближайшую очередь хода партнера нарушителя (которая может быть и первым
    ходом)»; 26Б: «в его ближайшую очередь хода, включая первый ход». W, the offender's
    partner, faces the opening lead out of turn (E's turn) and the declarer accepts it (54Б):
    that lead was not W's turn, so the restriction, entered before or after it, applies at
    W's next lead in turn (trick 2, which W leads after winning trick 1)."""
    out_of_turn = events("W:CA") + [{"director": "accept"}] + events("N:C2 E:C5 S:C8")
    before = auction_board(AUCTION_26A, "", [w26("require", "H")] + out_of_turn +
                           events("W:S2"))
    after = auction_board(AUCTION_26A, "", out_of_turn + [w26("require", "H")] +
                          events("W:S2"))  # W holds hearts: a spade is a revoke (61А)
    for out in (before, after):
        assert out["refused"] == [] and "54B" in rulings(out) and "26" in rulings(out)
        assert [(r["seat"], r["trick"]) for r in out["revokes"]] == [("W", 2)]
    # his lead in turn is the restricted one: after it the declarer's choice has passed
    out = auction_board(AUCTION_26A, "", out_of_turn + events("W:H2 N:H8 E:HJ S:H6") +
                        [w26("forbid", "H")])
    assert out["refused"] == [17]


def test_26_entries_must_be_what_the_auction_gave():
    """26 applies only «если заявка нарушившего игрока берется назад... если он становится
    вистующим», and only to «партнера нарушителя»; 26А2(а)/(б): require or forbid «эту масть»
    (the suit of the withdrawn call); 26Б: for other calls the declarer «может запретить
    партнеру нарушителя ходить в любую (одну) масть» — a prohibition only."""
    out = auction_board(NO_IRREGULARITY, "", [w26("forbid", "H")])
    assert out["lead"] == [] and out["refused"] == [6] and out["lead_restriction"] is None
    out = auction_board(AUCTION_26B, "", [w26("require", "H", "E")])  # 26B: no requirement
    assert out["lead"] == [{"offender": "W", "law": "26B"}] and out["refused"] == [8]
    out = auction_board(AUCTION_26B, "", [w26("forbid", "H", "W")])  # not the offender
    assert out["refused"] == [8]
    out = auction_board(AUCTION_26B, "", [w26("forbid", "D", "E")])  # any one suit
    assert out["refused"] == [] and out["lead_restriction"] == {
        "seat": "E", "kind": "forbid", "suit": "D"}
    out = auction_board(AUCTION_26A, "", [w26("forbid", "D")])  # 26A: hearts only
    assert out["refused"] == [8]
    out = auction_board(AUCTION_26A, "", [w26("forbid", "H")])
    assert out["refused"] == [] and out["lead_restriction"]["kind"] == "forbid"


def auction_only(calls):
    """An auction scenario of AUCTION_LOG.md (dealer N) through the replay tool."""
    from bridge.replay import replay_line
    evs = []
    for word in calls.split():
        head, _, rest = word.partition(":")
        evs.append({"director": rest} if head == "d" else {"seat": head, "call": rest})
    return json.loads(replay_line(json.dumps({"id": "a", "dealer": "N", "events": evs})))


def test_38_bid_above_seven_out_of_rotation_and_its_lead_restriction():
    """38Б: «Назначение выше семи отменяется вместе с последующими заявками»; 38В: «оба игрока
    нарушившей стороны обязаны пасовать каждый раз в свою очередь делать заявку»; 38Г: «могут
    применяться ограничения на ход по Правилу 26». W's 8S at E's turn."""
    out = auction_only("N:1S W:8S d:reject")
    assert out["rulings"] == ["38"] and out["turn"] == "E" and out["calls"] == [["N", "1S"]]
    assert out["must_pass"] == {"E": "throughout", "W": "throughout"}
    assert out["lead"] == [{"offender": "W", "law": "26A", "suits": ["S"]}]
    out = auction_board("N:1S W:8S d:reject E:P S:2S W:P N:P E:P", "", [w26("forbid", "S", "E")])
    assert out["lead"] == [{"offender": "W", "law": "26A", "suits": ["S"]}]
    assert out["refused"] == [] and out["lead_restriction"]["seat"] == "E"


def test_36_redouble_out_of_rotation_then_the_proper_player_calls_28b():
    """As the engine rules it (docs/AUCTION_LOG.md, decisions): W's inadmissible XX at S's turn,
    then S calls: 28Б «выполнение такой заявки приводит к утрате права на исправление за заявку
    вне очередности... Торговля продолжается так, как если бы оппонент не делал заявки вне
    очереди»: no 36Б4 obligation and no Law 26 (the other reading: 36Б4 «его партнер обязан
    каждый раз пасовать» survives, since 28Б forfeits only the out-of-rotation rectification)."""
    out = auction_only("N:1S E:P W:XX S:P")
    assert out["rulings"] == ["28B"] and out["must_pass"] == {} and out["lead"] == []
    assert out["calls"] == [["N", "1S"], ["E", "P"], ["S", "P"]] and out["turn"] == "W"


def test_bad_input_is_refused_and_changes_nothing():
    """A card not in that hand, a card played twice, a card of another seat, a bad token, a
    director's entry with nothing to rule on: each refused by index, nothing changes."""
    out = play("W:CA N:C2 E:CA E:SA W:ZZ d:accept E:C5 S:C8",
               extra=[{"seat": "Q", "card": "S2"}, {"bogus": 1}, "text"])
    assert out["refused"] == [2, 3, 4, 5, 8, 9, 10]
    assert out["tricks"][0]["cards"] == ["CA", "C2", "C5", "C8"] and out["rulings"] == []


def test_the_documented_example_replays_as_documented():
    """docs/BOARD_LOG.md: its input example gives exactly its output example."""
    from conftest import ROOT
    text = (ROOT / "docs" / "BOARD_LOG.md").read_text()
    blocks = [b.split("```")[0] for b in text.split("```json")[1:3]]
    scenario, output = (json.loads(" ".join(b.split())) for b in blocks)
    SCENARIOS.append(scenario)
    assert replay_scenario(scenario) == output


# -- both interpreters ---------------------------------------------------------------------

def test_every_law_scenario_same_on_micropython():
    """Every board of this file, replayed again by the replay tool under MicroPython (which
    hands whole boards to bridge.board_replay): the same bytes."""
    SCENARIOS.clear()  # rebuilt here, so the test stands alone (pytest -n runs tests apart)
    for name, test in sorted(globals().items()):
        if name.startswith("test_") and test is not test_every_law_scenario_same_on_micropython:
            test()
    assert len(SCENARIOS) > 40
    stdin = "".join(json.dumps(s) + "\n" for s in SCENARIOS).encode()
    expected = "".join(encode(replay_scenario(s)) + "\n" for s in SCENARIOS)
    proc = run_device(["-m", "bridge.replay"], interpreter="micropython", stdin=stdin)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode() == expected
