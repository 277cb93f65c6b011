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
records). What the replay found is kept beside it, in the data directory's
``replayed-sessions.json`` (0600; each session keyed by the position and the id of the
record that closed it, so a log that is not the one it was made from is replayed again): a
season's evenings are replayed once, not at every start. The file is only a cache: deleted
or unreadable, the sessions are replayed again. The players' member numbers come from the
roster as it is when the hub starts (hub.series.SessionBook), not as it was at the
replay. The session the log runs now is not one of them (it is the session being played). A
record the room cannot take is left out of that session (logged), as the hub's own start
does; a set-up the loader cannot read leaves its session out (logged, tried again next
time).
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hub.setup_facts import SETUP_FACT, SETUP_REPLACED

if TYPE_CHECKING:
    from hub.roster import Roster
    from hub.store import EventLog

__all__ = ["CACHE_NAME", "FactOf", "SetupLoader", "cache_path", "closed_sessions",
           "replay_session", "replayed_sessions"]

log = logging.getLogger(__name__)

CACHE_NAME = "replayed-sessions.json"
SetupLoader = Callable[[dict[str, Any]], Any]   # a set-up's JSON -> the set-up (build_room)
FactOf = Callable[[Any, Any, "Roster | None"], "dict[str, Any] | None"]


def closed_sessions(event_log: EventLog, stored: set[int], *, last: bool = False
                    ) -> Iterator[tuple[int, int, str, dict[str, Any]]]:
    """Each closed session of the log without its ``session_scored``: ``(start, end, end's
    event id, setup JSON)``, its records those after position ``start`` and before ``end``
    (the ``setup_replaced`` that closed it). ``stored``: the positions of the log's
    ``session_scored`` facts (one just before ``end``: that session is stored). ``last``:
    the log's last session too (an old data directory's, over), ``end`` past the log's end
    and its id ``""``."""
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
            yield start, record.position, record.event_id, setup
        start, setup = record.position, body["setup"]
    end = event_log.last_position() + 1
    if last and end - 1 > start:
        yield start, end, "", setup


def cache_path(event_log: EventLog) -> Path | None:
    """Where the sessions found are kept beside a log on disk (module docstring)."""
    if not event_log.path or str(event_log.path) == ":memory:":
        return None
    return Path(event_log.path).with_name(CACHE_NAME)


def _read_cache(path: Path | None) -> dict[str, Any]:
    if path is None or not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        log.warning("%s cannot be read (the sessions are replayed again): %s", path, err)
        return {}
    if not isinstance(data, dict) or data.get("v") != 1 or \
            not isinstance(data.get("sessions"), dict):
        log.warning("%s is not a version 1 cache (the sessions are replayed again)", path)
        return {}
    return dict(data["sessions"])


def _write_cache(path: Path | None, sessions: dict[str, Any]) -> None:
    if path is None:
        return
    temporary = path.with_name(path.name + ".tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump({"v": 1, "sessions": sessions}, file)
        os.replace(temporary, path)
    except OSError as err:      # a read-only data directory: replayed again next time
        log.warning("%s not written (the sessions will be replayed again): %s", path, err)


def replayed_sessions(event_log: EventLog, loader: SetupLoader, stored: set[int],
                      session_fact: FactOf, *, keep: bool = True
                      ) -> list[tuple[int, dict[str, Any]]]:
    """Each closed session the log did not store (module docstring): ``(position,
    session_scored body)``, ``position`` that of the ``setup_replaced`` that closed it;
    ``session_fact`` makes the body (hub.series.session_fact; without a roster: the
    players' member numbers are the substitutions' only, the caller adds the roster's).
    ``keep``: write what was found beside the log (False: the cache is only read)."""
    path = cache_path(event_log)
    cache = _read_cache(path)
    found: dict[str, Any] = {}
    out = []
    for start, end, end_id, setup_json in closed_sessions(event_log, stored):
        key = f"{end}:{end_id}"
        if key in cache:
            body = cache[key]
        else:
            body = replay_session(event_log, loader, session_fact, start, end, setup_json)
            if body is False:
                continue                   # not readable: tried again next time
        found[key] = body
        if body is not None:
            out.append((end, body))
    if keep and found != cache:
        _write_cache(path, found)
    return out


def replay_session(event_log: EventLog, loader: SetupLoader, session_fact: FactOf,
                   start: int, end: int, setup_json: dict[str, Any]
                   ) -> dict[str, Any] | bool | None:
    """The ``session_scored`` body of the session from ``start`` to ``end`` (None: nothing
    scored; False: its set-up cannot be read)."""
    started = time.perf_counter()
    try:
        setup = loader(setup_json)
        room = setup.build_room()
    except Exception as err:
        log.error("event log %s: the session set up at record %d cannot be read again "
                  "(left out of the stored sessions): %s", event_log.path, start, err)
        return False
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
    body = session_fact(setup, room, None)
    log.info("event log %s: the session of records %d to %d replayed in %.2f s (%d records "
             "left out): %s", event_log.path, start, end, time.perf_counter() - started,
             left_out, "stored nothing" if body is None else "found")
    return body
