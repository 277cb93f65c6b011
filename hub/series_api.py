"""The console's part of hub.series: ``GET /api/results/event`` (the event's total),
``GET /api/results/ladder`` (the club's ladder) and the event's files
(``GET /api/evening/event/{name}``: ``event-usebio.xml``, ``event.pbn``).

The public view (no director or scorer logged in) follows the director's
``public_results`` settings as the session's own ranking does: the session being played
counts only the boards every table has finished (Law 16), nothing is shown while the
ranking is hidden, the players' names are left out when the names are (the pairs are still
matched by them). The ladder's query: ``best`` (count the best N sessions), ``min`` (the
least sessions to be ranked), ``from`` and ``to`` (ISO dates, the season).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bridgecore.event_files import (
    EventEntry,
    SessionBoard,
    SessionEntry,
    SessionPart,
    TravellerLine,
    write_event_pbn,
    write_usebio_event,
)
from bridgecore.text import Text
from hub.results_pages import session_rankings
from hub.series import event_total, ladder_json, live_sections
from hub.webserver import HttpError

__all__ = ["EVENT_FILES", "event_file", "series_api", "stored_boards"]

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
EVENT_FILES = {"event-usebio.xml": "application/xml; charset=utf-8",
               "event.pbn": "application/x-pbn; charset=iso-8859-1"}


def _whole(query: Mapping[str, str], key: str, least: int) -> int | None:
    raw = query.get(key, "")
    if raw == "":
        return None
    if not raw.isdecimal() or int(raw) < least or int(raw) > 1000:
        raise HttpError(400, f"{key}: a whole number from {least} is expected, not {raw!r:.20}")
    return int(raw)


def _date(query: Mapping[str, str], key: str) -> str:
    raw = query.get(key, "")
    if raw and not _DATE.match(raw):
        raise HttpError(400, f"{key}: a date YYYY-MM-DD is expected, not {raw!r:.20}")
    return raw


def series_api(hub: Any, what: str, query: Mapping[str, str], *,
               public: bool = True) -> dict[str, Any]:
    """The JSON of ``/api/results/event`` or ``/api/results/ladder`` (module docstring)."""
    live, shown, names = session_rankings(hub.room, public=public)
    if what == "ladder":
        best = _whole(query, "best", 1)
        minimum = _whole(query, "min", 1) or 1
        data = ladder_json(hub.series.sessions(), best=best, minimum=minimum,
                           since=_date(query, "from"), until=_date(query, "to"),
                           current=(hub.setup, live) if shown else None)
        data["full"] = not public
        return data
    data = event_total(hub.setup, live, hub.series.sessions())
    data["full"] = not public
    data["ranking_shown"] = shown
    if data.get("event"):
        if not shown:
            data["ranking"] = []
        elif not names:
            for entry in data["ranking"]:
                entry["names"] = []
    return data


def event_file(hub: Any, name: str) -> tuple[bytes, str]:
    """The event's total as the file ``name`` (:data:`EVENT_FILES`); HttpError 404 for
    another name, 409 when the session is no part of an event."""
    if name not in EVENT_FILES:
        raise HttpError(404, Text.of("http.no_event_file", name=f"{name!r:.40}",
                                     files=", ".join(EVENT_FILES)))
    live, _, _ = session_rankings(hub.room)
    stored = hub.series.sessions()
    data = event_total(hub.setup, live, stored)
    if not data.get("event"):
        raise HttpError(409, Text.of("http.no_event_part"))
    total = [EventEntry(tuple(e["names"]), e["score"], e["rank"], e["boards"],
                        tuple(e["sessions"]), e["carry"], e["direction"])
             for e in data["ranking"]]
    title = data["name"]
    date = str(getattr(hub.setup, "date", "") or "")
    if name == "event.pbn":
        return (write_event_pbn(title, date, total, len(data["sessions"]),
                                carry=data["carry"] is not None, scores=data["scores"]),
                EVENT_FILES[name])
    earlier = {s.part: s for s in stored if s.name == title}
    kept = {str(s["name"]): s for s in live_sections(hub.room)}
    parts = []
    for s in data["sessions"]:
        sections = live if s.get("live") else earlier[s["part"]].sections
        parts.append(SessionPart(s["part"], s["session"], s["date"], tuple(
            (str(section["name"]), tuple(
                SessionEntry(e["pair"], tuple(e.get("names") or ()), e.get("percent"),
                             e["rank"], e.get("boards") or 0, e.get("direction"),
                             e.get("total"))
                for e in section["ranking"]))
            for section in sections), {
                str(section["name"]): stored_boards(
                    kept.get(str(section["name"]), section) if s.get("live") else section)
                for section in sections}))
    method = next((str(s.get("method")) for s in live if s.get("ranking")), "mp")
    return (write_usebio_event(title, date, total, parts, scores=data["scores"],
                               method=method), EVENT_FILES[name])


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _points(value: Any, scale: float) -> float | None:
    return None if isinstance(value, bool) or not isinstance(value, int | float) \
        else value * scale


def stored_boards(section: Mapping[str, Any]) -> list[SessionBoard]:
    """A stored section's boards (hub.series.section_boards) for the event's USEBIO file:
    matchpoints in MP1 units (twice the points of a hub scoring one per comparison)."""
    mp = section.get("method", "mp") == "mp"
    units = section.get("mp_units")
    scale = 2 / units if mp and units in (1, 2) else 1.0
    out = []
    for board in section.get("boards") or ():
        lines = []
        for r in board.get("results") or ():
            ns, ew = r.get("NS"), r.get("EW")
            if ns is None or ew is None:
                continue
            lines.append(TravellerLine(
                ns, ew, None if r.get("contract") is None else str(r["contract"]),
                None if r.get("declarer") is None else str(r["declarer"]), _int(r.get("tricks")),
                _int(r.get("score_ns")),
                None if r.get("adjustment") is None else str(r["adjustment"]),
                _points(r.get("ns_points"), scale), _points(r.get("ew_points"), scale)))
        out.append(SessionBoard(int(board["board"]), tuple(lines)))
    return out
