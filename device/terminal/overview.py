"""The round overview (pairs, boards, where to go next), the choice of a board, the closing of
the round, the player's menu and the keypad's legend; loaded in place of the round's start
(terminal.round_ui)."""

from hw import keys
from terminal.screens import Confirm, Digits
from terminal.session import DONE
from terminal.ui_text import t


class RoundScreen:
    """The round overview: pairs, its boards (* done, + started), where the pairs go next.
    UP/DOWN or digits choose a board, OK starts it; when all are done OK closes the round."""

    def __init__(self, app):
        self.entry = Digits(999)  # a board typed
        self.b = app.session.next_board(app.mode())  # the board UP/DOWN points at

    def key(self, app, k):
        s = app.session
        if k == keys.UP or k == keys.DOWN:
            order = s.round_boards()
            i = order.index(self.b) if self.b in order else -1
            self.b = order[(i + (1 if k == keys.DOWN else -1)) % len(order)]
            self.entry.value = -1
        elif k == keys.BACK:
            if self.entry.value >= 0:
                self.entry.back()
            else:
                app.home()
        elif k == keys.OK:
            b = self.value()
            if b > 0:
                app.start_board(b)
            elif s.round_done(app.mode()):
                app.go(Confirm(t("close_ask") % s.round, t("no_more"), self.close,
                               lambda app: app.home()))
            else:
                app.refuse()
        elif k == keys.MENU:
            app.go(MenuScreen(self.value(), self))
        elif not self.entry.key(k):
            app.refuse()

    def value(self):
        """The board chosen: typed, else the one UP/DOWN points at; 0 for none."""
        if self.entry.value > 0:
            return self.entry.value
        return self.b or 0

    def close(self, app):
        """OK on the question: the round is closed."""
        app.commit("close", {"rnd": app.session.round})
        app.click(True)
        app.home()

    def lines(self, app):
        s = app.session
        want = app.mode()
        marks = ""
        for b in s.round_boards():
            got = s.boards.get(b)
            mark = " " if got is None else "*" if got.phase(want) == DONE else "+"
            marks += str(b) + mark
        out = ["%s %d  %s %d" % (t("round"), s.round, t("table"), s.table),
               "NS %d - EW %d" % (s.ns, s.ew), marks[:21], marks[21:42]]
        row = app.config.round(s.round)
        if row:
            out.append(t("next_go") % (str(row[4]) if row[4] else t("stay"),
                                       str(row[5]) if row[5] else t("stay")))
        else:
            out.append("")
        b = self.value()
        if b:
            out.append(t("next_board") % b)
        elif s.round_done(want):
            out.append(t("close_round"))
        else:
            out.append(t("choose_board"))
        out.append("\u2191\u2193 0-9  MENU")
        return out


class MenuScreen:
    """The player's menu of the round overview: the chosen board's traveller, boards,
    language, sound."""

    def __init__(self, b, back):
        self.b = b  # the board chosen in the overview, 0 for none
        self.back = back

    def key(self, app, k):
        if k == keys.BACK:
            app.home()
        elif k == 1 and self.b:
            app.show("traveller", "TravellerScreen", app, self.b, self.back)
        elif k == 5:
            app.go(KeypadScreen())
        elif not app.menu_key(k):
            app.refuse()

    def lines(self, app):
        return [t("menu"), t("m_trav") % self.b if self.b else "", t("m_boards"), t("m_lang"),
                t("m_sound"), t("m_keys"), t("back")]


class KeypadScreen:
    """The keypad as it sits on the panel (hw.layout), with the legends of its caps: each
    suit key also names the honour it enters where a card's rank is asked (♣♦♥♠ = J Q K A,
    in rank order) and the seat where a player is asked (N E S W, the screen's column
    order), so nobody has to learn that the ♠ key is the ace. BACK returns."""

    def key(self, app, k):
        if k == keys.BACK:
            app.home()
        else:
            app.refuse()

    def lines(self, app):
        return [t("kp_title"), t("kp_1"), t("kp_2"), t("kp_3"), t("kp_4"), t("kp_5"),
                t("kp_note")]
