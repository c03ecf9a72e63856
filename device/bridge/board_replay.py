"""Replay whole boards: the auction, the play and the director's entries (docs/BOARD_LOG.md).

Reads scenarios from standard input, one JSON object per line, and writes one JSON object per
scenario, in the same order, under CPython (`python -m bridge.board_replay`) and MicroPython
(`micropython -m bridge.board_replay`) alike. Keys are written in one fixed order (MicroPython
dicts do not keep insertion order), so both interpreters print the same bytes. A bad line gives
{"id": ..., "error": ...} and the tool goes on.
"""

import json
import sys

from bridge import boards, calls, cards, play_records
from bridge.auction import Auction
from bridge.play import CLAIM, CORRECTED, DIRECTOR, ENDED, ESTABLISHED, INFERRED, MAJOR
from bridge.play_rulings import options
from bridge.score import score
from bridge.seats import SEATS, parse_seat

try:
    from bridge.auction import REFUSED
except ImportError:  # an auction engine without director entries
    REFUSED = None

_KEYS = ("id", "error", "status", "contract", "declarer", "lead", "turn", "tricks", "won",
         "pending", "penalty_cards", "lead_restriction", "revokes", "claim", "remaining",
         "result", "agreed", "score_ns", "rulings", "flags", "refused",
         "leader", "cards", "winner", "NS", "EW", "law", "trick", "seat", "card", "suit",
         "kind", "options", "established", "corrected", "inferred", "transfer",
         "side", "tricks_claimed", "concession", "offender", "suits")


def encode(value):
    """JSON text with dict keys in _KEYS order: identical bytes on both interpreters."""
    if isinstance(value, dict):
        keys = sorted(value.keys(), key=_key_rank)
        return "{" + ", ".join(json.dumps(k) + ": " + encode(value[k]) for k in keys) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(encode(v) for v in value) + "]"
    return json.dumps(value)


def _key_rank(k):
    for i in range(len(_KEYS)):
        if _KEYS[i] == k:
            return "%03d" % i
    return "999" + k


