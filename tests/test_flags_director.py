"""`host-sync flags`: every flag and ruling the event database holds, with its Law, table,
round, board, time and state, in Russian by default and in English on request."""

import pytest
from bridge.calls import parse
from sync_script import event_movement

from host_sync.cli import main
from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.event.flags import DETAILS, detail, detail_text, director_list
from host_sync.station.ingest import fingerprint, ingest, ns_score

T1 = "PICO-01"


def calls(board, seat, tokens):
    out = []
    for token in tokens:
        out.append(("call", {"b": board, "s": seat, "c": parse(token)}))
        seat = (seat + 1) % 4
    return out


@pytest.fixture
def event(tmp_path):
    """A 4-table Mitchell where table 1 round 1 had an insufficient bid on board 1 (Law 27,
    accepted by the director: 27A) and a refused result on board 2 nobody has ruled on yet."""
    path = tmp_path / "event.db"
    with open_db(path, create=True) as db:
        setup.add_session(db, setup.create_event(db, "Пары"), 1, event_movement(4))
        setup.register_terminal(db, T1, 0)
        recs = [("open", {"sec": "A", "tbl": 1, "rnd": 1, "ns": 1, "ew": 5}),
                ("board", {"b": 1})] + calls(1, 0, ["1H", "1S", "1D"])
        recs += [("flag", {"b": 1, "law": "27", "why": "irregular"}),
                 ("dir", {"b": 1, "d": "accept"})] + calls(1, 3, ["Pass"] * 3)
        recs += [("res", {"b": 1, "tr": 8, "sc": ns_score(1, "None", parse("1D"), 0, 2, 8)}),
                 ("ver", {"b": 1, "ok": 1}), ("board", {"b": 2})] + calls(2, 1, ["Pass"] * 4)
        recs += [("res", {"b": 2, "tr": 0, "sc": 0}), ("ver", {"b": 2, "ok": 0})]
        ingest(db, T1, 0, [(i + 1, kind, data) for i, (kind, data) in enumerate(recs)])
    return path


def test_every_flag_and_ruling_with_where_when_and_state(event):
    with open_db(event) as db:
        entries = director_list(db)
        assert db.value("SELECT COUNT(*) FROM flags") + db.value(
            "SELECT COUNT(*) FROM rulings") == len(entries)
    got = [(e.kind, e.section, e.table, e.round, e.board, e.law, e.what, e.state)
           for e in entries]
    assert got == [("flag", "A", 1, 1, 1, "27", "irregular", "ruled"),  # a ruling follows
                   ("ruling", "A", 1, 1, 1, "27A", "accept", None),
                   ("flag", "A", 1, 1, 2, None, "dispute", "open")]
    assert all(e.at and e.at.startswith("20") for e in entries)  # when the host received it
    with open_db(event) as db:
        assert [e.what for e in director_list(db, only_open=True)] == ["dispute"]
        assert director_list(db, session=2) == []


def test_the_list_speaks_russian_by_default_and_english_on_request(event, capsys,
                                                                   monkeypatch):
    monkeypatch.delenv("HOST_SYNC_LANG")
    assert main(["flags", str(event)]) == 0
    ru = capsys.readouterr().out
    assert "Сессия 1" in ru and "стол A1" in ru and "сдача 1" in ru and "Закон 27" in ru
    assert "флаг: нарушение [решён]" in ru and "решение: принято" in ru
    assert "флаг: спор [открыт]" in ru and "флагов: 2 (открыто 1), решений: 1" in ru
    assert main(["flags", str(event), "--lang", "en", "--open"]) == 0
    en = capsys.readouterr().out
    assert "flag: dispute [open]" in en and "Law 27" not in en
    assert "flags: 1 (1 open), rulings: 0" in en


def test_an_event_without_flags_says_so_and_a_wrong_file_is_refused(tmp_path, capsys,
                                                                    monkeypatch):
    monkeypatch.delenv("HOST_SYNC_LANG")
    path = tmp_path / "event.db"
    with open_db(path, create=True) as db:
        setup.add_session(db, setup.create_event(db, "Пары"), 1, event_movement(4))
    assert main(["flags", str(path)]) == 0
    assert capsys.readouterr().out == "Флагов и решений нет.\n"
    assert main(["flags", str(tmp_path / "nothing.db")]) == 2
    assert "нет такой базы турнира" in capsys.readouterr().err


def test_every_pin_tried_at_a_keypad_is_listed_for_review(event, capsys):
    """Issue 14: the host lists every director's entry, right or wrong PIN, with its time
    and table; the wrong PIN that locked the keypad is also a flag, open until ruled."""
    tried = [("td", {"ok": 0})] * 4 + [("td", {"ok": 0, "lock": 1}), ("td", {"ok": 1})]
    with open_db(event) as db:
        last = db.value("SELECT MAX(seq) FROM records")
        ingest(db, T1, last, [(last + 1 + i, k, d) for i, (k, d) in enumerate(tried)])
        entries = director_list(db)
        assert not db.value("SELECT COUNT(*) FROM flags WHERE why = 'no_round'")
    pins = [(e.what, e.table, e.round, e.terminal) for e in entries if e.kind == "entry"]
    assert pins == [("pin_bad", 1, 1, T1)] * 4 + [("pin_lock", 1, 1, T1), ("pin_ok", 1, 1, T1)]
    assert all(e.at for e in entries if e.kind == "entry")
    assert [e.what for e in entries if e.kind == "flag"][-1] == "pin_lockout"
    assert main(["flags", str(event), "--lang", "ru"]) == 0
    ru = capsys.readouterr().out
    assert ru.count("вход: неверный PIN") == 5 and "вход: верный PIN" in ru
    assert "флаг: PIN заблокирован после неверных [открыт]" in ru
    assert "входов по PIN: 6 (неверных 5)" in ru
    assert main(["flags", str(event), "--lang", "en", "--open"]) == 0
    en = capsys.readouterr().out
    assert "entry:" not in en and "flag: PIN locked after wrong ones [open]" in en


