"""USEBIO 1.2 XML (the EBU's results interchange format): export a scored session, import one.

Element names follow the USEBIO 1.2 DTD as real files use it (USEBIO > CLUB, EVENT >
SESSION > SECTION > PARTICIPANTS/PAIR/PLAYER and BOARD/TRAVELLER_LINE with NS_PAIR_NUMBER,
EW_PAIR_NUMBER, CONTRACT "4Sx", PLAYED_BY, LEAD, TRICKS, SCORE, NS_MATCH_POINTS...). The DTD
itself (http://www.ebu.co.uk/usebio/usebio_v1_2.dtd) could not be read offline; the names
were taken from USEBIO readers and writers in public code (a Swift importer, a TypeScript
exporter). USEBIO has no element for this project's adjusted scores, so a traveller line
may carry NS_SCORE / EW_SCORE (split), ADJUSTED_NS / ADJUSTED_EW (artificial codes),
WEIGHTED ("1/3 110;2/3 -50") and FOULED_GROUP, and a BOARD carries DEALER (N, E, S, W) and
VULNERABILITY (None, NS, EW, All) so a board dealt to another rotation than Law 2's is scored
as it was dealt; other readers skip unknown elements. The event's facts (Session.info) go
where USEBIO files have them: CLUB > CLUB_NAME, EVENT > DATE (DD/MM/YYYY), and each PLAYER's
federation number as NATIONAL_ID_NUMBER. The venue and the director go into EVENT > VENUE and
EVENT > DIRECTOR: no public USEBIO writer or reader within reach writes either (checked
against those named above), so like the adjusted scores' elements they are this project's
own, which other readers skip and import_xml reads back.

A session of several sections (pairs labelled "A1", "B1", as event.results.session_from_db
labels them) is written as one SECTION each, its SECTION_ID the letter and its pairs' numbers
plain, as USEBIO numbers pairs within a section. The scoring stays host_sync's: the sections
play the same boards and are scored as one field, so each line's matchpoints and each pair's
PLACE are the field's. import_xml puts a document's SECTION_IDs back in front of the numbers
when it has several sections, so the labels come back as they were.
"""

import xml.etree.ElementTree as ET

from host_sync.errors import Both, Refused, at
from host_sync.event.setup import FACT_LENGTH, SECTION_LETTERS
from host_sync.interchange.fields import (
    dealt_fields,
    file_number,
    plain_number,
    section_letters,
    set_dealt,
    weighted_parts,
    weighted_text,
)
from host_sync.scoring.session import Pair, Result, Session, check_opponents, score_session
from host_sync.text import number_text

DOCTYPE = '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">'
METHOD_NAMES = {"mp": "MATCH_POINTS", "cross-imps": "CROSS_IMPS", "butler": "BUTLER_IMPS",
                "total": "TOTAL_POINTS"}
_FACTS = (("VENUE", "venue"), ("DIRECTOR", "director"))  # EVENT's element, Session.info's key
EVENT_TYPES = {"mp": "MP_PAIRS", "cross-imps": "CROSS_IMPS", "butler": "BUTLER_PAIRS",
               "total": "PAIRS"}


def _text(parent, tag, value):
    element = ET.SubElement(parent, tag)
    element.text = "" if value is None else str(value)
    return element


def usebio_contract(contract):
    """'4SX' -> '4Sx', 'Pass' -> 'PASS' (the compact USEBIO form)."""
    text = (contract or "").upper()
    if text in ("PASS", "AP"):
        return "PASS"
    return text.replace("X", "x")


def _plain(label, cut):
    """A pair's number as its SECTION writes it: the label without its section's letter."""
    return label[cut:] if cut else label


def _participants(section, session, standings, cut):
    """The section's PAIRs, their labels written without the first `cut` characters."""
    participants = ET.SubElement(section, "PARTICIPANTS")
    for standing in standings:
        pair = session.pair(standing.pair)
        element = ET.SubElement(participants, "PAIR")
        _text(element, "PAIR_NUMBER", _plain(pair.number, cut))
        if standing.direction:
            _text(element, "DIRECTION", standing.direction)
        _text(element, "PLACE", standing.label)
        _text(element, "TOTAL_SCORE", number_text(standing.total))
        if standing.percent is not None:
            _text(element, "PERCENTAGE", number_text(standing.percent))
        _text(element, "BOARDS_PLAYED", standing.boards)
        numbers = session.info.get("numbers", {}).get(pair.number, ())
        for i, name in enumerate(pair.names):
            player = ET.SubElement(element, "PLAYER")
            _text(player, "PLAYER_NAME", name)
            if i < len(numbers) and numbers[i] is not None:
                _text(player, "NATIONAL_ID_NUMBER", numbers[i])


