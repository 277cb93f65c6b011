"""Swiss events: the pairing of each round from the standings, and the Swiss movement.

A Swiss event (pairs or teams of four, the *contestants*, numbered from 1 in seeding
order) is paired round by round (docs/swiss.md):

* Round 1 by seeding, 1 v 2, 3 v 4, ... (:func:`first_round`), or by a random draw
  reproducible from its ``seed`` (the order shuffled, then paired the same way).
* Later rounds in the Danish (Monrad) order (:func:`next_round`): the contestants in their
  order in the standings (:mod:`bridgecore.swiss_standings`); the highest-placed one not
  yet paired plays the highest-placed one it has not met, and so on down. When a
  contestant is left without an opponent it has not met, the choices above it are revised
  (depth-first backtracking, in the same order), so the round is the first in Danish order
  without a rematch. Among those, the first that leaves the remaining rounds possible
  without a rematch is taken (a look-ahead over the rounds still to play, bounded to
  :data:`LOOKAHEAD_STEPS` steps of search: past that, the round found is taken). A
  rematch happens only when no pairing of the round avoids it, and then as few as can be.
* An odd number of contestants: one has a bye (sits the round out): the lowest-placed one
  that has not had a bye yet (if everyone has, the lowest-placed of those with the fewest).
* In a match the higher-placed contestant is at home: in a teams match team A (pairs 2A-1
  and 2A) sits North-South at the first table of the match and East-West at the second;
  in a pairs match pair A sits North-South.

:func:`swiss_movement` gives the :class:`bridgecore.movements.Movement` of the rounds drawn
so far: every match of round ``r`` plays board set ``r`` (the boards are duplicated: every
table of the round shares them).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from bridgecore.movements import Assignment, Movement, board_numbers

__all__ = ["LOOKAHEAD_STEPS", "Pairing", "SwissMovement", "first_round", "next_round",
           "swiss_movement"]

LOOKAHEAD_STEPS = 20_000
"""The most steps of search the look-ahead of one round takes (module docstring)."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """One match of a round: ``home`` against ``away``, or ``home``'s bye (``away`` None)."""

    round: int
    home: int
    away: int | None = None

    def __post_init__(self) -> None:
        if self.round < 1 or self.home < 1 or (self.away is not None and self.away < 1):
            raise ValueError(f"rounds and contestants start at 1: {self}")
        if self.home == self.away:
            raise ValueError(f"contestant {self.home} cannot meet itself in round {self.round}")

    @property
    def bye(self) -> bool:
        return self.away is None

    def to_json(self) -> list[int | None]:
        return [self.home, self.away]


