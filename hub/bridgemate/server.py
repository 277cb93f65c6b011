"""The Data Connector's HTTP routes (hub.bridgemate): :class:`DataConnector`, an aiohttp
application (hub.webserver) on the hub's asyncio loop, on its own address.

* ``GET /``: the banner the clients look for (``Bridgemate dataconnector service
  version``), in plain text;
* ``POST /dc-scoringprogram``: a ScoringProgramRequest, at most :data:`MAX_BODY` bytes with
  a Content-Length, answered with a ScoringProgramResponse (hub.bridgemate.commands).

Another path gets 404, another method on the endpoint 405, a body too large 413, a body
without a Content-Length 411: each with a ScoringProgramResponse whose ``DataType`` is Error
(4) and whose ``SerializedData`` says what was wrong, and the connection closed. There is
no licence check: ClubId and LicenceKey are only required, so bind the server to a loopback
or the club's own network (``host``).

Every request goes first through the console's Host/Origin guard (hub.webserver.host_guard):
a ``Host`` that is not one of the server's names (an IP address, localhost, this machine's
name, the bound address, ``allowed_hosts``) or an ``Origin`` other than the server's own is
refused (403, an Error response) before any route runs, so a web page a scorer visits cannot
reach the scoring program's API through DNS rebinding.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from aiohttp import web

from hub.bridgemate.commands import Commands
from hub.bridgemate.model import Command, DataType, ErrorType, make_response
from hub.bridgemate.queues import BridgemateHub, ResultQueues
from hub.webserver import (
    HostAllowList,
    HttpError,
    WebServer,
    application,
    host_guard,
    json_response,
    read_body,
)

__all__ = ["BANNER", "DEFAULT_PORT", "ENDPOINT", "MAX_BODY", "DataConnector"]

log = logging.getLogger(__name__)

DEFAULT_PORT = 5079
ENDPOINT = "/dc-scoringprogram"
BANNER = "Bridgemate dataconnector service version 5 (Tenace hub)"
MAX_BODY = 8 * 1024 * 1024       # an InitDTO with player data and hand records fits easily


class DataConnector:
    """The Data Connector for ``hub`` (hub.bridgemate): ``await start()``, ``url``,
    ``handle(body)``, ``poll``, ``accept``, ``await stop()``."""

    def __init__(self, hub: BridgemateHub, host: str = "127.0.0.1", port: int = DEFAULT_PORT,
                 *, timeout: float = 10.0, allowed_hosts: Iterable[str] = ()):
        self.hub = hub
        self.allowed = HostAllowList(allowed_hosts, bind=host)
        self.host = host
        self.port = port
        self.timeout = timeout
        self.queues = ResultQueues(hub)
        self.commands = Commands(hub, self.queues)
        self._web: WebServer | None = None

    async def start(self) -> None:
        self.queues.start()
        app = application(_refusal, _unknown, max_body=MAX_BODY, name="Bridgemate",
                          middlewares=[host_guard(self.allowed)])
        app.on_response_prepare.append(_no_store)
        app.router.add_get("/", _banner)
        app.router.add_post(ENDPOINT, self._command)
        web_server = WebServer(app, self.host, self.port)
        try:
            await web_server.start()
        except BaseException:
            self.queues.stop()
            raise
        self._web = web_server
        self.port = web_server.port
        log.info("Bridgemate Data Connector on %s", self.url)

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    async def stop(self) -> None:
        """Close the server (idempotent)."""
        self.queues.stop()
        web_server, self._web = self._web, None
        if web_server is not None:
            await web_server.stop()

    def handle(self, body: bytes) -> tuple[int, dict[str, Any]]:
        """One POSTed ScoringProgramRequest: (HTTP status, ScoringProgramResponse)."""
        return self.commands.handle(body)

    def poll(self, session: str, kind: str, everything: bool
             ) -> tuple[list[dict[str, Any]], int]:
        """hub.bridgemate.queues.ResultQueues.poll."""
        return self.queues.poll(session, kind, everything)

    def accept(self, session: str, kind: str, upto: int) -> None:
        """hub.bridgemate.queues.ResultQueues.accept."""
        self.queues.accept(session, kind, upto)

    async def _command(self, request: web.Request) -> web.Response:
        body = await read_body(request, MAX_BODY, "the request", self.timeout)
        status, response = self.handle(body)
        return json_response(response, status, charset=True)


def _refusal(status: int, message: str, text: object = None) -> web.Response:
    return json_response(make_response(Command.None_, DataType.ERROR, message, None,
                                       ErrorType.VALIDATION), status, charset=True)


def _unknown(request: web.Request) -> HttpError:
    method, path = request.method, request.path
    if path == ENDPOINT:
        return HttpError(405, f"{method} {path}: commands are POSTed")
    return HttpError(404, f"no page {path!r:.80}: commands go to POST {ENDPOINT}")


async def _banner(request: web.Request) -> web.Response:
    return web.Response(text=BANNER, content_type="text/plain", charset="utf-8")


async def _no_store(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.setdefault("Cache-Control", "no-store")
