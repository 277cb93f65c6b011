"""Many MQTT clients, and the device links over them, driven by one thread.

A tablet runs one :class:`wire.link.DeviceLink` with its own threads (paho's network thread
and the link's worker). A process that plays a whole room (the simulator, a championship of
a thousand tables) cannot: thousands of threads on two cores starve each other. A
:class:`LinkLoop` is one thread with one :mod:`selectors` selector that drives every
:class:`wire.mqtt.MqttClient` attached to it through paho's external-loop API
(``loop_read``/``loop_write``/``loop_misc`` when the socket is readable, writable, and once
a second; the ``on_socket_open/close/register_write/unregister_write`` callbacks tell it
which socket to watch for what), reconnects them itself with the client's backoff, and runs
timers and calls handed to it from other threads (:meth:`LinkLoop.call_soon`,
:meth:`LinkLoop.call_later`). A ``DeviceLink(..., loop=loop)`` starts no thread of its own:
its messages, its connection changes, its events entered and its reply timeouts all run
its one step on the loop's thread (wire/link.py). Each client keeps its own connection,
client id, account and session: the broker sees exactly the devices it would see without
the loop.

Everything attached to a loop runs on its thread: callbacks must return quickly (a
callback that raises is logged and the loop goes on), and nothing but the loop's own
methods (:meth:`call_soon`, :meth:`call_later`, :meth:`run`) may be called from another
thread on what it drives.

Errors::

    LinkError       (wire.errors) the loop is closed, or a call run on it did not finish
"""

from __future__ import annotations

import collections
import contextlib
import heapq
import itertools
import logging
import selectors
import socket
import ssl
import threading
import time
from collections.abc import Callable
from typing import Any

from paho.mqtt.enums import MQTTErrorCode

from wire.errors import LinkError
from wire.mqtt import MqttClient

__all__ = ["LinkLoop", "Timer"]

log = logging.getLogger(__name__)

_MISC = 1.0   # seconds between paho's loop_misc (keepalive) for every client


class Timer:
    """A call due at ``when`` (``time.monotonic()``) on the loop; :meth:`cancel` drops it."""

    __slots__ = ("args", "callback", "cancelled", "when")

    def __init__(self, when: float, callback: Callable[..., Any], args: tuple[Any, ...]):
        self.when = when
        self.callback = callback
        self.args = args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class _Conn:
    """One client on the loop: its paho client, its socket, its reconnection backoff."""

    __slots__ = ("attempts", "client", "closed", "paho", "retry", "sock")

    def __init__(self, client: MqttClient):
        self.client = client
        self.paho = client._client   # the loop is its network loop (wire.mqtt's own client)
        self.sock: Any = None
        self.attempts = 0
        self.closed = False
        self.retry: Timer | None = None


