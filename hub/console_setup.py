"""The director sets the evening up from the console: the set-up page and its JSON API, and
the club's roster.

Routes added to the console's application (hub.console), director only, every POST with
the session's CSRF token (docs/console-api.md has the whole API, for a club's scripts)::

    GET  /setup                   the page (static/setup.*)
    GET  /api/setup               the hub's set-up: waiting or not, the summary, the set-up
                                  as this API takes it (without the deals), whether it may
                                  be replaced, the page's defaults
    POST /api/setup               a new event (the document below); ?check=1: checked only;
                                  ?next=1: the next session, even after play (the session
                                  played is stored for the event's total and the ladder,
                                  hub.series)
    GET  /api/roster              the club's members (hub.roster)
    POST /api/roster              a CSV file of members (text/csv) in place of the roster
    GET  /api/roster/match?name=  the members a name matches
    GET  /api/setup/deals         the whole set-up with its deals (hub.event's JSON form,
                                  ``EventSetup.to_json``): what a simulator (``tenace sim
                                  --console``) or a scoring program needs to know the deals
                                  the hub dealt; a director's only, each reading logged
    GET  /api/setup/checkins      the names (or member numbers) typed at check-in, each with
                                  the members it matches (shown to the director, never
                                  applied); in an individual (``individual``) ``number``
                                  is the player's in the event, matched by name only

The document is the TOML event file's (hub.event) in JSON, ``sections`` a list counted
from 0; a player may be ``{"member": 12}`` (the roster's name) or ``{"name": "..."}``, and
the boards may come as a file sent with the set-up, ``"boards": {"file": {"name":
"monday.pbn", "data": BASE64}}``, kept in the data directory's ``boards/``. The document is
turned into the tables a TOML file gives and read by the same :func:`hub.event.read_document`:
the same set-up, the same checks. A refused set-up is 400 ``{"ok": false, "errors":
[{"field": "sections[0].tables", "error": "...", "error_text": {"key", "values"}}]}``, every
problem at once: ``error`` in the director's language, ``error_text`` the message it was
made from (a problem the event file's reader, hub.event, words itself is a plain text:
its English words).

A set-up accepted replaces the hub's (``Hub.replace_setup``, a new event: the fact
``setup_replaced`` with the set-up and the director's account, so a restart rebuilds it
from the log). It is refused (409) once a board has been started at a table, unless it is
the next session (``?next=1``: the session played is stored first, hub.series): the late
changes of a session are director commands, not a new set-up.
"""

from __future__ import annotations

import base64
import binascii
import logging
import re
import tempfile
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from aiohttp import web

from bridgecore.conventions import CONVENTIONS
from bridgecore.text import Text
from hub.console_i18n import COOKIE as LANGUAGE_COOKIE
from hub.console_i18n import LANGUAGES, Languages, choose, say
from hub.event import MOVEMENTS, SCORINGS, EventSetup, read_document
from hub.event_values import Nested, Problem
from hub.roster import Roster, RosterError
from hub.section_setup import MAX_MOVEMENT_FILE
from hub.store import StoreError
from hub.texts import render
from hub.users import Session
from hub.webserver import HttpError, json_response, read_body

__all__ = ["DEFAULTS", "MAX_BOARD_FILE", "MAX_ROSTER", "MAX_SETUP", "add_setup_routes",
           "error_fields", "toml_document", "worded"]

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
MAX_BOARD_FILE = 1024 * 1024      # bytes of a board file sent with a set-up
MAX_SETUP = 2 * MAX_BOARD_FILE    # a set-up (its board file in base64 included)
MAX_ROSTER = 2 * 1024 * 1024      # a roster's CSV file
BOARD_EXTENSIONS = (".pbn", ".dlm", ".dup", ".bri", ".dge")
DEFAULTS: dict[str, Any] = {
    "event": {"edition": "2017", "scoring": "matchpoints", "minutes_per_round": 20},
    "section": {"movement": "mitchell", "tables": 8, "boards_per_round": 3},
    "movements": list(MOVEMENTS), "scorings": list(SCORINGS),
    "conventions": list(CONVENTIONS), "languages": LANGUAGES,
    "editions": ["1997", "2007", "2017"], "formats": [e[1:] for e in BOARD_EXTENSIONS],
}
"""What the page proposes for a usual club evening (the API's own defaults are the TOML
file's: hub.event)."""

CONVENTIONS_BY_LANGUAGE = {"en": "ebu", "fr": "ffb"}
"""The scoring conventions the page proposes to a director of each language: what the clubs
of that language expect (bridgecore.conventions); the WBF's for the others."""


