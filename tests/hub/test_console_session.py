"""The director's evening on the console (hub/console_session.py, static/evening.*, check.*,
cards.*, screen.*): late changes posted as director commands with the user's name, the
device check, table cards whose QR codes zbarimg reads, guide cards from the movement, the
room screen following what the director lets the room see, results files downloaded and
read back, the console in French, English and Italian. Screenshots go to a temporary folder,
or to docs/screenshots/ with TENACE_SCREENSHOTS=docs/screenshots.
"""

from __future__ import annotations

import os
import random
import subprocess
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bridgecore.bigdeal import random_deal
from bridgecore.movements import mitchell
from bridgecore.results_io import read_pbn_results
from bridgecore.usebio import read_usebio
from hub.console import Console
from hub.console_session import device_check
from hub.director import parse_command
from hub.errors import HubError, error_text
from hub.room import Room, Section
from tests.hub.test_console import (  # noqa: F401 - the browser fixture
    Login,
    Loop,
    browser,
    browser_login,
    click,
    make_users,
    wait,
)
from tests.hub.test_live_scoring import Session
from tests.hub.test_pairing import DEVICES, make_pairing
from tests.hub.test_results_pages import get, post
from wire.protocol import ProtocolError

SHOTS = Path(os.environ.get("TENACE_SCREENSHOTS")
             or os.path.join(tempfile.gettempdir(), "tenace-screenshots"))
MOVEMENT = mitchell(6, boards_per_round=2)
DEALS = {n: random_deal(random.Random(1000 + n)) for n in range(1, 13)}
NAMES = {1: ("Ann Archer", "Bob Baker"), 2: ("Cid Cole", "Dee Dunn"), 7: ("Eve Ellis", "Fay Ford")}
# Round 1: tables 1 to 3 play their two boards (pairs 1-3 and 7-9); pairs 10-12 have not.
PLAYED = [(1, "A1", 1, "4S", 10), (1, "A1", 2, "3NT", 9), (1, "A2", 3, "2H", 8),
          (1, "A2", 4, "PASS", None), (1, "A3", 5, "1NT", 7), (1, "A3", 6, "3C", 9)]


class EveningHub:
    """What the console needs of the hub, over a scripted session; director commands checked
    by hub.director with the console user's name, kept as the log keeps them."""

    def __init__(self, session: Session):
        self.session = session
        self.room = session.room
        self.device_reports: dict[str, dict[str, Any]] = {
            "A1-N": {"battery": 64, "signal": -58, "seat": "N"},
            "A1-rdr": {"reader": "pcsc:ACS ACR122U", "seats": {"N": "pcsc:0", "S": "pcsc:1"}}}
        self.recorded: list[tuple[str, dict[str, Any], str]] = []

    def hub_time(self) -> float:
        return self.session.now

    def director(self, command: Any, account: str = "console") -> dict[str, Any]:
        try:
            fact, body = parse_command(command, self.room, account)
        except (ProtocolError, HubError) as err:
            return {"ok": False, "error": getattr(err, "reason", str(err)),
                    "error_text": error_text(err).to_json()}
        self.session.now += 1
        self.room.fact(fact, body, self.session.now)
        self.session.facts.append((fact, body, self.session.now))
        return {"ok": True, "fact": fact}

    def record(self, kind: str, body: dict[str, Any], account: str) -> list[Any]:
        self.recorded.append((kind, body, account))
        return []


def make_session() -> Session:
    session = Session(Room(Section("A", MOVEMENT, pairs=NAMES), DEALS))
    session.play(PLAYED)
    return session


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Loop, EveningHub, Console]]:
    loop = Loop()
    session = Session(Room(Section("A", MOVEMENT, pairs=NAMES), DEALS))
    loop.call(session.play, PLAYED)
    hub = EveningHub(session)
    console = Console(hub, coalesce=0.05, users=make_users(tmp_path / "users"),
                      pairing=make_pairing(tmp_path))
    loop.run(console.start())
    Login.director(console)
    try:
        yield loop, hub, console
    finally:
        loop.run(console.stop())
        loop.close()


