"""The rounds of a knockout of teams (rule book 1.5.4), one session a round: who meets whom
in each, from the seeds or from the round before, in the event database.

The bracket is the state: a list of slots, each a team or empty (a bye), paired first with
second, third with fourth...; it is kept with the round's movement (`options["bracket"]`)
and the next round's bracket is the winners of those pairs, slot for slot. The first round
seeds teams 1..N in the usual order (1 meets N, and 1 and 2 can only meet in the final; the
top seeds take the byes up to the next power of two), or, after a qualifying stage (a round
robin or a Swiss: the mixed system of 1.5.7), the event's first N teams by place, or after
a stage of groups (sections) as many from each, numbered anew 1..N (`options["from"]`).
Each match plays the session's segments and is won on total IMPs (host_sync.scoring.
knockout); a tie is decided as the Regulations say, and the director names who went
through (`team through`: decide_tie, kept in the round's own session). A knockout is one
bracket, one section. Out after two defeats (1.5.5, `--double`): a lower bracket beside it
(Lower), kept the same way.
"""

from collections import namedtuple

from host_sync.errors import Refused
from host_sync.event import setup, team_rulings
from host_sync.event.results import finished_standings, session_from_db, team_sessions
from host_sync.event.show import bracket_text
from host_sync.movements import Schedule, teams_movement
from host_sync.movements.teams import MAX_TEAMS
from host_sync.scoring.knockout import knockout_matches
from host_sync.scoring.team_session import score_teams


class KnockoutError(setup.SetupError):
    """A knockout round that cannot be drawn now; the message says why and what to do."""


def seeding(size):
    """The seeds 1..size (a power of two) in bracket order: 1, size, ..., 2 last but one."""
    order = [1]
    while len(order) < size:
        order = [x for seed in order for x in (seed, 2 * len(order) + 1 - seed)]
    return order


def first_round(seeds, segments, boards_per_segment, double=False, origins=None):
    """The Movement of a knockout's first round: `seeds` (team numbers, best first) placed
    in the bracket; the top seeds have the byes. `double`: out after two defeats (1.5.5).
    `origins`: after a stage of groups, the group label of each team the knockout numbers
    1..N (its names come from there: setup.carry_players)."""
    if len(seeds) < 2:
        raise KnockoutError("a knockout needs at least 2 teams",
                            ru="для олимпийской системы нужно не меньше 2 команд")
    size = 1 << (len(seeds) - 1).bit_length()
    return _round([seeds[s - 1] if s <= len(seeds) else None for s in seeding(size)],
                  segments, boards_per_segment, Lower([]) if double else None, origins)


def draw(db, teams, segments, boards_per_segment, double=False):
    """{section letter: Movement} of the event's next knockout round: the first when the
    event has no teams session (teams 1..`teams`), the first after a qualifying stage (its
    best `teams`), or the next from the last knockout round (its ties as the director
    decided them: decide_tie)."""
    sessions = team_sessions(db)
    if not sessions:
        if teams is None:
            raise KnockoutError("the first round of a knockout takes --teams N",
                                ru="первому туру олимпийской системы нужно --teams N")
        return {"A": first_round(list(range(1, teams + 1)), segments, boards_per_segment,
                                 double)}
    movements = setup.section_movements(db, setup.session_id(
        db, setup.the_event(db)[0], max(sessions)))
    letter, movement = next(iter(movements.items()))
    bracket = movement.options.get("bracket") if movement.options.get(
        "schedule") == "knockout" else None
    if bracket is None:
        if teams is None:
            raise KnockoutError("a knockout after a qualifying stage takes --teams N: how many "
                                "of its best teams go through", ru="олимпийской системе после "
                                "отборочного этапа нужно --teams N: сколько лучших команд "
                                "выходят")
        if len(movements) == 1:
            return {letter: first_round(_qualifiers(sessions, teams), segments,
                                        boards_per_segment, double)}
        origins = _group_qualifiers(sessions, teams)  # the knockout numbers them 1..N
        return {"A": first_round(list(range(1, len(origins) + 1)), segments,
                                 boards_per_segment, double, origins)}
    if teams is not None or double:
        raise KnockoutError("the knockout is under way: its next round comes from the last "
                            "(leave out --teams and --double)", ru="олимпийская система уже "
                            "идёт: следующий тур следует из предыдущего (без --teams и "
                            "--double)")
    slots, lower = _continued(db, sessions, movement)
    return {letter: _round(slots, segments, boards_per_segment, lower)}


