"""Alerts explained to the opponents, and their questions (docs/protocol.md 7.13, 7.14).

At a table with bidding boxes the opponents ask what an alerted call means and are told; with
tablets the written explanation is the answer. Who explains is the event's regulation
(:data:`REGULATIONS`): the caller's partner without screens (EBU, ACBL, FFB), the caller
himself with screens (WBF/EBL). An explanation goes to the caller's two opponents and to the
player who wrote it, never to the explainer's partner: he would learn from it what his
partner thinks the call means (Law 16, unauthorized information; 20F5 forbids correcting
partner's explanation during the auction).

Every question and every explanation is kept in the sitting (:class:`Explained`,
:class:`Asked`) with the hub's time and the device's, for the director (Laws 20F, 21B, 40B);
a correction replaces the earlier text in the views and both stay in the record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bridgecore.auction import CallEntry
from bridgecore.cards import Seat
from bridgecore.text import Text
from hub.roles import NOT_YOUR_SEAT
from hub.sitting import SEATS, Sitting

__all__ = ["DEFAULT_REGULATION", "REGULATIONS", "Asked", "Explained", "Regulation",
           "ask", "explain", "explainer", "explanations_for", "from_call",
           "questions_for", "record", "tablet_view"]


@dataclass(frozen=True, slots=True)
class Regulation:
    """Who explains an alerted call (``"partner"`` or ``"caller"``) and whether the
    regulation has announcements."""

    name: str
    explainer: str
    announcements: bool


REGULATIONS = {
    # No screens: the partner of the caller alerts and, asked, explains (EBU Blue Book, ACBL
    # Alert Procedures, FFB); the EBU and the ACBL have announcements (1NT range, transfers).
    "ebu": Regulation("ebu", "partner", True),
    "acbl": Regulation("acbl", "partner", True),
    "ffb": Regulation("ffb", "partner", False),
    # Screens (WBF/EBL): each player alerts and explains his own calls, in writing.
    "screens": Regulation("screens", "caller", False),
}
DEFAULT_REGULATION = "ebu"


@dataclass(frozen=True, slots=True)
class Explained:
    """``by``'s explanation of call number ``call`` (``seat``'s ``text_call``)."""

    call: int
    seat: Seat
    text_call: str
    by: Seat
    text: str
    announce: bool
    time: float          # hub time
    device_time: float


@dataclass(slots=True)
class Asked:
    """``by`` asked ``to`` what call number ``call`` means; ``answered`` hub time of the
    answer (None while open)."""

    call: int
    by: Seat
    to: Seat
    time: float
    device_time: float
    answered: float | None = None


def explainer(regulation: Regulation, caller: Seat) -> Seat:
    """The seat who explains ``caller``'s calls under ``regulation``."""
    return caller if regulation.explainer == "caller" else caller.partner


def _entry(s: Sitting, index: int) -> CallEntry | None:
    entries = s.board.auction.entries
    return entries[index - 1] if 1 <= index <= len(entries) else None


def _live(s: Sitting, e: Explained) -> bool:
    """The call explained is still the one at its place (an undo, 25A, takes it away)."""
    entry = _entry(s, e.call)
    return entry is not None and entry.seat is e.seat and str(entry.call) == e.text_call


def from_call(s: Sitting, regulation: Regulation, seat: Seat, index: int,
              text: str | None, t: float, device_time: float) -> None:
    """The caller's own ``explanation`` in his ``call`` (7.4): the call's explanation where
    the caller explains (screens); else kept in the auction for the director only."""
    if text and regulation.explainer == "caller":
        entry = _entry(s, index)
        if entry is not None:
            s.explained = (*s.explained, Explained(index, seat, str(entry.call), seat, text,
                                                   False, t, device_time))


