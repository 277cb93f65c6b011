"""The scoring conventions of the federations, where they differ: one value each.

The Laws (78A, 87B, 12C2) leave some of the scoring to the regulating authority, and the
federations do not all choose alike. Each difference is one field of
:class:`Conventions`, with where it comes from; code reads the field, never the name
(as :mod:`bridgecore.editions` does for the Laws' editions). docs/scoring.md lists the
sources and what could not be verified.

=================  ========  =========  =========  ========
field              ebu       acbl       ffb        wbf
=================  ========  =========  =========  ========
units (78A)        2         1          2          2
board rounding     0.1,      0.01,      0.1,       none
                   halves    halves up  halves
                   to avg.              to avg.
small groups (87)  ebu       acbl       neuberg    neuberg
Butler datum       halves    halves to  halves     halves
                   away      even       away       away
ties               ``3=``    ``3/4``    ``3=``     ``3=``
=================  ========  =========  =========  ========

* **units**: matchpoints a score beaten: Law 78A's two scoring units (top 2(n-1); the
  EBU's USEBIO, Magic Contest's ``MatchPoints;MP1``) or the ACBL's one (top n-1).
* **rounding** of a factored (Neuberg-scaled) or small-group score: the EBU's article
  "Scoring of fouled boards" (0.1 matchpoint, 0.05 towards the average); ACBLscore's
  manual, "Fouled/Adjusted board formula" (the nearest hundredth, .005 up); Magic
  Contest's files carry board matchpoints to 0.1 (its rule for halves is not published:
  towards the average, so that the two sides still add up to the top).
* **small groups** of a fouled board (:class:`SmallGroups`).
* **Butler datum**: ACBLscore's manual ("IMPs using computed datum": a datum ending in 5
  is rounded to the even ten); elsewhere the nearest ten, halves away from zero.
* **ties** in a ranking: every federation shares the place (1, 2, 2, 4); the EBU writes
  ``3=`` (USEBIO's PLACE), ACBLscore's reports ``3/4`` (:meth:`Conventions.place`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["CONVENTIONS", "LAWS_ONLY", "Conventions", "Rounding", "SmallGroups", "conventions"]


class SmallGroups(StrEnum):
    """How the small groups of a fouled board (Law 87B) are scored."""

    NEUBERG = "neuberg"
    """Every group Neuberg-scaled to the expected number of results (the WBF's formula)."""
    EBU = "ebu"
    """EBU White Book 4.2.3.3: a group of 2 or 3 results that is at most a third of the
    results (E >= 3A) gets 60% + 5% a matchpoint (MP2) above the group's middle: 65/55
    for two, 70/60/50 for three; other groups Neuberg."""
    ACBL = "acbl"
    """ACBLscore manual, "Fouled/Adjusted board formula" (ACBL Bulletin, June 1991): a
    single result 60%, a group of two 65/55, a group of three 70/60/50 unless it is the
    largest group; four or more, or the largest group of three, Neuberg."""


@dataclass(frozen=True, slots=True)
class Rounding:
    """Board points rounded to ``step``; a value half-way goes towards the board's average
    (``towards_average``) or up."""

    step: float
    towards_average: bool

    def __call__(self, value: float, average: float) -> float:
        q = value / self.step
        low = math.floor(q)
        frac = q - low
        if abs(frac - 0.5) < 1e-7:
            up = value < average if self.towards_average else True
            n = low + 1 if up else low
        else:
            n = round(q)
        return round(n * self.step, 10) + 0.0


@dataclass(frozen=True, slots=True)
class Conventions:
    """One federation's choices where the Laws leave scoring to it (module docstring)."""

    name: str
    units: int
    rounding: Rounding | None
    small_groups: SmallGroups
    datum_half_even: bool
    tie_style: str            # "=" (3=) or "range" (3/4)

    def __post_init__(self) -> None:
        if self.units not in (1, 2):
            raise ValueError(f"matchpoint units are 1 or 2, got {self.units}")
        if self.tie_style not in ("=", "range"):
            raise ValueError(f"tie style is '=' or 'range', got {self.tie_style!r}")

    def place(self, rank: int, tied: int) -> str:
        """The place a ranking prints for ``rank`` shared by ``tied`` contestants:
        ``3`` alone; ``3=`` or ``3/4`` when two share it (``3/4/5`` for three)."""
        if tied < 2:
            return str(rank)
        if self.tie_style == "=":
            return f"{rank}="
        return "/".join(str(rank + i) for i in range(tied))


LAWS_ONLY = Conventions("", 1, None, SmallGroups.NEUBERG, False, "=")
"""What the Laws and every federation agree on (the hub's scoring before conventions
were chosen): one matchpoint a score beaten, exact points, Neuberg for every group."""

CONVENTIONS: dict[str, Conventions] = {
    "ebu": Conventions("ebu", 2, Rounding(0.1, True), SmallGroups.EBU, False, "="),
    "acbl": Conventions("acbl", 1, Rounding(0.01, False), SmallGroups.ACBL, True, "range"),
    "ffb": Conventions("ffb", 2, Rounding(0.1, True), SmallGroups.NEUBERG, False, "="),
    "wbf": Conventions("wbf", 2, None, SmallGroups.NEUBERG, False, "="),
}


def conventions(name: str | Conventions | None) -> Conventions:
    """The conventions named ``ebu``, ``acbl``, ``ffb`` or ``wbf`` ("" or None: the Laws
    alone, :data:`LAWS_ONLY`); ValueError naming the choices for another name."""
    if isinstance(name, Conventions):
        return name
    if not name:
        return LAWS_ONLY
    try:
        return CONVENTIONS[name.lower()]
    except KeyError:
        raise ValueError(f"unknown conventions {name!r} (one of "
                         f"{', '.join(CONVENTIONS)})") from None
