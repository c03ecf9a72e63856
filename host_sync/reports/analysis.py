"""What a hand record shows under the diagram: double-dummy tricks, par and high-card points.

The tricks and par come from a real solver, Bo Haglund's DDS through endplay
(endplay.dds.calc_dd_table and par), never from our own search: a club compares them with the
travellers, and a wrong par would read as a wrong score. Solving a deal costs a good part of a
second of CPU (and loading endplay another), so each (deal, dealer, vulnerability) is solved
once per process (the Russian and English pages of a report run share it) and, given the event
database the report is made from, once for good: `board_analyses` keeps what the solver said in
its `double_dummy` table (migration 007), keyed by the deal itself, so a hand record corrected
after a report is solved again and the next report of an unchanged event loads no solver at
all. A deal the solver cannot take (a hand missing or short of cards, a card twice) gets no
analysis: the page shows the hands it has and no table. Nor do the boards of a session past
the first MAX_SOLVED with a deal (`unsolved`), and the report says which.
"""

import json
from collections import namedtuple
from functools import lru_cache

from bridge.seats import SEATS

from host_sync.event.db import now, open_db

STRAINS = ("C", "D", "H", "S", "NT")  # the table's columns, lowest first as hand records show
DENOM = ("S", "H", "D", "C", "NT")  # endplay's Denom order
HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}
ACTOR = "report"  # who writes the double_dummy rows, in their audit

Analysis = namedtuple("Analysis", "tricks par_score par hcp")
Analysis.__doc__ = """tricks: {seat letter: {strain: tricks declarer takes}}; par_score: NS
points of the par (Law 77 sign: minus when EW's); par: the par contracts as (level, strain,
declarer seat letter, risk '', 'X' or 'XX', tricks over (+) or under (-) the contract);
hcp: {seat letter: high-card points}."""


def hcp(deal):
    """{seat letter: high-card points} of a PBN Deal value ('N:AKQ.. ...'); {} when unreadable;
    a hand shown as '-' is left out."""
    try:
        first, hands = deal.split(":", 1)
        start = SEATS.index(first.strip().upper())
    except ValueError:
        return {}
    return {SEATS[(start + i) % 4]: sum(HCP.get(c, 0) for c in hand.upper())
            for i, hand in enumerate(hands.split()) if hand != "-"}


def analyse(deal, dealer, vul):
    """The Analysis of a PBN Deal value for a board with `dealer` (seat index) and `vul`
    ('None', 'NS', 'EW', 'All'); None when the deal is not four full hands."""
    key = deal_key(deal, dealer, vul)
    return None if key is None else _solve(*key)


# A whole deal in PBN is 69 characters ('N:' + 52 cards + 12 dots + 3 spaces); a longer one is
# not four hands of 13 and is not solved, nor kept as a key
_DEAL_LENGTH = 69
_RISKS = ("", "X", "XX")


def deal_key(deal, dealer, vul):
    """(deal, dealer, vul) as solved and as stored: the Deal value upper-cased with single
    spaces, None when it cannot be four full hands (no solver is loaded to say so)."""
    if not isinstance(deal, str) or ":" not in deal:
        return None
    first, hands = deal.upper().split(":", 1)
    text = first.strip() + ":" + " ".join(hands.split())
    return (text, dealer, vul) if len(text) == _DEAL_LENGTH else None


# A session is a few dozen boards (a club's evening 36 at most, the corpus's longest sessions 40
# to 51; 64 leaves room for a long match). Each deal costs the solver 0.1-0.3 s (a hostile file
# of 100 deals took 29.5 s), so a file of thousands would hold a report for many minutes: past
# this many, boards show their hands without the analysis, and the report says which.
MAX_SOLVED = 64


def _deal_keys(session):
    """{board number: deal_key or None} of every board of `session` with a result."""
    played = {r.board for r in session.results}
    return {n: deal_key(b.deal, b.dealer_seat(), b.vul()) for n, b in session.boards.items()
            if n in played}


def unsolved(session):
    """The boards with a result and four full hands past the first MAX_SOLVED of them, in
    number order: `board_analyses` gives them none, known before anything is solved, and the
    same boards every time (not those the database happens to hold)."""
    return _past_limit(_deal_keys(session))


def _past_limit(keys):
    return sorted(n for n, key in keys.items() if key is not None)[MAX_SOLVED:]


