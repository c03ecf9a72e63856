"""The common shape of every movement: who sits where, with which boards, round by round.

A Movement is a list of rounds; each round is a list of Seatings (table, NS pair, EW pair,
board set). Pairs are positive ints; a pair missing from a round sits out. Board set s holds
boards (s-1)*boards_per_set+1 .. s*boards_per_set. The same structure is pushed to the
terminals (each table gets its own part, see `table_dict`) and stored by the scorer
(`to_dict` / `from_dict`), so everything here is plain data.

A Schedule is the match list of a team event (round robin or Swiss): rounds of (home, away)
participant tuples; teams.py turns it into a Movement of tables.
"""

from collections import Counter, namedtuple
from dataclasses import dataclass

from host_sync.errors import Both, Refused, russian

NS, EW = "NS", "EW"

Position = namedtuple("Position", "round table direction board_set opponent")
Position.__doc__ = """Where a pair plays in a round; table, direction, board_set and opponent
are None when it sits out."""


class MovementError(Refused):
    """A movement or schedule that cannot be built or is not consistent; the message says why."""


@dataclass(frozen=True)
class Seating:
    """One table in one round. `ns` and `ew` are the pairs that really sit NS and EW for these
    boards, switch or not; `switched` only records that the arrow is switched here (the pair
    that normally sits NS at this table plays EW this round, so the boards score as one field),
    so a reader that ignores it still seats everyone right."""

    table: int
    ns: int
    ew: int
    board_set: int
    switched: bool = False

    def to_list(self):
        return [self.table, self.ns, self.ew, self.board_set, int(self.switched)]


_TEXT = {
    "en": {"round": "Round %d", "table": "Table %d", "ns": "NS", "ew": "EW",
           "boards": "boards %s", "out": "Sitting out: %s", "switch": " (arrow switch)",
           "share": "Tables %s share boards %s", "pair": "pair %s",
           "match": "%s v %s", "bye": "Bye: %s"},
    "ru": {"round": "Тур %d", "table": "Стол %d", "ns": "СЮ", "ew": "ВЗ",
           "boards": "сдачи %s", "out": "Отдыхает: %s", "switch": " (стрелка переключена)",
           "share": "Столы %s играют общие сдачи %s", "pair": "пара %s",
           "match": "%s — %s", "bye": "Свободна от игры: %s"},
}


def text(lang, key):
    """The phrase `key` in language `lang` ('ru' or 'en')."""
    if lang not in _TEXT:
        raise MovementError("unknown language %r (use 'ru' or 'en')" % (lang,),
                            ru="неизвестный язык %r (ru или en)" % (lang,))
    return _TEXT[lang][key]


NUMBER_OF_TABLES = Both("the number of tables", "число столов")
MAX_ROUND = 0xFFFF  # a round's number in the terminal's configuration (docs/CONFIG.md)


