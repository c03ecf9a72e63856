"""Director mode on the play: the options the Laws give for a card held by the engine (the
texts of bridge.play_rulings), a disputed claim with the remaining hands (70B3), and the
correction of a revoke that is not yet established (62).

An option that needs more is asked for before OK applies it: a suit (50D2, 57A3), the card
that supplies a defective trick (67A1), the tricks of a disputed claim (70). The entry is a
`pdir` record (docs/RECORDS.md); the engine decides whether it takes it.
"""

from bridge import play_rulings

from hw import keys
from terminal.rulings import TextScreen
from terminal.screens import Digits, card_text, rank_key, suit, wrap
from terminal.session import PLAY_DIRECTOR
from terminal.ui_text import lang, seat, t

REVOKE = "61"
_SUIT_ENTRIES = ("require", "forbid")  # with a suit (50D2a, 57A3)
_ESTABLISHED_OR_CORRECTED = 1 | 4  # bridge.play revoke flags ESTABLISHED | CORRECTED


def play_pending(board):
    """(law, seat, card, [(entry, paragraph, text)]) for the director on this board's play,
    or None: a card held by the engine, or a revoke that can still be corrected."""
    if not board.plays and board.play is None:
        return None
    play = board.get_play()
    if play is None:
        return None
    if play.status == PLAY_DIRECTOR:
        law, s, c = play.pending
        return law, s, c, play_rulings.options(law, lang())
    if play.status == "play":
        for r in play.revokes:
            if not r[3] & _ESTABLISHED_OR_CORRECTED:
                return REVOKE, r[1], -1, [("correct", "62B", t("revoke_fix"))]
    return None


class PlayRulingScreen(TextScreen):
    """A digit picks an option, then its suit, card or tricks if it needs one; OK applies."""

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
        self.suit = -1
        self.card_suit = -1
        self.card = -1
        self.tricks = None

    def body(self, app):
        law, _s, _c, options = play_pending(self.board)
        if self.choice >= 0:
            entry, paragraph, text = options[self.choice]
            out = wrap(str(self.choice + 1) + " " + text) + [paragraph]
            if self.suit >= 0:
                out.append(suit(self.suit))
            if self.card >= 0:
                out.append(card_text(self.card))
            return out
        out = wrap(play_rulings.describe(law, lang()))
        if law == "70":
            play = self.board.get_play()
            hands = play.remaining_hands()
            if hands:
                out.append(t("left"))
                for s in range(4):
                    out.append(seat(s) + " " + hands[s])
        for i in range(len(options)):
            out += wrap(str(i + 1) + " " + options[i][2])
        return out

    def needs(self):
        """What the chosen option still needs: 'suit', 'card', 'tricks' or None."""
        law, _s, _c, options = play_pending(self.board)
        entry = options[self.choice][0]
        if entry in _SUIT_ENTRIES and self.suit < 0:
            return "suit"
        if entry == "supply" and self.card < 0:
            return "card"
        if entry == "rule" and (self.tricks is None or self.tricks.value < 0):
            return "tricks"
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
                if options[self.choice][0] == "rule":
                    self.tricks = Digits(self.board.get_play().remaining())
            else:
                TextScreen.key(self, app, k)
            return None
        if k == keys.BACK:
            self.choice, self.suit, self.card_suit, self.card, self.tricks = -1, -1, -1, -1, None
            self.top = 0
        elif k == keys.OK and self.needs() is None:
            self.apply(app, options[self.choice][0])
        elif not self.detail_key(k):
            TextScreen.key(self, app, k)
        return None

    def detail_key(self, k):
        """A key that fills what the option needs; False if it does not."""
        need = self.needs()
        s = keys.strain(k)
        if need == "suit" and 0 <= s <= 3:
            self.suit = s
        elif need == "card" and self.card_suit < 0 and 0 <= s <= 3:
            self.card_suit = s
        elif need == "card" and rank_key(k) >= 0:
            self.card = self.card_suit * 13 + rank_key(k)
        elif self.tricks is not None:
            return self.tricks.key(k)
        else:
            return False
        return True

    def apply(self, app, entry):
        d = {"b": self.board.b, "d": entry}
        if self.suit >= 0:
            d["su"] = self.suit
        if self.card >= 0:
            d["cd"] = self.card
        if self.tricks is not None:
            d["tr"] = self.tricks.value
        if not app.commit("pdir", d):
            self.card_suit = self.card = -1
            return app.refuse(t("refused"))
        app.click(True)
        play = self.board.get_play()
        if play.status == PLAY_DIRECTOR:
            app.irregular(self.board, play.pending[0])
            app.go(PlayRulingScreen(self.board))
        else:
            app.home()
        return None

    def lines(self, app):
        if play_pending(self.board) is None:
            return [t("td_menu"), t("nothing"), "", "", "", "", t("back")]
        out = TextScreen.lines(self, app)
        if self.choice < 0:
            out[-1] = t("options")
            return out
        need = self.needs()
        if need == "suit":
            out[-1] = t("suit_ask")
        elif need == "card":
            out[-1] = t("card_ask") % (suit(self.card_suit) + "_")
        elif self.tricks is not None:
            out[-1] = t("tricks_ask") % self.tricks.text() + ("" if need else ", OK")
        else:
            out[-1] = t("apply")
        return out
