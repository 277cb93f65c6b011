"""The ids of the events a room accepted, kept for the whole session in little memory.

A device numbers its events: the outbox's ids are ``{device}-{epoch}-{seq:06d}``
(wire/outbox.py), the simulator's ``{device}-{seq:06d}``, and ``seq`` rises. Kept as strings
in a set, the ids cost about a hundred bytes an event, all session long (the hub answers a
copy of any of them ``duplicate``). :class:`EventIds` behaves as that set of strings (``in``,
``add``, ``len``), but an id that ends in ``-`` and its number written with at least six
digits and no other leading zero is stored as that number in the runs of numbers of its
prefix: one run per device while its numbers follow each other. Any other id is kept as it
is. Which id is in it never depends on how it is stored.
"""

from __future__ import annotations

from bisect import bisect_right

__all__ = ["EventIds"]


def _split(event_id: str) -> tuple[str, int] | None:
    """(prefix, number) of an id written ``{prefix}-{number:06d}``, else None."""
    prefix, dash, digits = event_id.rpartition("-")
    if not dash or len(digits) < 6 or not (digits.isascii() and digits.isdigit()):
        return None
    number = int(digits)
    return (prefix, number) if f"{number:06d}" == digits else None


class _Runs:
    """A set of integers as sorted, disjoint runs ``starts[i]..ends[i]`` (inclusive)."""

    __slots__ = ("ends", "starts")

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def __contains__(self, n: int) -> bool:
        i = bisect_right(self.starts, n) - 1
        return i >= 0 and n <= self.ends[i]

    def add(self, n: int) -> bool:
        """Add ``n``; whether it was new."""
        starts, ends = self.starts, self.ends
        i = bisect_right(starts, n) - 1
        if i >= 0 and n <= ends[i]:
            return False
        joins_left = i >= 0 and ends[i] == n - 1
        joins_right = i + 1 < len(starts) and starts[i + 1] == n + 1
        if joins_left and joins_right:
            ends[i] = ends[i + 1]
            del starts[i + 1], ends[i + 1]
        elif joins_left:
            ends[i] = n
        elif joins_right:
            starts[i + 1] = n
        else:
            starts.insert(i + 1, n)
            ends.insert(i + 1, n)
        return True


class EventIds:
    """The ids of the accepted events (module docstring): ``id in ids``, ``ids.add(id)``,
    ``len(ids)``."""

    __slots__ = ("_count", "_last", "_other", "_runs")

    def __init__(self) -> None:
        self._runs: dict[str, _Runs] = {}
        self._other: set[str] = set()
        self._count = 0
        # the last id split: a room asks ``in`` then adds the same id (issue 27)
        self._last: tuple[str, tuple[str, int] | None] = ("", None)

    def _split(self, event_id: str) -> tuple[str, int] | None:
        last_id, split = self._last
        if last_id is not event_id and last_id != event_id:
            split = _split(event_id)
            self._last = (event_id, split)
        return split

    def __contains__(self, event_id: object) -> bool:
        if not isinstance(event_id, str):
            return False
        split = self._split(event_id)
        if split is None:
            return event_id in self._other
        runs = self._runs.get(split[0])
        return runs is not None and split[1] in runs

    def add(self, event_id: str) -> None:
        split = self._split(event_id)
        if split is None:
            if event_id not in self._other:
                self._other.add(event_id)
                self._count += 1
            return
        prefix, number = split
        runs = self._runs.get(prefix)
        if runs is None:
            runs = self._runs[prefix] = _Runs()
        if runs.add(number):
            self._count += 1

    def __len__(self) -> int:
        return self._count

    def __bool__(self) -> bool:
        return self._count > 0
