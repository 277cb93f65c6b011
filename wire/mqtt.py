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
  nothing a broker sends (bad bytes included) can raise there;
- over TLS (``mqtts://host[:8883]?ca=FILE``, or ``ca_file=``) it verifies the broker's
  certificate against that authority and the host name it connects to (TLS 1.2 at least).
  A certificate refused or a failed handshake is not retried quietly: ``wait_connected``
  raises at once with the reason (:attr:`MqttClient.last_error`).

Credentials: ``mqtt://user:password@host:port`` (the username is the client id: the broker
binds them, hub/access.py). A URL without a user takes the client id's password from the
keyring file named by the environment variable ``TENACE_MQTT_KEYRING`` (JSON {client id:
password}, mode 0600), if there is one: a process that runs many devices (the simulator, the
tests) keeps their credentials there. Passwords are never logged.

Errors::

    HubError (hub.store)
    └── MqttError            no acknowledgement in time, subscription refused, client closed,
                             the broker's certificate refused, an unreadable CA file
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import queue
import socket
import ssl
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit, urlunsplit

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode

from wire.errors import MqttError

__all__ = [
    "DEFAULT_PORT", "KEYRING_ENV", "TLS_PORT", "BrokerAddress", "Delivery", "Message",
    "MqttClient", "MqttError", "Will", "check_filter", "keyring_password", "parse_url",
    "using_keyring", "with_ca",
]

log = logging.getLogger(__name__)

DEFAULT_PORT = 1883
TLS_PORT = 8883
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
    """Where to connect: from ``mqtt://[user[:password]@]host[:port]`` or, over TLS,
    ``mqtts://[user[:password]@]host[:port][?ca=FILE]`` (``ca_file``: the authority the
    broker's certificate must be signed by; None: the system's authorities)."""

    host: str
    port: int = DEFAULT_PORT
    username: str | None = None
    password: str | None = None
    tls: bool = False
    ca_file: str | None = None

    def __repr__(self) -> str:  # never show the password
        tls = f", tls=True, ca_file={self.ca_file!r}" if self.tls else ""
        return (f"BrokerAddress(host={self.host!r}, port={self.port}, "
                f"username={self.username!r}{tls})")


def parse_url(url: str) -> BrokerAddress:
    """Parse ``mqtt://host[:port]`` (port 1883 by default) or ``mqtts://host[:port][?ca=FILE]``
    (port 8883 by default; ``ca`` percent-encoded); ValueError naming the URL (never its
    password)."""
    shown = _without_password(url)
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as err:
        raise ValueError(f"bad MQTT broker URL {shown!r}: {err}") from None
    if parts.scheme not in ("mqtt", "mqtts"):
        raise ValueError(f"bad MQTT broker URL {shown!r}: the scheme must be mqtt:// or "
                         "mqtts:// (TLS)")
    tls = parts.scheme == "mqtts"
    if not parts.hostname:
        raise ValueError(f"bad MQTT broker URL {shown!r}: no host")
    try:
        query = parse_qs(parts.query, keep_blank_values=True, strict_parsing=bool(parts.query))
    except ValueError:
        query = {"": [""]}
    if (parts.path not in ("", "/") or parts.fragment or set(query) - {"ca"}
            or len(query.get("ca", ())) > 1 or (query and not tls)):
        raise ValueError(f"bad MQTT broker URL {shown!r}: only mqtt://host:port and "
                         "mqtts://host:port?ca=FILE are understood")
    ca_file = query["ca"][0] if "ca" in query else None
    if ca_file == "":
        raise ValueError(f"bad MQTT broker URL {shown!r}: ca= names no file")
    if port == 0:
        raise ValueError(f"bad MQTT broker URL {shown!r}: port 0")
    username = None if parts.username is None else unquote(parts.username)
    password = None if parts.password is None else unquote(parts.password)
    return BrokerAddress(parts.hostname, port or (TLS_PORT if tls else DEFAULT_PORT),
                         username, password, tls, ca_file)


def _without_password(url: str) -> str:
    """``url`` with its password (if any) masked, for messages."""
    scheme, sep, rest = url.partition("://")
    userinfo, at, host = rest.rpartition("@")
    if not sep or not at or ":" not in userinfo:
        return url
    return f"{scheme}://{userinfo.split(':', 1)[0]}:***@{host}"