def board_analyses(session, database=None):
    """{board number: Analysis or None} of every board of `session` with a result, None for
    the boards past MAX_SOLVED (`unsolved`). With `database` (the path or URL of the event
    database the session was read from) each one is read from its `double_dummy` table, and
    what had to be solved is written there in one transaction once the solver is done (never
    holding the writer's lock while it runs: the station may be writing). A stored row that
    does not read as an analysis is solved again and replaced."""
    keys = _deal_keys(session)
    keys.update(dict.fromkeys(_past_limit(keys)))  # before solving anything
    if database is None:
        return {n: None if k is None else _solve(*k) for n, k in keys.items()}
    with open_db(database) as db:
        stored = {(r["deal"], r["dealer"], r["vul"]): r["analysis"] for r in db.all(
            "SELECT deal, dealer, vul, analysis FROM double_dummy")}
        out, solved = {}, {}
        for number, key in keys.items():
            found = None if key is None else from_json(key[0], stored.get(key))
            if found is None and key is not None:
                found = solved[key] = _solve(*key)
            out[number] = found
        _store(db, {k: a for k, a in solved.items() if a is not None})
    return out


def _store(db, solved):
    if not solved:
        return
    with db.transaction():
        for (deal, dealer, vul), analysis in solved.items():
            key = {"deal": deal, "dealer": dealer, "vul": vul}
            values = {"analysis": to_json(analysis), "solved_at": now()}
            if db.one("SELECT 1 FROM double_dummy WHERE deal = ? AND dealer = ? AND vul = ?",
                      (deal, dealer, vul)):
                db.update("double_dummy", key, values, ACTOR)
            else:
                db.insert("double_dummy", dict(key, **values), ACTOR, key=key)


def to_json(analysis):
    """An Analysis as the double_dummy table keeps it (high-card points are not kept)."""
    return json.dumps({"tricks": {seat: [analysis.tricks[seat][s] for s in STRAINS]
                                  for seat in SEATS},
                       "score": analysis.par_score, "par": [list(p) for p in analysis.par]},
                      sort_keys=True)


def from_json(deal, text):
    """The Analysis stored as `text` for `deal`, or None when there is none or it is not one
    (a damaged or edited row: tricks 0..13 for each seat and strain, a par score that is a
    multiple of 10, par contracts of level 1..7 in a known strain, seat and risk)."""
    try:
        data = json.loads(text)
        rows = [data["tricks"][seat] for seat in SEATS]
        score, par = data["score"], tuple(tuple(p) for p in data["par"])
    except (TypeError, ValueError, KeyError):
        return None
    if not (all(len(row) == len(STRAINS) and all(_int(n, 0, 13) for n in row) for row in rows)
            and _int(score, -7600, 7600) and score % 10 == 0 and all(
                len(p) == 5 and _int(p[0], 1, 7) and p[1] in STRAINS and p[2] in SEATS and
                p[3] in _RISKS and _int(p[4], -13, 6) for p in par)):
        return None
    return Analysis({seat: dict(zip(STRAINS, row)) for seat, row in zip(SEATS, rows)}, score,
                    par, hcp(deal))


def _int(value, low, high):
    return type(value) is int and low <= value <= high


@lru_cache(maxsize=256)
def _solve(deal, dealer, vul):
    from endplay import dds  # here: only a report loads the solver library
    from endplay.types import Deal, Player, Vul
    vulnerable = {"None": Vul.none, "All": Vul.both, "NS": Vul.ns, "EW": Vul.ew}.get(vul)
    if vulnerable is None or dealer not in range(4):
        return None  # a board's own tags out of range: no par rather than a wrong one
    try:
        parsed = Deal(deal)
        if any(len(parsed[Player.find(s)]) != 13 for s in "NESW") or len(
                {str(c) for s in "NESW" for c in parsed[Player.find(s)]}) != 52:
            return None
        table = dds.calc_dd_table(parsed)
    except (ValueError, RuntimeError, KeyError, IndexError):
        return None
    tricks = {seat: {strain: table[Player.find(seat), DENOM.index(strain)] for strain in STRAINS}
              for seat in SEATS}
    parlist = dds.par(table, vulnerable, Player(dealer))
    par = []
    for c in parlist:  # read each contract as it comes: the iterator reuses its records
        par.append((c.level, DENOM[int(c.denom)],
                    SEATS[int(c.declarer)], {1: "", 2: "X", 4: "XX"}[int(c.penalty)],
                    int(c.result)))
    return Analysis(tricks, parlist.score, tuple(par), hcp(deal))
