"""Runs the Laws core over the shared test vectors and prints what it computed, as JSON.

The same file runs under CPython and under the real `micropython` interpreter
(`micropython tests/core_runner.py VECTORS.json` with MICROPYPATH=device), so tests can
assert that both interpreters compute exactly the same thing.
"""

import json
import sys

from bridge import boards, calls, score
from bridge.auction import Auction
from bridge.seats import SEATS, parse_seat


def attempt(fn, *args):
    """fn(*args) as a JSON-able result, or {"error": ...} when the core refuses the input."""
    try:
        return fn(*args)
    except ValueError as e:
        return {"error": str(e)}


def call_vectors(tokens):
    out = []
    for token in tokens:
        code = attempt(calls.parse, token, True)  # calls as made: 8S too (Law 38)
        if isinstance(code, dict):
            out.append(code)
        else:
            out.append([code, calls.to_pbn(code), calls.display(code, "en"),
                        calls.display(code, "ru")])
    return out


def contract_vectors(texts):
    out = []
    for text in texts:
        got = attempt(calls.parse_contract, text)
        out.append(list(got) if isinstance(got, tuple) else got)
    return out


def board_vectors(numbers):
    out = []
    for b in numbers:
        d = attempt(boards.dealer, b)
        out.append(d if isinstance(d, dict) else [SEATS[d], boards.vulnerability(b)])
    return out


def auction_vector(dealer, tokens):
    """Feed calls in rotation from the dealer; a token 'W:1S' is made by that seat instead."""
    a = Auction(parse_seat(dealer))
    seat = a.dealer
    for token in tokens.split():
        if ":" in token:
            seat, token = parse_seat(token[0]), token[2:]
        law = a.call(seat, calls.parse(token, True))
        if law is not None:
            return {"status": a.status, "law": law, "at": len(a.calls)}
        seat = (seat + 1) & 3
    c = a.contract()
    contract = None
    declarer = None
    if c is not None:
        contract = calls.to_pbn(c[0]) + score.RISKS[c[1]]
        declarer = SEATS[c[2]]
    return {"status": a.status, "contract": contract, "declarer": declarer}


def score_vectors(bad_inputs):
    table = []
    for level in range(1, 8):
        for strain in range(5):
            for risk in range(3):
                for vul in (False, True):
                    table.append([score.score(level, strain, risk, vul, t) for t in range(14)])
    errors = [attempt(score.score, *args) for args in bad_inputs]
    return {"table": table, "errors": errors}


def main(path):
    with open(path) as f:
        vectors = json.load(f)
    result = {
        "calls": call_vectors(vectors["calls"]),
        "bids": [attempt(calls.parse, token) for token in vectors["calls"]],
        "boards": board_vectors(vectors["boards"]),
        "contracts": contract_vectors(vectors["contracts"]),
        "auctions": [auction_vector(d, t) for d, t, _ in vectors["auctions"]],
        "scores": score_vectors(vectors["bad_scores"]),
    }
    print(json.dumps(result))


main(sys.argv[1])
