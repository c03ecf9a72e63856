"""The station: port discovery, serve's loop (several terminals, re-plugging, errors), its live
table, and the Raspberry Pi LEDs and buzzer against a fake RPi.GPIO that enforces the real
module's contract."""

import os
import time

import fake_gpio
import pytest
from rich.console import Console
from serial.tools import list_ports
from serial.tools.list_ports_common import ListPortInfo
from sync_harness import Terminal, write_script
from sync_script import event_movement, table_round

from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.station import serve
from host_sync.station.gpio import GpioOutputs
from host_sync.station.indicators import BUZZER, SLOTS, Indicators


@pytest.fixture
def gpio():
    fake_gpio.reset()
    yield fake_gpio
    fake_gpio.reset()


# -- the fake keeps RPi.GPIO's rules -----------------------------------------------------------

def test_fake_gpio_enforces_the_rpi_gpio_contract(gpio):
    with pytest.raises(RuntimeError, match="setmode"):
        gpio.setup(18, gpio.OUT)
    gpio.setmode(gpio.BCM)
    with pytest.raises(ValueError, match="different mode"):
        gpio.setmode(gpio.BOARD)
    with pytest.raises(ValueError, match="invalid on a Raspberry Pi"):
        gpio.setup(28, gpio.OUT)
    with pytest.raises(ValueError, match="invalid direction"):
        gpio.setup(18, 7)
    with pytest.raises(RuntimeError, match="OUTPUT"):
        gpio.output(18, gpio.HIGH)
    gpio.setup(23, gpio.IN, pull_up_down=gpio.PUD_UP)
    with pytest.raises(RuntimeError, match="OUTPUT"):
        gpio.output(23, gpio.HIGH)
    with pytest.raises(ValueError, match="pull_up_down"):
        gpio.setup(18, gpio.OUT, pull_up_down=gpio.PUD_UP)
    gpio.setup([18, 24], gpio.OUT, initial=gpio.HIGH)
    gpio.output([18, 24], [gpio.LOW, True])
    assert (gpio.input(18), gpio.input(24)) == (0, 1)
    gpio.cleanup()
    assert gpio.getmode() is None
    with pytest.raises(RuntimeError, match="setmode"):
        gpio.output(18, 1)
    gpio.setmode(gpio.BOARD)
    with pytest.raises(ValueError, match="invalid on a Raspberry Pi"):
        gpio.setup(1, gpio.OUT)  # 3.3 V, not a GPIO
    gpio.setup(12, gpio.OUT)  # header pin 12 is BCM 18
    gpio.output(12, 1)
    assert gpio.levels[18] == 1


def test_the_backend_imports_rpi_gpio_and_sets_its_pins_up_low(gpio):
    gpio.install()
    outputs = GpioOutputs([5, 6, 18])  # `import RPi.GPIO` inside gets the fake
    assert gpio.getmode() == gpio.BCM and gpio.levels == {5: 0, 6: 0, 18: 0}
    outputs.set(6, True)
    with pytest.raises(ValueError):
        outputs.set(7, True)
    outputs.close()
    assert gpio.directions == {}


def test_leds_follow_each_port_and_the_buzzer_beeps(gpio):
    ind = Indicators(GpioOutputs([p for s in SLOTS for p in s] + [BUZZER], gpio),
                     sleep=lambda s: None)
    lit = lambda: sorted(p for p, v in gpio.levels.items() if v and p != BUZZER)  # noqa
    ind.syncing("/dev/ttyACM0")
    ind.syncing("/dev/ttyACM1")
    assert lit() == sorted([SLOTS[0][0], SLOTS[1][0]])
    ind.done("/dev/ttyACM0")
    ind.error("/dev/ttyACM1")
    ind.quiet()
    assert lit() == sorted([SLOTS[0][1], SLOTS[1][2]])
    beeps = [lvl for pin, lvl in gpio.history if pin == BUZZER]
    assert beeps == [1, 0] * 4  # one for done, three for the error
    ind.gone("/dev/ttyACM0")
    ind.syncing("/dev/ttyACM2")  # takes the slot given back
    assert lit() == sorted([SLOTS[0][0], SLOTS[1][2]])
    for n in range(3, 3 + len(SLOTS)):
        ind.syncing("/dev/ttyACM%d" % n)  # more ports than slots: no LED, no crash
    ind.close()
    assert gpio.directions == {}


