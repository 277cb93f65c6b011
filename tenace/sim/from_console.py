"""The set-up of a hub the director set up from the console, for ``tenace sim --hub URL
--console URL``: the simulator logs in to the console with the director's account (never a
device's: a device's account has no console session and may not read a deal) and reads the
event with its deals (``GET /api/setup/deals``, docs/console-api.md), so a room whose boards
the hub dealt can be played against it and its results compared.

Standard library only (urllib): a session cookie, the login's JSON, nothing kept on disk.
"""

from __future__ import annotations

import http.cookiejar
import json
import ssl
import urllib.error
import urllib.request
from typing import Any

from tenace.commands import CommandError

__all__ = ["console_setup"]

TIMEOUT = 20.0


def console_setup(console: str, name: str, password: str, ca: str | None = None) -> Any:
    """The :class:`hub.event.EventSetup` of the hub whose console is at ``console`` (its
    address, ``http(s)://host:port``), read as the director ``name``; CommandError saying
    what went wrong (a wrong password, no event yet, a console that does not answer)."""
    from hub.errors import ConfigError
    from hub.event import EventSetup

    base = console.rstrip("/")
    context = ssl.create_default_context(cafile=ca) if base.startswith("https:") else None
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
        urllib.request.HTTPSHandler(context=context))
    login = urllib.request.Request(
        base + "/api/login", data=json.dumps({"name": name, "password": password}).encode(),
        headers={"Content-Type": "application/json"}, method="POST")
    _answer(opener, login, f"logging in to the console {base} as {name}")
    data = _answer(opener, urllib.request.Request(base + "/api/setup/deals"),
                   f"reading the event's deals from the console {base}")
    try:
        return EventSetup.from_json(data.get("setup"))
    except ConfigError as err:
        raise CommandError(f"the console {base} gave a set-up this simulator cannot read: "
                           f"{err}") from err


def _answer(opener: urllib.request.OpenerDirector, request: urllib.request.Request,
            doing: str) -> dict[str, Any]:
    try:
        with opener.open(request, timeout=TIMEOUT) as reply:
            data = json.loads(reply.read())
    except urllib.error.HTTPError as err:
        with err:
            try:
                said = json.loads(err.read()).get("error", "")
            except (ValueError, AttributeError):
                said = ""
        raise CommandError(f"{doing}: {err.code} {said or err.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as err:
        raise CommandError(f"{doing}: {err}") from None
    if not isinstance(data, dict):
        raise CommandError(f"{doing}: not the console's answer")
    return data
