"""Who wins a trick, computed independently of bridge.play for the play tests to check it."""


def winner(trick, leader, trump):
    """trick: {seat: card code}; the seat that wins it (Law 44D, 44E)."""
    best, who = trick[leader], leader
    for seat, c in trick.items():
        if seat != leader and ((c // 13 == best // 13 and c > best) or
                               (c // 13 == trump and best // 13 != trump)):
            best, who = c, seat
    return who
