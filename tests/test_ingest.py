"""Ingest: idempotent on (terminal, seq), chained, re-validated by the Laws core; every
disagreement is a flag and never an overwrite."""

import json

import pytest
from bridge import cards
from bridge.calls import parse
from sync_script import database_digest, event_movement, results_in, table_round

from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.event.flags import detail_text
from host_sync.event.results import session_from_db
from host_sync.station.ingest import compacted, ingest, ns_score

T1, T2 = "PICO-01", "PICO-02"


def fresh(path):
    """An event of one 4-table Mitchell session with terminals T1 and T2 registered."""
    d = open_db(path, create=True)
    setup.add_session(d, setup.create_event(d, "Pairs"), 1, event_movement(4))
    setup.register_terminal(d, T1, 0)
    setup.register_terminal(d, T2, 0)
    return d


@pytest.fixture
def db(event_location):
    """The event, once in a SQLite file and once on a PostgreSQL server."""
    d = fresh(event_location)
    yield d
    d.close()


def numbered(records, first=1):
    return [(first + i, kind, data) for i, (kind, data) in enumerate(records)]


def flags(db):
    return [(r["why"], r["seq"], r["source"]) for r in db.all(
        "SELECT * FROM flags ORDER BY seq, why")]


def auction(board, dealer_calls):
    """call records for a list of PBN tokens, starting with the board's dealer."""
    seat = (board - 1) % 4
    out = []
    for token in dealer_calls:
        out.append(("call", {"b": board, "s": seat, "c": parse(token)}))
        seat = (seat + 1) % 4
    return out


OPEN = ("open", {"sec": "A", "tbl": 1, "rnd": 1, "ns": 1, "ew": 5})


def test_a_round_lands_as_the_truth_and_a_repeat_changes_nothing(db):
    records, truth = table_round(7, event_movement(4), 1, 1)
    batch = numbered(records)
    report = ingest(db, T1, 0, batch)
    assert (report.stored, report.duplicates, report.last, report.refused) == (
        len(batch), 0, len(batch), None)
    assert results_in(db) == {(1, 1, b): line for b, line in truth.items()}
    audit = db.value("SELECT COUNT(*) FROM audit")
    again = ingest(db, T1, 0, batch)
    assert (again.stored, again.duplicates) == (0, len(batch))
    assert db.value("SELECT COUNT(*) FROM audit") == audit  # nothing written at all
    # overlapping batches: half again, half new
    assert ingest(db, T1, 0, batch[:10]).duplicates == 10


def test_a_batch_split_anywhere_gives_the_same_database(db, tmp_path):
    records, _ = table_round(11, event_movement(4), 1, 1)
    batch = numbered(records)
    for cut in (1, 5, 17, len(batch) - 1):
        other = fresh(tmp_path / ("cut%d.db" % cut))
        ingest(other, T1, 0, batch[:cut])
        ingest(other, T1, cut, batch[cut:])
        assert results_in(other) == results_in(ingest_all(db, batch))
        other.close()


def ingest_all(db, batch):
    ingest(db, T1, 0, batch)
    return db


def test_a_broken_chain_is_refused_and_stores_nothing(db):
    batch = numbered([OPEN, ("board", {"b": 1})], first=5)
    report = ingest(db, T1, 4, batch)
    assert report.stored == 0 and "chain" in report.refused
    assert db.value("SELECT COUNT(*) FROM records") == 0
    assert db.value("SELECT last_seq FROM terminals WHERE id = ?", (T1,)) == 0


def test_a_record_numbered_past_any_journal_ends_its_window_keeping_those_before(db):
    """seq 2^31 fits SQLite's INTEGER, not PostgreSQL's: there the window's last write failed,
    taking the good records before it along, at every sync (a poison window). Such a record
    ends its window as a broken chain does, on both backends: what came before is stored."""
    batch = numbered([OPEN, ("board", {"b": 1})]) + [(2 ** 31, "board", {"b": 2})]
    report = ingest(db, T1, 0, batch)
    assert (report.stored, report.last) == (2, 2) and "past any journal" in report.refused
    assert db.value("SELECT COUNT(*) FROM records") == 2


def test_a_hole_in_the_terminal_s_journal_is_stored_and_flagged(db):
    report = ingest(db, T1, 0, [(1, *OPEN), (3, "board", {"b": 1})])
    assert (report.stored, report.last) == (2, 3)
    assert ("journal_gap", 3, "host") in flags(db)


def test_the_host_scores_from_its_own_contract_and_flags_a_wrong_score(db):
    recs = [OPEN, ("board", {"b": 1})] + auction(1, ["1S", "Pass", "4S", "Pass", "Pass",
                                                      "Pass"])
    right = ns_score(1, "None", parse("4S"), 0, 0, 10)
    recs += [("res", {"b": 1, "tr": 10, "sc": right + 30}), ("ver", {"b": 1, "ok": 1})]
    ingest(db, T1, 0, numbered(recs))
    row = db.one("SELECT * FROM results")
    assert (row["bid"], row["declarer"], row["score_ns"], row["shown_ns"], row["verified"]) == (
        parse("4S"), 0, 420, 450, 1)
    assert [f[0] for f in flags(db)] == ["score_mismatch"]