def test_a_malformed_pin_entry_is_stored_flagged_and_not_listed(event):
    with open_db(event) as db:
        last = db.value("SELECT MAX(seq) FROM records")
        ingest(db, T1, last, [(last + 1, "td", {"ok": 7}), (last + 2, "td", {"ok": "yes"})])
        assert db.value("SELECT COUNT(*) FROM records WHERE kind = 'td' AND valid = 0") == 2
        assert db.value("SELECT COUNT(*) FROM flags WHERE why = 'invalid_record'") == 2
        assert not [e for e in director_list(db) if e.kind == "entry"]


def test_flag_details_are_shown_in_the_readers_language_and_old_english_ones_as_they_are(
        event, capsys):
    """A flag's detail is stored as a code with its parameters and put into words when it is
    listed: Russian or English. A database written before (an English sentence in `detail`)
    and a detail that is no known code show their text unchanged."""
    old = "records 3..4 are missing from the terminal's journal"
    with open_db(event) as db:
        last = db.value("SELECT MAX(seq) FROM records")
        ingest(db, T1, last, [(last + 3, "board", {"b": 3})])  # records last+1, last+2 lost
        stored = db.value("SELECT detail FROM flags WHERE why = 'journal_gap'")
        assert stored == detail("journal_gap", last + 1, last + 2)
        sid = db.value("SELECT id FROM sessions")
        with db.transaction():
            for n, text in enumerate((old, '["no_such_code", 1]', '["journal_gap", 1]',
                                      "[not json")):
                db.insert("flags", {"session_id": sid, "round_id": None, "board": None,
                                    "terminal_id": T1, "seq": 100 + n, "source": "host",
                                    "why": "journal_gap", "law": None, "detail": text},
                          "test")
    assert main(["flags", str(event), "--lang", "ru"]) == 0
    ru = capsys.readouterr().out
    assert "записей %d..%d нет в журнале терминала" % (last + 1, last + 2) in ru
    assert "— противники не согласились с результатом" in ru
    assert "— " + old in ru  # the older database's sentence, as it was
    assert '— ["no_such_code", 1]' in ru and '— ["journal_gap", 1]' in ru and "— [not json" in ru
    assert main(["flags", str(event), "--lang", "en"]) == 0
    en = capsys.readouterr().out
    assert "records %d..%d are missing from the terminal's journal" % (last + 1, last + 2) in en
    assert "— the opponents refused the result" in en and "записей" not in en


def test_every_detail_template_has_both_languages_with_the_same_parameters():
    for code, (en, ru) in DETAILS.items():
        assert en.count("%s") == ru.count("%s") and "%" not in en.replace("%s", ""), code
        args = ["<%d>" % i for i in range(en.count("%s"))]
        assert all(a in detail_text(detail(code, *args), "ru") for a in args), code
        assert detail_text(detail(code, *args), "ru") != detail_text(detail(code, *args), "en")


def test_every_pairing_is_listed_with_its_key_s_fingerprint_and_a_wrong_key_is_flagged(
        event, capsys):
    """Issue 14: a pairing at a terminal (its `pair` record: the terminal's clock and the
    first 8 bytes of SHA-256 of the key it took, never the key) is a director's entry in
    `host-sync flags`; a fingerprint that is not the event's key for that terminal is a flag;
    a record that carries more than a fingerprint (a whole key) is refused and not listed."""
    with open_db(event) as db:
        key = setup.terminal_key(setup.the_event(db)[2], T1)
        last = db.value("SELECT MAX(seq) FROM records")
        ingest(db, T1, last, [(last + 1, "pair", {"t": 1000, "fp": fingerprint(key)}),
                              (last + 2, "pair", {"t": 1001, "fp": bytes(8)}),
                              (last + 3, "pair", {"t": 1002, "fp": key}),
                              (last + 4, "pair", {"t": -1, "fp": fingerprint(key)})])
        entries = director_list(db)
        assert [r["why"] for r in db.all("SELECT why FROM flags WHERE seq > ? ORDER BY seq",
                                         (last,))] == [
            "pair_key_mismatch", "invalid_record", "invalid_record"]
    paired = [(e.what, e.detail, e.seq) for e in entries if e.what == "paired"]
    assert paired == [("paired", "key %s, terminal clock 1000 s" % fingerprint(key).hex(),
                       last + 1), ("paired", "key %s, terminal clock 1001 s" % ("00" * 8),
                                   last + 2)]
    assert main(["flags", str(event), "--lang", "ru"]) == 0
    ru = capsys.readouterr().out
    assert ru.count("вход: связан со станцией") == 2 and "связей со станцией: 2" in ru
    assert "флаг: ключ связи не этого турнира [открыт]" in ru and key.hex() not in ru
    assert main(["flags", str(event), "--lang", "en"]) == 0
    assert "entry: paired with the station" in capsys.readouterr().out
