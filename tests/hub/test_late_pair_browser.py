"""The evening page (hub/static/evening.*) in Debian's headless Chromium against a real
Console: 17 pairs on a 9-table Mitchell, pair 9 absent, round 1 played and round 2 started.
The page lists pair 9 as the sit-out's place; the director clicks it, names the late pair
and adds it with "From round" left empty (the round in progress): the command is logged
with his name and round 2, table A9 expects pair 9 from round 2, and the row lists the
board A9 did not play in round 1 as missed at the sit-out, no result, no score imposed. Screenshot:
console-evening-late-pair.png (tests/hub/test_console_session.py's folder)."""

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
from tests.hub.test_console_session import SHOTS, EveningHub, _row, _said, _type
from tests.hub.test_individual_evening_browser import _click, _edit
from tests.hub.test_late_pair_place import room, round_plays
from tests.hub.test_live_scoring import Session


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[EveningHub, Console]]:
    loop = Loop()
    session = Session(room())
    loop.call(session.play, round_plays(session, 1))
    loop.call(session.start_round, 2)
    hub = EveningHub(session)
    console = Console(hub, coalesce=0.05, users=make_users(tmp_path / "users"))
    loop.run(console.start())
    Login.director(console)
    try:
        yield hub, console
    finally:
        loop.run(console.stop())
        loop.close()


def test_browser_a_late_pair_takes_the_sit_outs_place(browser: Any, served: Any  # noqa: F811
                                                      ) -> None:
    hub, console = served
    facts = hub.session.facts
    browser_login(browser, console)
    browser.get(console.url + "evening")
    wait(browser, lambda d: len(d.find_elements("css selector", "#pairs tbody tr")) == 18)
    assert "absent: the sit-out's place" in _row(browser, 9).text
    assert "absent" not in _row(browser, 10).text
    assert browser.find_element("id", "pair-from").get_attribute("placeholder") == "2"
    _edit(browser, 9)
    wait(browser, lambda d: d.find_element("id", "pair-number").get_attribute("value") == "9")
    _type(browser, "pair-name1", "Gil Grant")
    _type(browser, "pair-name2", "Hal Hart")
    _click(browser, "pair-add")
    wait(browser, lambda d: "Gil Grant" in _row(d, 9).text and "late" in _row(d, 9).text)
    assert _said(browser) == "Pair 9 of section A added."
    assert facts[-1][:2] == ("pair_add", {"section": "A", "pair": 9,
                                          "names": ["Gil Grant", "Hal Hart"],
                                          "from_round": 2, "by": "dora"})
    assert hub.room.round_info("A9", 2)["expected"] == {"NS": 9, "EW": 17}
    assert "absent" not in _row(browser, 9).text
    (missed,) = hub.room.assignment("A9", 1).boards
    shown = _row(browser, 9).find_element("css selector", ".sit-out-missed")
    assert shown.text == f"Boards missed at the sit-out (1): {missed}, no result"
    assert _row(browser, 9).find_elements("css selector", "button.rule-unplayed") == []
    assert not [f for f in facts if f[0] == "ruling"]          # never imposed
    offer = _row(browser, 9).find_element("css selector", "button.rule-sitout")
    assert offer.text == "A- to the pair alone (1)"
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "console-evening-late-pair.png"))
    # the director chooses it: A- to pair 9's side alone (Law 12C2), nobody opposite
    _click(browser, "pairs tr[data-pair='9'] button.rule-sitout")
    wait(browser, lambda d: d.find_elements(
        "css selector", "#pairs tr[data-pair='9'] .sit-out-missed") == [])
    assert facts[-1][0] == "ruling"
    assert {k: facts[-1][1][k] for k in ("kind", "table", "board", "round", "ns")} == {
        "kind": "artificial", "table": "A9", "board": missed, "round": 1, "ns": "A-"}
    assert "ew" not in facts[-1][1] and facts[-1][1]["by"] == "dora"
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
