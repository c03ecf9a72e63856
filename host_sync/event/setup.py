"""Setting up an event in its database: sessions of one or more sections, each played to its
own movement; players' names and federation numbers; hand records; terminals. The command line
over these is host_sync.cli.setup.

Also what the station sends a terminal: its key (derived from the event's secret and the
terminal's identity, so one terminal's key opens no other's), its table's configuration, and
the travellers of the boards its table has played.
"""

import datetime
import hashlib
import hmac
import json
import os
from fractions import Fraction

from bridge import boards as law2
from bridge.calls import level, strain

from host_sync.errors import Refused
from host_sync.event import pin as pin_rules
from host_sync.event.db import now
from host_sync.event.hand_record import hand_bytes
from host_sync.movements import Movement
from host_sync.movements.teams import team_of
from host_sync.scoring import team_session
from host_sync.scoring.session import ns_points

ACTOR = "scorer"
KEY_SIZE = 32


class SetupError(Refused):
    """A request the event cannot take (unknown session, bad PIN...); the message says why."""


def create_event(db, name, actor=ACTOR):
    """A new event with a fresh secret; returns its id."""
    if not isinstance(name, str) or not name.strip():
        raise SetupError("an event needs a name", ru="у турнира должно быть название")
    with db.transaction():
        return db.insert("events", {"name": name.strip(), "key": os.urandom(KEY_SIZE).hex(),
                                    "created_at": now()}, actor)


# The event's facts a federation submission and the exports carry (migration 006): column,
# the English and the Russian name in messages.
EVENT_FACTS = (("held_on", "date", "дата"), ("venue", "venue", "место"),
               ("director", "director", "судья"), ("club", "club", "клуб"))
FACT_LENGTH = 80


def set_event_facts(db, event_id, facts, actor=ACTOR):
    """Set the event's facts given in `facts` ({column: text}; None leaves one as it is): the
    date as YYYY-MM-DD, the others short text on one line. Everything is checked before
    anything is written."""
    values = {}
    for column, en, ru in EVENT_FACTS:
        text = facts.get(column)
        if text is None:
            continue
        text = str(text).strip()
        if column == "held_on":
            try:
                text = datetime.date.fromisoformat(text).isoformat()
            except ValueError:
                raise SetupError("date %r: expected YYYY-MM-DD, such as 2026-12-02" % text,
                                 ru="дата %r: нужно ГГГГ-ММ-ДД, например 2026-12-02" % text
                                 ) from None
        elif not text or len(text) > FACT_LENGTH or not text.isprintable():
            raise SetupError("%s %r: expected text on one line, 1 to %d characters" % (
                en, text, FACT_LENGTH), ru="%s %r: нужен текст в одну строку, от 1 до %d "
                "символов" % (ru, text, FACT_LENGTH))
        values[column] = text
    if values:
        with db.transaction():
            db.update("events", {"id": event_id}, values, actor)
    return values


def set_team_conditions(db, event_id, bye_vp=None, tie_break=None, actor=ACTOR):
    """Set a teams event's conditions (migration 013; None leaves one as it is), each
    checked as scoring checks it; returns those set."""
    values = {}
    if bye_vp is not None:
        values["bye_vp"] = str(team_session.check_bye_vp(bye_vp))
    if tie_break is not None:
        values["tie_break"] = team_session.check_tie_break(tie_break)
    if values:
        with db.transaction():
            db.update("events", {"id": event_id}, values, actor)
    return values


def team_conditions(db, event_id):
    """{"bye_vp": Decimal, "tie_break": name} of the event, the defaults where none is set."""
    row = db.one("SELECT bye_vp, tie_break FROM events WHERE id = ?", (event_id,))
    return {"bye_vp": team_session.check_bye_vp(row["bye_vp"] or team_session.BYE_VP),
            "tie_break": team_session.check_tie_break(row["tie_break"] or "shared")}


