"""A team's name (the names import's `team` column, migration 016): shown beside its number
by `score`, the report and the PBN export (HomeTeam, VisitTeam, TeamName), carried to each
next teams session (through a knockout's renumbering after groups too), refused where it
cannot be one, on SQLite and on PostgreSQL."""

import json
import sqlite3

import pytest
from test_knockout import add_round, groups_cup, home_wins
from web_support import WebServer, get

from host_sync.event.db import open_db
from host_sync.interchange.pbn.read import read_file

HEADER = "секция;пара;игрок1;игрок2;команда\n"


def cup(location, host, teams=4):
    """A teams round robin of `teams`, round 1 (1 v 4, 2 v 3) one board."""
    assert host("event", "create", location, "--name", "Кубок", "--movement", "teams",
                "--teams", teams, "--boards-per-round", 1, "--matches", "1-2")[0] == 0
    return location


def import_names(tmp_path, host, location, lines, header=HEADER):
    names = tmp_path / "names.csv"
    names.write_text(header + lines, encoding="utf-8")
    return host("--lang", "en", "names", "import", location, names)


def enter(host, location, table, *result):
    status, _, err = host("result", "correct", location, "--board", 1, "--table", table,
                          *result)
    assert status == 0, err


def stored(location, session=1):
    with open_db(location) as db:
        return {(r["letter"], r["team"]): r["name"] for r in db.all(
            "SELECT s.letter, t.team, t.name FROM team_names t JOIN sections s ON "
            "s.id = t.section_id JOIN sessions se ON se.id = s.session_id "
            "WHERE se.number = ?", (session,))}


def test_a_team_is_named_from_its_pairs_lines_and_shown_everywhere(tmp_path, host,
                                                                    event_location):
    location = cup(event_location, host)
    status, out, err = import_names(tmp_path, host, location,
                                    "A;1A;Ян;Лев;Спартак\nA;1B;Ира;Юля;\n"
                                    "A;4A;Оля;Петя;\"Динамо \"\"Юг\"\"\"\nA;4B;Аня;Боря;"
                                    "\"Динамо \"\"Юг\"\"\"\n")
    assert status == 0 and "4 pairs named" in out and "2 teams named" in out, err
    assert stored(location) == {("A", 1): "Спартак", ("A", 4): 'Динамо "Юг"'}
    enter(host, location, 1, "4S", "N", 10)
    enter(host, location, 2, "4S", "N", 9)
    enter(host, location, 3, "3NT", "N", 9)
    enter(host, location, 4, "3NT", "N", 9)
    status, out, err = host("--lang", "en", "score", location)
    assert status == 0, err
    standings = out[out.index("Team standings"):]
    assert any("1 Спартак" in ln and "Ян" in ln for ln in standings.splitlines())
    matches = out[out.index("Round 1 matches"):out.index("Team standings")]
    assert "1 Спартак" in matches and '4 Динамо "Юг"' in matches
    cells = [[c.strip() for c in ln.split("│")[1:3]] for ln in matches.splitlines()
             if ln.count("│") > 3]
    assert ["2", "3"] in cells  # an unnamed team is its number alone
    site = tmp_path / "site"
    assert host("report", location, "-o", site)[0] == 0
    page = (site / "ru" / "index.html").read_text()
    assert '<td class="l">1 Спартак</td><td class="l">Ян, Лев, Ира, Юля</td>' in page
    assert '<td class="l">4 Динамо &#34;Юг&#34;<br><small>Оля, Петя, Аня, Боря</small>' in page
    with WebServer(location) as web:  # the live page, as the report
        live = get(web.url + "/ru/")[1]
    assert '<td class="l">1 Спартак</td>' in live and "4 Динамо &#34;Юг&#34;" in live
    pbn = tmp_path / "cup.pbn"
    assert host("export", location, "-o", pbn)[0] == 0
    games = list(read_file(pbn))
    assert {(g.tags["HomeTeam"], g.tags["VisitTeam"]) for g in games} == {
        ("Спартак", 'Динамо "Юг"'), ("2", "3")}
    header, rows = games[-1].sections["TotalScoreTable"]
    assert header.startswith("Rank\\4R;TeamId\\4R;TeamName;Names;")
    table = " ".join(rows)
    assert ' 1 Спартак "Ян, Лев, Ира, Юля" ' in table
    assert ' 4 "Динамо \\"Юг\\"" "Оля, Петя, Аня, Боря" ' in table
    assert ' 2 - "-" ' in table  # no name: "-", as a cell with nothing in it


