"""The set-up page (hub/static/setup.*) sets up an individual, in Debian's headless Chromium
against a real hub: "Individual" among the movements, the size its players (4·T, T prime to
6, at least 5 tables: bridgecore/individual.py), a count the built-in movement cannot seat
refused on that field before anything is sent, one row a player to name, and the set-up the
API takes (``movement = "individual"``, ``players``); or an individual ``.ASC`` file from
the page's movement-file picker. Screenshot: setup-individual.png (tests/hub/
test_setup_browser.py's folder)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bridgecore.individual import rainbow_individual
from bridgecore.movement_files import write_asc
from hub.event import EventSetup
from tests.hub.test_console import wait
from tests.hub.test_setup_browser import browser, choose, field, setup_page, shot, submit, type_in

__all__ = ["browser", "setup_page"]    # the fixtures, shared with the set-up page's tests


def test_browser_a_20_player_individual_named_player_by_player(setup_page: Any) -> None:
    driver, hub, _, _ = setup_page
    type_in(field(driver, "event.name"), "Tuesday individual")
    choose(field(driver, "sections[0].movement"), "individual")
    size = field(driver, "sections[0].players")       # the size is now the players
    assert size.get_attribute("value") == "20"        # a count the movement seats
    assert not field(driver, "sections[0].missing_pair").is_displayed()
    hint = driver.find_element("css selector", ".sec-players-hint")
    assert hint.is_displayed() and "20, 28, 44, 52" in hint.text
    type_in(size, "24")                               # 6 tables: not prime to 6
    rows = driver.find_elements("css selector", ".pair")
    assert len(rows) == 24 and rows[0].text.startswith("Player 1")
    assert len(rows[0].find_elements("css selector", "input")) == 1
    driver.find_element("id", "setup-check").click()
    wait(driver, lambda d: d.find_elements("css selector", "#setup-errors li"))
    assert driver.find_element("id", "setup-errors").text == (
        "sections[0].players: 24 players: the built-in individual takes 4 a table and a "
        "number of tables prime to 6, at least 5 (20, 28, 44, 52… players)")
    assert "bad" in size.get_attribute("class")
    assert hub.setup.waiting                          # nothing was sent
    type_in(size, "20")
    type_in(field(driver, "sections[0].boards_per_round"), "2")
    type_in(field(driver, "sections[0].rounds"), "4")
    assert len(driver.find_elements("css selector", ".pair")) == 20
    for player, name in ((1, "Player One"), (7, "Player Seven"), (20, "Player Twenty")):
        type_in(driver.find_element("css selector", f"input[data-key='{player}.1']"), name)
    driver.find_element("id", "setup-check").click()  # the hub's check: good news now
    wait(driver, lambda d: d.find_elements("css selector", "#setup-good li"))
    assert driver.find_elements("css selector", "#setup-errors li") == []
    assert "bad" not in size.get_attribute("class")
    shot(driver, "setup-individual.png")
    submit(driver)
    setup = hub.setup
    assert isinstance(setup, EventSetup) and setup.name == "Tuesday individual"
    section = setup.sections[0]
    assert (section.kind, section.players, section.rounds) == ("individual", 20, 4)
    assert section.individual == rainbow_individual(5, rounds=4, boards_per_round=2)
    assert section.pairs == {1: ("Player One",), 7: ("Player Seven",),
                             20: ("Player Twenty",)}
    assert sorted(hub.room.tables) == [f"A{n}" for n in range(1, 6)]
    assert "20 players" in driver.find_element("id", "setup-done-summary").text


def test_browser_an_individual_of_the_clubs_asc_file(setup_page: Any, tmp_path: Path) -> None:
    """An individual ``.ASC`` (individual = 1) picked with the movement-file picker: the
    file gives the tables and rounds, the players' count is not checked against the
    built-in movement."""
    driver, hub, _, _ = setup_page
    asc = tmp_path / "ind7.asc"
    asc.write_text(write_asc(rainbow_individual(7, rounds=2)), encoding="latin-1")
    choose(field(driver, "sections[0].movement"), "individual")
    type_in(field(driver, "sections[0].boards_per_round"), "1")
    picker = field(driver, "sections[0].movement_file")
    assert picker.is_displayed()
    picker.send_keys(str(asc))
    type_in(field(driver, "sections[0].players"), "28")
    type_in(driver.find_element("css selector", "input[data-key='28.1']"), "Player Last")
    submit(driver)
    section = hub.setup.sections[0]
    assert (section.kind, section.asc_name, section.players) == ("individual", "ind7.asc",
                                                                 None)
    assert section.individual is not None and len(section.individual.players) == 28
    assert section.pairs == {28: ("Player Last",)}
    assert sorted(hub.room.tables) == [f"A{n}" for n in range(1, 8)]
