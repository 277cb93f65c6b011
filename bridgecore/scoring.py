"""Law 77 duplicate scores and the Law 78B IMP scale. Pure and table-driven.

The values are those of the 1997 text (Art. 77, 78B), the only complete tables
in the seeds; the 2007 and 2017 Laws use the same figures.
"""

from __future__ import annotations

from bisect import bisect_right

from bridgecore.calls import Contract, Risk
from bridgecore.cards import Seat, Side, Strain

__all__ = ["IMP_THRESHOLDS", "imps", "score", "score_ns", "trick_score"]

# Law 77: trick score per odd trick bid and made, undoubled.
_PER_TRICK = {Strain.CLUBS: 20, Strain.DIAMONDS: 20, Strain.HEARTS: 30, Strain.SPADES: 30,
              Strain.NOTRUMP: 30}
_GAME = (300, 500)           # not vulnerable, vulnerable
_PART_SCORE = 50
_SMALL_SLAM = (500, 750)
_GRAND_SLAM = (1000, 1500)
_INSULT = {Risk.UNDOUBLED: 0, Risk.DOUBLED: 50, Risk.REDOUBLED: 100}
_OVERTRICK_DOUBLED = (100, 200)  # redoubled: twice
_UNDER_UNDOUBLED = (50, 100)
# Doubled undertricks: first, second and third, fourth and each subsequent (×2 redoubled).
_UNDER_DOUBLED = ((100, 200, 300), (200, 300, 300))


def trick_score(level: int, strain: Strain, risk: Risk = Risk.UNDOUBLED) -> int:
    """Points for the odd tricks bid and made (Law 77): counts toward game."""
    base = _PER_TRICK[strain] * level + (10 if strain is Strain.NOTRUMP else 0)
    return base * (1 << risk)


def score(contract: Contract, tricks: int, vulnerable: bool) -> int:
    """Score for the declaring side of ``contract`` with ``tricks`` won (Law 77).

    Positive when the contract is made, negative (the defenders' undertrick
    premium) when it fails.
    """
    if not 0 <= tricks <= 13:
        raise ValueError(f"tricks must be 0-13, got {tricks}")
    v = 1 if vulnerable else 0
    need = contract.tricks_needed
    if tricks >= need:
        tp = trick_score(contract.level, contract.strain, contract.risk)
        total = tp + (_GAME[v] if tp >= 100 else _PART_SCORE)
        if contract.level == 6:
            total += _SMALL_SLAM[v]
        elif contract.level == 7:
            total += _GRAND_SLAM[v]
        total += _INSULT[contract.risk]
        over = tricks - need
        if contract.risk is Risk.UNDOUBLED:
            total += over * _PER_TRICK[contract.strain]
        else:
            total += over * _OVERTRICK_DOUBLED[v] * (1 if contract.risk is Risk.DOUBLED else 2)
        return total
    down = need - tricks
    if contract.risk is Risk.UNDOUBLED:
        return -down * _UNDER_UNDOUBLED[v]
    steps = _UNDER_DOUBLED[v]
    penalty = sum(steps[0 if i == 0 else 1 if i < 3 else 2] for i in range(down))
    return -penalty * (1 if contract.risk is Risk.DOUBLED else 2)


def score_ns(contract: Contract | None, tricks: int, vulnerable_ns: bool,
             vulnerable_ew: bool) -> int:
    """North-South's score; ``contract`` None is a pass-out (0, Law 22A1 / 77)."""
    if contract is None:
        return 0
    if contract.declarer is None:
        raise ValueError(f"contract {contract} has no declarer")
    ns = contract.declarer.side is Side.NS
    s = score(contract, tricks, vulnerable_ns if ns else vulnerable_ew)
    return s if ns else -s


# Law 78B: the lowest difference that earns each IMP from 1 to 24.
IMP_THRESHOLDS: tuple[int, ...] = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500,
    1750, 2000, 2250, 2500, 3000, 3500, 4000,
)


def imps(difference: float) -> int:
    """IMPs for a difference in total points (Law 78B), signed like the difference.

    The scale is written for multiples of 10; other differences (averaged or
    weighted scores) are rounded to the nearest 10 first, halves away from zero.
    """
    magnitude = abs(difference)
    rounded = int(magnitude / 10 + 0.5) * 10
    value = bisect_right(IMP_THRESHOLDS, rounded)
    return value if difference >= 0 else -value


def declarer_side_vulnerable(declarer: Seat, vulnerable_ns: bool, vulnerable_ew: bool) -> bool:
    return vulnerable_ns if declarer.side is Side.NS else vulnerable_ew
