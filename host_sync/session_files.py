"""Read and write a session's results by the file: .pbn, .xml (USEBIO), .csv, or the event
database itself (a SQLite file, known by its first bytes), read through
`db_session.session_from_db`, the host's own reading of what the terminals recorded.

Backs the `host-sync score`, `export` and `report` commands.
"""

from pathlib import Path

from rich.console import Console

from host_sync.db import DatabaseError, open_db
from host_sync.db_session import session_from_db
from host_sync.pbn import read_file
from host_sync.pbn_session import session_from_games, session_games
from host_sync.pbn_write import write_file
from host_sync.reports.console import print_rankings
from host_sync.reports.i18n import LANGUAGES
from host_sync.reports.render import render_site
from host_sync.scoring.board import METHODS
from host_sync.scoring.session import score_session
from host_sync.travellers_csv import export_csv, import_csv
from host_sync.usebio import export_xml, import_xml

FORMATS = (".pbn", ".xml", ".csv")
SQLITE_HEADER = b"SQLite format 3\x00"
DATABASE = "database"


def _format(path):
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise ValueError("%s: expected a .pbn, .xml (USEBIO) or .csv (travellers) file" % path)
    return suffix


def _source_format(path):
    """The format of a file to read: an event database by its content, else by extension."""
    try:
        with open(path, "rb") as f:
            if f.read(len(SQLITE_HEADER)) == SQLITE_HEADER:
                return DATABASE
    except OSError:
        pass  # reported by the reader of its extension
    if Path(path).suffix.lower() in (".db", ".sqlite", ".sqlite3"):
        return DATABASE  # open_db says what is wrong with it
    try:
        return _format(path)
    except ValueError:
        raise ValueError("%s: expected an event database (EVENT.db) or a .pbn, .xml (USEBIO) "
                         "or .csv (travellers) file" % path) from None


def load(path, method=None, session=None):
    """A Session from a results file or an event database (`session`: its number, default
    the current one); `method` overrides the file's scoring method."""
    kind = _source_format(path)
    if kind == DATABASE:
        try:
            with open_db(path) as db:
                return session_from_db(db, session, method or "mp")
        except DatabaseError as e:
            raise ValueError(str(e)) from None
    if session is not None:
        raise ValueError("%s: --session is for an event database" % path)
    if kind == ".pbn":
        loaded = session_from_games(read_file(path))
    else:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise ValueError("%s: cannot read: %s" % (path, e)) from e
        loaded = import_xml(text) if kind == ".xml" else import_csv(text)
    if method:
        loaded.method = method
    return loaded


def save(session, path):
    """Score the session and write it in the format of `path`'s extension."""
    kind = _format(path)
    scored = score_session(session)
    if kind == ".pbn":
        write_file(path, session_games(session, scored))
    elif kind == ".xml":
        Path(path).write_text(export_xml(session, scored), encoding="utf-8")
    else:
        Path(path).write_text(export_csv(session, scored), encoding="utf-8")


def run_score(args, out, err):
    try:
        scored = score_session(load(args.source, args.method, args.session))
    except (ValueError, OSError) as e:
        err.write("score: %s\n" % e)
        return 2
    if not scored.standings:
        out.write("score: %s has no verified results to rank\n" % args.source)
        return 0
    print_rankings(Console(file=out), scored, args.lang)
    return 0


def run_export(args, out, err):
    try:
        _format(args.output)
        session = load(args.source, args.method, args.session)
        save(session, args.output)
    except (ValueError, OSError) as e:
        err.write("export: %s\n" % e)
        return 2
    out.write("export: %d results -> %s\n" % (len(session.results), args.output))
    return 0


def run_report(args, out, err):
    try:
        session = load(args.source, args.method, args.session)
        scored = score_session(session)
        for lang in args.lang:
            files = render_site(session, Path(args.output) / lang, lang, scored)
            out.write("report: %d pages -> %s\n" % (len(files), Path(args.output) / lang))
    except (ValueError, OSError) as e:
        err.write("report: %s\n" % e)
        return 2
    return 0


def _source_arguments(parser):
    parser.add_argument("source", metavar="IN")
    parser.add_argument("--session", type=int, metavar="N",
                        help="with an event database: the session (default: the current one)")
    parser.add_argument("--method", choices=METHODS)


def add_parsers(sub):
    score = sub.add_parser("score", help="score a session and print its rankings",
                           description="Scores IN (an event database EVENT.db, or a .pbn, "
                                       ".xml or .csv results file) and prints the ranking of "
                                       "each field.")
    _source_arguments(score)
    score.add_argument("--lang", choices=LANGUAGES, default="ru")
    score.set_defaults(run=run_score)
    export = sub.add_parser("export", help="write a session's results as PBN, USEBIO or CSV, "
                            "scoring it", description="Reads IN (an event database EVENT.db, "
                            "or a .pbn, .xml or .csv file), scores it and writes OUT in the "
                            "format of its extension (.pbn, .xml, .csv).")
    _source_arguments(export)
    export.add_argument("-o", "--output", required=True, metavar="OUT")
    export.set_defaults(run=run_export)
    report = sub.add_parser("report", help="HTML results site of a session",
                            description="Reads IN (an event database EVENT.db, or a .pbn, "
                                        ".xml or .csv file) and writes OUT/<lang>/index.html "
                                        "with rankings, travellers, scorecards, charts and "
                                        "hand records.")
    _source_arguments(report)
    report.add_argument("-o", "--output", required=True, metavar="DIR")
    report.add_argument("--lang", nargs="+", choices=LANGUAGES, default=list(LANGUAGES))
    report.set_defaults(run=run_report)