def fetch(url: str, login: Login | None = None, headers: dict[str, str] | None = None
          ) -> tuple[int, str, bytes]:
    opener = urllib.request.build_opener() if login is None else login.opener
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with opener.open(request, timeout=20) as r:
            return r.status, r.headers.get("Content-Disposition", ""), r.read()
    except urllib.error.HTTPError as err:
        with err:
            return err.code, "", err.read()


# The API ------------------------------------------------------------------------------------

def test_the_files_title_is_the_events_name_then_its_session(served: Any) -> None:
    """The set-up's name and session make each file's title, as the set-up's summary writes
    them ("Tournoi du lundi, Soirée"), not run together ("Tournoi du lundi Soirée", what
    issue 25's walk-through read in every file); the session's date beside it."""
    _, hub, console = served
    login = Login.of_port[console.port]
    hub.setup = SimpleNamespace(name="Tournoi du lundi", session="Soirée", date="2026-11-23")
    try:
        status, _, body = fetch(console.url + "api/evening/export/results.pbn", login)
        assert status == 200
        text = body.decode("utf-8")
        assert '[Event "Tournoi du lundi, Soirée"]' in text and '[Date "2026.11.23"]' in text
        status, _, body = fetch(console.url + "api/evening/export/usebio.xml", login)
        assert read_usebio(body).title == "Tournoi du lundi, Soirée"
        hub.setup = SimpleNamespace(name="Tournoi du lundi", session="", date="")
        status, _, body = fetch(console.url + "api/evening/export/results.pbn", login)
        assert '[Event "Tournoi du lundi"]' in body.decode("utf-8")     # no session: no comma
    finally:
        del hub.setup


def test_the_results_files_are_one_request_away_and_read_back(served: Any, tmp_path: Path
                                                              ) -> None:
    _, _, console = served
    login = Login.of_port[console.port]
    played = {(b, ns) for b, ns in ((1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3))}
    status, disposition, body = fetch(console.url + "api/evening/export/usebio.xml", login)
    assert status == 200 and 'filename="usebio-A.xml"' in disposition
    usebio = read_usebio(body)
    assert {(r.result.board, r.result.ns) for r in usebio.rows} == played
    for name in ("results.pbn", "bridgewebs.pbn", "ffb.pbn"):
        status, _, body = fetch(console.url + f"api/evening/export/{name}?section=A", login)
        assert status == 200
        path = tmp_path / name
        path.write_bytes(body)
        back = read_pbn_results(path)
        assert not back.problems, back.problems
        assert {(r.result.board, r.result.ns) for r in back.rows} == played
        scores = {r.result.board: r.result.score_ns for r in back.rows}
        assert scores == {r.result.board: r.result.score_ns for r in usebio.rows}
    status, disposition, body = fetch(console.url + "api/evening/export/ecats.xml", login)
    assert status == 200 and body.startswith(b"<?xml") and b"USEBIO" in body[:200]
    assert fetch(console.url + "api/evening/export/x.doc", login)[0] == 404
    assert fetch(console.url + "api/evening/export/usebio.xml?section=Z", login)[0] == 404
    assert fetch(console.url + "api/evening/export/usebio.xml")[0] == 401
    viewer = Login(console)
    assert viewer.login("vic")[0] == 200
    assert fetch(console.url + "api/evening/export/usebio.xml", viewer)[0] == 403
    scorer = Login(console)
    assert scorer.login("sam")[0] == 200
    assert fetch(console.url + "api/evening/export/usebio.xml", scorer)[0] == 200
    assert fetch(console.url + "api/evening", scorer)[0] == 403


