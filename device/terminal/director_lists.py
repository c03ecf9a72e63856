"""The director's lists: the flags raised in the session and the Law 26 lead restrictions shown
to the declarer; scrolled text screens (terminal.rulings), loaded from the director's menu
(terminal.director), which is forgotten meanwhile.
"""

from terminal.rulings import TextScreen
from terminal.screens import restrictions, suit, wrap
from terminal.ui_text import lang, seat, t

_WHY = {"dircall": "why_dircall", "wrong_board": "why_wrong_board",
        "played_before": "why_played_before", "out_of_order": "why_out_of_order",
        "dispute": "why_dispute", "irregular": "why_irregular",
        "card_refusals": "why_refusals"}


class FlagsScreen(TextScreen):
    def size(self, app):
        return len(app.session.flags)

    def window(self, app):
        """Only the flags on the screen are formatted: a long session has many."""
        out = []
        for b, law, why in app.session.flags[self.top:self.top + 5]:
            line = (t("brd") + str(b) if b else "-") + " "
            if law:
                line += t("law") % law + " "
            out.append((line + t(_WHY.get(why, "why_irregular")))[:21])
        return out or [t("no_flags")]


class RestrictScreen(TextScreen):
    """Law 26: the restrictions the declarer may impose, as the director shows them."""

    def __init__(self, title, board):
        TextScreen.__init__(self, title, board.b)
        self.board = board

    def body(self, app):
        board = self.board
        ct = board.contract()
        if not board.events or ct is None or ct[2] < 0:
            return [t("no_restrict")]
        from bridge import rulings_text  # loaded while drawn: App._arrive forgets it

        out = []
        for offender, law, mask in restrictions(board.get_auction(), ct[2]):
            suits = "".join(suit(s) for s in range(4) if mask >> s & 1)
            out.append(seat(offender) + ": " + law + " " + suits)
            out += wrap(rulings_text.text(law, lang()))
        return out or [t("no_restrict")]