def event_facts(db, event_id):
    """{column: value or None} of the event's facts."""
    row = db.one("SELECT %s FROM events WHERE id = ?" % ", ".join(c for c, _, _ in EVENT_FACTS),
                 (event_id,))
    return {c: row[c] for c, _, _ in EVENT_FACTS}


def the_event(db):
    """(id, name, key bytes) of the file's event: one event per file here."""
    row = db.one("SELECT id, name, key FROM events ORDER BY id LIMIT 1")
    if row is None:
        raise SetupError("%s holds no event (run `host-sync event create`)" % db.path,
                         ru="в %s нет турнира (создайте его: `host-sync event create`)" % db.path)
    return row["id"], row["name"], bytes.fromhex(row["key"])


def set_setting(db, event_id, name, value, actor=ACTOR):
    """A setting pushed to the terminals (any JSON value)."""
    text = json.dumps(value, sort_keys=True)
    with db.transaction():
        key = {"event_id": event_id, "name": name}
        if db.one("SELECT 1 FROM settings WHERE event_id = ? AND name = ?", (event_id, name)):
            db.update("settings", key, {"value": text}, actor)
        else:
            db.insert("settings", dict(key, value=text), actor, key=key)


def check_pin(pin):
    """SetupError unless pin is a director's PIN the terminal takes: 4 to 8 digits."""
    if not (isinstance(pin, str) and pin.isdigit() and pin.isascii() and 4 <= len(pin) <= 8):
        raise SetupError("the director's PIN must be 4 to 8 digits",
                         ru="PIN судьи — от 4 до 8 цифр")
    return pin


def set_director_pin(db, event_id, pin, actor=ACTOR):
    """Keep what the terminals' PIN checks are derived from, never the PIN itself: its PBKDF2
    under the event's salt (host_sync.event.pin: the database and its audit rows hold no
    PIN); each terminal's configuration carries its own check of it (pin_config)."""
    check_pin(pin)
    set_setting(db, event_id, "pin", pin_rules.stored_form(the_event(db)[2], pin), actor)


def pin_config(db, terminal_id, stored):
    """The PIN part of a terminal's configuration (docs/CONFIG.md) from the stored setting."""
    part = pin_rules.terminal_part(stored, terminal_id)
    if part is None:  # a form of before (the sha256 hash), with nothing to derive from
        raise SetupError("the director's PIN was stored by an older host-sync in a form the "
                         "terminals no longer take; set it again (set_director_pin)",
                         ru="PIN судьи сохранён старой версией host-sync в виде, который "
                            "терминалы больше не принимают; задайте его заново "
                            "(set_director_pin)")
    return part


SECTION_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # what a terminal can be placed in
MAX_PLAYER_NUMBER = 99999  # the terminal's players form takes five digits


def add_session(db, event_id, number, movement, section="A", names=None, deals=None,
                current=True, actor=ACTOR):
    """Store a session played to `movement` (a movements.Movement) in one section.

    names: {pair number: [player, player]}; deals: {board number: PBN Deal tag value}.
    Returns the session id.
    """
    names = names or {}
    with db.transaction():
        sid = new_session(db, event_id, number, {section: movement}, deals, current, actor)
        sec = section_id(db, sid, section)
        for pair in movement.pairs:
            if pair in names:
                set_players(db, sec, pair, [(name, None) for name in names[pair]], actor)
        return sid


