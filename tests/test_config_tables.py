"""The rounds and player numbers of the pushed configuration (docs/CONFIG.md), as the terminal
keeps them: packed tables of bytes looked up by key (terminal.config). What the host sends
comes back exactly; a number too large for its table, a negative, zero or missing one, a bool,
a pair against itself or a round given twice is named in `errors` and changes nothing else;
CPython and MicroPython agree."""

import cbor2
from conftest import run_device
from terminal.config import Config

ROUNDS = [
    {"r": 1, "ns": 3, "ew": 11, "b": [1, 4], "nns": 4, "new": 2},
    {"r": 2, "ns": 3, "ew": 12, "b": [5, 8]},  # nns, new: 0 when not given
    {"r": 9, "ns": 65535, "ew": 1, "b": [964, 999], "nns": 999, "new": 1},  # the largest
    {"r": 10, "ns": 1, "ew": 2, "b": [1, 65535]},  # a round no heap holds (SECURITY.md)
    {"r": 3, "ns": 65536, "ew": 1, "b": [1, 2]},  # a pair number too large
    {"r": 65536, "ns": 1, "ew": 2, "b": [1, 2]},  # a round number too large
    {"r": 4, "ns": -1, "ew": 2, "b": [1, 2]},  # negative
    {"r": 5, "ns": 1, "ew": 2, "b": [3, 2]},  # boards the wrong way round
    {"r": 6, "ns": 1, "ew": 2},  # no boards
    {"r": 7, "ns": 4, "ew": 4, "b": [1, 2]},  # a pair against itself
    {"r": 8, "ns": 1, "ew": 2, "b": [0, 2]},  # board 0
    {"r": True, "ns": 1, "ew": 2, "b": [1, 2]},  # a bool is not a number
    {"r": 2, "ns": 7, "ew": 8, "b": [9, 12]},  # round 2 again: named, the first stands
]
PLAYERS = {
    1: [101, 102],
    2: [0x1FFFF, 0],  # the largest player number, and none
    3: [0x20000, 5],  # a player number too large
    0x10000: [1, 2],  # a pair number too large
    -4: [1, 2],
    5: [1],
}
WANT_ROUNDS = {1: (3, 11, 1, 4, 4, 2), 2: (3, 12, 5, 8, 0, 0),
               9: (65535, 1, 964, 999, 999, 1)}
WANT_PLAYERS = {1: (101, 102), 2: (0x1FFFF, 0)}
ERRORS = sorted(["round"] * 9 + ["round 2 twice", "players 3", "players 65536", "players -4",
                                  "players 5"])

SHOW = """
from terminal.config import Config
c = Config.load(%r)
print(repr([sorted(c.errors), c.pushed, [c.round(r) for r in range(12)],
            [c.pair_players(p) for p in (-4, 0, 1, 2, 3, 5, 65536)]]))
"""


def test_rounds_and_players_come_back_exactly_and_bad_ones_are_named(tmp_path):
    c = Config({"tbl": 3, "rounds": ROUNDS, "players": PLAYERS})
    assert sorted(c.errors) == ERRORS and c.pushed
    assert {r: c.round(r) for r in range(12) if c.round(r)} == WANT_ROUNDS
    assert {p: c.pair_players(p) for p in range(-4, 7) if c.pair_players(p)} == WANT_PLAYERS
    assert c.round(65536) is None and c.pair_players(65536) is None


def test_both_interpreters_keep_the_same_tables(tmp_path):
    path = tmp_path / "config.cbor"
    path.write_bytes(cbor2.dumps({"tbl": 3, "rounds": ROUNDS, "players": PLAYERS}))
    out = set()
    for interpreter in ("micropython", "cpython"):
        run = run_device(["-c", SHOW % str(path)], interpreter=interpreter, timeout=60)
        assert run.returncode == 0, run.stderr
        out.add(run.stdout.decode().strip())
    assert len(out) == 1
    errors, pushed, rounds, players = eval(out.pop())
    assert errors == ERRORS and pushed
    assert {r: tuple(v) for r, v in enumerate(rounds) if v} == WANT_ROUNDS
    assert [None if p is None else tuple(p) for p in players] == \
        [None, None, (101, 102), (0x1FFFF, 0), None, None, None]


def test_a_table_without_rounds_is_not_pushed():
    c = Config({"tbl": 3, "rounds": [{"r": 1, "ns": -1, "ew": 2, "b": [1, 2]}]})
    assert c.errors == ["round"] and not c.pushed and c.round(1) is None


def test_settings_and_boards_of_the_wrong_kind_are_named():
    """A setting of another type (a bool where a number is due: the interpreters disagree on
    bools), a `set` or `boards` that is not a map, a board keyed by a non-number: each named,
    the rest taken."""
    c = Config({"tbl": 3, "set": {"quick": True, "lang": "en", "play": 1, "lead": "1"},
                "boards": {1: {"d": True}, "x": {}, 2: {"d": 1}}})
    assert sorted(c.errors) == ["board 'x'", "board 1", "set.lead", "set.quick"]
    assert c.settings == {"lang": "en", "auction": 1, "lead": 1, "quick": 1, "play": 1}
    assert c.board(2)[0] == 1 and c.board(1)[0] == 0  # board 1 falls back to Law 2
    c = Config({"tbl": 3, "set": [1], "boards": [1]})
    assert sorted(c.errors) == ["boards", "set"]
