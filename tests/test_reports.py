"""The HTML report: rendered from real corpus results, then looked at in headless Chromium."""

import re
import shutil
import subprocess
from collections import Counter

import pytest
from png_pixels import read_png
from test_flags_director import event as flagged_event  # noqa: F401  (an event with flags)

from host_sync.interchange.pbn.check import check_game
from host_sync.interchange.pbn.read import read_file
from host_sync.reports.render import pair_page, render_site
from host_sync.scoring.session import Board, Pair, Result, Session

CHART_COLOURS = {"green": (0x2E, 0x7D, 0x32), "red": (0xC6, 0x28, 0x28),
                 "blue": (0x15, 0x65, 0xC0)}
ROUND = "1998-12th_Cap_Gemini_World_Top_Tournament/ROUND01.PBN"


def corpus_session(corpus, boards=4):
    """Round 1 of the 1998 Cap Gemini (8 tables a board), matchpointed as a pairs session."""
    session = Session(name="Cap Gemini 1998, тур 1", method="mp")
    ids = {}
    for game in read_file(corpus / ROUND):
        number = int(game.tags["Board"])
        if number > boards:
            break
        line = check_game(corpus / ROUND, game)
        pairs = []
        for a, b in (("North", "South"), ("East", "West")):
            names = (game.tags[a], game.tags[b])
            if names not in ids:
                ids[names] = str(len(ids) + 1)
                session.pairs[ids[names]] = Pair(ids[names], names)
            pairs.append(ids[names])
        session.boards.setdefault(number, Board(number, game.tags.get("Deal", "")))
        result = Result(number, pairs[0], pairs[1], line["contract"] or "",
                        line["declarer"] or "", round=1)
        if line["contract"] not in (None, "Pass"):
            result.tricks = int(game.tags["Result"].split()[-1])
        session.results.append(result)
    return session


def chromium():
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.fail("headless Chromium is not installed: apt-get install chromium")
    return found


def screenshot(page, png, profile, size="1200,900"):
    subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--user-data-dir=%s" % profile, "--screenshot=%s" % png,
                    "--window-size=%s" % size, page.as_uri()],
                   check=True, capture_output=True, timeout=120)
    return read_png(png)


def _near(pixel, colour, tolerance=12):
    return all(abs(p - c) <= tolerance for p, c in zip(pixel, colour))


