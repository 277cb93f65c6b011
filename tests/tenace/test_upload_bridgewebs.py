"""``tenace upload bridgewebs`` against a local aiohttp stand-in of the upload BridgeWebs
documents for scoring programs (its guide, "Results - API Interface": club, password,
type=upload, filename, data, event_id, dealname, dealdata; the reply's ``message = ...``).
The stand-in checks the club's password as the site would and keeps what it was sent."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bridgecore.results_io import read_pbn_results
from tenace.cli import main
from tenace.upload_cli import PASSWORD_VARIABLE

REAL = Path(__file__).resolve().parents[1] / "data" / "realdata" / "pbn-results"
RESULTS = REAL / "bridgewebs_welwyn_2025-04-09.pbn"


class StandIn:
    """BridgeWebs' upload form on 127.0.0.1: one club, ``secret`` its password."""

    def __init__(self) -> None:
        self.received: list[dict[str, str]] = []
        self.url = ""
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    async def _post(self, request: web.Request) -> web.Response:
        form = {k: str(v) for k, v in (await request.post()).items()}
        self.received.append(form)
        if form.get("club") != "myclub" or form.get("password") != "secret":
            return web.Response(text="<html>message = Invalid club or password</html>")
        if form.get("type") != "upload" or not form.get("data"):
            return web.Response(text="<html>message = Nothing to upload</html>")
        return web.Response(text=f"<html><body>message = Results {form['filename']} "
                                 "uploaded</body></html>")

    async def _silent(self, _request: web.Request) -> web.Response:
        return web.Response(text="ok")

    async def _start(self) -> None:
        app = web.Application(client_max_size=8 * 1024 * 1024)
        app.router.add_post("/cgi-bin/upload", self._post)
        app.router.add_post("/silent", self._silent)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}"

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._start())
        finally:
            self._ready.set()
        self._loop.run_forever()

    def __enter__(self) -> StandIn:
        self._thread.start()
        assert self._ready.wait(30) and self.url, "the stand-in did not start"
        return self

    def __exit__(self, *exc: Any) -> None:
        asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(30)
        self._loop.close()


@pytest.fixture
def site() -> Iterator[StandIn]:
    with StandIn() as s:
        yield s


def upload(site: StandIn, *args: str, path: str = "/cgi-bin/upload") -> int:
    return main(["upload", "bridgewebs", *args, "--url", site.url + path])


def test_the_results_and_the_hand_record_go_as_the_documented_form(
        site: StandIn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(PASSWORD_VARIABLE, "secret")
    deals = tmp_path / "hands.pbn"
    deals.write_bytes(RESULTS.read_bytes())
    assert upload(site, str(RESULTS), "--club", "myclub", "--deals", str(deals),
                  "--event-id", "20250409") == 0
    out = capsys.readouterr()
    assert out.out.strip() == f"Results {RESULTS.name} uploaded"
    assert "secret" not in out.out + out.err
    sent = site.received[-1]
    assert sent["type"] == "upload" and sent["club"] == "myclub"
    assert sent["filename"] == RESULTS.name and sent["event_id"] == "20250409"
    assert sent["dealname"] == "hands.pbn"
    # the file arrives whole: BridgeWebs' own reader (bridgecore's here) reads the same
    assert read_pbn_results(sent["data"].encode("latin-1")).rows == \
        read_pbn_results(RESULTS.read_bytes()).rows


def test_a_wrong_password_is_the_sites_message(site: StandIn, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(PASSWORD_VARIABLE, "wrong")
    assert upload(site, str(RESULTS), "--club", "myclub") == 0
    assert capsys.readouterr().out.strip() == "Invalid club or password"


def test_a_reply_without_a_message_is_not_taken_for_success(
        site: StandIn, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(PASSWORD_VARIABLE, "secret")
    assert upload(site, str(RESULTS), "--club", "myclub", path="/silent") == 1
    assert "without a 'message =' line" in capsys.readouterr().err


def test_bad_input_is_named_before_anything_is_sent(
        site: StandIn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(PASSWORD_VARIABLE, "secret")
    odd = tmp_path / "results.doc"
    odd.write_text("x")
    assert upload(site, str(odd), "--club", "myclub") == 2          # bad input (CommandError)
    assert "a results file is .pbn, .xml, .csv" in capsys.readouterr().err
    assert upload(site, str(tmp_path / "none.pbn"), "--club", "myclub") == 2
    assert "none.pbn" in capsys.readouterr().err
    assert upload(site, str(RESULTS), "--club", "my club; rm") == 2
    assert "club code" in capsys.readouterr().err
    assert main(["upload", "bridgewebs", str(RESULTS), "--club", "myclub",
                 "--url", "ftp://example"]) == 2
    assert "http(s)" in capsys.readouterr().err
    assert site.received == []


def test_no_password_no_upload(site: StandIn, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(PASSWORD_VARIABLE, raising=False)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert upload(site, str(RESULTS), "--club", "myclub") == 2
    assert PASSWORD_VARIABLE in capsys.readouterr().err and site.received == []


def test_a_site_that_does_not_answer_is_named(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(PASSWORD_VARIABLE, "secret")
    assert main(["upload", "bridgewebs", str(RESULTS), "--club", "myclub",
                 "--url", "http://127.0.0.1:9/upload", "--timeout", "5"]) == 2
    assert "127.0.0.1:9: no reply" in capsys.readouterr().err
