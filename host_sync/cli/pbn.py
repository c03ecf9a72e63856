"""`host-sync pbn-check` and `rescore`: PBN files checked against the Laws core, and their
ScoreTables scored again."""

import json

from host_sync.cli.lang import say, tr
from host_sync.interchange.pbn.check import Summary, check_game, is_clean
from host_sync.interchange.pbn.read import PbnError, iter_pbn_files, read_file
from host_sync.interchange.pbn.rescore import METHODS, rescore_file


def add_commands(sub):
    check = sub.add_parser(
        "pbn-check", help=tr("check every game of PBN files against the Laws core",
                             "проверить каждую игру файлов PBN по ядру Законов"),
        description=tr(
            "Replays every auction through the Laws core, derives contract, declarer and score, "
            "and reports each disagreement with the file's own tags: one JSON object per game, "
            "then a summary line.",
            "Проигрывает каждую торговлю через ядро Законов, выводит контракт, разыгрывающего и "
            "счёт и сообщает о каждом расхождении с тегами файла: по объекту JSON на игру, "
            "затем строка итога."))
    check.add_argument("paths", nargs="+", metavar="FILE_OR_FOLDER",
                       help=tr("PBN files or folders", "файлы PBN или папки"))
    check.add_argument("--quiet", action="store_true", help=tr(
        "print only games with a problem, then the summary line",
        "печатать только игры с проблемой, затем строку итога"))
    check.set_defaults(run=run_check)
    rescore = sub.add_parser(
        "rescore", help=tr("recompute the ScoreTables of a PBN results file",
                           "пересчитать ScoreTable файла результатов PBN"),
        description=tr(
            "Reads a PBN file, scores every ScoreTable again (matchpoints, cross-IMPs or "
            "Butler) and writes the file in PBN 2.1 export format with its tables.",
            "Читает файл PBN, заново считает каждую ScoreTable (мачпойнты, кросс-IMP или "
            "Батлер) и пишет файл в формате экспорта PBN 2.1 с таблицами."))
    rescore.add_argument("source", metavar="IN.pbn", help=tr("the file to read",
                                                             "файл, который прочитать"))
    rescore.add_argument("-o", "--output", required=True, metavar="OUT.pbn",
                         help=tr("the file to write", "файл, который записать"))
    rescore.add_argument("--method", choices=METHODS, default="mp", help=tr(
        "the scoring method (default mp)", "способ подсчёта (по умолчанию mp)"))
    rescore.add_argument("--trim", type=int, default=None, help=tr(
        "Butler: results dropped at each end of the datum (default: 1 up to 10 results, 2 up "
        "to 25, one more per 15)",
        "Батлер: сколько результатов отбросить с каждого края датума (по умолчанию 1 до 10 "
        "результатов, 2 до 25, ещё один на каждые 15)"))
    rescore.set_defaults(run=run_rescore)


def run_check(args, out, err):
    """Check every game of every file; a file that cannot be read gets its own line and the
    others go on; exit 2 if some input could not be read at all."""
    files = list(iter_pbn_files(args.paths))
    if not files:
        raise PbnError("no PBN files in %s" % " ".join(args.paths),
                       ru="нет файлов PBN в %s" % " ".join(args.paths))
    summary = Summary()
    status = 0
    for path in files:
        try:
            for game in read_file(path):
                line = check_game(path, game)
                summary.add(line)
                if not (args.quiet and is_clean(line)):
                    out.write(json.dumps(line, ensure_ascii=False) + "\n")
        except PbnError as e:
            out.write(json.dumps({"file": str(path), "error": e.text(args.lang)},
                                 ensure_ascii=False) + "\n")
            status = 2
    out.write(summary.line() + "\n")
    return status


def run_rescore(args, out, err):
    games, tables = rescore_file(args.source, args.output, args.method, args.trim)
    out.write(say(args, "rescore: %d games, %d ScoreTables rescored (%s) -> %s\n",
                  "rescore: игр %d, пересчитано ScoreTable %d (%s) -> %s\n") % (
        games, tables, args.method, args.output))
    return 0
