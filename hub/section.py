"""A section of the session: its movement, its tables and its pairs.

A value the room (:mod:`hub.room`) holds and the live scorer (:mod:`hub.scoring`) reads;
apart from both so that neither imports the other for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bridgecore.movements import Movement
from hub.errors import ConfigError

__all__ = ["Section"]


class Section:
    """A section: its movement, its tables (hub table id -> movement table number), its
    pairs (pair number -> players, for the director's evidence) and the scoring the
    director chose (``scoring``: "matchpoints", "imps", "butler", "cross-imps", or "" for
    the movement's; :mod:`hub.scoring` says what each means). Pair numbers are unique
    within a section. Without ``tables`` the ids are the section name and the number
    (``A1``, ``A2``...)."""

    def __init__(self, name: str, movement: Movement | None = None, *,
                 tables: Mapping[str, int] | Sequence[str] | None = None,
                 pairs: Mapping[int, Sequence[str]] | None = None, scoring: str = ""):
        self.name = name
        self.movement = movement
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
