"""The director's console: a web page served by the hub, live over Server-Sent Events.

``Console(hub, host, port)`` is an aiohttp application (hub.webserver) on the hub's asyncio
loop. ``hub`` is anything with ``room`` (:class:`hub.room.Room`), ``director(command) ->
{"ok": ..., "error"?: ...}`` (checks, logs and applies a director command: hub.director)
and ``hub_time() -> float``. Routes:

* ``GET /``: the page; ``GET /static/{name}``: its script and style (from hub/static);
* ``GET /api/room``: the overview (:meth:`Console.overview`): every table with its status,
  the round clock, the alerts not yet resolved and the last ones resolved;
* ``GET /api/alert/{id}``: one alert in full (``Alert.to_json``: facts, evidence, options);
* ``GET /api/events``: the live feed (``text/event-stream``): ``room`` (the overview, first
  on each connection), then ``table``, ``alert`` and ``clock`` as they change;
* ``POST /api/director``: a JSON director command (hub/director.py) for ``hub.director``,
  at most :data:`MAX_BODY` bytes, ``application/json`` and from the console's own origin;
* ``GET /results``, ``/results/board/{n}``, ``/results/pair/{section}/{n}``: the results
  pages (static/results.*), and the JSON behind them, ``GET /api/results...``
  (hub.results_pages): rankings, travellers with the hand, double-dummy table and par,
  score cards.

Every answer is ``Cache-Control: no-store`` with a same-origin content security policy. A
request the console refuses (an unknown path 404, another method 405, no Content-Length
411, a body too large 413, not JSON 400, ...) is answered ``{"ok": false, "error": "..."}``
with its status and the connection closed; a director command the hub refuses is answered
400 with the hub's own ``{"ok": false, "error": "..."}``.

The hub calls :meth:`Console.table_changed`, :meth:`Console.alert_changed` and
:meth:`Console.clock_changed` on its loop after each change. They only mark what changed:
the feed is sent at most every ``coalesce`` seconds, each page through its own bounded queue,
and a page that cannot keep up is dropped (it reconnects and gets the overview again). The
hub is never blocked by a page. Alerts go to the director only: bind the console to a
loopback or a director-only network (``host``). What each table's status means:
hub.console_views.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from aiohttp import web

from hub.alerts import Alert
from hub.console_views import STATUSES, RoomView, alert_summary, table_status
from hub.results_pages import is_page, results_api
from hub.room import Room
from hub.webserver import HttpError, WebServer, application, json_response, read_body

__all__ = ["MAX_BODY", "STATUSES", "Console", "ConsoleHub", "alert_summary", "table_status"]

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
MAX_BODY = 64 * 1024          # a director command
RESOLVED_KEPT = 50            # resolved alerts kept in the overview, newest first
_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png",
          ".json": "application/json"}
_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
            "Content-Security-Policy": "default-src 'self'"}


class ConsoleHub(Protocol):
    """What the console needs of the hub (hub.service.Hub)."""

    @property
    def room(self) -> Room: ...
    def director(self, command: Any) -> dict[str, Any]: ...
    def hub_time(self) -> float: ...


# The live feed ----------------------------------------------------------------------------

def _event(name: str, data: Any) -> bytes:
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"event: {name}\ndata: {text}\n\n".encode()


class _Page:
    """One open page: its request and its queue of feed messages (the request's handler
    writes them; aiohttp cancels it when the page goes away)."""

    def __init__(self, request: web.Request, size: int):
        self.request = request
        self.queue: asyncio.Queue[bytes] = asyncio.Queue(size)
        self.peer = request.remote

    def push(self, data: bytes) -> bool:
        """Queue ``data``; False when the page is too slow (its queue is full)."""
        try:
            self.queue.put_nowait(data)
        except asyncio.QueueFull:
            return False
        return True


class Console:
    """The director's console for ``hub`` (module docstring): ``await start()``, ``url``,
    ``await stop()``."""

    def __init__(self, hub: ConsoleHub, host: str = "127.0.0.1", port: int = 0, *,
                 coalesce: float = 0.15, queue_size: int = 256, max_pages: int = 32,
                 heartbeat: float = 15.0, timeout: float = 10.0):
        self.hub = hub
        self.host = host
        self.port = port
        self.coalesce = coalesce
        self.queue_size = queue_size
        self.max_pages = max_pages
        self.heartbeat = heartbeat
        self.timeout = timeout
        self._web: WebServer | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: int | None = None
        self._pages: set[_Page] = set()
        self._files: dict[str, tuple[bytes, str]] = {}
        self._tables: set[str] = set()
        self._alerts: dict[str, None] = {}     # ids, in the order they changed
        self._clock_dirty = False
        self._clock_key: tuple[int, float | None, float] | None = None
        self._flush_handle: asyncio.TimerHandle | None = None
        self._deadline_handle: asyncio.TimerHandle | None = None

    # Life --------------------------------------------------------------------------------
    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._thread = threading.get_ident()
        self._files = _load_static()
        web_server = WebServer(self._app(), self.host, self.port)
        await web_server.start()
        self._web = web_server
        self.port = web_server.port
        self._clock_key = self._clock_now()
        self._schedule_deadline()
        log.info("director console on %s", self.url)

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    @property
    def pages(self) -> int:
        """Pages open on the live feed."""
        return len(self._pages)

    async def stop(self) -> None:
        """Close the server and every page (idempotent)."""
        for handle in (self._flush_handle, self._deadline_handle):
            if handle is not None:
                handle.cancel()
        self._flush_handle = self._deadline_handle = None
        for page in list(self._pages):
            self._drop(page, "console stopping")
        web_server, self._web = self._web, None
        if web_server is not None:
            await web_server.stop()

    # What the hub calls -------------------------------------------------------------------
    def table_changed(self, table_id: str) -> None:
        """The table's state changed (on the hub's loop)."""
        if self._off_loop(self.table_changed, table_id):
            return
        self._tables.add(table_id)
        self._schedule()

    def alert_changed(self, alert: Alert) -> None:
        """An alert was raised or changed version (on the hub's loop)."""
        if self._off_loop(self.alert_changed, alert):
            return
        self._alerts[alert.id] = None
        self._tables.add(alert.table)
        self._schedule()

    def clock_changed(self) -> None:
        """The round clock changed: a round started (on the hub's loop)."""
        if self._off_loop(self.clock_changed):
            return
        self._clock_dirty = True
        self._tables.update(self.hub.room.tables)
        self._schedule()

    def _off_loop(self, fn: Any, *args: Any) -> bool:
        """Not on the loop: hand the call to it. Before start (or after stop): ignore."""
        loop = self._loop
        if loop is None or self._web is None:
            return True
        if threading.get_ident() != self._thread:
            loop.call_soon_threadsafe(fn, *args)
            return True
        return False

    def _schedule(self) -> None:
        if self._flush_handle is None and self._loop is not None:
            self._flush_handle = self._loop.call_later(self.coalesce, self._flush)

    def _clock_now(self) -> tuple[int, float | None, float]:
        clock = self.hub.room.clock
        return clock.round, clock.started, clock.minutes

    def _schedule_deadline(self) -> None:
        """At the end of the round, tables may become late without any event."""
        if self._deadline_handle is not None:
            self._deadline_handle.cancel()
            self._deadline_handle = None
        deadline = self.hub.room.clock.deadline
        if deadline is None or self._loop is None:
            return
        delay = deadline - self.hub.hub_time()
        if delay >= 0:
            self._deadline_handle = self._loop.call_later(delay + 0.05, self._round_ended)

    def _round_ended(self) -> None:
        self._deadline_handle = None
        self._tables.update(self.hub.room.tables)
        self._schedule()

    def _flush(self) -> None:
        """Send what changed since the last flush to every page."""
        self._flush_handle = None
        tables, self._tables = self._tables, set()
        alert_ids, self._alerts = list(self._alerts), {}
        clock_key = self._clock_now()
        clock_dirty = self._clock_dirty or clock_key != self._clock_key
        self._clock_dirty = False
        if clock_key != self._clock_key:     # every table may have become late, or not
            self._clock_key = clock_key
            tables.update(self.hub.room.tables)
            self._schedule_deadline()
        if not self._pages:
            return
        try:
            room = self.hub.room
            view = RoomView(room, self.hub.hub_time())
            parts = []
            if clock_dirty:
                parts.append(_event("clock", view.clock()))
            parts += [_event("table", view.table(t)) for t in sorted(tables) if t in room.tables]
            parts += [_event("alert", alert_summary(room.alerts[a])) for a in alert_ids
                      if a in room.alerts]
        except Exception:  # a view that cannot be built must not stop the hub
            log.exception("console feed not built")
            return
        data = b"".join(parts)
        if data:
            for page in list(self._pages):
                if not page.push(data):
                    self._drop(page, "too slow")

    def _drop(self, page: _Page, why: str) -> None:
        if page in self._pages:
            self._pages.discard(page)
            log.info("console page %s dropped: %s", page.peer, why)
        transport = page.request.transport
        if transport is not None:
            transport.abort()        # aiohttp cancels the page's handler

    # Views -------------------------------------------------------------------------------
    def overview(self) -> dict[str, Any]:
        """``GET /api/room``: tables (with their status), clock, alerts (newest first: those
        not yet resolved, then the last :data:`RESOLVED_KEPT` resolved)."""
        room = self.hub.room
        view = RoomView(room, self.hub.hub_time())
        alerts = list(room.alerts)[::-1]
        shown = [a for a in alerts if a.is_open]
        shown += [a for a in alerts if not a.is_open][:RESOLVED_KEPT]
        return {"hub_time": view.now, "clock": view.clock(),
                "sections": [s.name for s in room.sections],
                "tables": [view.table(t) for t in room.tables],
                "alerts": [alert_summary(a) for a in shown],
                "counts": {"open": sum(view.open.values()), "total": len(room.alerts)}}

    # HTTP --------------------------------------------------------------------------------
    def _app(self) -> web.Application:
        app = application(_refusal, _unknown, max_body=MAX_BODY, name="console")
        app.on_response_prepare.append(_headers)
        add = app.router.add_get
        add("/", self._page)
        add("/index.html", self._page)
        add("/static/{name:.*}", self._static)
        add("/favicon.ico", _favicon)
        add("/api/room", self._room)
        add("/api/alert/{id:.*}", self._alert)
        add("/api/events", self._feed, allow_head=False)
        add("/api/results", self._results)
        add("/api/results/{rest:.*}", self._results)
        add("/results", self._results_page)
        add("/results/{rest:.*}", self._results_page)
        app.router.add_post("/api/director", self._director)
        return app

    def _file(self, name: str, path: str, what: str = "file") -> web.Response:
        found = self._files.get(name)
        if found is None:
            raise HttpError(404, f"no {what} {path!r:.80}")
        return web.Response(body=found[0], headers={"Content-Type": found[1]})

    async def _page(self, request: web.Request) -> web.Response:
        return self._file("console.html", request.path)

    async def _static(self, request: web.Request) -> web.Response:
        return self._file(request.match_info["name"], request.path)

    async def _room(self, request: web.Request) -> web.Response:
        return json_response(self.overview())

    async def _alert(self, request: web.Request) -> web.Response:
        alert_id = request.match_info["id"]
        alerts = self.hub.room.alerts
        if alert_id not in alerts:
            raise HttpError(404, f"no alert {alert_id!r:.80}")
        return json_response(alerts[alert_id].to_json())

    async def _results(self, request: web.Request) -> web.Response:
        try:
            data = results_api(self.hub.room, request.path[len("/api/results"):])
        except LookupError as err:
            raise HttpError(404, str(err.args[0])) from None
        return json_response(data)

    async def _results_page(self, request: web.Request) -> web.Response:
        if not is_page(request.path):
            raise HttpError(404, f"no page {request.path!r:.80}")
        return self._file("results.html", request.path, "page")

    async def _director(self, request: web.Request) -> web.Response:
        body = await read_body(request, MAX_BODY, "a director command", self.timeout)
        # A page of another site must not command the hub through the director's browser:
        # JSON only (a cross-site JSON post needs a preflight we never answer) and the same
        # origin when the browser names one.
        if request.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
            raise HttpError(415, "a director command is sent as application/json")
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc != request.headers.get("Host"):
            raise HttpError(403, f"command from another origin {origin!r:.80}")
        try:
            command = json.loads(body)
        except (UnicodeDecodeError, ValueError) as err:
            raise HttpError(400, f"the command is not JSON: {err}") from None
        result = self.hub.director(command)
        ok = bool(result.get("ok"))
        if not ok:
            log.warning("director command %.200r refused: %s", command, result.get("error"))
        return json_response(result, 200 if ok else 400)

    async def _feed(self, request: web.Request) -> web.StreamResponse:
        if len(self._pages) >= self.max_pages:
            raise HttpError(503, f"already {self.max_pages} pages open")
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                               "X-Accel-Buffering": "no"})
        await response.prepare(request)
        page = _Page(request, self.queue_size)
        page.push(_event("room", self.overview()))
        self._pages.add(page)
        try:
            await response.write(b"retry: 2000\n\n")
            while page in self._pages:
                try:
                    data = await asyncio.wait_for(page.queue.get(), self.heartbeat)
                except TimeoutError:
                    data = b": ping\n\n"        # keeps the connection, finds dead pages
                await asyncio.wait_for(response.write(data), self.timeout)
        except (ConnectionError, TimeoutError) as err:
            self._drop(page, f"{type(err).__name__}")
        finally:           # the page went away (aiohttp cancelled this handler) or was dropped
            if page in self._pages:
                self._drop(page, "gone")
        return response


def _refusal(status: int, message: str) -> web.Response:
    return json_response({"ok": False, "error": message}, status)


def _unknown(request: web.Request) -> HttpError:
    method, path = request.method, request.path
    if method not in ("GET", "HEAD"):
        return HttpError(405, f"{method} {path}: only GET, and POST /api/director")
    return HttpError(404, f"no {'file' if path.startswith('/static/') else 'page'} {path!r:.80}")


async def _headers(request: web.Request, response: web.StreamResponse) -> None:
    for name, value in _HEADERS.items():
        response.headers.setdefault(name, value)


async def _favicon(request: web.Request) -> web.Response:
    return web.Response(status=204, headers={"Content-Type": "image/x-icon"})


def _load_static() -> dict[str, tuple[bytes, str]]:
    """The page's files, read once: only these names are served (no path from the URL)."""
    files: dict[str, tuple[bytes, str]] = {}
    if not STATIC.is_dir():
        log.error("console page missing: no folder %s", STATIC)
        return files
    for path in sorted(STATIC.iterdir()):
        kind = _TYPES.get(path.suffix)
        if path.is_file() and kind is not None:
            files[path.name] = (path.read_bytes(), kind)
    if "console.html" not in files:
        log.error("console page missing from %s", STATIC)
    return files
