"""A scored session as PBN games (one game per table) and back.

Export: every traveller line becomes a game; the last game of each board carries the board's
ScoreTable and the last game of the file the TotalScoreTable (PBN 5.9, 5.10). What PBN has no
tag for is written in tags of this project, which other readers skip (PBN 4.9):
PairId_NS / PairId_EW (the pair numbers), Adjusted ("assigned", "weighted 1/3 110;2/3 -50",
"artificial NS A+ EW A-") and FouledGroup; in a session of several sections each game's
Section (4.4.5) is the letter its pairs play in. The opening lead is the play section's only
card (the rest of the first trick '-');
the recorded auction, with the director's rulings as notes, the auction section. Given the
boards' double-dummy analyses (host_sync.reports.analysis), every game of a board carries its
OptimumScore (4.2.7: the par, NS or EW as the side that scores it) and the board's last game its
OptimumResultTable (5.7: the tricks of each declarer in each denomination, 20 rows).
A teams session's games say which match each is of, as team files do (4.4): HomeTeam and
VisitTeam (each team's name, its number when it has none), Room ("Open": the home team sits
NS; "Closed": it sits EW) and, once both rooms have played the board, ScoreIMP (4.2.2: NS's
IMPs on it in the match); its TotalScoreTable ranks the teams as the event database scored
them, the director's rulings and the event's conditions applied (TotalVP, TotalIMP,
NrMatches, a Group column when there are several, TeamName when a team has a name; a
knockout's, with no VPs, ranks the pairs as any session's, its games marked Stage
"Knockout"). Import reads games back into a `Session` of pairs: a file cannot give back the
teams' scoring (a forfeit, a removal, a bye, a tie's decision or a board ruled
not played has no game), so it is not guessed from the tags.
"""

import re

from bridge import boards as board_rules
from bridge.seats import SEATS, lho, parse_seat

from host_sync.errors import Both, Refused, at
from host_sync.interchange.fields import (
    adjusted_text,
    apply_adjusted,
    file_number,
    section_letters,
)
from host_sync.interchange.pbn.check import tricks_for_declarer
from host_sync.interchange.pbn.read import Game
from host_sync.interchange.pbn.tables import Table
from host_sync.scoring.session import Board, Pair, Result, Session, check_opponents, score_session
from host_sync.scoring.team_session import score_teams, team_players
from host_sync.text import number_text

SCORING_TAG = {("mp", 2): "MP;MP1", ("mp", 1): "MP;MP2", ("cross-imps", 2): "IMP;Cross2",
               ("butler", 2): "IMP;Butler", ("total", 2): "TotalPoints"}


KNOCKOUT_STAGE = "Knockout"
BUTLER_TRIMMED = re.compile(r"IMP;Butler-([0-9]{1,3})")  # the N extreme scores not used


def _scoring_tag(session):
    """The Scoring tag; a Butler datum that drops `trim` scores at each end is PBN's
    "Butler-2" (the 2 extreme scores not used) for 1, and Butler-N alike for more."""
    if session.method == "butler" and session.trim:
        return "IMP;Butler-%d" % (2 * session.trim)
    return SCORING_TAG.get((session.method, session.scale if session.method == "mp" else 2))


def _known(deal):
    """A Deal tag's value, "" when it gives no hand ("N:- - - -": 3.4.11, a hand not given
    is "-"; what this export writes for a board without a hand record, where "" is the
    value of a tag that does not apply and readers such as endplay refuse "?")."""
    hands = deal.split(":", 1)[-1].split()
    return "" if hands and all(hand == "-" for hand in hands) else deal


def _method_from_tag(text):
    """(method, scale, trim) of a Scoring tag `_scoring_tag` writes."""
    for (method, scale), tag in SCORING_TAG.items():
        if tag == text:
            return method, scale, 0
    trimmed = BUTLER_TRIMMED.fullmatch(text)
    if trimmed and int(trimmed.group(1)) % 2 == 0 and int(trimmed.group(1)):
        return "butler", 2, int(trimmed.group(1)) // 2
    raise Refused("Scoring tag %r is not one this program writes" % text,
                  ru="тег Scoring %r — не из тех, что пишет эта программа" % text)


def _names(pair, count=2):
    names = list(pair.names) + ["?"] * count
    return names[:count]


def _points_text(value):
    return "-" if value is None else number_text(value) if not isinstance(value, tuple) else "-"


def _pbn_date(iso):
    """'2026-12-02' -> '2026.12.02' (PBN 3.4.3), '?' when the event has no date."""
    return iso.replace("-", ".") if iso else "?"


