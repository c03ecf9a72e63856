"""The score of a contract (Law 77), from the declaring side's point of view.

Values are those of DESIGN.md (the seed text lost the tables). Impossible input raises
ValueError and never yields a number: a terminal must not show or record a score it cannot
justify.
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# Strains as in bridge.calls (not imported: the terminal would carry its name tables).
_CLUBS = const(0)
_DIAMONDS = const(1)
_NOTRUMP = const(4)

RISKS = ("", "X", "XX")  # undoubled, doubled, redoubled: risk 0, 1, 2


def score(level, strain, risk, vul, tricks):
    """Points for the declaring side (negative when the contract fails).

    level 1..7, strain 0..4, risk 0/1/2, vul True/False, tricks 0..13 won by declarer.
    """
    if not (type(level) is int and 1 <= level <= 7):
        raise ValueError("contract level must be 1..7, not %r" % (level,))
    if not (type(strain) is int and 0 <= strain <= 4):
        raise ValueError("strain must be 0..4 (C, D, H, S, NT), not %r" % (strain,))
    if risk not in (0, 1, 2):
        raise ValueError("risk must be 0 (undoubled), 1 (doubled) or 2 (redoubled), not %r"
                         % (risk,))
    if not (type(tricks) is int and 0 <= tricks <= 13):
        raise ValueError("tricks taken must be 0..13, not %r" % (tricks,))
    odd = tricks - 6
    if odd < level:  # undertricks
        down = level - odd
        if risk == 0:
            return -down * (100 if vul else 50)
        if vul:
            points = 200 + 300 * (down - 1)
        else:  # 100, 200, 200, then 300 each from the fourth
            points = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
        return -points * risk  # redoubled is twice doubled
    per_trick = 20 if strain in (_CLUBS, _DIAMONDS) else 30
    first = 40 if strain == _NOTRUMP else per_trick
    mult = 1 << risk
    trick_points = (first + per_trick * (level - 1)) * mult
    total = trick_points
    if trick_points >= 100:
        total += 500 if vul else 300
    else:
        total += 50
    if level == 6:
        total += 750 if vul else 500
    elif level == 7:
        total += 1500 if vul else 1000
    total += 50 * risk  # for making a doubled (50) or redoubled (100) contract
    over = odd - level
    if risk == 0:
        total += over * per_trick
    else:
        total += over * (200 if vul else 100) * risk
    return total
