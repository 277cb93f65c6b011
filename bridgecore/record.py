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

__all__ = [
    "CallRecord", "CardRecord", "GameRecord", "RawTable", "RecordProblem", "Table", "timed_call",
    "timed_card",
]


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


class _CallDraft:
    """A :class:`CallRecord` being made: the same slots, mutable (see :func:`timed_call`)."""

    __slots__ = ("alert", "annotations", "call", "explanation", "seat", "time")

    def __init__(self, seat: Seat, call: Call, time: float | None, alert: bool,
                 explanation: str | None, annotations: tuple[str, ...]) -> None:
        self.seat = seat
        self.call = call
        self.time = time
        self.alert = alert
        self.explanation = explanation
        self.annotations = annotations


class _CardDraft:
    """A :class:`CardRecord` being made: the same slots, mutable (see :func:`timed_call`)."""

    __slots__ = ("annotations", "card", "seat", "time")

    def __init__(self, seat: Seat, card: Card, time: float | None,
                 annotations: tuple[str, ...]) -> None:
        self.seat = seat
        self.card = card
        self.time = time
        self.annotations = annotations


def _drafts_fit() -> bool:
    """Whether a draft becomes its record by taking its class (the same slots, as CPython
    requires; else the records are made by their constructors)."""
    try:
        call = _CallDraft(Seat.NORTH, Call.parse("Pass"), None, False, None, ())
        call.__class__ = CallRecord         # type: ignore[assignment]
        card = _CardDraft(Seat.NORTH, Card.parse("SA"), None, ())
        card.__class__ = CardRecord         # type: ignore[assignment]
    except TypeError:
        return False
    return (sorted(CallRecord.__slots__) == sorted(_CallDraft.__slots__)
            and sorted(CardRecord.__slots__) == sorted(_CardDraft.__slots__))


_DRAFTS = _drafts_fit()


def timed_call(call: CallRecord, time: float) -> CallRecord:
    """``call`` made at ``time``: ``dataclasses.replace(call, time=time)``, made faster
    (issue 27: a file with tempo makes one a call and one a card, 70 a board). A frozen
    dataclass's ``__init__`` sets each field through ``object.__setattr__``; here a mutable
    draft of the same slots is filled and then takes the record's class, which leaves it
    the same frozen record (equal, hashed, printed and compared as one; the records have no
    ``__post_init__`` to skip). Where the interpreter refuses (:func:`_drafts_fit`), the
    constructor makes it."""
    if not _DRAFTS:
        return CallRecord(call.seat, call.call, time, call.alert, call.explanation,
                          call.annotations)
    out = _CallDraft(call.seat, call.call, time, call.alert, call.explanation,
                     call.annotations)
    out.__class__ = CallRecord      # type: ignore[assignment]
    return out                      # type: ignore[return-value]


def timed_card(card: CardRecord, time: float) -> CardRecord:
    """``card`` played at ``time``: ``dataclasses.replace(card, time=time)``, made as
    :func:`timed_call` makes a call."""
    if not _DRAFTS:
        return CardRecord(card.seat, card.card, time, card.annotations)
    out = _CardDraft(card.seat, card.card, time, card.annotations)
    out.__class__ = CardRecord      # type: ignore[assignment]
    return out                      # type: ignore[return-value]


