"""Director mode reaches every board of the session, not only the open round's (issue 15,
item 1): in the correction period the director corrects a closed round's result, adjusts
its score or deletes it (Law 79C: «ошибка в записи или подсчете результата может быть
исправлена до окончания периода исправлений»). Each is one `fix` record (docs/RECORDS.md)
naming the pairs who played the board at this table; nothing of the open round changes."""

import json

from conftest import run_device
from terminal_support import PIN, Terminal, journal_records, make_config, on_both, write_config

PINKEYS = " ".join(PIN)


def quick_round(term, first):
    """A round's four boards by quick entry (1C by N, made), verified; the round closed."""
    for _ in range(4):
        term.press("MENU 1 1 C C OK OK UP OK OK OK")
    term.press("OK OK")
    assert term.records()[-1][0] == "close"


def two_rounds_closed(tmp_path):
    term = Terminal(tmp_path, make_config()).press("OK OK OK")
    quick_round(term, 1)
    term.press("OK OK OK")  # round 2 opened, its board 5 started
    quick_round(term, 5)
    return term


def test_the_menu_reaches_the_boards_of_closed_rounds(tmp_path):
    term = two_rounds_closed(tmp_path)
    term.press("OK OK OK 1 S")  # round 3, board 9 under way
    term.press("DIR %s OK" % PINKEYS)
    assert term.app.lines()[0] == "Директор Сд9"
    seen = []
    for _ in range(9):
        term.press("DOWN")
        seen.append(term.app.lines()[0])
    assert seen == ["Директор Сд%d %s" % (b, "3-11" if b < 5 else "3-12")
                    for b in range(1, 9)] + ["Директор Сд9"]  # and round 3's again
    term.press("UP")
    assert term.app.lines()[2] == "2 исправление 79C"
    assert term.app.lines()[5] == "раунд закрыт: пр.79C"


def test_a_closed_rounds_result_corrected(tmp_path):
    term = two_rounds_closed(tmp_path)
    n = len(term.records())
    term.press("DIR %s OK DOWN DOWN 2" % PINKEYS)  # board 2 of round 1
    assert term.app.lines()[0] == "Сд2 исправление 79C"
    term.press("3 NT D OK UP OK")  # 3NT by East, made: NS vulnerable, EW not
    assert term.records()[n:] == [("td", {"ok": 1}), (  # the PIN entry, then the fix
        "fix", {"b": 2, "pr": [3, 11], "how": "res", "ct": 17, "x": 0, "dcl": 1, "tr": 9,
                "sc": -400})]
    assert term.app.lines()[0] == "Директор Сд2 3-11"  # back on the same board
    term.press("2 PASS OK")  # passed out after all
    assert term.records()[-1] == ("fix", {"b": 2, "pr": [3, 11], "how": "res", "po": 1,
                                          "sc": 0})
    session = term.app.session
    assert session.round == 0 and session.boards == {} and session.skipped == 0


def test_a_closed_rounds_score_adjusted_or_deleted(tmp_path):
    """Law 12C as for the open round: artificial, assigned, weighted, not played; and the
    result deleted."""
    term = two_rounds_closed(tmp_path)
    term.press("DIR %s OK UP" % PINKEYS)  # the last board of the history: 8, round 2
    assert term.app.lines()[0] == "Директор Сд8 3-12"
    term.press("3 1 6 DOWN 4 OK")
    term.press("3 2 4 H D OK UP OK")
    term.press("3 3 6 0 OK 4 S C OK UP OK 4 0 OK 4 S C OK UP DOWN OK")
    term.press("3 4 OK")
    term.press("4 OK")
    fixes = [d for k, d in term.records() if k == "fix"]
    assert fixes == [
        {"b": 8, "pr": [3, 12], "how": "art", "ns": 60, "ew": 40},
        {"b": 8, "pr": [3, 12], "how": "asg", "ct": 20, "x": 0, "dcl": 1, "tr": 10},
        {"b": 8, "pr": [3, 12], "how": "wgt", "parts": [[60, 21, 0, 0, 10], [40, 21, 0, 0, 9]]},
        {"b": 8, "pr": [3, 12], "how": "np"},
        {"b": 8, "pr": [3, 12], "how": "erase"}]
    assert "Результат стерт" in term.text()
    term.press("5")  # no lead restrictions to show for a closed round: refused
    assert term.app.beep is not None and term.app.lines()[0] == "Директор Сд8 3-12"
    term.start()  # a power cut: the state is what the journal makes of it
    assert term.app.session.skipped == 0 and term.app.session.closed == 2


