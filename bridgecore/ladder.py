"""A club's ladder: its players ranked across the club's sessions (a season's evenings).

A ladder is per player, not per pair: partnerships change from one evening to the next,
and each player is credited with the percentage his pair scored that evening. The
player's ladder score is the plain average of the percentages counted (each evening
weighs the same, whatever its boards):

* ``best``: only the player's best ``best`` percentages count (the "best N of the
  season" form); None: every session he played counts (the "average" form);
* ``minimum``: a player who played fewer sessions than this is not ranked (the minimum
  attendance); he is listed apart, with his sessions, so that the club sees who is short.

Ties share a place (1, 2, 2, 4), the players in a tie by name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bridgecore.ranking import rank

__all__ = ["LadderEntry", "ladder"]


@dataclass(frozen=True, slots=True)
class LadderEntry:
    """One player of a ladder: his ladder ``percent`` (the average of ``counted``), every
    session's percentage (None where he did not play), those counted, his ``rank`` (None:
    fewer sessions than the minimum)."""

    player: str
    percent: float
    sessions: tuple[float | None, ...]
    counted: tuple[float, ...]
    rank: int | None

    @property
    def played(self) -> int:
        return sum(1 for p in self.sessions if p is not None)


def ladder(sessions: Sequence[Mapping[str, float]], *, best: int | None = None,
           minimum: int = 1) -> tuple[LadderEntry, ...]:
    """The ladder of ``sessions`` (each a player -> his pair's percentage that session),
    ranked players first, then those short of ``minimum`` sessions (module docstring)."""
    if best is not None and best < 1:
        raise ValueError(f"a ladder counts the best 1 or more sessions, not {best}")
    if minimum < 1:
        raise ValueError(f"a ladder's minimum attendance is 1 or more, not {minimum}")
    players: dict[str, list[float | None]] = {}
    for index, session in enumerate(sessions):
        for player, percent in session.items():
            players.setdefault(player, [None] * len(sessions))[index] = percent
    entries: list[tuple[str, float, tuple[float | None, ...], tuple[float, ...]]] = []
    for player, row in players.items():
        played = sorted((p for p in row if p is not None), reverse=True)
        counted = tuple(played if best is None else played[:best])
        entries.append((player, sum(counted) / len(counted), tuple(row), counted))
    ranked = [e for e in entries if sum(1 for p in e[2] if p is not None) >= minimum]
    short = sorted((e for e in entries if e not in ranked), key=lambda e: e[0])
    places = rank([e[1] for e in ranked])
    out = [LadderEntry(p, pct, row, counted, place) for (p, pct, row, counted), place
           in sorted(zip(ranked, places, strict=True), key=lambda x: (x[1], x[0][0]))]
    out += [LadderEntry(p, pct, row, counted, None) for p, pct, row, counted in short]
    return tuple(out)