def _continued(db, sessions, movement):
    """(slots, Lower or None) of the round after the last of `sessions`, a knockout round
    played on `movement`: its winners (a double knockout's lower bracket beside them), refused
    naming the matches not decided."""
    number = max(sessions)
    score = score_teams(sessions[number])
    matches = knockout_matches(score)
    bracket, lower = movement.options.get("bracket"), Lower.of(movement.options, number)
    _check_ties(matches, score.plan.through, number)
    decide = _Decisions(matches, {int(t) for t in score.plan.removed
                                  if t.isascii() and t.isdigit()})
    upper = decide.round(_checked(bracket, number, matches, lower, _entrants(db, sessions)))
    if lower is None:
        decide.done()
        return _over(upper.winners), None
    below = decide.round(lower.slots)
    decide.done()
    return lower.next(bracket, upper, below)


def drawn_otherwise(db, number=None):
    """None, or a KnockoutError saying that knockout session `number`'s (default the
    current one's) results as they stand (a correction since) no longer give the bracket its
    next round was drawn with: the draw stands (there is no redrawing a round under way), the
    Regulations say what follows, and the director should know."""
    number = db.value("SELECT number FROM sessions WHERE id = ?",
                      (setup.session_id(db, setup.the_event(db)[0], number),))
    this, nxt = _knockout_movement(db, number), _knockout_movement(db, number + 1)
    if this is None or nxt is None:
        return None
    sessions = team_sessions(db, before=number + 1)
    try:
        slots, lower = _continued(db, sessions, this)
    except KnockoutError as e:
        return KnockoutError("session %d's knockout round was drawn on session %d's results, "
                             "which now say: %s" % (number + 1, number, e),
                             ru="тур олимпийской системы сессии %d разыгран по результатам "
                             "сессии %d, а по ним теперь: %s" % (number + 1, number,
                                                                e.text("ru")))
    expected = _round(slots, 1, 1, lower).options
    if any(expected.get(k) != nxt.options.get(k) for k in ("bracket", "lower", "final")):
        drawn, now = _brackets(nxt.options), _brackets(expected)
        return KnockoutError(
            "session %d's knockout round was drawn %s; session %d's results as they stand now "
            "give %s (corrected since the draw: the Regulations say what follows)" % (
                number + 1, drawn, number, now), ru="тур олимпийской системы сессии %d "
            "разыгран так: %s; по результатам сессии %d сейчас выходит %s (исправлены после "
            "жеребьёвки: как быть, решает Положение)" % (number + 1, drawn, number, now))
    return None


def draws_otherwise(db, number=None):
    """[KnockoutError] of drawn_otherwise for session `number`, or without one for every
    session of the event in order: what the director's list warns of. A session the check
    cannot score (a row edited by hand) gives its refusal instead: the list is still shown."""
    if number is not None:
        numbers = [number]
    else:
        numbers = [r["number"] for r in db.all("SELECT number FROM sessions WHERE "
                                               "event_id = ? ORDER BY number",
                                               (setup.the_event(db)[0],))]
    out = []
    for n in numbers:
        try:
            warning = drawn_otherwise(db, n)
        except Refused as e:
            warning = e
        if warning is not None:
            out.append(warning)
    return out


def _brackets(options):
    """A round's bracket, and a double knockout's lower bracket after it, in words."""
    lower = options.get("lower")
    return bracket_text(options.get("bracket")) + (" / %s" % bracket_text(lower) if lower
                                                   else "")


def _knockout_movement(db, number):
    """The movement of the event's session `number` if it is a knockout round, else None."""
    sid = db.value("SELECT id FROM sessions WHERE event_id = ? AND number = ?",
                   (setup.the_event(db)[0], number))
    movement = next(iter(setup.section_movements(db, sid).values()), None) if sid else None
    return movement if movement and movement.options.get("schedule") == "knockout" else None


