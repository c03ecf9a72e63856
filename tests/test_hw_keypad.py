"""Keypad: debounce, two keys, held keys, ghosting, and the key layout.

The state machine is fed a virtual clock and a read_row function, scanning every millisecond
as the terminal's main loop would; the ghosting test also runs through the fake machine's
electrical model of a diode-less matrix on both interpreters.
"""

import pytest
from bridge import calls
from hw_support import run_scenario

from hw import keys, layout
from hw.keypad import Keypad
from hw.keys import HOLD, KEY_MASK, KIND_MASK, PRESS, RELEASE, REPEAT


class Contacts:
    """Raw switch states by matrix position; read_row is what the pins would say."""

    def __init__(self):
        self.closed = set()

    def read_row(self, r):
        return sum(1 << c for rr, c in self.closed if rr == r)


def position(key):
    k = layout.LAYOUT.index(key)
    return divmod(k, layout.COLS)


def run(timeline, until, **options):
    """timeline: {ms: [(key, closed?)...]}; returns [(ms, key, kind)] from 1 ms scans."""
    contacts = Contacts()
    pad = Keypad(contacts.read_row, layout.ROWS, layout.COLS, layout.LAYOUT, layout.REPEATING,
                 **options)
    events = []
    for now in range(until):
        for key, closed in timeline.get(now, ()):
            (contacts.closed.add if closed else contacts.closed.discard)(position(key))
        event = pad.poll(now)
        while event is not None:
            events.append((now, event & KEY_MASK, event & KIND_MASK))
            event = pad.get()
    return events, pad


def bouncing(key, start, closed, bounces=4, gap=2):
    """Contact chatter: the switch alternates every `gap` ms, ending in state `closed`."""
    timeline = {}
    state = not closed
    for i in range(bounces * 2 + 1):
        state = not state
        timeline.setdefault(start + i * gap, []).append((key, state))
    assert state == closed
    return timeline


def merge(*timelines):
    out = {}
    for t in timelines:
        for ms, changes in t.items():
            out.setdefault(ms, []).extend(changes)
    return out


def test_bouncing_press_and_release_give_one_event_each():
    timeline = merge(bouncing(5, 10, True), bouncing(5, 200, False))
    events, pad = run(timeline, 400)
    settle_press, settle_release = 10 + 8 * 2, 200 + 8 * 2
    assert events == [(settle_press + 20, 5, PRESS), (settle_release + 20, 5, RELEASE)]
    assert pad.down == 0


def test_glitch_shorter_than_debounce_is_ignored():
    events, _ = run({50: [(keys.OK, True)], 65: [(keys.OK, False)]}, 200)
    assert events == []


def test_two_keys_each_get_their_own_events_in_order():
    timeline = {10: [(1, True)], 15: [(keys.SPADES, True)],
                100: [(keys.SPADES, False)], 120: [(1, False)]}
    events, _ = run(timeline, 300)
    assert events == [(30, 1, PRESS), (35, keys.SPADES, PRESS),
                      (120, keys.SPADES, RELEASE), (140, 1, RELEASE)]


def test_a_chattering_key_does_not_delay_another():
    chatter = {ms: [(keys.MENU, ms % 4 == 0)] for ms in range(0, 300, 2)}
    timeline = merge(chatter, {50: [(keys.PASS, True)]})
    events, _ = run(timeline, 300)
    assert events == [(70, keys.PASS, PRESS)]


def test_held_key_reports_one_hold():
    events, _ = run({10: [(keys.DIRECTOR, True)], 2000: [(keys.DIRECTOR, False)]}, 2100)
    assert events == [(30, keys.DIRECTOR, PRESS), (730, keys.DIRECTOR, HOLD),
                      (2020, keys.DIRECTOR, RELEASE)]


def test_held_arrow_repeats_until_released():
    events, _ = run({10: [(keys.DOWN, True)], 1200: [(keys.DOWN, False)]}, 1300)
    repeats = [ms for ms, key, kind in events if kind == REPEAT]
    assert repeats == [730, 880, 1030, 1180]
    assert events[0] == (30, keys.DOWN, PRESS) and events[-1] == (1220, keys.DOWN, RELEASE)
    assert not [e for e in events if e[2] == HOLD]


