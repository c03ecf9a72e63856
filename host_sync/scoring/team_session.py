"""A teams session: each round's matches compared board by board in IMPs, converted to VPs,
and the teams ranked on their VPs (rule book 1.4.5: the team is the contestant).

Which pair plays for which team and who meets whom each round come from the movement
(`TeamPlan`, host_sync.event.results builds it); a match is the two tables of a round where
its two teams meet, the table where the home team sits North-South its open room. A board
counts once both tables have a result for it; until then the match shows what is compared
so far. A team in no match of a round that has begun has a bye, worth what the event's
conditions say (`bye_vp`; the WBF's conditions give 12 of 20).

A board the two tables played in different versions (Law 81B groups, `result fouled`) is
not compared: the director gives it an adjusted score. The director's rulings
(host_sync.event.team_rulings): a match lost as a technical defeat
gives the team no VP and its opponents the bye's; a team removed from the competition (rule
book 5.7.3) keeps no place, and either its remaining matches are technical defeats, round by
round as the rounds begin (it had played more than half of its matches), or every match it
played is annulled for both sides (it had played no more than half).
"""

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from host_sync.errors import Refused
from host_sync.scoring.ranking import labels, rank
from host_sync.scoring.session import natural
from host_sync.scoring.teams import board_imps, match

BYE_VP = Decimal(12)
TIE_BREAKS = ("shared", "quotient")


@dataclass(frozen=True)
class TeamPlan:
    """teams: pair label -> its team's label; rounds: round -> its matches as (home, away)
    team labels, in table order; groups: team -> the group it is ranked in ("" for one);
    boards: (round, home) -> the boards the match is scheduled to play, whose number sets
    the VP scale (missing: the boards compared); bye_vp and tie_break: the event's conditions
    (host_sync.event.setup.team_conditions)."""

    teams: dict
    rounds: dict
    groups: dict = field(default_factory=dict)
    boards: dict = field(default_factory=dict)
    bye_vp: Decimal = BYE_VP
    tie_break: str = "shared"
    removed: dict = field(default_factory=dict)  # team -> the reason (5.7.3)
    forfeits: dict = field(default_factory=dict)  # (round, team) -> the reason

    def team_list(self):
        return list(dict.fromkeys(self.teams.values()))


@dataclass
class Match:
    round: int
    home: str
    away: str
    boards: list  # (board, home's IMPs, away's IMPs), the boards both tables played
    waiting: list  # boards one table has played and the other not yet
    fouled: list = field(default_factory=list)  # the tables played different versions
    imps: tuple = (0, 0)  # net IMPs (home, away), Law 12C2(c) applied
    vp: tuple | None = None  # (home, away) VPs; None before a board is compared
    ruling: str = ""  # "forfeit", "technical" (of a removed team) or "annulled"
    against: tuple = ()  # the teams the ruling is against

    def side(self, team):
        return 0 if team == self.home else 1

    def begun(self):
        """A result at one of its tables, or the director's ruling on it."""
        return bool(self.boards or self.waiting or self.fouled or
                    self.ruling in ("forfeit", "technical"))


@dataclass
class TeamStanding:
    team: str
    group: str
    vp: Decimal = Decimal(0)
    matches: int = 0
    byes: int = 0
    imps_won: object = 0  # IMPs of the boards it won, and of those it lost
    imps_lost: object = 0
    place: int = 0
    label: str = ""
    removed: bool = False  # removed from the competition: no place (5.7.3)

    def quotient(self):
        """IMPs won over IMPs lost (a common tie-break); infinite with none lost."""
        if not self.imps_lost:
            return Fraction(10 ** 9) if self.imps_won else Fraction(1)
        return Fraction(self.imps_won) / Fraction(self.imps_lost)


