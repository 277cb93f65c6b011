"""The results pages served by the hub (hub/results_pages.py, hub/static/results.*): the JSON
API over HTTP, then the pages in Debian's headless Chromium (Selenium): the rankings, a
board with its hands, double-dummy table, par, traveller and plot of its scores, a pair's
score card, the print stylesheet, and the director's ruling form in the console, which
rescores at once (Law 12C1(a)).

The session is the round-robin of boards 1 and 2 of tests/hub/test_live_scoring.py (its
docstring has the results and the matchpoints), served by a real Console over a small hub:
director commands go through hub.director and Room.fact as hub.service sends them. The API
is read here by a director logged in (the full view); what the public sees without a session
(only boards every table has finished, and what the director lets it see) is tested last."""

from __future__ import annotations

import json
import os
import re
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bridgecore.cards import Seat, Strain
from bridgecore.doubledummy import solve_deals
from bridgecore.vulnerability import Vulnerability
from hub.console import Console
from tests.hub.test_console import (  # noqa: F401 - the browser fixture
    Login,
    Loop,
    browser,
    browser_login,
    make_users,
    wait,
)
from tests.hub.test_live_scoring import ROUND_ROBIN, Session
from tests.hub.test_table import DEALS

SHOTS = Path(os.environ.get("TENACE_SCREENSHOTS")
             or os.path.join(tempfile.gettempdir(), "tenace-screenshots"))


class ResultsHub:
    """What the console needs of the hub, over a scripted session."""

    def __init__(self, session: Session):
        self.session = session
        self.room = session.room

    def hub_time(self) -> float:
        return self.session.now

    def director(self, command: Any, account: str | None = None) -> dict[str, Any]:
        return self.session.director(command)


def serve(tmp_path: Path, games: Any) -> Iterator[tuple[Loop, ResultsHub, Console]]:
    """A console over a session that has played ``games``, the director logged in."""
    loop = Loop()
    session = Session()
    loop.call(session.play, games)
    hub = ResultsHub(session)
    console = Console(hub, coalesce=0.05, users=make_users(tmp_path))
    loop.run(console.start())
    Login.director(console)
    try:
        yield loop, hub, console
    finally:
        loop.run(console.stop())
        loop.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Loop, ResultsHub, Console]]:
    yield from serve(tmp_path, ROUND_ROBIN)


def get(url: str, public: bool = False) -> tuple[int, str, Any]:
    """GET ``url`` as the console's director (``public``: without a session). A board's
    page may solve its double-dummy table first: a guard of minutes, for a busy machine."""
    port = int(url.split(":")[2].split("/")[0])
    opener = urllib.request.build_opener() if public else Login.of_port[port].opener
    try:
        with opener.open(url, timeout=120) as r:
            body = r.read()
            kind = r.headers["Content-Type"]
            return r.status, kind, json.loads(body) if "json" in kind else body.decode()
    except urllib.error.HTTPError as err:
        with err:
            return err.code, err.headers["Content-Type"], json.loads(err.read())


