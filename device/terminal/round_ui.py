"""The screens of a round: its start (section, table, pairs from the pushed configuration
or typed in), the player numbers, the round overview (pairs, boards, where to go next),
the choice of a board and the closing of the round."""

from hw import keys
from terminal.screens import Confirm, Digits, Screen
from terminal.session import DONE
from terminal.ui_text import seat, t

_FIELDS = ("section", "table", "round", "pairs", "pairs", "boards", "boards")
_TOPS = (26, 999, 99, 999, 999, 999, 999)


def section_letter(n):
    return chr(64 + n) if 1 <= n <= 26 else "?"


def next_round(session):
    return session.closed + 1


class StartScreen(Screen):
    """The round the pushed configuration gives for this table: OK takes it, MENU types
    another in."""

    def key(self, app, k):
        row = app.config.round(next_round(app.session))
        if k == keys.OK and row:
            app.go(PlayersScreen(self.values(app, row), app.config))
        elif k == keys.MENU or (k == keys.OK and not row):
            app.go(TypeInScreen(self.values(app, row)))
        else:
            app.refuse()

    def values(self, app, row):
        c = app.config
        sec = ord(c.section[0]) - 64 if c.section else 1
        r = next_round(app.session)
        if row:
            return [sec, c.table, r, row[0], row[1], row[2], row[3]]
        return [sec, app.session.table or -1, r, -1, -1, -1, -1]

    def lines(self, app):
        r = next_round(app.session)
        row = app.config.round(r)
        out = [t("start"), t("section") + " " + app.config.section + "  " + t("table") + " " +
               (str(app.config.table) if app.config.table else "-"), t("round") + " " + str(r)]
        if row:
            out += ["NS %d - EW %d" % (row[0], row[1]),
                    t("boards") + " %d-%d" % (row[2], row[3]), t("ok_go"), t("menu_edit")]
        elif app.config.pushed and app.session.closed:
            out += ["", t("session_end"), t("thanks"), t("menu_edit")]
        else:
            out += ["", t("no_config"), "", "OK/MENU: " + t("type_in")]
        return out


class Form(Screen):
    """Numbered fields typed on the digits: UP/DOWN chooses the field, BACK deletes."""

    def __init__(self, values, tops):
        self.fields = [Digits(tops[i], values[i]) for i in range(len(values))]
        self.at = 0

    def key(self, app, k):
        f = self.fields[self.at]
        if k == keys.UP or k == keys.DOWN:
            self.at = (self.at + (1 if k == keys.DOWN else -1)) % len(self.fields)
        elif k == keys.BACK:
            if f.value >= 0:
                f.back()
            else:
                app.go_back()
        elif k == keys.OK:
            problem = self.problem()
            if problem:
                app.refuse(problem)
            else:
                self.done(app)
        elif not f.key(k):
            app.refuse()

    def window(self, labels, first_line):
        """Field lines, scrolled so the cursor's field shows: 5 of them."""
        start = max(0, min(self.at - 2, len(self.fields) - 5))
        out = [first_line]
        for i in range(start, min(start + 5, len(self.fields))):
            v = self.fields[i]
            text = v.text()
            if i == 0 and labels[0] == t("section") and v.value > 0:
                text = section_letter(v.value)
            out.append((">" if i == self.at else " ") + labels[i] + ": " + text)
        return out


class TypeInScreen(Form):
    """Section (1=A, 2=B...), table, round, NS and EW pairs, first and last board."""

    def __init__(self, values):
        Form.__init__(self, values, _TOPS)

    def problem(self):
        v = [f.value for f in self.fields]
        for x in v:
            if x <= 0:
                return t("type_in")
        if v[5] > v[6] or v[3] == v[4]:
            return t("type_in")
        return None

    def done(self, app):
        app.go(PlayersScreen([f.value for f in self.fields], app.config))

    def lines(self, app):
        labels = [t(x) for x in _FIELDS]
        labels[3], labels[4], labels[5], labels[6] = "NS", "EW", t("boards") + " 1", \
            t("boards") + " 2"
        out = self.window(labels, t("type_in"))
        out.append(t("updown_field"))
        return out


