"""The club's BridgeWebs account, saved in the hub's data directory, and the evening page's
"Upload to BridgeWebs" (the upload client: wire.bridgewebs, shared with ``tenace upload
bridgewebs``).

Routes (director; the POSTs with the session's CSRF token):

``GET /api/evening/bridgewebs``
    ``{"club", "url", "password_set"}``: the account saved, never its password.
``POST /api/evening/bridgewebs`` ``{"club", "url", "password"?}``
    saves the account (``password`` absent or "": the one saved is kept); 400 naming the
    field that is wrong. The file ``bridgewebs.json`` of the data directory, 0600 as
    everything there (hub.private).
``POST /api/evening/bridgewebs/upload`` ``{"section"}``
    posts the section's ``bridgewebs.pbn`` (hub.session_export: the results and the deals)
    to the saved address with the saved account: ``{"ok", "message"}`` (``ok`` false when
    the site answered without a ``message =`` line), 409 without a saved account, 502 when
    the site refuses by HTTP or does not answer. Logged with the club, the file and the
    site's message: never the password.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from aiohttp import web

from hub.session_export import ExportError
from hub.webserver import HttpError, json_response, read_body
from wire.bridgewebs import UploadError, bridgewebs_fields, check_club, check_url, upload

__all__ = ["ACCOUNT_NAME", "BridgeWebsAccount", "add_bridgewebs_routes"]

log = logging.getLogger(__name__)

ACCOUNT_NAME = "bridgewebs.json"
MAX_BODY = 4096
MAX_PASSWORD = 200


class BridgeWebsAccount:
    """The account saved in ``folder`` (None: a hub without a data directory keeps it in
    memory)."""

    def __init__(self, folder: Path | None):
        self.path = None if folder is None else folder / ACCOUNT_NAME
        self._memory: dict[str, str] = {}

    def load(self) -> dict[str, str]:
        """The account (``club``, ``url``, ``password``), {} when none is saved; a file that
        cannot be read is logged and counts as none."""
        if self.path is None:
            return dict(self._memory)
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as err:
            log.error("%s cannot be read (no BridgeWebs account): %s", self.path, err)
            return {}
        if not isinstance(data, dict):
            log.error("%s is not an object (no BridgeWebs account)", self.path)
            return {}
        return {k: str(data.get(k, "")) for k in ("club", "url", "password")}

    def save(self, account: Mapping[str, str]) -> None:
        if self.path is None:
            self._memory = dict(account)
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump(dict(account), file)
        os.replace(temporary, self.path)

    def shown(self) -> dict[str, Any]:
        """What the console sees of it: never the password."""
        account = self.load()
        return {"club": account.get("club", ""), "url": account.get("url", ""),
                "password_set": bool(account.get("password"))}


Exporter = Callable[[str], tuple[bytes, str]]   # a section -> its bridgewebs.pbn, file name


class _Routes:
    def __init__(self, account: Callable[[], BridgeWebsAccount], exporter: Exporter,
                 sections: Callable[[], list[str]]):
        self.account = account
        self.exporter = exporter
        self.sections = sections

    async def _json(self, request: web.Request) -> dict[str, Any]:
        raw = await read_body(request, MAX_BODY, "the request", 10.0)
        try:
            body = json.loads(raw)
        except ValueError:
            raise HttpError(400, "the body is not JSON") from None
        if not isinstance(body, dict):
            raise HttpError(400, "the body is not a JSON object")
        return body

    async def get(self, _request: web.Request) -> web.Response:
        return json_response(self.account().shown())

    async def save(self, request: web.Request) -> web.Response:
        body = await self._json(request)
        club, url, password = (body.get(k, "") for k in ("club", "url", "password"))
        for field, value in (("club", club), ("url", url), ("password", password)):
            if not isinstance(value, str):
                raise HttpError(400, f"{field}: a text is expected")
        club, url = club.strip(), url.strip()
        for field, why in (("club", check_club(club)), ("url", check_url(url))):
            if why:
                raise HttpError(400, f"{field}: {why}")
        if len(password) > MAX_PASSWORD:
            raise HttpError(400, f"password: at most {MAX_PASSWORD} characters")
        store = self.account()
        kept = store.load().get("password", "")
        store.save({"club": club, "url": url, "password": password or kept})
        log.info("BridgeWebs account saved: club %s, %s", club, url)
        return json_response({"ok": True, **store.shown()})

    async def upload(self, request: web.Request) -> web.Response:
        body = await self._json(request)
        section = body.get("section")
        if section not in self.sections():
            raise HttpError(404, f"no section {section!r:.40}")
        account = self.account().load()
        if not account.get("club") or not account.get("url") or not account.get("password"):
            raise HttpError(409, "no BridgeWebs account saved: give the club's code, the "
                                 "address and the password first")
        try:
            data, name = await asyncio.to_thread(self.exporter, str(section))
        except ExportError as err:
            raise HttpError(409, str(err)) from None
        fields = bridgewebs_fields(account["club"], account["password"],
                                   (name, data.decode("latin-1")))
        try:
            status, message = await asyncio.to_thread(upload, account["url"], fields)
        except UploadError as err:
            log.error("BridgeWebs upload of %s for club %s: %s", name, account["club"], err)
            raise HttpError(502, str(err)) from None
        log.info("BridgeWebs upload of %s for club %s: HTTP %d, %s", name, account["club"],
                 status, message if message is not None else "no message")
        return json_response({"ok": message is not None, "message": message,
                              "status": status, "file": name})


def add_bridgewebs_routes(app: web.Application, need: Callable[..., Any],
                          account: Callable[[], BridgeWebsAccount], exporter: Exporter,
                          sections: Callable[[], list[str]]) -> None:
    """The routes of the module docstring on ``app``; ``need`` the console's role check."""
    routes = _Routes(account, exporter, sections)
    app.router.add_get("/api/evening/bridgewebs", need("director", routes.get))
    app.router.add_post("/api/evening/bridgewebs", need("director", routes.save, csrf=True))
    app.router.add_post("/api/evening/bridgewebs/upload",
                        need("director", routes.upload, csrf=True))
