"""The director's evening on the console (hub.console): late changes, the device check, the
table and guide cards, the room screen, the results files, the console's language.

Routes added to the console's application::

    GET  /evening                      the evening page (static/evening.*), director
    GET  /api/evening                  the session as the page shows it: sections and pairs
                                       (names, late, withdrawn and the boards a withdrawn
                                       or late one left unplayed, substitutes; an
                                       individual's players, ``individual``), the
                                       section's results files (``exports``), tables, the
                                       round clock (paused or not), the public settings,
                                       the exports
    GET  /check, /api/evening/check    the device check: every table and seat, its device
                                       paired? online? battery and signal when the device
                                       reports them (``hub.device_reports``), the card
                                       readers and their decks; director
    GET  /cards, /api/evening/guide    the table cards and the guide cards (static/cards.*,
                                       print-friendly): where each pair goes and which boards,
                                       each round, from the movement; director
    POST /api/evening/cards            draws a pairing code for every device of every table
                                       (hub.pairing, each logged ``pairing_code`` with the
                                       user) for the table cards: their QR codes; director,
                                       CSRF
    GET  /screen                       the room screen: the public rankings in large type,
                                       one section after another (static/screen.*), public
    GET  /api/evening/export/{name}    a results file (hub.session_export: usebio.xml,
                                       results.pbn, bridgewebs.pbn, ecats.xml),
                                       ``?section=`` (the first by default), ``?title=`` (the
                                       event's name and session); scorer or director
    GET  /api/evening/event/{name}     the event's total (hub.series_api: event-usebio.xml,
                                       event.pbn), a session of an event of several
                                       sessions only; scorer or director
    GET  /api/evening/corrections      every result corrected (hub.corrections), in order:
                                       the result as corrected, the one it replaced
                                       (``was``), ``by``, ``at``, ``status``; scorer or director
    GET  /api/i18n, POST /api/i18n     the user's language and its words (hub.console_i18n);
                                       ``{"language"}`` chooses it (remembered for the user
                                       and in the cookie ``tenace_lang``)

The late changes themselves are director commands posted to ``/api/director`` (hub.director:
``pair_add``, ``pair_names``, ``pair_withdraw``, ``round_start``, ``round_pause``,
``round_time``, ``ruling`` for a board cancelled, ``public_results``), so each is checked,
logged with the console user as ``by`` and replayed like any other.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from aiohttp import web

from bridgecore.text import Text
from hub.bridgewebs_account import BridgeWebsAccount, add_bridgewebs_routes
from hub.console_i18n import COOKIE, LANGUAGES, Languages, answer
from hub.console_setup import data_directory
from hub.late_changes import absent_pair, contestants, unplayed
from hub.pairing import Pairing, pairing_uri, qr_svg
from hub.results_pages import PublicResults
from hub.roster import Roster, RosterError
from hub.series_api import event_file
from hub.session_export import EXPORTS, PAIRS_ONLY, ExportError, export
from hub.users import Session
from hub.webserver import HttpError, json_response, read_body
from wire.catalogs import PSEUDO

__all__ = ["add_session_routes", "device_check", "guide"]

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
MAX_I18N = 256
_KINDS = {"tab": "table tablet", "rdr": "card readers"}


def files_title(setup: Any) -> str:
    """A results file's title: the set-up's name and session as its summary writes them
    (``"Tournoi du lundi, Soirée"``), either alone when the other is empty."""
    return ", ".join(t for t in (str(getattr(setup, k, "") or "").strip()
                                 for k in ("name", "session")) if t)


class Console(Protocol):
    """What these routes need of the console (hub.console.Console)."""

    hub: Any
    pairing: Pairing | None
    timeout: float
    session_key: web.RequestKey[Session]
    languages: Languages

    def need(self, role: str, handler: Handler, *, page: bool = False,
             csrf: bool = False) -> Handler: ...
    def static_file(self, name: str, path: str, what: str = "file") -> web.Response: ...
    def session_of(self, request: web.Request) -> Session | None: ...
    def language_of(self, request: web.Request) -> str: ...


def add_session_routes(app: web.Application, console: Console) -> None:
    """The routes of the module docstring on ``app`` (the console's)."""
    routes = _Evening(console)
    need = console.need
    get, post = app.router.add_get, app.router.add_post
    get("/evening", need("director", routes.page("evening.html"), page=True))
    get("/check", need("director", routes.page("check.html"), page=True))
    get("/cards", need("director", routes.page("cards.html"), page=True))
    get("/screen", routes.page("screen.html"))
    get("/api/evening", need("director", routes.state))
    get("/api/evening/check", need("director", routes.check))
    get("/api/evening/guide", need("director", routes.guide))
    post("/api/evening/cards", need("director", routes.cards, csrf=True))
    get("/api/evening/export/{name}", need("scorer", routes.export))
    get("/api/evening/event/{name}", need("scorer", routes.event_file))
    get("/api/evening/corrections", need("scorer", routes.corrections))
    get("/api/i18n", routes.i18n)
    post("/api/i18n", routes.choose)
    accounts: dict[Any, BridgeWebsAccount] = {}     # one per data directory (or memory)

    def account() -> BridgeWebsAccount:
        folder = data_directory(console.hub)
        return accounts.setdefault(folder, BridgeWebsAccount(folder))

    add_bridgewebs_routes(app, need, account, routes.bridgewebs_file,
                          lambda: [s.name for s in routes.room.sections])


def _account_parts(account: str) -> tuple[str, str | None, str]:
    """``A3-N`` -> (``A3``, ``N``, ``seat tablet``); ``A3-tab``, ``A3-rdr`` likewise."""
    base = account.split(".", 1)[0]
    table, _, last = base.rpartition("-")
    seat = last if last in ("N", "E", "S", "W") else None
    return table, seat, _KINDS.get(last, "seat tablet")


def _last_missed(room: Any, section: str, pair: int) -> int:
    """The last round whose boards a late or withdrawn pair may have left unplayed: the
    round in progress, or for a late pair in the absent pair's place that stays, the round
    before the one it took it from (the boards of its rounds are its to play)."""
    placed: int | None = room.late.placed.get((section, pair))
    if placed is None or (section, pair) in room.late.withdrawn:
        return int(room.clock.round)
    return min(int(room.clock.round), placed - 1)


def device_check(room: Any, pairing: Pairing | None, reports: dict[str, dict[str, Any]]
                 ) -> list[dict[str, Any]]:
    """Every table with its devices: account, seat, kind, paired, online, battery, signal,
    reader and decks (a reader's ``seats``), last seen. Without pairing: the devices the
    room has seen."""
    paired = pairing.paired() if pairing is not None else set()
    accounts = pairing.pairable() if pairing is not None else list(room.devices)
    by_table: dict[str, list[dict[str, Any]]] = {t: [] for t in room.tables}
    for account in accounts:
        info = room.devices.get(account)
        table, seat, kind = _account_parts(account)
        if info is not None and table not in by_table:
            table = info.table
        report = reports.get(account, {})
        by_table.setdefault(table, []).append({
            "account": account, "seat": seat or report.get("seat"), "kind": kind,
            "paired": account in paired if pairing is not None else None,
            "online": None if info is None else info.online,
            "last_seen": None if info is None else info.last_seen,
            "battery": report.get("battery"), "signal": report.get("signal"),
            "reader": report.get("reader"), "detail": report.get("detail"),
            "decks": report.get("seats")})
    order = {"table tablet": 0, "seat tablet": 1, "card readers": 2}
    return [{"table": table, "devices": sorted(devices, key=lambda d: (
        order[d["kind"]], "NESW".find(d["seat"] or "N"), d["account"]))}
        for table, devices in by_table.items()]


def guide(room: Any) -> list[dict[str, Any]]:
    """Each section's movement as guide cards: for each pair, each round's table, direction
    and boards (None: the pair sits out); for each table, each round's pairs and boards."""
    out = []
    for section in room.sections:
        movement = section.movement
        if movement is None:
            continue
        pairs = []
        if section.individual is not None:   # a guide card per player: his tables and seats
            pairs = _player_guides(section)
        for pair in ([] if section.individual is not None else movement.pairs):
            rounds = []
            for number in range(1, movement.rounds + 1):
                found = next((a for a in movement.round(number) if a.plays
                              and pair in (a.ns, a.ew)), None)
                rounds.append(None if found is None else {
                    "round": number, "table": section.ids.get(found.table, str(found.table)),
                    "direction": "NS" if found.ns == pair else "EW",
                    "boards": list(found.boards)})
            pairs.append({"pair": pair, "names": list(section.pairs.get(pair, ())),
                          "rounds": rounds})
        tables = []
        for table_id, number in section.tables.items():
            cells: list[dict[str, Any]] = []
            for n in range(1, movement.rounds + 1):
                a = movement.assignment(n, number)
                cells.append({"round": n, "ns": None if a is None else a.ns,
                              "ew": None if a is None else a.ew,
                              "boards": [] if a is None else list(a.boards)})
                seats = section.players(table_id, n)
                if seats is not None:       # an individual: N, E, S, W by number
                    cells[-1]["players"] = list(seats)
            tables.append({"table": table_id, "rounds": cells})
        out.append({"section": section.name, "rounds": movement.rounds, "pairs": pairs,
                    "tables": tables, **({"individual": True} if section.individual else {})})
    return out


def _player_guides(section: Any) -> list[dict[str, Any]]:
    """An individual's guide cards: each player's table, seat and boards round by round
    (``pair`` his number, ``direction`` his seat letter)."""
    schedule = section.individual
    out = []
    for player in schedule.players:
        rounds: list[dict[str, Any] | None] = []
        for number in range(1, schedule.rounds + 1):
            a = next((a for a in schedule.assignments if a.round == number and a.plays
                      and player in a.seats), None)
            rounds.append(None if a is None else {
                "round": number, "table": section.ids.get(a.table, str(a.table)),
                "direction": "NESW"[a.seats.index(player)], "boards": list(a.boards)})
        out.append({"pair": player, "names": list(section.pairs.get(player, ())),
                    "rounds": rounds})
    return out


class _Evening:
    def __init__(self, console: Console):
        self.console = console

    @property
    def room(self) -> Any:
        return self.console.hub.room

    def page(self, name: str) -> Handler:
        async def handler(request: web.Request) -> web.Response:
            return self.console.static_file(name, request.path, "page")
        return handler

    async def state(self, request: web.Request) -> web.Response:
        room = self.room
        late = room.late.to_json()
        withdrawn = {(w["section"], w["pair"]) for w in late["withdrawn"]}
        latecomers = {(w["section"], w["pair"]) for w in late["late"]}
        placed = room.late.placed
        sections = []
        substitutes = room.scoring.substitutes
        for section in room.sections:
            movement = section.movement
            absent = next((p for p in range(1, 2 * movement.tables + 1)
                           if absent_pair(movement, p)), None) \
                if movement is not None and section.individual is None else None
            numbers = sorted(contestants(section) | set(section.pairs)
                             | ({absent} if absent is not None else set()))
            scored = room.scoring.section(section.name)
            sections.append({
                "name": section.name, "tables": list(section.tables),
                "rounds": None if movement is None else movement.rounds,
                # the set-up's absent pair: a late pair may take its place (hub.late_changes)
                "absent": absent,
                "pairs": [{"pair": p, "names": list(section.pairs.get(p, ())),
                           "late": (section.name, p) in latecomers,
                           **({"absent": True} if p == absent else {}),
                           "withdrawn": (section.name, p) in withdrawn,
                           "boards_played": len(scored.played(p)),
                           "substitutes": substitutes.of_pair(section.name, p),
                           **({"unplayed": unplayed(section, scored.lines, p,
                                                    _last_missed(room, section.name, p),
                                                    placed.get((section.name, p)))}
                              if (section.name, p) in withdrawn | latecomers else {})}
                          for p in numbers],
                "exports": [n for n in EXPORTS if section.individual is None
                            or n not in PAIRS_ONLY],
                **({"individual": True} if section.individual is not None else {})})
        clock = room.clock
        return json_response({
            "sections": sections, "tables": list(room.tables),
            "boards": room.board_numbers(),
            "clock": {"round": clock.round, "started": clock.started,
                      "minutes": clock.minutes, "deadline": clock.deadline,
                      "paused": late["paused"]},
            "public": PublicResults.of(room.public_results).to_json(),
            "exports": list(EXPORTS), "hub_time": self.console.hub.hub_time(),
            "pairing": self.console.pairing is not None})

    async def check(self, request: web.Request) -> web.Response:
        reports = getattr(self.console.hub, "device_reports", None) or {}
        return json_response({"tables": device_check(self.room, self.console.pairing,
                                                      reports),
                              "hub_time": self.console.hub.hub_time()})

    async def guide(self, request: web.Request) -> web.Response:
        return json_response({"sections": guide(self.room)})

    async def cards(self, request: web.Request) -> web.Response:
        pairing = self.console.pairing
        if pairing is None:
            raise HttpError(503, Text.of("http.no_pairing"))
        user = request[self.console.session_key].user
        hub_url = f"{request.scheme}://{request.host}"
        loop = asyncio.get_running_loop()
        tables: dict[str, list[dict[str, Any]]] = {}
        record = getattr(self.console.hub, "record", None)
        for account in pairing.pairable():
            drawn = await loop.run_in_executor(None, pairing.draw, account)
            uri = pairing_uri(hub_url, drawn.code, pairing.ca_pem)
            if record is not None:
                record("pairing_code", {"account": account, "expires": drawn.expires}, user)
            table, seat, kind = _account_parts(account)
            tables.setdefault(table, []).append({
                "account": account, "seat": seat, "kind": kind, "code": drawn.shown,
                "expires": drawn.expires, "uri": uri, "svg": qr_svg(uri)})
        log.info("pairing codes for %d table cards drawn by %s", len(tables), user)
        return json_response({"ok": True, "hub": hub_url, "tables": [
            {"table": t, "devices": d} for t, d in sorted(tables.items())]})

    async def export(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in EXPORTS:
            raise HttpError(404, Text.of("http.no_results_file", name=f"{name!r:.40}",
                                         files=", ".join(EXPORTS)))
        names = [s.name for s in self.room.sections]
        section = request.query.get("section", names[0] if names else "")
        if section not in names:
            raise HttpError(404, Text.of("http.no_section", section=section[:40]))
        setup = getattr(self.console.hub, "setup", None)    # the event's name by default
        title = request.query.get("title", files_title(setup))[:120]
        date = str(getattr(setup, "date", "") or "")     # the session's, not the download's
        try:
            body, kind = await asyncio.to_thread(self._export, name, section, title, date)
        except ExportError as err:
            raise HttpError(409, str(err)) from None
        stem, _, suffix = name.partition(".")
        return web.Response(body=body, headers={
            "Content-Type": kind,
            "Content-Disposition": f'attachment; filename="{stem}-{section}.{suffix}"'})

    async def event_file(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        body, kind = event_file(self.console.hub, name)
        return web.Response(body=body, headers={
            "Content-Type": kind, "Content-Disposition": f'attachment; filename="{name}"'})

    async def corrections(self, request: web.Request) -> web.Response:
        return json_response({"corrections": self.room.scoring.corrections.history()})

    def bridgewebs_file(self, section: str) -> tuple[bytes, str]:
        """The section's ``bridgewebs.pbn`` and its file name, for the upload (a worker
        thread: hub.bridgewebs_account)."""
        setup = getattr(self.console.hub, "setup", None)
        body, _ = self._export("bridgewebs.pbn", section, files_title(setup)[:120],
                               str(getattr(setup, "date", "") or ""))
        return body, f"bridgewebs-{section}.pbn"

    def _export(self, name: str, section: str, title: str, date: str) -> tuple[bytes, str]:
        """The file (a worker thread): the club's roster read for the member numbers."""
        try:
            roster = Roster.in_directory(data_directory(self.console.hub))
        except RosterError as err:
            log.error("results file without member numbers: the roster cannot be read: %s",
                      err)
            roster = None
        return export(self.room, name, section, title=title, date=date, roster=roster,
                      now=self.console.hub.hub_time())

    def _language(self, request: web.Request) -> str:
        return self.console.language_of(request)

    async def i18n(self, request: web.Request) -> web.Response:
        language = self._language(request)
        return json_response({**answer(language), "languages": LANGUAGES})

    async def choose(self, request: web.Request) -> web.Response:
        body = await read_body(request, MAX_I18N, "a language", self.console.timeout)
        try:
            data = json.loads(body)
        except (UnicodeDecodeError, ValueError) as err:
            raise HttpError(400, f"the language is not JSON: {err}") from None
        language = data.get("language") if isinstance(data, dict) else None
        if language not in LANGUAGES and language != PSEUDO:
            raise HttpError(400, f"a language is one of {', '.join(LANGUAGES)}")
        session = self.console.session_of(request)
        if session is not None:
            self.console.languages.set(session.user, language)
        response = json_response({"ok": True, **answer(language)})
        response.set_cookie(COOKIE, language, samesite="Strict", secure=request.secure,
                            path="/", max_age=365 * 24 * 3600)
        return response
