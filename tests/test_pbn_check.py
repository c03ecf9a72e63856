"""`host-sync pbn-check`: the Laws core against real tournament records and crafted games."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from host_sync.interchange.pbn.check import Summary, check_game, is_clean
from host_sync.interchange.pbn.read import iter_pbn_files, read_file

KNOWN_BAD = ROOT / "tests" / "data" / "pbn_known_bad.txt"


def known_bad():
    rows = {}
    for line in KNOWN_BAD.read_text().splitlines():
        if line and not line.startswith("#"):
            name, game, reason = line.split("\t")
            rows[(name, int(game))] = reason
    return rows


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "host_sync", "pbn-check", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_corpus_every_game_agrees_except_the_known_bad(corpus):
    """Every corpus auction is legal with the recorded contract and declarer, every Score
    tag is reproduced, except the games listed (with their reason) in pbn_known_bad.txt."""
    summary = Summary()
    unclean = {}
    for path in iter_pbn_files([corpus]):
        for game in read_file(path):
            line = check_game(path, game)
            summary.add(line)
            if not is_clean(line):
                unclean[(str(path.relative_to(corpus)), game.index)] = line
    listed = known_bad()
    assert set(unclean) == set(listed)
    assert all(reason.strip() for reason in listed.values())
    # 4 insufficient bids called over (27A1): each reproduces its Contract and Score tags
    assert summary.line() == ("pbn-check: 18978 games, 18906 legal auctions, 4 irregular but "
                              "condoned, 3 illegal, 5 contract mismatches, 32 score mismatches")


GOOD = """[Event "t"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Auction "N"]
1S Pass 2S Pass
4S Pass Pass Pass
[Declarer "N"]
[Contract "4S"]
[Result "10"]
[Score "NS 420"]
"""


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_one_json_object_per_game_then_the_summary(tmp_path):
    bad_board = GOOD.replace('[Contract "4S"]', '[Contract "4SX"]').replace(
        '[Score "NS 420"]', '[Score "NS 590"]')
    malformed = GOOD.replace("4S Pass Pass Pass", "4S Pass 1ZZ Pass")
    path = write(tmp_path, "t.pbn", "\n".join([GOOD, bad_board, malformed]))
    proc = run_cli(path)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    first, second, third = (json.loads(x) for x in lines[:3])
    assert first == {"file": str(path), "game": 0, "board": 1, "auction": "legal",
                     "contract": "4S", "declarer": "N", "score_ns": 420, "problems": []}
    assert second["problems"] == ["Contract tag 4SX, auction gives 4S",
                                  "Score tag NS 590, computed NS 420"]
    assert third["game"] == 2 and "1ZZ" in third["error"]
    assert lines[3] == ("pbn-check: 3 games, 2 legal auctions, 0 irregular but condoned, "
                        "0 illegal, 1 contract mismatches, 1 score mismatches")


@pytest.mark.parametrize("auction, contract, declarer, score_ns, status", [
    ("Pass Pass Pass Pass", "Pass", None, 0, "legal"),
    ("AP", "Pass", None, 0, "legal"),
    ("1S AP", "1S", "N", 80, "legal"),
    ("- - 1S Pass\nPass Pass", "1S", "E", -80, "legal"),
    ("1S 1H Pass Pass Pass", "1H", "E", -80, "condoned"),  # 27A1: South called over it
    ("1S 1H", None, None, None, "illegal"),  # nobody called over it
    ("1S Pass X Pass Pass Pass", None, None, None, "illegal"),  # 36: never condoned
    ("1S ^I 1H Pass Pass Pass", "1H", "E", -80, "condoned"),
    ("^S 1H Pass Pass Pass", "1H", "E", -80, "condoned"),
])
def test_auction_tokens(tmp_path, auction, contract, declarer, score_ns, status):
    text = GOOD.replace("1S Pass 2S Pass\n4S Pass Pass Pass", auction)
    if auction.startswith("-"):
        text = text.replace('[Auction "N"]', '[Auction "W"]')
        text = text.replace('[Dealer "N"]', '[Dealer "E"]')
    for tag in ('[Contract "4S"]\n', '[Score "NS 420"]\n', '[Declarer "N"]\n'):
        text = text.replace(tag, "")
    text = text.replace('[Result "10"]', '[Result "7"]')
    line = check_game(Path("x.pbn"), next(iter(read_file(write(tmp_path, "a.pbn", text)))))
    assert (line["auction"], line["contract"], line["declarer"], line["score_ns"]) == (
        status, contract, declarer, score_ns)


def test_condoned_irregularities_are_reported_with_the_law_and_counted_apart():
    """27A1: an insufficient bid «принимается, если этот игрок делает заявку» (the next
    player calls over it): the auction as it stood gives contract and declarer; PBN's ^I
    says the same of the call it marks. 36A: a double of partner's bid called over is
    cancelled with every later call, so that record is not the auction."""
    proc = run_cli(ROOT / "tests" / "data" / "pbn_wild" / "condoned.pbn")
    lines = proc.stdout.splitlines()
    first, marked, unsettled, doubled = (json.loads(x) for x in lines[:4])
    assert (first["auction"], first["contract"], first["declarer"], first["score_ns"]) == (
        "condoned", "2H", "N", 110)
    assert first["condoned"] == ["call 3 (1D by S): Law 27A1, accepted by W calling"]
    assert first["problems"] == [] and is_clean(first)
    assert marked["condoned"] == ["call 3 (1D by W): Law 27A1, marked accepted"]
    assert (marked["contract"], marked["declarer"], marked["problems"]) == ("2S", "N", [])
    assert unsettled["auction"] == "illegal" and unsettled["problems"] == [
        "call 3 (2H by N) is irregular: Law 27"]
    assert doubled["auction"] == "illegal" and doubled["problems"] == [
        "call 3 (X by E) is irregular: Law 36"]
    assert lines[4] == ("pbn-check: 4 games, 0 legal auctions, 2 irregular but condoned, "
                        "2 illegal, 0 contract mismatches, 0 score mismatches")


def test_games_without_blank_lines_are_each_checked():
    lines = run_cli(ROOT / "tests" / "data" / "pbn_wild" / "no_blank_lines.pbn").stdout
    games = [json.loads(x) for x in lines.splitlines()[:3]]
    assert [(g["board"], g["contract"], g["declarer"], g["score_ns"], g["problems"])
            for g in games] == [(1, "4S", "N", 420, []), (2, "3C", "E", -110, []),
                                (3, "Pass", None, 0, [])]
    assert all(g["warnings"] for g in games)


def test_swapped_declarer_is_not_a_mismatch(tmp_path):
    """PBN 3.4.13: Declarer "^S" says dummy (S) played the hand the auction gave N."""
    text = GOOD.replace('[Declarer "N"]', '[Declarer "^S"]')
    line = check_game(Path("x.pbn"), next(iter(read_file(write(tmp_path, "a.pbn", text)))))
    assert line["problems"] == [] and line["declarer"] == "N"


def test_contract_from_tags_when_there_is_no_auction(tmp_path):
    text = GOOD.replace('[Auction "N"]\n1S Pass 2S Pass\n4S Pass Pass Pass\n', "").replace(
        '[Declarer "N"]', '[Declarer "E"]').replace('[Score "NS 420"]', '[Score "EW 420"]')
    line = check_game(Path("x.pbn"), next(iter(read_file(write(tmp_path, "a.pbn", text)))))
    assert (line["auction"], line["contract"], line["declarer"], line["score_ns"]) == (
        "none", "4S", "E", -420)
    assert line["problems"] == []


@pytest.mark.parametrize("old, new, problem", [
    ('[Result "10"]', '[Result "1_0"]',
     "Result tag '1_0': '1_0' is not a number in the digits 0-9"),
    ('[Board "1"]', '[Board "\u0661"]', "Board tag '\u0661' is not a board number"),
])
def test_a_number_int_takes_but_a_file_never_writes_is_a_problem(tmp_path, old, new, problem):
    """int() read Result "1_0" as 10 and Board "١" as 1: the game checked clean."""
    path = write(tmp_path, "a.pbn", GOOD.replace(old, new))
    assert problem in check_game(Path("x.pbn"), next(iter(read_file(path))))["problems"]


def test_unreadable_input_exits_2_with_a_message(tmp_path):
    proc = run_cli(tmp_path / "missing.pbn")
    assert proc.returncode == 2 and "missing.pbn" in proc.stderr and proc.stdout == ""
    proc = run_cli(tmp_path)  # a folder with no PBN file
    assert proc.returncode == 2 and "no PBN files" in proc.stderr
    binary = tmp_path / "b.pbn"
    binary.write_bytes(b"\x00\x01\x02[")
    good = write(tmp_path, "c.pbn", GOOD)
    proc = run_cli(binary, good)
    assert proc.returncode == 2
    assert json.loads(proc.stdout.splitlines()[0])["file"] == str(binary)
    assert proc.stdout.splitlines()[-1].startswith("pbn-check: 1 games, 1 legal")


def test_quiet_prints_only_problems(tmp_path):
    other = GOOD.replace('[Score "NS 420"]', '[Score "NS 450"]')
    path = write(tmp_path, "t.pbn", GOOD + "\n" + other)
    lines = run_cli("--quiet", path).stdout.splitlines()
    assert len(lines) == 2 and json.loads(lines[0])["game"] == 1
