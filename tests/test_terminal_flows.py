"""The terminal's flows, in process: start of a round, the auction with irregularities and the
director's rulings, quick entry, the opening lead check, tricks limits, verification,
corrections, Law 15, adjusted scores, the language switch and resuming from the journal."""

import pytest
from terminal.config import suit_masks
from terminal.session import Session
from terminal_support import PIN, Config, Terminal, impossible, make_config, on_both

PINKEYS = " ".join(PIN)


@pytest.fixture
def term(tmp_path):
    return Terminal(tmp_path, make_config())


def opened(term):
    """Round 1 opened from the configuration: board 1 (dealer N) on the auction screen."""
    return term.press("OK OK OK")


def kinds(term):
    return [k for k, _ in term.records()]


def test_round_opens_from_the_pushed_configuration(term):
    assert "Секция A  Стол 3" in term.text() and "NS 3 - EW 11" in term.text()
    term.press("OK")
    assert "С: 106" in term.text() and "В: 122" in term.text()  # player numbers filled in
    term.press("OK")
    assert term.records() == [("open", {"sec": "A", "tbl": 3, "rnd": 1, "ns": 3, "ew": 11,
                                        "bd": [1, 4], "pl": [106, 122, 107, 123]})]
    assert "Раунд 1" in term.text() and "Далее: NS→ост. EW→4" in term.text()
    term.press("OK")
    assert term.records()[-1] == ("board", {"b": 1})
    assert "Ход: С" in term.text()


def test_round_typed_in_without_configuration(tmp_path):
    t = Terminal(tmp_path)
    assert "Нет конфигурации" in t.text()
    t.press("OK 2 DOWN 7 DOWN 1 DOWN 4 DOWN 9 DOWN 5 DOWN 8 OK")  # B, table 7, round 1 ...
    t.press("1 1 DOWN 2 2 DOWN 3 3 DOWN 4 4 OK")
    assert t.records()[0] == ("open", {"sec": "B", "tbl": 7, "rnd": 1, "ns": 4, "ew": 9,
                                       "bd": [5, 8], "pl": [11, 22, 33, 44]})
    assert "OK сдача 5" in t.text()


def test_typed_in_round_refuses_impossible_values(tmp_path):
    t = Terminal(tmp_path)
    t.press("OK 2 DOWN 7 DOWN 1 DOWN 4 DOWN 4 DOWN 5 DOWN 8 OK")  # NS and EW the same pair
    assert t.records() == [] and "Ввод вручную" in t.text()
    t.app.beep = None
    t.press("UP UP UP 9 9 9")  # table 999 is the largest: a fourth digit is refused
    t.press("9")
    assert t.app.beep is not None


def test_bidding_box_auction_records_each_call_at_once(term):
    opened(term)
    term.press("1 S")
    assert term.records()[-1] == ("call", {"b": 1, "s": 0, "c": 6})
    assert "Ход: В" in term.text()
    term.press("PASS 4 S PASS PASS PASS")
    calls = [d for k, d in term.records() if k == "call"]
    assert [(d["s"], d["c"]) for d in calls] == [(0, 6), (1, 0), (2, 21), (3, 0), (0, 0),
                                                 (1, 0)]
    assert "Первый ход: В" in term.text() and "4♠ С" in term.text()


def test_a_long_auction_shows_its_last_four_rounds_and_whose_call_it_is(term):
    """From the fifth round on the table scrolls: the title, the seats and the last four
    rounds, and the last line still says who calls (it fell off the screen before)."""
    opened(term)
    term.press("1 C 1 D 1 H 1 S 2 C 2 D 2 H 2 S 3 C 3 D 3 H 3 S 4 C 4 D 4 H 4 S 5 C")
    lines = term.app.lines()
    assert lines[6] == "Ход: В: _" and lines[1].split() == ["С", "В", "Ю", "З"]
    assert lines[2].split() == ["2♣", "2♦", "2♥", "2♠"] and lines[5].split() == ["5♣"]