def first_round(contestants: Sequence[int], *, seed: int | None = None) -> tuple[Pairing, ...]:
    """Round 1: by seeding (the order given: 1 v 2, 3 v 4, ..., the last one's bye when
    odd), or, with ``seed``, the order shuffled by :class:`random.Random` (``seed``) first."""
    order = _checked(contestants)
    if seed is not None:
        random.Random(seed).shuffle(order)
    out = [Pairing(1, order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]
    if len(order) % 2:
        out.append(Pairing(1, order[-1]))
    return tuple(out)


def _checked(contestants: Sequence[int]) -> list[int]:
    order = list(contestants)
    if len(order) < 2:
        raise ValueError(f"a Swiss event needs at least 2 contestants, not {len(order)}")
    if len(set(order)) != len(order):
        raise ValueError(f"a contestant is there twice: {order}")
    return order


class _Search:
    """The state of one round's search: who met whom, who had byes, the step budget."""

    def __init__(self, pairings: Iterable[Pairing]):
        self.met: Counter[frozenset[int]] = Counter()
        self.byes: Counter[int] = Counter()
        for p in pairings:
            if p.away is None:
                self.byes[p.home] += 1
            else:
                self.met[frozenset((p.home, p.away))] += 1
        self.steps = LOOKAHEAD_STEPS

    def matchings(self, order: list[int], rematches: int) -> Iterator[list[tuple[int, int]]]:
        """Every pairing of ``order`` (even) in Danish order with at most ``rematches``."""
        if not order:
            yield []
            return
        first, rest = order[0], order[1:]
        for i, other in enumerate(rest):
            again = self.met[frozenset((first, other))]
            if again and rematches < 1:
                continue
            for tail in self.matchings(rest[:i] + rest[i + 1:], rematches - (1 if again else 0)):
                yield [(first, other), *tail]

    def bye_order(self, order: list[int]) -> list[int]:
        """Who may have the bye, the first choice first (module docstring)."""
        fewest = min(self.byes[c] for c in order)
        return ([c for c in reversed(order) if self.byes[c] == fewest]
                + [c for c in reversed(order) if self.byes[c] != fewest])

    def possible(self, order: list[int], rounds: int) -> bool:
        """``rounds`` more rounds of ``order`` can be paired without a rematch (True too
        when the step budget runs out: the search cannot tell)."""
        if rounds <= 0:
            return True
        byes: list[int | None] = [None]
        if len(order) % 2:
            fewest = min(self.byes[c] for c in order)
            byes = [c for c in reversed(order) if self.byes[c] == fewest]
        for bye in byes:
            players = [c for c in order if c != bye]
            for matching in self.matchings(players, 0):
                self.steps -= 1
                if self.steps <= 0:
                    return True
                self._add(matching, bye, 1)
                ok = self.possible(order, rounds - 1)
                self._add(matching, bye, -1)
                if ok:
                    return True
        return False

    def _add(self, matching: list[tuple[int, int]], bye: int | None, sign: int) -> None:
        for a, b in matching:
            self.met[frozenset((a, b))] += sign
        if bye is not None:
            self.byes[bye] += sign


def next_round(round: int, order: Sequence[int], played: Iterable[Pairing], *,
               rounds: int | None = None) -> tuple[Pairing, ...]:
    """Round ``round`` in Danish order (module docstring): ``order`` is every contestant,
    the leader first; ``played`` the pairings of the rounds before; ``rounds`` the number
    of rounds of the event (the look-ahead keeps rounds ``round+1 .. rounds`` possible)."""
    if round < 1:
        raise ValueError(f"rounds start at 1, not {round}")
    players = _checked(order)
    search = _Search(played)
    later = 0 if rounds is None else rounds - round
    for rematches in range(len(players)):
        for look in (True, False) if later > 0 and rematches == 0 else (False,):
            byes: list[int | None] = (list(search.bye_order(players)) if len(players) % 2
                                      else [None])
            for bye in byes:
                rest = [c for c in players if c != bye]
                for matching in search.matchings(rest, rematches):
                    if look:
                        search._add(matching, bye, 1)
                        ok = search.possible(players, later)
                        search._add(matching, bye, -1)
                        if not ok:
                            continue
                    out = [Pairing(round, a, b) for a, b in matching]
                    if bye is not None:
                        out.append(Pairing(round, bye))
                    return tuple(out)
    raise AssertionError("a pairing always exists once rematches are allowed")


@dataclass(frozen=True, slots=True)
class SwissMovement(Movement):
    """A Swiss movement: the rounds drawn so far (``assignments``) of an event of
    ``entrants`` contestants, teams of four or pairs; ``boards`` and ``pairs`` are the
    whole event's (every round's boards, every contestant's pairs) before they are drawn."""

    entrants: int = 2
    teams_of_four: bool = False

    @property
    def pairs(self) -> tuple[int, ...]:
        return tuple(range(1, (2 if self.teams_of_four else 1) * self.entrants + 1))

    @property
    def boards(self) -> tuple[int, ...]:
        return tuple(range(1, self.rounds * self.boards_per_round + 1))

    @property
    def winners(self) -> int:
        return 1

    @property
    def drawn(self) -> int:
        """The last round drawn (0 before any)."""
        return max((a.round for a in self.assignments), default=0)


def swiss_movement(entrants: int, rounds: int, pairings: Iterable[Pairing], *,
                   teams: bool, boards_per_round: int = 1) -> SwissMovement:
    """The movement of the rounds drawn (``pairings``) of a Swiss event of ``entrants``
    teams of four (``teams``) or pairs playing ``rounds`` rounds (module docstring)."""
    if entrants < 2:
        raise ValueError(f"a Swiss event needs at least 2 contestants, not {entrants}")
    if rounds < 1:
        raise ValueError(f"a Swiss event has at least 1 round, not {rounds}")
    matches = entrants // 2
    tables = 2 * matches if teams else matches
    by_round: dict[int, list[Pairing]] = {}
    for p in pairings:
        if p.round > rounds:
            raise ValueError(f"round {p.round} of a Swiss event of {rounds} rounds")
        for c in (p.home, p.away):
            if c is not None and c > entrants:
                raise ValueError(f"round {p.round}: no contestant {c} of {entrants}")
        by_round.setdefault(p.round, []).append(p)
    cells: list[Assignment] = []
    for r, round_pairings in sorted(by_round.items()):
        boards = board_numbers(r, boards_per_round)
        seen = [c for p in round_pairings for c in (p.home, p.away) if c is not None]
        if len(seen) != len(set(seen)):
            raise ValueError(f"round {r}: a contestant plays twice: {seen}")
        games = [p for p in round_pairings if p.away is not None]
        if len(games) > matches:
            raise ValueError(f"round {r}: {len(games)} matches, the event has {matches}")
        for j, p in enumerate(games):
            a, b = p.home, p.away
            assert b is not None
            if teams:
                cells.append(Assignment(r, 2 * j + 1, 2 * a - 1, 2 * b, r, boards))
                cells.append(Assignment(r, 2 * j + 2, 2 * b - 1, 2 * a, r, boards))
            else:
                cells.append(Assignment(r, j + 1, a, b, r, boards))
    what = f"{entrants} teams" if teams else f"{entrants} pairs"
    return SwissMovement(tables, rounds, tuple(cells), boards_per_round,
                         (frozenset(range(1, tables + 1)),) if tables > 1 else (),
                         f"Teams Swiss {what}" if teams else f"Swiss pairs {what}",
                         entrants=entrants, teams_of_four=teams)