def _line(board_element, session, s, cut):
    r = s.result
    line = ET.SubElement(board_element, "TRAVELLER_LINE")
    _text(line, "NS_PAIR_NUMBER", _plain(r.ns, cut))
    _text(line, "EW_PAIR_NUMBER", _plain(r.ew, cut))
    if r.round is not None:
        _text(line, "ROUND_NUMBER", r.round)
    if r.table is not None:
        _text(line, "TABLE_NUMBER", r.table)
    _text(line, "CONTRACT", usebio_contract(r.contract))
    _text(line, "PLAYED_BY", r.declarer)
    _text(line, "LEAD", r.lead)
    _text(line, "TRICKS", "" if r.tricks is None else r.tricks)
    kind = r.kind()
    if kind in ("played", "assigned", "split"):
        _text(line, "SCORE", s.ns_points)
    if kind in ("assigned", "split"):
        _text(line, "NS_SCORE", r.assigned)
        if r.assigned_ew is not None:
            _text(line, "EW_SCORE", r.assigned_ew)
    if r.ns_artificial:
        _text(line, "ADJUSTED_NS", r.ns_artificial)
    if r.ew_artificial:
        _text(line, "ADJUSTED_EW", r.ew_artificial)
    if r.weighted:
        _text(line, "WEIGHTED", weighted_text(r.weighted))
    if r.group is not None:
        _text(line, "FOULED_GROUP", r.group)
    if session.method == "mp":
        _text(line, "NS_MATCH_POINTS", number_text(s.ns_value))
        _text(line, "EW_MATCH_POINTS", number_text(s.ew_value))
    elif session.method != "total":
        _text(line, "NS_IMPS", number_text(s.ns_value))
        _text(line, "EW_IMPS", number_text(s.ew_value))


SUITS = ("SPADES", "HEARTS", "DIAMONDS", "CLUBS")


def _hands(board_element, deal):
    """HAND elements (DIRECTION and one element per suit) from a PBN Deal value."""
    if not deal or ":" not in deal:
        return
    first, hands = deal.split(":", 1)
    seats = "NESW"
    for i, hand in enumerate(hands.split()):
        if hand == "-":
            continue
        element = ET.SubElement(board_element, "HAND")
        _text(element, "DIRECTION", seats[(seats.index(first.strip().upper()) + i) % 4])
        for suit, cards in zip(SUITS, hand.split(".")):
            _text(element, suit, cards)


def _sections(session, scored):
    """(SECTION_ID, standings, {board: lines}, characters cut off each label) of each section:
    one per letter when the pairs are labelled as a session of several sections labels them
    ("A1", a team's pair "A1B": fields.section_letters) and every line is played within one
    section; else the whole session as section A, its labels as they are."""
    letters = section_letters(s.pair for s in scored.standings)
    if not letters or any(letters.get(r.ns) != letters.get(r.ew) for r in session.results):
        return [("A", scored.standings, scored.lines, 0)]
    standings, boards = {}, {}
    for s in scored.standings:
        standings.setdefault(letters[s.pair], []).append(s)
    for number, lines in scored.lines.items():
        for s in lines:
            boards.setdefault(letters[s.result.ns], {}).setdefault(number, []).append(s)
    return [(letter, standings[letter], boards[letter], 1) for letter in sorted(standings)]


def _deal(board_element):
    """The PBN Deal value of a BOARD's HAND elements ('' without all four)."""
    hands = {}
    for hand in board_element.findall("HAND"):
        hands[_get(hand, "DIRECTION")] = ".".join(_get(hand, s) or "" for s in SUITS)
    if set(hands) != set("NESW"):
        return ""
    return "N:" + " ".join(hands[s] for s in "NESW")


