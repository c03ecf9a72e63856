"""The director's PIN (issue 14, docs/SECURITY.md "Director PIN"): PBKDF2-HMAC-SHA256 on the
terminal (terminal.hmac256 over hashlib.sha256) gives CPython's hashlib.pbkdf2_hmac bytes
under both interpreters; the host derives each terminal's hash under its own salt and the
PIN never reaches a terminal; a malformed PIN part shuts director mode rather than open it."""

import hashlib
import json

import pytest
from conftest import run_device
from terminal import hmac256
from terminal.config import Config

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
    print(binascii.hexlify(hmac256.pbkdf2(p, s, n)).decode())
"""


def expected():
    return [hashlib.pbkdf2_hmac("sha256", p, s, n).hex() for p, s, n in VECTORS]


def test_pbkdf2_matches_hashlib_under_cpython():
    assert [hmac256.pbkdf2(p, s, n).hex() for p, s, n in VECTORS] == expected()
    # RFC 7914 section 11 gives the first 32 bytes of this one
    assert hmac256.pbkdf2(b"passwd", b"salt", 1).hex().startswith("55ac046e56e3089fec1691c2")


@pytest.mark.parametrize("interpreter", ["micropython", "cpython"])
def test_pbkdf2_matches_hashlib_on_the_terminal(tmp_path, interpreter):
    script = tmp_path / "kdf.py"
    script.write_text(SCRIPT % (VECTORS,))
    run = run_device([str(script)], interpreter)
    assert run.returncode == 0, run.stderr
    assert run.stdout.decode().split() == expected()


def placed_event(tmp_path, pin="20261202"):
    db = open_db(tmp_path / "e.db", create=True)
    eid = setup.create_event(db, "Club")
    setup.add_session(db, eid, 1, mitchell(4, 3))
    setup.set_director_pin(db, eid, pin)
    for n in (1, 2):
        setup.register_terminal(db, "T%d" % n, 0, section="A", table=n)
    return db, eid


def test_each_terminal_gets_its_own_salted_hash_and_never_the_pin(tmp_path):
    db, _ = placed_event(tmp_path)
    one, two = setup.table_config(db, "T1"), setup.table_config(db, "T2")
    assert one["salt"] != two["salt"] and one["pin"] != two["pin"]
    assert one["kdf"] == two["kdf"] == setup.PIN_ROUNDS
    assert setup.table_config(db, "T1")["salt"] == one["salt"]  # stable from sync to sync
    for config in (one, two):
        assert "20261202" not in json.dumps(config, default=repr)
        terminal = Config(config)
        assert not terminal.errors
        assert terminal.pin_ok("20261202") and not terminal.pin_ok("20261203")
        assert not terminal.pin_ok("0000")
    # one terminal's hash does not open the other: the salts differ
    assert not Config(dict(two, pin=one["pin"])).pin_ok("20261202")


def test_a_pin_stored_in_the_old_form_is_refused_with_what_to_do(tmp_path):
    db, eid = placed_event(tmp_path)
    setup.set_setting(db, eid, "pin", {"salt": "ab12", "hash": "00" * 32})
    with pytest.raises(setup.SetupError) as e:
        setup.table_config(db, "T1")
    assert "set it again" in str(e.value) and "задайте его заново" in e.value.text("ru")


@pytest.mark.parametrize("part", [
    {"salt": "s", "kdf": 1000},  # no hash
    {"salt": "s", "kdf": 1000, "pin": "zz" * 32},  # not hex
    {"salt": "s", "kdf": 1000, "pin": "00" * 31},  # short
    {"salt": "s", "kdf": 0, "pin": "00" * 32},  # no rounds
    {"salt": "s", "kdf": 10 ** 9, "pin": "00" * 32},  # rounds that would hang the keypad
    {"salt": "s", "kdf": True, "pin": "00" * 32},
    {"salt": 7, "kdf": 1000, "pin": "00" * 32},
    {"pin": "00" * 32},  # the sha256 form of before: salt and hash, no rounds
])
def test_a_malformed_pin_part_is_named_and_opens_nothing(part):
    part = dict(part)
    part.setdefault("pin", None)
    c = Config(part)
    assert c.errors == ["pin"]
    assert not c.pin_ok("0000") and not c.pin_ok("1234")


def test_a_terminal_never_configured_takes_0000_only():
    c = Config(None)
    assert c.pin_ok("0000") and not c.pin_ok("1234")
