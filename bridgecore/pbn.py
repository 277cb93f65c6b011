"""PBN 2.1 reader and writer (formats.md §1): files of boards to and from GameRecord.

``read_pbn`` is lenient: a tag, deal, call or card it cannot read becomes a
:class:`~bridgecore.record.RecordProblem` with the file, line and board, and the
rest of the board and of the file is read. It raises
:class:`~bridgecore.errors.FormatError` only for input that is not text at all.
It follows the import format: any line ends, tabs, ``#``/``##`` tag
inheritance, deals from any seat, lower case, ``-`` placeholders, ``AP``,
``=n=`` note references (a note on a call is its alert and explanation), NAGs,
suffixes, ``^I ^S ^R ^L`` irregularity marks, comments, supplemental tables.

The play section is written by seat columns; the reader turns it into the
order played, each trick led by the winner of the one before. ``write_pbn``
produces the export format (CRLF, ``% PBN 2.1``/``% EXPORT``, the 15 mandatory
tags in order, the deal from the dealer, four calls a line from the dealer),
or with ``export=False`` the tags as read, in their order.
"""

from __future__ import annotations

import codecs
import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, SupportsIndex

from bridgecore.errors import FormatError
from bridgecore.pbn_reader import Reader
from bridgecore.pbn_values import (
    dd_tricks_decode,
    dd_tricks_encode,
    parse_contract,
    parse_optimum_score,
    parse_result,
    parse_score,
)
from bridgecore.pbn_writer import dumps_record, save_pbn, write_pbn
from bridgecore.record import GameRecord, RawTable, RecordProblem
from bridgecore.tempo import resolve_tempo

__all__ = [
    "PbnFile", "dd_tricks_decode", "dd_tricks_encode", "dumps_record", "iter_pbn",
    "parse_contract", "parse_optimum_score", "parse_result", "parse_score", "read_pbn",
    "save_pbn", "write_pbn",
]

Source = str | Path | IO[str] | IO[bytes] | bytes


@dataclass(slots=True)
class PbnFile:
    """What a PBN file holds: its boards, every problem met, and its ``%`` lines."""

    records: list[GameRecord] = field(default_factory=list)
    problems: list[RecordProblem] = field(default_factory=list)
    header: list[str] = field(default_factory=list)     # % lines before the first board
    escapes: list[tuple[int, str]] = field(default_factory=list)  # (line, text) of later ones
    file: str | None = None
    # Records read with tempo="deferred" or "lazy" whose TempoTable was not read when the
    # file was, where their problems begin in ``problems``, and the table.
    pending: list[tuple[GameRecord, int, RawTable]] = field(default_factory=list,
                                                            compare=False, repr=False)

    def resolve_tempo(self) -> list[RecordProblem]:
        """Read every ``TempoTable`` left unread (:func:`bridgecore.tempo.resolve_tempo`):
        the file becomes what an eager read makes, each table's problems among ``problems``
        where that read puts them (also those of a record read on its own before). Returns
        those problems. A file read with ``tempo="deferred"`` does this the first time its
        ``problems`` are read."""
        if self.__class__ is _DeferredFile:
            # the same slots: read directly from here on
            self.__class__ = PbnFile  # type: ignore[assignment]
        found: list[RecordProblem] = []
        with _no_collector():       # about 130 small objects a board, as in read_pbn
            for record, at, raw in reversed(self.pending):
                resolve_tempo(record)       # nothing left to read if read on its own
                mine = raw.found
                if mine:
                    self.problems[at:at] = mine
                    found[0:0] = mine
        self.pending = []
        return found


class _DeferredFile(PbnFile):
    """A :class:`PbnFile` read with ``tempo="deferred"`` whose records' tables are not all
    read: reading its ``problems`` (or comparing, printing, copying or pickling it) reads
    them first (:meth:`PbnFile.resolve_tempo`), and the file becomes a plain one."""

    __slots__ = ()

    @property
    def problems(self) -> list[RecordProblem]:
        self.resolve_tempo()
        return self.problems

    @problems.setter
    def problems(self, value: list[RecordProblem]) -> None:
        self.resolve_tempo()
        self.problems = value

    def __eq__(self, other: object) -> bool:
        self.resolve_tempo()
        return self == other

    __hash__ = None     # type: ignore[assignment]  # as PbnFile's

    def __repr__(self) -> str:
        self.resolve_tempo()
        return repr(self)

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        self.resolve_tempo()
        return self.__reduce_ex__(protocol)


