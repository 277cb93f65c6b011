"""The results pages' routes on the console's server (hub.console): ``GET /results...``
(the page, hub/static/results.*) and ``GET /api/results...``, the JSON behind it
(hub.results_pages: this hub's sections; hub.series_api: the event's total and the ladder),
public and read-only; a director or a scorer logged in gets the full view. The director
keeps the club's ladder form and tells apart two players of one name (``POST
/api/results/ladder/form``, ``/api/results/ladder/player``: hub.series_api).

In an event whose sections several hub processes share (hub.shards), the pages of any
shard show the whole event: the other shards' sections, travellers and pairs' score cards
as they publish them, and the field's ranking (hub.shard_views).
"""

from __future__ import annotations

import json
import re
from typing import Any, Protocol

from aiohttp import web

from bridgecore.text import Text
from hub.results_pages import PublicResults, is_page, results_api
from hub.series_api import keep_ladder_form, series_api, tell_ladder_player
from hub.shard_views import merge_results, remote_of, remote_pair_card
from hub.webserver import HttpError, json_response, read_body

__all__ = ["add_results_routes", "results_json"]

MAX_BODY = 2048
_RANKS = {"viewer": 0, "scorer": 1, "director": 2}
_PAIR = re.compile(r"^/pair/([A-Za-z0-9_.-]{1,32})/(\d{1,4})$")   # hub.results_pages'


class Console(Protocol):
    """What the routes use of hub.console.Console."""

    @property
    def hub(self) -> Any: ...
    def session_of(self, request: web.Request) -> Any: ...
    def need(self, role: str, handler: Any, *, page: bool = False,
             csrf: bool = False) -> Any: ...
    def static_file(self, name: str, path: str, what: str = "file") -> web.Response: ...


def results_json(hub: Any, rest: str, *, public: bool) -> dict[str, Any]:
    """The JSON of ``/api/results{rest}`` but the event's and the ladder's: this hub's
    sections, and the other shards' and the field's where there are (LookupError names
    what does not exist, or is not shown)."""
    remote = remote_of(hub)
    pair = _PAIR.match(rest.rstrip("/"))
    if pair and remote is not None \
            and all(s.name != pair.group(1) for s in hub.room.sections):   # another shard's
        room = hub.room
        settings = PublicResults.of(getattr(room, "public_results", None))
        rounds = max((s.movement.rounds for s in room.sections if s.movement is not None),
                     default=0)
        return remote_pair_card(remote, pair.group(1), int(pair.group(2)), public=public,
                                names=settings.names,
                                ranking_shown=settings.ranking_shown(room.clock.round, rounds))
    data = results_api(hub.room, rest, public=public)
    rest = rest.rstrip("/")
    if rest == "":
        data["series"] = {"part": getattr(getattr(hub, "setup", None), "part", 0)}
    field = getattr(hub, "field", None)
    if remote is None and field is None:
        return data
    return merge_results(data, rest, remote, public=public,
                         own_sections={s.name for s in hub.room.sections},
                         own_field=None if field is None else field.ranking_json())


def add_results_routes(app: web.Application, console: Console) -> None:
    """The routes of the module docstring on ``app`` (the console's)."""

    async def data(request: web.Request) -> web.Response:
        session = console.session_of(request)
        full = session is not None and _RANKS[session.role] >= _RANKS["scorer"]
        rest = request.path[len("/api/results"):]
        if rest.rstrip("/") in ("/event", "/ladder"):
            return json_response(series_api(console.hub, rest.rstrip("/")[1:],
                                            request.query, public=not full))
        try:
            return json_response(results_json(console.hub, rest, public=not full))
        except LookupError as err:
            raise HttpError(404, str(err.args[0])) from None

    async def page(request: web.Request) -> web.Response:
        if not is_page(request.path):
            raise HttpError(404, Text.of("http.no_page", path=request.path[:80]))
        return console.static_file("results.html", request.path, "page")

    def ladder_post(what: Any) -> Any:
        async def post(request: web.Request) -> web.Response:
            raw = await read_body(request, MAX_BODY, "the ladder's request", 10.0)
            try:
                body = json.loads(raw)
            except ValueError:
                raise HttpError(400, Text.of("http.ladder_form",
                                             error="the body is not JSON")) from None
            return json_response(what(console.hub, body, console.session_of(request).user))
        return console.need("director", post, csrf=True)

    get = app.router.add_get
    app.router.add_post("/api/results/ladder/form", ladder_post(keep_ladder_form))
    app.router.add_post("/api/results/ladder/player", ladder_post(tell_ladder_player))
    get("/api/results", data)
    get("/api/results/{rest:.*}", data)
    get("/results", page)
    get("/results/{rest:.*}", page)
