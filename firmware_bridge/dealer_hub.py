"""The dealing machine's bridge to the hub: each board dealt and each fault, over MQTT.

:class:`HubLink` is the dealing machine's side of :class:`wire.link.DeviceLink`, the one link
every Tenace device uses, on the dealer topics: events go to ``tenace/v1/dealer/{device}/ev``
as protocol envelopes (docs/protocol.md), the hub answers each on ``.../reply``.
:meth:`HubLink.send` puts the event in the link's outbox and returns at once: the link
publishes the outbox in order, one event in flight, each until the hub answers it, sending
it again with the same id every ``timeout`` seconds (the hub takes it once), so the dealing
never waits on a hub that is away and nothing is lost while it is. :meth:`HubLink.wait`
waits a moment for one answer (to tell the operator the director has been alerted). The
outbox is in memory, its numbering starting from the clock in milliseconds: a bridge
started again goes on above the numbers of its last run, as the hub requires of a device.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from firmware_bridge.errors import DealerError
from wire.errors import MqttError
from wire.link import DeviceLink
from wire.outbox import Outbox
from wire.protocol import DEALER_EVENT_TYPES, Envelope, Reply

__all__ = ["HubLink", "hub_url"]

log = logging.getLogger(__name__)


def hub_url(text: str) -> str:
    """``HOST[:PORT]`` or an ``mqtt://`` URL -> the broker URL."""
    return text if "://" in text else f"mqtt://{text}"


class HubLink:
    """An MQTT connection speaking for dealing machine ``device`` (module docstring).
    :class:`firmware_bridge.errors.DealerError` when the broker cannot be reached within
    ``timeout`` seconds."""

    def __init__(self, url: str, device: str, *, timeout: float = 3.0):
        self.device = device
        self.timeout = timeout
        self.answers: dict[str, Reply] = {}
        self.refused: list[tuple[Envelope, Reply]] = []
        self._changed = threading.Condition()
        self._closing = False
        outbox = Outbox(":memory:", device, types=DEALER_EVENT_TYPES,
                        first_seq=int(time.time() * 1000))
        try:
            self.link = DeviceLink(hub_url(url), None, device, outbox=outbox, kind="dealer",
                                   reply_timeout=timeout,
                                   on_reply=self._answered)
        except BaseException:
            outbox.close()
            raise
        try:
            self.link.client.wait_connected(timeout)
        except MqttError as err:
            self.link.close(farewell=False)
            outbox.close()
            raise DealerError(f"hub {url}: {err}") from err

    def _answered(self, reply: Reply, env: Envelope) -> None:
        """The hub's final answer to ``env`` (on the link's worker)."""
        if reply.status != "ack":
            log.error("hub refused %s %s: %s: %s", env.type, env.id, reply.code, reply.reason)
        with self._changed:
            self.answers[env.id] = reply
            if reply.status != "ack":
                self.refused.append((env, reply))
            self._changed.notify_all()

    @property
    def outbox(self) -> Outbox:
        """The events not answered yet, in order (in memory)."""
        return self.link.outbox

    @property
    def unanswered(self) -> int:
        """Events the hub has not answered yet."""
        return self.link.pending

    def send(self, type: str, body: dict[str, Any]) -> Envelope:
        """Queue one event for the hub; returns at once."""
        return self.link.send(type, body)

    def wait(self, env: Envelope, timeout: float) -> Reply | None:
        """The hub's answer to ``env``, waiting up to ``timeout`` seconds for it."""
        with self._changed:
            self._changed.wait_for(lambda: env.id in self.answers or self._closing, timeout)
            return self.answers.get(env.id)

    def settle(self, wait: float) -> int:
        """Wait up to ``wait`` seconds for the hub to answer everything; what is left."""
        if not self._closing:
            self.link.wait_delivered(wait)
        return self.unanswered

    def close(self, wait: float | None = None) -> None:
        """Give the hub ``wait`` seconds (default ``timeout``) to answer what is left, then
        say offline (idempotent)."""
        if self._closing:
            return
        left = self.settle(self.timeout if wait is None else wait)
        with self._changed:
            self._closing = True
            self._changed.notify_all()
        if left:
            log.error("%d events never answered by the hub", left)
        self.link.close()
        self.link.outbox.close()

    def __enter__(self) -> HubLink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
