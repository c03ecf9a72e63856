"""The screens of one board: the auction (bidding-box mode), quick entry of the contract,
the opening lead, the tricks, the opponents' verification and the score.

Every call goes to the Laws engine through a `call` record; an irregularity stops the auction
on the DIRECTOR screen until the director rules (terminal.director). Only possible values can
be entered: levels 1..7 for a contract, 0..13 tricks, a lead by declarer's LHO of a card he
holds when a hand record is loaded.
"""

from hw import keys
from terminal.entry import ContractEntry, TricksEntry, restrictions
from terminal.screens import (
    SUITS,
    Screen,
    bid,
    board_title,
    call_text,
    card_text,
    contract_text,
    lho,
    rank_key,
    seat_key,
    signed,
    tricks_text,
    wrap,
)
from terminal.session import LEAD_MODE, PLAY_MODE, ns_score
from terminal.ui_text import lang, seat, t

_RISK_KEYS = (keys.PASS, keys.DOUBLE, keys.REDOUBLE)  # call codes 0, 1, 2 in key order


def auction_rows(auction, dealer, limit):
    """The standing calls as rows of four columns (N E S W), the last `limit` rows."""
    rows = []
    row = [""] * 4
    col = dealer
    started = False
    for packed in auction.calls:
        s = packed >> 6
        if started and s <= col:
            rows.append(row)
            row = [""] * 4
        row[s] = call_text(packed & 63)
        col = s
        started = True
    rows.append(row)
    out = []
    for r in rows[-limit:]:
        out.append("".join(("  " + c + "    ")[:5] for c in r).rstrip())
    return out


class AuctionScreen(Screen):
    """Bidding-box mode: the seat to call is shown and follows the engine's turn; a bid is
    level then strain, PASS/X/XX one key; each call is recorded at once.

    MENU opens the menu (♣♦♥♠ there: the next call is made by N/E/S/W, out of rotation);
    BACK with nothing typed starts a change of the last call (Law 25A; MENU toggles 25B).
    """

    def __init__(self, board, seat_=-1, flags=0, ruled=False):
        self.board = board
        self.ruled = ruled  # the director chose who calls now, while the call is pending
        self.level = 0
        self.seat = seat_  # the next call is this seat's (out of rotation, director's choice)
        self.flags = flags  # 1 artificial, 2 same meaning: the director's judgment (27B1)
        self.change = 0  # 1 unintended (25A), 2 deliberate (25B)
        self.menu = False

    def caller(self, a):
        if self.change:
            return a.calls[-1] >> 6
        return self.seat if self.seat >= 0 else a.turn

    def key(self, app, k):
        a = self.board.get_auction()
        if a.status != "auction" and not (self.ruled and a.status == "director"):
            return app.refuse()
        if self.menu:
            self.menu = False
            s = seat_key(k)
            if s >= 0:
                self.seat = s
                self.change = 0
            elif k == 1 and app.config.settings["quick"]:
                app.go(QuickScreen(self.board))
            elif k != keys.BACK and not app.menu_key(k):
                self.menu = True
                app.refuse()
            return None
        if 1 <= k <= 9:
            self.level = k
        elif keys.strain(k) >= 0 and self.level:
            self.call(app, bid(self.level, keys.strain(k)))
        elif k in _RISK_KEYS and not self.level:
            self.call(app, _RISK_KEYS.index(k))
        elif k == keys.BACK:
            if self.level:
                self.level = 0
            elif (self.seat >= 0 and not self.ruled) or self.change:
                self.seat = -1
                self.change = 0
            elif a.calls and not self.ruled:
                self.change = 1
            else:
                app.refuse()
        elif k == keys.MENU and not self.ruled:
            if self.change:
                self.change = 3 - self.change
            else:
                self.menu = True
        else:
            self.level = 0
            app.refuse()
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
        if not app.commit("call", data):
            app.refuse(t("refused"))
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
        if self.menu:
            return menu_lines(app, "m_quick")
        out = [board_title(self.board),
               "".join(("  " + seat(s) + "  ") for s in range(4)).rstrip()]
        out += auction_rows(a, self.board.dealer, 4)
        while len(out) < 6:
            out.append("")
        who = self.caller(a)
        typed = (str(self.level) if self.level else "") + "_"
        if self.change:
            status = t("change")[:6] + " " + seat(who) + " " + \
                (t("unintended") if self.change == 1 else t("deliberate"))[-3:]
        elif self.ruled:
            status = t("td_guided") + " " + seat(who)
        elif self.seat >= 0:
            status = t("called_by") + " " + seat(who)
        else:
            status = t("turn") + " " + seat(who)
        if who in a.must_pass:
            status += " " + t("pass")
        out.append(status + ": " + typed)
        return out


