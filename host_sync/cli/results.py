"""`host-sync score`, `export` and `report`: a session's results from an event database or a
results file, ranked on the console, converted to another format, or published as HTML."""

from pathlib import Path

from rich.console import Console

from host_sync.cli.lang import lang_option, say, tr
from host_sync.cli.teams import warn_if_drawn_otherwise
from host_sync.errors import Refused
from host_sync.event.db import open_db
from host_sync.event.results import earlier_team_sessions, event_so_far, ranked_over, team_sessions
from host_sync.interchange.files import is_database, load, output_format, save
from host_sync.reports.analysis import MAX_SOLVED, board_analyses, unsolved
from host_sync.reports.console import (
    print_event_standings,
    print_knockout,
    print_rankings,
    print_team_results,
)
from host_sync.reports.director import session_director_list
from host_sync.reports.i18n import LANGUAGES
from host_sync.reports.publish import publish_sites
from host_sync.reports.render import render_site
from host_sync.scoring.board import METHODS
from host_sync.scoring.knockout import knockout_matches
from host_sync.scoring.session import score_session
from host_sync.scoring.team_session import score_teams
from host_sync.text import ranges


def run_score(args, out, err):
    if args.event:
        return _score_event(args, out)
    session = load(args.source, args.method, args.session)
    if not session.results:  # nothing to rank, pairs or teams (every line makes a standing)
        out.write(say(args, "score: %s has no verified results to rank\n",
                      "score: в %s нет подтверждённых результатов для таблицы\n")
                  % args.source)
    elif session.teams is not None and session.teams.knockout:  # total IMPs, who goes through
        print_knockout(Console(file=out), session, knockout_matches(score_teams(session)),
                       args.lang)
        if is_database(args.source):
            with open_db(args.source) as db:
                warn_if_drawn_otherwise(args, db, args.session, err)
    elif session.teams is not None:  # its matches in IMPs and VPs, the team standings
        print_team_results(Console(file=out), score_teams(session), args.lang)
    else:
        print_rankings(Console(file=out), score_session(session), args.lang)
    return 0


def _score_event(args, out):
    """The team standings over every teams session of the event (a round robin over days)."""
    if not is_database(args.source) or args.session is not None:
        raise Refused("--event takes an event database and no --session",
                      ru="--event — для базы турнира и без --session")
    with open_db(args.source) as db:
        sessions = team_sessions(db)
    if not sessions:
        raise Refused("%s has no teams session" % args.source,
                      ru="в %s нет командной сессии" % args.source)
    event = ranked_over({number: score_teams(s) for number, s in sessions.items()})
    if not event.sessions:
        raise Refused("no teams session of %s counts for VPs yet (none begun, or knockout "
                      "rounds: `score --session N` shows a knockout's matches)" % args.source,
                      ru="ни одна командная сессия %s пока не даёт ВП (не начаты или это "
                      "туры олимпийской системы: их матчи — `score --session N`)" % args.source)
    print_event_standings(Console(file=out), event, args.lang)
    return 0


def run_export(args, out, err):
    kind = output_format(args.output)  # before reading anything
    session = load(args.source, args.method, args.session)
    analyses = None  # PBN carries the par and the double-dummy tricks (OptimumScore...)
    if kind == ".pbn" and session.results:
        analyses = board_analyses(session, args.source if is_database(args.source) else None)
        _say_unsolved(args, err, session)
    save(session, args.output, analyses)
    out.write(say(args, "export: %d results -> %s\n", "export: результатов %d -> %s\n")
              % (len(session.results), args.output))
    return 0


def run_report(args, out, err):
    session = load(args.source, args.method, args.session)
    scored = score_session(session)
    database = args.source if is_database(args.source) else None
    director = None if database is None else session_director_list(database, args.session)
    analyses = board_analyses(session, database)  # solved once, kept in the database
    _say_unsolved(args, err, session)
    teams = event = None
    if session.teams is not None:
        teams = score_teams(session)
        if database is not None:  # a day of a round robin over several: the event so far
            with open_db(database) as db:
                event = event_so_far(*earlier_team_sessions(db, args.session), teams)
    published = publish_sites(Path(args.output), args.pages, lambda lang, folder: render_site(
        session, folder, lang, scored, director, analyses, teams, event))
    for target, count in published.values():
        out.write(say(args, "report: %d pages -> %s\n", "report: страниц %d -> %s\n")
                  % (count, target))
    return 0


