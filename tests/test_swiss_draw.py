"""A Swiss teams event run from the command line (rule book 1.5.6), one session a round: the
first round drawn at random (`event create --movement teams --teams N --swiss`), each next
one drawn by `session add --movement teams --swiss` from the event's standings in its
database, never a repeat meeting, the seed kept so the draw can be shown again."""

import json
import sqlite3

import pytest

from host_sync.movements.teams import team_of


def movement(path, session, letter="A"):
    with sqlite3.connect(path) as db:
        row = db.execute("SELECT sc.movement FROM sections sc JOIN sessions s ON "
                         "s.id = sc.session_id WHERE s.number = ? AND sc.letter = ?",
                         (session, letter)).fetchone()
    return json.loads(row[0])


def matches(mv):
    """[(home, away)] of a one-round teams movement, top table first, and its byes."""
    seats = sorted(mv["rounds"][0])
    played = [(team_of(ns), team_of(ew)) for table, ns, ew, _, _ in seats if table % 2]
    teams = {team_of(p) for p in mv["pairs"]}
    return played, sorted(teams - {t for m in played for t in m})


def swiss(tmp_path, host, teams, seed, name="swiss.db", *more):
    path = tmp_path / name
    status, out, err = host("--lang", "en", "event", "create", path, "--name", "Швейцарка",
                            "--movement", "teams", "--teams", teams, "--swiss", "--seed", seed,
                            "--boards-per-round", 2, *more)
    assert status == 0, err
    return path, out


def enter(host, path, board, table, session, *result):
    status, _, err = host("result", "correct", path, "--board", board, "--table", table,
                          "--session", session, *result)
    assert status == 0, err


def win_big(host, path, match, session):
    """The home team of match `match` wins both boards by 10 IMPs: 20 VPs to 0."""
    for board in (1, 2):
        enter(host, path, board, 2 * match - 1, session, "4S", "N", 10)
        enter(host, path, board, 2 * match, session, "4S", "N", 9)


def win_narrowly(host, path, match, session):
    """The home team wins by 1 IMP (board 2: 1NT+1 against 1NT=, NS vulnerable)."""
    enter(host, path, 1, 2 * match - 1, session, "4S", "N", 10)
    enter(host, path, 1, 2 * match, session, "4S", "N", 10)
    enter(host, path, 2, 2 * match - 1, session, "1NT", "N", 8)
    enter(host, path, 2, 2 * match, session, "1NT", "N", 7)


def test_the_first_round_is_a_seeded_random_draw_printed_and_kept(tmp_path, host):
    path, out = swiss(tmp_path, host, 5, 7)
    mv = movement(path, 1)
    assert mv["options"] == {"seed": 7, "schedule": "swiss"}
    played, byes = matches(mv)
    assert len(played) == 2 and len(byes) == 1 and mv["tables"] == 4
    assert "Swiss draw (seed 7): %d v %d (tables 1-2), %d v %d (tables 3-4); bye: %d" % (
        *played[0], *played[1], byes[0]) in out
    again, _ = swiss(tmp_path, host, 5, 7, "again.db")
    assert movement(again, 1) == mv  # the same seed draws the same round
    shown = host("--lang", "en", "event", "show", path)[1]
    assert "a Swiss round (1.5.6), drawn with seed 7" in shown
    assert "жеребьёвка с зерном 7" in host("--lang", "ru", "event", "show", path)[1]
    draws = {tuple(matches(movement(swiss(tmp_path, host, 5, seed, "s%d.db" % seed)[0], 1))[0])
             for seed in range(8)}
    assert len(draws) > 1  # and the draw is not the same whatever the seed


def test_each_next_round_is_drawn_from_the_standings_without_a_repeat(tmp_path, host):
    path, _ = swiss(tmp_path, host, 5, 3)
    (a, b), (c, d) = matches(movement(path, 1))[0]
    (e,) = matches(movement(path, 1))[1]
    status, _, err = host("--lang", "en", "session", "add", path, "--movement", "teams",
                          "--swiss")
    assert status == 2 and "drawn on complete results" in err
    assert "session 1 round 1: %d v %d" % (a, b) in err and "%d v %d" % (c, d) in err
    win_big(host, path, 1, 1)
    win_narrowly(host, path, 2, 1)
    status, _, err = host("--lang", "en", "session", "add", path, "--movement", "teams",
                          "--swiss")
    assert status == 0, err
    # standings: a 20, e 12 (the bye), c 10.x, d 9.x, b 0: the bye goes to the lowest
    # without one (b); a takes the nearest it has not met whose absence leaves the rest
    # pairable (e and d have not met, c and d have): a v e would leave c v d, a repeat
    assert matches(movement(path, 2)) == ([(a, c), (e, d)], [b])
    status, out, err = host("--lang", "en", "score", path, "--event")
    assert status == 0 and "Event team standings" in out, err
    assert "VP s1" in out and "VP s2" not in out  # round 2 has no result yet: no column
    rows = {r[2].strip(): [c.strip() for c in r[1:]] for r in
            (ln.split("│") for ln in out.splitlines()) if len(r) > 5}
    assert rows[str(a)][0] == "1" and rows[str(a)][3] == "20.00"  # place 1, session 1's VPs