def irregularity_lines(a):
    """The DIRECTOR screen: the law, its title, the offender and his call."""
    from bridge import rulings_text  # loaded only while an irregularity waits

    offender, c, law = a.pending
    out = ["!!! " + t("director") + " !!!", t("law") % law]
    out += wrap(rulings_text.text("L" + law, lang()))[:2]
    out.append(seat(offender) + ": " + call_text(c))
    while len(out) < 5:
        out.append("")
    out.append(t("call_td"))
    out.append("DIR \u2192 PIN")
    return out


def menu_lines(app, first):
    out = [t("menu"), t("m_seat") if first == "m_quick" else ""]
    if app.config.settings["quick"] or first != "m_quick":
        out.append(t(first))
    out += [t("m_boards"), t("m_lang"), t("m_sound"), t("back")]
    return out


class QuickScreen(Screen):
    """Bridgemate-style entry of the contract, declarer and double without the auction."""

    def __init__(self, board):
        self.board = board
        self.entry = ContractEntry()

    def key(self, app, k):
        e = self.entry
        if k == keys.OK and e.done():
            v = e.value()
            if v[2] < 0:
                app.commit("quick", {"b": self.board.b, "po": 1})
            else:
                app.commit("quick", {"b": self.board.b, "ct": v[0], "x": v[1], "dcl": v[2]})
            app.click(True)
            app.home()
        elif k == keys.BACK and not e.level and not e.passed:
            app.home()
        elif k == keys.MENU:
            app.home()
        elif not e.key(k):
            app.refuse()

    def lines(self, app):
        e = self.entry
        return [board_title(self.board), t("quick"), t("contract") + ": " + e.text(), "",
                t("quick_help"), e.prompt(), t("back") if not e.level else ""]


def score_line(ns):
    return "NS " + signed(ns) + "  EW " + signed(-ns)


class LeadScreen(Screen):
    """The opening lead: a suit key, then the rank (2-9, 0 = ten, ♣♦♥♠ = J Q K A).
    UP/DOWN changes the leader; OK with nothing typed goes on without a lead."""

    def __init__(self, board):
        self.board = board
        self.ct = board.contract()
        self.leader = lho(self.ct[2])
        self.suit = -1

    def key(self, app, k):
        s = keys.strain(k)
        if self.suit < 0:
            if 0 <= s <= 3:
                self.suit = s
            elif k == keys.UP or k == keys.DOWN:
                self.leader = (self.leader + (1 if k == keys.UP else 3)) & 3
            elif k == keys.OK:
                self.board.lead_skipped = True
                app.home()
            else:
                app.refuse()
            return
        if k == keys.BACK:
            self.suit = -1
            return
        rank = rank_key(k)
        if rank < 0:
            return app.refuse()
        self.offer(app, self.suit * 13 + rank)

    def offer(self, app, cd):
        """Record the lead, or refuse it with the reason."""
        self.suit = -1
        why = lead_problem(self.board, self.ct, self.leader, cd)
        if why:
            return app.refuse(why)
        app.commit("lead", {"b": self.board.b, "s": self.leader, "cd": cd})
        app.click(True)
        app.home()

    def lines(self, app):
        out = [board_title(self.board), contract_text(self.ct),
               t("lead") + ": " + seat(self.leader) + " " +
               ((SUITS[self.suit] + "_") if self.suit >= 0 else "_"),
               t("lead_help"), t("lead_ranks")]
        a = self.board.auction
        if a is not None and restrictions(a, self.ct[2]):
            out.append("! " + t("restrict") + " 26")
        else:
            out.append("")
        out.append(t("lead_skip"))
        return out


