"""A session of the scoring database as the plain scoring model (host_sync.scoring.session),
so it can be scored, exported (PBN, USEBIO, CSV) and published as a report.

Only the host's own reading of the facts is used: the verified traveller lines of the
`results` table (contract, declarer and score re-derived on ingest), the director's adjusted
scores, the opening leads the terminals recorded, the pairs' names and the hand records.
"""

import json
from collections import namedtuple
from dataclasses import replace
from fractions import Fraction

from bridge import cards
from bridge.calls import STRAINS, level, strain
from bridge.seats import SEATS

from host_sync.event import setup, team_rulings
from host_sync.event.auctions import line_auction
from host_sync.movements.teams import team_of
from host_sync.scoring.session import Board, Pair, Result, Session, ns_points
from host_sync.scoring.team_session import (
    TeamPlan,
    event_standings,
    part_taken,
    score_teams,
    unfinished,
)

ARTIFICIAL = {60: "A+", 50: "A", 40: "A-"}


def contract_text(bid, risk):
    """'4SX', '3NT': the scoring model's contract text of a bid code and risk."""
    return "%d%s%s" % (level(bid), STRAINS[strain(bid)], ("", "X", "XX")[risk])


def code_points(vul, bid, risk, declarer, tricks):
    """NS's points of a contract as the records give it (bid code, risk, declarer seat,
    declarer's tricks) on a board of vulnerability `vul` (scoring.session.ns_points)."""
    return ns_points(level(bid), strain(bid), risk, vul, declarer, tricks)


def session_from_db(db, number=None, method=None):
    """The Session of the event's session `number` (default: the current one), its pairs
    scored by `method` (default: matchpoints, or Butler IMPs in a teams session, the pairs'
    usual ranking there). A teams session knows every team removed from the competition in
    any session, counted over them all (rule book 5.7.3)."""
    session = _session(db, number, method)
    if session.teams is not None:
        removals = team_rulings.event_removals(db, setup.the_event(db)[0])
        if removals:  # only then are the other sessions read
            this = _number(db, number)
            sessions = _plain_team_sessions(db)
            sessions[this] = session
            _removed_over_event(sessions, removals)
    return session


def _number(db, number):
    """The number of session `number` (None: the current one)."""
    return db.value("SELECT number FROM sessions WHERE id = ?",
                    (setup.session_id(db, setup.the_event(db)[0], number),))


def _session(db, number, method):
    """session_from_db within the session alone."""
    event_id, name, _ = setup.the_event(db)
    sid = setup.session_id(db, event_id, number)
    movements = setup.section_movements(db, sid)
    label = pair_labeller(movements)
    teams = None
    if movements and all(mv.kind == "teams" for mv in movements.values()):
        teams = _team_plan(movements, label, setup.team_conditions(db, event_id),
                           team_rulings.rulings(db, sid), team_rulings.ties(db, sid),
                           setup.team_names(db, sid))
    session = Session(name=name, method=method or ("mp" if teams is None else "butler"),
                      info=_info(db, event_id, sid, movements), teams=teams)
    numbers = session.info["numbers"]
    for row in db.all("SELECT s.letter, p.number, pl.name, pl.number AS fed FROM pairs p "
                      "JOIN sections s ON s.id = p.section_id "
                      "LEFT JOIN players pl ON pl.pair_id = p.id "
                      "WHERE s.session_id = ? ORDER BY s.letter, p.number, pl.position", (sid,)):
        pair = session.pairs.setdefault(label(row["letter"], row["number"]),
                                        Pair(label(row["letter"], row["number"])))
        if row["name"]:
            pair.names += (row["name"],)
            numbers.setdefault(pair.number, ())
            numbers[pair.number] += (row["fed"],)
    for row in db.all("SELECT number, dealer, vul, deal FROM boards WHERE session_id = ? "
                      "ORDER BY number", (sid,)):
        session.boards[row["number"]] = Board(row["number"], row["deal"] or "", row["dealer"],
                                              row["vul"])
    leads = _leads(db, sid)
    for row in db.all(
            "SELECT r.*, ro.number AS rnd, ro.ns_pair, ro.ew_pair, t.number AS tbl, s.letter "
            "FROM results r JOIN rounds ro ON ro.id = r.round_id "
            "JOIN tables t ON t.id = ro.table_id JOIN sections s ON s.id = t.section_id "
            "WHERE s.session_id = ? AND r.verified = 1 ORDER BY r.board, ro.ns_pair", (sid,)):
        result = Result(board=row["board"], ns=label(row["letter"], row["ns_pair"]),
                        ew=label(row["letter"], row["ew_pair"]), round=row["rnd"],
                        table=row["tbl"], group=row["fouled"])
        if row["adjustment"] and not _adjusted(result, json.loads(row["adjustment"]),
                                               row["board"], session):
            session.not_played.append(result)  # no line on the traveller
            continue
        if not row["adjustment"] and not _played(
                result, row, leads.get(row["round_id"], {}).get(row["board"])):
            continue
        if row["source"] == "auction":  # the calls the host stands by (a correction: none)
            result.auction = line_auction(db, row["round_id"], row["board"],
                                          session.board(row["board"]).dealer_seat())
        session.results.append(result)
    return session