def _info_from_tags(tags):
    """Session.info from the first game's Date and Site (what `_game` writes)."""
    info = {}
    date = tags.get("Date", "?")
    if len(date) == 10 and "?" not in date:
        info["date"] = date.replace(".", "-")
    if tags.get("Site", "?") not in ("", "?"):
        info["venue"] = tags["Site"]
    if tags.get("Competition"):
        info["competition"] = tags["Competition"]
    return info


def _game(session, result, board):
    ns, ew = session.pair(result.ns), session.pair(result.ew)
    north, south = _names(ns)
    east, west = _names(ew)
    date = _pbn_date(session.info.get("date"))
    tags = {"Event": session.name or "?", "Site": session.info.get("venue") or "?",
            "Date": date, "Board": str(result.board),
            "West": west, "North": north, "East": east, "South": south,
            "Dealer": SEATS[board.dealer_seat()], "Vulnerable": board.vul(),
            "Deal": board.deal or "%s:- - - -" % SEATS[board.dealer_seat()],
            "Scoring": _scoring_tag(session) or "?",
            "Declarer": result.declarer, "Contract": result.contract,
            "Result": "" if result.tricks is None else str(result.tricks),
            "PairId_NS": result.ns, "PairId_EW": result.ew}
    if date != "?":
        tags["EventDate"] = date  # 4.4.1: the event's first day; one session, the same
    if session.info.get("competition"):
        tags["Competition"] = session.info["competition"]  # 4.1.1: "Pairs", "Teams"
    if result.round is not None:
        tags["Round"] = str(result.round)
    if result.table is not None:
        tags["Table"] = str(result.table)
    adjusted = adjusted_text(result)
    if adjusted:
        tags["Adjusted"] = adjusted
    if result.group is not None:
        tags["FouledGroup"] = str(result.group)
    if result.kind() in ("assigned", "split"):
        tags["Score"] = "NS %d" % result.assigned + (
            " EW %d" % result.assigned_ew if result.assigned_ew is not None else "")
    elif result.kind() == "played":
        tags["Score"] = "NS %d" % result.ns_points(board.vul())
    game = Game(index=0, line=0, tags=tags)
    if result.auction:
        _auction(game, result.auction, board.dealer_seat())
    if result.lead and result.declarer:
        # 3.6: a whole first trick, '-' for the three cards not recorded, then '*' (a lone
        # card on the line is what endplay and other table readers cannot take)
        game.play_first = SEATS[lho(parse_seat(result.declarer))]
        game.plays = [result.lead.upper(), "-", "-", "-"]
        game.card_notes, game.card_nags = [None] * 4, [[] for _ in range(4)]
        game.play_end = "*"
    return game


def _auction(game, auction, dealer):
    """The recorded calls as the auction section (3.5), the director's notes as Note tags
    (3.5.5: `=n=` after the call, `[Note "n:text"]` after the section)."""
    game.auction_first = SEATS[dealer]
    game.calls = [call for call, _ in auction]
    game.call_nags = [[] for _ in auction]
    game.call_notes, game.auction_notes = [], {}
    for _, note in auction:
        if note:
            game.auction_notes[len(game.auction_notes) + 1] = note
        game.call_notes.append(len(game.auction_notes) if note else None)


def _score_table(session, scored_lines):
    mp = session.method == "mp"
    value_columns = ("MP_NS", "MP_EW", "Percentage_NS", "Percentage_EW") if mp else (
        ("IMP_NS", "IMP_EW") if session.method != "total" else ())
    columns = ["PairId_NS\\4R", "PairId_EW\\4R", "Contract\\5L", "Declarer\\1",
               "Result\\2R", "Score_NS\\5R", "Score_EW\\5R"]
    columns += ["%s\\6R" % c for c in value_columns]
    table = Table.parse(";".join(columns), [])
    for s in scored_lines:
        r = s.result
        row = [r.ns, r.ew, r.contract or "-", r.declarer or "-",
               "-" if r.tricks is None else str(r.tricks),
               _points_text(s.ns_points), _points_text(s.ew_points)]
        values = []
        if mp:
            values = [s.ns_value, s.ew_value, s.percent("ns"), s.percent("ew")]
        elif session.method != "total":
            values = [s.ns_value, s.ew_value]
        marks = [r.ns_artificial, r.ew_artificial] * 2
        row += [("^" if mark else "") + number_text(v) for v, mark in zip(values, marks)]
        table.rows.append(row)
    return table


