"""The Bridgemate-style quick entry: contract, declarer and double without the auction.

Its own module so that the director's adjusted scores load the contract entry
(terminal.entry) without this screen.
"""

from hw import keys
from terminal.entry import ContractEntry
from terminal.screens import board_title
from terminal.ui_text import t


class QuickScreen:
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
