"""Director mode, behind a PIN: the menu of a board of the session (the open round's, or a
closed round's in the correction period, Law 79C) and erasing a result. The flags and the
Law 26 lead restrictions (terminal.director_lists), a ruling (terminal.rulings,
terminal.play_director) and an adjusted score (terminal.adjust) load their own modules, and
this one is forgotten meanwhile.

Loaded only when DIR is pressed, so the rest of the session does not carry it in RAM.
"""

from hw import keys
from hw.ticks import ticks_diff
from terminal import const
from terminal.screens import Confirm
from terminal.session import Board
from terminal.ui_text import t

_TRIES = const(5)  # wrong PINs in a row before the keypad stops taking PINs
_LOCK_MS = const(300000)  # for five minutes of running, then one more try at a time


def locked(app):
    """The milliseconds the PIN stays locked (0: it is not): after _TRIES wrong PINs in a
    row, from the key that made the last of them, or after a power cut from the first key
    that finds it locked (the count is in the journal, the time is not: a power cut starts
    the wait again, never shortens it). The time is the key's (App sets it before the
    screen sees the key)."""
    s, now = app.session, app._last_key
    if s.bad_pins < _TRIES:
        return 0
    if s.locked_at is None:
        s.locked_at = now
    return max(0, _LOCK_MS - ticks_diff(now, s.locked_at))


class PinScreen:
    """DIR: OK alone calls the director (a flag); a PIN and OK opens director mode. Every
    PIN tried is journaled (`td`: docs/RECORDS.md), right or wrong, and the host lists them
    (`host-sync flags`); after _TRIES wrong ones in a row the PIN is locked (locked())."""

    def __init__(self):
        self.pin = ""

    def key(self, app, k):
        if 0 <= k <= 9 and len(self.pin) < 8 and not locked(app):
            self.pin += str(k)
        elif k == keys.BACK:
            if self.pin:
                self.pin = self.pin[:-1]
            else:
                app.home()
        elif k == keys.OK:
            if not self.pin:
                cur = app.session.current
                app.commit("flag", {"b": cur.b if cur else None, "law": None, "why": "dircall"})
                app.called = True
                app.home()
                app.note = t("td_called")
            elif app.config.pin_ok(self.pin):
                app.commit("td", {"ok": 1})
                app.director = True
                app.called = False
                app.go(MenuScreen(app))
            else:
                self.pin = ""
                s = app.session
                lock = s.bad_pins + 1 >= _TRIES
                app.commit("td", {"ok": 0, "lock": 1} if lock else {"ok": 0})
                if lock:
                    s.locked_at = app._last_key
                app.refuse(t("td_bad_pin"))
        else:
            app.refuse()

    def lines(self, app):
        left = locked(app)
        if left:
            return [t("director"), "", t("td_call_ok"), t("td_locked"),
                    t("td_lock_why") % app.session.bad_pins,
                    t("td_lock_left") % ((left + 59999) // 60000), t("td_lock_host")]
        return [t("director"), "", t("td_call_ok"), t("td_pin_help"), "",
                t("td_pin") % ("*" * len(self.pin) + "_"), t("back")]


def pending(app, b):
    """The irregularity of board b the director may rule on, a call or else a card: (screen
    module, screen, law), or None."""
    board = app.session.boards.get(b)
    if board is None:
        return None
    if board.events and board.get_auction().status == "director":
        return "rulings", "RulingScreen", board.get_auction().pending[2]
    if not board.plays:
        return None
    # Only when the play is recorded; imported beside this menu (App._arrive would forget it).
    from terminal.play_director import play_pending

    play = play_pending(board)
    return ("play_director", "PlayRulingScreen", play[0]) if play else None


class MenuScreen:
    """The director's menu for a board of the session (UP/DOWN chooses it): b is a board of
    the open round (the current one when None), or a board played here in a closed round,
    as its entry of the session's history (b << 20 | ns << 10 | ew: always above a board
    number). Until the session ends, the director corrects a closed round's result in the
    correction period (Law 79C), adjusts its score or deletes it: each a `fix` record with
    the pairs, which the host files under the round they played the board in (2, 3, 4).
    Once the host has closed the correction period (`cc` in the configuration the last sync
    pushed) a closed round's board is shown and these keys are refused, saying why."""

    def __init__(self, app, b=None):
        cur = app.session.current
        self.b = b if b is not None else cur.b if cur else 0

    def board(self, app):
        """The Board chosen: of the open round, or one made for a closed round's board and
        marked `played` (its history entry); None when there is none."""
        b = self.b
        if b >> 20:
            got = Board(b >> 20, *app.config.board(b >> 20))
            got.played = b
            return got
        return app.session.boards.get(b)

    def key(self, app, k):
        board = self.board(app)
        if k == keys.BACK:
            app.home()
        elif k == keys.UP or k == keys.DOWN:
            order = sorted(app.session.boards) + sorted(app.session.history)  # by board
            if self.b in order:
                self.b = order[(order.index(self.b) + (1 if k == keys.DOWN else -1)) %
                               len(order)]
            elif order:
                self.b = order[0 if k == keys.DOWN else -1]
        elif k == 1:
            app.show("director_lists", "FlagsScreen", t("flags"), self.b)
        elif k == 6:
            app.show("pairing", "PairScreen", app)  # the station's key: terminal.pairing
        elif board is None:
            app.refuse()
        elif self.b >> 20 and 2 <= k <= 4 and app.config.corrections_closed:
            app.refuse(t("td_cc_over"))  # the host closed the correction period (79C)
        elif k == 2 and self.b >> 20:
            app.show("adjust", "AssignScreen", board, "res")
        elif k == 2 and pending(app, self.b):
            ruling = pending(app, self.b)
            app.show(ruling[0], ruling[1], board)
        elif k == 3:
            app.show("adjust", "AdjustScreen", board)
        elif k == 4:
            if not self.b >> 20 and board.tricks < 0 and board.adj is None:
                app.refuse(t("nothing"))
            else:
                app.go(Confirm(t("erase_ask"), t("brd") + str(board.b), self.erase,
                               lambda app: app.go(self)))
        elif k == 5 and not self.b >> 20:
            app.show("director_lists", "RestrictScreen", t("restrict"), board)
        else:
            app.refuse()

    def erase(self, app):
        b = self.b
        if b >> 20:
            app.commit("fix", {"b": b >> 20, "pr": [b >> 10 & 1023, b & 1023],
                               "how": "erase"})
        else:
            app.commit("erase", {"b": b})
        app.go(self)
        app.note = t("erased")

    def lines(self, app):
        b = self.b
        if b >> 20:  # a closed round's board: the pairs who played it here
            head = [t("td_menu") + " " + t("brd_pairs") % (b >> 20, b >> 10 & 1023, b & 1023),
                    t("td_flags") % len(app.session.flags)]
            if app.config.corrections_closed:  # nothing to change any more: say why
                return head + ["", t("td_cc_1"), t("td_cc_2"), "", t("td_board")]
            return head + [t("td_fix"), t("td_adjust"), t("td_erase"), t("td_closed"),
                           t("td_board")]
        ruling = pending(app, b)
        law = ruling[2] if ruling else None
        return [t("td_menu") + " " + t("brd") + (str(b) if b else "-"),
                t("td_flags") % len(app.session.flags),
                (t("td_rule") % law) if law else "",
                t("td_adjust"), t("td_erase"), t("td_restrict"), t("td_board")]
