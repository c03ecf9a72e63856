"""Director mode on the play: the options the Laws give for a card held by the engine (the
texts of bridge.play_rulings), a disputed claim with the remaining hands (70B3); with no card
held, the correction of a revoke that is not yet established (62) and, while the engine
takes a claim (68: not in the middle of the last trick), a defender's concession his partner
objects to (68B2); after the play, until the result is verified (a verified one is erased
first), the entries of the correction period (79C): a withdrawn concession or agreement (71,
69B), a revoke found too late (64B4, 64B5), a card a player did not play to a trick (67B1),
the correction of a twelfth-trick revoke (62D1).

An option that needs more is asked for before OK applies it, in order: a seat (♣♦♥♠ = N E S
W), the tricks (70, 68B2, 71) or a trick's number (67B1), a suit (50D2, 57A3), a card (67A1,
51A, 67B1). The entry is a `pdir` record (docs/RECORDS.md); the engine decides whether it
takes it.
"""

from bridge import play_rulings

from hw import keys
from terminal.rulings import TextScreen
from terminal.screens import COLUMNS, Digits, card_text, rank_key, seat_key, suit, wrap
from terminal.session import PLAY_DIRECTOR
from terminal.ui_text import lang, seat, t

REVOKE = "61"
CONCESSION = "68"  # a defender's concession, objected to (68B2)
AFTER = "79C"  # after the play, before the result is verified: the correction period
_ESTABLISHED = 1  # bridge.play revoke flags ESTABLISHED, CORRECTED, WAIVED (64B4, 64B5)
_ESTABLISHED_OR_CORRECTED = 1 | 4
_SETTLED = 1 | 4 | 16


def play_pending(board):
    """(law, seat, card, [(entry, paragraph, text)]) for the director on this board's play,
    or None: a card held by the engine; else in play a revoke that can still be corrected
    and, between tricks, an objected concession; else after the play, while the result is
    not verified, the entries that still apply."""
    if not board.plays and board.play is None:
        return None
    play = board.get_play()
    if play is None:
        return None
    if play.status == PLAY_DIRECTOR:
        law, s, c = play.pending
        return law, s, c, play_rulings.options(law, lang())
    law, s, out = CONCESSION, -1, []
    if play.status == "play":
        for r in play.revokes:
            if not r[3] & _ESTABLISHED_OR_CORRECTED:
                law, s, out = REVOKE, r[1], [("correct", "62B", t("revoke_fix"))]
                break
        if play.claimable():
            out += play_rulings.options(CONCESSION, lang())
    elif play.status == "ended" and not board.verified:
        law = AFTER
        late = any(r[3] & _SETTLED == _ESTABLISHED for r in play.revokes)
        for o in play_rulings.options(AFTER, lang()):
            if (o[0] == "withdraw" and play.claim is not None) or \
                    (o[0] == "defective" and "67B" in play.flags) or \
                    (o[0] == "correct" and "62D" in play.flags) or \
                    (o[0] in ("64B4", "64B5") and late):
                out.append(o)
    return (law, s, -1, out) if out else None


def asks(law, entry):
    """What an option needs before OK, in the order it is asked for."""
    if entry in ("require", "forbid"):
        return ("suit",)  # 50D2a, 57A3
    if entry in ("supply", "designate"):
        return ("card",)  # 67A1; 51A: another of his penalty cards
    if entry == "rule":
        return ("tricks",)  # 70
    if entry == "object" or (entry == "withdraw" and law == AFTER):
        return ("seat", "tricks")  # 68B2: who conceded; 71/69B: the side that gets them
    if entry == "defective":
        return ("seat", "trick", "card")  # 67B1
    return ()