def read_pbn(source: Source, *, file: str | None = None, tempo: str = "deferred"
             ) -> PbnFile:
    """Read a PBN file: a Path, an open file, bytes, or the text itself (a str).

    A str naming an existing file (one line, no ``[``) is read as that file. Each board's
    ``TempoTable`` (issue 27) is read, by default, the first time its record's calls,
    cards, tables or problems are read, and every one the first time the file's
    ``problems`` are (``tempo="deferred"``: :class:`~bridgecore.tempo_reading.DeferredRecord`):
    the same file and records as ``tempo="eager"``, which reads them at once. With
    ``tempo="lazy"`` each is kept as text (``record.raw_tempo``): its calls and cards have
    no times and the table's problems are not found until :meth:`PbnFile.resolve_tempo`.
    """
    text, name = _text(source, file)
    reader = Reader(text, name, tempo=tempo)
    with _no_collector():
        records = list(reader.records())
    read = PbnFile(records, reader.problems, reader.header, reader.escapes, name,
                   reader.pending)
    if reader.deferred and reader.pending:
        read.__class__ = _DeferredFile
    return read


@contextmanager
def _no_collector() -> Iterator[None]:
    """The cyclic collector paused (left alone when the caller has it off). Reading makes
    many small objects that hold no cycle (a timed board about 130: its calls, cards and
    table rows); the collector's full passes over all the records read so far were 40 % of
    reading 3,000 boards with tempo (issue 27). It runs again after, also on an error."""
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def iter_pbn(source: Source, *, file: str | None = None, tempo: str = "deferred"
             ) -> Iterator[GameRecord]:
    """The boards of a PBN file one at a time (problems are on each record; a record's
    TempoTable is read as :func:`read_pbn` says; with ``tempo="lazy"`` it waits for
    :func:`bridgecore.tempo.resolve_tempo`)."""
    text, name = _text(source, file)
    reader = Reader(text, name, tempo=tempo, keep=False)
    for record in reader.records():
        reader.pending.clear()      # no file to tell: the records are not kept here
        yield record


def _text(source: Source, file: str | None) -> tuple[str, str | None]:
    """The text of ``source`` with line ends made ``\\n``; bytes are UTF-8 or else Latin-1."""
    data: str | bytes
    name = file
    if isinstance(source, str) and "\n" not in source and "[" not in source \
            and len(source) < 4096 and os.path.isfile(source):
        source = Path(source)
    if isinstance(source, Path):
        name = name or str(source)
        try:
            data = source.read_bytes()
        except OSError as err:
            raise FormatError(f"cannot read the file: {err.strerror or err}", file=name) from err
    elif isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    elif isinstance(source, str):
        data = source
    else:
        name = name or _name_of(source)
        try:
            data = source.read()
        except (OSError, UnicodeDecodeError) as err:
            raise FormatError(f"cannot read the input: {err}", file=name) from err
    if isinstance(data, bytes):
        data = _decode(data)
    if not isinstance(data, str):
        raise FormatError("the input is neither text nor bytes", file=name)
    text = data[1:] if data.startswith("\ufeff") else data
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:       # a lone CR (old Mac files): one more pass only then
            text = text.replace("\r", "\n")
    nul = text.find("\x00")
    if nul >= 0:
        raise FormatError("not a text file (NUL character)", file=name,
                          line=text.count("\n", 0, nul) + 1)
    return text, name


def _decode(data: bytes) -> str:
    """UTF-8 (without its byte order mark) when the bytes are that, else ISO-8859-1."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("iso-8859-1")


def _name_of(source: object) -> str | None:
    name = getattr(source, "name", None)
    return name if isinstance(name, str) else None
