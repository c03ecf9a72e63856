"""The scorer's set-up subcommands of `host-sync` (docs/SETUP.md): create an event and its
sessions from a movement, import names and player numbers (CSV) and hand records (PBN),
show what the event holds.

`add_commands(subparsers)` adds them to the main parser (host_sync.cli); each handler takes
(args, out, err) and returns 0; what it refuses it raises (host_sync.errors.Refused), which
host_sync.cli prints, exit 2, nothing stored. Every change is audited under --actor (default
"scorer").
"""

import os
from pathlib import Path

from host_sync import movements
from host_sync.cli.lang import EVENT_DB, lang_option, say, tr
from host_sync.event import corrections, knockout_draw, robin_days, setup, show, swiss_draw
from host_sync.event.db import open_db
from host_sync.interchange.deals import import_deals, read_deals
from host_sync.interchange.names_csv import import_names, read_names
from host_sync.movements.teams import MAX_TEAMS, team_of
from host_sync.scoring import team_session
from host_sync.text import ranges

KINDS = ("mitchell", "howell", "teams")
DEFAULT_BOARDS_PER_ROUND = 4


def add_commands(sub):
    ev_sub = actions(sub.add_parser("event", help=tr(
        "create an event database, or show what it holds",
        "создать базу турнира или показать, что в ней")), "event_command")
    create = ev_sub.add_parser("create", help=tr("a new event file and its first session",
                                                 "новый файл турнира и его первая сессия"),
                               description=tr("Creates EVENT.db with one event and session 1.",
                                              "Создаёт EVENT.db с одним турниром и сессией 1."))
    create.add_argument("db", metavar="EVENT.db", help=EVENT_DB)
    create.add_argument("--name", required=True, help=tr("the event's name",
                                                         "название турнира"))
    create.add_argument("--pin", help=tr("the director's PIN (4 to 8 digits)",
                                         "PIN судьи (от 4 до 8 цифр)"))
    _movement_options(create)
    _fact_options(create)
    actor_option(create)
    create.set_defaults(run=run_event_create)
    facts = ev_sub.add_parser("set", help=tr(
        "the event's date, venue, director or club (for the exports and the federation)",
        "дата, место, судья или клуб турнира (для экспорта и федерации)"))
    facts.add_argument("db", metavar="EVENT.db", help=EVENT_DB)
    _fact_options(facts)
    actor_option(facts)
    facts.set_defaults(run=run_event_set)
    shown = ev_sub.add_parser("show", help=tr("sessions, movements, pairs, boards and terminals",
                                              "сессии, движения, пары, сдачи и терминалы"))
    shown.add_argument("db", metavar="EVENT.db", help=EVENT_DB)
    lang_option(shown)
    shown.set_defaults(run=run_event_show)

    ses_sub = actions(sub.add_parser("session", help=tr(
        "add a session to the event, or choose the current",
        "добавить сессию турнира или выбрать текущую")), "session_command")
    add = ses_sub.add_parser("add", help=tr("another session of the event, with its movement",
                                            "ещё одна сессия турнира, с её движением"))
    add.add_argument("db", metavar="EVENT.db", help=EVENT_DB)
    add.add_argument("--number", type=int, help=tr("the session's number (default: the next)",
                                                   "номер сессии (по умолчанию следующий)"))
    add.add_argument("--later", action="store_true", help=tr(
        "keep the current session current (terminals get this one once it is made current "
        "with `session current`)",
        "текущая сессия остаётся текущей (терминалы получат эту, когда её сделают текущей "
        "командой `session current`)"))
    _movement_options(add)
    actor_option(add)
    add.set_defaults(run=run_session_add)
    _session_command(ses_sub, "current", tr(
        "the session the terminals get at their next sync",
        "сессия, которую терминалы получат при следующей синхронизации"),
        run_session_current, "number", tr("the session's number", "номер сессии"))
    _session_command(ses_sub, "close", tr(
        "end the session's correction period (Law 79C): terminal corrections after it are "
        "flagged, not applied",
        "закончить период исправлений сессии (закон 79C): исправления с терминалов после "
        "него отмечаются судье и не применяются"),
        run_session_close, "--session", tr("the session's number (default: the current)",
                                           "номер сессии (по умолчанию текущая)"))

    _import_command(sub, "names", tr("pair names and player numbers",
                                     "имена пар и номера игроков"),
                    tr("names from a CSV file", "имена из файла CSV"),
                    "NAMES.csv", run_names_import, tr(
                        "CSV columns: section, pair, player1, player2 and optionally number1, "
                        "number2 (federation player numbers). UTF-8 or Windows-1251, separated "
                        "by commas or semicolons. All lines or none are stored.",
                        "Столбцы CSV: section, pair, player1, player2 и по желанию number1, "
                        "number2 (номера игроков в федерации). UTF-8 или Windows-1251, через "
                        "запятую или точку с запятой. Сохраняются все строки или ни одной."))
    _import_command(sub, "deals", tr("hand records", "расклады"),
                    tr("hand records from a PBN file", "расклады из файла PBN"), "DEALS.pbn",
                    run_deals_import, tr(
                        "Each game's Board and Deal; every deal must be whole and valid. "
                        "Dealer and vulnerability other than Law 2's are kept with a warning. "
                        "All boards or none are stored.",
                        "Board и Deal каждой игры; каждый расклад полный и правильный. Сдающий "
                        "и зональность не по Закону 2 сохраняются с предупреждением. "
                        "Сохраняются все сдачи или ни одной."))


