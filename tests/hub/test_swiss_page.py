"""The console's Swiss page (hub/console_swiss.py, static/swiss.*) in Debian's headless
Chromium against a real hub: six Swiss teams, round 1 played by the room simulator over
MQTT, the hub's draw of round 2 shown with the standings; the page in French; the director
draws round 3 early from the page (the confirm dialog), and the page says who drew it; in
the pseudo-locale every word of the page is the catalog's.
Screenshots: swiss.png, swiss-fr.png (TENACE_SCREENSHOTS=docs/screenshots refreshes the
committed one)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hub.console import Console
from tests.hub.swiss_play import hub_pairings, play_round, spare_devices, swiss_setup, wait
from tests.hub.test_console import browser, browser_login, make_users
from tests.hub.test_console import wait as wait_page
from tests.hub.test_console_i18n_browser import shows, switch, text
from tests.hub.test_console_pseudo_browser import pseudo, untranslated
from tests.hub.test_console_setup import start_hub
from tests.hub.test_setup_browser import shot

__all__ = ["browser"]

NAMES = ('[section.pairs]\n1 = ["Ann Example", "Bob Example"]\n'
         '2 = ["Cyd Sample", "Dee Sample"]\n5 = ["Eve Model", "Fay Model"]\n')


def rows(driver: Any, css: str) -> list[list[str]]:
    return [[c.text for c in r.find_elements("css selector", "td")]
            for r in driver.find_elements("css selector", css)]


def test_browser_the_swiss_page_standings_pairings_and_the_directors_draw(
        browser: Any, tmp_path: Path, embedded_broker: Any, keyring: Any) -> None:
    setup = swiss_setup(tmp_path, "swiss_teams", 6, 3, 2, NAMES)
    keyring.issue_all(spare_devices(setup.sections[0].ids, 3))
    users = make_users(tmp_path / "users")
    with start_hub(tmp_path / "data", embedded_broker.url, users, setup) as hub:
        assert isinstance(hub.console, Console)
        section, pairings = hub.call(lambda: (hub.room.sections[0], hub_pairings(hub.room)))
        play_round(embedded_broker.url, section, pairings, setup.deals, 1)
        wait(lambda: hub.call(lambda: hub.room.swiss.drawn("A")) == 2)
        expected = hub.call(lambda: hub.room.swiss.to_json())["sections"][0]
        driver = browser
        browser_login(driver, hub.console)
        driver.get(hub.console.url + "swiss")
        wait_page(driver, lambda d: len(d.find_elements("css selector",
                                                        "#standings-A tbody tr")) == 6)
        assert text(driver, "h2") == "Section A: Swiss teams"
        table = rows(driver, "#standings-A tbody tr")
        assert [r[0] for r in table] == [str(s["rank"]) for s in expected["standings"]]
        assert [r[2] for r in table] == [f"{s['vp']:.2f}" for s in expected["standings"]]
        assert table[[s["contestant"] for s in expected["standings"]].index(1)][1] == \
            "Team 1 Ann Example, Bob Example, Cyd Sample, Dee Sample"
        headings = content(driver, ".swiss-rounds h3")
        assert headings == ["Round 2 · drawn by the hub",
                            "Round 1 · from the set-up · complete"]
        first = [m for m in expected["pairings"][0]["matches"]]
        assert {tuple(r[:2]) for r in rows(driver, ".swiss-rounds div:last-child tbody tr")} \
            == {(f"Team {m['home']} – Team {m['away']}", ", ".join(m["tables"]))
                for m in first}
        shot(driver, "swiss.png")

        switch(driver, "fr")
        shows(driver, "h2", "Section A : équipes à la suisse")
        assert content(driver, ".swiss-main h3")[0] == "Classement"
        assert driver.find_element("css selector", ".swiss-main button").text == \
            "Tirer le tour suivant maintenant"
        shot(driver, "swiss-fr.png")
        driver.find_element("css selector", ".swiss-main button").click()
        wait_page(driver, lambda d: _alert(d))
        driver.switch_to.alert.accept()
        wait(lambda: hub.call(lambda: hub.room.swiss.drawn("A")) == 3)
        wait_page(driver, lambda d: content(d, ".swiss-rounds h3")[0] == "Tour 3 · tiré par dora")
        drawn = hub.call(lambda: hub_pairings(hub.room))
        assert len(drawn) == 9 and len({frozenset((p.home, p.away)) for p in drawn}) == 9
        # In the pseudo-locale no text of the page is left outside the catalog
        # (tests/hub/test_console_pseudo_browser.py): the team names are the roster's.
        pseudo(driver)
        wait_page(driver, lambda d: content(d, ".swiss-rounds h3")[0].startswith("["))
        data = {"dora", "Ann Example", "Bob Example", "Cyd Sample", "Dee Sample", "Eve Model",
                "Fay Model", *(o.text for o in driver.find_elements("css selector",
                                                                     "#lang option"))}
        left = untranslated(driver, data)
        assert left == [], "\n".join(f"{found!r} at {where}" for found, where in left)
        shot(driver, "swiss-pseudo.png")


def content(driver: Any, css: str) -> list[str]:
    """The elements' text as written (their style may show it in capitals)."""
    return [str(e.get_attribute("textContent")) for e in
            driver.find_elements("css selector", css)]


def _alert(driver: Any) -> bool:
    try:
        driver.switch_to.alert   # noqa: B018 (raises until the dialog is up)
    except Exception:
        return False
    return True
