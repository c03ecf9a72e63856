"""The director's commands of `host-sync`: `flags` lists every flag and ruling the event holds
(host_sync.event.flags), in Russian by default or English with `--lang en`."""

from host_sync.event import flags
from host_sync.event.db import open_db

LANGUAGES = ("ru", "en")

_TEXT = {
    "ru": {"session": "Сессия %s", "none": "Флагов и решений нет.", "open": "открыт",
           "ruled": "решён", "flag": "флаг", "ruling": "решение", "law": "Закон %s",
           "table": "стол %s", "round": "тур %s", "board": "сдача %s", "nowhere": "вне тура",
           "count": "флагов: %d (открыто %d), решений: %d",
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
                    "table_claimed": "стол занят другим терминалом"}},
    "en": {"session": "Session %s", "none": "No flags and no rulings.", "open": "open",
           "ruled": "ruled", "flag": "flag", "ruling": "ruling", "law": "Law %s",
           "table": "table %s", "round": "round %s", "board": "board %s",
           "nowhere": "outside a round", "count": "flags: %d (%d open), rulings: %d",
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
                    "table_claimed": "table claimed by another terminal"}},
}


def add_commands(sub):
    fl = sub.add_parser("flags", help="every flag and ruling of the event, open or ruled",
                        description="Lists the director's flags (from the terminals and from "
                                    "the host's checks) and rulings with their Law, table, "
                                    "round, board, time and state.")
    fl.add_argument("db", metavar="EVENT.db")
    fl.add_argument("--session", type=int, metavar="N", help="only session N")
    fl.add_argument("--open", action="store_true", help="only the flags still open")
    fl.add_argument("--lang", choices=LANGUAGES, default="ru")
    fl.set_defaults(run=run_flags)


def run_flags(args, out, err):
    with open_db(args.db) as db:
        entries = flags.director_list(db, args.session, args.open)
    out.write(flags_text(entries, args.lang))
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
        lines.append("  " + _line(e, t))
    found = [e for e in entries if e.kind == "flag"]
    lines.append(t["count"] % (len(found), sum(e.state == "open" for e in found),
                               len(entries) - len(found)))
    return "\n".join(lines) + "\n"


def _line(e, t):
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
        text += " — " + e.detail
    return text + "  (%s #%s)" % (e.terminal or "-", e.seq if e.seq is not None else "-")
