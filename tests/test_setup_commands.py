"""The scorer's set-up commands (`host-sync event|session|names|deals`) on real SQLite files:
what each stores (and audits), that bad input is refused with a message naming the line, exit
status 2 and the database unchanged, and that what a terminal is given at sync carries it."""

import json
import sqlite3
import subprocess
import sys

import pytest
from bridge import boards as law2
from bridge import cards
from conftest import CORPUS, ROOT

from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.event.hand_record import hand_bytes
from host_sync.interchange.pbn.read import read_file

INDIVIDUAL_24 = CORPUS / "1998-4th_Generali_Masters_Individual" / "MI98S4.PBN"  # boards 1-24
DUTCH_32 = CORPUS / "1998-Dutch_Teams_Final" / "ROUND1.PBN"  # 12, 13, 29, 30 not as Law 2
TWO_ROOMS_12 = CORPUS / "1997-European_Team_Championship" / "L1l10505.pbn"  # each board twice


@pytest.fixture
def club(tmp_path, host):
    """A 6-table Mitchell of 24 boards, section A, director's PIN 2468."""
    path = tmp_path / "club.db"
    assert host("event", "create", path, "--name", "Клуб, вторник", "--tables", 6,
                "--boards", 24, "--pin", "2468")[0] == 0
    return path


def dump(path):
    """Every row of the file (audit included), to compare before and after a refusal."""
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def rows(path, sql, args=()):
    with open_db(path) as db:
        return [tuple(r) for r in db.all(sql, args)]


def movements_of(path, session=1):
    with open_db(path) as db:
        return setup.section_movements(db, setup.session_id(db, 1, session))


def placed_terminal(path, section, table):
    """Register a terminal at a table and return what the station pushes to it."""
    with open_db(path) as db:
        setup.register_terminal(db, "PICO-%s%d" % (section, table), 0, section=section,
                                table=table)
        return setup.table_config(db, "PICO-%s%d" % (section, table))


# -- event create -----------------------------------------------------------------------------

def test_event_create_keeps_its_options_and_audits_everything_as_the_scorer(tmp_path, host):
    path = tmp_path / "e.db"
    status, out, err = host("event", "create", path, "--name", "Pairs", "--tables", 4,
                            "--boards-per-round", 3, "--rounds", 3, "--pin", "1234")
    assert (status, err) == (0, "")
    assert "4 tables, 3 rounds, boards 1-12" in out
    mv = movements_of(path)["A"]
    assert (mv.kind, mv.tables, mv.round_count, mv.boards_per_set) == ("mitchell", 4, 3, 3)
    assert rows(path, "SELECT number, current FROM sessions") == [(1, 1)]
    assert rows(path, "SELECT COUNT(*), MIN(number), MAX(number) FROM boards") == [(12, 1, 12)]
    assert rows(path, "SELECT name FROM settings") == [("pin",)]
    assert rows(path, "SELECT DISTINCT actor FROM audit") == [("scorer",)]
    assert rows(path, "SELECT COUNT(*) FROM audit WHERE tbl = 'rounds'") == [(12,)]


def test_sections_each_play_their_own_mitchell_with_the_arrow_switched(tmp_path, host):
    path = tmp_path / "e.db"
    status, out, _ = host("event", "create", path, "--name", "Two rooms", "--sections", "a,B",
                          "--tables", "5,3", "--arrow-switch", "last", "--actor", "td-anna")
    assert status == 0
    got = movements_of(path)
    assert {k: (m.tables, m.round_count) for k, m in got.items()} == {"A": (5, 5), "B": (3, 3)}
    assert all(s.switched for m in got.values() for s in m.rounds[-1])
    assert not any(s.switched for m in got.values() for s in m.rounds[0])
    assert rows(path, "SELECT COUNT(*) FROM boards") == [(20,)]  # B plays boards 1-12 of them
    assert rows(path, "SELECT DISTINCT actor FROM audit") == [("td-anna",)]
    config = placed_terminal(path, "B", 3)
    assert [r["r"] for r in config["rounds"]] == [1, 2, 3]
    assert max(b for r in config["rounds"] for b in r["b"]) <= 12
    assert config["rounds"][-1]["ns"] > 3  # switched: the EW pair sits NS at table 3
    assert config["sec"] == "B" and "pin" not in config


def test_arrow_switch_in_chosen_rounds(tmp_path, host):
    path = tmp_path / "e.db"
    assert host("event", "create", path, "--name", "P", "--tables", 5,
                "--arrow-switch", "2,4")[0] == 0
    mv = movements_of(path)["A"]
    assert [rno for rno, r in enumerate(mv.rounds, 1) if r[0].switched] == [2, 4]