def test_the_device_check_and_the_guide_cards(served: Any) -> None:
    _, _, console = served
    status, data = get(console.url + "api/evening/check")[::2]
    assert status == 200
    tables = {t["table"]: t["devices"] for t in data["tables"]}
    assert set(tables) == {f"A{n}" for n in range(1, 7)}
    a1 = {d["account"]: d for d in tables["A1"]}
    assert [d["account"] for d in tables["A1"]] == ["A1-tab", "A1-N", "A1-E", "A1-S", "A1-W",
                                                    "A1-rdr"]
    assert (a1["A1-N"]["battery"], a1["A1-N"]["signal"], a1["A1-N"]["paired"]) == (64, -58,
                                                                                   False)
    assert a1["A1-rdr"]["decks"] == {"N": "pcsc:0", "S": "pcsc:1"}
    assert a1["A1-tab"]["online"] is True and a1["A1-E"]["battery"] is None
    _, _, guide = get(console.url + "api/evening/guide")
    (section,) = guide["sections"]
    assert section["rounds"] == MOVEMENT.rounds
    pairs = {p["pair"]: p for p in section["pairs"]}
    for pair in MOVEMENT.pairs:
        for number, step in enumerate(pairs[pair]["rounds"], 1):
            a = next(a for a in MOVEMENT.round(number) if pair in (a.ns, a.ew))
            assert step == {"round": number, "table": f"A{a.table}",
                            "direction": "NS" if a.ns == pair else "EW",
                            "boards": list(a.boards)}
    assert pairs[1]["names"] == ["Ann Archer", "Bob Baker"]


def test_the_console_speaks_french_english_and_italian(served: Any) -> None:
    _, _, console = served
    assert get(console.url + "api/i18n")[2]["language"] == "en"
    status, _, body = fetch(console.url + "api/i18n", headers={"Accept-Language":
                                                               "it-IT,it;q=0.9"})
    assert status == 200 and b'"language":"it"' in body.replace(b" ", b"")
    assert post(console.url + "api/i18n", {"language": "fr"})[1]["strings"][
        "evening.pairs"] == "Paires"
    data = get(console.url + "api/i18n")[2]             # remembered for dora
    assert data["language"] == "fr" and data["strings"]["nav.room"] == "Salle"
    assert set(data["languages"]) == {"fr", "en", "it", "de", "nl", "es", "pl"}
    assert post(console.url + "api/i18n", {"language": "pt"})[0] == 400     # no catalog


# In Chromium --------------------------------------------------------------------------------

def _downloads(driver: Any, folder: Path) -> None:
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow",
                                                         "downloadPath": str(folder)})


def _row(driver: Any, pair: int) -> Any:
    return driver.find_element("css selector", f"#pairs tr[data-pair='{pair}']")


def _said(driver: Any) -> str:
    """What the evening page's message says (no command's name, no "Done. op")."""
    text: str = driver.find_element("id", "message").text
    assert "_" not in text and "Done." not in text and "{" not in text, text
    return text


def _type(driver: Any, element_id: str, text: str) -> None:
    field = driver.find_element("id", element_id)
    field.clear()
    field.send_keys(text)