# -- discovery --------------------------------------------------------------------------------

def test_discovery_takes_usb_terminals_by_vid_pid_and_explicit_ports(monkeypatch, tmp_path):
    pico, other = ListPortInfo("/dev/ttyACM0"), ListPortInfo("/dev/ttyUSB0")
    pico.vid, pico.pid = 0x2E8A, 0x0005
    other.vid, other.pid = 0x0403, 0x6001
    monkeypatch.setattr(list_ports, "comports", lambda: [other, pico])
    (tmp_path / "tty1").touch()
    (tmp_path / "tty2").touch()
    assert serve.discover([str(tmp_path / "tty*"), "/dev/ttyACM0"]) == [
        "/dev/ttyACM0", str(tmp_path / "tty1"), str(tmp_path / "tty2")]


# -- serve's loop with real terminals ---------------------------------------------------------

@pytest.fixture
def event_db(tmp_path):
    path = tmp_path / "event.db"
    db = open_db(path, create=True)
    eid = setup.create_event(db, "Pairs")
    setup.add_session(db, eid, 1, event_movement(4))
    db.close()
    return path


def test_serve_keeps_running_resyncs_a_replugged_terminal_and_lights_the_leds(
        event_db, tmp_path, gpio):
    ind = Indicators(GpioOutputs([p for s in SLOTS for p in s] + [BUZZER], gpio),
                     sleep=lambda s: None)
    good = Terminal(tmp_path / "good", "PICO-GOOD")
    stranger = Terminal(tmp_path / "stranger", "PICO-STRANGER")
    # the good terminal is registered first, then plays a round
    port = good.plug(pair=True)  # paired at its keypad: the station types its code
    station = serve.Station(event_db, [port], register=True, timeout=0.3, code=good.code)
    station.poll()
    assert station.wait_idle(20)
    good.unplug()
    station.poll()  # its port is gone: forgotten
    recs, _ = table_round(2, event_movement(4), 1, 1)
    good.play(write_script(tmp_path / "round.jsonl", recs))

    # the station watches stable names (as udev's /dev/serial/by-id links), so a pty number
    # that another process reuses after an unplug is not taken for the same port
    ports = [str(tmp_path / "ttyGOOD"), str(tmp_path / "ttySTRANGER")]
    os.symlink(good.plug(), ports[0])
    os.symlink(stranger.plug(), ports[1])
    station = serve.Station(event_db, ports, timeout=0.3, retry=60, indicators=ind)
    import threading
    runner = threading.Thread(target=station.run, kwargs={"interval": 0.05})
    runner.start()
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and (
                len(station.snapshot()) < 2 or station.busy()):
            time.sleep(0.05)
        states = {p: (s, e) for p, s, _, e in station.snapshot()}
        assert states[ports[0]] == ("done", None)
        assert states[ports[1]][0] == "error" and "unknown terminal" in states[ports[1]][1]
        ind.quiet()
        slot_of = {port: ind.owner.index(port) for port in ports}
        assert gpio.levels[SLOTS[slot_of[ports[0]]][1]] == 1  # green
        assert gpio.levels[SLOTS[slot_of[ports[1]]][2]] == 1  # red
        text = _render_text(station)
        assert "PICO-GOOD" in text and "unknown terminal" in text
        # the scorer unplugs the good terminal and plugs it in again: synced again
        good.unplug()
        os.remove(ports[0])
        time.sleep(0.3)
        assert ports[0] not in dict((p, s) for p, s, _, _ in station.snapshot())
        assert all(not gpio.levels[p] for p in SLOTS[slot_of[ports[0]]])
        os.symlink(good.plug(), ports[0])  # plugged into the same port again
        again = ports[0]
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and dict(
                (p, s) for p, s, _, _ in station.snapshot()).get(again) != "done":
            time.sleep(0.05)
        assert dict((p, s) for p, s, _, _ in station.snapshot())[again] == "done"
    finally:
        station.stop.set()
        runner.join(5)
        good.unplug()
        stranger.unplug()
        ind.close()
    db = open_db(event_db)
    syncs = db.all("SELECT terminal_id, stored, outcome FROM syncs ORDER BY id")
    # the pairing's sync stores the PIN entry that opened director mode (a `td` record) and
    # the pairing itself (`pair`)
    assert [tuple(s) for s in syncs] == [("PICO-GOOD", 2, "done"),
                                         ("PICO-GOOD", len(recs), "done"),
                                         ("PICO-GOOD", 0, "done")]
    db.close()