@pytest.mark.parametrize("options, kind, tables, rounds, per_round", [
    (["--movement", "howell", "--tables", 4, "--boards", 28], "howell", 4, 7, 4),
    (["--movement", "teams", "--teams", 4, "--boards", 24], "teams", 4, 3, 8),
    (["--movement", "teams", "--teams", 5], "teams", 4, 5, 4),
])
def test_howell_and_team_round_robins(tmp_path, host, options, kind, tables, rounds, per_round):
    path = tmp_path / "e.db"
    assert host("event", "create", path, "--name", "E", *options)[0] == 0
    mv = movements_of(path)["A"]
    assert (mv.kind, mv.tables, mv.round_count, mv.boards_per_set) == (
        kind, tables, rounds, per_round)
    assert rows(path, "SELECT COUNT(*) FROM boards") == [(mv.sets * per_round,)]


@pytest.mark.parametrize("options, why", [
    (["--movement", "howell", "--tables", 4, "--boards", 27], "27 boards do not divide"),
    (["--tables", 6, "--boards", 24, "--boards-per-round", 3], "not 3"),
    (["--movement", "teams", "--tables", 4], "--teams N"),
    (["--movement", "teams", "--teams", 301], "at most 300 teams (600 tables), not 301"),
    (["--teams", 4, "--tables", 4], "--segments and --seed are for --movement teams"),
    (["--double", "--tables", 4], "--double, --segments and --seed are for --movement teams"),
    (["--movement", "howell", "--tables", 4, "--rounds", 3], "are for a Mitchell"),
    (["--tables", 5, "--sections", "A,A"], "different letters"),
    (["--tables", 5, "--sections", "A,7"], "different letters"),
    (["--tables", "5,4", "--sections", "A,B,C"], "2 numbers for 3 sections"),
    (["--tables", "five"], "numbers separated by commas"),
    ([], "--tables N is needed"),
    (["--tables", 5, "--rounds", 9], "at most 5 rounds"),
    (["--tables", 5, "--arrow-switch", "7"], "no round 7"),
    (["--tables", 1], "at least 3 tables"),
    (["--tables", 2], "a Mitchell needs at least 3 tables"),
    (["--tables", 7, "--boards-per-round", 0], "positive whole number, not 0"),
    (["--tables", 5, "--pin", "12"], "4 to 8 digits"),
    (["--tables", 3, "--name", " "], "an event needs a name"),  # found with the file open
])
def test_a_movement_that_cannot_be_built_creates_no_file(tmp_path, host, options, why):
    path = tmp_path / "e.db"
    status, out, err = host("event", "create", path, "--name", "E", *options)
    assert (status, out) == (2, "")
    assert why in err
    assert list(tmp_path.iterdir()) == []


def test_a_second_event_in_the_same_file_is_refused(club, host):
    before = dump(club)
    status, _, err = host("event", "create", club, "--name", "Other", "--tables", 3)
    assert status == 2 and "already holds an event" in err
    assert dump(club) == before


# -- sessions -----------------------------------------------------------------------------------

def test_session_add_and_current(club, host):
    status, out, _ = host("session", "add", club, "--movement", "howell", "--tables", 3,
                          "--boards-per-round", 2)
    assert status == 0 and "session 2 section A: howell" in out
    assert rows(club, "SELECT number, current FROM sessions ORDER BY number") == [(1, 0), (2, 1)]
    assert placed_terminal(club, "A", 1)["rounds"][0]["b"] in ([1, 2], [3, 4], [5, 6], [7, 8],
                                                               [9, 10])
    assert host("session", "add", club, "--tables", 4, "--later")[0] == 0
    assert rows(club, "SELECT number, current FROM sessions ORDER BY number") == [
        (1, 0), (2, 1), (3, 0)]
    assert host("session", "current", club, 3)[0] == 0
    assert rows(club, "SELECT number FROM sessions WHERE current = 1") == [(3,)]
    before = dump(club)
    status, _, err = host("session", "add", club, "--number", 2, "--tables", 4)
    assert status == 2 and "already has a session 2" in err
    status, _, err = host("session", "current", club, 9)
    assert status == 2 and "no session 9" in err
    assert dump(club) == before


