"""An in-memory session: pairs, boards and the results of every table, and its scoring.

This is the plain model the scoring database feeds (one `Result` per row of a traveller); it
knows nothing of storage. `score_session` scores every board with `board.score_board`, applies
Law 12C2(c) to artificial scores, totals each pair and ranks them (one field, or NS and EW
fields when every pair kept its direction).
"""

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from itertools import chain, repeat
from operator import attrgetter, neg

from bridge import boards as board_rules
from bridge import calls
from bridge.score import score as contract_score
from bridge.seats import parse_seat

from host_sync.errors import Refused, at
from host_sync.scoring import matchpoints as mp_scoring
from host_sync.scoring.adjusted import Line, check_artificial, check_weighted, session_rule
from host_sync.scoring.board import SIDES, check_method, score_board, score_plain
from host_sync.scoring.points import PLAYED
from host_sync.scoring.ranking import labels, rank


@dataclass
class Pair:
    number: str
    names: tuple = ()

    def title(self):
        return " - ".join(self.names) if self.names else self.number


@dataclass
class Board:
    """A board of the session: its number, and its hands when known (PBN Deal value)."""

    number: int
    deal: str = ""
    dealer: int | None = None  # seat index 0..3 (N, E, S, W); None: from the number (Law 2)
    vulnerability: str | None = None  # "None", "NS", "EW", "All"; None: from the number

    def dealer_seat(self):
        return board_rules.dealer(self.number) if self.dealer is None else self.dealer

    def vul(self):
        return self.vulnerability or board_rules.vulnerability(self.number)


@dataclass
class Result:
    """One table's result on one board (a traveller line).

    Played: contract ("4SX", "Pass"), declarer ("N".."W"), tricks (won by declarer).
    Adjusted instead: `assigned` NS points (12C1a), with `assigned_ew` when split (12C1e);
    `weighted` as [(weight, NS points)] (12C1c); `ns_artificial` / `ew_artificial` codes
    ("A+", "A", "A-", "55%", Law 12C2). `group` names the version of a fouled board (Law 81).
    `auction`: the calls as recorded, dealer first, as (PBN call, note text or None) pairs;
    () when not known. Scoring does not read it; the PBN export writes it.
    """

    board: int
    ns: str
    ew: str
    contract: str = ""
    declarer: str = ""
    tricks: int | None = None
    lead: str = ""
    round: int | None = None
    table: int | None = None
    assigned: int | None = None
    assigned_ew: int | None = None
    weighted: tuple | None = None
    ns_artificial: str | None = None
    ew_artificial: str | None = None
    group: object = None
    auction: tuple = ()

    def kind(self):
        if self.ns_artificial or self.ew_artificial:
            return "artificial"
        if self.weighted:
            return "weighted"
        if self.assigned_ew is not None:
            return "split"
        if self.assigned is not None:
            return "assigned"
        return "played"

    def ns_points(self, vul):
        """NS's points from the contract and tricks (None when no contract was played)."""
        return played_points(self.contract, self.declarer, self.tricks, vul)

    def line(self, vul):
        """The `Line` the board scorer needs; ValueError when the result is incomplete."""
        if self.ns_artificial or self.ew_artificial:
            ns = ew = None
            if not self.ns_artificial:
                ns = self._points(vul)
            if not self.ew_artificial:
                ew = self.assigned_ew if self.assigned_ew is not None else -self._points(vul)
            return Line(ns, ew, self.ns_artificial and check_artificial(self.ns_artificial),
                        self.ew_artificial and check_artificial(self.ew_artificial), self.group)
        if self.weighted:
            return Line(check_weighted(self.weighted), group=self.group)
        return Line(self._points(vul), self.assigned_ew, group=self.group)

    def _points(self, vul):
        """NS's points, or the reason this line has none that a reader can be told (a
        contract that cannot be, a seat that is none, tricks out of 0..13: a file's values
        reach scoring unchecked)."""
        if self.assigned is not None:
            return self.assigned
        try:
            points = self.ns_points(vul)
        except Refused:
            raise
        except ValueError as e:
            raise Refused("board %s, NS %s v EW %s: %s" % (self.board, self.ns, self.ew, e),
                          ru="сдача %s, NS %s — EW %s: %s" % (self.board, self.ns, self.ew,
                                                             e)) from None
        if points is None:
            raise Refused("board %d, NS %s v EW %s: no contract, no assigned score" % (
                self.board, self.ns, self.ew), ru="сдача %d, NS %s — EW %s: нет ни контракта, "
                "ни назначенного счёта" % (self.board, self.ns, self.ew))
        return points