def _info(db, event_id, sid, movements):
    """Session.info: the event's facts (migration 006) under the exports' names, those given,
    and the competition (PBN 4.1.1): teams when a section plays a teams movement, else pairs."""
    facts = setup.event_facts(db, event_id)
    kinds = {mv.kind for mv in movements.values()}
    info = {"date": facts["held_on"], "venue": facts["venue"], "director": facts["director"],
            "club": facts["club"], "competition": "Teams" if "teams" in kinds else "Pairs"}
    return dict({k: v for k, v in info.items() if v}, numbers={})


def team_sessions(db, before=None):
    """{number: Session} of the event's sessions that every section plays as teams, in
    order (with `before`, those numbered below it): what the event's standings of a round
    robin over several sessions add up. Removals counted over them all, as session_from_db."""
    out = _plain_team_sessions(db)
    removals = team_rulings.event_removals(db, setup.the_event(db)[0])
    if removals:
        _removed_over_event(out, removals)
    return {n: s for n, s in out.items() if before is None or n < before}


def _plain_team_sessions(db):
    """team_sessions, each within itself."""
    out = {}
    for row in db.all("SELECT number FROM sessions WHERE event_id = ? ORDER BY number",
                      (setup.the_event(db)[0],)):
        session = _session(db, row["number"], None)
        if session.teams is not None:
            out[row["number"]] = session
    return out


def _removed_over_event(sessions, removals):
    """Give each teams session's plan the teams removed from the competition (`removals`:
    team_rulings.event_removals) in its stage (rule book 5.7.3). In a round robin or a Swiss,
    every session of it, whether the team took part in more than half of its matches counted
    over them all, a round robin's whole schedule even before its later days are set up (a
    team removed on day 3 having played two days of five has its matches of days 1 and 2
    annulled too). In a knockout, the round it was removed in and those after:
    a technical defeat in every match still to come, the rounds before standing (and its
    teams may be numbered anew after groups: a removal stays in its own stage)."""
    robin, knockout = {}, []
    for number, letter, team, reason in removals:
        if number in sessions and sessions[number].teams.knockout:
            knockout.append((number, (letter, team), reason))
        else:
            robin.setdefault((letter, team), reason)
    counts = {}
    stage = [s for s in sessions.values() if not s.teams.knockout]
    each = max((s.teams.matches_each for s in stage), default=0)  # a round robin's, all days
    for session in stage:
        score = score_teams(session)
        for team, key in session.teams.sections.items():
            if key in robin:
                taken, total = part_taken(session.teams, team, [
                    m for m in score.matches if team in (m.home, m.away)])
                count = counts.setdefault(key, [0, 0])
                count[0] += taken
                count[1] += total
    for n, session in sessions.items():
        plan = session.teams
        removed, took = dict(plan.removed), dict(plan.took_part)
        labels = {key: team for team, key in plan.sections.items()}
        if plan.knockout:
            for number, key, reason in knockout:
                if number <= n:
                    label = labels.get(key, team_label(*key, len(set(plan.groups.values())) > 1))
                    removed.setdefault(label, reason)
                    took[label] = True  # its unplayed segments lost, its played ones stand
        else:
            for key, reason in robin.items():
                if key in labels:
                    removed.setdefault(labels[key], reason)
                    taken, total = counts.get(key, (0, 0))
                    took[labels[key]] = 2 * taken > max(total, each)
        session.teams = replace(plan, removed=removed, took_part=took)


