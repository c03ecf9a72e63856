"""A compact way to write auction scenarios in tests, and to run them through the replay tool.

`scenario("N", "N:1S", "E:1H", "no", "E:2H")` is the AUCTION_LOG.md scenario in which N bids
1S, E bids 1H, the director's entry is "reject" and E bids 2H. An event is "accept"/"ok",
"reject"/"no", or SEAT:CALL with optional flags after another colon: a = artificial,
s = same meaning, u / d = unintended / deliberate change, t = simultaneous (together).
"""

import json

from bridge.replay import replay_line

_FLAGS = {"a": ("artificial", True), "s": ("same_meaning", True),
          "u": ("change", "unintended"), "d": ("change", "deliberate"),
          "t": ("simultaneous", True)}


def event(text):
    if text in ("accept", "ok"):
        return {"director": "accept"}
    if text in ("reject", "no"):
        return {"director": "reject"}
    parts = text.split(":")
    e = {"seat": parts[0], "call": parts[1]}
    for f in parts[2] if len(parts) > 2 else "":
        key, value = _FLAGS[f]
        e[key] = value
    return e


def scenario(dealer, *events, **kw):
    return {"id": kw.get("id", "t"), "dealer": dealer, "events": [event(e) for e in events]}


def run(dealer, *events):
    """The replay tool's output object for this scenario (in-process, CPython)."""
    return json.loads(replay_line(json.dumps(scenario(dealer, *events))))


def calls(out):
    return " ".join(f"{s}:{c}" for s, c in out["calls"])


def long_irregular_auction(min_calls=60):
    """A 60-call auction full of irregularities that all get settled (memory and speed tests):
    insufficient bids replaced (27B1a), changes of call (25A, 25B2), calls out of rotation
    cancelled by the proper player (28B), inadmissible doubles cancelled (36A), simultaneous
    calls (33), then three passes. Bids climb by one step at every third call."""
    from bridge.auction import Auction
    from bridge.calls import to_short
    from bridge.seats import SEATS, lho, partner

    a, out, step = Auction(0), [], 0

    def do(text):
        out.append(text)
        a.apply(_journal(text))

    while len(a.calls) < min_calls and a.status == "auction":
        seat, t = SEATS[a.turn], step % 8
        barred = a.turn in a.must_pass
        nxt = max(a.last_bid + 1, 3) if a.last_bid < 36 else None
        if barred or nxt is None or step % 3:
            do(seat + ":P")
        elif t == 0 and 8 <= a.last_bid <= 32:
            do(seat + ":" + to_short(a.last_bid - 5))  # insufficient, then 27B1a
            do("no")
            do(seat + ":" + to_short(a.last_bid + 5))
        elif t == 2:
            do(seat + ":" + to_short(nxt))
            do(seat + ":" + to_short(nxt) + ":u")  # 25A (same call again)
        elif t == 3 and nxt < 36:
            later = SEATS[lho(a.turn)] + ":" + to_short(nxt + 1)
            do(later + ":t")  # simultaneous with this bid (Law 33): deemed after it
            do(seat + ":" + to_short(nxt))
        elif t == 4:
            do(SEATS[lho(a.turn)] + ":" + to_short(nxt))  # out of rotation, then 28B
            do(seat + ":" + to_short(nxt))
        elif t == 6:
            do(seat + ":" + to_short(nxt))
            do(seat + ":XX:d")  # 25B deliberate change, cancelled
            do("no")
        else:
            do(seat + ":" + to_short(nxt))
        doubler = partner(a.turn) if a.turn is not None else 0
        if step % 8 == 5 and a.classify(doubler, 1) == "36":
            do(SEATS[doubler] + ":X")  # inadmissible; its LHO calls: 36A cancels both
            do(SEATS[lho(doubler)] + ":P")
        step += 1
    while a.status == "auction":
        do(SEATS[a.turn] + ":P")
    return out


def _journal(text):
    from bridge.replay import _event
    return _event(event(text), "event")
