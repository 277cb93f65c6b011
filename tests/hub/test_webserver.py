"""The hub's HTTP layer (hub/webserver.py) through a real HTTP client: every refusal in the
application's own shape with its 4xx status, a bug answered 500 while the server goes on,
a body too large or without a length refused before it is read, an address taken refused
with one line; the Host/Origin guard against DNS rebinding and other sites' pages."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from aiohttp import web

from hub.webserver import (
    HostAllowList,
    HttpError,
    WebServer,
    application,
    host_guard,
    json_response,
    read_body,
)
from tests.hub.test_console import Loop

LIMIT = 100


def _answer(status: int, message: str, text: object = None) -> web.Response:
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
    # No versions for an attacker to look up: the answers and the refusals name Tenace alone.
    assert {answer[1].get("Server") for answer, _, _ in cases} == {"Tenace"}
    assert call(url + "/echo", b"x")[1]["Server"] == "Tenace"


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


@pytest.mark.parametrize(("host", "allowed"), [
    ("127.0.0.1:8080", True), ("[::1]:8080", True), ("192.0.2.7", True), ("10.1.2.3:80", True),
    ("localhost:8080", True), ("LOCALHOST", True), ("hub.club.example:8080", True),
    ("hub.club.example.", True), ("attacker.example:8080", False), ("127.0.0.1.nip.io", False),
    ("", False), ("hub.club.example.attacker.example", False),
])
def test_host_allow_list(host: str, allowed: bool) -> None:
    """IP literals (a name of the attacker's is never one), loopback names, this machine's
    name and the names given; nothing else, however it starts."""
    assert HostAllowList(["hub.club.example"]).allows(host) is allowed
    assert HostAllowList().allows(f"{socket.gethostname()}:1") is True


def test_host_guard_refuses_a_foreign_host_or_origin_in_the_application_shape() -> None:
    loop = Loop()

    async def ok(request: web.Request) -> web.Response:
        return json_response({"ok": True})

    def build() -> WebServer:
        app = application(_answer, _unknown, max_body=LIMIT, name="test",
                          middlewares=[host_guard(HostAllowList())])
        app.router.add_get("/ok", ok)
        return WebServer(app, "127.0.0.1", 0)

    served = loop.call(build)
    loop.run(served.start())
    try:
        url = served.url + "/ok"
        assert call(url)[0] == 200
        assert call(url, headers={"Origin": served.url})[0] == 200
        status, _, body = call(url, headers={"Host": "attacker.example"})
        assert (status, body) == (403, {"refused": 403, "why": (
            "request for another host 'attacker.example' (allow it with "
            "--console-allowed-host)")})
        for origin in ("http://attacker.example", "null", served.url + "1",
                       served.url.replace("http:", "ftp:")):
            status, _, body = call(url, headers={"Origin": origin})
            assert status == 403 and "another origin" in body["why"], origin
    finally:
        loop.run(served.stop())
        loop.close()
