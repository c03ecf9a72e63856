"""The director's list as the database holds it: every flag (raised by a terminal's `flag`
record or by the host's re-validation on ingest), every ruling (a director's entry and the
Law paragraphs the engine applied) and every PIN tried on a terminal's keypad (its `td`
record: right, wrong, or wrong and locking the keypad) and every pairing with the station
(its `pair` record: the key's fingerprint), with where and when, for
`host-sync flags`: director mode's use is reviewed here (docs/SECURITY.md).

Where: the session, section, table, round and board of the round the record belongs to (a
flag raised before any round has none). When: the time the host received the record that
raised it (the terminals have no clock), or, for a flag without a stored record (records
compacted elsewhere), the time its audit row was written.

A flag's state is `ruled` when the director has answered it: it is marked resolved (a host
correction of the board marks its flags, host_sync.event.corrections), or a ruling of the same
terminal on the same round and board follows it, or the board's result is an adjusted score;
otherwise it is `open`.

A flag's detail is stored as a code and its parameters, `["journal_gap", 5, 9]` (JSON, made by
`detail`), and put into words when it is shown, in the reader's language (`detail_text`, the
templates in DETAILS); a detail that is no such list (an older database's English sentence, or
a terminal flag's empty one) is shown as it is.
"""

import json
from collections import namedtuple

Entry = namedtuple("Entry", "kind session section table round board law what detail state at "
                            "terminal seq")
Entry.__doc__ = """One line of the director's list. kind: 'flag', 'ruling', 'entry' or 'test' (a
terminal's self-test: what 'selftest_ok' or 'selftest_bad'); what:
the flag's short code (`why`), the ruling's entry ('accept', 'reject', a play entry, or None
when the engine applied a paragraph by itself), the PIN entry's 'pin_ok', 'pin_bad',
'pin_lock', or 'paired' (a pairing); state: 'open' or 'ruled' for a flag, None otherwise;
table, round, board None where the database has none."""

_WHERE = ("LEFT JOIN rounds ro ON ro.id = x.round_id "
          "LEFT JOIN tables t ON t.id = ro.table_id "
          "LEFT JOIN sections sec ON sec.id = t.section_id "
          "LEFT JOIN sessions s ON s.id = COALESCE(sec.session_id, %s) "
          "LEFT JOIN records rec ON rec.terminal_id = x.terminal_id AND rec.seq = x.seq ")

_RULED = ("x.resolved = 1 OR EXISTS (SELECT 1 FROM rulings ru WHERE ru.terminal_id = "
          "x.terminal_id AND ru.round_id = x.round_id AND ru.board = x.board AND ru.seq > x.seq) "
          "OR EXISTS (SELECT 1 FROM results r WHERE r.round_id = x.round_id AND r.board = "
          "x.board AND r.source = 'adjusted')")


