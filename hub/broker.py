"""The embedded MQTT broker of a club hub: amqtt 0.12 (MQTT 3.1.1) in a child process.

A club runs one small machine; the hub starts its own broker so nothing else needs installing.
Championships and benchmarks use Mosquitto instead (deploy/mosquitto.conf): the hub only needs
a broker URL. ``EmbeddedBroker`` runs amqtt in its own Python process (``python -m
hub.broker``), which halves the round trip against amqtt in the hub's process (the broker's
asyncio loop no longer competes for the GIL with the hub and its MQTT client threads) and
isolates the hub from the broker. The child exits when its parent dies (its stdin closes).

amqtt 0.12 quirks handled here:

- Its stock ``AnonymousAuthPlugin`` marks every session anonymous, and the broker then drops
  an anonymous session as soon as the client disconnects (and queues nothing for it): no
  persistent session. ``AccountsAuthPlugin`` admits a client by its account without that
  mark, so sessions, subscriptions and queued QoS 1 messages outlive a disconnection.
- On every connection the stock broker sends the new client the retained messages of every
  topic filter *any* client subscribed to (not only the client's own): a seat's hand would
  reach the other seats. Our broker class only sends the client its own filters' messages.
- Retained messages and sessions live in memory only: they do not survive a broker restart
  (the hub republishes every table's state when it starts).

Access control (hub/accounts.py, hub/access.py): the broker reads the event's accounts file
(``--accounts``) and re-reads it when it changes. A client is admitted only with an account's
current password and with its username as client id, and only if its last will (if any) is
on a topic it may write; a refused CONNECT is answered "not authorised" before amqtt looks at
the stored session of that client id, so nobody can take over another client's session (the
hub's). Our topic plugin checks every publication, subscription and delivery against the
account's grants (hub/access.py), the retained messages sent on a subscription included; a
``#`` subscription delivers only what the account may read. (The broker calls that check
directly, not through amqtt's plugin dispatch, which yields in mid-broadcast:
``TenaceBroker._topic_filtering``.) When an account is revoked or its
password rotated, its connection is closed. ``--open`` (benchmarks only) accepts everyone.
With ``--tls-cert``/``--tls-key`` the port speaks TLS only (hub/tls.py makes the
certificates); ``--plain-port`` adds a plain one, with the same accounts and rules.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import hashlib
import importlib
import logging
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import quote

from hub.errors import HubError
from wire.processes import stop_process

__all__ = ["BrokerError", "EmbeddedBroker", "serve", "stop_process"]

_RELOAD_SECONDS = 0.5  # how often the broker looks whether the accounts file changed

log = logging.getLogger(__name__)

_READY = "tenace-broker listening on port "
_FAILED = "tenace-broker did not start: "   # the child's one line when it cannot listen
_AMQTT_LOGGERS = ("amqtt", "transitions")


class BrokerError(HubError):
    """The embedded broker could not start or stopped unexpectedly."""


# The broker side (the child process) ---------------------------------------------------------

class _Access:
    """The broker's view of the accounts file: who may connect, what each may do."""

    def __init__(self, path: Path | None):
        self.path = path
        self._stamp: tuple[int, int] | None = None
        self._accounts: dict[str, dict[str, Any]] = {}
        self._grants: dict[str, Any] = {}
        # account -> (the argon2 hash its password matched, the password's SHA-256)
        self._verified: dict[str, tuple[str, str]] = {}
        self.reload()

    @property
    def open(self) -> bool:
        return self.path is None

    def reload(self) -> bool:
        """Re-read the accounts file if it changed; True if it did."""
        if self.path is None:
            return False
        from hub.accounts import AccountError, Accounts
        try:
            stat = self.path.stat()
        except FileNotFoundError:
            stamp, accounts = (0, 0), {}
        else:
            stamp = (stat.st_mtime_ns, stat.st_size)
            if stamp == self._stamp:
                return False
            try:
                accounts = Accounts.load(self.path)
            except AccountError as err:
                log.error("%s: keeping the accounts read before", err)
                return False
        if stamp == self._stamp:
            return False
        self._stamp, self._accounts, self._grants = stamp, accounts, {}
        return True

    def grant(self, username: str | None) -> Any:
        """The account's grants (hub/access.py), or None for no account."""
        from hub.access import grants
        if username is None or username not in self._accounts:
            return None
        if username not in self._grants:
            try:
                entry = self._accounts[username]
                self._grants[username] = grants(username, entry["role"], entry.get("scope"))
            except (ValueError, KeyError):
                self._grants[username] = None
        return self._grants[username]

    def current(self, username: str | None) -> bool:
        """Whether ``username`` still has the password it connected with."""
        if username is None or username not in self._accounts:
            return False
        verified = self._verified.get(username)
        return verified is not None and verified[0] == self._accounts[username].get("argon2")

    def admit(self, session: Any) -> bool:
        """The CONNECT check (module docstring)."""
        if self.open:
            return True
        self.reload()
        username, password = session.username, session.password
        if not username or password is None or session.client_id != username:
            return False
        entry = self._accounts.get(username)
        if entry is None or self.grant(username) is None:
            return False
        hashed = entry.get("argon2", "")
        digest = hashlib.sha256(password.encode()).hexdigest()
        if self._verified.get(username) != (hashed, digest):  # argon2 once per password
            from argon2 import PasswordHasher
            from argon2.exceptions import Argon2Error
            try:
                PasswordHasher().verify(hashed, password)
            except (Argon2Error, ValueError):
                return False
            self._verified[username] = (hashed, digest)
        if session.will_flag and session.will_topic:
            return self.allowed(session, session.will_topic, "publish")
        return True

    def refusal(self, session: Any, topic_filter: str, held: list[str]) -> str | None:
        """Why the session may not add ``topic_filter`` to the filters it ``held``, or None.
        amqtt sends a client one copy of a message for each of its filters that matches it
        (Mosquitto one in all), so a seat tablet's account subscribing to the 859 filters its
        grants overlap (``#``, ``+/#``, ``tenace/+/t/A1/state`` ...) received 95 copies of each
        state and slowed every other client 18 times (audit ``auditsec``). A device (its
        exact topics only, wire.link) may hold no two filters that overlap; no account but
        the hub's and its shards' more than MAX_SUBSCRIPTIONS."""
        if self.open:
            return None
        from hub.access import filters_overlap
        from hub.broker_limits import MAX_SUBSCRIPTIONS
        grant = self.grant(session.username if session is not None else None)
        if grant is None or grant.role in ("hub", "shard"):
            return None
        if len(held) >= MAX_SUBSCRIPTIONS:
            return f"more than {MAX_SUBSCRIPTIONS} subscriptions"
        if grant.role in ("seat", "table", "reader", "dealer"):
            for other in held:
                if filters_overlap(topic_filter, other):
                    return f"{topic_filter!r:.80} overlaps its subscription {other!r:.80}"
        return None

    def allowed(self, session: Any, topic: str, action: str) -> bool:
        """Whether the session's account may publish, subscribe or receive ``topic``."""
        if self.open:
            return True
        from hub.access import may_read, may_subscribe, may_write
        grant = self.grant(session.username if session is not None else None)
        if grant is None or not self.current(grant.account):
            return False
        if action == "publish":
            return bool(may_write(grant, topic))
        if action == "subscribe":
            return bool(may_subscribe(grant, topic))
        return bool(may_read(grant, topic))