def test_a_level_then_pass_is_refused_and_nothing_recorded(term):
    opened(term)
    n = len(term.records())
    term.press("3 PASS")
    assert len(term.records()) == n and term.app.beep is not None


def test_insufficient_bid_calls_the_director_and_blocks_the_auction(term):
    opened(term)
    term.press("1 S 1 H")
    assert "ДИРЕКТОР" in term.text() and "Пр.27" in term.text()
    assert term.records()[-1] == ("flag", {"b": 1, "law": "27", "why": "irregular"})
    assert term.app.alert()
    n = len(term.records())
    term.press("PASS 2 H X")  # nobody can call until the director rules
    assert len(term.records()) == n
    term.press("DIR 9 9 9 9 OK")  # journaled for the host's list, and nothing else
    assert "Неверный PIN" in term.text() and len(term.records()) == n + 1
    assert term.records()[-1] == ("td", {"ok": 0})
    term.press("%s OK 2" % PINKEYS)
    assert "Принять может: Ю" in term.text()
    term.press("3")  # the option "not accepted"
    assert "27B1a" in term.text()
    term.press("OK")
    assert term.records()[-1] == ("dir", {"b": 1, "d": "reject"})
    assert "Замена назначения" in term.text()
    term.press("2 2 H")  # same meaning (27B1b): the flag rides on the replacement
    assert term.records()[-1] == ("call", {"b": 1, "s": 1, "c": 10, "sm": 1})
    assert not term.app.alert() and "Ход: Ю" in term.text()


def test_out_of_rotation_call_via_menu_and_lho_calls_option(term):
    opened(term)
    term.press("MENU H 1 NT")  # South bids out of rotation (North's turn)
    assert term.records()[-2] == ("call", {"b": 1, "s": 2, "c": 7})
    assert "Пр.31" in term.text()
    term.press("DIR %s OK 2 2 OK" % PINKEYS)  # option 2: the offender's LHO calls
    assert "Директор: заявка З" in term.text()
    term.press("PASS")
    assert term.records()[-1] == ("call", {"b": 1, "s": 3, "c": 0})
    assert "ДИРЕКТОР" not in term.text()


def test_change_of_call_25a(term):
    opened(term)
    term.press("1 S BACK")
    assert "Замена" in term.text()
    term.press("1 NT")
    assert term.records()[-1] == ("call", {"b": 1, "s": 0, "c": 7, "ch": 1})
    assert "1БК" in term.text() and "Ход: В" in term.text()


def test_director_call_flag_from_any_screen(term):
    opened(term)
    assert not term.app.alert()
    term.press("DIR OK")
    assert term.records()[-1] == ("flag", {"b": 1, "law": None, "why": "dircall"})
    assert "Директор вызван" in term.text()
    term.press("1 S")
    assert term.app.alert()  # the red LED blinks until the director comes
    term.press("DIR %s OK" % PINKEYS)
    assert not term.app.alert()


def test_quick_entry_accepts_only_possible_contracts(term):
    opened(term)
    term.press("MENU 1")
    assert "Быстрый ввод" in term.text()
    n = len(term.records())
    term.press("8 9 0")  # no contract above 7 or below 1
    assert "Контракт: _" in term.text()
    term.press("6 NT XX XX X D")
    assert "6БКX В" in term.text()
    term.press("OK")
    assert term.records()[n:] == [("quick", {"b": 1, "ct": 32, "x": 1, "dcl": 1})]


def test_quick_entry_passed_out(term):
    opened(term)
    term.press("MENU 1 PASS OK")
    assert term.records()[-1] == ("quick", {"b": 1, "po": 1})
    term.press("OK")
    assert term.records()[-1] == ("res", {"b": 1, "tr": 0, "sc": 0})


def auction_4s_by_south(term):
    opened(term)
    term.press("PASS PASS 4 S PASS PASS PASS")  # board 1: 4S by South, West leads


