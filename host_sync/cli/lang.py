"""The command line's language: Russian by default, English on request.

One scheme for every command: `host-sync --lang en COMMAND ...`, or HOST_SYNC_LANG=en in the
environment for a scorer who wants English always; the older spelling `COMMAND ... --lang en`
of the commands that had their own option still works and wins (`lang_option`).

Help texts are written once in both languages (`tr("English", "Русский")`, a str that also
carries its Russian, so argparse handles it as any help string and other code can keep plain
English strings); the parser built for a language picks its side when it formats help. The
words argparse itself writes (usage, the option list's headings, its error messages) are
gettext strings: `argparse_language` gives them their Russian while the parser is built and
used, which is the only time argparse looks them up.
"""

import argparse
import contextlib
import os

from host_sync.errors import Both, Refused

LANGUAGES = ("ru", "en")
DEFAULT = "ru"
ENV = "HOST_SYNC_LANG"


def tr(en, ru):
    return Both(en, ru)


def pick(text, lang):
    """`text` in `lang`: a Both's side, any other string as it is."""
    return text.text(lang) if isinstance(text, Both) else text


def say(args, en, ru):
    """A handler's own message in the language the command runs in."""
    return ru if getattr(args, "lang", DEFAULT) == "ru" else en


def from_environment(environ=None):
    """HOST_SYNC_LANG, or Russian; a value that is neither language is refused, not guessed."""
    value = (os.environ if environ is None else environ).get(ENV, "").strip().lower()
    if not value:
        return DEFAULT
    if value not in LANGUAGES:
        raise Refused("%s=%r: it takes ru or en" % (ENV, value),
                      ru="%s=%r: допустимо ru или en" % (ENV, value))
    return value


def chosen(argv, default=DEFAULT):
    """The language of this command line before it is parsed (argparse's own help and errors
    need it): the first `--lang X`, else `default` (from_environment's)."""
    for i, word in enumerate(argv):
        if word == "--":
            break
        value = word[len("--lang="):] if word.startswith("--lang=") else (
            argv[i + 1] if word == "--lang" and i + 1 < len(argv) else None)
        if value in LANGUAGES:
            return value
    return default


def lang_option(parser):
    """The old per-command `--lang`: the same choice as the global one, given after the
    command; absent, the global one (or HOST_SYNC_LANG) stands."""
    parser.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS,
                        help=tr("the language (as host-sync --lang)",
                                "язык (как host-sync --lang)"))


_ARGPARSE_RU = {
    "usage: ": "использование: ",
    "positional arguments": "аргументы",
    "options": "параметры",
    "show this help message and exit": "показать эту справку и выйти",
    "argument %(argument_name)s: %(message)s": "аргумент %(argument_name)s: %(message)s",
    "unrecognized arguments: %s": "непонятные аргументы: %s",
    "the following arguments are required: %s": "не хватает аргументов: %s",
    "one of the arguments %s is required": "нужен один из аргументов %s",
    "not allowed with argument %s": "нельзя вместе с аргументом %s",
    "expected one argument": "нужно одно значение",
    "expected at most one argument": "нужно не больше одного значения",
    "expected at least one argument": "нужно хотя бы одно значение",
    "ambiguous option: %(option)s could match %(matches)s":
        "неоднозначный параметр: %(option)s может означать %(matches)s",
    "invalid %(type)s value: %(value)r": "неверное значение (%(type)s): %(value)r",
    "invalid choice: %(value)r (choose from %(choices)s)":
        "неверный выбор: %(value)r (допустимо: %(choices)s)",
    "ignored explicit argument %r": "лишнее значение %r",
    "%(prog)s: error: %(message)s\n": "%(prog)s: ошибка: %(message)s\n",
    "can't open '%(filename)s': %(error)s": "не открыть '%(filename)s': %(error)s",
}
_NGETTEXT_RU = {"expected %s argument": "нужно значений: %s"}


@contextlib.contextmanager
def argparse_language(lang):
    """argparse's own words in `lang` while the block runs (building, parsing, printing help
    and usage errors); English needs nothing."""
    if lang != "ru":
        yield
        return
    saved = argparse._, argparse.ngettext
    argparse._ = lambda text: _ARGPARSE_RU.get(text, text)
    argparse.ngettext = lambda one, many, n: _NGETTEXT_RU.get(one, one if n == 1 else many)
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved


class Formatter(argparse.HelpFormatter):
    """Help in the parser's language: each Both picks its side; a plain string stays."""

    lang = DEFAULT

    def _get_help_string(self, action):
        return pick(action.help, self.lang)

    def _format_text(self, text):
        return argparse.HelpFormatter._format_text(self, pick(text, self.lang))


def parser_class(lang):
    """An ArgumentParser whose subcommands (argparse makes them of the same class) all format
    their help in `lang`."""
    class Parser(argparse.ArgumentParser):
        def _get_formatter(self):
            formatter = Formatter(prog=self.prog)
            formatter.lang = lang
            return formatter

        def add_argument_group(self, title=None, description=None, **kwargs):
            return argparse.ArgumentParser.add_argument_group(
                self, pick(title, lang), pick(description, lang), **kwargs)
    Parser.lang = lang
    return Parser


_OS_RU = {FileNotFoundError: "нет такого файла или папки", PermissionError: "нет доступа",
          IsADirectoryError: "это папка, а не файл", NotADirectoryError: "это не папка",
          FileExistsError: "файл уже есть"}


def os_error_text(e, lang):
    """An OSError in the scorer's words: what happened to which file."""
    if lang != "ru":
        return str(e)
    what = next((text for kind, text in _OS_RU.items() if isinstance(e, kind)), None)
    if what is None:
        return str(e)
    return "%s: %s" % (what, e.filename) if e.filename else what


EVENT_DB = tr("the event database (a file, or a postgresql:// address)",
              "база турнира (файл или адрес postgresql://)")
