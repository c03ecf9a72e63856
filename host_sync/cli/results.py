"""`host-sync score`, `export` and `report`: a session's results from an event database or a
results file, ranked on the console, converted to another format, or published as HTML."""

from pathlib import Path

from rich.console import Console

from host_sync.interchange.files import is_database, load, output_format, save
from host_sync.reports.console import print_rankings
from host_sync.reports.director import session_director_list
from host_sync.reports.i18n import LANGUAGES
from host_sync.reports.render import render_site
from host_sync.scoring.board import METHODS
from host_sync.scoring.session import score_session


def run_score(args, out, err):
    scored = score_session(load(args.source, args.method, args.session))
    if not scored.standings:
        out.write("score: %s has no verified results to rank\n" % args.source)
        return 0
    print_rankings(Console(file=out), scored, args.lang)
    return 0


def run_export(args, out, err):
    output_format(args.output)  # before reading anything
    session = load(args.source, args.method, args.session)
    save(session, args.output)
    out.write("export: %d results -> %s\n" % (len(session.results), args.output))
    return 0


def run_report(args, out, err):
    session = load(args.source, args.method, args.session)
    scored = score_session(session)
    director = (session_director_list(args.source, args.session)
                if is_database(args.source) else None)
    for lang in args.lang:
        files = render_site(session, Path(args.output) / lang, lang, scored, director)
        out.write("report: %d pages -> %s\n" % (len(files), Path(args.output) / lang))
    return 0


def _source_arguments(parser):
    parser.add_argument("source", metavar="IN")
    parser.add_argument("--session", type=int, metavar="N",
                        help="with an event database: the session (default: the current one)")
    parser.add_argument("--method", choices=METHODS)


def add_commands(sub):
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
