"""A board's traveller: every table's result on it, from the file the sync station pushes.

`travellers.cbor` (docs/PROTOCOL.md, "Files") maps a board to its scored lines
`[ns, ew, bid, risk, declarer, tricks, score_ns]` (bid None when passed out), optionally
followed by the NS pair's matchpoint percentage, and its adjusted scores (Law 12C)
`[ns, ew, how, ...]` (`art`, `asg`, `wgt`, `split`: see cells). Only the board shown is
decoded. A line is `3-11 4♠XС+1 +590 62`: the pairs, the contract, declarer and result,
the NS score and the percentage when given, in columns; this table's own line is drawn
inverted.

Loaded only when a traveller is asked for (terminal.board_result, terminal.overview).
"""

from hw import keys
from terminal import cbor
from terminal.screens import COLUMNS, call_text, signed, tricks_text
from terminal.ui_text import seat, t

FILE = "travellers.cbor"
_SHOWN = 5  # lines of results on the screen


def lookup(data, key):
    """The value under `key` in the CBOR map that data encodes, or None if it has none. The
    other entries are decoded one at a time (by terminal.cbor's item decoder) and dropped, so
    a big file costs one board's heap."""
    if not isinstance(data, bytes):
        data = bytes(data)
    if not data or data[0] >> 5 != 5 or data[0] & 31 > 27:
        raise ValueError("cbor: not a map")
    n, i = data[0] & 31, 1
    if n >= 24:
        width = 1 << (n - 24)
        n, i = int.from_bytes(data[1:1 + width], "big"), 1 + width
    for _ in range(n):
        k, i = cbor._item(data, i, 1)
        v, i = cbor._item(data, i, 1)
        if k == key:
            return v
    return None


def lines_of(folder, b):
    """Board b's lines in the pushed file ([] when there is no file or no such board)."""
    try:
        with open(folder + "/" + FILE, "rb") as f:
            got = lookup(f.read(), b)
    except (OSError, ValueError):
        return []
    return got if isinstance(got, list) else []


def cells(line):
    """[pairs, contract and result, NS score, percentage or mark] of one line; None if the
    line is not one (it is skipped). A director's adjusted score (Law 12C) shows as such:
    artificial `A+/A-` (NS's, EW's), assigned as the contract with `12C` beside it, weighted
    `12C1c` with its NS points, split `12C1e` with NS's and EW's (each in its own sign)."""
    try:
        how, mark = line[2], ""
        if how == "asg":
            line, mark = line[:2] + line[3:8], "12C"
        if how == "art":
            played, score = _art(line[3]) + "/" + _art(line[4]), ""
        elif how == "wgt":
            played, score = "12C1c", signed(line[3])
        elif how == "split":
            played, score = "12C1e", signed(line[3]) + "/" + signed(line[4])
        else:
            bid, risk, dcl, tricks, score = line[2:7]
            if bid is None:
                played = t("pass")
            else:
                played = call_text(bid) + ("", "X", "XX")[risk] + seat(dcl) + \
                    tricks_text((bid, risk, dcl), tricks)
            score = signed(score)
            if len(line) > 7 and line[7] is not None and not mark:
                mark = "%d" % int(line[7] + 0.5)
        return ["%d-%d" % (line[0], line[1]), played, score, mark]
    except (TypeError, ValueError, IndexError):
        return None


def _art(percent):
    """An artificial adjusted score (12C2): A+, A, A- or its percentage."""
    got = {60: "A+", 50: "A", 40: "A-"}.get(percent)
    return got or "%d%%" % percent


def table(rows):
    """The rows' cells as lines in columns (pairs and contract to the left, score and
    percentage to the right) within the screen's width: the EW pair numbers are left out
    when they would not fit, then the pairs altogether (nothing is ever cut short)."""
    for cut in range(3):
        if cut:
            for r in rows:
                r[0] = r[0].split("-")[0] if cut == 1 else ""
        widths = [max([len(r[i]) for r in rows] or [0]) for i in range(4)]
        if sum(widths) + len([w for w in widths if w]) - 1 <= COLUMNS:
            break
    out = []
    for r in rows:
        parts = []
        for i in range(4):
            pad = " " * (widths[i] - len(r[i]))
            if widths[i]:
                parts.append(r[i] + pad if i < 2 else pad + r[i])
        out.append(" ".join(parts))
    return out


class TravellerScreen:
    """Board b's traveller, scrolled with UP/DOWN; BACK returns to `back`. `own` is this
    table's (ns, ew) on the board, or None."""

    def __init__(self, app, b, back):
        own = own_pairs(app.session, b)
        self.b = b
        self.back = back
        self.top = 0
        self.own = -1  # index of this table's line
        rows = []
        for line in lines_of(app.folder, b):
            got = cells(line)
            if got is not None:
                if own is not None and list(line[:2]) == list(own):
                    self.own = len(rows)
                rows.append(got)
        self.rows = table(rows)
        self.scroll(0)

    def scroll(self, step):
        self.top = max(0, min(self.top + step, len(self.rows) - _SHOWN))
        at = self.own - self.top
        self.inverted = 1 | ((2 << at) if 0 <= at < _SHOWN else 0)

    def key(self, app, k):
        if k == keys.UP or k == keys.DOWN:
            self.scroll(1 if k == keys.DOWN else -1)
        elif k == keys.BACK or k == keys.OK:
            app.go(self.back)
        else:
            app.refuse()

    def lines(self, app):
        body = self.rows[self.top:self.top + _SHOWN] or ["", t("trav_none")]
        while len(body) < _SHOWN:
            body.append("")
        more = "\u2193" if self.top + _SHOWN < len(self.rows) else " "
        return [t("trav") % self.b] + body + [more + " " + t("back")]


def own_pairs(session, b):
    """(ns, ew) of the pairs that played board b at this table this session, or None."""
    if b in session.boards:
        return session.ns, session.ew
    for packed in session.history:
        if packed >> 20 == b:
            return (packed >> 10) & 1023, packed & 1023
    return None
