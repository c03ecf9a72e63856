"""A knockout round of teams (rule book 1.5.4): each match is played over the session's
segments (the movement's rounds, each with its own boards) and won on the total of IMPs;
the loser is out. No VPs: a segment's Match (host_sync.scoring.team_session) is compared
under Law 12C4 and only its net IMPs count.

A match is decided when every segment is complete (each scheduled board compared at both
tables); a technical defeat in any segment decides it for the other team, and so does a
removal (rule book 5.7.3: in a knockout the team removed loses every match still to come,
with a zero score). Equal totals decide nothing: the Regulations' extra boards do, and the
director names the team that went through (`team through`, TeamPlan.through), the final's too.
"""

from dataclasses import dataclass, field


@dataclass
class KnockoutMatch:
    home: str
    away: str
    segments: list = field(default_factory=list)  # team_session.Match, segment by segment
    imps: tuple = (0, 0)  # total IMPs (home, away) of the segments compared so far
    complete: bool = False  # every segment's boards compared, or a ruling decided it
    winner: str | None = None  # None: under way, tied, or both teams out by a ruling
    ruling: str = ""  # a segment's ruling that decided it ("forfeit", "technical"...)
    removed: tuple = ()  # its teams removed from the competition (5.7.3)
    tie: str = ""  # a tie the director decided for `winner`: the reason (extra boards...)

    def tied(self):
        """Equal totals, every segment compared, and nobody named through yet."""
        return self.complete and self.winner is None and not self.ruling


def knockout_matches(score):
    """The KnockoutMatches of a knockout session's TeamScore, in table order."""
    out = {}
    for m in score.matches:
        key = frozenset((m.home, m.away))
        ko = out.setdefault(key, KnockoutMatch(m.home, m.away))
        ko.segments.append(m)
    for ko in out.values():
        ko.removed = tuple(t for t in (ko.home, ko.away) if t in score.plan.removed)
        if ko.removed:  # 5.7.3: a technical defeat in every match still to come, this one too
            _ruled(ko, "technical", ko.removed)
        for m in ko.segments:
            if m.ruling and m.against and not ko.ruling:
                _ruled(ko, m.ruling, m.against)
        home = sum(m.imps[m.side(ko.home)] for m in ko.segments if not m.ruling)
        away = sum(m.imps[m.side(ko.away)] for m in ko.segments if not m.ruling)
        ko.imps = (home, away)
        ko.complete = bool(ko.ruling) or all(m.complete(score.plan)
                                             for m in ko.segments)
        if ko.complete and not ko.ruling and home != away:
            ko.winner = ko.home if home > away else ko.away
        elif ko.tied():
            named = [t for t in (ko.home, ko.away) if t in score.plan.through]
            if len(named) == 1:  # both named cannot be written (knockout_draw.decide_tie)
                ko.winner, ko.tie = named[0], score.plan.through[named[0]]
    return list(out.values())


def _ruled(ko, ruling, against):
    """The match decided by the director's `ruling` against the teams `against`: the other
    goes through, nobody when it is against both."""
    through = [t for t in (ko.home, ko.away) if t not in against]
    ko.ruling, ko.winner = ruling, through[0] if through else None
