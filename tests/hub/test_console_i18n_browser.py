"""The console in French and Italian, in Debian's headless Chromium against a real hub on an
empty data directory: the director switches the set-up page to French, then to Italian, sets
the evening up, finds the room console in Italian (the language is remembered for the user)
with a revoke in the alert feed, and switches it to French. Screenshots go to a temporary
folder (TENACE_SCREENSHOTS=dir to keep them): setup-fr.png, setup-it.png, console-it.png,
console-fr.png, results-it.png (the public results pages follow the same switch)."""

from __future__ import annotations

import time
from typing import Any

from bridgecore.irregularity import Rectification
from tests.hub.test_console import wait
from tests.hub.test_setup_browser import browser, field, setup_page, shot, submit

__all__ = ["browser", "setup_page"]    # the fixtures, shared with the set-up page's tests

# Law 62B's rectification as an older log keeps it: its English words only, found in the
# catalog by them (hub.console_i18n.option_text).
_WITHDRAW = ("withdraw the revoke card and substitute a legal card (a defender's unfaced card "
             "becomes a major penalty card)")


def switch(driver: Any, language: str) -> None:
    from selenium.webdriver.support.ui import Select
    Select(driver.find_element("id", "lang")).select_by_value(language)


def text(driver: Any, css: str) -> str:
    return str(driver.find_element("css selector", css).text)


def shows(driver: Any, css: str, wanted: str) -> None:
    wait(driver, lambda d: d.find_elements("css selector", css) and text(d, css) == wanted)


def option(driver: Any, name: str, value: str) -> str:
    select = field(driver, name)
    return str(select.find_element("css selector", f"option[value='{value}']").text)


def test_browser_the_set_up_page_and_the_console_in_french_and_italian(
        setup_page: Any) -> None:
    driver, hub, _, _ = setup_page
    assert text(driver, "#setup-form h2") == "Event"
    switch(driver, "fr")
    shows(driver, "#setup-form h2", "Tournoi")
    assert text(driver, "#setup-submit") == "Créer le tournoi"
    assert text(driver, "#add-section") == "Ajouter une section"
    shows(driver, "#roster-count", "0 membre")         # French counts 0 in the singular
    card = driver.find_element("css selector", ".section-card")     # built by setup.js
    assert "Mouvement" in card.text and "Donnes par tour" in card.text
    assert "Paires et joueurs" in card.text
    assert option(driver, "event.scoring", "matchpoints") == "points de match (top)"
    assert field(driver, "sections[0].pairs.1").get_attribute("placeholder") == "joueur"
    shot(driver, "setup-fr.png")

    switch(driver, "it")
    shows(driver, "#setup-form h2", "Torneo")
    assert text(driver, "#setup-submit") == "Crea il torneo"
    card = driver.find_element("css selector", ".section-card")
    assert "Movimento" in card.text and "Smazzate per turno" in card.text
    assert option(driver, "sections[0].movement", "teams") == "Squadre"
    shot(driver, "setup-it.png")
    submit(driver)
    assert text(driver, "#setup-done h2") == "Torneo creato"

    # The room console: Italian, remembered for the user.
    driver.get(hub.console.url)
    wait(driver, lambda d: d.find_elements("css selector", "#map .tile"), timeout=20)
    shows(driver, "#setup-link", "Preparazione")
    shows(driver, "#round-start", "Avvia il turno 1")
    assert text(driver, "#clock-round") == "Turno –"
    assert text(driver, "#feed .empty") == "Nessun avviso."
    assert "in attesa" in text(driver, "#legend")
    assert driver.title == "Tenace arbitro"
    driver.find_element("css selector", "#map .tile").click()
    wait(driver, lambda d: d.find_elements("css selector", "#detail h2")
         and text(d, "#detail h2").startswith("Tavolo A1"))
    assert text(driver, "#detail .close") == "Chiudi"
    assert text(driver, "#table-mode") in ("Passa alla modalità rigorosa", "Passa al bidding box")

    # A revoke (Law 64) in the feed and in full: its kind, law and explanation in Italian.
    def revoke() -> None:
        alert = hub.room.alerts.raise_alert(
            "test:revoke", kind="revoke", law="64", table="A1", round=1, board=1,
            detected=time.time(), seats=("W",), detail="West did not follow suit",
            options=(Rectification("62B", _WITHDRAW, "director"),))
        assert alert is not None
        hub.console.alert_changed(alert)
    hub.call(revoke)
    shows(driver, "#feed li .kind", "Renonce (revoca) · Legge 64")
    assert "Ovest" in text(driver, "#feed li .where")
    driver.find_element("css selector", "#feed li").click()
    wait(driver, lambda d: d.find_elements("id", "detail-explain"))
    assert text(driver, "#detail-explain").startswith("Un giocatore non ha risposto al colore")
    detail = text(driver, "#detail").lower()         # the headings are in capitals
    assert "licitazione" in detail and "gioco della carta" in detail
    assert "ritirare la carta della revoca" in detail           # the Laws' option, in Italian
    assert text(driver, "#do-acknowledge") == "Presa visione"
    shot(driver, "console-it.png")

    switch(driver, "fr")
    shows(driver, "#round-start", "Lancer le tour 1")
    shows(driver, "#detail-explain", "Un joueur n'a pas fourni alors qu'il le pouvait "
          "(Lois 61-64).")
    assert text(driver, "#feed li .kind") == "Renonce · Loi 64"
    assert "enchères" in text(driver, "#detail").lower()
    assert "reprendre la carte de la renonce" in text(driver, "#detail")
    assert "Ouest" in text(driver, "#feed li .where")
    assert text(driver, "#do-acknowledge") == "Vu"
    assert text(driver, "#detail .close") == "Fermer"
    assert "en attente" in text(driver, "#legend")
    assert text(driver, "#setup-link") == "Préparation"
    assert driver.title == "(1) Tenace arbitre"      # one alert open
    shot(driver, "console-fr.png")

    # The public results pages, in the same language.
    driver.get(hub.console.url + "results")
    shows(driver, "#bar h1", "Résultats")
    wait(driver, lambda d: d.find_elements("css selector", ".ranking th"))
    assert text(driver, ".ranking th") == "Place"
    assert text(driver, "#section-A h2").startswith("Section A")
    switch(driver, "it")
    shows(driver, ".ranking th", "Posizione")
    assert "Sezione A" in text(driver, "#section-A h2")
    shot(driver, "results-it.png")
    driver.get(hub.console.url)
    wait(driver, lambda d: d.find_elements("css selector", "#map .tile"), timeout=20)

    switch(driver, "en")
    shows(driver, "#round-start", "Start round 1")
    assert text(driver, "#feed li .kind") == "Revoke · Law 64"