@dataclass
class TeamScore:
    session: object
    matches: list  # Match, by round then table
    standings: list  # TeamStanding, by group then place
    byes: dict  # round -> teams with a bye in it (rounds begun only)
    bye_vp: Decimal = BYE_VP

    def rounds(self):
        """[(round, its matches)] of the rounds begun (a result at one of its tables)."""
        begun = sorted({m.round for m in self.matches if m.begun()})
        return [(rnd, [m for m in self.matches if m.round == rnd]) for rnd in begun]

    def groups(self):
        out = {}
        for s in self.standings:
            out.setdefault(s.group, []).append(s)
        return out


def score_teams(session, plan=None):
    """The session's matches and the team standings (VPs on the WBF continuous scale), on
    `plan` (default: the session's own) and its conditions."""
    plan = session.teams if plan is None else plan
    tie_break, bye_vp = check_tie_break(plan.tie_break), check_bye_vp(plan.bye_vp)
    tables = _tables(session, plan)
    matches = [_match(session, rnd, home, away, tables.get((rnd, frozenset((home, away))), {}),
                      plan.boards.get((rnd, home)))
               for rnd in sorted(plan.rounds) for home, away in plan.rounds[rnd]]
    begun = {m.round for m in matches if m.begun()}
    for m in matches:
        _forfeit(m, plan, bye_vp)
    for team in plan.removed:
        _remove(team, [m for m in matches if team in (m.home, m.away)], begun, bye_vp)
    begun |= {m.round for m in matches if m.begun()}
    standings = {team: TeamStanding(team, plan.groups.get(team, ""),
                                    removed=team in plan.removed)
                 for team in plan.team_list()}
    for m in matches:
        if m.vp is None:
            continue
        for team in (m.home, m.away):
            s, i = standings[team], m.side(team)
            s.vp += m.vp[i]
            s.matches += 1
            if not m.ruling:  # a ruled match's boards are not the score
                s.imps_won += sum(max(b[1 + i], 0) for b in m.boards)
                s.imps_lost += sum(max(-b[1 + i], 0) for b in m.boards)
    byes = {}
    for rnd in sorted(begun):
        playing = {t for pair in plan.rounds[rnd] for t in pair}
        byes[rnd] = [t for t in standings if t not in playing]
        for team in byes[rnd]:
            standings[team].vp += bye_vp
            standings[team].byes += 1
    return TeamScore(session, matches, _ranked(list(standings.values()), tie_break), byes,
                     bye_vp)


def _forfeit(m, plan, bye_vp):
    """A match a team lost as a technical defeat: no VP to it, the bye's to the other (none
    to either when both did)."""
    against = tuple(t for t in (m.home, m.away) if (m.round, t) in plan.forfeits)
    if against:
        m.ruling, m.against = "forfeit", against
        m.vp = tuple(Decimal(0) if t in against else bye_vp for t in (m.home, m.away))


def _remove(team, its, begun, bye_vp):
    """Rule book 5.7.3 on a team's matches `its`: more than half of them played, the rest
    become technical defeats as their rounds begin; else those it played are annulled."""
    played = [m for m in its if m.begun() or m.ruling]
    if 2 * len(played) > len(its):
        for m in its:
            if m not in played and m.round in begun:
                m.ruling, m.against = "technical", (team,)
                m.vp = tuple(Decimal(0) if t == team else bye_vp for t in (m.home, m.away))
        return
    for m in its:
        m.ruling, m.against, m.vp = "annulled", (team,), None


def team_players(session, team):
    """The team's players as the names import gave them, both pairs ("" when none are
    known)."""
    return ", ".join(name for pair, of in session.teams.teams.items()
                     if of == team and pair in session.pairs
                     for name in session.pairs[pair].names)


def check_tie_break(name):
    """The tie-break's name, or Refused for one this scoring does not know."""
    if name not in TIE_BREAKS:
        raise Refused("tie-break %r: expected one of %s" % (name, ", ".join(TIE_BREAKS)),
                      ru="разбивка равенства %r: ожидалось одно из %s" % (
                          name, ", ".join(TIE_BREAKS)))
    return name