class LinkLoop:
    """One thread driving many MQTT clients and their links (module docstring)."""

    def __init__(self, name: str = "tenace-links"):
        self.name = name
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._calls: collections.deque[tuple[Callable[..., Any], tuple[Any, ...]]] = \
            collections.deque()
        self._timers: list[tuple[float, int, Timer]] = []
        self._order = itertools.count()
        self._lock = threading.Lock()
        self._conns: dict[int, _Conn] = {}   # id(MqttClient) -> conn
        self._stopping = False
        self._closed = False
        self._thread: threading.Thread | None = None
        self.steps = 0   # loop iterations (for benchmarks)

    # Life cycle ----------------------------------------------------------------------------
    def start(self) -> LinkLoop:
        """Start the loop's thread (idempotent)."""
        if self._closed:
            raise LinkError(f"{self}: closed")
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
            self._thread.start()
        return self

    def close(self, timeout: float = 10.0) -> None:
        """Stop the thread; the clients still attached are dropped without a DISCONNECT
        (close their links first for a clean goodbye). Idempotent."""
        if self._closed:
            return
        self._stopping = True
        self._wake()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        self._closed = True
        for conn in list(self._conns.values()):
            conn.closed = True
            if conn.paho.socket() is not None:
                conn.paho._sock_close()
        self._conns.clear()
        self._selector.close()
        self._wake_r.close()
        self._wake_w.close()

    def __enter__(self) -> LinkLoop:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"LinkLoop({self.name!r}, {len(self._conns)} clients)"

    @property
    def clients(self) -> int:
        """The clients driven (a detached one counts until its DISCONNECT is written)."""
        return len(self._conns)

    def wait_detached(self, timeout: float = 10.0) -> bool:
        """From another thread: True once every client is detached and its DISCONNECT
        written; False after ``timeout``."""
        deadline = time.monotonic() + timeout
        while self._conns:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    @property
    def in_loop(self) -> bool:
        """True on the loop's own thread."""
        return threading.current_thread() is self._thread

    # Calls and timers (any thread) -----------------------------------------------------------
    def call_soon(self, callback: Callable[..., Any], *args: Any) -> None:
        """Run ``callback(*args)`` on the loop's thread, after what is running now."""
        if self._closed:
            raise LinkError(f"{self}: closed")
        self._calls.append((callback, args))
        if not self.in_loop:
            self._wake()

    def call_later(self, delay: float, callback: Callable[..., Any], *args: Any) -> Timer:
        """Run ``callback(*args)`` on the loop's thread in ``delay`` seconds."""
        return self.call_at(time.monotonic() + max(0.0, delay), callback, *args)

    def call_at(self, when: float, callback: Callable[..., Any], *args: Any) -> Timer:
        """Run ``callback(*args)`` on the loop's thread at ``when`` (``time.monotonic()``)."""
        if self._closed:
            raise LinkError(f"{self}: closed")
        timer = Timer(when, callback, args)
        with self._lock:
            first = not self._timers or when < self._timers[0][0]
            heapq.heappush(self._timers, (when, next(self._order), timer))
        if first and not self.in_loop:
            self._wake()
        return timer

    def run(self, callback: Callable[..., Any], *args: Any, timeout: float = 30.0) -> Any:
        """``callback(*args)`` run on the loop's thread, its result returned here (at once
        on the loop's thread, or when the loop has not started); LinkError after
        ``timeout``; the callback's exception raised here."""
        if self.in_loop or self._thread is None:
            return callback(*args)
        done = threading.Event()
        outcome: list[Any] = []

        def call() -> None:
            try:
                outcome.append((True, callback(*args)))
            except BaseException as err:  # handed to the caller
                outcome.append((False, err))
            finally:
                done.set()
        self.call_soon(call)
        if not done.wait(timeout):
            raise LinkError(f"{self}: {callback!r} did not finish within {timeout} s")
        ok, value = outcome[0]
        if not ok:
            raise value
        return value

    def _wake(self) -> None:
        # OSError: a wake-up is already pending (the buffer is full), or the loop is closing
        with contextlib.suppress(OSError):
            self._wake_w.send(b"\0")

    # Clients (the loop's thread; run() from another) ------------------------------------------
    def attach(self, client: MqttClient) -> None:
        """Drive ``client`` (created with ``start=False``, never started): connect it now
        and reconnect it whenever its connection is lost, until :meth:`detach`."""
        if not self.in_loop and self._thread is not None:
            self.run(self.attach, client)
            return
        if client.closed or client._started:
            raise LinkError(f"{client}: closed or already started on its own thread")
        conn = _Conn(client)
        paho = conn.paho
        opened = paho.on_socket_open
        paho.on_socket_open = lambda c, u, sock: self._opened(conn, opened, c, u, sock)
        paho.on_socket_close = lambda c, u, sock: self._closed_socket(conn, sock)
        paho.on_socket_register_write = lambda c, u, sock: self._want_write(conn, sock, True)
        paho.on_socket_unregister_write = lambda c, u, sock: self._want_write(conn, sock,
                                                                              False)
        self._conns[id(client)] = conn
        address = client.address
        paho.connect_async(address.host, address.port, client._keepalive)
        self._connect(conn)

    def detach(self, client: MqttClient, *, farewell: bool = True) -> None:
        """Close ``client`` (:meth:`MqttClient.close`: a DISCONNECT, after its farewell when
        ``farewell`` and connected) and stop driving it once that is written."""
        if not self.in_loop and self._thread is not None:
            self.run(lambda: self.detach(client, farewell=farewell))
            return
        conn = self._conns.get(id(client))
        if conn is None:
            client.close(farewell=False)
            return
        conn.closed = True
        if conn.retry is not None:
            conn.retry.cancel()
        if farewell and client.farewell is not None and client.connected.is_set():
            topic, payload, qos, retain = client.farewell
            client._publish(topic, payload, qos, retain)   # not waited for: the loop is us
        client.close(farewell=False)   # queues the DISCONNECT; paho closes the socket after it
        if conn.sock is None:
            self._conns.pop(id(client), None)
        else:
            self.call_later(5.0, self._drop, conn)   # a DISCONNECT that cannot be written

    def _drop(self, conn: _Conn) -> None:
        if conn.sock is not None:
            conn.paho._sock_close()
        self._conns.pop(id(conn.client), None)

    def _connect(self, conn: _Conn) -> None:
        conn.retry = None
        if conn.closed or self._stopping:
            return
        try:
            conn.paho.reconnect()
        except (OSError, ssl.SSLError):   # the broker is down, refused the TLS, ...
            conn.client._handle_connect_fail(conn.paho, None)   # reads the error handled
            conn.paho._sock_close()
            self._retry(conn)

    def _retry(self, conn: _Conn) -> None:
        """Connect again after the client's backoff (paho's reconnect_delay_set)."""
        low, high = conn.paho._reconnect_min_delay, conn.paho._reconnect_max_delay
        delay = min(high, low * 2 ** min(conn.attempts, 16))
        conn.attempts += 1
        conn.retry = self.call_later(delay, self._connect, conn)

    def _opened(self, conn: _Conn, opened: Any, client: Any, userdata: Any, sock: Any) -> None:
        if opened is not None:
            opened(client, userdata, sock)   # MqttClient's: TCP_NODELAY
        conn.sock = sock
        self._selector.register(sock, selectors.EVENT_READ, conn)

    def _closed_socket(self, conn: _Conn, sock: Any) -> None:
        conn.sock = None
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(sock)
        if conn.closed:
            self._conns.pop(id(conn.client), None)
            return
        # Lost: again after the backoff (started again when the connection was complete).
        if conn.client.connected.is_set():
            conn.attempts = 0
        if conn.retry is None:
            self._retry(conn)

    def _want_write(self, conn: _Conn, sock: Any, write: bool) -> None:
        if not self.in_loop and self._thread is not None:
            self.call_soon(self._want_write, conn, sock, write)
            return
        if conn.sock is not sock:
            return
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if write else 0)
        with contextlib.suppress(KeyError, ValueError):
            self._selector.modify(sock, events, conn)

    # The loop ------------------------------------------------------------------------------
    def _run(self) -> None:
        next_misc = time.monotonic() + _MISC
        while not self._stopping:
            try:
                next_misc = self._once(next_misc)
            except Exception:  # the loop must outlive any bug
                log.exception("%s: step failed", self)

    def _once(self, next_misc: float) -> float:
        self.steps += 1
        now = time.monotonic()
        timeout = next_misc - now
        with self._lock:
            if self._timers:
                timeout = min(timeout, self._timers[0][0] - now)
        if self._calls:
            timeout = 0.0
        for key, mask in self._selector.select(max(0.0, timeout)):
            conn = key.data
            if conn is None:
                try:
                    while self._wake_r.recv(4096):
                        pass
                except (BlockingIOError, OSError):
                    pass
                continue
            self._io(conn, key.fileobj, mask)
        for _ in range(len(self._calls)):
            callback, args = self._calls.popleft()
            self._call(callback, args)
        now = time.monotonic()
        while True:
            with self._lock:
                if not self._timers or self._timers[0][0] > now:
                    break
                timer = heapq.heappop(self._timers)[2]
            if not timer.cancelled:
                self._call(timer.callback, timer.args)
        if now >= next_misc:
            for conn in list(self._conns.values()):
                if conn.sock is not None:
                    conn.paho.loop_misc()
            next_misc = now + _MISC
        return next_misc

    def _io(self, conn: _Conn, sock: Any, mask: int) -> None:
        paho = conn.paho
        if mask & selectors.EVENT_READ:
            rc = paho.loop_read()
            while (rc == MQTTErrorCode.MQTT_ERR_SUCCESS and isinstance(sock, ssl.SSLSocket)
                   and conn.sock is sock and sock.pending()):
                rc = paho.loop_read()   # TLS holds decrypted bytes the selector cannot see
        if mask & selectors.EVENT_WRITE and conn.sock is sock:
            paho.loop_write()

    def _call(self, callback: Callable[..., Any], args: tuple[Any, ...]) -> None:
        try:
            callback(*args)
        except Exception:
            log.exception("%s: %r failed", self, callback)
