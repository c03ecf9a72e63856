"""A teams session: each round's matches compared board by board in IMPs, converted to VPs,
and the teams ranked on their VPs (rule book 1.4.5: the team is the contestant).

Which pair plays for which team and who meets whom each round come from the movement
(`TeamPlan`, host_sync.event.results builds it); a match is the two tables of a round where
its two teams meet, the table where the home team sits North-South its open room. A board
counts once both tables have a result for it; until then the match shows what is compared
so far. A team in no match of a round that has begun in its group has a bye, worth what the
event's conditions say (`bye_vp`; the WBF's conditions give 12 of 20). A line of a board
its match does not play, or of no match at all (the host flagged it: `wrong_board`,
`not_in_movement`), is listed apart for the director and counts for nobody.

A board the two tables played in different versions (Law 81B groups, `result fouled`) is
not compared until the director has adjusted it at both. The director's rulings
(host_sync.event.team_rulings): a match lost as a technical defeat
gives the team no VP and its opponents the bye's; a team removed from the competition (rule
book 5.7.3) keeps no place, and either its remaining matches are technical defeats, round by
round as the rounds begin (it had played more than half of its matches), or every match it
played is annulled for both sides (it had played no more than half; a match it forfeited
it did not play).
"""

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from host_sync.errors import Refused
from host_sync.scoring.ranking import labels, rank
from host_sync.scoring.session import natural
from host_sync.scoring.teams import board_result, match_of

BYE_VP = Decimal(12)
TIE_BREAKS = ("shared", "quotient")


@dataclass(frozen=True)
class TeamPlan:
    """teams: pair label -> its team's label; rounds: round -> its matches as (home, away)
    team labels, in table order; groups: team -> the group it is ranked in ("" for one);
    boards: (round, home) -> the board numbers the match is scheduled to play, whose count
    sets the VP scale (missing: any board, on the scale of those compared); bye_vp and
    tie_break: the event's conditions (host_sync.event.setup.team_conditions)."""

    teams: dict
    rounds: dict
    groups: dict = field(default_factory=dict)
    boards: dict = field(default_factory=dict)
    bye_vp: Decimal = BYE_VP
    tie_break: str = "shared"
    removed: dict = field(default_factory=dict)  # team -> the reason (5.7.3)
    forfeits: dict = field(default_factory=dict)  # (round, team) -> the reason
    knockout: bool = False  # a knockout's segments: Law 12C4, no 12C2(c) (scoring.knockout)
    through: dict = field(default_factory=dict)  # team -> the reason it went through a tie
    took_part: dict = field(default_factory=dict)  # removed team -> more than half of its
    # matches over the event played (5.7.3, event.results); missing: counted in this session
    sections: dict = field(default_factory=dict)  # team -> (section letter, its number)
    matches_each: int = 0  # a round robin's matches a team, however many sessions are set up
    names: dict = field(default_factory=dict)  # team -> its name (the names import)

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
    unscored: list = field(default_factory=list)  # (board, Refused): no IMP value (a "55%")
    imps: tuple = (0, 0)  # net IMPs (home, away), Law 12C2(c) applied
    vp: tuple | None = None  # (home, away) VPs; None before a board is compared
    ruling: str = ""  # "forfeit", "technical" (of a removed team) or "annulled"
    against: tuple = ()  # the teams the ruling is against
    not_played: list = field(default_factory=list)  # ruled not played at both tables
    reasons: tuple = ()  # a technical defeat's reason for each team it is against

    def side(self, team):
        return 0 if team == self.home else 1

    def played(self):
        """A result at one of its tables."""
        return bool(self.boards or self.waiting or self.fouled or self.unscored)

    def begun(self):
        """Played, or given to a team by the director's ruling."""
        return self.played() or self.ruling in ("forfeit", "technical")

    def complete(self, plan):
        """Every board `plan` schedules for it (and at least one) compared at both tables,
        none waiting, fouled or unscored; or settled by a ruling. What the next round of a
        Swiss or a knockout is drawn on."""
        if self.ruling:
            return True
        settled = {b[0] for b in self.boards} | set(self.not_played)
        return bool(settled) and not (self.waiting or self.fouled or self.unscored) and \
            set(plan.boards.get((self.round, self.home), ())) <= settled


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
    sessions: dict = field(default_factory=dict)  # event standings: session -> its VPs

    def quotient(self):
        """IMPs won over IMPs lost (a common tie-break); None when none were lost."""
        return Fraction(self.imps_won) / Fraction(self.imps_lost) if self.imps_lost else None

    def quotient_key(self):
        """The quotient as an order: none lost is above any quotient, more won above less
        (50 : 0 before 5 : 0); nothing won nor lost stands at 1."""
        if self.imps_lost:
            return 0, self.quotient()
        return (1, self.imps_won) if self.imps_won else (0, Fraction(1))