def test_an_irregular_call_is_ruled_as_the_director_entered_it(db):
    recs = [OPEN, ("board", {"b": 1})] + auction(1, ["1H", "1S"])
    recs.append(("call", {"b": 1, "s": 2, "c": parse("1D")}))  # insufficient (Law 27)
    recs.append(("dir", {"b": 1, "d": "accept"}))
    recs += [("call", {"b": 1, "s": s, "c": 0}) for s in (3, 0, 1)]
    recs += [("res", {"b": 1, "tr": 8, "sc": ns_score(1, "None", parse("1D"), 0, 2, 8)}),
             ("ver", {"b": 1, "ok": 1})]
    ingest(db, T1, 0, numbered(recs))
    assert db.value("SELECT law FROM calls WHERE call = ?", (parse("1D"),)) == "27"
    assert db.value("SELECT entry FROM rulings") == "accept"
    assert db.value("SELECT bid FROM results") == parse("1D")
    assert flags(db) == []


def test_a_result_with_the_auction_waiting_for_the_director_is_flagged_unscored(db):
    recs = [OPEN, ("board", {"b": 1})] + auction(1, ["1H", "1S"])
    recs.append(("call", {"b": 1, "s": 2, "c": parse("1D")}))
    recs.append(("res", {"b": 1, "tr": 8, "sc": 90}))
    ingest(db, T1, 0, numbered(recs))
    assert db.value("SELECT score_ns FROM results") is None
    assert [f for f in flags(db) if f[0] == "auction_incomplete"]


def test_unverified_disputed_erased_and_adjusted_results(db):
    base = [OPEN, ("board", {"b": 2})] + auction(2, ["Pass"] * 4)
    ingest(db, T1, 0, numbered(base + [("res", {"b": 2, "tr": 0, "sc": 0}),
                                       ("ver", {"b": 2, "ok": 0})]))
    assert results_in(db) == {}  # unverified: stored, does not score
    assert db.value("SELECT passed_out FROM results") == 1
    assert "dispute" in [f[0] for f in flags(db)]
    n = len(base) + 2
    ingest(db, T1, n, numbered([("erase", {"b": 2}),
                                ("adj", {"b": 2, "how": "asg", "ct": parse("3NT"), "x": 0,
                                         "dcl": 1, "tr": 9})], first=n + 1))
    row = db.one("SELECT * FROM results")
    assert (row["source"], row["verified"], row["score_ns"]) == ("adjusted", 1, -400)  # EW not vul
    assert json.loads(row["adjustment"])["how"] == "asg"
    actions = [r[0] for r in db.all("SELECT action FROM audit WHERE tbl = 'results'")]
    assert actions == ["insert", "delete", "insert"]


def test_two_terminals_claiming_one_table_and_round_is_a_flag(db):
    ingest(db, T1, 0, numbered([OPEN, ("board", {"b": 1})]))
    ingest(db, T2, 0, numbered([OPEN, ("board", {"b": 1})] + auction(1, ["Pass"] * 4) +
                               [("res", {"b": 1, "tr": 0, "sc": 0})]))
    assert ("table_claimed", 1, "host") in flags(db)
    assert db.value("SELECT terminal_id FROM rounds WHERE terminal_id IS NOT NULL") == T1
    assert db.value("SELECT COUNT(*) FROM results") == 0  # the second claim is not applied
    assert db.value("SELECT COUNT(*) FROM records WHERE terminal_id = ?", (T2,)) == 7


def test_movement_disagreements_are_flags(db):
    wrong = ("open", {"sec": "A", "tbl": 1, "rnd": 1, "ns": 2, "ew": 5})
    ingest(db, T1, 0, numbered([wrong, ("board", {"b": 9}),
                                ("open", {"sec": "Z", "tbl": 1, "rnd": 2, "ns": 1, "ew": 6})]))
    assert [f[0] for f in flags(db)] == ["pairs_mismatch", "wrong_board", "unknown_table"]


def test_invalid_records_are_kept_as_received_flagged_and_not_applied(db):
    bad = [OPEN, ("call", {"b": 1, "s": 7, "c": 0}), ("res", {"b": "one"}),
           ("teleport", {"b": 1}), ("call", [1, 2])]
    report = ingest(db, T1, 0, numbered(bad))
    assert report.stored == 5
    assert [f[0] for f in flags(db)] == ["invalid_record"] * 4
    assert db.value("SELECT COUNT(*) FROM calls") == 0
    assert db.value("SELECT COUNT(*) FROM results") == 0


