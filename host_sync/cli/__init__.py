"""The `host-sync` command line: argv -> one library call -> exit status.

The only code that prints for users. `COMMANDS` is the one table of the command families; each
adds its subcommands, whose handlers take (args, out, err) and return the exit status. A
`Refused` (input the host will not take) or an `OSError` (a file or port that cannot be used)
that reaches `main` is printed after the command's name, exit 2, nothing stored; anything else is
a bug and ends in a traceback, exit 1.
"""

import argparse
import sys

from host_sync.cli import demo, director, pbn, results, setup, sync, web
from host_sync.errors import FileProblems, Refused

COMMANDS = (setup.add_commands, sync.add_commands, results.add_commands, pbn.add_commands,
            director.add_commands, demo.add_commands, web.add_commands)


def build_parser():
    parser = argparse.ArgumentParser(
        prog="host-sync",
        description="Sync bridge table terminals, score sessions, check and convert PBN.")
    sub = setup.actions(parser, "command", "COMMAND")
    for add in COMMANDS:
        add(sub)
    return parser


def command_name(args):
    """The words of the command that ran ("names import"): `actions` names the first level
    `command` and each family's own level NOUN_command."""
    words = [args.command] + [v for k, v in sorted(vars(args).items())
                              if k.endswith("_command") and isinstance(v, str)]
    return " ".join(words)


def main(argv=None, out=None, err=None):
    out = out or sys.stdout
    err = err or sys.stderr
    args = build_parser().parse_args(argv)
    try:
        return args.run(args, out, err)
    except (Refused, OSError) as e:
        if isinstance(e, FileProblems):  # "file:line: why" lines, each complete
            err.write("%s\nnothing was stored\n" % e)
        else:
            err.write("%s: %s\n" % (command_name(args), e))
        return 2
