"""The director's rulings on a teams session's matches (migration 014): a team removed from
the session's competition (rule book 5.7.3, «удаление») or one match of a team lost as a
technical defeat; and the team that went through a tied knockout match (migration 015,
written by host_sync.event.knockout_draw.decide_tie, which knows the match is tied). Each is
checked against the section's movement before it is written, and audited; scoring
(host_sync.scoring.team_session) applies them through the TeamPlan.
"""

from dataclasses import dataclass

from host_sync.event import setup
from host_sync.movements.teams import team_of
from host_sync.text import CONTROL

REASON_LENGTH = 200


class TeamRulingError(setup.SetupError):
    """A ruling the session cannot take (no such team, no match that round...)."""


@dataclass(frozen=True)
class TeamRuling:
    letter: str
    team: int
    round: int | None  # None: removed from the competition
    reason: str


def rule(db, team, reason, round_no=None, section=None, session=None, actor=setup.ACTOR):
    """Remove `team` from the session's competition (round_no None) or give it a technical
    defeat in its match of round `round_no`; refused if it is already so ruled."""
    sec, letter = section_of(db, section, session)
    movement = _movement(db, sec, letter)
    _check_team(movement, team, letter)
    if round_no is not None:
        _check_round(movement, team, round_no, letter)
    reason = checked_reason(reason)
    with db.transaction():  # the writer's lock: a second director's same ruling waits, then
        if _row(db, sec, team, round_no) is not None:  # is refused here
            raise TeamRulingError("team %d of section %s is already so ruled; reinstate it "
                                  "first" % (team, letter), ru="по команде %d секции %s уже "
                                  "есть такое решение; сначала отмените его" % (team, letter))
        db.insert("team_rulings", {"section_id": sec, "team": team, "round": round_no,
                                   "reason": reason}, actor)
    return TeamRuling(letter, team, round_no, reason)


def checked_reason(reason):
    """A ruling's reason, for the record: text on one line, refused otherwise."""
    reason = str(reason).strip()
    if not reason or len(reason) > REASON_LENGTH or CONTROL.search(reason):
        raise TeamRulingError("the reason is text on one line, 1 to %d characters" %
                              REASON_LENGTH, ru="причина — текст в одну строку, от 1 до %d "
                              "символов" % REASON_LENGTH)
    return reason


def lift(db, team, round_no=None, section=None, session=None, actor=setup.ACTOR):
    """Take back the ruling on `team` (its removal, or its defeat in round `round_no`)."""
    if round_no is not None and (isinstance(round_no, bool) or not isinstance(round_no, int)
                                 or round_no < 1):  # 0 read as no round took the removal back
        raise TeamRulingError("a round is a number from 1, not %r" % (round_no,),
                              ru="тур — число от 1, а не %r" % (round_no,))
    sec, letter = section_of(db, section, session)
    row = _row(db, sec, team, round_no)
    if row is None:
        raise TeamRulingError("team %d of section %s has no such ruling to take back" % (
            team, letter), ru="у команды %d секции %s нет такого решения" % (team, letter))
    with db.transaction():
        db.delete("team_rulings", {"id": row["id"]}, actor)


def rulings(db, session_id):
    """The session's rulings, by section, team and round (removals first); a row that is not
    one (written into the file by hand) is refused naming it."""
    out = [_ruling(r) for r in db.all(
        "SELECT tr.id, s.letter, tr.team, tr.round, tr.reason FROM team_rulings tr "
        "JOIN sections s ON s.id = tr.section_id WHERE s.session_id = ? "
        "ORDER BY s.letter, tr.id", (session_id,))]
    return sorted(out, key=lambda r: (r.letter, r.team, r.round or 0))


def ties(db, session_id):
    """{(section letter, team): reason} of the teams the director named through a tied
    knockout match of the session; a row that is not one is refused naming it."""
    out = {}
    for r in db.all("SELECT kt.id, s.letter, kt.team, kt.reason FROM knockout_ties kt "
                    "JOIN sections s ON s.id = kt.section_id WHERE s.session_id = ? "
                    "ORDER BY kt.id", (session_id,)):
        if not (_whole(r["team"]) and isinstance(r["reason"], str)):
            raise TeamRulingError("tie decision %d is not one (team %r)" % (r["id"], r["team"]),
                                  ru="решение о ничьей %d испорчено (команда %r)" % (
                                      r["id"], r["team"]))
        out[r["letter"], r["team"]] = r["reason"]
    return out


