"""Power cuts: a recorded journal cut at every byte offset, and a running MicroPython
terminal killed (SIGKILL) at random points. Recovery always yields exactly the whole records
written before the cut, the application resumes on them, and no record the screen had
confirmed is lost."""

import random
import signal
import subprocess
import time

import pytest
from conftest import ROOT, micropython_path
from flash_support import settle, tail_of
from terminal import keyscript  # noqa: E402
from terminal.journal import Journal  # noqa: E402
from terminal_support import (
    IDENT,
    KEY,
    Terminal,
    journal_records,
    make_config,
    replayed,
    session_script,
    state,
    write_config,
)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """The journal of the first two rounds of the scripted session."""
    folder = tmp_path_factory.mktemp("recorded")
    script = session_script().split("OK OK  # close round 2")[0] + "OK OK\n"
    (folder / "two.keys").write_text(script)
    config = make_config()
    error, _runner = keyscript.run(str(folder / "two.keys"), str(folder),
                                   write_config(folder / "config.cbor", config))
    assert error is None, error
    return folder, config


def test_journal_cut_at_every_byte_offset(recorded, tmp_path):
    folder, config = recorded
    raw = settle(folder / "journal")
    full = journal_records(folder / "journal")
    assert len(full) > 60
    ends = [i + 1 for i, b in enumerate(raw) if b == 0]  # where each record's frame ends
    assert len(ends) == len(full)
    term = Terminal(tmp_path, config)
    c = term.app.config
    path = tmp_path / "journal"
    for cut in range(len(raw) + 1):
        path.write_bytes(raw[:cut])
        tail_of(path).unlink(missing_ok=True)
        whole = sum(1 for e in ends if e <= cut)
        got = [(r[0], r[1], r[2]) for r in Journal(str(path), KEY, IDENT).records_after(0)]
        assert got == full[:whole], cut
        if cut in ends or cut % 97 == 0:  # the app on it: at record ends and in between
            term.start()
            assert state(term.app.session) == replayed(c, full[:whole])
            assert len(term.app.lines()) == 7


def test_compaction_cut_at_every_byte_keeps_the_session(recorded, tmp_path):
    """A sync after two closed rounds, in the third: the journal compacts away the closed
    rounds and keeps the session's state in its marker. Cut at every byte of journal.new,
    and at each step of the rename, the terminal restarts with the same state as before."""
    folder, config = recorded
    path = tmp_path / "journal"
    path.write_bytes(settle(folder / "journal"))
    term = Terminal(tmp_path, config).press("OK OK OK 1 S PASS")  # round 3, board 9
    full = journal_records(path)
    before = settle(path)
    want = replayed(term.app.config, full)
    assert term.journal.acknowledge(term.journal.last)
    after = path.read_bytes()
    kept = journal_records(path)
    assert 0 < len(kept) < 8 and kept == full[-len(kept):]
    assert kept[0][1] == "open" and kept[0][2]["rnd"] == 3 and term.journal.base == kept[0][0] - 1
    new = tmp_path / "journal.new"
    for cut in range(len(after) + 1):  # cut while writing journal.new: the old file stands
        path.write_bytes(before)
        tail_of(path).unlink(missing_ok=True)
        new.write_bytes(after[:cut])
        assert state(term.start().app.session) == want, cut
    path.unlink()  # cut inside a FAT rename: the complete journal.new alone
    new.write_bytes(after)
    assert state(term.start().app.session) == want
    assert not new.exists() and path.read_bytes() == after
    assert state(term.start().app.session) == want
    assert "Сд9" in term.text()


def test_kill_9_running_terminal_resumes_with_every_confirmed_record(tmp_path):
    config_data = make_config()
    config = write_config(tmp_path / "config.cbor", config_data)
    script = tmp_path / "session.keys"
    script.write_text(session_script())
    image = tmp_path / "sim.img"
    subprocess.run([str(ROOT / ".venv" / "bin" / "python"), str(ROOT / "tools" / "romfs.py"),
                    str(image), "--sim", "--quiet"], check=True)
    reference = tmp_path / "reference"
    reference.mkdir()
    keyscript.run(str(script), str(reference), config)
    full = journal_records(reference / "journal")
    rng = random.Random(9)
    cuts = 0
    for attempt in range(8):
        out = tmp_path / ("cut%d" % attempt)
        out.mkdir()
        proc = subprocess.Popen([micropython_path(), "-X", "heapsize=600k",
                                 str(ROOT / "tools" / "romrun.py"), str(image),
                                 "terminal.keyscript", str(script), str(out), "--config",
                                 config, "--trace"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env={"MICROPYPATH": "/nonexistent"})
        time.sleep(rng.uniform(0.05, 0.5))
        proc.send_signal(signal.SIGKILL)
        stdout, _ = proc.communicate()
        confirmed = [int(line.split()[1]) for line in stdout.decode().splitlines()
                     if line.startswith("seq ")]
        got = journal_records(out / "journal")
        assert got == full[:len(got)]  # exactly whole records, in order, nothing invented
        if confirmed:
            assert len(got) >= confirmed[-1]  # nothing the screen had confirmed is lost
        if len(got) < len(full):
            cuts += 1
        (out / "empty.keys").write_text("")
        resumed = subprocess.run([micropython_path(), "-X", "heapsize=600k",
                                  str(ROOT / "tools" / "romrun.py"), str(image),
                                  "terminal.keyscript", str(out / "empty.keys"), str(out),
                                  "--config", config],
                                 capture_output=True, timeout=60,
                                 env={"MICROPYPATH": "/nonexistent"})
        assert resumed.returncode == 0, resumed.stdout + resumed.stderr
        term = Terminal(out, config_data)
        assert state(term.app.session) == replayed(term.app.config, got)
    assert cuts >= 4  # most kills landed inside the session, not after it


def test_a_pin_lockout_survives_a_power_cut_at_every_byte_and_a_compaction(tmp_path):
    """Issue 14: five wrong director's PINs lock the keypad. Cut the journal at every byte of
    the last of them: the terminal restarts locked exactly when that record is whole. Then a
    sync between rounds compacts the `td` records away and the marker keeps the count."""
    config = make_config()
    term = Terminal(tmp_path, config)
    for _ in range(5):
        term.press("DIR 9 9 9 9 OK")
    path = tmp_path / "journal"
    raw = settle(path)
    ends = [i + 1 for i, b in enumerate(raw) if b == 0]
    assert len(ends) == 5
    for cut in range(ends[3], len(raw) + 1):
        path.write_bytes(raw[:cut])
        tail_of(path).unlink(missing_ok=True)
        term.start().press("DIR")
        whole = cut == len(raw)
        assert term.app.session.bad_pins == (5 if whole else 4), cut
        assert ("PIN заблокирован" in term.text()) == whole, cut
    assert term.journal.acknowledge(term.journal.last)
    assert journal_records(path) == []  # no round open: everything was compacted
    term.start().press("DIR")
    assert term.app.session.bad_pins == 5 and "PIN заблокирован" in term.text()