def test_browser_the_directors_evening(browser: Any, served: Any,  # noqa: F811
                                       tmp_path: Path) -> None:
    """A late pair, a correction of names, a withdrawal (Law 82: its results stay), the clock
    paused, resumed and given 20 minutes, a board cancelled (Law 12C2: the director's
    artificial score), what the room sees changed and seen on the room screen, the results
    files downloaded and read back, the page in French."""
    from selenium.webdriver.support.ui import Select

    _, hub, console = served
    facts = hub.session.facts
    browser_login(browser, console)
    browser.get(console.url + "evening")
    wait(browser, lambda d: len(d.find_elements("css selector", "#pairs tbody tr")) == 12)
    # a late pair takes the free number 12
    Select(browser.find_element("id", "pair-section")).select_by_value("A")
    _type(browser, "pair-number", "12")
    _type(browser, "pair-name1", "Gil Grant")
    _type(browser, "pair-name2", "Hal Hart")
    click(browser, "#pair-add")
    wait(browser, lambda d: "late" in _row(d, 12).text and "Gil Grant" in _row(d, 12).text)
    assert facts[-1][:2] == ("pair_add", {"section": "A", "pair": 12,
                                          "names": ["Gil Grant", "Hal Hart"], "by": "dora"})
    # what the page says is in words, never a command's name (issue 25)
    assert _said(browser) == "Pair 12 of section A added."
    click(browser, "#pair-add")         # the same pair again: refused
    wait(browser, lambda d: "error" in d.find_element("id", "message").get_attribute("class"))
    assert _said(browser) == ("Adding a late pair: pair 12 of section A already has players "
                              "or results (correct its names instead)")
    # names corrected: pair 1 keeps its results
    card = hub.room.scoring.section("A").card(1)
    click(browser, "#pairs tr[data-pair='1'] button")   # the list may redraw
    wait(browser, lambda d: d.find_element("id", "pair-name1").get_attribute("value")
         == "Ann Archer")
    _type(browser, "pair-name1", "Anne Archer")
    click(browser, "#pair-rename")
    wait(browser, lambda d: "Anne Archer" in _row(d, 1).text)
    assert hub.room.scoring.section("A").card(1) == card and facts[-1][1]["by"] == "dora"
    # pair 7 withdraws: struck out, its two boards still scored
    click(browser, "#pairs tr[data-pair='7'] button")   # the list may redraw
    _type(browser, "withdraw-text", "unwell")
    click(browser, "#withdraw")
    wait(browser, lambda d: "withdrawn" in (_row(d, 7).get_attribute("class") or ""))
    assert _said(browser) == "Pair 7 of section A withdrawn; its results stay."
    assert len(hub.room.scoring.section("A").card(7)) == 2
    # the clock: paused, resumed, 20 minutes a round
    click(browser, "#round-pause")
    wait(browser, lambda d: "⏸" in d.find_element("id", "clock-state").text)
    assert hub.room.late.paused and _said(browser) == "The clock is paused."
    click(browser, "#round-resume")
    wait(browser, lambda d: "⏸" not in d.find_element("id", "clock-state").text)
    _type(browser, "round-minutes", "20")
    click(browser, "#minutes-set")
    wait(browser, lambda d: "20 min" in d.find_element("id", "clock-state").text)
    assert hub.room.clock.minutes == 20.0
    # board 5 cancelled at table A3: an artificial adjusted score, A= each way
    Select(browser.find_element("id", "cancel-table")).select_by_value("A3")
    Select(browser.find_element("id", "cancel-board")).select_by_value("5")
    _type(browser, "cancel-text", "fouled board")
    click(browser, "#cancel-go")
    wait(browser, lambda d: facts[-1][0] == "ruling")
    ruling = facts[-1][1]
    assert (ruling["kind"], ruling["table"], ruling["board"], ruling["ns"], ruling["ew"],
            ruling["by"]) == ("artificial", "A3", 5, "A=", "A=", "dora")
    # the ranking hidden from the room
    click(browser, "#public-ranking")
    click(browser, "#public-apply")
    wait(browser, lambda d: facts[-1][0] == "public_results")
    assert facts[-1][1]["ranking"] is False
    browser.execute_script("window.scrollTo(0, 0)")
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "console-evening.png"))
    # the results files, downloaded from the page and read back
    _downloads(browser, tmp_path)
    for name in ("usebio.xml", "bridgewebs.pbn"):
        browser.find_element("css selector", f"#exports a[href*='{name}']").click()
    stem = {"usebio.xml": "usebio-A.xml", "bridgewebs.pbn": "bridgewebs-A.pbn"}
    wait(browser, lambda d: all((tmp_path / f).exists() for f in stem.values()), 20)
    usebio = read_usebio((tmp_path / "usebio-A.xml").read_bytes())
    bridgewebs = read_pbn_results(tmp_path / "bridgewebs-A.pbn")
    assert len(usebio.rows) == len(bridgewebs.rows) == 6      # board 5 at A3 cancelled:
    for rows in (usebio.rows, bridgewebs.rows):             # A= each way, instead of 1NT
        assert [r.result.board for r in rows if r.result.adjustment is not None] == [5]
    # in French, remembered for the user
    Select(browser.find_element("id", "lang")).select_by_value("fr")
    wait(browser, lambda d: d.find_element("css selector", "[data-i18n='evening.pairs']").text
         == "Paires")
    browser.refresh()
    wait(browser, lambda d: d.find_element("css selector", "[data-i18n='evening.pairs']").text
         == "Paires")
    Select(browser.find_element("id", "lang")).select_by_value("en")
    wait(browser, lambda d: d.find_element("css selector", "[data-i18n='evening.pairs']").text
         == "Pairs")
    # the room screen, as the room sees it (no session): the ranking hidden, then shown
    browser.delete_all_cookies()
    browser.get(console.url + "screen?every=2")
    wait(browser, lambda d: "end" in d.find_element("id", "body").text)
    assert post(console.url + "api/director", {"op": "public_results", "ranking": True,
                                               "names": True, "boards": True})[0] == 200
    # one direction's list at a time: North-South (pair 1, Anne Archer's), then East-West
    wait(browser, lambda d: "Anne Archer" in d.find_element("id", "body").text, 20)
    assert len(browser.find_elements("css selector", "#body tr")) == 3
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "console-screen.png"))


