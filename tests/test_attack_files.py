"""Hostile results files (docs/SECURITY.md): a file someone else made, read by `report`,
`export` and `score`. Each value the readers let through used to end in a traceback (exit 1),
and a failed `export` had already emptied its output file. Now each is refused with the
reason, exit 2, and nothing is written."""

import pytest
from sync_script import event_movement

from host_sync.cli import main
from host_sync.errors import Refused
from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.interchange.files import load, save
from host_sync.interchange.usebio import import_xml
from host_sync.scoring.session import Result, Session


@pytest.fixture
def files(tmp_path):
    """The same two-table board as PBN, USEBIO and CSV, as this program exports them."""
    s = Session(name="Club", method="mp")
    s.results = [Result(1, "1", "2", "4S", "N", 10), Result(1, "3", "4", "4S", "N", 9)]
    out = {}
    for kind in ("pbn", "xml", "csv"):
        out[kind] = tmp_path / ("base." + kind)
        save(s, out[kind])
    return out


def hostile(path, old, new, name):
    bad = path.with_name(name)
    text = path.read_text(encoding="utf-8")
    assert old in text
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    return bad


@pytest.mark.parametrize("kind, old, new", [
    ("pbn", '[Result "10"]', '[Result "-1"]'),
    ("pbn", '[Declarer "N"]', '[Declarer "Q"]'),
    ("pbn", '[Contract "4S"]', '[Contract "8S"]'),
    ("pbn", '[Deal "N:- - - -"]', '[Deal "N:AKQJT98765432.A.. - - -"]'),  # 14 cards
    ("pbn", '[Result "10"]', '[Result "10"]\n[Note "%s:x"]' % ("9" * 5000)),
    ("xml", "<TRICKS>10</TRICKS>", "<TRICKS>ten</TRICKS>"),
    ("xml", "<MP_SCALE>2</MP_SCALE>", "<MP_SCALE>2</MP_SCALE><BUTLER_TRIM>-1</BUTLER_TRIM>"
     "<BOARD_SCORING_METHOD>BUTLER_IMPS</BOARD_SCORING_METHOD>"),
    ("csv", "1,N,None,,,1,2,4S,N,,10", "1,N,None,,,1,2,4S,N,,99"),
    ("csv", "1,N,None,,,1,2,4S,N,,10", "1,N,None,,,1,2,4S,N,\"%s\",10" % ("x" * 200_000)),
    ("csv", "1,N,None,,,1,2", "0,N,None,,,1,2"),
])
def test_a_bad_value_in_a_file_is_refused_and_the_old_output_stays(files, tmp_path, capsys,
                                                                    kind, old, new):
    refused_everywhere(hostile(files[kind], old, new, "bad." + kind), files["pbn"], capsys)


def refused_everywhere(bad, pbn, capsys):
    """`export` and `report` of `bad` refuse it (exit 2), an export's old output (a copy of
    `pbn`) as it was and no report written; returns what they said."""
    victim = bad.with_name("victim.pbn")
    victim.write_bytes(pbn.read_bytes())
    assert main(["export", str(bad), "-o", str(victim)]) == 2
    assert victim.read_bytes() == pbn.read_bytes()
    assert not list(bad.parent.glob("*.part"))
    assert main(["report", str(bad), "-o", str(bad.with_name("site"))]) == 2
    assert not bad.with_name("site").exists()
    err = capsys.readouterr().err
    assert err.startswith("export: ") and "Traceback" not in err
    return err


def swap_north_and_south(text):
    """The hands of North and South swapped in the second SECTION of a USEBIO text."""
    head, tail = text.split('SECTION_ID="B"')
    for old, new in (("N", "T"), ("S", "N"), ("T", "S")):
        tail = tail.replace("<DIRECTION>%s</DIRECTION>" % old, "<DIRECTION>%s</DIRECTION>" % new)
    return head + 'SECTION_ID="B"' + tail


