"""Hostile results files (docs/SECURITY.md): a file someone else made, read by `report`,
`export` and `score`. Each value the readers let through used to end in a traceback (exit 1),
and a failed `export` had already emptied its output file. Now each is refused with the
reason, exit 2, and nothing is written."""

import pytest
from sync_script import event_movement

from host_sync.cli import main
from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.interchange.files import save
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
    bad = hostile(files[kind], old, new, "bad." + kind)
    victim = tmp_path / "victim.pbn"
    victim.write_bytes(files["pbn"].read_bytes())
    assert main(["export", str(bad), "-o", str(victim)]) == 2
    assert victim.read_bytes() == files["pbn"].read_bytes()
    assert not list(tmp_path.glob("*.part"))
    assert main(["report", str(bad), "-o", str(tmp_path / "site")]) == 2
    assert not (tmp_path / "site").exists()
    err = capsys.readouterr().err
    assert err.startswith("export: ") and "Traceback" not in err


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