def test_control_characters_in_a_record_s_texts_are_flagged_not_stored_as_facts(db):
    """A NUL in a flag's reason or a section's name (a hostile terminal: PostgreSQL's text
    refuses a NUL, and it once failed the whole window there) makes the record invalid: kept
    as received, flagged, the rest of the batch stored; a NUL in an extra field stays in the
    record's body only; an unknown kind is kept as a console shows it (escaped, cut)."""
    recs = [("open", {"sec": "A\x00", "tbl": 1, "rnd": 1, "ns": 1, "ew": 5}), OPEN,
            ("flag", {"b": 1, "why": "dir\x00call"}), ("flag", {"b": 1, "law": "16\n"}),
            ("call", {"b": 1, "s": 0, "c": 0, "note": "\x00"}), ("flag", {"why": "dircall"}),
            ("fl\x00ag" + "g" * 60, {"b": 1})]
    report = ingest(db, T1, 0, numbered(recs))
    assert (report.stored, report.refused) == (7, None)
    assert [f[:2] for f in flags(db)] == [("invalid_record", 1), ("invalid_record", 3),
                                          ("invalid_record", 4), ("dircall", 6),
                                          ("invalid_record", 7)]
    assert db.value("SELECT COUNT(*) FROM records WHERE terminal_id = ?", (T1,)) == 7
    assert db.value("SELECT kind FROM records WHERE seq = 7") == "fl\\x00ag" + "g" * 35 + "..."
    assert db.value("SELECT COUNT(*) FROM calls") == 1
    assert "\\u0000" in db.value("SELECT body FROM records WHERE seq = 5")


def test_terminal_flags_and_a_record_after_close(db):
    recs = [OPEN, ("flag", {"b": 1, "law": "16", "why": "dircall"}), ("close", {"rnd": 1}),
            ("board", {"b": 2})]
    ingest(db, T1, 0, numbered(recs))
    assert flags(db) == [("dircall", 2, "terminal"), ("after_close", 4, "host")]


def test_records_compacted_elsewhere_are_flagged_once_and_skipped(db):
    compacted(db, T1, 40)
    compacted(db, T1, 40)
    assert flags(db) == [("records_compacted", 40, "host")]
    assert db.value("SELECT last_seq FROM terminals WHERE id = ?", (T1,)) == 40


def test_an_unknown_terminal_stores_nothing(db):
    with pytest.raises(LookupError):
        ingest(db, "PICO-99", 0, numbered([OPEN]))
    assert db.value("SELECT COUNT(*) FROM records") == 0


# -- the play, recorded card by card -------------------------------------------------------

DEAL = "N:AKQJ.T98.765.432 T98.AKQJ.432.765 765.765.AKQJ.T98 432.432.T98.AKQJ"
FOUR_S = auction(1, ["Pass", "Pass", "4S", "Pass", "Pass", "Pass"])  # 4S by South


def with_deal(db):
    setup.set_deal(db, db.value("SELECT id FROM sessions"), 1, DEAL, 0, "None")
    return db


def played_cards(n, revoke_at=None):
    """The card records of the first n cards of 4S by South, each seat playing its lowest
    legal card; at card `revoke_at` the player discards while holding the suit led."""
    from bridge import play_records
    from bridge.cards import parse_deal

    p = play_records.start((parse("4S"), 0, 2), parse_deal(DEAL))
    out = []
    for i in range(n):
        s = p.turn
        lead = p.cards[p.trick * 4 + p.leaders[p.trick]]
        led = (lead - 1) // 13 if lead else -1
        suits = [led] + [x for x in range(4) if x != led] if lead else range(4)
        if i == revoke_at:
            suits = [x for x in range(4) if x != led]
        suit = next(x for x in suits if x >= 0 and p.holds(s, x))
        cd = suit * 13 + min(r for r in range(13) if p.holds(s, suit) >> r & 1)
        p.card(s, cd)
        out.append(("card", {"b": 1, "s": s, "cd": cd}))
    return out, p


def test_a_recorded_play_is_replayed_and_the_tricks_agreed_checked(db):
    with_deal(db)
    cards, p = played_cards(52)
    tricks = p.declarer_tricks()
    recs = [OPEN] + FOUR_S + cards + [
        ("res", {"b": 1, "tr": tricks, "sc": ns_score(1, "None", parse("4S"), 0, 2, tricks)})]
    ingest(db, T1, 0, numbered(recs))
    assert flags(db) == []
    assert db.value("SELECT tricks FROM results") == tricks
    # the same tricks agreed otherwise (79B): a flag, in a later batch (the play is rebuilt)
    n = len(recs)
    ingest(db, T1, n, numbered([("res", {"b": 1, "tr": tricks + 1, "sc": ns_score(
        1, "None", parse("4S"), 0, 2, tricks + 1)})], first=n + 1))
    assert flags(db) == [("tricks_mismatch", n + 1, "host")]
    assert db.value("SELECT law FROM flags") == "79B"


def refused(token, seat=3):
    return ("rc", {"b": 1, "s": seat, "cd": cards.parse_card(token)})