def earlier_team_sessions(db, number=None):
    """(the number of session `number`, default the current one; its team_sessions before
    it): the days a teams session's report and live page rank the event over with its own,
    and none of a session prepared for later."""
    this = _number(db, number)
    return this, team_sessions(db, before=this)


EventStandings = namedtuple("EventStandings", "sessions standings named")
EventStandings.__doc__ = """sessions: the numbers of the sessions counted (the columns);
standings: TeamStandings; named: the Session whose players name the teams (the last counted:
a knockout's session holds only the teams still in it)."""


def ranked_over(scores):
    """The EventStandings of {session number: TeamScore} (event_standings), on the event's
    tie-break: the one place that says which sessions make the columns, for the console,
    the report and the live page alike."""
    tie_break = scores[max(scores)].session.teams.tie_break  # the event's, in every session
    standings = event_standings(scores, tie_break)
    counted = sorted({n for s in standings for n in s.sessions})  # a knockout's count none
    return EventStandings(counted, standings, scores[counted[-1]].session if counted else None)


def finished_standings(scores, error, en, ru):
    """The EventStandings (ranked_over) of {session number: TeamScore} a next Swiss round or
    a knockout is drawn on; `error` (a SetupError class) saying `en` / `ru` and naming the
    matches while one of them is not complete (team_session.unfinished)."""
    open_ = unfinished(scores)
    if open_:
        raise error("%s; not complete: %s" % (en, "; ".join(
            "session %d round %d: %s v %s" % o for o in open_)), ru="%s; не закончены: %s" % (
            ru, "; ".join("сессия %d, тур %d: %s — %s" % o for o in open_)))
    return ranked_over(scores)


def event_so_far(number, earlier, current):
    """The EventStandings over the `earlier` teams sessions ({number: Session}, over, scored
    whole) and session `number`, whose TeamScore is `current` (the live page's: its boards
    everyone may see only); None without an earlier one (the session's own standings are the
    event's) or when session `number` is not teams."""
    if not earlier or current is None:
        return None
    scores = {n: score_teams(s) for n, s in earlier.items()}
    scores[number] = current
    return ranked_over(scores)


def pair_labeller(movements):
    """label(letter, pair number) of a session's pairs, the one spelling every room shows:
    the movement's own (a team's pairs are 1A and 1B, as `event show` and the names import
    write them; other pairs their number), behind the section's letter when there are
    several."""
    several = len(movements) > 1

    def label(letter, pair):
        own = movements[letter].label(pair) if letter in movements else str(pair)
        return letter + own if several else own
    return label


def team_label(letter, team, several):
    """A team's label: its number, behind its section's letter when there are `several`."""
    return "%s%d" % (letter, team) if several else str(team)