def _total_table(session, scored):
    """The TotalScoreTable: Rank is the best place of a tie (5.10), and when the pairs are
    ranked NS and EW apart a Direction column (a column of this project's, 5.2 allows it)
    tells the two fields' rows apart."""
    mp = session.method == "mp"
    fields = any(s.direction for s in scored.standings)
    columns = "Rank\\4R;%sPairId\\4R;Names;%s\\8R;%sNrBoards\\3R" % (
        "Direction\\2R;" if fields else "",
        "TotalMP" if mp else "TotalIMP" if session.method != "total" else "TotalScore",
        "TotalPercentage\\6R;" if mp else "")
    table = Table.parse(columns, [])
    for s in scored.standings:
        pair = session.pair(s.pair)
        row = [str(s.place)] + ([s.direction] if fields else []) + [
            s.pair, ";".join(pair.names), number_text(s.total)]
        if mp:
            row.append(number_text(s.percent))
        row.append(str(s.boards))
        table.rows.append(row)
    return table


def optimum_score(analysis):
    """The OptimumScore tag (4.2.7) of an analysis: 'NS 420', 'EW 100', 'NS 0' when passed out."""
    score = analysis.par_score
    return "%s %d" % ("NS" if score >= 0 else "EW", abs(score))


def optimum_table(analysis):
    """The OptimumResultTable (5.7) of an analysis: declarer N E S W, denominations from NT
    down, as double-dummy tables are read."""
    table = Table.parse("Declarer;Denomination\\2R;Result\\2R", [])
    table.rows = [[seat, strain, str(analysis.tricks[seat][strain])] for seat in SEATS
                  for strain in ("NT", "S", "H", "D", "C")]
    return table


def _match_tags(session, teams):
    """{(round, board, NS pair): the tags of a teams session's game} (4.4.3, 4.4.8, 4.2.2):
    its match's teams, its room, NS's IMPs on the board once both rooms have played it; none
    for a line outside every match (a board its match does not play)."""
    of, scheduled = session.teams.teams, session.teams.boards
    matches = {(m.round, frozenset((m.home, m.away))): m for m in teams.matches}
    imps = {(m.round, m.home, b[0]): b[1] for m in teams.matches for b in m.boards}  # home's
    out = {}
    for r in session.results:
        home = of.get(r.ns)
        m = matches.get((r.round, frozenset((home, of.get(r.ew)))))
        if m is None or r.board not in scheduled.get((m.round, m.home), (r.board,)):
            continue
        open_room = home == m.home
        names = session.teams.names
        tags = {"HomeTeam": names.get(m.home, m.home), "VisitTeam": names.get(m.away, m.away),
                "Room": "Open" if open_room else
                "Closed", "Competition": session.info.get("competition") or "Teams"}
        if session.teams.knockout:
            tags["Stage"] = KNOCKOUT_STAGE
        board = imps.get((m.round, m.home, r.board))
        if board is not None:
            tags["ScoreIMP"] = "NS %s" % number_text(board if open_room else -board)
        out[r.round, r.board, r.ns] = tags
    return out


def _teams_table(session, teams):
    """The TotalScoreTable of a teams session (5.10, its team and VP columns this project's):
    each team's rank (the best of a tie; "-" for a team removed, which keeps none), group when
    there are several, number, name when any team has one, players, VPs, net IMPs and
    matches."""
    groups = len({s.group for s in teams.standings}) > 1
    names = session.teams.names
    table = Table.parse("Rank\\4R;%sTeamId\\4R;%sNames;TotalVP\\6R;TotalIMP\\6R;NrMatches\\3R"
                        % ("Group\\1;" if groups else "", "TeamName;" if names else ""), [])
    for s in teams.standings:
        table.rows.append(["-" if s.removed else str(s.place)] + ([s.group] if groups else []) + [
            s.team] + ([names.get(s.team, "-")] if names else []) + [
            team_players(session, s.team) or "-", number_text(s.vp),
            number_text(s.imps_won - s.imps_lost), str(s.matches)])
    return table