def new_session(db, event_id, number, sections, deals=None, current=True, actor=ACTOR):
    """Store a session of one or more sections, {letter: Movement}, each with its own
    movement; the boards are the session's (every section plays the same numbers and deals).

    With current=True it becomes the session the terminals are given at sync. Returns its id.
    """
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise SetupError("a session number is a whole number from 1, not %r" % (number,),
                         ru="номер сессии — целое число от 1, а не %r" % (number,))
    if not sections:
        raise SetupError("a session needs at least one section",
                         ru="в сессии должна быть хотя бы одна секция")
    for letter, movement in sections.items():
        if not isinstance(movement, Movement):
            raise SetupError("a session needs a movement", ru="сессии нужно движение")
        if not (isinstance(letter, str) and len(letter) == 1 and letter in SECTION_LETTERS):
            raise SetupError("a section is one letter A to Z, not %r" % (letter,),
                             ru="секция — одна буква от A до Z, а не %r" % (letter,))
    deals = deals or {}
    with db.transaction():
        if db.one("SELECT 1 FROM sessions WHERE event_id = ? AND number = ?",
                  (event_id, number)):
            raise SetupError("the event already has a session %d" % number,
                             ru="в турнире уже есть сессия %d" % number)
        if current:
            for row in db.all("SELECT id FROM sessions WHERE event_id = ? AND current = 1",
                              (event_id,)):
                db.update("sessions", {"id": row["id"]}, {"current": 0}, actor)
        first = next(iter(sections.values()))
        sid = db.insert("sessions", {"event_id": event_id, "number": number,
                                     "current": int(current),
                                     "movement": json.dumps(first.to_dict())}, actor)
        numbers = set()
        for letter, movement in sections.items():
            numbers |= _add_section(db, sid, letter, movement, actor)
        for b in sorted(numbers):
            db.insert("boards", {"session_id": sid, "number": b, "dealer": law2.dealer(b),
                                 "vul": law2.vulnerability(b), "deal": deals.get(b)}, actor)
        return sid


def _add_section(db, sid, letter, movement, actor):
    """The section's pairs, tables and rounds; returns the board numbers it plays."""
    sec = db.insert("sections", {"session_id": sid, "letter": letter,
                                 "movement": json.dumps(movement.to_dict())}, actor)
    for pair in movement.pairs:
        db.insert("pairs", {"section_id": sec, "number": pair}, actor)
    tables = {}
    for t in range(1, movement.tables + 1):
        tables[t] = db.insert("tables", {"section_id": sec, "number": t}, actor)
    numbers = set()
    for rno, rnd in enumerate(movement.rounds, movement.first_round):
        for s in rnd:
            rid = db.insert("rounds", {"table_id": tables[s.table], "number": rno,
                                       "ns_pair": s.ns, "ew_pair": s.ew}, actor)
            for b in movement.board_numbers(s.board_set):
                numbers.add(b)
                db.insert("round_boards", {"round_id": rid, "board": b}, actor,
                          key={"round_id": rid, "board": b})
    return numbers


def set_current_session(db, event_id, number, actor=ACTOR):
    """Make session `number` the one the terminals are given at their next sync."""
    sid = session_id(db, event_id, number)
    with db.transaction():
        for row in db.all("SELECT id FROM sessions WHERE event_id = ? AND id != ?",
                          (event_id, sid)):
            db.update("sessions", {"id": row["id"]}, {"current": 0}, actor)
        db.update("sessions", {"id": sid}, {"current": 1}, actor)
    return sid


def session_id(db, event_id, number=None):
    """The id of session `number`, or of the current session when number is None."""
    if number is None:
        sid = current_session(db, event_id)
        if sid is None:
            raise SetupError("the event has no current session (add one with "
                             "`host-sync session add`)", ru="у турнира нет текущей сессии "
                             "(добавьте её: `host-sync session add`)")
        return sid
    sid = db.value("SELECT id FROM sessions WHERE event_id = ? AND number = ?",
                   (event_id, number))
    if sid is None:
        raise SetupError("the event has no session %r" % (number,),
                         ru="в турнире нет сессии %r" % (number,))
    return sid


def chosen_section(db, session_id, section=None):
    """The letter of the session's section `section` (any case; None: the only one), for a
    command's --section; SetupError naming the sections when it is none of them."""
    letters = [r[0] for r in db.all("SELECT letter FROM sections WHERE session_id = ? "
                                    "ORDER BY letter", (session_id,))]
    if section is None:
        if len(letters) != 1:
            raise SetupError("the session has sections %s: say which with --section" %
                             ", ".join(letters), ru="в сессии секции %s: укажите нужную в "
                             "--section" % ", ".join(letters))
        return letters[0]
    letter = str(section).strip().upper()
    if letter not in letters:
        raise SetupError("the session has no section %r" % (section,),
                         ru="в сессии нет секции %r" % (section,))
    return letter