def _session_command(ses_sub, name, what, run, session_arg, session_help):
    """`session NAME EVENT.db` with its session number (`session_arg`: positional or an
    option) and --actor."""
    parser = ses_sub.add_parser(name, help=what)
    parser.add_argument("db", metavar="EVENT.db", help=EVENT_DB)
    parser.add_argument(session_arg, type=int, metavar="SESSION", help=session_help)
    actor_option(parser)
    parser.set_defaults(run=run)


def actions(parser, dest, metavar="ACTION"):
    """The subcommands of `parser` (one of them must be given): `host-sync COMMAND`,
    `host-sync event ACTION`..."""
    sub = parser.add_subparsers(dest=dest, metavar=metavar)
    sub.required = True
    return sub


def _import_command(sub, noun, help, what, file_metavar, run, description):
    """`host-sync NOUN import EVENT.db FILE [--session N] [--actor NAME]`."""
    imp = actions(sub.add_parser(noun, help=help), noun + "_command").add_parser(
        "import", help=what, description=description)
    imp.add_argument("db", metavar="EVENT.db", help=EVENT_DB)
    imp.add_argument("file", metavar=file_metavar, help=tr("the file to import",
                                                           "файл, который импортировать"))
    imp.add_argument("--session", type=int, help=tr("session number (default: the current)",
                                                    "номер сессии (по умолчанию текущая)"))
    actor_option(imp)
    imp.set_defaults(run=run)


def _fact_options(parser):
    parser.add_argument("--date", dest="held_on", metavar="YYYY-MM-DD", help=tr(
        "the date the event is played", "дата проведения турнира"))
    parser.add_argument("--venue", help=tr("where it is played", "место проведения"))
    parser.add_argument("--director", help=tr("the tournament director's name",
                                              "имя судьи турнира"))
    parser.add_argument("--club", help=tr("the club that holds it", "клуб-организатор"))
    parser.add_argument("--bye-vp", metavar="VP", help=tr(
        "teams: the VPs of a bye, as the event's conditions say (default 12)",
        "команды: ВП за свободный тур, как в положении о турнире (по умолчанию 12)"))
    parser.add_argument("--tie-break", choices=team_session.TIE_BREAKS, help=tr(
        "teams: equal VPs share the place (shared, the default), or the IMP quotient, IMPs "
        "won over IMPs lost, splits them (quotient)", "команды: при равенстве ВП место "
        "делится (shared, по умолчанию) или его решает коэффициент ИМПов, выигранные к "
        "проигранным (quotient)"))


def _facts(args):
    return {c: getattr(args, c) for c, _, _ in setup.EVENT_FACTS}


def actor_option(parser):
    parser.add_argument("--actor", default=setup.ACTOR, help=tr(
        "who the audit trail names for these changes (default: scorer)",
        "кого журнал изменений назовёт автором (по умолчанию scorer)"))


