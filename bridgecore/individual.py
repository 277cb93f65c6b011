"""Individual movements: each player changes partner from round to round.

An :class:`IndividualMovement` is the schedule of an individual event: at each table in each
round the four players by seat and the set of boards. Its checks (each player at one seat a
round, a table's four players different) are made when it is built; :meth:`problems` says
what an organiser checks of a movement read from a file (a player partnering another twice,
a player meeting a set of boards twice: Law 15).

:func:`rainbow_individual` builds one for ``4·T`` players on ``T`` tables, ``T`` prime to 6
(5, 7, 11, 13...): the North players stay at their tables, East moves up one table a round,
South two and West three (each direction at its own speed), and the boards move up four.
A player moving ``v`` tables a round meets the sets at ``v - 4`` a round: -4, -3, -2 and -1,
all invertible modulo ``T``, as are the speeds' differences 1, 2 and 3; so over
its ``T`` rounds each player partners another at most once, meets another as opponent at
most once, and plays each set of boards once (tests/bridgecore/test_individual.py checks
every property on the schedule itself). Players are numbered North 1..T, East T+1..2T,
South 2T+1..3T, West 3T+1..4T, by their starting table.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from math import gcd

from bridgecore.cards import Side
from bridgecore.movements import Assignment, Movement, board_numbers

__all__ = ["IndividualAssignment", "IndividualMovement", "partnership", "rainbow_individual"]


def partnership(tables: int, round_: int, table: int, side: Side) -> int:
    """The number of the partnership sitting ``side`` at ``table`` in ``round_`` of an
    individual on ``tables`` tables: North-South ``2·tables·(round-1) + 2·table - 1``,
    East-West the next number. Each partnership plays one round (the players change partner
    from round to round), so its number says where it sits (:meth:`IndividualMovement.as_pairs`)."""
    return 2 * tables * (round_ - 1) + 2 * table - (1 if side is Side.NS else 0)


@dataclass(frozen=True, slots=True)
class IndividualAssignment:
    """One table in one round: the players North, East, South, West (None: an empty seat)
    and the set of boards they play."""

    round: int
    table: int
    north: int | None
    east: int | None
    south: int | None
    west: int | None
    board_set: int
    boards: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.round < 1 or self.table < 1:
            raise ValueError(f"rounds and tables start at 1: round {self.round}, "
                             f"table {self.table}")
        seated = [p for p in self.seats if p is not None]
        if any(p < 1 for p in seated):
            raise ValueError(f"player numbers start at 1, got {seated} at table {self.table}, "
                             f"round {self.round} (None for an empty seat)")
        if len(set(seated)) != len(seated):
            raise ValueError(f"a player in two seats at table {self.table}, round "
                             f"{self.round}: {seated}")
        if self.board_set < 0 or any(b < 1 for b in self.boards):
            raise ValueError(f"bad boards at table {self.table}, round {self.round}")
        object.__setattr__(self, "boards", tuple(self.boards))

    @property
    def seats(self) -> tuple[int | None, int | None, int | None, int | None]:
        """The players North, East, South, West."""
        return (self.north, self.east, self.south, self.west)

    @property
    def plays(self) -> bool:
        """All four seats taken and boards to play."""
        return all(p is not None for p in self.seats) and bool(self.boards)

    def partner(self, player: int) -> int | None:
        """``player``'s partner at this table (None if he is not here or sits alone)."""
        seats = self.seats
        if player not in seats:
            return None
        return seats[(seats.index(player) + 2) % 4]


