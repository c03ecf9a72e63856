"""What follows a board's auction: the opening lead, the tricks, the opponents' verification
and the score.

Only possible values can be entered: 0..13 tricks, a lead by declarer's LHO of a card he holds
when a hand record is loaded. The auction and the quick entry of the contract are
terminal.board_entry.
"""

from hw import keys
from terminal.config import holder
from terminal.screens import (
    Digits,
    board_title,
    contract_text,
    lho,
    rank_key,
    refuse_card,
    restrictions,
    review,
    signed,
    suit,
    tricks_text,
)
from terminal.session import LEAD_MODE, PLAY_MODE, ns_score
from terminal.ui_text import lang, seat, t


def score_line(ns):
    return "NS %s  EW %s" % (signed(ns), signed(-ns))


class LeadScreen:
    """The opening lead: a suit key, then the rank (2-9, 0 = ten, ♣♦♥♠ = J Q K A).
    UP/DOWN changes the leader; OK with nothing typed goes on without a lead."""

    def __init__(self, board):
        self.board = board
        self.ct = board.contract()
        self.seat = lho(self.ct[2])  # the leader
        self.suit = -1

    def key(self, app, k):
        s = keys.strain(k)
        if self.suit < 0:
            if 0 <= s <= 3:
                self.suit = s
            elif k == keys.UP or k == keys.DOWN:
                self.seat = (self.seat + (1 if k == keys.UP else 3)) & 3
            elif k == keys.OK:
                self.board.skipped = True
                app.home()
            elif k == keys.PASS:
                review(app, self.board)
            else:
                app.refuse(t("lead_help"))
            return
        if k == keys.BACK:
            self.suit = -1
            return
        rank = rank_key(k)
        if rank < 0:
            return app.refuse(t("honours"))
        cd = self.suit * 13 + rank  # recorded, or refused with the reason
        self.suit = -1
        lead = lho(self.ct[2])
        hand = self.board.deal
        if self.seat != lead:
            return app.refuse(t("lead_not_lho") % seat(lead))
        if hand and holder(hand, cd) != self.seat:
            return refuse_card(app, self.board, self.seat, cd)
        app.commit("lead", {"b": self.board.b, "s": self.seat, "cd": cd})
        app.click(True)
        app.home()

    def lines(self, app):
        head = contract_text(self.ct)
        board = self.board  # the board at the table: its engine may be built and kept
        if board.quick is None and board.events and \
                restrictions(board.get_auction(), self.ct[2]):
            head += " " + t("restrict_26")
        return [board_title(board), head,
                t("lead") + ": " + seat(self.seat) + " " + suit(self.suit) + "_",
                t("lead_help"), t("honours"),
                t("review_key") if board.quick is None else "", t("lead_skip")]


class TricksScreen:
    """Tricks won by declarer. After a recorded play the engine's count (Law 64 transfers
    included) is filled in: OK agrees to it (79A); another number is recorded with a 79B
    flag for the director."""

    def __init__(self, board):
        self.board = board
        self.ct = board.contract()
        self.played = board.play_result()  # -1 when no recorded play has ended
        self.entry = Digits(13, self.played, self.ct)  # declarer's tricks
        self.fixed = None  # (language, the lines no key here changes): made once, `lines`

    def key(self, app, k):
        passed = self.ct[2] < 0
        b = self.board.b
        if k == keys.OK and (passed or self.entry.value >= 0):
            tr = 0 if passed else self.entry.value
            app.commit("res", {"b": b, "tr": tr, "sc": ns_score(self.ct, self.board.vul, tr)})
            if self.played >= 0 and tr != self.played:
                app.commit("flag", {"b": b, "law": "79B", "why": "dispute"})
            app.click(True)
            app.home()
        elif k == keys.BACK and self.entry.value < 0:
            mode = app.mode()
            if passed or self.played >= 0:
                app.refuse()
            elif mode & PLAY_MODE:
                self.board.skipped = False  # back to the play where it was left
                app.home()
            elif mode & LEAD_MODE:
                self.board.skipped = False
                app.go(LeadScreen(self.board))
            else:
                app.refuse()
        elif k == keys.PASS and self.entry.value < 0:
            review(app, self.board)
        elif k == keys.MENU:
            if app.config.settings["quick"]:
                app.show("quick", "QuickScreen", self.board)
            else:
                app.refuse()
        elif passed or not self.entry.key(k):
            app.refuse()

    def lines(self, app):
        """The title, the contract and the help lines are made when the screen is first drawn
        (again if the language changes), the tricks and the score at each key: UP, DOWN and
        the digits change only those two lines, and making all seven at every key was a
        quarter of such a key's work (a tenth of a session's keys are on this screen)."""
        fixed = self.fixed
        if fixed is None or fixed[0] != lang():
            fixed = self.fixed = (
                lang(), board_title(self.board), contract_text(self.ct), t("tricks"),
                t("played_tricks") % self.played if self.played >= 0 else t("tricks_help"),
                t("ok_record"))
        _, title, contract, label, hint, ok = fixed
        if self.ct[2] < 0:
            return [title, contract, "", score_line(0), "", "", ok]
        v = self.entry.value
        return [title, contract, label, "  " + self.entry.text(),
                score_line(ns_score(self.ct, self.board.vul, v)) if v >= 0 else "", hint, ok]