def post(url: str, command: dict[str, Any]) -> tuple[int, Any]:
    login = Login.of_port[int(url.split(":")[2].split("/")[0])]
    request = urllib.request.Request(url, json.dumps(command).encode(),
                                     {"Content-Type": "application/json",
                                      "X-CSRF-Token": login.csrf})
    try:
        with login.opener.open(request, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        with err:
            return err.code, json.loads(err.read())


# The JSON API -------------------------------------------------------------------------------

def test_results_api_rankings_board_and_score_card(served: Any) -> None:
    """Law 78A: the rankings and travellers of the docstring's session, the board's hands and
    double-dummy table, pair 3's card; what does not exist is a 404 naming it."""
    _, _, console = served
    status, kind, data = get(console.url + "api/results")
    assert status == 200 and kind == "application/json"
    (section,) = data["sections"]
    assert section["field"] == "two-winner" and section["method"] == "mp"
    assert [(e["pair"], e["direction"], e["percent"], e["rank"]) for e in section["ranking"]] == [
        (3, "NS", 100.0, 1), (1, "NS", 50.0, 2), (2, "NS", 0.0, 3),
        (6, "EW", 100.0, 1), (4, "EW", 50.0, 2), (5, "EW", 0.0, 3)]
    assert data["boards"] == [1, 2, 3, 4, 5, 6] and data["rulings"] == []
    _, _, board = get(console.url + "api/results/board/1")
    assert board["dealer"] == "N" and board["vulnerability"] == "None"
    assert board["hands"]["N"] == {"S": "AKQJ", "H": "AKQ", "D": "AKQ", "C": "AKQ"}
    (solved,) = solve_deals([(DEALS[1], Seat.NORTH, Vulnerability.of_board(1))])
    assert board["dd"]["tricks"]["N"]["NT"] == solved.tricks[Seat.NORTH, Strain.NOTRUMP]
    assert board["dd"]["par_score_ns"] == solved.par_score_ns
    (traveller,) = board["sections"]
    assert [(r["NS"], r["EW"], r["score_ns"], r["ns_points"]) for r in traveller["results"]] == [
        (1, 4, 420, 1.0), (2, 6, -50, 0.0), (3, 5, 450, 2.0)]
    _, _, card = get(console.url + "api/results/pair/A/3")
    assert card["place"]["rank"] == 1 and card["place"]["percent"] == 100.0
    assert [(b["board"], b["direction"], b["opponents"], b["contract"], b["score"],
             b["points"]) for b in card["boards"]] == [(1, "NS", 5, "4S", 450, 2.0),
                                                      (2, "NS", 5, "3NT", 50, 2.0)]
    _, _, east = get(console.url + "api/results/pair/A/5")
    assert [(b["direction"], b["score"], b["points"]) for b in east["boards"]] == [
        ("EW", -450, 0.0), ("EW", -50, 0.0)]
    for path, words in (("api/results/board/99", "no board 99 in this session"),
                        ("api/results/pair/A/9", "no pair 9 in section A"),
                        ("api/results/pair/Z/1", "no section 'Z'"),
                        ("api/results/everything", "no results page")):
        status, _, error = get(console.url + path)
        assert status == 404 and words in error["error"], (path, error)
    for page in ("results", "results/board/2", "results/pair/A/3"):
        status, kind, html = get(console.url + page)
        assert status == 200 and kind.startswith("text/html") and "results.js" in html
    assert get(console.url + "results/board/x")[0] == 404


def test_a_ruling_posted_is_in_the_results_at_once(served: Any) -> None:
    """Law 90 through the console's API: the pair's total drops by the penalty at once;
    withdrawn, it is back. A ruling on a board that does not exist is refused."""
    _, _, console = served
    url = console.url + "api/director"
    status, done = post(url, {"op": "ruling", "kind": "penalty", "pair": 1, "amount": 0.5,
                              "unit": "mp", "text": "slow play"})
    assert status == 200 and done["ok"]
    ruling = done["ruling"]
    _, _, data = get(console.url + "api/results")
    pair_1 = next(e for e in data["sections"][0]["ranking"] if e["pair"] == 1)
    assert (pair_1["total"], pair_1["percent"]) == (1.5, 37.5)
    assert data["rulings"][0]["summary"] == "Law 90 penalty of 0.5 mp to pair 1"
    status, refused = post(url, {"op": "ruling", "kind": "assigned", "table": "A1",
                                 "board": 42, "score_ns": 420})
    assert status == 400 and refused["error"] == "ruling assigned: no board 42 in this session"
    assert post(url, {"op": "ruling_undo", "id": ruling})[1]["ok"]
    _, _, data = get(console.url + "api/results")
    assert next(e for e in data["sections"][0]["ranking"] if e["pair"] == 1)["total"] == 2.0


# The pages in headless Chromium ---------------------------------------------------------------

def open_page(driver: Any, url: str) -> None:
    driver.get(url)
    wait(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-loaded"))


def texts(driver: Any, css: str) -> list[str]:
    return [e.text for e in driver.find_elements("css selector", css)]


def cells(row: Any) -> list[str]:
    return [c.text for c in row.find_elements("css selector", "td")]


def test_browser_rankings_then_a_score_card(served: Any, browser: Any) -> None:  # noqa: F811
    _, _, console = served
    open_page(browser, console.url + "results")
    ns = browser.find_element("id", "ranking-A-NS")
    rows = ns.find_elements("css selector", "tbody tr")
    assert [r.get_attribute("data-pair") for r in rows] == ["3", "1", "2"]
    assert cells(rows[0])[0] == "1" and cells(rows[0])[-1] == "100.00%"
    ew = browser.find_element("id", "ranking-A-EW")
    assert [r.get_attribute("data-pair") for r in ew.find_elements("css selector", "tbody tr")
            ] == ["6", "4", "5"]
    ns.find_element("link text", "3").click()
    wait(browser, lambda d: d.find_elements("id", "card"))
    assert browser.current_url.endswith("/results/pair/A/3")
    assert browser.find_element("id", "place").text == "Rank 1 NS · 4 MP · 100.00%"
    rows = browser.find_elements("css selector", "#card tbody tr")
    assert [r.get_attribute("data-board") for r in rows] == ["1", "2"]
    first = cells(rows[0])
    assert first[:10] == ["Board 1", "2", "A3", "NS", "5", "4♠", "N", "11", "450", "2"]
    assert cells(rows[1])[5] == "3NT" and cells(rows[1])[8] == "50"
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


def test_browser_board_page_diagram_dd_par_traveller_plot_and_print(
        served: Any, browser: Any) -> None:  # noqa: F811
    _, _, console = served
    open_page(browser, console.url + "results/board/1")
    wait(browser, lambda d: d.find_elements("css selector", "#dd table"))
    north = browser.find_element("css selector", '#diagram [data-seat="N"]')
    assert [x.text for x in north.find_elements("css selector", "[data-suit]")] == [
        "♠ AKQJ", "♥ AKQ", "♦ AKQ", "♣ AKQ"]
    west = browser.find_element("css selector", '#diagram [data-seat="W"] [data-suit="S"]')
    assert west.text == "♠ 2"
    (solved,) = solve_deals([(DEALS[1], Seat.NORTH, Vulnerability.of_board(1))])
    for seat in Seat:
        row = browser.find_element("css selector", f'#dd tr[data-seat="{seat.letter}"]')
        shown = [int(t) for t in cells(row)]
        assert shown == [solved.tricks[seat, s] for s in (
            Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)]
    assert f"NS {solved.par_score_ns}" in browser.find_element("id", "par").text
    rows = browser.find_elements("css selector", "#traveller-A tbody tr")
    assert [cells(r)[:6] for r in rows] == [["1", "4", "4♠", "N", "10", "420"],
                                            ["2", "6", "4♠", "N", "9", "-50"],
                                            ["3", "5", "4♠", "N", "11", "450"]]
    assert [cells(r)[8] for r in rows] == ["50.00%", "0.00%", "100.00%"]
    bars = browser.find_elements("css selector", "#plot-A rect.bar")
    assert [(b.get_attribute("data-score"), b.get_attribute("data-count")) for b in bars] == [
        ("-50", "1"), ("420", "1"), ("450", "1")]
    assert "minus" in bars[0].get_attribute("class")
    assert browser.find_element("id", "next").get_attribute("href").endswith("/results/board/2")
    assert browser.find_element("id", "print").is_displayed()
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert not browser.find_element("id", "print").is_displayed()   # print stylesheet
        assert not browser.find_element("id", "nav").is_displayed()
        assert browser.find_element("id", "traveller-A").is_displayed()
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_browser_console_ruling_form_rescores_at_once(served: Any,
                                                      browser: Any) -> None:  # noqa: F811
    """Law 12C1(a) from the console: the director picks table A2, rules board 1 as +420 for
    both sides; the traveller shows the assigned score and the matchpoints at once."""
    loop, hub, console = served
    browser_login(browser, console)
    wait(browser, lambda d: d.find_elements("id", "tile-A2"))
    assert browser.find_element("id", "results-link").get_attribute("href").endswith("/results")
    browser.find_element("id", "tile-A2").click()
    form = wait(browser, lambda d: d.find_elements("id", "ruling-form"))[0]

    def select(css: str) -> Any:
        return form.find_element("css selector", css)

    assert select("#ruling-table").get_attribute("value") == "A2"
    select('#ruling-kind option[value="assigned"]').click()
    board = select("#ruling-board")
    board.clear()
    board.send_keys("1")
    select("#ruling-score").send_keys("425")
    select("#do-ruling").click()
    message = browser.find_element("id", "ruling-message")
    wait(browser, lambda d: "not a score" in message.text)
    assert "error" in message.get_attribute("class")
    select("#ruling-score").clear()
    select("#ruling-score").send_keys("420")
    select("#ruling-text").send_keys("12C1(a): misinformation")
    select("#do-ruling").click()
    wait(browser, lambda d: "applied" in message.text)
    ruling = re.search(r"ruling (R\d+)", message.text)
    assert ruling is not None
    points = loop.call(lambda: Session.points(hub.session, 1))
    assert points[2, 6] == (0.5, 1.5) and points[1, 4] == (0.5, 1.5)
    open_page(browser, console.url + "results/board/1")

    def a2_line(d: Any) -> tuple[str, str]:   # read at once: the page redraws it live
        row = d.find_element("css selector", '#traveller-A tr[data-table="A2"]')
        return row.get_attribute("class") or "", cells(row)[-1]

    line = wait(browser, a2_line)
    assert "adjusted" in line[0] and line[1].startswith("420"), line
    # Withdrawn from the console: the table result stands again.
    browser.get(console.url)
    wait(browser, lambda d: d.find_elements("id", "tile-A2"))
    browser.find_element("id", "tile-A2").click()
    undo = wait(browser, lambda d: d.find_elements("id", "ruling-undo-id"))[0]
    undo.send_keys(ruling.group(1))
    browser.find_element("id", "do-ruling-undo").click()
    wait(browser, lambda d: "withdrawn" in d.find_element("id", "ruling-message").text)
    assert loop.call(lambda: Session.points(hub.session, 1))[2, 6] == (0.0, 2.0)
    severe = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert len(severe) == 1 and "/api/director" in severe[0] and "400" in severe[0]  # the 425


# What the public sees -----------------------------------------------------------------------

@pytest.fixture
def halfway(tmp_path: Path) -> Iterator[tuple[Loop, ResultsHub, Console]]:
    """Round 1 only: table A1 has finished boards 1 and 2, A3 and A2 play them later."""
    yield from serve(tmp_path, ROUND_ROBIN[:2])


def test_law_16_public_pages_show_no_board_before_every_table_has_finished_it(
        halfway: Any) -> None:
    """A1 has played boards 1 and 2; A3 and A2 have not: without a session, neither the
    board's hands nor its traveller nor any pair's result on it is shown. The director and
    the scorer see everything."""
    loop, hub, console = halfway
    status, _, data = get(console.url + "api/results", public=True)
    assert status == 200 and data["boards"] == [] and data["full"] is False
    assert data["sections"][0]["boards"] == []
    for board in (1, 2, 3):
        status, _, error = get(console.url + f"api/results/board/{board}", public=True)
        assert status == 404 and "not every table has finished it" in error["error"]
        assert "hands" not in error
    _, _, card = get(console.url + "api/results/pair/A/1", public=True)
    assert card["boards"] == []                       # pair 1 played boards 1 and 2 at A1
    # The director's view and the scorer's: the full results.
    status, _, full = get(console.url + "api/results/board/1")
    assert status == 200 and full["hands"]["N"] == {"S": "AKQJ", "H": "AKQ", "D": "AKQ",
                                                    "C": "AKQ"}
    assert [b["board"] for b in get(console.url + "api/results/pair/A/1")[2]["boards"]] == [1, 2]
    scorer = Login(console)
    assert scorer.login("sam")[0] == 200
    with scorer.open(console.url + "api/results/board/1") as r:
        assert json.loads(r.read())["hands"] is not None
    viewer = Login(console)                           # a viewer sees what the public sees
    assert viewer.login("vic")[0] == 200
    with pytest.raises(urllib.error.HTTPError) as refused:
        viewer.open(console.url + "api/results/board/1")
    assert refused.value.code == 404
    refused.value.close()
    # The other two tables finish the boards: now the room may see them.
    loop.call(hub.session.play, ROUND_ROBIN[2:])
    status, _, board = get(console.url + "api/results/board/1", public=True)
    assert status == 200 and board["hands"]["N"]["S"] == "AKQJ"
    assert len(board["sections"][0]["results"]) == 3
    assert get(console.url + "api/results", public=True)[2]["boards"] == [1, 2]


def test_the_director_chooses_what_the_public_pages_show_and_it_is_a_logged_fact(
        served: Any) -> None:
    """``public_results`` from the console: rankings off, names off, then boards off; the
    fact is logged (hub.session keeps the facts as the log would), and a room rebuilt from
    the facts shows the same."""
    _, hub, console = served
    _, _, data = get(console.url + "api/results", public=True)
    assert data["public"] == {"ranking": True, "names": True, "boards": True}
    assert data["sections"][0]["ranking"] and data["boards"] == [1, 2]
    status, done = post(console.url + "api/director", {
        "op": "public_results", "ranking": False, "names": False, "boards": True})
    assert status == 200 and done["fact"] == "public_results"
    assert hub.session.facts[-1][:2] == ("public_results", {
        "ranking": False, "names": False, "boards": True, "by": "console"})
    _, _, data = get(console.url + "api/results", public=True)
    assert data["sections"][0]["ranking"] == [] and data["sections"][0]["penalties"] == []
    assert data["boards"] == [1, 2]
    _, _, card = get(console.url + "api/results/pair/A/3", public=True)
    assert card["place"] is None and card["names"] == [] and len(card["boards"]) == 2
    _, _, full = get(console.url + "api/results")           # the director still sees all
    assert full["sections"][0]["ranking"] and full["public"]["ranking"] is False
    post(console.url + "api/director", {"op": "public_results", "ranking": True,
                                        "names": True, "boards": False})
    status, _, error = get(console.url + "api/results/board/1", public=True)
    assert status == 404 and "not shown during this session" in error["error"]
    assert get(console.url + "api/results", public=True)[2]["boards"] == []
    # A restart: the room rebuilt from the logged facts shows the same.
    rebuilt = Session()
    for kind, body, at in hub.session.facts:
        rebuilt.room.fact(kind, body, at)
    assert rebuilt.room.public_results == {"ranking": True, "names": True, "boards": False}
    # A scorer may not choose it.
    scorer = Login(console)
    scorer.login("sam")
    status, refused = scorer.send("api/director", json.dumps(
        {"op": "public_results", "ranking": True, "names": True, "boards": True}).encode())
    assert status == 403 and "may give only ruling, ruling_undo" in refused["error"]


def test_browser_public_page_says_what_is_not_shown(served: Any,
                                                    browser: Any) -> None:  # noqa: F811
    """Rankings off from the console: the room's page says so and shows none; each board
    page is still there once finished everywhere."""
    _, _, console = served
    browser.delete_all_cookies()
    browser.get_log("browser")        # what an earlier test's page logged as it was closed
    open_page(browser, console.url + "results")
    assert browser.find_element("id", "public-note").text == \
        "A board is shown once every table has finished it."
    assert browser.find_elements("id", "ranking-A-NS")
    post(console.url + "api/director", {"op": "public_results", "ranking": False,
                                        "names": True, "boards": True})
    open_page(browser, console.url + "results")
    assert browser.find_element("id", "hidden-ranking").text == \
        "The rankings are not shown during the session."
    assert not browser.find_elements("id", "ranking-A-NS")
    open_page(browser, console.url + "results/board/1")
    assert browser.find_elements("css selector", '#diagram [data-seat="N"]')
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_browser_director_corrects_a_result_on_the_board_page(served: Any,
                                                              browser: Any) -> None:  # noqa: F811
    """The board page's correction form (the director's): A2 really made 4S, ten tricks,
    not nine; corrected, the traveller shows 420 "corrected (C1)" and the matchpoints
    follow (420 ties A1's: 0.5 each, Law 78A); a contract without tricks is refused with
    the hub's reason. Screenshot: results-correct.png."""
    loop, hub, console = served
    browser_login(browser, console)
    wait(browser, lambda d: d.find_elements("id", "tile-A2"))
    open_page(browser, console.url + "results/board/1")
    form = wait(browser, lambda d: d.find_elements("id", "correct-form"))[0]

    def fill(values: dict[str, str]) -> None:
        for name, text in values.items():
            field = form.find_element("id", f"correct-{name}")
            field.clear()
            field.send_keys(text)
        form.find_element("id", "do-correct").click()

    message = form.find_element("id", "correct-message")
    fill({"table": "A2", "contract": "4S", "declarer": "N"})
    wait(browser, lambda d: "declarer" in message.text and "tricks" in message.text)
    fill({"table": "A2", "contract": "4S", "declarer": "N", "tricks": "10", "lead": "hk"})
    wait(browser, lambda d: message.get_attribute("class") == "ok")
    row = wait(browser, lambda d: [r for r in d.find_elements(
        "css selector", '#traveller-A tr[data-table="A2"]') if "C1" in r.text])[0]
    assert cells(row)[:6] == ["2", "6", "4♠", "N", "10", "420"]
    assert "corrected (C1)" in cells(row)[-1]
    assert loop.call(lambda: Session.points(hub.session, 1))[2, 6] == (0.5, 1.5)
    [correction] = loop.call(lambda: hub.room.scoring.corrections.history())
    assert (correction["lead"], correction["by"]) == ("HK", "console")
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "results-correct.png"))