def test_opening_lead_is_checked_against_the_hand_record(term):
    auction_4s_by_south(term)
    deal = suit_masks(term.app.session.current.deal)
    west_spades = deal[3 * 4 + 3]
    missing = next(r for r in range(13) if not west_spades >> r & 1)
    held = next(r for r in range(13) if west_spades >> r & 1)
    rank_keys = ["2", "3", "4", "5", "6", "7", "8", "9", "0", "C", "D", "H", "S"]
    n = len(term.records())
    term.press("S " + rank_keys[missing])  # refused in words that name nobody's cards
    assert term.records()[n:] == [("rc", {"b": 1, "s": 3, "cd": 39 + missing})]
    assert term.app.lines()[-1] == "Карта не принята"
    n += 1
    term.press("UP S " + rank_keys[held])  # North is not the leader
    assert len(term.records()) == n and "Ходит ЛО разыгр.: З" in term.text()
    term.press("DOWN S " + rank_keys[held])
    assert term.records()[-1] == ("lead", {"b": 1, "s": 3, "cd": 39 + held})
    assert "Взятки разыгрывающего" in term.text()


def test_tricks_only_possible_values(term):
    auction_4s_by_south(term)
    term.press("OK")  # no lead
    n = len(term.records())
    term.press("1 4")  # 14 tricks: the 4 is refused
    assert "1 (-9)" in term.text()
    term.press("BACK UP")
    assert "10 (=)" in term.text() and "NS +420  EW -420" in term.text()
    term.press("UP UP UP UP")  # 13, then refused
    assert "13 (+3)" in term.text()
    term.press("BACK BACK DOWN DOWN")  # typed digits deleted, then down from "="
    assert "9 (-1)" in term.text() and "NS -50" in term.text()
    assert len(term.records()) == n
    term.press("OK")
    assert term.records()[-1] == ("res", {"b": 1, "tr": 9, "sc": -50})


def test_verification_and_dispute(term):
    auction_4s_by_south(term)
    term.press("OK UP OK")
    assert "Противники: OK верно" in term.text()
    term.press("BACK")
    assert term.records()[-3:] == [("ver", {"b": 1, "ok": 0}),
                                   ("flag", {"b": 1, "law": None, "why": "dispute"}),
                                   ("erase", {"b": 1})]  # the refused result is gone
    assert "Взятки разыгрывающего" in term.text() and "10" not in term.text()
    term.press("UP UP OK OK")
    assert term.records()[-2:] == [("res", {"b": 1, "tr": 11, "sc": 450}),
                                   ("ver", {"b": 1, "ok": 1})]
    assert "4♠ Ю +1" in term.text() and "NS +450" in term.text()


def test_correction_until_the_round_closes(term):
    auction_4s_by_south(term)
    term.press("OK UP OK OK BACK DOWN DOWN OK OK")
    assert term.records()[-2:] == [("res", {"b": 1, "tr": 9, "sc": -50}),
                                   ("ver", {"b": 1, "ok": 1})]
    assert not impossible(term.records())


def play_round_quick(term, first):
    for b in range(first, first + 4):
        term.press("MENU 1 1 C C OK OK UP OK OK OK")


def test_law15_wrong_board_played_before_and_out_of_order(term):
    opened(term)
    term.press("MENU 2 3 OK")  # board 3 of this round, before board 1: out of order
    assert "Не по порядку!" in term.text()
    term.press("OK")
    assert term.records()[-2:] == [("board", {"b": 3}),
                                   ("flag", {"b": 3, "law": None, "why": "out_of_order"})]
    term.press("MENU 2 9 OK")  # board 9 is not in round 1
    assert "Не из этого раунда!" in term.text() and "Правило 15" in term.text()
    term.press("OK")
    assert term.records()[-1] == ("flag", {"b": 9, "law": "15", "why": "wrong_board"})


