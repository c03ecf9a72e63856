"""The hand records of the pushed configuration (docs/CONFIG.md, `hand`): the host packs each
deal (host_sync.event.hand_record), the terminal takes it back exactly (terminal.config) without
parsing PBN, and a malformed one is dropped and named, under CPython and MicroPython."""

import gc
import json

import cbor2
from bridge import cards
from conftest import CORPUS, ROOT, run_device
from sync_script import event_movement
from terminal import keyscript
from terminal.config import Config, holder, suit_masks
from terminal_support import (
    card_keys,
    journal_records,
    make_config,
    session_script,
    write_config,
)

from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.event.hand_record import hand_bytes
from host_sync.interchange.pbn.read import read_file

CORPUS_FILES = (  # deals written from every seat, and a "?" deal
    CORPUS / "1998-4th_Generali_Masters_Individual" / "MI98S4.PBN",  # N:
    CORPUS / "1998-Spring_NABC_-_Reno" / "VFQTR1.PBN",  # E:, and Deal "?"
    CORPUS / "1998-Dutch_Teams_Final" / "ROUND1.PBN",  # S:
    CORPUS / "1998-12th_Cap_Gemini_World_Top_Tournament" / "ROUND06.PBN",  # W:
)
DEAL = "N:AKQJ.T98.765.432 T98.AKQJ.432.765 765.765.AKQJ.T98 432.432.T98.AKQJ"
SUITED = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


def taken(deals):
    """{number: 16 suit masks} as the terminal unpacks the hands the host packed."""
    c = Config({"boards": {n: {"hand": hand_bytes(d)} for n, d in deals.items()}})
    assert c.errors == []
    return {n: suit_masks(c.board(n)[2]) for n in deals}


def test_the_documented_examples():
    assert hand_bytes(DEAL).hex() == "40a5fe57c0affaab40d5af5600"  # docs/CONFIG.md
    assert hand_bytes(SUITED).hex() == "ffffffabaaaa5a555515000000"
    assert taken({1: SUITED})[1] == [0, 0, 0, 0x1FFF, 0, 0, 0x1FFF, 0, 0, 0x1FFF, 0, 0,
                                     0x1FFF, 0, 0, 0]


def test_the_test_configuration_hands_round_trip():
    with open(ROOT / "tests" / "data" / "terminal_config.json", encoding="utf-8") as f:
        deals = {int(b): v["hand"] for b, v in json.load(f)["boards"].items()}
    assert len(deals) == 32
    assert taken(deals) == {b: cards.parse_deal(d) for b, d in deals.items()}


def test_corpus_deals_round_trip_from_text_and_from_suit_masks(corpus):
    checked = seen = 0
    for path in CORPUS_FILES:
        deals = {}
        for game in read_file(path):
            text = game.tags.get("Deal")
            seen += 1
            try:
                masks = cards.parse_deal(text)
            except ValueError:
                assert hand_bytes(text) is None, text  # "?": no hand record is sent
                continue
            deals[len(deals) + 1] = text
            assert hand_bytes(masks) == hand_bytes(text)
        got = taken(deals)
        for n, text in deals.items():
            assert got[n] == cards.parse_deal(text), (path.name, text)
        checked += len(deals)
    assert checked > 150 and seen > checked  # real deals, and the "?" ones were met


def test_a_partial_or_invalid_deal_has_no_hand():
    whole = cards.parse_deal(DEAL)
    assert hand_bytes("N:AKQJ.T98.765.432 - 765.765.AKQJ.T98 432.432.T98.AKQJ") is None
    assert hand_bytes("N:AKQJ.T98.765.432 T98.AKQJ.432.765 765.765.AKQJ.T98") is None
    assert hand_bytes("X:" + DEAL[2:]) is None and hand_bytes("") is None
    assert hand_bytes(None) is None and hand_bytes(whole[:15]) is None
    twice = list(whole)
    twice[4] |= 1  # East holds North's club 2 too
    eleven = list(whole)
    eleven[0] &= ~1  # North without the club 2: nobody holds it
    beyond = list(whole)
    beyond[0] |= 1 << 13  # a 14th rank
    for masks in (twice, eleven, beyond, [None] * 16, whole[:8] + [None] * 8):
        assert hand_bytes(masks) is None, masks


