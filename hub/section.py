"""A section of the session: its movement, its tables and its pairs.

A value the room (:mod:`hub.room`) holds and the live scorer (:mod:`hub.scoring`) reads;
apart from both so that neither imports the other for it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bridgecore.individual import IndividualMovement
from bridgecore.movements import Movement
from bridgecore.ranking import Method
from bridgecore.swiss import Pairing, SwissMovement, first_round, swiss_movement
from bridgecore.swiss_standings import BYE_VP
from hub.errors import ConfigError

__all__ = ["PAIRS_METHODS", "Section", "SwissSettings"]

PAIRS_METHODS: dict[str, tuple[Method, int]] = {
    "": (Method.MATCHPOINTS, 0), "matchpoints": (Method.MATCHPOINTS, 0),
    "imps": (Method.BUTLER, 0), "butler": (Method.BUTLER, 1),
    "cross-imps": (Method.CROSS_IMPS, 0),
}
"""A pairs section's scoring (hub.event.SCORINGS, "" for the default) -> its method (Law 78)
and the scores left out at each end of a Butler datum: ``imps`` is IMPs against the mean
of every score, ``butler`` without the top and bottom one (:mod:`hub.scoring`)."""


@dataclass(frozen=True, slots=True)
class SwissSettings:
    """A Swiss section's parameters: teams of four or pairs, how many (``entrants``), the
    rounds, the boards a round, round 1's draw (``seed``, None: by seeding) and the bye's
    VPs (a number, or ``"average"``)."""

    teams: bool
    entrants: int
    rounds: int
    boards_per_round: int
    seed: int | None = None
    bye_vp: float | str = BYE_VP

    def first(self) -> tuple[Pairing, ...]:
        return first_round(range(1, self.entrants + 1), seed=self.seed)

    def movement(self, pairings: Sequence[Pairing]) -> SwissMovement:
        return swiss_movement(self.entrants, self.rounds, pairings, teams=self.teams,
                              boards_per_round=self.boards_per_round)

    def contestant(self, pair: int) -> int:
        """The team of a pair (team k is pairs 2k-1 and 2k), or the pair itself."""
        return (pair + 1) // 2 if self.teams else pair


class Section:
    """A section: its movement, its tables (hub table id -> movement table number), its
    pairs (pair number -> players, for the director's evidence) and the scoring the
    director chose (``scoring``: "matchpoints", "imps", "butler", "cross-imps", or "" for
    the movement's; :mod:`hub.scoring` says what each means). Pair numbers are unique
    within a section. Without ``tables`` the ids are the section name and the number
    (``A1``, ``A2``...). A Swiss section has its ``swiss`` settings (hub.swiss): its movement
    grows round by round as the rounds are drawn. An individual section has its
    ``individual`` schedule (each seat's player); its ``movement`` is its partnerships' and
    ``pairs`` maps player numbers to their names."""

    def __init__(self, name: str, movement: Movement | None = None, *,
                 tables: Mapping[str, int] | Sequence[str] | None = None,
                 pairs: Mapping[int, Sequence[str]] | None = None, scoring: str = "",
                 swiss: SwissSettings | None = None,
                 individual: IndividualMovement | None = None):
        self.name = name
        self.individual = individual
        self.swiss = swiss
        self.movement = movement
        if scoring not in PAIRS_METHODS:
            raise ConfigError(f"section {name!r}: unknown scoring {scoring!r} "
                              f"({', '.join(m for m in PAIRS_METHODS if m)})")
        self.scoring = scoring
        if tables is None:
            if movement is None:
                raise ConfigError(f"section {name!r}: give a movement or its tables")
            numbers: dict[str, int] = {f"{name}{t}": t for t in range(1, movement.tables + 1)}
        elif isinstance(tables, Mapping):
            numbers = dict(tables)
        else:
            numbers = {tid: i + 1 for i, tid in enumerate(tables)}
        if movement is not None:
            bad = [tid for tid, n in numbers.items() if not 1 <= n <= movement.tables]
            if bad:
                raise ConfigError(f"section {name!r}: tables {bad} are not in the movement "
                                  f"({movement.tables} tables)")
        self.tables = numbers
        self.ids = {n: tid for tid, n in numbers.items()}
        self.pairs = {p: tuple(v) for p, v in (pairs or {}).items()}
        # a late pair in the set-up's absent pair's place -> the round it came (late_changes)
        self.placed: dict[int, int] = {}

    def sat_out(self, table: str, round_: int) -> tuple[str, int] | None:
        """The side and the late pair of ``table``'s half table in ``round_`` when a late pair
        later took the absent pair's place there: the boards it missed, which a one-sided
        artificial score may give it (hub.scoring); else None."""
        a = None if self.movement is None else self.movement.assignment(
            round_, self.tables.get(table, 0))
        if a is None or not a.boards or (a.ns is None) == (a.ew is None):
            return None
        late = [p for p, first in self.placed.items() if round_ < first]
        return ("NS" if a.ns is None else "EW", late[0]) if late else None

    def line_pairs(self, table: str, round_: int,
                   pairs: tuple[int | None, int | None]) -> tuple[int | None, int | None]:
        """``pairs`` (NS, EW) at ``table`` in ``round_``, the empty side of a half table the
        late pair missed (:meth:`sat_out`) given its number."""
        seat = self.sat_out(table, round_)
        if seat is None:
            return pairs
        return (seat[1], pairs[1]) if seat[0] == "NS" else (pairs[0], seat[1])

    def players(self, table: str, round_: int) -> tuple[int, int, int, int] | None:
        """An individual's players North, East, South, West at ``table`` in ``round_``
        (None: not an individual, or no full table there)."""
        if self.individual is None or table not in self.tables:
            return None
        a = self.individual.assignment(round_, self.tables[table])
        if a is None or not a.plays:
            return None
        n, e, s, w = a.seats
        assert n is not None and e is not None and s is not None and w is not None
        return n, e, s, w

    def seat_players(self, table: int, round_: int,
                     playing: Callable[[str, int, int], str | None] | None = None
                     ) -> dict[str, Any]:
        """An individual's players at table number ``table`` in ``round_`` by seat, each
        with his name (``playing(section, player, round)``: his substitute's in the rounds
        he plays for him) and where he plays the next round (protocol: the state's
        ``schedule.players``); {} for pairs."""
        schedule = self.individual
        if schedule is None:
            return {}
        a = schedule.assignment(round_, table)
        ahead = {p: (b.table, "NESW"[i]) for b in schedule.assignments
                 if b.round == round_ + 1 for i, p in enumerate(b.seats) if p is not None}
        out: dict[str, Any] = {}
        for letter, player in zip("NESW", a.seats if a is not None else (), strict=False):
            if player is None:
                continue
            names = self.pairs.get(player) or ()
            goes = ahead.get(player)
            instead = playing(self.name, player, round_) if playing is not None else None
            out[letter] = {"number": player, "name": instead or (names[0] if names else None),
                           "next": None if goes is None else {
                               "table": self.ids.get(goes[0]), "seat": goes[1]}}
        return out

    @property
    def pairs_method(self) -> tuple[Method, int]:
        """The method and Butler trim of the section's scoring when it is a pairs section (a
        teams section is IMPs between its rooms whatever it says, :mod:`hub.scoring`)."""
        return PAIRS_METHODS[self.scoring]
