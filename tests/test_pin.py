"""The director's PIN (issue 14, docs/SECURITY.md "Director PIN"): PBKDF2-HMAC-SHA256 and
HMAC-SHA256 on the terminal (terminal.hmac256 over hashlib.sha256) give CPython's
hashlib.pbkdf2_hmac and hmac bytes under both interpreters; the host keeps only K (the PIN's
PBKDF2 under the event's salt, host_sync.event.pin), never the PIN, and derives each
terminal's own check from it; migration 008 turns a PIN kept in clear into K and redacts the
audit rows that carried it; a malformed PIN part shuts director mode rather than open it."""

import hashlib
import hmac
import json

import pytest
from conftest import run_device
from terminal import hmac256
from terminal.config import Config

from host_sync import cli
from host_sync.event import db as event_db
from host_sync.event import pin as pin_rules
from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.movements import mitchell

# (password, salt, rounds): RFC 7914's PBKDF2-HMAC-SHA256 vectors (section 11), a PIN, a key
# longer than the block (hashed first), an empty salt
VECTORS = [(b"passwd", b"salt", 1), (b"Password", b"NaCl", 80), (b"1234", b"0123456789abcdef",
                                                                  1000),
           (b"9" * 70, b"s", 3), (b"00000000", b"", 2)]
SCRIPT = """
from terminal import hmac256
import binascii
for p, s, n in %r:
    key = hmac256.pbkdf2(p, s, n)
    print(binascii.hexlify(key).decode())
    print(binascii.hexlify(hmac256.digest(key, b"pin T" + s)).decode())
"""


def expected():
    """Each vector's PBKDF2 (K) and the terminal check of a terminal named 'T' + its salt
    under it, by CPython's hashlib and hmac, as the host makes them (host_sync.event.pin)."""
    out = []
    for p, s, n in VECTORS:
        key = hashlib.pbkdf2_hmac("sha256", p, s, n)
        assert key == pin_rules.derived_key(p.decode(), s.decode(), n)
        check = hmac.new(key, b"pin T" + s, "sha256").digest()
        assert check == pin_rules.terminal_check(key, "T" + s.decode())
        out += [key.hex(), check.hex()]
    return out


def test_pbkdf2_matches_hashlib_under_cpython():
    assert [hmac256.pbkdf2(p, s, n).hex() for p, s, n in VECTORS] == expected()[::2]
    # RFC 7914 section 11 gives the first 32 bytes of this one
    assert hmac256.pbkdf2(b"passwd", b"salt", 1).hex().startswith("55ac046e56e3089fec1691c2")


@pytest.mark.parametrize("interpreter", ["micropython", "cpython"])
def test_pbkdf2_matches_hashlib_on_the_terminal(tmp_path, interpreter):
    script = tmp_path / "kdf.py"
    script.write_text(SCRIPT % (VECTORS,))
    run = run_device([str(script)], interpreter)
    assert run.returncode == 0, run.stderr
    assert run.stdout.decode().split() == expected()


def placed_event(location, pin="20261202"):
    db = open_db(location, create=True)
    eid = setup.create_event(db, "Club")
    setup.add_session(db, eid, 1, mitchell(4, 3))
    setup.set_director_pin(db, eid, pin)
    for n in (1, 2):
        setup.register_terminal(db, "T%d" % n, 0, section="A", table=n)
    return db, eid


def every_text(db):
    """Every value of every row of every table of the database, as one text."""
    return "\n".join(repr(tuple(row)) for table in db._tables()
                     for row in db.all("SELECT * FROM %s" % table))


def test_each_terminal_gets_its_own_check_and_the_host_keeps_no_pin(event_location):
    db, eid = placed_event(event_location)
    one, two = setup.table_config(db, "T1"), setup.table_config(db, "T2")
    assert one["pin"] != two["pin"] and one["salt"] == two["salt"]  # the event's salt
    assert one["kdf"] == two["kdf"] == pin_rules.PIN_ROUNDS and one["pv"] == 2
    assert setup.table_config(db, "T1")["pin"] == one["pin"]  # stable from sync to sync
    stored = json.loads(db.value("SELECT value FROM settings WHERE name = 'pin'"))
    assert sorted(stored) == ["kdf", "key", "salt"]
    key = hashlib.pbkdf2_hmac("sha256", b"20261202", one["salt"].encode(), 1000)
    assert stored["key"] == key.hex()  # K, from which every check is derived
    assert "20261202" not in every_text(db)  # nor in the audit rows
    for config in (one, two):
        assert "20261202" not in json.dumps(config, default=repr)
        assert stored["key"] not in json.dumps(config, default=repr)  # K stays on the host
        terminal = Config(config)
        assert not terminal.errors
        assert terminal.pin_ok("20261202") and not terminal.pin_ok("20261203")
        assert not terminal.pin_ok("0000")
    # one terminal's check does not open the other: it is of the other's identity
    assert not Config(dict(two, pin=one["pin"])).pin_ok("20261202")
    db.close()


def test_a_pin_stored_in_the_old_form_is_refused_with_what_to_do(tmp_path):
    db, eid = placed_event(tmp_path / "e.db")
    setup.set_setting(db, eid, "pin", {"salt": "ab12", "hash": "00" * 32})
    with pytest.raises(setup.SetupError) as e:
        setup.table_config(db, "T1")
    assert "set it again" in str(e.value) and "задайте его заново" in e.value.text("ru")


def test_the_command_line_keeps_no_pin_either(event_location, capsys):
    assert cli.main(["event", "create", event_location, "--name", "Club", "--tables", "3",
                     "--pin", "86429753"]) == 0
    with open_db(event_location) as db:
        assert "86429753" not in every_text(db)
        assert db.value("SELECT COUNT(*) FROM audit WHERE tbl = 'settings' AND row_key LIKE "
                        "'%\"pin\"%'") == 1


