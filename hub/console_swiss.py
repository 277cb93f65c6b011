"""The console's Swiss page: each Swiss section's standings and the pairings of every round
drawn (hub.swiss), for anyone logged in, and the director's "draw the next round now".

* ``GET /swiss``: the page (static/swiss.html, swiss.js; its words from the catalogs);
* ``GET /api/swiss``: :meth:`hub.swiss.SwissRounds.to_json` (docs/console-api.md);
* the draw itself is the director command ``{"op": "swiss_draw", "section": "A"}`` on
  ``POST /api/director`` (hub.director).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from aiohttp import web

from hub.webserver import json_response

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Console(Protocol):
    """What the routes use of hub.console.Console."""

    @property
    def hub(self) -> Any: ...
    def need(self, role: str, handler: Handler, *, page: bool = False,
             csrf: bool = False) -> Handler: ...
    def static_file(self, name: str, path: str, what: str = "file") -> web.Response: ...

__all__ = ["add_swiss_routes"]


def add_swiss_routes(app: web.Application, console: Console) -> None:
    """``GET /swiss`` and ``GET /api/swiss`` on ``app`` (the console's)."""

    async def page(request: web.Request) -> web.Response:
        return console.static_file("swiss.html", request.path, "page")

    async def state(request: web.Request) -> web.Response:
        return json_response(console.hub.room.swiss.to_json())

    app.router.add_get("/swiss", console.need("viewer", page, page=True))
    app.router.add_get("/api/swiss", console.need("viewer", state))