def _movement_options(parser):
    g = parser.add_argument_group(tr("movement", "движение"))
    g.add_argument("--movement", choices=KINDS, default="mitchell",
                   help=tr("the movement (default mitchell)", "движение (по умолчанию mitchell)"))
    g.add_argument("--sections", default="A", metavar="A,B", help=tr(
        "section letters; each section plays its own movement (default A)",
        "буквы секций; каждая секция играет своё движение (по умолчанию A)"))
    g.add_argument("--tables", metavar="N[,N...]", help=tr(
        "Mitchell or Howell tables: one number for every section, or one per section",
        "столы Митчелла или Хоуэлла: одно число для всех секций или по одному на секцию"))
    g.add_argument("--teams", type=int, metavar="N", help=tr(
        "teams movement: a round robin of N teams, two tables a match",
        "командное движение: круговой турнир N команд, два стола на матч"))
    g.add_argument("--matches", metavar="FIRST-LAST", help=tr(
        "teams: the rounds of the round robin this session plays (a round robin over several "
        "sessions: 1-5, then 6-9; default all)", "команды: туры кругового турнира, которые "
        "играет эта сессия (круговой на несколько сессий: 1-5, затем 6-9; по умолчанию все)"))
    g.add_argument("--cycles", type=int, metavar="C", help=tr(
        "teams: the round robin's cycles (rule book 1.5.3: everyone meets everyone C times, "
        "home and away swapped in each next cycle; default 1); --matches counts over them all",
        "команды: число кругов кругового турнира (регламент 1.5.3: каждый встречается с "
        "каждым C раз, в следующем круге хозяева и гости меняются; по умолчанию 1); "
        "--matches считает туры всех кругов"))
    g.add_argument("--round-order", metavar="R1,R2,...", help=tr(
        "teams: the round robin's rounds in the order the chief director set (rule book "
        "1.5.3), each of its rounds once; default Berger's order", "команды: туры кругового "
        "турнира в порядке, установленном главным судьёй (регламент 1.5.3), каждый по разу; "
        "по умолчанию порядок Бергера"))
    g.add_argument("--swiss", action="store_true", help=tr(
        "teams: one round of a Swiss (rule book 1.5.6), a session a round: the first drawn at "
        "random among --teams N, each next one from the event's standings (its sections are "
        "those of the session before)", "команды: один тур по швейцарской системе (регламент "
        "1.5.6), сессия на тур: первый — случайно среди --teams N, каждый следующий — по "
        "положению команд в турнире (секции те же, что в предыдущей сессии)"))
    g.add_argument("--knockout", action="store_true", help=tr(
        "teams: one round of a knockout (rule book 1.5.4), a session a round, each match won on "
        "total IMPs over --segments: the first seeds --teams N (1 meets N) or, after a "
        "qualifying stage, its best N; each next round the winners of the last",
        "команды: один тур олимпийской системы (регламент 1.5.4), сессия на тур, матч "
        "решается суммой ИМПов за --segments: первый тур рассеивает --teams N (1 играет с N) "
        "или, после отборочного этапа, его N лучших; каждый следующий — победители "
        "предыдущего"))
    g.add_argument("--double", action="store_true", help=tr(
        "--knockout: out after two defeats (rule book 1.5.5): a team that loses goes down to "
        "the lower bracket; the two brackets' winners meet in the grand final (twice, if the "
        "upper bracket's winner loses the first)", "--knockout: выбывание после двух "
        "поражений (регламент 1.5.5): проигравшая команда уходит в нижнюю сетку; победители "
        "сеток встречаются в финале (дважды, если победитель верхней проиграет первый)"))
    g.add_argument("--segments", type=int, metavar="S", help=tr(
        "--knockout: the segments of each match (default 1), each its own boards",
        "--knockout: сегментов в матче (по умолчанию 1), у каждого свои сдачи"))
    g.add_argument("--seed", type=int, metavar="N", help=tr(
        "--swiss: the draw's seed (default a new one, printed and kept): the same seed over "
        "the same standings draws the same round", "--swiss: зерно жеребьёвки (по умолчанию "
        "новое, печатается и сохраняется): то же зерно при том же положении даёт тот же тур"))
    g.add_argument("--boards-per-round", type=int, metavar="N", help=tr(
        "boards per round (default %d)" % DEFAULT_BOARDS_PER_ROUND,
        "сдач в раунде (по умолчанию %d)" % DEFAULT_BOARDS_PER_ROUND))
    g.add_argument("--boards", type=int, metavar="N", help=tr(
        "boards in the session, in place of --boards-per-round: divided among the movement's "
        "board sets",
        "сдач в сессии вместо --boards-per-round: делятся между комплектами сдач движения"))
    g.add_argument("--rounds", type=int, help=tr("Mitchell: rounds to play (default: all)",
                                                 "Митчелл: сколько раундов играть (по "
                                                 "умолчанию все)"))
    g.add_argument("--arrow-switch", metavar="last|R1,R2", help=tr(
        "Mitchell: switch the arrow in the last round or in these rounds",
        "Митчелл: смена направлений в последнем раунде или в этих раундах"))


