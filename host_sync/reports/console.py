"""A session's rankings as rich tables on a console, in Russian or English: what
`host-sync score` prints and the demo shows at the end of the evening."""

from rich.markup import escape
from rich.table import Table

from host_sync.reports.i18n import texts
from host_sync.scoring.team_session import by_group, team_players, team_title
from host_sync.text import number_text, ranges, vp_text


def print_rankings(console, scored, lang="ru"):
    """One table per field (NS and EW, or all pairs): place, pair, players, total and, for
    matchpoints, the percentage; names as the session has them."""
    t = texts(lang)
    session = scored.session
    percent = session.method == "mp"
    for field, standings in scored.fields().items():
        table = Table(title="%s: %s" % (t["results"], t["field_" + field]),
                      caption=t["method_" + session.method])
        columns = [t["place"], t["pair"], t["names"], t["total"]] + (
            [t["percent"]] if percent else [])
        for i, column in enumerate(columns):
            table.add_column(column, justify="left" if i in (1, 2) else "right")
        for s in standings:
            row = [s.label or str(s.place), escape(s.pair),
                   escape(session.pair(s.pair).title()), number_text(s.total)]
            if percent:
                row.append(number_text(s.percent, places=2, whole=False))
            table.add_row(*row)
        console.print(table)


def print_team_results(console, scored, lang="ru"):
    """A teams session: each round's matches (net IMPs and VPs, boards still waiting for the
    other table, the byes) and the standings of each group."""
    t = texts(lang)
    session = scored.session
    byes = scored.byes
    for rnd, matches in scored.rounds():
        table = Table(title=t["match_round"] % rnd)
        for i, column in enumerate((t["home"], t["away"], t["imps"], t["vp"], t["boards"])):
            table.add_column(column, justify="left" if i in (0, 1, 4) else "right")
        for m in matches:
            vp = "" if m.vp is None else "%s : %s" % tuple(map(vp_text, m.vp))
            table.add_row(escape(team_title(session, m.home)),
                          escape(team_title(session, m.away)),
                          "%s : %s" % tuple(map(number_text, m.imps)), vp,
                          escape(match_boards(m, t)))
        console.print(table)
        if byes.get(rnd):
            console.print(escape(byes_text(byes[rnd], scored.bye_vp, t)))
    if scored.outside:
        console.print(escape(outside_text(scored.outside, t)))
    for group, standings in scored.groups().items():
        title = t["team_results"] + (" — " + t["group"] % group if group else "")
        table = Table(title=title, caption=t["method_teams"])
        with_byes = any(s.byes for s in standings)
        columns = [t["place"], t["team"], t["names"], t["vp"], t["played_matches"]] + (
            [t["byes"]] if with_byes else []) + [t["imps_won"], t["imps_lost"]]
        for i, column in enumerate(columns):
            table.add_column(column, justify="left" if i in (1, 2) else "right")
        for s in standings:
            table.add_row(s.label, escape(team_title(session, s.team)),
                          escape(team_players(session, s.team)),
                          vp_text(s.vp), str(s.matches), *([str(s.byes)] if with_byes else []),
                          number_text(s.imps_won), number_text(s.imps_lost))
        console.print(table)
        for s in standings:
            if s.removed:
                console.print(escape(t["removed_team"] % (s.team, session.teams.removed[s.team])))


def print_knockout(console, session, matches, lang="ru"):
    """A knockout round of `session` (host_sync.scoring.knockout): each match's IMPs segment
    by segment, the total, and who goes through (or why nobody yet)."""
    t = texts(lang)
    segments = max((len(m.segments) for m in matches), default=0)
    table = Table(title=t["knockout"], caption=t["method_knockout"])
    columns = [t["home"], t["away"]] + [t["segment"] % n for n in range(1, segments + 1)] + [
        t["imps"], t["through"], t["boards"]]
    for i, column in enumerate(columns):
        table.add_column(column, justify="right" if 1 < i < segments + 3 else "left")
    for m in matches:
        table.add_row(escape(team_title(session, m.home)), escape(team_title(session, m.away)),
                      *segment_cells(m),
                      "%s : %s" % tuple(map(number_text, m.imps)), escape(through_text(m, t)),
                      escape(knockout_boards(m, t)))
    console.print(table)


def segment_cells(m):
    """A knockout match's IMPs in each segment, home's first ("" before a board compared, "—"
    for a segment the director's ruling settled: its boards are not the score)."""
    return ["—" if s.ruling else "%s : %s" % (number_text(s.imps[s.side(m.home)]),
                                              number_text(s.imps[s.side(m.away)]))
            if s.boards else "" for s in m.segments]


def knockout_boards(m, t):
    """A knockout match's boards cell: each segment's (match_boards), and the removal that
    decided it when no segment carries it (removed after its segments were played)."""
    cells = [match_boards(s, t) for s in m.segments]
    if m.removed and not any(s.ruling for s in m.segments):
        cells.append(t["ruling_technical"] % ", ".join(m.removed))
    return "; ".join(filter(None, cells))


def through_text(m, t):
    """Who goes through a knockout match (a tie with the director's reason), or why nobody
    yet, in the words of `t`."""
    if m.tie:
        return t["ko_tie_decided"] % (m.winner, m.tie)
    return m.winner or t["ko_tied" if m.tied() else "ko_both_out" if m.complete
                         else "ko_under_way"]


def print_event_standings(console, event, lang="ru"):
    """The team standings over several sessions (host_sync.event.results.EventStandings):
    each session's VPs and the total, ranked; players as its `named` session names them."""
    t = texts(lang)
    sessions = event.sessions
    for group, rows in by_group(event.standings).items():
        title = t["event_results"] + (" — " + t["group"] % group if group else "")
        table = Table(title=title, caption=t["method_teams"])
        columns = [t["place"], t["team"], t["names"]] + [
            t["session_vp"] % n for n in sessions] + [t["vp"], t["played_matches"]]
        for i, column in enumerate(columns):
            table.add_column(column, justify="left" if i in (1, 2) else "right")
        for s in rows:
            table.add_row(s.label, escape(team_title(event.named, s.team)),
                          escape(team_players(event.named, s.team)),
                          *(vp_text(s.sessions[n]) if n in s.sessions else "" for n in sessions),
                          vp_text(s.vp), str(s.matches))
        console.print(table)


def match_boards(m, t):
    """A match's boards cell: those compared, those waiting for the other table, those
    fouled, and the director's ruling on it (a technical defeat with its reason), in the
    words of `t`."""
    return "; ".join(x for x in (
        ranges(b[0] for b in m.boards),
        m.waiting and t["waiting"] % ranges(m.waiting),
        m.fouled and t["fouled"] % ranges(m.fouled),
        m.not_played and t["not_played"] % ranges(m.not_played),
        *(t["unscored"] % (number, e.text(t["lang"])) for number, e in m.unscored),
        m.ruling and t["ruling_" + m.ruling] % ", ".join(
            "%s (%s)" % (team, why) if why else team
            for team, why in zip(m.against, m.reasons or [""] * len(m.against)))) if x)


def byes_text(teams, bye_vp, t):
    """The round's byes: one team, or several, with the bye's VPs."""
    return t["bye_round" if len(teams) == 1 else "byes_round"] % (", ".join(teams),
                                                                    vp_text(bye_vp))


def outside_text(results, t):
    """The lines no match of theirs plays, for the director (flagged at ingest)."""
    return t["outside"] % "; ".join(t["outside_line"] % (r.board, r.round, r.ns, r.ew)
                                    for r in results)
