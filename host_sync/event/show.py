"""`host-sync event show`: what an event file holds, in words, for the scorer checking the
set-up before the evening: sessions, sections with their movement round by round, pairs with
names and numbers, boards with and without hand records, and the terminals registered."""

from bridge import boards as law2

from host_sync.event import setup, team_rulings
from host_sync.text import ranges, vp_text

_TEXT = {
    "en": {"event": "Event: %s (%s)", "session": "Session %d", "current": " (current)",
           "section": "Section %s: %s, %d tables, %d rounds, %d boards per round",
           "pairs": "Pairs:", "unnamed": "(no names)", "boards": "Boards: %s",
           "dealt": "  with hand records: %s", "undealt": "  without hand records: %s",
           "off_law2": "  dealer or vulnerability not as Law 2: %s",
           "terminals": "Terminals registered: %d", "placed": "section %s table %s",
           "unplaced": "not placed", "seen": "last sync %s", "never": "never synced",
           "none": "none", "no_sessions": "No sessions yet.",
           "kinds": {"mitchell": "Mitchell", "howell": "Howell", "teams": "teams"},
           "facts": ("Date", "Venue", "Director", "Club"), "not_given": "not given",
           "closed": "  correction period closed %s",
           "conditions": "Teams: a bye %s VP; equal VPs: %s",
           "tie_breaks": {"shared": "share the place", "quotient": "the IMP quotient"},
           "removed": "  team %d of section %s removed (5.7.3): %s",
           "forfeit": "  team %d of section %s: a technical defeat in round %d: %s",
           "swiss": "  a Swiss round (1.5.6), drawn with seed %s",
           "robin": "  a round robin (1.5.3): %s teams, cycles %s, rounds %s of %d",
           "order": "; the round order %s", "teams": "Teams:",
           "knockout": "  a knockout round (1.5.4): bracket %s",
           "double": " (out after two defeats, 1.5.5; lower bracket %s%s)",
           "final": "; the grand final", "final2": "; the grand final's second match",
           "from": "; numbered from the groups: %s",
           "through": "  team %d of section %s went through a tied match: %s"},
    "ru": {"event": "Турнир: %s (%s)", "session": "Сессия %d", "current": " (текущая)",
           "section": "Секция %s: %s, столов %d, туров %d, сдач в туре %d",
           "pairs": "Пары:", "unnamed": "(без имён)", "boards": "Сдачи: %s",
           "dealt": "  с раскладами: %s", "undealt": "  без раскладов: %s",
           "off_law2": "  сдающий или зона не по Закону 2: %s",
           "terminals": "Зарегистрировано терминалов: %d", "placed": "секция %s стол %s",
           "unplaced": "не назначен", "seen": "последняя синхронизация %s",
           "never": "ещё не синхронизирован", "none": "нет", "no_sessions": "Сессий пока нет.",
           "kinds": {"mitchell": "Митчелл", "howell": "Хоуэлл", "teams": "командный"},
           "facts": ("Дата", "Место", "Судья", "Клуб"), "not_given": "не указано",
           "closed": "  период исправлений закрыт %s",
           "conditions": "Команды: свободный тур %s ВП; при равенстве ВП: %s",
           "tie_breaks": {"shared": "место делится", "quotient": "коэффициент ИМПов"},
           "removed": "  команда %d секции %s удалена (5.7.3): %s",
           "forfeit": "  команде %d секции %s техническое поражение в туре %d: %s",
           "swiss": "  тур по швейцарской системе (1.5.6), жеребьёвка с зерном %s",
           "robin": "  круговой турнир (1.5.3): команд %s, кругов %s, туры %s из %d",
           "order": "; порядок туров %s", "teams": "Команды:",
           "knockout": "  тур олимпийской системы (1.5.4): сетка %s",
           "double": " (выбывание после двух поражений, 1.5.5; нижняя сетка %s%s)",
           "final": "; финал", "final2": "; второй матч финала",
           "from": "; номера из групп: %s",
           "through": "  команда %d секции %s прошла после ничьей в матче: %s"},
}
LANGUAGES = tuple(_TEXT)


def summary(db, lang="ru"):
    """The whole event as text in `lang` ('ru' or 'en')."""
    t = _TEXT[lang]
    event_id, name, _ = setup.the_event(db)
    lines = [t["event"] % (name, db.path), facts(db, event_id, lang).rstrip("\n")]
    sessions = db.all("SELECT id, number, current, corrections_closed_at FROM sessions "
                      "WHERE event_id = ? "
                      "ORDER BY number", (event_id,))
    if not sessions:
        lines.append(t["no_sessions"])
    for s in sessions:
        lines += [""] + _session(db, s, t, lang)
    lines += [""] + _terminals(db, event_id, t)
    return "\n".join(lines) + "\n"


def facts(db, event_id, lang="ru"):
    """The event's date, venue, director and club, one a line ("not given" where none is),
    and, for an event with a teams session, its teams' conditions (migration 013)."""
    t = _TEXT[lang]
    given = setup.event_facts(db, event_id)
    text = "".join("%s: %s\n" % (label, given[column] or t["not_given"]) for label, (
        column, _, _) in zip(t["facts"], setup.EVENT_FACTS))
    if not any(mv.kind == "teams" for row in db.all(
            "SELECT id FROM sessions WHERE event_id = ?", (event_id,))
            for mv in setup.section_movements(db, row["id"]).values()):
        return text
    conditions = setup.team_conditions(db, event_id)
    return text + t["conditions"] % (vp_text(conditions["bye_vp"]),
                                     t["tie_breaks"][conditions["tie_break"]]) + "\n"


