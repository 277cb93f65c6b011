"""The console's HTTP edges (hub.console): how a refusal is answered, a path no route takes,
a body that is not JSON, the headers of every answer, and the page's static files.

A refusal given as a text (``HttpError(status, Text)``) is worded in the reader's language
by the application (hub.webserver) and answered ``{"ok": false, "error", "text"}``; one
given as words (a request the console cannot read at all) says so in English.
"""

from __future__ import annotations

import logging
from pathlib import Path

from aiohttp import web

from bridgecore.text import Text
from hub.webserver import HttpError, json_response

__all__ = ["STATIC", "favicon", "headers", "json_only", "load_static", "refusal", "unknown"]

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png",
          ".json": "application/json"}
# No page of the console or the results may be framed by another site (clickjacking): CSP
# frame-ancestors for today's browsers, X-Frame-Options for older ones.
_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
            "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'",
            "X-Frame-Options": "DENY"}
# The POST routes, named when another method reaches a path
_POSTS = ("/api/director, /api/login, /api/logout, /api/pair, /api/devices/pair, "
          "/api/devices/revoke, /api/tempo/attach, /api/setup, /api/roster, "
          "/api/evening/cards, /api/i18n")


def json_only(request: web.Request, what: str) -> None:
    """Refuse (415) a body that is not sent as JSON; ``what`` the body, in English."""
    if request.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
        raise HttpError(415, f"{what} is sent as application/json")


def refusal(status: int, message: str, text: Text | None) -> web.Response:
    """``error`` in the reader's words, ``text`` the message it was made from, if any."""
    extra = {} if text is None else {"text": text.to_json()}
    return json_response({"ok": False, "error": message, **extra}, status)


def unknown(request: web.Request) -> HttpError:
    """The refusal of a path or a method no route takes."""
    method, path = request.method, request.path
    if method not in ("GET", "HEAD"):
        return HttpError(405, Text.of("http.only_get", method=method, path=path[:80],
                                      posts=_POSTS))
    if path.startswith("/static/"):
        return HttpError(404, Text.of("http.no_file", path=f"{path!r:.80}"))
    return HttpError(404, Text.of("http.no_page", path=f"{path!r:.80}"))


async def headers(request: web.Request, response: web.StreamResponse) -> None:
    for name, value in _HEADERS.items():
        response.headers.setdefault(name, value)


async def favicon(request: web.Request) -> web.Response:
    return web.Response(status=204, headers={"Content-Type": "image/x-icon"})


def load_static() -> dict[str, tuple[bytes, str]]:
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