def test_refused_cards_are_checked_and_the_third_on_a_board_calls_the_director(db):
    """Law 16C: each card the terminal refused (`rc`) is stored and checked against the
    session's hand record; the third on a board is a `card_refusals` flag naming them (the
    terminal called the director too); a refusal of a card the seat was dealt is its own
    flag; a malformed one is stored, flagged and blocks nothing."""
    with_deal(db)
    recs = [OPEN] + FOUR_S + [refused("SA"), refused("HK", seat=0), refused("C2")]
    n = len(recs)
    recs += [refused("D2"), refused("S2"),  # West holds the spade 2: the terminal was wrong
             ("rc", {"b": 1, "s": 3, "cd": 52}), ("rc", {"b": 1, "s": "W", "cd": 1}),
             ("card", {"b": 1, "s": 3, "cd": cards.parse_card("S2")})]
    ingest(db, T1, 0, numbered(recs))
    assert flags(db) == [("card_refusals", n, "host"), ("refused_card_held", n + 2, "host"),
                         ("invalid_record", n + 3, "host"), ("invalid_record", n + 4, "host")]
    row = db.one("SELECT law, detail, board FROM flags WHERE why = 'card_refusals'")
    assert (row["law"], row["board"]) == ("16C", 1)
    assert detail_text(row["detail"]) == "3 cards refused at the keypad: W SA, N HK, W C2"
    assert db.value("SELECT COUNT(*) FROM records WHERE kind = 'rc' AND valid = 1") == 5
    assert db.value("SELECT COUNT(*) FROM records WHERE kind = 'card'") == 1  # play goes on
    ingest(db, T1, len(recs), numbered([("close", {"rnd": 1}), refused("SK")],
                                       first=len(recs) + 1))
    assert flags(db)[-1] == ("after_close", len(recs) + 2, "host")


def test_a_revoke_s_transfer_is_in_the_host_s_count(db):
    with_deal(db)
    cards, p = played_cards(52, revoke_at=2)  # East discards in the first trick
    assert p.revokes and p.transfers()[0][1] > 0
    tricks = p.declarer_tricks()
    assert tricks != p.won(0)
    recs = [OPEN] + FOUR_S + cards + [
        ("res", {"b": 1, "tr": tricks, "sc": ns_score(1, "None", parse("4S"), 0, 2, tricks)})]
    ingest(db, T1, 0, numbered(recs))
    assert flags(db) == []
    laws = [r[0] for r in db.all("SELECT law FROM rulings")]
    assert "61" in laws and "63A1" in laws


def test_impossible_cards_and_rulings_are_flagged_not_applied(db):
    with_deal(db)
    cards, _ = played_cards(3)
    twice = cards[:1] + [("card", {"b": 1, "s": 0, "cd": cards[0][1]["cd"]})]  # not North's
    recs = [OPEN] + FOUR_S + twice + [("pdir", {"b": 1, "d": "spread"}),
                                      ("pdir", {"b": 1, "d": "teleport"})]
    ingest(db, T1, 0, numbered(recs))
    got = [f[0] for f in flags(db)]
    assert got == ["refused_card", "refused_pdir", "invalid_record"]
    assert "not in this hand" in db.value("SELECT detail FROM flags WHERE why = 'refused_card'")


def test_a_disputed_claim_is_flagged_with_the_remaining_hands_and_ruled(db):
    with_deal(db)
    cards, p = played_cards(4)
    recs = [OPEN] + FOUR_S + cards + [("claim", {"b": 1, "s": 2, "tr": 12, "ok": 0}),
                                      ("pdir", {"b": 1, "d": "rule", "tr": 9})]
    tricks = p.won(0) + 9
    recs.append(("res", {"b": 1, "tr": tricks, "sc": ns_score(1, "None", parse("4S"), 0, 2,
                                                               tricks)}))
    ingest(db, T1, 0, numbered(recs))
    assert [f[0] for f in flags(db)] == ["dispute"]
    detail = detail_text(db.value("SELECT detail FROM flags"), "en")
    assert "remaining hands N E S W" in detail and len(detail.split(": ")[-1].split()) == 4
    assert "оставшиеся карты С В Ю З" in detail_text(db.value("SELECT detail FROM flags"), "ru")
    assert db.value("SELECT law FROM flags") == "70"
    assert ("rule", "70") in [tuple(r) for r in db.all("SELECT entry, law FROM rulings")]