def test_a_team_removed_is_drawn_no_more(tmp_path, host):
    path, _ = swiss(tmp_path, host, 4, 5)
    (a, b), (c, d) = matches(movement(path, 1))[0]
    win_big(host, path, 1, 1)
    win_big(host, path, 2, 1)
    status, _, err = host("team", "withdraw", path, "--team", b, "--reason", "снялась")
    assert status == 0, err
    status, out, err = host("--lang", "en", "session", "add", path, "--movement", "teams",
                            "--swiss")
    assert status == 0, err
    played, byes = matches(movement(path, 2))
    assert b not in {t for m in played for t in m} | set(byes)
    # the winners meet (home is whichever the draw ranks first of their equal VPs); d rests
    assert [set(m) for m in played] == [{a, c}] and byes == [d]


def test_each_section_is_drawn_apart(tmp_path, host):
    path, out = swiss(tmp_path, host, 4, 9, "two.db", "--sections", "A,B")
    assert out.count("Swiss draw (seed 9)") == 2
    for match in (1, 2):
        for letter in "AB":
            for board in (1, 2):
                for table in (2 * match - 1, 2 * match):
                    status, _, err = host(
                        "result", "correct", path, "--board", board, "--table", table,
                        "--section", letter, "--session", 1, "4S", "N", 10 - table % 2)
                    assert status == 0, err
    assert host("session", "add", path, "--movement", "teams", "--swiss")[0] == 0
    for letter in "AB":
        first, second = matches(movement(path, 1, letter))[0], matches(movement(path, 2,
                                                                               letter))[0]
        assert {frozenset(m) for m in first}.isdisjoint(frozenset(m) for m in second)


@pytest.mark.parametrize("create, add, why", [
    (["--swiss"], None, "the first round of a Swiss or a knockout takes --teams N"),
    (["--swiss", "--teams", 4, "--matches", "1-2"], None, "--matches is for a round robin"),
    (["--teams", 4, "--seed", 3], None, "--seed is for --swiss"),
    (["--swiss", "--teams", 4, "--seed", -1], None, "from 0 to 999999999"),
    (["--swiss", "--teams", 1], None, "at least 2 teams"),
    (["--teams", 4], ["--swiss", "--teams", 4], "leave out --teams"),
    (["--teams", 4], ["--swiss", "--seed", 10 ** 9], "from 0 to 999999999"),
    (None, ["--swiss"], "no teams session to draw from"),
])
def test_a_swiss_that_cannot_be_drawn_is_refused_and_changes_nothing(tmp_path, host, create,
                                                                     add, why):
    path = tmp_path / "e.db"
    first = ["--movement", "teams", *create] if create else ["--tables", 3]
    status, _, err = host("--lang", "en", "event", "create", path, "--name", "E", *first)
    if add is None:
        assert status == 2 and why in err and not path.exists(), err
        return
    assert status == 0, err
    before = path.read_bytes()
    status, _, err = host("--lang", "en", "session", "add", path, "--movement", "teams", *add)
    assert status == 2 and why in err, err
    status, _, ru = host("--lang", "ru", "session", "add", path, "--movement", "teams", *add)
    assert status == 2 and ru != err and any("а" <= ch <= "я" for ch in ru)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM sessions").fetchone() == (1,)
    assert len(before) == path.stat().st_size


def test_a_board_ruled_not_played_at_both_tables_is_settled_for_the_draw(tmp_path, host):
    path, _ = swiss(tmp_path, host, 4, 1)
    for match in (1, 2):
        for table in (2 * match - 1, 2 * match):
            enter(host, path, 1, table, 1, "3NT", "N", 9)
    enter(host, path, 2, 3, 1, "3NT", "N", 9)  # match 2 plays board 2 too
    enter(host, path, 2, 4, 1, "3NT", "N", 9)
    status, _, err = host("result", "adjust", path, "--board", 2, "--table", 1, "--session",
                          1, "--not-played")
    assert status == 0, err
    status, _, err = host("--lang", "en", "session", "add", path, "--movement", "teams",
                          "--swiss")
    assert status == 2 and "session 1 round 1" in err  # one table only: still waiting
    assert host("result", "adjust", path, "--board", 2, "--table", 2, "--session", 1,
                "--not-played")[0] == 0
    status, out, err = host("--lang", "en", "score", path, "--session", 1)
    assert "not played, the director ruled: 2" in out
    status, _, err = host("--lang", "en", "session", "add", path, "--movement", "teams",
                          "--swiss")
    assert status == 0, err


