"""The live page without a browser: the embargo as the Snapshot sees it (on SQLite and on
PostgreSQL), the director's hold, the pairs' keys, and the server's answers to hostile
requests (a real `host-sync web` process over HTTP)."""

import html
import http.client
import random
import re
import threading
import time

import pytest
from sync_script import board_records
from web_support import WebServer, evening, get, link_key, play

from host_sync.cli import main
from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.reports.render import scorecard
from host_sync.station.ingest import ingest
from host_sync.web.live import set_held, set_held_boards, snapshot


def labels(rows):
    return {r["board"] for r in rows}


def own_boards(snap, pair):
    """The boards on a pair's own scorecard (reports.render.scorecard)."""
    return labels(scorecard(snap.so_far, str(pair), snap.pair_boards(str(pair))))


@pytest.fixture
def event(event_location):
    db, movement = evening(event_location)
    yield db, movement, event_location
    db.close()


def test_a_board_is_public_when_every_table_has_played_it_and_a_pair_sees_only_its_own(event):
    db, movement, _ = event
    ns, ew, first = play(db, movement, 1, 1)
    snap = snapshot(db)
    assert snap.public_boards() == frozenset()  # played at one table of two
    assert snap.everyone.standings == [] and not snap.everyone.lines
    assert own_boards(snap, ns) == first and own_boards(snap, ew) == first
    others = [p for p in snap.session.pairs if p not in (str(ns), str(ew))]
    for pair in others:  # have not played it: not on their view, whoever asks
        assert snap.pair_boards(pair) == frozenset()
    # the rest of round 1, then round 2: each board reaches its second table
    played = {1: first}
    for table in (2, 3):
        played[table] = play(db, movement, table, 1)[2]
    assert snapshot(db).public_boards() == frozenset()
    second = play(db, movement, 1, 2)[2]
    snap = snapshot(db)
    assert snap.public_boards() == second  # its two tables have played it now
    assert set(snap.everyone.lines) == second
    assert all(s.boards == 1 * len(second) for s in snap.everyone.standings)
    for table in (2, 3):
        play(db, movement, table, 2)
    snap = snapshot(db)
    assert snap.public_boards() == set(range(1, 7))
    assert snap.marker == db.value("SELECT MAX(id) FROM audit")


def test_a_board_keyed_at_a_table_that_does_not_play_it_keeps_it_embargoed(event):
    """A table's line for a board its round does not play (keyed in by mistake, flagged
    wrong_board) counted as a table having played it: the board went public while a table
    that plays it later had not, and its pairs could read the traveller first."""
    db, movement, _ = event
    board = min(play(db, movement, 1, 1)[2])  # one of the board's two tables
    seat = movement.seating(1, 2)
    ns, ew = (seat.ew, seat.ns) if seat.switched else (seat.ns, seat.ew)
    assert board not in movement.board_numbers(seat.board_set)
    records = [("open", {"sec": "A", "tbl": 2, "rnd": 1, "ns": ns, "ew": ew})]
    records += board_records(random.Random(7), board)[0] + [("close", {"rnd": 1})]
    last = db.value("SELECT last_seq FROM terminals WHERE id = 'T2'")
    ingest(db, "T2", last, [(last + 1 + i, k, d) for i, (k, d) in enumerate(records)])
    assert db.value("SELECT COUNT(*) FROM flags WHERE why = 'wrong_board'") == 1
    snap = snapshot(db)
    assert board not in snap.public_boards() and not snap.everyone.lines
    assert board in snap.pair_boards(str(ns))  # its own pairs played it: their own view


def flag_from(db, terminal):
    """A commit that changes nothing a page shows: a terminal's flag outside any round."""
    last = db.value("SELECT last_seq FROM terminals WHERE id = ?", (terminal,))
    marker = db.value("SELECT MAX(id) FROM audit")
    assert ingest(db, terminal, last, [(last + 1, "flag", {"why": "dircall"})]).stored == 1
    assert db.value("SELECT MAX(id) FROM audit") > marker


