"""`host-sync rehearse EVENT.db`: the scorer's own evening rehearsed without hardware.

The scorer has created the event (`event create`), imported the names and the hand records;
the rehearsal plays it as the demo plays its own (host_sync.demo.run: the same micropython
terminals on pseudo-terminals, simulated players and director, `serve`'s station after every
round, the files, the check against the simulated truth), on a copy of the event database in
OUT: the real file is only read, so the evening itself starts clean. Boards without a hand
record are dealt at random in the copy; the copy's director's PIN is the demo's and its
terminals speak the rehearsal's language (the simulated players and director must know both;
the real file keeps its own).
"""

import sqlite3
from pathlib import Path

from host_sync.demo import hands
from host_sync.demo.run import PIN, Demo
from host_sync.demo.terminals import ImageBuild
from host_sync.errors import Refused
from host_sync.event import setup
from host_sync.event.db import open_db
from host_sync.text import ranges

TEXT = {
    "ru": {"copy": "Репетиция турнира «%s» (%s): копия в %s; сессия %d, секция %s, %s, "
                   "столов %d, раундов %d из %d",
           "dealt": "Сдачи без раскладов разложены случайно (только в копии): %s"},
    "en": {"copy": "Rehearsal of the event '%s' (%s): a copy in %s; session %d, section %s, %s, "
                   "%d tables, %d of %d rounds",
           "dealt": "Boards without a hand record dealt at random (in the copy only): %s"},
}


class Rehearsal(Demo):
    """The demo's evening on a copy of the scorer's event (its current session)."""

    def __init__(self, source, out, rounds=None, seed=1, lang="ru", irregular=0.25,
                 console=None):
        Demo.__init__(self, out, seed=seed, lang=lang, irregular=irregular, console=console)
        self.source = Path(source)
        self.wanted_rounds = rounds
        self.check_source()

    def check_source(self):
        """Refused, before anything is written, unless the source is an SQLite event whose
        current session has one section, no results yet, and at least the rounds asked."""
        if "://" in str(self.source):
            raise Refused("rehearse takes an SQLite event file, not %s" % self.source,
                          ru="rehearse работает с файлом SQLite, а не с %s" % self.source)
        with open_db(str(self.source)) as db:  # says what is wrong with a wrong file
            self.read_event(db)
        if self.db_path.resolve() == self.source.resolve():
            raise Refused("--out %s would put the copy over the event itself" % self.out,
                          ru="--out %s: копия легла бы на сам турнир" % self.out)

    def read_event(self, db):
        event_id, self.event_name = setup.the_event(db)[:2]
        self.session_id = sid = setup.session_id(db, event_id)
        self.session_number = db.value("SELECT number FROM sessions WHERE id = ?", (sid,))
        sections = setup.section_movements(db, sid)
        if len(sections) != 1:
            raise Refused("rehearse plays one section; session %d has %s" % (
                self.session_number, ", ".join(sections)), ru="rehearse играет одну секцию; "
                "в сессии %d их несколько: %s" % (self.session_number, ", ".join(sections)))
        (self.section, self.movement), = sections.items()
        if db.value("SELECT COUNT(*) FROM results r JOIN rounds ro ON ro.id = r.round_id JOIN "
                    "tables t ON t.id = ro.table_id JOIN sections s ON s.id = t.section_id "
                    "WHERE s.session_id = ?", (sid,)):
            raise Refused("session %d already has results: rehearse before the evening" %
                          self.session_number, ru="в сессии %d уже есть результаты: "
                          "репетируйте до турнира" % self.session_number)
        total = self.movement.round_count
        self.rounds = total if self.wanted_rounds is None else self.wanted_rounds
        if not 1 <= self.rounds <= total:
            raise Refused("--rounds is 1 to %d for this movement" % total,
                          ru="--rounds от 1 до %d для этого движения" % total)
        self.tables = self.movement.tables

    def setup(self):
        """The copy, its missing deals and the demo's PIN; the names' player numbers as the
        terminals will fill them in. Returns the terminals' image."""
        image = self.out / "terminal.img"
        builder = ImageBuild(image)
        src = sqlite3.connect(str(self.source))
        dst = sqlite3.connect(str(self.db_path))
        try:
            src.backup(dst)
        finally:
            dst.close()
            src.close()
        with open_db(str(self.db_path)) as db:
            event_id = setup.the_event(db)[0]
            boards = {r["number"]: r for r in db.all(
                "SELECT number, dealer, vul, deal FROM boards WHERE session_id = ?",
                (self.session_id,))}
            missing = sorted(b for b, r in boards.items() if not r["deal"])
            dealt = hands.deals(self.seed, missing)
            with db.transaction():
                for b in missing:
                    setup.set_deal(db, self.session_id, b, dealt[b], boards[b]["dealer"],
                                   boards[b]["vul"], "rehearsal")
                setup.set_director_pin(db, event_id, PIN, "rehearsal")
                setup.set_setting(db, event_id, "lang", self.lang, "rehearsal")
            self.deals = {b: r["deal"] for b, r in boards.items() if r["deal"]}
            self.deals.update(dealt)
            self.club = {}
            for r in db.all("SELECT p.number AS pair, pl.position, pl.name, pl.number FROM "
                            "players pl JOIN pairs p ON p.id = pl.pair_id JOIN sections s ON "
                            "s.id = p.section_id WHERE s.session_id = ? ORDER BY pl.position",
                            (self.session_id,)):
                self.club.setdefault(r["pair"], []).append((r["name"], r["number"] or 0))
        for pair in self.movement.pairs:
            self.club.setdefault(pair, [("", 0), ("", 0)])
        text = TEXT[self.lang]
        self.console.print(text["copy"] % (
            self.event_name, self.source, self.db_path, self.session_number, self.section,
            self.movement.kind, self.tables, self.rounds, self.movement.round_count),
            highlight=False)
        if missing:
            self.console.print(text["dealt"] % ranges(missing), highlight=False)
        builder.wait_done()
        return image
