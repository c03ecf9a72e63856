"""The play recorded card by card (docs/CONFIG.md `set.play`): the cards, claims and the
DIRECTOR screen of an irregularity of the play.

Each card is entered as suit then rank by the seat whose turn the Laws engine (bridge.play)
says it is; a card out of turn is entered by choosing the seat first (MENU, then ♣♦♥♠ = N E S
W), as a call out of rotation is. With a hand record a card the seat has played is refused
with the reason, and a card it does not hold in words that name nobody's holding, journaled
(`rc`: the director is called after a few, Law 16C; terminal.screens.refuse_card). A card
the engine holds for the director (leads out of turn 53-56, 57, 52, 50D2, 67) stops the play
on the DIRECTOR screen until the director rules (terminal.play_director); a revoke is flagged
and shown, and the play goes on (the Laws leave it to be established and rectified at the
end, 63-64).

Loaded only when the play is recorded, with the engine.
"""

from bridge import play_rulings

from hw import keys
from terminal.config import holder
from terminal.screens import (
    Digits,
    board_title,
    card_text,
    contract_text,
    rank_key,
    refuse_card,
    review,
    seat_key,
    suit,
    wrap,
)
from terminal.session import PLAY_DIRECTOR
from terminal.ui_text import lang, seat, t

_PLAYING = "play"  # bridge.play status while a card is awaited


