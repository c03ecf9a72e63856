"""Team files of the corpus: each board's open and closed results give the recorded ScoreIMP.

Scores are recomputed from contract, declarer and tricks (`pbn_check.check_game`): some files'
Score tags are garbled (Reno's "NS -2003"). The two games of a board are compared and the
IMPs checked against the ScoreIMP tag of either game. Venice Cup, the ACBL trials and the
first Spingold segments write the IMPs of the tagged game's own North-South; the Reno
quarter-finals and the last Spingold segment follow no single seat convention for the sign,
so only the number of IMPs is checked there.
"""

from collections import defaultdict
from fractions import Fraction as F

import pytest

from host_sync.errors import Refused
from host_sync.interchange.pbn.check import check_game
from host_sync.interchange.pbn.read import iter_pbn_files, read_file
from host_sync.scoring.imps import imps
from host_sync.scoring.teams import board_imps, match

# folder -> tagged games checked (all its ScoreIMP tags but those of WRONG_TAGS, and one
# Reno game whose tags are all "?" except ScoreIMP)
TEAM_FOLDERS = {
    "1997-Orbis_Venice_Cup": 57 - 2,
    "1998-ACBL_Open_International_Team_Trials": 343 - 1,
    "1998-CHICAGO_SUMMER_NA_Bridge_Championships_-_Spingold_Knockout_Teams": 81,
    "1998-Spring_NABC_-_Reno": 42 - 1,
}
UNSIGNED_FILES = {"VFQTR1.PBN", "VFQTR2.PBN", "VFQTR3.PBN", "VFQTR4.PBN", "98SPINF4.PBN"}
# Tags no pair of results can give: 30 points are not 5 IMPs, equal scores are not 1 IMP.
WRONG_TAGS = {("WTC97F8.PBN", "120"), ("98ITTF1.PBN", "13")}


def _tag_value(text):
    side, value = text.split()
    return int(value) if side == "NS" else -int(value)


@pytest.mark.parametrize("folder", sorted(TEAM_FOLDERS))
def test_open_closed_pairs_give_score_imp(corpus, folder):
    checked = 0
    for path in iter_pbn_files([corpus / folder]):
        boards = defaultdict(list)
        for game in read_file(path):
            boards[(game.tags.get("Stage"), game.tags.get("Board"))].append(game)
        for (_, number), games in boards.items():
            tagged = [g for g in games if "ScoreIMP" in g.tags]
            if not tagged or (path.name, number) in WRONG_TAGS:
                continue
            if not number.isdigit():
                continue
            assert len(games) == 2, (path.name, number)
            first, second = (check_game(path, g)["score_ns"] for g in games)
            for game in tagged:
                own, other = (second, first) if game is games[1] else (first, second)
                expected = board_imps(own, other)[0]
                value = _tag_value(game.tags["ScoreIMP"])
                if path.name in UNSIGNED_FILES:
                    assert abs(value) == abs(expected), (path.name, number)
                else:
                    assert value == expected, (path.name, number)
                checked += 1
    assert checked == TEAM_FOLDERS[folder]


def test_board_imps_split_and_knockout():
    # balanced: team A +620 in the open room, its opponents +100 undoubled... A gains 12
    assert board_imps(620, -100) == (12, -12)
    # split in the closed room (12C1e): NS there get -100, EW (team A) are charged -200
    assert board_imps(620, -100, closed_ew=-200) == (imps(620 - 200), imps(-100 - 620))
    # knockout (12C4): both get the mean of their own results
    a, b = board_imps(620, -100, closed_ew=-200, knockout=True)
    assert a == -b == (imps(420) - imps(-720)) / 2
    # an artificial A+ to the open-room NS decides the board: +3 / -3 (12C2b)
    assert board_imps("A+", 420) == (3, -3)
    assert board_imps(420, "A+") == (-3, 3)


def test_match_to_vps():
    boards = [(620, -100), (-50, -50), (100, 600)]
    net_a, net_b, vp_a, vp_b = match(boards)
    assert (net_a, net_b) == (12 + 0 - 11, -1)
    assert vp_a + vp_b == 20 and vp_a > vp_b
    with pytest.raises(ValueError):
        board_imps("B+", 100)


def test_artificial_scores_in_a_match_count_each_table_s_award_whichever_the_order():
    """Law 12C2(b): +3 / 0 / -3 IMPs an award. The closed room's code was dropped when the
    open room's was given too (board_imps("A", "A+") was (0, 0), ("A+", "A") (3, -3)), and an
    EW code of its own was ignored; awards need not balance (12C1e, Law 80B)."""
    assert board_imps("A+", "A") == (3, -3) and board_imps("A", "A+") == (-3, 3)
    assert board_imps("A+", "A+") == (0, 0)  # each team wronged at one table, at fault at one
    assert board_imps("A+", 420, open_ew="A+") == (3, 3)  # both sides non-offending
    assert board_imps(420, "A-", closed_ew="A-") == (-3, -3)


def test_a_team_s_a_plus_becomes_its_imps_a_board_on_the_other_boards_when_more():
    """Law 12C2(c) «(или эквиваленты в ИМПах)»: team A won 12 IMPs on each played board, so
    its A+ is 12, not 3; team B, offending (A-), had -12 a board: it keeps that, not -3."""
    net_a, net_b, _, _ = match([(620, -100)] * 3 + [("A+", None)])
    assert (net_a, net_b) == (48, -48)
    net_a, net_b, _, _ = match([(620, -100), (-100, 100), (-100, 100), ("A+", None)])
    assert (net_a, net_b) == (12 - 10 + 3, -12 + 10 - 3)  # 2/3 a board: the award stands


def test_a_team_board_that_is_no_score_is_refused_with_the_reason():
    assert board_imps(620, [(F(1, 2), 100), (F(1, 2), -100)]) == board_imps(
        620, ((F(1, 2), 100), (F(1, 2), -100)))  # a weighted score given as a list
    for bad in ((620, None), (620, True), (620, "B+"), (620, [(F(1, 3), 100)])):
        with pytest.raises(Refused):
            board_imps(*bad)


def test_an_a_plus_at_both_tables_is_two_awards_each_raised_by_12c2c():
    """A team not at fault at both tables of a board got 3 + 3 IMPs while one not at fault
    at one table (the other played) was raised to its 11 IMPs a board: less for more."""
    flat = (990, 400)  # 6NT= against 3NT=: 11 IMPs to team A
    one, _, _, _ = match([flat, ("A+", 400)])
    both, _, _, _ = match([flat, ("A+", "A-")])  # closed room: B's NS A-, A's EW A+
    assert one == 11 + 11 and both == 11 + 11 + 11