def test_an_objected_concession_and_a_withdrawn_one_are_replayed_with_their_seat(db):
    """68B2: a defender's concession his partner objects to (`pdir` object with the seat and
    the tricks, the play goes on); 71: tricks a claim conceded go back to the claimer's side
    (`pdir` withdraw with a seat of that side); 69B without one or for the other side."""
    with_deal(db)
    cards, p = played_cards(4)
    recs = [OPEN] + FOUR_S + cards + [("pdir", {"b": 1, "d": "object", "s": 1, "tr": 3})]
    more, _ = played_cards(8)
    recs += more[4:] + [("claim", {"b": 1, "s": 2, "tr": 9, "ok": 1}),
                        ("pdir", {"b": 1, "d": "withdraw", "s": 0, "tr": 1}),
                        ("pdir", {"b": 1, "d": "withdraw", "s": 3, "tr": 2})]
    from bridge import play_records
    from bridge.cards import parse_deal

    engine = play_records.start((parse("4S"), 0, 2), parse_deal(DEAL))
    for kind, d in recs[1 + len(FOUR_S):]:
        play_records.apply(engine, kind, d)
    tricks = engine.declarer_tricks()
    assert tricks == engine.won(0) + 9 + 1 - 2
    recs.append(("res", {"b": 1, "tr": tricks, "sc": ns_score(1, "None", parse("4S"), 0, 2,
                                                               tricks)}))
    ingest(db, T1, 0, numbered(recs))
    assert flags(db) == []
    got = [tuple(r) for r in db.all("SELECT entry, law FROM rulings WHERE entry IS NOT NULL")]
    assert ("object", "68B2") in got and ("withdraw", "71") in got and ("withdraw", "69B") in got
    assert db.value("SELECT tricks FROM results") == tricks


def test_concessions_from_the_players_screen_are_replayed(db):
    """`claim` with `con`: a defender's concession his partner voids at once (ok 2, 68B2: the
    play goes on, the terminal's flag for the director is kept), then declarer's concession,
    agreed; declarer's concession cannot be voided that way (refused, named)."""
    with_deal(db)
    cards, _ = played_cards(4)
    more, _ = played_cards(8)
    recs = [OPEN] + FOUR_S + cards + [
        ("claim", {"b": 1, "s": 1, "tr": 3, "ok": 2, "con": 1}),
        ("flag", {"b": 1, "law": "68B2", "why": "irregular"})] + more[4:] + [
        ("claim", {"b": 1, "s": 2, "tr": 2, "ok": 2, "con": 1}),
        ("claim", {"b": 1, "s": 2, "tr": 2, "ok": 1, "con": 1})]
    from bridge import play_records
    from bridge.cards import parse_deal

    engine = play_records.start((parse("4S"), 0, 2), parse_deal(DEAL))
    refused = recs[-2]
    for kind, d in recs[1 + len(FOUR_S):]:
        if (kind, d) == refused:
            with pytest.raises(ValueError):
                play_records.apply(engine, kind, d)
        elif kind != "flag":
            play_records.apply(engine, kind, d)
    tricks = engine.declarer_tricks()
    assert tricks == engine.won(0) + 11 - 2
    recs.append(("res", {"b": 1, "tr": tricks, "sc": ns_score(1, "None", parse("4S"), 0, 2,
                                                               tricks)}))
    ingest(db, T1, 0, numbered(recs))
    assert [tuple(r) for r in db.all("SELECT why, law FROM flags ORDER BY seq")] == \
        [("irregular", "68B2"), ("refused_claim", None)]
    assert "68B2" in db.value("SELECT detail FROM flags WHERE why = 'refused_claim'")
    got = [r[0] for r in db.all("SELECT law FROM rulings")]
    assert "68B2" in got and "69A" in got
    assert db.value("SELECT tricks FROM results") == tricks


# -- malformed records, other rotations, unplaced terminals ----------------------------------

MALFORMED = [
    OPEN, ("board", {"b": 1}),
    ("call", {"b": 1, "c": 0}),                       # no seat
    *auction(1, ["1H", "1S"]),
    ("call", {"b": 1, "s": 2, "c": parse("1D")}),     # insufficient: Law 27, the director
    ("dir", {"b": 1, "d": "Accept"}),                 # not an entry: must not rule anything
    ("dir", {"b": 1, "d": "accept"}),
    *[("call", {"b": 1, "s": s, "c": 0}) for s in (3, 0, 1)],
    ("res", {"b": 1, "tr": 8, "sc": 90}), ("ver", {"b": 1, "ok": 1}),
    ("board", {"b": 2}),
    ("quick", {"b": 2, "ct": parse("4S")}),           # no risk, no declarer
    ("quick", {"b": 2, "ct": parse("4S"), "x": 0, "dcl": 0}),
    ("lead", {"b": 2, "s": 1, "cd": 3}),
    ("lead", {"b": 2, "s": 1}),                       # no card
    ("call", {"b": 2 ** 70, "s": 0, "c": 0}),         # a board number SQLite cannot hold
    ("flag", {1: 2, "why": "dircall"}),               # a field named by a number
    ("card", {"b": True, "s": 0, "cd": 3}),           # a board that is a truth value
    ("res", {"b": 2, "tr": 10, "sc": 620}), ("ver", {"b": 2, "ok": 1}),
]
MALFORMED_SEQS = [3, 7, 15, 18, 19, 20, 21]


