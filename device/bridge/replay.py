"""The replay tool of AUCTION_LOG.md: scenarios (JSON Lines) in, one result per line out.

    python -m bridge.replay < scenarios.jsonl        (device/ on PYTHONPATH)
    micropython -m bridge.replay < scenarios.jsonl   (device/ on MICROPYPATH)

Both interpreters print the same bytes: the output is written by `write_json` below (fixed key
order, ", " and ": " separators, ASCII with \\u escapes, as CPython's json.dumps), because
MicroPython's json.dumps orders dict keys its own way and does not escape non-ASCII text.
A line that is not a valid scenario gives {"id": ..., "error": ...} and the tool goes on.
"""

import json
import sys

from bridge.auction import Auction
from bridge.calls import STRAINS, parse, to_short
from bridge.lawcodes import EV_ACCEPT, EV_REJECT, call_event

_SEATS = "NESW"  # bridge.seats.SEATS (not imported: a module costs the heap)

_CALL_KEYS = ("seat", "call", "artificial", "same_meaning", "change", "simultaneous")
_FLAGS = ("artificial", "same_meaning", "simultaneous")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b",
            "\f": "\\f"}


class Invalid(Exception):
    """A scenario line that does not follow the contract; the message is the reason."""


# -- output ------------------------------------------------------------------------------------

def _string(s, write):
    write('"')
    for ch in s:
        o = ord(ch)
        if ch in _ESCAPES:
            write(_ESCAPES[ch])
        elif o < 0x20 or o > 0x7f:
            if o > 0xFFFF:
                o -= 0x10000
                write(f"\\u{0xD800 | (o >> 10):04x}\\u{0xDC00 | (o & 0x3FF):04x}")
            else:
                write(f"\\u{o:04x}")
        else:
            write(ch)
    write('"')


def write_json(value, write):
    """Write the JSON text of value piece by piece; an ordered object is a tuple of pairs.

    The tool writes its output this way, so that no line is ever built whole in the heap.
    """
    if value is None:
        write("null")
    elif value is True:
        write("true")
    elif value is False:
        write("false")
    elif isinstance(value, str):
        _string(value, write)
    elif isinstance(value, int):
        write(str(value))
    elif isinstance(value, (tuple, list)):
        write("{" if isinstance(value, tuple) else "[")
        for i in range(len(value)):
            if i:
                write(", ")
            if isinstance(value, tuple):
                _string(value[i][0], write)
                write(": ")
                write_json(value[i][1], write)
            else:
                write_json(value[i], write)
        write("}" if isinstance(value, tuple) else "]")
    else:
        raise TypeError(f"cannot write {type(value).__name__} as JSON")


def dumps(value):
    """JSON text of value (see `write_json`)."""
    out = []
    write_json(value, out.append)
    return "".join(out)


# -- input -------------------------------------------------------------------------------------

def _seat(text, where):
    if not isinstance(text, str) or len(text) != 1 or _SEATS.find(text) < 0:
        raise Invalid(f"{where}: seat must be N, E, S or W")
    return _SEATS.find(text)


def _event(e, where):
    """One event of the scenario as a journal event (small int)."""
    if not isinstance(e, dict):
        raise Invalid(where + ": not an object")
    if "director" in e:
        if len(e) != 1 or e["director"] not in ("accept", "reject"):
            raise Invalid(where + ': a director entry is {"director": "accept" | "reject"}')
        return EV_ACCEPT if e["director"] == "accept" else EV_REJECT
    for key in e:
        if key not in _CALL_KEYS:
            raise Invalid(f"{where}: unknown field {dumps(key)}")
    if "seat" not in e or "call" not in e:
        raise Invalid(where + ": a call needs seat and call")
    seat = _seat(e["seat"], where)
    token = e["call"]
    try:
        call = parse(token, True)  # Law 38: a bid above seven is ruled on
        if to_short(call) != token:  # only the contract's spelling: P, X, XX, 1C..9NT
            raise ValueError
    except ValueError:
        raise Invalid(where + ": call must be P, X, XX or a bid 1C..9NT")
    for flag in _FLAGS:
        if flag in e and not isinstance(e[flag], bool):
            raise Invalid(f"{where}: {flag} must be true or false")
    change = e.get("change")
    if change is not None and change not in ("unintended", "deliberate"):
        raise Invalid(where + ": change must be unintended or deliberate")
    return call_event(seat, call, e.get("artificial", False), e.get("same_meaning", False),
                      change, e.get("simultaneous", False))