_access = _Access(None)
_classes: tuple[type[Any], ...] | None = None


def _server_classes() -> tuple[type[Any], ...]:
    """(broker class, auth plugin class, topic plugin class), built on first use: only the
    broker process imports amqtt (150 ms), the hub never does."""
    global _classes
    if _classes is not None:
        return _classes
    from amqtt.broker import Broker  # type: ignore[import-untyped]
    from amqtt.errors import AMQTTError, MQTTError, NoDataError  # type: ignore[import-untyped]
    from amqtt.mqtt.connack import (  # type: ignore[import-untyped]
        NOT_AUTHORIZED,
        ConnackPacket,
    )
    from amqtt.mqtt.packet import MQTTFixedHeader  # type: ignore[import-untyped]
    from amqtt.mqtt.protocol.broker_handler import (  # type: ignore[import-untyped]
        BrokerProtocolHandler,
    )
    from amqtt.mqtt.protocol.handler import ProtocolHandler  # type: ignore[import-untyped]
    from amqtt.plugins.base import BaseAuthPlugin, BaseTopicPlugin  # type: ignore[import-untyped]

    from hub.broker_limits import (
        BROKER_PER_ADDRESS,
        CONNECT_DEADLINE,
        ConnectionLimit,
        ConnectionRate,
        QueueLimit,
        Refusals,
        limit_inflight,
        limit_packet_size,
        listening,
    )

    # Mosquitto's limits, which amqtt has no setting for (hub.broker_limits).
    limit_packet_size(MQTTFixedHeader)
    limit_inflight(ProtocolHandler)
    connections = ConnectionRate()
    accepted = ConnectionLimit(BROKER_PER_ADDRESS, 10 * BROKER_PER_ADDRESS,
                               spare_loopback=True)
    queues = QueueLimit()
    subscriptions_refused = Refusals("subscription")

    class AccountsAuthPlugin(BaseAuthPlugin):  # type: ignore[misc]
        """Admit a client by its account (module docstring), without marking its session
        anonymous (so sessions and queued QoS 1 messages outlive a disconnection)."""

        async def authenticate(self, *, session: Any) -> bool:
            return _access.admit(session)

    class AccountsTopicPlugin(BaseTopicPlugin):  # type: ignore[misc]
        """Publish, subscribe and receive by the account's grants (hub/access.py)."""

        async def topic_filtering(self, *, session: Any = None, topic: str | None = None,
                                  action: Any = None) -> bool:
            return topic is not None and _access.allowed(session, topic, str(action))

    class TenaceBroker(Broker):  # type: ignore[misc]
        """amqtt's broker with the delivery and access fixes of the module docstring."""

        async def _client_connected(self, listener_name: str, reader: Any,
                                    writer: Any) -> None:
            """An address connecting too often is closed before its CONNECT is read."""
            peer = writer.get_peer_info()
            if peer is not None and not connections.allow(str(peer[0])):
                with contextlib.suppress(Exception):
                    await writer.close()
                return
            await super()._client_connected(listener_name, reader, writer)

        async def _retain_broadcast_message(self, broadcast: dict[str, Any], qos: int,
                                            target_session: Any) -> None:
            """A client away keeps at most MAX_QUEUED messages (Mosquitto's setting)."""
            if queues.full(str(target_session.client_id),
                           target_session.retained_messages.qsize(),
                           len(broadcast.get("data") or b"")):
                return
            await super()._retain_broadcast_message(broadcast, qos, target_session)

        async def _initialize_client_session(self, reader: Any, writer: Any,
                                             remote_address: str, remote_port: int) -> Any:
            """Refuse a client before amqtt merges its CONNECT into a stored session of the
            same client id (it would take over the connection and replace the will)."""
            # A malformed or refused CONNECT is ONE line in the log (amqtt's "Failed to
            # initialize client session: ..." with our text), never a traceback, never a
            # 64 KB client id: what the client sent is shown short and escaped (issue 23).
            try:
                async with asyncio.timeout(CONNECT_DEADLINE):
                    _handler, incoming = await BrokerProtocolHandler.init_from_connect(
                        reader, writer, self.plugins_manager)
            except TimeoutError:    # half a CONNECT, or none: the connection is closed
                with contextlib.suppress(Exception):
                    await writer.close()
                raise MQTTError(f"from {remote_address}: no CONNECT within "
                                f"{CONNECT_DEADLINE:g} s: connection closed") from None
            except (AMQTTError, NoDataError) as exc:
                raise AMQTTError(f"from {remote_address}: {shown(exc, 200)}") from None
            except Exception as exc:   # MQTTError, or the client gone while it was told
                with contextlib.suppress(Exception):
                    await writer.close()
                raise MQTTError(f"from {remote_address}: {shown(exc, 200)}") from None
            if not _access.admit(incoming):
                with contextlib.suppress(Exception):
                    await ConnackPacket.build(0, NOT_AUTHORIZED).to_stream(writer)
                    await writer.close()
                raise MQTTError(f"refused client {shown(incoming.client_id)} (user "
                                f"{shown(incoming.username)}) from {remote_address}: not "
                                "authorised")
            return await self._merge_session(_handler, incoming)

        async def _merge_session(self, handler: Any, client_session: Any) -> Any:
            """What amqtt 0.12 does after reading the CONNECT: clean or resume the session."""
            if client_session.clean_session:
                await self._delete_session(client_session.client_id)
                client_session.parent = 0
            elif client_session.client_id in self._sessions:
                existing, _ = self._sessions[client_session.client_id]
                for name in ("will_flag", "will_message", "will_topic", "will_qos",
                             "will_retain", "keep_alive", "username", "password"):
                    setattr(existing, name, getattr(client_session, name))
                client_session = existing
                client_session.parent = 1
            else:
                client_session.parent = 0
            delay = self.config.get("timeout-disconnect-delay", 0)
            if client_session.keep_alive > 0 and isinstance(delay, int):
                client_session.keep_alive += delay
            return handler, client_session

        async def _create_server_instance(self, listener_name: str, listener_type: Any,
                                          address: str | None, port: int,
                                          ssl_context: Any) -> Any:
            """A TCP listener on a socket of ours that counts connections by address as it
            accepts them, before a TLS handshake (hub.broker_limits.listening), and gives a
            handshake CONNECT_DEADLINE, not asyncio's 60 s: half handshakes on the TLS port
            came before the connection rate and the CONNECT deadline (audit auditsec)."""
            if str(listener_type) != "tcp":
                return await super()._create_server_instance(listener_name, listener_type,
                                                             address, port, ssl_context)
            sock = listening(address or "", port, accepted)
            return await asyncio.start_server(
                functools.partial(self.stream_connected, listener_name=listener_name),
                sock=sock, ssl=ssl_context,
                ssl_handshake_timeout=None if ssl_context is None else CONNECT_DEADLINE)

        async def add_subscription(self, subscription: tuple[str, int], session: Any) -> int:
            """Refuse (0x80) a filter beyond the account's share (:meth:`_Access.refusal`):
            amqtt sends a client one copy of a message per filter of its that matches."""
            topic_filter = subscription[0]
            held = [f for f, subscribers in self._subscriptions.items() if f != topic_filter
                    and any(sub.client_id == session.client_id for sub, _qos in subscribers)]
            refusal = _access.refusal(session, topic_filter, held)
            if refusal is not None:
                subscriptions_refused.refuse(str(session.client_id), refusal)
                return 0x80
            granted: int = await super().add_subscription(subscription, session)
            return granted

        async def _topic_filtering(self, session: Any, topic: str, action: Any) -> bool:
            """Our topic plugin's check, called directly. amqtt's plugin dispatch runs each
            check as a task and so yields to the event loop, and its broadcast loop makes
            that check while it iterates over the subscriptions: a client subscribing at
            that moment raised "dictionary changed size during iteration" and the message
            was lost. The check itself never waits."""
            return _access.allowed(session, topic, str(action))

        async def _publish_retained_messages_for_subscription(
                self, subscription: tuple[str, int], session: Any) -> None:
            """Only the client's own filter's retained messages, and only those it may
            read (amqtt sends every client the messages of every client's filters)."""
            topic_filter, qos = subscription
            subscribers = self._subscriptions.get(topic_filter, ())
            if not any(sub.client_id == session.client_id for sub, _qos in subscribers):
                return
            handler = self._get_handler(session)
            tasks = [asyncio.ensure_future(handler.mqtt_publish(
                        retained.topic, retained.data, min(qos, retained.qos or qos),
                        retain=True))
                     for topic, retained in list(self._retained_messages.items())
                     if handler is not None and self._matches(topic, topic_filter)
                     and _access.allowed(session, topic, "receive")]
            if tasks:
                await asyncio.wait(tasks)

        async def _publish_session_retained_messages(self, session: Any) -> None:
            """Send the messages queued while the session was away with retain 0
            (MQTT-3.3.1-9; amqtt 0.12 sets it)."""
            handler = self._get_handler(session)
            tasks = []
            while handler is not None and not session.retained_messages.empty():
                queued = await session.retained_messages.get()
                queues.sent(str(session.client_id), len(queued.data or b""))
                tasks.append(asyncio.ensure_future(
                    handler.mqtt_publish(queued.topic, queued.data, queued.qos, retain=False)))
            if tasks:
                await asyncio.wait(tasks)

        async def drop_revoked(self) -> None:
            """Close the connection of every client whose account was revoked or whose
            password was rotated since it connected."""
            for session, handler in list(self._sessions.values()):
                if (session.transitions.is_connected() and handler is not None
                        and not _access.current(session.username)):
                    log.warning("closing the connection of %r: account revoked",
                                session.client_id)
                    with contextlib.suppress(Exception):
                        await handler.stop()

    # amqtt loads its plugins by dotted path: publish the classes under hub.broker (on the
    # imported module, which is not this one under ``python -m hub.broker``).
    module = importlib.import_module("hub.broker")
    for cls in (AccountsAuthPlugin, AccountsTopicPlugin, TenaceBroker):
        cls.__module__ = "hub.broker"
        setattr(module, cls.__name__, cls)
    _classes = (TenaceBroker, AccountsAuthPlugin, AccountsTopicPlugin)
    return _classes