def section_id(db, session_id, letter):
    sec = db.value("SELECT id FROM sections WHERE session_id = ? AND letter = ?",
                   (session_id, letter))
    if sec is None:
        raise SetupError("the session has no section %r" % (letter,),
                         ru="в сессии нет секции %r" % (letter,))
    return sec


def section_movements(db, session_id):
    """{letter: Movement} of the session's sections, in letter order; a section stored without
    a movement of its own plays the session's."""
    session = _session_row(db, session_id)
    out = {}
    for row in db.all("SELECT id, letter, movement FROM sections WHERE session_id = ? "
                      "ORDER BY letter", (session_id,)):
        movement = Movement.from_dict(json.loads(row["movement"] or session["movement"]))
        _check_numbering(db, row["id"], movement, session["number"], row["letter"])
        out[row["letter"]] = movement
    return out


def _check_numbering(db, section_id, movement, number, letter):
    """Refuse a movement whose rounds are not numbered as its tables' rounds were written
    (a first_round edited by hand): its first and last rounds' first seatings have rows."""
    for rnd in {movement.first_round, movement.round_numbers()[-1]}:
        seats = movement.rounds[rnd - movement.first_round]
        if seats and not db.value(
                "SELECT COUNT(*) FROM rounds r JOIN tables t ON t.id = r.table_id "
                "WHERE t.section_id = ? AND t.number = ? AND r.number = ?",
                (section_id, seats[0].table, rnd)):
            raise SetupError("session %d section %s: its movement's round %d is not a round "
                             "its tables play (edited by hand?)" % (number, letter, rnd),
                             ru="сессия %d, секция %s: тура %d движения нет у её столов "
                             "(правка вручную?)" % (number, letter, rnd))


def set_players(db, section, pair, players, actor=ACTOR):
    """Name the players of pair `pair` in section id `section`: [(name, number or None)], in
    position order; a player already stored is updated (and the change audited)."""
    pid = db.value("SELECT id FROM pairs WHERE section_id = ? AND number = ?", (section, pair))
    if pid is None:
        raise SetupError("no pair %r in the section" % (pair,),
                         ru="в секции нет пары %r" % (pair,))
    with db.transaction():
        for pos, (name, number) in enumerate(players, 1):
            key = {"pair_id": pid, "position": pos}
            if db.one("SELECT 1 FROM players WHERE pair_id = ? AND position = ?", (pid, pos)):
                db.update("players", key, {"name": name, "number": number}, actor)
            else:
                db.insert("players", dict(key, name=name, number=number), actor)


def set_team_name(db, section, team, name, actor=ACTOR):
    """Name team `team` of section id `section` (migration 016); a name already stored is
    replaced (and the change audited)."""
    key = {"section_id": section, "team": team}
    with db.transaction():
        if db.one("SELECT 1 FROM team_names WHERE section_id = ? AND team = ?",
                  (section, team)):
            db.update("team_names", key, {"name": name}, actor)
        else:
            db.insert("team_names", dict(key, name=name), actor)


def team_names(db, session_id):
    """{(section letter, team): name} of the session's named teams; a row that is not one
    (written into the file by hand) is refused naming it."""
    out = {}
    for r in db.all("SELECT t.id, s.letter, t.team, t.name FROM team_names t JOIN sections s "
                    "ON s.id = t.section_id WHERE s.session_id = ?", (session_id,)):
        if not (type(r["team"]) is int and r["team"] > 0 and isinstance(r["name"], str)
                and r["name"].strip()):
            raise SetupError("team name %d is not one (team %r)" % (r["id"], r["team"]),
                             ru="название команды %d испорчено (команда %r)" % (
                                 r["id"], r["team"]))
        out[r["letter"], r["team"]] = r["name"]
    return out