def test_the_teams_names_go_on_to_each_next_round(tmp_path, host):
    path, _ = swiss(tmp_path, host, 4, 2)
    names = tmp_path / "names.csv"
    names.write_text("section,pair,player1,player2,number1,number2\n" + "".join(
        "A,%d%s,Игрок %d%s-1,Игрок %d%s-2,%d,\n" % (t, s, t, s, t, s, 10 * t + (s == "B"))
        for t in range(1, 5) for s in "AB"))
    assert host("names", "import", path, names)[0] == 0
    for table in (1, 2, 3, 4):
        for board in (1, 2):
            enter(host, path, board, table, 1, "3NT", "N", 9)
    status, out, err = host("--lang", "en", "session", "add", path, "--movement", "teams",
                            "--swiss")
    assert status == 0 and "8 pairs named as the event's earlier teams sessions" in out, err
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT pl.name, pl.number FROM players pl JOIN pairs p ON "
                          "p.id = pl.pair_id JOIN sections s ON s.id = p.section_id JOIN "
                          "sessions se ON se.id = s.session_id WHERE se.number = 2 AND "
                          "p.number = 3 ORDER BY pl.position").fetchall()
    assert rows == [("Игрок 2A-1", 20), ("Игрок 2A-2", None)]  # pair 3 is team 2's first
    status, out, err = host("--lang", "en", "score", path, "--event")
    assert status == 0 and "Игрок 1A-1" in out, err
    assert host("report", path, "--session", 1, "-o", tmp_path / "site")[0] == 0
    page = (tmp_path / "site" / "ru" / "index.html").read_text()
    matches = page[page.index("<table class=\"matches\">"):]  # each match names its players
    assert "<br><small>Игрок 1A-1, Игрок 1A-2, Игрок 1B-1, Игрок 1B-2</small></td>" in matches


def test_event_show_of_a_swiss_round_whose_seed_was_edited_away(tmp_path, host):
    path, _ = swiss(tmp_path, host, 4, 1)
    mv = movement(path, 1)
    del mv["options"]["seed"]
    with sqlite3.connect(path) as db:
        db.execute("UPDATE sections SET movement = ?", (json.dumps(mv),))
    status, out, err = host("--lang", "en", "event", "show", path)
    assert status == 0 and "drawn with seed ?" in out, err


def test_each_swiss_round_is_numbered_as_the_event_counts_its_rounds(tmp_path, host):
    """Round 2 is a session of its own, and round 2 everywhere: in its movement, the rows the
    terminals are given, `event show`, the report and the director's `team forfeit`."""
    path, _ = swiss(tmp_path, host, 4, 3)
    win_big(host, path, 1, 1)
    win_big(host, path, 2, 1)
    assert host("session", "add", path, "--movement", "teams", "--swiss",
                "--boards-per-round", 2)[0] == 0
    assert movement(path, 2)["options"]["first_round"] == 2
    with sqlite3.connect(path) as db:
        assert {n for (n,) in db.execute(
            "SELECT ro.number FROM rounds ro JOIN tables t ON t.id = ro.table_id JOIN sections "
            "sc ON sc.id = t.section_id JOIN sessions s ON s.id = sc.session_id "
            "WHERE s.number = 2")} == {2}
    assert "  Round 2\n" in host("--lang", "en", "event", "show", path)[1]
    (home, _), _ = matches(movement(path, 2))[0]
    status, _, err = host("--lang", "en", "team", "forfeit", path, "--team", home, "--round", 1,
                          "--reason", "неявка")
    assert status == 2 and "section A has rounds 2 to 2, not 1" in err
    status, out, err = host("--lang", "en", "team", "forfeit", path, "--team", home, "--round",
                            2, "--reason", "неявка")
    assert status == 0 and "a technical defeat in round 2" in out, err
    win_big(host, path, 2, 2)
    assert host("report", path, "-o", tmp_path / "site")[0] == 0
    page = (tmp_path / "site" / "en" / "index.html").read_text()
    assert "Round 2 matches" in page and "Round 1 matches" not in page
    status, _, err = host("--lang", "en", "session", "add", path, "--movement", "teams",
                          "--swiss")
    assert status == 0, err
    assert movement(path, 3)["options"]["first_round"] == 3