def test_hold_follows_the_last_key_pressed():
    timeline = {10: [(keys.UP, True)], 400: [(keys.OK, True)],
                600: [(keys.OK, False)], 900: [(keys.UP, False)]}
    events, _ = run(timeline, 1000)
    assert [e for e in events if e[2] in (HOLD, REPEAT)] == []


def test_rectangle_reading_changes_nothing_until_it_resolves():
    # 1, 2, 4, 5 are the corners of a rectangle: with all four read closed, any one of
    # them could be a ghost of the other three, so no key may change until one opens
    assert [position(k) for k in (1, 2, 4, 5)] == [(1, 0), (1, 1), (2, 0), (2, 1)]
    timeline = {0: [(1, True)], 100: [(2, True)], 200: [(4, True), (5, True)],
                300: [(1, False)], 400: [(2, False)], 500: [(4, False), (5, False)]}
    events, _ = run(timeline, 600)
    assert events == [(20, 1, PRESS), (120, 2, PRESS), (320, 1, RELEASE),
                      (320, 4, PRESS), (320, 5, PRESS),
                      (420, 2, RELEASE), (520, 4, RELEASE), (520, 5, RELEASE)]


@pytest.mark.parametrize("interpreter", ["cpython", "micropython"])
def test_ghost_through_the_fake_electrical_matrix(interpreter):
    """1, 2 and 4 pressed: the diode-less matrix reads 5 closed too; 5 is never reported,
    and 4 only once 1 is released and the reading is unambiguous again."""
    result = run_scenario("keypad_ghost", interpreter)
    assert result["row2_during_ghost"] == 0b11, "the fake matrix must produce the ghost"
    assert result["events"] == [[20, "1", PRESS], [120, "2", PRESS], [320, "1", RELEASE],
                                [320, "4", PRESS], [420, "2", RELEASE], [520, "4", RELEASE]]


def test_unfitted_position_gives_no_event():
    contacts = Contacts()
    pad = Keypad(contacts.read_row, layout.ROWS, layout.COLS, layout.LAYOUT)
    contacts.closed.add(divmod(layout.LAYOUT.index(layout.NO_KEY), layout.COLS))
    assert [pad.poll(ms) for ms in range(100)] == [None] * 100


def test_full_queue_drops_and_counts():
    contacts = Contacts()
    pad = Keypad(contacts.read_row, layout.ROWS, layout.COLS, layout.LAYOUT)
    for ms in range(0, 2000, 25):  # press/release a key 40 times without reading events
        contacts.closed ^= {(1, 0)}
        for t in range(ms, ms + 25):
            pad.scan(t)
    assert pad.dropped == 80 - 16
    assert [pad.get() for _ in range(16)] == [1, 1 | RELEASE] * 8
    assert pad.get() is None


def test_layout_has_every_key_once_and_a_bad_layout_is_refused():
    fitted = [k for k in layout.LAYOUT if k != layout.NO_KEY]
    assert sorted(fitted) == list(range(keys.COUNT))
    assert len(keys.NAMES) == keys.COUNT == len(set(keys.NAMES))
    with pytest.raises(ValueError, match="layout"):
        Keypad(Contacts().read_row, 4, 5, layout.LAYOUT)


def test_strain_and_digit_keys_match_the_laws_core():
    assert [keys.strain(k) for k in (keys.CLUBS, keys.DIAMONDS, keys.HEARTS, keys.SPADES,
                                     keys.NOTRUMP)] == [calls.C, calls.D, calls.H, calls.S,
                                                        calls.NT]
    assert [keys.digit(k) for k in range(10)] == list(range(10))
    assert keys.strain(keys.PASS) == keys.digit(keys.OK) == -1
    # a bid is level then strain, the strain key straight above the level block
    assert position(keys.CLUBS)[0] == position(1)[0] - 1
    assert keys.code("nt") == keys.NOTRUMP and keys.code("XX") == keys.REDOUBLE
    with pytest.raises(ValueError, match="no key named"):
        keys.code("ENTER")
