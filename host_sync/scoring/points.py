"""NS points of a board's played results, looked up by the texts each result holds.

A 1,000-pair session has 13,000 traveller lines but far fewer distinct (vulnerability,
declarer, contract, tricks); parsing every line's contract and scoring it (Law 77) costs
more than matchpointing the whole session. The table keeps each distinct line's NS points
across calls, so a known line costs three dict look-ups; an unknown one is scored by the
result itself (`Result._points`, which raises the user's error) and then kept.

What is kept is a pure function of the key, and only short texts of the usual types are
kept (at most `LIMIT` lines, then the table starts again), so hostile input can neither grow
it without bound nor change a later answer.
"""

from bridge import boards as board_rules
from bridge.seats import SEATS

LIMIT = 50_000  # lines kept: the legal ones in canonical spelling are under 6,000
_SEAT_INDEX = {name: seat for seat, name in enumerate(SEATS)}  # "N" -> 0 .. "W" -> 3


class PlayedPoints:
    """vulnerability -> declarer text -> contract text -> tricks -> NS points.

    The contract tables of declarers on the same side and vulnerability are one shared
    table (N and S, E and W, whichever board they are on), which is what the points depend
    on; a line learnt for one side is kept negated for the other side as vulnerable. A
    session's first call scores each distinct contract and result once.
    """

    def __init__(self):
        self.clear()

    def clear(self):
        self._by_vul = {}  # vulnerability -> declarer -> contract table
        self._shared = {}  # (declarer vulnerable, declarer's side) -> contract table
        self._kept = 0

    def board(self, results, vul):
        """NS points of each result of a board of vulnerability `vul`: results that are all
        played (no assigned, split, weighted or artificial score)."""
        seats = self._by_vul.setdefault(vul, {})
        try:
            return [seats[r.declarer][r.contract][r.tricks] for r in results]
        except (KeyError, TypeError):  # a line not seen yet (or not one to keep)
            pass
        out = []
        for r in results:
            try:
                out.append(seats[r.declarer][r.contract][r.tricks])
            except (KeyError, TypeError):
                out.append(self._learn(r, vul))
                seats = self._by_vul.setdefault(vul, {})  # new if the table started again
        return out

    def _learn(self, result, vul):
        """Score a line the table does not hold (raising the result's own error), and keep
        it if its texts are of the usual kind."""
        points = result._points(vul)
        declarer, contract, tricks = result.declarer, result.contract, result.tricks
        if (type(declarer) is str and type(contract) is str and len(contract) <= 6
                and (tricks is None or type(tricks) is int)):
            if self._kept >= LIMIT:
                self.clear()
            seats = self._by_vul.setdefault(vul, {})
            if declarer not in seats:
                seats[declarer] = self._contracts(vul, declarer)
            seats[declarer].setdefault(contract, {})[tricks] = points
            seat = _SEAT_INDEX.get(declarer)
            if seat is not None:  # the same contract by the other side, as vulnerable
                key = (board_rules.is_vulnerable(vul, seat), 1 - (seat & 1))
                self._shared.setdefault(key, {}).setdefault(contract, {})[tricks] = -points
            self._kept += 2
        return points

    def _contracts(self, vul, declarer):
        seat = _SEAT_INDEX.get(declarer)
        if seat is None:  # "" for a passed-out board, or a spelling only `_points` reads
            return {}
        key = (board_rules.is_vulnerable(vul, seat), seat & 1)
        return self._shared.setdefault(key, {})


PLAYED = PlayedPoints()