def with_ca(url: str, ca_file: str | os.PathLike[str]) -> str:
    """The broker URL over TLS, verified against the authority in ``ca_file`` (a device's
    ``--ca``): ``mqtt://host`` and ``mqtt://host:1883`` become ``mqtts://host:8883``, another
    port is kept; ValueError if the file is not there or the URL names another CA."""
    path = os.fspath(ca_file)
    if not os.path.isfile(path):
        raise ValueError(f"--ca {path!r}: no such file (the club's ca.crt)")
    address = parse_url(url)
    if address.ca_file is not None and address.ca_file != path:
        raise ValueError(f"two CA files for one broker: {address.ca_file!r} in the URL and "
                         f"{path!r}")
    parts = urlsplit(url)
    netloc = parts.netloc
    if not address.tls and address.port == DEFAULT_PORT:
        netloc = netloc.rsplit("@", 1)[0] + "@" if "@" in netloc else ""
        host = f"[{address.host}]" if ":" in address.host else address.host
        netloc += f"{host}:{TLS_PORT}"
    return urlunsplit(("mqtts", netloc, "", f"ca={quote(path, safe='/')}", ""))


def check_filter(topic_filter: str) -> str:
    """A valid MQTT 3.1.1 topic filter, or ValueError naming it (MQTT-4.7.1)."""
    levels = topic_filter.split("/")
    if (not topic_filter or "\0" in topic_filter or len(topic_filter.encode()) > 65535
            or any("#" in level and level != "#" for level in levels) or "#" in levels[:-1]
            or any("+" in level and level != "+" for level in levels)):
        raise ValueError(f"bad MQTT topic filter {topic_filter!r}")
    return topic_filter