def lead_problem(board, ct, leader, cd):
    """Why this opening lead cannot be recorded, or None."""
    dcl = ct[2]
    if leader != lho(dcl):
        return t("lead_not_lho") % seat(lho(dcl))
    hands = board.deal
    if hands:
        mask = hands[leader * 4 + cd // 13]
        if not mask >> (cd % 13) & 1:
            return t("lead_no_card") % (seat(leader), card_text(cd))
    return None


class TricksScreen(Screen):
    """Tricks won by declarer. After a recorded play the engine's count (Law 64 transfers
    included) is filled in: OK agrees to it (79A); another number is recorded with a 79B
    flag for the director."""

    def __init__(self, board):
        self.board = board
        self.ct = board.contract()
        self.played = board.play_result()  # -1 when no recorded play has ended
        self.entry = TricksEntry(self.ct, self.played)

    def key(self, app, k):
        passed = self.ct[2] < 0
        b = self.board.b
        if k == keys.OK and (passed or self.entry.value() >= 0):
            tr = 0 if passed else self.entry.value()
            app.commit("res", {"b": b, "tr": tr, "sc": ns_score(self.ct, self.board.vul, tr)})
            if self.played >= 0 and tr != self.played:
                app.commit("flag", {"b": b, "law": "79B", "why": "dispute"})
            app.click(True)
            app.home()
        elif k == keys.BACK and self.entry.value() < 0:
            mode = app.mode()
            if passed or self.played >= 0:
                app.refuse()
            elif mode & PLAY_MODE:
                self.board.play_skipped = False  # back to the play where it was left
                app.home()
            elif mode & LEAD_MODE:
                self.board.lead_skipped = False
                app.go(LeadScreen(self.board))
            else:
                app.refuse()
        elif k == keys.MENU:
            app.go(QuickScreen(self.board)) if app.config.settings["quick"] else app.refuse()
        elif passed or not self.entry.key(k):
            app.refuse()

    def lines(self, app):
        out = [board_title(self.board), contract_text(self.ct)]
        if self.ct[2] < 0:
            out += ["", "NS 0  EW 0", "", "", t("ok_record")]
            return out
        v = self.entry.value()
        out += [t("tricks"), "  " + self.entry.text(),
                score_line(ns_score(self.ct, self.board.vul, v)) if v >= 0 else "",
                t("played_tricks") % self.played if self.played >= 0 else t("tricks_help"),
                t("ok_record")]
        return out


class VerifyScreen(Screen):
    """The opponents check what was entered: OK agrees, BACK disagrees (a dispute)."""

    def __init__(self, board):
        self.board = board

    def key(self, app, k):
        b = self.board.b
        if k == keys.OK:
            app.commit("ver", {"b": b, "ok": 1})
            app.click(True)
            app.go(ScoreScreen(self.board))
        elif k == keys.BACK:
            app.commit("ver", {"b": b, "ok": 0})
            app.commit("flag", {"b": b, "law": None, "why": "dispute"})
            app.go(TricksScreen(self.board))
        else:
            app.refuse()

    def lines(self, app):
        board = self.board
        ct = board.contract()
        out = [t("verify") + " " + t("brd") + str(board.b), contract_text(ct)]
        if ct[2] >= 0:
            out.append(str(board.tricks) + " " + t("tricks_short") + " (" +
                       tricks_text(ct, board.tricks) + ")")
        else:
            out.append("")
        out += [score_line(board.score), "", t("opp_ok"), t("opp_back")]
        return out


def result_lines(board):
    """What a finished board shows: contract and tricks, or the adjusted score."""
    adj = board.adj
    if adj is None:
        ct = board.contract()
        head = contract_text(ct)
        if ct[2] >= 0:
            head += " " + tricks_text(ct, board.tricks)
        return [head, "NS " + signed(board.score), "EW " + signed(-board.score)]
    how = adj["how"]
    if how == "art":
        return [t("adjusted"), "NS %d%%" % adj["ns"], "EW %d%%" % adj["ew"]]
    if how == "np":
        return [t("adjusted"), t("not_played"), ""]
    parts = adj["parts"] if how == "wgt" else [[100, adj["ct"], adj["x"], adj["dcl"], adj["tr"]]]
    out = [t("adjusted")]
    for p in parts[:3]:
        ct = (p[1], p[2], p[3])
        out.append(("%d%% " % p[0] if how == "wgt" else "") + contract_text(ct) + " " +
                   tricks_text(ct, p[4]))
    return out


class ScoreScreen(Screen):
    """A finished board: OK goes to the next board, BACK corrects (until the round closes),
    DOWN shows the board's traveller (terminal.traveller)."""

    def __init__(self, board):
        self.board = board

    def key(self, app, k):
        if k == keys.OK:
            app.next_board()
        elif k == keys.BACK and self.board.adj is None:
            app.go(TricksScreen(self.board))
        elif k == keys.MENU:
            app.go_round()
        elif k == keys.DOWN:
            app.show("traveller", "TravellerScreen", app, self.board.b, self)
        else:
            app.refuse()

    def lines(self, app):
        out = [board_title(self.board)] + result_lines(self.board)
        while len(out) < 5:
            out.append("")
        out = out[:5]
        if not out[4]:
            out[4] = t("trav_key")
        out.append(t("ok_next"))
        out.append(t("correct") if self.board.adj is None else "")
        return out
