"""The director's commands of `host-sync`: `flags` lists every flag, ruling, PIN tried on a
terminal's keypad and pairing with the station the event holds (host_sync.event.flags);
`result correct|adjust|delete` changes a table's result on a board in the correction period
(host_sync.event.corrections).
Russian by default, `--lang en`."""

import json

from bridge.seats import SEATS

from host_sync.cli.lang import EVENT_DB, lang_option, say, tr
from host_sync.cli.teams import warn_if_drawn_otherwise
from host_sync.event import corrections, flags, knockout_draw
from host_sync.event.db import open_db
from host_sync.event.results import ARTIFICIAL, contract_text

_TEXT = {
    "ru": {"session": "Сессия %s", "none": "Флагов и решений нет.", "open": "открыт",
           "ruled": "решён", "flag": "флаг", "ruling": "решение", "entry": "вход",
           "test": "проверка",
           "law": "Закон %s", "entries": ", входов по PIN: %d (неверных %d)",
           "pairings": ", связей со станцией: %d",
           "table": "стол %s", "round": "тур %s", "board": "сдача %s", "nowhere": "вне тура",
           "count": "флагов: %d (открыто %d), решений: %d",
           "line": "сдача %d, стол %s%d, тур %d: %s (было: %s)", "nothing": "нет результата",
           "passed": "все пасовали", "adjusted": "присуждённый счёт %s", "deleted": "удалён",
           "not_played": "не играна", "group": ", группа %s",
           "unverified": " (не подтверждён)",
           "what": {"accept": "принято", "reject": "отклонено", None: "применено движком",
                    "irregular": "нарушение", "dispute": "спор", "dircall": "вызов судьи",
                    "wrong_board": "не та сдача", "played_before": "сдача уже сыграна",
                    "out_of_order": "вне очереди", "journal_gap": "пропуск в журнале",
                    "invalid_record": "неверная запись", "no_round": "запись вне тура",
                    "after_close": "запись после закрытия тура",
                    "score_mismatch": "счёт не совпадает",
                    "tricks_mismatch": "взятки не совпадают с розыгрышем",
                    "contract_mismatch": "контракт не совпадает",
                    "no_contract": "нет контракта", "auction_incomplete": "торговля не окончена",
                    "result_exists": "результат уже подтверждён",
                    "not_in_movement": "нет в движении", "pairs_mismatch": "не те пары",
                    "table_claimed": "стол занят другим терминалом",
                    "host_correction_stands": "исправление на хосте остаётся в силе",
                    "pin_ok": "верный PIN", "pin_bad": "неверный PIN",
                    "pin_lock": "неверный PIN, PIN заблокирован",
                    "pin_lockout": "PIN заблокирован после неверных",
                    "selftest_ok": "самопроверка: все клавиши и флеш в порядке",
                    "selftest_bad": "самопроверка: не все клавиши или сбой флеша",
                    "paired": "связан со станцией",
                    "pair_key_mismatch": "ключ связи не этого турнира",
                    "card_refusals": "карты не приняты несколько раз",
                    "refused_card_held": "не принята карта этой руки"}},
    "en": {"session": "Session %s", "none": "No flags and no rulings.", "open": "open",
           "ruled": "ruled", "flag": "flag", "ruling": "ruling", "entry": "entry",
           "test": "check",
           "law": "Law %s", "entries": ", PIN entries: %d (%d wrong)",
           "pairings": ", pairings: %d",
           "table": "table %s", "round": "round %s", "board": "board %s",
           "nowhere": "outside a round", "count": "flags: %d (%d open), rulings: %d",
           "line": "board %d, table %s%d, round %d: %s (was: %s)", "nothing": "no result",
           "passed": "passed out", "adjusted": "adjusted score %s", "deleted": "deleted",
           "not_played": "not played", "group": ", group %s",
           "unverified": " (not verified)",
           "what": {"accept": "accepted", "reject": "rejected", None: "applied by the engine",
                    "irregular": "irregularity", "dispute": "dispute",
                    "dircall": "director called", "wrong_board": "wrong board",
                    "played_before": "board played before", "out_of_order": "out of order",
                    "journal_gap": "journal gap", "invalid_record": "invalid record",
                    "no_round": "record outside a round",
                    "after_close": "record after the round closed",
                    "score_mismatch": "score differs", "tricks_mismatch":
                    "tricks differ from the play", "contract_mismatch": "contract differs",
                    "no_contract": "no contract", "auction_incomplete": "auction not over",
                    "result_exists": "result already verified",
                    "not_in_movement": "not in the movement",
                    "pairs_mismatch": "pairs differ",
                    "table_claimed": "table claimed by another terminal",
                    "host_correction_stands": "the host's correction stands",
                    "pin_ok": "right PIN", "pin_bad": "wrong PIN",
                    "pin_lock": "wrong PIN, PIN locked",
                    "pin_lockout": "PIN locked after wrong ones",
                    "selftest_ok": "self-test: every key and the flash work",
                    "selftest_bad": "self-test: keys missing or the flash failed",
                    "paired": "paired with the station",
                    "pair_key_mismatch": "paired key not this event's",
                    "card_refusals": "cards refused several times",
                    "refused_card_held": "a card of that hand refused"}},
}


