"""The files of an event of several sessions: its total in USEBIO 1.2 and for a results
site (PBN), from each session's ranking and the event's (bridgecore.sessions).

USEBIO (:func:`write_usebio_event`): one ``EVENT`` with ``SESSION_COUNT`` the sessions
added up, the event's total as ``PARTICIPANTS`` straight under ``EVENT`` (the form
formats.md gives for a file without sections: each ``PAIR`` with its players, ``PLACE``
with ``=`` when shared, ``PERCENTAGE`` the event's, carry-over included, and
``BOARDS_PLAYED`` over every session), then one ``SESSION`` per session (``SESSION_ID`` its
place in the event) with a ``SECTION`` per section and that session's ``PARTICIPANTS``
(its pair numbers, directions, places and percentages) and, where the session kept them,
its ``BOARD``s: each board's ``TRAVELLER_LINE``s (pair numbers, contract, declarer, tricks,
``SCORE`` as played or ``NOTES`` naming an adjusted score, the matchpoints in MP1 units or
the IMPs), as a session's own USEBIO file has them.

The results site's file (:func:`write_event_pbn`): PBN as BridgeWebs takes it (ISO-8859-1,
names transliterated, CRLF), one game with ``Event``, ``Date``, ``Scoring`` and the event's
``TotalScoreTable``: ``Rank``, ``Direction`` (two winners only), the event's
``TotalPercentage``, each session's ``Percentage_1``, ``Percentage_2``..., the carry-over
``Carry`` (a final only), ``NrBoards`` and ``Names``.

Sessions of IMPs or VPs (``scores``, bridgecore.sessions.Form's value): the event's score
is a ``TOTAL_SCORE`` (USEBIO; each session's total too) and the PBN's columns are
``TotalIMP`` and ``IMP_1``... (IMPs added), ``TotalScore`` and ``Score_1``... (IMPs per
board, VPs), ``Scoring`` ``IMP`` or ``VP``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bridgecore.latin1 import to_latin1

__all__ = ["EventEntry", "SessionBoard", "SessionEntry", "SessionPart", "TravellerLine",
           "write_event_pbn",
           "write_usebio_event"]

VERSION = "1"


@dataclass(frozen=True, slots=True)
class EventEntry:
    """A pair's line of the event's total."""

    names: tuple[str, ...]
    percent: float                   # the event's score (a percentage, IMPs or VPs)
    rank: int
    boards: int
    sessions: tuple[float | None, ...]
    carry: float = 0.0
    direction: str | None = None


@dataclass(frozen=True, slots=True)
class SessionEntry:
    """A pair's line of one session's ranking."""

    pair: int | str
    names: tuple[str, ...]
    percent: float | None
    rank: int
    boards: int
    direction: str | None = None
    total: float | None = None       # its total (matchpoints, IMPs or VPs)


@dataclass(frozen=True, slots=True)
class TravellerLine:
    """One table's result of a board: the pairs, the contract as played (``"4SX"``,
    ``"3NT"``, ``"PASS"``; None for an adjusted score with no play), declarer (N, E, S,
    W), tricks, the North-South score (None: adjusted), the adjustment's text, and the
    points of each side (matchpoints in MP1 units, or IMPs; None: not scored)."""

    ns: int | str
    ew: int | str
    contract: str | None
    declarer: str | None
    tricks: int | None
    score_ns: int | None
    adjustment: str | None = None
    ns_points: float | None = None
    ew_points: float | None = None


@dataclass(frozen=True, slots=True)
class SessionBoard:
    """A board of one section of a session, with its traveller's lines."""

    number: int
    lines: tuple[TravellerLine, ...]


@dataclass(frozen=True, slots=True)
class SessionPart:
    """One session of the event: its place, name, date (ISO), each section's ranking and
    each section's boards (by section name; empty where the session did not keep them)."""

    part: int
    name: str
    date: str
    sections: tuple[tuple[str, tuple[SessionEntry, ...]], ...]
    boards: Mapping[str, Sequence[SessionBoard]] = field(default_factory=dict)


