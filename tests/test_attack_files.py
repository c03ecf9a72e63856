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
from host_sync.interchange.files import save
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