def shown(value: object, limit: int = 64) -> str:
    """``value`` as the log may show what a client sent: quoted, printable ASCII (the rest
    escaped), at most ``limit`` characters, and how long it was when cut."""
    text = str(value)
    escaped = ascii(text)[1:-1]
    if len(escaped) > limit:
        escaped = f"{escaped[:limit]}... ({len(text)} characters)"
    return f"'{escaped}'"


def broker_config(host: str, port: int, tls: tuple[str, str] | None = None,
                  plain_port: int | None = None) -> dict[str, Any]:
    """amqtt 0.12 configuration: the TCP listener, our account and topic plugins.

    With ``tls`` (certificate chain file, key file) the ``default`` listener speaks TLS only
    (Python's server defaults: TLS 1.2 at least); ``plain_port`` adds a plain listener on
    the same address (off unless asked).
    """
    listener: dict[str, Any] = {"type": "tcp", "bind": f"{host}:{port}"}
    listeners = {"default": listener}
    if tls is not None:
        listener.update(ssl=True, certfile=tls[0], keyfile=tls[1])
        if plain_port is not None:   # amqtt copies "default"'s settings into the others
            listeners = {"default": {"type": "tcp", "bind": f"{host}:{plain_port}"},
                         "tls": listener}
    return {
        "listeners": listeners,
        "plugins": {"hub.broker.AccountsAuthPlugin": {},
                    "hub.broker.AccountsTopicPlugin": {}},
    }


