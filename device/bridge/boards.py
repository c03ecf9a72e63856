"""Dealer and vulnerability of a board from its number (Law 2)."""

VULS = ("None", "NS", "EW", "All")  # the vulnerabilities, in the order of Law 2's cycle


def check_board(board):
    """Raise ValueError unless board is a positive whole number."""
    if not isinstance(board, int) or isinstance(board, bool) or board < 1:
        raise ValueError("board number must be a whole number from 1, not %r" % (board,))
    return board


def dealer(board):
    """Seat (0..3) of the dealer: N, E, S, W for boards 1, 2, 3, 4 and so on."""
    return (check_board(board) - 1) & 3


def vulnerability(board):
    """'None', 'NS', 'EW' or 'All' (repeats every 16 boards)."""
    i = (check_board(board) - 1) % 16
    return VULS[(i + i // 4) & 3]  # Law 2's cycle: each row of four boards starts a step on


def is_vulnerable(vul, seat):
    """Whether the side of seat (0..3) is vulnerable under vul ('None'/'NS'/'EW'/'All')."""
    if vul == "All":
        return True
    if vul == "None":
        return False
    return "NESW"[seat] in vul  # the seat letters of bridge.seats


def parse_vulnerability(text):
    """PBN's spellings (None, Love, -, NS, EW, All, Both) -> 'None'/'NS'/'EW'/'All'."""
    t = text.strip()
    if t in ("None", "Love", "-"):
        return "None"
    if t in ("All", "Both"):
        return "All"
    if t in ("NS", "EW"):
        return t
    raise ValueError("not a vulnerability: %r" % (text,))
