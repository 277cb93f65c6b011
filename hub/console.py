"""The director's console: a web page served by the hub, live over Server-Sent Events.

``Console(hub, host, port)`` is a small HTTP/1.1 server on the hub's asyncio loop (standard
library only, one request per connection). ``hub`` is anything with ``room``
(:class:`hub.room.Room`), ``director(command) -> {"ok": ..., "error"?: ...}`` (checks, logs
and applies a director command: hub.director) and ``hub_time() -> float``. Routes:

* ``GET /``: the page; ``GET /static/{name}``: its script and style (from hub/static);
* ``GET /api/room``: the overview (:meth:`Console.overview`): every table with its status,
  the round clock, the alerts not yet resolved and the last ones resolved;
* ``GET /api/alert/{id}``: one alert in full (``Alert.to_json``: facts, evidence, options);
* ``GET /api/events``: the live feed (``text/event-stream``): ``room`` (the overview, first
  on each connection), then ``table``, ``alert`` and ``clock`` as they change;
* ``POST /api/director``: a JSON director command (hub/director.py) for ``hub.director``;
* ``GET /results``, ``/results/board/{n}``, ``/results/pair/{section}/{n}``: the results
  pages (static/results.*), and the JSON behind them, ``GET /api/results...``
  (hub.results_pages): rankings, travellers with the hand, double-dummy table and par,
  score cards.

The hub calls :meth:`Console.table_changed`, :meth:`Console.alert_changed` and
:meth:`Console.clock_changed` on its loop after each change. They only mark what changed:
the feed is sent at most every ``coalesce`` seconds, each page through its own bounded queue,
and a page that cannot keep up is dropped (it reconnects and gets the overview again). The
hub is never blocked by a page. Alerts go to the director only: bind the console to a
loopback or a director-only network (``host``).

A table's status (:func:`table_status`): ``offline`` when a device of the table is offline,
``alert`` with alerts not yet resolved, ``late`` past the end of the round without every
board of the round finished (or while the hub's ``late_table`` alert, its only alert, is not
resolved), else from the board in play: ``waiting``, ``bidding``, ``playing``, ``finished``
(every board of its round over).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import unquote, urlsplit

from hub.alerts import Alert, HubKind
from hub.room import Room

__all__ = ["STATUSES", "Console", "ConsoleHub", "alert_summary", "table_status"]

log = logging.getLogger(__name__)

STATUSES = ("waiting", "bidding", "playing", "finished", "late", "alert", "offline")
STATIC = Path(__file__).with_name("static")
MAX_HEAD = 16 * 1024          # request line and headers
MAX_BODY = 64 * 1024          # a director command
RESOLVED_KEPT = 50            # resolved alerts kept in the overview, newest first
_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png",
          ".json": "application/json"}
_REASONS = {200: "OK", 204: "No Content", 400: "Bad Request", 403: "Forbidden",
            404: "Not Found", 405: "Method Not Allowed", 408: "Request Timeout",
            411: "Length Required", 413: "Payload Too Large", 415: "Unsupported Media Type",
            431: "Request Header Fields Too Large", 500: "Internal Server Error",
            503: "Service Unavailable"}
_PHASES = {"auction": "bidding", "play": "playing"}
_LATE = HubKind.LATE_TABLE.value


class ConsoleHub(Protocol):
    """What the console needs of the hub (hub.service.Hub)."""

    @property
    def room(self) -> Room: ...
    def director(self, command: Any) -> dict[str, Any]: ...
    def hub_time(self) -> float: ...


class _HttpError(Exception):
    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = reason


# Views ------------------------------------------------------------------------------------

def alert_summary(alert: Alert) -> dict[str, Any]:
    """An alert for the feed: ``Alert.to_json`` without facts, evidence and options."""
    data = alert.to_json()
    for heavy in ("facts", "evidence", "options"):
        del data[heavy]
    return data


class _RoomView:
    """What every table's status needs, computed once per overview or per flush."""

    def __init__(self, room: Room, now: float):
        self.room = room
        self.now = now
        self.open = Counter[str]()       # alerts not resolved, per table
        self.others = Counter[str]()     # ... of another kind than late_table
        for alert in room.alerts.open():
            self.open[alert.table] += 1
            if alert.kind != _LATE:
                self.others[alert.table] += 1
        self.offline: dict[str, list[str]] = {}
        self.online = Counter[str]()
        for device, info in room.devices.items():
            if info.online:
                self.online[info.table] += 1
            else:
                self.offline.setdefault(info.table, []).append(device)
        self.sections = {tid: (s.name, n) for s in room.sections for tid, n in s.tables.items()}

    def table(self, table_id: str) -> dict[str, Any]:
        room = self.room
        table = room.tables[table_id]
        section, number = self.sections.get(table_id, ("", 0))
        sitting = table.sitting
        play = None if sitting is None else sitting.board.play
        a = room.assignment(table_id, table.round)
        boards = [] if a is None or not a.plays else list(a.boards)
        ns, ew = table.pairs()
        return {
            "id": table_id, "section": section, "number": number, "round": table.round,
            "board": None if sitting is None else sitting.board.number,
            "phase": "waiting" if sitting is None else sitting.phase,
            "status": _status(room, table_id, self.now, bool(self.offline.get(table_id)),
                              self.others[table_id], self.open[table_id]),
            "pairs": {"NS": ns, "EW": ew}, "alerts": self.open[table_id],
            "strict": table.strict,
            "contract": None if play is None else str(play.contract),
            "declarer": None if play is None else play.declarer.letter,
            "boards": boards, "done": sum(1 for b in boards if table.finished(b)),
            "devices": {"online": self.online[table_id],
                        "offline": sorted(self.offline.get(table_id, []))},
        }

    def clock(self) -> dict[str, Any]:
        clock = self.room.clock
        return {"round": clock.round, "started": clock.started, "deadline": clock.deadline,
                "minutes": clock.minutes, "hub_time": self.now}


