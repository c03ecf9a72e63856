"""The auction on the screen after the final pass, until the opening lead is faced (issue 15,
item 4). With bidding boxes the calls stay on the table until then; the terminal replaces
them. Law 20C1: "after the final pass either defender has the right to ask if it is his
opening lead"; 41B: "before the opening lead is faced, the leader's partner and the presumed
declarer may require a review of the auction", and declarer or either defender at his first
turn to play (20C2). Once the lead is faced (recorded alone, or as the play's first card)
the calls are put away: PASS is refused with the reason."""

from terminal.config import holder
from terminal_support import Terminal, card_keys, legal_card, make_config

LONG = ("1 C PASS 1 D PASS 1 H PASS 1 S PASS 1 NT PASS 2 C PASS 2 D PASS 2 H PASS 2 S "
        "PASS 3 C PASS 3 S PASS PASS PASS")  # 3S by South (1S first) after six rounds


def lines(term):
    return term.app.lines()


def test_the_auction_is_shown_on_the_lead_screen_and_put_away_once_led(tmp_path):
    term = Terminal(tmp_path, make_config()).press("OK OK OK PASS PASS 4 S PASS PASS PASS")
    assert "PASS: торговля" in term.text()
    term.press("PASS")
    shown = lines(term)
    assert shown[0] == "Торговля Сд1"
    assert shown[1] == "  С    В    Ю    З"
    assert shown[2] == "  Пас  Пас  4♠   Пас"
    assert shown[3] == "  Пас  Пас"
    assert shown[6] == "4♠ Ю  ходит З"  # 20C1: whose opening lead it is
    n = len(term.records())
    term.press("1 OK")  # nothing is recorded from the review
    assert len(term.records()) == n and "Торговля" in term.text()
    term.press("BACK")
    assert "Первый ход: З" in term.text()
    deal = term.app.session.current.deal
    term.press(card_keys(next(c for c in range(52) if holder(deal, c) == 3)))  # West leads
    assert "Взятки разыгрывающего" in term.text()
    term.press("PASS")  # the lead is faced: the calls are put away
    assert "Первый ход сделан" in term.text() and len(term.records()) == n + 1


def test_a_long_auction_scrolls_and_every_call_is_there(tmp_path):
    term = Terminal(tmp_path, make_config(lang="en")).press("OK OK OK " + LONG + " PASS")
    assert lines(term)[0] == "Auction Bd1 ↑↓"
    assert lines(term)[2:6] == ["  1♣   Pas  1♦   Pas", "  1♥   Pas  1♠   Pas",
                                "  1NT  Pas  2♣   Pas", "  2♦   Pas  2♥   Pas"]
    term.press("DOWN DOWN DOWN DOWN")  # as far as it goes: the last rounds
    assert lines(term)[2:7] == ["  1NT  Pas  2♣   Pas", "  2♦   Pas  2♥   Pas",
                                "  2♠   Pas  3♣   Pas", "  3♠   Pas  Pas  Pas",
                                "3♠ S  W leads"]  # South bid spades first
    term.press("UP UP UP")
    assert lines(term)[2] == "  1♣   Pas  1♦   Pas"


def test_no_auction_to_show_after_a_quick_entry(tmp_path):
    term = Terminal(tmp_path, make_config()).press("OK OK OK MENU 1 4 S C OK")
    assert "Первый ход" in term.text() and "PASS: торговля" not in term.text()
    term.press("PASS")
    assert "Торговля не записана" in term.text()


def test_with_the_play_recorded_until_the_first_card(tmp_path):
    """41B: at his first turn to play; the right is lost once the lead is faced."""
    term = Terminal(tmp_path, make_config(play=1)).press(
        "OK OK OK PASS PASS 4 S PASS PASS PASS")
    assert "PASS: торговля" in term.text()
    term.press("PASS")
    assert "Торговля Сд1" in term.text() and "ходит З" in term.text()
    term.press("BACK")
    play = term.app.session.current.get_play()
    term.press(card_keys(legal_card(play)))
    assert "PASS: торговля" not in term.text()
    term.press("PASS")
    assert "Первый ход сделан" in term.text() and "Торговля Сд1" not in term.text()
