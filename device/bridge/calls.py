"""Calls as small ints, their PBN tokens and their names in Russian and English.

Encoding: PASS=0, DOUBLE=1, REDOUBLE=2, a bid = 3 + (level - 1) * 5 + strain, with strains
C=0, D=1, H=2, S=3, NT=4 in rank order (Law 18E). So for two bids, the higher number is the
higher bid (Law 18B), and levels 8 and 9 (codes 38..47) exist only so that a bid above seven
can be entered and ruled on (Law 38).
"""

PASS = 0
DOUBLE = 1
REDOUBLE = 2
FIRST_BID = 3
MAX_LEVEL = 7  # the highest legal level (Law 18A); 8 and 9 are entered only to be ruled on
MAX_ENTRY_LEVEL = 9
LAST_BID = FIRST_BID + MAX_ENTRY_LEVEL * 5 - 1

STRAINS = ("C", "D", "H", "S", "NT")
C, D, H, S, NT = 0, 1, 2, 3, 4

SUIT_SYMBOLS = ("\u2663", "\u2666", "\u2665", "\u2660")  # clubs, diamonds, hearts, spades

# Names by language: (pass, double, redouble, notrump abbreviation, strain names)
NAMES = {
    "en": ("Pass", "Double", "Redouble", "NT",
           ("clubs", "diamonds", "hearts", "spades", "no trump")),
    "ru": ("\u041f\u0430\u0441", "\u041a\u043e\u043d\u0442\u0440\u0430",
           "\u0420\u0435\u043a\u043e\u043d\u0442\u0440\u0430", "\u0411\u041a",
           ("\u0442\u0440\u0435\u0444\u044b", "\u0431\u0443\u0431\u043d\u044b",
            "\u0447\u0435\u0440\u0432\u044b", "\u043f\u0438\u043a\u0438",
            "\u0431\u0435\u0437 \u043a\u043e\u0437\u044b\u0440\u044f")),
}


def bid(level, strain):
    """The code of a bid; level 1..9, strain 0..4 (ValueError otherwise)."""
    if not (type(level) is int and 1 <= level <= MAX_ENTRY_LEVEL):
        raise ValueError("bid level must be 1..%d, not %r" % (MAX_ENTRY_LEVEL, level))
    if not (type(strain) is int and 0 <= strain <= 4):
        raise ValueError("strain must be 0..4, not %r" % (strain,))
    return FIRST_BID + (level - 1) * 5 + strain


def is_bid(call):
    return call >= FIRST_BID


def level(call):
    return (call - FIRST_BID) // 5 + 1


def strain(call):
    return (call - FIRST_BID) % 5


def parse_strain(text):
    """'C','D','H','S','NT' (also 'N', any case) -> 0..4."""
    t = text.upper()
    if t == "N":
        t = "NT"
    for i in range(5):
        if STRAINS[i] == t:
            return i
    raise ValueError("not a strain: %r" % (text,))


def parse(token, above=False):
    """A PBN call token ('Pass', 'P', 'X', 'XX', '1C'..'7NT') -> its code.

    Law 18A: a bid names one to seven odd tricks, so '8S' is refused like any other non-call.
    `above` takes '8C'..'9NT' too: a call as made at the table, which the Laws engine rules on
    (Law 38: cancelled, replaced by a pass) and so must be able to record. Anything else raises
    ValueError with the token in the message, so no caller can record a call it did not
    understand.
    """
    if not isinstance(token, str):
        raise ValueError("a call must be text, not %r" % (token,))
    t = token.strip().upper()
    if t in ("P", "PASS"):
        return PASS
    if t == "X":
        return DOUBLE
    if t == "XX":
        return REDOUBLE
    if len(t) >= 2 and "1" <= t[0] <= ("9" if above else "7"):
        try:
            return bid(ord(t[0]) - 48, parse_strain(t[1:]))
        except ValueError:
            pass
    raise ValueError("not a call: %r (expected Pass, X, XX or a bid like 1C..7NT)" % (token,))


def parse_contract(text):
    """A contract as PBN writes it ('4S', '3NTX', '6HXX') -> (bid, risk); 'Pass' (also 'P',
    'AP') -> None. A level above seven, or anything else, raises ValueError naming the text."""
    t = text.strip().upper() if isinstance(text, str) else ""
    if t in ("PASS", "P", "AP"):
        return None
    risk = 0
    while t.endswith("X") and risk < 2:
        t, risk = t[:-1], risk + 1
    try:
        code = parse(t)
    except ValueError:
        code = -1
    if code < FIRST_BID or level(code) > MAX_LEVEL:
        raise ValueError("not a contract: %r" % (text,))
    return code, risk


def check(call):
    """Raise ValueError unless call is a valid code (0..LAST_BID)."""
    if not (type(call) is int and 0 <= call <= LAST_BID):
        raise ValueError("not a call code: %r" % (call,))
    return call


def to_pbn(call):
    """The PBN token of a call: 'Pass', 'X', 'XX', '4S', '3NT'."""
    check(call)
    if call == PASS:
        return "Pass"
    if call == DOUBLE:
        return "X"
    if call == REDOUBLE:
        return "XX"
    return str(level(call)) + STRAINS[strain(call)]


def to_short(call):
    """The compact token used in logs: 'P' for pass, otherwise as PBN."""
    return "P" if call == PASS else to_pbn(call)


def display(call, lang="ru"):
    """What the terminal shows: 'Пас', 'Контра', '4♠', '3БК' (ru) or 'Pass', 'Double', '3NT'."""
    check(call)
    names = NAMES.get(lang) or NAMES["en"]
    if call < FIRST_BID:
        return names[call]
    s = strain(call)
    return str(level(call)) + (names[3] if s == NT else SUIT_SYMBOLS[s])


def strain_name(s, lang="ru"):
    names = NAMES.get(lang) or NAMES["en"]
    return names[4][s]
