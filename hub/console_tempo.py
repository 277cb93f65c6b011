"""The director's tempo pages on the console (hub.console): timelines, slow play, exports.

Director only (a viewer or a scorer gets 403; players' tablets never see any of it). Every
answer is computed from the hub's event log (``hub.log``, hub.store) and the room, with the
devices' clock offsets: each logged event's own, else the room's ``ClockBook`` (hub.clock:
the hub's clock minus the device's, hub.tempo)::

    GET  /tempo                              the page (static/tempo.html): with ?table=&board=
                                             a board's timeline, else the slow-play panel
    GET  /api/tempo/board/{table}/{board}    the timeline (bridgecore.tempo.BoardTempo JSON),
                                             ?upto=POSITION: as the log stood then
    GET  /api/tempo/slow                     slow play: each board at each table and each pair
                                             against the round's allowance (Law 74B4)
    GET  /api/tempo/export.pbn, export.lin   every board played, each call and card timed
    POST /api/tempo/attach                   {"alert", "table", "board", "text"}: the director
                                             rules on the alert (hub.director ``rule``) with
                                             the view's reference appended to his text

The reference a ruling carries (hub.tempo.timeline_reference) names the log position the view
was computed at and the SHA-256 of its JSON: ``GET /api/tempo/board/...?upto=POSITION``
gives the same view again, whose digest can be checked.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from aiohttp import web

from bridgecore.lin import write_lin
from bridgecore.pbn_writer import pbn_bytes
from bridgecore.tempo import BoardTempo
from bridgecore.text import Text
from hub.room import Room
from hub.tempo import (
    RoomFacts,
    find_board,
    played_records,
    session_tempo,
    slow_play_report,
    timeline_reference,
)
from hub.texts import in_language
from hub.webserver import HttpError, json_response, read_body

__all__ = ["MAX_ATTACH", "TempoRoutes"]

MAX_ATTACH = 8 * 1024
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class _Hub(Protocol):
    @property
    def room(self) -> Room: ...
    def director(self, command: Any, account: str = "console") -> dict[str, Any]: ...


class TempoRoutes:
    """The routes of the module docstring, for a console's ``hub``; ``need(role, handler,
    page=..., csrf=...)`` is the console's guard, ``user(request)`` the session's user,
    ``language(request)`` the reader's (a refused attachment's ruling is worded in it)."""

    def __init__(self, hub: _Hub, page: Callable[[], web.Response],
                 user: Callable[[web.Request], str], timeout: float = 10.0,
                 language: Callable[[web.Request], str] = lambda request: "en"):
        self.hub = hub
        self.page = page
        self.user = user
        self.timeout = timeout
        self.language = language

    def add(self, app: web.Application, need: Callable[..., Handler]) -> None:
        get = app.router.add_get
        get("/tempo", need("director", self._page, page=True))
        get("/api/tempo/board/{table}/{board}", need("director", self._board))
        get("/api/tempo/slow", need("director", self._slow))
        get("/api/tempo/export.pbn", need("director", self._export_pbn))
        get("/api/tempo/export.lin", need("director", self._export_lin))
        app.router.add_post("/api/tempo/attach", need("director", self._attach, csrf=True))

    # Data --------------------------------------------------------------------------------
    async def boards(self, upto: int | None = None) -> tuple[RoomFacts, list[BoardTempo]]:
        """The room's facts (taken here, on the hub's loop) and every board timed and
        marked: the log read and the rule applied on a worker thread."""
        log = getattr(self.hub, "log", None)
        if log is None:
            raise HttpError(404, Text.of("http.no_tempo"))
        facts = RoomFacts.of(self.hub.room)
        clocks = getattr(self.hub.room, "clocks", None)
        offsets = {} if clocks is None else clocks.offsets()   # a copy: read off the loop

        def work() -> list[BoardTempo]:
            return session_tempo(facts, log.replay(), offsets, upto=upto)

        return facts, await asyncio.to_thread(work)

    async def timeline(self, table: str, board: int, upto: int | None = None
                       ) -> dict[str, Any]:
        found = find_board((await self.boards(upto))[1], table, board)
        if found is None:
            raise HttpError(404, Text.of("http.not_played", board=board, table=table[:40]))
        return found.to_json()

    def _position(self) -> int:
        log = getattr(self.hub, "log", None)
        return 0 if log is None else int(log.last_position())

    # Handlers ----------------------------------------------------------------------------
    async def _page(self, request: web.Request) -> web.Response:
        return self.page()

    async def _board(self, request: web.Request) -> web.Response:
        table = request.match_info["table"]
        board = _int(request.match_info["board"], "board")
        upto_text = request.query.get("upto")
        upto = None if upto_text is None else _int(upto_text, "upto")
        view = await self.timeline(table, board, upto)
        position = upto if upto is not None else self._position()
        return json_response(dict(view, position=position,
                                  reference=timeline_reference(view, position)))

    async def _slow(self, request: web.Request) -> web.Response:
        facts, boards = await self.boards()
        return json_response(slow_play_report(facts, boards))

    async def _export_pbn(self, request: web.Request) -> web.Response:
        body, charset = pbn_bytes(played_records(*await self.boards()))
        return web.Response(body=body, headers={
            "Content-Type": f"application/x-pbn; charset={charset.lower()}",
            "Content-Disposition": 'attachment; filename="tempo.pbn"'})

    async def _export_lin(self, request: web.Request) -> web.Response:
        text = write_lin(played_records(*await self.boards()))
        return web.Response(body=text.encode(), headers={
            "Content-Type": "text/plain; charset=utf-8",
            "Content-Disposition": 'attachment; filename="tempo.lin"'})

    async def _attach(self, request: web.Request) -> web.Response:
        body = await read_body(request, MAX_ATTACH, "a tempo attachment", self.timeout)
        try:
            data = json.loads(body)
        except (UnicodeDecodeError, ValueError) as err:
            raise HttpError(400, f"the attachment is not JSON: {err}") from None
        if not isinstance(data, dict):
            raise HttpError(400, "an attachment is a JSON object")
        alert, table, text = data.get("alert"), data.get("table"), data.get("text", "")
        board = data.get("board")
        if not isinstance(alert, str) or not isinstance(table, str) or not isinstance(text, str) \
                or not isinstance(board, int) or isinstance(board, bool):
            raise HttpError(400, Text.of("http.attach_fields"))
        position = self._position()
        view = await self.timeline(table, board, position)
        reference = timeline_reference(view, position)
        ruling = (text.strip() + "\n" if text.strip() else "") + f"[{reference}]"
        result = self.hub.director({"op": "rule", "id": alert, "text": ruling},
                                   account=self.user(request))
        ok = bool(result.get("ok"))
        if not ok:      # refused: in the director's language
            result = in_language(result, self.language(request))
        return json_response(dict(result, reference=reference, position=position),
                             200 if ok else 400)


def _int(text: str, what: str) -> int:
    if not text.isdecimal() or len(text) > 12:
        raise HttpError(404, f"{what} must be a whole number, not {text!r:.20}")
    return int(text)