def test_a_commit_that_changes_nothing_shown_gives_back_the_same_snapshot(event):
    """A sync's calls, cards and flags move the change marker but no line: the Snapshot
    handed in comes back (not scored again, so open pages are sent no change); a result, a
    hold or a board held alone makes a new one."""
    db, movement, _ = event
    play(db, movement, 1, 1)
    snap = snapshot(db)
    flag_from(db, "T2")
    assert snapshot(db, previous=snap) is snap
    play(db, movement, 2, 1)
    after = snapshot(db, previous=snap)
    assert after is not snap and after.marker == db.value("SELECT MAX(id) FROM audit")
    set_held_boards(db, [1], True)
    assert snapshot(db, previous=after) is not after


def test_everyone_s_view_has_a_marker_of_its_own_that_moves_when_a_board_is_released(event):
    """Lines of boards still under embargo move the pairs' own views' marker, not everyone's
    view's (the rankings' pages stay put); the line that completes a board moves both, and so
    does a hold."""
    db, movement, _ = event
    snap = snapshot(db)
    for table in (1, 2, 3):
        play(db, movement, table, 1)
        new = snapshot(db, previous=snap)
        assert new.marker > snap.marker and new.public_marker == snap.public_marker
        snap = new
    play(db, movement, 1, 2)
    new = snapshot(db, previous=snap)
    assert new.public_boards() and new.public_marker == new.marker > snap.public_marker
    set_held(db, True)
    held = snapshot(db, previous=new)
    assert held.public_marker == held.marker > new.marker
    set_held(db, False)
    new = snapshot(db, previous=held)
    pending = min(set(range(1, 7)) - new.public_boards())  # not complete: not shown anyway
    set_held_boards(db, [pending], True)
    noted = snapshot(db, previous=new)  # but the rankings now say it is held
    assert noted.public_marker == noted.marker > new.marker


def test_the_live_traveller_speaks_the_page_s_language_and_shows_each_side_s_score(tmp_path):
    """Its side headers were English on the Russian page, and a split adjusted score (Law
    12C1e) showed NS's points only: EW's own was on EW's scorecard alone."""
    location = tmp_path / "event.db"
    db, movement = evening(location)
    for table in (1, 2, 3):
        for rnd in (1, 2):
            play(db, movement, table, rnd)
    db.close()
    assert main(["result", "adjust", str(location), "--board", "1", "--table", "1",
                 "--split", "4S N 10", "2S N 8"]) == 0
    with WebServer(location) as web:
        ru = get(web.url + "/ru/board/1")[1]
        en = get(web.url + "/en/board/1")[1]
    assert "<th>СЮ</th><th>ВЗ</th>" in ru and "<th>Очки ВЗ</th>" in ru
    assert "<th>EW score</th>" in en
    assert re.search(r"<td>420</td><td>-110</td>", en), en  # 4S= NS; 2S+2 EW's own


def test_hold_and_release_are_audited_commands_that_hide_everything(event, capsys):
    db, movement, location = event
    for table in (1, 2, 3):
        for rnd in (1, 2):
            play(db, movement, table, rnd)
    assert not snapshot(db).held
    before = db.value("SELECT COUNT(*) FROM audit")
    assert main(["publish", "hold", str(location)]) == 0
    snap = snapshot(db)
    assert snap.held and snap.public_boards() == frozenset()
    assert all(snap.pair_boards(p) == frozenset() for p in snap.session.pairs)
    assert db.value("SELECT actor FROM audit ORDER BY id DESC LIMIT 1") == "director"
    assert "publication" not in setup.table_config(db, "T1")["set"]  # no terminal's business
    assert main(["publish", "hold", str(location)]) == 0  # again: nothing to change
    assert db.value("SELECT COUNT(*) FROM audit") == before + 1
    assert main(["publish", "release", str(location)]) == 0
    assert snapshot(db).public_boards() == set(range(1, 7))
    out = capsys.readouterr().out
    assert "results held\n" in out and "held already" in out and "released" in out


