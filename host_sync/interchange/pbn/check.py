"""Replay every PBN game through the Laws core and compare its tags (`host-sync pbn-check`).

For each game: the auction is checked call by call (the same `bridge.auction` the terminal
runs), the contract and declarer are derived from it (from the tags when there is no auction),
the score is recomputed (Law 77) from that contract, the Result tag and the vulnerability,
and every disagreement with the file's own Contract, Declarer and Score tags is named.
An irregular call that the next player called over is condoned, as the Laws condone it
(27A1, 29A, 37A: see CONDONED): the auction is "condoned", not "illegal", and the contract
comes from the auction as it stood; the summary line counts such auctions apart.
"""

from bridge import boards, calls
from bridge.auction import REFUSED, Auction
from bridge.score import RISKS
from bridge.seats import SEATS, parse_seat, partner

from host_sync.interchange.fields import plain_number
from host_sync.scoring.session import ns_points


def format_contract(bid, risk):
    return calls.to_pbn(bid) + RISKS[risk]


def parse_contract(text):
    """A Contract tag ('4SX', 'Pass', '3NTXX') -> (bid, risk) or 'Pass'; ValueError if not."""
    contract = calls.parse_contract(text)
    return "Pass" if contract is None else contract


def plain(text):
    """A Score's or a Result's number in plain digits (fields.plain_number); ValueError for
    "1_0", "+5", "٣" and the like, which int() takes."""
    value = plain_number(text, signed=True)
    if value is None:
        raise ValueError("%r is not a number in the digits 0-9" % (text,))
    return value


def parse_side_value(text, declarer, number=plain):
    """A Score or Result tag ('620', 'NS 620', 'EW -620', 'NS 620 EW -620') -> value for NS.

    A bare number is the declarer's; returns None when it cannot be read for NS.
    """
    parts = text.replace("^", "").split()
    values = {}
    if len(parts) == 1:  # the declarer's; with no declarer (passed out) it is the same for both
        side = "EW" if declarer in (1, 3) else "NS"
        values[side] = number(parts[0])
    else:
        for i in range(0, len(parts) - 1, 2):
            if parts[i] in ("NS", "EW"):
                values[parts[i]] = number(parts[i + 1])
    if "NS" in values:
        return values["NS"]
    if "EW" in values:
        return -values["EW"]
    return None


def tricks_for_declarer(result, declarer, number=plain):
    """The Result tag as tricks won by the declarer (None when absent or of another form;
    `number`'s ValueError for a number that is not plain)."""
    if declarer is None or not result.strip():
        return None
    parts = result.replace("^", "").split()
    if len(parts) == 1:
        return number(parts[0])
    side = "NS" if declarer in (0, 2) else "EW"
    for i in range(0, len(parts) - 1, 2):
        if parts[i] == side:
            return number(parts[i + 1])
        if parts[i] in ("NS", "EW"):
            return 13 - number(parts[i + 1])
    return None


# Irregular calls the next player accepts by calling, and the paragraph that says so:
# 27A1 «Оно принимается, если этот игрок делает заявку»; 29A «ЛО нарушителя может
# предпочесть сделать заявку, теряя тем самым право на какое-либо исправление» (30-32);
# 37A «эта заявка и все последующие заявки остаются в силе». The others are not condoned:
# 36A and 39 cancel the call and every later one, 38 is never played.
CONDONED = {"27": "27A1", "30": "29A", "31": "29A", "32": "29A", "37": "37A"}


def replay_auction(game, dealer):
    """Feed the game's calls to the Laws core.

    Returns (Auction, law of the first irregular call left unsettled or None, condoned).
    An irregular call that the next player called over stands, as the Laws say (CONDONED):
    the engine settles it when that call comes, as at the table. A call marked by PBN as an
    accepted irregularity (^I insufficient, ^S out of rotation) is accepted at once. Each
    such call is listed in `condoned`, as text naming the call and the paragraph.
    """
    auction = Auction(dealer)
    seat = parse_seat(game.auction_first)
    marks = {}
    for position, token in game.auction_irregularities:
        marks.setdefault(position, []).append(token)
    condoned = []
    held = None  # (text of the irregular call, paragraph) awaiting the next player's call
    made = 0  # calls made so far

    def make(seat, call, marked):
        """One call; the law of an irregular call left unsettled, else None."""
        nonlocal held, made
        made += 1
        law = auction.call(seat, call)
        if law == REFUSED:  # not the player who may call over it (or no call can stand)
            return auction.pending[2] if auction.pending else law
        if held is not None:  # the next player called: it stands (his own call may not)
            condoned.append("%s: Law %s, accepted by %s calling" % (*held, SEATS[seat]))
            held = None
        if law is None:
            return None
        if law not in CONDONED:
            return law
        what = "call %d (%s by %s)" % (made, calls.to_pbn(call), SEATS[seat])
        if marked and auction.accept():
            condoned.append("%s: Law %s, marked accepted" % (what, CONDONED[law]))
        else:
            held = (what, CONDONED[law])
        return None

    for i, token in enumerate(game.calls):
        for mark in marks.get(i, ()):
            if mark == "^S":
                seat = (seat + 1) & 3
        if token == "-":
            seat = (seat + 1) & 3
            continue
        if token == "AP":
            while not auction.is_over():
                law = make(seat, calls.PASS, False)
                if law is not None:
                    return auction, law, condoned
                seat = (seat + 1) & 3
            continue
        law = make(seat, calls.parse(token, True), bool(marks.get(i)))
        if law is not None:
            return auction, law, condoned
        seat = (seat + 1) & 3
    if held is not None:
        return auction, auction.pending[2], condoned
    return auction, None, condoned


