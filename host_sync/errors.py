"""The host's one refusal family, as pyserial has SerialException and mpremote CommandError.

`Refused` is input the host will not take (a file, an option, a record, a database that is not
an event's): the message says why in the scorer's words and nothing was stored. The command
line prints it with the command's name and exits 2; any other exception is a bug and ends in a
traceback, exit 1. It is a ValueError so that code which checks values keeps catching it.
"""


class Refused(ValueError):
    """Input refused; `str(e)` is the reason in English, `text("ru")` in Russian where the
    raiser gave one (`Refused("no such board", ru="нет такой сдачи")`)."""

    def __init__(self, message="", ru=None):
        ValueError.__init__(self, message)
        self.ru = ru

    def text(self, lang="ru"):
        """The reason in `lang`; English where no Russian was given."""
        if lang == "ru" and self.ru:
            return self.ru
        return str(self)


class FileProblems(Refused):
    """A file that cannot be imported: `problems` lists every bad line or game as
    "file:line: why", all of them at once, so the scorer mends the file in one go. A problem
    is a string (English only) or a Refused (with its Russian, see `at`)."""

    def __init__(self, problems):
        lines = [p if isinstance(p, Refused) else Refused(p) for p in problems]
        self.problems = [str(p) for p in lines]
        Refused.__init__(self, "\n".join(self.problems),
                         ru="\n".join(p.text("ru") for p in lines))


class Both(str):
    """An English text carrying its Russian (`Both("line 5", "строка 5")`): a reader passes one
    `where` down and every refusal names the place in the user's words; the command line's
    help texts are Boths too (cli.lang.tr), as argparse takes any str."""

    def __new__(cls, en, ru):
        both = str.__new__(cls, en)
        both.ru = ru
        return both

    def text(self, lang="ru"):
        return self.ru if lang == "ru" else str(self)


def russian(text):
    """The Russian of a Both; any other text ("file:line", a path, a pair) as it is."""
    return getattr(text, "ru", text)


def at(where, why, ru=None):
    """The refusal `why` (an exception, a Refused's Russian kept, or English text with its
    Russian `ru`) said at `where` ("file:line" or a Both), in both languages."""
    if isinstance(why, Exception):
        why, ru = str(why), why.text("ru") if isinstance(why, Refused) else None
    return Refused("%s: %s" % (where, why), ru="%s: %s" % (russian(where), ru or why))