@dataclass
class TeamScore:
    session: object
    matches: list  # Match, by round then table
    standings: list  # TeamStanding, by group then place
    byes: dict  # round -> teams with a bye in it (rounds begun only)
    bye_vp: Decimal = BYE_VP
    outside: list = field(default_factory=list)  # Results of a board no match of theirs plays
    plan: TeamPlan | None = None  # what it was scored on

    def rounds(self):
        """[(round, its matches)] of the rounds begun (a result at one of its tables)."""
        begun = sorted({m.round for m in self.matches if m.begun()})
        return [(rnd, [m for m in self.matches if m.round == rnd]) for rnd in begun]

    def groups(self):
        return by_group(self.standings)


def by_group(standings):
    """Group -> its standings, in order: the session's and the event's tables alike."""
    out = {}
    for s in standings:
        out.setdefault(s.group, []).append(s)
    return out


def score_teams(session, plan=None):
    """The session's matches and the team standings (VPs on the WBF continuous scale), on
    `plan` (default: the session's own) and its conditions."""
    plan = session.teams if plan is None else plan
    tie_break, bye_vp = check_tie_break(plan.tie_break), check_bye_vp(plan.bye_vp)
    tables, outside = _tables(session, plan)
    matches = [_match(session, rnd, home, away, tables.get((rnd, frozenset((home, away))), {}),
                      plan.boards.get((rnd, home)), plan.knockout)
               for rnd in sorted(plan.rounds) for home, away in plan.rounds[rnd]]
    unplayed = _not_played(session, plan)
    for m in matches:
        m.not_played = unplayed.get((m.round, frozenset((m.home, m.away))), [])
        _forfeit(m, plan, bye_vp)
    begun = _begun(plan, matches)
    for team in plan.removed:
        its = [m for m in matches if team in (m.home, m.away)]
        more = plan.took_part.get(team)
        if more is None:
            taken, total = part_taken(plan, team, its)
            more = 2 * taken > total
        _remove(team, its, begun, plan.groups.get(team, ""), bye_vp, more)
    begun = _begun(plan, matches)
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
    for rnd in sorted(plan.rounds):
        playing = {t for pair in plan.rounds[rnd] for t in pair}
        out = [t for t, s in standings.items() if t not in playing and (s.group, rnd) in begun]
        for team in out:
            standings[team].vp += bye_vp
            standings[team].byes += 1
        if out:
            byes[rnd] = out
    return TeamScore(session, matches, _ranked(list(standings.values()), tie_break), byes,
                     bye_vp, outside, plan)


def unfinished(scores):
    """[(session, round, home, away)] of the matches of {session number: TeamScore} not
    complete (Match.complete): what a next stage or round is not drawn on."""
    return [(number, m.round, m.home, m.away) for number, score in sorted(scores.items())
            for m in score.matches if not m.complete(score.plan)]


def _begun(plan, matches):
    """{(group, round)} of the rounds begun in each group (its sections play apart)."""
    return {(plan.groups.get(m.home, ""), m.round) for m in matches if m.begun()}


def event_standings(scores, tie_break="shared"):
    """The teams ranked over several sessions' TeamScores ({session number: TeamScore}, a
    round robin played across days): each team's VPs, matches, byes and IMPs summed by its
    label, its VPs of each session kept; a team removed in any session keeps no place. A
    knockout round's session ranks nobody on VPs (host_sync.scoring.knockout), and one not
    begun (set up for later) has nothing to add: both are left out."""
    totals = {}
    for number in sorted(scores):
        if scores[number].plan.knockout or not any(m.begun() for m in scores[number].matches):
            continue
        for s in scores[number].standings:
            t = totals.setdefault(s.team, TeamStanding(s.team, s.group))
            t.vp += s.vp
            t.matches += s.matches
            t.byes += s.byes
            t.imps_won += s.imps_won
            t.imps_lost += s.imps_lost
            t.removed = t.removed or s.removed
            t.sessions[number] = s.vp
    return _ranked(list(totals.values()), check_tie_break(tie_break))


def _forfeit(m, plan, bye_vp):
    """A match a team lost as a technical defeat: no VP to it, the bye's to the other (none
    to either when both did)."""
    against = tuple(t for t in (m.home, m.away) if (m.round, t) in plan.forfeits)
    if against:
        m.ruling, m.against = "forfeit", against
        m.reasons = tuple(plan.forfeits[m.round, t] for t in against)
        m.vp = tuple(Decimal(0) if t in against else bye_vp for t in (m.home, m.away))