def check_opponents(result, where):
    """ValueError when a traveller line sets a pair against itself (a mistyped pair number):
    every reader calls it, as the line would score the pair both as NS and as EW."""
    pair = str(result.ns).strip()
    if pair == str(result.ew).strip():
        raise at(where, "pair %s is both NS and EW; a pair cannot play against itself" % pair,
                 "пара %s и NS, и EW: пара не может играть сама с собой" % pair)


def played_points(contract, declarer, tricks, vul):
    """NS points of a played contract (Law 77); 0 when passed out; None without a contract."""
    parsed = parse_contract(contract)
    if parsed is None:
        return None
    level, strain, risk = parsed
    if not level:
        return 0
    if tricks is None:
        raise Refused("contract %s without the number of tricks" % contract,
                      ru="контракт %s без числа взяток" % contract)
    return ns_points(level, strain, risk, vul, parse_seat(declarer), int(tricks))


def ns_points(level, strain, risk, vul, declarer, tricks):
    """North-South's points (Law 77) of a contract that `declarer` (0..3) played, `vul` the
    board's ('None', 'NS', 'EW', 'All'): the host's one definition, which ingest, the PBN
    check, the database reader and the files use (the terminal's own copy,
    terminal.session.ns_score, is pinned to it by tests/test_host_rooms.py)."""
    points = _declarer_points(level, strain, risk, board_rules.is_vulnerable(vul, declarer),
                              tricks)
    return points if declarer in (0, 2) else -points


@lru_cache(maxsize=1024)
def parse_contract(contract):
    """(level, strain, risk) of a contract text such as "4SX"; level 0 when passed out, None
    when empty. Cached: a session repeats the same few dozen texts thousands of times (a
    bad text raises ValueError, and errors are never cached)."""
    if not (contract or "").strip():
        return None
    parsed = calls.parse_contract(contract)
    if parsed is None:
        return 0, 0, 0
    return calls.level(parsed[0]), calls.strain(parsed[0]), parsed[1]


# Law 77 points by (level, strain, risk, vulnerable, tricks): 2,940 possible keys, all kept.
_declarer_points = lru_cache(maxsize=4096)(contract_score)


@dataclass
class Session:
    name: str = ""
    pairs: dict = field(default_factory=dict)  # number -> Pair
    boards: dict = field(default_factory=dict)  # number -> Board
    results: list = field(default_factory=list)  # Result
    method: str = "mp"  # "mp", "cross-imps", "butler", "total"
    scale: int = 2  # matchpoint scale shown: 2 (2/1) or 1 (1/0.5)
    trim: int = 0  # Butler: results dropped at each end of the datum
    # the event's facts for the exports, which the scoring ignores: "date" (YYYY-MM-DD),
    # "venue", "director", "club", and "numbers": pair -> the players' federation numbers
    info: dict = field(default_factory=dict)
    # a teams session: who plays for which team and who meets whom (team_session.TeamPlan);
    # None for pairs
    teams: object = None
    # the tables' Results the director ruled not played (no line on the traveller): a teams
    # match has such a board settled once both its tables are
    not_played: list = field(default_factory=list)

    def board(self, number):
        if number not in self.boards:
            self.boards[number] = Board(number)
        return self.boards[number]

    def pair(self, number):
        if number not in self.pairs:
            self.pairs[number] = Pair(number)
        return self.pairs[number]

    def travellers(self):
        """Board number -> its results (in the order of `results`), boards in order."""
        counts = Counter([r.board for r in self.results])
        ordered = sorted(self.results, key=_BOARD)  # stable: each board keeps its order
        out, start = {}, 0
        for number in sorted(counts):
            end = start + counts[number]
            out[number] = ordered[start:end]
            start = end
        return out