def test_law15_board_already_played_by_the_pair(term):
    opened(term)
    play_round_quick(term, 1)
    term.press("OK OK")  # close round 1
    assert term.records()[-1] == ("close", {"rnd": 1})
    term.press("OK OK")  # round 2: NS pair 3 again
    term.press("2 OK")  # board 2 was played by NS 3 in round 1
    assert "Уже игралась парой!" in term.text()
    term.press("OK")
    assert term.records()[-1] == ("flag", {"b": 2, "law": "15", "why": "played_before"})


def test_the_table_gets_its_next_round_past_one_it_sits_out_numbered_as_the_event(tmp_path):
    """A round robin's later day numbers its rounds from 6, and the table sits out round 7:
    the terminal offers round 6 first, then 8, under MicroPython as under CPython (it looked
    for round 1, then 7: "no configuration", then "the session is over")."""
    data = make_config()
    data["rounds"] = [dict(r, r=r["r"] + 5) for r in data["rounds"] if r["r"] != 2]
    quick = " ".join(["MENU 1 1 C C OK OK UP OK OK OK"] * 4)
    got = on_both(tmp_path, data, "shot first\nOK OK OK %s OK OK\nshot next\nOK OK\n" % quick,
                  ("first", "next"))
    assert got["micropython"] == got["cpython"]
    records, (first, after) = got["cpython"]
    assert "Раунд 6" in first and "NS 3 - EW 11" in first
    assert records[0] == ("open", {"sec": "A", "tbl": 3, "rnd": 6, "ns": 3, "ew": 11,
                                       "bd": [1, 4], "pl": [106, 122, 107, 123]})
    assert ("close", {"rnd": 6}) in records
    assert "Раунд 8" in after and "NS 3 - EW 13" in after
    assert records[-1] == ("open", {"sec": "A", "tbl": 3, "rnd": 8, "ns": 3, "ew": 13,
                                        "bd": [9, 12], "pl": [106, 126, 107, 127]})


def test_closed_round_allows_no_corrections(term):
    opened(term)
    play_round_quick(term, 1)
    term.press("OK OK")
    assert "Раунд 2" in term.text()
    n = len(term.records())
    term.press("BACK BACK UP OK")  # nothing leads back into round 1
    assert all(k != "res" for k, _ in term.records()[n:])


def test_director_adjusted_scores(term):
    opened(term)
    term.press("DIR %s OK 3 1 6 DOWN 4 OK" % PINKEYS)
    assert term.records()[-1] == ("adj", {"b": 1, "how": "art", "ns": 60, "ew": 40})
    term.press("3 2 4 H D OK UP OK")
    assert term.records()[-1] == ("adj", {"b": 1, "how": "asg", "ct": 20, "x": 0, "dcl": 1,
                                          "tr": 10})
    term.press("3 3 6 0 OK 4 S C OK UP OK 4 0 OK 4 S C OK UP DOWN OK")
    assert term.records()[-1] == ("adj", {"b": 1, "how": "wgt", "parts": [
        [60, 21, 0, 0, 10], [40, 21, 0, 0, 9]]})
    term.press("3 4 OK")
    assert term.records()[-1] == ("adj", {"b": 1, "how": "np"})
    term.press("BACK")
    assert "Скорректирован" in term.text() and "Не игралась" in term.text()
    assert not impossible(term.records())


def test_weighted_score_must_add_up_to_100(term):
    opened(term)
    term.press("DIR %s OK 3 3 1 0 1" % PINKEYS)  # 101% is refused as it is typed
    assert "Процент: 10" in term.text()


def test_director_erases_a_result(term):
    auction_4s_by_south(term)
    term.press("OK UP OK OK")
    term.press("DIR %s OK 4 OK" % PINKEYS)
    assert term.records()[-1] == ("erase", {"b": 1})
    term.press("BACK")
    assert "Взятки разыгрывающего" in term.text()