@contextlib.contextmanager
def using_keyring(path: str | os.PathLike[str]) -> Iterator[None]:
    """Within the block, every client of this process finds its password in the keyring at
    ``path`` (``TENACE_MQTT_KEYRING``); the variable is put back as it was afterwards."""
    before = os.environ.get(KEYRING_ENV)
    os.environ[KEYRING_ENV] = str(path)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(KEYRING_ENV, None)
        else:
            os.environ[KEYRING_ENV] = before


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

    ``will`` and ``birth`` are (topic, payload, qos, retain); ``farewell`` is what a clean
    :meth:`close` publishes itself (the will when not given: a device's says ``leaving``,
    docs/protocol.md section 14). Received messages go to
    :attr:`messages`; to ``loop.call_soon_threadsafe(on_message, message)`` when
    ``on_message`` and ``loop`` are both given; to ``on_message(message)`` on paho's network
    thread when only ``on_message`` is (it must return quickly). paho acknowledges a QoS 1 message
    once it is handed over. ``on_connection(up)`` is called on the network thread when a
    (re)connection is complete (resubscribed, birth sent: ``True``) and when the connection
    is lost (``False``; not after :meth:`close`).
    """

    def __init__(self, url: str, client_id: str, *, will: Will | None = None,
                 birth: Will | None = None, farewell: Will | None = None,
                 clean_session: bool = False,
                 keepalive: int = 30, reconnect_delay: tuple[float, float] = (0.5, 30.0),
                 on_message: Callable[[Message], None] | None = None,
                 loop: asyncio.AbstractEventLoop | None = None, start: bool = True,
                 ca_file: str | os.PathLike[str] | None = None,
                 on_connection: Callable[[bool], None] | None = None):
        self.address = parse_url(url if ca_file is None else with_ca(url, ca_file))
        self.url = url
        if not client_id and not clean_session:
            raise ValueError("a persistent session (clean_session=False) needs a fixed client id")
        if loop is not None and on_message is None:
            raise ValueError("a loop without on_message: the loop runs the on_message callback")
        self.client_id = client_id
        self.will = will
        self.birth = birth
        self.farewell = farewell if farewell is not None else will
        self.messages: queue.Queue[Message] = queue.Queue()
        self.connected = threading.Event()
        self.connections = 0  # completed (re)connections: resubscribed and birth sent
        self.last_error: str | None = None  # why the last connection attempt failed
        self._refused: str | None = None  # TLS refused: waiting longer will not help
        self._answered = False  # a CONNACK on this connection
        self._on_message = on_message
        self._on_connection = on_connection
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
        if self.address.tls:
            client.tls_set_context(_tls_context(self.address.ca_file))
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
        """Block until connected, resubscribed and the birth message sent; MqttError if not,
        at once if the broker's certificate was refused or the TLS handshake failed."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.connected.wait(0.05):
            if self._refused is not None:
                raise MqttError(f"{self}: cannot connect to {self.address.host}:"
                                f"{self.address.port}: {self._refused}")
            if deadline is not None and time.monotonic() >= deadline:
                break
        if not self.connected.is_set():
            why = f" ({self.last_error})" if self.last_error else ""
            raise MqttError(f"{self}: not connected to {self.address.host}:{self.address.port} "
                            f"after {timeout} s{why}")
        return self

    def close(self, *, farewell: bool = True, timeout: float = 2.0) -> None:
        """Disconnect cleanly (the broker does not send the will); idempotent.

        With ``farewell`` a connected client first publishes its farewell (its will unless
        it has one of its own) itself, so its presence reads offline after a clean shutdown
        too.
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
        if farewell and self.farewell is not None and self.connected.is_set():
            topic, payload, qos, retain = self.farewell
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

    def unsubscribe(self, topic_filter: str) -> None:
        """Unsubscribe now, and not again after a reconnection (no wait for the UNSUBACK:
        a message already on its way may still come)."""
        check_filter(topic_filter)
        with self._lock:
            if self._closed or self._subscriptions.pop(topic_filter, None) is None:
                return
        if self.connected.is_set():
            self._client.unsubscribe(topic_filter)

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
        self.last_error = self._refused = None
        self._answered = True
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
        self._connection_changed(True)

    def _connection_changed(self, up: bool) -> None:
        """Tell ``on_connection`` (on the network thread: it must return quickly)."""
        if self._on_connection is not None:
            try:
                self._on_connection(up)
            except Exception:  # nothing may kill the network thread
                log.exception("%s: on_connection failed", self)

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
        if not self._answered and self.last_error is None and not self._closed:
            self.last_error = ("the connection closed before the broker answered"
                               + ("" if self.address.tls else " (a TLS port? use mqtts://)"))
        self.connected.clear()
        self._answered = False
        self._resubscribe_mid = None
        if not self._closed:
            log.warning("%s: connection lost (%s), reconnecting", self, reason_code)
            self._connection_changed(False)

    def _handle_connect_fail(self, client: paho.Client, userdata: Any) -> None:
        # paho calls this inside its ``except OSError`` block: the error is the one handled.
        err = sys.exc_info()[1]
        if isinstance(err, ssl.SSLError):
            why = _tls_failure(err, self.address)
            if why != self.last_error:
                log.warning("%s: %s (retrying)", self, why)
            self.last_error = why
            if isinstance(err, ssl.SSLCertVerificationError) or err.reason in _NOT_TLS:
                self._refused = why   # not a broker restarting: it will not get better
            return
        self.last_error = "no answer from the broker"
        if isinstance(err, OSError) and (err.strerror or str(err)):
            why = err.strerror or str(err)
            if self.address.tls and (isinstance(err, ConnectionResetError)
                                     or "handshake" in why):
                why += f": no TLS handshake, is {self.address.port} a plain MQTT port?"
            self.last_error += f" ({why})"
        log.info("%s: cannot reach %s:%d, retrying", self, self.address.host, self.address.port)


_NOT_TLS = frozenset({"WRONG_VERSION_NUMBER", "UNSUPPORTED_PROTOCOL",
                      "TLSV1_ALERT_PROTOCOL_VERSION"})


class _HandshakeSocket(ssl.SSLSocket):
    """paho 2.2 drops the socket of a failed handshake without closing it (a ResourceWarning
    per attempt): this one closes itself when its handshake fails."""

    def do_handshake(self, block: bool = False) -> None:
        try:
            super().do_handshake(block)
        except (ssl.SSLWantReadError, ssl.SSLWantWriteError):
            raise
        except BaseException:
            self.close()
            raise


def _tls_context(ca_file: str | None) -> ssl.SSLContext:
    """A client context: TLS 1.2 at least, the broker's certificate verified against
    ``ca_file`` (or the system's authorities) and against the host name connected to."""
    try:
        context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=ca_file)
    except (OSError, ssl.SSLError) as err:
        raise MqttError(f"CA file {ca_file!r}: cannot be read as PEM certificates: "
                        f"{getattr(err, 'strerror', None) or err}") from err
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.sslsocket_class = _HandshakeSocket
    context.check_hostname = True
    context.verify_mode = ssl.CERT_REQUIRED
    return context


def _tls_failure(err: ssl.SSLError, address: BrokerAddress) -> str:
    """Why a TLS connection failed, for people (the handshake's own words included)."""
    if isinstance(err, ssl.SSLCertVerificationError):
        what = err.verify_message or err.reason or str(err)
        if "hostname" in str(what).lower() or "ip address mismatch" in str(what).lower():
            return (f"TLS: the broker's certificate is not valid for {address.host!r} "
                    f"({what})")
        authority = (f"the authority in {address.ca_file}" if address.ca_file else
                     "an authority of the system (give the club's ca.crt)")
        return f"TLS: the broker's certificate is not signed by {authority} ({what})"
    reason = err.reason or str(err)
    if reason == "WRONG_VERSION_NUMBER":
        return f"TLS handshake failed ({reason}): is {address.port} a plain MQTT port?"
    return f"TLS handshake failed ({reason})"
