"""The sync station's subcommands of `host-sync`: terminal registration, sync, serve (the
event's set-up is host_sync.cli.setup).

`add_commands(subparsers)` adds them to the main parser (host_sync.cli); each handler takes
(args, out, err) and returns the exit status.
"""

import logging
import sys

import serial

from host_sync.cli.lang import EVENT_DB, say, tr
from host_sync.cli.setup import actions, actor_option
from host_sync.errors import Refused
from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.station import link
from host_sync.station.serve import BAUD, Station, discover, serve_forever
from host_sync.station.sync import Session, SyncFailed


def add_commands(sub):
    term_sub = actions(sub.add_parser("terminal", help=tr(
        "register a terminal at this event, or reset a wiped one",
        "зарегистрировать терминал на турнире или сбросить стёртый")), "terminal_command")
    reg = term_sub.add_parser("register", help=tr("give the terminal on PORT the event's key",
                                                  "передать терминалу на PORT ключ турнира"))
    reg.add_argument("db", metavar="EVENT.db", help=EVENT_DB)
    reg.add_argument("--port", required=True, help=tr("the terminal's serial port",
                                                      "последовательный порт терминала"))
    reg.add_argument("--section", default="A", help=tr("its section (default A)",
                                                       "его секция (по умолчанию A)"))
    reg.add_argument("--table", type=int, help=tr("the table it will sit on",
                                                  "стол, на котором он будет стоять"))
    _code_option(reg, required=True)
    reg.set_defaults(run=run_register)
    reset = term_sub.add_parser(
        "reset", help=tr("take a wiped terminal's journal from seq 1 again",
                         "принимать журнал стёртого терминала снова с seq 1"),
        description=tr(
            "For a terminal whose flash was wiped (same identity, journal restarted at seq 1), "
            "which sync refuses: its next sync re-registers it and stores the new journal "
            "after what is stored. Nothing stored is changed.",
            "Для терминала со стёртой памятью (та же личность, журнал снова с seq 1), который "
            "синхронизация отвергает: следующая синхронизация зарегистрирует его заново и "
            "сохранит новый журнал после сохранённого. Сохранённое не меняется."))
    reset.add_argument("db", metavar="EVENT.db", help=EVENT_DB)
    reset.add_argument("terminal", metavar="ID", help=tr("the terminal's identity",
                                                         "идентификатор терминала"))
    reset.add_argument("--yes", action="store_true", help=tr("do not ask for confirmation",
                                                             "не спрашивать подтверждения"))
    actor_option(reset)
    reset.set_defaults(run=run_reset)

    sync = sub.add_parser("sync", help=tr("sync the terminal on one port",
                                          "синхронизировать терминал на одном порту"))
    sync.add_argument("db", metavar="EVENT.db", help=EVENT_DB)
    sync.add_argument("--port", required=True, help=tr("the terminal's serial port",
                                                       "последовательный порт терминала"))
    sync.add_argument("--register", action="store_true", help=_REGISTER)
    _code_option(sync)
    sync.add_argument("--timeout", type=float, default=1.0, help=_TIMEOUT)
    sync.set_defaults(run=run_sync)

    srv = sub.add_parser("serve", help=tr(
        "sync every terminal plugged in, several at once; Ctrl-C or SIGTERM stops with a "
        "summary",
        "синхронизировать все подключённые терминалы, несколько сразу; Ctrl-C или SIGTERM — "
        "остановка с итогом"))
    srv.add_argument("db", metavar="EVENT.db", help=EVENT_DB)
    srv.add_argument("--port", action="append", default=[], metavar="PATH_OR_GLOB", help=tr(
        "also watch these ports (USB terminals are found by VID:PID)",
        "следить и за этими портами (USB-терминалы находятся по VID:PID)"))
    srv.add_argument("--register", action="store_true", help=_REGISTER)
    _code_option(srv)
    srv.add_argument("--station", action="store_true", help=tr(
        "drive the Raspberry Pi station's LEDs and buzzer (RPi.GPIO)",
        "управлять светодиодами и зуммером станции на Raspberry Pi (RPi.GPIO)"))
    srv.add_argument("--timeout", type=float, default=1.0, help=_TIMEOUT)
    srv.add_argument("--once", action="store_true", help=tr(
        "sync the terminals plugged in now, each once, then stop: exit 0 if every one "
        "synced, 1 if one is pending (the summary names it)",
        "синхронизировать подключённые сейчас терминалы по одному разу и остановиться: код 0, "
        "если синхронизированы все, 1, если какой-то не закончен (итог его называет)"))
    srv.set_defaults(run=run_serve)