def carry_players(db, session_id, actor=ACTOR):
    """Name the pairs of a teams session, and its teams, as the event's earlier teams
    sessions last named them: a team keeps its number from day to day (team t is pairs 2t-1
    and 2t), so a Swiss or a knockout, a session a round, needs no names import each round;
    a knockout after groups numbers its teams anew, and their names follow them. Returns how
    many pairs were named."""
    movements = section_movements(db, session_id)
    if any(mv.kind != "teams" for mv in movements.values()):
        return 0
    event_id, number = db.one("SELECT event_id, number FROM sessions WHERE id = ?",
                              (session_id,))
    named = {}  # (letter, pair) -> {position: (name, number)}, in the numbering reached
    teams = {}  # (letter, the team's first pair) -> the team's name, renumbered alike
    for earlier in db.all("SELECT id FROM sessions WHERE event_id = ? AND number < ? "
                          "ORDER BY number", (event_id, number)):
        its = section_movements(db, earlier["id"])
        if not its or any(mv.kind != "teams" for mv in its.values()):
            continue
        named, teams = _renumbered(named, its), _renumbered(teams, its)
        for (letter, team), name in team_names(db, earlier["id"]).items():
            teams[letter, 2 * team - 1] = name
        for row in db.all("SELECT s.letter, p.number AS pair, pl.name, pl.number, pl.position "
                          "FROM players pl JOIN pairs p ON p.id = pl.pair_id "
                          "JOIN sections s ON s.id = p.section_id WHERE s.session_id = ? "
                          "ORDER BY pl.position", (earlier["id"],)):
            named.setdefault((row["letter"], row["pair"]), {})[row["position"]] = (
                row["name"], row["number"])
    named, teams = _renumbered(named, movements), _renumbered(teams, movements)
    count = 0
    with db.transaction():
        for row in db.all("SELECT s.id, s.letter, p.number FROM pairs p JOIN sections s ON "
                          "s.id = p.section_id WHERE s.session_id = ?", (session_id,)):
            players = named.get((row["letter"], row["number"]))
            if players:
                set_players(db, row["id"], row["number"],
                            [players[pos] for pos in sorted(players)], actor)
                count += 1
            name = teams.get((row["letter"], row["number"]))
            if name:
                set_team_name(db, row["id"], team_of(row["number"]), name, actor)
    return count


def _renumbered(named, movements):
    """`named` ((letter, pair) -> players) in the numbering of a session's `movements`: as
    it is, or, for a knockout after groups, each of its teams n from its origin (the
    options' "from": "B2" at n - 1), the teams of the groups that did not go through left
    behind."""
    for letter, mv in movements.items():
        origins = mv.options.get("from")
        if not isinstance(origins, list):
            continue
        out = {}
        for team, origin in enumerate(origins, 1):
            origin = str(origin)
            if origin[:1].isalpha() and origin[1:].isascii() and origin[1:].isdigit():
                for first in (1, 0):  # the team's first pair (2t - 1), then its second
                    players = named.get((origin[0], 2 * int(origin[1:]) - first))
                    if players:
                        out[letter, 2 * team - first] = players
        return out
    return named


def set_deal(db, session_id, board, deal, dealer, vul, actor=ACTOR):
    """Store the hand record of a board of the session (deal: a PBN Deal tag value)."""
    with db.transaction():
        try:
            db.update("boards", {"session_id": session_id, "number": board},
                      {"deal": deal, "dealer": dealer, "vul": vul}, actor)
        except LookupError:
            raise SetupError("board %r is not played in the session" % (board,),
                             ru="сдача %r не играется в сессии" % (board,)) from None


def current_session(db, event_id):
    row = db.one("SELECT id FROM sessions WHERE event_id = ? AND current = 1", (event_id,))
    return None if row is None else row["id"]


# -- terminals -----------------------------------------------------------------------------