def _entrants(db, sessions):
    """The teams of the knockout's first round (its bracket), where the last session's
    knockout began: every later round's teams are among them."""
    first = max(sessions)
    while first - 1 in sessions and sessions[first - 1].teams.knockout:
        first -= 1
    movement = next(iter(setup.section_movements(db, setup.session_id(
        db, setup.the_event(db)[0], first)).values()))
    bracket = movement.options.get("bracket")
    return {t for t in bracket if type(t) is int} if isinstance(bracket, list) else set()


def _checked(bracket, session, matches, lower=None, entrants=None):
    """The bracket kept with a session's movement, if it is one: it (with the lower bracket's
    slots of a double knockout) holds teams of the knockout's `entrants` and pairs the teams
    its `matches` play (a hand-edited row is refused, not followed)."""
    both = bracket + (lower.slots if lower else []) if isinstance(bracket, list) else None
    if not (isinstance(bracket, list) and len(bracket) >= 2 and
            len(bracket) & (len(bracket) - 1) == 0 and all(
                t is None or type(t) is int and 0 < t <= MAX_TEAMS for t in bracket)) or len(
                    [t for t in both if t]) != len({t for t in both if t}) or {
                        frozenset(p) for p in _pairs(both)} != {
                        frozenset((int(m.home), int(m.away))) for m in matches} or (
                            entrants is not None and not {t for t in both if t} <= entrants):
        raise KnockoutError("session %d's knockout bracket is not one (edited by hand?)" %
                            session, ru="сетка олимпийской системы сессии %d испорчена "
                            "(правка вручную?)" % session)
    return bracket


def _round(slots, segments, boards_per_segment, lower=None, origins=None):
    """The Movement of a knockout round of `slots` (and a double knockout's `lower`)."""
    while len(slots) > 2 and not _pairs(slots):
        slots = [a or b for a, b in zip(slots[::2], slots[1::2])]  # walkovers all round
    matches = _pairs(slots) + (_pairs(lower.slots) if lower else [])
    playing = sorted(t for m in matches for t in m)
    schedule = Schedule(playing, [matches] * _segments(segments), "knockout")
    options = {"bracket": slots}
    if lower is not None:
        options.update(double=True, lower=lower.slots, final=lower.final)
        if lower.rested:
            options["rested"] = lower.rested
    if origins:
        options["from"] = origins
    return teams_movement(schedule, boards_per_segment, options)


def _pairs(slots):
    """The matches of a list of slots paired first with second...: both slots filled."""
    return [(a, b) for a, b in zip(slots[::2], slots[1::2]) if a and b]


def _segments(segments):
    if isinstance(segments, bool) or not isinstance(segments, int) or not 1 <= segments <= 16:
        raise KnockoutError("a knockout match has 1 to 16 segments, not %r" % (segments,),
                            ru="в матче олимпийской системы от 1 до 16 сегментов, а не %r"
                            % (segments,))
    return segments


def _group_qualifiers(sessions, count):
    """After a stage of groups (sections, 1.5.7: «круговая система — с разбиением
    участников на группы, затем олимпийская»): the labels of the best `count` teams, as many
    from each group, seeded group winners first (A1, B1, ..., then A2, B2, ...), so that the
    first round crosses the groups (A1 meets B2)."""
    standings = [s for s in _stage_standings(sessions) if not s.removed]
    groups = sorted({s.group for s in standings})
    if not groups:
        raise KnockoutError("no team of the groups keeps a place", ru="ни одна команда групп "
                            "не сохранила место")
    if isinstance(count, bool) or not isinstance(count, int) or count < 2 or count % len(
            groups):
        raise KnockoutError("--teams %s: a number of teams the %d groups give alike (a "
                            "multiple of %d)" % (count, len(groups), len(groups)),
                            ru="--teams %s: число команд, поровну от %d групп (кратное %d)" % (
                                count, len(groups), len(groups)))
    each = count // len(groups)
    ranked = {g: [s for s in standings if s.group == g] for g in groups}
    short = [g for g, rows in ranked.items() if len(rows) < each]
    if short:
        raise KnockoutError("--teams %d: %d from each group, and group %s has fewer teams "
                            "placed" % (count, each, ", ".join(short)),
                            ru="--teams %d: по %d из каждой группы, а в группе %s команд с "
                            "местом меньше" % (count, each, ", ".join(short)))
    for g, rows in ranked.items():
        _check_line(rows, each, "the qualifying line of group %s" % g,
                    "граница выхода группы %s" % g)
    byes = (1 << (count - 1).bit_length()) - count
    if byes % len(groups):
        raise KnockoutError("%d byes do not go alike to the %d groups' teams of one place: "
                            "the Regulations decide who has them" % (byes, len(groups)),
                            ru="%d свободных тура не делятся поровну между командами одного "
                            "места %d групп: решает Положение" % (byes, len(groups)))
    return [ranked[g][place].team for place in range(each) for g in groups]


