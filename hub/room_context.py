"""What a table reads of its room (:class:`hub.sitting.TableContext`), and the round clock.

:class:`RoomContext` is a part of :class:`hub.room.Room`: for each table (by its id) the
movement of its section (the pairs and the boards of each round, where a pair or a board
is, the tables playing a board), the hand records and their markings (Law 2), the boards
each pair has already played (Law 15B), the hands of every board by their cards (a card
not in its hand: which hand it fits), and the table's round as the players see it
(:meth:`RoomContext.round_info`: its boards, the :class:`RoundClock`, where the pairs and
the boards go next). A table asks; nothing here changes a table.

Apart from hub.room because the room's other half applies events, facts and the clock to
the tables; this half only answers the tables' questions about the session, from what the
room was built with and the boards played (``mark_played``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bridgecore.cards import Seat, Side
from bridgecore.deal import Deal
from bridgecore.markings import Markings
from bridgecore.movements import Assignment, Movement
from hub.section import Section

if TYPE_CHECKING:
    from hub.scoring import LiveScoring
    from hub.table import TableState

__all__ = ["RoomContext", "RoundClock", "TableRef"]


@dataclass(slots=True)
class RoundClock:
    """The round in progress, when it started (hub time) and its length."""

    minutes: float
    round: int = 0
    started: float | None = None

    @property
    def deadline(self) -> float | None:
        return None if self.started is None else self.started + self.minutes * 60.0


@dataclass(slots=True)
class TableRef:
    """A table of the room: its section, its number in the movement, its state."""

    section: Section
    number: int
    state: TableState = field(init=False)


class RoomContext:
    """The session as its tables read it (a part of :class:`hub.room.Room`)."""

    if TYPE_CHECKING:
        clock: RoundClock
        scoring: LiveScoring
        _deals: dict[int, Deal]
        _markings: dict[int, Markings]
        _refs: dict[str, TableRef]
        _masks: dict[tuple[int, Seat], int]
        _hands: dict[int, list[tuple[int, Seat]]]
        _played: dict[tuple[str, int], dict[int, tuple[str, int]]]
        _schedule: dict[str, tuple[int, dict[str, Any]]]

    def deal(self, board: int) -> Deal | None:
        return self._deals.get(board)

    def has_deals(self) -> bool:
        return bool(self._deals)

    def markings(self, board: int) -> Markings:
        """The dealer and vulnerability board ``board`` is marked with: the hand record's
        when it gives them, else Law 2's (the markings govern, Law 2)."""
        found = self._markings.get(board)
        return found if found is not None else Markings.of_board(board)

    def board_numbers(self) -> list[int]:
        """Every board with a hand record, in order."""
        return sorted(self._deals)

    def assignment(self, table: str, round: int) -> Assignment | None:
        ref = self._refs[table]
        movement = ref.section.movement
        return None if movement is None else movement.assignment(round, ref.number)

    def where(self, table: str, pair: int, round: int) -> tuple[str, Side] | None:
        section = self._refs[table].section
        if section.movement is None:
            return None
        found = section.movement.where(pair, round)
        if found is None:
            return None
        tid = section.ids.get(found[0])
        return None if tid is None else (tid, found[1])

    def tables_with(self, table: str, board: int, round: int) -> list[str]:
        section = self._refs[table].section
        if section.movement is None:
            return []
        return [section.ids[n] for n in section.movement.tables_with(board, round)
                if n in section.ids]

    def section_tables(self, table: str) -> tuple[list[str], Movement | None]:
        """The table ids of ``table``'s section and its movement (the traveller's field)."""
        section = self._refs[table].section
        return list(section.tables), section.movement

    def movement_changed(self, section: str) -> None:
        """``section``'s movement has a new round (hub.swiss): what was worked out of it
        is worked out again."""
        tables = {tid for tid, ref in self._refs.items() if ref.section.name == section}
        for key in [k for k in self._schedule if k in tables]:
            del self._schedule[key]
        self.scoring.movement_changed(section)

    def played_by(self, table: str, pair: int) -> Mapping[int, tuple[str, int]]:
        return self._played.get((self._refs[table].section.name, pair), {})

    def mark_played(self, table: str, pair: int, board: int, round: int) -> None:
        key = (self._refs[table].section.name, pair)
        self._played.setdefault(key, {}).setdefault(board, (table, round))

    def hands_matching(self, mask: int) -> list[tuple[int, Seat]]:
        """Every (board, seat) whose hand is exactly ``mask``."""
        return self._hands.get(mask, [])

    def hands_containing(self, mask: int) -> list[tuple[int, Seat]]:
        """Every (board, seat) whose hand holds all the cards of ``mask``."""
        return [key for key, m in self._masks.items() if mask & ~m == 0]

    def round_info(self, table: str, round: int) -> dict[str, Any]:
        """The table's ``round`` as the players see it: its boards, the round clock (when
        the director started this round) and where each pair and the boards go next."""
        cached = self._schedule.get(table)
        if cached is not None and cached[0] == round:
            info = cached[1]
        else:
            info = self._round_info(table, round)
            self._schedule[table] = (round, info)
        clock = self.clock
        on = clock.round == round and clock.started is not None
        return dict(info, started=clock.started if on else None,
                    deadline=clock.deadline if on else None)

    def _round_info(self, table: str, round: int) -> dict[str, Any]:
        ref = self._refs[table]
        movement = ref.section.movement
        a = None if movement is None else movement.assignment(round, ref.number)
        if movement is None or a is None:
            return {"boards": [], "expected": None, "next": None}
        following: dict[str, Any] = {}
        for side in (Side.NS, Side.EW):
            pair = a.pair(side)
            found = None if pair is None else movement.where(pair, round + 1)
            following[str(side)] = None if found is None else {
                "pair": pair, "table": ref.section.ids.get(found[0]), "direction": str(found[1])}
        boards_to = sorted({ref.section.ids.get(n, str(n)) for b in a.boards
                            for n in movement.tables_with(b, round + 1)})
        info = {"boards": list(a.boards), "expected": {"NS": a.ns, "EW": a.ew},
                "next": dict(following, boards=boards_to)}
        if ref.section.individual is not None:
            info["players"] = ref.section.seat_players(ref.number, round,
                                                       self.scoring.substitutes.playing)
        return info
