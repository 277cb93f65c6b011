"""The hub's HTTP layer (hub/webserver.py) through a real HTTP client: every refusal in the
application's own shape with its 4xx status, a bug answered 500 while the server goes on,
a body too large or without a length refused before it is read, an address taken refused
with one line."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from aiohttp import web

from hub.webserver import HttpError, WebServer, application, json_response, read_body
from tests.hub.test_console import Loop

LIMIT = 100


def _answer(status: int, message: str) -> web.Response:
    return json_response({"refused": status, "why": message}, status)


def _unknown(request: web.Request) -> HttpError:
    if request.path == "/echo":
        return HttpError(405, f"{request.method} /echo: POST only")
    return HttpError(404, f"nothing at {request.path}")


async def _echo(request: web.Request) -> web.Response:
    body = await read_body(request, LIMIT, "the echo", timeout=5.0)
    return json_response({"echo": body.decode()})


async def _bug(request: web.Request) -> web.Response:
    raise KeyError("a bug in a handler")


async def _teapot(request: web.Request) -> web.Response:
    raise HttpError(418, "short and stout")


@pytest.fixture
def server() -> Iterator[tuple[Loop, WebServer]]:
    loop = Loop()

    def build() -> WebServer:
        app = application(_answer, _unknown, max_body=LIMIT, name="test")
        app.router.add_post("/echo", _echo)
        app.router.add_get("/bug", _bug)
        app.router.add_get("/teapot", _teapot)
        return WebServer(app, "127.0.0.1", 0)

    served = loop.call(build)
    loop.run(served.start())
    try:
        yield loop, served
    finally:
        loop.run(served.stop())
        loop.run(served.stop())        # idempotent
        loop.close()


def call(url: str, data: Any = None, method: str | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], Any]:
    request = urllib.request.Request(url, data, headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, dict(r.headers), json.loads(r.read())
    except urllib.error.HTTPError as err:
        with err:
            return err.code, dict(err.headers), json.loads(err.read())


def test_answers_and_refusals_in_the_application_shape(server: Any) -> None:
    _, served = server
    url = served.url
    assert call(url + "/echo", b"hello")[::2] == (200, {"echo": "hello"})
    cases = [
        (call(url + "/nowhere"), 404, "nothing at /nowhere"),
        (call(url + "/echo"), 405, "GET /echo: POST only"),
        (call(url + "/echo", b"x", method="PUT"), 405, "PUT /echo: POST only"),
        (call(url + "/echo", b"x" * (LIMIT + 1)), 413, f"limit {LIMIT}"),
        (call(url + "/echo", iter([b"x"])), 411, "not chunked"),
        (call(url + "/teapot"), 418, "short and stout"),
    ]
    for (status, headers, body), expected, words in cases:
        assert status == expected and body["refused"] == expected, body
        assert words in body["why"], body
        assert headers["Content-Type"] == "application/json" and headers["Connection"] == "close"
    assert call(url + "/echo", b"still here")[::2] == (200, {"echo": "still here"})


def test_a_bug_in_a_handler_is_a_500_and_the_server_goes_on(
        server: Any, caplog: pytest.LogCaptureFixture) -> None:
    _, served = server
    status, _, body = call(served.url + "/bug")
    assert status == 500 and body == {"refused": 500, "why": "internal error of the hub"}
    assert "KeyError" in caplog.text
    assert call(served.url + "/echo", b"ok")[0] == 200


def test_an_address_taken_is_one_oserror(server: Any) -> None:
    loop, served = server
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        other = loop.call(lambda: WebServer(application(_answer, _unknown, max_body=LIMIT,
                                                        name="other"), "127.0.0.1", port))
        with pytest.raises(OSError, match="address already in use"):
            loop.run(other.start())
        assert not other.running
    assert call(served.url + "/echo", b"ok")[0] == 200
