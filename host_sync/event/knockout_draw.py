"""The rounds of a knockout of teams (rule book 1.5.4), one session a round: who meets whom
in each, from the seeds or from the round before, in the event database.

The bracket is the state: a list of slots, each a team or empty (a bye), paired first with
second, third with fourth...; it is kept with the round's movement (`options["bracket"]`)
and the next round's bracket is the winners of those pairs, slot for slot. The first round
seeds teams 1..N in the usual order (1 meets N, and 1 and 2 can only meet in the final; the
top seeds take the byes up to the next power of two), or, after a qualifying stage (a round
robin or a Swiss: the mixed system of 1.5.7), the event's first N teams by place. Each match
plays the session's segments and is won on total IMPs (host_sync.scoring.knockout); a tie
is decided as the Regulations say, and the director names who went through (`--winner`).
One section only: a knockout is one bracket.
"""

from host_sync.event import setup
from host_sync.event.results import team_sessions
from host_sync.movements import Schedule, teams_movement
from host_sync.scoring.knockout import knockout_matches
from host_sync.scoring.team_session import event_standings, score_teams


class KnockoutError(setup.SetupError):
    """A knockout round that cannot be drawn now; the message says why and what to do."""


def seeding(size):
    """The seeds 1..size (a power of two) in bracket order: 1, size, ..., 2 last but one."""
    order = [1]
    while len(order) < size:
        order = [x for seed in order for x in (seed, 2 * len(order) + 1 - seed)]
    return order


def first_round(seeds, segments, boards_per_segment):
    """The Movement of a knockout's first round: `seeds` (team numbers, best first) placed
    in the bracket; the top seeds have the byes."""
    if len(seeds) < 2:
        raise KnockoutError("a knockout needs at least 2 teams",
                            ru="для олимпийской системы нужно не меньше 2 команд")
    size = 1 << (len(seeds) - 1).bit_length()
    return _round([seeds[s - 1] if s <= len(seeds) else None for s in seeding(size)],
                  segments, boards_per_segment, [])


def draw(db, teams, segments, boards_per_segment, winners=()):
    """{section letter: Movement} of the event's next knockout round: the first when the
    event has no teams session (teams 1..`teams`), the first after a qualifying stage (its
    best `teams`), or the next from the last knockout round (`winners`: the teams the
    director says went through a tied match)."""
    sessions = team_sessions(db)
    if not sessions:
        if teams is None:
            raise KnockoutError("the first round of a knockout takes --teams N",
                                ru="первому туру олимпийской системы нужно --teams N")
        return {"A": first_round(list(range(1, teams + 1)), segments, boards_per_segment)}
    last = sessions[max(sessions)]
    movements = setup.section_movements(db, setup.session_id(
        db, setup.the_event(db)[0], max(sessions)))
    if len(movements) > 1:
        raise KnockoutError("a knockout is one bracket: the session before has sections %s"
                            % ", ".join(movements), ru="олимпийская система — одна сетка, а "
                            "в предыдущей сессии секции %s" % ", ".join(movements))
    (letter, movement), = movements.items()
    bracket = movement.options.get("bracket") if movement.options.get(
        "schedule") == "knockout" else None
    if bracket is None:
        if teams is None:
            raise KnockoutError("a knockout after a qualifying stage takes --teams N: how many "
                                "of its best teams go through", ru="олимпийской системе после "
                                "отборочного этапа нужно --teams N: сколько лучших команд "
                                "выходят")
        if winners:
            raise KnockoutError("--winner is for a tied knockout match",
                                ru="--winner — для ничьей в матче олимпийской системы")
        return {letter: first_round(_qualifiers(sessions, teams), segments,
                                    boards_per_segment)}
    if teams is not None:
        raise KnockoutError("the knockout is under way: its next round is the winners of the "
                            "last (leave out --teams)", ru="олимпийская система уже идёт: "
                            "следующий тур — победители предыдущего (без --teams)")
    matches = knockout_matches(score_teams(last))
    slots = _winners(_checked(bracket, max(sessions), matches), matches, set(winners))
    return {letter: _round(slots, segments, boards_per_segment, sorted(winners))}


def _checked(bracket, session, matches):
    """The bracket kept with a session's movement, if it is one and pairs the teams its
    `matches` play (a hand-edited row is refused, not followed)."""
    if not (isinstance(bracket, list) and len(bracket) >= 2 and
            len(bracket) & (len(bracket) - 1) == 0 and all(
                t is None or type(t) is int and t > 0 for t in bracket)) or len(
                    [t for t in bracket if t]) != len({t for t in bracket if t}) or {
                        frozenset((a, b)) for a, b in zip(bracket[::2], bracket[1::2])
                        if a and b} != {frozenset((int(m.home), int(m.away))) for m in matches}:
        raise KnockoutError("session %d's knockout bracket is not one (edited by hand?)" %
                            session, ru="сетка олимпийской системы сессии %d испорчена "
                            "(правка вручную?)" % session)
    return bracket