def table_status(room: Room, table_id: str, now: float) -> str:
    """One of :data:`STATUSES` for the table at hub time ``now`` (module docstring)."""
    offline = any(not d.online for d in room.devices.values() if d.table == table_id)
    alerts = [a for a in room.alerts.of_table(table_id) if a.is_open]
    return _status(room, table_id, now, offline, sum(1 for a in alerts if a.kind != _LATE),
                   len(alerts))


def _status(room: Room, table_id: str, now: float, offline: bool, others: int,
            open_alerts: int) -> str:
    if offline:
        return "offline"
    if others:
        return "alert"
    table = room.tables[table_id]
    clock = room.clock
    deadline = clock.deadline
    if open_alerts or (deadline is not None and now > deadline
                       and not table.round_done(clock.round)):
        return "late"        # the hub's late_table alert is this, until it is resolved
    sitting = table.sitting
    if sitting is None:
        return "waiting"
    if sitting.phase == "over":
        return "finished" if table.round_done(table.round) else "waiting"
    return _PHASES[sitting.phase]


# The live feed ----------------------------------------------------------------------------

def _event(name: str, data: Any) -> bytes:
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"event: {name}\ndata: {text}\n\n".encode()


class _Page:
    """One open page: its queue of feed messages, the task that writes them and the one
    that notices the page going away."""

    def __init__(self, writer: asyncio.StreamWriter, size: int):
        self.writer = writer
        self.queue: asyncio.Queue[bytes] = asyncio.Queue(size)
        self.tasks: list[asyncio.Task[None]] = []
        self.peer = writer.get_extra_info("peername")

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
        self._server: asyncio.Server | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: int | None = None
        self._pages: set[_Page] = set()
        self._requests: set[asyncio.Task[Any]] = set()
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
        self._server = await asyncio.start_server(self._serve, self.host, self.port,
                                                  limit=MAX_HEAD)
        self.port = self._server.sockets[0].getsockname()[1]
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
        server, self._server = self._server, None
        if server is not None:
            server.close()
        pages = list(self._pages)
        for page in pages:
            self._drop(page, "console stopping")
        tasks = [t for p in pages for t in p.tasks] + list(self._requests)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if server is not None:
            await server.wait_closed()

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
        if loop is None or self._server is None:
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
            view = _RoomView(room, self.hub.hub_time())
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
        page.writer.close()
        for task in page.tasks:
            if task is not asyncio.current_task():
                task.cancel()

    # Views -------------------------------------------------------------------------------
    def overview(self) -> dict[str, Any]:
        """``GET /api/room``: tables (with their status), clock, alerts (newest first: those
        not yet resolved, then the last :data:`RESOLVED_KEPT` resolved)."""
        room = self.hub.room
        view = _RoomView(room, self.hub.hub_time())
        alerts = list(room.alerts)[::-1]
        shown = [a for a in alerts if a.is_open]
        shown += [a for a in alerts if not a.is_open][:RESOLVED_KEPT]
        return {"hub_time": view.now, "clock": view.clock(),
                "sections": [s.name for s in room.sections],
                "tables": [view.table(t) for t in room.tables],
                "alerts": [alert_summary(a) for a in shown],
                "counts": {"open": sum(view.open.values()), "total": len(room.alerts)}}

    # HTTP --------------------------------------------------------------------------------
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._requests.add(task)
        keep_open = False
        try:
            keep_open = await self._handle(reader, writer)
        except _HttpError as err:
            log.info("console: %d %s from %s", err.status, err.reason,
                     writer.get_extra_info("peername"))
            await self._send_json(writer, err.status, {"ok": False, "error": err.reason})
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except Exception:
            log.exception("console request failed")
            with contextlib.suppress(Exception):
                await self._send_json(writer, 500, {"ok": False, "error": "internal error"})
        finally:
            if task is not None:
                self._requests.discard(task)
            if not keep_open:
                writer.close()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
                      ) -> bool:
        """Answer one request; True when the connection became a live feed."""
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), self.timeout)
        except asyncio.LimitOverrunError:
            raise _HttpError(431, f"request head over {MAX_HEAD} bytes") from None
        except TimeoutError:
            raise _HttpError(408, "request not received in time") from None
        except asyncio.IncompleteReadError:
            return False            # the client went away
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ")
        if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
            raise _HttpError(400, f"not an HTTP/1.x request line: {lines[0]!r:.80}")
        method, target, _ = parts
        headers: dict[str, str] = {}
        for line in lines[1:]:
            if line:
                name, sep, value = line.partition(":")
                if not sep:
                    raise _HttpError(400, f"bad header line {line!r:.80}")
                headers[name.strip().lower()] = value.strip()
        path = unquote(urlsplit(target).path)
        if method == "POST" and path == "/api/director":
            body = await self._body(reader, headers)
            await self._director(writer, headers, body)
            return False
        if method not in ("GET", "HEAD"):
            raise _HttpError(405, f"{method} {path}: only GET, and POST /api/director")
        if path == "/api/events" and method == "GET":
            return await self._open_feed(reader, writer)
        status, data, kind = self._get(path)
        await self._send(writer, status, data, kind, head_only=method == "HEAD")
        return False

    def _get(self, path: str) -> tuple[int, bytes, str]:
        if path in ("/", "/index.html"):
            path = "/static/console.html"
        if path.startswith("/static/"):
            found = self._files.get(path[len("/static/"):])
            if found is None:
                raise _HttpError(404, f"no file {path!r:.80}")
            return 200, found[0], found[1]
        if path == "/api/room":
            return 200, _json(self.overview()), _TYPES[".json"]
        if path.startswith("/api/alert/"):
            alert_id = path[len("/api/alert/"):]
            alerts = self.hub.room.alerts
            if alert_id not in alerts:
                raise _HttpError(404, f"no alert {alert_id!r:.80}")
            return 200, _json(alerts[alert_id].to_json()), _TYPES[".json"]
        if path == "/api/results" or path.startswith("/api/results/"):
            from hub.results_pages import results_api
            try:
                data = results_api(self.hub.room, path[len("/api/results"):])
            except LookupError as err:
                raise _HttpError(404, str(err.args[0])) from None
            return 200, _json(data), _TYPES[".json"]
        if path.startswith("/results"):
            from hub.results_pages import is_page
            page = self._files.get("results.html")
            if page is None or not is_page(path):
                raise _HttpError(404, f"no page {path!r:.80}")
            return 200, page[0], page[1]
        if path == "/favicon.ico":
            return 204, b"", "image/x-icon"
        raise _HttpError(404, f"no page {path!r:.80}")

    async def _body(self, reader: asyncio.StreamReader, headers: Mapping[str, str]) -> bytes:
        if "transfer-encoding" in headers:
            raise _HttpError(411, "send the command with a Content-Length, not chunked")
        length_text = headers.get("content-length")
        if length_text is None or not length_text.isdigit():
            raise _HttpError(411, "a director command needs a Content-Length")
        length = int(length_text)
        if length > MAX_BODY:
            raise _HttpError(413, f"a director command of {length} bytes, limit {MAX_BODY}")
        try:
            return await asyncio.wait_for(reader.readexactly(length), self.timeout)
        except TimeoutError:
            raise _HttpError(408, "command body not received in time") from None

    async def _director(self, writer: asyncio.StreamWriter, headers: Mapping[str, str],
                        body: bytes) -> None:
        # A page of another site must not command the hub through the director's browser:
        # JSON only (a cross-site JSON post needs a preflight we never answer) and the same
        # origin when the browser names one.
        if headers.get("content-type", "").split(";")[0].strip() != "application/json":
            raise _HttpError(415, "a director command is sent as application/json")
        origin = headers.get("origin")
        if origin is not None and urlsplit(origin).netloc != headers.get("host"):
            raise _HttpError(403, f"command from another origin {origin!r:.80}")
        try:
            command = json.loads(body)
        except (UnicodeDecodeError, ValueError) as err:
            raise _HttpError(400, f"the command is not JSON: {err}") from None
        result = self.hub.director(command)
        ok = bool(result.get("ok"))
        if not ok:
            log.warning("director command %.200r refused: %s", command, result.get("error"))
        await self._send_json(writer, 200 if ok else 400, result)

    async def _open_feed(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
                         ) -> bool:
        if len(self._pages) >= self.max_pages:
            raise _HttpError(503, f"already {self.max_pages} pages open")
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                     b"Cache-Control: no-store\r\nX-Accel-Buffering: no\r\n"
                     b"Connection: keep-alive\r\n\r\nretry: 2000\n\n")
        page = _Page(writer, self.queue_size)
        page.push(_event("room", self.overview()))
        self._pages.add(page)
        page.tasks = [asyncio.create_task(self._write_feed(page)),
                      asyncio.create_task(self._watch_feed(reader, page))]
        return True

    async def _watch_feed(self, reader: asyncio.StreamReader, page: _Page) -> None:
        """A page sends nothing more: the end of its stream is the page going away."""
        with contextlib.suppress(ConnectionError):
            while await reader.read(4096):
                pass
        self._drop(page, "gone")

    async def _write_feed(self, page: _Page) -> None:
        writer = page.writer
        try:
            while page in self._pages:
                try:
                    data = await asyncio.wait_for(page.queue.get(), self.heartbeat)
                except TimeoutError:
                    data = b": ping\n\n"        # keeps the connection, finds dead pages
                writer.write(data)
                await asyncio.wait_for(writer.drain(), self.timeout)
        except (ConnectionError, TimeoutError) as err:
            self._drop(page, f"{type(err).__name__}")
        finally:
            if page in self._pages:
                self._drop(page, "closed")

    async def _send_json(self, writer: asyncio.StreamWriter, status: int, data: Any) -> None:
        await self._send(writer, status, _json(data), _TYPES[".json"])

    async def _send(self, writer: asyncio.StreamWriter, status: int, body: bytes, kind: str,
                    head_only: bool = False) -> None:
        head = (f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}\r\n"
                f"Content-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
                "Cache-Control: no-store\r\nConnection: close\r\n"
                "X-Content-Type-Options: nosniff\r\n"
                "Content-Security-Policy: default-src 'self'\r\n\r\n")
        writer.write(head.encode("latin-1") + (b"" if head_only else body))
        await asyncio.wait_for(writer.drain(), self.timeout)


def _json(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()


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
