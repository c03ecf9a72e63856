"""The HTML report: rendered from real corpus results, then looked at in headless Chromium."""

import re
import shutil
import subprocess
from collections import Counter

import pytest
from png_pixels import read_png

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


def screenshot(page, png, profile):
    subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--user-data-dir=%s" % profile, "--screenshot=%s" % png,
                    "--window-size=1200,900", page.as_uri()],
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


@pytest.mark.parametrize("page", ["index.html", "board-2.html"])
def test_screenshot_shows_tables_and_charts(site, tmp_path, page):
    _, written = site
    path = written["ru"][0].parent / page
    width, height, rows = screenshot(path, tmp_path / "shot.png", tmp_path / "profile")
    assert (width, height) == (1200, 900)
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
