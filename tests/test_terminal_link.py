"""The sync link in the terminal's main loop: records made before registration are re-tagged
and reach the station; the real main loop (device/main.py) under MicroPython on a pty, with a
table playing a board card by card, is synced by the host's `host_sync.station.sync.Session`
while it shows the SYNC screen, and takes the configuration the station pushes."""

import os
import subprocess
import time

import serial
from conftest import DEVICE, ROOT, micropython_path
from main_loop import plug_main_loop
from sync_script import event_movement
from terminal import keyscript
from terminal.frame import encode_frame
from terminal.journal import Journal
from terminal.keystore import PROVISIONAL_KEY
from terminal.link import Link
from terminal_support import (
    IDENT as SIM_IDENT,
)
from terminal_support import (
    KEY,
    PIN,
    Terminal,
    journal_records,
    make_config,
    replayed,
    session_script,
    state,
    write_config,
)
from test_terminal_play import card_keys, legal_card

from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.station import link
from host_sync.station.sync import Session

IDENT = "PICO-77"


def paired(register, term):
    """The register request of a station in a pairing the director opened on `term` (what
    terminal.pairing's screen does), tagged under its code."""
    code = term.open_pairing().encode()
    return dict(register, pt=link.message_tag(code, term.nonce, register, "pt"))


def test_records_made_before_registration_are_retagged_and_offered(tmp_path):
    j = Journal(str(tmp_path / "journal"), PROVISIONAL_KEY, IDENT)
    j.append("open", {"sec": "A", "tbl": 1, "rnd": 1, "ns": 1, "ew": 5})
    j.append("board", {"b": 1})
    term = Link(str(tmp_path), IDENT, journal=j)
    hello = term.handle({"m": "hello", "i": 1, "v": [3], "sn": bytes(16)})[0]
    assert (hello["base"], hello["last"], hello["event"]) == (0, 0, None)
    key = bytes(range(32))
    ok = term.handle(paired({"m": "register", "i": 2, "event": "f" * 16, "key": key,
                             "id": IDENT}, term))[0]
    link.check_signed(key, bytes(16) + hello["nonce"], ok)
    records = list(Journal(str(tmp_path / "journal"), key, IDENT).records_after(0))
    assert [link.check_record(key, IDENT, list(r))[:2] for r in records] == [
        (1, "open"), (2, "board"), (3, "pair")]  # then the pairing itself
    j.append("res", {"b": 1, "tr": 9, "sc": 140})  # the app's next record: the event's key
    last = list(Journal(str(tmp_path / "journal"), key, IDENT).records_after(3))[0]
    assert link.check_record(key, IDENT, list(last))[1] == "res"
    again = Link(str(tmp_path), IDENT, journal=j)
    assert again.handle({"m": "hello", "i": 1, "v": [3], "sn": bytes(16)})[0]["last"] == 4


def test_nothing_is_recorded_while_the_station_reads(tmp_path):
    t = Terminal(tmp_path, make_config())
    t.press("OK OK OK")
    n = len(t.records())
    t.app.syncing = True
    assert t.text().startswith("Синхронизация") and "Записей: %d" % n in t.text()
    t.press("PASS 1 S MENU")
    assert len(t.records()) == n and t.app.beep is not None
    t.app.syncing = False
    t.press("PASS")
    assert len(t.records()) == n + 1


def sync(term):
    """The station's side of a sync on the terminal's link, in process: hello, register,
    pull everything, acknowledge it; returns the base the terminal compacted to."""
    j = term.app.journal
    station = Link(str(term.folder), SIM_IDENT, journal=j)
    station.handle({"m": "hello", "i": 1, "v": [3], "sn": bytes(16)})
    station.handle(paired({"m": "register", "i": 2, "event": "f" * 16, "key": KEY,
                           "id": SIM_IDENT}, station))
    nonce, after = station.nonce, 0
    while after < j.last:  # at most 64 records a pull
        for batch in station.handle(link.sign(KEY, nonce, {"m": "pull", "i": 3, "after": after,
                                                           "max": 64})):
            batch = link.decode_frame(encode_frame(batch)[:-1])  # as the cable carries it
            for record in batch["r"]:  # the seqs the chain implies
                after = link.batch_record(record, after)[0]
    acked = station.handle(link.sign(KEY, nonce, {"m": "ack", "i": 4, "seq": j.last}))[0]
    return acked["base"]


def test_a_terminal_synced_between_rounds_resumes_with_its_session(tmp_path):
    """Two rounds played and synced: the closed rounds are compacted away, and the terminal
    restarted on what is left still knows them: the next round to offer, the boards each pair
    has played (Law 15), the director's flags."""
    config = make_config()
    keys = tmp_path / "two.keys"
    keys.write_text(session_script().split("OK OK  # close round 2")[0] + "OK OK\n")
    error, _runner = keyscript.run(str(keys), str(tmp_path),
                                   write_config(tmp_path / "config.cbor", config))
    assert error is None, error
    term = Terminal(tmp_path, config)
    full = journal_records(tmp_path / "journal")
    before = state(term.app.session)
    # the pairing in the sync is journaled after them (and applied: it goes too)
    assert sync(term) == full[-1][0] + 1 and journal_records(tmp_path / "journal") == []
    term.start()  # power-cycled after the sync
    assert state(term.app.session) == before == replayed(term.app.config, full)
    assert "Раунд 3" in term.text() and "NS 3 - EW 13" in term.text()
    assert term.app.session.flags and term.app.session.check_board(2, 0) == "played_before"
    term.press("OK OK OK 1 S PASS")  # round 3 and its first board, then a sync in it
    before = state(term.app.session)
    opened = journal_records(tmp_path / "journal")
    assert opened[0][1] == "open" and sync(term) == opened[0][0] - 1  # the round stays
    term.start()
    assert state(term.app.session) == before and "Сд9" in term.text()


