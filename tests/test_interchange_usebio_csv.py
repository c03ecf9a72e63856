"""USEBIO 1.2 and CSV travellers: export round-trips through import; bad input is refused."""

import xml.etree.ElementTree as ET

import pytest
from test_interchange_pbn import _session

from host_sync.scoring.session import score_session
from host_sync.travellers_csv import export_csv, import_csv
from host_sync.usebio import export_xml, import_xml, usebio_contract


def _standings(session):
    return [(s.pair, s.direction, s.total, s.place) for s in score_session(session).standings]


@pytest.mark.parametrize("method", ["mp", "cross-imps"])
def test_usebio_round_trip(method):
    session = _session()
    session.method = method
    text = export_xml(session, club="Клуб")
    again = import_xml(text)
    assert again.results == session.results
    assert again.method == method and again.name == session.name
    assert again.pairs["1"].names == ("Иванов", "Петров")
    assert again.boards[1].deal == session.boards[1].deal
    assert _standings(again) == _standings(session)


def test_usebio_document_shape():
    root = ET.fromstring(export_xml(_session()).split("\n", 2)[2].encode())
    assert root.tag == "USEBIO" and root.get("Version") == "1.2"
    event = root.find("EVENT")
    assert event.get("EVENT_TYPE") == "MP_PAIRS"
    lines = event.findall("SESSION/SECTION/BOARD/TRAVELLER_LINE")
    assert len(lines) == 9
    first = lines[0]
    assert [first.find(t).text for t in ("NS_PAIR_NUMBER", "CONTRACT", "PLAYED_BY", "TRICKS",
                                         "SCORE", "LEAD")] == ["1", "4S", "N", "10", "420", "HA"]
    assert lines[1].find("CONTRACT").text == "4Sx" and usebio_contract("Pass") == "PASS"
    assert len(event.findall("SESSION/SECTION/BOARD/HAND")) == 4


@pytest.mark.parametrize("text, message", [
    ("<not xml", "not XML"), ("<OTHER/>", "not a USEBIO"), ("<USEBIO/>", "without an EVENT"),
    ("<USEBIO><EVENT><BOARD_SCORING_METHOD>RUBBER</BOARD_SCORING_METHOD></EVENT></USEBIO>",
     "not supported")])
def test_usebio_bad_input(text, message):
    with pytest.raises(ValueError, match=message):
        import_xml(text)


def test_csv_round_trip():
    session = _session()
    text = export_csv(session)
    assert text.splitlines()[0].startswith("Board,Round,Table,NS,EW,Contract")
    again = import_csv(text)
    assert again.results == session.results
    assert _standings(again) == _standings(session)


@pytest.mark.parametrize("text, message", [
    ("Board,NS\n1,2\n", "need the columns EW"),
    ("Board,NS,EW,Tricks\n1,2,3,ten\n", "line 2: Tricks"),
    ("Board,NS,EW,Adjusted\n1,2,3,bribed\n", "line 2: Adjusted")])
def test_csv_bad_input(text, message):
    with pytest.raises(ValueError, match=message):
        import_csv(text)


def test_export_and_report_commands(tmp_path, capsys):
    from host_sync.cli import main
    from host_sync.session_files import save
    save(_session(), tmp_path / "s.pbn")
    assert main(["export", str(tmp_path / "s.pbn"), "-o", str(tmp_path / "s.xml")]) == 0
    assert main(["export", str(tmp_path / "s.xml"), "-o", str(tmp_path / "s.csv")]) == 0
    assert main(["report", str(tmp_path / "s.csv"), "-o", str(tmp_path / "site"),
                 "--lang", "en"]) == 0
    assert (tmp_path / "site" / "en" / "index.html").exists()
    assert import_csv((tmp_path / "s.csv").read_text()).results == _session().results
    assert main(["export", str(tmp_path / "s.csv"), "-o", str(tmp_path / "s.doc")]) == 2
    assert "expected a .pbn" in capsys.readouterr().err
    assert not (tmp_path / "s.doc").exists()