def event_removals(db, event_id):
    """[(session number, section letter, team, reason)] of the teams removed in the
    event's sessions, in order: rule book 5.7.3 counts a team's matches over the whole stage,
    a round robin's days together (event.results applies them)."""
    return [(r["number"], ruling.letter, ruling.team, ruling.reason) for r, ruling in (
        (r, _ruling(r)) for r in db.all(
            "SELECT tr.id, s.letter, tr.team, tr.round, tr.reason, se.number "
            "FROM team_rulings tr JOIN sections s ON s.id = tr.section_id "
            "JOIN sessions se ON se.id = s.session_id "
            "WHERE se.event_id = ? AND tr.round IS NULL ORDER BY se.number, tr.id",
            (event_id,)))]


def _ruling(r):
    """The TeamRuling of a row, refused naming it when it is not one (edited by hand)."""
    if not (_whole(r["team"]) and (r["round"] is None or _whole(r["round"])) and
            isinstance(r["reason"], str)):
        raise TeamRulingError("team ruling %d is not one (team %r, round %r)" % (
            r["id"], r["team"], r["round"]), ru="решение по команде %d испорчено "
            "(команда %r, тур %r)" % (r["id"], r["team"], r["round"]))
    return TeamRuling(r["letter"], r["team"], r["round"], r["reason"])


def _whole(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _row(db, sec, team, round_no):
    return db.one("SELECT id FROM team_rulings WHERE section_id = ? AND team = ? AND "
                  "COALESCE(round, 0) = ?", (sec, team, round_no or 0))


def section_of(db, section, session):
    """(section id, letter) of the named section (the only one when not named)."""
    sid = setup.session_id(db, setup.the_event(db)[0], session)
    letter = setup.chosen_section(db, sid, section)
    return setup.section_id(db, sid, letter), letter


def _movement(db, sec, letter):
    sid = db.value("SELECT session_id FROM sections WHERE id = ?", (sec,))
    movement = setup.section_movements(db, sid)[letter]
    if movement.kind != "teams":
        raise TeamRulingError("section %s plays pairs (%s), not teams" % (letter, movement.kind),
                              ru="секция %s играет парный турнир (%s), а не командный" % (
                                  letter, movement.kind))
    return movement


def _check_team(movement, team, letter):
    """A team of the section: one of its movement's, or of a knockout's bracket (a team
    with a bye this round can be removed too)."""
    slots = movement.options.get("bracket", []) + movement.options.get("lower", []) if \
        movement.options.get("schedule") == "knockout" else []
    teams = sorted({team_of(p) for p in movement.pairs} | {t for t in slots if type(t) is int})
    if isinstance(team, bool) or not isinstance(team, int) or team not in teams:
        raise TeamRulingError("section %s has teams %d to %d, not %r" % (
            letter, teams[0], teams[-1], team), ru="в секции %s команды с %d по %d, а не %r" % (
            letter, teams[0], teams[-1], team))


def _check_round(movement, team, round_no, letter):
    """A round of the section's (numbered as the event numbers them) with a match of `team`."""
    numbers = movement.round_numbers()
    if isinstance(round_no, bool) or not isinstance(round_no, int) or round_no not in numbers:
        raise TeamRulingError("section %s has rounds %d to %d, not %r" % (
            letter, numbers.start, numbers.stop - 1, round_no), ru="в секции %s туры с %d по "
            "%d, а не %r" % (letter, numbers.start, numbers.stop - 1, round_no))
    out = set(movement.sit_outs(round_no))
    if all(team_of(p) != team for p in movement.pairs if p not in out):
        raise TeamRulingError("team %d of section %s has no match in round %d (a bye)" % (
            team, letter, round_no), ru="у команды %d секции %s нет матча в туре %d "
            "(свободный тур)" % (team, letter, round_no))
