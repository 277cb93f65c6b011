"""The console in German, Dutch, Spanish and Polish (docs/translating.md), in Debian's
headless Chromium against a real hub: for each language the set-up page, then the room
console with a table's panel, the public results page, and the login page that follows the
browser's language cookie. Each page's words come from the language's catalog, the table
panel's bridge words in the federation's terms; a procedural penalty typed with the
language's side (Dutch OW, Spanish EO) and a decimal comma is East-West's. Screenshots go to
a temporary folder (TENACE_SCREENSHOTS=dir to keep them): setup-, room-, console- (with a
table panel), results- and login-<lang>.png. No page runs past the window's width (the
console's bar wraps the longer words)."""

from __future__ import annotations

from typing import Any

from hub.console_i18n import say
from tests.hub.test_console import browser_login, wait
from tests.hub.test_console_i18n_browser import shows, switch, text
from tests.hub.test_setup_browser import browser, setup_page, shot, submit

__all__ = ["browser", "setup_page"]    # the fixtures

# language -> (the room's start button, the table panel's title, close, a status word)
WORDS = {
    "de": ("Runde 1 beginnen", "Tisch A1", "Schließen", "wartet"),
    "nl": ("Ronde 1 starten", "Tafel A1", "Sluiten", "wacht"),
    "es": ("Empezar la ronda 1", "Mesa A1", "Cerrar", "esperando"),
    "pl": ("Rozpocznij rundę 1", "Stół A1", "Zamknij", "czeka"),
}


def fits(driver: Any) -> bool:
    """The page runs no wider than the window (no word pushes it sideways)."""
    return bool(driver.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth"))


def test_browser_the_console_and_login_in_german_dutch_spanish_and_polish(
        setup_page: Any) -> None:
    driver, hub, _, _ = setup_page
    for language in WORDS:                  # the set-up page first, the evening not yet set up
        switch(driver, language)
        shows(driver, "#setup-submit", say(language, "setup.submit"))
        assert fits(driver), language
        shot(driver, f"setup-{language}.png")
    switch(driver, "en")
    submit(driver)
    for language, (start, title, close, waiting) in WORDS.items():
        driver.get(hub.console.url)
        wait(driver, lambda d: d.find_elements("css selector", "#map .tile"), timeout=20)
        switch(driver, language)
        shows(driver, "#round-start", start)
        assert text(driver, "#feed .empty") == say(language, "console.no_alert")
        assert waiting in text(driver, "#legend")
        assert driver.title == say(language, "console.title")
        assert fits(driver), language      # the bar wraps its longer words
        shot(driver, f"room-{language}.png")
        driver.find_element("css selector", "#map .tile").click()
        wait(driver, lambda d, t=title: d.find_elements("css selector", "#detail h2")
             and text(d, "#detail h2").startswith(t))
        assert text(driver, "#detail .close") == close
        assert text(driver, "#table-mode") in (say(language, "console.to_strict"),
                                               say(language, "console.to_box"))
        shot(driver, f"console-{language}.png")

        # A procedural penalty (Law 90) typed with the language's side and decimal comma:
        # Dutch "OW 1,5 mp", Spanish "EO 1,5 mp" are East-West's 1.5 matchpoints.
        from selenium.webdriver.support.ui import Select
        Select(driver.find_element("id", "ruling-kind")).select_by_value("penalty")
        board = driver.find_element("id", "ruling-board")
        board.clear()
        board.send_keys("1")
        driver.find_element("id", "ruling-score").send_keys(
            f"{say(language, 'side.EW')} 1,5 mp")
        before = len(hub.call(lambda: hub.room.scoring.snapshot()["rulings"]))
        driver.find_element("id", "do-ruling").click()
        wait(driver, lambda d, n=before: len(hub.call(
            lambda: hub.room.scoring.snapshot()["rulings"])) > n)
        ruling = hub.call(lambda: hub.room.scoring.snapshot()["rulings"])[-1]
        assert (ruling["kind"], ruling["side"], ruling["amount"], ruling["unit"]) == \
            ("penalty", "EW", 1.5, "mp"), ruling

        # The public results page, in the same language.
        driver.get(hub.console.url + "results")
        shows(driver, "#bar h1", say(language, "nav.results"))
        assert fits(driver), language
        shot(driver, f"results-{language}.png")

        # The login page, for whoever comes next on this browser: its language cookie.
        driver.delete_cookie("tenace_console")
        driver.get(hub.console.url + "login")
        shows(driver, "#login-submit", say(language, "login.submit"))
        assert text(driver, "label[for='login-password']") == say(language, "login.password")
        shot(driver, f"login-{language}.png")
        browser_login(driver, hub.console)
