"""A small TCP proxy between simulated devices and their MQTT broker, to break the network
on purpose (``tenace sim --chaos``).

:class:`Proxies` runs one asyncio loop on a thread of its own; :meth:`Proxies.add` opens a
:class:`Proxy` on a free loopback port that forwards every connection to the broker. A
table's devices connect through their table's proxy (:meth:`Proxy.url`), so that one table
can lose its network while the others play:

* :meth:`Proxy.cut` drops every connection at once and refuses new ones (accepted and
  closed at once, as a dead access point would) until :meth:`Proxy.restore`, or for a given
  time: the MQTT client notices, reconnects through the proxy, and gets through again once
  the cut is over;
* :meth:`Proxy.stall` makes the network go silent instead: the connections stay open and
  every byte either way is read and dropped (a Wi-Fi that stops carrying traffic, which TCP
  and the MQTT client only notice when their keepalive runs out), until :meth:`Proxy.cut`;
* ``duplicate``: each MQTT PUBLISH a device sends is sent twice to the broker at that rate
  (the copy with the DUP flag, as a client resending it would: the same packet id, the
  same envelope);
* ``delay``: each packet from a device waits a random time in that range before it goes on
  (in order: TCP keeps it).

The proxy reads the device's byte stream as MQTT packets only to find where each packet
ends (the fixed header's remaining length); the broker's side is forwarded as it comes.
Nothing here knows about Tenace's messages. Counters (:attr:`Proxy.stats`) say what was
done. Seeded: the duplicates and delays are drawn from a ``random.Random`` given by the
caller.

Errors: :class:`ProxyError` (a RuntimeError) when the loop cannot start or a port cannot be
opened.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import threading
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

__all__ = ["Proxies", "Proxy", "ProxyError", "ProxyStats", "split_packets"]

log = logging.getLogger(__name__)

T = TypeVar("T")

_PUBLISH = 3
_CHUNK = 65536


class ProxyError(RuntimeError):
    """The proxy's loop or port could not be set up (says which)."""


@dataclass(slots=True)
class ProxyStats:
    """What one proxy did: connections taken and refused, cuts, copies and delays."""

    connections: int = 0
    refused: int = 0       # connections accepted and closed at once during a cut
    dropped: int = 0       # connections cut while open
    cuts: int = 0
    published: int = 0     # PUBLISH packets from the devices, forwarded
    duplicated: int = 0    # of which sent twice
    delayed: int = 0       # packets held back before they went on
    dropped_bytes: int = 0  # bytes read and dropped while stalled


def split_packets(buffer: bytearray) -> list[bytes]:
    """Take the complete MQTT packets off the front of ``buffer`` (fixed header: a type
    byte, then the remaining length in 1-4 bytes of 7 bits each); what is left is an
    incomplete packet. ValueError for a remaining length longer than four bytes."""
    packets: list[bytes] = []
    while len(buffer) >= 2:
        length = 0
        shift = 0
        at = 1
        while True:
            if at >= len(buffer):
                return packets
            byte = buffer[at]
            length |= (byte & 0x7F) << shift
            at += 1
            if not byte & 0x80:
                break
            shift += 7
            if at > 4:
                raise ValueError("an MQTT remaining length of more than four bytes")
        end = at + length
        if len(buffer) < end:
            return packets
        packets.append(bytes(buffer[:end]))
        del buffer[:end]
    return packets


def _dup(packet: bytes) -> bytes:
    """A PUBLISH packet as a resend of it: the DUP flag set when its QoS is above 0."""
    first = packet[0]
    if (first >> 1) & 0x03:
        return bytes([first | 0x08]) + packet[1:]
    return packet