def add_commands(sub):
    fl = sub.add_parser("flags", help=tr("every flag, ruling and PIN entry of the event",
                                         "все флаги, решения и входы по PIN турнира"),
                        description=tr(
                            "Lists the director's flags (from the terminals and from the "
                            "host's checks) and rulings with their Law, table, round, board, "
                            "time and state, and every director's PIN tried on a terminal, "
                            "right or wrong.",
                            "Список флагов судьи (с терминалов и из проверок хоста) и решений: "
                            "Закон, стол, тур, сдача, время и состояние; и каждый PIN судьи, "
                            "набранный на терминале, верный или нет."))
    fl.add_argument("db", metavar="EVENT.db", help=EVENT_DB)
    fl.add_argument("--session", type=int, metavar="N", help=tr("only session N",
                                                                "только сессия N"))
    fl.add_argument("--open", action="store_true", help=tr("only the flags still open",
                                                           "только открытые флаги"))
    lang_option(fl)
    fl.set_defaults(run=run_flags)

    res_sub = sub.add_parser("result", help=tr(
        "correct, adjust or delete a table's result (Law 79C correction period)",
        "исправить, присудить или удалить результат стола (Закон 79C, период исправлений)"))
    res_sub = res_sub.add_subparsers(dest="result_command", metavar="ACTION")
    res_sub.required = True
    cor = _line_parser(res_sub, "correct", tr(
        "the contract, declarer and tricks of a result",
        "контракт, разыгрывающий и взятки результата"), tr(
        "CONTRACT is 4S, 3NTX, 2HXX (БК for NT) or pass; DECLARER N E S W (or С В Ю З); TRICKS "
        "declarer's tricks 0..13. The Law 77 score follows.",
        "CONTRACT — 4S, 3NTX, 2HXX (БК — без козыря) или pass; DECLARER — N E S W (или С В Ю "
        "З); TRICKS — взятки разыгрывающего 0..13. Счёт по Закону 77 следует из них."))
    cor.add_argument("contract", metavar="CONTRACT", help=tr("4S, 3NTX, 2HXX or pass",
                                                             "4S, 3NTX, 2HXX или pass"))
    cor.add_argument("declarer", metavar="DECLARER", nargs="?", help=tr(
        "N E S W (or С В Ю З)", "N E S W (или С В Ю З)"))
    cor.add_argument("tricks", metavar="TRICKS", nargs="?", help=tr(
        "declarer's tricks 0..13", "взятки разыгрывающего 0..13"))
    cor.set_defaults(run=run_correct)
    adj = _line_parser(res_sub, "adjust", tr("the director's adjusted score (Law 12C)",
                                             "присуждённый судьёй счёт (Закон 12C)"), tr(
        "One of: --artificial NS EW (A+, A, A- or 55%: 12C2), --assigned '4S N 10' (12C1a) or "
        "several weighted parts '60% 4S N 10' '40% 4S N 9' (12C1c), --split 'NS part' 'EW "
        "part' (each side its own score, 12C1e), --not-played.",
        "Одно из: --artificial NS EW (A+, A, A- или 55%: 12C2), --assigned '4S N 10' (12C1a) "
        "или несколько взвешенных частей '60% 4S N 10' '40% 4S N 9' (12C1c), --split 'часть "
        "NS' 'часть EW' (у каждой стороны свой счёт, 12C1e), --not-played."))
    adj.add_argument("--artificial", nargs=2, metavar=("NS", "EW"), help=tr(
        "artificial adjusted scores, A+ A A- or a percentage (Law 12C2)",
        "искусственный счёт, A+ A A- или процент (Закон 12C2)"))
    adj.add_argument("--assigned", nargs="+", metavar="PART", help=tr(
        "an assigned score '4S N 10', or weighted parts '60%% 4S N 10' (Law 12C1a, 12C1c)",
        "назначенный счёт '4S N 10' или взвешенные части '60%% 4S N 10' (Закон 12C1a, "
        "12C1c)"))
    adj.add_argument("--split", nargs=2, metavar=("NS_PART", "EW_PART"), help=tr(
        "each side its own assigned score (Law 12C1e)",
        "у каждой стороны свой назначенный счёт (Закон 12C1e)"))
    adj.add_argument("--not-played", action="store_true", help=tr(
        "the board was not played", "сдача не играна"))
    adj.set_defaults(run=run_adjust)
    dele = _line_parser(res_sub, "delete", tr("remove a table's result on a board",
                                              "удалить результат стола на сдаче"), tr(
        "The line leaves the traveller; the audit keeps its last values.",
        "Строка уходит из протокола; журнал изменений хранит её последние значения."))
    dele.set_defaults(run=run_delete)
    foul = _line_parser(res_sub, "fouled", tr(
        "put a table's result on a fouled board in a group (Law 81B)",
        "отнести результат стола на испорченной сдаче к группе (Закон 81Б)"), tr(
        "--group names the version of the board the table played (1 to 16 characters); the "
        "groups are scored apart, each raised to the whole field (Neuberg). --clear puts the "
        "line back with the board as dealt.",
        "--group — название варианта сдачи, который играл стол (от 1 до 16 знаков); группы "
        "считаются отдельно, каждая приводится ко всему полю (Нойберг). --clear возвращает "
        "строку к сдаче в её правильном виде."))
    foul.add_argument("--group", metavar="NAME", help=tr("the group's name",
                                                         "название группы"))
    foul.add_argument("--clear", action="store_true", help=tr(
        "no group: the board as dealt", "без группы: сдача в правильном виде"))
    foul.set_defaults(run=run_fouled)