class PlayRulingScreen(TextScreen):
    """A digit picks an option, then what it needs (asks); OK applies."""

    def __init__(self, board):
        law, s, c, _options = play_pending(board)
        title = t("law") % law
        if s >= 0:
            title += " " + seat(s)
            if c >= 0:
                title += ":" + card_text(c)
        TextScreen.__init__(self, title)
        self.board = board
        self.choice = -1
        self.seat = -1
        self.suit = -1
        self.card_suit = -1
        self.card = -1
        self.tricks = None  # the tricks (70, 68B2, 71) or the trick's number (67B1)

    def body(self, app):
        """The options a line each (the digit and the first words), so that all fit on one
        screen, as rulings.RulingScreen has them; the digit of one gives the law's text, the
        option's in full and its paragraph, scrolled, with what it still needs."""
        law, _s, _c, options = play_pending(self.board)
        if self.choice >= 0:
            entry, paragraph, text = options[self.choice]
            out = wrap(play_rulings.describe(law, lang())) + wrap(
                str(self.choice + 1) + " " + text) + [paragraph]
            if self.seat >= 0:
                out.append(seat(self.seat))
            if self.suit >= 0:
                out.append(suit(self.suit))
            if self.card >= 0:
                out.append(card_text(self.card))
            return out
        out = []
        for i in range(len(options)):
            text = play_rulings.short(law, options[i][0], lang()) or options[i][2]
            out.append(("%d %s" % (i + 1, text))[:COLUMNS])
        if law == "70":  # the claim's remaining hands, for the director's judgment
            play = self.board.get_play()
            hands = play.remaining_hands()
            if hands:
                out.append(t("left"))
                for s in range(4):
                    out.append(seat(s) + " " + hands[s])
        return out

    def needs(self):
        """What the chosen option still needs (an item of asks), or None."""
        law, _s, _c, options = play_pending(self.board)
        for need in asks(law, options[self.choice][0]):
            if (need == "seat" and self.seat < 0) or (need == "suit" and self.suit < 0) or \
                    (need == "card" and self.card < 0) or \
                    (need == "tricks" and self.tricks.value < 0) or \
                    (need == "trick" and self.tricks.value < 1):
                return need
        return None

    def key(self, app, k):
        got = play_pending(self.board)
        if got is None:
            return app.home()
        options = got[3]
        if self.choice < 0:
            if 1 <= k <= len(options):
                self.choice = k - 1
                self.top = 0
                need = asks(got[0], options[self.choice][0])
                if "trick" in need:
                    self.tricks = Digits(13)
                elif "tricks" in need:
                    self.tricks = Digits(self.board.get_play().remaining())
            else:
                TextScreen.key(self, app, k)
            return None
        if k == keys.BACK:
            self.choice = self.seat = self.suit = self.card_suit = self.card = -1
            self.tricks = None
            self.top = 0
        elif k == keys.OK and self.needs() is None:
            self.apply(app, got[0], options[self.choice][0])
        elif not self.detail_key(k):
            TextScreen.key(self, app, k)
        return None

    def detail_key(self, k):
        """A key that fills what the option needs; False if it does not. Digits go on to the
        number until a card's suit is chosen (trick 10-13 of 67B1)."""
        need = self.needs()
        s = keys.strain(k)
        if need == "seat" and seat_key(k) >= 0:
            self.seat = seat_key(k)
        elif need == "suit" and 0 <= s <= 3:
            self.suit = s
        elif need == "card" and self.card_suit < 0 and 0 <= s <= 3:
            self.card_suit = s
        elif need == "card" and self.card_suit >= 0 and rank_key(k) >= 0:
            self.card = self.card_suit * 13 + rank_key(k)
        elif self.tricks is not None and need != "seat" and self.card_suit < 0:
            return self.tricks.key(k)
        else:
            return False
        return True

    @staticmethod
    def why_not(d):
        """Why the engine refused the entry d, in the director's words: the detail he gave
        that does not fit the matter (the card, trick, tricks, seat or suit), else the
        option itself is not open now."""
        if "cd" in d:
            return t("pd_card") % card_text(d["cd"])
        if "t" in d:
            return t("pd_trick") % (d["t"] + 1)
        if "tr" in d:
            return t("pd_tricks") % d["tr"]
        if "s" in d:
            return t("pd_seat") % seat(d["s"])
        if "su" in d:
            return t("pd_suit") % suit(d["su"])
        return t("pd_option")

    def apply(self, app, law, entry):
        d = {"b": self.board.b, "d": entry}
        if self.seat >= 0:
            d["s"] = self.seat
        if self.suit >= 0:
            d["su"] = self.suit
        if self.card >= 0:
            d["cd"] = self.card
        if self.tricks is not None:
            if "trick" in asks(law, entry):
                d["t"] = self.tricks.value - 1
            else:
                d["tr"] = self.tricks.value
        if not app.commit("pdir", d):
            self.card_suit = self.card = -1
            return app.refuse(self.why_not(d))
        app.click(True)
        play = self.board.get_play()
        if play.status == PLAY_DIRECTOR:
            app.irregular(self.board, play.pending[0])
            app.go(PlayRulingScreen(self.board))
        else:
            app.home()
        return None

    def lines(self, app):
        got = play_pending(self.board)
        if got is None:
            return [t("td_menu"), t("nothing"), "", "", "", "", t("back")]
        out = TextScreen.lines(self, app)
        if self.choice < 0:
            out[-1] = t("options")
            return out
        need = self.needs()
        if need == "seat":
            out[-1] = t("seat_ask")
        elif need == "suit":
            out[-1] = t("suit_ask")
        elif self.tricks is not None and (need in ("trick", "card") or self.card >= 0):
            typed = card_text(self.card) if self.card >= 0 else suit(self.card_suit) + "_"
            out[-1] = t("trick_ask") % (self.tricks.text(), typed)  # 67B1: both on one line
        elif need == "card":
            out[-1] = t("card_ask") % (suit(self.card_suit) + "_")
        elif self.tricks is not None and got[0] == "70":  # for the side that claimed or conceded
            receiving, _n, conceder = self.board.get_play().claim
            own = receiving if conceder < 0 else 1 - receiving
            out[-1] = t("claim_side") % (("NS", "EW")[own], self.tricks.text())
        elif self.tricks is not None:
            out[-1] = t("tricks_ask") % self.tricks.text() + ("" if need else ", OK")
        else:
            out[-1] = t("apply")
        return out