def quiet_amqtt_logging() -> None:
    """amqtt logs every connection at INFO: keep it to warnings."""
    for name in _AMQTT_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


async def serve(host: str, port: int, stop: asyncio.Event | None = None, *,
                accounts: Path | None, open_access: bool = False,
                tls: tuple[str, str] | None = None, plain_port: int | None = None) -> None:
    """Run the broker until ``stop`` is set (or forever); prints the ready line on stdout.

    ``accounts`` is the accounts file (hub/accounts.py; missing: nobody may connect yet);
    ``open_access`` admits every client to every topic (benchmarks only); ``tls`` and
    ``plain_port`` as in :func:`broker_config`."""
    global _access
    if accounts is None and not open_access:
        raise BrokerError("no accounts file: give one, or open access (benchmarks only)")
    quiet_amqtt_logging()
    _access = _Access(None if open_access else accounts)
    broker_class = _server_classes()[0]
    broker = broker_class(broker_config(host, port, tls, plain_port),
                          loop=asyncio.get_running_loop())
    starting = logging.getLogger("amqtt.broker")
    level = starting.level
    starting.setLevel(logging.CRITICAL)   # its "startup failed" traceback: said below instead
    try:
        await broker.start()
    except Exception as err:   # amqtt's BrokerError around the OSError: the reason, one line
        raise BrokerError(str(err.__cause__ or err)) from err
    finally:
        starting.setLevel(level)
    sockets = broker._servers["tls" if "tls" in broker._servers else "default"].instance.sockets
    print(f"{_READY}{sockets[0].getsockname()[1]}", flush=True)
    stop = stop or asyncio.Event()
    try:
        while not stop.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), _RELOAD_SECONDS)
            if _access.reload():
                await broker.drop_revoked()
    finally:
        await broker.shutdown()