def positive_int(value, what):
    """`value` when it is a whole number from 1; `what` names it (a Both: in both languages)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise MovementError("%s must be a positive whole number, not %r" % (what, value),
                            ru="%s — целое число от 1, а не %r" % (russian(what), value))
    return value


def _inconsistent(what, ru, problems):
    """The refusal of a movement or schedule whose `problems` (Boths) say why."""
    return MovementError("%s: %s" % (what, "; ".join(problems)),
                         ru="%s: %s" % (ru, "; ".join(russian(p) for p in problems)))


class Movement:
    """Rounds of Seatings plus the board layout; built by the movement modules, checked here.
    Its rounds are numbered from `first_round` (options "first_round", default 1): a stage
    played over several sessions (a round robin's later day, a Swiss round) keeps the
    event's numbering, the same on the terminals, in the database and on every page."""

    def __init__(self, kind, rounds, boards_per_set, sets, pairs=None, labels=None,
                 options=None, copies=1, tables=None):
        self.kind = kind
        self.rounds = tuple(tuple(sorted(r, key=lambda s: s.table)) for r in rounds)
        self.boards_per_set = positive_int(boards_per_set, Both("boards per set",
                                                                "число сдач в комплекте"))
        self.sets = positive_int(sets, Both("the number of board sets", "число комплектов"))
        self.copies = positive_int(copies, Both("the number of copies of each set",
                                                "число копий каждого комплекта"))
        seated = {p for r in self.rounds for s in r for p in (s.ns, s.ew)}
        self.pairs = tuple(sorted(seated if pairs is None else pairs))
        self.labels = dict(labels or {})
        self.options = dict(options or {})
        used = max((s.table for r in self.rounds for s in r), default=0)
        self.tables = used if tables is None else positive_int(tables, NUMBER_OF_TABLES)
        self.first_round = positive_int(self.options.get("first_round", 1),
                                        Both("the first round's number", "номер первого тура"))
        if self.first_round + len(self.rounds) - 1 > MAX_ROUND:
            raise MovementError("rounds are numbered up to %d" % MAX_ROUND,
                                ru="туры нумеруются до %d" % MAX_ROUND)
        problems = self.problems()
        if used > self.tables:
            problems.append(Both("table %d is beyond the %d tables" % (used, self.tables),
                                 "стол %d — сверх %d столов" % (used, self.tables)))
        if problems:
            raise _inconsistent("inconsistent %s movement" % kind,
                                "движение %s противоречиво" % kind, problems)

    # --- structure -------------------------------------------------------------------------

    def problems(self):
        """Everything that makes this movement unplayable, as sentences (Boths: English with
        its Russian; empty when sound)."""
        out = []
        known = set(self.pairs)
        played = set()
        for rno, rnd in enumerate(self.rounds, self.first_round):
            tables, pairs = Counter(), Counter()
            for s in rnd:
                tables[s.table] += 1
                pairs[s.ns] += 1
                pairs[s.ew] += 1
                if s.ns == s.ew:
                    out.append(Both("round %d table %d: pair %d plays itself" % (
                        rno, s.table, s.ns), "тур %d, стол %d: пара %d играет сама с собой" % (
                        rno, s.table, s.ns)))
                if not 1 <= s.board_set <= self.sets:
                    out.append(Both("round %d table %d: no board set %r" % (
                        rno, s.table, s.board_set), "тур %d, стол %d: нет комплекта %r" % (
                        rno, s.table, s.board_set)))
                for p in (s.ns, s.ew):
                    if p not in known:
                        out.append(Both("round %d: pair %r is not in the movement" % (rno, p),
                                        "тур %d: пары %r нет в движении" % (rno, p)))
                    elif (p, s.board_set) in played:
                        out.append(Both("round %d: pair %d plays board set %d again" % (
                            rno, p, s.board_set), "тур %d: пара %d снова играет комплект %d"
                            % (rno, p, s.board_set)))
                    played.add((p, s.board_set))
            out += [Both("round %d: table %d is used twice" % (rno, t),
                         "тур %d: стол %d занят дважды" % (rno, t))
                    for t, n in tables.items() if n > 1]
            out += [Both("round %d: pair %d is seated twice" % (rno, p),
                         "тур %d: пара %d посажена дважды" % (rno, p))
                    for p, n in pairs.items() if n > 1]
        return out

    def without_pair(self, pair):
        """The same movement with `pair` absent (an odd number of pairs): its opponents sit
        out, its tables are idle in those rounds."""
        if pair not in self.pairs:
            raise _not_in_movement(pair)
        rounds = [[s for s in r if pair not in (s.ns, s.ew)] for r in self.rounds]
        options = dict(self.options, absent=pair)
        return Movement(self.kind, rounds, self.boards_per_set, self.sets,
                        [p for p in self.pairs if p != pair], self.labels, options, self.copies,
                        self.tables)

    @property
    def round_count(self):
        return len(self.rounds)

    def round_numbers(self):
        """The numbers of the movement's rounds, in order."""
        return range(self.first_round, self.first_round + len(self.rounds))

    def _round(self, rnd):
        numbers = self.round_numbers()
        if isinstance(rnd, bool) or not isinstance(rnd, int) or rnd not in numbers:
            raise MovementError("no round %r (the movement has rounds %d to %d)" % (
                rnd, numbers.start, numbers.stop - 1), ru="нет тура %r (в движении туры с %d "
                "по %d)" % (rnd, numbers.start, numbers.stop - 1))
        return self.rounds[rnd - self.first_round]

    def seating(self, rnd, table):
        """The Seating at `table` in round `rnd`, or None if the table is idle that round."""
        for s in self._round(rnd):
            if s.table == table:
                return s
        return None

    def board_numbers(self, board_set):
        """The board numbers of one set, in playing order."""
        if not 1 <= board_set <= self.sets:
            raise MovementError("no board set %r (there are %d)" % (board_set, self.sets),
                                ru="нет комплекта %r (их %d)" % (board_set, self.sets))
        first = (board_set - 1) * self.boards_per_set + 1
        return list(range(first, first + self.boards_per_set))

    def boards_for(self, rnd, table):
        """The boards played at `table` in round `rnd` ([] when the table is idle)."""
        s = self.seating(rnd, table)
        return self.board_numbers(s.board_set) if s else []

    def position(self, pair, rnd):
        """Where `pair` plays in round `rnd` (a Position; table None when it sits out)."""
        if pair not in self.pairs:
            raise _not_in_movement(pair)
        for s in self._round(rnd):
            if pair == s.ns:
                return Position(rnd, s.table, NS, s.board_set, s.ew)
            if pair == s.ew:
                return Position(rnd, s.table, EW, s.board_set, s.ns)
        return Position(rnd, None, None, None, None)

    def next_position(self, pair, rnd):
        """Where `pair` goes after round `rnd`: its Position in round rnd+1, None after the last."""
        self._round(rnd)
        return self.position(pair, rnd + 1) if rnd + 1 in self.round_numbers() else None

    def next_table_for_set(self, rnd, table):
        """The table that plays this table's boards in the next round: a number, a tuple when
        several tables share them, None when no table does (a relay/bye stand, or the end)."""
        s = self.seating(rnd, table)
        if s is None or rnd + 1 not in self.round_numbers():
            return None
        nxt = [t.table for t in self._round(rnd + 1) if t.board_set == s.board_set]
        return nxt[0] if len(nxt) == 1 else None if not nxt else tuple(nxt)

    def sit_outs(self, rnd):
        """Pairs of the movement that do not play in round `rnd`."""
        seated = {p for s in self._round(rnd) for p in (s.ns, s.ew)}
        return [p for p in self.pairs if p not in seated]

    def sharing(self, rnd):
        """[(board set, tables)] for each physical copy of a set that several tables share in
        round `rnd` (they pass the boards between them). With `copies` copies of every set,
        the tables playing a set are split evenly among the copies in table order."""
        tables = {}
        for s in self._round(rnd):
            tables.setdefault(s.board_set, []).append(s.table)
        groups = []
        for board_set, ts in sorted(tables.items()):
            size = -(-len(ts) // self.copies)
            groups += [(board_set, tuple(ts[i:i + size])) for i in range(0, len(ts), size)]
        return [g for g in groups if len(g[1]) > 1]

    # --- properties the tests (and a scorer checking an imported movement) look at ---------

    def meetings(self):
        """Counter of frozenset({a, b}) -> how many rounds the two pairs play each other."""
        return Counter(frozenset((s.ns, s.ew)) for r in self.rounds for s in r)

    def set_plays(self):
        """Counter of board set -> how many times it is played over the session."""
        return Counter(s.board_set for r in self.rounds for s in r)

    def label(self, pair):
        return self.labels.get(pair, str(pair))

    # --- export -----------------------------------------------------------------------------

    def to_dict(self):
        """JSON-able form; seatings are [table, ns, ew, set, switched] lists."""
        return {"kind": self.kind, "tables": self.tables, "boards_per_set": self.boards_per_set,
                "sets": self.sets, "copies": self.copies, "pairs": list(self.pairs),
                "labels": {str(k): v for k, v in self.labels.items()},
                "options": dict(self.options),
                "rounds": [[s.to_list() for s in r] for r in self.rounds]}

    @classmethod
    def from_dict(cls, data):
        """The inverse of to_dict; a malformed dict raises MovementError saying what is wrong."""
        try:
            rounds = [[Seating(int(t), int(ns), int(ew), int(bs), bool(sw))
                       for t, ns, ew, bs, sw in r] for r in data["rounds"]]
            labels = {int(k): v for k, v in data.get("labels", {}).items()}
            return cls(data["kind"], rounds, data["boards_per_set"], data["sets"],
                       data.get("pairs"), labels, data.get("options"), data.get("copies", 1),
                       data.get("tables"))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, MovementError):
                raise
            raise MovementError("not a movement: %s" % (exc,),
                                ru="не движение: %s" % (exc,)) from None

    def table_dict(self, table):
        """One table's part of the movement, as pushed to its terminal: per round the pairs,
        the boards (first, last), the arrow switch and where pairs and boards go next."""
        if not 1 <= table <= self.tables:
            raise MovementError("no table %r (there are %d)" % (table, self.tables),
                                ru="нет стола %r (их %d)" % (table, self.tables))
        rounds = []
        for rno in self.round_numbers():
            s = self.seating(rno, table)
            if s is None:
                rounds.append({"round": rno, "idle": True})
                continue
            boards = self.board_numbers(s.board_set)
            entry = {"round": rno, "ns": s.ns, "ew": s.ew, "set": s.board_set,
                     "boards": [boards[0], boards[-1]], "switched": s.switched}
            if rno + 1 in self.round_numbers():
                entry["next"] = {
                    "ns": _where(self.next_position(s.ns, rno)),
                    "ew": _where(self.next_position(s.ew, rno)),
                    "boards": self.next_table_for_set(rno, table)}
            rounds.append(entry)
        return {"kind": self.kind, "table": table, "boards_per_set": self.boards_per_set,
                "rounds": rounds}

    # --- words ------------------------------------------------------------------------------

    def describe(self, rnd, lang="ru"):
        """A round in words for the scorer and the director, in Russian or English."""
        lines = [text(lang, "round") % rnd]
        for s in self._round(rnd):
            b = self.board_numbers(s.board_set)
            lines.append("%s: %s %s — %s %s, %s%s" % (
                text(lang, "table") % s.table, text(lang, "ns"), self.label(s.ns),
                text(lang, "ew"), self.label(s.ew), text(lang, "boards") % _span(b),
                text(lang, "switch") if s.switched else ""))
        for bs, tables in self.sharing(rnd):
            lines.append(text(lang, "share") % (", ".join(map(str, tables)),
                                                _span(self.board_numbers(bs))))
        out = self.sit_outs(rnd)
        if out:
            lines.append(text(lang, "out") % ", ".join(
                text(lang, "pair") % self.label(p) for p in out))
        return "\n".join(lines)


def _not_in_movement(pair):
    return MovementError("pair %r is not in the movement" % (pair,),
                         ru="пары %r нет в движении" % (pair,))


def _where(pos):
    return None if pos is None or pos.table is None else [pos.table, pos.direction]


def _span(boards):
    return "%d-%d" % (boards[0], boards[-1]) if len(boards) > 1 else str(boards[0])


class Schedule:
    """Matches of a team (or pair) event: rounds of (home, away) tuples among `participants`;
    a participant absent from a round has a bye."""

    def __init__(self, participants, rounds, kind="schedule"):
        self.participants = tuple(participants)
        self.kind = kind
        self.rounds = tuple(tuple(tuple(m) for m in r) for r in rounds)
        problems = self.problems()
        if problems:
            raise _inconsistent("inconsistent %s" % kind, "расписание %s противоречиво" % kind,
                                problems)

    def problems(self):
        """What makes the schedule unplayable, as Boths (empty when sound)."""
        out = []
        known = set(self.participants)
        if len(known) != len(self.participants):
            out.append(Both("a participant is listed twice", "участник указан дважды"))
        for rno, rnd in enumerate(self.rounds, 1):
            seen = Counter(p for m in rnd for p in m)
            out += [Both("round %d: %r plays twice" % (rno, p),
                         "тур %d: %r играет дважды" % (rno, p)) for p, n in seen.items() if n > 1]
            out += [Both("round %d: %r is not a participant" % (rno, p),
                         "тур %d: %r — не участник" % (rno, p)) for p in seen if p not in known]
            out += [Both("round %d: %r plays itself" % (rno, m[0]),
                         "тур %d: %r играет сам с собой" % (rno, m[0])) for m in rnd
                    if len(m) != 2 or m[0] == m[1]]
        return out

    def byes(self, rnd):
        """Participants without a match in round `rnd`."""
        if not 1 <= rnd <= len(self.rounds):
            raise MovementError("no round %r (the schedule has %d)" % (rnd, len(self.rounds)),
                                ru="нет тура %r (в расписании их %d)" % (rnd, len(self.rounds)))
        playing = {p for m in self.rounds[rnd - 1] for p in m}
        return [p for p in self.participants if p not in playing]

    def meetings(self):
        return Counter(frozenset(m) for r in self.rounds for m in r)

    def to_dict(self):
        return {"kind": self.kind, "participants": list(self.participants),
                "rounds": [[list(m) for m in r] for r in self.rounds]}

    @classmethod
    def from_dict(cls, data):
        try:
            return cls(data["participants"], data["rounds"], data.get("kind", "schedule"))
        except (KeyError, TypeError) as exc:
            raise MovementError("not a schedule: %s" % (exc,),
                                ru="не расписание: %s" % (exc,)) from None

    def describe(self, rnd, lang="ru"):
        byes = self.byes(rnd)
        lines = [text(lang, "round") % rnd]
        lines += [text(lang, "match") % m for m in self.rounds[rnd - 1]]
        if byes:
            lines.append(text(lang, "bye") % ", ".join(map(str, byes)))
        return "\n".join(lines)
