"""USEBIO 1.2 and CSV travellers: export round-trips through import; bad input is refused."""

import xml.etree.ElementTree as ET

import pytest
from test_interchange_pbn import _session

from host_sync.cli import main
from host_sync.event import corrections, setup
from host_sync.event.db import open_db
from host_sync.event.results import session_from_db
from host_sync.interchange.files import load, save
from host_sync.interchange.pbn.read import read_file
from host_sync.interchange.pbn.tables import Table
from host_sync.interchange.travellers_csv import export_csv, import_csv
from host_sync.interchange.usebio import export_xml, import_xml, usebio_contract
from host_sync.movements import mitchell
from host_sync.scoring.session import Board, Result, Session, score_session


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
    assert text.splitlines()[0].startswith("Board,Dealer,Vulnerable,Round,Table,NS,EW,Contract")
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
    from host_sync.interchange.files import save
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


def _one_round():
    """Round 1 of a Mitchell: every board played once, nothing to compare yet."""
    s = Session(name="Round 1", method="mp")
    s.results = [Result(1, "1", "4", "4S", "N", 10, round=1, table=1),
                 Result(2, "2", "5", "3NT", "S", 8, round=1, table=2),
                 Result(3, "3", "6", "Pass", round=1, table=3)]
    return s


def test_boards_with_a_single_result_are_average_and_publish(tmp_path, capsys):
    scored = score_session(_one_round())
    assert {s.pair: s.percent for s in scored.standings} == {p: 50 for p in "123456"}
    mixed = _one_round()  # pair 1 also has a compared board: its percent is that board's
    mixed.results += [Result(4, "1", "5", "1NT", "N", 7), Result(4, "2", "6", "1NT", "N", 8)]
    percent = {s.pair: s.percent for s in score_session(mixed).standings}
    assert (percent["1"], percent["2"], percent["3"]) == (0, 100, 50)
    from host_sync.cli import main
    from host_sync.interchange.files import save
    save(_one_round(), tmp_path / "r1.csv")
    for name in ("r1.pbn", "r1.xml"):
        assert main(["export", str(tmp_path / "r1.csv"), "-o", str(tmp_path / name)]) == 0
    assert main(["report", str(tmp_path / "r1.pbn"), "-o", str(tmp_path / "site"),
                 "--lang", "en"]) == 0
    assert "50" in (tmp_path / "site" / "en" / "index.html").read_text()
    totals = [g for g in read_file(tmp_path / "r1.pbn") if "TotalScoreTable" in g.sections]
    rows = Table.from_game(totals[0], "TotalScoreTable").dicts()
    assert {r["TotalPercentage"] for r in rows} == {"50"}


def _rotated():
    """Board 1 dealt by South, all vulnerable (Law 2 says North, none vulnerable)."""
    s = Session(name="Rotated", method="mp")
    s.results = [Result(1, "1", "3", "4S", "N", 10), Result(1, "2", "4", "4S", "N", 9)]
    s.boards[1] = Board(1, dealer=2, vulnerability="All")
    return s


def test_usebio_and_csv_keep_a_board_s_own_dealer_and_vulnerability(tmp_path):
    for export, read in ((export_xml, import_xml), (export_csv, import_csv)):
        again = read(export(_rotated()))
        assert (again.boards[1].dealer_seat(), again.boards[1].vul()) == (2, "All")
        lines = score_session(again).lines[1]
        assert [s.ns_points for s in lines] == [620, -100]
    from host_sync.cli import main
    from host_sync.interchange.files import save
    save(_rotated(), tmp_path / "v.pbn")
    chain = ["v.pbn", "v.csv", "v.xml", "v2.csv", "v2.pbn"]
    for source, target in zip(chain, chain[1:]):
        assert main(["export", str(tmp_path / source), "-o", str(tmp_path / target)]) == 0
    game = next(iter(read_file(tmp_path / "v2.pbn")))
    assert (game.tags["Dealer"], game.tags["Vulnerable"], game.tags["Score"]) == (
        "S", "All", "NS 620")


