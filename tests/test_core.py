"""The Laws core on both interpreters: calls, boards (Law 2), auctions, scores (Law 77).

`core_runner.py` computes everything from `data/core_vectors.json`; it runs once under
CPython and once under the real `micropython`, and every figure must agree between the two
and with an independent expectation (the Law 2 table of DESIGN.md, endplay's scorer).
"""

import json

import pytest
from conftest import ROOT, run_device

VECTORS = ROOT / "tests" / "data" / "core_vectors.json"


@pytest.fixture(scope="module")
def vectors():
    return json.loads(VECTORS.read_text())


@pytest.fixture(scope="module", params=["cpython", "micropython"])
def computed(request):
    proc = run_device(["tests/core_runner.py", str(VECTORS)], interpreter=request.param)
    assert proc.returncode == 0, proc.stderr.decode()
    return json.loads(proc.stdout)


def test_interpreters_agree():
    outputs = [run_device(["tests/core_runner.py", str(VECTORS)], interpreter=i).stdout
               for i in ("cpython", "micropython")]
    assert json.loads(outputs[0]) == json.loads(outputs[1])


EXPECTED_CALLS = {  # token -> (code, PBN token)
    "Pass": (0, "Pass"), "P": (0, "Pass"), "pass": (0, "Pass"), "X": (1, "X"), "x": (1, "X"),
    "XX": (2, "XX"), "1C": (3, "1C"), "1D": (4, "1D"), "1H": (5, "1H"), "1S": (6, "1S"),
    "1NT": (7, "1NT"), "1N": (7, "1NT"), "3nt": (17, "3NT"), "7C": (33, "7C"),
    "7NT": (37, "7NT"), "8S": (41, "8S"), "9NT": (47, "9NT"), " 2H ": (10, "2H"),
}


def test_call_tokens(vectors, computed):
    for token, got in zip(vectors["calls"], computed["calls"]):
        if token in EXPECTED_CALLS:
            assert tuple(got[:2]) == EXPECTED_CALLS[token], token
        else:
            assert set(got) == {"error"} and repr(token) in got["error"], (token, got)


def test_a_bid_is_one_to_seven(vectors, computed):
    """Law 18A: «Назначение обозначает количество объявленных взяток (т.е. взяток сверх шести),
    от одной до семи». Where a bid is meant (`parse` without `above`), 8S and 9NT are refused
    like any other non-call, on both interpreters; everything else parses as a call as made."""
    above_seven = 0
    for token, got, made in zip(vectors["calls"], computed["bids"], computed["calls"]):
        if isinstance(made, list) and made[0] >= 38:  # 8C and above: Law 38's calls
            above_seven += 1
            assert set(got) == {"error"} and repr(token) in got["error"], (token, got)
        elif isinstance(made, list):
            assert got == made[0], token
        else:
            assert set(got) == {"error"}, token
    assert above_seven >= 2


def test_call_display_names(computed):
    by_code = {g[0]: g for g in computed["calls"] if isinstance(g, list)}
    assert by_code[0][2:] == ["Pass", "Пас"]
    assert by_code[1][2:] == ["Double", "Контра"]
    assert by_code[2][2:] == ["Redouble", "Реконтра"]
    assert by_code[6][2:] == ["1♠", "1♠"]
    assert by_code[17][2:] == ["3NT", "3БК"]
    assert by_code[3][3] == "1♣" and by_code[4][3] == "1♦" and by_code[5][3] == "1♥"


EXPECTED_CONTRACTS = {"4S": [21, 0], "3NTX": [17, 1], "6hxx": [30, 2], " 1N ": [7, 0],
                      "7NTXX": [37, 2], "Pass": None, "P": None, "AP": None}


def test_contracts(vectors, computed):
    for text, got in zip(vectors["contracts"], computed["contracts"]):
        if text in EXPECTED_CONTRACTS:
            assert got == EXPECTED_CONTRACTS[text], text
        else:
            assert got == {"error": "not a contract: %r" % text}, text


# Law 2 as DESIGN.md gives it: vulnerability by board within the 16-board cycle.
LAW2_VUL = {"None": (1, 8, 11, 14), "NS": (2, 5, 12, 15), "EW": (3, 6, 9, 16),
            "All": (4, 7, 10, 13)}


def test_boards_law2(vectors, computed):
    for board, got in zip(vectors["boards"], computed["boards"]):
        if isinstance(board, int) and not isinstance(board, bool) and board >= 1:
            dealer, vul = got
            assert dealer == "NESW"[(board - 1) % 4]
            assert ((board - 1) % 16) + 1 in LAW2_VUL[vul], board
        else:
            assert "error" in got and "board number" in got["error"], board


def test_auctions(vectors, computed):
    for (dealer, tokens, expected), got in zip(vectors["auctions"], computed["auctions"]):
        assert got == expected, (dealer, tokens)


def test_scores_match_endplay(computed):
    from endplay.types import Contract, Denom, Penalty, Player, Vul

    denoms = (Denom.clubs, Denom.diamonds, Denom.hearts, Denom.spades, Denom.nt)
    penalties = (Penalty.passed, Penalty.doubled, Penalty.redoubled)
    rows = iter(computed["scores"]["table"])
    checked = 0
    for level in range(1, 8):
        for strain in range(5):
            for risk in range(3):
                for vul in (Vul.none, Vul.both):
                    row = next(rows)
                    for tricks in range(14):
                        c = Contract(level=level, denom=denoms[strain], declarer=Player.north,
                                     penalty=penalties[risk], result=tricks - level - 6)
                        assert row[tricks] == c.score(vul), (level, strain, risk, vul, tricks)
                        checked += 1
    assert checked == 7 * 5 * 3 * 2 * 14


def test_impossible_scores_are_refused(computed):
    for err in computed["scores"]["errors"]:
        assert set(err) == {"error"}
        assert "must be" in err["error"]


def test_compiled_firmware_agrees(tmp_path):
    """The .mpy files mpy-cross makes for the board compute what the sources compute."""
    import subprocess

    from conftest import compile_device, micropython_path

    firmware = compile_device(tmp_path)
    env = {"MICROPYPATH": str(firmware), "PATH": "/usr/bin:/bin"}
    compiled = subprocess.run([micropython_path(), str(ROOT / "tests" / "core_runner.py"),
                               str(VECTORS)], capture_output=True, env=env, timeout=120)
    assert compiled.returncode == 0, compiled.stderr.decode()
    source = run_device(["tests/core_runner.py", str(VECTORS)], interpreter="micropython")
    assert json.loads(compiled.stdout) == json.loads(source.stdout)