def _render_text(station):
    console = Console(record=True, width=200)
    console.print(serve.render(station))
    return console.export_text()


def test_serve_station_off_a_pi_says_what_it_needs(tmp_path):
    """RPi.GPIO made unimportable, as on a PC: one line and status 2, not a traceback."""
    import subprocess
    import sys
    db_path = tmp_path / "event.db"
    db = open_db(db_path, create=True)
    setup.add_session(db, setup.create_event(db, "Pairs"), 1, event_movement(4))
    db.close()
    done = subprocess.run(
        [sys.executable, "-c", "import sys; sys.modules['RPi'] = None\n"
         "from host_sync.cli import main; sys.exit(main(sys.argv[1:]))",
         "serve", str(db_path), "--station"], capture_output=True, text=True, timeout=60,
        check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("serve --station: RPi.GPIO cannot be loaded")
    assert "apt install python3-rpi.gpio" in done.stderr


def test_serve_offers_a_code_to_a_terminal_once_and_spends_it_on_the_one_that_takes_it(
        event_db, tmp_path):
    """Each wrong code costs a terminal one of its three tries: a `serve --code` retrying
    every keyless terminal with the code another one shows used to close their pairings."""
    shown = Terminal(tmp_path / "shown", "PICO-SHOWN")  # the terminal whose code was typed
    other = Terminal(tmp_path / "other", "PICO-OTHER")  # keyless too, showing its own code
    other_port = other.plug(pair=True)
    try:
        station = serve.Station(event_db, [other_port], register=True, timeout=0.3, retry=0,
                                code="%06d" % ((int(other.code) + 1) % 10 ** 6))
        for _ in range(3):
            station.poll()
            assert station.wait_idle(20)
        errors = [error for _, _, _, error in station.finished]
        assert errors[0].endswith("wrong code: 2 tries left")
        assert all("not offered to it again" in e for e in errors[1:]) and len(errors) == 3
        # the code of a terminal that took it is spent: offered to no other
        shown_port = shown.plug(pair=True)
        try:
            station = serve.Station(event_db, [shown_port], register=True, timeout=0.3,
                                    code=shown.code)
            station.poll()
            assert station.wait_idle(20) and station.finished[-1][1] == "done"
            station.patterns = (shown_port, other_port)
            station.retry = 0
            for _ in range(2):
                station.poll()
                assert station.wait_idle(20)
            assert "holds no key" in station.finished[-1][3]
        finally:
            shown.unplug()
        # its pairing is still open after all that: its own code pairs it
        station = serve.Station(event_db, [other_port], register=True, timeout=0.3,
                                code=other.code)
        station.poll()
        assert station.wait_idle(20) and station.finished[-1][1] == "done"
    finally:
        other.unplug()
    with open_db(event_db) as db:
        assert db.value("SELECT COUNT(*) FROM terminals") == 2


def test_the_live_table_shows_what_a_device_said_as_text_not_markup(tmp_path):
    """A hello naming itself "[/]" put rich markup into the table: the display froze and
    serve stopped with a MarkupError at Ctrl-C. What a device or a port says is shown as it
    is."""
    from host_sync.station.sync import Progress

    station = serve.Station(str(tmp_path / "event[b].db"), [])
    p = Progress("/dev/ttyACM0")
    p.terminal, p.refused["type[/]"] = "[/]", 1
    station.snapshot = lambda: [("/dev/[red]x", "error", p, "the identity '[/]' is not ok")]
    text = _render_text(station)
    for said in ("[/]", "/dev/[red]x", "type[/] 1", "the identity '[/]' is not ok",
                 "event[b].db"):
        assert said in text, said


def test_the_summary_keeps_a_terminal_pending_until_that_terminal_syncs(event_db):
    """One cable, terminal after terminal: PICO-01's sync was cut, PICO-02 then synced on the
    same port, and the summary said nothing pending (it kept one outcome per port). It keeps
    each terminal's last one now; a port's failure before any hello is cleared by the next
    terminal done there, and a terminal done on another port is done."""
    from host_sync.station.sync import Progress

    def outcome(path, terminal, state, error=None):
        p = Progress(path)
        p.terminal, p.pending = terminal, 60 if state == "error" else 0
        return path, state, p, error

    station = serve.Station(str(event_db), [])
    station.finished = [outcome("/dev/ttyACM0", "PICO-01", "error", "link lost"),
                        outcome("/dev/ttyACM0", "PICO-02", "done"),
                        outcome("/dev/ttyACM1", None, "error", "no hello"),
                        outcome("/dev/ttyACM1", "PICO-03", "done"),
                        outcome("/dev/ttyACM2", "PICO-04", "error", "link lost"),
                        outcome("/dev/ttyACM3", "PICO-04", "done")]
    pending = station.summary()["pending"]
    assert [(path, terminal, left, why) for path, terminal, left, why in pending] == [
        ("/dev/ttyACM0", "PICO-01", 60, "link lost")]


def test_the_live_table_and_a_sync_s_reason_speak_the_station_s_language(event_db,
                                                                         monkeypatch):
    """The table was English whatever the language, and a failed sync's reason lost its
    Russian (str() of the refusal)."""
    import contextlib

    from host_sync.station.sync import Progress, SyncFailed

    class Refusing:
        def __init__(self, *args, **kwargs):
            self.progress = Progress("/dev/ttyACM0")

        def run(self):
            raise SyncFailed("no key of this event", ru="нет ключа этого турнира")

    monkeypatch.setattr(serve, "Session", Refusing)
    station = serve.Station(str(event_db), [], lang="ru",
                            open_port=lambda path: contextlib.nullcontext())
    entry = {"state": "syncing", "progress": None}
    station.ports["/dev/ttyACM0"] = entry
    station._sync("/dev/ttyACM0", entry)
    assert station.finished[-1][3] == "нет ключа этого турнира"
    syncing = Progress("/dev/ttyACM1")
    syncing.phase = "sending config.cbor"
    station.snapshot = lambda: [("/dev/ttyACM0", "error", entry["progress"], entry["error"]),
                                ("/dev/ttyACM1", "syncing", syncing, None)]
    text = _render_text(station)
    for said in ("порт", "терминал", "ошибка", "нет ключа этого турнира",
                 "отправка config.cbor"):
        assert said in text, said
    station.lang = "en"
    assert "sending config.cbor" in _render_text(station)


def test_the_log_is_printed_above_the_live_table_not_under_it(capsys):
    """While the table is live, a warning went to the terminal under it and was overwritten;
    it goes through the display's console now, and the handlers are put back after."""
    import logging

    from rich.console import Console

    console = Console(record=True, width=120)
    before = logging.getLogger().handlers[:]
    with serve.logs_above(console):
        logging.getLogger("host_sync.station").warning("/dev/ttyACM0: link lost")
    assert "link lost" in console.export_text()
    assert "link lost" not in capsys.readouterr().err
    assert logging.getLogger().handlers == before


def test_a_port_another_station_holds_is_in_use_not_an_error(event_db, tmp_path):
    """Two stations on one machine both opened every port and talked to a terminal at once
    (each refused the other's tags: three failed syncs, a failed exit). The port is opened
    exclusively now: the second station sees it in use, pending nothing, and tries again."""
    import pty

    import serial

    master, slave = pty.openpty()
    path = os.ttyname(slave)
    held = serial.Serial(path, 115200, exclusive=True)  # the other station
    try:
        station = serve.Station(str(event_db), [path], lang="ru")
        station.poll()
        assert station.wait_idle(10)
        (_, state, _, error), = station.snapshot()
        assert (state, error) == ("in use", "порт занят другой станцией или программой")
        assert station.summary()["pending"] == []
        assert "занят" in _render_text(station)
    finally:
        held.close()
        os.close(master)
        os.close(slave)


def test_a_port_scan_that_fails_leaves_the_station_watching(event_db, monkeypatch):
    """pyserial reading a USB device that left mid-scan can raise (int(None, 16) in its Linux
    port list): the scan is logged and the next poll looks again, where serve died."""
    station = serve.Station(str(event_db), [])
    monkeypatch.setattr(serve.list_ports, "comports", lambda: int(None, 16))
    assert station.poll() == []
    monkeypatch.setattr(serve.list_ports, "comports", lambda: [])
    assert station.poll() == []