def _team_plan(movements, label, conditions, rulings, ties, names):
    """The TeamPlan of a session whose every section plays a teams movement: each pair's
    team as the movement numbers them (pairs 2t-1 and 2t are team t), and each round's
    matches, home first (its pair sits NS at the match's first table), with their boards;
    with several sections each is a group of its own, ranked apart. The event's conditions
    and the director's team rulings (migrations 013, 014) go with it; a knockout round's
    segments are compared as a knockout's (Law 12C4), its ties as the director decided them
    (migration 015); the teams' names (migration 016) go with it too."""
    teams, rounds, groups, boards, sections = {}, {}, {}, {}, {}
    several = len(movements) > 1
    for letter, mv in movements.items():
        def team(pair):
            return team_label(letter, team_of(pair), several)
        for pair in mv.pairs:
            teams[label(letter, pair)] = team(pair)
            groups[team(pair)] = letter if several else ""
            sections[team(pair)] = (letter, team_of(pair))
        for rnd, seatings in enumerate(mv.rounds, mv.first_round):
            met = rounds.setdefault(rnd, [])
            for s in seatings:
                home, away = team(s.ns), team(s.ew)
                if (home, away) not in met and (away, home) not in met:
                    met.append((home, away))
                    boards[rnd, home] = tuple(mv.board_numbers(s.board_set))
    removed = {team_label(r.letter, r.team, several): r.reason for r in rulings
               if r.round is None}
    forfeits = {(r.round, team_label(r.letter, r.team, several)): r.reason for r in rulings
                if r.round is not None}
    through, names = ({team_label(letter, team, several): text
                       for (letter, team), text in given.items()} for given in (ties, names))
    knockout = all(mv.options.get("schedule") == "knockout" for mv in movements.values())
    robin = [(mv.options.get("robin"), mv.options.get("cycles", 1)) for mv in movements.values()]
    each = min((n - 1) * c for n, c in robin) if all(
        type(n) is int and 1 < n and type(c) is int and 0 < c for n, c in robin) else 0
    return TeamPlan(teams, {rnd: tuple(m) for rnd, m in rounds.items()}, groups, boards,
                    removed=removed, forfeits=forfeits, knockout=knockout, through=through,
                    sections=sections, matches_each=each, names=names, **conditions)


def _played(result, row, lead):
    """Fill in a verified line the host scored; False when the host has no contract for it
    (no auction nor contract entered, or an auction left waiting for the director): such a
    line stays off the traveller, and its `no_contract` / `auction_incomplete` flag is the
    director's to settle (an adjusted score or a corrected entry)."""
    if row["passed_out"]:
        result.contract = "Pass"
        return True
    if row["bid"] is None:
        return False
    result.contract = contract_text(row["bid"], row["risk"])
    result.declarer = SEATS[row["declarer"]]
    result.tricks = row["tricks"]
    if lead is not None:
        result.lead = cards.token(lead)
    return True


def _adjusted(result, adj, board, session):
    """Fill in the director's adjusted score; False for a board not played."""
    how = adj["how"]
    if how == "np":
        return False
    if how == "art":
        result.ns_artificial = ARTIFICIAL.get(adj["ns"], "%d%%" % adj["ns"])
        result.ew_artificial = ARTIFICIAL.get(adj["ew"], "%d%%" % adj["ew"])
        return True
    vul = session.board(board).vul()
    if how == "split":  # 12C1e: each side its own assigned score, EW's in EW's own sign
        result.assigned = code_points(vul, *adj["ns"])
        result.assigned_ew = -code_points(vul, *adj["ew"])
        return True
    parts = adj["parts"] if how == "wgt" else [[100, adj["ct"], adj["x"], adj["dcl"],
                                                adj["tr"]]]
    weighted = [(Fraction(percent, 100), code_points(vul, ct, risk, declarer, tricks))
                for percent, ct, risk, declarer, tricks in parts]
    if how == "wgt":
        result.weighted = tuple(weighted)
    else:
        result.assigned = weighted[0][1]
    return True


def _leads(db, sid):
    """{round id: {board: card}}: the last opening lead each table recorded."""
    out = {}
    for row in db.all(
            "SELECT rec.round_id, rec.board, rec.body FROM records rec "
            "JOIN rounds ro ON ro.id = rec.round_id JOIN tables t ON t.id = ro.table_id "
            "JOIN sections s ON s.id = t.section_id "
            "WHERE s.session_id = ? AND rec.kind = 'lead' AND rec.valid = 1 ORDER BY rec.seq",
            (sid,)):
        out.setdefault(row["round_id"], {})[row["board"]] = json.loads(row["body"])["cd"]
    return out
