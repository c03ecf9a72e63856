"""Render a scored session as a static HTML site (one folder per language, works offline)."""

from pathlib import Path

from bridge.seats import SEATS
from jinja2 import Environment, PackageLoader, select_autoescape

from host_sync.errors import Refused
from host_sync.event.flags import detail_text
from host_sync.reports.analysis import MAX_SOLVED, STRAINS, board_analyses, unsolved
from host_sync.reports.charts import frequency_chart, ranking_chart
from host_sync.reports.console import (
    byes_text,
    knockout_boards,
    match_boards,
    outside_text,
    segment_cells,
    through_text,
)
from host_sync.reports.i18n import texts
from host_sync.reports.notation import Notation, suits
from host_sync.scoring.knockout import knockout_matches
from host_sync.scoring.session import score_session
from host_sync.scoring.team_session import by_group, score_teams, team_players, team_title
from host_sync.text import number_text, vp_text

SUIT_SYMBOLS = (("\u2660", "black"), ("\u2665", "red"), ("\u2666", "red"), ("\u2663", "black"))
DD_ROWS = ("N", "S", "E", "W")  # the double-dummy table's rows, partners together
# cells of a 3x3 grid: North top middle, West and East in the middle row, South bottom middle
HAND_CELLS = {"N": 1, "W": 3, "E": 5, "S": 7}


def num(value):
    """A number for a table cell: whole numbers plain, others to two decimals rounded half
    up, as the files print them (text.number_text: 40.625 % is 40.63 on every page and in
    every file, where float formatting gave 40.62 here)."""
    return "" if value is None else number_text(value)


def points(value):
    if value is None:
        return ""
    if isinstance(value, tuple):
        return " / ".join("%s×%d" % (num(w), s) for w, s in value)
    return str(value)


def adjusted_text(result):
    kind = result.kind()
    if kind == "artificial":
        return " ".join(c for c in (result.ns_artificial, result.ew_artificial) if c)
    if kind == "played":
        return "" if result.group is None else "(%s)" % result.group
    return {"assigned": "12C1", "split": "12C1e", "weighted": "12C1c"}[kind]


def hand_cells(deal, notation, hcp=None):
    """Nine grid cells (None for empty ones) with each seat's suits from a PBN Deal value, the
    ranks in the page's letters, and each hand's high-card points when known."""
    if not deal or ":" not in deal:
        return None
    first, hands = deal.split(":", 1)
    start = SEATS.index(first.strip().upper())
    cells = [None] * 9
    for i, hand in enumerate(hands.split()):
        seat = SEATS[(start + i) % 4]
        if hand == "-":
            continue
        suits = [{"symbol": s, "colour": c, "cards": notation.ranks(cards)}
                 for (s, c), cards in zip(SUIT_SYMBOLS, hand.split("."))]
        cells[HAND_CELLS[seat]] = {"seat": seat, "suits": suits,
                                   "hcp": (hcp or {}).get(seat)}
    return cells


def pair_page(label):
    """The file name of a pair's page: its label with every character but letters, digits and
    '-' written as _XX (UTF-8 bytes in hex), so '1/2' or '..' stays one file inside the site
    and two labels never share a page; the label itself is shown as it is."""
    safe = "".join(c if c.isalnum() or c == "-" else "".join(
        "_%02x" % b for b in c.encode("utf-8")) for c in str(label))
    return "pair-%s.html" % safe


def par_text(analysis, notation):
    """The par line: the side that scores it, its points and the par contracts, a contract
    both partners make written once for the side ('4♠ СЮ =')."""
    if analysis is None:
        return ""
    grouped = {}
    for level, strain, seat, risk, over in analysis.par:
        grouped.setdefault((level, strain, risk, over), []).append(seat)
    contracts = ", ".join(notation.par_contract(level, strain, seats, risk, over)
                          for (level, strain, risk, over), seats in grouped.items())
    score = analysis.par_score
    side = notation.side("NS" if score >= 0 else "EW")
    return "%s %d%s" % (side, abs(score), " (%s)" % contracts if contracts else "") \
        if score else notation.call("Pass")


def auction_rows(auction, dealer):
    """The recorded auction as rows of four cells, North first, with the cells before the
    dealer empty; each cell (call, note number or None); and the notes in order."""
    cells, notes = [None] * SEATS.index(dealer), []
    for call, note in auction:
        if note:
            notes.append(note)
        cells.append((call, len(notes) if note else None))
    cells += [None] * (-len(cells) % 4)
    return [cells[i:i + 4] for i in range(0, len(cells), 4)], notes


def _percent(line, side):
    """A line's percentage of the board's top for one side (matchpoints only)."""
    return line.percent(side) if line.top else None


# what teams.html (a teams session's standings and matches) needs, here and on the live page
TEAM_GLOBALS = {"vp": vp_text, "team_players": team_players, "team_title": team_title,
                "num": num,
                "match_boards": match_boards, "byes_text": byes_text,
                "outside_text": outside_text, "by_group": by_group,
                "knockout_matches": knockout_matches, "segment_cells": segment_cells,
                "through_text": through_text, "knockout_boards": knockout_boards}