def defaults(language: str) -> dict[str, Any]:
    """:data:`DEFAULTS` for a director of ``language``: his federation's conventions, and
    his language as the event's."""
    event = dict(DEFAULTS["event"], conventions=CONVENTIONS_BY_LANGUAGE.get(language, "wbf"),
                 language=event_language(language))
    return dict(DEFAULTS, event=event)


def event_language(language: str) -> str:
    """The event's language for a director of ``language``: his own, English for the
    pseudo-locale (a test's, never an event's)."""
    return language if language in LANGUAGES else "en"


class Console(Protocol):
    """What these routes need of the console (hub.console.Console)."""

    hub: Any
    timeout: float
    session_key: web.RequestKey[Session]
    languages: Languages

    def need(self, role: str, handler: Handler, *, page: bool = False,
             csrf: bool = False) -> Handler: ...
    def static_file(self, name: str, path: str, what: str = "file") -> web.Response: ...


def add_setup_routes(app: web.Application, console: Console) -> None:
    """The routes of the module docstring on ``app`` (the console's)."""
    routes = _SetupRoutes(console)
    need = console.need
    app.router.add_get("/setup", need("director", routes.page, page=True))
    app.router.add_get("/api/setup", need("director", routes.current))
    app.router.add_post("/api/setup", need("director", routes.set_up, csrf=True))
    app.router.add_get("/api/roster", need("director", routes.roster))
    app.router.add_post("/api/roster", need("director", routes.roster_import, csrf=True))
    app.router.add_get("/api/roster/match", need("director", routes.match))
    app.router.add_get("/api/setup/checkins", need("director", routes.checkins))
    app.router.add_get("/api/setup/deals", need("director", routes.deals))


def data_directory(hub: Any) -> Path | None:
    """The hub's data directory (its event log's folder); None for a log in memory."""
    path = getattr(getattr(hub, "log", None), "path", None)
    if not path or str(path) == ":memory:":
        return None
    return Path(path).parent


# The document -----------------------------------------------------------------------------

# A problem of the document: {"field": where, "error": Text}, worded for the reader at the
# end (:func:`worded`).
Problems = list[dict[str, Any]]


def worded(errors: Problems, language: str) -> list[dict[str, Any]]:
    """The problems as the API answers them: ``error`` in ``language``, ``error_text``."""
    return [{"field": e["field"], "error": render(e["error"], language),
             "error_text": e["error"].to_json()} for e in errors]


def _players(value: Any, roster: Roster, where: str, errors: Problems) -> Any:
    """A pair's players with ``{"member": n}`` and ``{"name": s}`` turned into names."""
    if isinstance(value, str | Mapping):
        value = [value]
    if not isinstance(value, list):
        return value     # read_document says what is wrong
    names: list[Any] = []
    for player in value:
        if isinstance(player, Mapping) and "member" in player:
            number = player["member"]
            found = [m for m in roster.members if m.number == number]
            if not found:
                errors.append({"field": where, "error": Text.of(
                    "setup_error.no_member", member=f"{number!r:.20}")})
                # a place kept for him: the set-up is refused for this error alone, not
                # again for a pair without names
                names.append(f"#{number!r:.20}")
                continue
            names.append(found[0].name)
        elif isinstance(player, Mapping) and set(player) == {"name"}:
            names.append(player["name"])
        else:
            names.append(player)
    return names


def toml_document(doc: Any, roster: Roster, boards_dir: Callable[[], Path]
                  ) -> tuple[dict[str, Any], Problems]:
    """The tables a TOML event file gives for the API's document ``doc`` (module
    docstring), and the problems found on the way (roster members, the board file sent)."""
    errors: Problems = []
    if not isinstance(doc, Mapping):
        return {}, [{"field": "", "error": Text.of("setup_error.not_object")}]
    out: dict[str, Any] = {k: v for k, v in doc.items() if k not in ("sections", "section")}
    if "section" in doc:
        errors.append({"field": "section", "error": Text.of("setup_error.sections_key")})
    sections = doc.get("sections")
    if isinstance(sections, list):
        converted = []
        for i, section in enumerate(sections):
            if isinstance(section, Mapping) and isinstance(section.get("pairs"), Mapping):
                pairs = {str(p): _players(v, roster, f"sections[{i}].pairs.{p}", errors)
                         for p, v in section["pairs"].items()}
                section = {**section, "pairs": pairs}
            if isinstance(section, Mapping) and "movement_file" in section:
                section = _movement_file(section, f"sections[{i}].movement_file", errors)
            converted.append(section)
        out["section"] = converted
    elif sections is not None:
        out["section"] = sections
    boards = doc.get("boards")
    if isinstance(boards, Mapping) and isinstance(boards.get("file"), Mapping):
        saved = _save_board_file(boards["file"], boards_dir, errors)
        out["boards"] = {**boards, "file": saved or ""}
    return out, errors