def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hub.broker",
                                     description="Run the embedded MQTT broker (amqtt).")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    parser.add_argument("--port", type=int, default=1883, help="TCP port (0: any free port)")
    parser.add_argument("--accounts", type=Path,
                        help="the accounts file (hub/accounts.py) that says who may connect")
    parser.add_argument("--open", action="store_true",
                        help="no access control: every client, every topic (benchmarks only)")
    parser.add_argument("--tls-cert", help="TLS on the port: the certificate chain (PEM)")
    parser.add_argument("--tls-key", help="TLS: the certificate's private key (PEM)")
    parser.add_argument("--plain-port", type=int,
                        help="with TLS, also listen without TLS on this port (default: no)")
    parser.add_argument("--watch-stdin", action="store_true",
                        help="exit when stdin closes (the parent process died)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(message)s")

    async def run() -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        if args.watch_stdin:
            loop.add_reader(sys.stdin.fileno(), lambda: _stdin_readable(loop, stop))
        tls = (args.tls_cert, args.tls_key) if args.tls_cert else None
        await serve(args.host, args.port, stop, accounts=args.accounts, open_access=args.open,
                    tls=tls, plain_port=args.plain_port)

    try:
        asyncio.run(run())
    except BrokerError as err:   # said to the parent on the ready line's place
        print(f"{_FAILED}{' '.join(str(err).split())}", flush=True)
        return 1
    return 0