def _robin_line(mv, t):
    """A round robin day's line: its teams and cycles, the rounds it plays of them all, and
    the chief director's round order when one was given."""
    robin, cycles = mv.options["robin"], mv.options.get("cycles", 1)
    rounds = mv.round_numbers()
    total = (robin - 1 + robin % 2) * cycles if type(robin) is int and type(cycles) is int \
        else rounds[-1]
    order = mv.options.get("order")
    return t["robin"] % (robin, cycles, ranges(rounds), total) + (
        t["order"] % ",".join(map(str, order)) if isinstance(order, list) else "")


def _session(db, s, t, lang):
    lines = [t["session"] % s["number"] + (t["current"] if s["current"] else "")]
    if s["corrections_closed_at"]:
        lines.append(t["closed"] % s["corrections_closed_at"][:16].replace("T", " "))
    for letter, mv in setup.section_movements(db, s["id"]).items():
        lines.append(t["section"] % (letter, t["kinds"].get(mv.kind, mv.kind), mv.tables,
                                     mv.round_count, mv.boards_per_set))
        if mv.options.get("schedule") == "swiss":
            lines.append(t["swiss"] % mv.options.get("seed", "?"))
        elif mv.options.get("schedule") == "knockout":
            lines.append(_knockout_line(mv.options, t))
        elif mv.kind == "teams" and "robin" in mv.options:
            lines.append(_robin_line(mv, t))
        for rnd in mv.round_numbers():
            lines += ["  " + line for line in mv.describe(rnd, lang).splitlines()]
        lines.append("  " + t["pairs"])
        named = _players(db, s["id"], letter)
        for pair in mv.pairs:
            lines.append("    %-4s %s" % (mv.label(pair), named.get(pair, t["unnamed"])))
        teams = {team: name for (at, team), name in setup.team_names(db, s["id"]).items()
                 if at == letter}
        if teams:
            lines.append("  " + t["teams"])
            lines += ["    %-4s %s" % (team, teams[team]) for team in sorted(teams)]
    for r in team_rulings.rulings(db, s["id"]):
        lines.append(t["removed"] % (r.team, r.letter, r.reason) if r.round is None else
                     t["forfeit"] % (r.team, r.letter, r.round, r.reason))
    for (letter, team), reason in team_rulings.ties(db, s["id"]).items():
        lines.append(t["through"] % (team, letter, reason))
    rows = db.all("SELECT number, dealer, vul, deal FROM boards WHERE session_id = ? "
                  "ORDER BY number", (s["id"],))
    numbers = [r["number"] for r in rows]
    dealt = [r["number"] for r in rows if r["deal"]]
    off = [r["number"] for r in rows if (r["dealer"], r["vul"]) != (
        law2.dealer(r["number"]), law2.vulnerability(r["number"]))]
    lines.append(t["boards"] % (ranges(numbers) or t["none"]))
    lines.append(t["dealt"] % (ranges(dealt) or t["none"]))
    lines.append(t["undealt"] % (ranges(set(numbers) - set(dealt)) or t["none"]))
    if off:
        lines.append(t["off_law2"] % ranges(off))
    return lines


def _knockout_line(options, t):
    """A knockout round's line: its bracket, a double knockout's lower bracket and final,
    the numbering after groups; whatever a hand-edited row holds is printed, not trusted."""
    line = t["knockout"] % bracket_text(options.get("bracket"))
    if options.get("double"):
        final = {"1": t["final"], "2": t["final2"]}.get(str(options.get("final")), "")
        line += t["double"] % (bracket_text(options.get("lower")) or "—", final)
    if isinstance(options.get("from"), list):
        line += t["from"] % numbering(options["from"])
    return line


def numbering(origins):
    """A knockout's numbering after groups: "1 = A1, 2 = B2" (options "from")."""
    return ", ".join("%d = %s" % (n, o) for n, o in enumerate(origins, 1))


def bracket_text(bracket):
    """A knockout's bracket as pairs of slots, "1-8, 4-5, 2-—" (— a bye), or "?" when what
    the row holds is not a list."""
    if not isinstance(bracket, list):
        return "?"
    slots = [str(t) if t else "—" for t in bracket]
    return ", ".join("%s-%s" % pair for pair in zip(slots[::2], slots[1::2]))


def _players(db, session_id, letter):
    """{pair: 'Name (number) - Name (number)'} of the pairs named in the section."""
    named = {}
    for row in db.all("SELECT p.number AS pair, pl.name, pl.number FROM pairs p "
                      "JOIN sections s ON s.id = p.section_id "
                      "JOIN players pl ON pl.pair_id = p.id "
                      "WHERE s.session_id = ? AND s.letter = ? ORDER BY p.number, pl.position",
                      (session_id, letter)):
        who = row["name"] + (" (%d)" % row["number"] if row["number"] else "")
        named.setdefault(row["pair"], []).append(who)
    return {pair: " — ".join(players) for pair, players in named.items()}


def _terminals(db, event_id, t):
    rows = db.all("SELECT id, name, section, table_no, last_seen FROM terminals "
                  "WHERE event_id = ? ORDER BY section, table_no, id", (event_id,))
    lines = [t["terminals"] % len(rows)]
    for r in rows:
        place = (t["placed"] % (r["section"], r["table_no"]) if r["table_no"] is not None
                 else t["unplaced"])
        seen = t["seen"] % r["last_seen"] if r["last_seen"] else t["never"]
        lines.append("  %s%s: %s, %s" % (r["id"], " (%s)" % r["name"] if r["name"] else "",
                                         place, seen))
    return lines