@pytest.mark.parametrize("text, message", [
    ("Board,NS,EW,Dealer\n1,2,3,Q\n", "line 2: Dealer"),
    ("Board,NS,EW,Vulnerable\n1,2,3,Some\n", "line 2: Vulnerable"),
    ("Board,NS,EW,Vulnerable\n1,2,3,All\n1,4,5,None\n", "line 3: board 1 is All")])
def test_csv_refuses_a_bad_or_contradicting_dealer_or_vulnerability(text, message):
    with pytest.raises(ValueError, match=message):
        import_csv(text)


def test_a_pair_set_against_itself_is_refused_by_every_reader(tmp_path, capsys):
    """Pair 1 v pair 1 on a traveller line (a mistyped pair number) is refused with the line
    named, whatever the file, and nothing is written."""
    from host_sync.cli import main
    from host_sync.interchange.files import save
    save(_one_round(), tmp_path / "ok.pbn")
    save(_one_round(), tmp_path / "ok.xml")
    pbn = (tmp_path / "ok.pbn").read_text()
    assert pbn.count('[PairId_EW "4"]') == 1
    assert pbn.count("\n   1    4 4S ") == 1
    (tmp_path / "bad.pbn").write_text(pbn.replace('[PairId_EW "4"]', '[PairId_EW "1"]')
                                      .replace("\n   1    4 4S ", "\n   1    1 4S "))
    xml = (tmp_path / "ok.xml").read_text()
    assert xml.count("<EW_PAIR_NUMBER>4</EW_PAIR_NUMBER>") == 1
    (tmp_path / "bad.xml").write_text(xml.replace("<EW_PAIR_NUMBER>4</EW_PAIR_NUMBER>",
                                                  "<EW_PAIR_NUMBER>1</EW_PAIR_NUMBER>"))
    (tmp_path / "bad.csv").write_text("Board,NS,EW,Contract,Declarer,Tricks\n"
                                      "1,2,5,4S,N,10\n1,1,1,4S,N,9\n")
    for name, where in (("bad.pbn", "game 1"), ("bad.xml", "board 1"), ("bad.csv", "line 3")):
        out = tmp_path / (name + ".out.csv")
        assert main(["export", str(tmp_path / name), "-o", str(out)]) == 2
        assert capsys.readouterr().err == (
            "export: %s: pair 1 is both NS and EW; a pair cannot play against itself\n" % where)
        assert not out.exists()
    # and the rescore of a PBN ScoreTable naming the pair on both sides of a row
    assert main(["rescore", str(tmp_path / "bad.pbn"), "-o", str(tmp_path / "r.pbn")]) == 2
    assert "game 1, board 1, row 1: pair 1 is both NS and EW" in capsys.readouterr().err
    assert not (tmp_path / "r.pbn").exists()


@pytest.mark.parametrize("command", [["export", "-o", "out/results.pbn"],
                                     ["export", "-o", "out/results.xml"],
                                     ["report", "-o", "out/site"]])
def test_an_event_with_no_results_yet_is_refused_and_nothing_written(tmp_path, capsys, command):
    path = tmp_path / "event.db"
    with open_db(path, create=True) as db:
        setup.add_session(db, setup.create_event(db, "Пары"), 1, mitchell(4, 2))
    (tmp_path / "out").mkdir()
    argv = [command[0], str(path)] + [str(tmp_path / c) if c.startswith("out/") else c
                                      for c in command[1:]]
    assert main(argv) == 2
    assert "no verified results yet" in capsys.readouterr().err
    assert list((tmp_path / "out").iterdir()) == []