def card_problem(board, play, who, cd):
    """Why seat `who` cannot play card cd, or None: "" when the hand record does not give
    it to him (refused in words that say nothing of where it is: screens.refuse_card), the
    reason when he has played it."""
    if board.deal:
        if holder(board.deal, cd) != who:
            return ""
        if not play.holds(who, cd // 13) & 1 << (cd % 13):
            return t("played_card") % card_text(cd)
    elif play.played(cd):
        return t("played_card") % card_text(cd)
    return None


def trick_line(play, k):
    """The cards of trick k in columns N E S W: 'С♥К  В♥2  Ю♥5  З'."""
    out = ""
    for s in range(4):
        c = play.cards[k * 4 + s] - 1
        out += (seat(s) + (card_text(c) if c >= 0 else "") + "    ")[:5]
    return out.rstrip()


def declarer_side_tricks(play):
    s = play.declarer & 1
    return play.won(s), play.won(1 - s)


def irregularity_lines(play):
    """The DIRECTOR screen of a card held for the director: law, what happened, who, what."""
    law, offender, c = play.pending
    out = [t("td_alarm"), t("law") % law]
    out += wrap(play_rulings.describe(law, lang()))[:2]
    if offender >= 0 and c >= 0:
        out.append(seat(offender) + ": " + card_text(c))
    while len(out) < 5:
        out.append("")
    out.append(t("call_td"))
    out.append("DIR \u2192 PIN")
    return out


class PlayScreen:
    """The current trick and the seat to play; a card is its suit key, then its rank (2-9,
    0 = ten, ♣♦♥♠ = J Q K A). MENU: ♣♦♥♠ the next card is that seat's (out of turn), 1 a
    claim, 5 enter the tricks without the rest of the play, 2/3/4 as in every menu."""

    def __init__(self, board, seat=-1):
        self.board = board
        self.seat = seat  # the next card is this seat's (out of turn), else -1: in turn
        self.suit = -1
        self.menu = False

    def player(self, play):
        return self.seat if self.seat >= 0 else play.turn

    def key(self, app, k):
        play = self.board.get_play()
        if play.status != _PLAYING:  # a card held for the director, or a claim asked
            return app.refuse(t("td_wait") if k != keys.DIRECTOR else None)
        if self.menu:
            self.menu = False
            s = seat_key(k)
            if s >= 0:
                self.seat = s
                self.suit = -1
            elif k == 1:
                app.go(ClaimScreen(self.board))
            elif k == 5:
                self.board.skipped = True
                app.home()
            elif k != keys.BACK and not app.menu_key(k):
                self.menu = True
                app.refuse()
            return None
        if self.suit < 0:
            s = keys.strain(k)
            if 0 <= s <= 3:
                self.suit = s
            elif k == keys.MENU:
                self.menu = True
            elif k == keys.PASS:
                review(app, self.board)
            elif k == keys.BACK and self.seat >= 0:
                self.seat = -1
            else:
                app.refuse(t("play_help"))
            return None
        if k == keys.BACK:
            self.suit = -1
            return None
        rank = rank_key(k)
        if rank < 0:
            return app.refuse(t("honours"))
        return self.offer(app, play, self.suit * 13 + rank)

    def offer(self, app, play, cd):
        """Record the card, or refuse it with the reason; then what the engine made of it."""
        who = self.player(play)
        self.suit = -1
        why = card_problem(self.board, play, who, cd)
        if why == "":
            return refuse_card(app, self.board, who, cd)
        if why:
            return app.refuse(why)
        self.seat = -1
        revokes = len(play.revokes)
        app.commit("card", {"b": self.board.b, "s": who, "cd": cd})
        if play.status == PLAY_DIRECTOR:
            return app.irregular(self.board, play.pending[0])
        if len(play.revokes) > revokes:
            app.irregular(self.board, "61")
            return app.go(RevokeScreen(self.board, who, cd))
        app.click(play.status != _PLAYING)
        if play.status != _PLAYING:
            app.home()
        return None

    def lines(self, app):
        play = self.board.get_play()
        if play.status == PLAY_DIRECTOR:
            return irregularity_lines(play)
        if self.menu:
            return [t("menu"), t("m_play_seat"), t("m_claim"), t("m_boards"), t("m_lang"),
                    t("m_sound"), t("m_no_play")]
        k = play.trick
        shown = k
        if k > 0 and not any(play.cards[k * 4:k * 4 + 4]):
            shown = k - 1  # a new trick not begun: the last one stays in view
        mine, theirs = declarer_side_tricks(play)
        out = [board_title(self.board),
               contract_text(self.board.contract()) + "  " + t("tricks_won") % (mine, theirs),
               t("trick_no") % (shown + 1) +
               ("  " + t("trick_won") % seat(play.winners[shown] - 1)
                if shown < k else ""),
               trick_line(play, shown)]
        first = not self.board.plays  # the opening lead is not faced: the auction may be seen
        out.append(t("review_key") if first and not play.penalty else penalty_line(play))
        who = self.player(play)
        typed = suit(self.suit) + "_"
        head = t("card_by") % seat(who) if self.seat >= 0 else t("to_play") + " " + seat(who)
        out.append(head + ": " + typed)
        out.append(t("play_help") if self.suit < 0 else t("honours"))
        return out


def penalty_line(play):
    """The defenders' penalty cards on the table (Law 50), or an empty line."""
    if not play.penalty:
        return ""
    return t("penalty") + " " + " ".join(seat(p >> 7) + card_text(p & 63)
                                         for p in play.penalty)


class RevokeScreen:
    """A revoke the hand record shows (61): flagged for the director, who may have it
    corrected (62) while it is not established; OK goes on with the play."""

    def __init__(self, board, who, cd):
        self.board = board
        self.who = who
        self.cd = cd

    def key(self, app, k):
        if k == keys.OK:
            app.home()
        else:
            app.refuse()

    def lines(self, app):
        play = self.board.get_play()
        led = play.revokes[-1][2] if play.revokes else self.cd // 13
        out = [t("td_alarm"), t("law") % "61 " +
               play_rulings.describe("61", lang())]
        out.append(seat(self.who) + ": " + "%s (%s)" % (card_text(self.cd), suit(led)))
        out += ["", t("call_td"), "DIR \u2192 PIN", t("play_on")]
        return out


class ClaimScreen:
    """Law 68: a claim (68A: the player's side wins that many of the remaining tricks) or,
    UP/DOWN, a concession (68B1: it loses them); the player (♣♦♥♠ = N E S W, the declarer to
    start with) and the tricks, then OK asks the opponents: OK agreed (69A), BACK disputed
    (the director rules, 70), and when a defender conceded tricks (a claim of fewer than all
    concedes the rest) X: his partner objects at once (68B2: no concession, the play goes
    on, the director is called)."""

    def __init__(self, board):
        self.board = board
        play = board.get_play()
        self.claimer = play.declarer
        self.tricks = Digits(play.remaining())
        self.concession = 0
        self.asking = False  # the opponents are asked

    def key(self, app, k):
        play = self.board.get_play()
        s = seat_key(k)
        if self.asking:
            if k == keys.OK:
                self.record(app, 1)
                app.click(True)
                app.home()
            elif k == keys.BACK:
                self.record(app, 0)
                app.irregular(self.board, "70")
            elif k == keys.DOUBLE and self.objectable(play):
                self.record(app, 2)
                app.irregular(self.board, "68B2")
                app.note = t("call_td")  # the play goes on, but the director must come
            else:
                app.refuse()
        elif s >= 0:
            self.claimer = s
        elif k == keys.UP or k == keys.DOWN:
            self.concession ^= 1
        elif k == keys.OK and self.tricks.value >= 0:
            if not play.claimable():  # 68: the 13th trick's own cards are played, not claimed
                return app.refuse(t("claim_trick"))
            self.asking = True
        elif k == keys.BACK:
            if self.tricks.value >= 0:
                self.tricks.back()
            else:
                app.home()
        elif not self.tricks.key(k):
            app.refuse()
        return None

    def objectable(self, play):
        """A defender conceded tricks (a concession, or a claim of fewer than all: 68B1),
        which his partner may void at once (68B2)."""
        return play.concedes(self.claimer, self.tricks.value, self.concession) > 0

    def record(self, app, ok):
        data = {"b": self.board.b, "s": self.claimer, "tr": self.tricks.value, "ok": ok}
        if self.concession:
            data["con"] = 1
        app.commit("claim", data)

    def lines(self, app):
        play = self.board.get_play()
        who = t("conceder" if self.concession else "claimer") % seat(self.claimer)
        if self.asking:
            side = ("NS", "EW")[(self.claimer + self.concession) & 1]
            out = [t("claim_ask"), who, t("claim_side") % (side, self.tricks.value), "",
                   t("claim_yes"), t("claim_no")]
            if self.objectable(play):
                out.append(t("claim_object"))
            return out
        return [t("concession" if self.concession else "claim"),
                contract_text(self.board.contract()), who,
                t("claim_tricks") % (play.remaining(), self.tricks.text()), t("claim_kind"),
                t("claim_help"), t("ok_record")]
