"""The start of a round: section, table, pairs from the pushed configuration or typed in, and
the player numbers. The round overview that follows is terminal.overview."""

from hw import keys
from terminal.screens import Digits
from terminal.ui_text import seat, t


def section_letter(n):
    return chr(64 + n) if 1 <= n <= 26 else "?"


class StartScreen:
    """The round the pushed configuration gives for this table (its next after the last one
    closed): OK takes it, MENU types another in."""

    def key(self, app, k):
        row = app.config.round(app.config.next_round(app.session.closed))
        if k == keys.OK and row:
            app.go(PlayersScreen(self.values(app, row), app.config))
        elif k == keys.MENU or (k == keys.OK and not row):
            app.go(TypeInScreen(self.values(app, row)))
        else:
            app.refuse()

    def values(self, app, row):
        c = app.config
        sec = ord(c.section[0]) - 64 if c.section else 1
        r = c.next_round(app.session.closed)
        if row:
            return [sec, c.table, r, row[0], row[1], row[2], row[3]]
        return [sec, app.session.table or -1, r, -1, -1, -1, -1]

    def lines(self, app):
        r = app.config.next_round(app.session.closed)
        row = app.config.round(r)
        out = [t("start"), t("section") + " " + app.config.section + "  " + t("table") + " " +
               (str(app.config.table) if app.config.table else "-"), t("round") + " " + str(r)]
        if row:
            out += ["NS %d - EW %d" % (row[0], row[1]),
                    t("bd_range") % (row[2], row[3]), t("ok_go"), t("menu_edit")]
        elif app.config.pushed and app.session.closed:
            out += ["", t("session_end"), t("thanks"), t("menu_edit")]
        else:
            out += ["", t("no_config"), "", "OK/MENU: %s" % t("type_in")]
        return out


class TypeInScreen:
    """Section (1=A, 2=B...), table, round, NS and EW pairs, first and last board: numbered
    fields typed on the digits (each at most its `top`: the section 26 = Z, the round 99).
    UP/DOWN chooses the field, BACK deletes. PlayersScreen types its fields the same way."""

    def __init__(self, values, top=(26, 999, 99, 999, 999, 999, 999)):
        self.fields = [Digits(top[i], values[i]) for i in range(len(values))]
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
            self.done(app)
        elif not f.key(k):
            app.refuse()

    def window(self, title, names):
        """The title and the field lines, scrolled so the cursor's field shows: 5 of them."""
        start = max(0, min(self.at - 2, len(self.fields) - 5))
        out = [title]
        for i in range(start, min(start + 5, len(self.fields))):
            v = self.fields[i]
            text = v.text()
            if i == 0 and names[0] == t("section") and v.value > 0:
                text = section_letter(v.value)
            out.append((">" if i == self.at else " ") + names[i] + ": " + text)
        return out

    def done(self, app):
        """OK: the players' numbers next, or refused while a field is missing or wrong."""
        v = [f.value for f in self.fields]
        if min(v) <= 0 or v[5] > v[6] or v[3] == v[4]:
            return app.refuse(t("type_in"))
        return app.go(PlayersScreen(v, app.config))

    def lines(self, app):
        names = [t(x) for x in ("section", "table", "round")] + \
            ["NS", "EW", t("bd_first"), t("bd_last")]
        out = self.window(t("type_in"), names)
        out.append(t("updown_field"))
        return out


class PlayersScreen(TypeInScreen):
    """Player numbers of N, E, S, W (filled from the configuration's pairs); OK opens the
    round."""

    def __init__(self, values, config):
        self.values = values
        pl = [-1, -1, -1, -1]
        for pair, seats in ((values[3], (0, 2)), (values[4], (1, 3))):
            got = config.pair_players(pair)
            if got:
                pl[seats[0]], pl[seats[1]] = got
        TypeInScreen.__init__(self, pl, (99999,) * 4)

    def done(self, app):
        v = self.values
        pl = [max(0, f.value) for f in self.fields]
        app.commit("open", {"sec": section_letter(v[0]), "tbl": v[1], "rnd": v[2], "ns": v[3],
                            "ew": v[4], "bd": [v[5], v[6]], "pl": pl})
        app.click(True)
        app.home()

    def lines(self, app):
        out = self.window(t("players") + " NS %d EW %d" % (self.values[3], self.values[4]),
                          [seat(s) for s in range(4)])
        out.append(t("ok_go"))
        return out