class VerifyScreen:
    """The opponents check what was entered: OK agrees, BACK disagrees (a dispute). A result
    they refused is erased at once (`erase` after the `ver` 0): it is gone from the board, so
    the next result entered, and only that one, comes back to them; nothing can verify the
    refused one by a later OK."""

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
            app.commit("erase", {"b": b})
            app.go(TricksScreen(self.board))
        else:
            app.refuse()

    def lines(self, app):
        board = self.board
        ct = board.contract()
        out = [t("verify") + " " + t("brd") + str(board.b), contract_text(ct)]
        if ct[2] >= 0:
            out.append("%s (%s)" % (str(board.tricks) + " " + t("tricks_short"),
                                    tricks_text(ct, board.tricks)))
        else:
            out.append("")
        out += [score_line(board.score), "", t("opp_ok"), t("opp_back")]
        return out


class ScoreScreen:
    """A finished board: OK goes to the next board, BACK corrects (until the round closes),
    DOWN shows the board's traveller (terminal.traveller)."""

    def __init__(self, board):
        self.board = board

    def key(self, app, k):
        if k == keys.OK:  # the next board of the round, or the overview when none is left
            b = app.session.next_board(app.mode())
            if b is None:
                app.go_round()
            else:
                app.start_board(b)
        elif k == keys.BACK and self.board.adj is None:
            app.go(TricksScreen(self.board))
        elif k == keys.MENU:
            app.go_round()
        elif k == keys.DOWN:
            app.show("traveller", "TravellerScreen", app, self.board.b, self)
        else:
            app.refuse()

    def lines(self, app):
        """The contract and the tricks, or the adjusted score."""
        board = self.board
        adj = board.adj
        out = [board_title(board)]
        how = adj["how"] if adj else None
        if adj is None:
            ct = board.contract()
            head = contract_text(ct)
            if ct[2] >= 0:
                head += " " + tricks_text(ct, board.tricks)
            out += [head] + score_line(board.score).split("  ")  # NS and EW a line each
        elif how == "art":
            out += [t("adjusted"), t("ns_pct") % adj["ns"], t("ew_pct") % adj["ew"]]
        elif how == "np":
            out += [t("adjusted"), t("not_played"), ""]
        else:
            out.append(t("adjusted"))
            parts = adj["parts"] if how == "wgt" else \
                [[100, adj["ct"], adj["x"], adj["dcl"], adj["tr"]]]
            for p in parts[:3]:
                ct = (p[1], p[2], p[3])
                text = contract_text(ct) + " " + tricks_text(ct, p[4])
                out.append(t("pct_part") % (p[0], text) if how == "wgt" else text)
        while len(out) < 5:
            out.append("")
        out = out[:5]
        if not out[4]:
            out[4] = t("trav_key")
        out.append(t("ok_next"))
        out.append(t("back_correct") if self.board.adj is None else "")
        return out