# -- movements from the options -------------------------------------------------------------

def section_movements(args):
    """{section letter: Movement} the options describe; SetupError or MovementError says what
    does not fit."""
    letters = [x.strip().upper() for x in args.sections.split(",")]
    if len(set(letters)) != len(letters) or not all(
            len(x) == 1 and x in setup.SECTION_LETTERS for x in letters):
        raise setup.SetupError("--sections takes different letters A to Z separated by "
                               "commas, not %r" % args.sections,
                               ru="--sections: разные буквы от A до Z через запятую, а не %r"
                               % args.sections)
    kind = args.movement
    if kind != "mitchell" and (args.rounds or args.arrow_switch):
        raise setup.SetupError("--rounds and --arrow-switch are for a Mitchell",
                               ru="--rounds и --arrow-switch только для Митчелла")
    if kind == "teams":
        return _teams_sections(args, letters)
    if args.teams is not None or args.matches is not None or args.swiss or args.knockout \
            or args.double or args.seed is not None or args.segments is not None \
            or args.cycles is not None or args.round_order is not None:
        raise setup.SetupError("--teams, --matches, --cycles, --round-order, --swiss, "
                               "--knockout, --double, --segments and --seed are for --movement "
                               "teams", ru="--teams, --matches, --cycles, --round-order, "
                               "--swiss, --knockout, --double, --segments и --seed только для "
                               "--movement teams")
    tables = _tables(args.tables, len(letters))
    build = _mitchell if kind == "mitchell" else _howell
    return {x: build(args, n) for x, n in zip(letters, tables)}


def _tables(text, sections):
    if not text:
        raise setup.SetupError("--tables N is needed for a Mitchell or Howell",
                               ru="для Митчелла или Хоуэлла нужно --tables N")
    try:
        counts = [int(x) for x in text.split(",")]
    except ValueError:
        raise setup.SetupError("--tables takes numbers separated by commas, not %r" % text,
                               ru="--tables: числа через запятую, а не %r" % text) from None
    if len(counts) == 1:
        counts *= sections
    if len(counts) != sections:
        raise setup.SetupError("--tables gives %d numbers for %d sections"
                               % (len(counts), sections), ru="--tables: чисел %d, а секций %d"
                               % (len(counts), sections))
    return counts


def _boards_per_set(args, sets):
    """--boards-per-round, or --boards divided among the movement's `sets` board sets."""
    if args.boards is None:
        if args.boards_per_round is None:
            return DEFAULT_BOARDS_PER_ROUND
        return args.boards_per_round  # the movement refuses 0 and negative numbers
    if args.boards < 1 or args.boards % sets:
        raise setup.SetupError("%d boards do not divide among the movement's %d board sets"
                               % (args.boards, sets), ru="%d сдач не делятся между %d "
                               "комплектами сдач движения" % (args.boards, sets))
    per_set = args.boards // sets
    if args.boards_per_round not in (None, per_set):
        raise setup.SetupError("--boards %d makes %d boards a round, not %d" % (
            args.boards, per_set, args.boards_per_round), ru="--boards %d даёт %d сдач в "
            "раунде, а не %d" % (args.boards, per_set, args.boards_per_round))
    return per_set


def _mitchell(args, tables):
    switch = args.arrow_switch or ()
    if switch and switch != "last":
        switch = switch.split(",")
    return movements.mitchell(tables, _boards_per_set(args, tables), args.rounds, switch)


def _howell(args, tables):
    return movements.howell(tables, _boards_per_set(args, 2 * tables - 1))


