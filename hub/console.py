"""The director's console: a web page served by the hub, live over Server-Sent Events, behind
a login.

``Console(hub, host, port, users=UserStore(...))`` is an aiohttp application
(hub.webserver) on the hub's asyncio loop. ``hub`` is anything with ``room``
(:class:`hub.room.Room`), ``director(command, account=user) -> {"ok": ..., "error"?: ...}``
(checks, logs and applies a director command, naming who gave it: hub.director) and
``hub_time() -> float``.

Who may do what (hub.users has the users and their roles)::

    route                                 no session  viewer       scorer        director
    GET /login, /static/*, /api/login     yes         yes          yes           yes
    POST /api/login                       yes         yes          yes           yes
    GET /results*, /api/results*          public      public       full          full
    GET /, /api/room, /api/events,        -           yes          yes           yes
        /api/session
    GET /api/alert/{id}                   -           no evidence  no evidence   with the deal
    GET /api/table/{id}                   -           -            -             yes
    POST /api/logout                      -           yes          yes           yes
    POST /api/director                    -           -            ruling,       every command
                                                                   ruling_undo
    POST /api/pair (a device's code)      yes         yes          yes           yes
    GET /devices, /api/devices,           -           -            -             yes
        POST /api/devices/pair, /revoke
    GET /tempo, /api/tempo/*,             -           -            -             yes
        POST /api/tempo/attach
    GET /setup, /api/setup, /api/roster*, -           -            -             yes
        POST /api/setup, /api/roster
    GET /evening, /check, /cards,         -           -            -             yes
        /api/evening, /api/evening/check,
        /api/evening/guide, POST /api/evening/cards
    GET /api/evening/export/{name}        -           -            yes           yes
    GET /swiss, /api/swiss                -           yes          yes           yes
    GET /screen, /api/i18n,               yes         yes          yes           yes
        POST /api/i18n

Without a session a page is a redirect (303) to ``/login?next=...`` and the API answers 401;
a role that may not is 403. Routes:

* ``GET /``: the page; ``GET /login``: the login page; ``GET /static/{name}``: their
  scripts and style (from hub/static);
* ``GET /api/login``: who is logged in (or null), and whether the hub has a director's
  account yet (with the command that makes one); ``POST /api/login`` ``{"name",
  "password"}``: a session (cookie ``tenace_console``: HttpOnly, SameSite=Strict, Secure over
  TLS) and its CSRF token; ``POST /api/logout``; ``GET /api/session``: the user, the role, the
  CSRF token;
* ``GET /api/room``: the overview (:meth:`Console.overview`): every table with its status,
  the round clock, the alerts not yet resolved and the last ones resolved;
* ``GET /api/alert/{id}``: one alert in full (``Alert.to_json``: facts, evidence with the
  deal, options, each option with its ``say``: the text of its words, a ``rect.*`` key and its
  values, stored with it or, for an older log's, found from its English words:
  hub.console_i18n.option_text) for a director; without ``facts`` and ``evidence`` for the
  other roles;
* ``GET /api/table/{id}``: a table's board live, its whole auction with the alerts, every
  trick so far, whose turn (hub.console_table), for the table's panel;
* ``GET /api/events``: the live feed (``text/event-stream``): ``room`` (the overview, first
  on each connection), then ``table``, ``alert``, ``clock`` and ``hub`` (the hub's
  ``hub/status``: its counters, and what it found wrong with its log) as they change; it
  ends when its session does;
* ``POST /api/director``: a JSON director command (hub/director.py) for ``hub.director``,
  at most :data:`MAX_BODY` bytes, ``application/json``;
* ``POST /api/pair``, ``GET /devices``, ``GET /api/devices``, ``POST /api/devices/pair``,
  ``POST /api/devices/revoke``: pairing devices with one-time codes and QR codes, revoking
  them (hub.console_devices, hub.pairing), when the console is given a ``pairing``;
* ``GET /setup``, ``/api/setup``, ``/api/roster...``: the director sets the event up and
  imports the club's roster (hub.console_setup, docs/console-api.md). While the hub has no
  event yet (hub.event.WaitingSetup) ``GET /`` sends a director to ``/setup`` and the
  overview says ``"waiting": true``;
* ``GET /tempo`` and ``/api/tempo/...``: the director's tempo timelines, slow play and
  timed exports, and ``POST /api/tempo/attach`` (a timeline's reference in a ruling): see
  hub.console_tempo;
* ``GET /evening``, ``/check``, ``/cards``, ``/screen``, ``/api/evening...``,
  ``/api/i18n``: the director's evening (late changes, the device check, table and guide
  cards, the room screen, the results files) and the console's language: see
  hub.console_session;
* ``GET /results``, ``/results/board/{n}``, ``/results/pair/{section}/{n}``,
  ``/results/event`` (an event's total over its sessions), ``/results/ladder`` (the club's
  ladder): the results pages (static/results.*), and the JSON behind them, ``GET
  /api/results...`` (hub.results_pages; hub.series_api): public and read-only, showing
  what the director chose (the ``public_results`` command) and never a board before every
  table has finished it; a director or a scorer logged in sees everything. ``POST
  /api/results/ladder/form`` and ``/api/results/ladder/player`` (director, CSRF): the
  club's ladder form kept, two players of one name told apart (hub.series_api);

The controls, in order, on every request: the ``Host`` must be one of the console's own names
and an ``Origin``, when the browser sends one, the console's own origin
(hub.webserver.host_guard: 403, against DNS rebinding and other sites' pages); then the
session and its role; then every POST but the login carries the session's CSRF token in
``X-CSRF-Token`` (403 without it). Logins are throttled per client address and per user name
(hub.users.LoginThrottle: 429 with ``Retry-After``); a refused login is logged with the name
and the address, never the password.

Every answer is ``Cache-Control: no-store`` with a same-origin content security policy. A
request the console refuses (an unknown path 404, another method 405, no Content-Length
411, a body too large 413, not JSON 400, ...) is answered ``{"ok": false, "error": "..."}``
with its status and the connection closed; a director command the hub refuses is answered
400 with the hub's own ``{"ok": false, "error": "..."}``.

The hub calls :meth:`Console.table_changed`, :meth:`Console.alert_changed` and
:meth:`Console.clock_changed` on its loop after each change. They only mark what changed:
the feed is sent at most every ``coalesce`` seconds, each page through its own bounded queue,
and a page that cannot keep up is dropped (it reconnects and gets the overview again). The
hub is never blocked by a page (a password is checked on a worker thread). What each table's
status means: hub.console_views.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import threading
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol
from urllib.parse import quote

import msgspec
from aiohttp import web

from bridgecore.text import Text
from hub.alerts import Alert
from hub.console_http import favicon, headers, json_only, load_static, refusal, unknown
from hub.console_i18n import COOKIE as LANGUAGE_COOKIE
from hub.console_i18n import Languages, choose, option_text, reader
from hub.console_tempo import TempoRoutes
from hub.console_views import STATUSES, RoomView, alert_summary, table_status
from hub.corrections import CorrectionError, as_typed
from hub.errors import error_text
from hub.pairing import Pairing
from hub.room import Room
from hub.shard_views import in_event_order, remote_alert, remote_of, with_remote_alerts
from hub.texts import in_language, refused_answer, render
from hub.users import (
    MAX_PASSWORD,
    LoginThrottle,
    Session,
    Sessions,
    UserError,
    UserStore,
    name_key,
)
from hub.webserver import (
    HostAllowList,
    HttpError,
    WebServer,
    application,
    host_guard,
    json_response,
    read_body,
)

__all__ = ["COOKIE", "CREATE_DIRECTOR", "MAX_BODY", "RANKS", "SCORER_COMMANDS", "STATUSES",
           "Console", "ConsoleHub", "alert_summary", "table_status"]

log = logging.getLogger(__name__)

MAX_BODY = 64 * 1024          # a director command
MAX_LOGIN = 4 * 1024          # a login
COOKIE = "tenace_console"
CSRF_HEADER = "X-CSRF-Token"
RANKS = {"viewer": 0, "scorer": 1, "director": 2}
SCORER_COMMANDS = frozenset({"ruling", "ruling_undo"})
CREATE_DIRECTOR = "tenace users add NAME --role director"
_SESSION = web.RequestKey("session", Session)       # the request's, once checked
RESOLVED_KEPT = 50            # resolved alerts kept in the overview, newest first


def without_path(command: str) -> str:
    """``command`` with the folder after ``--data`` replaced by ``DIR``."""
    head, found, _ = command.partition(" --data ")
    return f"{head} --data DIR" if found else command


class ConsoleHub(Protocol):
    """What the console needs of the hub (hub.service.Hub)."""

    @property
    def room(self) -> Room: ...
    def director(self, command: Any, account: str = "console") -> dict[str, Any]: ...
    def hub_time(self) -> float: ...


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


# The live feed ----------------------------------------------------------------------------

def _event(name: str, data: Any) -> bytes:
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return f"event: {name}\ndata: {text}\n\n".encode()


class _Page:
    """One open page: its request and its queue of feed messages (the request's handler
    writes them; aiohttp cancels it when the page goes away)."""

    def __init__(self, request: web.Request, size: int, token: str):
        self.request = request
        self.queue: asyncio.Queue[bytes] = asyncio.Queue(size)
        self.peer = request.remote
        self.token = token            # its session's

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
                 users: UserStore | None = None, allowed_hosts: Iterable[str] = (),
                 sessions: Sessions | None = None, throttle: LoginThrottle | None = None,
                 create_director: str = CREATE_DIRECTOR, pairing: Pairing | None = None,
                 tls: tuple[str, str] | None = None, coalesce: float = 0.15,
                 queue_size: int = 256, max_pages: int = 32,
                 heartbeat: float = 15.0, timeout: float = 10.0):
        self.hub = hub
        self.users = users                 # None: nobody can log in (the page says how)
        self.allowed = HostAllowList(allowed_hosts, bind=host)
        self.sessions = sessions if sessions is not None else Sessions()
        self.throttle = throttle if throttle is not None else LoginThrottle()
        # Told to anyone who opens the login page: never the data directory's path (the
        # terminal that started the hub prints the whole command).
        self.create_director = without_path(create_director)
        self.pairing = pairing             # None: no device is paired here
        self.languages = Languages(         # each user's language (hub.console_i18n)
            None if users is None else users.path.with_name("languages.json"))
        self.tls = tls                     # (certificate chain, key): served over HTTPS
        self.session_key = _SESSION
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
        self._remote: set[str] = set()         # other shards' tables changed (hub.sharding)
        self._remote_alerts: set[str] = set()  # ... and their alerts (hub.shard_views)
        self._alerts: dict[str, None] = {}     # ids, in the order they changed
        self._clock_dirty = False
        self._hub_status: dict[str, Any] | None = None   # the last hub/status, to send
        self._clock_key: tuple[int, float | None, float] | None = None
        self._doing: tuple[Any, ...] | None = None     # the rounds the room is doing, sent
        self._flush_handle: asyncio.TimerHandle | None = None
        self._deadline_handle: asyncio.TimerHandle | None = None

    # Life --------------------------------------------------------------------------------
    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._thread = threading.get_ident()
        self._files = load_static()
        if self.pairing is not None:
            if self.pairing.on_failures is None:
                self.pairing.on_failures = self._pairing_failures
            if self.pairing.devices is None and hasattr(self.hub, "setup"):
                self.pairing.devices = self._event_devices
        web_server = WebServer(self._app(), self.host, self.port, tls=self.tls)
        await web_server.start()
        self._web = web_server
        self.port = web_server.port
        self._clock_key = self._clock_now()
        self._schedule_deadline()
        log.info("director console on %s", self.url)

    def _event_devices(self) -> list[str]:
        """The device accounts of the hub's event (hub.accounts.event_accounts)."""
        from hub.accounts import event_accounts
        return list(event_accounts(getattr(self.hub, "setup", None)))

    def _pairing_failures(self, address: str, count: int) -> None:
        """Repeated wrong pairing codes (hub.pairing, any thread): the director's alert."""
        record = getattr(self.hub, "record", None)
        if record is not None and self._loop is not None:
            self._loop.call_soon_threadsafe(record, "pairing_failures",
                                            {"address": address, "count": count}, "hub")

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'https' if self.tls else 'http'}://{host}:{self.port}/"

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

    def remote_changed(self, tables: Iterable[str]) -> None:
        """Tables of another shard of the event changed (hub.sharding: their summaries, as
        this console shows its own): sent to the pages with the next flush (on the loop)."""
        self._remote.update(tables)
        self._schedule()

    def remote_alert_changed(self, ident: str) -> None:
        """Another shard's alert was raised or changed (hub.sharding, on the loop)."""
        self._remote_alerts.add(ident)
        self._schedule()

    def _remote_tables(self) -> dict[str, dict[str, Any]]:
        remote: dict[str, dict[str, Any]] = getattr(self.hub, "remote_tables", None) or {}
        return remote

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

    def hub_changed(self, status: dict[str, Any]) -> None:
        """The hub's status (counters, log damage: wire.views.HubStatus) changed."""
        if self._off_loop(self.hub_changed, status):
            return
        self._hub_status = status
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
        remote_ids, self._remote = self._remote, set()
        remote_alerts, self._remote_alerts = self._remote_alerts, set()
        alert_ids, self._alerts = list(self._alerts), {}
        clock_key = self._clock_now()
        clock_dirty = self._clock_dirty or clock_key != self._clock_key
        self._clock_dirty = False
        hub_status, self._hub_status = self._hub_status, None
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
            clock = view.clock()
            doing = (clock["in_play"], clock["finished"], clock["behind"])
            if clock_dirty or doing != self._doing:  # what the room does follows the tables
                self._doing = doing
                parts.append(_event("clock", clock))
            if hub_status is not None:
                parts.append(_event("hub", hub_status))
            parts += [_event("table", view.table(t)) for t in sorted(tables) if t in room.tables]
            remote = self._remote_tables()
            parts += [_event("table", remote[t]) for t in sorted(remote_ids) if t in remote]
            parts += [_event("alert", alert_summary(room.alerts[a])) for a in alert_ids
                      if a in room.alerts]
            theirs = remote_of(self.hub)
            parts += [_event("alert", s) for s in (theirs.alert_summary(a)
                      for a in sorted(remote_alerts)) if s is not None] if theirs else []
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
        remote = self._remote_tables()   # other shards' tables of the event (hub.sharding)
        sections = [s.name for s in room.sections]
        tables = [view.table(t) for t in room.tables]
        if remote:     # every shard's, in the event's order (hub.shard_views)
            sections, tables = in_event_order(
                sections + [str(t.get("section")) for t in remote.values()],
                tables + [t for i, t in remote.items() if i not in room.tables])
        return {"hub_time": view.now, "clock": view.clock(), "waiting": self.waiting,
                "sections": sections, "tables": tables,
                "alerts": with_remote_alerts(self.hub, [alert_summary(a) for a in shown]),
                "counts": {"open": sum(view.open.values()), "total": len(room.alerts)},
                "hub": self._status()}

    def _status(self) -> dict[str, Any] | None:
        """The hub's status as ``hub/status`` says it (None from a hub without one)."""
        status = getattr(self.hub, "status", None)
        if status is None:
            return None
        try:
            data: dict[str, Any] = msgspec.to_builtins(status())
        except Exception:  # the overview must not fail for it
            log.exception("hub status not shown on the console")
            return None
        return data

    # HTTP --------------------------------------------------------------------------------
    def _app(self) -> web.Application:
        app = application(refusal, unknown, max_body=MAX_BODY, name="console",
                          middlewares=[host_guard(self.allowed)], language=self.language_of)
        app.on_response_prepare.append(headers)
        add = app.router.add_get
        need = self._need
        add("/", need("viewer", self._page, page=True))
        add("/index.html", need("viewer", self._page, page=True))
        add("/login", self._login_page)
        add("/static/{name:.*}", self._static)
        add("/favicon.ico", favicon)
        add("/api/login", self._login_state)
        add("/api/session", need("viewer", self._session))
        add("/api/room", need("viewer", self._room))
        add("/api/alert/{id:.*}", need("viewer", self._alert))
        add("/api/table/{id}", need("director", self._table))
        add("/api/events", need("viewer", self._feed), allow_head=False)
        post = app.router.add_post
        post("/api/login", self._login)
        post("/api/logout", need("viewer", self._logout, csrf=True))
        post("/api/director", need("scorer", self._director, csrf=True))
        from hub.console_devices import add_device_routes
        from hub.console_setup import add_setup_routes
        add_device_routes(app, self)
        add_setup_routes(app, self)
        from hub.console_session import add_session_routes
        add_session_routes(app, self)
        from hub.console_swiss import add_swiss_routes
        add_swiss_routes(app, self)
        from hub.console_results import add_results_routes
        add_results_routes(app, self)
        self._tempo_routes().add(app, need)
        return app

    def _tempo_routes(self) -> TempoRoutes:
        """The director's tempo pages and API (hub.console_tempo)."""
        return TempoRoutes(self.hub, lambda: self._file("tempo.html", "/tempo", "page"),
                           lambda request: request[_SESSION].user, self.timeout,
                           self.language_of)

    # Sessions ----------------------------------------------------------------------------
    def language_of(self, request: web.Request) -> str:
        """The reader's: the user's choice, the cookie, else ``Accept-Language``."""
        session = self.session_of(request)
        return choose(self.languages.get(None if session is None else session.user),
                      request.cookies.get(LANGUAGE_COOKIE),
                      accept=request.headers.get("Accept-Language", ""))

    def session_of(self, request: web.Request) -> Session | None:
        """The request's session, while it lasts (its cookie)."""
        if self.users is None:
            return None
        return self.sessions.get(request.cookies.get(COOKIE), self.users)

    def need(self, role: str, handler: Handler, *, page: bool = False,
             csrf: bool = False) -> Handler:
        """``handler`` for a session of ``role`` or above (hub.console_devices' routes)."""
        return self._need(role, handler, page=page, csrf=csrf)

    def static_file(self, name: str, path: str, what: str = "file") -> web.Response:
        """One of the page's files (hub/static), or 404."""
        return self._file(name, path, what)

    def _need(self, role: str, handler: Handler, *, page: bool = False,
              csrf: bool = False) -> Handler:
        """``handler`` for a session of ``role`` or above (a CSRF token too with ``csrf``)."""

        async def guarded(request: web.Request) -> web.StreamResponse:
            session = self.session_of(request)
            if session is None:
                if page:
                    raise web.HTTPSeeOther(f"/login?next={quote(request.path)}")
                raise HttpError(401, Text.of("http.log_in"))
            if RANKS[session.role] < RANKS[role]:
                raise HttpError(403, Text.of("http.may_not", user=session.user,
                                             role=session.role, method=request.method,
                                             path=request.path[:80]))
            if csrf:
                token = request.headers.get(CSRF_HEADER, "")
                if not hmac.compare_digest(token.encode(), session.csrf.encode()):
                    raise HttpError(403, Text.of("http.no_csrf", method=request.method,
                                                 path=request.path[:80], header=CSRF_HEADER))
            request[_SESSION] = session
            return await handler(request)

        return guarded

    async def _login_page(self, request: web.Request) -> web.Response:
        return self._file("login.html", request.path, "page")

    async def _login_state(self, request: web.Request) -> web.Response:
        session = self.session_of(request)
        return json_response({
            "user": None if session is None else session.user,
            "role": None if session is None else session.role,
            "director_account": self.users is not None and self.users.has_director(),
            "create": self.create_director})

    async def _login(self, request: web.Request) -> web.Response:
        body = await read_body(request, MAX_LOGIN, "a login", self.timeout)
        json_only(request, "a login")
        try:
            form = json.loads(body)
        except (UnicodeDecodeError, ValueError) as err:
            raise HttpError(400, Text.of("http.login_not_json", error=str(err)[:200])) from None
        name = form.get("name") if isinstance(form, dict) else None
        password = form.get("password") if isinstance(form, dict) else None
        if not isinstance(name, str) or not isinstance(password, str) or not name \
                or len(name) > 64 or len(password) > MAX_PASSWORD:
            raise HttpError(400, Text.of("http.login_shape"))
        users = self.users
        if users is None or not users.has_director():
            raise HttpError(503, Text.of("http.no_director", command=self.create_director))
        keys = self.throttle.login_keys(str(request.remote), name_key(name))  # any case
        wait = self.throttle.wait(*keys)
        if wait > 0:
            log.warning("console login of %r from %s throttled (%.0f s)", name,
                        request.remote, wait)
            text = Text.of("http.throttled", seconds=max(1, round(wait)))
            response = refusal(429, render(text, self.language_of(request)), text)
            response.headers["Retry-After"] = str(max(1, round(wait)))
            return response
        loop = asyncio.get_running_loop()
        try:
            user = await loop.run_in_executor(None, users.verify, name, password)
        except UserError as err:
            log.error("console login: %s", err)
            raise HttpError(500, Text.of("http.users_unreadable")) from None
        if user is None:
            self.throttle.failed(*keys)
            log.warning("console login refused: user %r from %s", name, request.remote)
            raise HttpError(401, Text.of("http.wrong_password"))
        self.throttle.logged_in(str(request.remote), name_key(name))
        self.sessions.close(request.cookies.get(COOKIE))
        session = self.sessions.open(user)
        log.info("console login: %s (%s) from %s", user.name, user.role, request.remote)
        response = json_response({"ok": True, "user": session.user, "role": session.role,
                                  "csrf": session.csrf})
        response.set_cookie(COOKIE, session.token, httponly=True, samesite="Strict",
                            secure=request.secure, path="/",
                            max_age=int(self.sessions.lifetime))
        return response

    async def _logout(self, request: web.Request) -> web.Response:
        session = request[_SESSION]
        self.sessions.close(session.token)
        for page in [p for p in self._pages if p.token == session.token]:
            self._drop(page, "logged out")
        log.info("console logout: %s from %s", session.user, request.remote)
        response = json_response({"ok": True})
        response.del_cookie(COOKIE, path="/")
        return response

    async def _session(self, request: web.Request) -> web.Response:
        session = request[_SESSION]
        return json_response({"user": session.user, "role": session.role,
                              "csrf": session.csrf})

    # Pages and the API -------------------------------------------------------------------
    def _file(self, name: str, path: str, what: str = "file") -> web.Response:
        found = self._files.get(name)
        if found is None:
            raise HttpError(404, Text.of("http.no_file", path=path[:80]) if what == "file"
                            else Text.of("http.no_page", path=path[:80]))
        return web.Response(body=found[0], headers={"Content-Type": found[1]})

    async def _page(self, request: web.Request) -> web.Response:
        if self.waiting and RANKS[request[_SESSION].role] >= RANKS["director"]:
            raise web.HTTPSeeOther("/setup")    # no event yet: the director sets it up
        return self._file("console.html", request.path)

    @property
    def waiting(self) -> bool:
        """No event yet: the hub waits for the director's set-up (hub.event.WaitingSetup)."""
        return bool(getattr(getattr(self.hub, "setup", None), "waiting", False))

    async def _static(self, request: web.Request) -> web.Response:
        return self._file(request.match_info["name"], request.path)

    async def _room(self, request: web.Request) -> web.Response:
        return json_response(self.overview())

    async def _alert(self, request: web.Request) -> web.Response:
        alert_id = request.match_info["id"]
        alerts = self.hub.room.alerts
        data = alerts[alert_id].to_json() if alert_id in alerts \
            else remote_alert(self.hub, alert_id)     # another shard's (hub.shard_views)
        if data is None:
            raise HttpError(404, Text.of("http.no_alert", id=alert_id[:80]))
        for option in data.get("options") or ():    # its words in the catalog (console_i18n)
            said = option_text(option)
            if said is not None:
                option["say"] = said
        if request[_SESSION].role != "director":   # the deal is the director's only
            data["facts"], data["evidence"], data["restricted"] = {}, {}, True
        return json_response(data)

    async def _table(self, request: web.Request) -> web.Response:
        """A table's board live: its auction, tricks and turn (hub.console_table)."""
        from hub.console_table import live_table
        table_id = request.match_info["id"]
        if table_id not in self.hub.room.tables:   # another shard's? (hub.sharding)
            follow = getattr(self.hub, "follow_table", None)
            live = None if follow is None else follow(table_id)
            if live is None:
                raise HttpError(404, Text.of("http.no_table", table=table_id[:40]))
            return json_response(live)
        return json_response(live_table(self.hub.room, table_id))

    async def _director(self, request: web.Request) -> web.Response:
        session = request[_SESSION]
        body = await read_body(request, MAX_BODY, "a director command", self.timeout)
        # JSON only: a cross-site JSON post needs a preflight we never answer (the Origin,
        # the Host and the CSRF token were checked before).
        json_only(request, "a director command")
        try:
            command = json.loads(body)
        except (UnicodeDecodeError, ValueError, RecursionError) as err:
            raise HttpError(400, Text.of("http.command_not_json", error=str(err)[:200])) from None
        op = command.get("op") if isinstance(command, dict) else None
        if session.role != "director" and op not in SCORER_COMMANDS:
            raise HttpError(403, Text.of("http.scorer_commands", user=session.user,
                                         role=session.role, op=str(op)[:40],
                                         commands=", ".join(sorted(SCORER_COMMANDS))))
        language = self.language_of(request)    # a refusal is worded in it
        if op == "result_correct":      # typed in the user's language (hub.corrections)
            try:
                command = as_typed(command, reader(language))
            except CorrectionError as err:
                log.warning("director command %.200r of %s refused: %s", command,
                            session.user, err)
                return json_response(refused_answer(error_text(err), language), 400)
        forward = getattr(self.hub, "forward_command", None)   # another shard's (hub.sharding)
        sent = None if forward is None else forward(command, session.user)
        answer_of = getattr(self.hub, "answer_of", None)   # the owning shard's (protocol 17)
        if sent is not None and "ref" in sent and answer_of is not None:
            sent = await answer_of(sent)
        result = sent if sent is not None else self.hub.director(command, account=session.user)
        ok = bool(result.get("ok"))
        if not ok:
            log.warning("director command %.200r of %s refused: %s", command, session.user,
                        result.get("error"))
            result = in_language(result, language)   # the English words were the log's
        return json_response(result, 200 if ok else 400)

    async def _feed(self, request: web.Request) -> web.StreamResponse:
        if len(self._pages) >= self.max_pages:
            raise HttpError(503, Text.of("http.pages_open", n=self.max_pages))
        session = request[_SESSION]
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                               "X-Accel-Buffering": "no"})
        await response.prepare(request)
        page = _Page(request, self.queue_size, session.token)
        overview = self.overview()
        clock = overview["clock"]
        self._doing = (clock["in_play"], clock["finished"], clock["behind"])
        page.push(_event("room", overview))
        self._pages.add(page)
        try:
            await response.write(b"retry: 2000\n\n")
            while page in self._pages:
                try:
                    data = await asyncio.wait_for(page.queue.get(), self.heartbeat)
                except TimeoutError:
                    if self.session_of(request) is None:     # the session ended
                        self._drop(page, "session ended")
                        break
                    data = b": ping\n\n"        # keeps the connection, finds dead pages
                await asyncio.wait_for(response.write(data), self.timeout)
        except (ConnectionError, TimeoutError) as err:
            self._drop(page, f"{type(err).__name__}")
        finally:           # the page went away (aiohttp cancelled this handler) or was dropped
            if page in self._pages:
                self._drop(page, "gone")
        return response