def table_config(movement):
    """This table (A1) in round 1 of the movement, with the play recorded."""
    data = make_config(play=1)
    s = movement.seating(1, 1)
    boards = movement.board_numbers(s.board_set)
    data["tbl"] = 1
    data["rounds"] = [{"r": 1, "ns": s.ns, "ew": s.ew, "b": [boards[0], boards[-1]],
                       "nns": 0, "new": 0}]
    return data


def wait_for(path, text, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and text in path.read_text():
            return True
        time.sleep(0.05)
    return False


def test_the_main_loop_under_micropython_syncs_with_the_station(tmp_path):
    movement = event_movement(4)
    db_path = tmp_path / "event.db"
    db = open_db(db_path, create=True)
    eid = setup.create_event(db, "Pairs")
    setup.add_session(db, eid, 1, movement)
    config = table_config(movement)
    deal = config["boards"][1]["pbn"]
    setup.set_deal(db, db.value("SELECT id FROM sessions"), 1, deal, 0, "None")
    # the keys of board 1: 4S by South, every card in turn, the result and its verification
    (tmp_path / "rehearsal").mkdir()
    rehearsal = Terminal(tmp_path / "rehearsal", config)
    keys = ["OK OK OK PASS PASS 4 S PASS PASS PASS"]
    rehearsal.press(keys[0])
    for _ in range(52):
        cd = legal_card(rehearsal.app.session.current.get_play())
        keys.append(card_keys(cd))
        rehearsal.press(keys[-1])
    tricks = rehearsal.app.session.current.play_result()
    keys.append("OK OK")
    keys.append("DIR %s OK 6" % " ".join(PIN))  # the director pairs it with the station
    flash = tmp_path / "flash"
    flash.mkdir()
    write_config(flash / "config.cbor", config)
    (tmp_path / "keys").write_text(" ".join(keys))
    log = tmp_path / "screens.log"
    plug = plug_main_loop(flash, tmp_path / "keys", log, IDENT)
    try:
        assert wait_for(log, "Код: "), (log.read_text() if log.exists() else "",
                                  plug.proc.poll())
        code = log.read_text().splitlines()[-1].split(" | ")[2]  # read off the screen
        assert code.startswith("Код: ") and "Связь со станцией" in log.read_text()
        with serial.Serial(plug.port, timeout=0.02) as port:
            session = Session(db, port, register=True, timeout=1.0,
                              code=code[5:].replace(" ", ""))
            progress = session.run()
        assert progress.outcome == "done" and not progress.refused, progress.refused
        shown = log.read_text().splitlines()
        syncing = [i for i, line in enumerate(shown) if line.startswith("Синхронизация")]
        assert syncing, shown[-3:]
        deadline = time.monotonic() + 10
        while len(shown) <= syncing[-1] + 1 and time.monotonic() < deadline:
            time.sleep(0.05)
            shown = log.read_text().splitlines()
        after = shown[syncing[-1] + 1]  # bye: the table's screen again, on the new config
        assert after.startswith("Сд1 ") and "BACK исправить" in after, after
    finally:
        plug.close()
    # every record, made before registration, reached the database under the event's key
    key = bytes.fromhex(db.value("SELECT key FROM terminals WHERE id = ?", (IDENT,)))
    journal = Journal(str(flash / "journal"), key, IDENT)
    assert db.value("SELECT COUNT(*) FROM records") == journal.last > 60
    assert db.value("SELECT COUNT(*) FROM records WHERE kind = 'card'") == 52
    row = db.one("SELECT * FROM results WHERE board = 1")
    assert (row["tricks"], row["verified"], row["bid"], row["declarer"]) == (tricks, 1, 21, 2)
    assert db.all("SELECT why FROM flags") == []
    # acknowledged, but the open round stays on the terminal (store.ack_limit)
    assert journal.base == 0
    # the station's configuration is in place (the app was rebuilt on it)
    pushed = (flash / "config.cbor").read_bytes()
    assert pushed == link.cbor_encode(setup.table_config(db, IDENT))
    db.close()


def test_main_has_no_side_effects_on_import():
    """The board runs main.py as __main__; the tests import it: nothing may start then."""
    run = subprocess.run([micropython_path(), "-c", "import main; print(main.SYNC_QUIET_MS)"],
                         capture_output=True, timeout=30,
                         env=dict(os.environ, MICROPYPATH=os.pathsep.join(
                             [str(DEVICE), str(ROOT)])))
    assert run.returncode == 0 and run.stdout.strip() == b"3000", run.stderr