def _round(slots, segments, boards_per_segment, decided):
    while len(slots) > 2 and not any(a and b for a, b in zip(slots[::2], slots[1::2])):
        slots = [a or b for a, b in zip(slots[::2], slots[1::2])]  # walkovers all round
    matches = [(a, b) for a, b in zip(slots[::2], slots[1::2]) if a and b]
    playing = sorted(t for m in matches for t in m)
    schedule = Schedule(playing, [matches] * _segments(segments), "knockout")
    options = {"bracket": slots}
    if decided:
        options["decided"] = decided  # ties the director settled, for the record
    return teams_movement(schedule, boards_per_segment, options)


def _segments(segments):
    if isinstance(segments, bool) or not isinstance(segments, int) or not 1 <= segments <= 16:
        raise KnockoutError("a knockout match has 1 to 16 segments, not %r" % (segments,),
                            ru="в матче олимпийской системы от 1 до 16 сегментов, а не %r"
                            % (segments,))
    return segments


def _qualifiers(sessions, count):
    """The event's first `count` teams by place, best first (their numbers): the seeds."""
    standings = [s for s in event_standings({n: score_teams(s) for n, s in sessions.items()},
                                            sessions[max(sessions)].teams.tie_break)
                 if not s.removed]
    if isinstance(count, bool) or not isinstance(count, int) or not 2 <= count <= len(
            standings):
        raise KnockoutError("--teams %s: between 2 and the %d teams placed" % (
            count, len(standings)), ru="--teams %s: от 2 до %d команд, занявших места" % (
            count, len(standings)))
    if count < len(standings) and standings[count - 1].place == standings[count].place:
        raise KnockoutError("place %s is shared across the qualifying line: the Regulations "
                            "decide (for instance `event set --tie-break quotient`)" %
                            standings[count].label, ru="место %s поделено на границе выхода: "
                            "решает Положение (например, `event set --tie-break quotient`)" %
                            standings[count].label)
    byes = (1 << (count - 1).bit_length()) - count  # the top seeds' (first_round)
    if byes and standings[byes - 1].place == standings[byes].place:
        raise KnockoutError("place %s is shared across the bye line (the first %d go through "
                            "without a match): the Regulations decide (for instance `event "
                            "set --tie-break quotient`)" % (standings[byes].label, byes),
                            ru="место %s поделено на границе свободного тура (первые %d "
                            "проходят без матча): решает Положение (например, `event set "
                            "--tie-break quotient`)" % (standings[byes].label, byes))
    return [int(s.team) for s in standings[:count]]


def _winners(bracket, matches, chosen):
    """The next bracket: the winner of each pair of slots; KnockoutError naming the matches
    not decided (under way, or tied without the director's `--winner`)."""
    results = {frozenset((int(m.home), int(m.away))): m for m in matches}
    slots, open_, used = [], [], set()
    for a, b in zip(bracket[::2], bracket[1::2]):
        if not (a and b):
            slots.append(a or b)
            continue
        m = results.get(frozenset((a, b)))
        named = chosen & {a, b}
        if len(named) == 2:
            raise KnockoutError("--winner %d and %d: one team goes through their match" % (
                a, b), ru="--winner %d и %d: из их матча проходит одна команда" % (a, b))
        if m is not None and m.tied() and len(named) == 1:
            slots.append(named.pop())
            used |= {a, b}
        elif m is None or not m.complete or m.tied():
            open_.append((a, b, "tied" if m is not None and m.tied() else "not complete"))
        else:
            slots.append(int(m.winner) if m.winner else None)
    stray = chosen - used
    if stray:
        raise KnockoutError("--winner %s: not a team of a tied match" % ", ".join(
            map(str, sorted(stray))), ru="--winner %s: не команда матча с ничьей" % ", ".join(
            map(str, sorted(stray))))
    if open_:
        raise KnockoutError(
            "the next knockout round is drawn when every match is decided; not decided: %s "
            "(a tie goes to the team the director names with --winner)" % "; ".join(
                "%d v %d (%s)" % o for o in open_),
            ru="следующий тур олимпийской системы разыгрывается, когда решены все матчи; не "
            "решены: %s (при ничьей судья называет прошедшую команду в --winner)" % "; ".join(
                "%d — %d (%s)" % (a, b, "ничья" if why == "tied" else "не закончен")
                for a, b, why in open_))
    left = [t for t in slots if t]
    if not left:
        raise KnockoutError("the knockout is over: no team is left (both finalists are out by "
                            "the director's rulings)", ru="олимпийская система закончена: "
                            "команд не осталось (оба финалиста выбыли по решению судьи)")
    if len(left) == 1:
        raise KnockoutError("the knockout is over: team %s won it" % left[0],
                            ru="олимпийская система закончена: победила команда %s" % left[0])
    return slots