def ask(s: Sitting | None, regulation: Regulation, body: dict[str, Any], t: float,
        device_time: float) -> tuple[str, Text] | None:
    """Record an ``ask``; None when accepted, else (code, reason)."""
    if s is None or s.over:
        return "wrong_state", Text.of("deny.no_board_in_play")
    seat = SEATS[body["seat"]]
    entry = _entry(s, int(body["call"]))
    if entry is None:
        return "wrong_state", Text.of("deny.no_such_call", index=body["call"])
    if seat.side is entry.seat.side:
        return NOT_YOUR_SEAT, Text.of("deny.own_side_call", seat=seat,
                                      caller_seat=entry.seat, call=entry.call)
    s.asked = (*s.asked, Asked(entry.index, seat, explainer(regulation, entry.seat), t,
                               device_time))
    return None


def explain(s: Sitting | None, regulation: Regulation, body: dict[str, Any], t: float,
            device_time: float) -> tuple[str, Text] | None:
    """Record an ``explain``; None when accepted, else (code, reason)."""
    if s is None or s.over:
        return "wrong_state", Text.of("deny.no_board_in_play")
    seat = SEATS[body["seat"]]
    entry = _entry(s, int(body["call"]))
    if entry is None:
        return "wrong_state", Text.of("deny.no_such_call", index=body["call"])
    who = explainer(regulation, entry.seat)
    if seat is not who:
        return NOT_YOUR_SEAT, Text.of("deny.explainer", explainer_seat=who,
                                      caller_seat=entry.seat, call=entry.call,
                                      regulation=regulation.name, seat=seat)
    announce = bool(body.get("announce"))
    if announce and not regulation.announcements:
        return "wrong_state", Text.of("deny.no_announcements", regulation=regulation.name)
    s.explained = (*s.explained, Explained(entry.index, entry.seat, str(entry.call), seat,
                                           str(body["text"]), announce, t, device_time))
    for q in s.asked:
        if q.call == entry.index and q.answered is None:
            q.answered = t
    return None


def _current(s: Sitting) -> list[Explained]:
    """The latest explanation of each call still recorded, in the order of the calls."""
    latest: dict[int, Explained] = {}
    for e in s.explained:
        if _live(s, e):
            latest[e.call] = e
    return [latest[i] for i in sorted(latest)]


def _json(e: Explained) -> dict[str, Any]:
    return {"call": e.call, "seat": e.seat.letter, "by": e.by.letter, "text": e.text,
            "announce": e.announce, "time": e.time}


def explanations_for(s: Sitting | None, seat: Seat) -> list[dict[str, Any]]:
    """What ``seat`` may see: the opponents' calls' explanations and his own, never his
    partner's (Law 16)."""
    if s is None:
        return []
    return [_json(e) for e in _current(s) if e.seat.side is not seat.side or e.by is seat]


def questions_for(s: Sitting | None, seat: Seat) -> list[dict[str, Any]]:
    """The open questions ``seat`` is to answer."""
    if s is None:
        return []
    return [{"call": q.call, "by": q.by.letter, "time": q.time} for q in s.asked
            if q.to is seat and q.answered is None and _entry(s, q.call) is not None]


def tablet_view(table: str, s: Sitting | None) -> dict[str, Any]:
    """``t/{table}/tablet`` (11.3): each explanation with the side it is shown to."""
    if s is None:
        return {"table": table, "board": None, "explanations": [], "questions": []}
    return {"table": table, "board": s.board.number,
            "explanations": [dict(_json(e), to=e.seat.side.opponents.value)
                             for e in _current(s)],
            "questions": [{"call": q.call, "by": q.by.letter, "to": q.to.letter,
                           "time": q.time} for q in s.asked
                          if q.answered is None and _entry(s, q.call) is not None]}


def record(s: Sitting) -> dict[str, Any]:
    """Every question and explanation with their times, for the director."""
    return {"explanations": [dict(_json(e), device_time=e.device_time,
                                  call_text=e.text_call) for e in s.explained],
            "questions": [{"call": q.call, "by": q.by.letter, "to": q.to.letter,
                           "time": q.time, "device_time": q.device_time,
                           "answered": q.answered} for q in s.asked]}
