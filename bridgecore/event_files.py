"""The files of an event of several sessions: its total in USEBIO 1.2 and for a results
site (PBN), from each session's ranking and the event's (bridgecore.sessions).

USEBIO (:func:`write_usebio_event`): one ``EVENT`` with ``SESSION_COUNT`` the sessions
added up, the event's total as ``PARTICIPANTS`` straight under ``EVENT`` (the form
formats.md gives for a file without sections: each ``PAIR`` with its players, ``PLACE``
with ``=`` when shared, ``PERCENTAGE`` the event's, carry-over included, and
``BOARDS_PLAYED`` over every session), then one ``SESSION`` per session (``SESSION_ID`` its
place in the event) with a ``SECTION`` per section and that session's ``PARTICIPANTS``
(its pair numbers, directions, places and percentages). A session's boards are in its own
file (the hub's ``usebio.xml`` of that session): the total carries the rankings only.

The results site's file (:func:`write_event_pbn`): PBN as BridgeWebs takes it (ISO-8859-1,
names transliterated, CRLF), one game with ``Event``, ``Date``, ``Scoring`` and the event's
``TotalScoreTable``: ``Rank``, ``Direction`` (two winners only), the event's
``TotalPercentage``, each session's ``Percentage_1``, ``Percentage_2``..., the carry-over
``Carry`` (a final only), ``NrBoards`` and ``Names``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bridgecore.latin1 import to_latin1

__all__ = ["EventEntry", "SessionEntry", "SessionPart", "write_event_pbn",
           "write_usebio_event"]

VERSION = "1"


@dataclass(frozen=True, slots=True)
class EventEntry:
    """A pair's line of the event's total."""

    names: tuple[str, ...]
    percent: float
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


@dataclass(frozen=True, slots=True)
class SessionPart:
    """One session of the event: its place, name, date (ISO) and each section's ranking."""

    part: int
    name: str
    date: str
    sections: tuple[tuple[str, tuple[SessionEntry, ...]], ...]


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


def write_usebio_event(title: str, date: str, total: Sequence[EventEntry],
                       sessions: Sequence[SessionPart]) -> bytes:
    """The event's total as USEBIO 1.2 (module docstring), UTF-8 bytes."""
    root = ET.Element("USEBIO", Version="1.2")
    node = _add(root, "EVENT", EVENT_TYPE="PAIRS")
    _add(node, "BOARD_SCORING_METHOD", "MATCH_POINTS")
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
        _add(pair, "PERCENTAGE", _number(entry.percent))
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
                if line.percent is not None:
                    _add(pair, "PERCENTAGE", _number(line.percent))
    ET.indent(root, space="  ")
    text = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<!DOCTYPE USEBIO SYSTEM "http://www.usebio.org/files/usebio_v1_2.dtd">\n'
            + ET.tostring(root, encoding="unicode") + "\n")
    return text.encode("utf-8")


def _quoted(text: str) -> str:
    return to_latin1(text, fallback="").replace("\\", "\\\\").replace('"', '\\"')


def write_event_pbn(title: str, date: str, total: Sequence[EventEntry], sessions: int,
                    *, carry: bool = False) -> bytes:
    """The event's total for a results site (module docstring), ISO-8859-1 bytes."""
    two_winner = any(e.direction is not None for e in total)
    columns = ["Rank\\3R", *(["Direction\\2L"] if two_winner else []),
               "TotalPercentage\\6R", *(f"Percentage_{i}\\6R" for i in range(1, sessions + 1)),
               *(["Carry\\6R"] if carry else []), "NrBoards\\3R", "Names\\40L"]
    lines = ["% PBN 2.1", "% EXPORT", "%Content-type: text/x-pbn; charset=ISO-8859-1",
             "%Creator: Tenace", f'[Event "{_quoted(title)}"]',
             f'[Date "{date.replace("-", ".") if date else "?"}"]',
             '[Scoring "MP"]', f'[TotalScoreTable "{";".join(columns)}"]']
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
