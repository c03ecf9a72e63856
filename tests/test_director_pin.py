"""The director's PIN at the keypad (issue 14, docs/SECURITY.md "Director PIN"): every PIN
tried is journaled for the host's review, five wrong ones in a row lock the PIN for five
minutes of running (a director can still be called), and the screen says why and until
when. The clock is the key's time, as the main loop gives it (App.key(event, now))."""

from terminal_support import PIN, Terminal, make_config

from hw import keys

MINUTE = 60000


def press(term, script, now):
    for name in script.split():
        term.app.key(keys.code(name), now)
    return term


def tried(term):
    return [d for kind, d in term.records() if kind == "td"]


def test_five_wrong_pins_lock_the_keypad_for_five_minutes(tmp_path):
    term = Terminal(tmp_path, make_config())
    for i in range(4):
        press(term, "DIR 9 9 9 9 OK", 1000 + i)
        assert "Неверный PIN" in term.text()
    assert tried(term) == [{"ok": 0}] * 4 and term.app.session.bad_pins == 4
    press(term, "DIR 9 9 9 9 OK", 2000)
    assert tried(term)[-1] == {"ok": 0, "lock": 1}
    press(term, "DIR", 3000)
    text = term.text()
    assert "PIN заблокирован" in text and "5 неверных PIN" in text
    assert "Ждите ещё 5 мин." in text and "OK вызвать директора" in text
    # the right PIN's digits are not even taken now: its OK alone calls the director
    press(term, " ".join(PIN) + " OK", 4000)
    assert not term.app.director and tried(term)[-1] == {"ok": 0, "lock": 1}
    assert term.records()[-1] == ("flag", {"b": None, "law": None, "why": "dircall"})
    press(term, "DIR", 2000 + 4 * MINUTE + 1)
    assert "Ждите ещё 1 мин." in term.text()
    press(term, "DIR " + " ".join(PIN) + " OK", 2000 + 5 * MINUTE)
    assert term.app.director and tried(term)[-1] == {"ok": 1}
    assert term.app.session.bad_pins == 0


def test_after_the_wait_one_more_wrong_pin_locks_again(tmp_path):
    term = Terminal(tmp_path, make_config())
    for i in range(5):
        press(term, "DIR 1 1 1 1 OK", i)
    press(term, "DIR 1 1 1 1 OK", 6 * MINUTE)  # one try after the wait: wrong again
    assert tried(term)[-1] == {"ok": 0, "lock": 1}
    press(term, "DIR", 6 * MINUTE + 10)
    assert "6 неверных PIN" in term.text() and "Ждите ещё 5 мин." in term.text()


def test_the_lockout_survives_a_restart_and_its_wait_starts_again(tmp_path):
    """A power cut (the app started again on the same journal, its clock from zero) neither
    forgets the wrong PINs nor shortens the wait: it starts at the first key after it."""
    term = Terminal(tmp_path, make_config())
    for i in range(5):
        press(term, "DIR 1 1 1 1 OK", 10 * MINUTE + i)
    term.start()
    assert term.app.session.bad_pins == 5
    press(term, "DIR", 50)
    assert "Ждите ещё 5 мин." in term.text()
    press(term, " ".join(PIN) + " OK", 50 + 4 * MINUTE)
    assert not term.app.director
    press(term, "BACK DIR " + " ".join(PIN) + " OK", 50 + 5 * MINUTE)
    assert term.app.director