DETAILS = {  # code: (English, Russian), one %s per parameter
    "journal_gap": ("records %s..%s are missing from the terminal's journal",
                    "записей %s..%s нет в журнале терминала"),
    "not_applied": ("%s record could not be applied: %s", "запись %s не удалось применить: %s"),
    "bad_record": ("%s record: %s", "запись %s: %s"),
    "before_open": ("%s record before any open", "запись %s до открытия тура"),
    "same_pair": ("the terminal sets pair %s against itself (NS and EW) at table %s%s round %s",
                  "терминал ставит пару %s против самой себя (СЮ и ВЗ): стол %s%s, тур %s"),
    "unknown_section": ("section %s is not in the session", "секции %s нет в сессии"),
    "not_in_movement": ("table %s%s round %s", "стол %s%s, тур %s"),
    "pairs_mismatch": ("the terminal has %s v %s, the movement %s v %s",
                       "на терминале %s – %s, в движении %s – %s"),
    "table_claimed": ("table %s%s round %s was opened by terminal %s",
                      "стол %s%s, тур %s открыт терминалом %s"),
    "wrong_round": ("close of round %s in round %s", "закрытие тура %s в туре %s"),
    "after_close": ("record after the round was closed", "запись после закрытия тура"),
    "wrong_board": ("board %s is not in this round's set %s",
                    "сдачи %s нет в комплекте этого тура %s"),
    "refused_call": ("the Laws core does not take this call here",
                     "по Законам эта заявка здесь невозможна"),
    "refused_dir": ("director's %s with nothing pending",
                    "решение судьи %s, когда решать нечего"),
    "auction_auction": ("the auction is not over on the host", "на хосте торговля не окончена"),
    "auction_director": ("the auction waits for the director on the host",
                         "на хосте торговля ждёт решения судьи"),
    "contract_mismatch": ("quick entry %s, auction %s", "быстрый ввод %s, торговля %s"),
    "no_contract": ("a result without auction or contract",
                    "результат без торговли и без контракта"),
    "result_exists": ("a verified result stands; the director must erase it first",
                      "подтверждённый результат остаётся в силе; судья должен сначала стереть его"),
    "score_mismatch": ("the terminal showed %s, the Laws give %s",
                       "терминал показал %s, по Законам %s"),
    "tricks_mismatch": ("the recorded play gives declarer %s tricks, the table agreed %s",
                        "по записанному розыгрышу у разыгрывающего взяток %s, стол согласился "
                        "на %s"),
    "no_result": ("verification of a board with no result",
                  "подтверждение сдачи, у которой нет результата"),
    "dispute": ("the opponents refused the result", "противники не согласились с результатом"),
    "no_contract_play": ("%s with no contract to play", "%s без контракта для розыгрыша"),
    "laws_refuse": ("the Laws core refuses it: %s", "по Законам невозможно: %s"),
    "claim_disputed": ("the claim was disputed", "заявление о взятках оспорено"),
    "claim_disputed_hands": ("the claim was disputed; remaining hands N E S W: %s",
                             "заявление о взятках оспорено; оставшиеся карты С В Ю З: %s"),
    "refused_pdir": ("director's %s with nothing of the play to rule on",
                     "решение судьи %s, когда в розыгрыше решать нечего"),
    "records_compacted": ("records %s..%s were acknowledged elsewhere and are gone from the "
                          "terminal", "записи %s..%s подтверждены в другом месте и стёрты на "
                          "терминале"),
    "correction_period_over": (
        "the session's correction period is closed (host-sync session close): the correction "
        "of board %s for pairs %s and %s was not applied",
        "срок исправлений сессии истёк (host-sync session close): исправление сдачи %s для пар "
        "%s и %s не применено"),
    "fix_no_round": ("no closed round at this table in which pairs %s and %s played board %s: "
                     "the correction was not applied",
                     "за этим столом нет закрытого тура, где пары %s и %s играли сдачу %s: "
                     "исправление не применено"),
    "pair_key_mismatch": ("the terminal took a key of fingerprint %s, not this event's key for it",
                          "терминал взял ключ с отпечатком %s, а не ключ этого турнира"),
    "refused_card_held": ("the terminal refused %s to seat %s, whose card it is in the hand "
                          "record", "терминал не принял %s у места %s, хотя по раскладу это его "
                          "карта"),
    "card_refusals": ("%s cards refused at the keypad: %s",
                      "не принято карт на клавиатуре: %s — %s"),
}


def detail(code, *args):
    """A flag's detail as stored: the code of a DETAILS template and its parameters (numbers
    and short texts), in JSON."""
    assert code in DETAILS and DETAILS[code][0].count("%s") == len(args), code
    return json.dumps([code, *args], ensure_ascii=False, default=str)


def detail_text(stored, lang="en"):
    """A stored detail in words, English or Russian ('en', 'ru'); a detail that is not a code
    with the right number of parameters (an older database's English text) as it is."""
    if not stored or not stored.startswith("["):
        return stored or ""
    try:
        code, *args = json.loads(stored)
        return DETAILS[code][lang == "ru"] % tuple(args)
    except (ValueError, TypeError, KeyError):
        return stored