def check_bye_vp(value):
    """A bye's VPs as the conditions give them: 0 to 20, at most two decimals (the scale's)."""
    try:
        vp = Decimal(str(value).strip())
    except ArithmeticError:
        vp = None
    if vp is None or not vp.is_finite() or not 0 <= vp <= 20 or vp != vp.quantize(
            Decimal("0.01")):
        raise Refused("a bye is worth 0 to 20 VPs, at most two decimals, not %r" % (value,),
                      ru="свободный тур стоит от 0 до 20 ВП, не больше двух знаков после "
                      "точки, а не %r" % (value,))
    return vp


def _tables(session, plan):
    """(round, {team, team}) -> board -> {team whose pair sat NS: its table's Result}; a line
    that belongs to no match of the plan is refused, not left out of every match."""
    out = {}
    scheduled = {(rnd, frozenset(m)) for rnd, ms in plan.rounds.items() for m in ms}
    for r in session.results:
        ns, ew = plan.teams.get(r.ns), plan.teams.get(r.ew)
        if (r.round, frozenset((ns, ew))) not in scheduled:
            raise Refused("board %s, round %s, NS %s v EW %s: no match of the movement" % (
                r.board, r.round, r.ns, r.ew), ru="сдача %s, тур %s, NS %s — EW %s: такого "
                "матча нет в движении" % (r.board, r.round, r.ns, r.ew))
        boards = out.setdefault((r.round, frozenset((ns, ew))), {})
        if ns in boards.setdefault(r.board, {}):
            raise Refused("board %s, round %s: team %s sat NS at two tables of its match" % (
                r.board, r.round, ns), ru="сдача %s, тур %s: команда %s сидела СЮ за двумя "
                "столами матча" % (r.board, r.round, ns))
        boards[r.board][ns] = r
    return out


def _match(session, rnd, home, away, boards, scheduled):
    """The Match of `home` and `away` in round `rnd` from its results by board, its VPs on
    the scale of the `scheduled` number of boards (a match under way shows its margin so far
    as it would stand at the end)."""
    compared, waiting, fouled, numbers = [], [], [], []
    for number in sorted(boards):
        tables = boards[number]
        if len(tables) < 2:
            waiting.append(number)
            continue
        if tables[home].group != tables[away].group:  # two versions of the board (81B)
            fouled.append(number)
            continue
        vul = session.board(number).vul()
        open_ns, open_ew = _scores(tables[home], vul)
        closed_ns, closed_ew = _scores(tables[away], vul)
        compared.append((open_ns, closed_ns, open_ew, closed_ew))
        numbers.append(number)
    m = Match(rnd, home, away, [], waiting, fouled)
    if not compared:
        return m
    net_home, net_away, vp_home, vp_away = match(compared, scheduled)
    m.boards = [(number, *board_imps(*board)) for number, board in zip(numbers, compared)]
    m.imps, m.vp = (net_home, net_away), (vp_home, vp_away)
    return m


def _scores(result, vul):
    """(NS's score, EW's own score or None) of a table for teams.board_imps: points, a
    weighted score or an artificial code."""
    line = result.line(vul)
    return line.ns_artificial or line.ns, line.ew_artificial or line.ew


def _ranked(standings, tie_break):
    """Places within each group on VPs (ties shared, or split by the IMP quotient)."""
    out = []
    for group in sorted({s.group for s in standings}):
        members = [s for s in standings if s.group == group and not s.removed]
        key = (lambda s: (s.vp, s.quotient())) if tie_break == "quotient" else \
            (lambda s: s.vp)
        places = rank(members, key=key)
        for s, place, label in zip(members, places, labels(places)):
            s.place, s.label = place, label
        out += sorted(members, key=lambda s: (s.place, natural(s.team)))
        for s in standings:  # no place kept
            if s.group == group and s.removed:
                s.label = "—"
                out.append(s)
    return out
