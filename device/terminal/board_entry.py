"""The auction of one board (bidding-box mode).

Every call goes to the Laws engine through a `call` record; an irregularity stops the auction
on the DIRECTOR screen until the director rules (terminal.rulings). The quick entry of the
contract without the auction is terminal.entry, and what follows the auction (the lead, the
tricks, the verification, the score) terminal.board_result: each loaded in this one's place.
"""

from hw import keys
from terminal.screens import bid, board_title, call_text, contract_text, lho, seat_key, wrap
from terminal.ui_text import lang, seat, t


class AuctionScreen:
    """Bidding-box mode: the seat to call is shown and follows the engine's turn; a bid is
    level then strain, PASS/X/XX one key; each call is recorded at once.

    MENU opens the menu (♣♦♥♠ there: the next call is made by N/E/S/W, out of rotation);
    BACK with nothing typed starts a change of the last call (Law 25A; MENU toggles 25B).
    Once the auction has ended the same screen shows it for review (`review`).
    """

    def __init__(self, board, seat=-1, flags=0, ruled=False):
        self.board = board
        self.ruled = ruled  # the director chose who calls now, while the call is pending
        self.level = 0
        self.seat = seat  # the next call is this seat's (out of rotation, director's choice)
        self.flags = flags  # 1 artificial, 2 same meaning: the director's judgment (27B1)
        self.change = 0  # 1 unintended (25A), 2 deliberate (25B)
        self.menu = False
        self.shown = None  # [calls, their number, language, title, table]: `top`'s


    def caller(self, a):
        if self.change:
            return a.calls[-1] >> 6
        return self.seat if self.seat >= 0 else a.turn

    def key(self, app, k):
        a = self.board.get_auction()
        if a.status == "ended":  # shown for review: terminal.screens.review
            n = len(table(a.calls)) - 1
            if k == keys.UP or k == keys.DOWN:
                self.level = max(0, min(self.level + (1 if k == keys.DOWN else -1), n - 4))
            elif k == keys.BACK or k == keys.PASS:
                app.home()
            else:
                app.refuse()
            return None
        if a.status != "auction" and not (self.ruled and a.status == "director"):
            return app.refuse(t("td_wait") if k != keys.DIRECTOR else None)
        if self.menu:
            self.menu = False
            s = seat_key(k)
            if s >= 0:
                self.seat = s
                self.change = 0
            elif k == 1 and app.config.settings["quick"]:
                app.show("quick", "QuickScreen", self.board)
            elif k != keys.BACK and not app.menu_key(k):
                self.menu = True
                app.refuse()
            return None
        risk_keys = (keys.PASS, keys.DOUBLE, keys.REDOUBLE)  # call codes 0, 1, 2 in key order
        if 1 <= k <= 9:
            self.level = k
        elif keys.strain(k) >= 0 and self.level:
            self.call(app, bid(self.level, keys.strain(k)))
        elif k in risk_keys and not self.level:
            self.call(app, risk_keys.index(k))
        elif k == keys.BACK:
            if self.level:
                self.level = 0
            elif (self.seat >= 0 and not self.ruled) or self.change:
                self.seat = -1
                self.change = 0
            elif a.calls and not self.ruled:
                self.change = 1
            else:
                app.refuse(t("no_call") if not a.calls else t("td_guided") + " " +
                           seat(self.caller(a)))
        elif k == keys.MENU and not self.ruled:
            if self.change:
                self.change = 3 - self.change
            else:
                self.menu = True
        else:
            # what was pressed cannot make a call: a strain or 0 without a level, X/XX/PASS
            # after one
            app.refuse(t("strain_next") if self.level else t("level_first"))
            self.level = 0
        return None

    def call(self, app, c):
        a = self.board.get_auction()
        data = {"b": self.board.b, "s": self.caller(a), "c": c}
        if self.change:
            data["ch"] = self.change
        if self.flags & 1:
            data["art"] = 1
        if self.flags & 2:
            data["sm"] = 1
        self.level = 0
        self.seat = -1
        self.change = 0
        self.flags = 0
        self.ruled = False
        who = data["s"]
        if not app.commit("call", data):
            # why, in the player's words: the director's ruling comes first, or the call a
            # ruling makes him repeat (31A1, 32B1: the engine's `_repeat`, read, not changed);
            # else it was a change of a call that is no longer his last act (25: his LHO has
            # called, or a ruling came since), the one other call the engine refuses
            again = a._repeat.get(who)
            app.refuse(t("td_wait") if a.status == "director" else t("no_change")
                       if again is None else t("must_repeat") % (seat(who), call_text(again)))
        elif a.status == "director":
            app.irregular(self.board)
        elif a.status != "auction":
            app.click(True)
            app.home()
        else:
            app.click()

    def lines(self, app):
        a = self.board.get_auction()
        if a.status == "director" and not self.ruled:
            return irregularity_lines(a)
        if a.status == "ended":
            return self.review(a)
        if self.menu:
            out = [t("menu"), t("m_seat")]
            if app.config.settings["quick"]:
                out.append(t("m_quick"))
            return out + [t("m_boards"), t("m_lang"), t("m_sound"), t("back")]
        out = self.top(a, 4)
        while len(out) < 6:
            out.append("")
        who = self.caller(a)
        rule = " " + t("pass") if who in a.must_pass else ""
        if self.change:
            out.append("%s %s %s%s: %s_" % (
                t("change")[:6], seat(who),
                (t("unintended") if self.change == 1 else t("deliberate"))[-3:], rule,
                self.level or ""))
        else:  # the usual line, whose turn and what is typed, made in one string
            out.append("%s %s%s: %s_" % (
                t("td_guided") if self.ruled else t("called_by") if self.seat >= 0 else
                t("turn"), seat(who), rule, self.level or ""))
        return out


    def top(self, a, last):
        """The title bar, the seats' heading and the last `last` rounds of calls (`table`),
        kept between keys: the title and the heading are made again only when the language
        changes; a call added changes only the last row (or starts one), and the rounds
        are made afresh only when the engine replayed (a new list of calls). Drawn anew at
        every key they were most of what a key allocated (~5 KB of strings in a long
        auction; the whole table at every call, ~2.7 KB)."""
        shown = self.shown
        if shown is None or shown[2] != lang():
            shown = self.shown = [None, 0, lang(), board_title(self.board), None, None]
        calls = a.calls
        if shown[0] is calls and 0 < shown[1] < len(calls):  # the engine's calls only grow
            for i in range(shown[1], len(calls)):
                add_call(shown[4], shown[5], calls[i], calls[i - 1], last)
        elif shown[0] is not calls or shown[1] != len(calls):  # a replay makes a new list
            shown[4], shown[5] = table(calls, last), last_round(calls)
        shown[0], shown[1] = calls, len(calls)
        return [shown[3]] + shown[4]

    def review(self, a):
        """The auction after the final pass, shown on request (PASS) until the opening lead
        is faced: with bidding boxes the calls stay on the table until then. Law 20C1: a
        defender may ask whether it is his opening lead (the last line says who leads);
        41B (20C2): before the lead is faced the leader's partner and the presumed
        declarer, and at his first turn to play declarer or either defender, may have the
        auction reviewed. Every call, UP/DOWN scrolls a long auction (`level` is the first
        round shown: nothing is typed meanwhile); BACK returns to the lead or the play."""
        rows = table(a.calls)
        ct = self.board.contract()
        out = [t("review") + " " + t("brd") + str(self.board.b) +
               (" " + t("scroll") if len(rows) > 5 else ""), rows[0]]
        out += rows[1 + self.level:5 + self.level]
        while len(out) < 6:
            out.append("")
        out.append(contract_text(ct) + "  " + t("lead_by") % seat(lho(ct[2])))
        return out