def test_browser_device_check_and_printable_cards(browser: Any, served: Any,  # noqa: F811
                                                  tmp_path: Path) -> None:
    """The device check shows A1-N's battery and signal; the table cards carry each
    device's pairing QR code (zbarimg reads it from the screen) and the guide cards where
    each pair goes."""
    _, hub, console = served
    browser_login(browser, console)
    browser.get(console.url + "check")
    wait(browser, lambda d: "64 %" in d.find_element(
        "css selector", "#check tr[data-account='A1-N']").text)
    assert "-58 dBm" in browser.find_element("css selector",
                                             "#check tr[data-account='A1-N']").text
    summary = browser.find_element("id", "summary")          # devices not paired yet
    assert (summary.get_attribute("class"), summary.text) == ("warn", f"0 / {len(DEVICES)}")
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "console-check.png"))
    browser.get(console.url + "cards")
    wait(browser, lambda d: len(d.find_elements("css selector", ".guide-card")) == 12)
    assert len(browser.find_elements("css selector", ".table-card")) == 6
    browser.find_element("id", "draw").click()
    wait(browser, lambda d: len(d.find_elements("css selector", ".qr")) == len(DEVICES))
    assert {r[0] for r in hub.recorded} == {"pairing_code"}
    assert {r[2] for r in hub.recorded} == {"dora"} and len(hub.recorded) == len(DEVICES)
    qr = browser.find_element("css selector", ".qr[data-account='A1-N'] svg")
    shot = tmp_path / "qr.png"
    qr.screenshot(str(shot))
    uri = browser.find_element("css selector", ".qr[data-account='A1-N']").get_attribute(
        "data-uri")
    decoded = subprocess.run(["zbarimg", "--raw", "-q", str(shot)], capture_output=True,
                             text=True, timeout=30)
    assert decoded.stdout.strip() == uri and uri.startswith("tenace-pair:?hub=")
    _each_card_carries_its_own_code_only(browser)
    browser.execute_script("window.scrollTo(0, 0)")
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "console-cards.png"))
    # printed: the page's print rules leave the cards only, each table's on its own page
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        wait(browser, lambda d: not d.find_element("id", "bar").is_displayed())
        assert browser.find_element("css selector", ".table-card").is_displayed()
        breaks = browser.execute_script(
            "return [...document.querySelectorAll('.table-group')].map("
            "(g) => getComputedStyle(g).breakAfter)")
        assert breaks == ["page"] * 6
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