def export_xml(session, scored=None, club=""):
    """The USEBIO 1.2 document of a scored session, as UTF-8 text."""
    scored = scored or score_session(session)
    root = ET.Element("USEBIO", Version="1.2")
    club = club or session.info.get("club")
    if club:
        _text(ET.SubElement(root, "CLUB"), "CLUB_NAME", club)
    event = ET.SubElement(root, "EVENT", EVENT_TYPE=EVENT_TYPES[session.method])
    _text(event, "PROGRAM_NAME", "host-sync")
    _text(event, "EVENT_DESCRIPTION", session.name)
    if session.info.get("date"):  # DD/MM/YYYY, as USEBIO files give it
        _text(event, "DATE", "/".join(reversed(session.info["date"].split("-"))))
    for tag, fact in _FACTS:
        if session.info.get(fact):
            _text(event, tag, session.info[fact])
    _text(event, "BOARD_SCORING_METHOD", METHOD_NAMES[session.method])
    if session.method == "mp":
        _text(event, "MP_SCALE", session.scale)
    if session.method == "butler":
        _text(event, "BUTLER_TRIM", session.trim)
    _text(event, "WINNER_TYPE", len(scored.fields()))
    _text(event, "BOARDS_PLAYED", len(scored.lines))
    session_element = ET.SubElement(event, "SESSION", SESSION_ID="1")
    for letter, standings, boards, cut in _sections(session, scored):
        section = ET.SubElement(session_element, "SECTION", SECTION_ID=letter)
        _participants(section, session, standings, cut)
        for number, lines in boards.items():
            board = ET.SubElement(section, "BOARD")
            _text(board, "BOARD_NUMBER", number)
            dealer, vul = dealt_fields(session.board(number))
            _text(board, "DEALER", dealer)
            _text(board, "VULNERABILITY", vul)
            _hands(board, session.board(number).deal)
            for s in lines:
                _line(board, session, s, cut)
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n%s\n%s\n' % (DOCTYPE, body)


def _get(element, tag):
    child = element.find(tag)
    return None if child is None or child.text is None else child.text.strip()


def _int(element, tag, where, signed=False):
    """The number in element `tag` (None when absent or empty): plain digits, as exported,
    the whitespace around them an XML layout's. Refused at `where` for any other text."""
    text = _get(element, tag)
    return None if not text else file_number(text, tag, where, signed)


def _result(board_number, line, prefix):
    """The Result of a TRAVELLER_LINE, its pairs' numbers behind `prefix` (_prefixes)."""
    where = Both("board %d" % board_number, "сдача %d" % board_number)
    contract = _get(line, "CONTRACT") or ""
    contract = "Pass" if contract.upper() == "PASS" else contract.upper()
    result = Result(board_number, _get(line, "NS_PAIR_NUMBER"), _get(line, "EW_PAIR_NUMBER"),
                    contract=contract, declarer=_get(line, "PLAYED_BY") or "",
                    tricks=_int(line, "TRICKS", where), lead=_get(line, "LEAD") or "",
                    round=_int(line, "ROUND_NUMBER", where),
                    table=_int(line, "TABLE_NUMBER", where),
                    ns_artificial=_get(line, "ADJUSTED_NS"),
                    ew_artificial=_get(line, "ADJUSTED_EW"), group=_get(line, "FOULED_GROUP"))
    if not result.ns or not result.ew:
        raise at(where, "a traveller line without both pair numbers",
                 "строка протокола без номеров обеих пар")
    result.ns, result.ew = prefix + result.ns, prefix + result.ew
    check_opponents(result, where)
    if line.find("NS_SCORE") is not None:
        result.assigned = _int(line, "NS_SCORE", where, signed=True)
        result.assigned_ew = _int(line, "EW_SCORE", where, signed=True)
    elif not contract and not result.ns_artificial and line.find("WEIGHTED") is None \
            and _get(line, "SCORE"):
        result.assigned = _int(line, "SCORE", where, signed=True)  # no contract: assigned
    weighted = _get(line, "WEIGHTED")
    if weighted:
        result.weighted = weighted_parts(weighted, where)
    return result