def table(calls, last=0):
    """The seats' heading (N E S W), then the standing calls in those four columns, a line
    per round of calls; with `last`, only the heading and the last `last` rounds (no text is
    made for the rounds before)."""
    out = [row([seat(0), seat(1), seat(2), seat(3)])]
    skip = 0  # rounds left out
    if last:
        col, rounds = -1, 0  # rounds begun after the first
        for packed in calls:
            rounds += (packed >> 6) <= col
            col = packed >> 6
        skip = max(0, rounds + 1 - last)
    cells = [""] * 4
    col = -1
    for packed in calls:
        s = packed >> 6
        if s <= col:
            if skip:
                skip -= 1
            else:
                out.append(row(cells))
            cells = [""] * 4
        cells[s] = "" if skip else call_text(packed & 63)
        col = s
    out.append(row(cells))
    return out


def last_round(calls):
    """The calls of the last round (the last row of `table`) by seat, packed; -1 where the
    seat has not called."""
    cells = [-1] * 4
    col = 4
    for i in range(len(calls) - 1, -1, -1):
        if calls[i] >> 6 >= col:
            break
        col = calls[i] >> 6
        cells[col] = calls[i]
    return cells


def add_call(rows, cells, call, before, last):
    """`rows` (table(calls, last)) and `cells` (last_round(calls)) after the call `call`
    (packed) was added to calls, whose last call was `before`: the last row made again, or
    a row added (the first round dropped past `last`)."""
    if call >> 6 <= before >> 6:  # a new round
        for i in range(4):
            cells[i] = -1
        rows.append("")
        if len(rows) > last + 1:
            del rows[1]
    cells[call >> 6] = call
    rows[-1] = row([call_text(c & 63) if c >= 0 else "" for c in cells])


_PAD = ("   ", "  ", " ", "")  # by a call's length: a column is 2 spaces, the call, these


def row(cells):
    """One line of `table`: four columns of 5 characters, each two spaces and at most 3
    characters of its text ('Pas' for 'Pass'), the blanks at the end left out. Made in one
    join: a string per piece, as before, was most of what a key allocated."""
    end = 4
    while end and not cells[end - 1]:
        end -= 1
    parts = []
    for i in range(end):
        c = cells[i] if len(cells[i]) <= 3 else cells[i][:3]
        parts.append("  ")
        parts.append(c)
        if i < end - 1:
            parts.append(_PAD[len(c)])
    return "".join(parts)


def irregularity_lines(a):
    """The DIRECTOR screen: the law, its title, the offender and his call."""
    from bridge import rulings_text  # loaded only while an irregularity waits

    offender, c, law = a.pending
    out = [t("td_alarm"), t("law") % law]
    out += wrap(rulings_text.text("L" + law, lang()))[:2]
    out.append(seat(offender) + ": " + call_text(c))
    while len(out) < 5:
        out.append("")
    out.append(t("call_td"))
    out.append("DIR \u2192 PIN")
    return out