def test_importing_again_renames_a_team_and_keeps_the_others(tmp_path, host):
    location = cup(tmp_path / "cup.db", host)
    assert import_names(tmp_path, host, location, "A;1A;Ян;Лев;Спартак\nA;2A;Ира;Юля;ЦСКА\n"
                        )[0] == 0
    assert import_names(tmp_path, host, location, "A;1B;Оля;Петя;Спартак-2\n")[0] == 0
    assert stored(location) == {("A", 1): "Спартак-2", ("A", 2): "ЦСКА"}
    with open_db(location) as db:
        changed = db.all("SELECT action, old FROM audit WHERE tbl = "
                         "'team_names' ORDER BY id")
    assert [r["action"] for r in changed] == ["insert", "insert", "update"]
    assert json.loads(changed[-1]["old"]) == {"name": "Спартак"}


@pytest.mark.parametrize("lines, en", [
    ("A;1A;Ян;Лев;Спартак\nA;1B;Ира;Юля;ЦСКА\n",
     "names.csv:4: the team is named 'Спартак' on line 3 and 'ЦСКА' here"),
    ("A;1A;Ян;Лев;%s\n" % ("Я" * 61),
     "names.csv:3: the name of the team is longer than 60 characters"),
    ("A;1A;Ян;Лев;\"Спар\nтак\"\n",
     "names.csv:4: the name of the team holds a line break or a control character"),  # its end
])
def test_a_team_name_that_cannot_be_one_is_refused_and_nothing_is_stored(tmp_path, host,
                                                                         lines, en):
    location = cup(tmp_path / "cup.db", host)
    status, _, err = import_names(tmp_path, host, location, "A;2A;Оля;Петя;ЦСКА\n" + lines)
    assert status == 2 and en in err, err  # after line 2, a team named as it may be
    assert stored(location) == {}
    with open_db(location) as db:
        assert db.value("SELECT COUNT(*) FROM players") == 0


def test_a_team_name_in_a_pairs_session_is_refused_in_both_languages(tmp_path, host):
    location = tmp_path / "club.db"
    assert host("event", "create", location, "--name", "Клуб", "--tables", 3)[0] == 0
    names = tmp_path / "names.csv"
    names.write_text(HEADER + "A;1;Ян;Лев;Спартак\n", encoding="utf-8")
    status, _, err = host("--lang", "en", "names", "import", location, names)
    assert status == 2 and "names.csv:2: section A is not played by teams" in err, err
    status, _, err = host("--lang", "ru", "names", "import", location, names)
    assert status == 2 and "names.csv:2: в секции A играют не команды" in err, err
    with open_db(location) as db:
        assert db.value("SELECT COUNT(*) FROM players") == 0


def test_a_hand_edited_team_name_row_is_refused_naming_it(tmp_path, host):
    location = cup(tmp_path / "cup.db", host)
    assert import_names(tmp_path, host, location, "A;1A;Ян;Лев;Спартак\n")[0] == 0
    enter(host, location, 1, "4S", "N", 10)
    with sqlite3.connect(location) as db:
        db.execute("UPDATE team_names SET team = 0")
    status, _, err = host("--lang", "en", "score", location)
    assert status == 2 and "team name 1 is not one (team 0)" in err, err
    status, _, err = host("--lang", "ru", "score", location)
    assert status == 2 and "название команды 1 испорчено (команда 0)" in err, err


def test_a_team_s_name_goes_on_to_the_next_round_and_through_a_knockout_s_renumbering(
        tmp_path, host):
    """Groups A and B (test_knockout.groups_cup: A1, B4, A2, B3 go through), the teams of A
    named; the knockout numbers them 1 = A1, 2 = B4, 3 = A2, 4 = B3, and their names follow."""
    path = groups_cup(tmp_path, host)
    assert import_names(tmp_path, host, path, "A;1A;Ян;Лев;Спартак\nB;4B;Ира;Юля;ЦСКА\n"
                        "A;2A;Оля;Петя;Зенит\nA;3A;Аня;Боря;Локомотив\n")[0] == 0
    status, out, err = add_round(host, path, "--teams", 4)
    assert status == 0, err
    assert stored(path, 2) == {("A", 1): "Спартак", ("A", 2): "ЦСКА", ("A", 3): "Зенит"}
    home_wins(host, path, 1, 1, 2)
    home_wins(host, path, 2, 1, 2)
    status, out, err = host("--lang", "en", "score", path, "--session", 2)
    assert status == 0 and "1 Спартак" in out and "2 ЦСКА" in out and "Локомотив" not in out
