"""The record of one board as a file gives it: the neutral form every reader produces.

PBN, LIN and the hub's event log all become :class:`GameRecord` values; the laws
audit (:mod:`bridgecore.audit`) and the writers consume them. A record keeps what
the file says, including what is wrong with it (the audit finds that), and the
problems met while reading it, each with file and line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bridgecore.calls import Call, Contract
from bridgecore.cards import Card, Seat
from bridgecore.deal import Deal
from bridgecore.text import Text
from bridgecore.vulnerability import Vulnerability

__all__ = ["CallRecord", "CardRecord", "GameRecord", "RawTable", "RecordProblem", "Table"]


@dataclass(frozen=True, slots=True)
class RecordProblem:
    """Something a reader could not take from the file, with where it was; ``text``: the
    same as a message an application words in its reader's language (bridgecore.text),
    when the reader gives one."""

    message: str
    file: str | None = None
    line: int | None = None
    board: int | None = None
    text: Text | None = field(default=None, compare=False)

    def __str__(self) -> str:
        where = self.file or "<input>"
        if self.line is not None:
            where += f":{self.line}"
        board = f" board {self.board}:" if self.board is not None else ""
        return f"{where}:{board} {self.message}"


@dataclass(frozen=True, slots=True)
class CallRecord:
    """A call as recorded: who, what, when, and its alert or explanation beside it."""

    seat: Seat
    call: Call
    time: float | None = None
    alert: bool = False
    explanation: str | None = None
    annotations: tuple[str, ...] = ()  # PBN NAGs and suffixes, irregularity marks ^I ^S


@dataclass(frozen=True, slots=True)
class CardRecord:
    """A card as recorded: who played it, when, and its annotations (^R revoke, ^L lead OOT)."""

    seat: Seat
    card: Card
    time: float | None = None
    annotations: tuple[str, ...] = ()


@dataclass(slots=True)
class Table:
    """A PBN supplemental table (ScoreTable, TotalScoreTable, OptimumResultTable, ...)."""

    columns: list[str]          # as declared, e.g. "Score_NS\\6R"
    rows: list[list[str]]       # tokens, quotes removed
    # The file's line of each row, when read from one (a problem of a row names it); left
    # out of comparisons: the same rows are the same table wherever they were.
    lines: list[int] = field(default_factory=list, compare=False, repr=False)

    @property
    def names(self) -> list[str]:
        """Column names without width/sort decorations (``+Rank\\2R`` -> ``Rank``)."""
        return [c.split("\\")[0].lstrip("+-") for c in self.columns]

    def column(self, name: str) -> list[str]:
        i = self.names.index(name)
        return [row[i] if i < len(row) else "" for row in self.rows]


@dataclass(frozen=True, slots=True)
class RawTable:
    """A supplemental table as the file has it, not yet split into rows (issue 27: a PBN
    reader asked for ``tempo="lazy"`` keeps a board's ``TempoTable`` so until something
    reads its times: :func:`bridgecore.tempo.resolve_tempo`). ``tokens`` are the reader's
    ``(kind, line, text)`` after the tag, each with its line for the problems found later."""

    value: str                                  # the tag's value: the columns
    tokens: tuple[tuple[str, int, str], ...]


@dataclass(slots=True)
class GameRecord:
    """One board of a file. Fields are None when the file does not say.

    ``calls`` are in the order made. ``plays`` are in the order played (a PBN play
    section, which is written by seat columns, is turned into that order by its
    reader). ``auction_complete`` is True when the auction section ends with the
    final passes (or ``AP``); ``play_complete`` when all 52 cards are there.
    ``claim`` is the number of tricks the declaring side claimed in all (LIN
    ``mc``), when the file says. ``contract`` and ``result`` are what the Contract
    and Result tags (or LIN ``mc``) say, not what the audit finds.
    """

    board: int | None = None
    dealer: Seat | None = None
    vulnerability: Vulnerability | None = None
    deal: Deal | None = None
    calls: list[CallRecord] = field(default_factory=list)
    auction_complete: bool = False
    plays: list[CardRecord] = field(default_factory=list)
    play_complete: bool = False
    claim: int | None = None
    declarer: Seat | None = None
    contract: Contract | None = None
    passed_out: bool = False
    result: int | None = None
    tags: dict[str, str] = field(default_factory=dict)       # every tag, in file order
    notes: dict[int, str] = field(default_factory=dict)      # PBN [Note "n:text"]
    play_notes: dict[int, str] = field(default_factory=dict)  # PBN notes of the play section
    tables: dict[str, Table] = field(default_factory=dict)   # supplemental tables by tag
    commentary: list[str] = field(default_factory=list)
    file: str | None = None
    line: int | None = None                                   # first line of the board
    problems: list[RecordProblem] = field(default_factory=list)
    # A TempoTable read lazily and not yet resolved (bridgecore.tempo.resolve_tempo); it is
    # left out of comparisons: a record resolved equals the one read eagerly.
    raw_tempo: RawTable | None = field(default=None, compare=False, repr=False)

    def problem(self, message: str, line: int | None = None) -> None:
        self.problems.append(RecordProblem(message, self.file, line or self.line, self.board))
