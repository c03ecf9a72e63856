"""The terminal application: a state machine driven by key events and a millisecond clock.

`App(journal, config)` rebuilds its state from the journal (terminal.store), then takes key
events (`key(event, now)`, events of hw.keypad) and the clock (`tick(now)`). It never touches
hardware: it says what to show (`lines()`, drawn by `draw(fb)` into any FrameBuffer), what
to sound (`beep`, a hw.buzzer pattern the main loop plays and clears) and whether the
director is awaited (`alert()`, the red LED). Every fact is a journal record written before
the state changes (`commit`), so what the screen confirmed survives a power cut.
"""

import gc
import sys

import terminal
from hw import buzzer, display, keys, text
from hw.keys import KEY_MASK, KIND_MASK, PRESS, REPEAT
from hw.ticks import ticks_diff
from terminal import const, store, ui_text
from terminal.screens import COLUMNS, ROWS, Confirm
from terminal.session import (
    AUCTION,
    DONE,
    LEAD,
    LEAD_MODE,
    OUT_OF_ORDER,
    PLAY,
    PLAY_DIRECTOR,
    PLAY_MODE,
    TRICKS,
    VERIFY,
    Session,
)
from terminal.ui_text import t

_ENOSPC = const(28)  # errno of a full filesystem (littlefs and FAT on the board, CPython)
_DIRECTOR_TIMEOUT_MS = const(120000)  # director mode closes after two minutes without a key


