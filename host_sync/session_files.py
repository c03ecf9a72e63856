"""Read and write a session's results file by its extension: .pbn, .xml (USEBIO), .csv.

Backs the `host-sync export` and `host-sync report` commands.
"""

from pathlib import Path

from host_sync.pbn import read_file
from host_sync.pbn_session import session_from_games, session_games
from host_sync.pbn_write import write_file
from host_sync.reports.render import render_site
from host_sync.scoring.board import METHODS
from host_sync.scoring.session import score_session
from host_sync.travellers_csv import export_csv, import_csv
from host_sync.usebio import export_xml, import_xml

FORMATS = (".pbn", ".xml", ".csv")


def _format(path):
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise ValueError("%s: expected a .pbn, .xml (USEBIO) or .csv (travellers) file" % path)
    return suffix


def load(path, method=None):
    """A Session from a results file; `method` overrides the file's scoring method."""
    kind = _format(path)
    if kind == ".pbn":
        session = session_from_games(read_file(path))
    else:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise ValueError("%s: cannot read: %s" % (path, e)) from e
        session = import_xml(text) if kind == ".xml" else import_csv(text)
    if method:
        session.method = method
    return session


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


def run_export(args, out, err):
    try:
        session = load(args.source, args.method)
        _format(args.output)
        save(session, args.output)
    except (ValueError, OSError) as e:
        err.write("export: %s\n" % e)
        return 2
    out.write("export: %d results -> %s\n" % (len(session.results), args.output))
    return 0


def run_report(args, out, err):
    try:
        session = load(args.source, args.method)
        scored = score_session(session)
        for lang in args.lang:
            files = render_site(session, Path(args.output) / lang, lang, scored)
            out.write("report: %d pages -> %s\n" % (len(files), Path(args.output) / lang))
    except (ValueError, OSError) as e:
        err.write("report: %s\n" % e)
        return 2
    return 0


def add_parsers(sub):
    export = sub.add_parser("export", help="convert a session's results between PBN, USEBIO "
                            "and CSV, scoring it", description="Reads IN (.pbn, .xml, .csv), "
                            "scores it and writes OUT in the format of its extension.")
    export.add_argument("source", metavar="IN")
    export.add_argument("-o", "--output", required=True, metavar="OUT")
    export.add_argument("--method", choices=METHODS)
    export.set_defaults(run=run_export)
    report = sub.add_parser("report", help="HTML results site of a session",
                            description="Writes OUT/<lang>/index.html with rankings, "
                                        "travellers, scorecards, charts and hand records.")
    report.add_argument("source", metavar="IN")
    report.add_argument("-o", "--output", required=True, metavar="DIR")
    report.add_argument("--lang", nargs="+", choices=("ru", "en"), default=["ru", "en"])
    report.add_argument("--method", choices=METHODS)
    report.set_defaults(run=run_report)
