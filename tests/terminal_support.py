"""Shared by the terminal tests: a pushed configuration, an in-process terminal, the journal
decoded, the check that no record is impossible, and the key script of a whole session."""

import random

import cbor2
from conftest import DEVICE, ROOT, run_device  # noqa: F401 (re-exported)
from terminal import cbor
from terminal.app import App
from terminal.config import Config  # noqa: F401 (re-exported)
from terminal.journal import Journal
from terminal.session import Session

from host_sync.event.hand_record import hand_bytes
from host_sync.event.pin import PIN_ROUNDS, SCHEME, derived_key, terminal_check
from hw import keys  # noqa: E402

KEY = b"simulator-event-key-32-bytes...."  # terminal.keyscript's
IDENT = "SIM"
SALT = "club-2026"
PIN = "1234"
BOARDS = 32
ROUNDS = 8
PER_ROUND = BOARDS // ROUNDS


def random_deal(rng):
    """A PBN deal 'N:... ... ... ...' from a seeded shuffle."""
    cards = [s + r for s in "SHDC" for r in "AKQJT98765432"]
    rng.shuffle(cards)
    hands = []
    for h in range(4):
        hand = cards[h * 13:(h + 1) * 13]
        hands.append(".".join("".join(c[1] for c in hand if c[0] == s) for s in "SHDC"))
    return "N:" + " ".join(hands)


def make_config(seed=7, pin=PIN, **settings):
    """A Mitchell table 3 of section A: 8 rounds of 4 boards, with hand records: each board's
    `hand` packed by the host's hand_bytes, and its `pbn` beside it as the tests' truth (left
    out of what the terminal is given: see `pushed`)."""
    rng = random.Random(seed)
    rounds = []
    for r in range(1, ROUNDS + 1):
        rounds.append({"r": r, "ns": 3, "ew": 10 + r, "b": [(r - 1) * PER_ROUND + 1,
                                                            r * PER_ROUND],
                       "nns": 0, "new": 4 if r < ROUNDS else 0})
    data = {
        "event": "EV-2026-07", "term": "T3", "sec": "A", "tbl": 3,
        "rounds": rounds,
        "names": {p: "Pair %d" % p for p in range(1, 20)},
        "players": {p: [100 + 2 * p, 101 + 2 * p] for p in range(1, 20)},
        "boards": {b: board_entry(random_deal(rng)) for b in range(1, BOARDS + 1)},
        "set": dict({"lang": "ru", "auction": 1, "lead": 1, "quick": 1}, **settings),
        "salt": SALT, "kdf": PIN_ROUNDS, "pv": SCHEME,
        "pin": terminal_check(derived_key(pin, SALT), "T3").hex(),
    }
    return data


def board_entry(deal):
    """A board of the configuration: the hand record as the host pushes it, and its PBN."""
    return {"hand": hand_bytes(deal), "pbn": deal}


def pushed(data):
    """The configuration as the station would push it: without the `pbn` the tests keep
    beside each `hand`, so that the terminal's heap is measured on what it really gets."""
    boards = data.get("boards")
    if not isinstance(boards, dict):
        return data
    return dict(data, boards={b: {k: v for k, v in e.items() if k != "pbn"}
                              if isinstance(e, dict) and "hand" in e else e
                              for b, e in boards.items()})


def write_config(path, data):
    with open(path, "wb") as f:
        f.write(cbor2.dumps(pushed(data), canonical=True))
    return str(path)


class Terminal:
    """The application in this process, on a journal in a folder, fed key names."""

    def __init__(self, folder, config=None):
        self.folder = folder
        self.config = config
        self.start()

    def start(self):
        self.journal = Journal(str(self.folder / "journal"), KEY, IDENT)
        c = Config(cbor.decode(cbor2.dumps(pushed(self.config)))) \
            if self.config is not None else Config(None)
        self.app = App(self.journal, c)
        return self

    def press(self, script):
        for name in script.split():
            self.app.key(keys.code(name))
        return self

    def text(self):
        return "\n".join(self.app.lines())

    def records(self):
        return [(r[1], r[2]) for r in Journal(str(self.folder / "journal"), KEY,
                                              IDENT).records_after(0)]


