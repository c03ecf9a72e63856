"""score_session against a plain reference: every comparison made pair by pair, as the Laws
word it, on random sessions with ties, adjusted scores, missing results and unequal tops.

The reference scores each line by comparing it with every other line of its board (Law
78A, weighted scores in proportion, Law 12C1c), raises groups and boards with artificial
lines to the full field (Neuberg), applies Law 12C2(c), and totals and ranks by the
percentages. Played results are scored by `played_points`, the uncached Law 77 path, so
the session's table of known lines (host_sync.scoring.points) is checked too: hypothesis
runs many sessions in one process, and the table keeps what each of them taught it.
"""

from fractions import Fraction as F

from bridge import boards as board_rules
from hypothesis import given, settings
from hypothesis import strategies as st

from host_sync.scoring.adjusted import ARTIFICIAL_PERCENT
from host_sync.scoring.points import PLAYED
from host_sync.scoring.session import Result, Session, played_points, score_session

CONTRACTS = ("1NT", "2S", "3NT", "4H", "4SX", "6NT", "7CXX")
SCORES = st.integers(-30, 30).map(lambda x: 10 * x)


PLAIN = ("played", "played", "played", "passed")
ADJUSTED = PLAIN + ("assigned", "split", "weighted", "artificial", "half-artificial")


@st.composite
def lines(draw, board, ns, ew, kinds):
    """One traveller line of any kind the scorer knows, or only played ones."""
    kind = draw(st.sampled_from(kinds))
    group = draw(st.sampled_from((None, None, None, None, "b"))) if kinds is ADJUSTED else None
    if kind == "played":
        return Result(board, ns, ew, draw(st.sampled_from(CONTRACTS)),
                      draw(st.sampled_from("NESW")), draw(st.integers(0, 13)), group=group)
    if kind == "passed":
        return Result(board, ns, ew, "Pass", group=group)
    if kind == "assigned":
        return Result(board, ns, ew, assigned=draw(SCORES), group=group)
    if kind == "split":
        return Result(board, ns, ew, assigned=draw(SCORES), assigned_ew=draw(SCORES),
                      group=group)
    if kind == "weighted":
        return Result(board, ns, ew, weighted=((F(1, 3), draw(SCORES)),
                                               (F(2, 3), draw(SCORES))), group=group)
    codes = st.sampled_from(("A+", "A", "A-"))
    if kind == "artificial":
        return Result(board, ns, ew, ns_artificial=draw(codes), ew_artificial=draw(codes))
    side = draw(st.sampled_from(("ns", "ew")))
    return Result(board, ns, ew, assigned=draw(SCORES),
                  **{side + "_artificial": draw(codes)})