def _add(parent: ET.Element, tag: str, text: object = None, **attrs: str) -> ET.Element:
    node = ET.SubElement(parent, tag, attrs)
    if text is not None:
        node.text = str(text)
    return node


def _number(value: float) -> str:
    return f"{value:.2f}"


def _places(entries: Sequence[tuple[str | None, int]]) -> list[str]:
    count = Counter(entries)
    return [f"{rank}{'=' if count[(d, rank)] > 1 else ''}" for d, rank in entries]


def _usebio_date(iso: str) -> str:
    parts = iso.split("-")
    return f"{parts[2]}/{parts[1]}/{parts[0]}" if len(parts) == 3 else ""


def _players(parent: ET.Element, names: Sequence[str]) -> None:
    for name in names:
        _add(_add(parent, "PLAYER"), "PLAYER_NAME", name)


_SCORING = {"mp": "MATCH_POINTS", "imp": "IMPS", "butler": "BUTLER_IMPS",
            "crossimp": "CROSS_IMPS"}


def write_usebio_event(title: str, date: str, total: Sequence[EventEntry],
                       sessions: Sequence[SessionPart], *, scores: str = "percent",
                       method: str = "mp") -> bytes:
    """The event's total as USEBIO 1.2 (module docstring), UTF-8 bytes; ``method`` the
    sessions' (bridgecore.ranking.Method's value: ``imp`` is teams)."""
    root = ET.Element("USEBIO", Version="1.2")
    node = _add(root, "EVENT", EVENT_TYPE="TEAMS" if method == "imp" else "PAIRS")
    _add(node, "BOARD_SCORING_METHOD", _SCORING.get(method, "OTHER"))
    if scores == "vp":
        _add(node, "MATCH_SCORING_METHOD", "VPS")
    _add(node, "PROGRAM_NAME", "Tenace")
    _add(node, "PROGRAM_VERSION", VERSION)
    _add(node, "EVENT_DESCRIPTION", title)
    if _usebio_date(date):
        _add(node, "DATE", _usebio_date(date))
    two_winner = any(e.direction is not None for e in total)
    _add(node, "WINNER_TYPE", 2 if two_winner else 1)
    _add(node, "SESSION_COUNT", len(sessions))
    _add(node, "PAIRS", len(total))
    participants = _add(node, "PARTICIPANTS")
    for entry, place in zip(total, _places([(e.direction, e.rank) for e in total]),
                            strict=True):
        pair = _add(participants, "PAIR")
        if entry.direction is not None:
            _add(pair, "DIRECTION", entry.direction)
        _add(pair, "BOARDS_PLAYED", entry.boards)
        _players(pair, entry.names)
        _add(pair, "PLACE", place)
        _add(pair, "PERCENTAGE" if scores == "percent" else "TOTAL_SCORE",
             _number(entry.percent))
    for session in sessions:
        element = _add(node, "SESSION", SESSION_ID=str(session.part))
        if session.name:
            _add(element, "SESSION_DESCRIPTION", session.name)
        if _usebio_date(session.date):
            _add(element, "DATE", _usebio_date(session.date))
        for section_id, entries in session.sections:
            section = _add(element, "SECTION", SECTION_ID=section_id)
            listed = _add(section, "PARTICIPANTS")
            for line, place in zip(entries, _places([(e.direction, e.rank) for e in entries]),
                                   strict=True):
                pair = _add(listed, "PAIR")
                _add(pair, "PAIR_NUMBER", line.pair)
                if line.direction is not None:
                    _add(pair, "DIRECTION", line.direction)
                _add(pair, "BOARDS_PLAYED", line.boards)
                _players(pair, line.names)
                _add(pair, "PLACE", place)
                if line.total is not None:
                    _add(pair, "TOTAL_SCORE", _number(line.total))
                if line.percent is not None:
                    _add(pair, "PERCENTAGE", _number(line.percent))
            for board in session.boards.get(section_id, ()):
                _board(section, board, "mp" if method == "mp" else "imp")
    ET.indent(root, space="  ")
    text = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<!DOCTYPE USEBIO SYSTEM "http://www.usebio.org/files/usebio_v1_2.dtd">\n'
            + ET.tostring(root, encoding="unicode") + "\n")
    return text.encode("utf-8")


