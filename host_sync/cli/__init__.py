"""The `host-sync` command line: argv -> one library call -> exit status.

The only code that prints for users. `COMMANDS` is the one table of the command families; each
adds its subcommands, whose handlers take (args, out, err) and return the exit status. A
`Refused` (input the host will not take) or an `OSError` (a file or port that cannot be used)
that reaches `main` is printed after the command's name, exit 2, nothing stored; anything else is
a bug and ends in a traceback, exit 1. Everything is said in the scorer's language
(host_sync.cli.lang): Russian unless `--lang en` or HOST_SYNC_LANG=en.
"""

import sys

from host_sync.cli import demo, director, pbn, results, setup, sync, teams, web
from host_sync.cli.lang import (
    LANGUAGES,
    argparse_language,
    chosen,
    from_environment,
    os_error_text,
    parser_class,
    tr,
)
from host_sync.errors import FileProblems, Refused

COMMANDS = (setup.add_commands, sync.add_commands, results.add_commands, pbn.add_commands,
            director.add_commands, teams.add_commands, demo.add_commands, web.add_commands)


def build_parser(lang="ru", default_lang="ru"):
    """The whole command line, its help in `lang`; `default_lang` is the language a command
    runs in without --lang (HOST_SYNC_LANG's)."""
    parser = parser_class(lang)(
        prog="host-sync",
        description=tr("Sync bridge table terminals, score sessions, check and convert PBN.",
                       "Синхронизация терминалов на столах, подсчёт сессий, проверка и "
                       "перевод PBN."))
    parser.add_argument("--lang", choices=LANGUAGES, default=default_lang,
                        help=tr("the language of messages and help: ru (default) or en; "
                                "HOST_SYNC_LANG sets it for every command",
                                "язык сообщений и справки: ru (по умолчанию) или en; "
                                "HOST_SYNC_LANG задаёт его для всех команд"))
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
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        default_lang = from_environment()
    except Refused as e:  # no language to speak yet: both
        err.write("host-sync: %s\nhost-sync: %s\n" % (e.text("ru"), e.text("en")))
        return 2
    lang = chosen(argv, default_lang)
    with argparse_language(lang):
        args = build_parser(lang, default_lang).parse_args(argv)
    try:
        return args.run(args, out, err)
    except (Refused, OSError) as e:
        if isinstance(e, FileProblems):  # "file:line: why" lines, each complete
            err.write("%s\n%s\n" % (e.text(args.lang), "ничего не сохранено"
                                      if args.lang == "ru" else "nothing was stored"))
        elif isinstance(e, Refused):
            err.write("%s: %s\n" % (command_name(args), e.text(args.lang)))
        else:
            err.write("%s: %s\n" % (command_name(args), os_error_text(e, args.lang)))
        return 2