@pytest.mark.parametrize("change, why", [
    (lambda t: t.replace('SECTION_ID="B"', 'SECTION_ID="A"'), "section A is given twice"),
    (lambda t: t.replace('SECTION_ID="B"', 'SECTION_ID="%s"' % ("B" * 100_000)),
     "SECTION_ID 'BBBBBBBBBBBBBBBBBBBB': the sections of a session are letters A to Z"),
    (lambda t: t.replace('SECTION_ID="B"', 'SECTION_ID="B&#10;C"'),
     r"SECTION_ID 'B\nC': the sections"),
    (swap_north_and_south, "board 1: the hands differ from section to section"),
])
def test_a_usebio_file_of_two_sections_is_refused_when_they_cannot_be_one_field(
        files, tmp_path, capsys, change, why):
    """Two SECTIONs are read as pairs "A1", "B1": their SECTION_IDs must be two letters (a
    long or escaped one is said in 20 characters at most, escaped), and their boards the same
    deals, as the field they are scored in."""
    s = Session(name="Rooms", method="mp")
    s.results = [Result(1, room + "1", room + "2", "4S", "N", tricks)
                 for room, tricks in (("A", 10), ("B", 9))]
    s.board(1).deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    save(s, tmp_path / "rooms.xml")
    assert main(["export", str(tmp_path / "rooms.xml"), "-o", str(tmp_path / "ok.pbn")]) == 0
    bad = tmp_path / "bad.xml"
    bad.write_text(change((tmp_path / "rooms.xml").read_text(encoding="utf-8")),
                   encoding="utf-8")
    err = refused_everywhere(bad, files["pbn"], capsys)
    assert why in err.splitlines()[0] and len(err) < 300
    with pytest.raises(Refused) as refusal:
        import_xml(bad.read_text(encoding="utf-8"))
    assert refusal.value.text("ru") != str(refusal.value)  # said in Russian too


def test_a_csv_saved_by_excel_with_a_bom_reads(files, tmp_path):
    bom = tmp_path / "bom.csv"
    bom.write_bytes(b"\xef\xbb\xbf" + files["csv"].read_bytes())
    assert main(["export", str(bom), "-o", str(tmp_path / "out.pbn")]) == 0


def test_a_name_with_a_line_break_is_refused_and_never_breaks_a_pbn_tag(tmp_path, capsys):
    """names import kept a line break in a name, and every PBN file written after it ended
    at that tag ("unterminated string"). Refused at import; a name that already holds one
    is written with a space."""
    from host_sync.interchange.pbn.read import parse_text
    from host_sync.interchange.pbn.session import session_games
    from host_sync.interchange.pbn.write import export_text

    names = tmp_path / "names.csv"
    names.write_text('section,pair,player1,player2\nA,1,"Ivanov\nIvan",Petrov\n',
                     encoding="utf-8")
    event = tmp_path / "event.db"
    with open_db(event, create=True) as db:
        setup.add_session(db, setup.create_event(db, "Club"), 1, event_movement(4))
    assert main(["names", "import", str(event), str(names)]) == 2
    assert "line break" in capsys.readouterr().err
    s = Session(name="Club\nnight", results=[Result(1, "1", "2", "4S", "N", 10),
                                            Result(1, "3", "4", "4S", "N", 9)])
    s.pair("1").names = ("Ivanov\nIvan", "Petrov")
    games = list(parse_text(export_text(session_games(s))))
    assert not any(g.error for g in games) and games[0].tags["Event"] == "Club night"


PLAYED = "1,N,None,,,1,2,4S,N,,10,420,-420,2,0,,"  # the CSV's first line, as exported