@st.composite
def sessions(draw):
    pairs = [str(p) for p in range(1, draw(st.integers(2, 9)) + 1)]
    switching = draw(st.booleans())  # pairs may sit NS on one board and EW on another
    if not switching:
        ns_pairs, ew_pairs = pairs[:len(pairs) // 2 or 1], pairs[len(pairs) // 2 or 1:]
    kinds = draw(st.sampled_from((PLAIN, ADJUSTED)))  # boards the fast path takes, or not
    results = []
    for board in range(1, draw(st.integers(1, 5)) + 1):
        if switching:
            order = draw(st.permutations(pairs))
            tables = list(zip(order[0::2], order[1::2]))
        else:
            tables = list(zip(draw(st.permutations(ns_pairs)), draw(st.permutations(ew_pairs))))
        played = draw(st.integers(1, len(tables)))  # the others missed it: unequal tops
        for ns, ew in tables[:played]:
            results.append(draw(lines(board, ns, ew, kinds)))
    return Session(results=results, scale=draw(st.sampled_from((1, 2))))


def _points(result, vul):
    """(NS points, EW points) of a line, None for a side with an artificial score."""
    if result.weighted:
        ns = tuple(result.weighted)
        return ns, tuple((w, -s) for w, s in ns)
    if result.ns_artificial and result.ew_artificial:
        return None, None
    if result.assigned is not None:
        ns = result.assigned
    else:
        ns = played_points(result.contract, result.declarer, result.tricks, vul)
    ew = result.assigned_ew if result.assigned_ew is not None else -ns
    return (None if result.ns_artificial else ns), (None if result.ew_artificial else ew)


def _beats(mine, other):
    """2/1 matchpoints of `mine` against `other` (either may be weighted, Law 12C1c)."""
    parts = lambda e: e if isinstance(e, tuple) else ((1, e),)  # noqa: E731
    return sum(wa * wb * (2 if a > b else 1 if a == b else 0)
               for wa, a in parts(mine) for wb, b in parts(other))


def reference(session):
    """pair -> (direction, total, maximum, boards, percent, label) on the session's scale."""
    values = []  # (pair, top, 2/1 value or None, artificial code)
    for board in sorted({r.board for r in session.results}):
        lines_ = [r for r in session.results if r.board == board]
        field, vul = len(lines_), board_rules.vulnerability(board)
        top = 2 * (field - 1)
        points = [_points(r, vul) for r in lines_]
        for side, (pair_of, code_of) in enumerate(((lambda r: r.ns, lambda r: r.ns_artificial),
                                                   (lambda r: r.ew, lambda r: r.ew_artificial))):
            for i, r in enumerate(lines_):
                if code_of(r):
                    values.append((pair_of(r), top, None, code_of(r)))
                    continue
                rivals = [j for j, o in enumerate(lines_) if j != i and not code_of(o)
                          and o.group == r.group]
                mp = sum(_beats(points[i][side], points[j][side]) for j in rivals)
                scored = len(rivals) + 1
                if scored != field:
                    mp = (mp + 1) * F(field, scored) - 1  # Neuberg
                values.append((pair_of(r), top, mp, None))
    own = {}  # pair -> its matchpoints and tops on the boards it was not artificial on
    for pair, top, v, code in values:
        if code is None and top:
            own.setdefault(pair, []).append((v, top))
    out = {}
    for pair, top, v, code in values:
        if code is not None:  # 12C2(c): «60% всех возможных матч-пунктов» of those boards
            pct = ARTIFICIAL_PERCENT[code]
            mine = own.get(pair)
            average = F(100 * sum(v for v, _ in mine), sum(t for _, t in mine)) if mine \
                else None
            if average is not None and (code == "A+" and average > pct
                                        or code == "A-" and average < pct):
                pct = average
            v = pct * top / 100
        total, maximum, boards = out.get(pair, (0, 0, 0))
        out[pair] = (total + v, maximum + top, boards + 1)
    ns = {r.ns for r in session.results}
    ew = {r.ew for r in session.results}
    fixed = ns.isdisjoint(ew)
    rows = {}
    for pair, (total, maximum, boards) in out.items():
        direction = ("NS" if pair in ns else "EW") if fixed else ""
        pct = F(100 * total, maximum) if maximum else F(50)
        if session.scale == 1:
            total, maximum = F(total) / 2, maximum // 2
        rows[pair] = [direction, total, maximum, boards, pct]
    for pair, row in rows.items():
        rivals = [r for r in rows.values() if r[0] == row[0]]
        place = 1 + sum(r[4] > row[4] for r in rivals)
        shared = sum(r[4] == row[4] for r in rivals) > 1
        row.append("%d%s" % (place, "=" if shared else ""))
    return {pair: tuple(row) for pair, row in rows.items()}


@settings(max_examples=300)
@given(sessions())
def test_session_equals_the_pairwise_reference(session):
    expected = reference(session)
    standings = score_session(session).standings
    assert {s.pair: (s.direction, s.total, s.maximum, s.boards, s.percent, s.label)
            for s in standings} == expected
    # each field in place order, tied pairs by number
    for direction in {s.direction for s in standings}:
        field = [s for s in standings if s.direction == direction]
        assert [(s.place, int(s.pair)) for s in field] == sorted(
            (s.place, int(s.pair)) for s in field)


def test_a_line_kept_by_the_points_table_is_the_same_on_every_vulnerability():
    """The table shares N's and S's contract scores between boards of the same NS
    vulnerability, and E's and W's likewise: 4S making by N is +420 on board 1 (none
    vulnerable) and +620 on board 2 (NS vulnerable), by E -420 on both (EW not vulnerable),
    whichever board taught the table first."""
    for order in ((1, 2), (2, 1)):
        PLAYED.clear()
        session = Session(results=[Result(b, ns, ew, "4S", declarer, 10) for b in order
                                   for ns, ew, declarer in (("1", "2", "N"), ("3", "4", "E"))])
        for _ in range(2):  # learnt by the first call, read from the table by the second
            lines_ = score_session(session).lines
            assert [[line.ns_points for line in lines_[b]] for b in (1, 2)] == [
                [420, -420], [620, -420]]
