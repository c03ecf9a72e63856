"""The rounds of a Swiss teams event (rule book 1.5.6), one session a round: the first drawn
at random, each next one from the event's standings in its database.

A Swiss round can only be drawn once the rounds before it are scored, so each is a session
of its own (`host-sync session add --movement teams --swiss`): the standings are the event's
over every teams session so far (host_sync.scoring.team_session.event_standings, byes and
the director's rulings in them), the teams that have met are every match those sessions
scheduled, and a team removed from the competition (5.7.3) is drawn no more. Each section is
a group drawn apart. The draw is random among equal standings; its seed is kept with the
movement (`options["seed"]`), so the same seed over the same standings draws the same round
and a player who doubts the draw can be shown it.
"""

import random
import secrets

from host_sync.event import setup
from host_sync.event.results import finished_standings, team_sessions
from host_sync.movements import Schedule, pair_round, teams_movement
from host_sync.scoring.team_session import score_teams

SEED_LIMIT = 10 ** 9  # a seed the director can read out and type back


class SwissError(setup.SetupError):
    """A Swiss round that cannot be drawn now; the message says why and what to do."""


def check_seed(seed):
    """`seed` when given and sound, else a new one."""
    if seed is None:
        return secrets.randbelow(SEED_LIMIT)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise SwissError("a draw's seed is a whole number from 0 to %d, not %r" % (
            SEED_LIMIT - 1, seed), ru="зерно жеребьёвки — целое число от 0 до %d, а не %r" % (
            SEED_LIMIT - 1, seed))
    return seed


def first_round(teams, boards_per_round, seed, letters):
    """{section letter: Movement} of a Swiss's first round: in each section `teams` teams
    paired at random (`seed`)."""
    if isinstance(teams, bool) or not isinstance(teams, int) or teams < 2:
        raise SwissError("a Swiss needs at least 2 teams, not %r" % (teams,),
                         ru="для швейцарской системы нужно не меньше 2 команд, а не %r"
                         % (teams,))
    standings = {t: 0 for t in range(1, teams + 1)}
    rng = random.Random(seed)
    return {letter: _movement(standings, pair_round(standings, rng=rng).matches,
                              boards_per_round, seed) for letter in letters}


def draw(db, first, boards_per_round, seed):
    """{section letter: Movement} of the event's next Swiss round: `first` (the first round,
    drawn by first_round) when the event has no teams session yet, else drawn from those
    sessions; SwissError when the two disagree or a match so far is not complete."""
    sessions = team_sessions(db)
    if sessions and first is not None:
        raise SwissError("the event has teams sessions already: its next Swiss round is drawn "
                         "from their standings (leave out --teams)",
                         ru="в турнире уже есть командные сессии: следующий тур швейцарской "
                         "системы разыгрывается по их положению (без --teams)")
    if not sessions:
        if first is None:
            raise SwissError("the event has no teams session to draw from: the first round "
                             "of a Swiss is drawn at random with --teams N",
                             ru="в турнире нет командной сессии для жеребьёвки: первый тур "
                             "швейцарской системы разыгрывается случайно, с --teams N")
        return first
    return _next_round(db, sessions, boards_per_round, seed)


def _next_round(db, sessions, boards_per_round, seed):
    if sessions[max(sessions)].teams.knockout:
        raise SwissError("the session before is a knockout round: a Swiss round does not "
                         "follow one (its teams are only those still in the knockout)",
                         ru="предыдущая сессия — тур олимпийской системы: тур швейцарской "
                         "системы за ним не следует (в нём только оставшиеся команды)")
    scores = {number: score_teams(s) for number, s in sessions.items()}
    standings = finished_standings(
        scores, SwissError, "the next Swiss round is drawn on complete results (the boards "
        "still to be played, or ruled by the director)", "следующий тур швейцарской системы "
        "разыгрывается по полным результатам (сдачи ещё не сыграны или ждут решения судьи)"
    ).standings
    met = [(m.home, m.away) for score in scores.values() for m in score.matches]
    byes = [t for score in scores.values() for teams in score.byes.values() for t in teams]
    sections = sessions[max(sessions)].teams.sections  # team -> (letter, number)
    number = 1 + max(max(s.teams.rounds, default=0) for s in sessions.values())
    rng = random.Random(seed)
    out = {}
    for letter in sorted({letter for letter, _ in sections.values()}):
        numbers = {team: n for team, (at, n) in sections.items() if at == letter}
        points = {s.team: s.vp for s in standings if s.team in numbers and not s.removed}
        pairing = pair_round(points, [m for m in met if set(m) <= set(points)],
                             [t for t in byes if t in points], rng)
        out[letter] = _movement({numbers[t]: v for t, v in points.items()},
                                [(numbers[h], numbers[a]) for h, a in pairing.matches],
                                boards_per_round, seed, number)
    return out


def _movement(points, matches, boards_per_round, seed, number=1):
    """The round's Movement, numbered `number` in the event (after the rounds before it)."""
    schedule = Schedule(sorted(points), [matches], "swiss")
    return teams_movement(schedule, boards_per_round, {"seed": seed} if number == 1 else
                          {"seed": seed, "first_round": number})
