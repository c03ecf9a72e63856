"""Every refused call or card says why, in the player's words (issue 15, item 8), and the
director's options fit the screen as short lines, the full text on request."""

from terminal_support import PIN, Terminal, card_keys, make_config

PINKEYS = " ".join(PIN)


def note(term):
    """The message on the last line (the reason of a refusal), and a beep with it."""
    assert term.app.beep is not None
    return term.app.lines()[-1]


def test_after_a_law_31_ruling_the_offender_is_told_the_call_he_must_repeat(tmp_path):
    """31A1: «если ПО нарушителя спасовал, нарушитель обязан повторить назначение, сделанное
    вне очередности; исправления нет»: any other call of his is refused, and says which."""
    term = Terminal(tmp_path, make_config()).press("OK OK OK MENU D 1 NT")  # East, N's turn
    term.press("DIR %s OK 2 4 OK PASS" % PINKEYS)  # not accepted; North passes
    n = len(term.records())
    term.press("2 C")
    assert note(term) == "В: повторите 1БК"
    assert term.records()[n:] == [("call", {"b": 1, "s": 1, "c": 8})]  # kept for the host
    term.press("MENU 3 2 C")
    assert note(term) == "E must repeat 1NT"
    term.press("1 NT")
    assert term.records()[-1] == ("call", {"b": 1, "s": 1, "c": 7})


def test_while_the_director_is_awaited_calls_and_cards_say_so(tmp_path):
    term = Terminal(tmp_path, make_config()).press("OK OK OK 1 S 1 H")  # insufficient (27)
    term.press("PASS")
    assert note(term) == "Ждите директора"
    (tmp_path / "play").mkdir()
    play = Terminal(tmp_path / "play", make_config(play=1))
    play.press("OK OK OK PASS PASS 4 S PASS PASS PASS")
    board = play.app.session.current
    north = next(c for c in range(52) if board.get_play().holds(0, c // 13) & 1 << (c % 13))
    play.press("MENU C " + card_keys(north))  # North leads out of turn (54): held
    play.press("H 2")
    assert note(play) == "Ждите директора"


def test_keys_that_make_no_call_or_card_say_what_is_wanted(tmp_path):
    term = Terminal(tmp_path, make_config()).press("OK OK OK")
    term.press("S")
    assert note(term) == "Сначала уровень 1-7"
    term.press("3 PASS")
    assert note(term) == "Теперь масть или БК" and term.records()[-1][0] == "board"
    term.press("BACK")
    assert note(term) == "Заявок еще нет"
    term.press("PASS PASS 4 S PASS PASS PASS S X")  # the lead: a spade, then not a rank
    assert note(term) == "2-9 0=10 ♣В ♦Д ♥К ♠Т"


def test_the_options_are_a_line_each_and_the_full_text_comes_on_request(tmp_path):
    term = Terminal(tmp_path, make_config()).press("OK OK OK 1 S 1 H DIR %s OK 2" % PINKEYS)
    shown = term.app.lines()
    assert shown == ["Пр.27 В:1♥", "Принять может: Ю", "1 принять (ЛО)", "2 ЛО заявляет",
                     "3 не принимать", "4 нарушитель заменяет", "Цифра: вариант"]
    term.press("3")  # the full text: the law, the option, the paragraphs it leads to
    shown = term.app.lines()
    assert shown[1:3] == ["Недостаточное", "назначение"] and "3 Заявка не принята и" in shown
    term.press("DOWN DOWN DOWN")
    assert "27B1a: Ближайшее" in "\n".join(term.app.lines())
    term.press("BACK")
    assert term.app.lines()[2] == "1 принять (ЛО)"


def test_the_replacement_judgment_names_natural_as_the_laws_do(tmp_path):
    """27B1a «не искусственное»: естественное назначение, not «обычная»; every option whole."""
    term = Terminal(tmp_path, make_config()).press("OK OK OK 1 S 1 H DIR %s OK 2 3 OK" % PINKEYS)
    shown = term.app.lines()
    assert shown[3:6] == ["1 естественная 27B1a", "2 то же знач. 27B1b", "3 искусственная"]
    assert all(len(line) <= 21 for line in shown)