@dataclass(frozen=True, slots=True)
class IndividualMovement:
    """A complete individual schedule (module docstring)."""

    tables: int
    rounds: int
    assignments: tuple[IndividualAssignment, ...]
    boards_per_round: int = 1
    name: str = ""
    _cells: dict[tuple[int, int], IndividualAssignment] = field(init=False, repr=False,
                                                                compare=False)

    def __post_init__(self) -> None:
        if self.tables < 1 or self.rounds < 1 or self.boards_per_round < 1:
            raise ValueError(f"a movement needs tables, rounds and boards: {self.tables} "
                             f"tables, {self.rounds} rounds, {self.boards_per_round} boards")
        cells: dict[tuple[int, int], IndividualAssignment] = {}
        seated: dict[tuple[int, int], int] = {}
        for a in self.assignments:
            if a.round > self.rounds or a.table > self.tables:
                raise ValueError(f"table {a.table}, round {a.round} outside a movement of "
                                 f"{self.tables} tables and {self.rounds} rounds")
            if (a.round, a.table) in cells:
                raise ValueError(f"two assignments for table {a.table}, round {a.round}")
            cells[a.round, a.table] = a
            for p in a.seats:
                if p is None:
                    continue
                if (p, a.round) in seated:
                    raise ValueError(f"player {p} at tables {seated[p, a.round]} and "
                                     f"{a.table} in round {a.round}")
                seated[p, a.round] = a.table
        object.__setattr__(self, "assignments", tuple(self.assignments))
        object.__setattr__(self, "_cells", cells)

    def assignment(self, round_: int, table: int) -> IndividualAssignment | None:
        return self._cells.get((round_, table))

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(sorted({p for a in self.assignments for p in a.seats if p is not None}))

    @property
    def board_sets(self) -> int:
        return max((a.board_set for a in self.assignments), default=0)

    def as_pairs(self) -> Movement:
        """This schedule as a pairs movement of its partnerships (:func:`partnership`): who
        sits where and which boards, for what seats pairs (a table's check-in, the
        travellers, Law 15B's checks); the players of each seat stay this movement's."""
        cells = []
        for a in self.assignments:
            n, e, s, w = a.seats
            ns = None if n is None or s is None else partnership(self.tables, a.round,
                                                                 a.table, Side.NS)
            ew = None if e is None or w is None else partnership(self.tables, a.round,
                                                                 a.table, Side.EW)
            cells.append(Assignment(a.round, a.table, ns, ew, a.board_set, a.boards))
        return Movement(self.tables, self.rounds, tuple(cells), self.boards_per_round,
                        name=self.name)

    def partners(self, player: int) -> list[int]:
        """Every partner ``player`` has, round by round (one entry a round played)."""
        out = []
        for a in sorted(self.assignments, key=lambda a: a.round):
            if a.plays and player in a.seats:
                partner = a.partner(player)
                if partner is not None:
                    out.append(partner)
        return out

    def problems(self) -> list[str]:
        """What an organiser checks (module docstring): players partnering twice, and a
        player meeting the same set of boards twice (Law 15)."""
        out = []
        partnered: Counter[frozenset[int]] = Counter()
        boards: Counter[tuple[int, int]] = Counter()
        for a in self.assignments:
            if not a.plays:
                continue
            n, e, s, w = a.seats
            assert n is not None and e is not None and s is not None and w is not None
            partnered[frozenset((n, s))] += 1
            partnered[frozenset((e, w))] += 1
            for p in (n, e, s, w):
                boards[p, a.board_set] += 1
        for pair, count in sorted(partnered.items(), key=lambda kv: sorted(kv[0])):
            if count > 1:
                first, second = sorted(pair)
                out.append(f"players {first} and {second} are partners {count} times")
        for (player, board_set), count in sorted(boards.items()):
            if count > 1:
                out.append(f"player {player} plays board set {board_set} {count} times "
                           "(Law 15)")
        return out


def rainbow_individual(tables: int, *, rounds: int | None = None,
                       boards_per_round: int = 2) -> IndividualMovement:
    """The individual of the module docstring for ``4·tables`` players; ``rounds`` (at most
    ``tables``, the default) plays part of it. ValueError when ``tables`` is not prime to 6
    or below 5 (the seats would meet again)."""
    if tables < 5 or gcd(tables, 6) != 1:
        raise ValueError(f"this individual needs a number of tables prime to 6, at least 5 "
                         f"(5, 7, 11, 13...), not {tables}")
    rounds = tables if rounds is None else rounds
    if not 1 <= rounds <= tables:
        raise ValueError(f"rounds: 1 to {tables}, not {rounds}")
    cells = []
    for r in range(1, rounds + 1):
        k = r - 1
        for t in range(1, tables + 1):
            # the player of each direction here: the one who started speed·k tables back
            north, east, south, west = ((t - 1 - speed * k) % tables + 1 + speed * tables
                                        for speed in range(4))
            board_set = (t - 1 - 4 * k) % tables + 1
            cells.append(IndividualAssignment(
                r, t, north, east, south, west, board_set,
                board_numbers(board_set, boards_per_round)))
    return IndividualMovement(tables, rounds, tuple(cells), boards_per_round,
                              name=f"Individual {tables} tables")