def _movement_file(section: Mapping[str, Any], where: str, errors: Problems
                   ) -> dict[str, Any]:
    """A section whose ``movement_file`` was sent as ``{"name", "data"}`` (base64) with its
    text as ``movement_asc`` (hub.event): the API never reads a path on the hub."""
    out = dict(section)
    sent = section["movement_file"]
    if isinstance(sent, str) and "movement_asc" in section:
        return out                  # the text is there (a set-up sent back as it was read)
    if not isinstance(sent, Mapping) or not isinstance(sent.get("name"), str) \
            or not isinstance(sent.get("data"), str):
        errors.append({"field": where, "error": Text.of("setup_error.file_shape")})
        return out
    try:
        content = base64.b64decode(sent["data"], validate=True)
    except (binascii.Error, ValueError):
        errors.append({"field": where, "error": Text.of("setup_error.not_base64")})
        return out
    if len(content) > MAX_MOVEMENT_FILE:
        errors.append({"field": where, "error": Text.of("setup_error.movement_size",
                                                        most=MAX_MOVEMENT_FILE)})
        return out
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = content.decode("iso-8859-1")
    out.update(movement_file=Path(sent["name"].replace("\\", "/")).name[:80],
               movement_asc=text)
    return out


def _save_board_file(sent: Mapping[str, Any], boards_dir: Callable[[], Path],
                     errors: Problems) -> str | None:
    """Keep a board file sent with a set-up in the boards folder; its name there."""
    name, data = sent.get("name"), sent.get("data")
    if not isinstance(name, str) or not isinstance(data, str):
        errors.append({"field": "boards.file", "error": Text.of("setup_error.file_shape")})
        return None
    stem = re.sub(r"[^\w.-]+", "_", Path(name.replace("\\", "/")).name).lstrip(".")[:80]
    if not stem:
        errors.append({"field": "boards.file", "error": Text.of("setup_error.no_file_name",
                                                                name=f"{name!r:.80}")})
        return None
    try:
        content = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        errors.append({"field": "boards.file", "error": Text.of("setup_error.not_base64")})
        return None
    if len(content) > MAX_BOARD_FILE:
        errors.append({"field": "boards.file", "error": Text.of("setup_error.board_size",
                                                                most=MAX_BOARD_FILE)})
        return None
    folder = boards_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / stem).write_bytes(content)
    return stem


_KEY = re.compile(r"^(?P<key>[A-Za-z_]\w*(?:\[\d+\])?(?:\.[\w-]+)*): (?P<rest>.*)$", re.S)
_SECTION = re.compile(r"^section '(?P<name>[^']*)': (?P<rest>.*)$", re.S)
_MANY = re.compile(r"^\d+ problems:\n(?P<lines>.*)$", re.S)


def error_fields(problems: list[str], names: list[str]) -> Problems:
    """hub.event's problems (``section[1].tables: ...``) as the API's ``{"field":
    "sections[0].tables", "error": ...}`` (its words as they are: a plain text);
    ``names``: the sections' names, in order."""
    out: Problems = []

    def add(field: str, text: str, keyed_text: bool = True) -> None:
        many = _MANY.match(text)
        if many:
            for line in many.group("lines").splitlines():
                add(field, line.strip())
            return
        named = _SECTION.match(text)
        if named:
            name = named.group("name")
            index = names.index(name) if name in names else None
            add(field or ("sections" if index is None else f"sections[{index}]"),
                named.group("rest"))
            return
        keyed = _KEY.match(text) if keyed_text else None
        if keyed:
            key = keyed.group("key")
            section = re.match(r"^section\[(\d+)\](.*)$", key)
            if section:
                key = f"sections[{int(section.group(1)) - 1}]{section.group(2)}"
            elif key == "section":
                key = "sections"
            inner = f"{field}.{key}" if field and not key.startswith("sections") else key
            add(inner, keyed.group("rest"), re.fullmatch(r"sections\[\d+\]", inner) is not None)
            return
        out.append({"field": field, "error": Text.plain(text)})

    def one(field: str, problem: str) -> None:
        if isinstance(problem, Problem):     # its key and its text (hub.event_values)
            key = _field(problem.key)
            out.append({"field": f"{field}.{key}" if field else key, "error": problem.text})
        elif isinstance(problem, Nested):    # a section's problems, some of them texts
            for part in problem.parts:
                one(_field(problem.key), part)
        else:
            add(field, problem)

    for problem in problems:
        one("", problem)
    return out