def _stage_standings(sessions):
    """The qualifying stage's final standings over its teams sessions (ranked_over);
    refused while a match of them is not complete."""
    return finished_standings(
        {n: score_teams(s) for n, s in sessions.items()}, KnockoutError,
        "the knockout is seeded on the qualifying stage's final standings",
        "олимпийская система рассеивается по итогам отборочного этапа").standings


def _check_line(standings, count, en, ru):
    """Refuse when a place is shared across the line after the first `count` of
    `standings`: the Regulations decide (1.5.1)."""
    if 0 < count < len(standings) and standings[count - 1].place == standings[count].place:
        raise KnockoutError("place %s is shared across %s: the Regulations decide (for "
                            "instance `event set --tie-break quotient`)" % (
                                standings[count].label, en),
                            ru="место %s поделено на границе (%s): решает Положение "
                            "(например, `event set --tie-break quotient`)" % (
                                standings[count].label, ru))


def _qualifiers(sessions, count):
    """The event's first `count` teams by place, best first (their numbers): the seeds."""
    standings = [s for s in _stage_standings(sessions) if not s.removed]
    if isinstance(count, bool) or not isinstance(count, int) or not 2 <= count <= len(
            standings):
        raise KnockoutError("--teams %s: between 2 and the %d teams placed" % (
            count, len(standings)), ru="--teams %s: от 2 до %d команд, занявших места" % (
            count, len(standings)))
    _check_line(standings, count, "the qualifying line", "выход")
    byes = (1 << (count - 1).bit_length()) - count  # the top seeds' (first_round)
    _check_line(standings, byes, "the bye line (the first %d go through without a match)"
                % byes, "свободный тур: первые %d проходят без матча" % byes)
    return [int(s.team) for s in standings[:count]]


class Lower:
    """A double knockout's lower bracket (rule book 1.5.5: a team that loses once goes down
    to it, and is out after its second defeat): its slots this round, paired first with
    second... (None: a bye), `final`, 1 or 2 while the grand final is played (2: its
    second match, the upper bracket's winner having lost the first, so both have lost once),
    and the teams that have had a bye in it (`rested`: the next bye goes to another)."""

    def __init__(self, slots, final=0, rested=()):
        self.slots, self.final, self.rested = slots, final, list(rested)

    @classmethod
    def of(cls, options, session):
        """The lower bracket kept with a round's movement; None for a single knockout."""
        if not options.get("double"):
            return None
        slots, final = options.get("lower"), options.get("final", 0)
        rested = options.get("rested", [])
        if not (isinstance(slots, list) and len(slots) % 2 == 0 and all(
                t is None or type(t) is int and 0 < t <= MAX_TEAMS for t in slots) and
                type(final) is int and final in (0, 1, 2) and isinstance(rested, list)):
            raise KnockoutError("session %d's lower bracket is not one (edited by hand?)" %
                                session, ru="нижняя сетка сессии %d испорчена (правка "
                                "вручную?)" % session)
        return cls(slots, final, rested)

    def next(self, bracket, upper, below):
        """(upper slots, Lower) of the next round from this one's decisions."""
        if self.final:
            winner = upper.winners[0]
            if self.final == 2 or winner in (None, bracket[0]) or bracket[0] not in \
                    upper.losers:  # the upper bracket's winner won, or is out by a ruling
                _over([winner])
            return [winner, bracket[0]], Lower([], 2)  # the first final went the other way
        up = [t for t in upper.winners if t]
        pool = [t for t in below.winners if t] + upper.losers
        if len(up) == 1 and len(pool) == 1:
            return [up[0], pool[0]], Lower([], 1)  # the grand final
        if len(up) + len(pool) < 2:
            _over(up + pool)
        slots = upper.winners if len(up) > 1 else [up[0] if up else None, None]
        lower = _lower_slots([t for t in below.winners if t], upper.losers, self.rested)
        bye = [a for a, b in zip(lower[::2], lower[1::2]) if b is None]
        return slots, Lower(lower, 0, self.rested + bye)


