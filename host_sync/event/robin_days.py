"""The days of one round robin (rule book 1.5.3: everyone meets everyone, in one or more
cycles, in the order the chief director may change), a session a day each playing its
`--matches`: each day must play the same round robin (its teams, cycles, round order and
sections) and rounds no other day of it has set up, or a match would be counted twice in
the event's standings.

A day's round robin is its movements' options: "robin" (the teams), "cycles" (default 1),
"order" (the round order given, none for Berger's) and the sections' letters. The days of
one round robin are the sessions before it back to the last Swiss or knockout round (a new
stage) or a round robin of other teams or sections (another one).
"""

import json

from host_sync.event import setup

MAX_CYCLES = 8  # a club league of few teams plays several; more is no round robin's


def robin_of(sections):
    """(teams, cycles, order, letters) of a session's sections ({letter: Movement}) when
    they all play one round robin; None for anything else (a Swiss, a knockout, pairs)."""
    kinds = {json.dumps([mv.kind, mv.options.get("schedule", "roundrobin"),
                         mv.options.get("robin"), mv.options.get("cycles", 1),
                         mv.options.get("order") or []]) for mv in sections.values()}
    if len(kinds) != 1:
        return None
    kind, schedule, teams, cycles, order = json.loads(kinds.pop())  # as stored, hashable
    if kind != "teams" or schedule != "roundrobin" or teams is None:
        return None
    return teams, cycles, order, list(sections)


def check_day(db, event_id, number, sections):
    """Refuse session `number`'s `sections` ({letter: Movement}) when they are a day of a
    round robin whose earlier days play it otherwise (other cycles or round order) or have
    set up one of its rounds already, naming the day; a session that is no round robin day
    is not checked."""
    this = robin_of(sections)
    if this is None:
        return
    rounds = set(next(iter(sections.values())).round_numbers())
    for row in db.all("SELECT id, number FROM sessions WHERE event_id = ? AND number < ? "
                      "ORDER BY number DESC", (event_id, number)):
        earlier = setup.section_movements(db, row["id"])
        if not earlier or any(mv.kind != "teams" for mv in earlier.values()):
            continue  # a pairs session between the days
        its = robin_of(earlier)
        if its is None or its[0] != this[0] or its[3] != this[3]:
            return  # a Swiss or a knockout (a new stage), or another round robin
        if its[1:3] != this[1:3]:
            raise setup.SetupError(
                "session %d plays this round robin with %s cycle(s) and %s; a later day must "
                "play it alike (--cycles, --round-order)" % (
                    row["number"], its[1], _order_text(its[2], "en")),
                ru="сессия %d играет этот круговой турнир в %s круг(а), %s; следующий день "
                "должен играть так же (--cycles, --round-order)" % (
                    row["number"], its[1], _order_text(its[2], "ru")))
        played = rounds & set(next(iter(earlier.values())).round_numbers())
        if played:
            first = min(played)
            raise setup.SetupError(
                "round %d of this round robin is session %d's already; give --matches the "
                "rounds still to play (a second cycle: --cycles 2 on every day)" % (
                    first, row["number"]),
                ru="тур %d этого кругового турнира уже в сессии %d; укажите в --matches туры, "
                "которые ещё не сыграны (второй круг: --cycles 2 в каждый день)" % (
                    first, row["number"]))


def _order_text(order, lang):
    if not order:
        return "Berger's round order" if lang == "en" else "порядок туров по Бергеру"
    return ("the round order %s" if lang == "en" else "порядок туров %s") % json.dumps(order)
