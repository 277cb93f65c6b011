"""The console's devices: the director's Devices page and the devices' pairing endpoint.

Routes added to the console's application (hub.console) when the hub pairs devices
(a :class:`hub.pairing.Pairing`):

* ``POST /api/pair`` ``{"code": "K7QX-M2PD", "device"?: "label"}``: a device redeems a code.
  No session (the device has none), but the Host/Origin guard of every console request and
  the pairing throttle apply. 200 with the credentials (``{"ok": true, "account", "username",
  "password", "role", "table", "seat", "broker", "ca", "first_seq"}``), else
  ``{"ok": false, "code", "error"}`` with 400 ``malformed``, 404 ``unknown_code``,
  410 ``expired``, 409 ``used``, 429 ``throttled`` (with ``Retry-After``), 503
  ``no_pairing`` (docs/protocol.md, "Pairing");
* ``GET /devices``: the page (static/devices.*), director only;
* ``GET /api/devices``: every device account of the event: its table, seat, role, whether it
  holds a password, whether it is online (the hub's presence), its pending code's expiry;
* ``POST /api/devices/pair`` ``{"account"}``: draw a code (the QR code as inline SVG, the
  ``tenace-pair:`` URI it holds); ``POST /api/devices/revoke`` ``{"account"}``: revoke it
  at once. Director only, with the session's CSRF token; each is logged in the event log
  with the user who did it (``pairing_code``, ``device_revoked``); a redemption is logged
  as ``device_paired`` by ``hub``, and repeated wrong codes raise ``pairing_failures``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from aiohttp import web

from bridgecore.text import Text
from hub.pairing import DEVICE_ROLES, Pairing, PairingError, pairing_uri, qr_svg
from hub.users import Session
from hub.webserver import HttpError, json_response, read_body

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Console(Protocol):
    """What these routes need of the console (hub.console.Console)."""

    hub: Any
    pairing: Pairing | None
    timeout: float
    session_key: web.RequestKey[Session]

    def need(self, role: str, handler: Handler, *, page: bool = False,
             csrf: bool = False) -> Handler: ...
    def static_file(self, name: str, path: str, what: str = "file") -> web.Response: ...

__all__ = ["MAX_PAIR", "PAIR_STATUS", "Console", "add_device_routes"]

log = logging.getLogger(__name__)

MAX_PAIR = 1024            # bytes of a pairing request
MAX_LABEL = 64
PAIR_STATUS = {"malformed": 400, "unknown_code": 404, "expired": 410, "used": 409,
               "throttled": 429, "no_pairing": 503, "no_account": 404,
               "no_ca": 404, "storage": 503}


def _refused(code: str, message: str, retry_after: float = 0.0) -> web.Response:
    response = json_response({"ok": False, "code": code, "error": message},
                             PAIR_STATUS.get(code, 400))
    if retry_after:
        response.headers["Retry-After"] = str(max(1, round(retry_after)))
    response.force_close()
    return response


def _host_name(request: web.Request) -> str:
    """The host the client called the console by (the Host header, checked by the guard)."""
    host = request.host
    if host.startswith("["):
        return host[:host.index("]") + 1]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def broker_for(pairing: Pairing, request: web.Request) -> str:
    """The broker URL a device is given: ``*`` as its host means the host it called us by."""
    return pairing.broker.replace("://*", f"://{_host_name(request)}", 1)


async def _json(request: web.Request, limit: int, what: str, timeout: float) -> dict[str, Any]:
    body = await read_body(request, limit, what, timeout)
    if request.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
        raise HttpError(415, f"{what} is sent as application/json")
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, ValueError) as err:
        raise HttpError(400, f"{what} is not JSON: {err}") from None
    if not isinstance(data, dict):
        raise HttpError(400, f"{what} is a JSON object")
    return data


def add_device_routes(app: web.Application, console: Console) -> None:
    """The routes of the module docstring on ``app`` (the console's)."""
    devices = _Devices(console)
    need = console.need
    app.router.add_post("/api/pair", devices.pair)
    app.router.add_get("/api/pair/ca", devices.authority)
    app.router.add_get("/devices", need("director", devices.page, page=True))
    app.router.add_get("/api/devices", need("director", devices.listing))
    app.router.add_post("/api/devices/pair", need("director", devices.draw, csrf=True))
    app.router.add_post("/api/devices/revoke", need("director", devices.revoke, csrf=True))


class _Devices:
    def __init__(self, console: Console):
        self.console = console

    @property
    def pairing(self) -> Pairing:
        pairing = self.console.pairing
        if pairing is None:
            raise HttpError(503, Text.of("http.pairs_no_device"))
        return pairing

    def _record(self, kind: str, body: dict[str, Any], account: str) -> None:
        record = getattr(self.console.hub, "record", None)
        if record is not None:
            record(kind, body, account)

    # The device's request ---------------------------------------------------------------------
    async def pair(self, request: web.Request) -> web.Response:
        pairing = self.console.pairing
        if pairing is None:
            return _refused("no_pairing", "this hub pairs no device")
        address = request.remote or "?"
        try:
            pairing.check_throttle(address)
        except PairingError as err:
            log.warning("pairing from %s throttled", address)
            return _refused(err.code, err.message, err.retry_after)
        try:
            data = await _json(request, MAX_PAIR, "a pairing request", self.console.timeout)
        except HttpError as err:
            return _refused("malformed", err.message)
        code, label = data.get("code"), data.get("device", "")
        if not isinstance(code, str) or not 1 <= len(code) <= 32 \
                or not isinstance(label, str) or len(label) > MAX_LABEL \
                or set(data) - {"code", "device"}:
            return _refused("malformed", 'a pairing request is {"code": "K7QX-M2PD", '
                                         f'"device"?: a label of at most {MAX_LABEL} characters}}')
        label = "".join(c for c in label if c.isprintable())   # it is logged
        loop = asyncio.get_running_loop()
        try:     # scrypt and argon2: off the hub's loop
            answer = await loop.run_in_executor(None, pairing.redeem, code, address, label)
        except PairingError as err:
            return _refused(err.code, err.message, err.retry_after)
        account = answer["account"]
        info = self.console.hub.room.devices.get(account)
        answer["first_seq"] = 0 if info is None else info.last_seq
        answer["broker"] = broker_for(pairing, request)
        self._record("device_paired", {"account": account, "address": address,
                                       "device": label}, "hub")
        return json_response({"ok": True, **answer})

    async def authority(self, request: web.Request) -> web.Response:
        """The club's CA certificate (public): a device pairing with an ``https`` console
        fetches it unverified, checks it against the fingerprint it scanned, then verifies
        the console with it before it sends its code (wire.pairing)."""
        pairing = self.console.pairing
        if pairing is None or pairing.ca_pem is None:
            return _refused("no_ca", "this hub has no certificate authority (no TLS)")
        return web.Response(body=pairing.ca_pem, content_type="application/x-pem-file")

    # The director's page ------------------------------------------------------------------------
    async def page(self, request: web.Request) -> web.Response:
        return self.console.static_file("devices.html", request.path, "page")

    async def listing(self, request: web.Request) -> web.Response:
        pairing = self.pairing
        room = self.console.hub.room
        pending = pairing.pending()
        paired = pairing.paired()
        rows = []
        for account in pairing.pairable():
            base = account.split(".", 1)[0]
            table, _, last = base.rpartition("-")
            info = room.devices.get(account)
            rows.append({"account": account, "table": table,
                         "seat": last if last in ("N", "E", "S", "W") else None,
                         "kind": {"tab": "table tablet", "rdr": "card readers"}.get(
                             last, "seat tablet"),
                         "paired": account in paired,
                         "online": None if info is None else info.online,
                         "code_expires": pending.get(account)})
        order = {"table tablet": 0, "seat tablet": 1, "card readers": 2}
        rows.sort(key=lambda r: (str(r["table"]), order[str(r["kind"])],
                                 "NESW".find(str(r["seat"] or "N")), str(r["account"])))
        return json_response({"devices": rows, "hub_time": self.console.hub.hub_time(),
                              "tls": pairing.ca_pem is not None,
                              "roles": list(DEVICE_ROLES)})

    async def _account(self, request: web.Request) -> str:
        data = await _json(request, MAX_PAIR, "a device command", self.console.timeout)
        account = data.get("account")
        if not isinstance(account, str) or account not in self.pairing.pairable():
            raise HttpError(404, Text.of("http.no_device", device=str(account)[:80]))
        return account

    async def draw(self, request: web.Request) -> web.Response:
        pairing = self.pairing
        account = await self._account(request)
        user = request[self.console.session_key].user
        loop = asyncio.get_running_loop()
        drawn = await loop.run_in_executor(None, pairing.draw, account)
        hub_url = f"{request.scheme}://{request.host}"
        uri = pairing_uri(hub_url, drawn.code, pairing.ca_pem)
        self._record("pairing_code", {"account": account, "expires": drawn.expires}, user)
        log.info("pairing code for %s drawn by %s", account, user)
        return json_response({"ok": True, "account": account, "code": drawn.shown,
                              "expires": drawn.expires, "hub": hub_url, "uri": uri,
                              "svg": qr_svg(uri)})

    async def revoke(self, request: web.Request) -> web.Response:
        pairing = self.pairing
        account = await self._account(request)
        user = request[self.console.session_key].user
        if account not in pairing.paired():
            raise HttpError(409, Text.of("http.no_password", device=account))
        pairing.revoke(account)
        self._record("device_revoked", {"account": account}, user)
        log.warning("device %s revoked by %s", account, user)
        return json_response({"ok": True, "account": account})