_REGISTER = tr("register a terminal this event does not know",
               "зарегистрировать терминал, которого турнир не знает")
_TIMEOUT = tr("seconds per answer (default 1)", "секунд на ответ (по умолчанию 1)")


def _code_option(parser, required=False):
    parser.add_argument("--code", required=required, metavar="CODE",
                        help=tr("the pairing code the terminal shows (director mode, 6): "
                                "the only way it takes this event's key",
                                "код привязки с экрана терминала (режим директора, 6): только "
                                "так терминал примет ключ турнира"))


def _check_code(args):
    """The pairing code as typed (spaces allowed: the screen shows 123 456), or None."""
    code = getattr(args, "code", None)
    if code is None:
        return None
    code = code.replace(" ", "")
    if not link.code_ok(code):
        raise Refused("--code: the pairing code is the %d digits the terminal shows" %
                      link.CODE_DIGITS,
                      ru="--code: код привязки — %d цифр с экрана терминала" % link.CODE_DIGITS)
    return code


def _quiet_logging(err):
    logging.basicConfig(stream=err, level=logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")


def _session(args, err, register, place=None):
    """Sync the terminal on args.port: ((db, progress), 0), or (None, 1) when the link or the
    sync failed (said after the port's name). A database or place the host refuses is raised
    before the port is opened, for host_sync.cli to say, exit 2, nothing stored."""
    code = _check_code(args)
    _quiet_logging(err)
    db = open_db(args.db)
    if place:
        try:
            place = (setup.check_place(db, *place), place[1])
        except BaseException:
            db.close()
            raise
    try:
        with serial.Serial(args.port, BAUD, timeout=0.02) as port:
            p = Session(db, port, name=args.port, register=register, place=place,
                        timeout=getattr(args, "timeout", 1.0), code=code).run()
        return (db, p), 0
    except (SyncFailed, setup.SetupError) as e:
        err.write("%s: %s\n" % (args.port, e.text(args.lang)))
        db.close()
        return None, 1
    except (serial.SerialException, OSError) as e:
        err.write("%s: %s\n" % (args.port, e))
        db.close()
        return None, 1


def run_sync(args, out, err):
    got, status = _session(args, err, args.register)
    if got:
        db, p = got
        db.close()
        out.write(say(args, "%s: terminal %s: %d stored, %d repeats, refused %s\n",
                      "%s: терминал %s: сохранено %d, повторов %d, отвергнуто %s\n") % (
            args.port, p.terminal, p.stored, p.duplicates,
            dict(p.refused) or say(args, "nothing", "ничего")))
    return status


def run_register(args, out, err):
    place = (args.section, args.table) if args.table is not None else None
    got, status = _session(args, err, True, place)
    if got:
        db, p = got
        db.close()
        out.write(say(args, "terminal %s registered%s\n", "терминал %s зарегистрирован%s\n") % (
            p.terminal, say(args, " at table %s%d", " за столом %s%d") % (
                args.section.strip().upper(), args.table) if place else ""))
    return status


def run_serve(args, out, err):
    """Serve until Ctrl-C or SIGTERM, then say what was done and what is pending; exit 128 +
    the signal's number (130, 143), as a shell reports an interrupted command. With --once,
    stop when the terminals plugged in at the start have each synced or failed once: exit 0
    if none is pending, else 1; refused (2) when there is no terminal to sync."""
    code = _check_code(args)
    _quiet_logging(err)
    open_db(args.db).close()
    found = discover(args.port)
    if args.once and not found:
        raise Refused("--once: no terminal is plugged in (no USB terminal, no port matching "
                      "--port); nothing synced",
                      ru="--once: ни один терминал не подключён (нет USB-терминала, нет порта, "
                      "подходящего под --port); ничего не синхронизировано")
    indicators = None
    if args.station:
        from host_sync.station.gpio import GpioMissing
        from host_sync.station.indicators import Indicators
        try:
            indicators = Indicators()
        except GpioMissing as e:
            err.write("serve --station: %s\n" % e)
            return 2
    station = Station(args.db, args.port, register=args.register, timeout=args.timeout,
                      indicators=indicators, code=code, lang=args.lang)
    out.write(say(args, "watching %s\n", "слежу за %s\n") % (
        ", ".join(found) or say(args, "for terminals", "терминалами")))
    try:
        summary, stopped_by = serve_forever(station, once=args.once)
    finally:
        if indicators:
            indicators.close()
    out.write("\n" + summary_text(summary, args))
    if stopped_by is not None:
        return 128 + stopped_by
    return 1 if summary["pending"] else 0


# The pending reasons Station.summary names by a word (the others are a failed sync's message).
_WHY = {"abandoned": ("abandoned", "прервано"), "absent": ("port not found", "порт не найден")}


def summary_text(s, args):
    """The station's summary when it stops, for the scorer: what came in, what did not."""
    lines = [say(args, "stopped: %d terminals synced, %d records stored, %d repeats",
                 "остановлено: синхронизировано терминалов %d, сохранено записей %d, "
                 "повторов %d") % (len(s["terminals"]), s["stored"], s["repeats"])]
    if s["refused"]:
        lines.append(say(args, "refused: %s", "отвергнуто: %s") % ", ".join(
            "%s %d" % kv for kv in sorted(s["refused"].items())))
    lines.append(say(args, "flags raised: %d; open in the event: %d",
                     "новых флагов: %d; открытых в турнире: %d") % (s["flags"],
                                                                    s["open_flags"]))
    for port, terminal, left, why in s["pending"]:
        lines.append(say(args, "pending: %s (terminal %s): %s; %s",
                         "не закончено: %s (терминал %s): %s; %s") % (
            port, terminal or "?", say(args, *_WHY[why]) if why in _WHY else why,
            say(args, "%s records still on it", "на нём ещё записей: %s") % (
                "?" if left is None else left)))
    if not s["pending"]:
        lines.append(say(args, "nothing pending", "ничего не осталось"))
    return "\n".join(lines) + "\n"


def run_reset(args, out, err):
    db = open_db(args.db)
    try:
        row = setup.terminal(db, args.terminal)
        if row is None:
            raise Refused("no terminal %s is registered at this event" % args.terminal,
                          ru="терминал %s на этом турнире не зарегистрирован" % args.terminal)
        if not args.yes:
            stored = db.value("SELECT COUNT(*) FROM records WHERE terminal_id = ?",
                              (args.terminal,))
            out.write(say(args, "Terminal %s: the %d records stored stay. Its next sync takes "
                          "its journal from seq 1 again.\nOnly for a terminal whose flash was "
                          "wiped. Reset it? [y/N] ",
                          "Терминал %s: сохранённые записи (%d) остаются. Следующая "
                          "синхронизация примет его журнал снова с seq 1.\nТолько для "
                          "терминала со стёртой памятью. Сбросить? [д/Н] ")
                      % (args.terminal, stored))
            out.flush()
            reply = sys.stdin.readline()
            if reply.strip().lower() not in ("y", "yes", "д", "да"):
                raise Refused("not confirmed; nothing changed",
                              ru="не подтверждено; ничего не изменено")
        setup.reset_terminal(db, args.terminal, args.actor)
        out.write(say(args, "terminal %s reset: sync it now; its new records are stored after "
                      "seq %d\n", "терминал %s сброшен: синхронизируйте его; новые записи "
                      "сохранятся после seq %d\n") % (args.terminal, row["last_seq"]))
        return 0
    finally:
        db.close()
