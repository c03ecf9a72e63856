"""`host-sync demo` and `rehearse`: a whole simulated evening (host_sync.demo.run), from an
empty folder to the published results, or the scorer's own event played on a copy of it
(host_sync.demo.rehearse)."""

from rich.console import Console

from host_sync.cli.lang import EVENT_DB, lang_option, tr
from host_sync.demo.rehearse import Rehearsal
from host_sync.demo.run import Demo, DemoFailed
from host_sync.demo.terminals import TerminalFailed
from host_sync.errors import Refused
from host_sync.event import postgres


def add_commands(sub):
    p = sub.add_parser(
        "demo", help=tr("a whole simulated session: terminals, players, director, sync, results",
                        "целая смоделированная сессия: терминалы, игроки, судья, синхронизация, "
                        "результаты"),
        description=tr(
            "Sets up an event in OUT, runs one micropython terminal per table on a "
            "pseudo-terminal, simulated players and a director play every round, the station "
            "syncs after each round; then scores, ranks, writes the report, PBN, USEBIO and CSV "
            "files, and checks the database against the simulated truth (exit status 1 if they "
            "differ).",
            "Создаёт турнир в OUT, запускает по терминалу micropython на псевдотерминале на "
            "каждый стол, смоделированные игроки и судья играют все раунды, станция "
            "синхронизирует после каждого раунда; затем подсчёт, таблицы, отчёт, файлы PBN, "
            "USEBIO и CSV и сверка базы с моделью (код выхода 1 при расхождении)."))
    p.add_argument("--tables", type=int, help=tr("tables (default 8)",
                                                 "столов (по умолчанию 8)"))
    p.add_argument("--teams", type=int, metavar="N", help=tr(
        "a teams event instead: a round robin of N teams (two tables a match), scored in "
        "IMPs and VPs", "командный турнир: круговой из N команд (матч за двумя столами), "
        "подсчёт в ИМПах и ВП"))
    p.add_argument("--rounds", type=int, default=3, help=tr("rounds (default 3)",
                                                            "раундов (по умолчанию 3)"))
    p.add_argument("--boards-per-round", type=int, default=3, help=tr(
        "boards per round (default 3)", "сдач в раунде (по умолчанию 3)"))
    p.add_argument("--seed", default="1", help=tr("the same seed plays the same session",
                                                  "то же зерно играет ту же сессию"))
    p.add_argument("--out", default="demo-out", help=tr(
        "the folder for everything (demo-out)", "папка для всего (demo-out)"))
    p.add_argument("--db", metavar="URL", help=tr(
        "the event on PostgreSQL (postgresql://user@host/dbname, an empty database) instead "
        "of OUT/event.db", "турнир в PostgreSQL (postgresql://user@host/dbname, пустая база) "
        "вместо OUT/event.db"))
    lang_option(p)
    p.add_argument("--irregular", type=float, default=0.25, help=tr(
        "share of boards with an irregular call (default 0.25)",
        "доля сдач с нарушением в торговле (по умолчанию 0.25)"))
    p.set_defaults(run=run_demo)
    add_rehearse(sub)


def add_rehearse(sub):
    p = sub.add_parser(
        "rehearse", help=tr("rehearse your own event without hardware, on a copy",
                            "отрепетировать свой турнир без оборудования, на копии"),
        description=tr(
            "Copies EVENT.db (made with event create, names and deals imported) to OUT and "
            "plays its current session there as the demo does: a micropython terminal per "
            "table on a pseudo-terminal, simulated players and director, a sync after every "
            "round, then the rankings, report, PBN, USEBIO and CSV, and the check against the "
            "simulated truth. EVENT.db itself is only read.",
            "Копирует EVENT.db (созданную event create, с импортированными именами и "
            "раскладами) в OUT и играет там её текущую сессию, как demo: терминал micropython "
            "на псевдотерминале за каждым столом, смоделированные игроки и судья, "
            "синхронизация после каждого раунда, затем таблицы, отчёт, PBN, USEBIO и CSV и "
            "сверка с моделью. Сам EVENT.db только читается."))
    p.add_argument("db", metavar="EVENT.db", help=EVENT_DB)
    p.add_argument("--rounds", type=int, help=tr("rounds to play (default: all)",
                                                 "сколько раундов играть (по умолчанию все)"))
    p.add_argument("--out", default="rehearsal", help=tr(
        "the folder for the copy and the files (rehearsal)",
        "папка для копии и файлов (rehearsal)"))
    p.add_argument("--seed", default="1", help=tr("the same seed plays the same evening",
                                                  "то же зерно играет тот же вечер"))
    p.add_argument("--irregular", type=float, default=0.25, help=tr(
        "share of boards with an irregular call (default 0.25)",
        "доля сдач с нарушением в торговле (по умолчанию 0.25)"))
    p.set_defaults(run=run_rehearse)


def run_rehearse(args, out, err):
    rehearsal = Rehearsal(args.db, args.out, args.rounds, args.seed, args.lang,
                          args.irregular, console=Console(file=out))
    return _play(rehearsal, "rehearse", err)


def _play(evening, command, err):
    """Run a simulated evening; a terminal or sync that stopped it is said, exit 1."""
    try:
        return evening.run()
    except (DemoFailed, TerminalFailed) as e:
        err.write("%s: %s\n" % (command, e))
        return 1


def run_demo(args, out, err):
    if args.teams is not None and (args.tables is not None or not 2 <= args.teams <= 40):
        raise Refused("--teams is 2 to 40, and the tables follow from it (no --tables)",
                      ru="--teams от 2 до 40, а столы следуют из него (без --tables)")
    tables = 8 if args.tables is None else args.tables
    if tables < 3 or args.rounds < 1 or args.boards_per_round < 1:
        raise Refused("--tables is 3 or more, --rounds and --boards-per-round 1 or more",
                      ru="--tables от 3, --rounds и --boards-per-round от 1")
    if args.db is not None and not postgres.is_url(args.db):
        raise Refused("--db takes a postgresql:// URL (the SQLite event is OUT/event.db)",
                      ru="--db принимает адрес postgresql:// (турнир SQLite — это OUT/event.db)")
    demo = Demo(args.out, tables, args.rounds, args.boards_per_round, args.seed,
                args.lang, args.irregular, console=Console(file=out), db=args.db,
                teams=args.teams)
    return _play(demo, "demo", err)
