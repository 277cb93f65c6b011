"""An MQTT 3.1.1 client for the hub, its tools and the table devices (paho-mqtt 2.x).

What every Tenace client does the same way (docs/protocol.md, "Delivery"):

- a persistent session (clean session false, a fixed client id), so QoS 1 messages published
  while it was away are delivered when it comes back;
- automatic reconnection with exponential backoff;
- on every (re)connection it subscribes again to all its filters, waits for the SUBACK, and
  only then publishes its birth message; its last will is set at connection;
- received messages leave paho's network thread at once, as :class:`Message` values, for one
  owner: the thread-safe queue :attr:`MqttClient.messages`, or a callback run on an asyncio
  loop through ``loop.call_soon_threadsafe``. No domain logic runs on the network thread, and
  nothing a broker sends (bad bytes included) can raise there.

Credentials: ``mqtt://user:password@host:port`` (the username is the client id: the broker
binds them, hub/access.py). A URL without a user takes the client id's password from the
keyring file named by the environment variable ``TENACE_MQTT_KEYRING`` (JSON {client id:
password}, mode 0600), if there is one: a process that runs many devices (the simulator, the
tests) keeps their credentials there. Passwords are never logged.

Errors::

    HubError (hub.store)
    └── MqttError            no acknowledgement in time, subscription refused, client closed
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import queue
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any
from urllib.parse import unquote, urlsplit

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode

from wire.errors import MqttError

__all__ = [
    "DEFAULT_PORT", "KEYRING_ENV", "BrokerAddress", "Delivery", "Message", "MqttClient",
    "MqttError", "Will", "check_filter", "keyring_password", "parse_url",
]

log = logging.getLogger(__name__)

DEFAULT_PORT = 1883
KEYRING_ENV = "TENACE_MQTT_KEYRING"


class _DropNoise(logging.Filter):
    """paho 2.2 logs "Client is not connected" at ERROR after every clean disconnect (its
    network loop runs once more without a socket): drop that line."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Client is not connected")


_paho_log = logging.getLogger(f"{__name__}.paho")
_paho_log.addFilter(_DropNoise())

Will = tuple[str, bytes | str, int, bool]
"""A last will or a birth message: (topic, payload, qos, retain)."""


@dataclass(frozen=True, slots=True)
class Message:
    """One received message, exactly as the broker sent it (``payload`` is raw bytes)."""

    topic: str
    payload: bytes
    qos: int = 0
    retain: bool = False


@dataclass(frozen=True, slots=True)
class BrokerAddress:
    """Where to connect: from ``mqtt://[user[:password]@]host[:port]``."""

    host: str
    port: int = DEFAULT_PORT
    username: str | None = None
    password: str | None = None

    def __repr__(self) -> str:  # never show the password
        return f"BrokerAddress(host={self.host!r}, port={self.port}, username={self.username!r})"


def parse_url(url: str) -> BrokerAddress:
    """Parse ``mqtt://host[:port]`` (port 1883 by default); ValueError naming the URL."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as err:
        raise ValueError(f"bad MQTT broker URL {url!r}: {err}") from None
    if parts.scheme != "mqtt":
        raise ValueError(f"bad MQTT broker URL {url!r}: the scheme must be mqtt://")
    if not parts.hostname:
        raise ValueError(f"bad MQTT broker URL {url!r}: no host")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"bad MQTT broker URL {url!r}: only mqtt://host:port is understood")
    if port == 0:
        raise ValueError(f"bad MQTT broker URL {url!r}: port 0")
    username = None if parts.username is None else unquote(parts.username)
    password = None if parts.password is None else unquote(parts.password)
    return BrokerAddress(parts.hostname, port or DEFAULT_PORT, username, password)


def check_filter(topic_filter: str) -> str:
    """A valid MQTT 3.1.1 topic filter, or ValueError naming it (MQTT-4.7.1)."""
    levels = topic_filter.split("/")
    if (not topic_filter or "\0" in topic_filter or len(topic_filter.encode()) > 65535
            or any("#" in level and level != "#" for level in levels) or "#" in levels[:-1]
            or any("+" in level and level != "+" for level in levels)):
        raise ValueError(f"bad MQTT topic filter {topic_filter!r}")
    return topic_filter


def keyring_password(client_id: str) -> str | None:
    """``client_id``'s password in the keyring named by ``TENACE_MQTT_KEYRING`` (module
    docstring), or None (no keyring, not in it, or unreadable: logged)."""
    path = os.environ.get(KEYRING_ENV)
    if not path:
        return None
    try:
        with open(path, encoding="utf-8") as file:
            keyring = json.load(file)
    except (OSError, ValueError) as err:
        log.warning("cannot read the MQTT keyring %s: %s", path, err)
        return None
    password = keyring.get(client_id) if isinstance(keyring, dict) else None
    return password if isinstance(password, str) else None


class Delivery:
    """The broker's acknowledgement of one publication (PUBACK for QoS 1)."""

    __slots__ = ("_event", "mid", "topic")

    def __init__(self, mid: int, topic: str):
        self.mid = mid
        self.topic = topic
        self._event = threading.Event()

    @property
    def done(self) -> bool:
        return self._event.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """True once acknowledged; False if ``timeout`` passed first."""
        return self._event.wait(timeout)

    def __repr__(self) -> str:
        return f"Delivery(mid={self.mid}, topic={self.topic!r}, done={self.done})"


