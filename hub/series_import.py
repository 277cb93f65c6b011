"""A club's earlier data directories brought into its hub's ladder: each session of their
logs stored in the hub's log as ``session_scored`` (``tenace ladder --import OLD_DIR``).

Before a hub could run the next session in the same log (``?next=1``, ``--next-session``),
a club started a new data directory each evening. Those logs are read, never written
(opened as they are, no upgrade, no head noted): each of their sessions is found as
hub.series_replay finds a session a log did not store (its records replayed into a room of
its set-up, the log's last session included: the directory is over), or taken as it is
where the old log stored it (a ``session_scored`` of its own). Each is then stored in the
hub's log as a ``session_scored`` fact with ``imported``: ``{"log": the old log's first
record's id, "end": the position after the session's last record, "from": the directory
as given}``; the fact's own id is made of the first two, so importing a directory twice
stores nothing the second time (the log refuses a duplicate id). The players get the member
numbers of the hub's roster where one member has their name, as when the hub stores a
session.

The hub's log is appended to: run the import with the hub stopped, or restart it after
(its stored sessions are read at start). Importing its own data directory is refused.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hub.log_records import Record
from hub.roster import Roster
from hub.series import SESSION_SCORED, session_fact
from hub.series_players import member_of
from hub.series_replay import SetupLoader, closed_sessions, replay_session
from hub.setup_facts import SETUP_FACT
from hub.store import EventLog

__all__ = ["Imported", "import_sessions", "open_old"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Imported:
    """One session of an old log: its date and names, and whether it was stored now
    (False: imported before)."""

    date: str
    name: str
    session: str
    stored: bool


def _with_members(body: dict[str, Any], roster: Roster | None) -> dict[str, Any]:
    for section in body.get("sections") or ():
        for entry in section.get("ranking") or ():
            for player in entry.get("players") or ():
                if not player.get("member"):
                    player["member"] = member_of(roster, str(player.get("name")))
    return body


def import_sessions(target: EventLog, old: EventLog, loader: SetupLoader,
                    roster: Roster | None, origin: str) -> list[Imported]:
    """Store every session of ``old`` in ``target`` (module docstring); ``origin`` names
    the old directory. ValueError when ``old`` holds no event or is ``target``'s own."""
    first = old.of_type(SETUP_FACT)[:1]
    if not first:
        raise ValueError(f"{origin}: no event in its log")
    target_first = target.of_type(SETUP_FACT)[:1]
    if target_first and target_first[0].event_id == first[0].event_id:
        raise ValueError(f"{origin}: this is the hub's own log")
    log_id = first[0].event_id
    found: list[tuple[int, dict[str, Any]]] = []
    own = old.of_type(SESSION_SCORED)
    for record in own:          # stored by the old hub itself
        body = record.data()
        if isinstance(body, dict):
            found.append((record.position + 1, body))
    for start, end, _, setup_json in closed_sessions(old, {r.position for r in own},
                                                     last=True):
        body = replay_session(old, loader, session_fact, start, end, setup_json)
        if isinstance(body, dict):
            found.append((end, body))
    found.sort(key=lambda item: item[0])
    records = [Record.fact(SESSION_SCORED, {
        **_with_members(body, roster), "imported": {"log": log_id, "end": end,
                                                    "from": origin}},
        event_id=f"hub:imported:{log_id}:{end}") for end, body in found]
    positions = target.append_many(records) if records else []
    out = [Imported(str(body.get("date", "")), str(body.get("name", "")),
                    str(body.get("session", "")), position is not None)
           for (_, body), position in zip(found, positions, strict=True)]
    log.info("%s: %d sessions imported into %s (%d there already)", origin,
             sum(1 for i in out if i.stored), target.path,
             sum(1 for i in out if not i.stored))
    return out


def open_old(folder: str | Path, log_name: str) -> EventLog:
    """An old data directory's log, opened to be read: no upgrade, no head noted."""
    return EventLog.open(Path(folder) / log_name, verify=False, upgrade=False,
                         note_head=False)
