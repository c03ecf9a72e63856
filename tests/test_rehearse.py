"""`host-sync rehearse`: the scorer's own event (made with the set-up commands) played without
hardware by micropython terminals on pseudo-terminals, on a copy; the real file is only read."""

import pytest
from test_setup_commands import dump

from host_sync.demo import hands, players
from host_sync.event.db import open_db


@pytest.fixture
def club(tmp_path, host):
    """A 4-table Mitchell, two pairs named, hand records for boards 1-4 of 8."""
    path = tmp_path / "club.db"
    assert host("event", "create", path, "--name", "Вторник", "--tables", 4,
                "--boards-per-round", 2, "--pin", "9753")[0] == 0
    (tmp_path / "names.csv").write_text(
        "section,pair,player1,player2,number1,number2\nA,1,Анна Иванова,Борис Петров,1201,"
        "1202\nA,5,Вера Сидорова,Глеб Орлов,,\n", encoding="utf-8")
    assert host("names", "import", path, tmp_path / "names.csv")[0] == 0
    players.write_deals(tmp_path / "deals.pbn", "Вторник", hands.deals(7, range(1, 5)))
    assert host("deals", "import", path, tmp_path / "deals.pbn")[0] == 0
    return path


def test_a_rehearsal_plays_the_event_on_a_copy_and_leaves_the_event_as_it_was(
        club, host, tmp_path):
    before = dump(club)
    status, out, err = host("rehearse", club, "--rounds", 2, "--out", tmp_path / "r")
    assert (status, err) == (0, ""), out
    assert "demo: database agrees with the simulated truth (16 results)" in out
    assert "Boards without a hand record dealt at random (in the copy only): 5-8" in out
    assert dump(club) == before
    with open_db(tmp_path / "r" / "event.db") as copy:
        assert copy.value("SELECT name FROM events") == "Вторник"
        assert copy.value("SELECT COUNT(*) FROM results WHERE verified = 1") == 16
        names = [r["name"] for r in copy.all(
            "SELECT pl.name FROM players pl JOIN pairs p ON p.id = pl.pair_id "
            "WHERE p.number = 1 ORDER BY pl.position")]
        assert names == ["Анна Иванова", "Борис Петров"]
        with open_db(club) as real:  # the imported hand records are the ones played
            assert [tuple(r) for r in copy.all("SELECT number, deal FROM boards WHERE "
                                                 "number <= 4 ORDER BY number")] == [
                tuple(r) for r in real.all("SELECT number, deal FROM boards WHERE number <= 4 "
                                           "ORDER BY number")]
    for name in ("session.pbn", "session.xml", "travellers.csv", "report/ru/index.html"):
        assert (tmp_path / "r" / name).is_file()


def test_what_cannot_be_rehearsed_is_refused_before_anything_is_written(club, host, tmp_path):
    status, _, err = host("rehearse", club, "--rounds", 9, "--out", tmp_path / "r")
    assert status == 2 and "--rounds is 1 to 3 for this movement" in err
    assert not (tmp_path / "r").exists()
    status, _, err = host("rehearse", tmp_path / "none.db", "--out", tmp_path / "r")
    assert status == 2 and "no such event database" in err
    home = tmp_path / "home"
    home.mkdir()
    (home / "event.db").write_bytes(club.read_bytes())
    status, _, err = host("rehearse", home / "event.db", "--out", home)
    assert status == 2 and "would put the copy over the event itself" in err
    status, _, err = host("--lang", "ru", "rehearse", home / "event.db", "--out", home)
    assert status == 2 and "копия легла бы на сам турнир" in err