def _environment():
    env = Environment(loader=PackageLoader("host_sync.reports", "templates"),
                      autoescape=select_autoescape(["html"]))
    env.globals.update(points=points, adjusted=adjusted_text, pair_page=pair_page,
                       percent=_percent, strains=STRAINS, dd_rows=DD_ROWS, **TEAM_GLOBALS)
    env.filters["suits"] = suits
    env.filters["detail"] = detail_text
    return env


def render_site(session, out_dir, lang="ru", scored=None, director=None, analyses=None,
                teams=None, event=None):
    """Write index.html, boards.html, board-N.html, a page per pair (pair_page) and, given
    the director's list (host_sync.reports.director.DirectorList), director.html; returns
    the file list. `analyses`: {board: Analysis} (host_sync.reports.analysis.board_analyses,
    which keeps them in the event database), solved here when not given. A teams session's
    index leads with the team standings and the matches (`teams`: its TeamScore, scored here
    when not given), after the event's over the sessions so far when it is a later day of a
    round robin (`event`: host_sync.event.results.event_so_far, which reads the earlier
    sessions from the database). The boards past analysis.MAX_SOLVED say they have no
    analysis. Refused, nothing written, for a session with no results: empty pages published
    by mistake would read as an evening without a result."""
    if not session.results:
        raise Refused("the session has no verified results yet; no pages were written",
                      ru="в сессии ещё нет подтверждённых результатов; страницы не записаны")
    t = texts(lang)
    scored = scored or score_session(session)
    if teams is None and session.teams is not None:
        teams = score_teams(session)
    analyses = board_analyses(session) if analyses is None else analyses
    past_limit = set(unsolved(session))  # their pages say why they have no analysis
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    env = _environment()
    notation = Notation(lang)
    common = {"t": t, "lang": lang, "session": session, "n": notation,
              "director": director is not None}
    names = {p: " – ".join(session.pair(p).names) for p in session.pairs}
    percent = session.method == "mp"
    fields = list(scored.fields().items())
    charts = {field: ranking_chart([(s.pair, s.percent if percent else s.total)
                                    for s in standings], middle=50 if percent else 0)
              for field, standings in fields}
    written = []

    def write(name, template, **values):
        path = out / name
        path.write_text(env.get_template(template).render(**common, **values),
                        encoding="utf-8")
        written.append(path)

    write("index.html", "index.html", title=t["results"], fields=fields, names=names,
          percent=percent, charts=charts, board_count=len(scored.lines), teams=teams,
          event=event)
    write("boards.html", "boards.html", title=t["all_boards"], boards=scored.lines.items())
    for number, lines in scored.lines.items():
        board = session.board(number)
        scores = [ln.ns_points for ln in lines if isinstance(ln.ns_points, int)]
        analysis = analyses.get(number)
        dealer = SEATS[board.dealer_seat()]
        auctions = [(ln.result, *auction_rows(ln.result.auction, dealer))
                    for ln in lines if ln.result.auction]
        write("board-%d.html" % number, "board.html", title="%s %d" % (t["board"], number),
              number=number, lines=lines, chart=frequency_chart(scores), names=names,
              hands=hand_cells(board.deal, notation, analysis and analysis.hcp),
              dealer=dealer, vul=board.vul(), dd=analysis, par=par_text(analysis, notation),
              top=lines[0].top if percent and lines else None, auctions=auctions,
              dd_limit=MAX_SOLVED if number in past_limit else None)
    standings = {s.pair: s for s in scored.standings}
    for pair in sorted(session.pairs):
        write(pair_page(pair), "pair.html", title=t["scorecard"],
              pair=session.pair(pair), names=names, rows=scorecard(scored, pair),
              standing=standings.get(pair))
    if director is not None:
        write("director.html", "director.html", title=t["director_page"],
              entries=director.entries, warnings=director.warnings, boards=set(scored.lines))
    return written


def scorecard(scored, pair, boards=None):
    """A pair's boards in order: its side, opponents, its own-sign score (an EW pair sees EW's
    points), the board's value and percentage for it, the running total after the board and
    the director's notes of the line (the auction's rulings); with `boards`, on those only (the
    live page's embargo, host_sync.web)."""
    rows, running = [], 0
    for number, side, line in scored.pair_lines.get(pair, ()):  # the pair's lines only
        if boards is not None and number not in boards:
            continue
        r = line.result
        value = line.ns_value if side == "ns" else line.ew_value
        running += value
        rows.append({"board": number, "side": side.upper(), "line": line,
                     "opponents": r.ew if side == "ns" else r.ns,
                     "score": line.ns_points if side == "ns" else line.ew_points,
                     "value": value, "percent": _percent(line, side), "running": running,
                     "notes": [note for _, note in r.auction if note]})
    return rows
