"""What comes from a device: its events checked and applied, its ``hello``, its reply
(:class:`DeviceEvents`, a part of :class:`hub.service.Hub`).

Every event gets a reply on ``t/{table}/reply/{device}``: ``ack`` or ``reject`` with the
reason (``no_event`` while the hub waits for its event: a room without tables, hub.event's
WaitingSetup or a scoring program's set-up not sent yet). A device's ``hello``
(:meth:`DeviceEvents._hello`) gets the hub's clock and the last ``seq`` the log holds of
it, and a log that lacks what the device was told is stored raises ``history_missing``.
Sequence gaps (an accepted ``seq`` more than one above the device's last) are logged
(info) and counted (``gaps``). A dealing machine's events (hub.dealing) and a device's
status (birth and last will, hub.presence) come in here too.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from hub.alerts import Alert
from hub.fairness import DeviceBuckets, PresenceGate
from hub.log_records import Record
from hub.presence import OfflineGrace
from hub.room import Room
from wire.messages import check_payload
from wire.protocol import (
    DEALER_EVENT_TYPES,
    EVENT_TYPES,
    HELLO_TYPES,
    Envelope,
    ProtocolError,
    Reply,
    salvage,
    topic_dealer_reply,
    topic_reply,
)

__all__ = ["HELLO_WAIT", "NO_EVENT", "DeviceEvents", "HubStats"]

log = logging.getLogger(__name__)

_RAW_KEPT = 512              # bytes of a rejected payload kept in the log, as evidence
_REPORTED = ("seat", "kind", "reader", "detail", "seats", "battery", "signal", "time")
NO_EVENT = "no_event"        # the reject code while the room has no tables (no event yet)
_TABLE_TYPES = {**EVENT_TYPES, **HELLO_TYPES}           # what a table device's topic takes
_DEALER_TYPES = {**DEALER_EVENT_TYPES, **HELLO_TYPES}   # a dealing machine's
HELLO_WAIT = 30.0            # seconds an event with a gap waits for its device's hello


@dataclass(slots=True)
class HubStats:
    """Counters for the operator and the benchmarks."""

    received: int = 0
    accepted: int = 0
    duplicates: int = 0
    rejected: int = 0
    alerts: int = 0
    batches: int = 0
    published: int = 0
    rejected_by_code: dict[str, int] = field(default_factory=dict)
    refused_by_code: dict[str, int] = field(default_factory=dict)   # not events: commands...
    gaps: int = 0                    # accepted events whose seq skipped numbers
    gaps_by_device: dict[str, int] = field(default_factory=dict)
    reconnections: int = 0           # to the broker, after the first connection
    unheard: int = 0                 # events with a gap held for their device's hello

    def refused(self) -> dict[str, int]:
        """Every message refused, events and others, by reason code."""
        out = dict(self.rejected_by_code)
        for code, n in self.refused_by_code.items():
            out[code] = out.get(code, 0) + n
        return dict(sorted(out.items()))


class DeviceEvents:
    """A device's messages in (module docstring): a part of :class:`hub.service.Hub`, which
    sets these attributes in its ``__init__``."""

    room: Room
    clock: Callable[[], float]
    stats: HubStats
    fairness: DeviceBuckets
    presence_gate: PresenceGate
    log_id: str
    offline_grace: float
    wills: OfflineGrace
    device_reports: dict[str, dict[str, Any]]
    greeted: set[str]                # devices heard since the hub started (hello, answer)
    unheard: dict[str, float]        # device -> when an event of it first waited for hello
    recovering: dict[str, tuple[int | None, int, int]]   # device -> (last, acked, resent)

    def _offline_later(self, device: str, table: str, since: float) -> None:
        raise NotImplementedError   # hub.service.Hub: the will's grace on the loop

    def _event(self, table: str, device: str, payload: bytes, records: list[Record],
               replies: list[tuple[str, str]], alerts: list[Alert], changed: set[str]) -> None:
        now = self.clock()
        reply_topic = topic_reply(table, device)
        if not self.fairness.take(device):   # over its rate: refused unread (hub.fairness)
            self.stats.rejected += 1
            self.stats.rejected_by_code["rate_limited"] = \
                self.stats.rejected_by_code.get("rate_limited", 0) + 1
            replies.append((reply_topic, Reply(*salvage(payload), "reject", "rate_limited",
                                               self.fairness.reason(device), now).to_json()))
            return
        try:
            env = Envelope.from_json(payload, _TABLE_TYPES)
            if env.device != device:
                raise ProtocolError("device_mismatch", f"envelope device {env.device!r} "
                                    f"published on the topic of device {device!r}")
        except ProtocolError as err:
            ref, seq = salvage(payload)
            self._rejected(table, device, err.code, err.reason, payload)
            replies.append((reply_topic, Reply(ref, seq, "reject", err.code, err.reason,
                                               now).to_json()))
            return
        if not self.room.tables:
            self._no_event(table, device, env, now, payload, replies)
            return
        if env.type == "hello":
            self._hello(table, env, now, reply_topic, records, replies, alerts)
            return
        info = self.room.devices.get(device)
        last_seq = None if info is None else info.last_seq
        if last_seq is not None and self._wait_for_hello(table, env, last_seq):
            return
        out = self.room.apply(table, env, now)
        self.greeted.add(device)   # answered: its later gaps are refusals this hub saw
        reply = out.reply
        replies.append((reply_topic, reply.to_json()))
        if reply.status != "ack":
            self._rejected(table, device, reply.code, reply.reason, payload)
            if out.fact is not None:   # refused, but the director's alert must replay
                records.append(Record.fact(*out.fact, hub_time=now))
                alerts.extend(out.alerts)
            return
        if reply.code == "duplicate":
            self.stats.duplicates += 1
            return
        self.stats.accepted += 1
        if last_seq is not None and last_seq >= 0 and env.seq > last_seq + 1:
            self._sequence_gap(table, device, last_seq, env.seq)
        records.append(Record.from_envelope(env, table, now, payload))
        alerts.extend(out.alerts)
        if out.state_changed or out.alerts:
            changed.add(table)
        if device in self.recovering:
            self._recovered(table, env, now, records, alerts)

    # A device's history checked by its holes (docs/protocol.md section 6, "Hello") ----------
    def _wait_for_hello(self, table: str, env: Envelope, last_seq: int) -> bool:
        """An event that skips sequence numbers from a device the hub has not heard since it
        started (no ``hello``, no event answered), or whose hello found its history short
        and that has not sent it all again yet, is held: not applied, not logged, not
        answered. It is one a
        broker kept for the hub while it was away (a hub restored from a backup, a log that
        lost its end): taking it would hide the hole from the hello. The device's outbox
        keeps it; the hello's reply makes the device send the hole again, then it. A device
        that says no hello within :data:`HELLO_WAIT` seconds gets its event taken as before
        (a sequence gap, logged and counted). Whether the event is held."""
        device = env.device
        if last_seq < 0 or env.seq <= last_seq + 1:
            return False
        if device in self.greeted and device not in self.recovering:
            return False
        first = self.unheard.setdefault(device, time.monotonic())
        if time.monotonic() - first >= HELLO_WAIT:
            log.warning("device %s at table %s: seq %d after %d and no hello for %g s: taken "
                        "with the gap", device, table, env.seq, last_seq, HELLO_WAIT)
            return False
        self.stats.unheard += 1
        log.info("device %s at table %s: seq %d after %d before its hello: held until the "
                 "device sends what comes between (it stays in its outbox)", device, table,
                 env.seq, last_seq)
        return True

    def _recovered(self, table: str, env: Envelope, now: float, records: list[Record],
                   alerts: list[Alert]) -> None:
        """An event of a device sending its history again after a hello found it short: once
        its ``seq`` reaches what the hub had acknowledged, the director is told how many
        came back (``history_missing`` again, with ``recovered``: the alert's new version)."""
        device = env.device
        last, acked, count = self.recovering[device]
        if env.seq <= acked:
            self.recovering[device] = (last, acked, count + 1)
            count += 1
        if env.seq < acked:
            return
        del self.recovering[device]
        body = {"device": device, "table": table, "last": last, "acked": acked,
                "recovered": count}
        log.warning("device %s at table %s: %d event(s) after seq %s sent again and logged "
                    "(the hub had acknowledged up to %d)", device, table, count, last, acked)
        raised = self.room.fact("history_missing", body, now)
        if raised:
            records.append(Record.fact("history_missing", body, hub_time=now))
            alerts.extend(raised)

    def _no_event(self, table: str, device: str, env: Envelope, now: float, payload: bytes,
                  replies: list[tuple[str, str]]) -> None:
        """No event yet (a room without tables: the director is setting it up on the
        console, or the scoring program has not sent it): the device is told so plainly
        (docs/protocol.md, ``no_event``); nothing is stored."""
        reason = "no event yet: the evening is being set up (director's console or scoring " \
                 "program)"
        self._rejected(table, device, NO_EVENT, reason, payload)
        replies.append((topic_reply(table, device),
                        Reply(env.id, env.seq, "reject", NO_EVENT, reason, now).to_json()))

    def _sequence_gap(self, table: str, device: str, last: int, seq: int) -> None:
        """An accepted ``seq`` that skipped numbers (docs/protocol.md section 6): a log line
        and a counter, per device (a rejected event leaves a gap: nothing is wrong then)."""
        self.stats.gaps += 1
        self.stats.gaps_by_device[device] = self.stats.gaps_by_device.get(device, 0) + 1
        log.info("sequence gap from %s at table %s: seq %d accepted after %d (%d skipped; "
                 "%d gaps from this device)", device, table, seq, last, seq - last - 1,
                 self.stats.gaps_by_device[device])

    def _hello(self, table: str, env: Envelope, now: float, reply_topic: str,
               records: list[Record], replies: list[tuple[str, str]],
               alerts: list[Alert]) -> None:
        """A device (re)connecting says ``hello`` (docs/protocol.md, section 6). The reply
        carries the hub's clock (the device's offset comes from it), ``last``, the last
        ``seq`` of the device the log holds, and ``log``, the id of this event's log
        (:attr:`log_id`). When the device says this log acknowledged more (``acked`` under
        the same ``log``: a restored or damaged log), the director is told (the fact
        ``history_missing``, hub.clock) and the device sends the rest again from its outbox;
        a device whose history is another log's (a new session, a new event) is not.
        Not an event of the game: nothing else is logged, the sequence does not move."""
        if table not in self.room.tables:
            reason = f"no table {table!r} in this session"
            self._rejected(table, env.device, "wrong_table", reason, b"")
            replies.append((reply_topic, Reply(env.id, env.seq, "reject", "wrong_table",
                                               reason, now).to_json()))
            return
        info = self.room.devices.get(env.device)
        last = None if info is None or info.last_seq < 0 else info.last_seq
        acked = env.body.get("acked")
        reason = ""
        ours = env.body.get("log") == self.log_id
        self.greeted.add(env.device)
        self.unheard.pop(env.device, None)
        if ours and type(acked) is int and (last is None or last < acked):
            if self.recovering.get(env.device, (None, -1, 0))[1] != acked:   # not a repeat
                self.recovering[env.device] = (last, acked, 0)
            reason = (f"the hub's log holds this device's events up to seq {last}, not "
                      f"{acked}: send the rest again")
            log.error("device %s at table %s: the hub had acknowledged its events up to seq "
                      "%d, the log holds them up to %s (a restored or damaged log): the "
                      "device sends them again", env.device, table, acked, last)
            body = {"device": env.device, "table": table, "last": last, "acked": acked}
            raised = self.room.fact("history_missing", body, now)
            if raised:   # once per device and gap: the same hello again changes nothing
                records.append(Record.fact("history_missing", body, hub_time=now))
                alerts.extend(raised)
        replies.append((reply_topic, Reply(env.id, env.seq, "ack", "ok", reason, now,
                                           last=last, log=self.log_id).to_json()))

    def _dealer_event(self, device: str, payload: bytes, records: list[Record],
                      replies: list[tuple[str, str]], alerts: list[Alert]) -> None:
        """A dealing machine's board or fault (hub.dealing): logged with no table."""
        now = self.clock()
        reply_topic = topic_dealer_reply(device)
        try:
            env = Envelope.from_json(payload, _DEALER_TYPES)
            if env.device != device:
                raise ProtocolError("device_mismatch", f"envelope device {env.device!r} "
                                    f"published on the topic of device {device!r}")
        except ProtocolError as err:
            ref, seq = salvage(payload)
            self._rejected("dealing", device, err.code, err.reason, payload)
            replies.append((reply_topic, Reply(ref, seq, "reject", err.code, err.reason,
                                               now).to_json()))
            return
        if env.type == "hello":   # the hub's clock; a machine's history is not checked
            known = self.room.dealing.devices.get(device)
            replies.append((reply_topic, Reply(env.id, env.seq, "ack", "ok", "", now,
                                               last=None if known is None
                                               or known.last_seq < 0 else known.last_seq
                                               ).to_json()))
            return
        reply, raised = self.room.dealing.apply(device, env, now)
        replies.append((reply_topic, reply.to_json()))
        if reply.status != "ack":
            self._rejected("dealing", device, reply.code, reply.reason, payload)
        elif reply.code == "duplicate":
            self.stats.duplicates += 1
        else:
            self.stats.accepted += 1
            records.append(Record.from_envelope(env, None, now, payload))
            alerts.extend(raised)

    def _rejected(self, table: str, device: str, code: str, reason: str,
                  payload: bytes) -> None:
        self.stats.rejected += 1
        self.stats.rejected_by_code[code] = self.stats.rejected_by_code.get(code, 0) + 1
        log.warning("event from %s at table %s rejected (%s): %s", device, table, code, reason)
        log.debug("rejected payload: %r", payload[:_RAW_KEPT])

    def _presence(self, table: str, device: str, payload: bytes, records: list[Record],
                  alerts: list[Alert], changed: set[str]) -> None:
        try:   # bounded (size, depth, valid text) before it is parsed, like every message
            status = msgspec.json.decode(check_payload(payload))
            online = status["online"]
            if not isinstance(online, bool):
                raise TypeError("online must be true or false")
        except (ValueError, KeyError, TypeError, RecursionError, msgspec.DecodeError) as err:
            if payload:  # an empty retained payload clears the status: nothing to say
                self._refused("bad_status")
                log.warning("status of %s at %s not understood: %.200s", device, table, err)
            return
        if table not in self.room.tables:
            self._refused("unknown_table")
            log.warning("status of %s for unknown table %s ignored", device, table)
            return
        if not self.presence_gate.take(table, device, payload):   # a flood (hub.fairness):
            return                                                   # held, applied later
        self.device_reports[device] = {k: status[k] for k in _REPORTED if k in status}
        info = self.room.devices.get(device)
        now = self.clock()
        body = {"device": device, "table": table}
        if online:
            if self.wills.back(device):
                log.info("device %s at %s back within the grace: no offline alert", device,
                         table)
            if info is not None and info.online and info.will is None:
                return
            records.append(Record.fact("device_online", body, hub_time=now))
            self.room.device_online(device, now, table)
            if info is not None and info.online:   # back within the grace: the will cleared
                return
        elif status.get("leaving") is True:   # its own farewell: offline at once, no alert
            self.wills.back(device)              # (protocol 14) and no will held for it
            if info is not None and not info.online:
                return
            self.room.device_offline(device, now, table, leaving=True)
            records.append(Record.fact("device_offline", {**body, "leaving": True},
                                       hub_time=now))
            log.info("device %s at %s left (its farewell)", device, table)
        else:
            if info is not None and not info.online:
                return
            if self.offline_grace > 0:
                if info is None or info.will is None:   # kept across restarts (presence)
                    records.append(Record.fact("device_will", body, hub_time=now))
                    self.room.device_will(device, now, table)
                info = self.room.devices.get(device)
                self._offline_later(device, table, now if info is None or info.will is None
                                    else info.will)
                return
            raised = self.room.device_offline(device, now, table)
            records.append(Record.fact("device_offline", body, hub_time=now))
            alerts.extend(raised)
        changed.add(table)

    def _refused(self, code: str) -> None:
        """A message other than an event refused (events: :meth:`_rejected`)."""
        self.stats.refused_by_code[code] = self.stats.refused_by_code.get(code, 0) + 1

