"""A board's times read from its PBN ``TempoTable`` (:data:`TEMPO_TABLE`, written by
:func:`bridgecore.tempo.tempo_table`): :func:`apply_tempo_table` gives a record's calls and
cards their times, :func:`resolve_tempo` reads a table a PBN reader kept as text, and
:class:`DeferredRecord` is a record that does so the first time it is read (issue 27: the
PBN reader's default; a file with tempo then reads about as fast as one without).

Standard library and bridgecore only; :mod:`bridgecore.tempo` re-exports what it names.
"""

from __future__ import annotations

import gc
import math
from collections.abc import Sequence
from typing import Any, SupportsIndex

from bridgecore.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE
from bridgecore.pbn_sections import read_table
from bridgecore.record import (
    CallRecord,
    CardRecord,
    GameRecord,
    RecordProblem,
    Table,
    timed_call,
    timed_card,
)

__all__ = ["BATCH", "TEMPO_TABLE", "DeferredRecord", "apply_tempo_table", "resolve_tempo"]

TEMPO_TABLE = "TempoTable"
"""The PBN supplemental table of the times (PBN 2.1 section 5: a table is a tag whose value
lists the columns, rows following; readers skip a tag they do not know)."""
_START = "0"


def _last_index(names: Sequence[str], name: str) -> int:
    """The column ``name``'s index, the last when named twice (as a dict of the row
    would keep), else -1."""
    for i in range(len(names) - 1, -1, -1):
        if names[i] == name:
            return i
    return -1


def _cell(row: Sequence[str], at: int) -> str:
    return row[at] if 0 <= at < len(row) else ""