def test_malformed_records_are_stored_flagged_and_never_replayed_however_split(db, tmp_path):
    batch = numbered(MALFORMED)
    report = ingest(db, T1, 0, batch)
    assert (report.stored, report.refused) == (len(batch), None)
    assert flags(db) == [("invalid_record", s, "host") for s in MALFORMED_SEQS]
    assert [r[0] for r in db.all("SELECT seq FROM records WHERE valid = 0 ORDER BY seq")] == (
        MALFORMED_SEQS)
    assert [tuple(r) for r in db.all("SELECT seq, entry, law FROM rulings")] == [
        (8, "accept", "27A")]
    assert db.value("SELECT law FROM calls WHERE seq = 6") == "27"
    assert results_in(db) == {(1, 1, 1): (parse("1D"), 0, 2, 0, 8, 90),
                              (1, 1, 2): (parse("4S"), 0, 0, 0, 10, 620)}
    assert json.loads(db.value("SELECT body FROM records WHERE seq = 3")) == {"b": 1, "c": 0}
    scored = session_from_db(db)
    assert [(r.board, r.contract, r.lead) for r in scored.results] == [
        (1, "1D", ""), (2, "4S", cards.token(3))]
    whole = database_digest(db)
    for cut in range(1, len(batch)):
        other = fresh(tmp_path / ("cut%d.db" % cut))
        ingest(other, T1, 0, batch[:cut])
        ingest(other, T1, cut, batch[cut:])
        assert database_digest(other) == whole, "cut at %d" % cut
        other.close()


def test_a_verified_result_without_a_contract_stays_off_the_traveller(db):
    recs = [OPEN, ("board", {"b": 1}), ("res", {"b": 1, "tr": 9, "sc": 400}),
            ("ver", {"b": 1, "ok": 1}), ("board", {"b": 2}),
            ("quick", {"b": 2, "ct": parse("3NT"), "x": 0, "dcl": 0}),
            ("res", {"b": 2, "tr": 9, "sc": 600}), ("ver", {"b": 2, "ok": 1})]
    ingest(db, T1, 0, numbered(recs))
    assert [f[0] for f in flags(db)] == ["no_contract"]  # the director's work item stays
    assert [(r.board, r.contract) for r in session_from_db(db).results] == [(2, "3NT")]


def test_the_host_replays_the_auction_from_the_board_s_own_dealer(db):
    setup.set_deal(db, db.value("SELECT id FROM sessions"), 1, None, 2, "All")  # S deals
    recs = [OPEN, ("board", {"b": 1})] + [
        ("call", {"b": 1, "s": s, "c": parse(c)}) for s, c in zip((2, 3, 0, 1),
                                                                    ("1S", "Pass", "Pass",
                                                                     "Pass"))]
    recs += [("res", {"b": 1, "tr": 8, "sc": 110}), ("ver", {"b": 1, "ok": 1})]
    ingest(db, T1, 0, numbered(recs))
    assert flags(db) == []
    assert db.value("SELECT COUNT(*) FROM calls WHERE law IS NOT NULL") == 0
    assert db.value("SELECT COUNT(*) FROM rulings") == 0
    assert results_in(db) == {(1, 1, 1): (parse("1S"), 0, 2, 0, 8, 110)}


def test_an_unplaced_terminal_files_its_records_under_the_current_session(db):
    setup.add_session(db, 1, 2, event_movement(4))  # tonight's session, made current
    recs = [OPEN, ("board", {"b": 1}),
            ("quick", {"b": 1, "ct": parse("4S"), "x": 0, "dcl": 0}),
            ("res", {"b": 1, "tr": 10, "sc": 420}), ("ver", {"b": 1, "ok": 1})]
    ingest(db, T1, 0, numbered(recs))
    tonight = setup.current_session(db, 1)
    assert db.value("SELECT s.session_id FROM results r JOIN rounds ro ON ro.id = r.round_id "
                    "JOIN tables t ON t.id = ro.table_id "
                    "JOIN sections s ON s.id = t.section_id") == tonight
    assert db.value("SELECT session_id FROM terminals WHERE id = ?", (T1,)) == tonight
    assert [(r.board, r.contract) for r in session_from_db(db).results] == [(1, "4S")]


def test_only_verified_lines_go_back_to_the_tables_as_travellers(db):
    recs = [OPEN, ("quick", {"b": 1, "ct": parse("4S"), "x": 0, "dcl": 0}),
            ("res", {"b": 1, "tr": 10, "sc": 420}), ("ver", {"b": 1, "ok": 1}),
            ("quick", {"b": 2, "ct": parse("4S"), "x": 0, "dcl": 0}),
            ("res", {"b": 2, "tr": 10, "sc": 620})]  # not verified yet
    ingest(db, T1, 0, numbered(recs))
    assert setup.travellers(db, T1) == {1: [[1, 5, parse("4S"), 0, 0, 10, 420]]}