def _teams_sections(args, letters):
    """The sections of a teams session; None for a Swiss or knockout round that only the
    event's database can draw (run_session_add: a round after the first, or a knockout
    seeded from a qualifying stage)."""
    if args.tables:
        raise setup.SetupError("a teams movement takes --teams N (two tables a match), not "
                               "--tables", ru="командному движению нужно --teams N (два стола "
                               "на матч), а не --tables")
    if args.teams is not None and args.teams > MAX_TEAMS:
        raise setup.SetupError("at most %d teams (%d tables), not %d" % (
            MAX_TEAMS, 2 * MAX_TEAMS, args.teams), ru="не больше %d команд (%d столов), а не "
            "%d" % (MAX_TEAMS, 2 * MAX_TEAMS, args.teams))
    if (args.segments is not None or args.double) and not args.knockout:
        raise setup.SetupError("--segments and --double are for --knockout",
                               ru="--segments и --double только для --knockout")
    if args.knockout:
        if args.swiss or args.matches is not None or args.seed is not None:
            raise setup.SetupError("--knockout takes no --swiss, --matches nor --seed",
                                   ru="--knockout без --swiss, --matches и --seed")
        if len(letters) > 1:
            raise knockout_draw.KnockoutError("a knockout is one bracket: one section",
                                              ru="олимпийская система — одна сетка: одна "
                                              "секция")
        if args.teams is None:
            return None
        segments = _segments(args)
        return {letters[0]: knockout_draw.first_round(
            list(range(1, args.teams + 1)), segments, _boards_per_set(args, segments),
            args.double)}
    if args.swiss:
        if args.matches is not None:
            raise setup.SetupError("--matches is for a round robin, not --swiss",
                                   ru="--matches — для кругового турнира, не для --swiss")
        if args.teams is None:
            return None
        return swiss_draw.first_round(args.teams, _boards_per_set(args, 1),
                                      swiss_draw.check_seed(args.seed), letters)
    if args.teams is None:
        raise setup.SetupError("a teams movement takes --teams N (two tables a match)",
                               ru="командному движению нужно --teams N (два стола на матч)")
    if args.seed is not None:
        raise setup.SetupError("--seed is for --swiss", ru="--seed только для --swiss")
    cycles = 1 if args.cycles is None else args.cycles
    if not 1 <= cycles <= robin_days.MAX_CYCLES:
        raise setup.SetupError("--cycles is 1 to %d, not %d" % (robin_days.MAX_CYCLES, cycles),
                               ru="--cycles — от 1 до %d, а не %d" % (robin_days.MAX_CYCLES,
                                                                 cycles))
    order = None if args.round_order is None else _round_order(args.round_order)
    schedule = movements.round_robin(args.teams, cycles, order)
    if args.matches is not None:
        first, last = _round_span(args.matches, len(schedule.rounds))
        schedule = movements.Schedule(schedule.participants, schedule.rounds[first - 1:last],
                                      schedule.kind)
    options = {"robin": args.teams}  # 5.7.3 counts over it all
    if cycles > 1:
        options["cycles"] = cycles
    if order is not None:
        options["order"] = order
    if args.matches is not None and first > 1:
        options["first_round"] = first  # numbered as the whole round robin numbers them
    movement = movements.teams_movement(schedule, _boards_per_set(args, len(schedule.rounds)),
                                        options)
    return {x: movement for x in letters}


def _segments(args):
    """--segments, 1 when not given (knockout_draw checks the number)."""
    return 1 if args.segments is None else args.segments


def _round_order(text):
    """The rounds of "R1,R2,..." (round_robin checks that they are its rounds, once each)."""
    parts = text.split(",")
    if not all(p.strip().isascii() and p.strip().isdigit() for p in parts):
        raise setup.SetupError("--round-order takes round numbers separated by commas, not %r"
                               % text, ru="--round-order: номера туров через запятую, а не %r"
                               % text)
    return [int(p) for p in parts]


def _round_span(text, rounds):
    """(first, last) of "FIRST-LAST" (or one round "R") within 1..rounds."""
    first, _, last = str(text).partition("-")
    span = [int(x) if x.isascii() and x.isdigit() else 0 for x in (first, last or first)]
    if not 1 <= span[0] <= span[1] <= rounds:
        raise setup.SetupError("--matches %s: the round robin has rounds 1 to %d (FIRST-LAST)"
                               % (text, rounds), ru="--matches %s: в круговом турнире туры с "
                               "1 по %d (ПЕРВЫЙ-ПОСЛЕДНИЙ)" % (text, rounds))
    return tuple(span)