def test_browser_director_names_a_substitute_on_the_pair_page(served: Any,
                                                              browser: Any) -> None:  # noqa: F811
    """The pair page's substitute form (the director's): Zoé Roux played rounds 2 and 3
    for pair 1's second player; the page names her for those rounds, the pair keeps its
    results; a round the movement does not have is refused with the hub's reason.
    Screenshot: results-substitute.png."""
    loop, hub, console = served
    browser_login(browser, console)
    wait(browser, lambda d: d.find_elements("id", "tile-A2"))
    open_page(browser, console.url + "results/pair/A/1")
    form = wait(browser, lambda d: d.find_elements("id", "sub-form"))[0]
    before = loop.call(lambda: hub.session.ranking())
    form.find_element("css selector", '#sub-player option[value="2"]').click()
    form.find_element("id", "sub-name").send_keys("Zoé Roux")
    rounds = form.find_element("id", "sub-rounds")
    rounds.send_keys("2, 9")
    form.find_element("id", "do-sub").click()
    message = form.find_element("id", "sub-message")
    wait(browser, lambda d: "rounds" in message.text and message.get_attribute("class") == "error")
    rounds.clear()
    rounds.send_keys("3, 2")
    form.find_element("id", "do-sub").click()
    wait(browser, lambda d: message.get_attribute("class") == "ok")
    wait(browser, lambda d: "Zoé Roux (for player 2, rounds 2-3)" in d.find_element(
        "id", "content").text)
    assert loop.call(lambda: hub.session.ranking()) == before
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "results-substitute.png"))
    # issue 25: the substitute is data, worded in the reader's language on every page
    browser.add_cookie({"name": "tenace_lang", "value": "fr", "path": "/"})
    for page in ("results/pair/A/1", "results", "screen"):     # the room screen too
        if page == "screen":
            browser.get(console.url + page)
        else:
            open_page(browser, console.url + page)
        wait(browser, lambda d: "Zoé Roux (remplace joueur 2, tours 2-3)" in d.find_element(
            "tag name", "body").text, timeout=30)
        assert "(for " not in browser.find_element("tag name", "body").text, page


