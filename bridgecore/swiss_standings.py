"""The standings of a Swiss event: victory points per match, the bye, the tie-breaks.

A match is scored in IMPs board by board (teams: the two tables of the match, Law 78B;
pairs: each pair's IMPs against the datum of the board across the field, Butler), and each
contestant's IMPs over the match's boards convert to victory points on the WBF 2013
continuous 20-VP scale for that number of boards (Law 78D,
:func:`bridgecore.methods.victory_points`), each on its own IMPs (a non-balancing
adjusted score gives VPs that do not add up to 20).

A bye scores :data:`BYE_VP` (12 VPs of 20, the usual Swiss convention of the English and
the WBF's events), or ``"average"``: the contestant's average VPs over the matches it has
played (12 while it has played none), as the set-up chooses.

The ranking (docs/swiss.md), contestants with equal VPs (to 0.01) separated in this order:

1. head-to-head: two tied contestants that met, the one that won more VPs in their match;
   more than two, when every two of them met, the VPs each won in those matches;
2. the IMP quotient: IMPs won divided by IMPs lost over all the matches (gross, board by
   board; no IMP lost counts as infinite);
3. the sum of the opponents' VPs (Buchholz; a bye adds nothing);
4. still equal: the same rank, listed by contestant number.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bridgecore.methods import victory_points
from bridgecore.swiss import Pairing

__all__ = ["BYE_VP", "MatchScore", "Standing", "bye_points", "standings"]

BYE_VP = 12.0
"""The VPs of a bye (module docstring)."""


@dataclass(frozen=True, slots=True)
class MatchScore:
    """A match scored board by board: each side's IMPs on each board (``home_imps[i]`` and
    ``away_imps[i]`` are the same board; a board not scored yet is left out of both)."""

    round: int
    home: int
    away: int
    home_imps: tuple[float, ...]
    away_imps: tuple[float, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "home_imps", tuple(self.home_imps))
        object.__setattr__(self, "away_imps", tuple(self.away_imps))
        if len(self.home_imps) != len(self.away_imps):
            raise ValueError(f"round {self.round}: {self.home} v {self.away}: "
                             f"{len(self.home_imps)} boards for one, "
                             f"{len(self.away_imps)} for the other")

    @property
    def boards(self) -> int:
        return len(self.home_imps)

    def imps(self, contestant: int) -> tuple[float, ...]:
        return self.home_imps if contestant == self.home else self.away_imps

    def vp(self, contestant: int) -> float:
        """``contestant``'s VPs: its IMP margin over the match (WBF 2013; 0 boards: 0)."""
        if not self.boards:
            return 0.0
        return victory_points(sum(self.imps(contestant)), self.boards)[0]


@dataclass(frozen=True, slots=True)
class Standing:
    """One contestant's place: its VPs and what breaks a tie (module docstring)."""

    contestant: int
    vp: float
    imps_won: float
    imps_lost: float
    matches: int
    byes: int
    opponents: tuple[int, ...]
    buchholz: float
    rank: int
    tie_break: str = ""   # what placed it above the next one with equal VPs

    @property
    def quotient(self) -> float:
        if self.imps_lost:
            return self.imps_won / self.imps_lost
        return math.inf if self.imps_won else 1.0

    def to_json(self) -> dict[str, Any]:
        q = self.quotient
        return {"contestant": self.contestant, "rank": self.rank, "vp": round(self.vp, 2),
                "imps_won": round(self.imps_won, 2), "imps_lost": round(self.imps_lost, 2),
                "quotient": None if math.isinf(q) else round(q, 4),
                "buchholz": round(self.buchholz, 2), "matches": self.matches,
                "byes": self.byes, "opponents": list(self.opponents),
                "tie_break": self.tie_break}


def bye_points(bye: float | str, played: Sequence[float]) -> float:
    """A bye's VPs: ``bye`` VPs, or ``"average"``: the mean of ``played`` (:data:`BYE_VP`
    when empty)."""
    if bye == "average":
        return round(sum(played) / len(played), 2) if played else BYE_VP
    if isinstance(bye, str):
        raise ValueError(f"a bye scores a number of VPs or 'average', not {bye!r}")
    return float(bye)


def standings(contestants: Iterable[int], pairings: Iterable[Pairing],
              scores: Iterable[MatchScore], *, bye: float | str = BYE_VP
              ) -> tuple[Standing, ...]:
    """Every contestant's :class:`Standing`, the leader first: ``pairings`` give the byes,
    ``scores`` the matches and their boards scored so far (module docstring). A match with
    no board scored counts nothing yet; a bye counts once a match of its round or a later
    one has a board scored."""
    everyone = sorted(set(contestants))
    vps: dict[int, list[float]] = defaultdict(list)
    won: dict[int, float] = defaultdict(float)
    lost: dict[int, float] = defaultdict(float)
    opponents: dict[int, list[int]] = defaultdict(list)
    against: dict[frozenset[int], dict[int, float]] = {}
    byes: dict[int, int] = defaultdict(int)
    played = [m for m in scores if m.boards]     # a match drawn but not begun counts nothing
    begun = max((m.round for m in played), default=0)
    for p in pairings:
        if p.away is None and p.round <= begun:
            byes[p.home] += 1
    for m in played:
        opponents[m.home].append(m.away)
        opponents[m.away].append(m.home)
        for c in (m.home, m.away):
            vps[c].append(m.vp(c))
            won[c] += sum(x for x in m.imps(c) if x > 0)
            lost[c] += -sum(x for x in m.imps(c) if x < 0)
        key = frozenset((m.home, m.away))
        against[key] = {m.home: m.vp(m.home), m.away: m.vp(m.away)}
    total = {c: sum(vps[c]) + byes[c] * bye_points(bye, vps[c]) for c in everyone}
    buchholz = {c: sum(total.get(o, 0.0) for o in opponents[c]) for c in everyone}

    def quotient(c: int) -> float:
        if lost[c]:
            return won[c] / lost[c]
        return math.inf if won[c] else 1.0

    groups: dict[float, list[int]] = defaultdict(list)
    for c in everyone:
        groups[round(total[c], 2)].append(c)
    head = {c: _head_to_head(c, group, against) for group in groups.values() for c in group}
    keys = {c: (round(total[c], 2), head[c], quotient(c), round(buchholz[c], 2))
            for c in everyone}
    order = sorted(everyone, key=lambda c: (tuple(-k for k in keys[c]), c))
    names = ("", "head-to-head", "IMP quotient", "opponents' VPs")
    out: list[Standing] = []
    for i, c in enumerate(order):
        rank = out[-1].rank if out and keys[order[i - 1]] == keys[c] else i + 1
        nxt = order[i + 1] if i + 1 < len(order) else None
        why = ""
        if nxt is not None and keys[nxt][0] == keys[c][0] and keys[nxt] != keys[c]:
            why = next(names[k] for k in range(1, 4) if keys[nxt][k] != keys[c][k])
        out.append(Standing(c, total[c], won[c], lost[c], len(vps[c]), byes[c],
                            tuple(opponents[c]), buchholz[c], rank, why))
    return tuple(out)


def _head_to_head(c: int, group: Sequence[int],
                  against: dict[frozenset[int], dict[int, float]]) -> float:
    """``c``'s VPs against the others of its tied ``group`` when every two of them met,
    else 0 (no head-to-head to apply)."""
    if len(group) < 2:
        return 0.0
    matches = [against.get(frozenset((a, b))) for i, a in enumerate(group)
               for b in group[i + 1:]]
    if any(m is None for m in matches):
        return 0.0
    return sum(m[c] for m in matches if m is not None and c in m)
