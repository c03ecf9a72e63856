"""What is typed on a board's screens and the director's alike: a contract without the
auction, the tricks won by declarer, and the Law 26 lead restrictions of the auction.

Its own module so that the director's screens (terminal.director) need not load the board's
(terminal.board_entry): the app keeps one group of screens in the heap at a time.
"""

from hw import keys
from terminal.screens import Digits, bid, contract_text, level_of, seat_key, tricks_text
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
            return "1-7" + (", " + t("pass_po") if self.allow_passed else "")
        if self.strain < 0:
            return "\u2663\u2666\u2665\u2660 " + t("nt")
        return "X/XX, " + t("seat_keys")


class TricksEntry:
    """Tricks won by declarer: typed as a total (0..13) or stepped with UP/DOWN from the
    contract (=, +1, -1 ...); impossible values are refused."""

    def __init__(self, ct, value=-1):
        self.ct = ct
        self.digits = Digits(13, value)

    def key(self, k):
        d = self.digits
        if k == keys.UP or k == keys.DOWN:
            step = 1 if k == keys.UP else -1
            if d.value < 0:
                d.value = level_of(self.ct[0]) + 6
            elif 0 <= d.value + step <= 13:
                d.value += step
            else:
                return False
            return True
        if k == keys.BACK and d.value >= 0:
            d.back()
            return True
        return d.key(k)

    def value(self):
        return self.digits.value

    def text(self):
        v = self.digits.value
        if v < 0:
            return "_"
        return str(v) + " (" + tricks_text(self.ct, v) + ")"


def restrictions(auction, dcl):
    """Law 26 restrictions of a defender (offender on the defending side)."""
    return [r for r in auction.lead if (r[0] & 1) != (dcl & 1)]
