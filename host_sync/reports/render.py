"""Render a scored session as a static HTML site (one folder per language, works offline)."""

from fractions import Fraction
from pathlib import Path

from bridge.seats import SEATS
from jinja2 import Environment, PackageLoader, select_autoescape

from host_sync.errors import Refused
from host_sync.reports.charts import frequency_chart, ranking_chart
from host_sync.reports.i18n import texts
from host_sync.scoring.session import score_session

SUIT_SYMBOLS = (("\u2660", "black"), ("\u2665", "red"), ("\u2666", "red"), ("\u2663", "black"))
# cells of a 3x3 grid: North top middle, West and East in the middle row, South bottom middle
HAND_CELLS = {"N": 1, "W": 3, "E": 5, "S": 7}


def num(value):
    """A number for a table cell: whole numbers plain, others to two decimals."""
    if value is None:
        return ""
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else "%.2f" % float(value)


def points(value):
    if value is None:
        return ""
    if isinstance(value, tuple):
        return " / ".join("%s×%d" % (num(w), s) for w, s in value)
    return str(value)


def contract_text(result):
    return result.contract or ""


def adjusted_text(result):
    kind = result.kind()
    if kind == "artificial":
        return " ".join(c for c in (result.ns_artificial, result.ew_artificial) if c)
    if kind == "played":
        return "" if result.group is None else "(%s)" % result.group
    return {"assigned": "12C1", "split": "12C1e", "weighted": "12C1c"}[kind]


def hand_cells(deal):
    """Nine grid cells (None for empty ones) with each seat's suits from a PBN Deal value."""
    if not deal or ":" not in deal:
        return None
    first, hands = deal.split(":", 1)
    start = SEATS.index(first.strip().upper())
    cells = [None] * 9
    for i, hand in enumerate(hands.split()):
        seat = SEATS[(start + i) % 4]
        if hand == "-":
            continue
        suits = [{"symbol": s, "colour": c, "cards": cards}
                 for (s, c), cards in zip(SUIT_SYMBOLS, hand.split("."))]
        cells[HAND_CELLS[seat]] = {"seat": seat, "suits": suits}
    return cells


def pair_page(label):
    """The file name of a pair's page: its label with every character but letters, digits and
    '-' written as _XX (UTF-8 bytes in hex), so '1/2' or '..' stays one file inside the site
    and two labels never share a page; the label itself is shown as it is."""
    safe = "".join(c if c.isalnum() or c == "-" else "".join(
        "_%02x" % b for b in c.encode("utf-8")) for c in str(label))
    return "pair-%s.html" % safe


def scorecard_rows(scored, pair, boards=None):
    """A pair's scorecard rows (board, side, opponents, its Scored line, its value) in board
    order; with `boards`, on those only (the live page's embargo, host_sync.web)."""
    rows = []
    for number, lines in scored.lines.items():
        if boards is not None and number not in boards:
            continue
        for line in lines:
            r = line.result
            if pair in (r.ns, r.ew):
                ns = pair == r.ns
                rows.append({"board": number, "side": "NS" if ns else "EW", "line": line,
                             "opponents": r.ew if ns else r.ns,
                             "value": line.ns_value if ns else line.ew_value})
    return rows


def _environment():
    env = Environment(loader=PackageLoader("host_sync.reports", "templates"),
                      autoescape=select_autoescape(["html"]))
    env.globals.update(num=num, points=points, contract=contract_text, adjusted=adjusted_text,
                       pair_page=pair_page)
    return env


def render_site(session, out_dir, lang="ru", scored=None):
    """Write index.html, boards.html, board-N.html and a page per pair (pair_page); returns
    the file list. Refused, nothing written, for a session with no results: empty pages
    published by mistake would read as an evening without a result."""
    if not session.results:
        raise Refused("the session has no verified results yet; no pages were written")
    t = texts(lang)
    scored = scored or score_session(session)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    env = _environment()
    common = {"t": t, "lang": lang, "session": session}
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
          percent=percent, charts=charts, board_count=len(scored.lines))
    write("boards.html", "boards.html", title=t["all_boards"], boards=scored.lines.items())
    for number, lines in scored.lines.items():
        board = session.board(number)
        scores = [ln.ns_points for ln in lines if isinstance(ln.ns_points, int)]
        write("board-%d.html" % number, "board.html", title="%s %d" % (t["board"], number),
              number=number, lines=lines, chart=frequency_chart(scores),
              hands=hand_cells(board.deal), dealer=SEATS[board.dealer_seat()], vul=board.vul())
    standings = {s.pair: s for s in scored.standings}
    for pair in sorted(session.pairs):
        write(pair_page(pair), "pair.html", title=t["scorecard"],
              pair=session.pair(pair), names=names.get(pair, ""),
              rows=scorecard_rows(scored, pair),
              standing=standings.get(pair))
    return written
