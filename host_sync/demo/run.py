"""`host-sync demo`: a whole simulated session, from an empty folder to the published results.

1. Set-up, as a scorer does it (docs/SETUP.md): `event create` (a Mitchell), `names import`
   (a CSV of generated Russian and English names with player numbers), `deals import` (a PBN
   of random deals from the seed).
2. One terminal per table: a real `micropython` process on its own pseudo-terminal, running
   the terminal application from the ROMFS image (terminals.py); `serve` registers them all
   and pushes each its table's configuration.
3. Each round: the simulated players and director at every table make that round's key
   script (table.py, board.py); the terminals play them at once; then `serve` syncs them
   all, with its live table as progress.
4. Scoring (matchpoints) from the database, the final ranking, and the files:
   OUT/report/<lang>/ (HTML), OUT/session.pbn, OUT/session.xml (USEBIO), OUT/travellers.csv.
5. The database against the simulated truth (truth.py): every difference is listed and the
   exit status is 1.

The event is OUT/event.db, or with `db` a PostgreSQL URL (`host-sync demo --db URL`): the
evening against a server's database, as several stations would feed it (issue 17); the other
outputs still go to OUT. That database must be empty: the demo never drops another event.
"""

import random
import shutil
import time
from pathlib import Path

from bridge import calls
from rich.console import Console
from rich.live import Live

from host_sync import movements
from host_sync.demo import hands, players, terminals, truth
from host_sync.demo.table import round_play
from host_sync.errors import Refused
from host_sync.event import postgres, setup
from host_sync.event.db import open_db
from host_sync.interchange.deals import import_deals, read_deals
from host_sync.interchange.files import load, save
from host_sync.interchange.names_csv import import_names, read_names
from host_sync.reports.analysis import board_analyses
from host_sync.reports.console import print_rankings, print_team_results
from host_sync.reports.director import session_director_list
from host_sync.reports.publish import publish_sites
from host_sync.reports.render import render_site
from host_sync.scoring.session import score_session
from host_sync.scoring.team_session import score_teams
from host_sync.station.serve import Station, render

PIN = "2468"
SECTION = "A"
# What the demo writes in its folder: removed before a new run (nothing else is touched).
OUTPUTS = ("event.db", "event.db-wal", "event.db-shm", "names.csv", "deals.pbn",
           "terminal.img", "terminals", "report", "session.pbn", "session.xml",
           "travellers.csv")
SEATS = {"ru": "СВЮЗ", "en": "NESW"}

TEXT = {
    "ru": {
        "event": "Демо-турнир клуба",
        "setup": "Турнир (митчелл): столов %d, раундов %d, сдач в раунде %d; участники и "
                 "сдачи загружены (%s)",
        "terminals": "Терминалы: процессов micropython на псевдотерминалах %d, образ ROMFS "
                     "%d байт",
        "register": "Регистрация терминалов на станции синхронизации",
        "round": "Раунд %d: игра за столами",
        "table": "Стол %d: NS %d - EW %d, %s; клавиш %d, записей %d, пик кучи %d КБ",
        "passed": "пас",
        "irregular": "  сд %d: %s %s (%s) - директор: %s",
        "dispute": "  сд %d: противники не согласились с результатом, введен заново",
        "sync": "Раунд %d: синхронизация",
        "synced": "Синхронизировано: %d записей за %.1f с",
        "files": "Файлы: %s",
        "agree": "demo: database agrees with the simulated truth (%d results)",
        "differ": "demo: the database differs from the simulated truth in %d places:",
        "elapsed": "Время: %.1f с",
        "options": {"accept": "принято", "reject": "не принято", "lho_calls":
                    "заявляет ЛО нарушителя", "proper_calls": "заявляет игрок по очереди",
                    "offender_calls": "нарушитель заменяет"},
        "laws": {"27": "недостаточная заявка", "30": "пас вне очереди",
                 "31": "заявка вне очереди", "32": "контра вне очереди",
                 "36": "недопустимая контра", "37": "нарушение обязанности пасовать",
                 "38": "заявка выше семи", "25": "изменение заявки"},
    },
    "en": {
        "event": "Club demo pairs",
        "setup": "Event (Mitchell): %d tables, %d rounds, %d boards a round; names and deals "
                 "imported (%s)",
        "terminals": "Terminals: %d micropython processes on pseudo-terminals, ROMFS image "
                     "%d bytes",
        "register": "Registering the terminals at the sync station",
        "round": "Round %d: play at the tables",
        "table": "Table %d: NS %d - EW %d, %s; %d keys, %d records, heap peak %d KB",
        "passed": "passed out",
        "irregular": "  bd %d: %s %s (%s) - director: %s",
        "dispute": "  bd %d: the opponents disagreed with the result, entered again",
        "sync": "Round %d: sync",
        "synced": "Synced: %d records in %.1f s",
        "files": "Files: %s",
        "agree": "demo: database agrees with the simulated truth (%d results)",
        "differ": "demo: the database differs from the simulated truth in %d places:",
        "elapsed": "Elapsed: %.1f s",
        "options": {"accept": "accepted", "reject": "not accepted", "lho_calls":
                    "offender's LHO calls", "proper_calls": "the player in turn calls",
                    "offender_calls": "offender replaces it"},
        "laws": {"27": "insufficient bid", "30": "pass out of rotation",
                 "31": "bid out of rotation", "32": "double out of rotation",
                 "36": "inadmissible double", "37": "breach of the obligation to pass",
                 "38": "bid above seven", "25": "change of call"},
    },
}


