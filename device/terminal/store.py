"""The application's state rebuilt from the journal at start-up, and what compaction keeps.

The journal (terminal.journal) already keeps every whole record across a power cut; this
module replays them into a `Session`, so the terminal resumes on the board, the call and the
step where it was. The screen itself is chosen from that state (`App.home`): a half-typed
call is the only thing a power cut can lose, and it was never confirmed.

Compaction (after a sync) removes records the host has stored, but the terminal still needs
what they made of the session: the rounds closed, the boards each pair has played (Law 15),
the director's flags. So the application's journal compacts only up to a point between two
rounds (the records of the round being played stay), and its marker keeps the session's
state at that point (`Session.checkpoint`), written in the same file as the records after
it: one rename makes both durable, and a power cut at any byte leaves either the old file or
the new one, never a state without its records (docs/RECORDS.md, "What compaction keeps").
"""

from terminal import cbor
from terminal.frame import MAX_PAYLOAD


def rebuild(session, journal):
    """Restore what the last compaction kept, then apply every stored record, oldest first;
    returns how many records were read. From then on the journal compacts only as far as
    the session allows (journal.checkpoint), and a record another part appends (the link's
    `pair`) is applied to the session too (journal.follow)."""
    kept = journal.kept()
    if kept is not None:
        session.restore(kept)
    n = 0
    for seq, kind, data, _tag in journal.records_after(journal.base):
        session.apply(kind, data, seq)
        n += 1
    journal.checkpoint = lambda: checkpoint(session)
    journal.follow = lambda seq, kind, data: session.apply(kind, data, seq)
    return n


def checkpoint(session):
    """The session's checkpoint, its state made to fit the journal's marker frame: the
    oldest director's flags are left out if need be (the host has them all)."""
    upto, state = session.checkpoint()
    if state is not None:
        flags = state[-1]
        while flags and len(cbor.encode([upto, state])) > MAX_PAYLOAD - 16:  # one frame
            flags.pop(0)
    return upto, state


def ack_limit(session, seq):
    """The highest seq up to `seq` that the link may compact away (the journal goes no
    further than the session's checkpoint either way): everything before the open round."""
    upto = session.checkpoint()[0]
    return upto if upto <= seq else 0