def _lower_slots(survivors, dropped, rested=()):
    """The lower bracket's next round: its survivors each against a team just down from the
    upper bracket (in reverse order, so teams do not meet again at once), the rest among
    themselves; an odd one out has a bye, one that has not had one if any is left."""
    slots, survivors, dropped = [], list(survivors), list(reversed(dropped))
    while survivors and dropped:
        slots += [survivors.pop(0), dropped.pop(0)]
    rest = survivors or dropped
    if len(rest) % 2:
        fresh = [t for t in rest if t not in rested]
        rest.append(rest.pop(rest.index(fresh[-1] if fresh else rest[-1])))
    while len(rest) >= 2:
        slots += [rest.pop(0), rest.pop(0)]
    return slots + ([rest[0], None] if rest else [])


Decided = namedtuple("Decided", "winners losers")
Decided.__doc__ = "A round's slots decided: the winner of each pair (a slot), the losers."


class _Decisions:
    """The winners of each pair of slots of a round (a tie as the director decided it), a
    team removed going nowhere; done() refuses naming the matches not decided (under way, or
    tied with nobody named through)."""

    def __init__(self, matches, removed=()):
        self.results = {frozenset((int(m.home), int(m.away))): m for m in matches}
        self.open = []
        self.removed = set(removed)  # teams out of the competition (5.7.3), a bye or not

    def round(self, slots):
        winners, losers = [], []
        for a, b in zip(slots[::2], slots[1::2]):
            if not (a and b):
                through = a or b
                winners.append(None if through in self.removed else through)
                continue
            m = self.results.get(frozenset((a, b)))
            if m is None or not m.complete or m.tied():
                self.open.append((a, b, "tied" if m is not None and m.tied() else
                                  "not complete"))
                continue
            winner = int(m.winner) if m.winner else None
            winners.append(winner)
            losers += [t for t in (a, b) if t != winner and (m is None or str(t) not in
                                                             m.removed)]
        return Decided(winners, losers)

    def done(self):
        if self.open:
            raise KnockoutError(
                "the next knockout round is drawn when every match is decided; not decided: "
                "%s (the director names the team through a tie: host-sync team through)" %
                "; ".join("%d v %d (%s)" % o for o in self.open),
                ru="следующий тур олимпийской системы разыгрывается, когда решены все матчи; "
                "не решены: %s (команду, прошедшую после ничьей, называет судья: host-sync "
                "team through)" % "; ".join("%d — %d (%s)" % (a, b, "ничья" if why == "tied"
                                                             else "не закончен")
                                             for a, b, why in self.open))


def _check_ties(matches, through, session):
    """Refuse a draw while the director's decision of a tie stands for a match that is no
    longer tied (a result corrected since): it decided nothing, and says so. A match a ruling
    decided since (a technical defeat, a removal) goes as the ruling says."""
    for team in through:
        m = next((m for m in matches if team in (m.home, m.away)), None)
        if m is None or not m.ruling and m.tie != through[team]:
            raise KnockoutError(
                "team %s was named through a tie in session %d, but its match is not tied now; "
                "take the decision back (host-sync team reinstate --team %s --through)" % (
                    team, session, team), ru="команда %s названа прошедшей после ничьей в "
                "сессии %d, но её матч теперь не ничейный; отмените решение (host-sync team "
                "reinstate --team %s --through)" % (team, session, team))