class App:
    def __init__(self, journal, config):
        self.journal = journal
        self.config = config
        # the folder of the journal and the pushed files (travellers.cbor)
        self.folder = journal.path.rsplit("/", 1)[0] if "/" in journal.path else "."
        self.session = Session(config)
        store.rebuild(self.session, journal)
        ui_text.set_lang(config.settings["lang"])
        self.director = False  # director mode is open (after the PIN)
        self.note = None  # a message on the last line until the next key
        self.beep = None  # the buzzer pattern to play, taken by the main loop
        self.sound = True
        self.boards_done = 0  # boards finished since start-up (heap samples are taken there)
        self.syncing = False  # the sync station is talking to the terminal (main.py)
        self.link = None  # its link (main.py), where terminal.pairing opens a pairing
        self.called = False  # the director was called (DIR OK, an irregularity): until he opens
        # director mode the red LED blinks (not kept over a power cut: the flag is)
        self._last_key = 0
        self.screen = None
        self.next = None  # the screen to show once the key is handled (show, home)
        self.forget_hands()  # again after a power cut between a `close` and its forgetting
        self.home()
        self._arrive()

    # -- input -------------------------------------------------------------------------------

    def key(self, event, now=0):
        """Handle one keypad event; True when the screen may have changed. (A release, half
        of all events, returns here: `_press`'s frame is heap-sized, terminal.cbor's note.)"""
        kind, k = event & KIND_MASK, event & KEY_MASK
        if not (kind == PRESS or (kind == REPEAT and k in (keys.UP, keys.DOWN, keys.BACK))):
            return False
        return self._press(k, now)

    def _press(self, k, now):
        if self.syncing:  # nothing is recorded while the station reads the journal
            self.beep = buzzer.ERROR
            return True
        self.note = None
        self._last_key = now
        try:
            if k == keys.DIRECTOR and not self.director:
                self.show("director", "PinScreen")
            else:
                self.screen.key(self, k)
        except OSError as e:  # the journal could not store a record: nothing was applied
            # ENOSPC: the flash is full; a sync compacts the journal and makes room
            self.refuse(t("flash_full") if e.args and e.args[0] == _ENOSPC else
                        t("write_error"))
        self._arrive()
        return True

    def tick(self, now):
        """The clock: director mode closes when left open. True when the screen changed."""
        if self.director and ticks_diff(now, self._last_key) > _DIRECTOR_TIMEOUT_MS:
            self.home()
            self._arrive()
            return True
        return False

    # -- what screens ask ----------------------------------------------------------------------

    def commit(self, kind, data):
        """Store a record in the journal, then apply it; False if the Laws engine refused
        the call or director's entry (it is journaled all the same: the host replays it)."""
        seq = self.journal.append(kind, data)
        was_done = self._board_done()
        result = self.session.apply(kind, data, seq)
        if kind == "close":
            self.forget_hands()
        if not was_done and self._board_done():
            self.boards_done += 1
        return result is not False

    def _board_done(self):
        """The board being played is done (its score shown)."""
        cur = self.session.current
        return cur is not None and cur.phase(self.mode()) == DONE

    def forget_hands(self):
        """A closed round's hand records go, from RAM and from the configuration file
        (Config.forget): the terminal holds no deal of a round it has played. A board that
        the next round brings back to this table keeps its hand (the host pushed it for
        that round). The freed blocks are collected at once. Never raises: the `close` is
        journaled already."""
        s = self.session
        row = self.config.round(self.config.next_round(s.closed))
        again = range(row[2], row[3] + 1) if row else ()
        try:
            if self.config.forget([b for b in s.closed_boards() if b not in again]):
                gc.collect()
        except OSError:  # the file could not be rewritten (a full flash): RAM has forgotten,
            pass  # and the next start-up rewrites it

    def go(self, screen):
        self.screen = screen
        self.next = None

    def show(self, module, name, *args):
        """Go to the screen class `name` of the screen module terminal.<module>, built with
        args once the key is handled: the screens left behind (and their module, if no other
        screen needs it) are freed before the new module loads."""
        self.screen = None
        self.next = (module, name, args)

    def home(self):
        """The screen the state calls for (chosen once the key is handled); it also closes
        director mode."""
        self.director = False
        self.show(None, None)

    def _arrive(self):
        """Build the screen that show() asked for, if it did (asked at every key and draw:
        `_build`'s frame is heap-sized, terminal.cbor's note)."""
        if self.next is not None:
            self._build()

    def _build(self):
        """Build the screen that show() asked for, or after home() the one the session's state
        calls for."""
        module, name, args = self.next
        self.next = None
        board = self.session.current
        if module is None and not self.session.round:
            module, name = "round_ui", "StartScreen"
        elif module is None and board is None:
            module, name, args = "overview", "RoundScreen", (self,)
        elif module is None:
            phase = board.phase(self.mode())
            args = (board,)
            if phase == AUCTION and self.config.settings["auction"]:
                module, name = "board_entry", "AuctionScreen"
            elif phase == AUCTION:
                module, name = "quick", "QuickScreen"
            elif phase == PLAY:
                module, name = "play_entry", "PlayScreen"
            else:
                module = "board_result"
                name = ("LeadScreen", "TricksScreen", "VerifyScreen", "ScoreScreen")[
                    (LEAD, TRICKS, VERIFY, DONE).index(phase)]
        # The other screen modules are forgotten (each is freed once no screen of it is
        # shown), with the modules they import (loaded again by the next that needs one), and
        # freed before this one loads: the heap holds one group of screens at a time. So are
        # the Laws' texts, which the irregularity and ruling screens import when they draw.
        screens = ("round_ui overview board_entry board_result entry quick director "
                   "director_lists rulings adjust traveller play_entry play_director pairing")
        terminal.forget(["terminal.%s" % m for m in screens.split() if m != module] +
                        ["bridge.rulings_text"])
        full = "terminal.%s" % module
        if full not in sys.modules:
            if terminal.SCARCE_HEAP:
                gc.collect()
            __import__(full)
        self.screen = getattr(sys.modules[full], name)(*args)

    def go_round(self):
        if self.session.round:
            self.show("overview", "RoundScreen", self)
        else:
            self.refuse()

    def mode(self):
        """What the settings ask after the auction: LEAD_MODE | PLAY_MODE (session)."""
        s = self.config.settings
        return (LEAD_MODE if s["lead"] == 1 else 0) | (PLAY_MODE if s["play"] == 1 else 0)

    def refuse(self, why=None):
        self.beep = buzzer.ERROR
        if why:
            self.note = why

    def click(self, done=False):
        """The click of a key taken, or the confirmation of a record done."""
        self.beep = buzzer.CONFIRM if done else buzzer.CLICK

    def irregular(self, board, law=None):
        """An irregular call or card (`law`, else the auction's pending one): flag it for the
        director and sound the alarm."""
        if law is None:
            law = board.get_auction().pending[2]
        self.commit("flag", {"b": board.b, "law": law, "why": "irregular"})
        self.beep = buzzer.DIRECTOR
        self.called = self.called or not self.director  # unless he is at the table
        self.home()

    def alert(self):
        """True while an irregularity waits for the director or he was called and has not
        come yet (the red LED blinks)."""
        board = self.session.current
        return self.called or board is not None and (
            (board.auction is not None and board.auction.status == "director") or
            (board.play is not None and board.play.status == PLAY_DIRECTOR))

    def menu_key(self, k):
        """Menu entries shared by every menu: 2 boards, 3 language, 4 sound."""
        if k == 2:
            self.go_round()
        elif k == 3:
            ui_text.set_lang("en" if ui_text.lang() == "ru" else "ru")
        elif k == 4:
            self.sound = not self.sound
        else:
            return False
        return True

    # -- boards --------------------------------------------------------------------------------

    def start_board(self, b, why=None):
        """Start board b; out of order or against Law 15 the players confirm first (OK calls
        this again with the finding, `why`) and the director gets a flag."""
        s = self.session
        finding = why
        if why is None:
            if s.current is not None and s.current.b == b:
                return self.home()
            finding = s.check_board(b, self.mode())
            if finding is not None:
                text_ = t(finding)
                if finding != OUT_OF_ORDER:
                    text_ += " " + t("law15")
                self.beep = buzzer.ERROR
                self.screen = Confirm(t("brd") + str(b), text_,
                                      lambda app: app.start_board(b, finding), App.go_round)
                return None
        self.commit("board", {"b": b})
        if finding is not None:
            self.commit("flag", {"b": b, "law": None if finding == OUT_OF_ORDER else "15",
                                 "why": finding})
        self.click()
        return self.home()

    # -- output --------------------------------------------------------------------------------

    def lines(self):
        """The 7 lines of the screen, each at most 21 characters."""
        self._arrive()
        if self.syncing:
            return [t("syncing"), "", t("sync_help"), "",
                    t("sync_recs") % (self.journal.last - self.journal.base), "", ""]
        out = self.screen.lines(self)[:ROWS]
        while len(out) < ROWS:
            out.append("")
        if self.note:
            out[ROWS - 1] = self.note
        for i in range(ROWS):
            if len(out[i]) > COLUMNS:
                out[i] = out[i][:COLUMNS]
        return out

    def inverted(self):
        """Bit mask of the lines drawn inverted: the title bar, and a message."""
        self._arrive()
        if self.syncing:
            return 1
        inv = getattr(self.screen, "inverted", 1)  # the title bar, unless the screen says
        return inv | ((1 << (ROWS - 1)) if self.note else 0)

    def draw(self, fb, before=None):
        """Draw the screen into fb: every line, or with `before` (what draw returned last
        time, for the same fb) only the characters that changed. Returns (lines, inverted,
        windows): the display's address windows over what was drawn (hw.display's
        add_window: a line's, or lines' that share a page when joined they cost less), which
        hw.ssd1306 sends alone: on the board a whole screen is 1 KB over I2C, ~25 ms at
        400 kHz, three characters of a line 36 bytes."""
        inv = self.inverted()
        lines = self.lines()
        windows = []
        for i in range(ROWS):
            full = before is None or (before[1] ^ inv) >> i & 1
            if full or before[0][i] != lines[i]:
                start, end = text.draw_line(fb, lines[i], i, inv >> i & 1,
                                            None if full else before[0][i])
                if start < end:
                    display.add_window(windows, i * text.LINE // 8,
                                       (i * text.LINE + text.LINE - 1) // 8, start, end)
        return lines, inv, windows