def test_director_shows_law26_restrictions(term):
    opened(term)
    term.press("PASS 1 S 1 H")  # East 1S, South 1H insufficient
    term.press("DIR %s OK 2 3 OK 1 2 C" % PINKEYS)  # not accepted; replaced by 2C (27B2)
    term.press("PASS PASS 2 S PASS PASS PASS")  # North must pass; 2S by East
    assert "!огр.хода 26" in term.text()
    term.start()  # a power cut on the lead: the warning is rebuilt from the journal
    assert "!огр.хода 26" in term.text()
    term.press("DIR %s OK 5" % PINKEYS)
    assert "Ю: 26A ♥" in term.text()


def test_language_switch(term):
    opened(term)
    term.press("MENU 3")
    assert "Call: N" in term.text() and "Bd1 Dlr:N Vul:none" in term.text()
    term.press("MENU 3")
    assert "Ход: С" in term.text()


def test_resume_after_restart_mid_auction_and_mid_irregularity(term):
    opened(term)
    term.press("1 S PASS 2")  # the "2" is half a call: never recorded
    before = term.text()
    term.start()
    assert term.text() != before and "Ход: Ю" in term.text() and "1♠" in term.text()
    term.press("1 H")
    assert "ДИРЕКТОР" in term.text()
    term.start()
    assert "ДИРЕКТОР" in term.text() and term.app.alert()
    term.press("DIR %s OK 2 1 OK" % PINKEYS)
    assert "Ход: З" in term.text()


def test_resume_on_the_verification_screen(term):
    auction_4s_by_south(term)
    term.press("OK UP OK")
    term.start()
    assert "Противники: OK верно" in term.text()


def test_bad_configuration_falls_back_to_defaults(tmp_path):
    path = tmp_path / "config.cbor"
    path.write_bytes(b"\xa1\x63tbl")  # truncated CBOR
    c = Config.load(str(path))
    assert c.errors and not c.pushed and c.pin_ok("0000")
    c = Config({"tbl": "three", "rounds": [{"r": 1}], "boards": {1: {"pbn": "N:nonsense"}}})
    assert c.errors == ["tbl", "round", "board 1"]
    assert c.board(1) == (0, "None", None) and c.board(2)[1] == "NS"


def test_the_score_shown_takes_each_declarers_own_vulnerability():
    """East or South declaring must score with their own side's vulnerability (a seat
    lookup in the wrong order once gave East NS's and South EW's)."""
    from bridge.calls import bid
    from terminal.session import ns_score

    four_spades = bid(4, 3)
    assert ns_score((four_spades, 0, 1), "EW", 10) == -620  # East, vulnerable
    assert ns_score((four_spades, 0, 2), "NS", 10) == 620  # South, vulnerable
    assert ns_score((four_spades, 0, 2), "EW", 10) == 420
    assert ns_score((four_spades, 0, 3), "NS", 10) == -420


def test_a_record_the_session_cannot_use_changes_nothing():
    """An `open` without its round, in the middle of one, is skipped: the point compaction
    may reach (the state before the round) stays where it was."""
    s = Session(Config(None))
    s.apply("open", {"rnd": 1, "sec": "A", "tbl": 3, "ns": 3, "ew": 11}, 1)
    s.apply("board", {"b": 1}, 2)
    kept = s.checkpoint()
    assert kept[0] == 0 and kept[1] is not None
    s.apply("open", {"sec": "A", "tbl": 3, "ns": 3, "ew": 11}, 3)
    s.apply("open", {"rnd": 2, "sec": "A", "tbl": 3, "ns": 3}, 4)
    s.apply("open", {"rnd": 2, "sec": "A", "tbl": 3, "ns": 3, "ew": 12, "bd": 5}, 4)
    assert s.skipped == 3 and s.checkpoint() == kept and s.round == 1 and s.ew == 11
    s.apply("res", {"b": 1, "tr": 10, "sc": 420}, 5)
    s.apply("ver", {"b": 1, "ok": 1}, 6)
    s.apply("res", {"b": 1, "tr": 9}, 7)  # no score: the verified result stands
    board = s.boards[1]
    assert s.skipped == 4 and (board.tricks, board.score, board.verified) == (10, 420, True)
