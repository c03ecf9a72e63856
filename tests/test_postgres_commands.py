"""The scorer's set-up commands given a PostgreSQL URL instead of EVENT.db (issue 17): the same
command line makes the same event on the server as in a SQLite file, shows it the same, and
refuses the same things with exit status 2 and the event unchanged."""

from web_support import evening as played_evening
from web_support import play

from host_sync.event.db import open_db

# what set-up stores, without the secrets (key, salted PIN) and time stamps of each run
CONTENT = {
    "events": "SELECT id, name FROM events ORDER BY id",
    "sessions": "SELECT id, event_id, number, name, current, movement FROM sessions ORDER BY id",
    "sections": "SELECT * FROM sections ORDER BY id",
    "tables": "SELECT * FROM tables ORDER BY id",
    "pairs": "SELECT * FROM pairs ORDER BY id",
    "rounds": "SELECT * FROM rounds ORDER BY id",
    "round_boards": "SELECT * FROM round_boards ORDER BY round_id, board",
    "boards": "SELECT * FROM boards ORDER BY id",
    "settings": "SELECT * FROM settings WHERE name != 'pin' ORDER BY name",
    "audit": "SELECT actor, tbl, row_key, action FROM audit ORDER BY id",
}


def content(location):
    with open_db(location) as db:
        return {name: [tuple(r) for r in db.all(sql)] for name, sql in CONTENT.items()}


def evening(host, location):
    """A two-session evening set up from the command line; the outputs of its commands."""
    said = [host("event", "create", location, "--name", "Чемпионат", "--sections", "A,B",
                 "--tables", "5,4", "--boards", 20, "--pin", "2468"),
            host("session", "add", location, "--movement", "howell", "--tables", 4,
                 "--boards", 14, "--later"),
            host("session", "current", location, 2),
            host("event", "show", location, "--lang", "en")]
    assert [s[0] for s in said] == [0, 0, 0, 0], said
    return [(status, out.replace(str(location), "EVENT")) for status, out, _ in said]


def test_the_set_up_commands_make_the_same_event_on_postgresql_as_in_a_file(
        host, pg_url, tmp_path):
    in_file = evening(host, tmp_path / "event.db")
    on_server = evening(host, pg_url)
    assert on_server == in_file
    assert content(pg_url) == content(tmp_path / "event.db")
    assert len(content(pg_url)["rounds"]) > 0


def test_a_refused_command_on_postgresql_changes_nothing(host, pg_url):
    evening(host, pg_url)
    before = content(pg_url)
    status, _, err = host("event", "create", pg_url, "--name", "Again", "--tables", 3,
                          "--boards", 6)
    assert status == 2 and "already holds an event" in err
    status, _, err = host("session", "current", pg_url, 7)
    assert status == 2 and err
    assert content(pg_url) == before


def test_a_url_to_no_database_is_refused_with_a_message(host, pg_server):
    status, _, err = host("event", "show", pg_server.url("nowhere"))
    assert status == 2 and 'database "nowhere" does not exist' in err


def test_score_export_and_report_read_a_postgresql_event_as_they_read_a_file(
        host, pg_url, tmp_path):
    said = {}
    for name, location in (("file", tmp_path / "event.db"), ("server", pg_url)):
        db, movement = played_evening(location)
        for table in (1, 2, 3):
            for rnd in (1, 2):
                play(db, movement, table, rnd)
        db.close()
        pbn = tmp_path / ("%s.pbn" % name)
        runs = [host("score", location), host("export", location, "-o", pbn),
                host("report", location, "-o", tmp_path / name)]
        assert [r[0] for r in runs] == [0, 0, 0], runs
        said[name] = (runs[0][1], pbn.read_text(encoding="utf-8"),
                      sorted(p.name for p in (tmp_path / name / "ru").iterdir()))
    assert said["server"] == said["file"]
    assert "director.html" in said["server"][2]  # read as an event database, not a file