@pytest.fixture(scope="module")
def site(corpus, tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    session = corpus_session(corpus)
    return session, {lang: render_site(session, out / lang, lang) for lang in ("ru", "en")}


def test_every_page_and_link_exists(site):
    session, written = site
    for files in written.values():
        names = {f.name for f in files}
        assert {"index.html", "boards.html", "board-1.html", "board-4.html"} <= names
        assert {pair_page(p) for p in session.pairs} <= names
        for page in files:
            html = page.read_text(encoding="utf-8")
            assert "http://" not in html.replace("http://www.w3.org/2000/svg", "")
            assert "<script" not in html
            for link in re.findall(r'href="([^"]+)"', html):
                assert (page.parent / link).exists(), (page.name, link)


def test_languages(site):
    _, written = site
    ru = (written["ru"][0].parent / "index.html").read_text(encoding="utf-8")
    en = (written["en"][0].parent / "index.html").read_text(encoding="utf-8")
    assert "Итоги" in ru and "Линия Север-Юг" in ru and "Results" not in ru
    assert "Results" in en and "North-South" in en and "Итоги" not in en
    board = (written["ru"][0].parent / "board-1.html").read_text(encoding="utf-8")
    assert "Протокол сдачи" in board and "\u2660" in board and "<svg" in board


@pytest.mark.parametrize("page, height", [("index.html", 900), ("board-2.html", 1500)])
def test_screenshot_shows_tables_and_charts(site, tmp_path, page, height):
    """A board page is long (hands, double-dummy table, traveller, chart): a taller window."""
    _, written = site
    path = written["ru"][0].parent / page
    width, shot_height, rows = screenshot(path, tmp_path / "shot.png", tmp_path / "profile",
                                          size="1200,%d" % height)
    assert (width, shot_height) == (1200, height)
    pixels = Counter(p for row in rows[::2] for p in row[::2])
    white = pixels[(255, 255, 255)]
    assert white < 0.97 * sum(pixels.values())  # not a blank page
    assert len(pixels) > 50  # text antialiasing, table shading, bars
    found = {name for name, colour in CHART_COLOURS.items()
             if sum(n for p, n in pixels.items() if _near(p, colour)) > 200}
    assert {"green", "red"} <= found, found
    # the page heading is drawn in its dark blue near the top left
    assert any(_near(p, (0x0D, 0x47, 0xA1), 30) for row in rows[20:70] for p in row[20:400])


def test_unknown_language(tmp_path, corpus):
    with pytest.raises(ValueError, match="report language"):
        render_site(corpus_session(corpus, boards=1), tmp_path, "de")


def test_pair_labels_that_look_like_paths_stay_pages_inside_the_site(tmp_path):
    """A label with '/' or '..' is shown as it is, and its page is one file in the site."""
    import html as html_lib
    labels = ["../escaped", "1/2", "1_2f2", "..", "Б 7"]
    session = Session(method="mp")
    for n, (ns, ew) in enumerate(zip(labels, labels[1:] + labels[:1]), 1):
        session.results.append(Result(1, ns, ew, "3NT", "N", 9 + n % 2, round=n))
        session.pair(ns)
    site = tmp_path / "site"
    files = render_site(session, site, "en")
    pages = {pair_page(p) for p in labels}
    assert len(pages) == len(labels)  # no two labels share a page
    assert all(f.parent == site for f in files) and not (tmp_path / "escaped.html").exists()
    assert pages <= {f.name for f in files}
    index = (site / "index.html").read_text(encoding="utf-8")
    for label in labels:
        assert html_lib.escape(label) in index
    for page in files:
        for link in re.findall(r'href="([^"]+)"', page.read_text(encoding="utf-8")):
            assert (site / link).resolve().parent == site.resolve(), (page.name, link)
            assert (site / link).exists(), (page.name, link)


KNOWN_DEAL = "N:AK5.KQ2.AJ4.Q762 QJ8.T987.K53.KJ4 T97643.6.Q976.A5 2.AJ543.T82.T983"


def dd_cells(html):
    """{(seat, strain column): tricks} of a board page's double-dummy table."""
    table = html.split('<table class="dd">', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr><th>(.+?)</th>((?:<td>\d+</td>)+)</tr>", table)
    return {(seat, i): int(n) for seat, cells in rows
            for i, n in enumerate(re.findall(r"<td>(\d+)</td>", cells))}


def small_session():
    """Two boards, four pairs (NS 1 and 2 against EW 3 and 4), board 1 with the known deal;
    pairs 9 and 14 tie on a third board of their own."""
    session = Session(name="Клуб", method="mp")
    session.boards[1] = Board(1, KNOWN_DEAL)
    session.pairs.update({p: Pair(p, ("Игрок %s" % p, "Партнёр %s" % p))
                          for p in ("1", "2", "3", "4", "9", "14")})
    session.results += [
        Result(1, "1", "3", "3NT", "N", 10, lead="SA", round=1, table=1,
               auction=(("1NT", None), ("Pass", None), ("3NT", "Law 27; accept 27A"),
                        ("Pass", None), ("Pass", None), ("Pass", None))),
        Result(1, "2", "4", "4SX", "S", 9, lead="HT", round=1, table=2),
        Result(2, "1", "4", "2H", "E", 8, round=2, table=1),
        Result(2, "2", "3", "Pass", "", round=2, table=2),
        Result(3, "9", "14", "1C", "S", 7, round=3, table=3),
        Result(3, "14", "9", "1C", "S", 7, round=3, table=4),
    ]
    return session


@pytest.fixture(scope="module")
def small_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("small")
    session = small_session()
    for lang in ("ru", "en"):
        render_site(session, out / lang, lang)
    return out


def test_double_dummy_table_and_par_are_endplays(small_site):
    """The hand record's tricks and par are the solver's (DDS through endplay), computed
    here again straight from endplay and compared with the page's cells."""
    from endplay import dds
    from endplay.types import Deal, Denom, Player, Vul
    table = dds.calc_dd_table(Deal(KNOWN_DEAL))
    html = (small_site / "en" / "board-1.html").read_text(encoding="utf-8")
    cells = dd_cells(html)
    denoms = (Denom.clubs, Denom.diamonds, Denom.hearts, Denom.spades, Denom.nt)
    for seat in "NSEW":
        for i, denom in enumerate(denoms):
            assert cells[(seat, i)] == table[Player.find(seat), denom], (seat, denom)
    assert [cells[("N", i)] for i in range(5)] == [7, 9, 6, 10, 8]  # known: 4S makes N-S
    par = dds.par(table, Vul.none, Player.north)  # board 1: dealer N, nobody vulnerable
    assert par.score == 420
    assert "Par: <b class=\"par\">NS 420 (4" in html and "NS =)" in html
    ru = (small_site / "ru" / "board-1.html").read_text(encoding="utf-8")
    assert dd_cells(ru)[("С", 3)] == 10 and "Пар: <b class=\"par\">СЮ 420 (4" in ru
    # high-card points beside each hand (Law-free arithmetic: A4 K3 Q2 J1)
    assert "(19 HCP)" in html and "(10 HCP)" in html and "(6 HCP)" in html
    assert "(5 HCP)" in html and "(19 оч.)" in ru


def test_no_double_dummy_for_a_deal_the_solver_cannot_take(tmp_path):
    """A hand record with a hand short of a card gets its diagram but no table and no par;
    the page is still written."""
    session = small_session()
    session.boards[1] = Board(1, KNOWN_DEAL.replace("AK5.", "AK.", 1))
    render_site(session, tmp_path, "en")
    html = (tmp_path / "board-1.html").read_text(encoding="utf-8")
    assert 'class="dd"' not in html and "Par:" not in html and "Hands" in html


def scorecard_rows(page):
    """[{class: cell text}] of a scorecard's rows (score, value, pct, running)."""
    html = page.read_text(encoding="utf-8")
    rows = []
    for row in re.findall(r"<tr><td><a href=\"board-.+?</tr>", html):
        rows.append({k: re.sub("<[^>]+>", "", v) for k, v in re.findall(
            r'<td class="(score|value|pct|running)">(.*?)</td>', row)})
    return rows


def test_scorecard_own_sign_board_value_and_running_total(small_site):
    """An EW pair sees its own score (minus when NS scored plus), each board's matchpoints and
    percentage, and the running total after each board (not the board's points under a
    'Total' heading)."""
    ns = scorecard_rows(small_site / "en" / pair_page("1"))
    ew = scorecard_rows(small_site / "en" / pair_page("3"))
    # board 1: 3NT N +1 = +430 against 4SX S -1 = -100: NS 1 top (2 of 2), EW 3 zero
    assert ns[0] == {"score": "430", "value": "2", "pct": "100", "running": "2"}
    assert ew[0] == {"score": "-430", "value": "0", "pct": "0", "running": "0"}
    # board 2: 2H by E made 8 = -110 for NS 1; pass-out 0 at the other table: EW 3 scores 0
    assert ns[1] == {"score": "-110", "value": "0", "pct": "0", "running": "2"}
    assert ew[1] == {"score": "0", "value": "0", "pct": "0", "running": "0"}
    ew4 = scorecard_rows(small_site / "en" / pair_page("4"))
    assert [r["running"] for r in ew4] == ["2", "4"] and ew4[0]["score"] == "100"
    html = (small_site / "en" / pair_page("3")).read_text(encoding="utf-8")
    assert "Running total" in html and "Игрок 1 – Партнёр 1" in html  # opponents' names
    assert "Law 27; accept 27A" in html  # the ruling on the way to the contract


class CountedLines(list):
    """A board's lines that count how often anything reads through them."""

    reads = 0

    def __iter__(self):
        CountedLines.reads += 1
        return super().__iter__()


def test_scorecards_read_each_board_once_and_keep_their_rows():
    """Every pair's scorecard has its lines in board order, NS or EW as it sat (pairs change
    direction here, and board 3 has a split score), with the running total of what is shown;
    all of them together read each board's lines once (they read every line for every pair:
    627 s for a 30,000-line file)."""
    from itertools import accumulate

    from host_sync.reports.render import scorecard
    from host_sync.scoring.session import score_session
    session = Session(method="mp")
    for board in range(1, 7):
        for table in range(4):
            ns, ew = str(1 + (table + board) % 8), str(1 + (table + board + 4) % 8)
            session.results.append(Result(board, ns, ew, assigned=-100, assigned_ew=200)
                                   if (board, table) == (3, 1) else
                                   Result(board, ns, ew, "%dH" % (1 + table % 3), "N", 9))
    scored = score_session(session)
    scored.lines = {n: CountedLines(lines) for n, lines in scored.lines.items()}
    CountedLines.reads = 0
    cards = {(pair, shown): scorecard(scored, pair, shown) for pair in sorted(session.pairs)
             for shown in (None, frozenset({2, 3, 5}))}
    assert CountedLines.reads == len(scored.lines) == 6
    for (pair, shown), rows in cards.items():
        mine = [(n, line, "NS" if line.result.ns == pair else "EW")
                for n, lines in scored.lines.items() for line in lines
                if pair in (line.result.ns, line.result.ew) and n in (shown or {n})]
        assert mine and [(r["board"], r["line"], r["side"]) for r in rows] == mine
        values = [line.ns_value if side == "NS" else line.ew_value for _, line, side in mine]
        assert [r["running"] for r in rows] == list(accumulate(values))
    sides = {r["side"] for (pair, shown), rows in cards.items() if shown is None for r in rows}
    assert sides == {"NS", "EW"} and scorecard(scored, "no such pair") == []


def test_russian_notation_on_russian_pages(small_site):
    ru = (small_site / "ru" / "board-1.html").read_text(encoding="utf-8")
    en = (small_site / "en" / "board-1.html").read_text(encoding="utf-8")
    assert "3БК" in ru and "3NT" not in ru and "3NT" in en
    assert "4♠к" in ru and "4♠X" in en  # the doubled contract
    assert "♠Т" in ru and "♠A" in en  # the lead of the ace
    assert '<span class="red">♥</span>10' in ru  # the ten of hearts led
    assert "ТК5" in ru and "AK5" in en  # North's spades in the hand record
    assert "<th>СЮ</th>" in ru and "<th>ВЗ</th>" in ru and ">NS<" not in ru
    assert "1БК" in ru and "пас" in ru and "Закон 27; принято 27A" in ru  # the auction
    card = (small_site / "ru" / pair_page("3")).read_text(encoding="utf-8")
    assert "<td>ВЗ</td>" in card and "<td>С</td>" in card  # side and declarer


def test_tied_pairs_are_listed_by_number_on_the_pages(small_site):
    """9 and 14 tie: 9 comes first, as a number (text would put "14" first)."""
    html = (small_site / "en" / "index.html").read_text(encoding="utf-8")
    order = re.findall(r'<td>(\d+=?)</td><td><a href="pair-(\d+)\.html"', html)
    tied = [pair for label, pair in order if pair in ("9", "14")]
    assert tied == ["9", "14"]
    assert all(label.endswith("=") for label, pair in order if pair in ("9", "14"))


@pytest.mark.parametrize("page", ["board-1.html", "pair-4.html"])
def test_pages_read_on_a_phone(small_site, tmp_path, page):
    """At a phone's width (390 px) the page fits: the heading, the suits in red and the
    tables are drawn in the screen, wide tables scroll inside their box."""
    path = small_site / "ru" / page
    html = path.read_text(encoding="utf-8")
    assert 'name="viewport"' in html and 'class="scroll"' in html
    width, height, rows = screenshot(path, tmp_path / "phone.png", tmp_path / "profile",
                                     size="390,844")
    assert (width, height) == (390, 844)
    assert any(_near(p, (0x0D, 0x47, 0xA1), 30) for row in rows[10:80] for p in row)
    red = sum(_near(p, CHART_COLOURS["red"], 40) for row in rows for p in row)
    assert red > 20
    # something is drawn in the right half: the layout uses the width, not a shrunk page
    assert any(p != (255, 255, 255) for row in rows[100:] for p in row[200:380])


def test_director_page_lists_every_flag_and_ruling(flagged_event, tmp_path):  # noqa: F811
    """`host-sync report EVENT.db` writes a director's page, linked from every page: the Law
    27 flag (ruled: the director accepted the insufficient bid, 27A) and the refused result
    nobody ruled on yet (open), with round, table, board and time; the board page shows the
    auction with the ruling as its note."""
    from host_sync.cli import main
    from host_sync.event.db import open_db
    from host_sync.event.flags import director_list
    assert main(["report", str(flagged_event), "-o", str(tmp_path / "site")]) == 0
    ru, en = tmp_path / "site" / "ru", tmp_path / "site" / "en"
    assert '<a href="director.html">' in (ru / "index.html").read_text(encoding="utf-8")
    html = (ru / "director.html").read_text(encoding="utf-8")
    rows = re.findall(r'<tr class="(\w*)">(.*?)</tr>', html)
    with open_db(flagged_event) as db:
        assert len(rows) == len(director_list(db)) == 3
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", row) for _, row in rows]
    assert [c[1:4] for c in cells] == [["A", "1", "1"]] * 3  # section, round, table
    assert [c[5:8] for c in cells] == [["флаг", "27", "нарушение"], ["решение", "27A", "принять"],
                                       ["флаг", "", "спор"]]
    assert [c[9] for c in cells] == ["решён", "", "открыт"]
    assert cells[2][8] == "противники не согласились с результатом"  # the detail in Russian
    assert all(re.fullmatch(r"\d\d:\d\d:\d\d", c[0]) for c in cells)
    assert 'href="board-1.html"' in html
    english = (en / "director.html").read_text(encoding="utf-8")
    assert "Director&#39;s flags and rulings" in english
    assert "the opponents refused the result" in english
    board = (ru / "board-1.html").read_text(encoding="utf-8")
    assert "Торговля" in board and "<li>Закон 27; принято 27A</li>" in board


def test_results_file_report_has_no_director_page(tmp_path, small_site):
    """A report made from a results file (no flags in it) writes no director's page and links
    none."""
    assert not (small_site / "ru" / "director.html").exists()
    assert "director.html" not in (small_site / "ru" / "index.html").read_text(
        encoding="utf-8")


@pytest.mark.parametrize("deal, dealer, vul", [
    (KNOWN_DEAL, 0, "Both"), (KNOWN_DEAL, 7, "None"), ("N:AK5 x y z", 0, "None"),
    ("X:" + KNOWN_DEAL[2:], 0, "None"), (KNOWN_DEAL.replace("Q762", "Q76A"), 0, "None")])
def test_hostile_hand_records_get_no_analysis(deal, dealer, vul):
    """An unknown vulnerability or dealer, garbage hands, a bad first seat or a card twice:
    no table and no par (never a crash, never a par for the wrong board)."""
    from host_sync.reports.analysis import analyse
    assert analyse(deal, dealer, vul) is None


def test_pages_round_as_the_files_do():
    """A pair on 52 of 128 matchpoints, 40.625 %: the pages said 40.62 (float formatting) and
    the PBN and USEBIO files 40.63 (half up, text.number_text); now every room says 40.63,
    and the console's percentage column keeps two places."""
    from fractions import Fraction

    from host_sync.reports.render import num
    from host_sync.text import number_text

    assert num(Fraction(100 * 52, 128)) == number_text(Fraction(325, 8)) == "40.63"
    assert num(Fraction(107, 40)) == "2.68" and num(50) == "50" and num(None) == ""
    assert number_text(Fraction(50), whole=False) == "50.00"


def site_files(folder):
    """{path inside `folder`: bytes} of every file under it, and every folder as None."""
    return {str(p.relative_to(folder)): p.read_bytes() if p.is_file() else None
            for p in sorted(folder.rglob("*"))}


@pytest.fixture
def published(tmp_path):
    """The small session as a results file, its site published in both languages, then the
    session with pairs 9 and 14 gone (so a new site differs from the old one)."""
    from host_sync.cli import main
    from host_sync.interchange.files import save
    session = small_session()
    save(session, tmp_path / "s.csv")
    assert main(["report", str(tmp_path / "s.csv"), "-o", str(tmp_path / "site")]) == 0
    session.results = [r for r in session.results if "14" not in (r.ns, r.ew)]
    save(session, tmp_path / "s.csv")
    return tmp_path / "s.csv", tmp_path / "site"


@pytest.mark.parametrize("error", [OSError(28, "No space left on device"), RuntimeError("bug")])
@pytest.mark.parametrize("fresh", [False, True])
def test_a_report_failing_midway_leaves_the_site_as_it_was(published, monkeypatch, capsys,
                                                           error, fresh):
    """A full disk or a bug at the English board pages, the Russian ones all written: the site
    published before (or none, `fresh`) is exactly as it was, with no hidden folder left;
    a full disk exits 2 saying so."""
    import io

    import jinja2

    from host_sync.cli import main
    source, site = published
    if fresh:
        shutil.rmtree(site)
    before = site_files(site) if site.exists() else None
    render, calls = jinja2.Template.render, []

    def failing(template, *args, **kwargs):
        calls.append(template.name)
        if calls.count("board.html") == 3:  # 2 boards a language now: English board 1
            raise error
        return render(template, *args, **kwargs)

    monkeypatch.setattr(jinja2.Template, "render", failing)
    err = io.StringIO()
    if isinstance(error, OSError):
        assert main(["report", str(source), "-o", str(site)], err=err) == 2
        assert "No space left on device" in err.getvalue()
        assert "nothing was published, %s is as it was" % (site / "en") in err.getvalue()
    else:
        with pytest.raises(RuntimeError):
            main(["report", str(source), "-o", str(site)], err=err)
    assert calls.count("pair.html") == 4  # the Russian site was whole
    assert (site_files(site) if site.exists() else None) == before
    monkeypatch.undo()
    assert main(["report", str(source), "-o", str(site)]) == 0
    assert sorted(p.name for p in site.iterdir()) == ["en", "ru"]
    assert not (site / "ru" / pair_page("14")).exists()  # the new site, replaced whole


def test_a_report_is_not_published_over_a_folder_that_is_not_a_report(published, capsys):
    """DIR/<lang> is replaced whole: a folder there with files and no index.html (someone
    else's) is refused, untouched, before anything is rendered."""
    from host_sync.cli import main
    source, site = published
    shutil.rmtree(site / "en")
    (site / "en").mkdir()
    (site / "en" / "notes.txt").write_text("mine")
    before = site_files(site)
    assert main(["report", str(source), "-o", str(site)]) == 2
    assert "is not a report's folder (no index.html)" in capsys.readouterr().err
    assert site_files(site) == before