def test_the_event_s_facts_are_set_checked_and_shown(club, host):
    """Date, venue, director and club (migration 006): set later with `event set`, shown by
    `event show`; a bad date or an empty or multi-line text is refused, nothing changed."""
    assert "Date: not given" in host("event", "show", club, "--lang", "en")[1]
    status, out, _ = host("event", "set", club, "--date", "2026-12-02", "--director",
                          "Петров П.")
    assert status == 0 and "Director: Петров П." in out
    assert rows(club, "SELECT held_on, venue, director, club FROM events") == [
        ("2026-12-02", None, "Петров П.", None)]
    before = dump(club)
    for bad, message in ((("--date", "02.12.2026"), "expected YYYY-MM-DD"),
                         (("--venue", " "), "text on one line"),
                         (("--club", "a\nb"), "text on one line"),
                         (("--club", "x" * 81), "1 to 80 characters"),
                         ((), "at least one of")):
        status, _, err = host("event", "set", club, *bad)
        assert status == 2 and message in err, bad
    assert dump(club) == before
    shown = host("event", "show", club, "--lang", "ru")[1]
    assert "Дата: 2026-12-02" in shown and "Место: не указано" in shown


def test_session_close_ends_the_correction_period_once(club, host):
    """Law 79C: corrections until the end of the correction period; `session close` marks it
    (audited), a second close changes nothing, an unknown session is refused. The terminals
    are told at their next sync: their configuration carries `cc` 1 (docs/CONFIG.md)."""
    assert "cc" not in placed_terminal(club, "A", 1)
    status, out, _ = host("session", "close", club)
    assert status == 0 and "session 1" in out
    closed = rows(club, "SELECT corrections_closed_at FROM sessions WHERE number = 1")[0][0]
    assert closed is not None
    audit = rows(club, "SELECT actor, new FROM audit WHERE tbl = 'sessions' AND "
                       "action = 'update'")
    assert [(a, json.loads(n)) for a, n in audit] == [
        ("scorer", {"corrections_closed_at": closed})]
    with open_db(club) as db:
        assert setup.table_config(db, "PICO-A1")["cc"] == 1
    before = dump(club)
    assert host("session", "close", club, "--session", 1)[0] == 0
    assert dump(club) == before
    status, _, err = host("session", "close", club, "--session", 9)
    assert status == 2 and "no session 9" in err
    assert dump(club) == before


def test_a_missing_event_file_is_not_created_by_a_typo(tmp_path, host):
    status, _, err = host("session", "add", tmp_path / "typo.db", "--tables", 4)
    assert status == 2 and "no such event database" in err
    assert not (tmp_path / "typo.db").exists()


# -- names --------------------------------------------------------------------------------------

NAMES = ("section,pair,player1,player2,number1,number2\n"
         "A,1,Анна Иванова,Борис Петров,1201,1202\n"
         "A,2,Вера Смирнова,\"Гордеев, Дмитрий\",,77\n"
         "\n"
         "a,9,Елена Орлова,Жанна Котова,,\n")


def test_names_import_stores_names_and_numbers_for_the_terminals(club, host, tmp_path):
    csv_file = tmp_path / "names.csv"
    csv_file.write_bytes(b"\xef\xbb\xbf" + NAMES.encode())  # UTF-8 with a BOM
    status, out, err = host("names", "import", club, csv_file)
    assert (status, err) == (0, "") and "3 pairs named" in out
    assert rows(club, "SELECT p.number, pl.position, pl.name, pl.number FROM players pl "
                      "JOIN pairs p ON p.id = pl.pair_id ORDER BY p.number, pl.position") == [
        (1, 1, "Анна Иванова", 1201), (1, 2, "Борис Петров", 1202),
        (2, 1, "Вера Смирнова", None), (2, 2, "Гордеев, Дмитрий", 77),
        (9, 1, "Елена Орлова", None), (9, 2, "Жанна Котова", None)]
    config = placed_terminal(club, "A", 1)  # round 1: pairs 1 v 7; pair 9 comes later
    assert config["names"][9] == "Елена Орлова - Жанна Котова"  # EW at table 3
    assert config["players"][1] == [1201, 1202]
    assert config["names"][9] == "Елена Орлова - Жанна Котова" and 9 not in config["players"]
    assert placed_terminal(club, "A", 2)["players"][2] == [0, 77]