TIED = [(1, "A1", 1, "4S", 10), (1, "A1", 2, "3NT", 9), (2, "A3", 1, "4S", 10),
        (2, "A3", 2, "3NT", 9), (3, "A2", 1, "4S", 10), (3, "A2", 2, "3NT", 9)]


def test_browser_a_shared_place_is_written_as_the_events_federation_writes_it(
        tmp_path: Path, browser: Any) -> None:  # noqa: F811
    """Every table 420 and 400: every pair at 50%, all first. Under the ACBL's conventions
    the ranking says ``ties: "range"`` and the page writes 1/2/3 (ACBLscore's way); without
    conventions 1= (the EBU's)."""
    from hub.room import Room, Section
    from tests.hub.test_live_scoring import DEALS as ROOM_DEALS
    from tests.hub.test_live_scoring import MOVEMENT

    loop = Loop()
    session = Session(Room(Section("A", MOVEMENT), ROOM_DEALS, conventions="acbl"))
    loop.call(session.play, TIED)
    view = session.room.scoring.section("A").ranking_json()
    assert view["ties"] == "range" and {e["rank"] for e in view["ranking"]} == {1}
    console = Console(ResultsHub(session), coalesce=0.05, users=make_users(tmp_path))
    loop.run(console.start())
    Login.director(console)
    try:
        open_page(browser, console.url + "results")
        rows = browser.find_elements("css selector", "#ranking-A-NS tbody tr")
        assert [cells(r)[0] for r in rows] == ["1/2/3"] * 3
    finally:
        loop.run(console.stop())
        loop.close()
    plain = Session()
    plain.play(TIED)
    assert plain.room.scoring.section("A").ranking_json()["ties"] == "="