def test_the_event_s_facts_reach_the_pbn_and_usebio_exports(tmp_path):
    """`event create --date --venue --director --club` and the names' federation numbers:
    PBN [Date] [EventDate] [Site] [Competition] (PBN 3.4.3, 4.4.1, 4.1.1), USEBIO CLUB_NAME,
    EVENT DATE, VENUE, DIRECTOR and each PLAYER's NATIONAL_ID_NUMBER; each format reads its
    own facts back."""
    db_path, names = tmp_path / "club.db", tmp_path / "names.csv"
    assert main(["event", "create", str(db_path), "--name", "Вторник", "--tables", "3",
                 "--boards", "6", "--date", "2026-12-02", "--venue", "Москва, ЦДШ",
                 "--director", "Иванов", "--club", "Клуб ЦДШ"]) == 0
    names.write_text("section,pair,player1,player2,number1,number2\n"
                     "A,1,Анна,Борис,1001,1002\nA,4,Вера,Глеб,,1004\n", encoding="utf-8")
    assert main(["names", "import", str(db_path), str(names)]) == 0
    with open_db(db_path) as db:
        session = session_from_db(db)
    assert {k: v for k, v in session.info.items() if k != "numbers"} == {
        "date": "2026-12-02", "venue": "Москва, ЦДШ", "director": "Иванов", "club": "Клуб ЦДШ",
        "competition": "Pairs"}
    assert session.info["numbers"] == {"1": (1001, 1002), "4": (None, 1004)}
    session.results = [Result(1, "1", "4", "4S", "N", 10, round=1, table=1),
                       Result(1, "2", "5", "4S", "N", 9, round=2, table=1)]
    save(session, tmp_path / "s.pbn")
    game = next(iter(read_file(tmp_path / "s.pbn")))
    assert (game.tags["Date"], game.tags["EventDate"], game.tags["Site"],
            game.tags["Competition"]) == ("2026.12.02", "2026.12.02", "Москва, ЦДШ", "Pairs")
    assert load(tmp_path / "s.pbn").info == {"date": "2026-12-02", "venue": "Москва, ЦДШ",
                                             "competition": "Pairs"}
    root = ET.fromstring(export_xml(session).split("\n", 2)[2].encode())
    assert root.find("CLUB/CLUB_NAME").text == "Клуб ЦДШ"
    assert root.find("EVENT/DATE").text == "02/12/2026"
    assert (root.find("EVENT/VENUE").text, root.find("EVENT/DIRECTOR").text) == (
        "Москва, ЦДШ", "Иванов")
    players = {p.find("PLAYER_NAME").text: p.find("NATIONAL_ID_NUMBER")
               for p in root.iter("PLAYER")}
    assert {n: None if e is None else e.text for n, e in players.items()} == {
        "Анна": "1001", "Борис": "1002", "Вера": None, "Глеб": "1004"}
    again = import_xml(export_xml(session))
    assert (again.info["club"], again.info["date"], again.info["venue"],
            again.info["director"]) == ("Клуб ЦДШ", "2026-12-02", "Москва, ЦДШ", "Иванов")
    hostile = export_xml(session).replace("<VENUE>Москва, ЦДШ", "<VENUE>" + "x" * 81).replace(
        "<DIRECTOR>Иванов", "<DIRECTOR>a&#10;b")
    assert "venue" not in import_xml(hostile).info and "director" not in import_xml(hostile).info
    assert again.info["numbers"]["1"] == ("1001", "1002")


def _rooms_event(tmp_path, sections):
    """An event database of one Mitchell session of 3 tables and 3 boards in each of
    `sections` ("A,B"), every board played at every table: 3NT by South, the tricks differing
    from room to room so that the field's ranks mix the rooms."""
    path = tmp_path / "rooms.db"
    assert main(["event", "create", str(path), "--name", "Rooms", "--sections", sections,
                 "--tables", "3", "--boards-per-round", "1"]) == 0
    with open_db(path) as db:
        for s, letter in enumerate(sections.split(",")):
            for table in (1, 2, 3):
                for board in (1, 2, 3):
                    where = corrections.locate(db, board, table, letter)
                    corrections.correct(db, where, "3NT", "S", str(7 + (table * board + s) % 5))
    return path


