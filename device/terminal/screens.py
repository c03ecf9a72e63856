"""What every screen shares: the screen protocol, text layout for 21x7, and small widgets.

A screen is an object with `key(app, k)` (k is a key code of hw.keys) and `lines(app)` (at
most 7 strings of at most 21 characters; line 0 is the title bar, drawn inverted), and may
have `inverted`, the bit mask of the lines drawn dark on lit (the title bar's, 1, if not).
There is no base class: each one would cost heap in every loaded group of screens. Screens
never touch the journal or the display: they ask the app to commit a record or to go to
another screen, so the same code runs in the simulator, on the board and in the fuzzer.
"""

from hw import buzzer, keys
from terminal.session import CARD_REFUSALS
from terminal.ui_text import lang, seat, t

COLUMNS = 21
ROWS = 7
# Call codes of docs/RECORDS.md (bridge.calls, not imported: its name tables cost heap):
# PASS 0, X 1, XX 2, a bid 3 + (level - 1) * 5 + strain, strains C D H S NT = 0..4.
FIRST_BID = 3


# The four suit symbols, each a slice (indexing a str would intern the character as a qstr
# that the heap keeps for good), made once: a new str is looked up among the interned names
# first, which costs more than making it (terminal.ui_text's `t`).
_SUITS = tuple("\u2663\u2666\u2665\u2660"[s:s + 1] for s in range(4))


def suit(s):
    """The symbol of suit s (0..3 = ♣♦♥♠, the strain order), '' for -1 (none)."""
    return _SUITS[s] if 0 <= s < 4 else ""


def lho(s):
    """The left-hand opponent: the next seat clockwise (seats N E S W = 0..3)."""
    return (s + 1) & 3


def bid(level, strain):
    return FIRST_BID + (level - 1) * 5 + strain


def level_of(c):
    return (c - FIRST_BID) // 5 + 1