class Board:
    """One board being replayed: an auction, then (once there is a contract) a play."""

    def __init__(self, dealer, deal=None, contract=None, declarer=None, vulnerable=None):
        self.deal = cards.parse_deal(deal) if deal else None
        self.vulnerable = boards.parse_vulnerability(vulnerable) if vulnerable else None
        self.auction = None
        self.play = None
        self.exposed = []  # Law 24: (seat, card, premature lead) from the auction
        self.rulings = []
        self.refused = []
        self.contract = None  # (bid, risk, declarer)
        if contract is not None:
            self._start(contract, declarer)
        else:
            self.auction = Auction(dealer)

    def _start(self, contract, declarer):
        """A contract given directly (no auction): '4SX' and the declarer's seat."""
        made = calls.parse_contract(contract)
        if made is None:
            raise ValueError("not a contract: %r" % (contract,))
        self.contract = (made[0], made[1], parse_seat(declarer))
        self.play = play_records.start(self.contract, self.deal)

    # -- events ------------------------------------------------------------------------------

    def event(self, ev, i):
        """Apply one event; a refused one is listed by index and changes nothing."""
        ok = False
        try:
            ok = self._apply(ev)
        except (ValueError, KeyError, TypeError, AttributeError):
            ok = False
        if not ok:
            self.refused.append(i)

    def _apply(self, ev):
        if not isinstance(ev, dict):
            return False
        if "exposed" in ev:
            return self._exposed(parse_seat(ev["seat"]), ev["exposed"], ev)
        if self.play is None:
            return self._auction_event(ev)
        play = self.play
        if "director" in ev:
            return self._director(ev)
        if "card" in ev:
            seat = parse_seat(ev["seat"])
            c = cards.parse_card(ev["card"])
            also = [cards.parse_card(t) for t in ev.get("also", ())]
            if ev.get("simultaneous"):
                play.note("58A")
            play.card(seat, c)
            for extra in also:  # 58B2: the other cards seen become penalty cards
                play.note("58B2" if play.is_defender(seat) else "58B1")
                play.expose(seat, extra, False, "58B2")
            return True
        if "claim" in ev or "concede" in ev:
            who = parse_seat(ev.get("claim", ev.get("concede")))
            play_records.claim(play, who, ev["tricks"], concession="concede" in ev)
            return True
        if "agreed" in ev:
            play.agree(ev["agreed"])
            return True
        return False

    def _auction_event(self, ev):
        a = self.auction
        if "director" in ev:
            entry = getattr(a, ev["director"], None) if ev["director"] in (
                "accept", "reject") else None
            if entry is None:
                return False
            ok = entry()
        elif "call" in ev:
            seat = parse_seat(ev["seat"])
            call = calls.parse(ev["call"], True)  # Law 38 rules on 8S
            if "change" in ev:
                if not hasattr(a, "change") or ev["change"] not in ("unintended", "deliberate"):
                    return False
                ok = a.change(seat, call, ev["change"] == "deliberate")
            else:
                ok = a.call(seat, call) != REFUSED or REFUSED is None
        else:
            return False
        if ok and a.status == "ended":
            self._begin_play()
        return ok

    def _begin_play(self):
        self.contract = self.auction.contract()
        self.play = play_records.start(self.contract, self.deal, self.auction.lead)
        for seat, c, lead in self.exposed:
            self._penalty_from_auction(seat, c, lead)

    def _exposed(self, seat, token, ev):
        c = cards.parse_card(token)
        if self.play is not None:
            self.play.expose(seat, c, bool(ev.get("deliberate")))
            return True
        if self.deal is not None and not self.deal[seat * 4 + c // 13] & 1 << (c % 13):
            return False
        for s, e, lead in self.exposed:
            if e == c:
                return False
        self.exposed.append((seat, c, bool(ev.get("lead"))))
        mine = [e for s, e, lead in self.exposed if s == seat]
        if len(mine) > 1 or cards.is_honour(c) or ev.get("lead"):
            self.rulings.append("24C" if len(mine) > 1 else "24B")
            self.auction.card_exposed(seat)
        else:
            self.rulings.append("24A")
        return True

    def _penalty_from_auction(self, seat, c, lead):
        """Law 24: the offender's exposed cards are penalty cards if he becomes a defender."""
        play = self.play
        if not play.is_defender(seat):
            play.note("24")  # picked up: the offender declares or is dummy
            return
        play.expose(seat, c, lead, "24")

    def _director(self, ev):
        suit = ev.get("suit")
        if suit is not None:
            suit = "CDHS".index(suit.upper()) if suit.upper() in ("C", "D", "H", "S") else -1
            if suit < 0:
                return False
        c = cards.parse_card(ev["card"]) if "card" in ev else None
        seat = parse_seat(ev["seat"]) if "seat" in ev else None
        trick = ev.get("trick")
        if trick is not None:
            trick -= 1
        return play_records.entry(self.play, ev["director"], suit, c, ev.get("tricks"), seat,
                                  trick)

    # -- the state out -----------------------------------------------------------------------

    def state(self):
        out = {"status": "auction", "contract": None, "declarer": None, "turn": None,
               "lead": self._lead()}
        rulings = list(getattr(self.auction, "rulings", ())) + self.rulings
        if self.play is None:
            a = self.auction
            if a.status == "passed_out":
                out["status"] = "passed_out"
            elif a.status == "director":
                out["status"] = "director"
            if a.turn is not None:
                out["turn"] = SEATS[a.turn]
            out["rulings"] = rulings
            out["refused"] = self.refused
            return out
        play = self.play
        bid, risk, _ = self.contract
        out["contract"] = calls.to_pbn(bid) + ("", "X", "XX")[risk]
        out["declarer"] = SEATS[play.declarer]
        out["status"] = play.status
        out["turn"] = None if play.turn is None or play.status is DIRECTOR else SEATS[play.turn]
        out["tricks"] = self._tricks()
        out["won"] = {"NS": play.won(0), "EW": play.won(1)}
        out["pending"] = self._pending()
        out["penalty_cards"] = [{"seat": SEATS[p >> 7], "card": cards.token(p & 63),
                                 "kind": "major" if p & MAJOR else "minor"}
                                for p in play.penalty]
        rule = play.lead_rule
        out["lead_restriction"] = None if rule is None else {
            "seat": SEATS[rule[0]], "kind": rule[1], "suit": "CDHS"[rule[2]]}
        if rule is not None and play.lead_more:  # 51B2b: several suits forbidden
            mask = play.lead_more | 1 << rule[2]
            out["lead_restriction"]["suits"] = ["CDHS"[s] for s in range(4) if mask >> s & 1]
        out["revokes"] = self._revokes()
        out["claim"] = None if play.claim is None else {
            "side": ("NS", "EW")[play.claim[0]], "tricks_claimed": play.claim[1],
            "concession": play.claim[2] >= 0}
        out["remaining"] = None
        if play.status is DIRECTOR and play.pending[0] == "70" or play.status is CLAIM:
            out["remaining"] = play.remaining_hands()
        out["result"] = play.declarer_tricks() if play.status is ENDED else None
        out["agreed"] = play.agreed
        out["score_ns"] = None
        if out["result"] is not None and self.vulnerable is not None:
            points = score(calls.level(bid), calls.strain(bid), risk,
                           boards.is_vulnerable(self.vulnerable, play.declarer), out["result"])
            out["score_ns"] = points if play.declarer & 1 == 0 else -points
        out["rulings"] = rulings + list(play.rulings)
        out["flags"] = list(play.flags)
        out["refused"] = self.refused
        return out

    def _lead(self):
        """The auction's Law 26 restrictions (AUCTION_LOG.md's `lead`); None without an
        auction (a contract given directly)."""
        if self.auction is None:
            return None
        out = []
        for offender, law, mask in self.auction.lead:
            r = {"offender": SEATS[offender], "law": law}
            if law == "26A":
                r["suits"] = ["CDHS"[s] for s in range(4) if mask >> s & 1]
            out.append(r)
        return out

    def _tricks(self):
        play = self.play
        out = []
        last = play.trick if play.trick == 13 else play.trick + 1
        for t in range(last):
            leader = play.leaders[t]
            row = []
            for k in range(4):
                c = play.cards[t * 4 + ((leader + k) & 3)] - 1
                row.append(None if c < 0 else cards.token(c))
            if t == play.trick and not any(row):
                break
            w = play.winners[t] - 1 if t < play.trick else -1
            out.append({"leader": SEATS[leader], "cards": row,
                        "winner": SEATS[w] if w >= 0 else None})
        return out

    def _pending(self):
        play = self.play
        if play.status is not DIRECTOR:
            return None
        law, seat, c = play.pending
        return {"law": law, "seat": SEATS[seat] if seat >= 0 else None,
                "card": cards.token(c) if c >= 0 else None,
                "options": [[e, p] for e, p, text in options(law, "en")]}

    def _revokes(self):
        play = self.play
        moved = {}
        for i, n, law in play.transfers():
            moved[i] = (n, law)
        out = []
        for i in range(len(play.revokes)):
            t, seat, suit, flags, law = play.revokes[i]
            n, law64 = moved.get(i, (0, None))
            out.append({"trick": t + 1, "seat": SEATS[seat], "suit": "CDHS"[suit],
                        "established": bool(flags & ESTABLISHED),
                        "corrected": bool(flags & CORRECTED),
                        "inferred": bool(flags & INFERRED),
                        "transfer": n, "law": law64 or law})
        return out


def replay_scenario(obj):
    """One scenario (a parsed JSON object) -> its output object."""
    sid = obj.get("id") if isinstance(obj, dict) else None
    try:
        if not isinstance(obj, dict):
            raise ValueError("a scenario is a JSON object")
        events = obj.get("events")
        if not isinstance(events, list):
            raise ValueError("events must be a list")
        dealer = parse_seat(obj.get("dealer", "N"))
        board = Board(dealer, obj.get("deal"), obj.get("contract"), obj.get("declarer"),
                      obj.get("vulnerable"))
    except (ValueError, TypeError, AttributeError) as e:
        return {"id": sid, "error": str(e)}
    for i in range(len(events)):
        board.event(events[i], i)
    out = board.state()
    out["id"] = sid
    return out


def replay_line(line):
    """One input line -> one output line (without the newline)."""
    try:
        obj = json.loads(line)
    except ValueError:
        return encode({"id": None, "error": "not a JSON object"})
    return encode(replay_scenario(obj))


def main():
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        if line.strip():
            sys.stdout.write(replay_line(line) + "\n")


if __name__ == "__main__":
    main()
