"""Issue 18: a terminal's self-test at power-on (terminal.boot.self_test) is journaled as an
`st` record (docs/RECORDS.md); the host checks it like any record and lists it beside the
director's flags (`host-sync flags`), outside any round."""

import pytest
from sync_script import event_movement

from host_sync.cli import main
from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.event.flags import SELF_TEST_KEYS, detail_text, director_list
from host_sync.station.ingest import ingest

T1 = "PICO-01"
EVERY_KEY = (1 << 25) - 2  # key codes 1..24 (the board's are hw.layout's; any 24 bits do)
GOOD = {"k": EVERY_KEY, "fl": 1, "fr": 1180, "led": 3, "bz": 25, "lit": 1, "fw": "1.24.1"}


@pytest.fixture
def event(tmp_path):
    path = tmp_path / "event.db"
    with open_db(path, create=True) as db:
        setup.add_session(db, setup.create_event(db, "Пары"), 1, event_movement(4))
        setup.register_terminal(db, T1, 0)
    return path


def listed(db):
    return [(e.what, e.detail, e.terminal, e.seq) for e in director_list(db)
            if e.kind == "test"]


def test_a_self_test_before_any_round_is_listed_with_its_figures(event, capsys, monkeypatch):
    partial = dict(GOOD, k=0b111110, fl=0, fr=0)  # five keys, and the flash check failed
    with open_db(event) as db:
        ingest(db, T1, 0, [(1, "st", GOOD), (2, "st", partial),
                           (3, "open", {"sec": "A", "tbl": 1, "rnd": 1, "ns": 1, "ew": 5})])
        assert not db.value("SELECT COUNT(*) FROM flags")  # no `no_round`, nothing invalid
        assert listed(db) == [
            ("selftest_ok", "%d/%d, 1180K, LED 3, 1.24.1" % (SELF_TEST_KEYS, SELF_TEST_KEYS),
             T1, 1),
            ("selftest_bad", "5/%d, 0K, LED 3, 1.24.1" % SELF_TEST_KEYS, T1, 2)]
        assert not [e for e in director_list(db, only_open=True) if e.kind == "test"]
    monkeypatch.delenv("HOST_SYNC_LANG")
    assert main(["flags", str(event)]) == 0
    ru = capsys.readouterr().out
    assert "проверка: самопроверка: все клавиши и флеш в порядке" in ru
    assert "проверка: самопроверка: не все клавиши или сбой флеша" in ru
    assert "входов по PIN" not in ru  # not counted as PIN entries
    assert main(["flags", str(event), "--lang", "en"]) == 0
    en = capsys.readouterr().out
    assert "check: self-test: every key and the flash work — 24/24, 1180K" in en


@pytest.mark.parametrize("bad", [dict(GOOD, k=-1), dict(GOOD, k=1 << 40), dict(GOOD, fl=True),
                                 dict(GOOD, fw="x" * 41), dict(GOOD, fw=""),
                                 {k: v for k, v in GOOD.items() if k != "fr"},
                                 dict(GOOD, led="3"), "not a map"])
def test_a_hostile_self_test_record_is_kept_invalid_flagged_and_nothing_else_is_lost(
        event, bad):
    with open_db(event) as db:
        ingest(db, T1, 0, [(1, "st", bad), (2, "st", GOOD)])
        assert db.value("SELECT valid FROM records WHERE seq = 1") == 0
        why = db.all("SELECT why, detail FROM flags")
        assert [w["why"] for w in why] == ["invalid_record"]
        assert detail_text(why[0]["detail"]).startswith("st record: ")
        assert [t[0] for t in listed(db)] == ["selftest_ok"]  # the next one stands