def check_game(path, game):
    """One line of the report (a dict) for one game."""
    out = {"file": str(path), "game": game.index}
    if game.warnings:
        out["warnings"] = game.warnings
    if game.error:
        out["error"] = game.error
        return out
    tags = game.tags
    problems = []
    board = None
    try:
        board = plain(tags.get("Board", ""))
        boards.check_board(board)
    except ValueError:
        if "Board" in tags:
            problems.append("Board tag %r is not a board number" % tags["Board"])
        board = None
    out["board"] = board
    try:
        dealer = parse_seat(tags["Dealer"]) if tags.get("Dealer") else boards.dealer(board)
        vul = (boards.parse_vulnerability(tags["Vulnerable"]) if tags.get("Vulnerable")
               else boards.vulnerability(board))
    except (ValueError, TypeError):
        out["error"] = "no usable Dealer/Vulnerable tag and no board number to derive them from"
        return out

    contract = declarer = None  # (bid, risk) or "Pass"; seat
    derived_from_auction = False
    if game.auction_first is None or not game.calls:
        out["auction"] = "none"  # an Auction tag with no calls records nothing
    else:
        try:
            auction, law, condoned = replay_auction(game, dealer)
        except ValueError as e:
            out["error"] = "auction: %s" % e
            return out
        if law is not None:
            out["auction"] = "illegal"
            call = auction.pending
            if call is None:
                problems.append("call %d is refused by the Laws engine" % (
                    len(auction.calls) + 1))
            else:
                problems.append("call %d (%s by %s) is irregular: Law %s" % (
                    len(auction.calls) + 1, calls.to_pbn(call[1]), SEATS[call[0]], law))
        else:
            # irregular but condoned: the auction as it stood gives contract and declarer
            out["auction"] = "condoned" if condoned else "legal"
            if auction.status == "passed_out":
                contract, derived_from_auction = "Pass", True
            elif auction.status == "ended":
                bid, risk, declarer = auction.contract()
                contract, derived_from_auction = (bid, risk), True
            else:
                problems.append("auction incomplete after %d calls" % len(auction.calls))
        if condoned:
            out["condoned"] = condoned

    tag_contract = tag_declarer = None
    try:
        if tags.get("Contract", "").strip():
            tag_contract = parse_contract(tags["Contract"])
        if tags.get("Declarer", "").strip():
            tag_declarer = parse_seat(tags["Declarer"].strip().lstrip("^"))
    except ValueError as e:
        problems.append("unreadable tag: %s" % e)
    if not derived_from_auction and out["auction"] != "illegal":
        contract, declarer = tag_contract, tag_declarer
        if contract == "Pass":
            declarer = None
    elif derived_from_auction:
        if tag_contract is not None and tag_contract != contract:
            problems.append("Contract tag %s, auction gives %s" % (
                tags["Contract"], "Pass" if contract == "Pass" else format_contract(*contract)))
        # '^S' (PBN 3.4.13): declarer and dummy swapped, so the tag names the auction's dummy
        expected = declarer
        if tags.get("Declarer", "").strip().startswith("^") and declarer is not None:
            expected = partner(declarer)
        if contract != "Pass" and tag_declarer is not None and tag_declarer != expected:
            problems.append("Declarer tag %s, auction gives %s" % (
                tags["Declarer"], SEATS[declarer]))

    out["contract"] = None if contract is None else (
        "Pass" if contract == "Pass" else format_contract(*contract))
    out["declarer"] = None if declarer is None else SEATS[declarer]
    out["score_ns"] = None
    out["problems"] = problems
    _check_score(out, tags, contract, declarer, vul)
    return out


def _check_score(out, tags, contract, declarer, vul):
    """Fill score_ns from contract, Result and vulnerability; compare with the Score tag."""
    problems = out["problems"]
    computed = None
    try:
        if contract == "Pass":
            computed = 0
        elif contract is not None and declarer is not None:
            tricks = tricks_for_declarer(tags.get("Result", ""), declarer)
            if tricks is not None:
                bid, risk = contract
                computed = ns_points(calls.level(bid), calls.strain(bid), risk, vul,
                                     declarer, tricks)
    except ValueError as e:
        problems.append("Result tag %r: %s" % (tags.get("Result"), e))
    out["score_ns"] = computed
    if computed is None or not tags.get("Score", "").strip():
        return
    try:
        recorded = parse_side_value(tags["Score"], declarer)
    except ValueError:
        recorded = None
    if recorded != computed:
        problems.append("Score tag %s, computed NS %d" % (tags["Score"], computed))


class Summary:
    """The counts of the last line."""

    def __init__(self):
        self.games = self.legal = self.condoned = self.illegal = self.contract = self.score = 0

    def add(self, line):
        self.games += 1
        if line.get("auction") == "legal":
            self.legal += 1
        elif line.get("auction") == "condoned":
            self.condoned += 1
        elif line.get("auction") == "illegal":
            self.illegal += 1
        problems = line.get("problems", ())
        if any(p.startswith(("Contract tag", "Declarer tag")) for p in problems):
            self.contract += 1
        if any(p.startswith("Score tag") for p in problems):
            self.score += 1

    def line(self):
        return ("pbn-check: %d games, %d legal auctions, %d irregular but condoned, "
                "%d illegal, %d contract mismatches, %d score mismatches" % (
                    self.games, self.legal, self.condoned, self.illegal, self.contract,
                    self.score))


def is_clean(line):
    """No error, no problem, an auction the Laws let stand (a condoned one stands too)."""
    return "error" not in line and not line["problems"] and line.get("auction") != "illegal"