class Table:
    """A PBN supplemental table (ScoreTable, TotalScoreTable, OptimumResultTable, ...).

    ``columns`` as declared (``"Score_NS\\6R"``), ``rows`` the tokens of each row (quotes
    removed), ``lines`` the file's line of each row when read from one (a problem of a row
    names it; left out of comparisons: the same rows are the same table wherever they
    were). A table read from whole lines of words (:meth:`of_lines`) keeps its text and
    splits it the first time ``rows`` is read (issue 27: a file's ``TempoTable`` rows are
    read once, by :func:`bridgecore.tempo.apply_tempo_table`, and kept unsplit after)."""

    __slots__ = ("_lines", "_rows", "_start", "_text", "columns")
    __match_args__ = ("columns", "rows", "lines")

    def __init__(self, columns: list[str], rows: list[list[str]],
                 lines: list[int] | None = None) -> None:
        self.columns = columns
        self._rows = rows
        self._lines = [] if lines is None else lines
        self._text: str | None = None
        self._start = 0

    @classmethod
    def of_lines(cls, columns: list[str], text: str, line: int) -> Table:
        """The table whose rows are the lines of ``text`` (each ends with a newline and
        holds a word), the first at the file's ``line``: split when first read."""
        table = cls(columns, [])
        table._text = text
        table._start = line
        return table

    @property
    def text(self) -> str | None:
        """The rows' text not yet split (:meth:`of_lines`), else None."""
        return self._text

    @property
    def first_line(self) -> int:
        """The file's line of the first row of :attr:`text`."""
        return self._start

    @property
    def rows(self) -> list[list[str]]:
        if self._text is not None:
            self._split()
        return self._rows

    @rows.setter
    def rows(self, rows: list[list[str]]) -> None:
        self._text = None
        self._rows = rows

    @property
    def lines(self) -> list[int]:
        if self._text is not None:
            self._split()
        return self._lines

    @lines.setter
    def lines(self, lines: list[int]) -> None:
        if self._text is not None:
            self._split()
        self._lines = lines

    def _split(self) -> None:
        text = self._text
        assert text is not None
        self._text = None
        block = text.split("\n")[:-1]
        self._rows = [ln.split() for ln in block]
        self._lines = list(range(self._start, self._start + len(block)))

    @property
    def names(self) -> list[str]:
        """Column names without width/sort decorations (``+Rank\\2R`` -> ``Rank``)."""
        return [c.split("\\")[0].lstrip("+-") for c in self.columns]

    def column(self, name: str) -> list[str]:
        i = self.names.index(name)
        return [row[i] if i < len(row) else "" for row in self.rows]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Table:
            return NotImplemented
        assert isinstance(other, Table)
        if self._text is not None and other._text is not None and self._text == other._text:
            return self.columns == other.columns
        return self.columns == other.columns and self.rows == other.rows

    __hash__ = None     # type: ignore[assignment]  # mutable, as the dataclass was

    def __repr__(self) -> str:
        return f"Table(columns={self.columns!r}, rows={self.rows!r})"


@dataclass(frozen=True, slots=True)
class RawTable:
    """A supplemental table as the file has it, not yet split into rows (issue 27: a PBN
    reader keeps a board's ``TempoTable`` so until its record is first read,
    :class:`bridgecore.tempo_reading.DeferredRecord`, or with ``tempo="lazy"`` until
    something reads its times: :func:`bridgecore.tempo_reading.resolve_tempo`). ``tokens``
    are the reader's ``(kind, line, text)`` after the tag, each with its line for the
    problems found later."""

    value: str                                  # the tag's value: the columns
    tokens: tuple[tuple[str, int, str], ...]
    # The problems its reading found, once read (resolve_tempo): a file's reader puts them
    # among the file's problems even when the record was read on its own first.
    found: list[RecordProblem] = field(default_factory=list, compare=False)
    # A deferred read's records of the file, in order, and this one's place among them: the
    # next ones are read with it (DeferredRecord); None when the reader keeps no file.
    batch: list[GameRecord] | None = field(default=None, compare=False, repr=False)
    at: int = field(default=0, compare=False)


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
    # A TempoTable read lazily or deferred and not yet resolved (bridgecore.tempo.resolve_tempo);
    # it is left out of comparisons: a record resolved equals the one read eagerly.
    raw_tempo: RawTable | None = field(default=None, compare=False, repr=False)

    def problem(self, message: str, line: int | None = None) -> None:
        self.problems.append(RecordProblem(message, self.file, line or self.line, self.board))