def test_a_journal_restarted_mid_board_is_replayed_without_the_old_journals_calls(db):
    """After a wiped flash and `terminal reset`, the sync stores the new journal after the old
    (journal_offset): the host's auction of a board started over reads only the new calls."""
    old = numbered([OPEN, ("board", {"b": 1})] + auction(1, ["1S", "Pass"]))
    ingest(db, T1, 0, old)
    with db.transaction():  # what the sync does at the re-base (host_sync.station.sync)
        db.update("terminals", {"id": T1}, {"journal_offset": len(old)}, "test")
    new = [OPEN, ("board", {"b": 1})] + auction(1, ["1S", "Pass", "4S", "Pass", "Pass",
                                                    "Pass"]) + [
        ("res", {"b": 1, "tr": 10, "sc": 420}), ("ver", {"b": 1, "ok": 1})]
    report = ingest(db, T1, len(old), numbered(new, len(old) + 1))
    assert (report.stored, report.refused) == (len(new), None)
    assert flags(db) == []
    assert results_in(db) == {(1, 1, 1): (parse("4S"), 0, 0, 0, 10, 420)}
    assert db.value("SELECT COUNT(*) FROM calls WHERE terminal_id = ?", (T1,)) == 8


def test_an_open_setting_a_pair_against_itself_is_flagged_and_makes_no_such_line(db):
    """The terminal's round names pairs: pair 1 v pair 1 is flagged. A round of the movement
    keeps the movement's pairs; a round the movement lacks is not created (no traveller line
    would set the pair against itself), so its records are flagged as outside any round."""
    same = ("open", {"sec": "A", "tbl": 1, "rnd": 1, "ns": 1, "ew": 1})
    ingest(db, T1, 0, numbered([same, ("board", {"b": 1})]))
    assert flags(db) == [("pairs_mismatch", 1, "host"), ("same_pair", 1, "host")]
    rounds = db.value("SELECT COUNT(*) FROM rounds")
    off = ("open", {"sec": "A", "tbl": 1, "rnd": 9, "ns": 2, "ew": 2})
    ingest(db, T2, 0, numbered([off, ("board", {"b": 1})]))
    assert db.value("SELECT COUNT(*) FROM rounds") == rounds
    assert db.value("SELECT COUNT(*) FROM rounds WHERE ns_pair = ew_pair") == 0
    assert flags(db)[2:] == [("same_pair", 1, "host"), ("no_round", 2, "host")]


def closed_round_then_next(db, seed=5):
    """Table 1 plays and closes round 1, opens round 2: (pairs of round 1, its boards, the
    last seq)."""
    first, truth = table_round(seed, event_movement(4), 1, 1)
    second, _ = table_round(seed, event_movement(4), 1, 2)
    batch = numbered(first + second[:1])
    ingest(db, T1, 0, batch)
    return [first[0][1]["ns"], first[0][1]["ew"]], sorted(truth), len(batch)


def line(db, board, rnd=1):
    return db.one("SELECT r.* FROM results r JOIN rounds ro ON ro.id = r.round_id "
                  "WHERE ro.number = ? AND r.board = ?", (rnd, board))


def test_a_terminal_fix_corrects_the_closed_round_the_pairs_played_it_in(db):
    """Law 79C: «ошибка в записи или подсчете результата может быть исправлена до окончания
    периода исправлений» — the director's correction at the table, in round 2, of a board of
    the closed round 1, found by the pairs and the board (Law 15), audited and re-scored."""
    pairs, boards, last = closed_round_then_next(db)
    b = boards[0]
    fix = {"b": b, "pr": pairs, "how": "res", "ct": parse("3NT"), "x": 0, "dcl": 1, "tr": 9,
           "sc": 0}
    ingest(db, T1, last, [(last + 1, "fix", fix)])
    row = line(db, b)
    assert (row["bid"], row["declarer"], row["tricks"], row["verified"]) == (
        parse("3NT"), 1, 9, 1)
    assert row["score_ns"] in (-400, -600) and row["corrected_at"] is not None
    assert ("score_mismatch", last + 1, "host") in flags(db)  # the terminal showed 0
    assert db.value("SELECT ro.number FROM flags f JOIN rounds ro ON ro.id = f.round_id "
                    "WHERE f.why = 'score_mismatch'") == 1  # filed under the corrected round
    audit = db.one("SELECT * FROM audit WHERE tbl = 'results' AND action = 'update' "
                   "ORDER BY id DESC LIMIT 1")
    assert audit["actor"] == "terminal %s fix %d" % (T1, last + 1)
    assert json.loads(audit["new"])["bid"] == parse("3NT")
    # an adjusted score, then the result erased: each a fix of the same line
    ingest(db, T1, last + 1, numbered([("fix", {"b": b, "pr": pairs, "how": "art", "ns": 60,
                                                "ew": 40}),
                                       ("fix", {"b": boards[1], "pr": pairs,
                                                "how": "erase"})], first=last + 2))
    assert json.loads(line(db, b)["adjustment"]) == {"how": "art", "ns": 60, "ew": 40}
    assert line(db, boards[1]) is None