def decide_tie(db, team, reason, section=None, session=None, actor=setup.ACTOR):
    """Record that `team` went through its tied match of a knockout session (rule book
    1.5.4: the Regulations decide a tie, by extra boards or otherwise; the director names the
    team), refused unless that match is tied now; the final's tie is decided the same way."""
    reason = team_rulings.checked_reason(reason)
    sec, letter, number = _tie_section(db, section, session)
    with db.transaction():  # the writer's lock: a second director naming the other team waits
        scored = session_from_db(db, number)
        if scored.teams is None or not scored.teams.knockout:
            raise KnockoutError("session %d is not a knockout round" % number,
                                ru="сессия %d — не тур олимпийской системы" % number)
        _not_drawn_on(db, number)
        label = next((lb for lb, at in scored.teams.sections.items() if at == (letter, team)),
                     None)
        m = next((m for m in knockout_matches(score_teams(scored))
                  if label in (m.home, m.away)), None)
        if m is None:
            raise KnockoutError("team %r has no match in session %d" % (team, number),
                                ru="у команды %r нет матча в сессии %d" % (team, number))
        if not m.tied():
            raise KnockoutError(
                "%s v %s is not a tie to decide (%s)" % (m.home, m.away, "already decided for "
                                                         "team %s" % m.winner if m.winner else
                                                         "not complete" if not m.complete
                                                         else "both out"),
                ru="матч %s — %s не ничья, которую нужно решить (%s)" % (
                    m.home, m.away, "уже решён в пользу команды %s" % m.winner if m.winner
                    else "не закончен" if not m.complete else "обе команды выбыли"))
        db.insert("knockout_ties", {"section_id": sec, "team": team, "reason": reason}, actor)
    return m


def undo_tie(db, team, section=None, session=None, actor=setup.ACTOR):
    """Take back the director's decision that `team` went through a tie, refused once the
    next round is drawn on it."""
    sec, letter, number = _tie_section(db, section, session)
    with db.transaction():
        if db.one("SELECT id FROM knockout_ties WHERE section_id = ? AND team = ?",
                  (sec, team)) is None:
            raise KnockoutError("team %r of section %s was not named through a tie" % (
                team, letter), ru="команда %r секции %s не названа прошедшей после ничьей" % (
                    team, letter))
        _not_drawn_on(db, number)
        db.delete("knockout_ties", {"section_id": sec, "team": team}, actor)


def _tie_section(db, section, session):
    """(section id, letter, session number) of the section a tie's decision is about."""
    sec, letter = team_rulings.section_of(db, section, session)
    return sec, letter, db.value("SELECT se.number FROM sections s JOIN sessions se ON "
                                 "se.id = s.session_id WHERE s.id = ?", (sec,))


def _not_drawn_on(db, number):
    """Refuse to change session `number`'s ties once a later knockout round is drawn on
    them (its bracket holds the teams they put through)."""
    for row in db.all("SELECT number FROM sessions WHERE event_id = ? AND number > ? "
                      "ORDER BY number", (setup.the_event(db)[0], number)):
        later = row["number"]
        if _knockout_movement(db, later) is not None:
            raise KnockoutError("session %d's ties are kept: session %d's knockout round is "
                                "drawn on them" % (number, later),
                                ru="решения о ничьих сессии %d остаются: по ним уже разыгран "
                                "тур олимпийской системы сессии %d" % (number, later))


def _over(slots):
    """`slots` for the next round, unless one team or none is left: the knockout is over."""
    left = [t for t in slots if t]
    if not left:
        raise KnockoutError("the knockout is over: no team is left (both finalists are out by "
                            "the director's rulings)", ru="олимпийская система закончена: "
                            "команд не осталось (оба финалиста выбыли по решению судьи)")
    if len(left) == 1:
        raise KnockoutError("the knockout is over: team %s won it" % left[0],
                            ru="олимпийская система закончена: победила команда %s" % left[0])
    return slots