def _float(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def apply_tempo_table(record: GameRecord) -> None:
    """Give ``record``'s calls and cards the times its :data:`TEMPO_TABLE` holds (a row
    whose item is not the record's is a problem of the record, and left out)."""
    table = record.tables.get(TEMPO_TABLE)
    if table is None:
        return
    action, item, time = _columns(table)
    if action < 0 or time < 0:
        return
    # The table as Tenace writes it (the start, then every call and card in order, each
    # once, every row whole) is read in one pass, by position (issue 27: this runs for
    # every board of a file with tempo); any other goes by key.
    if item >= 0 and _timed(record, table, action, item, time):
        return
    calls, plays = record.calls, record.plays
    nc = len(calls)
    # The rows by key, last to first (the first row of an action counts, as in _rows),
    # then one look-up per action.
    rows = table.rows
    lines = table.lines
    rows_of = {_cell(row, action): (_cell(row, item), _cell(row, time), _line(lines, n))
               for n, row in reversed(list(enumerate(rows)))}
    get = rows_of.get
    keys = _keys("C", nc)
    for i, c in enumerate(calls):
        row = get(keys[i])
        if row is not None:
            at = _row_time(record, keys[i], row, str(c.call))
            if at is not None:
                calls[i] = timed_call(c, at)
    keys = _keys("P", len(plays))
    for i, p in enumerate(plays):
        row = get(keys[i])
        if row is not None:
            at = _row_time(record, keys[i], row, str(p.card))
            if at is not None:
                plays[i] = timed_card(p, at)


def resolve_tempo(record: GameRecord) -> list[RecordProblem]:
    """Read the ``TempoTable`` a lazy or deferred PBN read left as text
    (``record.raw_tempo``): the record becomes what an eager read makes (a plain
    :class:`~bridgecore.record.GameRecord`, its table in ``tables``, its calls and cards
    timed, the table's problems first among its own, as they are then). Returns those
    problems (none when nothing was left unread) and keeps them in ``raw_tempo.found``, where
    the file's reader finds them for the file's problems:
    :meth:`bridgecore.pbn.PbnFile.resolve_tempo`. A
    :class:`DeferredRecord` calls this when first read."""
    if record.__class__ is DeferredRecord:
        # read directly from here on (the same slots)
        record.__class__ = GameRecord  # type: ignore[assignment]
    raw = record.raw_tempo
    if raw is None:
        return []
    record.raw_tempo = None
    tables = record.tables
    tables[TEMPO_TABLE] = read_table(raw.value, raw.tokens)
    if len(tables) > 1:     # in the tags' order, as the reader makes them
        record.tables = {name: tables[name] for name in record.tags if name in tables}
    problems = record.problems
    before = len(problems)
    apply_tempo_table(record)
    found = problems[before:]
    if found and before:
        del problems[before:]
        problems[0:0] = found
    raw.found.extend(found)
    return found


def _timed(record: GameRecord, table: Table, action: int, item: int, time: int) -> bool:
    """The times of a table whose rows are the start, the calls then the cards, in order,
    each row whole; False (the record untouched) when the table is not so.

    One pass over the rows (split here, one at a time, when the table is still its text:
    :meth:`~bridgecore.record.Table.of_lines`): each row's key is checked as it is read,
    each timed call and card made once (:func:`~bridgecore.record.timed_card`), and the
    record's lists and problems changed only once every row was found where the writer
    puts it."""
    calls, plays = record.calls, record.plays
    nc = len(calls)
    text = table.text
    rows = table.rows if text is None else [ln.split() for ln in text.split("\n")[:-1]]
    last = max(action, item, time)
    if len(rows) != 1 + nc + len(plays) or len(rows[0]) <= last or rows[0][action] != _START:
        return False
    bad: list[tuple[str, int]] = []         # (message, row) of items not the record's
    new_calls = calls[:]
    # The keys (C1.., P1..) may outnumber the calls and cards: zip stops at the records.
    for n, (c, row, key) in enumerate(zip(calls, rows[1:], _keys("C", nc), strict=False)):
        if len(row) <= last or row[action] != key:
            return False
        said = row[item]
        if _CALL_OF.get(said) is not c.call and said != str(c.call):
            bad.append((f"{TEMPO_TABLE} {key}: {said} is not the record's {c.call}: "
                        "its time is left out", n + 1))
            continue
        at = _float(row[time])
        if at is not None:
            new_calls[n] = timed_call(c, at)
    first = nc + 1
    new_plays = plays[:]
    cards = zip(plays, rows[first:], _keys("P", len(plays)), strict=False)
    for n, (p, row, key) in enumerate(cards):
        if len(row) <= last or row[action] != key:
            return False
        said = row[item]
        if said != p.card._text:       # str(card), read directly: 52 a board
            bad.append((f"{TEMPO_TABLE} {key}: {said} is not the record's {p.card}: "
                        "its time is left out", first + n))
            continue
        try:
            at = float(row[time])
        except ValueError:
            continue
        if at - at == 0.0:      # finite (inf - inf and nan - nan are nan)
            new_plays[n] = timed_card(p, at)
    calls[:] = new_calls
    plays[:] = new_plays
    if bad:
        lines = table.lines
        for message, at_row in bad:
            record.problem(message, _line(lines, at_row))
    return True


_CALL_OF = {str(call): call for call in (*ALL_BIDS, PASS, DOUBLE, REDOUBLE)}
"""Each call by its text: ``_CALL_OF.get(text) is call`` says ``str(call) == text`` without
making the text (a call read from a file is one of these)."""
_COLUMNS_OF: dict[tuple[str, ...], tuple[int, int, int]] = {}


def _columns(table: Table) -> tuple[int, int, int]:
    """The indexes of the Action, Item and Time columns of a tempo table (-1: none)."""
    key = tuple(table.columns)
    found = _COLUMNS_OF.get(key)
    if found is None:
        names = table.names
        found = (_last_index(names, "Action"), _last_index(names, "Item"),
                 _last_index(names, "Time"))
        if len(_COLUMNS_OF) < 256:
            _COLUMNS_OF[key] = found
    return found


_KEYS = {kind: tuple(f"{kind}{i + 1}" for i in range(128)) for kind in "CP"}


def _keys(kind: str, count: int) -> tuple[str, ...]:
    """The rows' keys of ``count`` calls (``C``) or cards (``P``) and perhaps more: ``C1``,
    ``C2``..."""
    keys = _KEYS[kind]
    return keys if count <= len(keys) else tuple(f"{kind}{i + 1}" for i in range(count))


def _row_time(record: GameRecord, key: str, row: tuple[str, str, int | None], text: str
              ) -> float | None:
    """The time of the row ``(item, time, line)`` of ``key``, whose item the record has as
    ``text``; None if it has none or the items differ (a problem of the record, at the
    row's line when known)."""
    item, time, line = row
    if item != text:
        record.problem(f"{TEMPO_TABLE} {key}: {item} is not the record's {text}: its time "
                       "is left out", line)
        return None
    return _float(time)


def _line(lines: Sequence[int], row: int) -> int | None:
    """The file's line of a table's row, None when the table has no lines (the record's
    first line is then the problem's)."""
    return lines[row] if row < len(lines) else None


BATCH = 64
"""How many records of a file a :class:`DeferredRecord` first read reads (itself and the
next ones still unread): about 2 ms of reading for a caller that wants one."""


class DeferredRecord(GameRecord):
    """A :class:`GameRecord` whose ``TempoTable`` (``raw_tempo``) is read the first time
    its calls, cards, tables or problems are (issue 27: the PBN reader's default,
    ``tempo="deferred"``; a file with tempo then reads about as fast as one without, and
    a caller that never looks at a time never pays for it).

    Reading any of those four (or comparing, printing, copying or pickling the record)
    reads the table (:func:`resolve_tempo`), which first makes the record
    a plain :class:`GameRecord` (it takes that class back: same slots) and then gives its
    calls and cards their times and its problems the table's, first among them, as an
    eager read does; after that it is the record an eager read makes, read at full speed.
    Every other field is read directly. Not for threads that share a record before it was
    read: read it (or resolve it) first."""

    __slots__ = ()

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise TypeError("a DeferredRecord is a read GameRecord: DeferredRecord.of(record)")

    @staticmethod
    def of(record: GameRecord) -> None:
        """Make ``record`` (whose ``raw_tempo`` is set) one that reads it when first read."""
        record.__class__ = DeferredRecord

    def _wake(self) -> None:
        """Read this record's table, and those of the records after it in its file still
        unread (:data:`BATCH` records in all), the collector paused: a caller that reads the
        records one after the other leaves the collector a pass per batch, not one every few
        records over the whole file (issue 27: 20 % of such a read)."""
        raw = self.raw_tempo
        # the same slots: every field now read directly
        self.__class__ = GameRecord  # type: ignore[assignment]
        batch = None if raw is None else raw.batch
        if batch is None:
            resolve_tempo(self)
            return
        assert raw is not None
        collecting = gc.isenabled()
        if collecting:
            gc.disable()
        try:
            resolve_tempo(self)
            for record in batch[raw.at + 1:raw.at + BATCH]:
                if record.__class__ is DeferredRecord:
                    resolve_tempo(record)
        finally:
            if collecting:
                gc.enable()

    @property
    def calls(self) -> list[CallRecord]:
        self._wake()
        return self.calls

    @calls.setter
    def calls(self, value: list[CallRecord]) -> None:
        self._wake()
        self.calls = value

    @property
    def plays(self) -> list[CardRecord]:
        self._wake()
        return self.plays

    @plays.setter
    def plays(self, value: list[CardRecord]) -> None:
        self._wake()
        self.plays = value

    @property
    def tables(self) -> dict[str, Table]:
        self._wake()
        return self.tables

    @tables.setter
    def tables(self, value: dict[str, Table]) -> None:
        self._wake()
        self.tables = value

    @property
    def problems(self) -> list[RecordProblem]:
        self._wake()
        return self.problems

    @problems.setter
    def problems(self, value: list[RecordProblem]) -> None:
        self._wake()
        self.problems = value

    def __eq__(self, other: object) -> bool:
        self._wake()
        return self == other

    __hash__ = None     # type: ignore[assignment]  # as GameRecord's

    def __repr__(self) -> str:
        self._wake()
        return repr(self)

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        self._wake()
        return self.__reduce_ex__(protocol)
