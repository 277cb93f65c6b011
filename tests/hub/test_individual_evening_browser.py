"""The evening page of an individual (hub/static/evening.*), in Debian's headless Chromium
against a real Console: 20 players on 5 tables, rounds 1 and 2 played. The page lists the
players, not the partnerships; a player withdrawn (his results stay), a substitute named for
some rounds (player 1, the player himself: no "in place of" choice), a name corrected (one
name a player), a late player refused when he has played, the section's results files
(no pairs-only layout), the page in French; the same page on the live hub, its round 1
played by the room simulator. Screenshot: console-evening-individual.png
(tests/hub/test_console_session.py's folder: TENACE_SCREENSHOTS=docs/screenshots)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.console import Console
from hub.room import Room
from tests.hub.test_console import (  # noqa: F401 - the browser fixture
    Login,
    Loop,
    browser,
    browser_login,
    make_users,
    wait,
)
from tests.hub.test_console_session import SHOTS, EveningHub, _row, _said, _type
from tests.hub.test_individual_pages import SETUP, games
from tests.hub.test_live_scoring import Session
from tests.hub.test_table import DEALS


def _press(driver: Any, selector: str) -> None:
    """Click what ``selector`` finds, brought to the middle of the window (the bar stays
    on top), found again when the page redrew it meanwhile (a stale element)."""
    def press(d: Any) -> bool:
        button = d.find_element("css selector", selector)
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
        return True
    wait(driver, press)


def _edit(driver: Any, player: int) -> None:
    """The row's ✎."""
    _press(driver, f"#pairs tr[data-pair='{player}'] button.quiet")


def _click(driver: Any, element_id: str) -> None:
    _press(driver, f"#{element_id}")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[EveningHub, Console]]:
    loop = Loop()
    session = Session(Room(SETUP.room_section(), DEALS))
    loop.call(session.play, [g for g in games() if g[0] <= 2])
    hub = EveningHub(session)
    console = Console(hub, coalesce=0.05, users=make_users(tmp_path / "users"))
    loop.run(console.start())
    Login.director(console)
    try:
        yield hub, console
    finally:
        loop.run(console.stop())
        loop.close()