def _line_parser(sub, name, help, description):
    """`result NAME EVENT.db --board B --table T [--section X] [--round R] [--session N]`."""
    p = sub.add_parser(name, help=help, description=description)
    p.add_argument("db", metavar="EVENT.db", help=EVENT_DB)
    p.add_argument("--board", type=int, required=True, help=tr("the board", "сдача"))
    p.add_argument("--table", type=int, required=True, help=tr("the table", "стол"))
    p.add_argument("--section", help=tr("the section letter (needed when there are several)",
                                        "буква секции (нужна, если их несколько)"))
    p.add_argument("--round", type=int, help=tr(
        "the round (needed if the table had the board twice)",
        "тур (нужен, если стол играл сдачу дважды)"))
    p.add_argument("--session", type=int, metavar="N", help=tr(
        "default: the current session", "по умолчанию текущая сессия"))
    p.add_argument("--actor", default=corrections.ACTOR, help=tr(
        "who the audit names (default: director)",
        "кого журнал изменений назовёт автором (по умолчанию director)"))
    lang_option(p)
    return p


def _change(args, out, err, write):
    """Locate the line, make the change, and say what it was and what it is now."""
    with open_db(args.db) as db:
        where = corrections.locate(db, args.board, args.table, args.section, args.round,
                                   args.session)
        old = write(db, where)
        new = db.one("SELECT * FROM results WHERE round_id = ? AND board = ?",
                     (where.round_id, where.board))
        warn_if_drawn_otherwise(args, db, db.value("SELECT number FROM sessions WHERE id = ?",
                                                   (where.session_id,)), err)
    t = _TEXT[args.lang]
    out.write(t["line"] % (where.board, where.section, where.table, where.round,
                           line_text(new, t) if new is not None else t["deleted"],
                           line_text(old, t)) + "\n")
    return 0


def run_correct(args, out, err):
    return _change(args, out, err, lambda db, where: corrections.correct(
        db, where, args.contract, args.declarer, args.tricks, args.actor))


def run_adjust(args, out, err):
    adj = corrections.adjustment(args.artificial, args.assigned, args.split, args.not_played)
    return _change(args, out, err, lambda db, where: corrections.adjust(db, where, adj, args.actor))


