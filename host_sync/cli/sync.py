"""The sync station's subcommands of `host-sync`: terminal registration, sync, serve (the
event's set-up is host_sync.cli.setup).

`add_commands(subparsers)` adds them to the main parser (host_sync.cli); each handler takes
(args, out, err) and returns the exit status.
"""

import logging
import sys

import serial

from host_sync.cli.setup import actions, actor_option
from host_sync.errors import Refused
from host_sync.event import setup
from host_sync.event.db import DatabaseError, open_db
from host_sync.station import link
from host_sync.station.serve import BAUD, Station, discover, serve_forever
from host_sync.station.sync import Session, SyncFailed


def add_commands(sub):
    term_sub = actions(sub.add_parser("terminal", help="register a terminal at this event, or "
                                                       "reset a wiped one"), "terminal_command")
    reg = term_sub.add_parser("register", help="give the terminal on PORT the event's key")
    reg.add_argument("db", metavar="EVENT.db")
    reg.add_argument("--port", required=True)
    reg.add_argument("--section", default="A")
    reg.add_argument("--table", type=int, help="the table it will sit on")
    _code_option(reg, required=True)
    reg.set_defaults(run=run_register)
    reset = term_sub.add_parser(
        "reset", help="take a wiped terminal's journal from seq 1 again",
        description="For a terminal whose flash was wiped (same identity, journal restarted "
                    "at seq 1), which sync refuses: its next sync re-registers it and stores "
                    "the new journal after what is stored. Nothing stored is changed.")
    reset.add_argument("db", metavar="EVENT.db")
    reset.add_argument("terminal", metavar="ID", help="the terminal's identity")
    reset.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    actor_option(reset)
    reset.set_defaults(run=run_reset)

    sync = sub.add_parser("sync", help="sync the terminal on one port")
    sync.add_argument("db", metavar="EVENT.db")
    sync.add_argument("--port", required=True)
    sync.add_argument("--register", action="store_true",
                      help="register the terminal if this event does not know it")
    _code_option(sync)
    sync.add_argument("--timeout", type=float, default=1.0, help="seconds per answer")
    sync.set_defaults(run=run_sync)

    srv = sub.add_parser("serve", help="sync every terminal plugged in, several at once")
    srv.add_argument("db", metavar="EVENT.db")
    srv.add_argument("--port", action="append", default=[], metavar="PATH_OR_GLOB",
                     help="also watch these ports (USB terminals are found by VID:PID)")
    srv.add_argument("--register", action="store_true",
                     help="register terminals this event does not know")
    _code_option(srv)
    srv.add_argument("--station", action="store_true",
                     help="drive the Raspberry Pi station's LEDs and buzzer (RPi.GPIO)")
    srv.add_argument("--timeout", type=float, default=1.0, help="seconds per answer")
    srv.set_defaults(run=run_serve)


def _code_option(parser, required=False):
    parser.add_argument("--code", required=required, metavar="CODE",
                        help="the pairing code the terminal shows (director mode, 6): the "
                             "only way it takes this event's key")


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


def _session(args, err, register, place=None, command="sync"):
    code = _check_code(args)
    _quiet_logging(err)
    try:
        db = open_db(args.db)
    except DatabaseError as e:
        err.write("%s\n" % e)
        return None, 2
    if place:
        try:  # refused before the port is opened: nothing is stored
            place = (setup.check_place(db, *place), place[1])
        except setup.SetupError as e:
            err.write("%s: %s\n" % (command, e))
            db.close()
            return None, 2
    try:
        with serial.Serial(args.port, BAUD, timeout=0.02) as port:
            p = Session(db, port, name=args.port, register=register, place=place,
                        timeout=getattr(args, "timeout", 1.0), code=code).run()
        return (db, p), 0
    except (SyncFailed, setup.SetupError, serial.SerialException, OSError) as e:
        said = e.text(getattr(args, "lang", "en")) if isinstance(e, Refused) else e
        err.write("%s: %s\n" % (args.port, said))
        db.close()
        return None, 1


def run_sync(args, out, err):
    got, status = _session(args, err, args.register)
    if got:
        db, p = got
        db.close()
        out.write("%s: terminal %s: %d stored, %d repeats, refused %s\n" % (
            args.port, p.terminal, p.stored, p.duplicates, dict(p.refused) or "nothing"))
    return status


def run_register(args, out, err):
    place = (args.section, args.table) if args.table is not None else None
    got, status = _session(args, err, True, place, "terminal register")
    if got:
        db, p = got
        db.close()
        out.write("terminal %s registered%s\n" % (p.terminal, " at table %s%d" % (
            args.section.strip().upper(), args.table) if place else ""))
    return status


def run_serve(args, out, err):
    code = _check_code(args)
    _quiet_logging(err)
    try:
        open_db(args.db).close()
    except DatabaseError as e:
        err.write("%s\n" % e)
        return 2
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
                      indicators=indicators, code=code)
    out.write("watching %s\n" % (", ".join(discover(args.port)) or "for terminals"))
    try:
        serve_forever(station)
    finally:
        if indicators:
            indicators.close()
    return 0


def run_reset(args, out, err):
    try:
        db = open_db(args.db)
    except DatabaseError as e:
        err.write("%s\n" % e)
        return 2
    try:
        row = setup.terminal(db, args.terminal)
        if row is None:
            err.write("terminal reset: no terminal %s is registered at this event\n" %
                      args.terminal)
            return 2
        if not args.yes:
            stored = db.value("SELECT COUNT(*) FROM records WHERE terminal_id = ?",
                              (args.terminal,))
            out.write("Terminal %s: the %d records stored stay. Its next sync takes its "
                      "journal from seq 1 again.\nOnly for a terminal whose flash was wiped. "
                      "Reset it? [y/N] " % (args.terminal, stored))
            out.flush()
            reply = sys.stdin.readline()
            if reply.strip().lower() not in ("y", "yes"):
                err.write("terminal reset: not confirmed; nothing changed\n")
                return 2
        setup.reset_terminal(db, args.terminal, args.actor)
        out.write("terminal %s reset: sync it now; its new records are stored after seq "
                  "%d\n" % (args.terminal, row["last_seq"]))
        return 0
    finally:
        db.close()