_BOARD = attrgetter("board")


@dataclass(slots=True)
class Scored:
    """The value of one traveller line for each side, after Law 12C2(c)."""

    result: Result
    ns_points: object  # NS points (None when NS had an artificial score)
    ew_points: object
    ns_value: object  # 2/1 matchpoints, IMPs or points
    ew_value: object
    top: int  # 2/1 top of the board (matchpoints)

    def percent(self, side):
        return _percent(self.ns_value if side == "ns" else self.ew_value, self.top)


@dataclass(slots=True)
class Traveller:
    """A scored board as columns, one entry per result in the results' order: what the
    totals, Law 12C2(c) and the 1/0.5 scale work on. Its `Scored` lines are built only
    when something reads them (`SessionScore.lines`): for a 1,000-pair session, making
    13,000 objects costs more than scoring the 13,000 results."""

    results: list  # Result
    top: int  # 2/1 top of the board (matchpoints), else 0
    # "ns" / "ew" -> each line's points for that side (None: artificial); "ew" is None for
    # a board of played and assigned scores, whose EW points are NS's negated
    points: dict
    values: dict  # "ns" / "ew" -> each line's 2/1 matchpoints, IMPs or points

    def lines(self):
        ew = self.points["ew"]
        return list(map(Scored, self.results, self.points["ns"],
                        map(neg, self.points["ns"]) if ew is None else ew,
                        self.values["ns"], self.values["ew"], repeat(self.top)))


@dataclass(slots=True)
class Standing:
    pair: str
    direction: str  # "NS", "EW" or "" when the pair changed direction
    total: object  # matchpoints (2/1), IMPs or points
    maximum: int  # sum of tops (matchpoints)
    boards: int
    percent: object = None  # matchpoints only
    place: int = 0
    label: str = ""

    def score(self):
        return self.percent if self.percent is not None else self.total


@dataclass
class SessionScore:
    session: Session
    travellers: dict  # board -> Traveller, boards in order
    standings: list  # Standing, in ranking order within each field

    @cached_property
    def lines(self):
        """Board -> its [Scored], boards in order (built on first reading)."""
        return {number: t.lines() for number, t in self.travellers.items()}

    @cached_property
    def pair_lines(self):
        """Pair -> its (board, side "ns"/"ew", Scored), boards in order (built on first
        reading): a scorecard per pair that looked through every line was quadratic in the
        session, 627 s for a 30,000-line file (host_sync.reports.render.scorecard)."""
        out = {}
        for number, lines in self.lines.items():
            for line in lines:
                r = line.result
                out.setdefault(r.ns, []).append((number, "ns", line))
                if r.ew != r.ns:  # a pair against itself (every reader refuses it): NS only
                    out.setdefault(r.ew, []).append((number, "ew", line))
        return out

    def fields(self):
        """Field name ("" for one field, "NS"/"EW") -> standings in order."""
        out = {}
        for s in self.standings:
            out.setdefault(s.direction, []).append(s)
        return out