def test_browser_the_evening_of_an_individual_player_by_player(
        browser: Any, served: Any) -> None:  # noqa: F811
    from selenium.webdriver.support.ui import Select

    hub, console = served
    facts = hub.session.facts
    browser_login(browser, console)
    browser.get(console.url + "evening")
    wait(browser, lambda d: len(d.find_elements("css selector", "#pairs tbody tr")) == 20)
    assert browser.find_element("id", "pairs-title").text == "Players"
    assert browser.find_element("id", "pairs-number").text == "Player"
    wait(browser, lambda d: "Player 07" in _row(d, 7).text)
    assert not browser.find_element("id", "pair-name2").is_displayed()
    assert not browser.find_element("id", "sub-player").is_displayed()
    assert browser.find_element("id", "pair-add").text == "Add a late player"
    assert browser.find_element("id", "pair-rename").text == "Correct the name"
    # Player 7 leaves: struck out, his two boards still scored
    _edit(browser, 7)
    wait(browser, lambda d: d.find_element("id", "pair-number").get_attribute("value") == "7")
    _type(browser, "withdraw-text", "unwell")
    _click(browser, "withdraw")
    wait(browser, lambda d: "withdrawn" in (_row(d, 7).get_attribute("class") or ""))
    assert _said(browser) == "Player 7 of section A withdrawn; his results stay."
    assert facts[-1][:2] == ("pair_withdraw", {"section": "A", "pair": 7, "text": "unwell",
                                               "by": "dora"})
    assert len(hub.room.scoring.section("A").played(7)) == 2
    # Zoé Roux plays for player 3 in rounds 2 and 3, with her member number
    _edit(browser, 3)
    wait(browser, lambda d: d.find_element("id", "pair-number").get_attribute("value") == "3")
    _type(browser, "sub-name", "Zoé Roux")
    _type(browser, "sub-rounds", "2-3")
    _type(browser, "sub-member", "1009")
    _click(browser, "sub-do")
    wait(browser, lambda d: "Zoé Roux in place of Player 03, rounds 2, 3" in _row(d, 3).text)
    assert _said(browser) == "Zoé Roux is named for those rounds."
    assert facts[-1][:2] == ("substitute", {"section": "A", "pair": 3, "player": 1,
                                            "name": "Zoé Roux", "rounds": [2, 3],
                                            "member": 1009, "by": "dora"})
    entry = next(e for e in hub.room.scoring.section("A").ranking() if e["pair"] == 3)
    assert entry["names"] == ["Player 03"] and entry["substitutes"] == [
        {"name": "Zoé Roux", "for": "Player 03", "player": 3, "rounds": [2, 3]}]
    # Player 4's name corrected: one name, his number and results kept
    _edit(browser, 4)
    wait(browser, lambda d: d.find_element("id", "pair-name1").get_attribute("value")
         == "Player 04")
    _type(browser, "pair-name1", "Player Four")
    _click(browser, "pair-rename")
    wait(browser, lambda d: "Player Four" in _row(d, 4).text)
    assert facts[-1][:2] == ("pair_names", {"section": "A", "pair": 4,
                                            "names": ["Player Four"], "by": "dora"})
    assert _said(browser) == "Name of player 4 of section A corrected."
    # a late player must be one who has neither a name nor a board played
    _click(browser, "pair-add")
    wait(browser, lambda d: "error" in d.find_element("id", "message").get_attribute("class"))
    assert _said(browser) == ("Adding a late player: player 4 of section A already has a "
                              "name or results (correct his name instead)")
    # the results files of an individual: no layout of pairs
    links = wait(browser, lambda d: [a.get_attribute("href") for a in
                                     d.find_elements("css selector", "#exports a")])
    assert any("usebio.xml" in h for h in links) and any("results.pbn" in h for h in links)
    assert not any("bridgewebs.pbn" in h or "ffb.pbn" in h for h in links)
    assert browser.find_elements("css selector", "#bw-section option") == []
    # Round 3 starts without him: his board there is offered to be ruled, and is, for his
    # side (his partner too, Law 12C3), A+ for the other (Law 12C2)
    wait(browser, lambda d: not _row(d, 7).find_elements("css selector", "button.rule-unplayed"))
    _type(browser, "round-number", "3")
    _click(browser, "round-start")
    wait(browser, lambda d: d.find_elements("css selector", "#pairs button.rule-unplayed"))
    offer = "#pairs tr[data-pair='7'] button.rule-unplayed"
    assert wait(browser, lambda d: d.find_element("css selector", offer).text) == (
        "Boards not played (1): A- his side, A+ the other")
    seat = next(a for a in SETUP.individual.assignments if a.round == 3 and 7 in a.seats)
    side = "NS" if seat.seats.index(7) in (0, 2) else "EW"
    browser.execute_script("window.scrollTo(0, 0)")
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "console-evening-individual.png"))
    _press(browser, offer)
    wait(browser, lambda d: not _row(d, 7).find_elements("css selector", "button.rule-unplayed"))
    fact, ruling, _ = facts[-1]
    assert (fact, ruling["kind"], ruling["table"], ruling["round"], ruling["board"]) == (
        "ruling", "artificial", f"A{seat.table}", 3, seat.boards[0])
    assert (ruling["ns"], ruling["ew"]) == (("A-", "A+") if side == "NS" else ("A+", "A-"))
    assert ruling["text"] == "withdrawn"
    assert len(hub.room.scoring.section("A").played(7)) == 3
    line = next(r for r in hub.room.scoring.section("A").lines[seat.boards[0]]
                if (r["table"], r["round"]) == (f"A{seat.table}", 3))
    assert set(line["players"]) == set(seat.seats) and line["contract"] is None
    # in French
    Select(browser.find_element("id", "lang")).select_by_value("fr")
    wait(browser, lambda d: d.find_element("id", "pairs-title").text == "Joueurs")
    assert browser.find_element("id", "pair-add").text == "Ajouter un joueur retardataire"
    wait(browser, lambda d: "Zoé Roux à la place de Player 03, tours 2, 3" in _row(d, 3).text)
    Select(browser.find_element("id", "lang")).select_by_value("en")
    wait(browser, lambda d: d.find_element("id", "pairs-title").text == "Players")