def _field(key: str) -> str:
    """A TOML key (``section[2].tables``, sections from 1) as the API names the field
    (``sections[1].tables``, from 0)."""
    section = re.match(r"^section\[(\d+)\](.*)$", key)
    if section:
        return f"sections[{int(section.group(1)) - 1}]{section.group(2)}"
    return "sections" + key[len("section"):] if key.split(".")[0] == "section" else key


def api_document(setup: Any) -> dict[str, Any] | None:
    """A set-up as this API takes it, without its deals (None while waiting)."""
    if not isinstance(setup, EventSetup):
        return None
    data = setup.to_json()
    boards = data["boards"]
    return {"event": data["event"], "sections": data["section"],
            "boards": {"source": boards["source"], "numbers": sorted(map(int, boards["deals"]))}}


# The routes -------------------------------------------------------------------------------

class _SetupRoutes:
    def __init__(self, console: Console):
        self.console = console
        self._temporary: tempfile.TemporaryDirectory[str] | None = None
        self._roster: Roster | None = None

    @property
    def hub(self) -> Any:
        return self.console.hub

    @property
    def roster_of_hub(self) -> Roster:
        if self._roster is None:
            try:
                self._roster = Roster.in_directory(data_directory(self.hub))
            except RosterError as err:
                log.error("the club's roster cannot be read: %s", err)
                self._roster = Roster()
        return self._roster

    def _boards_dir(self) -> Path:
        folder = data_directory(self.hub)
        if folder is not None:
            return folder / "boards"
        if self._temporary is None:   # a hub in memory: gone with the process
            self._temporary = tempfile.TemporaryDirectory(prefix="tenace-boards-")
        return Path(self._temporary.name)

    def _user(self, request: web.Request) -> str:
        return request[self.console.session_key].user

    def _language(self, request: web.Request) -> str:
        """The director's language (hub.console_i18n): the summaries are made in it."""
        return choose(self.console.languages.get(self._user(request)),
                      request.cookies.get(LANGUAGE_COOKIE),
                      accept=request.headers.get("Accept-Language", ""))

    def started(self, language: str = "en") -> list[str]:
        """The boards started in the room (table, round, board), in ``language``."""
        return [say(language, "setup.started_board", table=tid, round=r, board=b)
                for tid, r, b in sorted((tid, r, b) for tid, t in self.hub.room.tables.items()
                                        for r, b in t.sittings)]

    async def page(self, request: web.Request) -> web.Response:
        return self.console.static_file("setup.html", request.path, "page")

    async def current(self, request: web.Request) -> web.Response:
        setup: Any = getattr(self.hub, "setup", None)
        started = self.started(self._language(request))
        summary = (setup.summary(self._language(request))
                   if setup is not None and hasattr(setup, "summary") else [])
        return json_response({
            "waiting": bool(getattr(setup, "waiting", False)), "summary": summary,
            "setup": api_document(setup), "started": started[:10],
            "can_set_up": not started and hasattr(self.hub, "replace_setup"),
            "roster": len(self.roster_of_hub), "defaults": defaults(self._language(request))})

    async def deals(self, request: web.Request) -> web.Response:
        """The set-up with every deal (the director's own: he may read any deal; never a
        device's account, which has no console session)."""
        setup: Any = getattr(self.hub, "setup", None)
        if not isinstance(setup, EventSetup):
            raise HttpError(409, Text.of("http.no_event"))
        log.warning("the deals of the event read from the console by %s from %s",
                    self._user(request), request.remote)
        return json_response({"ok": True, "setup": setup.to_json()})

    async def set_up(self, request: web.Request) -> web.Response:
        body = await read_body(request, MAX_SETUP, "a set-up", self.console.timeout,
                               over_app_limit=True)
        doc = _json_body(request, body, "a set-up")
        check_only = request.query.get("check") in ("1", "true")
        toml, errors = toml_document(doc, self.roster_of_hub, self._boards_dir)
        event = toml.get("event", {})
        if isinstance(event, Mapping) and "language" not in event:   # the director's own
            toml["event"] = {**event, "language": event_language(self._language(request))}
        names = _section_names(toml.get("section"))
        setup: EventSetup | None = None
        if isinstance(doc, Mapping):
            setup, problems = read_document(toml, self._boards_dir())
            errors += error_fields(problems, names)
        if errors or setup is None:
            return json_response({"ok": False, "errors": worded(errors or [
                {"field": "", "error": Text.of("setup_error.cannot")}],
                self._language(request))}, 400)
        if check_only:
            return json_response({"ok": True, "checked": True,
                                  "summary": setup.summary(self._language(request))})
        started = self.started()
        if started and request.query.get("next") not in ("1", "true"):
            raise HttpError(409, Text.of("http.play_recorded", tables=", ".join(started[:5])))
        replace = getattr(self.hub, "replace_setup", None)
        if replace is None:
            raise HttpError(503, Text.of("http.no_setup"))
        user = self._user(request)
        try:
            replace(setup, keep_play=False, account=user)
        except StoreError as err:
            log.error("set-up from the console not stored: %s", err)
            raise HttpError(500, Text.of("http.setup_not_stored", error=str(err))) from None
        log.info("event set up from the console by %s: %s", user, setup.summary()[0])
        return json_response({"ok": True, "summary": setup.summary(self._language(request)),
                              "tables": [t for s in setup.sections for t in s.ids]})

    async def roster(self, request: web.Request) -> web.Response:
        return json_response({"members": self.roster_of_hub.to_json()})

    async def roster_import(self, request: web.Request) -> web.Response:
        body = await read_body(request, MAX_ROSTER, "a roster", self.console.timeout,
                               over_app_limit=True)
        kind = request.headers.get("Content-Type", "").split(";")[0].strip()
        if kind not in ("text/csv", "text/plain", "application/octet-stream"):
            raise HttpError(415, Text.of("http.roster_csv"))
        roster = self.roster_of_hub
        try:
            count = roster.replace_csv(body)
        except RosterError as err:
            language = self._language(request)
            return json_response({"ok": False, "errors": [
                {"line": line, "error": render(text, language), "error_text": text.to_json()}
                for line, text in ((n, getattr(p, "text", None) or Text.plain(p))
                                   for n, p in err.problems)]}, 400)
        except OSError as err:
            raise HttpError(500, Text.of("http.roster_not_written", error=str(err))) from None
        log.info("club roster imported by %s: %d members", self._user(request), count)
        return json_response({"ok": True, "members": count})

    async def match(self, request: web.Request) -> web.Response:
        name = request.query.get("name", "")[:200]
        return json_response({"name": name, "members": [
            m.to_json() for m in self.roster_of_hub.match(name)]})

    async def checkins(self, request: web.Request) -> web.Response:
        roster = self.roster_of_hub
        out = []
        section_of = {tid: s for s in self.hub.room.sections for tid in s.tables}
        solo = {t for t, s in section_of.items() if s.individual is not None}
        for tid, table in self.hub.room.tables.items():
            for side, seated in sorted(getattr(table, "seated", {}).items(),
                                       key=lambda item: str(item[0])):
                pair, players = seated[0], seated[1]
                for player in players:
                    name = player.get("name") if isinstance(player, Mapping) else player
                    number = player.get("number") if isinstance(player, Mapping) else None
                    if not isinstance(name, str) or not name.strip():
                        name = ""
                    # an individual's number is the player's in the event, not a member's
                    found = [m for m in roster.members
                             if m.number == number and tid not in solo] or \
                        (roster.match(name) if name else [])
                    if name or number is not None:
                        section = section_of.get(tid)
                        # an individual's names are the player's (his number's)
                        who = number if tid in solo else pair
                        now = section.pairs.get(who, ()) if section is not None else ()
                        out.append({"table": tid, "side": getattr(side, "name", str(side)),
                                    "pair": pair, "name": name, "number": number,
                                    "members": [m.to_json() for m in found],
                                    "pair_names": list(now),
                                    **({"individual": True} if tid in solo else {})})
        return json_response({"checkins": out})


def _section_names(sections: Any) -> list[str]:
    """The sections' names as hub.event names them (default A, B, ...)."""
    if isinstance(sections, Mapping):
        sections = [sections]
    if not isinstance(sections, list):
        return []
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return [str(s.get("name")) if isinstance(s, Mapping) and isinstance(s.get("name"), str)
            else (letters[i] if i < len(letters) else f"S{i + 1}")
            for i, s in enumerate(sections)]


def _json_body(request: web.Request, body: bytes, what: str) -> Any:
    import json
    if request.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
        raise HttpError(415, f"{what} is sent as application/json")
    try:
        return json.loads(body)
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        raise HttpError(400, f"{what} is not JSON: {err}") from None