def test_a_board_held_alone_is_on_nobody_s_view_until_released(event, capsys):
    db, movement, location = event
    for table in (1, 2, 3):
        for rnd in (1, 2):
            play(db, movement, table, rnd)
    snap = snapshot(db)
    board = min(snap.public_boards())
    owners = [p for p in snap.session.pairs if board in snap.pair_boards(p)]
    before = db.value("SELECT COUNT(*) FROM audit")
    assert main(["publish", "hold", str(location), "--board", str(board)]) == 0
    snap = snapshot(db)
    assert not snap.held and board not in snap.public_boards() and snap.public_boards()
    assert owners and all(board not in snap.pair_boards(p) for p in owners)
    assert board not in snap.everyone.lines  # nor in the public rankings
    assert "held_boards" not in setup.table_config(db, "T1")["set"]
    assert db.value("SELECT COUNT(*) FROM audit") == before + 1
    with WebServer(location) as web:
        assert "Директор приостановил сдачи: %d" % board in get(web.url + "/ru/")[1]
        assert get(web.url + "/ru/board/%d" % board)[0] == 404
        assert get(web.url + "/ru/board/%d" % max(snap.public_boards()))[0] == 200
    # a board the session does not play: refused, nothing written
    assert main(["publish", "hold", str(location), "--board", "99"]) == 2
    assert db.value("SELECT COUNT(*) FROM audit") == before + 1
    assert main(["--lang", "ru", "publish", "release", str(location), "--board",
                 str(board)]) == 0
    assert board in snapshot(db).public_boards()
    out = capsys.readouterr()
    assert "board %d held" % board in out.out and "board 99: not played" in out.err
    assert "сдача %d открыта" % board in out.out
    two = sorted(snapshot(db).public_boards())[:2]
    args = ["--lang", "ru", "publish", "hold", str(location), "--board", str(two[0]),
            "--board", str(two[1])]
    assert main(args) == 0 and main(args) == 0  # the second changes nothing
    said = capsys.readouterr().out.splitlines()
    assert said == ["publish: сдачи %d, %d приостановлены" % tuple(two),
                    "publish: сдачи %d, %d уже приостановлены" % tuple(two)]