@pytest.mark.parametrize("kind, old, new, en, ru", [
    ("csv", PLAYED, PLAYED.replace(",10,", ",1_0,"),
     "line 2: Tricks '1_0' is not a number in the digits 0-9: it has '_'",
     "строка 2: Tricks '1_0' — не число из цифр 0–9: в нём знак «_»"),
    ("csv", PLAYED, PLAYED.replace(",10,", ", 10 ,"),
     "line 2: Tricks ' 10 ' is not a number in the digits 0-9: it has a space",
     "строка 2: Tricks ' 10 ' — не число из цифр 0–9: в нём пробел"),
    ("csv", PLAYED, "+" + PLAYED,
     "line 2: Board '+1' is not a number in the digits 0-9: it has a '+' sign",
     "строка 2: Board '+1' — не число из цифр 0–9: в нём знак «+»"),
    ("csv", PLAYED, "\u0661" + PLAYED[1:],  # ARABIC-INDIC DIGIT ONE, which int() takes
     "line 2: Board '\u0661' is not a number in the digits 0-9: it has a digit other than 0-9",
     "строка 2: Board '\u0661' — не число из цифр 0–9: в нём цифра не из 0–9"),
    ("csv", PLAYED, PLAYED.replace(",420,-420,2,0,,", ",4200000000,,2,0,assigned,"),
     "line 2: ScoreNS '4200000000' is not a number in the digits 0-9: it has more than 9 "
     "digits", "строка 2: ScoreNS '4200000000' — не число из цифр 0–9: в нём больше 9 цифр"),
    ("csv", PLAYED, PLAYED.replace(",2,0,,", ",2,0,weighted 1/3 1_10;2/3 -50,"),
     "line 2: weighted score points '1_10' is not a number in the digits 0-9: it has '_'",
     "строка 2: очки взвешенного счёта '1_10' — не число из цифр 0–9: в нём знак «_»"),
    ("xml", "<TRICKS>10</TRICKS>", "<TRICKS>1_0</TRICKS>",
     "board 1: TRICKS '1_0' is not a number in the digits 0-9: it has '_'",
     "сдача 1: TRICKS '1_0' — не число из цифр 0–9: в нём знак «_»"),
    ("xml", "<MP_SCALE>2</MP_SCALE>", "<MP_SCALE>+2</MP_SCALE>",
     "EVENT: MP_SCALE '+2' is not a number in the digits 0-9: it has a '+' sign",
     "EVENT: MP_SCALE '+2' — не число из цифр 0–9: в нём знак «+»"),
    ("xml", "<BOARD_NUMBER>1</BOARD_NUMBER>", "<BOARD_NUMBER>\u0663</BOARD_NUMBER>",
     "BOARD: BOARD_NUMBER '\u0663' is not a number in the digits 0-9: it has a digit other "
     "than 0-9", "BOARD: BOARD_NUMBER '\u0663' — не число из цифр 0–9: в нём цифра не из 0–9"),
    ("pbn", '[Result "10"]', '[Result "1_0"]',
     "game 1: Result '1_0' is not a number in the digits 0-9: it has '_'",
     "игра 1: Result '1_0' — не число из цифр 0–9: в нём знак «_»"),
    ("pbn", '[Board "1"]', '[Board "+1"]',
     "game 1: Board '+1' is not a number in the digits 0-9: it has a '+' sign",
     "игра 1: Board '+1' — не число из цифр 0–9: в нём знак «+»"),
    ("pbn", '[Board "1"]', '[Board "1"]\n[Round "\u00b2"]',  # "²".isdigit(), int("²") fails
     "game 1: Round '\u00b2' is not a number in the digits 0-9: it has a digit other than 0-9",
     "игра 1: Round '\u00b2' — не число из цифр 0–9: в нём цифра не из 0–9"),
    ("pbn", '[Score "NS 420"]', '[Score "NS 4_20"]\n[Adjusted "assigned"]',
     "game 1: Score '4_20' is not a number in the digits 0-9: it has '_'",
     "игра 1: Score '4_20' — не число из цифр 0–9: в нём знак «_»"),
], ids=["csv-underscore", "csv-spaces", "csv-plus", "csv-arabic-digit", "csv-score-digits",
        "csv-weighted", "xml-underscore", "xml-plus", "xml-arabic-digit", "pbn-underscore",
        "pbn-plus", "pbn-superscript", "pbn-score-underscore"])
def test_a_number_not_in_plain_digits_is_refused_with_its_field_and_why(files, tmp_path, capsys,
                                                                        kind, old, new, en, ru):
    """int() takes "1_0", " 10 ", "+1" and "١" (and str.isdigit() takes "²", which int()
    does not): the readers scored such a file as if it said 10, 1 and 1. Each is refused,
    naming the field and why, in both languages, and nothing is written."""
    bad = hostile(files[kind], old, new, "bad." + kind)
    victim = tmp_path / "victim.pbn"
    victim.write_bytes(files["pbn"].read_bytes())
    assert main(["export", str(bad), "-o", str(victim)]) == 2
    assert en in capsys.readouterr().err
    assert main(["--lang", "ru", "export", str(bad), "-o", str(victim)]) == 2
    assert ru in capsys.readouterr().err
    assert victim.read_bytes() == files["pbn"].read_bytes()


def test_a_score_table_column_wider_than_999_is_refused_before_rescore_pads_it(files, tmp_path,
                                                                               capsys):
    """rescore writes a table back padded to its columns' widths: a width of a billion made
    every cell a gigabyte. A width is up to 3 digits (0-9, not "٣")."""
    for width in ("1000", "\u0663"):
        bad = hostile(files["pbn"], "Score_NS\\\\5R", "Score_NS\\\\%sR" % width, "wide.pbn")
        out = tmp_path / "out.pbn"
        assert main(["rescore", str(bad), "-o", str(out)]) == 2
        assert "table column 'Score_NS\\\\%sR' is not name" % width in capsys.readouterr().err
        assert not out.exists()


def test_whitespace_around_a_number_in_usebio_is_the_xml_layout_and_reads(files):
    """An XML writer that indents its text gives " 10 ": that is layout, not a hostile
    number (in a CSV or PBN field a space is refused)."""
    spaced = hostile(files["xml"], "<TRICKS>10</TRICKS>", "<TRICKS>\n  10\n</TRICKS>",
                     "spaced.xml")
    assert load(spaced).results == load(files["xml"]).results
