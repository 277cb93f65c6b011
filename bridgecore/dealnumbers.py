"""Deal numbers: every bridge deal as an integer below D (formats.md §5.1, §5.3).

Three numberings, all 0-based here (0 .. D-1); screens and books show them 1-based
(index + 1). All use the suited card order ♠A ♠K ... ♠2 ♥A ... ♣2 of
:data:`bridgecore.cards.ALL_CARDS`.

- Pavlicek (rpbridge.net/7z68.htm): seat buckets per card, in proportion to the
  cards each seat still needs.
- Andrews (bridge.thomasoandrews.com/impossible): combinatorial number system of
  North's, East's and South's cards among the cards still free.
- Gödel (BigDeal's ``code_to_hand``, Documentation/godel.tex): the numbering
  BigDeal turns its 96-bit random numbers into deals with.

D = C(52,13)·C(39,13)·C(26,13) = 53,644,737,765,488,792,839,237,440,000 < 2^96, so
any of these fits in 12 bytes.
"""

from __future__ import annotations

from math import comb

from bridgecore.cards import Seat
from bridgecore.deal import Deal

__all__ = [
    "D", "andrews_deal", "andrews_index", "goedel_deal", "goedel_index", "pavlicek_deal",
    "pavlicek_index",
]

D = comb(52, 13) * comb(39, 13) * comb(26, 13)
"""The number of different bridge deals."""

_C39 = comb(39, 13)
_C26 = comb(26, 13)
_NORTH, _EAST, _SOUTH, _WEST = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
_SEATS = (_NORTH, _EAST, _SOUTH, _WEST)
_BINOM = [[comb(n, k) for k in range(14)] for n in range(53)]
"""C(n, k) for n <= 52, k <= 13."""


def _check_index(index: int, name: str) -> None:
    if not isinstance(index, int) or not 0 <= index < D:
        raise ValueError(f"a {name} deal index is from 0 to D-1 (display 1 to D): {index!r}")


def _owners_of(deal: Deal) -> list[int]:
    """Seat number (0-3) of each card in ♠A..♣2 order; ValueError if not a complete deal."""
    if deal.problems():
        raise ValueError(f"not a complete deal of 4 x 13 cards: {deal.pbn()}")
    return [int(s) for s in deal.owners()]


def _deal_of(owners: list[int]) -> Deal:
    return Deal.from_owners([_SEATS[o] for o in owners])


# Pavlicek --------------------------------------------------------------------------------

def pavlicek_index(deal: Deal) -> int:
    """Pavlicek's number of a complete deal, 0-based (his page shows index + 1)."""
    owners = _owners_of(deal)
    need = [13, 13, 13, 13]
    k = D
    index = 0
    for c, owner in enumerate(owners):
        cards_left = 52 - c
        for seat in range(4):
            x = k * need[seat] // cards_left
            if seat == owner:
                need[seat] -= 1
                k = x
                break
            index += x
    return index


def pavlicek_deal(index: int) -> Deal:
    """The deal with Pavlicek number ``index`` (0-based)."""
    _check_index(index, "Pavlicek")
    n = e = s = w = 13
    k = D
    rest = index
    owners = [0] * 52
    for c in range(52):
        cards_left = 52 - c
        x = k * n // cards_left
        if rest < x:
            n -= 1
        else:
            rest -= x
            x = k * e // cards_left
            if rest < x:
                owners[c] = 1
                e -= 1
            else:
                rest -= x
                x = k * s // cards_left
                if rest < x:
                    owners[c] = 2
                    s -= 1
                else:
                    rest -= x
                    x = k * w // cards_left
                    owners[c] = 3
                    w -= 1
        k = x
    return _deal_of(owners)


# Seat by seat numberings (Andrews, Gödel) ------------------------------------------------

def _positions(owners: list[int]) -> list[list[int]]:
    """For N, E, S: the 0-based positions of the seat's cards among the cards still free."""
    free = list(range(52))
    result = []
    for seat in range(3):
        mine = [i for i, c in enumerate(free) if owners[c] == seat]
        result.append(mine)
        free = [c for c in free if owners[c] != seat]
    return result


def _owners_from_positions(north: list[int], east: list[int], south: list[int]) -> list[int]:
    owners = [3] * 52
    free = list(range(52))
    for seat, mine in ((0, north), (1, east), (2, south)):
        for p in mine:
            owners[free[p]] = seat
        taken = set(mine)
        free = [c for i, c in enumerate(free) if i not in taken]
    return owners


def andrews_index(deal: Deal) -> int:
    """Andrews' number of a complete deal, 0-based (his book shows index + 1)."""
    north, east, south = (sum(_BINOM[x][i + 1] for i, x in enumerate(p))
                          for p in _positions(_owners_of(deal)))
    return (north * _C39 + east) * _C26 + south


def _unrank_combination(rank: int, size: int) -> list[int]:
    """The ``size``-subset with combinatorial-number-system rank ``rank`` (increasing)."""
    out = [0] * size
    x = 51
    for i in range(size, 0, -1):
        row = _BINOM
        while row[x][i] > rank:
            x -= 1
        rank -= row[x][i]
        out[i - 1] = x
        x -= 1
    return out


def andrews_deal(index: int) -> Deal:
    """The deal with Andrews number ``index`` (0-based)."""
    _check_index(index, "Andrews")
    rest, south = divmod(index, _C26)
    north, east = divmod(rest, _C39)
    return _deal_of(_owners_from_positions(_unrank_combination(north, 13),
                                           _unrank_combination(east, 13),
                                           _unrank_combination(south, 13)))


def _goedel_rank(positions: list[int], free: int) -> int:
    """BigDeal's rank of one hand: a_j = p_j - j is non-decreasing in [0, free-13]."""
    total = 0
    prev = 0
    for j, p in enumerate(positions):
        a = p - j
        total += _BINOM[free - prev - j][13 - j] - _BINOM[free - a - j][13 - j]
        prev = a
    return total


def _goedel_unrank(rank: int, free: int) -> list[int]:
    out = []
    prev = 0
    binom = _BINOM
    for j in range(13):
        k = 13 - j
        top = binom[free - prev - j][k]
        b = prev
        # Largest b >= prev with top - C(free-b-j, k) <= rank.
        while b < free - 13 and top - binom[free - b - 1 - j][k] <= rank:
            b += 1
        rank -= top - binom[free - b - j][k]
        out.append(b + j)
        prev = b
    return out


def goedel_index(deal: Deal) -> int:
    """BigDeal's Gödel number of a complete deal (what ``bigdealx -f goedel`` prints)."""
    north, east, south = _positions(_owners_of(deal))
    return ((_goedel_rank(north, 52) * _C39 + _goedel_rank(east, 39)) * _C26
            + _goedel_rank(south, 26))


def goedel_deal(index: int) -> Deal:
    """The deal BigDeal makes of the 96-bit number ``index`` (< D)."""
    _check_index(index, "Gödel")
    rest, south = divmod(index, _C26)
    north, east = divmod(rest, _C39)
    return _deal_of(_owners_from_positions(_goedel_unrank(north, 52), _goedel_unrank(east, 39),
                                           _goedel_unrank(south, 26)))