def test_the_station_pushes_the_packed_hand_and_no_pbn(tmp_path):
    db = open_db(tmp_path / "event.db", create=True)
    eid = setup.create_event(db, "Pairs")
    setup.add_session(db, eid, 1, event_movement(4))
    sid = db.value("SELECT id FROM sessions")
    setup.set_deal(db, sid, 1, DEAL, 0, "None")
    setup.set_deal(db, sid, 2, "N:AKQJ.T98.765.432 - - -", 1, "NS")  # partial
    setup.register_terminal(db, "T1", 0, section="A", table=1)
    boards = setup.table_config(db, "T1")["boards"]
    db.close()
    assert boards[1] == {"d": 0, "v": "None", "hand": hand_bytes(DEAL)}
    assert boards[2] == {"d": 1, "v": "NS"}  # no hand record: nothing to check cards against
    c = Config(cbor2.loads(cbor2.dumps({"boards": boards})))
    hand = c.board(1)[2]
    assert c.errors == [] and suit_masks(hand) == cards.parse_deal(DEAL)
    masks = cards.parse_deal(DEAL)
    assert [holder(hand, cd) for cd in range(52)] == \
        [next(s for s in range(4) if masks[s * 4 + cd // 13] >> (cd % 13) & 1) for cd in range(52)]


# -- malformed hands, on both interpreters --------------------------------------------------

def malformed_boards():
    """{board: entry} with one case each, and the errors and board() results they must give."""
    good = hand_bytes(DEAL)
    moved = bytearray(good)
    moved[0] = moved[0] & ~3 | 1  # the club 2 moved from North to East: 12 and 14 cards
    boards = {
        1: {"hand": good},
        2: {"hand": good[:12]},  # too short
        3: {"hand": good + b"\0"},  # too long
        4: {"hand": DEAL},  # a text string, not bytes
        5: {"hand": list(good)},  # an array of ints
        6: {"hand": 13},
        7: {"hand": bytes(moved)},
        8: {"hand": bytes(13)},  # North holds all 52
        9: {"pbn": DEAL},  # an old host's hand record: not read, and named
        10: {"pbn": "N:nonsense", "hand": good, "d": 3, "v": "All"},  # pbn beside hand: ignored
        11: {"hand": good, "d": 1.0},  # a float dealer
        12: {"hand": None},  # CBOR null: no hand record
    }
    masks = cards.parse_deal(DEAL)
    errors = ["board %d" % b for b in (2, 3, 4, 5, 6, 7, 8, 9, 11)]
    law2 = [(b - 1) % 4 for b in range(1, 13)]
    vul = ["None", "NS", "EW", "All", "NS", "EW", "All", "None", "EW", "All", "None", "NS"]
    want = [(law2[b - 1], vul[b - 1], None) for b in range(1, 13)]
    want[0] = (0, "None", masks)
    want[9] = (3, "All", masks)
    return boards, errors, want


SHOW = """
import sys
from terminal.config import Config, suit_masks
c = Config.load(%r)
boards = [c.board(b) for b in range(1, 13)]
print(repr([c.errors] + [[d, v, h and suit_masks(h)] for d, v, h in boards]))
try:
    import micropython
except ImportError:
    micropython = None
if micropython:
    micropython.qstr_info(1)  # every name interned, to see that no PBN parser was loaded
"""


def test_malformed_hands_are_dropped_and_named_under_both_interpreters(tmp_path):
    boards, errors, want = malformed_boards()
    path = tmp_path / "config.cbor"
    path.write_bytes(cbor2.dumps({"tbl": 3, "boards": boards}, canonical=True))
    c = Config(cbor2.loads(path.read_bytes()))
    assert c.errors == errors
    assert [(d, v, h and suit_masks(h)) for d, v, h in (c.board(b) for b in range(1, 13))] \
        == want
    expected = repr([errors] + [list(w) for w in want])
    out = {}
    for interpreter in ("micropython", "cpython"):
        run = run_device(["-c", SHOW % str(path)], interpreter=interpreter, timeout=60)
        assert run.returncode == 0, run.stderr
        out[interpreter] = run.stdout.decode().splitlines()
        assert out[interpreter][0] == expected, (interpreter, out[interpreter][0])
    names = set(out["micropython"][1:])
    assert "Q(_text)" in names  # the parser's names are listed ...
    for name in ("parse_deal", "parse_hand", "parse_seat", "SUIT_SYMBOLS", "bit_count"):
        assert "Q(%s)" % name not in names  # ... and none of bridge.cards, calls, seats


# -- a closed round's hands are forgotten (issue 14) ---------------------------------------

def round_one_keys(path):
    """Keys of round 1 (4 boards, from the configuration) up to its close."""
    path.write_text(session_script().split("OK OK  # close round 1")[0] +
                    "OK OK  # close round 1\n")
    return str(path)


def deals_held(blobs, hexes):
    """The hexes (13-byte hand records) found, byte-aligned, in any of the blobs."""
    found = set()
    for blob in blobs:
        text = bytes(blob).hex()
        for h in hexes:
            at = text.find(h)
            while at >= 0 and at % 2:
                at = text.find(h, at + 1)
            if at >= 0:
                found.add(h)
    return found


def test_a_closed_round_s_hands_leave_flash_and_the_next_round_still_plays(tmp_path):
    """When round 1 closes, the terminal (real MicroPython, the simulator board, its flash a
    folder) keeps none of its four deals: no file holds their bytes, the configuration is
    as pushed but for those `hand`s, now null (dealer and vulnerability stay); the next
    round's hands are all there. Started again on that flash, it names no error, and round
    2 checks its opening lead against its hand record: a card West lacks is refused, in
    words that name nobody's cards, and journaled (`rc`); the third calls the director."""
    data = make_config()
    hexes = {b: data["boards"][b]["hand"].hex() for b in data["boards"]}
    config = tmp_path / "config.cbor"
    write_config(config, data)
    pushed_before = cbor2.loads(config.read_bytes())
    flash = tmp_path / "flash"
    flash.mkdir()
    run = run_device(["-m", "terminal.keyscript", round_one_keys(tmp_path / "r1.keys"),
                      str(flash), "--config", str(config)])
    assert run.returncode == 0, run.stdout + run.stderr
    files = [config] + [p for p in flash.iterdir() if p.is_file()]
    assert deals_held([p.read_bytes() for p in files], [hexes[b] for b in range(1, 5)]) == \
        set()
    later = [hexes[b] for b in range(5, 33)]
    assert deals_held([config.read_bytes()], later) == set(later)
    for b in range(1, 5):
        pushed_before["boards"][b]["hand"] = None
    assert cbor2.loads(config.read_bytes()) == pushed_before
    assert not (tmp_path / "config.cbor.w").exists()

    deal = Config.load(str(config)).board(5)[2]
    missing = [cd for cd in range(52) if holder(deal, cd) != 3][:3]
    (tmp_path / "r2.keys").write_text(
        "expect Раунд 2\nOK OK OK PASS PASS 4 S PASS PASS PASS\n"
        "%s\nexpect Карта не принята\n%s\nexpect Карта не принята\n"
        "%s\nexpect Вызовите директора\n" % tuple(card_keys(cd) for cd in missing))
    run = run_device(["-m", "terminal.keyscript", str(tmp_path / "r2.keys"), str(flash),
                      "--config", str(config)])
    assert run.returncode == 0, run.stdout + run.stderr
    assert [r[1:] for r in journal_records(flash / "journal")[-3:]] == [
        ("rc", {"b": 5, "s": 3, "cd": cd}) for cd in missing]
    assert Config.load(str(config)).errors == []


def test_a_closed_round_s_hands_leave_the_heap(tmp_path):
    """The same under CPython, where the heap can be searched: once round 1 is closed no
    object the terminal can reach holds the bytes of one of its deals (the configuration's
    table is zeroed in place; the boards and engines of the round are gone). A power cut
    after the `close` and before the file was rewritten: the start-up forgets them."""
    data = make_config()
    hexes = [data["boards"][b]["hand"].hex() for b in range(1, 5)]
    config = write_config(tmp_path / "config.cbor", data)
    as_pushed = open(config, "rb").read().hex()  # text: no bytes of a deal in the test's heap
    del data
    error, runner = keyscript.run(round_one_keys(tmp_path / "r1.keys"), str(tmp_path), config)
    assert error is None and runner.app.session.closed == 1
    gc.collect()
    blobs = [r for o in gc.get_objects() for r in gc.get_referents(o)
             if type(r) in (bytes, bytearray) and len(r) >= 13]
    assert deals_held(blobs, hexes) == set()
    assert runner.app.config.board(1)[2] is None and runner.app.config.board(5)[2]
    with open(config, "wb") as f:  # a power cut between the `close` and its forgetting
        f.write(bytes.fromhex(as_pushed))
    runner.start()
    with open(config, "rb") as f:
        assert deals_held([f.read()], hexes) == set()  # forgotten at start-up
    assert runner.app.config.board(1)[2] is None and runner.app.config.board(5)[2]
