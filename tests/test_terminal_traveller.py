"""A board's traveller on the terminal (terminal.traveller): from the score of a board (DOWN)
and from the round overview's menu (MENU 1), read from the travellers.cbor the station
pushes; scrolled within 21x7, this table's line inverted, bad or missing data shown as no
results, never a crash."""

import cbor2
from conftest import run_device
from terminal import cbor, ui_text
from terminal.traveller import cells, lookup, table
from terminal_support import Terminal, make_config, on_both

# Board 1 as host_sync.event.setup.travellers gives it (no percentages), 9 tables.
LINES = [[p, p + 8, 21, 0, 0, 10, 420] for p in range(1, 10)]
LINES[2] = [3, 11, 15, 0, 1, 9, -140]  # this table
LINES[4] = [5, 13, None, None, None, None, 0]  # passed out

BOARD_1 = "OK OK OK 1 S PASS 2 S PASS PASS PASS OK UP UP OK OK"  # 2S+1 by N, verified


def terminal(tmp_path, travellers=None, raw=None, **settings):
    if travellers is not None:
        raw = cbor2.dumps(travellers, canonical=True)
    if raw is not None:
        (tmp_path / "travellers.cbor").write_bytes(raw)
    return Terminal(tmp_path, make_config(**settings))


def body(term):
    return term.text().split("\n")[1:6]


def test_the_score_of_a_board_shows_its_traveller_and_scrolls(tmp_path):
    term = terminal(tmp_path, {1: LINES, 2: [[1, 9, 3, 0, 0, 7, 70]]}).press(BOARD_1)
    assert "↓ протокол" in term.text()
    term.press("DOWN")
    lines = term.text().split("\n")
    assert lines[0] == "Протокол сд.1" and all(len(x) <= 21 for x in lines)
    assert body(term)[0] == "1-9  4♠С= +420" and body(term)[4] == "5-13 Пас     0"
    assert body(term)[2] == "3-11 3♥В= -140" and term.app.inverted() == 1 | 1 << 3
    term.press("DOWN DOWN DOWN DOWN DOWN")  # 9 lines, 5 shown: at most 4 down
    assert body(term)[0].startswith("5-13") and body(term)[4].startswith("9-17")
    assert term.app.inverted() == 1  # this table's line is scrolled away
    term.press("UP")
    assert body(term)[0].startswith("4-12")
    term.press("BACK")
    assert term.text().startswith("Сд1 ") and "NS +140" in term.text()


def test_the_round_overview_shows_any_boards_traveller_in_english(tmp_path):
    mp = [line + [50 + i] for i, line in enumerate(LINES)]
    term = terminal(tmp_path, {1: mp, 7: [[1, 9, 3, 0, 0, 7, 70, 100]]}, lang="en")
    term.press(BOARD_1 + " MENU")  # the overview
    term.press("7 MENU")
    assert "1 traveller bd 7" in term.text()
    term.press("1")
    assert term.text().startswith("Traveller bd 7") and body(term)[0] == "1-9 1♣N= +70 100"
    term.press("BACK")
    assert term.text().startswith("Round 1")
    term.press("BACK 1 MENU 1")
    assert body(term)[2] == "3-11 3♥E= -140 52"


def test_no_file_a_bad_file_or_bad_lines_show_what_there_is(tmp_path):
    term = terminal(tmp_path).press(BOARD_1 + " DOWN")
    assert "Результатов нет" in term.text()
    for raw in (b"\xff\x00", cbor2.dumps([1, 2]), cbor2.dumps({1: "x"}), b""):
        (tmp_path / "travellers.cbor").write_bytes(raw)
        term.press("BACK DOWN")
        assert "Результатов нет" in term.text() and len(term.app.lines()) == 7
    bad = [[1, 9], "x", [2, 10, 21, 0, 0, 10, "420"], [3, 11, 21, 9, 0, 10, 420],
           [4, 12, 21, 0, 0, 10, 420]]
    (tmp_path / "travellers.cbor").write_bytes(cbor2.dumps({1: bad}))
    term.press("BACK DOWN")
    assert body(term)[0] == "4-12 4♠С= +420" and body(term)[1] == ""