def director_list(db, session=None, only_open=False):
    """Every flag and ruling of the event (of session number `session` if given), in the
    order they arrived; with only_open, the flags still open and no rulings."""
    flags = db.all(
        "SELECT 'flag' AS kind, s.number AS session, sec.letter AS section, t.number AS tbl, "
        "ro.number AS rnd, x.board, x.law, x.why AS what, x.detail, x.terminal_id, x.seq, "
        "CASE WHEN " + _RULED + " THEN 'ruled' ELSE 'open' END AS state, "
        "COALESCE(rec.received_at, (SELECT MIN(a.at) FROM audit a WHERE a.tbl = 'flags' "
        "AND a.action = 'insert' AND a.row_key = '{\"id\": ' || x.id || '}')) AS at "
        "FROM flags x " + _WHERE % "x.session_id")
    rulings = [] if only_open else db.all(
        "SELECT 'ruling' AS kind, s.number AS session, sec.letter AS section, "
        "t.number AS tbl, ro.number AS rnd, x.board, x.law, x.entry AS what, '' AS detail, "
        "x.terminal_id, x.seq, NULL AS state, rec.received_at AS at "
        "FROM rulings x " + _WHERE % "NULL")
    tried = [] if only_open else [dict(r, **_entry(r["what"], r["body"])) for r in db.all(
        "SELECT 'entry' AS kind, s.number AS session, sec.letter AS section, "
        "t.number AS tbl, ro.number AS rnd, NULL AS board, NULL AS law, x.body, "
        "x.kind AS what, x.terminal_id, x.seq, NULL AS state, x.received_at AS at "
        "FROM records x " + _WHERE % "NULL" +
        "WHERE x.kind IN ('td', 'pair') AND x.valid = 1")]
    tested = [] if only_open else [dict(r, **_self_test(r["body"])) for r in db.all(
        "SELECT 'test' AS kind, s.number AS session, sec.letter AS section, "
        "t.number AS tbl, ro.number AS rnd, NULL AS board, NULL AS law, x.body, "
        "x.terminal_id, x.seq, NULL AS state, x.received_at AS at "
        "FROM records x " + _WHERE % "NULL" + "WHERE x.kind = 'st' AND x.valid = 1")]
    entries = [Entry(r["kind"], r["session"], r["section"], r["tbl"], r["rnd"], r["board"],
                     r["law"], r["what"], r["detail"], r["state"], r["at"], r["terminal_id"],
                     r["seq"])
               for r in list(flags) + list(rulings) + list(tried) + tested
               if session is None or r["session"] == session]
    if only_open:
        entries = [e for e in entries if e.state == "open"]
    return sorted(entries, key=lambda e: (e.session or 0, e.at or "", e.terminal or "",
                                          e.seq or 0, e.kind))


SELF_TEST_KEYS = 24  # the keypad's keys (hw.layout: a 5x5 matrix less one position)


def _self_test(body):
    """What the list shows of a self-test record (`st`, checked on ingest): 'selftest_ok'
    when it saw every key and the flash check passed, else 'selftest_bad'; the detail in
    figures (keys seen, free flash, LEDs stepped, firmware)."""
    d = json.loads(body)
    seen = bin(d["k"]).count("1")
    return {"what": "selftest_ok" if seen >= SELF_TEST_KEYS and d["fl"] == 1
            else "selftest_bad",
            "detail": "%d/%d, %dK, LED %d, %s" % (seen, SELF_TEST_KEYS, d["fr"], d["led"],
                                                  d["fw"])}


def _entry(kind, body):
    """what and detail of a director's entry at a keypad from its stored record (checked on
    ingest): a `td` is 'pin_ok', 'pin_lock' (the wrong PIN that locked the keypad) or
    'pin_bad'; a `pair` is 'paired', its detail the key's fingerprint and the terminal's
    clock in seconds (a board whose clock nobody set counts from its own epoch: a hint of
    order, not a date)."""
    d = json.loads(body)
    if kind == "pair":
        return {"what": "paired", "detail": "key %s, terminal clock %d s" % (d["fp"], d["t"])}
    return {"what": "pin_ok" if d["ok"] == 1 else "pin_lock" if d.get("lock") else "pin_bad",
            "detail": ""}
