"""Every fact the board's code mirrors instead of importing is pinned here to its source.

The auction engine and the terminal's session keep their codes, statuses and journal bits as
private `const()`s (one module and no imports is what the board's heap affords: see
bridge/auction.py's docstring), and the terminal computes North-South's score itself; each copy
must stay equal to what `bridge.calls`, `bridge.lawcodes`, `bridge.play` and the host's
`scoring.session.ns_points` say, or a record written on the board would mean something else on
the host. (The host's count of refused cards that calls the director is the session's.)
"""

import itertools

import pytest
from bridge import auction, calls, lawcodes, play
from bridge import score as law77
from terminal import config, config_parse, session

from host_sync.scoring.session import ns_points
from host_sync.station import ingest

SEVEN_NT = calls.bid(7, calls.STRAINS.index("NT"))

MIRRORS = [
    (auction, "_PASS", calls.PASS), (auction, "_DOUBLE", calls.DOUBLE),
    (auction, "_REDOUBLE", calls.REDOUBLE), (auction, "_FIRST_BID", calls.FIRST_BID),
    (auction, "_LAST_LEGAL_BID", SEVEN_NT), (auction, "_LAST_CODE", calls.LAST_BID),
    (auction, "_AUCTION", lawcodes.AUCTION), (auction, "_DIRECTOR", lawcodes.DIRECTOR),
    (auction, "_ENDED", lawcodes.ENDED), (auction, "_PASSED_OUT", lawcodes.PASSED_OUT),
    (auction, "_NEXT", lawcodes.NEXT), (auction, "_THROUGHOUT", lawcodes.THROUGHOUT),
    (auction, "_EV_ARTIFICIAL", lawcodes.EV_ARTIFICIAL),
    (auction, "_EV_SAME_MEANING", lawcodes.EV_SAME_MEANING),
    (auction, "_EV_UNINTENDED", lawcodes.EV_UNINTENDED),
    (auction, "_EV_DELIBERATE", lawcodes.EV_DELIBERATE),
    (auction, "_EV_CHANGE", lawcodes.EV_CHANGE),
    (auction, "_EV_SIMULTANEOUS", lawcodes.EV_SIMULTANEOUS),
    (auction, "_EV_ACCEPT", lawcodes.EV_ACCEPT), (auction, "_EV_REJECT", lawcodes.EV_REJECT),
    (auction, "_EV_DIRECTOR", lawcodes.EV_DIRECTOR),
    (auction, "_EV_EXPOSED", lawcodes.EV_EXPOSED),
    (session, "FIRST_BID", calls.FIRST_BID), (session, "_MAX_CONTRACT", SEVEN_NT),
    (session, "_ARTIFICIAL", lawcodes.EV_ARTIFICIAL),
    (session, "_SAME_MEANING", lawcodes.EV_SAME_MEANING),
    (session, "_ACCEPT", lawcodes.EV_ACCEPT), (session, "_REJECT", lawcodes.EV_REJECT),
    (session, "_PLAY_ENDED", play.ENDED), (session, "PLAY_DIRECTOR", play.DIRECTOR),
    (law77, "_CLUBS", calls.STRAINS.index("C")), (law77, "_DIAMONDS", calls.STRAINS.index("D")),
    (law77, "_NOTRUMP", calls.STRAINS.index("NT")),
    (config, "_BOARD", config_parse._BOARD),
    (ingest, "CARD_REFUSALS", session.CARD_REFUSALS),
]


@pytest.mark.parametrize("module, name, source", MIRRORS,
                         ids=["%s.%s" % (m.__name__, n) for m, n, _ in MIRRORS])
def test_each_mirror_equals_its_source(module, name, source):
    assert getattr(module, name) == source


def test_the_session_change_bits_are_lawcodes_own():
    assert 1 << session._CHANGE_SHIFT == lawcodes.EV_UNINTENDED
    assert 2 << session._CHANGE_SHIFT == lawcodes.EV_DELIBERATE


def test_the_terminal_scores_north_south_as_the_host_does():
    """Every contract, declarer, vulnerability and number of tricks: the terminal's
    session.ns_score (the `sc` it records) equals the host's one definition."""
    checked = 0
    for bid, risk, declarer, vul, tricks in itertools.product(
            range(calls.FIRST_BID, SEVEN_NT + 1), (0, 1, 2), range(4),
            ("None", "NS", "EW", "All"), range(14)):
        want = ns_points(calls.level(bid), calls.strain(bid), risk, vul, declarer, tricks)
        assert session.ns_score((bid, risk, declarer), vul, tricks) == want
        checked += 1
    assert checked == 35 * 3 * 4 * 4 * 14
    assert session.ns_score((calls.FIRST_BID, 0, -1), "All", 0) == 0  # passed out
