"""The live page in a real headless Chromium, driven by Selenium through Debian's chromedriver:
a sync while the page is open shows up in it within 2 s, without a reload (on an SQLite and
on a PostgreSQL event: a poll of the change marker, a commit's NOTIFY); a pair's own page
hides a board that pair has not played; the director's hold and release; Russian and English.

One browser for the module; each test has an evening and a `host-sync web` process of its
own (`live`)."""

import shutil
import time

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from web_support import WebServer, evening, link_key, play

from host_sync.cli import main
from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.movements import round_robin, teams_movement

PUSH_S = 2  # the bound: a sync to the open page
COMMAND_S = 10  # a director's hold/release: it must arrive without a reload, not race a sync


@pytest.fixture(scope="module")
def browser():
    driver_path = shutil.which("chromedriver")
    if driver_path is None:
        pytest.fail("chromedriver is not installed: apt-get install chromium-driver "
                    "(tools/system-deps.sh)")
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=412,915"):  # a phone's viewport
        options.add_argument(arg)
    options.binary_location = shutil.which("chromium")
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    yield driver
    driver.quit()


@pytest.fixture
def live(request, tmp_path):
    """An event of its own for each test, served: under xdist a module's tests run on
    different workers, so no test may count on what another synced. An SQLite file, or a
    PostgreSQL database for a test parametrized `live` "postgresql" (indirect)."""
    if getattr(request, "param", "sqlite") == "postgresql":
        location = request.getfixturevalue("pg_url")
    else:
        location = tmp_path / "event.db"
    db, movement = evening(location)
    with WebServer(location) as web:
        yield web, db, movement, location
    db.close()


def mark(browser):
    """A flag in the page's JavaScript state: a reload would lose it."""
    browser.execute_script("window.notReloaded = true;")


def still_same_page(browser):
    return browser.execute_script("return window.notReloaded === true;")


def wait_for(browser, condition, seconds=PUSH_S):
    """Wait up to `seconds` for condition(browser); returns how long it took."""
    start = time.monotonic()
    WebDriverWait(browser, seconds, poll_frequency=0.05).until(condition)
    return time.monotonic() - start


def text(browser):
    return browser.find_element(By.ID, "live").text


def scorecard_boards(browser):
    cells = browser.find_elements(By.CSS_SELECTOR, "table.scorecard td:first-child a")
    return {int(e.text) for e in cells}


def test_a_pair_s_page_shows_the_boards_it_played_as_they_sync_and_hides_the_others(browser,
                                                                                       live):
    web, db, movement, _ = live
    key = link_key(db, "1")
    browser.get(web.url + "/ru/my/1/" + key)
    assert "Карточка пары: пара 1" in text(browser)
    assert scorecard_boards(browser) == set()
    mark(browser)
    ns, ew, boards = play(db, movement, 1, 1)  # pair 1 sits at table 1 in round 1
    assert 1 in (ns, ew)
    wait_for(browser, lambda b: scorecard_boards(b) == boards)
    assert still_same_page(browser)
    before = set(boards)
    others = play(db, movement, 2, 1)[2]  # boards pair 1 has not played yet
    assert not others & before
    marker = db.value("SELECT MAX(id) FROM audit WHERE tbl = 'results'")  # the last line
    wait_for(browser, lambda b: int(b.find_element(By.ID, "live").get_attribute("data-marker"))
             >= marker)
    assert scorecard_boards(browser) == before  # the sync came, the boards stayed hidden
    for board in others:
        browser.execute_script("window.location.href = arguments[0];",
                               web.url + "/ru/my/1/%s/board/%d" % (key, board))
        WebDriverWait(browser, 10).until(lambda b: "/board/%d" % board in b.current_url)
        assert "Нет такой страницы" in text(browser)


@pytest.mark.parametrize("live", ["sqlite", "postgresql"], indirect=True)
def test_the_public_page_shows_a_board_once_every_table_has_played_it(browser, live):
    web, db, movement, _ = live
    for table in (1, 2):  # round 1 at two tables: no board has both its tables yet
        play(db, movement, table, 1)
    browser.get(web.url + "/ru/")
    assert browser.find_element(By.ID, "none-yet")
    mark(browser)
    play(db, movement, 3, 1)
    second = play(db, movement, 1, 2)[2]  # these boards now have both their tables
    took = wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "table.ranking"))
    shown = {int(e.text) for e in browser.find_elements(By.CSS_SELECTOR, ".boards a")}
    assert shown == second and still_same_page(browser)
    print("public page updated %.2f s after the sync" % took)