def score_session(session):
    """Score every board, apply 12C2(c), total and rank the pairs; matchpoints on the
    session's scale (2/1, or 1/0.5 as PBN's MP2 and USEBIO's MP_SCALE 1 say)."""
    check_method(session.method)
    if session.scale not in (1, 2):
        raise Refused("matchpoint scale must be 2 (2/1) or 1 (1/0.5), not %r"
                      % (session.scale,), ru="шкала матчпойнтов — 2 (2/1) или 1 (1/0,5), а не %r"
                      % (session.scale,))
    if type(session.trim) is not int or session.trim < 0:  # a negative one sliced the datum
        raise Refused("the Butler trim is a number of results from 0, not %r" % (session.trim,),
                      ru="отбрасываемых результатов в Батлере — от 0, а не %r" % (session.trim,))
    travellers = {}
    adjusted = False
    boards = session.travellers()
    if boards and not (type(min(boards)) is int and min(boards) >= 1):
        raise Refused("board numbers start at 1, not %r" % (min(boards),),
                      ru="номера сдач начинаются с 1, а не %r" % (min(boards),))
    for number, results in boards.items():
        vul = session.board(number).vul()
        top = mp_scoring.top(len(results)) if session.method == "mp" else 0
        points = _plain_points(results, vul)
        if points is None:
            travellers[number] = _score_adjusted(session, results, vul, top)
            adjusted = True
        else:
            ns, ew = score_plain(points, session.method, session.trim)
            travellers[number] = Traveller(results, top, {"ns": points, "ew": None},
                                           {"ns": ns, "ew": ew})
    if adjusted:
        _apply_session_rule(session, travellers)
    if session.method == "mp" and session.scale == 1:  # 1/0.5 matchpoints: every value halved
        for t in travellers.values():
            t.values = {side: [Fraction(v) / 2 for v in t.values[side]] for side in SIDES}
            t.top //= 2
    return SessionScore(session, travellers, _standings(session, travellers))


def _score_adjusted(session, results, vul, top):
    """The Traveller of a board with adjusted scores, through a `Line` per result."""
    built = [r.line(vul) for r in results]
    values = score_board(built, session.method, session.trim)
    return Traveller(results, top,
                     {side: [None if ln.artificial(side) else ln.entry(side) for ln in built]
                      for side in SIDES},
                     {side: [v[column] for v in values] for column, side in enumerate(SIDES)})


def _plain_points(results, vul):
    """NS points of each result, or None unless every result is a played or assigned score
    that is neither artificial, weighted, split nor in a fouled-board group."""
    special = [r for r in results if r.ns_artificial or r.ew_artificial or r.weighted
               or r.assigned is not None or r.assigned_ew is not None or r.group is not None]
    if not special:
        return PLAYED.board(results, vul)
    if all(r.kind() == "assigned" and r.group is None for r in special):
        return [r._points(vul) for r in results]
    return None


def _sides(travellers):
    """(pair, side, artificial code, traveller, index) for both sides of every line."""
    for t in travellers.values():
        for i, r in enumerate(t.results):
            yield r.ns, "ns", r.ns_artificial, t, i
            yield r.ew, "ew", r.ew_artificial, t, i


def _apply_session_rule(session, travellers):
    """Law 12C2(c): A+ / A- become what the pair scored on its other boards when that is
    better (non-offender above 60 %) or worse (offender below 40 %): in matchpoints the share
    of all the matchpoints possible there («60% всех возможных матч-пунктов», so a board
    with a larger top weighs more; a board with none compared nothing), in IMPs the average
    a board."""
    if session.method not in ("mp", "cross-imps", "butler"):
        return
    sides = list(_sides(travellers))
    ruled = {pair for pair, side, code, t, i in sides if code in ("A+", "A-")}
    if not ruled:
        return
    mp = session.method == "mp"
    sums = {}  # pair -> (matchpoints or IMPs, tops or boards) on its other boards
    for pair, side, code, t, i in sides:
        if pair in ruled and not code and (t.top or not mp):
            total, out_of = sums.get(pair, (0, 0))
            sums[pair] = (total + t.values[side][i], out_of + (t.top if mp else 1))
    for pair, side, code, t, i in sides:
        if code not in ("A+", "A-"):
            continue
        total, out_of = sums.get(pair, (0, 0))
        other = (Fraction(100 * total, out_of) if mp else Fraction(total, out_of)) \
            if out_of else None
        value = t.values[side][i]
        ruled_value = session_rule(code, _percent(value, t.top) if mp else value, other)
        t.values[side][i] = ruled_value * t.top / 100 if mp else ruled_value


