"""`host-sync demo`: a whole simulated evening (host_sync.demo.run), from an empty folder to
the published results."""

from rich.console import Console

from host_sync.demo.run import Demo, DemoFailed
from host_sync.demo.terminals import TerminalFailed
from host_sync.errors import Refused


def add_commands(sub):
    p = sub.add_parser(
        "demo", help="a whole simulated session: terminals, players, director, sync, results",
        description="Sets up an event in OUT, runs one micropython terminal per table on a "
                    "pseudo-terminal, simulated players and a director play every round, "
                    "the station syncs after each round; then scores, ranks, writes the "
                    "report, PBN, USEBIO and CSV files, and checks the database against the "
                    "simulated truth (exit status 1 if they differ).")
    p.add_argument("--tables", type=int, default=8)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--boards-per-round", type=int, default=3)
    p.add_argument("--seed", default="1", help="the same seed plays the same session")
    p.add_argument("--out", default="demo-out", help="the folder for everything (demo-out)")
    p.add_argument("--lang", choices=("ru", "en"), default="ru")
    p.add_argument("--irregular", type=float, default=0.25,
                   help="share of boards with an irregular call (default 0.25)")
    p.set_defaults(run=run_demo)


def run_demo(args, out, err):
    if args.tables < 3 or args.rounds < 1 or args.boards_per_round < 1:
        raise Refused("--tables is 3 or more, --rounds and --boards-per-round 1 or more")
    demo = Demo(args.out, args.tables, args.rounds, args.boards_per_round, args.seed,
                args.lang, args.irregular, console=Console(file=out))
    try:
        return demo.run()
    except (DemoFailed, TerminalFailed) as e:
        err.write("demo: %s\n" % e)
        return 1