def part_taken(plan, team, its):
    """(how many of its matches `its` the team took part in, how many there are): rule book
    5.7.3's count («участвовал в более, чем половине матчей»; a match it forfeited it did
    not take part in)."""
    return sum(1 for m in its if m.played() and (m.round, team) not in plan.forfeits), len(its)


def _remove(team, its, begun, group, bye_vp, more_than_half):
    """Rule book 5.7.3 on a removed team's matches `its` of the session: when it took part
    in more than half of its matches (counted over the event), the rest become technical
    defeats as their rounds begin in its group; else those it played are annulled."""
    if more_than_half:
        for m in its:
            if not m.played() and m.ruling != "forfeit" and (group, m.round) in begun:
                m.ruling, m.against = "technical", (team,)
                m.vp = tuple(Decimal(0) if t == team else bye_vp for t in (m.home, m.away))
        return
    for m in its:
        m.ruling, m.against, m.vp = "annulled", (team,), None


def team_title(session, team):
    """The team as its tables show it: its number, and its name when one was given
    ("3 Спартак")."""
    name = session.teams.names.get(team) if session.teams else None
    return "%s %s" % (team, name) if name else team


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
    """((round, {team, team}) -> board -> {team whose pair sat NS: its table's Result}, the
    lines of no match or of a board their match does not play)."""
    out, outside = {}, []
    scheduled = {(rnd, frozenset(m)): plan.boards.get((rnd, m[0]))
                 for rnd, ms in plan.rounds.items() for m in ms}
    for r in session.results:
        ns, ew = plan.teams.get(r.ns), plan.teams.get(r.ew)
        key = (r.round, frozenset((ns, ew)))
        if key not in scheduled or scheduled[key] is not None and r.board not in scheduled[key]:
            outside.append(r)
            continue
        boards = out.setdefault(key, {})
        if ns in boards.setdefault(r.board, {}):
            raise Refused("board %s, round %s: team %s sat NS at two tables of its match" % (
                r.board, r.round, ns), ru="сдача %s, тур %s: команда %s сидела СЮ за двумя "
                "столами матча" % (r.board, r.round, ns))
        boards[r.board][ns] = r
    return out, outside


def _not_played(session, plan):
    """(round, {team, team}) -> the boards the director ruled not played at both tables of
    that match (one table only leaves the board waiting for an artificial score)."""
    sides = {}
    for r in session.not_played:
        ns, ew = plan.teams.get(r.ns), plan.teams.get(r.ew)
        sides.setdefault((r.round, frozenset((ns, ew)), r.board), set()).add(ns)
    out = {}
    for (rnd, teams, board), seated in sorted(sides.items(), key=lambda kv: kv[0][2]):
        if len(seated) == 2:
            out.setdefault((rnd, teams), []).append(board)
    return out


def _match(session, rnd, home, away, boards, scheduled, knockout):
    """The Match of `home` and `away` in round `rnd` from its results by board, its VPs on
    the scale of its `scheduled` boards (a match under way shows its margin so far as it
    would stand at the end). A board whose score has no IMP value (a percentage) is listed
    with the reason, not compared, rather than stop the whole event's scoring."""
    results, waiting, fouled, imps, unscored = [], [], [], [], []
    for number in sorted(boards):
        tables = boards[number]
        if len(tables) < 2:
            waiting.append(number)
            continue
        if tables[home].group != tables[away].group and "played" in (
                tables[home].kind(), tables[away].kind()):  # two versions (81B), not adjusted
            fouled.append(number)
            continue
        vul = session.board(number).vul()
        open_ns, open_ew = _scores(tables[home], vul)
        closed_ns, closed_ew = _scores(tables[away], vul)
        try:
            result = board_result(open_ns, closed_ns, open_ew, closed_ew, knockout)
        except Refused as e:  # a percentage from a terminal: the director's to replace
            unscored.append((number, e))
            continue
        results.append(result)
        imps.append((number, *result[0]))
    m = Match(rnd, home, away, imps, waiting, fouled, unscored)
    if not results:
        return m
    net_home, net_away, vp_home, vp_away = match_of(
        results, len(scheduled) if scheduled else None, knockout)
    m.imps, m.vp = (net_home, net_away), (vp_home, vp_away)
    return m


def _scores(result, vul):
    """(NS's score, EW's own score or None) of a table for teams.board_result: points, a
    weighted score or an artificial code."""
    line = result.line(vul)
    return line.ns_artificial or line.ns, line.ew_artificial or line.ew


def _ranked(standings, tie_break):
    """Places within each group on VPs (ties shared, or split by the IMP quotient)."""
    out = []
    for group in sorted({s.group for s in standings}):
        members = [s for s in standings if s.group == group and not s.removed]
        key = (lambda s: (s.vp, s.quotient_key())) if tie_break == "quotient" else \
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