def on_both(folder, config, script, shots, files=None):
    """The key script `script` run by terminal.keyscript under MicroPython and under
    CPython, each in its own folder below `folder` with the configuration `config` (and
    `files`: {name: bytes} beside it, such as travellers.cbor); returns {interpreter:
    (journal records, [the text of each shot named in `shots`])}."""
    got = {}
    for interpreter in ("micropython", "cpython"):
        out = folder / interpreter
        out.mkdir()
        for name, data in (files or {}).items():
            (out / name).write_bytes(data)
        config_file = write_config(out / "config.cbor", config)
        (out / "run.keys").write_text(script)
        run = run_device(["-m", "terminal.keyscript", str(out / "run.keys"), str(out),
                          "--config", config_file], interpreter=interpreter, timeout=60)
        assert run.returncode == 0, run.stdout + run.stderr
        got[interpreter] = ([r[1:] for r in journal_records(out / "journal")],
                            [(out / (name + ".txt")).read_text() for name in shots])
    return got


def journal_records(path):
    return [(r[0], r[1], r[2]) for r in Journal(str(path), KEY, IDENT).records_after(0)]


def state(session):
    """Everything the session knows, as comparable data."""
    boards = []
    for b in sorted(session.boards):
        x = session.boards[b]
        boards.append((b, tuple(x.events), x.quick, x.lead, x.tricks, x.score, x.verified,
                       repr(x.adj)))
    return (session.round, session.closed, session.section, session.table, session.ns,
            session.ew, session.first, session.last, session.players,
            session.current.b if session.current else None, tuple(boards),
            tuple(session.flags), tuple(session.history), session.skipped)


def replayed(config, records):
    """The state of a session that applies these (seq, kind, data) records."""
    s = Session(config)
    for seq, kind, data in records:
        s.apply(kind, data, seq)
    return state(s)


def dealt(config):
    """{board: 16 suit masks} of the configuration's hand records."""
    from bridge.cards import parse_deal

    return {b: parse_deal(v["pbn"]) for b, v in ((config or {}).get("boards") or {}).items()
            if v.get("pbn")}