def _sorted_lines(session):
    return sorted((r.board, r.ns, r.ew, r.contract, r.declarer, r.tricks, r.round, r.table)
                  for r in session.results)


def test_a_session_of_two_sections_is_one_usebio_section_each_ranked_across_the_field(
        tmp_path):
    """Two rooms: a SECTION each (SECTION_ID its letter, plain pair numbers, its own boards'
    lines), scored as host_sync scores them, as one field (a top of 10 on 6 lines, each
    pair's PLACE the field's); read back, the labels, lines and ranks are the session's."""
    path = _rooms_event(tmp_path, "A,B")
    with open_db(path) as db:
        session = session_from_db(db)
    assert main(["export", str(path), "-o", str(tmp_path / "rooms.xml")]) == 0
    text = (tmp_path / "rooms.xml").read_text(encoding="utf-8")
    sections = ET.fromstring(text.split("\n", 2)[2].encode()).findall("EVENT/SESSION/SECTION")
    assert [s.get("SECTION_ID") for s in sections] == ["A", "B"]
    places = {}
    for section in sections:
        letter = section.get("SECTION_ID")
        for pair in section.findall("PARTICIPANTS/PAIR"):
            places[letter + pair.find("PAIR_NUMBER").text] = pair.find("PLACE").text
        lines = section.findall("BOARD/TRAVELLER_LINE")
        assert len(section.findall("BOARD")) == 3 and len(lines) == 9
        assert {line.find("NS_PAIR_NUMBER").text for line in lines} == {"1", "2", "3"}
        assert {line.find("EW_PAIR_NUMBER").text for line in lines} == {"4", "5", "6"}
        assert {int(line.find("NS_MATCH_POINTS").text) + int(line.find("EW_MATCH_POINTS").text)
                for line in lines} == {10}
    standings = score_session(session).standings
    assert places == {s.pair: s.label for s in standings}
    assert {s.pair[0] for s in standings if s.place == 1} == {"A", "B"}  # the rooms mixed
    again = load(tmp_path / "rooms.xml")
    assert sorted(again.pairs) == sorted(session.pairs) == [
        "%s%d" % (letter, n) for letter in "AB" for n in range(1, 7)]
    assert _sorted_lines(again) == _sorted_lines(session)
    assert _standings(again) == _standings(session)
    assert export_xml(again) == text
    assert main(["export", str(path), "-o", str(tmp_path / "rooms.pbn")]) == 0
    games = list(read_file(tmp_path / "rooms.pbn"))  # PBN 4.4.5: each game's section
    assert {(g.tags["PairId_NS"][0], g.tags["Section"]) for g in games} == {("A", "A"),
                                                                           ("B", "B")}


def test_a_one_section_event_stays_one_section_of_its_plain_numbers(tmp_path):
    path = _rooms_event(tmp_path, "A")
    assert main(["export", str(path), "-o", str(tmp_path / "one.xml")]) == 0
    root = ET.fromstring((tmp_path / "one.xml").read_bytes().split(b"\n", 2)[2])
    (section,) = root.findall("EVENT/SESSION/SECTION")
    assert section.get("SECTION_ID") == "A"
    assert sorted(p.text for p in section.iter("PAIR_NUMBER")) == list("123456")
    assert sorted(load(tmp_path / "one.xml").pairs) == list("123456")


@pytest.mark.parametrize("crossing", [False, True])
def test_labels_that_are_not_of_several_sections_are_written_as_they_are(crossing):
    """One letter ("A1", "A2"), or a line between two rooms' pairs: one SECTION, the labels
    unchanged, and they read back unchanged."""
    s = Session(name="Labels", method="mp")
    s.results = [Result(1, "A1", "B2" if crossing else "A2", "4S", "N", 10),
                 Result(1, "A3", "A4", "4S", "N", 9)]
    text = export_xml(s)
    assert text.count("<SECTION ") == 1 and "<NS_PAIR_NUMBER>A1</NS_PAIR_NUMBER>" in text
    assert import_xml(text).results == s.results