def _stdin_readable(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
    if not os.read(sys.stdin.fileno(), 4096):  # EOF: the parent is gone
        loop.remove_reader(sys.stdin.fileno())
        stop.set()


# The hub side --------------------------------------------------------------------------------

class EmbeddedBroker:
    """amqtt in a child process, listening on ``host``:``port`` (0 picks a free port).

    ``start()`` returns once the broker accepts connections; ``stop()`` is idempotent. A club
    hub listens on its LAN (``host="0.0.0.0"``); tests use the loopback default. ``accounts``
    is the accounts file clients must have an account in (hub/accounts.py); without it only
    ``open_access=True`` (benchmarks) starts a broker, open to everyone.

    ``tls`` (certificate chain, key: hub.tls's ``broker.crt``, ``broker.key``) makes the port
    a TLS one, and ``ca_file`` the authority its clients verify it with (in :attr:`url`);
    ``plain_port`` opens a plain port beside it (with the same accounts). ``log``: a file the
    broker's log lines go to (appended), instead of the hub's standard error.
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0, *,
                 accounts: str | Path | None = None, open_access: bool = False,
                 start_timeout: float = 15.0, tls: tuple[str, str] | None = None,
                 ca_file: str | None = None, plain_port: int | None = None,
                 log: Path | None = None):
        if accounts is None and not open_access:
            raise BrokerError("the embedded broker needs an accounts file (hub/accounts.py)")
        self.host = host
        self.port = port
        self.accounts = None if accounts is None else Path(accounts)
        self.open_access = open_access
        self.start_timeout = start_timeout
        self.tls = tls
        self.ca_file = ca_file
        self.plain_port = plain_port
        self.log = log
        self._process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        """``mqtt://host:port`` for clients (a wildcard bind is reached on 127.0.0.1), or
        ``mqtts://host:port?ca=FILE`` with TLS."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        if ":" in host:
            host = f"[{host}]"
        if self.tls is None:
            return f"mqtt://{host}:{self.port}"
        ca = "" if self.ca_file is None else f"?ca={quote(self.ca_file, safe='/')}"
        return f"mqtts://{host}:{self.port}{ca}"

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self) -> EmbeddedBroker:
        if self._process is not None:
            raise BrokerError("the embedded broker is already started")
        command = [sys.executable, "-m", __name__, "--host", self.host, "--port", str(self.port),
                   "--watch-stdin"]
        command += ["--open"] if self.open_access else ["--accounts", str(self.accounts)]
        if self.tls is not None:
            command += ["--tls-cert", self.tls[0], "--tls-key", self.tls[1]]
            if self.plain_port is not None:
                command += ["--plain-port", str(self.plain_port)]
        # Its own session: a Ctrl-C meant for the hub does not kill the broker under it.
        if self.log is None:
            process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=None, text=True, start_new_session=True)
        else:
            with self.log.open("a") as log_file:
                process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                           stdout=subprocess.PIPE, stderr=log_file, text=True,
                                           start_new_session=True)
        self._process = process
        assert process.stdout is not None
        deadline = time.monotonic() + self.start_timeout
        line = ""
        while time.monotonic() < deadline:
            ready, _, _ = select.select([process.stdout], [], [], 0.05)
            if ready:
                line = process.stdout.readline()
                break
            if process.poll() is not None:
                break
        if not line.startswith(_READY):
            code = process.poll()
            self.stop()
            where = f"{self.host}:{self.port}"
            if line.startswith(_FAILED):
                reason = line[len(_FAILED):].strip()
                hint = (f" (another broker or hub listens on {where}: stop it, or choose "
                        "another address with --listen HOST:PORT)"
                        if "address already in use" in reason else "")
                raise BrokerError(f"embedded broker on {where} did not start: {reason}{hint}")
            raise BrokerError(f"embedded broker on {where} did not start "
                              f"(exit code {code}, output {line.strip()!r})")
        self.port = int(line[len(_READY):])
        log.info("embedded broker (pid %d) listening on %s:%d", process.pid, self.host, self.port)
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the broker (SIGTERM, then SIGKILL after ``timeout``); idempotent."""
        process, self._process = self._process, None
        if process is None:
            return
        if stop_process(process, timeout):
            log.warning("embedded broker (pid %d) ignored SIGTERM: killed", process.pid)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def restart(self) -> EmbeddedBroker:
        """Stop the broker and start it again on the same port (its retained messages and
        sessions are gone: amqtt keeps them in memory)."""
        self.stop()
        return self.start()

    def __enter__(self) -> EmbeddedBroker:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"EmbeddedBroker(host={self.host!r}, port={self.port}, pid={self.pid})"


if __name__ == "__main__":
    sys.exit(_main())
