"""The dealing machine's bridge to the hub: each board dealt and each fault, over MQTT.

Events go to ``tenace/v1/dealer/{device}/ev`` as protocol envelopes (docs/protocol.md); the
hub answers each on ``.../reply``. :meth:`HubLink.send` puts the event in an outbox and
returns at once: a sender thread publishes the outbox in order, each event until the hub
answers it, sending it again with the same id every ``timeout`` seconds (the hub takes it
once), so the dealing never waits on a hub that is away and nothing is lost while it is.
:meth:`HubLink.wait` waits a moment for one answer (to tell the operator the director has
been alerted). Sequence numbers start from the clock in milliseconds: a bridge started
again goes on above the numbers of its last run, as the hub requires of a device.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
import uuid
from collections import deque
from typing import Any

from firmware_bridge.dealer import DealerError
from wire.mqtt import MqttClient, MqttError
from wire.protocol import (
    Envelope,
    ProtocolError,
    Reply,
    topic_dealer_event,
    topic_dealer_reply,
    topic_dealer_status,
)

__all__ = ["HubLink", "hub_url"]

log = logging.getLogger(__name__)


def hub_url(text: str) -> str:
    """``HOST[:PORT]`` or an ``mqtt://`` URL -> the broker URL."""
    return text if "://" in text else f"mqtt://{text}"


class HubLink:
    """An MQTT connection speaking for dealing machine ``device`` (module docstring)."""

    def __init__(self, url: str, device: str, *, timeout: float = 3.0):
        self.device = device
        self.timeout = timeout
        self.outbox: deque[Envelope] = deque()
        self.answers: dict[str, Reply] = {}
        self.refused: list[tuple[Envelope, Reply]] = []
        self._seq = int(time.time() * 1000)
        self._run = uuid.uuid4().hex[:8]
        self._changed = threading.Condition()
        self._closing = False
        status = topic_dealer_status(device)
        self._client = MqttClient(
            hub_url(url), f"tenace-dealer-{device}",
            will=(status, json.dumps({"online": False}), 1, True),
            birth=(status, json.dumps({"online": True}), 1, True), start=False)
        self._client.subscribe(topic_dealer_reply(device), 1, wait=False)
        self._client.start()
        try:
            self._client.wait_connected(timeout)
        except MqttError as err:
            self._client.close(farewell=False)
            raise DealerError(f"hub {url}: {err}") from err
        self._sender = threading.Thread(target=self._send_loop, name=f"hub-{device}",
                                        daemon=True)
        self._sender.start()

    @property
    def unanswered(self) -> int:
        """Events the hub has not answered yet."""
        with self._changed:
            return len(self.outbox)

    def send(self, type: str, body: dict[str, Any]) -> Envelope:
        """Queue one event for the hub; returns at once."""
        with self._changed:
            self._seq += 1
            env = Envelope(f"{self.device}-{self._run}-{self._seq}", self.device, self._seq,
                           time.time(), type, body)
            self.outbox.append(env)
            self._changed.notify_all()
        return env

    def wait(self, env: Envelope, timeout: float) -> Reply | None:
        """The hub's answer to ``env``, waiting up to ``timeout`` seconds for it."""
        with self._changed:
            self._changed.wait_for(lambda: env.id in self.answers or self._closing, timeout)
            return self.answers.get(env.id)

    def _send_loop(self) -> None:
        topic = topic_dealer_event(self.device)
        while True:
            with self._changed:
                self._changed.wait_for(lambda: bool(self.outbox) or self._closing)
                if self._closing:
                    return
                env = self.outbox[0]
            sent = Envelope(env.id, env.device, env.seq, env.time, env.type, env.body,
                            sent=max(env.time, time.time()))
            try:
                self._client.publish(topic, sent.to_json(), 1)
            except MqttError as err:
                log.error("event %s not published: %s", env.id, err)
                return
            reply = self._reply_to(env.id)
            if reply is None:
                log.warning("hub did not answer %s %s; sending it again", env.type, env.id)
                continue
            if reply.status != "ack":
                log.error("hub refused %s %s: %s: %s", env.type, env.id, reply.code,
                          reply.reason)
            with self._changed:
                self.outbox.popleft()
                self.answers[env.id] = reply
                if reply.status != "ack":
                    self.refused.append((env, reply))
                self._changed.notify_all()

    def _reply_to(self, ref: str) -> Reply | None:
        end = time.monotonic() + self.timeout
        while (left := end - time.monotonic()) > 0 and not self._closing:
            try:
                message = self._client.messages.get(timeout=min(left, 0.2))
            except queue.Empty:
                continue
            try:
                reply = Reply.from_json(message.payload)
            except ProtocolError as err:
                log.warning("hub reply not understood: %s", err.reason)
                continue
            if reply.ref == ref:
                return reply
        return None

    def settle(self, wait: float) -> int:
        """Wait up to ``wait`` seconds for the hub to answer everything; what is left."""
        with self._changed:
            self._changed.wait_for(lambda: not self.outbox or self._closing, wait)
            return len(self.outbox)

    def close(self, wait: float | None = None) -> None:
        """Give the hub ``wait`` seconds (default ``timeout``) to answer what is left, then
        say offline (idempotent)."""
        self.settle(self.timeout if wait is None else wait)
        with self._changed:
            if self._closing:
                return
            self._closing = True
            left = len(self.outbox)
            self._changed.notify_all()
        self._sender.join(self.timeout + 1)
        if left:
            log.error("%d events never answered by the hub", left)
        self._client.close()

    def __enter__(self) -> HubLink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
