"""Every corpus game with a Play section, replayed card by card through the play engine.

PBN 3.6 (shared/ref/pbn_v21.txt): each line of a Play section is one trick, its cards in
columns by seat starting from the Play tag's seat, not in the order played; the trick's leader
is the previous trick's winner (the first: the Play tag's seat). '-' is an unknown card: the
replay stops before the first trick holding one. '^R' marks a revoke, '^L' a lead out of turn.

Asserted: no card refused and no irregularity except the revokes marked '^R' (each of them
found at its trick and seat); the tricks agree with the Result tag: exactly when all 13 tricks
are recorded (after Law 64 transfers), and when the record stops early ('*', a claim) the
Result is one that a claim of the rest could give. The games where the file contradicts
itself are listed, with the reason, in scenarios_play/corpus_file_errors.jsonl.
"""

import json

from bridge import calls, cards
from bridge.board_replay import Board, encode, replay_line
from bridge.seats import SEATS, parse_seat
from conftest import CORPUS, ROOT, run_device
from trick_referee import winner

from host_sync.interchange.pbn.check import parse_contract, tricks_for_declarer
from host_sync.interchange.pbn.read import iter_pbn_files, read_file

KNOWN = ROOT / "tests" / "scenarios_play" / "corpus_file_errors.jsonl"
SAMPLE_EVERY = 60  # games replayed under MicroPython too: about 300


def scenario(game, sid):
    """(whole-board scenario, facts from the file) for a game with a Play section.

    Raises ValueError when the tags cannot give a contract and declarer.
    """
    tags = game.tags
    contract = parse_contract(tags.get("Contract", "") or "Pass")
    if contract == "Pass":
        raise ValueError("no contract")
    declarer = parse_seat(tags.get("Declarer", "").strip().lstrip("^"))
    bid, risk = contract
    trump = calls.strain(bid)
    first = parse_seat(game.play_first)
    marks = dict(game.play_irregularities)
    events, revokes = [], set()
    leader = first
    plays = game.plays
    for t in range(13):
        row = plays[t * 4:t * 4 + 4]
        if len(row) < 4 or "-" in row:
            break
        trick = {}
        for k in range(4):
            seat = (first + k) & 3
            trick[seat] = cards.parse_card(row[k])
            if marks.get(t * 4 + k) == "^L":
                leader = seat
            elif marks.get(t * 4 + k) == "^R":
                revokes.add((t + 1, SEATS[seat]))
        for k in range(4):
            seat = (leader + k) & 3
            events.append({"seat": SEATS[seat], "card": cards.token(trick[seat])})
        leader = winner(trick, leader, trump)
    facts = {"revokes": revokes, "result": tricks_for_declarer(tags.get("Result", ""), declarer)}
    obj = {"id": sid, "deal": tags["Deal"], "contract": calls.to_pbn(bid) + ("", "X", "XX")[risk],
           "declarer": SEATS[declarer], "events": events}
    return obj, facts


def problems_of(board, out, facts):
    """What the replay and the file disagree on (empty when they agree)."""
    problems = []
    if out["refused"]:
        problems.append("cards refused at events %s" % out["refused"][:3])
    if out["pending"] is not None:
        problems.append("play held under Law %s" % out["pending"]["law"])
    found = {(r["trick"], r["seat"]) for r in out["revokes"]}
    if found != facts["revokes"]:
        problems.append("revokes found %s, marked ^R %s" % (sorted(found),
                                                            sorted(facts["revokes"])))
    result = facts["result"]
    if result is not None:
        feasible = [out["result"]] if out["result"] is not None else \
            board.play.possible_results()
        if result not in feasible:
            problems.append("Result %d, the play gives %s" % (result, "..".join(
                str(n) for n in sorted({feasible[0], feasible[-1]}))))
    return problems


def replay_corpus():
    """{game id: problems} for every game, the ^R revokes checked, and the sample lines."""
    found, sample, stats = {}, [], {"games": 0, "revokes": 0, "to_end": 0}
    for path in iter_pbn_files([CORPUS]):
        for game in read_file(path):
            if game.play_first is None:
                continue
            sid = "%s#%d" % (path.relative_to(CORPUS), game.index)
            stats["games"] += 1
            if game.error:
                found[sid] = ["malformed game: the PBN reader rejects it"]
                continue
            try:
                obj, facts = scenario(game, sid)
                board = Board(None, obj["deal"], obj["contract"], obj["declarer"])
            except (ValueError, KeyError) as e:
                found[sid] = ["tags: %s" % e]
                continue
            for i, ev in enumerate(obj["events"]):
                board.event(ev, i)
            out = board.state()
            out["id"] = sid
            stats["revokes"] += len(facts["revokes"])
            stats["to_end"] += out["status"] == "ended"
            problems = problems_of(board, out, facts)
            if problems:
                found[sid] = problems
            if stats["games"] % SAMPLE_EVERY == 0 or facts["revokes"]:
                sample.append((json.dumps(obj), encode(out)))
    return found, sample, stats


_RESULT = []


def corpus_result():
    if not _RESULT:
        _RESULT.append(replay_corpus())
    return _RESULT[0]


def known():
    rows = {}
    for line in KNOWN.read_text().splitlines():
        row = json.loads(line)
        rows[row["game"]] = row
    return rows


def test_corpus_replays_with_no_false_irregularity(corpus):
    found, _, stats = corpus_result()
    listed = known()
    assert stats["games"] > 18700
    assert stats["revokes"] == 69  # every replayable "^R" (14 more lie in tricks with "-")
    assert set(found) == set(listed)  # ... and found where marked, in every game not listed
    for sid, problems in found.items():
        assert "; ".join(problems) == listed[sid]["problems"], sid
        assert listed[sid]["reason"].strip()
    assert stats["to_end"] > 400


def test_corpus_sample_same_on_micropython(corpus):
    """A sample (every 60th game and every game with a revoke) through the replay tool under
    both interpreters: byte-identical output, and the same as the in-process replay."""
    sample = corpus_result()[1]
    assert len(sample) > 300
    stdin = "".join(line + "\n" for line, _ in sample).encode()
    expected = "".join(out + "\n" for _, out in sample)
    for interpreter in ("micropython", "cpython"):
        proc = run_device(["-m", "bridge.board_replay"], interpreter=interpreter, stdin=stdin)
        assert proc.returncode == 0, proc.stderr.decode()
        assert proc.stdout.decode() == expected, interpreter
    assert replay_line(sample[0][0]) == sample[0][1]
