"""The live results page: a Starlette application that serves the Snapshot (live.py) of one
event, and pushes a server-sent event to every open page when it changes.

One thread (`Watcher`) owns the database connection (SQLite connections stay in the thread that
made them): every POLL_S it reads the change marker, and when it has moved it builds a new
Snapshot and, if it shows something new (live.snapshot), hands it to the event loop. On
PostgreSQL it also listens for the change notice the server sends at the commit of every
transaction that moved the marker (postgres.Listener), so a sync by another station's
process reaches the page at once, not at the next poll. Requests read the latest Snapshot
and never touch the database, so a hundred phones cost the stations nothing. A page listens
on /events; on a `change` whose marker differs from its own it fetches its own address again and
swaps the `#live` element (no reload, no build step: a few lines of JavaScript in base.html).

Every request parameter is hostile: the language is one of LANGUAGES, a board number one to
four digits, a pair label at most MAX_LABEL characters and a pair of the session, a key at most
PAIR_KEY_HEX characters; anything else, and a board under embargo, is a 404 page in the
visitor's language. Jinja2 autoescapes every value.
"""

import asyncio
import re
import sqlite3
import threading
import time
from collections import Counter
from contextlib import asynccontextmanager

from jinja2 import ChoiceLoader, Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, StreamingResponse
from starlette.routing import Route

from host_sync.errors import Refused
from host_sync.event import postgres
from host_sync.event.db import open_db
from host_sync.reports.i18n import LANGUAGES
from host_sync.reports.notation import Notation, suits
from host_sync.reports.render import TEAM_GLOBALS, adjusted_text, hand_cells, points, scorecard
from host_sync.web.live import PAIR_KEY_HEX, change_marker, snapshot
from host_sync.web.words import words

POLL_S = 0.5  # how often the watcher reads the change marker
STOP_S = 0.5  # at most this long between two looks at the stop signal while listening
KEEPALIVE_S = 15  # a comment line on an idle stream, so proxies keep it open
MAX_STREAMS = 400  # change streams open at once (a room of phones; `web` may raise it)
STREAMS_PER_ADDRESS = 16  # from one client address: a phone's tabs, not a laptop's thousand
MAX_LABEL = 8
BOARD = re.compile(r"[0-9]{1,4}")
NO_STORE = {"Cache-Control": "no-store"}


