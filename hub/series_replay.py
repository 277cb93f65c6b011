"""Sessions a hub played before it stored them: found by replaying their records.

A hub stores the session it closes as the log fact ``session_scored`` (hub.series). A log
written before that fact existed still holds every session it ran, one after the other: the
event's set-up (``event_setup``), its records, then each new session's set-up
(``setup_replaced`` with ``keep_play`` false) and its records. Such a session has no
``session_scored`` just before the set-up that ended it; :func:`replayed_sessions` finds
it and replays its records into a fresh room of its set-up (the last one it ran: a set-up
replaced with ``keep_play`` keeps the session going), then makes its fact as the hub would
have stored it (hub.series.session_fact: each section's ranking, its players, its boards).

The log is read, never written: an old log stays exactly as it was (its hash chain, its
records); nothing is stored for the sessions found, which are found again, by the same
replay, at the next start. The session the log runs now is not one of them (it is the
session being played). A record the room cannot take is left out of that session (logged),
as the hub's own start does; a set-up the loader cannot read leaves its session out
(logged).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from hub.setup_facts import SETUP_FACT, SETUP_REPLACED

if TYPE_CHECKING:
    from hub.roster import Roster
    from hub.store import EventLog

__all__ = ["FactOf", "SetupLoader", "closed_sessions", "replayed_sessions"]

log = logging.getLogger(__name__)

SetupLoader = Callable[[dict[str, Any]], Any]   # a set-up's JSON -> the set-up (build_room)
FactOf = Callable[[Any, Any, "Roster | None"], "dict[str, Any] | None"]


def closed_sessions(event_log: EventLog, stored: set[int]
                    ) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """Each closed session of the log without its ``session_scored``: ``(start, end,
    setup JSON)``, its records those after position ``start`` and before ``end`` (the
    ``setup_replaced`` that closed it). ``stored``: the positions of the log's
    ``session_scored`` facts (one just before ``end``: that session is stored)."""
    marks = sorted([*event_log.of_type(SETUP_FACT)[:1], *event_log.of_type(SETUP_REPLACED)],
                   key=lambda r: r.position)
    if not marks or marks[0].type != SETUP_FACT:
        return
    start, setup = marks[0].position, marks[0].data()
    for record in marks[1:]:
        body = record.data()
        if not isinstance(body, dict) or not isinstance(body.get("setup"), dict):
            continue
        if body.get("keep_play"):
            setup = body["setup"]          # the same session, set up anew
            continue
        if record.position - 1 not in stored and record.position - 1 > start:
            yield start, record.position, setup
        start, setup = record.position, body["setup"]


def replayed_sessions(event_log: EventLog, loader: SetupLoader, roster: Roster | None,
                      stored: set[int], session_fact: FactOf
                      ) -> list[tuple[int, dict[str, Any]]]:
    """Each closed session the log did not store (module docstring): ``(position,
    session_scored body)``, ``position`` that of the ``setup_replaced`` that closed it;
    ``session_fact`` makes the body (hub.series.session_fact)."""
    out = []
    for start, end, setup_json in closed_sessions(event_log, stored):
        try:
            setup = loader(setup_json)
            room = setup.build_room()
        except Exception as err:
            log.error("event log %s: the session set up at record %d cannot be read again "
                      "(left out of the stored sessions): %s", event_log.path, start, err)
            continue
        left_out = 0
        for record in event_log.replay(after=start):
            if record.position >= end:
                break
            if record.type == SETUP_REPLACED:
                continue
            try:
                room.replay(record)
            except Exception as err:
                left_out += 1
                log.warning("event log %s: record %d (%s) of the session set up at record "
                            "%d not replayed: %s", event_log.path, record.position,
                            record.type, start, err)
        body = session_fact(setup, room, roster)
        if body is None:
            continue
        log.info("event log %s: the session of records %d to %d found by replaying them "
                 "(%d records left out)", event_log.path, start, end, left_out)
        out.append((end, body))
    return out