def test_names_from_russian_excel_replace_earlier_ones_and_are_audited(club, host, tmp_path):
    first = tmp_path / "first.csv"
    first.write_text(NAMES, encoding="utf-8")
    assert host("names", "import", club, first)[0] == 0
    excel = tmp_path / "excel.csv"  # Windows-1251, semicolons, Russian headers, Cyrillic "А"
    excel.write_bytes("Секция;Пара;Игрок 1;Игрок 2;Номер 1;Номер 2\r\n"
                      "А;1;Анна Иванова;Борис Петров-Водкин;1201;1299\r\n".encode("cp1251"))
    status, out, _ = host("names", "import", club, excel, "--actor", "scorer-2")
    assert status == 0 and "1 pairs named" in out
    changes = rows(club, "SELECT action, actor, old, new FROM audit WHERE tbl = 'players' "
                         "AND actor = 'scorer-2'")
    assert [(a, who, json.loads(old), json.loads(new)) for a, who, old, new in changes] == [
        ("update", "scorer-2", {"name": "Борис Петров", "number": 1202},
         {"name": "Борис Петров-Водкин", "number": 1299})]


def test_team_pairs_are_named_by_their_labels(tmp_path, host):
    path = tmp_path / "teams.db"
    assert host("event", "create", path, "--name", "T", "--movement", "teams", "--teams",
                3)[0] == 0
    names = tmp_path / "names.csv"
    names.write_text("section,pair,player1,player2\nA,2B,Ира,Юля\nA,1,Ян,Лев\n")
    assert host("names", "import", path, names)[0] == 0
    assert rows(path, "SELECT p.number, pl.name FROM players pl JOIN pairs p "
                      "ON p.id = pl.pair_id ORDER BY p.number, pl.position") == [
        (1, "Ян"), (1, "Лев"), (4, "Ира"), (4, "Юля")]


HEADER = "section,pair,player1,player2,number1,number2\n"


@pytest.mark.parametrize("body, why", [
    (HEADER + "A,1,Ann,Bob,,\nA,2,Cy,,1,2\n", "names.csv:3: no name for player 2"),
    (HEADER + "A,1,Ann,Bob,12a,\n", "names.csv:2: player 1's number must be a whole number"),
    (HEADER + "A,1,Ann,Bob,100000,\n", "from 1 to 99999"),
    (HEADER + "AB,1,Ann,Bob,,\n", "names.csv:2: the section is one letter"),
    (HEADER + "A,,Ann,Bob,,\n", "names.csv:2: no pair number"),
    (HEADER + "A,1,Ann,Bob,,,extra\n", "names.csv:2: 7 fields, the header has 6"),
    (HEADER + "A,1,Ann,Bob,,\nA,13,Cy,Di,,\n", "names.csv:3: section A has no pair 13"),
    (HEADER + "A,1,Ann,Bob,,\nB,1,Cy,Di,,\n", "names.csv:3: the session has no section B"),
    (HEADER + "A,1,Ann,Bob,,\nA,01,Cy,Di,,\n", "names.csv:3: section A pair 01 is already "
                                               "named on line 2"),
    ("section,pair,name\nA,1,Ann\n", "names.csv:1: the header needs the columns"),
    ("section,pair,player1,player2,player1\nA,1,Ann,Bob,Eve\n",
     "names.csv:1: the column player1 is given twice"),
    (HEADER, "no pairs in the file"),
    (HEADER + "A,1,%s,Bob,,\n" % ("x" * 61), "longer than 60 characters"),
])
def test_a_bad_names_file_stores_nothing(club, host, tmp_path, body, why):
    good = tmp_path / "good.csv"
    good.write_text(NAMES)
    assert host("names", "import", club, good)[0] == 0
    bad = tmp_path / "names.csv"
    bad.write_text(body, encoding="utf-8")
    before = dump(club)
    status, out, err = host("names", "import", club, bad)
    assert (status, out) == (2, "")
    assert why in err and "nothing was stored" in err
    assert dump(club) == before


def test_every_bad_line_is_reported_at_once(club, host, tmp_path):
    bad = tmp_path / "names.csv"
    bad.write_text(HEADER + "A,1,Ann,,,\nA,2,Cy,Di,,\nA,3,Ed,Fy,x,\n")
    status, _, err = host("names", "import", club, bad)
    assert status == 2
    assert [line.split(": ", 1)[0].rsplit(":", 1)[1] for line in err.splitlines()[:-1]] == [
        "2", "4"]


def test_a_binary_or_missing_names_file_is_refused(club, host, tmp_path):
    before = dump(club)
    binary = tmp_path / "names.csv"
    binary.write_bytes(b"section\0pair")
    assert "binary data" in host("names", "import", club, binary)[2]
    assert "No such file" in host("names", "import", club, tmp_path / "none.csv")[2]
    assert dump(club) == before


