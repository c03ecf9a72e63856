"""Random keys never crash the terminal and never write an impossible record: 100,000 seeded
presses in process (CPython), 30,000 more with the play recorded (every card checked against
the hand record), and 10,000 with the play recorded replayed under the real MicroPython from
the ROMFS image, which must write the same records as CPython did."""

import json
import random
import subprocess

from conftest import ROOT, micropython_path
from terminal_support import Terminal, impossible, journal_records, make_config, write_config

from hw import keys  # noqa: E402

# Every key but DIR, OK and the digits more often (they move the flows on). The director
# (PIN "1") comes now and then, and more often while an irregularity waits for him: then he
# opens the ruling and picks a random option, as random as the players' keys. Now and then a
# player claims or concedes, and the table answers at random.
KEYS = [k for k in range(keys.COUNT) if k != keys.DIRECTOR] + [keys.OK] * 8 + \
    list(range(10)) * 2 + [keys.UP, keys.DOWN] + [keys.BACK] * 3
RESTART = -1
# What a ruling of the play may still need after its option: a suit, a rank, a digit.
DETAIL = [keys.CLUBS, keys.DIAMONDS, keys.HEARTS, keys.SPADES] + list(range(10))


def check_screen(app):
    lines = app.lines()
    assert len(lines) == 7 and all(len(line) <= 21 for line in lines), lines


def fuzz(term, seed, n, restart_every):
    """Press n seeded random keys (restarting from the journal every so often); returns the
    keys pressed, RESTART where the terminal restarted."""
    rng = random.Random(seed)
    pressed = []
    while len(pressed) < n:
        if term.app.alert() and rng.random() < 0.1:
            burst = [keys.DIRECTOR, 1, keys.OK, 2, rng.randint(1, 4), rng.choice(DETAIL),
                     keys.OK]
        elif rng.random() < 1 / 500:
            burst = [keys.DIRECTOR, 1, keys.OK]
        elif rng.random() < 1 / 300:  # a player claims or concedes (in the play: MENU 1)
            burst = [keys.MENU, 1, rng.choice((keys.UP, 1)), rng.randrange(10), keys.OK,
                     rng.choice((keys.OK, keys.BACK, keys.DOUBLE))]
        else:
            burst = [rng.choice(KEYS)]
        for k in burst:
            term.app.key(k)
            check_screen(term.app)
            pressed.append(k)
            if len(pressed) % restart_every == 0:
                term.start()
                check_screen(term.app)
                pressed.append(RESTART)
    return pressed


def test_100k_random_keys_in_process(tmp_path):
    t = Terminal(tmp_path, make_config(pin="1"))
    fuzz(t, 20260705, 100000, 25000)
    records = t.records()
    assert len(records) > 3000  # the fuzzer got far into the flows, not stuck on a screen
    seen = {k for k, _ in records}
    assert {"open", "board", "call", "dir", "quick", "res", "ver", "adj", "erase",
            "flag"} <= seen, seen
    assert impossible(records) == []
    assert t.app.session.skipped == 0


def test_30k_random_keys_with_the_play_recorded(tmp_path):
    config = make_config(pin="1", play=1)
    t = Terminal(tmp_path, config)
    fuzz(t, 20260706, 30000, 7500)
    records = t.records()
    seen = {k for k, _ in records}
    assert {"card", "claim", "pdir", "res"} <= seen, seen
    # the fuzzer plays cards, not only claims: since a claim may come in the middle of a trick
    # (68) random keys end the play sooner (74 cards with this seed, 100+ before)
    assert sum(1 for k, _ in records if k == "card") > 50
    assert impossible(records, config) == []
    assert t.app.session.skipped == 0


def test_impossible_play_records_are_caught():
    """The checker itself: a card not dealt to its seat, a card twice, 14 tricks' worth."""
    config = make_config(play=1)
    deal = config["boards"][1]["pbn"]
    from bridge.cards import parse_deal

    hands = parse_deal(deal)
    north = [c for c in range(52) if hands[c // 13] >> (c % 13) & 1]
    east = [c for c in range(52) if hands[4 + c // 13] >> (c % 13) & 1]
    assert impossible([("card", {"b": 1, "s": 0, "cd": east[0]})], config)
    twice = [("card", {"b": 1, "s": 0, "cd": north[0]})] * 2
    assert impossible(twice, config)
    assert not impossible(twice[:1] + [("pdir", {"b": 1, "d": "reject"})] + twice[:1], config)
    every = [("card", {"b": 1, "s": s, "cd": c}) for s in range(4) for c in range(52)
             if hands[s * 4 + c // 13] >> (c % 13) & 1]
    assert not impossible(every, config)
    extra = every + [("pdir", {"b": 1, "d": "correct"}), every[0]]
    assert impossible(extra, config) == [every[0]]  # the 53rd card: a 14th trick
    assert impossible([("claim", {"b": 1, "s": 0, "tr": 14, "ok": 1})], config)
    assert impossible([("claim", {"b": 1, "s": 1, "tr": 0, "ok": 2, "con": 1})], config)
    assert not impossible([("claim", {"b": 1, "s": 1, "tr": 3, "ok": 2, "con": 1})], config)
    assert not impossible([("claim", {"b": 1, "s": 1, "tr": 3, "ok": 2})], config)


def test_10k_random_keys_under_micropython_write_what_cpython_wrote(tmp_path):
    config = make_config(pin="1", play=1)
    t = Terminal(tmp_path, config)
    pressed = fuzz(t, 77, 10000, 2500)
    expected = t.records()
    image = tmp_path / "sim.img"
    subprocess.run([str(ROOT / ".venv" / "bin" / "python"), str(ROOT / "tools" / "romfs.py"),
                    str(image), "--sim", "--quiet"], check=True)
    script = tmp_path / "fuzz.keys"
    script.write_text("\n".join("restart" if k == RESTART else keys.NAMES[k]
                                for k in pressed) + "\n")
    out = tmp_path / "out"
    out.mkdir()
    run = subprocess.run([micropython_path(), "-X", "heapsize=600k",
                          str(ROOT / "tools" / "romrun.py"), str(image), "terminal.keyscript",
                          str(script), str(out), "--config",
                          write_config(tmp_path / "config.cbor", config)],
                         capture_output=True, timeout=120, env={"MICROPYPATH": "/nonexistent"})
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(run.stdout.decode().splitlines()[0])
    assert report["keys"] == len(pressed) - pressed.count(RESTART)
    assert report["skipped"] == 0
    records = journal_records(out / "journal")
    assert [(k, d) for _, k, d in records] == expected
    assert len(records) > 300 and impossible(records, config) == []
    assert any(k == "card" for _, k, _ in records)
