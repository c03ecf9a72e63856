"""Director mode, behind a PIN: the flags, rulings on a pending irregularity with the options
the Laws engine gives (Law 10C1 texts of bridge.rulings_text), adjusted scores (Law 12C),
erasing a result and the Law 26 lead restrictions shown to the declarer.

Loaded only when DIR is pressed, so the rest of the session does not carry it in RAM.
"""

from hw import keys
from terminal.entry import ContractEntry, TricksEntry, restrictions
from terminal.screens import SUITS, Confirm, Digits, Screen, call_text, contract_text, lho, wrap
from terminal.ui_text import lang, seat, t

_WHY = {"dircall": "why_dircall", "wrong_board": "why_wrong_board",
        "played_before": "why_played_before", "out_of_order": "why_out_of_order",
        "dispute": "why_dispute", "irregular": "why_irregular"}


class PinScreen(Screen):
    """DIR: OK alone calls the director (a flag); a PIN and OK opens director mode."""

    def __init__(self):
        self.pin = ""

    def key(self, app, k):
        if 0 <= k <= 9 and len(self.pin) < 8:
            self.pin += str(k)
        elif k == keys.BACK:
            if self.pin:
                self.pin = self.pin[:-1]
            else:
                app.home()
        elif k == keys.OK:
            if not self.pin:
                cur = app.session.current
                app.commit("flag", {"b": cur.b if cur else None, "law": None, "why": "dircall"})
                app.home()
                app.say(t("td_called"))
            elif app.config.pin_ok(self.pin):
                app.director = True
                app.go(MenuScreen(app))
            else:
                self.pin = ""
                app.refuse(t("td_bad_pin"))
        else:
            app.refuse()

    def lines(self, app):
        return [t("director"), "", t("td_call_ok"), t("td_pin_help"), "",
                t("td_pin") % ("*" * len(self.pin) + "_"), t("back")]


def pending_board(app, b):
    board = app.session.boards.get(b)
    if board is not None and board.events and board.get_auction().status == "director":
        return board
    return None


def pending_play(app, b):
    """The play irregularity of board b the director may rule on: (law, ...) or None."""
    board = app.session.boards.get(b)
    if board is None or not board.plays:
        return None
    return app.use("play_director").play_pending(board)  # only when the play is recorded


class MenuScreen(Screen):
    """The director's menu for one board of the round (UP/DOWN chooses the board)."""

    def __init__(self, app):
        cur = app.session.current
        self.b = cur.b if cur else 0

    def board(self, app):
        if self.b in app.session.boards:
            return app.session.boards[self.b]
        return None

    def key(self, app, k):
        board = self.board(app)
        if k == keys.BACK:
            app.home()
        elif k == keys.UP or k == keys.DOWN:
            order = sorted(app.session.boards)
            if order:
                i = order.index(self.b) if self.b in order else 0
                self.b = order[(i + (1 if k == keys.DOWN else -1)) % len(order)]
        elif k == 1:
            app.go(FlagsScreen(self))
        elif board is None:
            app.refuse()
        elif k == 2 and pending_board(app, self.b):
            app.go(RulingScreen(board))
        elif k == 2 and pending_play(app, self.b):
            app.show("play_director", "PlayRulingScreen", board)
        elif k == 3:
            app.go(AdjustScreen(board, self))
        elif k == 4:
            if board.tricks < 0 and board.adj is None:
                app.refuse(t("nothing"))
            else:
                app.go(Confirm(t("erase_ask"), t("brd") + str(board.b), self.erase, self.back))
        elif k == 5:
            app.go(RestrictScreen(board, self))
        else:
            app.refuse()

    def erase(self, app):
        app.commit("erase", {"b": self.b})
        app.go(self)
        app.say(t("erased"))

    def back(self, app):
        app.go(self)

    def lines(self, app):
        board = pending_board(app, self.b)
        law = board.get_auction().pending[2] if board else None
        if law is None:
            play = pending_play(app, self.b)
            law = play[0] if play else None
        return [t("td_menu") + " " + t("brd") + (str(self.b) if self.b else "-"),
                t("td_flags") % len(app.session.flags),
                (t("td_rule") % law) if law else "",
                t("td_adjust"), t("td_erase"), t("td_restrict"), t("td_board")]


class TextScreen(Screen):
    """Lines of text scrolled with UP/DOWN; BACK returns to `back`."""

    def __init__(self, back):
        self.back = back
        self.top = 0

    def body(self, app):
        return []

    def size(self, app):
        return len(self.body(app))

    def window(self, app):
        return self.body(app)[self.top:self.top + 5]

    def key(self, app, k):
        if k == keys.UP or k == keys.DOWN:
            n = self.size(app)
            self.top = max(0, min(self.top + (1 if k == keys.DOWN else -1), n - 5))
        elif k == keys.BACK:
            app.go(self.back)
        else:
            app.refuse()

    def lines(self, app):
        return [self.title()] + self.window(app) + [t("back")]


