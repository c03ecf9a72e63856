"""The functions every key calls keep their frames on the C stack on the board.

MicroPython gives a function whose state is above 11 words its frame from the heap at every
call (tests/mpy_frames.py); on the key path that cost more than the small functions' own work,
and session 8 cut a call key's heap frames from 50 to 26 (BENCHMARKS.md, the board). A local
or a deeper expression added to one of these would bring its heap frame back without any other
test noticing: this reads the frame sizes from the modules as mpy-cross compiles them.
"""

import subprocess

import pytest
from conftest import DEVICE, ROOT, mpy_cross
from mpy_frames import frames, on_heap

# module source -> the functions on every key's path, or every record's, or every glyph's
HOT = {
    DEVICE / "terminal" / "cbor.py": ("_head", "_encode"),  # each item of a record
    ROOT / "hw" / "text.py": ("blit", "_blit_dark", "_char", "glyph"),  # each character drawn
    ROOT / "hw" / "display.py": ("add_window",),  # each line drawn
    DEVICE / "terminal" / "app.py": ("_arrive", "commit", "_board_done"),  # each key, record
    DEVICE / "terminal" / "session.py": ("_call",),  # each call recorded
    DEVICE / "terminal" / "ui_text.py": ("t", "_text", "seat", "lang"),  # each text shown
    DEVICE / "terminal" / "screens.py": ("call_text", "suit"),  # each call and card shown
}


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """source -> [(name, n_state, n_exc_stack)] of its .mpy."""
    folder = tmp_path_factory.mktemp("mpy")
    out = {}
    for i, source in enumerate(HOT):
        target = folder / ("%d.mpy" % i)
        subprocess.run([mpy_cross(), "-o", str(target), str(source)], check=True,
                       capture_output=True)
        out[source] = frames(target.read_bytes())
    return out


@pytest.mark.parametrize("source", list(HOT), ids=lambda p: p.name)
def test_the_key_paths_small_functions_keep_their_frames_on_the_c_stack(compiled, source):
    for name in HOT[source]:
        found = [(state, exc) for n, state, exc in compiled[source] if n == name]
        assert len(found) == 1, "%s: %d functions named %s" % (source.name, len(found), name)
        state, exc = found[0]
        assert not on_heap(state, exc), (
            "%s: %s needs %d words of state and %d exception handlers: its frame now comes "
            "from the heap at every call (at most 11 words, 3 a handler, stay on the C "
            "stack)" % (source.name, name, state, exc))


def test_the_reader_sees_a_heap_frame_where_there_is_one(compiled):
    """draw_line (a line's diff, 27 words) and the CBOR encoder's rare cases do take one: the
    reader would notice a hot function growing."""
    text = {n: (state, exc) for n, state, exc in compiled[ROOT / "hw" / "text.py"]}
    cbor = {n: (state, exc) for n, state, exc in compiled[DEVICE / "terminal" / "cbor.py"]}
    assert on_heap(*text["draw_line"]) and on_heap(*cbor["_encode_other"])
    assert not on_heap(11, 0) and on_heap(12, 0) and on_heap(9, 1) and not on_heap(8, 1)