def _describe(args, number, sections):
    lines = []
    for letter, mv in sections.items():
        boards = [b for s in range(1, mv.sets + 1) for b in mv.board_numbers(s)]
        lines.append(say(args, "session %d section %s: %s, %d tables, %d rounds, boards %s\n",
                         "сессия %d, секция %s: %s, столов %d, раундов %d, сдачи %s\n") % (
            number, letter, mv.kind, mv.tables, mv.round_count, ranges(boards)))
        if mv.options.get("schedule") in ("swiss", "knockout"):
            lines.append(_draw_text(args, mv))
    return "".join(lines)


def _draw_text(args, mv):
    """A Swiss or knockout round's draw as the director reads it out: the matches, top table
    first, the teams with a bye, and a Swiss's seed that draws it again."""
    first_tables = [s for s in mv.rounds[0] if s.table % 2]
    matches = ", ".join(say(args, "%d v %d (tables %d-%d)", "%d — %d (столы %d-%d)") % (
        team_of(s.ns), team_of(s.ew), s.table, s.table + 1) for s in first_tables)
    seated = {team_of(p) for s in mv.rounds[0] for p in (s.ns, s.ew)}
    if mv.options["schedule"] == "knockout":
        through = [t for t in mv.options["bracket"] + mv.options.get("lower", [])
                   if t and t not in seated]
        rest = say(args, "; through without a match: %s", "; проходят без матча: %s") % (
            ", ".join(map(str, through))) if through else ""
        origins = mv.options.get("from")
        numbered = say(args, "\n  numbered for the knockout: %s", "\n  номера в олимпийской "
                       "системе: %s") % show.numbering(origins) if origins else ""
        return say(args, "  knockout round (teams: %d): %s%s%s\n",
                   "  тур олимпийской системы (команд: %d): %s%s%s\n") % (
            len([t for t in mv.options["bracket"] + mv.options.get("lower", []) if t]),
            matches, rest, numbered)
    byes = sorted({team_of(p) for p in mv.pairs} - seated)
    bye = say(args, "; bye: %s", "; свободна: %s") % ", ".join(map(str, byes)) if byes else ""
    return say(args, "  Swiss draw (seed %d): %s%s\n", "  жеребьёвка (зерно %d): %s%s\n") % (
        mv.options["seed"], matches, bye)


# -- handlers -------------------------------------------------------------------------------

def run_event_create(args, out, err):
    sections = section_movements(args)  # everything is checked before the file is touched
    if sections is None:
        raise setup.SetupError("the first round of a Swiss or a knockout takes --teams N",
                               ru="первому туру швейцарской или олимпийской системы нужно "
                               "--teams N")
    if args.pin:
        setup.check_pin(args.pin)
    if args.bye_vp is not None:
        team_session.check_bye_vp(args.bye_vp)
    path = Path(args.db)
    existed = path.exists()
    try:
        with open_db(args.db, create=True) as db:
            if db.value("SELECT COUNT(*) FROM events"):
                raise setup.SetupError("%s already holds an event" % args.db,
                                       ru="в %s уже есть турнир" % args.db)
            with db.transaction():
                eid = setup.create_event(db, args.name, args.actor)
                setup.set_event_facts(db, eid, _facts(args), args.actor)
                setup.set_team_conditions(db, eid, args.bye_vp, args.tie_break, args.actor)
                setup.new_session(db, eid, 1, sections, actor=args.actor)
                if args.pin:
                    setup.set_director_pin(db, eid, args.pin, args.actor)
    except BaseException:
        if not existed:
            _remove_database(path)
        raise
    out.write(say(args, "event %r in %s\n", "турнир %r в %s\n") % (args.name.strip(), args.db)
              + _describe(args, 1, sections))
    return 0


def _remove_database(path):
    """A file this command created and could not finish leaves nothing behind."""
    for suffix in ("", "-wal", "-shm"):
        try:
            os.remove(str(path) + suffix)
        except FileNotFoundError:
            pass


