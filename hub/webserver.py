"""The hub's one HTTP layer: aiohttp applications served on the hub's own asyncio loop.

The director's console with the results pages (hub.console) and the Bridgemate Data
Connector (hub.bridgemate) are each an :class:`aiohttp.web.Application` on their own
address, started and stopped by a :class:`WebServer` (``AppRunner`` + ``TCPSite``, no
thread of their own). What they share is here:

* :func:`application`: an Application whose every refusal is answered in the
  application's own error shape (``answer(status, message)``), by one middleware: an
  :class:`HttpError` a handler raises, a path no route has and a method a route does not
  take (``unknown(request)`` names them), a body over the limit, and any bug (500, logged;
  the hub goes on). Error answers close the connection;
* :func:`json_response`: compact UTF-8 JSON;
* :func:`read_body`: a request body with a Content-Length (411 without one, or chunked;
  413 over the limit; 408 when it does not arrive in time);
* :class:`HostAllowList` and :func:`host_guard`: a middleware that refuses (403) a request
  whose ``Host`` is not one of the server's own names, or whose ``Origin`` is not the
  server's own origin. A page of another site that a browser was tricked into sending here
  (DNS rebinding: a name of the attacker's resolved to this machine) names its own host, and
  is refused before any handler runs.

Connections are bounded (audit ``auditsec``: a phone on the club's Wi-Fi opening 1,100
connections and sending nothing, or a header line every few seconds, kept every one for an
hour, took all of the hub's file descriptors, locked the director out of the console and
wrote 140,000 tracebacks to the log): a connection whose request has not fully arrived
:data:`IDLE` seconds after it opened, or after its previous answer, is closed (aiohttp's
keep-alive timeout, an hour by default); one address holds at most :data:`PER_ADDRESS`
connections at once and all addresses but loopback :data:`TOTAL`, counted as they are
accepted (before a TLS handshake, which asyncio waits 60 s for); one more is closed at once
(answered 503 over plain HTTP) (:class:`ConnectionLimit`), logged on the 1st, 10th, 100th
... refusal.

Requests that are not HTTP at all (a bad request line, a header line without a colon, a
header over :data:`MAX_FIELD` bytes) are refused by aiohttp's own parser before any
application sees them: 400 in plain text, connection closed, logged without a traceback.

Binding an address that is taken raises ``OSError`` from :meth:`WebServer.start` (the
``tenace`` commands turn it into a one-line error).

What the hub's service knows of them is :class:`HttpFront` (the Data Connector) and
:class:`RoomFeed` (the console, told of each change): neither side imports the other's
internals.

Exceptions::

    hub.errors.HubError
    └── HttpError        a request refused: its HTTP status and the message for the client
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import socket
import ssl
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

from aiohttp import web

from bridgecore.text import Text
from hub.broker_limits import PER_ADDRESS, TOTAL, ConnectionLimit, listening
from hub.errors import HubError
from hub.texts import render

if TYPE_CHECKING:
    from hub.alerts import Alert

__all__ = ["IDLE", "LOCAL_NAMES", "MAX_FIELD", "PER_ADDRESS", "TOTAL", "ConnectionLimit",
           "HostAllowList", "HttpError", "HttpFront", "RoomFeed", "WebServer", "application",
           "host_guard", "json_response", "read_body"]

log = logging.getLogger(__name__)

MAX_FIELD = 16 * 1024          # a request line or one header line
LINGER = 1.0                   # seconds a refused body is still read, so the client sees why
JSON = "application/json"
SERVER = "Tenace"             # the Server header of every answer (no version)
IDLE = 15.0                    # seconds a connection may wait without a whole request
# No words (they would need the catalogs, hub/locale): the browser shows its own for 503.
_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 15\r\nContent-Length: 0\r\n"
         b"Connection: close\r\n\r\n")
LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback")

Answer = Callable[[int, str, Text | None], web.Response]
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class HttpError(HubError):
    """A request refused: ``status`` (4xx, 5xx) and ``message``, which names the input. A
    message given as a :class:`Text` (a refusal a user reads) is ``text``, rendered in the
    reader's language when the application knows it (``application(language=)``);
    ``message`` is then its English words (the log's)."""

    def __init__(self, status: int, message: Text | str):
        super().__init__(message)       # HubError: ``text`` and the English words
        self.status = status
        self.message = str(self)


class HttpFront(Protocol):
    """An application the hub serves (hub.service): started and stopped on its loop."""

    @property
    def url(self) -> str: ...
    async def start(self) -> None: ...
    async def stop(self) -> None: ...


class RoomFeed(HttpFront, Protocol):
    """The director's console (hub.console): told on the hub's loop of what changed."""

    def table_changed(self, table_id: str) -> None: ...
    def alert_changed(self, alert: Alert) -> None: ...
    def clock_changed(self) -> None: ...
    def hub_changed(self, status: dict[str, Any]) -> None: ...


class _QuietLog(logging.LoggerAdapter):  # type: ignore[type-arg]
    """aiohttp's server log: a request it cannot parse is the client's fault, one line."""

    def exception(self, msg: object, *args: object, exc_info: Any = True,
                  **kwargs: Any) -> None:
        error = exc_info if isinstance(exc_info, BaseException) else None
        self.info("%s: %s", str(msg) % args if args else msg, error or "error")


def json_response(data: Any, status: int = 200, *, charset: bool = False) -> web.Response:
    """``data`` as compact JSON (``application/json``, with ``; charset=utf-8`` when asked)."""
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()
    return web.Response(body=body, status=status, content_type=JSON,
                        charset="utf-8" if charset else None)


async def read_body(request: web.Request, limit: int, what: str, timeout: float, *,
                    over_app_limit: bool = False) -> bytes:
    """The body of ``request`` (``what`` names it in the refusals), at most ``limit`` bytes:
    411 without a Content-Length or chunked, 413 over ``limit``, 408 too slow.
    ``over_app_limit``: ``limit`` may exceed the application's ``client_max_size`` (an
    uploaded file: the body is read past aiohttp's own check)."""
    if "chunked" in request.headers.get("Transfer-Encoding", "").lower():
        raise HttpError(411, f"send {what} with a Content-Length, not chunked")
    length = request.content_length
    if length is None:
        raise HttpError(411, f"{what} needs a Content-Length")
    if length > limit:
        raise HttpError(413, f"{what} of {length} bytes, limit {limit}")
    try:
        async with asyncio.timeout(timeout):
            if over_app_limit:
                return await request.content.readexactly(length)
            return await request.read()
    except TimeoutError:
        raise HttpError(408, f"{what} not received in time") from None
    except asyncio.IncompleteReadError:
        raise HttpError(400, f"{what} ended before its Content-Length") from None


def _hostname(authority: str) -> str:
    """The host of a ``Host`` header or of an origin's authority, lower case, no port."""
    authority = authority.strip().lower()
    if authority.startswith("["):
        return authority[1:authority.find("]")] if "]" in authority else authority
    return authority.rsplit(":", 1)[0] if authority.count(":") == 1 else authority


class HostAllowList:
    """The names a client may call this server by: every IP address literal (a name the
    attacker controls cannot be one), the loopback names, this machine's host name (and
    ``NAME.local``), the address the server binds, and ``names`` (a club's own DNS name for
    the hub, ``--console-allowed-host``)."""

    def __init__(self, names: Iterable[str] = (), *, bind: str | None = None):
        local = socket.gethostname().lower()
        self.names = {n.lower().strip().strip("[]") for n in (*LOCAL_NAMES, local,
                                                              f"{local}.local", *names) if n}
        if bind:
            self.names.add(bind.lower().strip("[]"))

    def allows(self, host: str) -> bool:
        """Whether a request's ``Host`` header (``host[:port]``) is one of ours."""
        name = _hostname(host)
        if not name:
            return False
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return name.rstrip(".") in self.names
        return True


def host_guard(allowed: HostAllowList) -> Any:
    """A middleware: 403 for a foreign ``Host``, and for an ``Origin`` that is not
    ``http(s)://`` + this request's ``Host`` (module docstring)."""

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        host = request.headers.get("Host", "")
        if not allowed.allows(host):
            raise HttpError(403, f"request for another host {host!r:.80} (allow it with "
                                 "--console-allowed-host)")
        origin = request.headers.get("Origin")
        if origin is not None:
            parts = urlsplit(origin)
            if parts.scheme not in ("http", "https") or parts.netloc.lower() != host.lower():
                raise HttpError(403, f"request from another origin {origin!r:.80}")
        return await handler(request)

    return guard


def application(answer: Answer, unknown: Callable[[web.Request], HttpError], *,
                max_body: int, name: str, middlewares: Iterable[Any] = (),
                language: Callable[[web.Request], str] | None = None) -> web.Application:
    """An Application whose refusals are ``answer(status, message, text)`` (module
    docstring); ``unknown(request)`` is the refusal of a path or a method no route takes.
    ``middlewares`` run inside the one that shapes the refusals (their HttpError is answered
    the same way). ``language(request)``: the reader's language, in which a refusal given as a
    text (``HttpError.text``) is worded."""

    @web.middleware
    async def refusals(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        except HttpError as err:
            refused = err
        except web.HTTPRequestEntityTooLarge:
            refused = HttpError(413, f"a request body over {max_body} bytes")
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
            refused = unknown(request)
        except web.HTTPException as err:
            if err.status < 400:
                raise
            refused = HttpError(err.status, err.reason)
        except (asyncio.CancelledError, ConnectionError):
            raise
        except Exception:   # a bug costs this request, never the hub
            log.exception("%s: %s %s failed", name, request.method, request.path)
            refused = HttpError(500, "internal error of the hub")
        log.info("%s: %d %s (%s %.80s from %s)", name, refused.status, refused.message,
                 request.method, request.path, request.remote)
        message = refused.message
        if refused.text is not None and language is not None:
            message = render(refused.text, language(request))
        response = answer(refused.status, message, refused.text)
        response.force_close()
        return response

    app = web.Application(middlewares=[refusals, *middlewares], client_max_size=max_body)
    app.on_response_prepare.append(_server_name)
    return app


async def _server_name(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer names the server ``Tenace`` and no version: aiohttp's default header
    told anyone on the club's Wi-Fi the aiohttp and Python versions (audit ``auditsec``)."""
    response.headers["Server"] = SERVER


class WebServer:
    """``app`` served at ``host``:``port`` (0: any free port) on the running loop."""

    def __init__(self, app: web.Application, host: str, port: int, *,
                 tls: tuple[str, str] | None = None):
        self.app = app
        self.host = host
        self.port = port
        self.tls = tls                     # (certificate chain, key): HTTPS
        self.limit = ConnectionLimit()
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Listen (``OSError`` when the address is taken or not this machine's)."""
        runner = web.AppRunner(self.app, handle_signals=False, access_log=None,
                               handler_cancellation=True, shutdown_timeout=1.0,
                               lingering_time=LINGER, keepalive_timeout=IDLE,
                               max_line_size=MAX_FIELD, max_field_size=MAX_FIELD,
                               logger=_QuietLog(logging.getLogger(__name__), {}))
        await runner.setup()
        try:
            site = web.SockSite(runner, self._listen(), ssl_context=self._ssl_context())
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self.port = runner.addresses[0][1]     # the port the system chose for port 0

    def _listen(self) -> socket.socket:
        """The listening socket, counting connections (hub.broker_limits.listening)."""
        return listening(self.host, self.port, self.limit, b"" if self.tls else _BUSY)

    def _ssl_context(self) -> ssl.SSLContext | None:
        """TLS 1.2 or newer with ``tls``'s certificate chain (``OSError``/``ssl.SSLError``
        when it cannot be read)."""
        if self.tls is None:
            return None
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        context.load_cert_chain(*self.tls)
        return context

    @property
    def url(self) -> str:
        """``http://host:port`` or ``https://...`` (no trailing slash)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'https' if self.tls else 'http'}://{host}:{self.port}"

    @property
    def running(self) -> bool:
        return self._runner is not None

    async def stop(self) -> None:
        """Stop listening, end the requests in progress (idempotent)."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
