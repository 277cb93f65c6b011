"""What a device's link receives from the hub (:class:`LinkReceiving`, a part of
:class:`wire.link.DeviceLink`): the table's public state, a seat's view, the table tablet's
view, the replies to its events (a clock sample, the answer to its hello, a refusal to send
again, :data:`TRANSIENT_CODES`), the hub's commands and its status. Every message is checked
at the edge: one that is not what its topic says is logged and ignored (wire.link's
docstring). The clock estimate the replies feed (:class:`ClockEstimate`) and the copy in
flight they answer are here too.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from wire.mqtt import Delivery, Message, MqttClient
from wire.outbox import Outbox
from wire.protocol import Envelope, ProtocolError, Reply, parse_topic, topic_shard_status

__all__ = ["SAMPLES", "TRANSIENT_CODES", "ClockEstimate", "LinkReceiving"]

log = logging.getLogger("wire.link")   # the link's log, as before this was split off

TRANSIENT_CODES = frozenset({"storage"})
"""Refusals that say "send it again" rather than "no": the envelope stays in the outbox."""

SAMPLES = 8
"""Clock samples kept (wire.link's docstring): the one of the lowest delay is used."""


def _seconds(offset: float | None) -> str:
    return "unknown" if offset is None else f"{offset:+.3f} s from the device's"


def _object(payload: bytes, what: str) -> dict[str, Any] | None:
    """The JSON object of a payload, or None (logged) when it is not one."""
    def no_constant(name: str) -> Any:
        raise ValueError(f"{name} is not a number JSON allows")

    try:
        obj = json.loads(payload, parse_constant=no_constant)
    except ValueError as err:  # UnicodeDecodeError and JSONDecodeError included
        log.warning("%s ignored: not JSON (%s)", what, err)
        log.debug("%s payload: %r", what, payload[:512])
        return None
    if not isinstance(obj, dict):
        log.warning("%s ignored: not a JSON object", what)
        return None
    return obj


class ClockEstimate:
    """The hub's clock minus the device's, from timed exchanges (module docstring): the
    sample of the lowest delay among the last :data:`SAMPLES`. Thread-safe to read."""

    def __init__(self, keep: int = SAMPLES):
        self._samples: deque[tuple[float, float]] = deque(maxlen=keep)  # (delay, offset)

    def add(self, t0: float, t1: float, hub_time: float) -> None:
        """One exchange: published at ``t0``, answered at ``t1`` (device clock), the hub's
        clock ``hub_time`` in the answer."""
        delay = max(0.0, t1 - t0)
        self._samples.append((delay, hub_time - (t0 + t1) / 2))

    def add_one_way(self, received: float, hub_time: float, delay: float = 60.0) -> None:
        """A hub clock read with no exchange (``hub/status`` as it is published): a sample
        of a large ``delay``, used only until an exchange gives a better one."""
        self._samples.append((delay, hub_time - received))

    def clear(self) -> None:
        """Forget every sample (the next exchange starts the estimate again)."""
        self._samples.clear()

    def shift(self, jump: float) -> None:
        """The device's clock jumped by ``jump`` seconds: every sample moves with it."""
        self._samples = deque(((d, o - jump) for d, o in self._samples),
                              maxlen=self._samples.maxlen)

    @property
    def offset(self) -> float | None:
        """The best estimate (hub minus device, seconds), None before any sample."""
        samples = list(self._samples)
        if not samples:
            return None
        return min(samples)[1]

    @property
    def delay(self) -> float | None:
        """The round trip of the sample used (None before any)."""
        samples = list(self._samples)
        return min(samples)[0] if samples else None

    def __len__(self) -> int:
        return len(self._samples)


@dataclasses.dataclass(slots=True)
class _Flight:
    envelope: Envelope
    sent_at: float       # time.monotonic()
    tries: int = 1
    stamped: float = 0.0              # the device's clock when this copy was published
    delivery: Delivery | None = None  # the broker's acknowledgement of this copy
    hello: bool = False


class LinkReceiving:
    """A device link's messages in (a part of :class:`wire.link.DeviceLink`)."""

    if TYPE_CHECKING:
        table: str | None
        device: str
        seat: str | None
        hello: bool
        outbox: Outbox
        client: MqttClient
        clock: Callable[[], float]
        clock_estimate: ClockEstimate
        state: dict[str, Any] | None
        seat_view: dict[str, Any] | None
        hub_online: bool | None
        hub_shard: int | None
        _shard_heard: bool
        on_state: Callable[[dict[str, Any]], None] | None
        on_seat: Callable[[dict[str, Any]], None] | None
        on_tablet: Callable[[dict[str, Any]], None] | None
        on_reply: Callable[[Reply, Envelope], None] | None
        on_command: Callable[[dict[str, Any]], None] | None
        _flight: _Flight | None
        _greeted: bool

        def _emit(self, callback: Callable[..., None] | None, *args: Any) -> None: ...
        def _set_connection(self, connected: bool) -> None: ...

    def _handle(self, message: Message) -> None:
        try:
            topic = parse_topic(message.topic)
        except ProtocolError as err:
            log.warning("%s: message on %r ignored: %s", self, message.topic, err.reason)
            return
        if topic.kind == "hub_status":    # the event's hub, or its shard 0
            if self.hub_shard is None or not self._shard_heard:
                self._hub_status(message.payload, message.retain)
            return
        if topic.kind == "shard_status":  # the shard that holds this table (protocol 14)
            if topic.shard is not None and topic.shard == self.hub_shard:
                self._shard_heard = True
                self._hub_status(message.payload, message.retain)
            return
        if topic.kind == "dealer_reply" and self.table is None:
            if topic.device != self.device:
                log.warning("%s: reply meant for %s ignored", self, topic.device)
                return
            self._reply(message.payload)
            return
        if self.table is None or topic.table != self.table:
            log.warning("%s: message for table %s on %s ignored", self, topic.table,
                        message.topic)
            return
        if topic.kind == "state":
            self._state(message.payload)
        elif topic.kind == "seat":
            self._seat(topic.seat, message.payload)
        elif topic.kind == "tablet":
            self._tablet(message.payload)
        elif topic.kind == "reply":
            if topic.device != self.device:
                log.warning("%s: reply meant for %s ignored", self, topic.device)
                return
            self._reply(message.payload)
        elif topic.kind == "cmd":
            if topic.device not in (None, self.device):
                log.warning("%s: command meant for %s ignored", self, topic.device)
                return
            self._command(message.payload)
        else:
            log.warning("%s: unexpected message on %s ignored", self, message.topic)

    def _state(self, payload: bytes) -> None:
        if not payload:
            log.debug("%s: the table's state was cleared", self)
            return
        obj = _object(payload, f"state of table {self.table}")
        if obj is None:
            return
        if obj.get("table", self.table) != self.table or not isinstance(obj.get("phase"), str):
            log.warning("%s: state ignored: table %r, phase %r", self, obj.get("table"),
                        obj.get("phase"))
            return
        self.state = obj
        self._follow_shard(obj.get("shard"))
        self._emit(self.on_state, obj)

    def _follow_shard(self, shard: Any) -> None:
        """The hub shard that holds this table, as its state says (``shard``, protocol 11.1
        and 14): from shard 1 on, the hub's presence is that shard's ``hub/shard/{K}/status``
        (once its first message has come: ``hub/status`` until then), no longer
        ``hub/status``, which is shard 0's."""
        index = shard if isinstance(shard, int) and not isinstance(shard, bool) \
            and 0 < shard < 1000 else None
        if index == self.hub_shard:
            return
        before, self.hub_shard, self._shard_heard = self.hub_shard, index, False
        if before is not None:
            self.client.unsubscribe(topic_shard_status(before))
        if index is not None:
            self.client.subscribe(topic_shard_status(index), 1, wait=False)
        log.info("%s: the hub's presence is %s", self,
                 "hub/status" if index is None else f"shard {index}'s")

    def _seat(self, seat: str | None, payload: bytes) -> None:
        if self.seat is None or seat != self.seat:  # never show a hand the tablet may not
            log.warning("%s: hand of seat %s ignored (this tablet shows %s)", self, seat,
                        "no hand" if self.seat is None else f"seat {self.seat}'s only")
            return
        if not payload:
            return
        obj = _object(payload, f"view of seat {seat}")
        if obj is None:
            return
        hand = obj.get("hand")
        if (obj.get("seat", seat) != seat or not isinstance(hand, list)
                or not all(isinstance(c, str) for c in hand)):
            log.warning("%s: view of seat %s ignored: seat %r, hand %r", self, seat,
                        obj.get("seat"), hand)
            return
        self.seat_view = obj
        self._emit(self.on_seat, obj)

    def _tablet(self, payload: bytes) -> None:
        """The table tablet's view (``t/{table}/tablet``, to ``on_tablet``; a seat tablet
        never reads it)."""
        if self.seat is not None or not payload:
            return
        obj = _object(payload, f"table tablet's view of {self.table}")
        if obj is None or obj.get("table", self.table) != self.table or "seat" in obj:
            return
        self._emit(self.on_tablet, obj)

    def _reply(self, payload: bytes) -> None:
        try:
            reply = Reply.from_json(payload)
        except ProtocolError as err:
            log.warning("%s: reply ignored: %s", self, err.reason)
            return
        if reply.status not in ("ack", "reject") or not isinstance(reply.ref, str):
            log.warning("%s: reply ignored: type %r, ref %r", self, reply.status, reply.ref)
            return
        flight = self._flight
        ours = flight is not None and flight.envelope.id == reply.ref
        if ours and flight is not None:
            self._sample(flight, reply)
            if flight.hello:
                self._hello_answered(reply)
                return
        env = self.outbox.find(reply.ref)
        if env is None:
            cleared = self.outbox.cleared(reply.ref, reply) if reply.status == "ack" else None
            if cleared is not None:   # a refusal, then a copy accepted: it was logged
                self._emit(self.on_reply, reply, cleared)
                return
            log.debug("%s: reply %s %s to %s: nothing pending", self, reply.status,
                      reply.code, reply.ref)
            return
        if reply.status == "ack":
            self.outbox.done(reply.ref, reply)
            if ours:
                self._flight = None
            self._emit(self.on_reply, reply, env)
            return
        if reply.code in TRANSIENT_CODES:
            log.warning("%s: the hub could not take %s now (%s: %s): sent again later", self,
                        reply.ref, reply.code, reply.reason)
            if flight is not None and ours:
                flight.sent_at = time.monotonic()
            return
        self.outbox.rejected(reply.ref, reply)
        if ours:
            self._flight = None
        log.warning("%s: the hub refused %s %s %s (%s: %s)", self, env.id, env.type, env.body,
                    reply.code, reply.reason)
        self._emit(self.on_reply, reply, env)
        if self.state is not None:  # resynchronise: the hub's state is the truth
            self._emit(self.on_state, self.state)

    def _sample(self, flight: _Flight, reply: Reply) -> None:
        """A clock sample from the reply to the copy in flight (module docstring)."""
        if flight.tries == 1 and reply.timed:
            self.clock_estimate.add(flight.stamped, self.clock(), reply.time)

    def _hello_answered(self, reply: Reply) -> None:
        """The hub answered this connection's hello: events may go. Whatever its answer (a
        hub of an earlier version refuses ``hello`` as ``unknown_type``), its clock counts;
        ``last`` behind what the hub acknowledged: those envelopes go again."""
        self._flight = None
        self._greeted = True
        log.info("%s: hello answered (%s), the hub's clock %s", self, reply.code,
                 _seconds(self.clock_estimate.offset))
        if reply.status != "ack" or reply.log is None:
            return
        if self.outbox.adopt_log(reply.log):   # another log: the history is not its own
            return
        acked = self.outbox.acked()
        if acked is not None and (reply.last is None or reply.last < acked):
            again = self.outbox.resend_after(reply.last)
            log.warning("%s: the hub's log holds this device's events up to seq %s, it had "
                        "acknowledged %d: %d sent again", self, reply.last, acked, len(again))

    def _command(self, payload: bytes) -> None:
        obj = _object(payload, "command")
        if obj is None:
            return
        if obj.get("op") == "resync":
            if self.state is not None:
                self._emit(self.on_state, self.state)
            if self.seat_view is not None:
                self._emit(self.on_seat, self.seat_view)
        self._emit(self.on_command, obj)

    def _hub_status(self, payload: bytes, retained: bool = False) -> None:
        if not payload:
            online = None
        else:
            obj = _object(payload, "hub status")
            if obj is None:
                return
            online = obj.get("online")
            if not isinstance(online, bool):
                log.warning("%s: hub status ignored: online %r", self, online)
                return
            hub_time = obj.get("time")
            if (not retained and not len(self.clock_estimate)
                    and isinstance(hub_time, int | float) and math.isfinite(hub_time)):
                self.clock_estimate.add_one_way(self.clock(), float(hub_time))
        if online and self.hub_online is False:
            self._flight = None   # the hub is back: what was in flight goes again now,
            self._greeted = not self.hello   # after a hello (its log may be another)
        self.hub_online = online
        self._set_connection(self.client.connected.is_set())
