"""The director's ruling on a pending irregular call: the options of Law 10C1 the Laws engine
gives (with the texts of bridge.rulings_text) and the replacement of an insufficient bid
(27B1); and the scrolled text screen the director's screens share.

Its own module so that a ruling loads nothing else: the director's menu (terminal.director)
and lists (terminal.director_lists) are forgotten meanwhile.
"""

from hw import keys
from terminal.screens import call_text, lho, wrap
from terminal.ui_text import lang, seat, t


class TextScreen:
    """Lines of text under `title`, scrolled with UP/DOWN; BACK returns to the director's
    menu on board b (the current board when None)."""

    def __init__(self, title, b=None):
        self.title = title
        self.b = b
        self.top = 0

    def size(self, app):
        return len(self.body(app))

    def window(self, app):
        return self.body(app)[self.top:self.top + 5]

    def key(self, app, k):
        if k == keys.UP or k == keys.DOWN:
            n = self.size(app)
            self.top = max(0, min(self.top + (1 if k == keys.DOWN else -1), n - 5))
        elif k == keys.BACK:
            app.show("director", "MenuScreen", app, self.b)
        else:
            app.refuse()

    def lines(self, app):
        return [self.title] + self.window(app) + [t("back")]


class RulingScreen(TextScreen):
    """The options of Law 10C1 for the pending call; a digit picks one, OK applies it."""

    def __init__(self, board):
        offender, c, law = board.get_auction().pending
        TextScreen.__init__(self, t("law") % law + " " + seat(offender) + ":" + call_text(c))
        self.board = board
        self.choice = -1

    def options(self):
        """The options of Law 10C1 for the pending call, ((option, paragraphs), ...). Their
        texts are made only to be drawn (body): a key needs the options alone."""
        from bridge import rulings_text  # loaded while drawn: App._arrive forgets it

        return rulings_text.choices(self.board.get_auction().situation())[1]

    def body(self, app):
        """The options a line each, short, so that all fit on one screen; the digit of one
        gives its full text on request: the law's title, the option and the paragraphs it
        leads to, scrolled (the full texts of every option at once took 10-20 DOWN presses
        on the 21x7 screen). Only what is shown is put into words: all the texts at once
        were kilobytes of heap."""
        from bridge import rulings_text

        a = self.board.get_auction()
        ex = rulings_text.explain(a, lang())
        if self.choice >= 0:
            out = wrap(ex[1]) + wrap(str(self.choice + 1) + " " + ex[3][self.choice])
            for p in rulings_text.paragraphs(a, self.choice, lang()):
                out += wrap(p)
            return out
        out = [t("accept_by") % (seat(ex[2]) if ex[2] is not None else t("nobody"))]
        options = self.options()
        for i in range(len(options)):  # each in at most 19 characters
            option = options[i][0]
            out.append(str(i + 1) + " " + (
                t("o_accept") if option == "accept" else t("o_reject") if option == "reject"
                else t("o_lho") if option == "lho_calls" else t("o_proper")
                if option == "proper_calls" else t("o_offender")))
        return out

    def key(self, app, k):
        if 1 <= k <= len(self.options()) and self.choice < 0:
            self.choice = k - 1
            self.top = 0
        elif k == keys.OK and self.choice >= 0:
            self.apply(app)
        elif k == keys.BACK and self.choice >= 0:
            self.choice = -1
            self.top = 0
        else:
            TextScreen.key(self, app, k)

    def lines(self, app):
        out = TextScreen.lines(self, app)
        out[-1] = t("apply") if self.choice >= 0 else t("options")
        return out

    def apply(self, app):
        a = self.board.get_auction()
        option = self.options()[self.choice][0]
        offender, _call, law = a.pending
        b = self.board.b
        if option == "accept" or option == "reject":
            if not app.commit("dir", {"b": b, "d": option}):
                return app.refuse(t("no_accept") if option == "accept" else t("no_pending"))
            app.click(True)
            if a.status == "director":
                app.irregular(self.board)
                app.go(RulingScreen(self.board))
            elif option == "reject" and law == "27" and a.turn == offender:
                app.go(ReplacementScreen(self.board, offender))
            else:
                app.home()  # and director mode closes
            return None
        if option == "lho_calls":
            who = lho(offender)
        elif option == "proper_calls":
            who = a.turn if a.turn is not None else lho(offender)
        else:
            who = offender
        app.home()  # director mode closes on the auction, the seat the director chose to call
        app.show("board_entry", "AuctionScreen", self.board, who, 0, True)
        return None


class ReplacementScreen:
    """After an insufficient bid is not accepted: the director's judgment of the
    replacement (27B1a natural, 27B1b same meaning, or artificial) rides on that call."""

    def __init__(self, board, offender):
        self.board = board
        self.offender = offender

    def key(self, app, k):
        if 1 <= k <= 3:
            flags = (0, 2, 1)[k - 1]
            app.home()  # director mode closes on the auction: the offender calls
            app.show("board_entry", "AuctionScreen", self.board, self.offender, flags)
        else:
            app.refuse()

    def lines(self, app):
        return [t("repl"), t("next_call") % seat(self.offender), "", t("repl_1"), t("repl_2"),
                t("repl_3"), ""]