def _standings(session, travellers):
    """Each pair's total, boards, maximum and percentage, ranked within each field."""
    labels_of = {number: ([r.ns for r in t.results], [r.ew for r in t.results])
                 for number, t in travellers.items()}
    boards, maxima, in_ns, in_ew = _appearances(travellers, labels_of)
    if not boards.keys() <= session.pairs.keys():  # register new pairs as they first appear
        for pair in dict.fromkeys(chain.from_iterable(
                chain.from_iterable(zip(ns, ew)) for ns, ew in labels_of.values())):
            session.pair(pair)
    totals = dict.fromkeys(boards, 0)
    for number, (ns, ew) in labels_of.items():
        values = travellers[number].values
        for pair, value in zip(ns, values["ns"]):
            totals[pair] += value
        for pair, value in zip(ew, values["ew"]):
            totals[pair] += value
    fixed = in_ns.isdisjoint(in_ew)
    mp = session.method == "mp"
    standings = [Standing(pair, ("NS" if pair in in_ns else "EW") if fixed else "", total,
                          maxima[pair], boards[pair], _percent(total, maxima[pair]) if mp else None)
                 for pair, total in totals.items()]
    ordered = []
    for direction in sorted({s.direction for s in standings}, key=("NS", "EW", "").index):
        group = [s for s in standings if s.direction == direction]
        places = rank(group, key=_ranking_key(group))
        for s, place, label in zip(group, places, labels(places)):
            s.place, s.label = place, label
        ordered += sorted(group, key=lambda s: (s.place, natural(s.pair)))
    return ordered


def _appearances(travellers, labels_of):
    """Counters of each pair's boards and of the sum of their tops, and the sets of pairs
    seen as NS and as EW, from each board's (NS labels, EW labels): one count of each side's
    labels over the boards of each top (every board has the same top when every board was
    played as often, the usual case)."""
    by_top = {}  # top -> the boards' (NS labels, EW labels) with that top
    for number, sides in labels_of.items():
        by_top.setdefault(travellers[number].top, []).append(sides)
    boards, maxima, in_ns, in_ew = Counter(), Counter(), set(), set()
    for top, sides in by_top.items():
        ns = Counter(chain.from_iterable(side[0] for side in sides))
        ew = Counter(chain.from_iterable(side[1] for side in sides))
        in_ns.update(ns)
        in_ew.update(ew)
        counts = ns + ew if not ns.keys().isdisjoint(ew) else Counter({**ns, **ew})
        boards.update(counts)
        maxima.update({pair: top * count for pair, count in counts.items()})
    return boards, maxima, in_ns, in_ew


def natural(label):
    """Sort key of a pair label that orders tied pairs by number: 9 before 14, A9 before A14
    (the labels are text: "14" < "9" as text)."""
    text = str(label)
    digits = text.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    prefix = text[:len(text) - len(digits)]
    return (prefix, int(digits), "") if digits.isdigit() else (prefix, -1, text)


def _percent(total, maximum):
    """A line's percentage of its board's top, or a pair's session percentage. A board
    with a single result has nothing to compare (top 0): it adds nothing to the pair's
    matchpoints nor to its maximum, so the percentage is taken over the boards that were
    compared. A pair none of whose boards was compared yet (round 1 of a Mitchell) stands at
    the average, 50 %, as such a board does on its own (`matchpoints.percentage`)."""
    return Fraction(100 * total, maximum) if maximum else Fraction(50)


def _ranking_key(group):
    """Rank by percentage, or by the total when every pair had the same maximum (the same
    order and ties, without comparing Fractions)."""
    if len({s.maximum for s in group}) > 1:
        return Standing.score
    return lambda s: s.total