def test_each_pair_s_link_carries_its_own_key(event, capsys):
    """A key opens its pair's view in its session only: a link of the first session opened
    the view of the pair with that number in the next (another pair, as often as not)."""
    db, movement, location = event
    assert main(["publish", "links", str(location), "--url", "http://club:8080/",
                 "--lang", "ru"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "1\thttp://club:8080/ru/my/1/%s" % link_key(db, "1")
    assert len({ln.rsplit("/", 1)[1] for ln in lines}) == len(lines) == 6
    snap = snapshot(db)
    assert snap.check_key("1", link_key(db, "1"))
    assert not snap.check_key("2", link_key(db, "1")) and not snap.check_key("9", "x")
    audit = db.value("SELECT COUNT(*) FROM audit")
    assert main(["publish", "links", str(location), "--url", "javascript:x"]) == 2
    assert db.value("SELECT COUNT(*) FROM audit") == audit
    first = link_key(db, "1")
    setup.add_session(db, setup.the_event(db)[0], 2, movement)
    second = snapshot(db)
    assert "1" in second.session.pairs and second.check_key("1", link_key(db, "1"))
    assert link_key(db, "1") != first and not second.check_key("1", first)


def test_the_server_answers_hostile_requests_with_a_404_page_and_escapes_names(tmp_path):
    location = tmp_path / "event.db"
    db, movement = evening(location)
    names = tmp_path / "names.csv"
    names.write_text("section,pair,player1,player2\n"
                     "A,1,<script>alert(1)</script>,Ивaнов & Co\n", encoding="utf-8")
    assert main(["names", "import", str(location), str(names)]) == 0
    for table in (1, 2, 3):
        play(db, movement, table, 1)
        play(db, movement, table, 2)
    key = link_key(db, "1")
    with WebServer(location) as web:
        status, body = get(web.url + "/ru/")
        assert status == 200 and "Итоги онлайн" in body
        assert "<script>alert(1)</script>" not in body
        assert html.escape("<script>alert(1)</script>", quote=False) in body
        assert "Ивaнов &amp; Co" in body
        assert "Live results" in get(web.url + "/en/")[1]
        assert get(web.url + "/en/board/3")[0] == 200
        assert get(web.url + "/ru/my/1/" + key)[0] == 200
        wrong = get(web.url + "/ru/my/1/" + "0" * len(key))
        unknown = get(web.url + "/ru/my/99/" + key)
        assert wrong[0] == unknown[0] == 404
        assert _live(wrong[1]) == _live(unknown[1])  # a wrong key tells nothing
        for path in ("/de/", "/ru/board/7", "/ru/board/0", "/ru/board/-1", "/ru/board/1x",
                     "/ru/board/" + "9" * 5000, "/ru/board/%D9%A3", "/ru/pair/99",
                     "/ru/pair/" + "1" * 40, "/ru/pair/%3Cb%3E", "/ru/my/1/" + key * 3,
                     "/ru/my/1/%s/board/9" % key, "/ru/my/1/%D0%B9", "/ru/my/1/%FF",
                     "/ru/my/1/%C3%A9/board/1", "/ru/../etc/passwd", "/nothing"):
            status, body = get(web.url + path)
            assert status == 404, path
            assert "Нет такой страницы" in body or "No such page" in body, path
            assert "<b>" not in body
        assert "No such page" in get(web.url + "/en/board/99")[1]
    db.close()


def _live(body):
    return re.search(r'<main id="live".*?</main>', body, re.S).group(0)


def test_web_refuses_a_bad_port_and_a_missing_event(tmp_path, capsys):
    assert main(["web", str(tmp_path / "none.db"), "--port", "8080"]) == 2
    assert main(["web", str(tmp_path / "none.db"), "--port", "70000"]) == 2
    err = capsys.readouterr().err
    assert "no such event database" in err and "70000" in err
    assert not (tmp_path / "none.db").exists()
    for bad in (["--streams", "0"], ["--streams", "100001"], ["--streams-per-address", "-1"]):
        assert main(["web", str(tmp_path / "none.db"), "--port", "8080"] + bad) == 2
        assert "--streams 1..100000 and --streams-per-address 0 or more" in \
            capsys.readouterr().err


def test_a_commit_by_another_process_reaches_the_postgresql_watcher_before_its_poll(pg_url):
    """On PostgreSQL the page's watcher listens for the notice every write transaction's
    commit sends: a change committed by another process (`host-sync publish hold` here, a
    station's sync the same way) reaches it at once, where its poll (a minute here) would
    find it only a minute later."""
    import asyncio
    import subprocess
    import sys
    import time

    from host_sync.web.app import Watcher

    evening(pg_url)[0].close()
    watcher = Watcher(pg_url, poll=60)

    async def hold_from_another_process():
        watcher.start(asyncio.get_running_loop())
        try:
            marker = watcher.snapshot.marker
            assert not watcher.snapshot.held
            await asyncio.to_thread(subprocess.run, [
                sys.executable, "-m", "host_sync", "publish", "hold", pg_url], check=True,
                capture_output=True, timeout=60)
            committed = time.monotonic()
            snap = await watcher.changed(marker, 10)
            return snap, time.monotonic() - committed
        finally:
            watcher.stop()

    snap, late = asyncio.run(hold_from_another_process())
    assert snap is not None and snap.held, "the watcher did not hear of the commit"
    assert late < 2, late


def test_a_sync_that_changes_nothing_shown_sends_open_pages_no_change(tmp_path):
    """The watcher reads the moved marker, but sends the streams nothing until a line
    changes: a phone fetches its page once a result lands, not at every commit."""
    import asyncio

    from host_sync.web.app import Watcher

    location = str(tmp_path / "event.db")
    db, movement = evening(location)
    watcher = Watcher(location, poll=0.05)

    async def flag_then_result():
        watcher.start(asyncio.get_running_loop())
        try:
            marker = watcher.snapshot.marker
            await asyncio.sleep(0.3)  # the first Snapshot's own publication lands first
            flag_from(db, "T1")  # db stays in its thread (SQLite's rule)
            quiet = await watcher.changed(marker, 1.0)
            play(db, movement, 1, 1)
            return quiet, await watcher.changed(marker, 5)
        finally:
            watcher.stop()

    quiet, snap = asyncio.run(flag_then_result())
    assert quiet is None, "a commit that changed nothing shown was sent to the pages"
    assert snap is not None and snap.so_far.lines
    db.close()


def test_a_flood_of_change_notices_rebuilds_nothing_and_a_real_change_still_arrives(
        pg_url, monkeypatch):
    """The notice carries nothing and anyone with a login to the database can send it: the
    watcher only reads the change marker on it, so 500 notices with no change build no new
    Snapshot, and the next real commit is still seen at once."""
    import asyncio

    import psycopg

    from host_sync.event import postgres
    from host_sync.web import app
    from host_sync.web.live import set_held

    built = []
    monkeypatch.setattr(app, "snapshot", lambda *a: built.append(1) or snapshot(*a))
    db = evening(pg_url)[0]
    watcher = app.Watcher(pg_url, poll=60)

    async def flood_then_hold():
        watcher.start(asyncio.get_running_loop())
        try:
            marker = watcher.snapshot.marker
            await asyncio.sleep(0.3)  # the first Snapshot's own publication lands first
            with psycopg.connect(pg_url, autocommit=True) as other:
                for _ in range(500):
                    other.execute("NOTIFY " + postgres.CHANNEL)
            assert await watcher.changed(marker, 1.5) is None  # nothing changed: nothing new
            first = len(built)
            set_held(db, True)
            snap = await watcher.changed(marker, 2)
            return first, snap
        finally:
            watcher.stop()

    first, snap = asyncio.run(flood_then_hold())
    assert first == 1, "notices without a change rebuilt the page %d times" % (first - 1)
    assert snap is not None and snap.held and len(built) == 2
    db.close()


def test_two_directors_holding_a_board_each_at_once_both_stay_held(event, monkeypatch):
    """Two `publish hold --board` at once (two machines): the second read the boards held
    before the first wrote, and its write released the first's board without anyone saying
    so. Read and write are one transaction now: the second waits for the first."""
    from host_sync.web import live

    db, movement, location = event
    first, second = sorted(snapshot(db).session.boards)[:2]
    real, done = live.held_boards, []

    def other_director():
        other = open_db(location)
        try:
            done.append(set_held_boards(other, [second], True))
        finally:
            other.close()

    def held_then_the_other(d, event_id):
        seen = real(d, event_id)
        if d is db and not done:  # between this director's read and write, the other's
            monkeypatch.setattr(live, "held_boards", real)
            thread = threading.Thread(target=other_director)
            thread.start()
            thread.join(0.5)  # it waits for this transaction, or (before) was done by now
            threads.append(thread)
        return seen

    threads = []
    monkeypatch.setattr(live, "held_boards", held_then_the_other)
    assert set_held_boards(db, [first], True)
    threads[0].join(30)
    assert done == [True] and live.held_boards(db, setup.the_event(db)[0]) == {first, second}


def test_one_client_opening_many_streams_cannot_take_the_page_from_everyone(tmp_path):
    """Each open page holds a change stream and a descriptor; one laptop opening a thousand
    took every descriptor, and no phone got even the rankings. Streams beyond the caps are a
    503 with Retry-After, the pages still load, and a stream closed frees its place."""
    location = tmp_path / "event.db"
    evening(location)[0].close()
    with WebServer(location, "--streams", "3", "--streams-per-address", "2") as web:
        one, two = stream(web.port), stream(web.port)
        assert one.status == two.status == 200
        refused = stream(web.port)  # this address has its two
        assert refused.status == 503 and refused.getheader("Retry-After")
        other = stream(web.port, "127.0.0.2")  # another client address
        assert other.status == 200
        assert stream(web.port, "127.0.0.3").status == 503  # three in all
        assert get(web.url + "/ru/")[0] == 200
        one.connection.close()
        deadline = time.monotonic() + 20  # the server notices the closed stream
        while (again := stream(web.port)).status == 503 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert again.status == 200
        for r in (two, other, again):
            r.connection.close()


def stream(port, source="127.0.0.1"):
    """The response to a change stream's request from address `source` (its first event
    read when it is one)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                      source_address=(source, 0))
    conn.request("GET", "/events")
    response = conn.getresponse()
    response.connection = conn
    if response.status == 200:
        assert response.readline().startswith(b"event: change")
    else:
        response.read()
        conn.close()
    return response
