"""The application's state rebuilt from the journal at start-up, and what may be compacted.

The journal (terminal.journal) already keeps every whole record across a power cut; this
module replays them into a `Session`, so the terminal resumes on the board, the call and the
step where it was. The screen itself is chosen from that state (`App.home`): a half-typed
call is the only thing a power cut can lose, and it was never confirmed.
"""


def rebuild(session, journal):
    """Apply every stored record to session, oldest first; returns how many were read."""
    n = 0
    for seq, kind, data, _tag in journal.records_after(journal.base):
        session.apply(kind, data, seq)
        n += 1
    return n


def ack_limit(session, seq):
    """The highest seq up to `seq` that the link may compact away without losing the state
    the terminal needs to resume: everything before the open round's `open` record.

    (Compacting records of the open round would leave the terminal, after its next restart,
    without the round it is playing.) Closed rounds are entirely compactable.
    """
    if session.round and session.open_seq:
        return min(seq, session.open_seq - 1)
    return seq
