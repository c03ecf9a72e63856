"""The start of a round: section, table, pairs from the pushed configuration or typed in, and
the player numbers. The round overview that follows is terminal.overview."""

from hw import keys
from terminal.screens import Digits
from terminal.ui_text import seat, t

_FIELDS = ("section", "table", "round", "pairs", "pairs", "boards", "boards")
_TOPS = (26, 999, 99, 999, 999, 999, 999)


def section_letter(n):
    return chr(64 + n) if 1 <= n <= 26 else "?"


def next_round(session):
    return session.closed + 1


class StartScreen:
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


class Form:
    """Numbered fields typed on the digits: UP/DOWN chooses the field, BACK deletes."""

    def __init__(self, values, tops=_TOPS):
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
                app.home()
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