class FlagsScreen(TextScreen):
    def title(self):
        return t("flags")

    def size(self, app):
        return len(app.session.flags)

    def window(self, app):
        """Only the flags on the screen are formatted: a long session has many."""
        out = []
        for b, law, why in app.session.flags[self.top:self.top + 5]:
            line = (t("brd") + str(b) if b else "-") + " "
            if law:
                line += t("law") % law + " "
            out.append((line + t(_WHY.get(why, "why_irregular")))[:21])
        return out or [t("no_flags")]


class RestrictScreen(TextScreen):
    """Law 26: the restrictions the declarer may impose, as the director shows them."""

    def __init__(self, board, back):
        TextScreen.__init__(self, back)
        self.board = board

    def title(self):
        return t("restrict")

    def body(self, app):
        board = self.board
        ct = board.contract()
        if not board.events or ct is None or ct[2] < 0:
            return [t("no_restrict")]
        from bridge import rulings_text  # loaded while drawn: App.use forgets it

        out = []
        for offender, law, mask in restrictions(board.get_auction(), ct[2]):
            suits = "".join(SUITS[s] for s in range(4) if mask >> s & 1)
            out.append(seat(offender) + ": " + law + " " + suits)
            out += wrap(rulings_text.text(law, lang()))
        return out or [t("no_restrict")]


class RulingScreen(TextScreen):
    """The options of Law 10C1 for the pending call; a digit picks one, OK applies it."""

    def __init__(self, board):
        TextScreen.__init__(self, None)
        self.board = board
        self.choice = -1

    def explained(self):
        from bridge import rulings_text  # loaded while drawn: App.use forgets it

        a = self.board.get_auction()
        return a, rulings_text.explain(a, lang()), rulings_text.choices(a.situation())[1]

    def title(self):
        a = self.board.get_auction()
        return (t("law") % a.pending[2] + " " + seat(a.pending[0]) + ":" +
                call_text(a.pending[1]))

    def body(self, app):
        a, ex, _codes = self.explained()
        if self.choice >= 0:
            text, paragraphs = ex[3][self.choice]
            out = wrap(str(self.choice + 1) + " " + text)
            for p in paragraphs:
                out += wrap(p)
            return out
        out = wrap(ex[1]) + [t("accept_by") % (seat(ex[2]) if ex[2] is not None
                                               else t("nobody"))]
        for i in range(len(ex[3])):
            out += wrap(str(i + 1) + " " + ex[3][i][0])
        return out

    def key(self, app, k):
        _a, ex, _codes = self.explained()
        if 1 <= k <= len(ex[3]) and self.choice < 0:
            self.choice = k - 1
            self.top = 0
        elif k == keys.OK and self.choice >= 0:
            self.apply(app)
        elif k == keys.BACK:
            if self.choice >= 0:
                self.choice = -1
                self.top = 0
            else:
                app.go(MenuScreen(app))
        else:
            TextScreen.key(self, app, k)

    def lines(self, app):
        out = TextScreen.lines(self, app)
        out[-1] = t("apply") if self.choice >= 0 else t("options")
        return out

    def apply(self, app):
        a, _ex, codes = self.explained()
        option = codes[self.choice][0]
        offender, _call, law = a.pending
        b = self.board.b
        if option == "accept" or option == "reject":
            if not app.commit("dir", {"b": b, "d": option}):
                return app.refuse(t("refused"))
            app.click(True)
            if a.status == "director":
                app.irregular(self.board)
                app.go(RulingScreen(self.board))
            elif option == "reject" and law == "27" and a.turn == offender:
                app.go(ReplacementScreen(self.board, offender))
            else:
                app.leave_director()
            return None
        if option == "lho_calls":
            who = lho(offender)
        elif option == "proper_calls":
            who = a.turn if a.turn is not None else lho(offender)
        else:
            who = offender
        app.leave_director("board_entry", "AuctionScreen", self.board, who, 0, True)
        return None


class ReplacementScreen(Screen):
    """After an insufficient bid is not accepted: the director's judgment of the
    replacement (27B1a natural, 27B1b same meaning, or artificial) rides on that call."""

    def __init__(self, board, offender):
        self.board = board
        self.offender = offender

    def key(self, app, k):
        if 1 <= k <= 3:
            flags = (0, 2, 1)[k - 1]
            app.leave_director("board_entry", "AuctionScreen", self.board, self.offender, flags)
        else:
            app.refuse()

    def lines(self, app):
        return [t("repl"), t("next_call") % seat(self.offender), "", t("repl_1"), t("repl_2"),
                t("repl_3"), ""]


