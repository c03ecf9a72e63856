"""Bridge notation as a page's reader writes it: Russian pages say БК, С/В/Ю/З, Т К Д В, пас and
контра; English pages NT, N/E/S/W, A K Q J, Pass and X; both draw suits as ♠♥♦♣ (red hearts
and diamonds on the page, the `suits` filter).

The data keeps the PBN tokens ("4SX", "S", "HT", "Pass"); only the page translates them, so
a text this module does not know is shown as it is rather than dropped.
"""

from markupsafe import Markup, escape

SUIT = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RED = ("\u2665", "\u2666")
NOTATION = {
    "ru": {"seats": dict(zip("NESW", "СВЮЗ")), "NT": "БК", "Pass": "пас", "X": "контра",
           "XX": "реконтра", "X_short": "к", "XX_short": "рк", "NS": "СЮ", "EW": "ВЗ",
           "ranks": {"A": "Т", "K": "К", "Q": "Д", "J": "В", "T": "10"}},
    "en": {"seats": dict(zip("NESW", "NESW")), "NT": "NT", "Pass": "Pass", "X": "X",
           "XX": "XX", "X_short": "X", "XX_short": "XX", "NS": "NS", "EW": "EW",
           "ranks": {"T": "10"}},
}
# words of the director's notes (host_sync.event.auctions) on a Russian page
NOTE_WORDS_RU = {"Law": "Закон", "accept": "принято", "reject": "отклонено"}


class Notation:
    """The notation of one page language ('ru' or 'en')."""

    def __init__(self, lang):
        self.lang = lang
        self.n = NOTATION[lang]

    def seat(self, letter):
        return self.n["seats"].get(letter, letter or "")

    def side(self, side):
        """'NS' / 'EW' as the page says it."""
        return self.n.get(side, side)

    def strain(self, strain):
        return self.n["NT"] if strain in ("N", "NT") else SUIT.get(strain, strain)

    def ranks(self, cards):
        """A suit's holding ('KQT5') in the page's letters ('КД105'); '—' when void."""
        return "".join(self.n["ranks"].get(c, c) for c in cards.upper()) or "—"

    def card(self, token):
        """A card token ('S3', 'HT') as '♠3', '♥10'."""
        if not token or len(token) < 2:
            return token or ""
        return SUIT.get(token[0].upper(), token[0]) + self.ranks(token[1:])

    def call(self, pbn):
        """An auction call ('1NT', 'Pass', 'X', 'XX', 'AP') in full words where words are
        used."""
        token = (pbn or "").strip()
        if token in ("Pass", "X", "XX"):
            return self.n[token]
        return self.contract(token)

    def contract(self, text):
        """A contract ('4SX', '3NT', 'Pass') in the page's notation ('4♠к', '3БК', 'пас')."""
        text = (text or "").strip()
        if not text:
            return ""
        if text.lower() in ("pass", "p"):
            return self.n["Pass"]
        body = text.rstrip("Xx")
        risk = len(text) - len(body)
        if len(body) < 2 or not body[0].isdigit() or risk > 2:
            return text
        return body[0] + self.strain(body[1:].upper()) + (
            self.n["X_short" if risk == 1 else "XX_short"] if risk else "")

    def par_contract(self, level, strain, seats, risk, over):
        """One par contract: '4♠к СЮ −1' ('=' when it makes exactly)."""
        result = "=" if over == 0 else "%+d" % over
        return "%d%s%s %s %s" % (level, self.strain(strain), self.n.get(
            risk + "_short", "") if risk else "", "".join(self.seat(s) for s in seats),
            result.replace("-", "\u2212"))

    def note(self, text):
        """A director's note ('Law 27; accept 27A') in the page's words."""
        if self.lang != "ru" or not text:
            return text or ""
        return " ".join(NOTE_WORDS_RU.get(w, w) for w in text.split(" "))


def suits(text):
    """Escape a text and colour its red suit symbols, for a page cell."""
    out = str(escape(text))
    for symbol in RED:
        out = out.replace(symbol, '<span class="red">%s</span>' % symbol)
    return Markup(out)
