"""Hand records on a need-to-know basis (docs/SECURITY.md): a terminal used to be given the
hand records of every board its table plays in the session at its first sync (at table 3 of
a 7-table Mitchell, 18 of 21 boards not yet played). The station now gives the hands of one
round only: the round open at the table, else the next one after the last it closed."""

from bridge import boards as law2
from sync_script import event_movement, table_round

from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.station.ingest import ingest

DEAL = "N:AKQJ.T98.765.432 T98.AKQJ.432.765 765.765.AKQJ.T98 432.432.T98.AKQJ"


def hands(db):
    """{round: the boards of that round whose hand record the configuration carries}."""
    config = setup.table_config(db, "T1")
    return {r["r"]: sorted(b for b in range(r["b"][0], r["b"][1] + 1)
                           if "hand" in config["boards"][b]) for r in config["rounds"]}


def test_the_terminal_holds_only_the_hands_of_the_round_due_at_its_table(tmp_path):
    db = open_db(tmp_path / "event.db", create=True)
    movement = event_movement(4)
    setup.add_session(db, setup.create_event(db, "Pairs"), 1, movement)
    sid = db.value("SELECT id FROM sessions")
    for b in range(1, 17):
        setup.set_deal(db, sid, b, DEAL, law2.dealer(b), law2.vulnerability(b))
    setup.register_terminal(db, "T1", 0, section="A", table=1)
    got = hands(db)
    assert [r for r in got if got[r]] == [1] and len(got[1]) == 4  # before play: round 1
    seq, last = 0, max(got)
    for rnd in range(1, last + 1):
        records, _ = table_round(rnd, movement, 1, rnd)
        opened, rest = records[:1], records[1:]
        for part in (opened, rest):  # the round open at the table, then closed
            ingest(db, "T1", seq, [(seq + n, k, d) for n, (k, d) in enumerate(part, 1)])
            seq += len(part)
            got = hands(db)
            due = rnd if part is opened else rnd + 1
            assert [r for r in got if got[r]] == ([due] if due <= last else []), (rnd, got)
    db.close()