def _info(root, event):
    """Session.info from CLUB_NAME, the event's VENUE and DIRECTOR (text on one line, up to
    setup.FACT_LENGTH characters, as `event set` takes them; other text is left out) and its
    DATE (DD/MM/YYYY; another form is left out rather than guessed)."""
    info = {"numbers": {}}
    club = root.find("CLUB")
    if club is not None and _get(club, "CLUB_NAME"):
        info["club"] = _get(club, "CLUB_NAME")
    for tag, fact in _FACTS:
        text = _get(event, tag) or ""
        if 0 < len(text) <= FACT_LENGTH and text.isprintable():
            info[fact] = text
    parts = (_get(event, "DATE") or "").split("/")
    if len(parts) == 3 and all(plain_number(p) is not None for p in parts) \
            and len(parts[2]) == 4:
        info["date"] = "%s-%02d-%02d" % (parts[2], int(parts[1]), int(parts[0]))
    return info


def _prefixes(sections):
    """What goes in front of each SECTION's pair numbers: nothing with one section; with
    several, its SECTION_ID, one letter A to Z and each its own, as session_from_db labels the
    pairs of several sections (pair 1 of A and pair 1 of B are two pairs, "A1" and "B1")."""
    if len(sections) < 2:
        return [""] * len(sections)
    letters = [(s.get("SECTION_ID") or "").strip().upper() for s in sections]
    for letter in letters:
        if not (len(letter) == 1 and letter in SECTION_LETTERS):
            raise Refused("SECTION_ID %r: the sections of a session are letters A to Z" % (
                letter[:20],), ru="SECTION_ID %r: секции сессии — буквы от A до Z" % (
                letter[:20],))
    repeated = sorted({letter for letter in letters if letters.count(letter) > 1})
    if repeated:
        raise Refused("section %s is given twice" % repeated[0],
                      ru="секция %s дана дважды" % repeated[0])
    return letters


def _set_deal(session, number, board):
    """Give board `number` the hands of a BOARD element, when it has them; Refused when they
    differ from another section's (the sections play the same boards, scored as one field)."""
    deal, stored = _deal(board), session.board(number)
    if deal and stored.deal and deal != stored.deal:
        raise Refused("board %d: the hands differ from section to section" % number,
                      ru="сдача %d: руки в секциях разные" % number)
    stored.deal = deal or stored.deal


def import_xml(text):
    """A Session from a USEBIO 1.2 document (pairs events); ValueError when it is not one."""
    try:
        root = ET.fromstring(text.encode("utf-8") if isinstance(text, str) else text)
    except ET.ParseError as e:
        raise Refused("not XML: %s" % e, ru="не XML: %s" % e) from e
    if root.tag != "USEBIO":
        raise Refused("not a USEBIO document (root element <%s>)" % root.tag,
                      ru="не документ USEBIO (корневой элемент <%s>)" % root.tag)
    event = root.find("EVENT")
    if event is None:
        raise Refused("USEBIO document without an EVENT", ru="в документе USEBIO нет EVENT")
    method_name = _get(event, "BOARD_SCORING_METHOD") or "MATCH_POINTS"
    methods = {v: k for k, v in METHOD_NAMES.items()}
    if method_name not in methods:
        raise Refused("board scoring method %s is not supported" % method_name,
                      ru="способ подсчёта сдач %s не поддерживается" % method_name)
    session = Session(name=_get(event, "EVENT_DESCRIPTION") or "", method=methods[method_name],
                      scale=_int(event, "MP_SCALE", "EVENT") or 2,
                      trim=_int(event, "BUTLER_TRIM", "EVENT") or 0)
    session.info = _info(root, event)
    sections = list(event.iter("SECTION"))
    for section, prefix in zip(sections, _prefixes(sections)):
        for pair in section.iter("PAIR"):
            number = _get(pair, "PAIR_NUMBER")
            number = prefix + number if number else number
            players = pair.findall("PLAYER")
            session.pairs[number] = Pair(number, tuple(_get(p, "PLAYER_NAME") or ""
                                                       for p in players))
            ids = tuple(_get(p, "NATIONAL_ID_NUMBER") for p in players)
            if any(ids):
                session.info["numbers"][number] = ids
        for board in section.findall("BOARD"):
            number = _int(board, "BOARD_NUMBER", "BOARD")
            if number is None:
                raise Refused("a BOARD without BOARD_NUMBER", ru="BOARD без BOARD_NUMBER")
            _set_deal(session, number, board)
            set_dealt(session, number, _get(board, "DEALER"), _get(board, "VULNERABILITY"),
                      "board %d" % number)
            session.results += [_result(number, line, prefix) for line in board.findall(
                "TRAVELLER_LINE")]
    return session

