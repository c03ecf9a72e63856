"""Every refused call or card says why, in the player's words (issue 15, item 8), and the
director's options fit the screen as short lines, the full text on request."""

import re
from pathlib import Path

from terminal import ui_text
from terminal.play_director import PlayRulingScreen
from terminal_support import PIN, Terminal, card_keys, make_config, on_both

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


TERMINAL = Path(__file__).resolve().parent.parent / "device" / "terminal"


def test_no_refusal_is_left_without_its_reason():
    """The generic «Не принято правилами» is gone: every refusal that shows a text names its
    reason (the table has no such text any more, no screen asks for one), and the texts a
    refusal shows fit the 21 columns."""
    assert "\nrefused|" not in ui_text._T and "Не принято" not in ui_text._T
    said = []
    for path in sorted(TERMINAL.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        assert 't("refused")' not in source, path.name
        said += re.findall(r'refuse\(t\("(\w+)"\)', source)
    assert len(said) >= 15  # what this walks: the refusals that say why
    for lang in ("ru", "en"):
        ui_text.set_lang(lang)
        for key in said + ["no_change", "no_pending", "pd_option"]:
            text = ui_text.t(key)
            assert text != key and len(text % ((0,) * text.count("%"))) <= 21, key
    ui_text.set_lang("ru")


def test_a_change_that_is_no_longer_one_says_why_under_micropython(tmp_path):
    """Law 25: a player changes his own call only while it is the last thing done; after the
    director accepted East's call out of rotation (29A) a change of it is refused, and the
    screen says there is no call to change, under MicroPython as under CPython."""
    keys = "OK OK OK MENU D 1 NT DIR %s OK 2 1 OK BACK 2 NT" % PINKEYS
    screens = {k: v[1] for k, v in on_both(
        tmp_path, make_config(), keys + "\nshot ru\nMENU 3 BACK 2 NT\nshot en\n",
        ("ru", "en")).items()}
    assert screens["micropython"] == screens["cpython"]
    ru, en = screens["cpython"]
    assert ru.splitlines()[-1] == "Менять нечего: пр.25"
    assert en.splitlines()[-1] == "No call to change: 25"


def test_a_refused_ruling_of_the_play_names_what_does_not_fit():
    """The director's entry on the play that the engine refuses: the detail he typed that
    does not fit (card, trick, tricks, seat, suit), else the option itself."""
    why = PlayRulingScreen.why_not
    ui_text.set_lang("ru")
    assert why({"b": 1, "d": "supply", "cd": 51}) == "Карта ♠Т не подходит"
    assert why({"b": 1, "d": "defective", "s": 2, "t": 9}) == "Взятка 10 не подходит"
    assert why({"b": 1, "d": "rule", "tr": 12}) == "Взяток 12 не может быть"
    assert why({"b": 1, "d": "designate", "s": 3}) == "З здесь ни при чём"
    assert why({"b": 1, "d": "forbid", "su": 1}) == "Масть ♦ не подходит"
    assert why({"b": 1, "d": "keep"}) == "Сейчас так нельзя"
    ui_text.set_lang("en")
    assert why({"b": 1, "d": "supply", "cd": 51}) == "Card ♠A does not fit"
    assert why({"b": 1, "d": "keep"}) == "Not possible now"
    ui_text.set_lang("ru")


def test_every_ruling_of_the_play_has_a_short_line_of_its_own():
    """The play's options as the auction's: a short line each (the digit and 19 characters),
    not the full text cut at the screen's edge; the full text stays on request."""
    from bridge import play_rulings

    for law, rows in play_rulings.OPTIONS.items():
        for entry, _paragraph, ru, en in rows:
            for lang, full in (("ru", ru), ("en", en)):
                short = play_rulings.short(law, entry, lang)
                assert short and len(short) <= 19 and short != full, (law, entry, lang)