def _board(section: ET.Element, board: SessionBoard, points: str) -> None:
    """A BOARD with its TRAVELLER_LINEs, as a session's own USEBIO file writes them."""
    node = _add(section, "BOARD")
    _add(node, "BOARD_NUMBER", board.number)
    tags = ("NS_MATCH_POINTS", "EW_MATCH_POINTS") if points == "mp" else ("NS_IMPS", "EW_IMPS")
    for line in board.lines:
        row = _add(node, "TRAVELLER_LINE")
        _add(row, "NS_PAIR_NUMBER", line.ns)
        _add(row, "EW_PAIR_NUMBER", line.ew)
        if line.contract is not None:
            _add(row, "CONTRACT", line.contract)
            if line.contract.upper() != "PASS":
                if line.declarer:
                    _add(row, "PLAYED_BY", line.declarer)
                if line.tricks is not None:
                    _add(row, "TRICKS", line.tricks)
        _add(row, "SCORE", "" if line.score_ns is None else line.score_ns)
        if line.adjustment:
            _add(row, "NOTES", "Ruling: " + line.adjustment)
        for tag, value in zip(tags, (line.ns_points, line.ew_points), strict=True):
            if value is not None:     # one side alone: Law 15B's award to the deprived side
                _add(row, tag, _number(value))


def _quoted(text: str) -> str:
    return to_latin1(text, fallback="").replace("\\", "\\\\").replace('"', '\\"')


_PBN_COLUMNS = {"percent": ("TotalPercentage", "Percentage", "MP"),
                "imps": ("TotalIMP", "IMP", "IMP"),
                "imps_per_board": ("TotalScore", "Score", "IMP"),
                "vp": ("TotalScore", "Score", "VP")}


def write_event_pbn(title: str, date: str, total: Sequence[EventEntry], sessions: int,
                    *, carry: bool = False, scores: str = "percent") -> bytes:
    """The event's total for a results site (module docstring), ISO-8859-1 bytes."""
    two_winner = any(e.direction is not None for e in total)
    whole, each, scoring = _PBN_COLUMNS[scores]
    columns = ["Rank\\3R", *(["Direction\\2L"] if two_winner else []),
               f"{whole}\\6R", *(f"{each}_{i}\\6R" for i in range(1, sessions + 1)),
               *(["Carry\\6R"] if carry else []), "NrBoards\\3R", "Names\\40L"]
    lines = ["% PBN 2.1", "% EXPORT", "%Content-type: text/x-pbn; charset=ISO-8859-1",
             "%Creator: Tenace", f'[Event "{_quoted(title)}"]',
             f'[Date "{date.replace("-", ".") if date else "?"}"]',
             f'[Scoring "{scoring}"]', f'[TotalScoreTable "{";".join(columns)}"]']
    for entry, place in zip(total, _places([(e.direction, e.rank) for e in total]),
                            strict=True):
        cells = [place.rjust(3), *([entry.direction or "-"] if two_winner else []),
                 _number(entry.percent).rjust(6),
                 *("-".rjust(6) if p is None else _number(p).rjust(6)
                   for p in list(entry.sessions) + [None] * (sessions - len(entry.sessions))),
                 *([f"{entry.carry:+.2f}".rjust(6)] if carry else []),
                 str(entry.boards).rjust(3),
                 '"' + _quoted(" - ".join(entry.names)) + '"']
        lines.append(" ".join(cells))
    return ("\r\n".join(lines) + "\r\n").encode("iso-8859-1")