def test_browser_check_in_names_accepted_player_by_player(browser: Any, served: Any  # noqa: F811
                                                          ) -> None:
    """The set-up page's check-ins of an individual: each player's typed name has its own
    **Accept** (``checkin_accept`` with ``player``): the name becomes that player's, his
    partner's stays as it was."""
    from tenace.sim.devices import DeviceEvent, envelopes

    hub, console = served
    session = hub.session
    section = session.room.sections[0]
    assert session.room.tables["A2"].round == 2            # the round it last played
    north, _, south, _ = section.players("A2", 2) or (0, 0, 0, 0)
    ns = session.room.tables["A2"].pairs(2)[0]
    session.now += 5
    events = [DeviceEvent("A2", "A2-tab", "checkin", {
        "direction": "NS", "pair": ns, "players": [
            {"number": north, "name": "Gaëlle Durand"}, {"number": south, "name": "Jo"}]},
        session.now)]
    for tid, env in envelopes(events, devices=session.devices):
        assert session.room.apply(tid, env, env.time).reply.status == "ack"
    browser_login(browser, console)
    browser.get(console.url + "setup")
    wait(browser, lambda d: len(d.find_elements("css selector", "#checkins button.accept")) == 2)
    accept = f"#checkins button[data-player='{north}']"
    _press(browser, accept)
    wait(browser, lambda d: not d.find_element("css selector", accept).is_enabled())
    fact, body, _ = hub.session.facts[-1]
    assert (fact, body["pair"], body["names"]) == ("pair_names", north, ["Gaëlle Durand"])
    assert section.pairs[north] == ("Gaëlle Durand",)
    assert section.pairs[south] == (f"Player {south:02d}",)
    # Seen again: North's name is his already (no button), South's still to accept.
    browser.refresh()
    wait(browser, lambda d: d.find_elements("css selector", "#checkins .accepted")
         and len(d.find_elements("css selector", "#checkins button.accept")) == 1)
    assert browser.find_elements("css selector", f"#checkins button[data-player='{south}']")


def test_browser_the_evening_page_on_the_live_hub(browser: Any,  # noqa: F811
                                                  embedded_broker: Any, tmp_path: Path,
                                                  keyring: Any) -> None:
    """The same page against the hub itself (hub.service with its console): the 20-player
    individual's round 1 played by the room simulator over MQTT, then from the page player 6
    withdrawn and a substitute named for player 2 in round 2: each command logged by the hub
    with the user's name, the ranking naming the substitute, and ``results.pbn`` downloaded
    from the page giving both names."""
    import urllib.request

    from bridgecore.results_io import read_pbn_results
    from hub.event import setup_from_json
    from hub.service import Hub, HubRunner, data_log
    from tests.hub.swiss_play import play_section_round, spare_devices
    from tests.hub.swiss_play import wait as wait_for
    from tests.hub.test_individual_evening import round_of, setup_of

    setup = setup_of(tmp_path)
    keyring.issue_all(spare_devices(setup.sections[0].ids, 1))
    users = make_users(tmp_path / "users")
    hub = Hub(data_log(tmp_path / "hub"), url=embedded_broker.url, setup=setup,
              setup_loader=setup_from_json, tick_seconds=0.2, double_dummy=False,
              score_interval=0, console=("127.0.0.1", 0), console_options={"users": users})
    with HubRunner(hub) as running:
        section = hub.room.sections[0]
        play_section_round(embedded_broker.url, round_of(section, 1), setup.deals, 1)
        wait_for(lambda: running.call(lambda: sum(
            b["scored"] for b in hub.room.scoring.section("A").ranking_json()["boards"])) == 10)
        assert isinstance(hub.console, Console)
        browser_login(browser, hub.console)
        browser.get(hub.console.url + "evening")
        wait(browser, lambda d: len(d.find_elements("css selector", "#pairs tbody tr")) == 20)
        assert browser.find_element("id", "pairs-title").text == "Players"
        _edit(browser, 6)
        _click(browser, "withdraw")
        wait(browser, lambda d: "withdrawn" in (_row(d, 6).get_attribute("class") or ""))
        _edit(browser, 2)
        _type(browser, "sub-name", "Zoé Roux")
        _type(browser, "sub-rounds", "2")
        _click(browser, "sub-do")
        wait(browser, lambda d: "Zoé Roux in place of Player 02, rounds 2" in _row(d, 2).text)
        assert running.call(lambda: hub.room.late.snapshot())["withdrawn"] == ["A:6"]
        facts = running.call(lambda: [(r.type, r.data()) for kind in ("pair_withdraw",
                                                                     "substitute")
                                      for r in hub.log.of_type(kind)])
        assert [(k, b["pair"], b["by"]) for k, b in facts] == [("pair_withdraw", 6, "dora"),
                                                               ("substitute", 2, "dora")]
        entry = running.call(lambda: next(e for e in hub.room.scoring.section("A").ranking()
                                          if e["pair"] == 2))
        assert entry["names"] == ["Player 02"] and entry["substitutes"] == [
            {"name": "Zoé Roux", "for": "Player 02", "player": 2, "rounds": [2]}]
        link = browser.find_element("css selector", "#exports a[href*='results.pbn']")
        cookies = "; ".join(f"{c['name']}={c['value']}" for c in browser.get_cookies())
        request = urllib.request.Request(link.get_attribute("href"),
                                         headers={"Cookie": cookies})
        with urllib.request.urlopen(request, timeout=20) as answer:
            pbn = answer.read().decode("utf-8")
        assert read_pbn_results(pbn).names[2] == "Player 02 - Zoé Roux"