def parse_scenario(obj):
    """(id, dealer, journal events) of a decoded scenario; Invalid if it is not one."""
    if not isinstance(obj, dict):
        raise Invalid("a scenario must be a JSON object")
    for key in obj:
        if key not in ("id", "dealer", "events"):
            raise Invalid("unknown field " + dumps(key))
    dealer = _seat(obj.get("dealer"), "dealer")
    events = obj.get("events")
    if not isinstance(events, list):
        raise Invalid("events must be a list")
    return dealer, [_event(events[i], "event " + str(i)) for i in range(len(events))]


def _scenario_id(obj):
    sid = obj.get("id") if isinstance(obj, dict) else None
    if sid is None or isinstance(sid, str) or (isinstance(sid, int) and sid is not True and
                                               sid is not False):
        return sid
    raise Invalid("id must be a string or an integer")


# -- the result --------------------------------------------------------------------------------

def _contract(a):
    c = a.contract()
    if c is None:
        return None
    return to_short(c[0]) + ("", "X", "XX")[c[1]]


def _lead(entry):
    offender, law, mask = entry
    pairs = [("offender", _SEATS[offender]), ("law", law)]
    if law == "26A":
        pairs.append(("suits", [STRAINS[s] for s in range(4) if mask >> s & 1]))
    return tuple(pairs)


def result(sid, a):
    """The output object of AUCTION_LOG.md for auction a, as ordered pairs."""
    declarer = a.declarer()
    return (
        ("id", sid),
        ("status", a.status),
        ("turn", None if a.turn is None or a.status == "director" else _SEATS[a.turn]),
        ("calls", [[_SEATS[p >> 6], to_short(p & 63)] for p in a.calls]),
        ("contract", _contract(a)),
        ("declarer", None if declarer is None else _SEATS[declarer]),
        ("must_pass", tuple((_SEATS[s], a.must_pass[s]) for s in range(4) if s in a.must_pass)),
        ("lead", [_lead(e) for e in a.lead]),
        ("rulings", list(a.rulings)),
        ("refused", sorted(a.refused)),
    )


def _is_board(obj):
    """A whole-board scenario (docs/BOARD_LOG.md): a deal, a contract, or play events."""
    if not isinstance(obj, dict):
        return False
    if "deal" in obj or "contract" in obj:
        return True
    events = obj.get("events")
    if isinstance(events, list):
        for e in events:
            if isinstance(e, dict) and ("card" in e or "claim" in e or "agreed" in e):
                return True
    return False


def replay_value(line):
    """The output for one input line: pairs for write_json, the encoded text of a whole-board
    scenario, or None for a blank line."""
    line = line.strip()
    if not line:
        return None
    try:
        obj = json.loads(line)
    except ValueError:
        return (("id", None), ("error", "not valid JSON"))
    del line
    if _is_board(obj):  # the whole-board tool, loaded only when a board needs it
        from bridge.board_replay import encode, replay_scenario
        return encode(replay_scenario(obj))
    sid = None
    try:
        sid = _scenario_id(obj)
        dealer, events = parse_scenario(obj)
    except Invalid as e:
        return (("id", sid), ("error", e.args[0]))
    del obj  # the decoded scenario is the biggest thing in the heap: gone before the replay
    a = Auction(dealer)
    for ev in events:
        a.apply(ev)
    a.flush()
    del events
    return result(sid, a)


def replay_line(line):
    """The output line (without newline) for one input line, or None for a blank line."""
    value = replay_value(line)
    if value is None or isinstance(value, str):
        return value
    return dumps(value)


def main():
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    write = sys.stdout.write
    while True:
        raw = stdin.readline()
        if not raw:
            break
        if isinstance(raw, bytes):
            try:
                raw = raw.decode("utf-8")
            except UnicodeError:
                raw = None
        value = replay_value(raw) if raw is not None else (
            ("id", None), ("error", "not UTF-8 text"))
        raw = None
        if isinstance(value, str):
            write(value)
            write("\n")
        elif value is not None:
            write_json(value, write)
            write("\n")


if __name__ == "__main__":
    main()