def terminal_key(event_key, terminal_id):
    """The terminal's HMAC key: HMAC-SHA256(event secret, its identity)."""
    return hmac.new(event_key, terminal_id.encode(), hashlib.sha256).digest()


def check_place(db, section, table):
    """The section letter (upper case) of a placement at `table` of the current session;
    SetupError when the session has no such section or its movement no such table."""
    event_id = the_event(db)[0]
    letter = (section or "").strip().upper()
    movements = section_movements(db, session_id(db, event_id))
    if letter not in movements:
        raise SetupError("no section %s (the session has %s)" % (
            letter or "''", ", ".join(movements)), ru="нет секции %s (в сессии: %s)" % (
            letter or "''", ", ".join(movements)))
    tables = movements[letter].tables
    if not isinstance(table, int) or isinstance(table, bool) or not 1 <= table <= tables:
        raise SetupError("table %s: the movement has %d tables" % (table, tables),
                         ru="стол %s: в движении столов %d" % (table, tables))
    return letter


def register_terminal(db, terminal_id, base_seq, name="", section=None, table=None,
                      actor="station"):
    """Register (or re-register) a terminal at this event; returns its key.

    base_seq: the last journal sequence the terminal holds now; records up to it are not this
    event's. Re-registering keeps what was stored and only refreshes the placement.
    """
    if not isinstance(terminal_id, str) or not terminal_id or len(terminal_id) > 64:
        raise SetupError("a terminal identity is a short text, not %r" % (terminal_id,),
                         ru="имя терминала — короткий текст, а не %r" % (terminal_id,))
    event_id, _, event_key = the_event(db)
    key = terminal_key(event_key, terminal_id)
    if section is not None or table is not None:
        section = check_place(db, section, table)
    with db.transaction():
        row = db.one("SELECT event_id FROM terminals WHERE id = ?", (terminal_id,))
        place = {"section": section, "table_no": table}
        if row is None:
            db.insert("terminals", dict(place, id=terminal_id, event_id=event_id, key=key.hex(),
                                        name=name, registered_at=now(), base_seq=base_seq,
                                        last_seq=base_seq,
                                        session_id=current_session(db, event_id)),
                      actor, terminal_id, key={"id": terminal_id})
        elif section is not None or table is not None:
            db.update("terminals", {"id": terminal_id}, place, actor, terminal_id)
    return key


def reset_terminal(db, terminal_id, actor=ACTOR):
    """The terminal's flash was wiped: its journal starts at seq 1 again under the same
    identity. Marks it so its next sync re-bases it (host_sync.station.sync): what is stored stays,
    and the new journal's records are stored after it. Returns the last seq stored."""
    with db.transaction():
        row = terminal(db, terminal_id)
        if row is None:
            raise SetupError("no terminal %r is registered at this event" % (terminal_id,),
                             ru="терминал %r не зарегистрирован в этом турнире" % (
                                 terminal_id,))
        db.update("terminals", {"id": terminal_id}, {"rebase": 1}, actor, terminal_id)
        return row["last_seq"]


def terminal(db, terminal_id):
    """The terminals row, or None for a terminal this event does not know."""
    return db.one("SELECT * FROM terminals WHERE id = ?", (terminal_id,))


# -- what the station pushes ---------------------------------------------------------------

def _session_row(db, session_id):
    row = db.one("SELECT * FROM sessions WHERE id = ?", (session_id,))
    if row is None:
        raise SetupError("no session %r" % (session_id,), ru="нет сессии %r" % (session_id,))
    return row