class AdjustScreen(Screen):
    """Law 12C: artificial (12C2, any 60/50/40 combination), assigned, weighted (12C1c),
    not played."""

    def __init__(self, board, back):
        self.board = board
        self.back = back

    def key(self, app, k):
        if k == 1:
            app.go(ArtificialScreen(self.board, self.back))
        elif k == 2:
            app.go(AssignScreen(self.board, self.back, False))
        elif k == 3:
            app.go(AssignScreen(self.board, self.back, True))
        elif k == 4:
            app.go(Confirm(t("adj_np"), t("brd") + str(self.board.b), self.not_played,
                           self.no))
        elif k == keys.BACK:
            app.go(self.back)
        else:
            app.refuse()

    def not_played(self, app):
        app.commit("adj", {"b": self.board.b, "how": "np"})
        app.go(self.back)

    def no(self, app):
        app.go(self)

    def lines(self, app):
        return [t("adj_menu") + " " + t("brd") + str(self.board.b), t("adj_art"), t("adj_asg"),
                t("adj_wgt"), t("adj_np"), "", t("back")]


class ArtificialScreen(Screen):
    """Percentages for NS and EW, each 40, 50 or 60 (keys 4, 5, 6); UP/DOWN picks the side."""

    def __init__(self, board, back):
        self.board = board
        self.back = back
        self.pct = [50, 50]
        self.side = 0

    def key(self, app, k):
        if 4 <= k <= 6:
            self.pct[self.side] = k * 10
        elif k == keys.UP or k == keys.DOWN:
            self.side = 1 - self.side
        elif k == keys.OK:
            app.commit("adj", {"b": self.board.b, "how": "art", "ns": self.pct[0],
                               "ew": self.pct[1]})
            app.click(True)
            app.go(self.back)
        elif k == keys.BACK:
            app.go(self.back)
        else:
            app.refuse()

    def lines(self, app):
        return [t("adj_art")[2:], (">" if self.side == 0 else " ") + "NS %d%%" % self.pct[0],
                (">" if self.side == 1 else " ") + "EW %d%%" % self.pct[1], "",
                t("art_help"), t("apply"), t("back")]


class AssignScreen(Screen):
    """An assigned score (contract, declarer, tricks), or a weighted one made of such parts
    with percentages that add up to 100 (Law 12C1c: e.g. 60% of 4S= and 40% of 4S-1)."""

    def __init__(self, board, back, weighted):
        self.board = board
        self.back = back
        self.weighted = weighted
        self.parts = []
        self.new_part()

    def total(self):
        return sum(p[0] for p in self.parts)

    def new_part(self):
        self.step = 0 if self.weighted else 1
        self.pct = Digits(100 - self.total(), -1 if self.weighted else 100)
        self.contract = ContractEntry(allow_passed=False)
        self.tricks = None

    def key(self, app, k):
        if k == keys.BACK and self.back_step():
            return None
        if k == keys.BACK:
            return app.go(self.back)
        if self.step == 0:
            if k == keys.OK and self.pct.value > 0:
                self.step = 1
            elif not self.pct.key(k):
                app.refuse()
        elif self.step == 1:
            if k == keys.OK and self.contract.done():
                self.tricks = TricksEntry(self.contract.value())
                self.step = 2
            elif not self.contract.key(k):
                app.refuse()
        elif k == keys.OK and self.tricks.value() >= 0:
            v = self.contract.value()
            self.parts.append([self.pct.value, v[0], v[1], v[2], self.tricks.value()])
            if self.total() == 100:
                self.record(app)
            else:
                self.new_part()
        elif not self.tricks.key(k):
            app.refuse()
        return None

    def back_step(self):
        """BACK deletes what was typed last; False when there is nothing left to delete."""
        if self.step == 2:
            if self.tricks.value() >= 0:
                self.tricks.key(keys.BACK)
            else:
                self.step = 1
            return True
        if self.step == 1:
            c = self.contract
            if c.level:
                return c.key(keys.BACK)
            if self.weighted:
                self.step = 0
                return True
            return False
        if self.pct.value >= 0:
            self.pct.back()
            return True
        if self.parts:
            self.parts.pop()
            self.new_part()
            return True
        return False

    def record(self, app):
        b = self.board.b
        if self.weighted:
            app.commit("adj", {"b": b, "how": "wgt", "parts": self.parts})
        else:
            p = self.parts[0]
            app.commit("adj", {"b": b, "how": "asg", "ct": p[1], "x": p[2], "dcl": p[3],
                               "tr": p[4]})
        app.click(True)
        app.go(self.back)

    def lines(self, app):
        title = t("adj_wgt")[2:] if self.weighted else t("adj_asg")[2:]
        out = [title]
        if self.weighted:
            out.append(t("part") % (len(self.parts) + 1, self.total()))
            for p in self.parts[-1:]:
                ct = (p[1], p[2], p[3])
                out.append("%d%% " % p[0] + contract_text(ct) + " " + str(p[4]))
            out.append(t("percent") % self.pct.text())
        out.append(t("contract") + ": " + self.contract.text())
        if self.step == 2:
            out.append(t("tricks_short") + ": " + self.tricks.text())
        elif self.step == 1:
            out.append(self.contract.prompt())
        while len(out) < 6:
            out.append("")
        out = out[:6]
        out.append("OK, BACK")
        return out
