"""The evening page's "Upload to BridgeWebs" (hub/bridgewebs_account.py, static/evening.*)
against the local aiohttp stand-in of BridgeWebs' documented upload
(tests/tenace/test_upload_bridgewebs.py): the club's account saved once, its password
never shown back nor logged; the section's bridgewebs.pbn posted as the form BridgeWebs
takes, the site's message shown. In Chromium, with screenshots."""

from __future__ import annotations

import json
import logging
import stat
from pathlib import Path
from typing import Any

import pytest

from bridgecore.results_io import read_pbn_results
from hub.bridgewebs_account import ACCOUNT_NAME, BridgeWebsAccount
from tests.hub.test_console import (  # noqa: F401 - the browser fixture
    Login,
    browser,
    browser_login,
    wait,
)
from tests.hub.test_console_session import SHOTS, _said, _type, served  # noqa: F401
from tests.hub.test_results_pages import post
from tests.tenace.test_upload_bridgewebs import StandIn


def test_browser_the_evening_uploads_to_bridgewebs(
        browser: Any, served: Any, caplog: pytest.LogCaptureFixture) -> None:  # noqa: F811
    _, _, console = served
    with StandIn() as site, caplog.at_level(logging.DEBUG):
        browser_login(browser, console)
        browser.get(console.url + "evening")
        wait(browser, lambda d: d.find_element("id", "bw-state").text)
        assert browser.find_element("id", "bw-upload").get_attribute("disabled")
        _type(browser, "bw-club", "myclub")
        _type(browser, "bw-url", site.url + "/cgi-bin/upload")
        _type(browser, "bw-password", "wrong")
        browser.find_element("id", "bw-save").click()
        wait(browser, lambda d: _said(d) == "BridgeWebs account saved.")
        # the password is not shown back: the field is empty, its placeholder says saved
        field = browser.find_element("id", "bw-password")
        assert field.get_attribute("value") == ""
        assert field.get_attribute("placeholder") == "saved: leave empty to keep it"
        status, shown = _get(console, "api/evening/bridgewebs")
        assert status == 200 and shown == {"club": "myclub", "url": site.url +
                                           "/cgi-bin/upload", "password_set": True}
        # a wrong password: the site's own refusal is shown
        browser.find_element("id", "bw-upload").click()
        wait(browser, lambda d: "Invalid" in d.find_element("id", "message").text)
        assert _said(browser) == "BridgeWebs: Invalid club or password"
        # the right one, the club and address kept (the password field left empty keeps a
        # saved password; a new one replaces it)
        _type(browser, "bw-password", "secret")
        browser.find_element("id", "bw-save").click()
        wait(browser, lambda d: _said(d) == "BridgeWebs account saved.")
        browser.find_element("id", "bw-save").click()        # saved again, password empty
        wait(browser, lambda d: d.find_element("id", "bw-password").get_attribute(
            "placeholder") != "")
        browser.find_element("id", "bw-upload").click()
        wait(browser, lambda d: "uploaded" in d.find_element("id", "message").text)
        assert _said(browser) == "BridgeWebs: Results bridgewebs-A.pbn uploaded"
        SHOTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(SHOTS / "evening-bridgewebs.png"))
        sent = site.received[-1]
        assert {k: sent[k] for k in ("club", "password", "type", "filename")} == {
            "club": "myclub", "password": "secret", "type": "upload",
            "filename": "bridgewebs-A.pbn"}
        # the file sent is the section's results: read back, its boards and players
        results = read_pbn_results(sent["data"])
        assert {r.result.board for r in results.rows} == {1, 2, 3, 4, 5, 6}
        assert "Ann Archer" in sent["data"]
    # the hub's logs (the browser driver's own debug lines carry what was typed)
    logged = "\n".join(r.getMessage() for r in caplog.records
                       if r.name.split(".")[0] in ("hub", "wire", "aiohttp"))
    assert "secret" not in logged and "wrong" not in logged
    assert "BridgeWebs upload of bridgewebs-A.pbn for club myclub" in logged
    # the page in French
    browser.find_element("css selector", "#lang option[value='fr']").click()
    wait(browser, lambda d: d.find_element("id", "bw-upload").text == "Envoyer vers BridgeWebs"
         and d.find_element("id", "bw-state").text == "Le compte du club myclub est enregistré.")
    assert browser.find_element("id", "bw-password").get_attribute("placeholder") == \
        "enregistré : laisser vide pour le garder"
    browser.save_screenshot(str(SHOTS / "evening-bridgewebs-fr.png"))


def _get(console: Any, path: str) -> tuple[int, Any]:
    from tests.hub.test_console_session import fetch
    status, _, body = fetch(console.url + path, Login.director(console))
    return status, json.loads(body)


def test_what_is_refused_and_the_account_file(served: Any, tmp_path: Path) -> None:  # noqa: F811
    """No account: 409; a bad club code, address or section: 400/404 naming it. The account
    kept in a data directory is a 0600 file; the console never sends its password."""
    _, _, console = served
    Login.director(console)
    status, body = post(console.url + "api/evening/bridgewebs/upload", {"section": "A"})
    assert status == 409 and "no BridgeWebs account" in body["error"]
    for fields, error in (({"club": "my club!", "url": "http://x"}, "club:"),
                          ({"club": "c", "url": "ftp://x"}, "url:"),
                          ({"club": "c", "url": "http://x", "password": 3}, "password:")):
        status, body = post(console.url + "api/evening/bridgewebs", fields)
        assert status == 400 and body["error"].startswith(error)
    status, body = post(console.url + "api/evening/bridgewebs/upload", {"section": "Z"})
    assert status == 404
    kept = BridgeWebsAccount(tmp_path / "data")
    kept.save({"club": "c", "url": "http://x", "password": "p"})
    path = tmp_path / "data" / ACCOUNT_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert kept.shown() == {"club": "c", "url": "http://x", "password_set": True}
    path.write_text("not json")
    assert BridgeWebsAccount(tmp_path / "data").load() == {}