def session_games(session, scored=None, analyses=None):
    """The PBN games of a session, with ScoreTables and the TotalScoreTable, and given
    `analyses` ({board: Analysis or None}) each board's OptimumScore and OptimumResultTable."""
    scored = scored or score_session(session)
    analyses = analyses or {}
    teams = score_teams(session) if session.teams is not None else None
    matches = _match_tags(session, teams) if teams is not None else {}
    sections = section_letters({p for r in session.results for p in (r.ns, r.ew)})
    games = []
    for number, lines in scored.lines.items():
        board = session.board(number)
        board_games = [_game(session, s.result, board) for s in lines]
        for s, game in zip(lines, board_games):
            game.tags.update(matches.get((s.result.round, number, s.result.ns), {}))
            if s.result.ns in sections:  # 4.4.5: the section it was played in
                game.tags["Section"] = sections[s.result.ns]
        table = _score_table(session, lines)
        board_games[-1].sections["ScoreTable"] = (table.value(), table.lines())
        analysis = analyses.get(number)
        if analysis is not None:
            for game in board_games:
                game.tags["OptimumScore"] = optimum_score(analysis)
            table = optimum_table(analysis)
            board_games[-1].sections["OptimumResultTable"] = (table.value(), table.lines())
        games += board_games
    if games:
        table = _teams_table(session, teams) if teams is not None and \
            not session.teams.knockout else _total_table(session, scored)
        games[-1].sections["TotalScoreTable"] = (table.value(), table.lines())
    return games


def _int_tag(tags, name, where, needed=False):
    """The number of tag `name` in plain digits, as `_game` writes it; None when the tag is
    absent, empty or '?' (unknown, PBN 3.4), unless `needed`."""
    text = tags.get(name, "")
    if text.strip() in ("", "?"):
        if needed:
            raise at(where, "no %s tag" % name, "нет тега %s" % name)
        return None
    return file_number(text, name, where)


def _score_tag(text, where):
    """(NS, EW) of a Score tag "NS 420", "EW 100" or "NS 420 EW -450" (None where not given,
    and for a tag of another form: the caller says what it needed)."""
    parts = (text or "").split()
    if len(parts) % 2 or set(parts[::2]) - {"NS", "EW"}:
        return None, None
    values = {side: file_number(v, "Score", where, signed=True)
              for side, v in zip(parts[::2], parts[1::2])}
    return values.get("NS"), values.get("EW")


def _result(game):
    tags = game.tags
    where = Both("game %d" % (game.index + 1), "игра %d" % (game.index + 1))
    if not tags.get("PairId_NS") or not tags.get("PairId_EW"):
        raise at(where, "no PairId_NS / PairId_EW tags", "нет тегов PairId_NS / PairId_EW")
    declarer = tags.get("Declarer", "").strip()
    tricks = None
    if declarer and tags.get("Result", "").strip():
        tricks = tricks_for_declarer(tags["Result"], parse_seat(declarer),
                                     lambda text: file_number(text, "Result", where))
    result = Result(_int_tag(tags, "Board", where, needed=True), tags["PairId_NS"],
                    tags["PairId_EW"], contract=tags.get("Contract", "").strip(),
                    declarer=declarer, tricks=tricks, round=_int_tag(tags, "Round", where),
                    table=_int_tag(tags, "Table", where), group=tags.get("FouledGroup"))
    check_opponents(result, where)
    if game.plays:
        result.lead = game.plays[0] if game.plays[0] != "-" else ""
    if game.calls:
        result.auction = tuple((call, game.auction_notes.get(note)) for call, note in
                               zip(game.calls, game.call_notes))
    adjusted = tags.get("Adjusted") or ""
    scores = (None, None)
    if adjusted.strip() == "assigned":  # a played game's Score is recomputed, not read
        scores = _score_tag(tags.get("Score"), where)
    apply_adjusted(result, adjusted, *scores, where)
    return result


def session_from_games(games, name=None):
    """A Session from games written by `session_games` (or any with PairId tags)."""
    games = list(games)
    if not games:
        raise Refused("no games", ru="нет ни одной игры")
    session = Session(name=name if name is not None else games[0].tags.get("Event", ""),
                      info=_info_from_tags(games[0].tags))
    scoring = games[0].tags.get("Scoring", "")
    if scoring and scoring != "?":
        session.method, session.scale, session.trim = _method_from_tag(scoring)
    for game in games:
        if game.error:  # the reader's own words are English (pbn.read)
            raise Refused(game.error, ru="игра PBN не прочитана: %s" % game.error)
        result = _result(game)
        session.results.append(result)
        tags = game.tags
        board = session.boards.get(result.board) or Board(result.board)
        board.deal = board.deal or _known(tags.get("Deal", ""))
        if tags.get("Dealer"):
            board.dealer = parse_seat(tags["Dealer"])
        if tags.get("Vulnerable"):
            board.vulnerability = board_rules.parse_vulnerability(tags["Vulnerable"])
        session.boards[result.board] = board
        for pair_id, first, second in ((result.ns, "North", "South"), (result.ew, "East", "West")):
            names = tuple(n for n in (tags.get(first, "?"), tags.get(second, "?")))
            if pair_id not in session.pairs or session.pairs[pair_id].names == ("?", "?"):
                session.pairs[pair_id] = Pair(pair_id, names)
    return session
