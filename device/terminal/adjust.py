"""The director's adjusted scores (Law 12C): artificial (12C2, any 60/50/40 combination),
assigned (a contract, declarer and tricks) or weighted (12C1c), and a board not played; and
a closed round's result corrected (79C).

Loaded from the director's menu (terminal.director), which is forgotten meanwhile: each
screen goes back to the menu on its board.
"""

from hw import keys
from terminal.entry import ContractEntry
from terminal.screens import Confirm, Digits, contract_text
from terminal.session import ns_score
from terminal.ui_text import t


def menu(app, board):
    """Back to the director's menu on this board (a closed round's: its history entry)."""
    app.show("director", "MenuScreen", app, getattr(board, "played", board.b))


def record(app, board, data):
    """The director's entry for a board: an `adj` of the open round's board; of a board
    played here in a closed round (terminal.director marks it `played`), a `fix` with the
    pairs who played it, which the host files under that round (Law 79C)."""
    data["b"] = board.b
    h = getattr(board, "played", 0)
    if h:
        data["pr"] = [h >> 10 & 1023, h & 1023]
    app.commit("fix" if h else "adj", data)
    app.click(True)
    menu(app, board)


class AdjustScreen:
    """Law 12C: artificial (12C2, any 60/50/40 combination), assigned, weighted (12C1c),
    not played."""

    def __init__(self, board):
        self.board = board

    def key(self, app, k):
        if k == 1:
            app.go(ArtificialScreen(self.board))
        elif k == 2 or k == 3:
            app.go(AssignScreen(self.board, "wgt" if k == 3 else "asg"))
        elif k == 4:
            app.go(Confirm(t("adj_np"), t("brd") + str(self.board.b), self.apply,
                           lambda app: app.go(self)))
        elif k == keys.BACK:
            menu(app, self.board)
        else:
            app.refuse()

    def apply(self, app):
        """OK on the question: the board was not played."""
        record(app, self.board, {"how": "np"})

    def lines(self, app):
        return [t("adj_menu") + " " + t("brd") + str(self.board.b), t("adj_art"), t("adj_asg"),
                t("adj_wgt"), t("adj_np"), "", t("back")]


class ArtificialScreen:
    """Percentages for NS and EW, each 40, 50 or 60 (keys 4, 5, 6); UP/DOWN picks the side."""

    def __init__(self, board):
        self.board = board
        self.pct = [50, 50]
        self.at = 0  # the side the cursor is on: 0 NS, 1 EW

    def key(self, app, k):
        if 4 <= k <= 6:
            self.pct[self.at] = k * 10
        elif k == keys.UP or k == keys.DOWN:
            self.at = 1 - self.at
        elif k == keys.OK:
            record(app, self.board, {"how": "art", "ns": self.pct[0], "ew": self.pct[1]})
        elif k == keys.BACK:
            menu(app, self.board)
        else:
            app.refuse()

    def lines(self, app):
        return [t("adj_art")[2:], (">" if self.at == 0 else " ") + t("ns_pct") % self.pct[0],
                (">" if self.at == 1 else " ") + t("ew_pct") % self.pct[1], "",
                t("art_help"), t("apply"), t("back")]


class AssignScreen:
    """An assigned score (contract, declarer, tricks), or a weighted one made of such parts
    with percentages that add up to 100 (Law 12C1c: e.g. 60% of 4S= and 40% of 4S-1); or,
    for a closed round's board, its result corrected (79C: "res", the contract as played,
    declarer and tricks, or PASS for passed out)."""

    def __init__(self, board, how):
        self.board = board
        self.how = how  # "asg" assigned, "wgt" weighted or "res" corrected, as recorded
        self.parts = []
        self.now = None  # the result being corrected, as a line (current_text)
        self.clear()

    def current_text(self, app):
        """The board's result at this table as the station's traveller has it, for the
        director correcting it: `было: 3♥В= -140` (the pairs are the closed round's)."""
        from terminal.traveller import cells, lines_of  # only while a result is corrected

        played = self.board.played
        for line in lines_of(app.folder, self.board.b):
            got = cells(line)
            if got and line[0] == played >> 10 & 1023 and line[1] == played & 1023:
                return t("fix_now") % (got[1] + " " + got[2]).strip()
        return t("fix_unknown")

    def total(self):
        return sum(p[0] for p in self.parts)

    def clear(self):
        """A new part: nothing typed."""
        self.step = 0 if self.how == "wgt" else 1
        self.pct = Digits(100 - self.total(), -1 if self.how == "wgt" else 100)
        self.contract = ContractEntry(allow_passed=self.how == "res")
        self.tricks = None

    def key(self, app, k):
        if k == keys.BACK:  # deletes what was typed last; with nothing left, back to the menu
            if self.step == 2:
                if self.tricks.value >= 0:
                    self.tricks.key(keys.BACK)
                else:
                    self.step = 1
            elif self.step == 1 and self.contract.level:
                self.contract.key(keys.BACK)
            elif self.step == 1 and self.how == "wgt":
                self.step = 0
            elif self.step == 0 and self.pct.value >= 0:
                self.pct.back()
            elif self.step == 0 and self.parts:
                self.parts.pop()
                self.clear()
            else:
                menu(app, self.board)
            return None
        if self.step == 0:
            if k == keys.OK and self.pct.value > 0:
                self.step = 1
            elif not self.pct.key(k):
                app.refuse()
        elif self.step == 1:
            if k == keys.OK and self.contract.passed:
                record(app, self.board, {"how": "res", "po": 1, "sc": 0})
            elif k == keys.OK and self.contract.done():
                self.tricks = Digits(13, -1, self.contract.value())  # declarer's tricks
                self.step = 2
            elif not self.contract.key(k):
                app.refuse()
        elif k == keys.OK and self.tricks.value >= 0:
            v = self.contract.value()
            tr = self.tricks.value
            self.parts.append([self.pct.value, v[0], v[1], v[2], tr])
            if self.total() < 100:
                return self.clear()
            if self.how == "wgt":
                record(app, self.board, {"how": "wgt", "parts": self.parts})
            else:
                data = {"how": self.how, "ct": v[0], "x": v[1], "dcl": v[2], "tr": tr}
                if self.how == "res":  # the score shown, as a result's `sc`
                    data["sc"] = ns_score(v, self.board.vul, tr)
                record(app, self.board, data)
        elif not self.tricks.key(k):
            app.refuse()
        return None

    def lines(self, app):
        title = (t("adj_wgt") if self.how == "wgt" else t("td_fix") if self.how == "res"
                 else t("adj_asg"))[2:]
        out = [t("brd") + str(self.board.b) + " " + title]
        if self.how == "res":
            if self.now is None:
                self.now = self.current_text(app)
            out.append(self.now)
        if self.how == "wgt":
            out.append(t("part") % (len(self.parts) + 1, self.total()))
            for p in self.parts[-1:]:
                ct = (p[1], p[2], p[3])
                out.append(t("pct_part") % (p[0], contract_text(ct) + " " + str(p[4])))
            out.append(t("percent") % self.pct.text())
        out.append(t("contract") + ": " + self.contract.text())
        if self.step == 2:
            out.append(t("tricks_short") + ": " + self.tricks.text())
        elif self.step == 1:
            out.append(self.contract.prompt())
        while len(out) < 6:
            out.append("")
        out = out[:6]
        out.append(t("ok_back"))
        return out