class Proxy:
    """One proxy port in front of the broker (module docstring); made by :meth:`Proxies.add`."""

    def __init__(self, owner: Proxies, name: str, target: tuple[str, int],
                 rng: random.Random, duplicate: float, delay: tuple[float, float]):
        self.owner = owner
        self.name = name
        self.target = target
        self.rng = rng
        self.duplicate = duplicate
        self.delay = delay
        self.stats = ProxyStats()
        self.port = 0
        self._cut = False
        self._stalled = False
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._restore: asyncio.TimerHandle | None = None

    def url(self, broker_url: str) -> str:
        """``broker_url`` with this proxy's address instead of the broker's (credentials,
        scheme and query kept)."""
        parts = urlsplit(broker_url)
        auth, _, _ = parts.netloc.rpartition("@")
        netloc = f"{auth + '@' if auth else ''}127.0.0.1:{self.port}"
        return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))

    @property
    def is_cut(self) -> bool:
        return self._cut

    # Called from any thread ------------------------------------------------------------------
    def cut(self, seconds: float | None = None) -> None:
        """Drop every connection and refuse new ones; for ``seconds`` (None: until
        :meth:`restore`)."""
        self.owner.call(self._do_cut(seconds))

    def restore(self) -> None:
        """Let connections through again."""
        self.owner.call(self._do_restore())

    def stall(self) -> None:
        """Go silent: the connections stay open, every byte is dropped, until :meth:`cut`."""
        self.owner.call(self._do_stall())

    # On the loop ------------------------------------------------------------------------------
    async def _start(self) -> None:
        self._server = await asyncio.start_server(self._connection, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _do_stall(self) -> None:
        if not self._stalled:
            log.info("proxy %s: stalled", self.name)
        self._stalled = True

    async def _do_cut(self, seconds: float | None) -> None:
        self._stalled = False
        if self._restore is not None:
            self._restore.cancel()
            self._restore = None
        if not self._cut:
            self.stats.cuts += 1
            log.info("proxy %s: cut", self.name)
        self._cut = True
        for writer in list(self._writers):
            self.stats.dropped += 1
            writer.transport.abort()
        if seconds is not None:
            loop = asyncio.get_running_loop()
            self._restore = loop.call_later(seconds, self._restored)

    async def _do_restore(self) -> None:
        if self._restore is not None:
            self._restore.cancel()
        self._restored()

    def _restored(self) -> None:
        self._restore = None
        if self._cut:
            log.info("proxy %s: restored", self.name)
        self._cut = False

    async def _stop(self) -> None:
        if self._restore is not None:
            self._restore.cancel()
        if self._server is not None:
            self._server.close()
        for writer in list(self._writers):
            writer.transport.abort()
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2.0)

    async def _connection(self, reader: asyncio.StreamReader,
                          writer: asyncio.StreamWriter) -> None:
        if self._cut:
            self.stats.refused += 1
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError as err:   # the broker is down: so is this connection
            log.debug("proxy %s: broker unreachable: %s", self.name, err)
            writer.transport.abort()
            return
        self.stats.connections += 1
        self._writers |= {writer, up_writer}
        try:
            await asyncio.gather(self._from_device(reader, up_writer),
                                 self._forward(up_reader, writer))
        except asyncio.CancelledError:   # the proxies closing: asyncio would log it
            pass
        finally:
            self._writers -= {writer, up_writer}
            for w in (writer, up_writer):
                w.transport.abort()

    async def _from_device(self, reader: asyncio.StreamReader,
                           writer: asyncio.StreamWriter) -> None:
        buffer = bytearray()
        try:
            while data := await reader.read(_CHUNK):
                if self._stalled:
                    self.stats.dropped_bytes += len(data)
                    continue
                buffer += data
                for packet in split_packets(buffer):
                    await self._send(packet, writer)
        except (OSError, ValueError, asyncio.IncompleteReadError) as err:
            log.debug("proxy %s: device side: %s", self.name, err)
        finally:
            writer.transport.abort()

    async def _send(self, packet: bytes, writer: asyncio.StreamWriter) -> None:
        lo, hi = self.delay
        if hi > 0:
            wait = self.rng.uniform(lo, hi)
            if wait > 0:
                self.stats.delayed += 1
                await asyncio.sleep(wait)
        writer.write(packet)
        if packet[0] >> 4 == _PUBLISH:
            self.stats.published += 1
            if self.duplicate > 0 and self.rng.random() < self.duplicate:
                self.stats.duplicated += 1
                writer.write(_dup(packet))
        await writer.drain()

    async def _forward(self, reader: asyncio.StreamReader,
                       writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(_CHUNK):
                if self._stalled:
                    self.stats.dropped_bytes += len(data)
                    continue
                writer.write(data)
                await writer.drain()
        except OSError as err:
            log.debug("proxy %s: broker side: %s", self.name, err)
        finally:
            writer.transport.abort()


async def _cancel_all() -> None:
    """Cancel every task of the running loop but this one, and wait for them."""
    tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


class Proxies:
    """The loop that runs every :class:`Proxy` (module docstring); a context manager."""

    def __init__(self, target: tuple[str, int]):
        self.target = target
        self.proxies: dict[str, Proxy] = {}
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="sim-proxies",
                                        daemon=True)
        self._thread.start()

    def call(self, coroutine: Coroutine[Any, Any, T], timeout: float = 10.0) -> T:
        """Run ``coroutine`` on the proxies' loop and wait for its result."""
        if not self._thread.is_alive():
            coroutine.close()
            raise ProxyError("the proxies' loop is not running")
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout)

    def add(self, name: str, *, rng: random.Random | None = None, duplicate: float = 0.0,
            delay: tuple[float, float] = (0.0, 0.0)) -> Proxy:
        """A new proxy on a free loopback port (see the module docstring)."""
        if not 0.0 <= duplicate <= 1.0:
            raise ValueError(f"duplicate is a rate from 0 to 1, not {duplicate}")
        if delay[0] < 0 or delay[1] < delay[0]:
            raise ValueError(f"delay is a range of seconds (low, high), not {delay}")
        proxy = Proxy(self, name, self.target, rng or random.Random(name), duplicate, delay)
        try:
            self.call(proxy._start())
        except OSError as err:
            raise ProxyError(f"proxy {name}: cannot listen: {err}") from err
        self.proxies[name] = proxy
        return proxy

    def close(self) -> None:
        """Close every proxy and stop the loop (idempotent)."""
        if not self._thread.is_alive():
            return
        for proxy in self.proxies.values():
            with contextlib.suppress(Exception):
                self.call(proxy._stop(), 5.0)
        with contextlib.suppress(Exception):
            self.call(_cancel_all(), 5.0)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5.0)
        if not self._thread.is_alive():
            self._loop.close()

    def __enter__(self) -> Proxies:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
