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
  persistent session. ``OpenAuthPlugin`` accepts every client without that mark, so
  sessions, subscriptions and queued QoS 1 messages outlive a disconnection.
- On every connection the stock broker sends the new client the retained messages of every
  topic filter *any* client subscribed to (not only the client's own): a seat's hand would
  reach the other seats. Our broker class only sends the client its own filters' messages.
- Retained messages and sessions live in memory only: they do not survive a broker restart
  (the hub republishes every table's state when it starts).

Anonymous access for now (no accounts, no ACL): bind to the club's LAN only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import logging
import os
import select
import signal
import subprocess
import sys
import time
from types import TracebackType
from typing import Any
from urllib.parse import quote

from hub.errors import HubError
from wire.processes import stop_process

__all__ = ["BrokerError", "EmbeddedBroker", "serve", "stop_process"]

log = logging.getLogger(__name__)

_READY = "tenace-broker listening on port "
_AMQTT_LOGGERS = ("amqtt", "transitions")


class BrokerError(HubError):
    """The embedded broker could not start or stopped unexpectedly."""


# The broker side (the child process) ---------------------------------------------------------

_classes: tuple[type[Any], type[Any]] | None = None


def _server_classes() -> tuple[type[Any], type[Any]]:
    """(broker class, auth plugin class), built on first use: only the broker process imports
    amqtt (150 ms), the hub never does."""
    global _classes
    if _classes is not None:
        return _classes
    from amqtt.broker import Broker  # type: ignore[import-untyped]
    from amqtt.plugins.base import BaseAuthPlugin  # type: ignore[import-untyped]

    class OpenAuthPlugin(BaseAuthPlugin):  # type: ignore[misc]
        """Accept every client without marking its session anonymous (module docstring)."""

        async def authenticate(self, *, session: Any) -> bool:
            return True

    class TenaceBroker(Broker):  # type: ignore[misc]
        """amqtt's broker with the two delivery fixes of the module docstring."""

        async def _publish_retained_messages_for_subscription(
                self, subscription: tuple[str, int], session: Any) -> None:
            subscribers = self._subscriptions.get(subscription[0], ())
            if any(sub.client_id == session.client_id for sub, _qos in subscribers):
                await super()._publish_retained_messages_for_subscription(subscription, session)

        async def _publish_session_retained_messages(self, session: Any) -> None:
            """Send the messages queued while the session was away with retain 0
            (MQTT-3.3.1-9; amqtt 0.12 sets it)."""
            handler = self._get_handler(session)
            tasks = []
            while handler is not None and not session.retained_messages.empty():
                queued = await session.retained_messages.get()
                tasks.append(asyncio.ensure_future(
                    handler.mqtt_publish(queued.topic, queued.data, queued.qos, retain=False)))
            if tasks:
                await asyncio.wait(tasks)

    # amqtt loads its plugins by dotted path: publish the class as hub.broker.OpenAuthPlugin
    # (on the imported module, which is not this one under ``python -m hub.broker``).
    OpenAuthPlugin.__module__ = TenaceBroker.__module__ = "hub.broker"
    setattr(importlib.import_module("hub.broker"), "OpenAuthPlugin", OpenAuthPlugin)  # noqa: B010
    _classes = (TenaceBroker, OpenAuthPlugin)
    return _classes


def broker_config(host: str, port: int, tls: tuple[str, str] | None = None,
                  plain_port: int | None = None) -> dict[str, Any]:
    """amqtt 0.12 configuration: the TCP listener, the open auth plugin, nothing else.

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
        "plugins": {"hub.broker.OpenAuthPlugin": {}},
    }


def quiet_amqtt_logging() -> None:
    """amqtt logs every connection at INFO: keep it to warnings."""
    for name in _AMQTT_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


async def serve(host: str, port: int, stop: asyncio.Event | None = None, *,
                tls: tuple[str, str] | None = None, plain_port: int | None = None) -> None:
    """Run the broker until ``stop`` is set (or forever); prints the ready line on stdout."""
    quiet_amqtt_logging()
    broker_class, _plugin = _server_classes()
    broker = broker_class(broker_config(host, port, tls, plain_port),
                          loop=asyncio.get_running_loop())
    await broker.start()
    sockets = broker._servers["tls" if "tls" in broker._servers else "default"].instance.sockets
    print(f"{_READY}{sockets[0].getsockname()[1]}", flush=True)
    try:
        await (stop or asyncio.Event()).wait()
    finally:
        await broker.shutdown()


def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hub.broker",
                                     description="Run the embedded MQTT broker (amqtt).")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    parser.add_argument("--port", type=int, default=1883, help="TCP port (0: any free port)")
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
        await serve(args.host, args.port, stop, tls=tls, plain_port=args.plain_port)

    asyncio.run(run())
    return 0


def _stdin_readable(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
    if not os.read(sys.stdin.fileno(), 4096):  # EOF: the parent is gone
        loop.remove_reader(sys.stdin.fileno())
        stop.set()


# The hub side --------------------------------------------------------------------------------

class EmbeddedBroker:
    """amqtt in a child process, listening on ``host``:``port`` (0 picks a free port).

    ``start()`` returns once the broker accepts connections; ``stop()`` is idempotent. A club
    hub listens on its LAN (``host="0.0.0.0"``); tests use the loopback default.

    ``tls`` (certificate chain, key: hub.tls's ``broker.crt``, ``broker.key``) makes the port
    a TLS one, and ``ca_file`` the authority its clients verify it with (in :attr:`url`);
    ``plain_port`` opens a plain port beside it.
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 0, *,
                 start_timeout: float = 15.0, tls: tuple[str, str] | None = None,
                 ca_file: str | None = None, plain_port: int | None = None):
        self.host = host
        self.port = port
        self.start_timeout = start_timeout
        self.tls = tls
        self.ca_file = ca_file
        self.plain_port = plain_port
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
        if self.tls is not None:
            command += ["--tls-cert", self.tls[0], "--tls-key", self.tls[1]]
            if self.plain_port is not None:
                command += ["--plain-port", str(self.plain_port)]
        # Its own session: a Ctrl-C meant for the hub does not kill the broker under it.
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=None, text=True, start_new_session=True)
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
            raise BrokerError(f"embedded broker on {self.host}:{self.port} did not start "
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

    def __enter__(self) -> EmbeddedBroker:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"EmbeddedBroker(host={self.host!r}, port={self.port}, pid={self.pid})"


if __name__ == "__main__":
    sys.exit(_main())
