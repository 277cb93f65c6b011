"""Why a line is not scored, on the results page in headless Chromium (static/results.js,
docs/translating.md "What follows the event's language"): an event in French whose table
A4 plays board 1 a second time for pairs 1 and 2 (Law 15B); the traveller's line says why
in its visitor's language (the message ``not_scored_text``), English, French, Italian,
whatever the event's language; the pair's score card says it on its line too. Screenshot:
not-scored-it.png in the screenshots folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.console import Console
from hub.room import Room, Section
from tests.hub.test_console import (  # noqa: F401 - the browser fixture
    Login,
    Loop,
    browser,
    make_users,
    wait,
)
from tests.hub.test_live_scoring import Session
from tests.hub.test_results_pages import SHOTS, ResultsHub, open_page
from tests.hub.test_scoring_conventions import DEALS, HOWELL, MISPLAYED, play_board

CEILING = 60.0     # seconds: a guard on a busy machine, not a time the test expects
COOKIE = "tenace_lang"


@pytest.fixture
def french_event(tmp_path: Path) -> Iterator[Console]:
    loop = Loop()
    session = Session(Room(Section("A", HOWELL), DEALS, language="fr"))
    loop.call(lambda: [play_board(session, *play) for play in MISPLAYED])
    console = Console(ResultsHub(session), coalesce=0.05, users=make_users(tmp_path))
    loop.run(console.start())
    Login.director(console)
    try:
        yield console
    finally:
        loop.run(console.stop())
        loop.close()


def why(driver: Any) -> str:
    spans = driver.find_elements("css selector", "#traveller-A .not-scored")
    return spans[0].text if len(spans) == 1 else ""


def test_browser_a_not_scored_line_says_why_in_the_visitors_language(
        french_event: Console, browser: Any) -> None:  # noqa: F811
    url = french_event.url + "results/board/1"
    open_page(browser, url)
    for language, wanted in (
            ("fr", "non marquée : la paire 1 a déjà joué la donne, à la table A1 au tour 1 ; "
                   "la seconde marque est annulée (Loi 15B)"),
            ("it", "non calcolato: la coppia 1 ha già giocato il board, al tavolo A1 nel turno "
                   "1; il secondo punteggio è annullato (Legge 15B)"),
            ("en", "not scored: pair 1 played the board before, at table A1 in round 1; the "
                   "second score is cancelled (Law 15B)")):
        browser.add_cookie({"name": COOKIE, "value": language, "path": "/"})
        open_page(browser, url)
        wait(browser, lambda d, w=wanted: why(d) == w, timeout=CEILING)
        if language == "it":
            SHOTS.mkdir(parents=True, exist_ok=True)
            browser.save_screenshot(str(SHOTS / "not-scored-it.png"))
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_browser_a_pairs_card_says_why_a_line_is_not_scored(
        french_event: Console, browser: Any) -> None:  # noqa: F811
    """The pair's score card (``/results/pair/A/1``) marks the line it played a second
    time (board 1, round 5 at A4) as not scored, with the reason, as the traveller does;
    issue 25's walk-through found the card showing "– –" there with no word of why."""
    url = french_event.url + "results/pair/A/1"
    open_page(browser, url)                   # the cookie is the console's: on its page
    browser.add_cookie({"name": COOKIE, "value": "fr", "path": "/"})
    open_page(browser, url)

    def second_play(d: Any) -> Any:
        rows = d.find_elements("css selector", "#card tbody tr")
        return next((r for r in rows if r.get_attribute("data-board") == "1"
                     and "cancelled" in (r.get_attribute("class") or "")), None)

    row = wait(browser, second_play, timeout=CEILING)
    cells = row.find_elements("css selector", "td")
    assert [c.text for c in cells[:3]] == ["Donne 1", "5", "A4"]
    first = browser.find_element("css selector", "#card tbody tr[data-board='1']")
    assert "cancelled" not in (first.get_attribute("class") or "")   # round 1: scored
    assert cells[-1].text == ("non marquée : la paire 1 a déjà joué la donne, à la table A1 "
                              "au tour 1 ; la seconde marque est annulée (Loi 15B)")
    assert "((" not in cells[-1].text and "))" not in cells[-1].text     # issue 25
    scored = browser.find_elements("css selector", "#card tbody tr:not(.cancelled) .not-scored")
    assert scored == []              # the lines scored say nothing of the kind
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