def _ignore(ok: bool) -> None:
    """The acknowledgement of a message nobody waits for."""


class _Acks:
    """Acknowledgements by message id, each with a success flag. An acknowledgement may arrive
    (on the network thread) before the publishing thread has registered its message id."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[int, Callable[[bool], None]] = {}
        self._early: dict[int, bool] = {}

    def register(self, mid: int, done: Callable[[bool], None] | None) -> None:
        """Call ``done`` once ``mid`` is acknowledged; None only forgets the early
        acknowledgement, so that a later message reusing the id is not taken as done."""
        with self._lock:
            if mid not in self._early:
                self._waiting[mid] = done or _ignore
                return
            ok = self._early.pop(mid)
        if done is not None:
            done(ok)

    def acknowledge(self, mid: int, ok: bool = True) -> None:
        with self._lock:
            done = self._waiting.pop(mid, None)
            if done is None:
                self._early[mid] = ok
                return
        done(ok)


class MqttClient:
    """A paho-mqtt 2.x client (MQTT 3.1.1) with the Tenace conventions (module docstring).

    ``will`` and ``birth`` are (topic, payload, qos, retain). Received messages go to
    :attr:`messages`; to ``loop.call_soon_threadsafe(on_message, message)`` when
    ``on_message`` and ``loop`` are both given; to ``on_message(message)`` on paho's network
    thread when only ``on_message`` is (it must return quickly). paho acknowledges a QoS 1 message
    once it is handed over.
    """

    def __init__(self, url: str, client_id: str, *, will: Will | None = None,
                 birth: Will | None = None, clean_session: bool = False,
                 keepalive: int = 30, reconnect_delay: tuple[float, float] = (0.5, 30.0),
                 on_message: Callable[[Message], None] | None = None,
                 loop: asyncio.AbstractEventLoop | None = None, start: bool = True):
        self.address = parse_url(url)
        self.url = url
        if not client_id and not clean_session:
            raise ValueError("a persistent session (clean_session=False) needs a fixed client id")
        if loop is not None and on_message is None:
            raise ValueError("a loop without on_message: the loop runs the on_message callback")
        self.client_id = client_id
        self.will = will
        self.birth = birth
        self.messages: queue.Queue[Message] = queue.Queue()
        self.connected = threading.Event()
        self.connections = 0  # completed (re)connections: resubscribed and birth sent
        self.last_error: str | None = None  # why the last connection attempt failed
        self._on_message = on_message
        self._loop = loop
        self._lock = threading.Lock()
        self._subscriptions: dict[str, int] = {}
        self._resubscribe_mid: int | None = None
        self._published = _Acks()
        self._subscribed = _Acks()
        self._started = False
        self._closed = False

        client = paho.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                             clean_session=clean_session, protocol=paho.MQTTv311)
        client.enable_logger(_paho_log)
        client.suppress_exceptions = True  # a bug in a callback must not kill the network thread
        # paho accepts fractions of a second here, though its annotation says int.
        client.reconnect_delay_set(*reconnect_delay)  # type: ignore[arg-type]
        if self.address.username is not None:
            client.username_pw_set(self.address.username, self.address.password)
        elif (password := keyring_password(client_id)) is not None:
            client.username_pw_set(client_id, password)
        if will is not None:
            topic, payload, qos, retain = will
            client.will_set(topic, payload, qos, retain)
        client.on_connect = self._handle_connect
        client.on_disconnect = self._handle_disconnect
        client.on_subscribe = self._handle_subscribe
        client.on_publish = self._handle_publish
        client.on_message = self._handle_message
        client.on_connect_fail = self._handle_connect_fail
        client.on_socket_open = self._handle_socket_open
        self._client = client
        self._keepalive = keepalive
        if start:
            self.start()

    # Life cycle ----------------------------------------------------------------------------

    def start(self) -> MqttClient:
        """Start the network thread; it connects (and reconnects) in the background."""
        if self._closed:
            raise MqttError(f"{self}: closed")
        if not self._started:
            self._started = True
            self._client.connect_async(self.address.host, self.address.port, self._keepalive)
            self._client.loop_start()
        return self

    def wait_connected(self, timeout: float | None = 10.0) -> MqttClient:
        """Block until connected, resubscribed and the birth message sent; MqttError if not."""
        if not self.connected.wait(timeout):
            why = f" ({self.last_error})" if self.last_error else ""
            raise MqttError(f"{self}: not connected to {self.address.host}:{self.address.port} "
                            f"after {timeout} s{why}")
        return self

    def close(self, *, farewell: bool = True, timeout: float = 2.0) -> None:
        """Disconnect cleanly (the broker does not send the will); idempotent.

        With ``farewell`` a connected client first publishes its will itself, so its presence
        reads offline after a clean shutdown too.
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
        if farewell and self.will is not None and self.connected.is_set():
            topic, payload, qos, retain = self.will
            if not self._publish(topic, payload, qos, retain).wait(timeout):
                log.warning("%s: farewell on %s not acknowledged", self, topic)
        self.connected.clear()
        self._client.disconnect()
        if self._started:
            self._client.loop_stop()
        if self._client._thread is None:
            # paho closes its wake-up socket pair only in its finaliser, and the garbage
            # collector may finalise the sockets first (a ResourceWarning): close it now.
            self._client._reset_sockets(sockpair_only=True)

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> MqttClient:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"MqttClient({self.client_id!r}, {self.address.host}:{self.address.port})"

    # Operations (any thread) -------------------------------------------------------------------

    def subscribe(self, topic_filter: str, qos: int = 1, *, wait: bool = True,
                  timeout: float = 10.0) -> None:
        """Subscribe now and after every reconnection. With ``wait``, return once the broker
        has granted it (MqttError if refused or not in time)."""
        check_filter(topic_filter)
        if qos not in (0, 1, 2):
            raise ValueError(f"bad QoS {qos!r} for {topic_filter!r}")
        with self._lock:
            if self._closed:
                raise MqttError(f"{self}: closed")
            self._subscriptions[topic_filter] = qos
        granted = threading.Event()
        outcome: list[bool] = []

        def done(ok: bool) -> None:
            outcome.append(ok)
            granted.set()

        if self.connected.is_set():
            rc, mid = self._client.subscribe(topic_filter, qos)
            if rc == MQTTErrorCode.MQTT_ERR_SUCCESS and mid is not None:
                self._subscribed.register(mid, done)
                if not wait:
                    return
                if not granted.wait(timeout):
                    raise MqttError(f"{self}: no SUBACK for {topic_filter!r} after {timeout} s")
                if not outcome[0]:
                    with self._lock:
                        self._subscriptions.pop(topic_filter, None)
                    raise MqttError(f"{self}: the broker refused the subscription "
                                    f"{topic_filter!r}")
                return
        if wait:
            self.wait_connected(timeout)  # every connection subscribes to every filter

    def publish(self, topic: str, payload: bytes | str, qos: int = 1, retain: bool = False, *,
                wait: bool = False, timeout: float = 10.0) -> Delivery:
        """Publish (queued by paho while disconnected, sent on reconnection). With ``wait``,
        return once the broker acknowledged it (MqttError after ``timeout``)."""
        if self._closed:
            raise MqttError(f"{self}: closed, {topic!r} not published")
        delivery = self._publish(topic, payload, qos, retain)
        if wait and not delivery.wait(timeout):
            raise MqttError(f"{self}: no acknowledgement for {topic!r} after {timeout} s")
        return delivery

    def send(self, topic: str, payload: bytes | str, qos: int = 1, retain: bool = False) -> None:
        """Publish without a :class:`Delivery` to wait on: the hub's fast path (paho still
        resends a QoS 1 message until the broker acknowledges it)."""
        if self._closed:
            raise MqttError(f"{self}: closed, {topic!r} not published")
        info = self._client.publish(topic, payload, qos, retain)
        if info.rc == MQTTErrorCode.MQTT_ERR_QUEUE_SIZE:
            raise MqttError(f"{self}: outgoing queue full, {topic!r} not published")
        self._published.register(info.mid, None)

    def _publish(self, topic: str, payload: bytes | str, qos: int, retain: bool) -> Delivery:
        info = self._client.publish(topic, payload, qos, retain)
        if info.rc == MQTTErrorCode.MQTT_ERR_QUEUE_SIZE:
            raise MqttError(f"{self}: outgoing queue full, {topic!r} not published")
        delivery = Delivery(info.mid, topic)
        self._published.register(info.mid, lambda ok: delivery._event.set())
        return delivery

    def _break_connection(self) -> None:
        """Drop the TCP connection without DISCONNECT, like a network failure (for tests)."""
        sock = self._client.socket()
        if isinstance(sock, socket.socket):
            sock.shutdown(socket.SHUT_RDWR)

    # paho callbacks (network thread: hand over and return) ------------------------------------

    def _handle_socket_open(self, client: paho.Client, userdata: Any, sock: Any) -> None:
        """No Nagle: an MQTT packet is small and waits for nothing. Without this each
        exchange may wait ~40 ms for the peer's delayed acknowledgement."""
        if isinstance(sock, socket.socket) and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def _handle_connect(self, client: paho.Client, userdata: Any, flags: Any,
                        reason_code: Any, properties: Any) -> None:
        if reason_code.is_failure:
            self.last_error = f"refused by the broker: {reason_code}"
            log.warning("%s: connection %s", self, self.last_error)
            return
        self.last_error = None
        log.info("%s: connected (session present: %s)", self, flags.session_present)
        with self._lock:
            filters = list(self._subscriptions.items())
        if not filters:
            self._ready()
            return
        rc, mid = client.subscribe(filters)
        if rc != MQTTErrorCode.MQTT_ERR_SUCCESS:
            log.warning("%s: resubscription failed: %s", self, paho.error_string(rc))
        self._resubscribe_mid = mid

    def _ready(self) -> None:
        """Subscribed again: now the birth message, then tell the waiting threads."""
        if self.birth is not None:
            topic, payload, qos, retain = self.birth
            self._publish(topic, payload, qos, retain)
        self.connections += 1
        self.connected.set()

    def _handle_subscribe(self, client: paho.Client, userdata: Any, mid: int,
                          reason_codes: list[Any], properties: Any) -> None:
        refused = [code for code in reason_codes if code.is_failure]
        if refused:
            log.warning("%s: subscription %d refused by the broker: %s", self, mid, refused)
        if mid == self._resubscribe_mid:
            self._resubscribe_mid = None
            self._ready()
        else:
            self._subscribed.acknowledge(mid, not refused)

    def _handle_publish(self, client: paho.Client, userdata: Any, mid: int, reason_code: Any,
                        properties: Any) -> None:
        self._published.acknowledge(mid)

    def _handle_message(self, client: paho.Client, userdata: Any,
                        message: paho.MQTTMessage) -> None:
        try:
            try:
                topic = message.topic
            except UnicodeDecodeError:
                topic = bytes(message._topic).decode("utf-8", "replace")
            received = Message(topic, bytes(message.payload), message.qos, bool(message.retain))
            if self._loop is not None and self._on_message is not None:
                self._loop.call_soon_threadsafe(self._on_message, received)
            elif self._on_message is not None:
                self._on_message(received)
            else:
                self.messages.put(received)
        except Exception:  # nothing from the wire may kill the network thread
            log.exception("%s: could not hand over a message", self)

    def _handle_disconnect(self, client: paho.Client, userdata: Any, flags: Any,
                           reason_code: Any, properties: Any) -> None:
        self.connected.clear()
        self._resubscribe_mid = None
        if not self._closed:
            log.warning("%s: connection lost (%s), reconnecting", self, reason_code)

    def _handle_connect_fail(self, client: paho.Client, userdata: Any) -> None:
        self.last_error = "no answer from the broker"
        log.info("%s: cannot reach %s:%d, retrying", self, self.address.host, self.address.port)
