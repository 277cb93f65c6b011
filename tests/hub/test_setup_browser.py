"""The set-up page (hub/static/setup.*) in Debian's headless Chromium against a real hub on
an empty data directory: the director is sent to it, imports the club's roster, and sets
up a 7-table Howell, a 2-match teams event, and an 8-table Mitchell with a sit-out (pair 16
absent) and a late pair (pair 15, names not known yet) that the room simulator (tenace/sim)
then plays over the hub's broker until the results show. Screenshots of the page go to
docs/screenshots/ (setup.png, setup-errors.png, setup-done.png, setup-played.png)."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bridgecore.text import Text
from hub.broker import EmbeddedBroker
from hub.console import Console
from hub.event import EventSetup, WaitingSetup
from hub.results_pages import results_api
from hub.service import Hub
from hub.texts import render
from tenace.sim.driver import run_tables
from tenace.sim.session import simulate
from tests.hub.test_console import browser, browser_login, make_users, wait
from tests.hub.test_console_setup import ROSTER, start_hub

__all__ = ["browser"]    # the Chromium fixture, shared with the console's tests

# A temporary folder; TENACE_SCREENSHOTS=docs/screenshots refreshes the committed ones.
SHOTS = Path(os.environ.get("TENACE_SCREENSHOTS")
             or os.path.join(tempfile.gettempdir(), "tenace-screenshots"))


def shot(driver: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(SHOTS / name)), name


@pytest.fixture
def setup_page(browser: Any, tmp_path: Path, embedded_broker: EmbeddedBroker
               ) -> Iterator[tuple[Any, Hub, str, Path]]:
    users = make_users(tmp_path / "users")
    roster = tmp_path / "members.csv"
    roster.write_text(ROSTER, encoding="utf-8")
    with start_hub(tmp_path / "data", embedded_broker.url, users, WaitingSetup()) as hub:
        assert isinstance(hub.console, Console)
        browser.delete_all_cookies()
        browser_login(browser, hub.console)
        wait(browser, lambda d: d.current_url.endswith("/setup")
             and d.find_elements("css selector", "body[data-loaded='yes']"))
        yield browser, hub, embedded_broker.url, roster


def field(driver: Any, name: str) -> Any:
    return driver.find_element("css selector", f"[data-field='{name}']")


def type_in(element: Any, text: str) -> None:
    from selenium.webdriver.common.keys import Keys
    element.clear()
    element.send_keys(text, Keys.TAB)        # TAB: the change event the page listens to


def choose(element: Any, value: str) -> None:
    from selenium.webdriver.support.ui import Select
    Select(element).select_by_value(value)


def submit(driver: Any) -> None:
    driver.find_element("id", "setup-submit").click()
    wait(driver, lambda d: d.find_elements("css selector", "body[data-done='yes']"))


def test_browser_the_waiting_hub_shows_the_set_up_page_with_a_usual_evening(
        setup_page: Any) -> None:
    driver, hub, _, _ = setup_page
    assert driver.find_element("id", "setup-waiting").is_displayed()
    assert field(driver, "sections[0].movement").get_attribute("value") == "mitchell"
    assert field(driver, "sections[0].tables").get_attribute("value") == "8"
    assert field(driver, "sections[0].boards_per_round").get_attribute("value") == "3"
    assert field(driver, "event.edition").get_attribute("value") == "2017"
    assert field(driver, "event.scoring").get_attribute("value") == "matchpoints"
    assert len(driver.find_elements("css selector", ".pair")) == 16
    assert hub.setup.waiting


def test_browser_a_7_table_howell_errors_marked_on_their_field_then_set_up(
        setup_page: Any) -> None:
    driver, hub, _, _ = setup_page
    type_in(field(driver, "event.name"), "Thursday Howell")
    choose(field(driver, "sections[0].movement"), "howell")
    type_in(field(driver, "sections[0].tables"), "7")
    type_in(field(driver, "sections[0].boards_per_round"), "2")
    type_in(field(driver, "sections[0].rounds"), "40")        # more rounds than the Howell
    driver.find_element("id", "setup-submit").click()
    wait(driver, lambda d: d.find_elements("css selector", "#setup-errors li"))
    errors = driver.find_element("id", "setup-errors").text
    assert "sections[0].movement: a Howell has 1 to 13 rounds, not 40" in errors
    assert "bad" in field(driver, "sections[0].movement").get_attribute("class")
    shot(driver, "setup-errors.png")
    assert hub.setup.waiting                                   # nothing changed
    type_in(field(driver, "sections[0].rounds"), "")
    # Check: its summary is good news (issue 25: it was shown as the errors' red bullets)
    driver.find_element("id", "setup-check").click()
    wait(driver, lambda d: d.find_elements("css selector", "#setup-good li"))
    assert driver.find_elements("css selector", "#setup-errors li") == []
    good = driver.find_element("id", "setup-good")
    assert good.get_attribute("role") == "status" and "Howell" in good.text
    colour = driver.execute_script(
        "return getComputedStyle(document.querySelector('#setup-good li')).color")
    red, green, _ = (int(x) for x in colour[colour.index("(") + 1:-1].split(",")[:3])
    assert green > red, colour
    shot(driver, "setup-check.png")
    submit(driver)
    setup = hub.setup
    assert isinstance(setup, EventSetup) and setup.name == "Thursday Howell"
    section = setup.sections[0]
    assert (section.kind, section.movement.tables, section.movement.boards_per_round) == (
        "howell", 7, 2)
    assert sorted(hub.room.tables) == [f"A{n}" for n in range(1, 8)]
    assert "Howell" in driver.find_element("id", "setup-done-summary").text


def test_browser_a_teams_event_of_two_matches(setup_page: Any) -> None:
    driver, hub, _, _ = setup_page
    type_in(field(driver, "event.name"), "Club teams")
    choose(field(driver, "event.scoring"), "imps")
    choose(field(driver, "sections[0].movement"), "teams")
    type_in(field(driver, "sections[0].teams"), "2")
    type_in(field(driver, "sections[0].boards_per_round"), "8")
    submit(driver)
    setup = hub.setup
    assert isinstance(setup, EventSetup) and setup.scoring == "imps"
    section = setup.sections[0]
    assert section.kind == "teams" and section.teams == 2
    assert section.movement.tables == 2 and len(section.movement.pairs) == 4
    assert sorted(hub.room.tables) == ["A1", "A2"]
    # Two matches: a second set-up (nothing played yet) replaces the first.
    driver.get(driver.current_url)
    wait(driver, lambda d: d.find_elements("css selector", "body[data-loaded='yes']"))
    assert "Club teams" in driver.find_element("id", "setup-summary").text
    choose(field(driver, "sections[0].movement"), "teams")
    type_in(field(driver, "sections[0].teams"), "4")
    type_in(field(driver, "sections[0].boards_per_round"), "7")
    submit(driver)
    section = hub.setup.sections[0]
    assert section.teams == 4 and section.movement.tables == 4
    assert sorted(hub.room.tables) == ["A1", "A2", "A3", "A4"]


def test_browser_an_8_table_mitchell_with_a_sit_out_and_a_late_pair_played_to_results(
        setup_page: Any) -> None:
    driver, hub, url, roster = setup_page
    driver.find_element("id", "roster-file").send_keys(str(roster))
    wait(driver, lambda d: d.find_elements("css selector", "body[data-roster='4']"))
    type_in(field(driver, "event.name"), "Monday pairs")
    choose(field(driver, "sections[0].missing_pair"), "16")   # pair 16 absent: a sit-out
    first, second = driver.find_elements("css selector", "input[data-key^='1.']")
    type_in(first, "Ann Smith #101")                          # picked from the roster
    type_in(second, "Bob Jones #102")
    type_in(driver.find_element("css selector", "input[data-key='2.1']"), "A. Guest")
    shot(driver, "setup.png")
    submit(driver)
    shot(driver, "setup-done.png")
    setup = hub.setup
    assert isinstance(setup, EventSetup)
    section = setup.sections[0]
    assert (section.kind, section.movement.tables, section.missing_pair) == ("mitchell", 8, 16)
    assert section.pairs == {1: ("Ann Smith", "Bob Jones"), 2: ("A. Guest",)}
    assert 15 not in section.pairs                            # the late pair: named at its table
    assert sorted(hub.room.tables) == sorted(f"A{n}" for n in range(1, 9))

    # The room simulator plays the first round over the hub's broker.
    script = simulate(hub.room.sections, dict(setup.deals), seed=13, rounds=1, pace=0.002,
                      start=time.time(), claim_rate=0.5)
    assert "A8" not in script.events_by_table or not script.events_by_table["A8"]
    runs = run_tables(url, {t: e for t, e in script.events_by_table.items() if e},
                      realtime=script.pacer(), timeout=2.0, retries=5)
    assert all(not r.rejected for r in runs.values()), {t: r.rejected for t, r in runs.items()}

    def scored_boards() -> int:
        data = hub.call(lambda: results_api(hub.room, "", public=False))
        return sum(b["scored"] for section in data["sections"] for b in section["boards"])

    wait(driver, lambda d: scored_boards() >= 3, timeout=60)   # 7 tables, 3 boards each
    ranking = hub.call(lambda: results_api(hub.room, "", public=False))["sections"][0]
    assert {row["pair"] for row in ranking["ranking"]} >= {1, 2, 15}
    assert 16 not in {row["pair"] for row in ranking["ranking"]}
    assert hub.console is not None
    driver.get(hub.console.url + "results")
    wait(driver, lambda d: "Ann Smith" in d.find_element("id", "content").text, timeout=30)
    shot(driver, "setup-played.png")
    # The names the pairs typed at check-in, matched to the roster for the director. The
    # director mistyped pair 1's names meanwhile: what NS typed at A1 is offered again.
    assert hub.call(lambda: hub.director({"op": "pair_names", "section": "A", "pair": 1,
                                          "names": ["Ann Smyth", "Bob Jones"]}))["ok"]
    driver.get(hub.console.url + "setup")
    wait(driver, lambda d: d.find_elements("css selector", "#checkins tbody tr"), timeout=20)
    shown = driver.find_element("id", "checkins").text
    assert "Ann Smith #101" in shown and "Bob Jones #102" in shown
    assert "A. Guest not in the roster" in shown
    # Accepted by the director: the names become the pair's (checkin_accept, logged as
    # pair_names): the button says so once the hub has taken them.
    button = driver.find_element("css selector", "#checkins button.accept")
    table, side = button.get_attribute("data-table"), button.get_attribute("data-side")
    button.click()
    wait(driver, lambda d: not button.is_enabled(), timeout=20)
    assert button.text == "Names accepted"
    pair = next(v[0] for k, v in hub.call(lambda: dict(hub.room.tables[table].seated)).items()
                if k.value == side)
    assert set(button.get_attribute("title").split(" – ")) == set(
        hub.call(lambda: hub.room.sections[0].pairs[pair]))
    # seen again, names that are the pair's are not offered again (GET /api/setup/checkins'
    # pair_names): "Names accepted", no button
    driver.get(hub.console.url + "setup")
    wait(driver, lambda d: d.find_elements("css selector", "#checkins .accepted"), timeout=20)
    again = f"#checkins button.accept[data-table='{table}'][data-side='{side}']"
    assert driver.find_elements("css selector", again) == []
    assert "Names accepted" in driver.find_element("id", "checkins").text
    assert "Play has started" in driver.find_element("id", "setup-locked").text
    assert not driver.find_element("id", "setup-submit").is_enabled()
    # The next session (hub.series): once ticked, the set-up replaces the session played,
    # which is stored first with its ranking, for the event's total and the ladder.
    assert driver.find_element("id", "next-session-choice").is_displayed()
    driver.find_element("id", "next-session").click()
    assert driver.find_element("id", "setup-submit").is_enabled()
    type_in(field(driver, "event.name"), "Monday pairs")
    type_in(field(driver, "event.part"), "2")
    played = hub.call(lambda: hub.room.scoring.section("A").ranking())
    submit(driver)
    assert hub.call(lambda: (hub.setup.name, hub.setup.part)) == ("Monday pairs", 2)
    [stored] = hub.call(lambda: hub.series.sessions())
    assert (stored.name, stored.part) == ("Monday pairs", 0)
    kept = [dict(e) for e in stored.sections[0]["ranking"]]
    players = [e.pop("players", []) for e in kept]    # the pairs with names
    assert kept == played
    # who played, with the roster's member numbers (hub.series_players: the ladder's)
    members = {"Ann Smith": 101, "Bob Jones": 102, "Zoé Dupré": 103, "Jürgen Müller": 104}
    named = [(p["name"], p["member"]) for entry in players for p in entry
             if p["name"] in members]
    assert named and all(member == members[name] for name, member in named)
    assert hub.call(lambda: hub.room.scoring.first_result()) is None   # a fresh session
    driver.get(hub.console.url + "setup")          # the session after it is proposed
    wait(driver, lambda d: d.find_elements("css selector", "body[data-loaded='yes']"))
    assert field(driver, "event.name").get_attribute("value") == "Monday pairs"
    assert field(driver, "event.part").get_attribute("value") == "3"
    assert not driver.find_element("id", "next-session-choice").is_displayed()


def test_browser_a_section_removed_its_successors_errors_still_land_on_their_fields(
        setup_page: Any) -> None:
    driver, hub, _, _ = setup_page
    driver.find_element("id", "add-section").click()
    wait(driver, lambda d: len(d.find_elements("css selector", ".section-card")) == 2)
    choose(field(driver, "sections[1].movement"), "howell")
    type_in(field(driver, "sections[1].tables"), "0")
    driver.find_element("css selector", ".section-card button").click()   # remove A
    wait(driver, lambda d: len(d.find_elements("css selector", ".section-card")) == 1)
    assert field(driver, "sections[0].movement").get_attribute("value") == "howell"
    driver.find_element("id", "setup-check").click()
    wait(driver, lambda d: "bad" in field(d, "sections[0].tables").get_attribute("class"))
    assert "sections[0].tables" in driver.find_element("id", "setup-errors").text
    assert hub.setup.waiting



def test_browser_a_section_plays_the_clubs_asc_movement_file(setup_page: Any,
                                                              tmp_path: Path) -> None:
    """The club's own movement: "Movement file (.ASC)" and a 4-table Howell's .ASC file
    picked from the disk; the page reads it and sends it with the set-up (the API's
    ``movement_file`` {name, data}); the room plays the file's tables. A section left
    without its file is refused on that field."""
    from bridgecore.movement_files import write_asc
    from bridgecore.movements import howell

    driver, hub, _, _ = setup_page
    asc = tmp_path / "howell4.asc"
    asc.write_text(write_asc(howell(4, boards_per_round=2)), encoding="latin-1")
    type_in(field(driver, "event.name"), "Club Howell")
    choose(field(driver, "sections[0].movement"), "file")
    picker = field(driver, "sections[0].movement_file")
    assert picker.is_displayed() and not field(driver, "sections[0].rounds").is_displayed()
    type_in(field(driver, "sections[0].boards_per_round"), "2")
    type_in(field(driver, "sections[0].pairs_named"), "8")   # the file gives the tables
    assert len(driver.find_elements("css selector", ".pair")) == 8
    driver.find_element("id", "setup-check").click()        # no file chosen yet: refused
    wait(driver, lambda d: d.find_elements("css selector", "#setup-errors li"))
    assert driver.find_element("id", "setup-errors").text == (
        "sections[0].movement_file: choose the club's .ASC movement file")
    assert "bad" in picker.get_attribute("class")
    picker.send_keys(str(asc))
    driver.find_element("id", "setup-check").click()        # the hub reads the file: good
    wait(driver, lambda d: d.find_elements("css selector", "#setup-good li"))
    assert driver.find_elements("css selector", "#setup-errors li") == []
    shot(driver, "setup-asc.png")
    submit(driver)
    setup = hub.setup
    assert isinstance(setup, EventSetup) and setup.name == "Club Howell"
    section = setup.sections[0]
    assert section.kind == "file" and section.asc_name == "howell4.asc"
    assert section.movement.tables == 4
    assert sorted(hub.room.tables) == ["A1", "A2", "A3", "A4"]


def test_browser_too_many_names_are_said_in_words_in_the_readers_language(
        setup_page: Any) -> None:
    """Issue 25: a set-up (a file, the API) giving pair 3 three names is refused with the
    names written as a person lists them, in the page's language ("Zoé, Łukasz et 山田 太郎"
    in French), never a Python list; a blank name is said to be blank."""
    from tests.hub.test_console_i18n_browser import switch
    driver, _, _, _ = setup_page
    switch(driver, "fr")
    wait(driver, lambda d: d.execute_script("return tenaceI18n.locale()").startswith("fr"))
    said = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch("/api/session", {cache: "no-store"}).then((r) => r.json()).then((s) =>
          fetch("/api/setup?check=1", {method: "POST", headers: {
            "Content-Type": "application/json", "X-CSRF-Token": s.csrf},
            body: JSON.stringify({event: {}, sections: [{movement: "mitchell", tables: 3,
              pairs: {"3": ["Zoé Roux", "Łukasz Nowak", "山田 太郎"], "4": ["Ann", " "]}}]})}))
          .then((r) => r.json()).then((result) => done(result.errors.map((e) =>
            [e.error, tenaceI18n.text(e.error_text)])));""")
    french = "la paire 3 veut un ou deux noms, reçu Zoé Roux, Łukasz Nowak et 山田 太郎"
    assert [french, french] in said                 # the hub's words and the page's agree
    blank = "la paire 4 veut un ou deux noms, reçu Ann et (vide)"
    assert [blank, blank] in said
    assert not any("[" in hub_said or "[" in page_said for hub_said, page_said in said), said
    text = Text.of("setup_error.pair_names", pair=3, names=["Ann", "Bob", "Cid", "Dee"])
    assert render(text, "en") == "pair 3 wants one or two names, got Ann, Bob, Cid and Dee"
    assert render(text, "it").endswith("Ann, Bob, Cid e Dee")
