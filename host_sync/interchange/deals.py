"""Hand records from a PBN file into a session: each game's Board and Deal.

Every deal must be whole: four hands of 13 cards, 52 different cards (bridge.cards checks
them). A board given twice (a teams file has it once per room) must carry the same deal.
Dealer and Vulnerable tags are optional; where they differ from Law 2 for the board's number
we warn and keep the file's values (some events deal their boards to another rotation, and
the terminals and the scoring must follow the boards as dealt). Any bad game stops the
import before anything is stored.
"""

from collections import namedtuple

from bridge import boards as law2
from bridge import cards
from bridge.seats import SEATS, parse_seat

from host_sync.errors import FileProblems, Refused, at
from host_sync.event import setup
from host_sync.interchange.fields import plain_number
from host_sync.interchange.pbn.read import PbnError, read_file
from host_sync.text import ranges

HandRecord = namedtuple("HandRecord", "board deal dealer vul line")
HandRecord.__doc__ = """A board's hand record: the deal as a PBN Deal value with North first,
dealer 0..3 and vulnerability ('None', 'NS', 'EW', 'All'); line: where the file gives it."""

Imported = namedtuple("Imported", "stored replaced outside missing")
Imported.__doc__ = """What an import did: board numbers stored (new hand records), replaced
(they had one), outside (in the file, not played in the session) and missing (played in the
session and still without a hand record)."""


class DealsError(FileProblems):
    """A hand-record PBN file that cannot be imported."""


def normal_deal(text):
    """A whole deal's PBN value with North first; ValueError saying what is wrong."""
    hands = cards.parse_deal(text.strip())
    if None in hands:
        given = (16 - hands.count(None)) // 4
        raise Refused("the deal gives %d hands; a hand record needs all four" % given,
                      ru="в раскладе рук: %d; для расклада нужны все четыре" % given)
    return "N:" + " ".join(cards.hand_text(hands, seat) for seat in range(4))


def read_deals(path):
    """({board: HandRecord}, warnings) from a PBN file; DealsError listing every bad game."""
    try:
        games = list(read_file(path))
    except PbnError as e:
        raise DealsError([e]) from None
    records, problems, warnings = {}, [], []
    for game in games:
        where = "%s:%d" % (path, game.line)
        if game.error:
            warnings.append("%s: %s (the game's tags are still read)" % (where, game.error))
        try:
            record = _record(game, where, warnings)
        except ValueError as e:
            problems.append(at(where, e))
            continue
        first = records.setdefault(record.board, record)
        if first[:3] != record[:3]:
            problems.append(at(where, "board %d has another deal, dealer or vulnerability than "
                               "at line %d" % (record.board, first.line),
                               "у сдачи %d другой расклад, сдающий или зональность, чем в "
                               "строке %d" % (record.board, first.line)))
    if not records and not problems:
        problems.append(at(path, "no hand records (no game with Board and Deal tags)",
                           "нет раскладов (нет игры с тегами Board и Deal)"))
    if problems:
        raise DealsError(problems)
    return records, warnings


def _record(game, where, warnings):
    board_tag = game.tags.get("Board", "").strip()
    if not board_tag:
        raise Refused("the game has no Board tag", ru="у игры нет тега Board")
    board = plain_number(board_tag)
    if not board:
        raise Refused("not a board number: %r" % board_tag,
                      ru="не номер сдачи: %r" % board_tag)
    if "Deal" not in game.tags:
        raise Refused("board %d has no Deal tag" % board, ru="у сдачи %d нет тега Deal" % board)
    try:
        deal = normal_deal(game.tags["Deal"])
    except ValueError as e:
        raise at("board %d" % board, e) from None
    dealer, vul = law2.dealer(board), law2.vulnerability(board)
    if game.tags.get("Dealer", "").strip() not in ("", "?"):
        try:
            dealer = parse_seat(game.tags["Dealer"].strip())
        except ValueError as e:
            raise at("board %d" % board, e) from None
    if game.tags.get("Vulnerable", "").strip() not in ("", "?"):
        try:
            vul = law2.parse_vulnerability(game.tags["Vulnerable"])
        except ValueError as e:
            raise at("board %d" % board, e) from None
    if (dealer, vul) != (law2.dealer(board), law2.vulnerability(board)):
        warnings.append("%s: board %d is dealt by %s with %s vulnerable; Law 2 has %s and %s "
                        "(the file's values are kept)" % (
                            where, board, SEATS[dealer], vul, SEATS[law2.dealer(board)],
                            law2.vulnerability(board)))
    return HandRecord(board, deal, dealer, vul, game.line)


def import_deals(db, session_id, records, actor=setup.ACTOR):
    """Store the hand records of the session's boards, all in one transaction; returns
    Imported. DealsError when no board of the file is played in the session."""
    have = {row["number"]: row["deal"] for row in db.all(
        "SELECT number, deal FROM boards WHERE session_id = ?", (session_id,))}
    wanted = sorted(b for b in records if b in have)
    outside = sorted(b for b in records if b not in have)
    if not wanted:
        raise DealsError([Refused(
            "none of the file's boards (%s) is played in the session (boards %s)"
            % (ranges(outside), ranges(have)), ru="ни одна сдача файла (%s) не играется в "
            "сессии (сдачи %s)" % (ranges(outside), ranges(have)))])
    with db.transaction():
        for b in wanted:
            r = records[b]
            setup.set_deal(db, session_id, b, r.deal, r.dealer, r.vul, actor)
    return Imported([b for b in wanted if not have[b]], [b for b in wanted if have[b]],
                    outside, sorted(b for b in have if b not in records and not have[b]))