class Watcher:
    """The thread that reads the event database and the latest Snapshot it built."""

    def __init__(self, location, session=None, method=None, poll=POLL_S):
        self.location, self.session, self.method, self.poll = location, session, method, poll
        self.snapshot = None
        self.error = None  # why the last read failed (the page keeps the last Snapshot)
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = None
        self._loop = None
        self._changed = None

    def start(self, loop):
        self._loop = loop
        self._changed = asyncio.Event()
        self._thread = threading.Thread(target=self._run, name="web-watcher", daemon=True)
        self._thread.start()
        self._ready.wait(30)
        if self.snapshot is None:
            raise Refused("%s: cannot be read: %s" % (self.location, self.error),
                          ru="%s: не удаётся прочитать: %s" % (self.location, self.error))

    def stop(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    async def changed(self, marker, timeout):
        """The Snapshot once it differs from `marker` (None after `timeout` seconds)."""
        if self.snapshot.marker != marker:
            return self.snapshot
        try:
            await asyncio.wait_for(self._changed.wait(), timeout)
        except asyncio.TimeoutError:
            return None
        return self.snapshot

    def _publish(self, snap):
        self.snapshot = snap
        self._changed.set()  # wakes every stream waiting now; later ones wait on a new one
        self._changed = asyncio.Event()

    def _run(self):
        db = listener = built = None
        last = None
        while not self._stop.is_set():
            try:
                db = db or open_db(self.location)
                if listener is None and db.postgres:
                    listener = postgres.Listener(self.location)
                marker = change_marker(db)
                if marker != last:
                    snap = snapshot(db, self.session, self.method, built)
                    last = marker
                    if snap is not built:
                        built = snap
                        self._loop.call_soon_threadsafe(self._publish, snap)
                    if not self._ready.is_set():
                        self.snapshot = snap
                self.error = None
            except (Refused, sqlite3.Error, postgres.Error) as e:
                self.error = str(e)
                for conn in (db, listener):  # a connection that failed once is opened again
                    if conn is not None:
                        conn.close()
                db = listener = None
            self._ready.set()
            self._wait(listener)
        for conn in (db, listener):
            if conn is not None:
                conn.close()

    def _wait(self, listener):
        """Until the next look at the change marker: `poll` seconds, or on PostgreSQL until a
        station's commit changed the event (its change notice), whichever comes first."""
        if listener is None:
            self._stop.wait(self.poll)
            return
        deadline = time.monotonic() + self.poll
        try:
            while not self._stop.is_set() and time.monotonic() < deadline:
                if listener.wait(min(STOP_S, max(0.0, deadline - time.monotonic()))):
                    return
        except postgres.Error as e:  # the next turn opens the connections again
            self.error = str(e)
            self._stop.wait(self.poll)


def _environment():
    """The live page's templates, and the report's partials they include (teams.html)."""
    env = Environment(loader=ChoiceLoader([PackageLoader("host_sync.web", "templates"),
                                           PackageLoader("host_sync.reports", "templates")]),
                      autoescape=select_autoescape(["html"]))
    env.globals.update(points=points, adjusted=adjusted_text, **TEAM_GLOBALS)
    env.filters["suits"] = suits
    return env


def create_app(watcher, streams=MAX_STREAMS, per_address=STREAMS_PER_ADDRESS):
    """The ASGI application of one event; `watcher` is started and stopped with it.

    At most `streams` change streams are open at once, and `per_address` from one client
    address (0: no such cap, for a server behind a reverse proxy, where every client has the
    proxy's): each holds a connection and a file descriptor for as long as the page is open,
    and one laptop opening a thousand took the descriptors every page needs, so no phone got
    even the rankings. A stream beyond a cap is a 503 with Retry-After; the page itself still
    loads and can be reloaded by hand."""
    env = _environment()
    notation = {lg: Notation(lg) for lg in LANGUAGES}
    open_streams = Counter()  # client address -> its open change streams

    def page(request, template, status=200, own_view=False, **values):
        """A page of everyone's view, or of a pair's own (own_view): the marker it carries is
        that view's, so that it fetches itself again only when that view changed."""
        lang = values.pop("lang")
        snap = watcher.snapshot
        body = env.get_template(template).render(
            t=words(lang), n=notation[lang], lang=lang, snap=snap, session=snap.session,
            view="own" if own_view else "public",
            marker=snap.marker if own_view else snap.public_marker,
            other={lg: "/%s/%s" % (lg, request.url.path.split("/", 2)[2])
                   for lg in LANGUAGES}, **values)
        return HTMLResponse(body, status, headers=NO_STORE)

    def language(request):
        lang = request.path_params["lang"]
        if lang not in LANGUAGES:
            raise HTTPException(404)
        return lang

    def board_number(request, allowed):
        text = request.path_params["board"]
        if not BOARD.fullmatch(text) or int(text) not in allowed:
            raise HTTPException(404)
        return int(text)

    def pair_label(request):
        label = request.path_params["pair"]
        if len(label) > MAX_LABEL or label not in watcher.snapshot.session.pairs:
            raise HTTPException(404)
        return label

    def own_pair(request):
        """The pair of an own-view link: an unknown pair and a wrong key look alike."""
        label = request.path_params["pair"]
        key = request.path_params["key"]
        if len(label) > MAX_LABEL or len(key) > PAIR_KEY_HEX or \
                not watcher.snapshot.check_key(label, key):
            raise HTTPException(404)
        return label

    async def home(request):
        return RedirectResponse("/%s/" % LANGUAGES[0], 303)

    async def ranking(request):
        lang = language(request)
        snap = watcher.snapshot
        fields = [] if snap.held else list(snap.everyone.fields().items())
        names = {p: " – ".join(snap.session.pair(p).names) for p in snap.session.pairs}
        return page(request, "ranking.html", lang=lang, fields=fields, names=names,
                    teams=None if snap.held else snap.teams,
                    event=None if snap.held else snap.event,
                    percent=snap.session.method == "mp",
                    boards=sorted(snap.public_boards()))

    async def board(request):
        lang = language(request)
        snap = watcher.snapshot
        number = board_number(request, snap.public_boards())
        return _board_page(request, lang, snap.everyone, number, "/%s/board/" % lang, False)

    async def own_board(request):
        lang = language(request)
        label = own_pair(request)
        snap = watcher.snapshot
        number = board_number(request, snap.pair_boards(label))
        return _board_page(request, lang, snap.so_far, number,
                           "/%s/my/%s/%s/board/" % (lang, label, request.path_params["key"]),
                           True)

    def _board_page(request, lang, scored, number, base, own):
        b = watcher.snapshot.session.board(number)
        return page(request, "board.html", own_view=own, lang=lang, number=number,
                    lines=scored.lines.get(number, []), hands=hand_cells(b.deal, notation[lang]),
                    dealer="NESW"[b.dealer_seat()], vul=b.vul(), base=base)

    async def pair(request):
        lang = language(request)
        label = pair_label(request)
        snap = watcher.snapshot
        return _pair_page(request, lang, label, snap.everyone, snap.public_boards(),
                          "/%s/board/" % lang, own=False)

    async def own(request):
        lang = language(request)
        label = own_pair(request)
        snap = watcher.snapshot
        return _pair_page(request, lang, label, snap.so_far, snap.pair_boards(label),
                          "/%s/my/%s/%s/board/" % (lang, label, request.path_params["key"]),
                          own=True)

    def _pair_page(request, lang, label, scored, boards, base, own):
        snap = watcher.snapshot
        standing = None if snap.held else next(
            (s for s in snap.everyone.standings if s.pair == label), None)
        return page(request, "pair.html", own_view=own, lang=lang, pair=label, own=own,
                    base=base, names=" – ".join(snap.session.pair(label).names),
                    rows=scorecard(scored, label, boards), standing=standing)

    async def events(request):
        """Server-sent events: `change` with the markers now (everyone's view's, then the
        pairs' own views'), then at every change; a 503 beyond the caps (create_app)."""
        address = request.client.host if request.client else ""
        if sum(open_streams.values()) >= streams or (
                per_address and open_streams[address] >= per_address):
            return PlainTextResponse("too many open pages\n", 503,
                                     headers={"Retry-After": str(KEEPALIVE_S)})
        open_streams[address] += 1  # counted from here, not from the stream's first step

        async def stream():
            try:
                marker = None
                while not await request.is_disconnected():
                    snap = await watcher.changed(marker, KEEPALIVE_S)
                    if snap is None:
                        yield ": keepalive\n\n"
                        continue
                    marker = snap.marker
                    yield "event: change\ndata: %d %d\n\n" % (snap.public_marker, marker)
            finally:
                open_streams[address] -= 1
                if not open_streams[address]:
                    del open_streams[address]
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache",
                                          "X-Accel-Buffering": "no"})

    async def not_found(request, exc):
        first = request.url.path.strip("/").split("/", 1)[0]
        lang = first if first in LANGUAGES else LANGUAGES[0]
        snap = watcher.snapshot  # it follows every change: the board may be shown soon
        env_page = env.get_template("missing.html").render(
            t=words(lang), lang=lang, snap=snap, session=snap.session, view="own",
            marker=snap.marker, other={lg: "/%s/" % lg for lg in LANGUAGES})
        return HTMLResponse(env_page, exc.status_code, headers=NO_STORE)

    @asynccontextmanager
    async def lifespan(app):
        watcher.start(asyncio.get_running_loop())
        try:
            yield
        finally:
            watcher.stop()

    routes = [Route("/", home), Route("/events", events),
              Route("/{lang}/", ranking), Route("/{lang}/board/{board}", board),
              Route("/{lang}/pair/{pair}", pair), Route("/{lang}/my/{pair}/{key}", own),
              Route("/{lang}/my/{pair}/{key}/board/{board}", own_board)]
    return Starlette(routes=routes, lifespan=lifespan,
                     exception_handlers={HTTPException: not_found})
