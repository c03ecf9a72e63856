"""`host-sync web` (the live results page) and `host-sync publish` (the director's hold and
release, and the pairs' own links).

Hold and release are commands, not a web endpoint: the director already works where the event
database is (flags, rulings, corrections are commands too), so holding needs no password sent
over a club's plain-HTTP network and none in any address; the hold is a setting of the event,
audited, and every open page follows it within a second, from every `web` process on the
event. A pair's own view is opened by the link `publish links` prints for it (its key is an
HMAC of the session and pair under the event's secret: one pair's link opens no other pair's
view, in this session or another).
"""

import resource

from host_sync.cli.lang import EVENT_DB, lang_option, say, tr
from host_sync.cli.setup import actions
from host_sync.errors import Refused
from host_sync.event.db import open_db
from host_sync.event.results import session_from_db
from host_sync.event.setup import session_id, the_event
from host_sync.scoring.board import METHODS
from host_sync.web.app import MAX_STREAMS, STREAMS_PER_ADDRESS, Watcher, create_app
from host_sync.web.live import pair_key, set_held, set_held_boards

MAX_PORT = 65535
MAX_STREAMS_ASKED = 100_000
SPARE_FILES = 64  # descriptors kept for the database, page requests and the server itself


def _descriptors(wanted):
    """Raise this process's open-files limit towards `wanted`, as far as its hard limit lets
    it (a shell's soft limit is often 1024): the limit now. Every open page's change stream
    holds a descriptor."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft


def run_web(args, out, err):
    import uvicorn  # the server is needed by this command only

    if not 0 < args.port <= MAX_PORT:
        raise Refused("--port %d: expected 1..%d" % (args.port, MAX_PORT),
                      ru="--port %d: нужен номер от 1 до %d" % (args.port, MAX_PORT))
    if not 0 < args.streams <= MAX_STREAMS_ASKED or not 0 <= args.streams_per_address:
        raise Refused("--streams 1..%d and --streams-per-address 0 or more" % (
            MAX_STREAMS_ASKED), ru="--streams от 1 до %d, --streams-per-address от 0" % (
            MAX_STREAMS_ASKED))
    with open_db(args.event) as db:  # a wrong file or URL is refused before serving
        session_from_db(db, args.session)
    streams = min(args.streams, _descriptors(args.streams + SPARE_FILES) - SPARE_FILES)
    if streams < args.streams:
        err.write(say(args, "web: %d pages kept up to date at once (the open-files limit)\n",
                      "web: обновляются %d страниц одновременно (предел открытых файлов)\n")
                  % streams)
    app = create_app(Watcher(args.event, args.session, args.method), max(streams, 1),
                     args.streams_per_address)
    out.write(say(args, "web: http://%s:%d/ru/ (Ctrl-C stops it)\n",
                  "web: http://%s:%d/ru/ (Ctrl-C — остановить)\n") % (args.host, args.port))
    out.flush()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", access_log=False,
                timeout_graceful_shutdown=1)
    return 0


def run_hold(args, out, err):
    return _publication(args, out, True)


def run_release(args, out, err):
    return _publication(args, out, False)


def _publication(args, out, held):
    with open_db(args.event) as db:
        if args.board:
            changed = set_held_boards(db, args.board, held)
        else:
            changed = set_held(db, held)
    out.write("publish: %s\n" % _publication_line(args, held, changed))
    return 0


def _publication_line(args, held, changed):
    """One whole sentence per case: Russian agrees the verb with one board, several or all."""
    boards = ", ".join(map(str, args.board or ()))
    if not args.board:
        subject_en, subject_ru, form = "results", "результаты", "plural"
    elif len(args.board) == 1:
        subject_en, subject_ru, form = "board " + boards, "сдача " + boards, "one"
    else:
        subject_en, subject_ru, form = "boards " + boards, "сдачи " + boards, "plural"
    verb_ru = {("one", True): "приостановлена", ("one", False): "открыта",
               ("plural", True): "приостановлены", ("plural", False): "открыты"}[form, held]
    return say(args, "%s %s%s" % (subject_en, "held" if held else "released",
                                  "" if changed else " already"),
               "%s%s %s" % (subject_ru, "" if changed else " уже", verb_ru))


def run_links(args, out, err):
    base = args.url.rstrip("/")
    if not base.startswith(("http://", "https://")):
        raise Refused("--url %s: expected http://HOST:PORT" % args.url,
                      ru="--url %s: нужен адрес вида http://HOST:PORT" % args.url)
    with open_db(args.event) as db:
        event_id, _, key = the_event(db)
        sid = session_id(db, event_id, args.session)
        pairs = sorted(session_from_db(db, args.session).pairs)
    for label in pairs:
        out.write("%s\t%s/%s/my/%s/%s\n" % (label, base, args.lang, label,
                                            pair_key(key, sid, label)))
    return 0


def add_commands(sub):
    web = sub.add_parser(
        "web", help=tr("the live results page of an event", "страница итогов онлайн"),
        description=tr(
            "Serves rankings, travellers and scorecards of EVENT (an event database EVENT.db or "
            "a postgresql:// URL), in Russian and English, updated in the open pages after "
            "every sync; a board is shown when every table has played it, and to a pair (by "
            "its own link) when that pair has.",
            "Показывает таблицу, протоколы и карточки пар турнира EVENT (база EVENT.db или "
            "адрес postgresql://) по-русски и по-английски и обновляет открытые страницы после "
            "каждой синхронизации; сдача видна всем, когда её сыграли все столы, а паре (по её "
            "ссылке) — когда её сыграла эта пара."))
    web.add_argument("event", metavar="EVENT", help=EVENT_DB)
    web.add_argument("--port", type=int, required=True,
                     help=tr("the TCP port to serve on", "порт TCP для страницы"))
    web.add_argument("--host", default="127.0.0.1", help=tr(
        "the address to listen on (0.0.0.0: every network of the machine)",
        "адрес, на котором слушать (0.0.0.0: все сети машины)"))
    web.add_argument("--session", type=int, metavar="N", help=_SESSION)
    web.add_argument("--method", choices=METHODS, help=tr(
        "the scoring method (default: matchpoints)", "метод подсчёта (по умолчанию: МП)"))
    web.add_argument("--streams", type=int, default=MAX_STREAMS, metavar="N", help=tr(
        "pages kept up to date at once (default %d); more are served without updates"
        % MAX_STREAMS, "сколько страниц обновлять одновременно (по умолчанию %d); остальные "
        "показываются без обновлений" % MAX_STREAMS))
    web.add_argument("--streams-per-address", type=int, default=STREAMS_PER_ADDRESS,
                     metavar="N", help=tr(
                         "of those, from one client address (default %d; 0: no cap, behind a "
                         "reverse proxy)" % STREAMS_PER_ADDRESS, "из них с одного адреса (по "
                         "умолчанию %d; 0 — без ограничения, за обратным прокси)"
                         % STREAMS_PER_ADDRESS))
    web.set_defaults(run=run_web)
    publish = sub.add_parser("publish", help=tr(
        "hold or release the live results; pairs' links",
        "приостановить или открыть итоги онлайн; ссылки пар"))
    publish_sub = actions(publish, "publish_command")
    hold = publish_sub.add_parser("hold", help=tr("show no result on the live pages",
                                                  "скрыть результаты на страницах онлайн"))
    hold.set_defaults(run=run_hold)
    release = publish_sub.add_parser("release", help=tr("show the results again",
                                                        "снова показать результаты"))
    release.set_defaults(run=run_release)
    links = publish_sub.add_parser("links", help=tr("print each pair's own link",
                                                    "напечатать ссылку каждой пары"))
    links.add_argument("--url", required=True, help=tr(
        "the live page's address, http://HOST:PORT", "адрес страницы онлайн, http://HOST:PORT"))
    lang_option(links)
    links.add_argument("--session", type=int, metavar="N", help=_SESSION)
    links.set_defaults(run=run_links)
    for p in (hold, release, links):
        p.add_argument("event", metavar="EVENT", help=EVENT_DB)
    for p in (hold, release):
        p.add_argument("--board", type=int, action="append", metavar="N", help=tr(
            "only this board (repeatable); a held board is on nobody's page",
            "только эта сдача (можно несколько раз); приостановленной сдачи нет ни на одной "
            "странице"))


_SESSION = tr("default: the current one", "по умолчанию: текущая")
