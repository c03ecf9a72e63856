"""What the table has done this session, as a pure function of its journal records.

`Session.apply(kind, data)` takes one record (docs/RECORDS.md) and updates the state; the
application calls it right after the journal stored the record, and `terminal.store` calls
it for every record at start-up, so the state after a power cut is exactly the state before
it. Nothing here draws or reads keys.

Also here: the Law 15 checks of a board the players are about to start, and the score of a
board (Law 77, from North-South's side).
"""

from bridge import score
from bridge.auction import Auction
from bridge.boards import is_vulnerable

from terminal import const
from terminal.config import suit_masks

FIRST_BID = const(3)  # call codes as in docs/RECORDS.md
# The engine's journal events (docs/AUCTION_LOG.md, "Journal events"): a call is
# call | seat << 6 | flags; a director's entry 1 << 13 accept, 2 << 13 reject. (Private
# constants are const(): folded into the bytecode, no name or dict slot on the board.)
_ARTIFICIAL = const(1 << 8)
_SAME_MEANING = const(1 << 9)
_CHANGE_SHIFT = const(10)  # 1 unintended (25A), 2 deliberate (25B)
_ACCEPT = const(1 << 13)
_REJECT = const(2 << 13)

PASSED_OUT = (0, 0, -1)  # a "contract" for a board passed out: bid PASS, no declarer
_MAX_CONTRACT = const(FIRST_BID + 7 * 5 - 1)  # 7NT: nothing above it is ever a contract
# what a record this version cannot use raises (Session.apply skips it)
_UNUSABLE = (KeyError, TypeError, ValueError, AttributeError, IndexError)

# Phases of a board.
AUCTION = 0
LEAD = 1
TRICKS = 2
VERIFY = 3
DONE = 4
PLAY = 5

# What the session's settings ask of a board after the auction (App.mode()).
LEAD_MODE = 1  # the opening lead is asked for
PLAY_MODE = 2  # every card is recorded (docs/CONFIG.md `set.play`)

# A board's play events (docs/RECORDS.md `card`, `claim`, `pdir`) as small ints and tuples:
# a card is seat << 6 | card; a claim _CLAIM | con << 9 | ok << 6 | seat << 4 | tricks (`con`
# and `ok` as in the record); a director's entry the tuple of its fields (option, suit,
# card, tricks, seat, trick): they are rare.
_CLAIM = const(1 << 8)
_PLAY_ENDED = const("ended")  # bridge.play statuses, compared without importing the engine
PLAY_DIRECTOR = "director"

# Cards refused on one board (`rc` records) before the director is called (Law 16C).
CARD_REFUSALS = 3

# Law 15 findings on a board the players choose (None: in order).
OUT_OF_ORDER = "out_of_order"
_WRONG_BOARD = const("wrong_board")
_PLAYED_BEFORE = const("played_before")


def ns_score(contract, vul, tricks):
    """North-South's score for `tricks` won by declarer; 0 for a board passed out."""
    bid, risk, dcl = contract
    if dcl < 0:
        return 0
    level, strain = (bid - FIRST_BID) // 5 + 1, (bid - FIRST_BID) % 5
    points = score.score(level, strain, risk, is_vulnerable(vul, dcl), tricks)
    return points if dcl & 1 == 0 else -points


