"""What the hub itself writes reaches the director in his language (docs/protocol.md section 1
"Texts", docs/translating.md): an alert's finding (a key and its values, a seat, a call) on
the console and a score ruling on the results page, in headless Chromium against a real hub,
in French, Italian and the pseudo-locale, where no visible text may be left unbracketed.
Screenshots: texts-fr.png, texts-it.png, texts-pseudo.png, texts-results-fr.png,
texts-results-pseudo.png in the screenshots folder (a temporary one unless
TENACE_SCREENSHOTS names another)."""

from __future__ import annotations

import time
from typing import Any

from bridgecore.auction_rules import insufficient_bid_options
from bridgecore.calls import Call
from bridgecore.cards import Seat
from bridgecore.editions import EDITIONS
from bridgecore.text import Text
from hub.alerts import OPTIONS
from tests.hub.test_console import wait
from tests.hub.test_console_i18n_browser import switch, text
from tests.hub.test_console_pseudo_browser import pseudo, untranslated
from tests.hub.test_setup_browser import browser, setup_page, shot, submit

__all__ = ["browser", "setup_page"]

# Law 27's options for West's 1H over 1S (bridgecore, each a text: seats and calls in it).
LAW_27 = insufficient_bid_options(EDITIONS["2017"], Seat.WEST, Call.parse("2H"))
LAWS = {"25A", "25A4", *(o.law for o in LAW_27)}        # law numbers: data
CEILING = 60.0     # seconds: a guard on a busy machine, not a time the test expects


def shows(driver: Any, css: str, wanted: str) -> None:
    wait(driver, lambda d: d.find_elements("css selector", css) and text(d, css) == wanted,
         timeout=CEILING)


def click(driver: Any, css: str) -> None:
    """Click ``css`` once it is there; the feed is redrawn as the hub's events come, so an
    element found may be replaced before the click: it is found again."""
    from selenium.common.exceptions import StaleElementReferenceException

    def clicked(d: Any) -> bool:
        try:
            d.find_element("css selector", css).click()
        except StaleElementReferenceException:
            return False
        return True
    wait(driver, lambda d: d.find_elements("css selector", css), timeout=CEILING)
    wait(driver, clicked, timeout=CEILING)


RULING = "Ouest remplace par 2S (27B1a)"     # the director's own words: data, not the hub's


def test_browser_an_alert_and_a_ruling_in_french_italian_and_the_pseudo_locale(
        setup_page: Any) -> None:
    driver, hub, _, _ = setup_page
    submit(driver)
    driver.get(hub.console.url)
    wait(driver, lambda d: d.find_elements("css selector", "#map .tile"), timeout=CEILING)

    def insufficient() -> str:
        book = hub.room.alerts
        alert = book.raise_alert(
            "test:bid", kind="insufficient_bid", law="27", table="A1", round=1, board=1,
            detected=time.time(), seats=("W",), call=2,
            detail=Text.of("irr.insufficient_bid", seat="W", index=2, trick=None, card=None,
                           more=[]),
            options=(*LAW_27, *OPTIONS["change_of_call"]))   # worded in the catalog (rect.*)
        assert alert is not None
        accepted = book.revise(alert.id, time.time(), {"accepted": {"seat": "N"}}, Text.of(
            "alert.accepted", finding=alert.text, seat="N", law="27A1"))
        hub.console.alert_changed(accepted)
        return alert.id
    alert_id = hub.call(insufficient)
    done = hub.call(lambda: hub.director({"op": "rule", "id": alert_id, "text": RULING}))
    assert done["ok"]
    scored = hub.call(lambda: hub.director({"op": "ruling", "kind": "artificial",
                                            "table": "A1", "board": 1, "ns": "A+",
                                            "ew": "A-"}))
    assert scored["ok"], scored

    switch(driver, "fr")
    shows(driver, "#round-start", "Lancer le tour 1")
    click(driver, f"#feed li[data-alert='{alert_id}']")
    shows(driver, "#detail-text", "Ouest a fait une enchère insuffisante (déclaration 2) "
          "[accepté par Nord, 27A1]")
    # The Laws' options in French, the seats and the call in the French notation (27A1, 27B1a).
    options = [e.text for e in driver.find_elements("css selector", "#detail ul.options li")]
    assert options[0] == ("27A1Nord peut accepter l'enchère insuffisante en déclarant ; elle est "
                          "alors considérée comme légale (le joueur suivant)")
    assert options[1].startswith("27B1(a)remplacée par 2\u2665, l'enchère suffisante la moins "
                                 "forte spécifiant la ou les mêmes dénominations")
    assert "Est doit passer jusqu'à la fin des annonces" in options[3]
    assert len(options) == len(LAW_27) + len(OPTIONS["change_of_call"])
    shot(driver, "texts-fr.png")

    switch(driver, "it")
    shows(driver, "#detail-text", "Ovest ha fatto una dichiarazione insufficiente "
          "(dichiarazione 2) [accettato da Nord, 27A1]")
    wait(driver, lambda d: "Nord può accettare la dichiarazione insufficiente chiamando; è "
         "allora trattata come legale" in text(d, "#detail ul.options"), timeout=CEILING)
    shot(driver, "texts-it.png")

    pseudo(driver)
    wait(driver, lambda d: "[Ŵéšţ] ɱàðé" in text(d, "#detail-text"), timeout=CEILING)
    data = set(driver.execute_script(
        "return [...document.querySelectorAll('#lang option')].map(o => o.textContent)"))
    data |= {"dora", RULING, "A1", alert_id, *LAWS}
    # The facts line is the alert's raw data (protocol field: JSON), shown as data.
    data |= {e.text for e in driver.find_elements("css selector", "#detail .facts")}
    left = untranslated(driver, data)
    assert left == [], left
    shot(driver, "texts-pseudo.png")

    # The score ruling on the results page, as its reader's language says it.
    driver.get(hub.console.url + "results")
    wait(driver, lambda d: d.find_elements("css selector", "[data-ruling]"), timeout=CEILING)
    wait(driver, lambda d: "[Ļàŵ 12C2 A+ A- àţ ţàƀļé A1" in text(d, "[data-ruling]"),
         timeout=CEILING)
    assert untranslated(driver, data | {"R1"}) == []
    shot(driver, "texts-results-pseudo.png")
    switch(driver, "fr")
    wait(driver, lambda d: "Loi 12C2 A+ A- à la table A1, tour 1, donne 1"
         in text(d, "[data-ruling]"), timeout=CEILING)
    shot(driver, "texts-results-fr.png")