def table_config(db, terminal_id):
    """The configuration of the terminal's table for the current session, in the form
    terminal.config reads (docs/CONFIG.md), or None when the terminal is not placed at a table
    yet (everything is then typed in at the table). It carries its section's movement, the
    names of the pairs that come to the table, their player numbers where known (0 for one
    not known) and the boards it plays, with the hand records of one round only: the round
    due at the table (_due_round); `cc` 1 once the session's correction period is closed."""
    t = terminal(db, terminal_id)
    event_id = t["event_id"]
    sid = current_session(db, event_id)
    if sid is None or t["table_no"] is None:
        return None
    movement = section_movements(db, sid).get(t["section"])
    if movement is None:
        raise SetupError("terminal %s is placed in section %s; the session has no such section"
                         % (terminal_id, t["section"]), ru="терминал %s назначен в секцию %s, "
                         "а в сессии её нет" % (terminal_id, t["section"]))
    if t["table_no"] > movement.tables:
        raise SetupError("terminal %s is placed at table %d; the movement has %d tables" % (
            terminal_id, t["table_no"], movement.tables), ru="терминал %s назначен за стол %d, "
            "а в движении столов %d" % (terminal_id, t["table_no"], movement.tables))
    rounds = []
    for r in movement.table_dict(t["table_no"])["rounds"]:
        if r.get("idle"):
            continue
        nxt = r.get("next") or {}  # seatings carry who really sits NS and EW, switch or not
        rounds.append({"r": r["round"], "ns": r["ns"], "ew": r["ew"], "b": r["boards"],
                       "nns": (nxt.get("ns") or [0])[0], "new": (nxt.get("ew") or [0])[0]})
    pairs = {p for r in rounds for p in (r["ns"], r["ew"])}
    wanted = {b for r in rounds for b in range(r["b"][0], r["b"][1] + 1)}
    due = _due_round(db, t, sid, rounds)
    dealt = {b for r in rounds if r["r"] == due for b in range(r["b"][0], r["b"][1] + 1)}
    names, numbers = {}, {}
    for row in db.all("SELECT p.number AS pair, pl.name, pl.number FROM pairs p "
                      "JOIN sections s ON s.id = p.section_id "
                      "JOIN players pl ON pl.pair_id = p.id "
                      "WHERE s.session_id = ? AND s.letter = ? ORDER BY pl.position",
                      (sid, t["section"])):
        if row["pair"] in pairs:
            names.setdefault(row["pair"], []).append(row["name"])
            numbers.setdefault(row["pair"], []).append(row["number"] or 0)
    boards = {}
    for row in db.all("SELECT number, dealer, vul, deal FROM boards WHERE session_id = ?",
                      (sid,)):
        if row["number"] in wanted:
            entry = {"d": row["dealer"], "v": row["vul"]}
            hand = hand_bytes(row["deal"])  # packed here: the terminal does not parse PBN
            if hand and row["number"] in dealt:
                entry["hand"] = hand
            boards[row["number"]] = entry
    settings = {row["name"]: json.loads(row["value"]) for row in db.all(
        "SELECT name, value FROM settings WHERE event_id = ?", (event_id,))}
    pin = settings.pop("pin", None)
    for own in ("publication", "held_boards"):  # the live page's holds (host_sync.web)
        settings.pop(own, None)  # are the host's alone
    config = {"event": the_event(db)[1], "term": terminal_id, "sec": t["section"],
              "tbl": t["table_no"], "set": settings, "rounds": rounds,
              "names": {p: " - ".join(n) for p, n in sorted(names.items())},
              "boards": boards}
    players = {p: n for p, n in sorted(numbers.items()) if len(n) == 2 and any(n)}
    if players:  # the terminal fills its players form with these (0: not known)
        config["players"] = players
    if db.value("SELECT corrections_closed_at FROM sessions WHERE id = ?", (sid,)):
        config["cc"] = 1  # `session close`: director mode corrects no closed round (79C)
    if pin:
        config.update(pin_config(db, terminal_id, pin))
    return config