def _each_card_carries_its_own_code_only(driver: Any) -> None:
    """Issue 23, hostile: a player handed his seat's card must not read an opponent's code
    on it (redeemed first, it would pair as the opponent and show his hand). Every code the
    hub drew is looked for in every printed card (its text and its elements' attributes, the
    QR codes' addresses among them): each card holds exactly its own device's, and one QR
    code, its own; the table card the table tablet's only."""
    cards = driver.execute_script("""
        return [...document.querySelectorAll('.table-card, .device-card')].map((c) => ({
          table: c.dataset.table, account: c.dataset.account || null,
          text: c.innerText,
          attrs: [...c.querySelectorAll('*')].flatMap((n) => [...n.attributes].filter(
            (a) => a.name !== 'd').map((a) => a.value)),
          qrs: [...c.querySelectorAll('.qr')].map((q) => q.dataset.account)}));""")
    codes = driver.execute_script("""
        return Object.fromEntries([...document.querySelectorAll('.qr')].map((q) =>
          [q.dataset.account, q.querySelector('.code').textContent]));""")
    assert set(codes) == set(DEVICES) and len(set(codes.values())) == len(DEVICES)
    seen = set()
    for card in cards:
        own = card["account"] or f"{card['table']}-tab"
        if card["account"] is None and card["table"] not in {d.split("-")[0] for d in DEVICES}:
            assert card["qrs"] == [], card["table"]
            own = None
        else:
            assert card["qrs"] == [own]
            seen.add(own)
        for account, code in codes.items():
            carried = code in card["text"] or any(code in a for a in card["attrs"])
            assert carried == (account == own), (card["account"] or card["table"], account)
    assert seen == set(DEVICES)        # every device has its card, the table's its table card


def test_the_hub_keeps_what_a_device_reports_for_the_device_check(tmp_path: Path) -> None:
    """A device's retained status (docs/protocol.md, section 14) with its battery and signal:
    the hub keeps them for /check, beside the presence it has always read."""
    from hub.service import Hub, data_log
    from tests.hub.test_service import MitchellSetup, loader

    hub = Hub(data_log(tmp_path), url="mqtt://127.0.0.1:1", setup=MitchellSetup(),
              setup_loader=loader)
    try:
        table = next(iter(hub.room.tables))
        hub._presence(table, f"{table}-N", b'{"online": true, "device": "x", "seat": "N", '
                      b'"kind": "tablet", "battery": 64, "signal": -58}', [], [], set())
        assert hub.device_reports[f"{table}-N"] == {"seat": "N", "kind": "tablet",
                                                    "battery": 64, "signal": -58}
        assert hub.room.devices[f"{table}-N"].online
        assert device_check(hub.room, None, hub.device_reports)[0]["devices"][0][
            "battery"] == 64
    finally:
        hub.log.close()


def test_browser_the_table_cards_say_sit_out_in_the_readers_language(
        browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """Issue 25: a 5-table Mitchell whose EW pair 10 is absent (Law 4 sit-out): on the
    table cards the seat the absent pair would hold reads "sit-out" in the reader's language
    (French: "relais"), never a bare dash; the table keeps its boards (passed on)."""
    from tests.hub.test_console_i18n_browser import switch
    movement = mitchell(5, boards_per_round=2, missing_pair=10)
    loop = Loop()
    session = Session(Room(Section("A", movement, pairs=NAMES), DEALS))
    console = Console(EveningHub(session), coalesce=0.05, users=make_users(tmp_path / "users"),
                      pairing=make_pairing(tmp_path))
    loop.run(console.start())
    try:
        browser_login(browser, console)
        browser.get(console.url + "cards")
        wait(browser, lambda d: len(d.find_elements("css selector", ".table-card")) == 5)
        switch(browser, "fr")
        wait(browser, lambda d: "relais" in d.find_element("id", "tables").text)
        rows = browser.execute_script("""
            return [...document.querySelectorAll('.table-card tbody tr')].map((tr) =>
              [...tr.querySelectorAll('td')].map((td) => td.textContent));""")
        sitting_out = [r for r in rows if "relais" in r]
        assert len(sitting_out) == movement.rounds          # one table a round plays nobody
        assert all(r[1] != "relais" and r[2] == "relais" and r[3] != "relais"
                   for r in sitting_out), sitting_out
        assert not any(cell == "–" for r in rows for cell in r), rows
    finally:
        loop.run(console.stop())
        loop.close()