# -- deals --------------------------------------------------------------------------------------

def corpus_deals(path):
    return {int(g.tags["Board"]): g.tags["Deal"] for g in read_file(path)}


def same_deal(a, b):
    return cards.parse_deal(a) == cards.parse_deal(b)


def test_a_corpus_hand_record_file_reaches_the_terminals(club, host, tmp_path, corpus):
    names = tmp_path / "names.csv"
    names.write_text(NAMES)
    assert host("names", "import", club, names)[0] == 0
    status, out, err = host("deals", "import", club, INDIVIDUAL_24)
    assert (status, err) == (0, "")
    assert "hand records stored for boards 1-24" in out
    want = corpus_deals(INDIVIDUAL_24)
    stored = dict(rows(club, "SELECT number, deal FROM boards"))
    assert sorted(stored) == sorted(want) == list(range(1, 25))
    assert all(stored[b].startswith("N:") and same_deal(stored[b], want[b]) for b in want)
    assert rows(club, "SELECT COUNT(*) FROM audit WHERE tbl = 'boards' AND action = 'update' "
                      "AND actor = 'scorer'") == [(24,)]
    config = placed_terminal(club, "A", 3)
    first, last = config["rounds"][0]["b"]
    played = {b for r in config["rounds"] for b in range(r["b"][0], r["b"][1] + 1)}
    assert sorted(config["boards"]) == sorted(played) and len(played) == 20  # 5 of 6 sets
    assert config["boards"][first]["hand"] == hand_bytes(want[first])
    assert config["boards"][last]["d"] == law2.dealer(last)
    assert config["names"][9] == "Елена Орлова - Жанна Котова"  # EW at table 3


def test_boards_outside_the_session_and_rotations_other_than_law_2(tmp_path, host, corpus):
    path = tmp_path / "e.db"
    assert host("event", "create", path, "--name", "E", "--tables", 7)[0] == 0  # boards 1-28
    status, out, err = host("deals", "import", path, DUTCH_32)
    assert status == 0
    assert "not played in the session, not stored: boards 29-32" in out
    warned = [line for line in err.splitlines() if line.startswith("warning:")]
    assert [w.split("board ")[1].split(" ")[0] for w in warned] == ["12", "13", "29", "30"]
    assert "board 12 is dealt by N with All vulnerable; Law 2 has W and NS" in err
    assert rows(path, "SELECT dealer, vul FROM boards WHERE number = 12") == [(0, "All")]
    assert rows(path, "SELECT dealer, vul FROM boards WHERE number = 11") == [
        (law2.dealer(11), law2.vulnerability(11))]
    status, out, err = host("deals", "import", path, TWO_ROOMS_12)  # every board twice
    assert (status, err) == (0, "")
    assert "replacing 1-12" in out and "still without" not in out
    want = corpus_deals(TWO_ROOMS_12)
    assert same_deal(rows(path, "SELECT deal FROM boards WHERE number = 5")[0][0], want[5])
    assert rows(path, "SELECT dealer, vul FROM boards WHERE number = 12") == [(3, "NS")]


def test_a_session_with_boards_left_without_hand_records_says_which(tmp_path, host, corpus):
    path = tmp_path / "e.db"
    assert host("event", "create", path, "--name", "E", "--tables", 4, "--boards", 16)[0] == 0
    assert host("session", "add", path, "--tables", 7)[0] == 0
    status, out, _ = host("deals", "import", path, TWO_ROOMS_12, "--session", 1)
    assert status == 0 and "still without a hand record: boards 13-16" in out
    assert rows(path, "SELECT COUNT(deal) FROM boards b JOIN sessions s ON s.id = b.session_id "
                      "GROUP BY s.number ORDER BY s.number") == [(12,), (0,)]


GAME = '[Event "x"]\n[Board "%s"]\n[Dealer "%s"]\n[Vulnerable "%s"]\n[Deal "%s"]\n\n'
DEAL_1 = "N:KQ4.AK854.AQ75.4 J765.T.T32.AJ865 98.Q62.964.Q9732 AT32.J973.KJ8.KT"
DEAL_2 = "E:T2.J2.J762.Q9543 64.AKQ984.K.AJT6 AJ95..AT98543.72 KQ873.T7653.Q.K8"