def run_event_set(args, out, err):
    with open_db(args.db) as db:
        event_id = setup.the_event(db)[0]
        with db.transaction():  # all of it, read back whole, or nothing
            changed = setup.set_event_facts(db, event_id, _facts(args), args.actor)
            changed.update(setup.set_team_conditions(db, event_id, args.bye_vp,
                                                     args.tie_break, args.actor))
            if not changed:
                raise setup.SetupError("give at least one of --date, --venue, --director, "
                                       "--club, --bye-vp, --tie-break", ru="укажите хотя бы "
                                       "одно из --date, --venue, --director, --club, --bye-vp, "
                                       "--tie-break")
            text = show.facts(db, event_id, args.lang)
        out.write(text)
    return 0


def run_event_show(args, out, err):
    with open_db(args.db) as db:
        out.write(show.summary(db, args.lang))
    return 0


def run_session_add(args, out, err):
    sections = section_movements(args)
    with open_db(args.db) as db:
        eid = setup.the_event(db)[0]
        if args.swiss:  # drawn on the standings so far, or the first round at random
            sections = swiss_draw.draw(db, sections, _boards_per_set(args, 1),
                                       swiss_draw.check_seed(args.seed))
        elif args.knockout:  # seeded, from a qualifying stage, or the last round's winners
            segments = _segments(args)
            sections = knockout_draw.draw(db, args.teams, segments,
                                          _boards_per_set(args, segments), args.double)
        number = args.number
        if number is None:
            number = (db.value("SELECT MAX(number) FROM sessions WHERE event_id = ?",
                               (eid,)) or 0) + 1
        robin_days.check_day(db, eid, number, sections)
        sid = setup.new_session(db, eid, number, sections, current=not args.later,
                                actor=args.actor)
        carried = setup.carry_players(db, sid, args.actor)
    out.write(_describe(args, number, sections))
    if carried:
        out.write(say(args, "%d pairs named as the event's earlier teams sessions named them\n",
                      "пар с именами, как в прежних командных сессиях: %d\n") % carried)
    return 0


def run_session_current(args, out, err):
    with open_db(args.db) as db:
        setup.set_current_session(db, setup.the_event(db)[0], args.number, args.actor)
    out.write(say(args, "session %d is current: terminals get it at their next sync\n",
                  "сессия %d текущая: терминалы получат её при следующей синхронизации\n")
              % args.number)
    return 0


def run_session_close(args, out, err):
    with open_db(args.db) as db:
        number = corrections.close_period(db, args.session, args.actor)
    out.write(say(args, "session %d: the correction period is over; terminal corrections "
                        "synced from now on are flagged for the director\n",
                  "сессия %d: период исправлений закончен; исправления с терминалов, "
                  "полученные теперь, отмечаются судье\n") % number)
    return 0


def run_names_import(args, out, err):
    entries = read_names(args.file)  # the file is checked before the database is opened
    with open_db(args.db) as db:
        sid = setup.session_id(db, setup.the_event(db)[0], args.session)
        pairs, teams = import_names(db, sid, entries, args.file, args.actor)
    out.write(say(args, "%d pairs named from %s\n", "пар с именами: %d, из %s\n")
              % (pairs, args.file))
    if teams:
        out.write(say(args, "%d teams named\n", "команд с названиями: %d\n") % teams)
    return 0


def run_deals_import(args, out, err):
    records, warnings = read_deals(args.file)
    for w in warnings:
        err.write(say(args, "warning: %s\n", "предупреждение: %s\n") % w)
    with open_db(args.db) as db:
        sid = setup.session_id(db, setup.the_event(db)[0], args.session)
        done = import_deals(db, sid, records, args.actor)
    out.write(say(args, "hand records stored for boards %s%s\n",
                  "расклады сохранены для сдач %s%s\n") % (
        ranges(done.stored + done.replaced) or "-",
        say(args, " (replacing %s)", " (вместо прежних %s)") % ranges(done.replaced)
        if done.replaced else ""))
    if done.outside:
        out.write(say(args, "not played in the session, not stored: boards %s\n",
                      "в сессии не играются, не сохранены: сдачи %s\n") % ranges(done.outside))
    if done.missing:
        out.write(say(args, "still without a hand record: boards %s\n",
                      "ещё без расклада: сдачи %s\n") % ranges(done.missing))
    return 0
