"""The embedded broker's own limits (issue 23: one 64 MB publish grew it by 139-262 MB; one
seat tablet's flood of 10,000 events stalled every table), as Mosquitto's configuration
(deploy/mosquitto.conf) has them. amqtt 0.12 has no setting for any of them, so the broker
process (hub.broker, and only it) installs them here:

* :data:`MAX_PACKET` (1 MiB, Mosquitto's ``max_packet_size``): a packet whose fixed header
  announces more is refused before one byte of its body is read, and the client's
  connection closed (:func:`limit_packet_size`); the log says so in one line;
* :data:`MAX_INFLIGHT` (20, ``max_inflight_messages``): the publications of one client the
  broker handles at once; the others wait their turn, so a flooding client shares the
  broker's loop with the others instead of taking it (:func:`limit_inflight`); a client
  holding that many QoS 2 publications without their PUBREL (amqtt keeps each for ever)
  has its connection closed at the next one;
* :data:`MAX_QUEUED` (10,000, ``max_queued_messages``) and :data:`MAX_QUEUED_BYTES` (64 MiB,
  ``max_queued_bytes``): the messages kept for a client that is away; more are dropped
  (counted, logged on the 1st, 10th, 100th ...), as Mosquitto does (:class:`QueueLimit`).
  Without the bytes, a seat's credentials sending 1 MiB events while the hub restarted
  queued 300 MB for it in a few seconds, on either broker (audit ``auditsec``);
* :data:`CONNECTIONS` a :data:`CONNECTION_WINDOW` from one address: a client reconnecting
  faster is closed before its CONNECT is read (:class:`ConnectionRate`). Loopback is not
  counted: the hub itself, and the simulator and tools on the hub's machine;
* :data:`CONNECT_DEADLINE` (10 s): a connection that has not sent its whole CONNECT by then
  is closed (hub.broker). amqtt waited for it for ever, so a phone opening connections
  and sending nothing (or half a CONNECT) kept every one, 60 every 10 s, until the broker
  process ran out of file descriptors and no device could connect (audit ``auditsec``);
  with the deadline one address holds at most about :data:`CONNECTIONS` such connections;
* :data:`MAX_SUBSCRIPTIONS` (32) filters a client may hold (the hub's and its shards' aside),
  and a device's may not overlap (hub.broker ``_Access.refusal``): amqtt sends one copy of a
  message per matching filter, Mosquitto one in all; a refused one is counted by client and
  logged on the 1st, 10th, 100th ... (:class:`Refusals`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
import time
from collections import deque
from collections.abc import Callable
from typing import Any

__all__ = ["BROKER_PER_ADDRESS", "CONNECTIONS", "CONNECTION_WINDOW", "CONNECT_DEADLINE",
           "MAX_INFLIGHT", "MAX_PACKET", "MAX_QUEUED", "MAX_QUEUED_BYTES", "MAX_SUBSCRIPTIONS",
           "PER_ADDRESS", "TOTAL", "ConnectionLimit", "ConnectionRate", "PacketTooLarge",
           "QueueLimit", "Refusals", "limit_inflight", "limit_packet_size", "listening"]

log = logging.getLogger(__name__)

MAX_PACKET = 1024 * 1024
MAX_INFLIGHT = 20
MAX_QUEUED = 10_000
MAX_QUEUED_BYTES = 64 * 1024 * 1024
CONNECTIONS = 60
CONNECTION_WINDOW = 10.0
CONNECT_DEADLINE = 10.0
MAX_SUBSCRIPTIONS = 32
PER_ADDRESS = 64        # a server's connections open at once from one address (the console)
TOTAL = 512             # ... from every address but loopback (file descriptors: 1024)
BROKER_PER_ADDRESS = 256   # the embedded broker's, loopback spared (a simulator's devices)


class PacketTooLarge(Exception):
    """A client announced a packet over :data:`MAX_PACKET`: its connection is closed (amqtt
    logs an unknown exception in its reader as one line and closes)."""


def power_of_ten(n: int) -> bool:
    while n % 10 == 0:
        n //= 10
    return n == 1


def limit_packet_size(header_class: Any, limit: int = MAX_PACKET) -> None:
    """Make amqtt's fixed header reader refuse a packet over ``limit`` bytes as soon as its
    remaining length is read (``header_class``: ``amqtt.mqtt.packet.MQTTFixedHeader``)."""
    read = header_class.from_stream.__func__
    if getattr(read, "tenace_limit", None) is not None:
        return

    async def from_stream(cls: Any, reader: Any) -> Any:
        header = await read(cls, reader)
        if header is not None and header.remaining_length > limit:
            raise PacketTooLarge(f"a packet of {header.remaining_length} bytes announced, "
                                 f"limit {limit}: connection closed")
        return header

    from_stream.tenace_limit = limit   # type: ignore[attr-defined]
    header_class.from_stream = classmethod(from_stream)


def limit_inflight(handler_class: Any, limit: int = MAX_INFLIGHT) -> None:
    """At most ``limit`` publications of one client handled at once
    (``handler_class``: amqtt's ``ProtocolHandler``; one semaphore per connection)."""
    handle = handler_class.handle_publish
    if getattr(handle, "tenace_limit", None) is not None:
        return

    async def handle_publish(self: Any, packet: Any) -> None:
        gate = self.__dict__.get("_tenace_inflight")
        if gate is None:
            gate = self.__dict__["_tenace_inflight"] = asyncio.Semaphore(limit)
        if getattr(packet, "qos", 0) != 2:
            async with gate:
                await handle(self, packet)
            return
        # amqtt keeps a QoS 2 publication until its PUBREL, for ever: a seat's credentials
        # sending 1 MB ones without PUBREL grew the broker by 400 MB in 400 (audit auditsec).
        held = self.__dict__.get("_tenace_qos2", 0)
        if held >= limit:
            client = getattr(getattr(self, "session", None), "client_id", None)
            log.warning("client %.64r holds %d QoS 2 publications without their PUBREL: "
                        "connection closed", client, held)
            with contextlib.suppress(Exception):
                if self.writer is not None:
                    await self.writer.close()
            return
        self.__dict__["_tenace_qos2"] = held + 1
        try:
            async with gate:
                await handle(self, packet)
        finally:
            self.__dict__["_tenace_qos2"] -= 1

    handle_publish.tenace_limit = limit   # type: ignore[attr-defined]
    handler_class.handle_publish = handle_publish


class QueueLimit:
    """How many messages are dropped, by client, for a queue of an away client full."""

    def __init__(self, limit: int = MAX_QUEUED, max_bytes: int = MAX_QUEUED_BYTES):
        self.limit = limit
        self.max_bytes = max_bytes
        self.dropped: dict[str, int] = {}
        self.bytes: dict[str, int] = {}     # client -> bytes of its queue

    def full(self, client_id: str, queued: int, size: int = 0) -> bool:
        """Whether a message of ``size`` bytes for ``client_id`` (``queued`` waiting
        already) is dropped; if not, its bytes are counted until :meth:`sent`."""
        held = self.bytes.get(client_id, 0) if queued else 0
        if queued < self.limit and held + size <= self.max_bytes:
            if len(self.bytes) > 10_000 and client_id not in self.bytes:
                self.bytes.clear()
            self.bytes[client_id] = held + size
            return False
        count = self.dropped.get(client_id, 0) + 1
        self.dropped[client_id] = count
        if power_of_ten(count):
            log.warning("client %.64r is away with %d messages (%d bytes) queued: %d dropped",
                        client_id, queued, held, count)
        return True

    def sent(self, client_id: str, size: int) -> None:
        """A queued message of ``size`` bytes left the queue (delivered)."""
        self.bytes[client_id] = max(0, self.bytes.get(client_id, 0) - size)


class Refusals:
    """What a client was refused, counted by client; logged on the 1st, 10th, 100th ..."""

    def __init__(self, what: str):
        self.what = what
        self.refused: dict[str, int] = {}

    def refuse(self, client_id: str, reason: str) -> None:
        count = self.refused.get(client_id, 0) + 1
        self.refused[client_id] = count
        if power_of_ten(count):
            log.warning("%s of client %.64r refused: %s (%d refused)", self.what, client_id,
                        reason, count)


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return address == "localhost"


class ConnectionRate:
    """Connections from one address in a sliding window."""

    def __init__(self, limit: int = CONNECTIONS, window: float = CONNECTION_WINDOW,
                 clock: Callable[[], float] = time.monotonic):
        self.limit = limit
        self.window = window
        self.clock = clock
        self._seen: dict[str, deque[float]] = {}
        self.refused: dict[str, int] = {}

    def allow(self, address: str) -> bool:
        if _loopback(address):
            return True
        now = self.clock()
        if len(self._seen) > 10_000:
            self._seen.clear()
        times = self._seen.setdefault(address, deque())
        while times and now - times[0] > self.window:
            times.popleft()
        if len(times) >= self.limit:
            count = self.refused.get(address, 0) + 1
            self.refused[address] = count
            if power_of_ten(count):
                log.warning("%s connects more than %d times in %g s: %d connection(s) "
                            "closed", address, self.limit, self.window, count)
            return False
        times.append(now)
        return True


class ConnectionLimit:
    """How many connections a server holds at once (module docstring): ``per_address`` from
    one address, ``total`` from all addresses but loopback (the hub's own machine, where the
    director may sit, is never refused for what others opened)."""

    def __init__(self, per_address: int = PER_ADDRESS, total: int = TOTAL, *,
                 spare_loopback: bool = False):
        self.per_address = per_address
        self.total = total
        self.spare_loopback = spare_loopback   # loopback never counted (the broker's)
        self.open: dict[str, int] = {}
        self.refused: dict[str, int] = {}
        self._remote = 0
        self._held: dict[int, str] = {}

    def admit(self, key: int, address: str) -> bool:
        """Whether connection ``key`` (its id) from ``address`` may be served; if so it is
        counted until :meth:`release`."""
        loopback = _loopback(address)
        if loopback and self.spare_loopback:
            return True
        if self.open.get(address, 0) >= self.per_address or (
                not loopback and self._remote >= self.total):
            count = self.refused.get(address, 0) + 1
            self.refused[address] = count
            if len(self.refused) > 10_000:
                self.refused.clear()
            if power_of_ten(count):
                log.warning("%s holds %d connections (%d from every address): %d refused",
                            address, self.open.get(address, 0), self._remote, count)
            return False
        self.open[address] = self.open.get(address, 0) + 1
        self._remote += not loopback
        self._held[key] = address
        return True

    def release(self, key: int) -> None:
        address = self._held.pop(key, None)
        if address is None:
            return
        self._remote -= not _loopback(address)
        left = self.open[address] - 1
        if left:
            self.open[address] = left
        else:
            del self.open[address]


class _Counted(socket.socket):
    """An accepted connection, released from its :class:`ConnectionLimit` when closed."""

    limit: ConnectionLimit | None = None

    def close(self) -> None:
        limit, self.limit = self.limit, None
        if limit is not None:
            limit.release(id(self))
        super().close()


class _Listener(socket.socket):
    """A listening socket that counts what it accepts (:class:`ConnectionLimit`) before any
    byte is read, a TLS handshake included (asyncio gives one 60 s before aiohttp sees the
    connection): one over the limit is closed at once, told 503 first over plain HTTP."""

    limit: ConnectionLimit
    busy: bytes

    def accept(self) -> tuple[socket.socket, Any]:
        while True:    # a refused one: the next (BlockingIOError when none is waiting)
            conn, address = super().accept()
            counted = _Counted(conn.family, conn.type, conn.proto, fileno=conn.detach())
            host = str(address[0]) if isinstance(address, tuple) and address else ""
            if self.limit.admit(id(counted), host):
                counted.limit = self.limit
                return counted, address
            with contextlib.suppress(OSError):
                if self.busy:
                    counted.send(self.busy)
            counted.close()


def listening(host: str, port: int, limit: ConnectionLimit, busy: bytes = b"") -> socket.socket:
    """A listening socket on ``host``:``port`` that counts what it accepts in ``limit``
    (:class:`_Listener`); ``busy`` is sent to a connection refused (plain HTTP's 503).
    OSError worded as asyncio's when the address is taken."""
    family, kind, proto, _name, address = socket.getaddrinfo(
        host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    sock = _Listener(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
        except OSError as err:     # worded as asyncio's (tenace's commands show it)
            raise OSError(err.errno, f"error while attempting to bind on address "
                                     f"{address!r}: {str(err.strerror).lower()}") from None
        sock.listen(128)
        sock.setblocking(False)
    except BaseException:
        sock.close()
        raise
    sock.limit, sock.busy = limit, busy
    return sock
