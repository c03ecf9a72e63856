"""The `host-sync` command line: one subcommand per job of the sync station."""

import argparse
import sys

from host_sync import cli_setup, cli_sync, pbn_check, rescore, session_files
from host_sync.demo import run as demo


def build_parser():
    parser = argparse.ArgumentParser(
        prog="host-sync",
        description="Sync bridge table terminals, score sessions, check and convert PBN.")
    sub = cli_setup.actions(parser, "command", "COMMAND")
    check = sub.add_parser(
        "pbn-check", help="check every game of PBN files against the Laws core",
        description="Replays every auction through the Laws core, derives contract, declarer "
                    "and score, and reports each disagreement with the file's own tags: one "
                    "JSON object per game, then a summary line.")
    check.add_argument("paths", nargs="+", metavar="FILE_OR_FOLDER")
    check.add_argument("--quiet", action="store_true",
                       help="print only games with a problem, then the summary line")
    check.set_defaults(run=pbn_check.run)
    rescore.add_parser(sub)
    session_files.add_parsers(sub)
    cli_setup.add_commands(sub)
    cli_sync.add_commands(sub)
    demo.add_commands(sub)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    return args.run(args, sys.stdout, sys.stderr)