def _due_round(db, t, sid, rounds):
    """The one round whose hand records the terminal is given (need to know,
    docs/SECURITY.md): the round open at its table, else the next one of its rounds after the
    last it closed, else its first; None when every round is closed. A board of a later round
    never reaches the table before that round is due."""
    row = db.one(
        "SELECT ro.number, rec.kind FROM records rec JOIN rounds ro ON ro.id = rec.round_id "
        "JOIN tables tb ON tb.id = ro.table_id JOIN sections s ON s.id = tb.section_id "
        "WHERE rec.terminal_id = ? AND rec.valid = 1 AND rec.kind IN ('open', 'close') "
        "AND rec.seq > ? AND s.session_id = ? AND s.letter = ? AND tb.number = ? "
        "ORDER BY rec.seq DESC LIMIT 1",
        (t["id"], t["journal_offset"], sid, t["section"], t["table_no"]))
    numbers = sorted(r["r"] for r in rounds)
    if row is None:
        return numbers[0] if numbers else None
    if row["kind"] == "open":
        return row["number"]
    return next((n for n in numbers if n > row["number"]), None)


def travellers(db, terminal_id):
    """For each board the terminal's table has a verified result on in the current session:
    every verified line of that board in its section, for display at the table. A line the
    players scored is [ns, ew, bid, risk, declarer, tricks, score_ns] (bid None when passed
    out); an adjusted score (Law 12C) is [ns, ew, how, ...] (traveller_line). An unverified
    line is not final (the scoring does not count it) and is not shown either, nor a board
    the director ruled not played."""
    t = terminal(db, terminal_id)
    sid = current_session(db, t["event_id"])
    if sid is None or t["table_no"] is None:
        return {}
    rows = db.all(
        "SELECT r.board, ro.ns_pair, ro.ew_pair, r.bid, r.risk, r.declarer, r.tricks, "
        "r.score_ns, r.adjustment, tb.number AS tbl, b.vul FROM results r "
        "JOIN rounds ro ON ro.id = r.round_id JOIN tables tb ON tb.id = ro.table_id "
        "JOIN sections s ON s.id = tb.section_id "
        "LEFT JOIN boards b ON b.session_id = s.session_id AND b.number = r.board "
        "WHERE s.session_id = ? AND s.letter = ? AND r.verified = 1 "
        "ORDER BY r.board, ro.ns_pair", (sid, t["section"]))
    lines = [(row, traveller_line(row)) for row in rows]
    played = {row["board"] for row, line in lines if line and row["tbl"] == t["table_no"]}
    out = {}
    for row, line in lines:
        if line and row["board"] in played:
            out.setdefault(row["board"], []).append(line)
    return out


def traveller_line(row):
    """A results row (with ns_pair, ew_pair and the board's vul) as a line of the terminals'
    traveller (docs/PROTOCOL.md, "Files"), or None when it has no score to show (no contract
    the host stands by, or an adjustment `np`: not played). An adjusted score is
    [ns, ew, "art", ns %, ew %] (12C2: 60 A+, 50 A, 40 A-), [ns, ew, "asg", bid, risk,
    declarer, tricks, score_ns] (12C1a), [ns, ew, "wgt", score_ns] (12C1c, the weighted
    points rounded) or [ns, ew, "split", score_ns, score_ew] (12C1e, EW's in EW's own sign)."""
    pairs = [row["ns_pair"], row["ew_pair"]]
    if not row["adjustment"]:
        if row["score_ns"] is None:
            return None
        return pairs + [row["bid"], row["risk"], row["declarer"], row["tricks"],
                        row["score_ns"]]
    adj = json.loads(row["adjustment"])
    vul = row["vul"] or law2.vulnerability(row["board"])

    def points(bid, risk, declarer, tricks):
        return ns_points(level(bid), strain(bid), risk, vul, declarer, tricks)

    how = adj["how"]
    if how == "art":
        return pairs + ["art", adj["ns"], adj["ew"]]
    if how == "asg":
        part = (adj["ct"], adj["x"], adj["dcl"], adj["tr"])
        return pairs + ["asg", *part, points(*part)]
    if how == "wgt":
        return pairs + ["wgt", round(sum(Fraction(p[0], 100) * points(*p[1:])
                                         for p in adj["parts"]))]
    if how == "split":
        return pairs + ["split", points(*adj["ns"]), -points(*adj["ew"])]
    return None  # np: the board was not played at that table