class Board:
    """One board at this table in the current round."""

    def __init__(self, b, dealer, vul, deal):
        self.b = b
        self.dealer = dealer
        self.vul = vul
        self.deal = deal  # the hand record, packed (terminal.config.holder), or None
        self.events = []  # the auction's journal events (bridge.lawcodes), in order
        self.auction = None  # the live Auction of the board being played, built on demand
        self.final = None  # the contract once the auction is over (no engine kept for it)
        self.quick = None  # (bid, risk, declarer) or PASSED_OUT entered without the auction
        self.lead = None  # (seat, card)
        # the players went on without the lead (LEAD_MODE) or the play (PLAY_MODE): not a record
        self.skipped = False
        self.plays = []  # the play events, in order (see _CLAIM above)
        self.play = None  # the live Play of the board being played, built on demand
        self.tricks = -1  # tricks won by declarer; -1 before a result
        self.score = 0  # North-South's score the terminal showed
        self.verified = False
        self.adj = None  # the director's adjusted score: the `adj` record's data
        self.refused = 0  # cards refused at the keypad (`rc`): not in the seat's hand

    def get_auction(self):
        if self.auction is None:
            self.auction = Auction.from_events(self.dealer, self.events)
        return self.auction

    def get_play(self):
        """The Laws engine of the play (bridge.play), rebuilt from the play events and kept;
        None while there is no contract to play. (A board left in the middle of its play
        keeps it too when the overview asks its phase: rebuilding it there at every key
        cost the session with every card 1 KiB more heap.)"""
        if self.play is None:
            ct = self.contract()
            if ct is None or ct[2] < 0:
                return None
            from bridge import play_records  # loaded only when the play is recorded

            # Law 26 entries are checked against what the auction gave; a contract entered
            # without its auction takes them on the director's word
            lead = None if self.quick is not None else self.get_auction().lead
            deal = None if self.deal is None else suit_masks(self.deal)
            self.play = play_records.start(ct, deal, lead)
            for ev in self.plays:
                try:
                    play_event(self.play, ev)
                except ValueError:
                    pass  # each was taken once (Session._play): a replay must not stop a screen
        return self.play

    def contract(self):
        """(bid, risk, declarer), PASSED_OUT, or None while no contract is known."""
        if self.quick is not None:
            return self.quick
        if self.final is None and self.events:
            # another board's auction is replayed, not kept (a round's overview asks every
            # board): the board at the table holds its auction engine, others the contract
            a = self.auction or Auction.from_events(self.dealer, self.events)
            if a.status == "ended":
                self.final = a.contract()
            elif a.status == "passed_out":
                self.final = PASSED_OUT
        return self.final

    def phase(self, mode):
        """Where the board is; mode: LEAD_MODE | PLAY_MODE as the settings ask."""
        if self.adj is not None or self.verified:
            return DONE
        if self.tricks >= 0:
            return VERIFY
        ct = self.contract()
        if ct is None:
            return AUCTION
        if ct[2] < 0:
            return TRICKS
        if mode & PLAY_MODE:
            if not self.skipped and self.get_play().status != _PLAY_ENDED:
                return PLAY
        elif mode & LEAD_MODE and self.lead is None and not self.skipped:
            return LEAD
        return TRICKS

    def play_result(self):
        """Declarer's tricks once the recorded play has ended (Law 64 transfers included),
        else -1."""
        if not self.plays:
            return -1
        p = self.get_play()
        return p.declarer_tricks() if p is not None and p.status == _PLAY_ENDED else -1

    def clear_result(self):
        self.tricks = -1
        self.score = 0
        self.verified = False
        self.adj = None


