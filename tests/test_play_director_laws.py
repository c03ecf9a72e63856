"""The director's entries that the seed's Laws 62D1 and 68 give on the play, made with the
terminal's keys (device/terminal/play_director.py offers them when the engine takes them)."""

import random

from terminal.play_director import play_pending
from test_play_laws import finish
from test_terminal_play import (  # noqa: F401 (laws_term: the fixture)
    PINKEYS,
    current,
    enter,
    laws_term,
    option_number,
    play_of,
    ruling_screen,
)


def test_62d1_the_twelfth_trick_revoke_is_corrected_from_the_correction_period(laws_term):  # noqa: F811
    """62Г1: «Фальшренонс в двенадцатой взятке, даже установленный, необходимо
    скорректировать, если он обнаружен до возвращения всех четырех рук в коробку»: after the
    play, before the result is verified, the director's screen offers it while flag 62D
    stands, and no longer once it is corrected."""
    for seed in range(500):  # random legal play until someone can revoke in trick 12
        evs = finish("", random.Random(seed).choice, 11)
        if evs:
            break
    enter(laws_term, " ".join("%s:%s" % (e["seat"], e["card"]) for e in evs))
    play = play_of(laws_term)
    assert play.status == "ended" and "62D" in play.flags
    ruling_screen(laws_term)
    laws_term.press("%d OK" % option_number(laws_term, "correct"))
    assert laws_term.records()[-1] == ("pdir", {"b": 1, "d": "correct"})
    play = play_of(laws_term)
    assert play.rulings[-1] == "62D1" and "62D" not in play.flags
    assert play_pending(current(laws_term)) is None  # nothing left to enter


def test_68_the_director_voids_a_concession_made_in_the_middle_of_a_trick(laws_term):  # noqa: F811
    """68: a concession concerns «взяткам, отличным от текущей» while a later trick remains,
    the current one among them; 68Б2: «если вистующий пытается уступить одну или более
    взяток, а его партнер немедленно возражает, уступка не происходит... Розыгрыш
    продолжается»."""
    enter(laws_term, "W:CA N:C2")
    laws_term.press("DIR %s OK 2" % PINKEYS)
    laws_term.press("%d D 3 OK" % option_number(laws_term, "object"))
    assert laws_term.records()[-1] == ("pdir", {"b": 1, "d": "object", "s": 1, "tr": 3})
    play = play_of(laws_term)
    assert play.rulings[-2:] == ["68B", "68B2"] and play.status == "play" and play.turn == 1
