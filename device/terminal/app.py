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
from hw import buzzer, keys, text
from hw.keys import KEY_MASK, KIND_MASK, PRESS, REPEAT
from hw.ticks import ticks_diff
from terminal import store, ui_text
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

DIRECTOR_TIMEOUT_MS = 120000  # director mode closes after two minutes without a key
_REPEATING = (keys.UP, keys.DOWN, keys.BACK)
# The modules of screens, loaded by App.use when a screen is shown, with what each needs of
# the others; the rest are forgotten then, so the heap holds one group of screens at a time.
_SCREENS = {"round_ui": (), "board_entry": ("entry",), "entry": (), "director": ("entry",),
            "traveller": (), "play_entry": (), "play_director": ("director", "entry")}
# Imported by the screens that draw a Law's text, and forgotten with the screens.
_LAW_TEXTS = "bridge.rulings_text"


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
        self._last_key = 0
        self.screen = None
        self._next = None  # the screen to show once the key is handled (show, home)
        self.home()
        self._arrive()

    # -- input -------------------------------------------------------------------------------

    def key(self, event, now=0):
        """Handle one keypad event; True when the screen may have changed."""
        kind, k = event & KIND_MASK, event & KEY_MASK
        if not (kind == PRESS or (kind == REPEAT and k in _REPEATING)):
            return False
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
        except OSError:  # the journal could not store a record: nothing was applied
            self.refuse(t("write_error"))
        self._arrive()
        return True

    def tick(self, now):
        """The clock: director mode closes when left open. True when the screen changed."""
        if self.director and ticks_diff(now, self._last_key) > DIRECTOR_TIMEOUT_MS:
            self.home()
            self._arrive()
            return True
        return False

    # -- what screens ask ----------------------------------------------------------------------

    def commit(self, kind, data):
        """Store a record in the journal, then apply it; False if the Laws engine refused
        the call or director's entry (it is journaled all the same: the host replays it)."""
        seq = self.journal.append(kind, data)
        was_done = self.session.current is not None and \
            self.session.current.phase(self.mode()) == DONE
        result = self.session.apply(kind, data, seq)
        cur = self.session.current
        if cur is not None and not was_done and cur.phase(self.mode()) == DONE:
            self.boards_done += 1
        return result is not False

    def go(self, screen):
        self.screen = screen
        self._next = None

    def show(self, module, name, *args):
        """Go to the screen class `name` of the screen module terminal.<module>, built with
        args once the key is handled: the screens left behind (and their module, if no other
        screen needs it) are freed before the new module loads."""
        self.screen = None
        self._next = (module, name, args)

    def home(self):
        """The screen the state calls for (chosen once the key is handled); it also closes
        director mode."""
        self.director = False
        self.show(None, None)

    def _arrive(self):
        """Build the screen that show() or home() asked for."""
        if self._next is None:
            return
        module, name, args = self._next
        self._next = None
        if module is None:
            module, name, args = self._home()
        self.screen = getattr(self.use(module), name)(*args)

    def _home(self):
        """(module, class, args) of the screen the session's state calls for."""
        s = self.session
        board = s.current
        if not s.round:
            return "round_ui", "StartScreen", ()
        if board is None:
            return "round_ui", "RoundScreen", (self,)
        phase = board.phase(self.mode())
        if phase == AUCTION:
            name = "AuctionScreen" if self.config.settings["auction"] else "QuickScreen"
        elif phase == PLAY:
            return "play_entry", "PlayScreen", (board,)
        else:
            name = ("LeadScreen", "TricksScreen", "VerifyScreen", "ScoreScreen")[
                (LEAD, TRICKS, VERIFY, DONE).index(phase)]
        return "board_entry", name, (board,)

    def use(self, name):
        """The screen module terminal.<name>, loaded if need be; the screen modules it does
        not need are forgotten (each is freed once no screen of it is shown), and freed
        before a module is loaded. So are the Laws' texts, which the irregularity and ruling
        screens import when they draw."""
        terminal.forget(["terminal." + m for m in _SCREENS
                         if m != name and m not in _SCREENS[name]] + [_LAW_TEXTS])
        full = "terminal." + name
        if full not in sys.modules:
            if terminal.SCARCE_HEAP:
                gc.collect()
            __import__(full)
        return sys.modules[full]

    def go_back(self):
        self.home()

    def go_round(self):
        if self.session.round:
            self.show("round_ui", "RoundScreen", self)
        else:
            self.refuse()

    def leave_director(self, module=None, name=None, *args):
        """Close director mode on the screen the state calls for, or on the one given (as
        show() takes it)."""
        self.home()
        if module is not None:
            self.show(module, name, *args)

    def mode(self):
        """What the settings ask after the auction: LEAD_MODE | PLAY_MODE (session)."""
        s = self.config.settings
        return (LEAD_MODE if s["lead"] == 1 else 0) | (PLAY_MODE if s["play"] == 1 else 0)

    def refuse(self, why=None):
        self.beep = buzzer.ERROR
        if why:
            self.note = why

    def say(self, text_):
        self.note = text_

    def click(self, recorded=False):
        self.beep = buzzer.CONFIRM if recorded else buzzer.CLICK

    def irregular(self, board, law=None):
        """An irregular call or card (`law`, else the auction's pending one): flag it for the
        director and sound the alarm."""
        if law is None:
            law = board.get_auction().pending[2]
        self.commit("flag", {"b": board.b, "law": law, "why": "irregular"})
        self.beep = buzzer.DIRECTOR
        self.home()

    def alert(self):
        """True while an irregularity waits for the director (the red LED blinks)."""
        board = self.session.current
        return board is not None and (
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

    def start_board(self, b):
        """Start board b; out of order or against Law 15 the players confirm first and the
        director gets a flag."""
        s = self.session
        if s.current is not None and s.current.b == b:
            return self.home()
        finding = s.check_board(b, self.mode())
        if finding is None:
            return self._start(b, None)
        text_ = t(finding)
        if finding != OUT_OF_ORDER:
            text_ += " " + t("law15")
        self.beep = buzzer.ERROR
        self.screen = Confirm(t("brd") + str(b), text_,
                              lambda app: app._start(b, finding), App.go_round)
        return None

    def _start(self, b, finding):
        self.commit("board", {"b": b})
        if finding is not None:
            self.commit("flag", {"b": b, "law": None if finding == OUT_OF_ORDER else "15",
                                 "why": finding})
        self.click()
        self.home()

    def next_board(self):
        b = self.session.next_board(self.mode())
        if b is None:
            self.go_round()
        else:
            self.start_board(b)

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
        return self.screen.inverted | ((1 << (ROWS - 1)) if self.note else 0)

    def draw(self, fb):
        inv = self.inverted()
        lines = self.lines()
        for i in range(ROWS):
            text.draw_line(fb, lines[i], i, inv >> i & 1)