class Session:
    """The state of the session at this table, rebuilt record by record."""

    def __init__(self, config):
        self.config = config
        self.round = 0  # the open round, 0 when none is open
        self.closed = 0  # the last closed round
        self.section = config.section
        self.table = config.table
        self.ns = self.ew = 0
        self.first = self.last = 0  # this round's boards
        self.players = None
        self.boards = {}  # board number -> Board, this round
        self.current = None  # the Board being played
        self.flags = []  # (board or None, law or None, why) for the director, this session
        self.history = []  # b << 20 | ns << 10 | ew: boards played here in closed rounds
        self.seq = 0  # the last record applied
        self.before = None  # (seq, _between()) just before the open round's `open` record
        self.skipped = 0  # records that could not be applied (never expected)
        self.bad_pins = 0  # wrong director's PINs since the last right one (`td` records)
        # the key time a lockout was first seen (RAM only, terminal.director): after a power
        # cut it is None again, and the lockout's wait starts afresh
        self.locked_at = None

    # -- records ------------------------------------------------------------------------------

    def apply(self, kind, data, seq=0):
        """Apply one record; returns what the engine said of a call or director's entry."""
        self.seq = seq
        try:
            return self._record(kind, data)
        except _UNUSABLE:
            self.skipped += 1  # a record this version cannot use: the host still has it
            return None

    def _record(self, kind, d):
        """One branch per record kind (docs/RECORDS.md), the most frequent first; KeyError
        for a kind this version does not know. The call, most of an evening's records, has
        a method of its own (`_call`): this one's frame is large (MicroPython makes it on the
        heap, terminal.cbor's note), the call's small."""
        if kind == "call":
            return self._call(d)
        if kind == "card":
            s, cd = d["s"], d["cd"]
            if s not in (0, 1, 2, 3) or not (type(cd) is int and 0 <= cd < 52):
                raise ValueError("card")
            return self._play(d, s << 6 | cd)
        if kind == "board":
            b = d["b"]
            if self.current is not None and self.current.b != b:
                self.current.auction = None  # only the board at the table keeps its engines
                self.current.play = None
            self.current = self.board(b)
        elif kind == "res":
            tr, sc = d["tr"], d["sc"]  # first: a record without them changes nothing
            board = self.board(d["b"])
            board.clear_result()
            board.tricks = tr
            board.score = sc
        elif kind == "ver":
            board = self.board(d["b"])
            board.verified = d["ok"] == 1 and board.tricks >= 0
        elif kind == "dir":
            if d["d"] not in ("accept", "reject"):
                raise ValueError("dir")
            return self._auction(d, _ACCEPT if d["d"] == "accept" else _REJECT)
        elif kind == "lead":
            self.board(d["b"]).lead = (d["s"], d["cd"])
        elif kind == "quick":
            board = self.board(d["b"])
            if d.get("po") == 1:
                board.quick = PASSED_OUT
            elif (isinstance(d["ct"], int) and FIRST_BID <= d["ct"] <= _MAX_CONTRACT
                  and d["x"] in (0, 1, 2) and d["dcl"] in (0, 1, 2, 3)):  # a contract that exists
                board.quick = (d["ct"], d["x"], d["dcl"])
            else:
                raise ValueError("quick")
            board.lead = None
            board.plays = []
            board.play = None
            board.clear_result()
        elif kind == "claim":
            s, tr, ok, con = d["s"], d["tr"], d["ok"], d.get("con", 0)
            if s not in (0, 1, 2, 3) or not (type(tr) is int and 0 <= tr <= 13) or \
                    ok not in (0, 1, 2) or con not in (0, 1):
                raise ValueError("claim")
            self._play(d, _CLAIM | con << 9 | ok << 6 | s << 4 | tr)
        elif kind == "pdir":
            if not isinstance(d["d"], str):
                raise ValueError("pdir")
            return self._play(d, (d["d"], d.get("su"), d.get("cd"), d.get("tr"), d.get("s"),
                                  d.get("t")))
        elif kind == "adj":
            board = self.board(d["b"])
            board.clear_result()
            board.adj = d
        elif kind == "erase":
            self.board(d["b"]).clear_result()
        elif kind == "fix":
            d["b"], d["how"]  # a closed round's board (79C): nothing of the open round changes
        elif kind == "flag":
            self.flags.append((d.get("b"), d.get("law"), d["why"]))
        elif kind == "rc":
            s, cd = d["s"], d["cd"]
            if s not in (0, 1, 2, 3) or not (type(cd) is int and 0 <= cd < 52):
                raise ValueError("rc")
            board = self.board(d["b"])
            board.refused += 1
            if board.refused == CARD_REFUSALS:
                self.flags.append((board.b, "16C", "card_refusals"))
        elif kind == "pair":
            d["fp"]  # the station paired this terminal (docs/RECORDS.md): a fact for the host
        elif kind == "td":
            self.bad_pins = 0 if d["ok"] == 1 else self.bad_pins + 1
        elif kind == "st":
            pass  # the self-test's outcome (terminal.boot): for the host's list only
        elif kind == "open":
            # every field first: an `open` without one changes nothing (skipped)
            rnd, sec, tbl, ns, ew = d["rnd"], d["sec"], d["tbl"], d["ns"], d["ew"]
            span = d.get("bd")
            if span is None:
                row = self.config.round(rnd)
                span = (row[2], row[3]) if row else (1, 0)
            first, last = span[0], span[1]
            between = not (self.round or self.boards)
            self.before = (self.seq - 1, self._between()) if between else None
            self.round, self.section, self.table, self.ns, self.ew = rnd, sec, tbl, ns, ew
            self.first, self.last = first, last
            self.players = d.get("pl")
            self.boards = {}
            self.current = None
        elif kind == "close":
            for b in self.boards:
                self.history.append(b << 20 | self.ns << 10 | self.ew)
            self.closed = d["rnd"]
            self.round = 0
            self.boards = {}
            self.current = None
            self.before = None
        else:
            raise KeyError(kind)
        return None

    def _call(self, d):
        s = d["s"]
        c = d["c"]
        ch = d.get("ch", 0)
        if s not in (0, 1, 2, 3) or not 0 <= c <= 47 or ch not in (0, 1, 2):
            raise ValueError("call")
        ev = c | s << 6 | ch << _CHANGE_SHIFT
        if d.get("art") == 1:
            ev |= _ARTIFICIAL
        if d.get("sm") == 1:
            ev |= _SAME_MEANING
        return self._auction(d, ev)

    def _auction(self, d, ev):
        """Give an auction event to the board's live engine (if built), and keep it."""
        board = self.board(d["b"])
        board.events.append(ev)
        board.final = None
        if board.auction is not None:
            return board.auction.apply(ev)
        return True

    def _play(self, d, ev):
        """Give a play event to the board's engine (built if need be, so that an event is
        refused alike live and when the journal is replayed at start-up), then keep it; an
        event the engine refuses (ValueError) is not kept, nor a board made for it."""
        board = self.boards.get(d["b"])
        play = None if board is None else board.get_play()
        if play is None:
            raise ValueError("no contract to play")
        result = play_event(play, ev)
        board.plays.append(ev)
        return result

    # -- what compaction keeps (terminal.store) -------------------------------------------

    def _between(self):
        """The state between two rounds, its lists as their lengths (they only grow)."""
        return [self.closed, self.section, self.table, self.ns, self.ew, self.first,
                self.last, self.players, self.skipped, self.bad_pins, len(self.history),
                len(self.flags)]

    def checkpoint(self):
        """(seq, state): the last point between two rounds (just before the open round's
        `open`, else the last record) and the state there as CBOR data, which restore()
        takes back; (0, None) when there is none. The records up to seq may be compacted
        away once the state is kept beside the rest (terminal.store.compact)."""
        if self.round or self.boards:
            if self.before is None:
                return 0, None
            seq, got = self.before
        else:
            seq, got = self.seq, self._between()
        state = got[:-2]
        state.append(self.history[:got[-2]])
        state.append([list(f) for f in self.flags[:got[-1]]])
        return seq, state

    def restore(self, state):
        """Take back the state of checkpoint(); a malformed one changes nothing. A marker of
        11 items was written before the wrong PINs were kept (issue 14): none are then."""
        try:
            n = len(state)
            history, flags = state[n - 2], state[n - 1]
            ok = n in (11, 12) and isinstance(state[1], str) and isinstance(history, list)
            for x in history:
                ok = ok and type(x) is int
            for f in flags:
                ok = ok and isinstance(f, list) and len(f) == 3 and isinstance(f[2], str)
            for i in (0, 2, 3, 4, 5, 6, 8, n - 3):
                ok = ok and type(state[i]) is int
        except (TypeError, IndexError, KeyError):
            ok = False
        if not ok:
            self.skipped += 1
            return False
        (self.closed, self.section, self.table, self.ns, self.ew, self.first, self.last,
         self.players, self.skipped) = state[:9]
        self.bad_pins = state[9] if n == 12 else 0
        self.history = history
        self.flags = [tuple(f) for f in flags]
        return True

    # -- questions ----------------------------------------------------------------------------

    def board(self, b):
        """The Board b of this round; a record for an unknown board creates it."""
        got = self.boards.get(b)
        if got is None:
            if type(b) is not int or b < 1:
                raise ValueError("board")
            dealer, vul, deal = self.config.board(b)
            got = Board(b, dealer, vul, deal)
            self.boards[b] = got
        return got

    def round_boards(self):
        """This round's board numbers, then any other board started at this table."""
        out = list(range(self.first, self.last + 1))
        for b in sorted(self.boards):
            if b not in out:
                out.append(b)
        return out

    def closed_boards(self):
        """The boards of the last round closed (none while a round is open): its set and any
        other board started in it (the history's entries of its two pairs)."""
        if self.round or not self.closed:
            return []
        out = list(range(self.first, self.last + 1))
        for packed in self.history:
            if packed & 0xFFFFF == self.ns << 10 | self.ew and packed >> 20 not in out:
                out.append(packed >> 20)
        return out

    def next_board(self, mode):
        """The first board of the round in order that is not done, else None."""
        for b in range(self.first, self.last + 1):
            got = self.boards.get(b)
            if got is None or got.phase(mode) != DONE:
                return b
        return None

    def check_board(self, b, mode):
        """Law 15 (and order of play): None if in order, else the finding to warn and flag."""
        if b in self.boards:
            return None  # already started here this round: going back to it
        for packed in self.history:
            if packed >> 20 == b and ((packed >> 10) & 1023 == self.ns or
                                      packed & 1023 == self.ew):
                return _PLAYED_BEFORE
        if not self.first <= b <= self.last:
            return _WRONG_BOARD
        if b != self.next_board(mode):
            return OUT_OF_ORDER
        return None

    def round_done(self, mode):
        for b in range(self.first, self.last + 1):
            got = self.boards.get(b)
            if got is None or got.phase(mode) != DONE:
                return False
        for b in self.boards:
            if self.boards[b].phase(mode) != DONE:
                return False
        return True


def play_event(play, ev):
    """Apply one packed play event to the engine (bridge.play_records reads the fields)."""
    from bridge import play_records

    if isinstance(ev, tuple):
        return play_records.entry(play, *ev)
    if ev & _CLAIM:
        play_records.claim(play, ev >> 4 & 3, ev & 15, ev >> 6 & 3, ev >> 9 & 1)
        return True
    return play.card(ev >> 6, ev & 63)