class PlayersScreen(Form):
    """Player numbers of N, E, S, W (filled from the configuration's pairs); OK opens the
    round."""

    def __init__(self, values, config):
        self.values = values
        pl = [-1, -1, -1, -1]
        for pair, seats in ((values[3], (0, 2)), (values[4], (1, 3))):
            got = config.pair_players(pair)
            if got:
                pl[seats[0]], pl[seats[1]] = got
        Form.__init__(self, pl, (99999,) * 4)

    def problem(self):
        return None

    def done(self, app):
        v = self.values
        pl = [max(0, f.value) for f in self.fields]
        app.commit("open", {"sec": section_letter(v[0]), "tbl": v[1], "rnd": v[2], "ns": v[3],
                            "ew": v[4], "bd": [v[5], v[6]], "pl": pl})
        app.click(True)
        app.home()

    def lines(self, app):
        out = self.window([seat(s) for s in range(4)],
                          t("players") + " NS %d EW %d" % (self.values[3], self.values[4]))
        out.append(t("ok_go"))
        return out


class RoundScreen(Screen):
    """The round overview: pairs, its boards (* done, + started), where the pairs go next.
    UP/DOWN or digits choose a board, OK starts it; when all are done OK closes the round."""

    def __init__(self, app):
        self.typed = Digits(999)
        self.pick = app.session.next_board(app.mode())

    def key(self, app, k):
        s = app.session
        if k == keys.UP or k == keys.DOWN:
            order = s.round_boards()
            i = order.index(self.pick) if self.pick in order else -1
            self.pick = order[(i + (1 if k == keys.DOWN else -1)) % len(order)]
            self.typed.value = -1
        elif k == keys.BACK:
            if self.typed.value >= 0:
                self.typed.back()
            else:
                app.go_back()
        elif k == keys.OK:
            b = self.chosen()
            if b > 0:
                app.start_board(b)
            elif s.round_done(app.mode()):
                app.go(Confirm(t("close_ask") % s.round, t("no_more"), _close, _stay))
            else:
                app.refuse()
        elif k == keys.MENU:
            app.go(MenuScreen(self.chosen(), self))
        elif not self.typed.key(k):
            app.refuse()

    def chosen(self):
        if self.typed.value > 0:
            return self.typed.value
        return self.pick or 0

    def lines(self, app):
        s = app.session
        want = app.mode()
        marks = ""
        for b in s.round_boards():
            got = s.boards.get(b)
            mark = " " if got is None else "*" if got.phase(want) == DONE else "+"
            marks += str(b) + mark
        out = [t("round") + " %d  %s %d" % (s.round, t("table"), s.table),
               "NS %d - EW %d" % (s.ns, s.ew), marks[:21], marks[21:42]]
        row = app.config.round(s.round)
        if row:
            out.append(t("next_go") % (str(row[4]) if row[4] else t("stay"),
                                       str(row[5]) if row[5] else t("stay")))
        else:
            out.append("")
        b = self.chosen()
        if b:
            out.append(t("next_board") % b)
        elif s.round_done(want):
            out.append(t("close_round"))
        else:
            out.append(t("choose_board") + " _")
        out.append("\u2191\u2193 0-9  MENU")
        return out


def _close(app):
    app.commit("close", {"rnd": app.session.round})
    app.click(True)
    app.home()


def _stay(app):
    app.home()


class MenuScreen(Screen):
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
        elif not app.menu_key(k):
            app.refuse()

    def lines(self, app):
        return [t("menu"), t("m_trav") % self.b if self.b else "", t("m_boards"), t("m_lang"),
                t("m_sound"), "", t("back")]