class DemoFailed(RuntimeError):
    """The demo could not go on (a terminal stopped, a sync failed); the message says why."""


class Demo:
    def __init__(self, out, tables=8, rounds=3, boards_per_round=3, seed=1, lang="ru",
                 irregular=0.25, dispute=0.06, console=None, db=None, teams=None):
        self.out = Path(out).resolve()  # the terminals run in the repository: no relative path
        self.tables, self.rounds, self.per_round = tables, rounds, boards_per_round
        self.teams = teams  # a round robin of that many teams instead of a Mitchell
        self.seed, self.lang = seed, lang
        self.section = SECTION
        self.irregular, self.dispute = irregular, dispute
        self.console = console or Console()
        self.text = TEXT[lang]
        self.db_path = self.out / "event.db" if db is None else db
        self.terminals = []
        self.truths = []  # RoundTruth of every table and round
        self.reports = {}  # terminal -> its last report (keys and records so far, heap peak)
        self.started = time.monotonic()

    def say(self, key, *values):
        self.console.print(self.text[key] % values if values else self.text[key],
                           highlight=False)

    # -- the whole session --

    def run(self):
        """0 when the database agrees with the truth, 1 when not (differences printed)."""
        self.prepare()
        image = self.setup()
        try:
            self.start_terminals(image)
            for rnd in range(1, self.rounds + 1):
                self.play_round(rnd)
                self.sync(self.text["sync"] % rnd)
        finally:
            for t in self.terminals:
                t.close()
        scored = self.publish()
        print_rankings(self.console, scored, self.lang)
        if scored.session.teams is not None:  # a teams event: its matches and standings
            print_team_results(self.console, score_teams(scored.session), self.lang)
        status = self.check()
        self.say("elapsed", time.monotonic() - self.started)
        return status

    def prepare(self):
        """OUT made and cleared of the last run's outputs; an event URL must name an empty
        database (refused before anything is written)."""
        if postgres.is_url(self.db_path):
            with open_db(self.db_path, create=True) as db:
                if db.value("SELECT COUNT(*) FROM events"):
                    raise Refused("%s already holds an event: the demo needs an empty "
                                  "database (createdb a new one)" % db.path,
                                  ru="в %s уже есть турнир: демо нужна пустая база (создайте "
                                  "новую командой createdb)" % db.path)
        self.out.mkdir(parents=True, exist_ok=True)
        for name in OUTPUTS:
            path = self.out / name
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()

    def setup(self):
        """The event, names and deals through the library calls the set-up commands make
        (docs/SETUP.md); builds the terminals' image meanwhile. Returns the image path."""
        image = self.out / "terminal.img"
        builder = terminals.ImageBuild(image)
        db = str(self.db_path)
        self.movement = self.make_movement()
        conn = open_db(db, create=True)
        try:
            with conn.transaction():
                event_id = setup.create_event(conn, self.text["event"])
                sid = setup.new_session(conn, event_id, 1, {SECTION: self.movement})
                setup.set_director_pin(conn, event_id, PIN)
                setup.set_setting(conn, event_id, "lang", self.lang)
            numbers = [r["number"] for r in conn.all(
                "SELECT number FROM boards WHERE session_id = ?", (sid,))]
        finally:
            conn.close()
        self.club = players.club(random.Random("names-%s" % self.seed), self.movement.pairs)
        self.deals = hands.deals(self.seed, numbers)
        players.write_names(self.out / "names.csv", SECTION, self.club)
        players.write_deals(self.out / "deals.pbn", self.text["event"], self.deals)
        names = read_names(self.out / "names.csv")
        records, _ = read_deals(self.out / "deals.pbn")
        conn = open_db(db)
        try:
            import_names(conn, sid, names, "names.csv", "scorer")
            import_deals(conn, sid, records, "scorer")
        finally:
            conn.close()
        self.say("setup", self.tables, self.rounds, self.per_round, self.out)
        builder.wait_done()
        return image

    def make_movement(self):
        """A Mitchell of `tables`, or the first `rounds` of a teams round robin (its tables
        two a match)."""
        if self.teams is None:
            return movements.mitchell(self.tables, self.per_round, self.rounds)
        robin = movements.round_robin(self.teams)
        schedule = movements.Schedule(robin.participants, robin.rounds[:self.rounds],
                                      robin.kind)
        movement = movements.teams_movement(schedule, self.per_round)
        self.tables, self.rounds = movement.tables, movement.round_count
        return movement

    def start_terminals(self, image):
        db = open_db(str(self.db_path))
        try:
            for t in range(1, self.tables + 1):
                ident = "DEMO-T%02d" % t
                # what `host-sync terminal register --table T` records: its place
                setup.register_terminal(db, ident, 0, section=self.section, table=t,
                                        actor="scorer")
                self.terminals.append(terminals.DemoTerminal(
                    self.out / "terminals" / ident, ident, t, image, self.rounds))
        finally:
            db.close()
        self.say("terminals", self.tables, image.stat().st_size)
        # each terminal's director pairs it (director mode, 6); the scorer types the codes
        self.sync(self.text["register"], codes={t.ident: t.code() for t in self.terminals})

    # -- a round --

    def play_round(self, rnd, before=None):
        """Round `rnd` at every table; before: {terminal: keys} played first at that table
        (a director's correction of the round before, tests/test_evening.py)."""
        self.say("round", rnd)
        numbers = {p: [n for _, n in names] for p, names in self.club.items()}
        plays = {}
        for term in self.terminals:
            row = next(r for r in self.movement.table_dict(term.table)["rounds"]
                       if r["round"] == rnd)
            config_row = {"r": rnd, "ns": row["ns"], "ew": row["ew"], "b": row["boards"]}
            script, rt = round_play(self.seed, term.table, config_row, self.deals, numbers,
                                    PIN, self.lang, self.irregular, self.dispute)
            term.start_round(rnd, (before or {}).get(term, "") + script)
            plays[term] = rt
        for term, rt in plays.items():
            report = term.wait_played(rnd)
            before = self.reports.get(term.ident, {"keys": 0, "records": 0})
            self.reports[term.ident] = report
            self.truths.append(rt)
            results = " ".join("%d:%s" % (b, self.result_text(t))
                               for b, t in sorted(rt.boards.items()))
            self.say("table", rt.table, rt.ns, rt.ew, results,
                     report["keys"] - before["keys"], report["records"] - before["records"],
                     report["peak"] // 1024)
            self.describe(rt)

    def result_text(self, t):
        """'4♠Ю=', '3БКXС-2', 'пас': a board's result as a traveller shows it."""
        if t.contract is None:
            return self.text["passed"]
        ct, risk, declarer = t.contract
        over = t.tricks - (calls.level(ct) + 6)
        return "%s%s%s%s" % (calls.display(ct, self.lang), ("", "X", "XX")[risk],
                             SEATS[self.lang][declarer], "=" if not over else "%+d" % over)

    def describe(self, rt):
        seats = SEATS[self.lang]
        for b, t in sorted(rt.boards.items()):
            for law, offender, call, option in t.irregularities:
                self.say("irregular", b, self.text["laws"].get(law, law), seats[offender],
                         calls.display(call, self.lang), self.text["options"][option])
            if ("terminal", "dispute", None) in t.flags:
                self.say("dispute", b)

    def sync(self, title, codes=None):
        """Sync every terminal at once through `serve`'s station, with its live table;
        codes: {terminal: the pairing code its screen shows}, to register them."""
        self.console.print(title, highlight=False)
        start = time.monotonic()
        station = Station(str(self.db_path), [t.port for t in self.terminals],
                          register=codes is not None, timeout=1.0, code=codes)
        with Live(render(station), console=self.console, refresh_per_second=8,
                  transient=False) as live:
            station.on_change = lambda s: live.update(render(s))
            station.run(interval=0.1, once=True)  # as `serve --once` does
            live.update(render(station))
        self.console.line()
        said = {t.port: t for t in self.terminals}
        failed = ["%s: %s (the terminal: %s)" % (said[path].ident, error,
                                                 " | ".join(said[path].said[-6:]))
                  for path, state, _, error in station.snapshot() if state != "done"]
        if failed:
            raise DemoFailed("sync failed: %s" % "; ".join(failed))
        stored = sum(p.stored for _, _, p, _ in station.snapshot() if p)
        self.say("synced", stored, time.monotonic() - start)

    # -- results --

    def publish(self):
        session = load(self.db_path)
        scored = score_session(session)
        analyses = board_analyses(session, self.db_path)  # the report's and the PBN's
        written = []
        for name in ("session.pbn", "session.xml", "travellers.csv"):
            save(session, self.out / name, analyses)
            written.append(str(self.out / name))
        director = session_director_list(self.db_path)
        publish_sites(self.out / "report", ("ru", "en"), lambda lang, folder: render_site(
            session, folder, lang, scored, director, analyses))
        written.append(str(self.out / "report" / self.lang / "index.html"))
        self.say("files", ", ".join(written))
        return scored

    def check(self):
        db = open_db(str(self.db_path))
        try:
            ids = {t.table: t.ident for t in self.terminals}
            diffs = truth.differences(db, self.truths, ids)
        finally:
            db.close()
        if diffs:
            self.console.print(self.text["differ"] % len(diffs), highlight=False)
            for line in diffs:
                self.console.print("  " + line, highlight=False, markup=False)
            return 1
        results = sum(len(rt.boards) for rt in self.truths)
        self.console.print(self.text["agree"] % results, highlight=False)
        return 0