def run_delete(args, out, err):
    return _change(args, out, err, lambda db, where: corrections.delete(db, where, args.actor))


def run_fouled(args, out, err):
    if (args.group is None) == (not args.clear):
        raise corrections.CorrectionError("give --group NAME, or --clear",
                                          ru="укажите --group NAME или --clear")
    return _change(args, out, err, lambda db, where: corrections.fouled(db, where, args.group,
                                                                   args.actor))


def line_text(row, t):
    """A stored traveller line in a few words."""
    if row is None:
        return t["nothing"]
    if row["adjustment"]:
        text = t["adjusted"] % adjustment_text(json.loads(row["adjustment"]), t)
    elif row["passed_out"]:
        text = t["passed"]
    elif row["bid"] is None:
        text = "? %s" % row["tricks"]
    else:
        text = "%s, NS %+d" % (_part(row["bid"], row["risk"], row["declarer"], row["tricks"]),
                               row["score_ns"])
    if row["fouled"] is not None:
        text += t["group"] % row["fouled"]
    return text + ("" if row["verified"] else t["unverified"])


def adjustment_text(adj, t):
    """'A+ / A-', '4S N 10', '60% 4S N 10 + 40% 4S N 9', 'NS 4S N 10 / EW 4S N 9'."""
    how = adj["how"]
    if how == "np":
        return t["not_played"]
    if how == "art":  # as the director typed them: A+ (not 60%), which a teams match reads
        return "NS %s / EW %s" % (ARTIFICIAL.get(adj["ns"], "%d%%" % adj["ns"]),
                                  ARTIFICIAL.get(adj["ew"], "%d%%" % adj["ew"]))
    if how == "asg":
        return _part(adj["ct"], adj["x"], adj["dcl"], adj["tr"])
    if how == "split":
        return "NS %s / EW %s" % (_part(*adj["ns"]), _part(*adj["ew"]))
    return " + ".join("%d%% %s" % (p[0], _part(*p[1:])) for p in adj["parts"])


def _part(bid, risk, declarer, tricks):
    return "%s %s %d" % (contract_text(bid, risk), SEATS[declarer], tricks)


def run_flags(args, out, err):
    with open_db(args.db) as db:
        entries = flags.director_list(db, args.session, args.open)
        warnings = knockout_draw.draws_otherwise(db, args.session)
    out.write(flags_text(entries, args.lang))
    for w in warnings:  # a knockout round corrected after the next was drawn on it
        out.write(say(args, "warning: %s\n", "внимание: %s\n") % w.text(args.lang))
    return 0


def flags_text(entries, lang="ru"):
    """The director's list as lines of text in `lang`, a heading per session."""
    t = _TEXT[lang]
    if not entries:
        return t["none"] + "\n"
    lines, session = [], object()
    for e in entries:
        if e.session != session:
            session = e.session
            lines.append(t["session"] % (session if session is not None else "—"))
        lines.append("  " + _line(e, t, lang))
    found = [e for e in entries if e.kind == "flag"]
    tried = [e for e in entries if e.kind == "entry" and e.what != "paired"]
    paired = sum(e.kind == "entry" and e.what == "paired" for e in entries)
    lines.append(t["count"] % (len(found), sum(e.state == "open" for e in found),
                               sum(e.kind == "ruling" for e in entries)) +
                 (t["entries"] % (len(tried), sum(e.what != "pin_ok" for e in tried))
                  if tried else "") + (t["pairings"] % paired if paired else ""))
    return "\n".join(lines) + "\n"


def _line(e, t, lang):
    at = (e.at or "")[11:19] or "--:--:--"
    if e.table is None:
        where = t["nowhere"]
    else:
        where = "%s  %s" % (t["table"] % (e.section + str(e.table)), t["round"] % e.round)
    if e.board is not None:
        where += "  " + t["board"] % e.board
    law = t["law"] % e.law if e.law else "—"
    what = t["what"].get(e.what, e.what)
    text = "%s  %-26s %-11s %s: %s" % (at, where, law, t[e.kind], what)
    if e.kind == "flag":
        text += " [%s]" % t[e.state]
    if e.detail:
        text += " — " + flags.detail_text(e.detail, lang)
    return text + "  (%s #%s)" % (e.terminal or "-", e.seq if e.seq is not None else "-")