@pytest.mark.parametrize("text, why", [
    (GAME % ("1", "N", "None", DEAL_1.replace("AJ865", "AJ86")),
     "deals.pbn:7: board 1: the hand of E has 12 cards, not 13"),
    (GAME % ("1", "N", "None", DEAL_1.replace("J973", "J974")), "dealt twice"),
    (GAME % ("1", "N", "None", "N:KQ4.AK854.AQ75.4 - - -"), "needs all four"),
    (GAME % ("1", "N", "None", "KQ4.AK854.AQ75.4"), "starts with a seat and a colon"),
    (GAME % ("x", "N", "None", DEAL_1), "not a board number: 'x'"),
    (GAME % ("1", "Q", "None", DEAL_1), "board 1: not a seat"),
    (GAME % ("1", "N", "Sometimes", DEAL_1), "board 1: not a vulnerability"),
    (GAME % ("1", "N", "None", DEAL_1) + GAME % ("1", "N", "None", DEAL_2),
     "deals.pbn:13: board 1 has another deal, dealer or vulnerability than at line 7"),
    ('[Event "x"]\n[Board "1"]\n', "board 1 has no Deal tag"),
    ('[Event "x"]\n[Deal "%s"]\n' % DEAL_1, "the game has no Board tag"),
])
def test_a_bad_hand_record_file_stores_nothing(club, host, tmp_path, text, why, corpus):
    assert host("deals", "import", club, TWO_ROOMS_12)[0] == 0
    bad = tmp_path / "deals.pbn"
    bad.write_text(GAME % ("2", "E", "NS", DEAL_2) + text)  # a good game on lines 1-6 first
    before = dump(club)
    status, out, err = host("deals", "import", club, bad)
    assert (status, out) == (2, "")
    assert why in err and "nothing was stored" in err
    assert dump(club) == before


def test_a_file_that_is_not_pbn_or_not_for_the_session_is_refused(club, host, tmp_path):
    before = dump(club)
    text = tmp_path / "deals.pbn"
    text.write_text("Board 1: north holds the ace of spades\n")
    status, _, err = host("deals", "import", club, text)
    assert status == 2 and "not a PBN file" in err
    status, _, err = host("deals", "import", club, tmp_path / "none.pbn")
    assert status == 2 and "cannot read file" in err
    text.write_text(GAME % ("40", "N", "None", DEAL_1) + GAME % ("41", "E", "NS", DEAL_2))
    status, _, err = host("deals", "import", club, text)
    assert status == 2
    assert "none of the file's boards (40-41) is played in the session (boards 1-24)" in err
    assert dump(club) == before


# -- show -----------------------------------------------------------------------------------

def test_event_show_in_russian_and_english(club, host, tmp_path, corpus):
    names = tmp_path / "names.csv"
    names.write_text(NAMES)
    assert host("names", "import", club, names)[0] == 0
    assert host("deals", "import", club, TWO_ROOMS_12)[0] == 0
    placed_terminal(club, "A", 4)
    status, ru, _ = host("--lang", "ru", "event", "show", club)
    assert status == 0
    for text in ("Турнир: Клуб, вторник", "Сессия 1 (текущая)",
                 "Секция A: Митчелл, столов 6, туров 5, сдач в туре 4", "Тур 5",
                 "Стол 1: СЮ 1 — ВЗ 7, сдачи 1-4",
                 "1    Анна Иванова (1201) — Борис Петров (1202)", "3    (без имён)",
                 "с раскладами: 1-12", "без раскладов: 13-24",
                 "Зарегистрировано терминалов: 1",
                 "PICO-A4: секция A стол 4, ещё не синхронизирован"):
        assert text in ru
    assert "Закону 2" not in ru
    status, en, _ = host("event", "show", club, "--lang", "en")
    for text in ("Session 1 (current)", "Section A: Mitchell, 6 tables", "Round 1",
                 "with hand records: 1-12", "without hand records: 13-24",
                 "Terminals registered: 1"):
        assert text in en


# -- the real command ---------------------------------------------------------------------------

def test_the_installed_command_refuses_bad_input_with_status_2(tmp_path):
    def host_sync(*args):
        return subprocess.run([sys.executable, "-m", "host_sync", *map(str, args)], cwd=ROOT,
                              capture_output=True, text=True, timeout=60)

    path = tmp_path / "e.db"
    done = host_sync("event", "create", path, "--name", "E", "--tables", 3)
    assert done.returncode == 0, done.stderr
    bad = tmp_path / "names.csv"
    bad.write_text("section;pair;player1;player2\nA;4;Ann;\n")
    before = dump(path)
    done = host_sync("names", "import", path, bad)
    assert done.returncode == 2
    assert "names.csv:2: no name for player 2" in done.stderr
    assert dump(path) == before