def _say_unsolved(args, err, session):
    """Which boards go without their double-dummy analysis (more than MAX_SOLVED have a
    deal), as a scorer would otherwise take a missing table for a bad hand record."""
    boards = unsolved(session)
    if boards:
        err.write(say(args, "%s: boards %s have no double-dummy analysis: it is made for at most "
                            "%d boards a session\n",
                      "%s: у сдач %s нет анализа в открытую: его делают не больше чем для %d "
                      "сдач сессии\n") % (args.command, ranges(boards), MAX_SOLVED))


def _source_arguments(parser):
    parser.add_argument("source", metavar="IN", help=tr(
        "an event database EVENT.db, or a .pbn, .xml (USEBIO) or .csv results file",
        "база турнира EVENT.db или файл результатов .pbn, .xml (USEBIO), .csv"))
    parser.add_argument("--session", type=int, metavar="N", help=tr(
        "with an event database: the session (default: the current one)",
        "для базы турнира: сессия (по умолчанию текущая)"))
    parser.add_argument("--method", choices=METHODS, help=tr(
        "the scoring method, in place of the file's",
        "способ подсчёта вместо указанного в файле"))


def add_commands(sub):
    score = sub.add_parser("score", help=tr("score a session and print its rankings",
                                            "подсчитать сессию и напечатать таблицы"),
                           description=tr(
                               "Scores IN (an event database EVENT.db, or a .pbn, .xml or .csv "
                               "results file) and prints the ranking of each field.",
                               "Подсчитывает IN (базу турнира EVENT.db или файл результатов "
                               ".pbn, .xml, .csv) и печатает таблицу каждого зачёта."))
    _source_arguments(score)
    score.add_argument("--event", action="store_true", help=tr(
        "a teams event: the standings over all its teams sessions (a round robin over several "
        "sessions)", "командный турнир: таблица по всем его командным сессиям (круговой на "
        "несколько сессий)"))
    lang_option(score)
    score.set_defaults(run=run_score)
    export = sub.add_parser("export", help=tr(
        "write a session's results as PBN, USEBIO or CSV, scoring it",
        "записать результаты сессии в PBN, USEBIO или CSV, с подсчётом"), description=tr(
        "Reads IN (an event database EVENT.db, or a .pbn, .xml or .csv file), scores it and "
        "writes OUT in the format of its extension (.pbn, .xml, .csv).",
        "Читает IN (базу турнира EVENT.db или файл .pbn, .xml, .csv), подсчитывает и пишет OUT "
        "в формате по его расширению (.pbn, .xml, .csv)."))
    _source_arguments(export)
    export.add_argument("-o", "--output", required=True, metavar="OUT",
                        help=tr("the file to write", "файл, который записать"))
    export.set_defaults(run=run_export)
    report = sub.add_parser("report", help=tr("HTML results site of a session",
                                              "сайт с результатами сессии в HTML"),
                            description=tr(
                                "Reads IN (an event database EVENT.db, or a .pbn, .xml or .csv "
                                "file) and writes OUT/<lang>/index.html with rankings, "
                                "travellers, scorecards, charts and hand records; each "
                                "OUT/<lang> is replaced whole once every page is written.",
                                "Читает IN (базу турнира EVENT.db или файл .pbn, .xml, .csv) и "
                                "пишет OUT/<язык>/index.html: таблицы, протоколы, карточки "
                                "пар, графики и расклады; каждая OUT/<язык> заменяется целиком, "
                                "когда записаны все страницы."))
    _source_arguments(report)
    report.add_argument("-o", "--output", required=True, metavar="DIR",
                        help=tr("the folder to write", "папка, в которую писать"))
    report.add_argument("--lang", nargs="+", choices=LANGUAGES, default=list(LANGUAGES),
                        dest="pages", help=tr("the languages of the pages (default: both)",
                                              "языки страниц (по умолчанию оба)"))
    report.set_defaults(run=run_report)
