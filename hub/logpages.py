"""The event log's rows read from its pages, without SQLite (``tenace log salvage``).

SQLite reads a table through its b-tree: one interior page lost (the end of the file cut
off, a page garbled) and every query on that table fails, though most rows still sit intact
on their leaf pages. This module reads those leaf pages itself, by SQLite's documented file
format: every page of the file and of its ``-wal`` (the frames in order, a later copy of a
page replacing an earlier one) that is a table b-tree leaf (type 13) gives its cells: the
rowid and the record (its header of serial types, then the values), a payload too long for
its page followed along its overflow pages. A page or a cell that does not parse is counted,
never fatal. What the rows are is the caller's business (hub.logcheck matches them to the
events and chain tables by their shape and checks every one against the hash chain).

Standard library only; reads, never writes.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["PageRows", "read_pages"]

_HEADER = 100
_LEAF = 13
_WAL_HEADER = 32
_FRAME_HEADER = 24


@dataclass(slots=True)
class PageRows:
    """What :func:`read_pages` found: ``rows`` (rowid, values) of every table leaf cell
    read, ``pages`` leaf pages read, ``bad_pages`` leaf pages whose header is impossible,
    ``bad_cells`` cells that did not parse."""

    rows: list[tuple[int, tuple[Any, ...]]] = field(default_factory=list)
    pages: int = 0
    bad_pages: int = 0
    bad_cells: int = 0


class _Bad(Exception):
    """A cell or page that does not parse."""


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = 0
    for i in range(9):
        if at + i >= len(data):
            raise _Bad("varint past the end")
        byte = data[at + i]
        if i == 8:
            return (value << 8) | byte, at + 9
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value, at + i + 1
    raise _Bad("varint")   # pragma: no cover - the loop returns


def _values(payload: bytes) -> tuple[Any, ...]:
    """A record's values (SQLite's record format)."""
    size, at = _varint(payload, 0)
    if size > len(payload) or size < 1:
        raise _Bad("record header")
    types: list[int] = []
    while at < size:
        kind, at = _varint(payload, at)
        types.append(kind)
    out: list[Any] = []
    at = size
    for kind in types:
        if kind == 0:
            out.append(None)
        elif 1 <= kind <= 6:
            width = (0, 1, 2, 3, 4, 6, 8)[kind]
            out.append(int.from_bytes(payload[at:at + width], "big", signed=True))
            at += width
        elif kind == 7:
            out.append(struct.unpack(">d", payload[at:at + 8])[0])
            at += 8
        elif kind in (8, 9):
            out.append(kind - 8)
        elif kind >= 12:
            width = (kind - 12) // 2
            chunk = payload[at:at + width]
            out.append(chunk.decode("utf-8") if kind % 2 else bytes(chunk))
            at += width
        else:
            raise _Bad(f"serial type {kind}")
        if at > len(payload):
            raise _Bad("record past its payload")
    return tuple(out)


class _File:
    """The pages of a database file and its ``-wal`` (the latest copy of each page)."""

    def __init__(self, path: Path):
        self.data = path.read_bytes()
        head = self.data[:_HEADER]
        size = struct.unpack(">H", head[16:18])[0] if len(head) >= 18 else 4096
        self.size = 65536 if size == 1 else size
        if self.size < 512 or self.size & (self.size - 1):
            self.size = 4096
        reserved = head[20] if len(head) > 20 else 0
        self.usable = self.size - reserved
        self.wal: dict[int, bytes] = {}
        wal = Path(f"{path}-wal")
        if wal.is_file():
            self._read_wal(wal.read_bytes())

    def _read_wal(self, data: bytes) -> None:
        if len(data) < _WAL_HEADER:
            return
        size = struct.unpack(">I", data[8:12])[0]
        if size != self.size:
            return
        at = _WAL_HEADER
        while at + _FRAME_HEADER + size <= len(data):
            number = struct.unpack(">I", data[at:at + 4])[0]
            self.wal[number] = data[at + _FRAME_HEADER:at + _FRAME_HEADER + size]
            at += _FRAME_HEADER + size

    def count(self) -> int:
        return max(len(self.data) // self.size, max(self.wal, default=0))

    def page(self, number: int) -> bytes:
        """Page ``number`` (1-based), zeros where the file is cut."""
        if number in self.wal:
            return self.wal[number]
        start = (number - 1) * self.size
        chunk = self.data[start:start + self.size]
        return chunk + b"\0" * (self.size - len(chunk))


def _cells(file: _File, number: int, found: PageRows) -> Iterator[tuple[int, tuple[Any, ...]]]:
    page = file.page(number)
    base = _HEADER if number == 1 else 0
    if page[base] != _LEAF:
        return
    count = struct.unpack(">H", page[base + 3:base + 5])[0]
    if base + 8 + 2 * count > file.size:
        found.bad_pages += 1
        return
    found.pages += 1
    usable = file.usable
    for i in range(count):
        try:
            at = struct.unpack(">H", page[base + 8 + 2 * i:base + 10 + 2 * i])[0]
            if not base + 8 <= at < file.size:
                raise _Bad("cell pointer")
            length, at = _varint(page, at)
            rowid, at = _varint(page, at)
            if length <= usable - 35:
                payload = page[at:at + length]
            else:
                payload = _overflowing(file, page, at, length)
            if len(payload) != length:
                raise _Bad("payload cut")
            yield rowid, _values(payload)
        except (_Bad, UnicodeDecodeError, struct.error, IndexError):
            found.bad_cells += 1


def _overflowing(file: _File, page: bytes, at: int, length: int) -> bytes:
    """A payload spilling onto overflow pages (SQLite's file format, section 1.6)."""
    usable = file.usable
    least = ((usable - 12) * 32 // 255) - 23
    local = least + (length - least) % (usable - 4)
    if local > usable - 35:
        local = least
    parts = [page[at:at + local]]
    next_page = struct.unpack(">I", page[at + local:at + local + 4])[0]
    have, seen = local, set()
    while have < length:
        if next_page == 0 or next_page in seen or next_page > file.count():
            raise _Bad("overflow chain")
        seen.add(next_page)
        over = file.page(next_page)
        take = min(usable - 4, length - have)
        parts.append(over[4:4 + take])
        have += take
        next_page = struct.unpack(">I", over[:4])[0]
    return b"".join(parts)


def read_pages(path: Path | str) -> PageRows:
    """Every row of every table leaf page of the database at ``path`` (and its ``-wal``)."""
    file = _File(Path(path))
    found = PageRows()
    for number in range(1, file.count() + 1):
        try:
            found.rows.extend(_cells(file, number, found))
        except (_Bad, struct.error, IndexError):
            found.bad_pages += 1
    return found