def test_migration_008_replaces_a_clear_pin_and_redacts_the_audit_rows(
        event_location, monkeypatch):
    """A database of before (schema 007) kept the PIN in clear, and each of its changes in
    the audit; opened by this host-sync, K replaces it, the old audit rows keep who, when and
    what but not the values, and the terminals' checks open to the last PIN set."""
    monkeypatch.setattr(event_db, "migrations", lambda real=event_db.migrations: [
        m for m in real() if m[0] <= 7])
    db = open_db(event_location, create=True)
    assert db.version() == 7
    eid = setup.create_event(db, "Club")
    setup.add_session(db, eid, 1, mitchell(4, 3))
    for pin in ("24681357", "13572468"):  # as set_director_pin wrote it then: in clear
        setup.set_setting(db, eid, "pin", {"pin": pin}, "scorer")
    setup.set_setting(db, eid, "lang", "en", "scorer")
    setup.register_terminal(db, "T1", 0, section="A", table=1)
    assert "13572468" in every_text(db)
    history = "SELECT id, at, actor, tbl, row_key, action FROM audit ORDER BY id"
    before = [tuple(r) for r in db.all(history)]
    db.close()
    in_file = not str(event_location).startswith("postgresql")
    if in_file:
        assert b"13572468" in open(event_location, "rb").read()
    monkeypatch.undo()
    db = open_db(event_location)
    assert db.version() == event_db.migrations()[-1][0]  # 008 and the ones after it
    text = every_text(db)
    assert "24681357" not in text and "13572468" not in text
    audit = [tuple(r) for r in db.all(history)]
    assert audit[:len(before)] == before  # the rows stay: who, when, which row, what
    redacted = db.all("SELECT old, new FROM audit WHERE tbl = 'settings' AND row_key LIKE "
                      "'%\"pin\"%' ORDER BY id")
    assert len(redacted) == 3 and [r["new"] for r in redacted[:2]] == [json.dumps(
        {"value": pin_rules.REDACTED})] * 2
    assert json.loads(redacted[2]["old"]) == {"value": pin_rules.REDACTED}
    assert db.value("SELECT actor FROM audit ORDER BY id DESC LIMIT 1") == "migration 008"
    assert json.loads(db.value("SELECT value FROM settings WHERE name = 'lang'")) == "en"
    config = Config(setup.table_config(db, "T1"))
    assert config.pin_ok("13572468") and not config.pin_ok("24681357")
    if in_file:  # nor left in the file's pages (freed space is zeroed)
        assert db.value("PRAGMA secure_delete") == 1
    db.close()
    if in_file:
        raw = open(event_location, "rb").read()
        assert b"13572468" not in raw and b"24681357" not in raw


@pytest.mark.parametrize("value", ['{"pin": 24681357}', '{"pin": "2468 1357"}', "not json"])
def test_migration_008_drops_a_clear_pin_it_cannot_derive_from(tmp_path, monkeypatch, value):
    """A PIN setting of before that is not digits (or not JSON at all) is not kept either: it
    replaced, and the terminals' configuration asks for the PIN to be set again (never no PIN,
    which a terminal would read as 0000)."""
    location = tmp_path / "e.db"
    monkeypatch.setattr(event_db, "migrations", lambda real=event_db.migrations: [
        m for m in real() if m[0] <= 7])
    with open_db(location, create=True) as db:
        eid = setup.create_event(db, "Club")
        setup.add_session(db, eid, 1, mitchell(4, 3))
        setup.register_terminal(db, "T1", 0, section="A", table=1)
        with db.transaction():
            db.insert("settings", {"event_id": eid, "name": "pin", "value": value}, "scorer",
                      key={"event_id": eid, "name": "pin"})
    monkeypatch.undo()
    with open_db(location) as db:
        assert json.loads(db.value("SELECT value FROM settings WHERE name = 'pin'")) == \
            pin_rules.UNSET
        assert "24681357" not in every_text(db) and "2468 1357" not in every_text(db)
        with pytest.raises(setup.SetupError, match="set it again"):
            setup.table_config(db, "T1")


GOOD_PART = {"term": "T1", "salt": "s", "kdf": 1000, "pv": 2, "pin": "00" * 32}


@pytest.mark.parametrize("change", [
    {"pin": None},  # no check
    {"pin": "zz" * 32},  # not hex
    {"pin": "00" * 31},  # short
    {"kdf": 0},  # no rounds
    {"kdf": 10 ** 9},  # rounds that would hang the keypad
    {"kdf": True},
    {"salt": 7},
    {"kdf": None, "pv": None},  # the sha256 form of before: salt and hash, no rounds
    {"pv": None},  # scheme 1, before migration 008: the check was K itself
    {"pv": 1}, {"pv": True},
    {"term": None},  # no identity to check under
])
def test_a_malformed_pin_part_is_named_and_opens_nothing(change):
    part = {k: v for k, v in dict(GOOD_PART, **change).items() if v is not None or k == "pin"}
    c = Config(part)
    assert c.errors == ["pin"]
    assert not c.pin_ok("0000") and not c.pin_ok("1234")


def test_the_good_part_of_the_malformed_ones_is_taken():
    key = hashlib.pbkdf2_hmac("sha256", b"1234", b"s", 1000)
    c = Config(dict(GOOD_PART, pin=hmac.new(key, b"pin T1", "sha256").hexdigest()))
    assert not c.errors and c.pin_ok("1234") and not c.pin_ok("0000")


def test_a_terminal_never_configured_takes_0000_only():
    c = Config(None)
    assert c.pin_ok("0000") and not c.pin_ok("1234")
