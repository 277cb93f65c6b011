"""The console's part of hub.series: ``GET /api/results/event`` (the event's total),
``GET /api/results/ladder`` (the club's ladder) and the event's files
(``GET /api/evening/event/{name}``: ``event-usebio.xml``, ``event.pbn``).

The public view (no director or scorer logged in) follows the director's
``public_results`` settings as the session's own ranking does: the session being played
counts only the boards every table has finished (Law 16), nothing is shown while the
ranking is hidden, the players' names are left out when the names are (the pairs are still
matched by them). The ladder's query: ``best`` (count the best N sessions), ``min`` (the
least sessions to be ranked), ``from`` and ``to`` (ISO dates, the season); a key absent
takes the club's form (hub.series_ladder.kept_form), a key present but empty none (every
session, no minimum, no bound). ``kept`` in the answer is the club's form. The public view
leaves out the member numbers (``member``, ``members``).
"""

from __future__ import annotations

import logging
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
from hub.log_records import Record
from hub.results_pages import session_rankings
from hub.roster import name_key
from hub.series import event_total, live_sections
from hub.series_ladder import (
    LADDER_FORM,
    LADDER_PLAYER,
    LadderForm,
    homonyms,
    kept_form,
    ladder_json,
    player_choices,
)
from hub.series_players import club_roster
from hub.store import StoreError
from hub.webserver import HttpError

__all__ = ["EVENT_FILES", "event_file", "keep_ladder_form", "ladder_form", "series_api",
           "stored_boards", "tell_ladder_player"]

log = logging.getLogger(__name__)

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


def ladder_form(query: Mapping[str, str], kept: LadderForm) -> LadderForm:
    """The ladder's form of a request: each key of ``query`` present overrides the club's
    ``kept`` form (an empty value: none); HttpError 400 naming a key that is wrong."""
    return LadderForm(
        _whole(query, "best", 1) if "best" in query else kept.best,
        (_whole(query, "min", 1) or 1) if "min" in query else kept.minimum,
        _date(query, "from") if "from" in query else kept.since,
        _date(query, "to") if "to" in query else kept.until)


def series_api(hub: Any, what: str, query: Mapping[str, str], *,
               public: bool = True) -> dict[str, Any]:
    """The JSON of ``/api/results/event`` or ``/api/results/ladder`` (module docstring)."""
    live, shown, names = session_rankings(hub.room, public=public)
    if what == "ladder":
        kept = kept_form(hub.series)
        roster = club_roster(getattr(getattr(hub, "log", None), "path", None))
        data = ladder_json(hub.series.sessions(), ladder_form(query, kept),
                           current=(hub.setup, live) if shown else None,
                           shared=homonyms(roster),
                           choices=player_choices(hub.series))
        data["kept"] = kept.to_json()
        data["full"] = not public
        if public:     # the club's member numbers stay with its director and scorer
            for line in (*data["ranking"], *data["imp_ranking"]):
                line["member"] = None
            for entry in data["ambiguous"]:
                entry["members"] = []
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
                entry.pop("substitutes", None)
    return data


def _log_fact(hub: Any, type: str, body: dict[str, Any]) -> None:
    try:
        hub.log.append(Record.fact(type, body, source="director", hub_time=hub.hub_time()))
    except StoreError as err:
        log.error("%s not stored: %s", type, err)
        raise HttpError(500, Text.of("http.ladder_not_stored", error=str(err))) from None
    hub.series.forget()


def keep_ladder_form(hub: Any, body: Any, account: str) -> dict[str, Any]:
    """``POST /api/results/ladder/form`` ``{"best", "min", "from", "to"}``: the club's
    ladder form kept (the fact ``ladder_form``, with who kept it); 400 naming the field that
    is wrong."""
    try:
        form = LadderForm.of_json(body)
    except ValueError as err:
        raise HttpError(400, Text.of("http.ladder_form", error=str(err))) from None
    _log_fact(hub, LADDER_FORM, {"v": 1, **form.to_json(), "account": account})
    log.info("the club's ladder form kept by %s: %s", account, form)
    return {"ok": True, "kept": form.to_json()}


def tell_ladder_player(hub: Any, body: Any, account: str) -> dict[str, Any]:
    """``POST /api/results/ladder/player`` ``{"session", "section", "pair", "name",
    "member"}``: the player ``name`` of that pair of the stored session (its ``position``)
    is the member ``member`` (the fact ``ladder_player``); 400 naming what is wrong, 404
    when the stored session has no such player."""
    if not isinstance(body, Mapping):
        raise HttpError(400, Text.of("http.ladder_form", error="not a JSON object"))
    session, pair, member = body.get("session"), body.get("pair"), body.get("member")
    section, name = body.get("section"), body.get("name")
    for key, value, least in (("session", session, 1), ("pair", pair, 1),
                              ("member", member, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or not \
                least <= value <= 10**9:
            raise HttpError(400, Text.of("http.ladder_form", error=f"{key}: a whole number "
                                         f"from {least} is expected, not {value!r:.20}"))
    if not isinstance(section, str) or not isinstance(name, str) or not name_key(name):
        raise HttpError(400, Text.of("http.ladder_form", error="section and name: texts are "
                                                               "expected"))
    stored = next((s for s in hub.series.sessions() if s.position == session), None)
    found = stored is not None and any(
        str(sec.get("name")) == section and entry.get("pair") == pair and any(
            name_key(str(p.get("name", ""))) == name_key(name)
            for p in entry.get("players") or [{"name": n} for n in entry.get("names") or ()])
        for sec in stored.sections for entry in sec.get("ranking", ()))
    if not found:
        raise HttpError(404, Text.of("http.ladder_player", name=name[:60], pair=pair,
                                     section=section[:20], session=session))
    _log_fact(hub, LADDER_PLAYER, {"v": 1, "session": session, "section": section,
                                   "pair": pair, "name": name, "member": member,
                                   "account": account})
    log.info("ladder: %s of pair %s%d in the session stored at %d is member %d (%s)", name,
             section, pair, session, member, account)
    return {"ok": True}


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