def test_after_the_last_round_the_director_still_corrects(tmp_path):
    """The session's last round closed ("Сессия окончена"): director mode still reaches
    its boards, under MicroPython as under CPython."""
    keys = " ".join(["OK OK OK"] + ["MENU 1 1 C C OK OK UP OK OK OK"] * 4 + ["OK OK"])
    got = {}
    for interpreter in ("micropython", "cpython"):
        out = tmp_path / interpreter
        out.mkdir()
        config = make_config()
        config["rounds"] = config["rounds"][:1]
        config_file = write_config(out / "config.cbor", config)
        (out / "c.keys").write_text(keys + "\nexpect Сессия окончена\nDIR %s OK DOWN DOWN "
                                    "DOWN 2 4 S C OK 9 OK\nshot menu\n" % PINKEYS)
        run = run_device(["-m", "terminal.keyscript", str(out / "c.keys"), str(out),
                          "--config", config_file], interpreter=interpreter, timeout=60)
        assert run.returncode == 0, run.stdout + run.stderr
        assert json.loads(run.stdout.decode().splitlines()[-1])["skipped"] == 0
        got[interpreter] = ([r[1:] for r in journal_records(out / "journal")][-1],
                            (out / "menu.txt").read_text())
    assert got["micropython"] == got["cpython"]
    assert got["cpython"][0] == ("fix", {"b": 3, "pr": [3, 11], "how": "res", "ct": 21, "x": 0,
                                         "dcl": 0, "tr": 9, "sc": -50})
    assert "Директор Сд3 3-11" in got["cpython"][1]


def test_the_correction_shows_the_result_it_corrects(tmp_path):
    """The director sees what stands before changing it: the board's line for these pairs in
    the traveller the station pushed (travellers.cbor), or that there is none."""
    import cbor2

    term = two_rounds_closed(tmp_path)
    (tmp_path / "travellers.cbor").write_bytes(cbor2.dumps(
        {2: [[1, 9, 17, 0, 0, 10, 430], [3, 11, 12, 0, 1, 8, -120]]}, canonical=True))
    term.press("DIR %s OK DOWN DOWN 2" % PINKEYS)  # board 2 of round 1, pairs 3 and 11
    assert term.app.lines()[:2] == ["Сд2 исправление 79C", "сейчас: 2БКВ= -120"]
    term.press("BACK DOWN 2")  # board 3: not in the traveller
    assert term.app.lines()[:2] == ["Сд3 исправление 79C", "сейчас: протокола нет"]


def test_once_the_correction_period_is_closed_no_closed_round_changes(tmp_path):
    """`host-sync session close` ends the correction period (79C); the configuration of the
    next sync says so (`cc` 1) and director mode, under MicroPython as under CPython, still
    shows a closed round's board but refuses to correct, adjust or delete its result, saying
    why; the open round's boards stay the director's as before."""
    keys = " ".join(["OK OK OK"] + ["MENU 1 1 C C OK OK UP OK OK OK"] * 4 + ["OK OK"])
    config = make_config()
    config["cc"] = 1
    got = on_both(tmp_path, config, keys + "\nOK OK OK\nDIR %s OK DOWN\nshot menu\n2\nshot "
                  "fix\n3\nshot adjust\n4\nshot erase\n" % PINKEYS,
                  ("menu", "fix", "adjust", "erase"))
    assert got["micropython"] == got["cpython"]
    records, (menu, *refused) = got["cpython"]
    assert not [r for r in records if r[0] in ("fix", "adj", "erase")]
    assert "Директор Сд1 3-11" in menu and "Срок исправлений" in menu and "истёк" in menu
    assert "2 исправление" not in menu
    for screen in refused:
        assert "Директор Сд1 3-11" in screen and "Срок исправл. истёк" in screen


def test_a_malformed_correction_close_is_named_and_read_as_open(tmp_path):
    for bad in (2, "1", True, [1]):
        config = make_config()
        config["cc"] = bad
        term = Terminal(tmp_path, config)
        assert "cc" in term.app.config.errors and not term.app.config.corrections_closed
    config["cc"] = 0
    assert not Terminal(tmp_path, config).app.config.errors


def test_the_hosts_session_close_is_what_the_terminal_reads(tmp_path):
    """The configuration the station pushes (setup.table_config, CBOR as on the link) read
    by the terminal's own parser: open before `session close`, closed after it."""
    from sync_script import event_movement
    from terminal import cbor
    from terminal.config import Config

    from host_sync.event import corrections, setup
    from host_sync.event.db import open_db
    from host_sync.station.link import cbor_encode

    with open_db(tmp_path / "event.db", create=True) as db:
        setup.add_session(db, setup.create_event(db, "Пары"), 1, event_movement(4))
        setup.register_terminal(db, "PICO-A1", 0, section="A", table=1)
        seen = [Config(cbor.decode(cbor_encode(setup.table_config(db, "PICO-A1"))))]
        corrections.close_period(db)
        seen.append(Config(cbor.decode(cbor_encode(setup.table_config(db, "PICO-A1")))))
    assert [(c.corrections_closed, c.errors) for c in seen] == [(False, []), (True, [])]