def test_a_fix_in_the_batch_that_closed_its_round_corrects_that_round(db):
    """The batch holds round 1's close and round 2's lines unwritten (issue 17: a window is
    written at its end) when its `fix` looks for the closed round in the database: what is
    held is written first, so the fix finds round 1 closed and corrects it."""
    first, truth = table_round(7, event_movement(4), 1, 1)
    second, _ = table_round(7, event_movement(4), 1, 2)
    b = sorted(truth)[0]
    fix = {"b": b, "pr": [first[0][1]["ns"], first[0][1]["ew"]], "how": "res",
           "ct": parse("3NT"), "x": 0, "dcl": 1, "tr": 9}
    ingest(db, T1, 0, numbered(first + second + [("fix", fix)]))
    assert "fix_no_round" not in [f[0] for f in flags(db)]
    row = line(db, b)
    assert (row["bid"], row["tricks"], row["source"]) == (parse("3NT"), 9, "terminal_fix")
    assert db.value("SELECT COUNT(*) FROM results r JOIN rounds ro ON ro.id = r.round_id "
                    "WHERE ro.number = 2") == len(truth)


def test_a_fix_then_a_record_of_its_board_in_the_same_window_finds_the_fixed_line(db, tmp_path):
    """The fix writes the closed round's line at once; an adjusted score of that board later
    in the same window must change that line, not add a second one (refused by the table's
    UNIQUE key at the window's end, every time: the terminal could never sync again). The
    same records in two windows give the same lines."""
    b = db.value("SELECT MIN(p.board) FROM round_boards p JOIN rounds ro ON ro.id = p.round_id "
                 "JOIN tables t ON t.id = ro.table_id WHERE t.number = 1 AND ro.number = 1")
    batch = numbered([OPEN, ("board", {"b": b}), ("close", {"rnd": 1}),
                      ("fix", {"b": b, "pr": [1, 5], "how": "np"}), ("adj", {"b": b, "how": "np"}),
                      ("open", {"sec": "A", "tbl": 1, "rnd": 2, "ns": 1, "ew": 6})])
    report = ingest(db, T1, 0, batch)
    assert (report.stored, report.refused) == (len(batch), None)
    two = fresh(tmp_path / "two.db")
    ingest(two, T1, 0, batch[:4])
    ingest(two, T1, 4, batch[4:])
    assert results_in(db) == results_in(two)
    assert db.value("SELECT COUNT(*) FROM results WHERE board = ?", (b,)) == 1
    two.close()


def test_a_fix_with_no_closed_round_of_those_pairs_changes_nothing(db):
    pairs, boards, last = closed_round_then_next(db)
    before = results_in(db)
    wrong = [pairs[0], pairs[1] + 1]
    now_playing = db.one("SELECT ns_pair, ew_pair FROM rounds WHERE number = 2")
    ingest(db, T1, last, numbered([
        ("fix", {"b": boards[0], "pr": wrong, "how": "erase"}),
        ("fix", {"b": boards[0] + 20, "pr": pairs, "how": "erase"}),
        ("fix", {"b": boards[0], "pr": [now_playing[0], now_playing[1]], "how": "np"}),
        ("fix", {"b": boards[0], "pr": [pairs[0]], "how": "erase"})], first=last + 1))
    assert results_in(db) == before
    assert [f[:2] for f in flags(db) if f[1] > last] == [
        ("fix_no_round", last + 1), ("fix_no_round", last + 2), ("fix_no_round", last + 3),
        ("invalid_record", last + 4)]


def test_a_fix_meeting_a_host_correction_leaves_the_host_s_standing(db):
    """Migration 005's rule: a line corrected at the host stands against the terminal; a
    later host correction replaces a terminal's fix (the host has the last word)."""
    from host_sync.event import corrections
    pairs, boards, last = closed_round_then_next(db)
    corrections.correct(db, corrections.locate(db, boards[0], 1, round_no=1), "4S", "N", 10)
    host = dict(line(db, boards[0]))
    ingest(db, T1, last, numbered([("fix", {"b": boards[0], "pr": pairs, "how": "np"}),
                                   ("fix", {"b": boards[1], "pr": pairs, "how": "np"})],
                                  first=last + 1))
    assert dict(line(db, boards[0])) == host
    assert ("host_correction_stands", last + 1, "host") in flags(db)
    assert json.loads(line(db, boards[1])["adjustment"]) == {"how": "np"}
    corrections.correct(db, corrections.locate(db, boards[1], 1, round_no=1), "pass")
    assert line(db, boards[1])["passed_out"] == 1


def test_a_fix_after_the_correction_period_changes_nothing(db):
    """Law 79C: a correction is made «до окончания периода исправлений»; after `host-sync
    session close` the terminal's fix is stored and flagged for the director."""
    from host_sync.event import corrections
    pairs, boards, last = closed_round_then_next(db)
    before = results_in(db)
    corrections.close_period(db)
    ingest(db, T1, last, [(last + 1, "fix", {"b": boards[0], "pr": pairs, "how": "np"})])
    assert results_in(db) == before
    assert ("correction_period_over", last + 1, "host") in flags(db)
    assert db.value("SELECT kind FROM records WHERE seq = ?", (last + 1,)) == "fix"
