"""The contract typed without the auction, field by field: for the quick entry screen
(terminal.quick) and the director's assigned scores (terminal.adjust).

Its own module so that neither the auction (terminal.board_entry) nor what follows it
(terminal.board_result) carries it: the app keeps one group of screens in the heap at a time.
"""

from hw import keys
from terminal.screens import bid, contract_text, seat_key
from terminal.session import PASSED_OUT
from terminal.ui_text import seat, t


class ContractEntry:
    """A contract typed without the auction: level 1..7, strain, X/XX, declarer (♣♦♥♠ =
    N E S W), or PASS for a board passed out. Only contracts that can exist are accepted."""

    def __init__(self, allow_passed=True):
        self.level = 0
        self.strain = -1
        self.risk = 0
        self.dcl = -1
        self.passed = False
        self.allow_passed = allow_passed

    def key(self, k):
        """True if the key was taken, False if it is refused here."""
        if self.passed:
            if k == keys.BACK:
                self.passed = False
                return True
            return False
        if not self.level:
            if 1 <= k <= 7:
                self.level = k
            elif k == keys.PASS and self.allow_passed:
                self.passed = True
            else:
                return False
        elif self.strain < 0:
            if keys.strain(k) >= 0:
                self.strain = keys.strain(k)
            elif k == keys.BACK:
                self.level = 0
            else:
                return False
        elif k == keys.DOUBLE or k == keys.REDOUBLE:
            want = 1 if k == keys.DOUBLE else 2
            self.risk = 0 if self.risk == want else want
        elif k == keys.BACK:
            if self.dcl >= 0:
                self.dcl = -1
            elif self.risk:
                self.risk = 0
            else:
                self.strain = -1
        elif seat_key(k) >= 0 and self.dcl < 0:
            self.dcl = seat_key(k)
        else:
            return False
        return True

    def done(self):
        return self.passed or self.dcl >= 0

    def value(self):
        if self.passed:
            return PASSED_OUT
        return (bid(self.level, self.strain), self.risk, self.dcl)

    def text(self):
        if self.passed:
            return t("passed_out")
        if not self.level:
            return "_"
        out = str(self.level)
        if self.strain < 0:
            return out + "_"
        out = contract_text((bid(self.level, self.strain), self.risk, 0))
        out = out[:-2]
        return out + " " + (seat(self.dcl) if self.dcl >= 0 else "_")

    def prompt(self):
        if self.passed or self.dcl >= 0:
            return t("ok_record")
        if not self.level:
            return t("levels_po") if self.allow_passed else t("levels")
        if self.strain < 0:
            return "\u2663\u2666\u2665\u2660 " + t("nt")
        return t("risk_seat")