def test_columns_fit_the_screen_dropping_the_ew_pairs_first():
    ui_text.set_lang("ru")  # a terminal made in English by an earlier test keeps it
    rows = [cells([12, 24, 37, 2, 3, 0, -7600, 0]), cells([1, 2, 3, 0, 0, 7, 70, 100])]
    assert table([r[:] for r in rows]) == ["7БКXXЗ-13 -7600   0", "1♣С=        +70 100"]
    rows[0] = cells([12, 24, 37, 0, 3, 0, -1700, 0])
    assert table(rows) == ["12 7БКЗ-13 -1700   0", "1  1♣С=      +70 100"]  # no EW pairs
    assert table([cells([1, 2, 3, 0, 0, 7, 70])]) == ["1-2 1♣С= +70"]
    assert cells([1, 2]) is None and cells(None) is None


def test_only_the_board_asked_for_is_decoded():
    data = cbor.encode({b: [[b, b, 3, 0, 0, 7, 70]] for b in range(1, 33)})
    assert lookup(data, 17) == [[17, 17, 3, 0, 0, 7, 70]]
    assert lookup(data, 40) is None


def test_the_same_traveller_under_micropython(tmp_path):
    """The key-script runner under the real MicroPython shows the same screen as CPython,
    percentages given as floats (cbor2's) included."""
    mp = [line + [50.5 + i] for i, line in enumerate(LINES)]
    screens = {}
    for interpreter in ("micropython", "cpython"):
        out = tmp_path / interpreter
        out.mkdir()
        (out / "travellers.cbor").write_bytes(cbor2.dumps({1: mp}, canonical=True))
        (out / "config.cbor").write_bytes(cbor2.dumps(make_config(), canonical=True))
        (out / "t.keys").write_text(BOARD_1 + " DOWN DOWN\nshot trav\n")
        run = run_device(["-m", "terminal.keyscript", str(out / "t.keys"), str(out),
                          "--config", str(out / "config.cbor")], interpreter=interpreter,
                         timeout=60)
        assert run.returncode == 0, run.stdout + run.stderr
        screens[interpreter] = (out / "trav.txt").read_text()
    assert screens["micropython"] == screens["cpython"]
    assert "3-11 3♥В= -140 53" in screens["cpython"]


ADJUSTED = [[1, 9, "art", 60, 40], [2, 10, "asg", 37, 1, 0, 9, -100],
            [3, 11, "wgt", 232], [4, 12, "split", 420, 50], [5, 13, "art", 55, 45],
            [6, 14, "art", "A+", 40], [7, 15, "wgt"], [8, 16, "nope", 1]]


def test_adjusted_scores_show_as_such_and_bad_ones_are_skipped():
    """Law 12C's adjusted scores as the host sends them (host_sync.event.setup.traveller_line):
    artificial as A+/A- (or the percentages), assigned as its contract marked 12C, weighted
    and split as their Law with the points; a malformed one is skipped like any bad line."""
    ui_text.set_lang("ru")
    got = [cells(line) for line in ADJUSTED]
    assert got[:5] == [["1-9", "A+/A-", "", ""], ["2-10", "7БКXС-4", "-100", "12C"],
                       ["3-11", "12C1c", "+232", ""], ["4-12", "12C1e", "+420/+50", ""],
                       ["5-13", "55%/45%", "", ""]]
    assert got[5:] == [None, None, None]
    assert all(len(row) <= 21 for row in table([r for r in got if r]))


def test_adjusted_scores_on_the_traveller_screen_under_micropython(tmp_path):
    lines = [LINES[0]] + [[2, 10, "art", 60, 40], [3, 12, "asg", 21, 0, 2, 10, 420]]
    got = on_both(tmp_path, make_config(), BOARD_1 + " DOWN DOWN\nshot trav\n", ["trav"],
                  {"travellers.cbor": cbor2.dumps({1: lines}, canonical=True)})
    assert got["micropython"] == got["cpython"]
    assert got["cpython"][1][0].split("\n")[2:4] == ["2-10 A+/A-         ",
                                                     "3-12 4♠Ю=  +420 12C"]
