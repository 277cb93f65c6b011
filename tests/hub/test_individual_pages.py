"""An individual's ranking on the results pages (hub/results_pages.py, hub/static/results.*):
20 players on 5 tables, 3 rounds of one board (each board played three times), served by a
real Console; the API's ranking per player, the public one over the boards finished
everywhere (each player credited with his side's points, Law 78A, as bridgecore scores the
same results), and the page in Debian's headless Chromium: a field per line, the players by
number and name, a player's penalty (Law 90), with a screenshot."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bridgecore.adjusted import BoardResult, Penalty, PenaltyUnit
from bridgecore.ranking import Method, ScoringOptions, score_event
from hub.console import Console
from hub.room import Room
from hub.section_setup import SectionSetup
from tests.hub.test_console import (  # noqa: F401 - the browser fixture
    Login,
    Loop,
    browser,
    make_users,
)
from tests.hub.test_live_scoring import Session
from tests.hub.test_results_pages import SHOTS, ResultsHub, cells, get, open_page
from tests.hub.test_table import DEALS

NAMES = {p: [f"Player {p:02d}"] for p in range(1, 21)}
SETUP = SectionSetup("A", "individual", players=20, rounds=3, boards_per_round=1, pairs=NAMES)


def games(skip: tuple[int, str] | None = None) -> list[tuple[int, str, int, str, int]]:
    """Every table's board of each round, each result drawn (seeded): 4♠ or 3NT made or not."""
    rng = random.Random(5)
    out = []
    for a in SETUP.movement.assignments:
        contract = rng.choice(["4S", "3NT", "2H"])
        if (a.round, f"A{a.table}") != skip:
            out.append((a.round, f"A{a.table}", a.boards[0], contract, rng.randint(7, 11)))
    return out


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Session, Console]]:
    """A console over the individual played but for table A5's board of round 3."""
    loop = Loop()
    session = Session(Room(SETUP.room_section(), DEALS))
    loop.call(session.play, games(skip=(3, "A5")))
    assert session.director({"op": "ruling", "kind": "penalty", "pair": 7, "amount": 1,
                             "unit": "mp"})["ok"]
    console = Console(ResultsHub(session), coalesce=0.05, users=make_users(tmp_path))
    loop.run(console.start())
    Login.director(console)
    try:
        yield session, console
    finally:
        loop.run(console.stop())
        loop.close()


def offline(session: Session, boards: set[int]) -> dict[int, tuple[str | None, float, int]]:
    """player -> (line, total, rank) by bridgecore over ``boards``, from the travellers."""
    scored = session.room.scoring.section("A")
    rows = [BoardResult(b, r["NS"], r["EW"], r["score_ns"], players=tuple(r["players"]))
            for b in boards for r in scored.traveller_json(b)["results"]]
    event = score_event(rows, options=ScoringOptions(individual=True, expected=3),
                        penalties=[Penalty(7, 1, PenaltyUnit.MATCHPOINTS)])
    return {int(p.pair): (None if p.direction is None else p.direction.value,
                          round(p.total, 2), p.rank) for p in event.ranking}


def test_individual_ranking_per_player_full_and_public(served: Any) -> None:
    session, console = served
    _, _, data = get(console.url + "api/results")
    (section,) = data["sections"]
    assert section["individual"] is True and section["field"] == "two-winner"
    got = {e["pair"]: (e["direction"], e["total"], e["rank"]) for e in section["ranking"]}
    assert got == offline(session, {1, 2, 3, 4, 5})
    assert all(e["names"] == NAMES[e["pair"]] for e in section["ranking"])
    # The public sees the boards every table has finished: not the one A5 has still to play.
    unfinished = SETUP.movement.assignment(3, 5).boards[0]
    _, _, public = get(console.url + "api/results", public=True)
    shown = {1, 2, 3, 4, 5} - {unfinished}
    assert {b["board"] for b in public["sections"][0]["boards"]} == shown
    ranked = {e["pair"]: (e["direction"], e["total"], e["rank"])
              for e in public["sections"][0]["ranking"]}
    assert ranked == offline(session, shown)


def test_browser_individual_ranking_page(served: Any, browser: Any) -> None:  # noqa: F811
    _, console = served
    open_page(browser, console.url + "results")
    heading = browser.find_element("css selector", "#section-A h2").text
    assert "individual" in heading
    ns = browser.find_element("id", "ranking-A-NS")
    ew = browser.find_element("id", "ranking-A-EW")
    assert ns.find_element("css selector", "thead th:nth-child(2)").text == "Player"
    players = {int(r.get_attribute("data-pair")): cells(r)
               for table in (ns, ew) for r in table.find_elements("css selector", "tbody tr")}
    assert sorted(players) == list(range(1, 21))
    assert all(row[1] == str(p) and row[2] == NAMES[p][0] for p, row in players.items())
    assert ns.find_elements("css selector", "tbody a") == []   # no pair's card for a player
    assert "Player 7 −1 mp" in browser.find_element("id", "section-A").text
    assert "Law 90 penalty of 1 mp to player 7" in browser.find_element("id", "rulings").text
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "individual-ranking.png"))
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_an_individual_scored_in_imps_credits_each_player_his_sides_imps() -> None:
    """Law 78B: the event's ``imps`` (IMPs against the datum) per player, as bridgecore."""
    session = Session(Room(SETUP.room_section("imps"), DEALS))
    session.play(games())
    scored = session.room.scoring.section("A")
    data = scored.ranking_json()
    assert data["method"] == "butler" and data["units"] == "IMPs" and data["individual"]
    rows = [BoardResult(b, r["NS"], r["EW"], r["score_ns"], players=tuple(r["players"]))
            for b in range(1, 6) for r in scored.traveller_json(b)["results"]]
    event = score_event(rows, Method.BUTLER, options=ScoringOptions(individual=True))
    assert {e["pair"]: (e["total"], e["rank"]) for e in data["ranking"]} == {
        int(p.pair): (round(p.total, 2), p.rank) for p in event.ranking}
    assert all(e["percent"] is None for e in data["ranking"])


def test_the_guide_cards_of_an_individual_are_each_players_way(served: Any) -> None:
    """Law 8A: a guide card per player (his table and seat each round), the table cards
    with the players of each side."""
    _, console = served
    _, _, data = get(console.url + "api/evening/guide")
    (section,) = data["sections"]
    assert section["individual"] is True and len(section["pairs"]) == 20
    west = next(p for p in section["pairs"] if p["pair"] == 16)   # West 16 starts at A1
    assert [(r["table"], r["direction"]) for r in west["rounds"]] == [
        ("A1", "W"), ("A4", "W"), ("A2", "W")]                   # three tables up a round
    assert west["names"] == ["Player 16"]
    a1 = next(t for t in section["tables"] if t["table"] == "A1")
    assert [r["players"] for r in a1["rounds"]] == [
        list(SETUP.individual.assignment(r, 1).seats) for r in (1, 2, 3)]  # type: ignore[union-attr]