def impossible(records, config=None):
    """Every record that no table can produce: a contract above 7 (or below 1), more than
    13 tricks, a verification of a result that was never entered or was replaced; in the
    play, a card its seat was not dealt (hand records of `config`), a card recorded again
    with no director's ruling in between (a card played twice), more cards than 13 tricks
    hold beyond the irregular ones the director had to see, a claim beyond 13 tricks, a
    concession of no trick voided by partner's objection (68B2 voids one or more)."""
    bad = []
    result = {}  # board -> a result stands (res after the last erase/adj)
    hands = dealt(config)
    since = {}  # board -> cards recorded since the last director's entry of the play
    cards = {}  # board -> card records
    held = {}  # board -> irregularities flagged (each may hold one card back)
    for rec in records:
        kind, d = rec[-2], rec[-1]
        b = d.get("b") if isinstance(d, dict) else None
        if kind == "card":
            deal = hands.get(b)
            if deal and not deal[d["s"] * 4 + d["cd"] // 13] >> (d["cd"] % 13) & 1:
                bad.append(rec)
            if d["cd"] in since.setdefault(b, set()):
                bad.append(rec)
            since[b].add(d["cd"])
            cards[b] = cards.get(b, 0) + 1
            if cards[b] > 52 + held.get(b, 0):
                bad.append(rec)
        elif kind == "pdir":
            since[b] = set()
        elif kind == "flag" and d["why"] == "irregular":
            held[b] = held.get(b, 0) + 1
        elif kind == "claim" and (not 0 <= d["tr"] <= 13 or
                                  d["ok"] == 2 and d.get("con") and d["tr"] == 0):
            bad.append(rec)  # beyond 13 tricks, or a concession of nothing voided (68B2)
        elif kind == "quick" and d.get("po") != 1:
            if not (3 <= d["ct"] <= 37 and d["x"] in (0, 1, 2) and d["dcl"] in range(4)):
                bad.append(rec)
        elif kind == "res":
            if not 0 <= d["tr"] <= 13:
                bad.append(rec)
            result[b] = True
        elif kind == "ver":
            if d["ok"] == 1 and not result.get(b):
                bad.append(rec)
            result[b] = result.get(b) and d["ok"] == 1 or result.get(b)
        elif kind in ("erase", "adj"):
            result[b] = False
            if kind == "adj":
                parts = d.get("parts") or ([[100, d["ct"], d["x"], d["dcl"], d["tr"]]]
                                           if d["how"] == "asg" else [])
                for p in parts:
                    if not (3 <= p[1] <= 37 and 0 <= p[4] <= 13):
                        bad.append(rec)
                if d["how"] == "wgt" and sum(p[0] for p in parts) != 100:
                    bad.append(rec)
                if d["how"] == "art" and not (d["ns"] in (40, 50, 60) and
                                              d["ew"] in (40, 50, 60)):
                    bad.append(rec)
        if kind == "quick":
            result[b] = False
            since[b], cards[b] = set(), 0
    return bad


# -- cards --------------------------------------------------------------------------------

RANK_KEYS = ["2", "3", "4", "5", "6", "7", "8", "9", "0", "C", "D", "H", "S"]
SUIT_KEYS = ["C", "D", "H", "S"]


def card_keys(cd):
    return SUIT_KEYS[cd // 13] + " " + RANK_KEYS[cd % 13]


def lowest(mask):
    return min(r for r in range(13) if mask >> r & 1)


def legal_card(play, seat=None):
    """The lowest card seat may legally play now (following suit when he can)."""
    s = play.turn if seat is None else seat
    lead = play.cards[play.trick * 4 + play.leaders[play.trick]]
    if lead:
        led = (lead - 1) // 13
        if play.holds(s, led):
            return led * 13 + lowest(play.holds(s, led))
    for suit in range(4):
        if play.holds(s, suit):
            return suit * 13 + lowest(play.holds(s, suit))
    raise AssertionError("no card left")


# -- the key script of a whole session ----------------------------------------------------

_CALL_KEYS = {"P": "PASS", "X": "X", "XX": "XX"}


def call_keys(token):
    if token in _CALL_KEYS:
        return _CALL_KEYS[token]
    return token[0] + " " + token[1:]


# Auctions by board, dealer first (the player in turn makes each call). Irregular ones
# carry the director's ruling: ("DIR", PIN, option digit) then the next calls.
_PLAIN = ("1S P 2S P 4S P P P", "1NT P 3NT P P P", "P 1H 1S 2H 2S 3H P P P",
          "1D X XX 1S 2D P P P", "P P P P", "2C P 2D P 2NT P 4H P 4NT P 5D P 6H P P P")
_IRREGULAR = (
    # an insufficient bid (27), accepted by LHO (option 1)
    ("1S 1H", "DIR {pin} OK 2 1 OK", "P P P"),
    # an insufficient bid, not accepted (option 3), replaced by the lowest bid in the strain
    ("1S 1H", "DIR {pin} OK 2 3 OK 1", "2H P P P"),
    # a bid above seven (38): cancelled, both offenders pass throughout
    ("1S 8S", "DIR {pin} OK 2 2 OK", "P P"),
)


def session_script(pin=PIN):
    """Keys for the whole session: every round opened from the configuration, 32 boards with
    full auctions (some irregular, ruled by the director), tricks, verification, a dispute,
    the director's adjusted scores (artificial, assigned, weighted), an erased and
    re-entered result, corrections, every round closed, and after the last a closed round's
    result corrected by the director."""
    out = []
    for r in range(1, ROUNDS + 1):
        out.append("OK OK  # round %d: configuration, players" % r)
        out.append("expect NS 3 - EW %d" % (10 + r))
        out.append("OK  # the first board of the round")
        for i in range(PER_ROUND):
            out.extend(board_keys((r - 1) * PER_ROUND + i + 1, " ".join(pin)))
        out.append("OK OK  # close round %d" % r)
    out.append("expect " + "Сессия окончена")
    out.append("DIR %s OK DOWN 2 4 S C OK 9 OK BACK  # board 1 of round 1 corrected (79C)"
               % " ".join(pin))
    return "\n".join(out) + "\n"


def play_session_script(folder, pin=PIN):
    """Keys for a whole session with the play recorded (setting `play`): every round opened
    and closed, 32 boards with full auctions, every card of every board played in turn (a
    claim agreed after eight tricks on every fourth board, a concession of one of the last
    three on the boards after the next), the tricks the play gives,
    verification. The cards come from the hand records, found by playing the session in
    process first (in `folder`)."""
    config = make_config(play=1)
    term = Terminal(folder, config)
    out = []

    def press(keys):
        out.append(keys)
        term.press(keys)

    for r in range(1, ROUNDS + 1):
        press("OK OK OK")
        for i in range(PER_ROUND):
            b = (r - 1) * PER_ROUND + i + 1
            auction = _PLAIN[b % len(_PLAIN)]
            press(" ".join(call_keys(c) for c in auction.split()))
            board = term.app.session.current
            if auction != "P P P P":
                play = board.get_play()
                while play.status == "play":
                    if b % 4 == 0 and play.trick == 8 and not any(
                            play.cards[32:36]):
                        press("MENU 1 %d OK OK" % play.remaining())  # the rest claimed
                        break
                    if b % 4 == 2 and play.trick == 10 and not any(play.cards[40:44]):
                        press("MENU 1 UP 1 OK OK")  # declarer concedes one of the three
                        break
                    press(card_keys(legal_card(play)))
            press("OK OK OK")  # the tricks the play gives, verified, the next board
        press("OK OK")
    assert "Сессия окончена" in term.text(), term.text()
    return config, "\n".join(out) + "\n"


_DIRECTOR = {
    2: "3 2 3 NT D OK UP OK",  # assigned: 3NT by E, made
    10: "3 1 6 DOWN 4 OK",  # artificial: NS 60%, EW 40%
    18: "3 3 6 0 OK 4 S C OK UP OK 4 0 OK 4 S C OK UP DOWN OK",  # weighted 60% 4S=, 40% 4S-1
    26: "3 4 OK",  # not played
}


def board_keys(b, pin):
    """One board from its first call to the score, ending on the next board's screen."""
    lines = ["expect " + "Сд" + str(b) + " "]
    kind = b % 8
    passed = False
    if kind == 3:
        first, ruling, rest = _IRREGULAR[(b // 8) % len(_IRREGULAR)]
        lines.append(" ".join(call_keys(c) for c in first.split()))
        lines.append("expect " + "ДИРЕКТОР")
        lines.append(ruling.format(pin=pin))
        lines.append(" ".join(call_keys(c) for c in rest.split()))
    elif kind == 7:
        lines.append("MENU 1 4 S X C OK  # quick entry: 4SX by N")
    else:
        auction = _PLAIN[b % len(_PLAIN)]
        passed = auction == "P P P P"
        lines.append(" ".join(call_keys(c) for c in auction.split()))
    if b in _DIRECTOR:
        lines.append("DIR %s OK %s BACK  # the director's adjusted score" % (pin, _DIRECTOR[b]))
        lines.append("OK  # the score: next")
        return lines
    if not passed:
        lines.append("OK  # no opening lead")
        lines.append("UP  # tricks: contract made exactly")
    lines.append("OK  # record the result")
    if kind == 5:
        lines.append("BACK UP OK  # the opponents disagree: entered again")
    lines.append("OK  # the opponents agree")
    if b == 12:
        lines.append("DIR %s OK 4 OK BACK  # the director erases the result" % pin)
        lines.append("DOWN DOWN OK OK  # entered again: one down, verified")
    if kind == 6:
        lines.append("BACK UP UP OK OK  # a correction: +1, verified again")
    lines.append("OK  # the score: next")
    return lines
