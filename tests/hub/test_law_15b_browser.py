"""Law 15B on the board page, in headless Chromium: the director awards the pair a
cancelled second play deprived of a valid score its artificial score (Law 12C2, A+, that
side alone) in one step on its traveller line, and withdraws it the same way.

The room is tests/hub/test_scoring_conventions.py's misplayed 4-table Howell: on board 5,
A4's round-5 line (1 v 2) is cancelled because pair 2 had played the board; pair 1 had
not, and is owed the award. Screenshot: results-award-15b.png."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.console import Console
from tests.hub.test_console import (  # noqa: F401 - the browser fixture
    Login,
    Loop,
    browser,
    browser_login,
    make_users,
    wait,
)
from tests.hub.test_results_pages import SHOTS, ResultsHub, cells, open_page
from tests.hub.test_scoring_conventions import misplayed_session


@pytest.fixture
def misplayed(tmp_path: Path) -> Iterator[tuple[Loop, ResultsHub, Console]]:
    loop = Loop()
    hub = ResultsHub(loop.call(misplayed_session))
    console = Console(hub, coalesce=0.05, users=make_users(tmp_path))
    loop.run(console.start())
    Login.director(console)
    try:
        yield loop, hub, console
    finally:
        loop.run(console.stop())
        loop.close()


def test_browser_law_15b_the_director_awards_the_deprived_pair_in_one_step(
        misplayed: Any, browser: Any) -> None:  # noqa: F811
    """The cancelled line says pair 1 is owed an artificial score and offers "A+ to pair 1
    (Law 15B)"; one click gives it: the line reads "NS A+", 1.8 to North-South alone, and
    the hub has the ruling (its id in the message); "Withdraw R1" takes it back. The line
    where nobody was deprived (board 1, 1 v 2) offers nothing."""
    loop, hub, console = misplayed
    browser_login(browser, console)
    wait(browser, lambda d: d.find_elements("id", "tile-A2"))
    open_page(browser, console.url + "results/board/5")

    def line(ns: int, ew: int) -> Any:
        return wait(browser, lambda d: d.find_elements(
            "css selector", f'#traveller-A tr[data-ns="{ns}"][data-ew="{ew}"]'))[0]

    award = wait(browser, lambda d: line(1, 2).find_elements("css selector", ".award-15b"))[0]
    assert award.text == "A+ to pair 1 (Law 15B)"
    assert "pair 1, deprived of a valid score, is owed an artificial adjusted score" in \
        line(1, 2).text
    assert line(1, 4).find_elements("css selector", ".award-15b")[0].text == \
        "A+ to pair 4 (Law 15B)"
    assert not line(2, 7).find_elements("css selector", ".award-15b")
    award.click()
    wait(browser, lambda d: "NS A+" in line(1, 2).text)
    assert cells(line(1, 2))[6:9] == ["1.8", "–", "60.00%"]
    assert loop.call(lambda: hub.session.points(5))[1, 2] == (1.8, None)
    [ruling] = loop.call(lambda: hub.room.scoring.rulings_json())
    assert (ruling["ns"], "ew" in ruling, ruling["round"]) == ("A+", False, 5)
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "results-award-15b.png"))
    undo = wait(browser, lambda d: line(1, 2).find_elements("css selector", ".award-undo"))[0]
    assert undo.text == "Withdraw R1"
    undo.click()
    wait(browser, lambda d: line(1, 2).find_elements("css selector", ".award-15b"))
    assert loop.call(lambda: hub.session.points(5))[1, 2] == (None, None)
    open_page(browser, console.url + "results/board/1")
    wait(browser, lambda d: d.find_elements("css selector", '#traveller-A tr[data-ns="1"]'))
    assert not browser.find_elements("css selector", ".award-15b")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_browser_law_15b_the_ruling_form_gives_another_level_to_one_side(
        misplayed: Any, browser: Any) -> None:  # noqa: F811
    """The console's Score ruling form, artificial "EW A=": pair 4 (East-West at A3, board
    5, deprived) gets A= alone, 50% of the top of 3, 1.5 (Laws 15B, 12C2(a)); "NS A+" on
    the same line is refused: North-South (pair 1) had played the board."""
    loop, hub, console = misplayed
    browser_login(browser, console)
    wait(browser, lambda d: d.find_elements("id", "tile-A3"))
    browser.find_element("id", "tile-A3").click()
    form = wait(browser, lambda d: d.find_elements("id", "ruling-form"))[0]
    message = browser.find_element("id", "ruling-message")

    def rule(score: str) -> None:
        board = form.find_element("id", "ruling-board")
        board.clear()
        board.send_keys("5")
        field = form.find_element("id", "ruling-score")
        field.clear()
        field.send_keys(score)
        form.find_element("id", "do-ruling").click()

    rule("NS A+")
    wait(browser, lambda d: "not the side a cancelled second play deprived" in message.text)
    rule("EW A=")
    wait(browser, lambda d: "applied" in message.text)
    assert loop.call(lambda: hub.session.points(5))[1, 4] == (None, 1.5)


def test_browser_law_15b_the_alert_offers_the_award_once_the_play_is_cancelled(
        misplayed: Any, browser: Any) -> None:  # noqa: F811
    """The console's alert (board_already_played, Law 15B) on board 5 at A3 in round 6:
    pair 1 had played it, pair 4 (East-West) had not; the alert names pair 4 and offers
    "A+ to pair 4 (Law 15B)": one click gives pair 4 its award for that side alone, the
    ruling naming the alert. The alert of board 1 at A4, where both pairs had played the
    board, offers nothing."""
    loop, hub, console = misplayed
    alerts = loop.call(lambda: [a for a in hub.room.alerts if a.kind == "board_already_played"])
    alert = next(a for a in alerts if (a.table, a.board, a.round) == ("A3", 5, 6))
    assert (alert.facts["deprived"], alert.facts["deprived_side"]) == (4, "EW")
    both = next(a for a in alerts if (a.table, a.board, a.facts["pair"]) == ("A4", 1, 1))
    browser_login(browser, console)
    wait(browser, lambda d: d.find_elements("id", f"alert-{alert.id}"))[0].click()
    award = wait(browser, lambda d: d.find_elements("id", "do-award-15b"))[0]
    assert award.text == "A+ to pair 4 (Law 15B)"
    assert "pair 4, which had not, is owed an artificial adjusted score" in \
        browser.find_element("id", "detail-text").text
    award.click()
    wait(browser, lambda d: loop.call(lambda: hub.session.points(5))[1, 4] == (None, 1.8))
    [ruling] = loop.call(lambda: hub.room.scoring.rulings_json())
    assert (ruling["alert"], ruling["ew"], "ns" in ruling) == (alert.id, "A+", False)
    browser.find_element("id", f"alert-{both.id}").click()
    wait(browser, lambda d: "pair 1 already played board 1" in d.find_element(
        "id", "detail-text").text and not d.find_elements("id", "do-award-15b"))
