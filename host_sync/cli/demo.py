"""`host-sync demo`: a whole simulated evening (host_sync.demo.run), from an empty folder to
the published results."""

from rich.console import Console

from host_sync.cli.lang import lang_option, tr
from host_sync.demo.run import Demo, DemoFailed
from host_sync.demo.terminals import TerminalFailed
from host_sync.errors import Refused


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
    p.add_argument("--tables", type=int, default=8, help=tr("tables (default 8)",
                                                            "столов (по умолчанию 8)"))
    p.add_argument("--rounds", type=int, default=3, help=tr("rounds (default 3)",
                                                            "раундов (по умолчанию 3)"))
    p.add_argument("--boards-per-round", type=int, default=3, help=tr(
        "boards per round (default 3)", "сдач в раунде (по умолчанию 3)"))
    p.add_argument("--seed", default="1", help=tr("the same seed plays the same session",
                                                  "то же зерно играет ту же сессию"))
    p.add_argument("--out", default="demo-out", help=tr(
        "the folder for everything (demo-out)", "папка для всего (demo-out)"))
    lang_option(p)
    p.add_argument("--irregular", type=float, default=0.25, help=tr(
        "share of boards with an irregular call (default 0.25)",
        "доля сдач с нарушением в торговле (по умолчанию 0.25)"))
    p.set_defaults(run=run_demo)


def run_demo(args, out, err):
    if args.tables < 3 or args.rounds < 1 or args.boards_per_round < 1:
        raise Refused("--tables is 3 or more, --rounds and --boards-per-round 1 or more",
                      ru="--tables от 3, --rounds и --boards-per-round от 1")
    demo = Demo(args.out, args.tables, args.rounds, args.boards_per_round, args.seed,
                args.lang, args.irregular, console=Console(file=out))
    try:
        return demo.run()
    except (DemoFailed, TerminalFailed) as e:
        err.write("demo: %s\n" % e)
        return 1