def test_the_public_page_fetches_itself_only_when_everyone_s_view_changed(browser, live):
    """A line of a board still under embargo changes the pairs' own views only: the public
    page hears the change (a second listener in the page sees it) and fetches nothing; the
    line that completes a board makes it fetch itself and show the board."""
    web, db, movement, _ = live
    browser.get(web.url + "/en/")
    browser.execute_script("""
        window.fetches = 0; var plain = window.fetch;
        window.fetch = function () { window.fetches += 1; return plain.apply(this, arguments); };
        window.heard = [];
        new EventSource("/events").addEventListener("change", function (e) {
            window.heard.push(e.data); });""")
    play(db, movement, 1, 1)
    line = db.value("SELECT MAX(id) FROM audit WHERE tbl = 'results'")
    wait_for(browser, lambda b: any(int(h.split()[1]) >= line for h in
                                    b.execute_script("return window.heard;")))
    assert browser.execute_script("return window.fetches;") == 0
    assert browser.find_element(By.ID, "none-yet")
    for table, rnd in ((2, 1), (3, 1), (1, 2)):  # round 2 at table 1 completes two boards
        play(db, movement, table, rnd)
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "table.ranking"))
    assert browser.execute_script("return window.fetches;") >= 1


def test_hold_and_release_reach_the_open_page(browser, live):
    web, _, _, location = live
    browser.get(web.url + "/ru/")
    mark(browser)
    assert main(["publish", "hold", str(location)]) == 0
    wait_for(browser, lambda b: b.find_elements(By.ID, "held"), COMMAND_S)
    assert not browser.find_elements(By.CSS_SELECTOR, "table.ranking")
    assert "приостановлена директором" in text(browser)
    assert main(["publish", "release", str(location)]) == 0
    wait_for(browser, lambda b: not b.find_elements(By.ID, "held"), COMMAND_S)
    assert "приостановлена директором" not in text(browser)
    assert still_same_page(browser)


def test_the_page_speaks_russian_and_english(browser, live):
    web = live[0]
    browser.get(web.url + "/ru/")
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ru"
    assert "Итоги онлайн" in browser.title
    browser.find_element(By.CSS_SELECTOR, 'nav a[hreflang="en"]').click()
    WebDriverWait(browser, 10).until(lambda b: b.current_url.endswith("/en/"))
    assert "Live results" in browser.title
    assert "A board appears here when every table has played it" in text(browser)
    width, room = browser.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth];")
    assert width <= room, "the ranking is %d px wide on a %d px screen" % (width, room)


def test_a_teams_event_s_page_shows_its_matches_once_every_table_has_played(browser, tmp_path):
    """A teams round robin (each match its own copy of the round's boards): the team
    standings and the matches arrive on the open page with the sync of the round's last
    table, without a reload, and not before."""
    location = tmp_path / "teams.db"
    db = open_db(str(location), create=True)
    try:
        movement = teams_movement(round_robin(4), 2)
        setup.add_session(db, setup.create_event(db, "Кубок"), 1, movement)
        for table in range(1, 5):
            setup.register_terminal(db, "T%d" % table, 0)
        with WebServer(location) as web:
            for table in (1, 2, 3):
                play(db, movement, table, 1)
            browser.get(web.url + "/ru/")
            assert browser.find_element(By.ID, "none-yet")
            assert not browser.find_elements(By.CSS_SELECTOR, "table.teams")
            mark(browser)
            play(db, movement, 4, 1)
            took = wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "table.teams"))
            page = text(browser)
            assert "Командный зачёт" in page and "Матчи тура 1" in page
            assert len(browser.find_elements(By.CSS_SELECTOR, "table.matches tr")) == 3
            assert still_same_page(browser)
            print("teams page updated %.2f s after the sync" % took)
    finally:
        db.close()