def wrap(text, width=COLUMNS):
    """Split text at spaces into lines of at most width characters (long words are cut)."""
    out = []
    line = ""
    for word in text.split(" "):
        while len(word) > width:
            if line:
                out.append(line)
                line = ""
            out.append(word[:width])
            word = word[width:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    return out


_calls = [None, None]  # [language, the text of each call code shown in it so far]


def call_text(c):
    """A call in at most 4 characters: 'Пас'/'Pass', 'X', 'XX', '4♠', '3БК' / '3NT'. Each
    made once per language: a row of calls shows them again at every call."""
    if not 0 <= c < FIRST_BID + 35:
        return _call_text(c)
    if _calls[0] != lang():
        _calls[0], _calls[1] = lang(), [None] * (FIRST_BID + 35)
    text = _calls[1][c]
    if text is None:
        text = _calls[1][c] = _call_text(c)
    return text


def _call_text(c):
    if c == 0:
        return t("pass")
    if c < FIRST_BID:
        return "X" if c == 1 else "XX"
    s = (c - FIRST_BID) % 5
    return str(level_of(c)) + (t("nt") if s == 4 else suit(s))


def card_text(cd):
    """'♠Т' / '♠A': a card code (suit * 13 + rank, ranks 0 = two .. 12 = ace)."""
    return suit(cd // 13) + t("ranks").split(" ")[cd % 13]


def contract_text(ct):
    """'4♠X С' / '4♠X N', or 'Пас все' for a board passed out."""
    bid, risk, dcl = ct
    if dcl < 0:
        return t("passed_out")
    return call_text(bid) + ("", "X", "XX")[risk] + " " + seat(dcl)


def tricks_text(ct, tricks):
    """'=', '+1', '-2' against the contract."""
    diff = tricks - (level_of(ct[0]) + 6)
    if diff == 0:
        return "="
    return ("+" if diff > 0 else "") + str(diff)


def signed(n):
    return ("+" if n > 0 else "") + str(n)


def board_title(board):
    """The title bar of a board: 'Сд5 Сд:С Зона:все'."""
    vul = board.vul
    vul = t("vul_none") if vul == "None" else t("vul_all") if vul == "All" else vul
    return "%s%d %s%s %s%s" % (t("brd"), board.b, t("dealer"), seat(board.dealer), t("vul"),
                               vul)  # one string made, not one per piece


def restrictions(auction, dcl):
    """Law 26 restrictions of a defender (offender on the defending side): shown on the lead
    (terminal.board_entry) and to the director (terminal.director)."""
    return [r for r in auction.lead if (r[0] & 1) != (dcl & 1)]


def seat_key(k):
    """The seat a key names where a seat is asked: ♣♦♥♠ = N E S W (the columns' order on
    the screen, left to right), else -1."""
    s = keys.strain(k)
    return s if 0 <= s <= 3 else -1


def rank_key(k):
    """The rank a key names where a card's rank is asked (after its suit): 2-9, 0 = ten,
    ♣♦♥♠ = J Q K A (the strain keys in rank order); -1 for any other key."""
    d = keys.digit(k)
    if 2 <= d <= 9:
        return d - 2
    if d == 0:
        return 8
    s = keys.strain(k)
    return 9 + s if 0 <= s <= 3 else -1


def review(app, board):
    """Show the auction (terminal.board_entry.AuctionScreen, once the auction has ended)
    if it was recorded, it ended in a contract, and the opening lead is not faced yet (not
    recorded, alone or as the first card of the play); else refuse, with the reason. The
    screens of the lead, of the play and of the tricks send PASS here."""
    ct = board.contract()
    if board.quick is not None or not board.events or ct is None or ct[2] < 0:
        app.refuse(t("no_review"))
    elif board.lead is not None or board.plays or board.tricks >= 0:
        app.refuse(t("review_over"))
    else:
        app.show("board_entry", "AuctionScreen", board)


def refuse_card(app, board, who, cd):
    """Refuse card cd, which the hand record does not give seat `who`, in words that name
    no seat's holding: the same text whichever card it is and wherever it lies, so that
    typing cards teaches nobody a hand (Law 16C, unauthorised information). Each refusal
    is journaled (`rc`); from the CARD_REFUSALS-th on one board the director is called
    (the session flags it, `card_refusals`, and so does the host)."""
    app.commit("rc", {"b": board.b, "s": who, "cd": cd})
    if board.refused < CARD_REFUSALS:
        return app.refuse(t("card_refused"))
    app.beep = buzzer.DIRECTOR
    app.called = app.called or not app.director  # unless he is at the table
    app.note = t("call_td")
    return None


class Digits:
    """A number typed on the digit keys, refused beyond `top` (only possible values). With a
    contract `ct`, the tricks won by declarer (top 13): UP/DOWN also steps them from the
    contract (=, +1, -1 ...) and the text shows that result. One class for both, as each
    class costs heap in every group of screens."""

    def __init__(self, top, value=-1, ct=None):
        self.top = top
        self.value = value
        self.fresh = value >= 0  # a value filled in for the user: the first digit replaces it
        self.ct = ct

    def key(self, k):
        """True if k was taken (a digit that fits, BACK, a step of the tricks); False
        (refused) otherwise."""
        if self.ct is not None and (k == keys.UP or k == keys.DOWN):
            step = 1 if k == keys.UP else -1
            if self.value < 0:
                self.value = level_of(self.ct[0]) + 6
            elif 0 <= self.value + step <= self.top:
                self.value += step
            else:
                return False
            return True
        if k == keys.BACK and self.value >= 0:
            self.back()
            return True
        d = keys.digit(k)
        if d < 0:
            return False
        v = d if self.value <= 0 or self.fresh else self.value * 10 + d
        if v > self.top:
            return False
        self.value = v
        self.fresh = False
        return True

    def back(self):
        self.value = -1 if self.value < 10 or self.fresh else self.value // 10
        self.fresh = False

    def text(self):
        if self.value < 0:
            return "_"
        if self.ct is None:
            return str(self.value)
        return "%s (%s)" % (self.value, tricks_text(self.ct, self.value))


class Confirm:
    """A question: OK calls yes(app), BACK calls no(app)."""

    def __init__(self, title, text, yes, no):
        self.title = title
        self.text = text
        self.yes = yes
        self.no = no

    def key(self, app, k):
        if k == keys.OK:
            self.yes(app)
        elif k == keys.BACK:
            self.no(app)
        else:
            app.refuse()

    def lines(self, app):
        out = [self.title] + wrap(self.text)[:4]
        while len(out) < 6:
            out.append("")
        out.append(t("ok_yes"))
        return out
