"""The event log at the hub's start: its hash chain checked, the room rebuilt from it, a
damaged log reported (:class:`LogStartup`, a part of :class:`hub.service.Hub`).

The event log's hash chain (hub.store) is verified when the hub starts. A broken chain never
stops it: the position and the problem are logged (critical) and published in ``hub/status``
(``chain_broken``), every record is kept and replayed as stored (the hub cannot tell which
version of a changed record is true: the director can, from the evidence, which stays in the
file), nothing is refused, and new records are chained to the stored head. The break stays
reported at every start until the log is replaced by a new data directory.

Everything the room's state depends on is in the log: device events as accepted, and the
hub's own facts (the event set-up first, then round starts, clock ticks that found
something, devices going offline or online, the director's steps). Starting on an existing
log rebuilds every table by replaying it, then republishes every retained view.

A damaged log never stops the hub from starting. A logged record the room cannot apply
(an exception while replaying it) is *set aside*: kept in the log, left out of the room,
logged (error), listed in ``hub/status`` (``set_aside``) and raised to the director as a
``log_damage`` alert (the fact ``log_damage`` is logged once, so the alert and the
director's steps on it replay); the rest of the log is replayed. A log *behind* the head
noted beside it (hub.store: records acknowledged and gone, a torn or missing ``-wal``) is
reported the same way at start (``log_behind`` in ``hub/status``; devices holding those
events must send them again).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from bridgecore.text import Text
from hub.errors import ConfigError
from hub.log_records import ChainReport, Record, StoredRecord
from hub.room import Room
from hub.setup_facts import SETUP_FACT, SETUP_REPLACED
from hub.store import EventLog, StoreError, log_head

__all__ = ["LogStartup", "RoomSetup"]

log = logging.getLogger(__name__)


class RoomSetup(Protocol):
    """What the hub needs of an event set-up (hub.event.EventSetup)."""

    def to_json(self) -> dict[str, Any]: ...
    def build_room(self) -> Room: ...


class LogStartup:
    """The hub's log at start (module docstring): a part of :class:`hub.service.Hub`, which
    sets these attributes in its ``__init__``."""

    log: EventLog
    clock: Callable[[], float]
    room: Room
    setup: RoomSetup
    chain: ChainReport | None
    set_aside: list[int]      # log positions not applied when the room was rebuilt
    log_behind: int           # records missing at start against the noted head
    _damage: list[Record]     # log_damage facts found while opening, to log
    _epoch: int               # log position of the last new event's set-up
    log_id: str               # the id of that set-up's record

    def _verify_chain(self) -> ChainReport | None:
        """The log's hash chain walked before anything is replayed (module docstring: a
        broken chain is reported, never fatal). None when the log cannot be read for it (the
        replay that follows says why)."""
        started = time.perf_counter()
        try:
            report = self.log.verify()
        except StoreError as err:
            log.error("event log hash chain not verified: %s", err)
            return None
        if report.intact:
            log.info("event log %s: %s (%.2f s)", self.log.path, report,
                     time.perf_counter() - started)
        else:
            log.critical("event log %s: %s. The hub goes on: every record is kept and "
                         "replayed as stored, new ones are chained to the stored head; the "
                         "director must look at the record at position %d (tenace log verify)",
                         self.log.path, report, report.broken_at)
        return report

    # The room and its log ------------------------------------------------------------------
    def _open_room(self, setup: RoomSetup | None,
                   loader: Callable[[dict[str, Any]], RoomSetup] | None
                   ) -> tuple[Room, RoomSetup]:
        records = self.log.replay()
        first = next(records, None)
        if first is None:
            if setup is None:
                raise ConfigError(f"{self.log.path}: an empty event log and no event set-up: "
                                  "give the event (--event FILE or --tables N)")
            record = Record.fact(SETUP_FACT, setup.to_json(), hub_time=self.clock())
            self._epoch = self.log.append(record) or 0
            self.log_id = record.event_id
            return setup.build_room(), setup
        if first.type != SETUP_FACT:
            raise ConfigError(f"{self.log.path}: the log does not start with the event set-up "
                              f"(first record: {first.type!r})")
        stored = first.data()
        if setup is not None and setup.to_json() != stored:
            raise ConfigError(f"{self.log.path} holds another event: start with a new data "
                              "directory, or without an event set-up to go on with this one")
        if loader is None:
            if setup is None:
                raise ConfigError("a set-up loader is needed to rebuild from an existing log")
            kept = setup
        else:
            kept = loader(stored)
        room = kept.build_room()
        self._epoch = first.position   # play counts from the last new event (its set-up)
        self.log_id = first.event_id
        started = time.perf_counter()
        n = 0
        for record in records:
            if record.type == SETUP_REPLACED:
                kept, room = self._replaced(record, loader)
            else:
                self._replay_one(room, record)
            n += 1
        self._log_damage_facts()
        log.info("rebuilt %d tables from %d records of %s in %.2f s", len(room.tables), n,
                 self.log.path, time.perf_counter() - started)
        return room, kept

    def _replaced(self, record: StoredRecord,
                  loader: Callable[[dict[str, Any]], RoomSetup] | None
                  ) -> tuple[RoomSetup, Room]:
        """Replaying the log: the set-up replaced at ``record``, and its room."""
        if loader is None:
            raise ConfigError(f"{self.log.path}: the set-up was replaced (record "
                              f"{record.position}): a set-up loader is needed")
        body = record.data()
        setup = loader(body["setup"])
        if not body["keep_play"]:
            self._epoch = record.position
            self.log_id = record.event_id
        return setup, self._room_since(setup, before=record.position)

    def _room_since(self, setup: RoomSetup, before: int | None = None) -> Room:
        """A fresh room of ``setup`` with the records since the last new event replayed
        (up to position ``before``). A record the set-up cannot take is logged, not fatal:
        a director's step on an alert the new movement no longer raises, say."""
        room = setup.build_room()
        for record in self.log.replay(after=self._epoch):
            if before is not None and record.position >= before:
                break
            if record.type == SETUP_REPLACED:
                continue
            self._replay_one(room, record)
        return room

    # A damaged log (module docstring) ----------------------------------------------------------
    def _replay_one(self, room: Room, record: StoredRecord) -> bool:
        """Replay one record; one the room cannot take is set aside (kept in the log, told
        to the director), never fatal. Whether it was applied."""
        try:
            room.replay(record)
            return True
        except Exception as err:
            reason = f"{type(err).__name__}: {err}"
            if record.position not in self.set_aside:
                self.set_aside.append(record.position)
                log.error("event log %s: record %d (%s %r) cannot be applied and is set "
                          "aside (kept in the log, left out of the room): %s", self.log.path,
                          record.position, record.type, record.event_id, reason)
            body = {"problem": "set_aside", "position": record.position,
                    "event_id": record.event_id, "type": record.type,
                    "table": record.table_id, "error": reason[:400],
                    "text": Text.of("alert.log_set_aside", position=record.position,
                                    type=record.type, table=record.table_id or "–",
                                    error=reason[:200]).to_json()}
            with contextlib.suppress(Exception):
                room.fact("log_damage", body, record.hub_time)
            self._damage.append(Record.fact("log_damage", body, hub_time=record.hub_time,
                                            event_id=f"hub:set-aside:{record.position}"))
            return False

    def _check_log_end(self) -> None:
        """The log against the head noted beside it (hub.store): records lost at its end
        are reported (critical, ``hub/status``, an alert), never fatal."""
        try:
            loss = self.log.behind()
        except StoreError as err:
            log.error("event log end not checked: %s", err)
            return
        if loss is None:
            return
        self.log_behind = loss.missing
        noted = f"{loss.noted[0]}:{loss.noted[1]}"
        log.critical("event log %s: %s. The hub goes on with what the log holds: devices "
                     "must send those events again (tenace log verify)", self.log.path, loss)
        now = self.clock()
        body = {"problem": "behind", "noted": noted, "head": f"{loss.head[0]}:{loss.head[1]}",
                "missing": loss.missing,
                "text": Text.of("alert.log_behind", noted=noted, n=loss.missing,
                                head=f"{loss.head[0]}:{loss.head[1]}").to_json()}
        self.room.fact("log_damage", body, now)
        self._damage.append(Record.fact("log_damage", body, hub_time=now,
                                        event_id=f"hub:log-behind:{noted}"))
        self._log_damage_facts()

    def _log_damage_facts(self) -> None:
        """Log the damage found (once: their ids are fixed, a repeat is a duplicate)."""
        facts, self._damage = self._damage, []
        if facts:
            try:
                self.log.append_many(facts)
            except StoreError as err:
                log.critical("log damage not recorded in the log: %s", err)

    def log_head(self) -> tuple[int, str]:
        """``(count, head hash)`` of the event log (hub.store.log_head)."""
        return log_head(self.log)

