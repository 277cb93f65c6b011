"""Reading the games of a PBN text into GameRecord values (used by :mod:`bridgecore.pbn`).

One pass of :data:`~bridgecore.pbn_tokens.TOKEN` over the text cuts it into
games at semi-empty lines. Each game's tags are resolved (``#`` copies the
previous game's value, ``##text`` sets a value for the games after), then its
fields, auction, play and tables are read; what cannot be read is a problem
with its line, and reading goes on. A ``TempoTable`` (bridgecore.tempo) gives the calls and
cards their times: by default the table is kept as its tokens
(:class:`~bridgecore.record.RawTable`, one piece of text for Tenace's rows) and read the first
time its record's calls, cards, tables or problems are (``tempo="deferred"``:
:class:`~bridgecore.tempo_reading.DeferredRecord`); at once with ``tempo="eager"``; with
``tempo="lazy"`` only when :func:`bridgecore.tempo.resolve_tempo` reads it (issue 27).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from bridgecore.cards import Seat, Strain
from bridgecore.deal import Deal
from bridgecore.errors import ParseError
from bridgecore.pbn_sections import read_auction, read_play, read_table
from bridgecore.pbn_tokens import TOKEN, fast_deal, unescape
from bridgecore.pbn_values import (
    dd_tricks_decode,
    parse_contract,
    parse_optimum_score,
    parse_result,
    parse_score,
    parse_strain_only,
)
from bridgecore.pbn_writer import MANDATORY_TAGS, play_strain
from bridgecore.record import GameRecord, RawTable, RecordProblem
from bridgecore.tempo_reading import TEMPO_TABLE, DeferredRecord, apply_tempo_table
from bridgecore.vulnerability import Vulnerability

__all__ = ["TEMPO_READS", "Reader"]

TEMPO_READS = ("deferred", "eager", "lazy")
"""How a ``TempoTable`` is read: when its record is first read (the default), at once, or
when :func:`bridgecore.tempo.resolve_tempo` is called."""

_SEATS = {s.letter: s for s in Seat}
_VULNERABILITY = {"NONE": Vulnerability.NONE, "LOVE": Vulnerability.NONE,
                  "-": Vulnerability.NONE, "NS": Vulnerability.NS, "EW": Vulnerability.EW,
                  "ALL": Vulnerability.BOTH, "BOTH": Vulnerability.BOTH}
_UNKNOWN = frozenset({"", "?"})
_NO_INHERIT = frozenset({"Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction",
                         "Play"})
_SECTIONS = frozenset({"Auction", "Play"})
_NOT_TABLES = frozenset(MANDATORY_TAGS)


_ROWS = re.compile(r"(?:(?:[^\S\n]+[^\s\[\]{};\"]|[^\s\[\]{};\"%])[^\[\]{};\"\n]*\n)+")
"""A table's rows in one piece: the lines after its tag that are only words (no string,
comment, tag or escape), each ended by a line end; what the token grammar would cut into one
run of words per line (issue 27: a file with a table per board read row by row was 5x
slower)."""


class _Scan:
    """The matches of :data:`~bridgecore.pbn_tokens.TOKEN` over ``text``; setting ``jump``
    goes on from that position (after a table's rows taken in one piece)."""

    __slots__ = ("jump", "text")

    def __init__(self, text: str):
        self.text = text
        self.jump = -1

    def __iter__(self) -> Iterator[re.Match[str]]:
        pos = 0
        while pos >= 0:
            start, pos = pos, -1
            for m in TOKEN.finditer(self.text, start):
                yield m
                if self.jump >= 0:
                    pos, self.jump = self.jump, -1
                    break


class _Group:
    """The tokens of one game: the text between two semi-empty lines."""

    __slots__ = ("commentary", "has_note", "items", "last_section", "line", "malformed",
                 "notes", "play_notes", "problems", "tag_line")

    def __init__(self, line: int):
        self.line = line
        self.tag_line: int | None = None
        self.items: list[tuple[str, str, int, list[tuple[str, int, str]]]] = []
        self.notes: dict[int, str] = {}
        self.play_notes: dict[int, str] = {}
        self.last_section: str | None = None
        self.commentary: list[str] = []
        self.problems: list[tuple[str, int]] = []
        self.malformed = False
        self.has_note = False

    def note(self, value: str, line: int) -> None:
        number, colon, text = value.partition(":")
        if not colon or not number.strip().isdecimal() or len(number.strip()) > 9:
            self.problems.append((f"malformed note {value!r} (needs 'n:text')", line))
            return
        n = int(number)
        if not 1 <= n <= 32:
            self.problems.append((f"note number {n} is not 1 to 32", line))
        if self.last_section == "Play":
            notes = self.play_notes
        else:
            notes = self.notes
            if self.last_section is None:
                self.problems.append((f"[Note {n}] is in no auction or play section", line))
        if n in notes:
            self.problems.append((f"note {n} given twice; the first is kept", line))
        else:
            notes[n] = text.strip()


class Reader:
    """Reads the games of one text, carrying ``#``/``##`` inheritance from game to game."""

    def __init__(self, text: str, file: str | None, *, tempo: str = "deferred",
                 keep: bool = True):
        if tempo not in TEMPO_READS:
            raise ValueError(f"tempo is 'deferred', 'eager' or 'lazy', not {tempo!r}")
        self.text = text
        self.file = file
        self.lazy = tempo != "eager"        # the table kept as its tokens
        self.deferred = tempo == "deferred"
        # Each record whose TempoTable is left unread, where its problems begin in
        # ``problems``, and the table: its problems go there when it is read
        # (PbnFile.resolve_tempo).
        self.pending: list[tuple[GameRecord, int, RawTable]] = []
        # A deferred read's records (``keep``: the caller keeps them, as a file does), each
        # read with the next ones (DeferredRecord); not kept for a reader of one at a time.
        self.batch: list[GameRecord] | None = [] if keep and self.deferred else None
        self.problems: list[RecordProblem] = []
        self.header: list[str] = []
        self.escapes: list[tuple[int, str]] = []
        self.previous: dict[str, str] = {}
        self.sticky: dict[str, str] = {}
        self.deals: dict[str, Deal | str] = {}
        self.values: dict[tuple[str, str, Seat | None], Any] = {}

    def remember(self, key: tuple[str, str, Seat | None], value: object) -> None:
        """Keep what a tag value read as, for the next board with the same text."""
        if len(self.values) < 4096:
            self.values[key] = value

    def records(self) -> Iterator[GameRecord]:
        line = 1
        blank = True
        group: _Group | None = None
        section: list[tuple[str, int, str]] | None = None
        seen_tag = False
        scan = _Scan(self.text)
        for m in scan:
            kind = m.lastgroup
            if kind == "nl":
                if blank and group is not None:
                    record = self._close(group)
                    if record is not None:
                        yield record
                    group, section = None, None
                line += 1
                blank = True
                continue
            if kind == "end":
                continue
            blank = False
            if kind == "esc":
                if seen_tag:
                    self.escapes.append((line, m.group()))
                else:
                    self.header.append(m.group())
                continue
            if group is None:
                group = _Group(line)
            if kind == "words":
                words = m.group("words")
                if section is None:
                    group.problems.append((f"text outside a section: {words.strip()!r}", line))
                else:
                    section.append(("w", line, words))
                if words[-1] == "\n":
                    line += 1
                    blank = True
            elif kind == "tag":
                seen_tag = True
                name = m.group("name")
                value = unescape(m.group("value"))
                if group.tag_line is None:
                    group.tag_line = line
                if name == "Note":
                    group.note(value, line)
                    group.has_note = True
                    section = None
                else:
                    section = []
                    group.items.append((name, value, line, section))
                    if name in _SECTIONS:
                        group.last_section = name
                whole = m.group()
                if "\n" in whole:
                    line += whole.count("\n")
                    blank = whole[-1] == "\n"
                    if section is not None and blank and _is_table_name(name) \
                            and name not in _SECTIONS:
                        rows = _ROWS.match(self.text, m.end())
                        if rows is not None and rows.end() > m.end():
                            block = rows.group()
                            section.append(("t", line, block))
                            line += block.count("\n")
                            scan.jump = rows.end()
            elif kind == "string":
                if section is None:
                    group.problems.append((f"string outside a section: {m.group('string')}",
                                           line))
                else:
                    section.append(("s", line, m.group("string")))
            elif kind == "brace":
                text = m.group("brace")
                if text.endswith("}"):
                    group.commentary.append(text[1:-1])
                else:
                    group.commentary.append(text[1:])
                    group.problems.append(("comment '{' not closed", line))
                line += text.count("\n")
            elif kind == "semi":
                group.commentary.append(m.group("semi")[1:])
            elif kind == "badtag":
                seen_tag = True
                group.malformed = True
                if group.tag_line is None:
                    group.tag_line = line
                group.problems.append((f"malformed tag {m.group('badtag')!r}", line))
                section = None
            else:
                group.problems.append((f"unexpected character {m.group('other')!r}", line))
        if group is not None:
            record = self._close(group)
            if record is not None:
                yield record

    def _close(self, group: _Group) -> GameRecord | None:
        if not group.items and not group.malformed and not group.has_note:
            for message, line in group.problems:
                self.problems.append(RecordProblem(message, self.file, line))
            return None
        try:
            record = self._build(group)
        except Exception as err:  # a reader bug must not lose the rest of the file
            record = GameRecord(file=self.file, line=group.tag_line or group.line)
            record.problem(f"internal error while reading this board: {err!r}")
        raw = record.raw_tempo
        if raw is not None:
            self.pending.append((record, len(self.problems), raw))
        self.problems.extend(record.problems)
        if raw is not None and self.deferred:
            DeferredRecord.of(record)       # reads its table when first read
            if self.batch is not None:
                self.batch.append(record)
        return record

    def _build(self, group: _Group) -> GameRecord:
        record = GameRecord(file=self.file, line=group.tag_line or group.line)
        tags = record.tags
        found: list[tuple[str, int]] = list(group.problems)
        lines: dict[str, int] = {}
        sections: dict[str, list[tuple[str, int, str]]] = {}
        for name, value, line, tokens in group.items:
            if name in tags:
                found.append((f"[{name}] given twice; the first is kept", line))
                continue
            if value[:1] == "#" and (value == "#" or value[:2] == "##"):
                value = self._inherit(name, value, line, found)
            elif self.sticky and name in self.sticky:
                del self.sticky[name]
            tags[name] = value
            lines[name] = line
            if tokens:
                sections[name] = tokens
        for name, value in self.sticky.items():
            if name not in tags:
                tags[name] = value
        self.previous = dict(tags)
        record.commentary = group.commentary
        record.notes = group.notes
        record.play_notes = group.play_notes
        _Fields(self, record, lines, sections, found).read()
        apply_tempo_table(record)    # the actions' times, if the file has them
        board = record.board
        record.problems.extend(RecordProblem(msg, self.file, line, board) for msg, line in found)
        return record

    def _inherit(self, name: str, value: str, line: int, found: list[tuple[str, int]]) -> str:
        """``#`` copies the previous game's value; ``##text`` sets text for the games after."""
        if name in _NO_INHERIT:
            found.append((f"[{name}] may not inherit a value with '#'", line))
        if value == "#":
            self.sticky.pop(name, None)
            previous = self.previous.get(name)
            if previous is None:
                found.append((f"[{name} \"#\"] but the previous game has no [{name}]", line))
                return ""
            return previous
        text = value[2:] or self.previous.get(name, "")
        self.sticky[name] = text
        return text

    def deal(self, text: str) -> Deal | str:
        """The deal of a Deal tag, or the reason it cannot be read (cached by text)."""
        cached = self.deals.get(text)
        if cached is not None:
            return cached
        result: Deal | str | None = fast_deal(text)
        if result is None:
            try:
                result = Deal.parse(text)
            except (ParseError, ValueError) as err:
                result = str(err)
        if len(self.deals) < 4096:
            self.deals[text] = result
        return result


_TABLE_NAMES: dict[str, bool] = {}


def _is_table_name(name: str) -> bool:
    """Whether a tag is a table by its name (``ScoreTable``, the misspelt ``Scoretable``)."""
    known = _TABLE_NAMES.get(name)
    if known is None:
        known = name.lower().endswith("table")
        if len(_TABLE_NAMES) < 1024:
            _TABLE_NAMES[name] = known
    return known


_CHECKS: tuple[tuple[str, Callable[[str, Seat | None], object]], ...] = (
    ("Score", parse_score),
    ("OptimumScore", lambda value, _: parse_optimum_score(value)),
    ("DoubleDummyTricks", lambda value, _: dd_tricks_decode(value)),
)
"""Tags whose values are checked (a bad one is a problem) though no field holds them."""


class _Fields:
    """Reads a record's fields from its tags and sections, noting what it cannot read."""

    __slots__ = ("found", "lines", "reader", "record", "sections")

    def __init__(self, reader: Reader, record: GameRecord, lines: dict[str, int],
                 sections: dict[str, list[tuple[str, int, str]]],
                 found: list[tuple[str, int]]):
        self.reader = reader
        self.record = record
        self.lines = lines
        self.sections = sections
        self.found = found

    def problem(self, message: str, tag: str) -> None:
        self.found.append((message, self.lines.get(tag, self.record.line or 0)))

    def read(self) -> None:
        r = self.record
        tags = r.tags
        value = tags.get("Board")
        if value is not None:
            v = value.strip()
            if v.isdecimal() and len(v) <= 9 and int(v) > 0:
                r.board = int(v)
            elif v not in _UNKNOWN:
                self.problem(f"not a board number: {value!r}", "Board")
        r.dealer = self.seat("Dealer")
        value = tags.get("Vulnerable")
        if value is not None:
            r.vulnerability = _VULNERABILITY.get(value.strip().upper())
            if r.vulnerability is None and value.strip() not in _UNKNOWN:
                self.problem(f"not a vulnerability: {value!r}", "Vulnerable")
        value = tags.get("Deal")
        if value is not None and value.strip() not in _UNKNOWN:
            deal = self.reader.deal(value)
            if isinstance(deal, Deal):
                r.deal = deal
            else:
                self.problem(f"bad deal: {deal}", "Deal")
        r.declarer = self.seat("Declarer", marks=True)
        self.contract_and_result()
        self.check_values()
        self.auction()
        self.play()
        self.tables()

    def seat(self, tag: str, *, marks: bool = False) -> Seat | None:
        value = self.record.tags.get(tag)
        if value is None:
            return None
        v = value.strip()
        if marks and v.startswith("^"):
            v = v[1:]
        seat = _SEATS.get(v.upper())
        if seat is None and v not in _UNKNOWN:
            self.problem(f"not a seat in [{tag}]: {value!r}", tag)
        return seat

    def contract_and_result(self) -> None:
        r = self.record
        cache = self.reader.values
        value = r.tags.get("Contract")
        if value is not None:
            key = ("Contract", value, r.declarer)
            known = cache.get(key)
            if known is None:
                try:
                    known = (*parse_contract(value, r.declarer), "")
                except ParseError as err:
                    known = (None, False, "" if parse_strain_only(value) else str(err))
                self.reader.remember(key, known)
            r.contract, r.passed_out, error = known
            if error:
                self.problem(error, "Contract")
        value = r.tags.get("Result")
        if value is not None:
            key = ("Result", value, r.declarer)
            known = cache.get(key)
            if known is None:
                try:
                    known = (parse_result(value, r.declarer), "")
                except ParseError as err:
                    known = (None, str(err))
                self.reader.remember(key, known)
            r.result, error = known
            if error:
                self.problem(error, "Result")

    def check_values(self) -> None:
        tags = self.record.tags
        declarer = self.record.declarer
        for tag, check in _CHECKS:
            value = tags.get(tag)
            if value is None:
                continue
            key = (tag, value, declarer)
            error = self.reader.values.get(key)
            if error is None:
                error = ""
                if value.strip() not in _UNKNOWN:
                    try:
                        check(value, declarer)
                    except ParseError as err:
                        error = str(err)
                self.reader.remember(key, error)
            if error:
                self.problem(error, tag)

    def start(self, tag: str, fallback: Seat | None) -> Seat:
        value = self.record.tags[tag]
        seat = _SEATS.get(value.strip().upper())
        if seat is None:
            seat = Seat.NORTH if fallback is None else fallback
            self.problem(f"not a seat in [{tag}]: {value!r}; {seat} taken", tag)
        return seat

    def auction(self) -> None:
        r = self.record
        tokens = self.sections.get("Auction")
        if tokens is None:
            return
        start = self.start("Auction", r.dealer)
        r.calls, r.auction_complete = read_auction(tokens, start, r.notes, self.at)

    def play(self) -> None:
        r = self.record
        tokens = self.sections.get("Play")
        if tokens is None:
            return
        first = self.start("Play", r.declarer.lho if r.declarer is not None else None)
        strain = play_strain(r)
        if strain is None:
            strain = Strain.NOTRUMP
            self.problem("a play without a contract: trick winners taken at notrump", "Play")
        r.plays = read_play(tokens, first, strain, r.play_notes, self.at)
        r.play_complete = len(r.plays) == 52

    def tables(self) -> None:
        r = self.record
        for name, value in r.tags.items():
            tokens = self.sections.get(name)
            if (tokens is None and not _is_table_name(name)) or name in _SECTIONS:
                continue
            if name in _NOT_TABLES:
                if tokens:
                    self.problem(f"unexpected text after [{name}]: {tokens[0][2].strip()!r}",
                                 name)
                continue
            if name == TEMPO_TABLE and self.reader.lazy:
                batch = self.reader.batch
                r.raw_tempo = RawTable(value, tuple(tokens or ()), [], batch,
                                       0 if batch is None else len(batch))
            elif _is_table_name(name) or (tokens and (";" in value or "\\" in value)):
                r.tables[name] = read_table(value, tokens or [])
            elif tokens:
                self.problem(f"unexpected text after [{name}]: {tokens[0][2].strip()!r}", name)

    def at(self, message: str, line: int) -> None:
        self.found.append((message, line))

