"""An individual event on the live hub: 20 players on 5 tables (bridgecore.individual's
rainbow), 3 rounds of 2 boards played by the room simulator over MQTT; the hub stopped after
round 1 and started again on its log rebuilds the same state, and the final ranking is per
player: each board matchpointed across the field by lines, each player credited with his
side's points (Law 78A), the ranking the same as the one worked out offline, with bridgecore
alone, from the hub's results file."""

from __future__ import annotations

import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from bridgecore.adjusted import Penalty, PenaltyUnit
from bridgecore.cards import Side
from bridgecore.individual import partnership, rainbow_individual
from bridgecore.movements import Movement
from bridgecore.ranking import Method, ScoringOptions, score_event
from bridgecore.results_io import method_of, read_pbn_results
from hub.event import EventSetup, read_document, setup_from_json
from hub.section import Section
from hub.service import Hub, HubRunner, data_log
from hub.session_export import ExportError, export
from tests.hub.swiss_play import SEED, play_section_round, spare_devices, wait

NAMES = {p: f"Player {p:02d}" for p in range(1, 21)}


def individual_setup(tmp_path: Path) -> EventSetup:
    text = (f'[event]\nname = "Individual"\nclock_tolerance = false\n'
            f'[boards]\nseed = "{SEED}"\n'
            '[[section]]\nname = "A"\nmovement = "individual"\nplayers = 20\nrounds = 3\n'
            'boards_per_round = 2\n[section.pairs]\n'
            + "".join(f'{p} = ["{n}"]\n' for p, n in NAMES.items()))
    setup, problems = read_document(tomllib.loads(text), tmp_path)
    assert setup is not None, problems
    return setup


def one_round(section: Section, round_: int) -> Section:
    """``section`` with only round ``round_`` in its movement: what the simulator plays."""
    m = section.movement
    assert m is not None
    cells = tuple(a for a in m.assignments if a.round == round_)
    return Section(section.name, Movement(m.tables, m.rounds, cells, m.boards_per_round),
                   tables=dict(section.tables), pairs=dict(section.pairs),
                   individual=section.individual)


def play_round(url: str, section: Section, deals: Any, round_: int) -> None:
    play_section_round(url, one_round(section, round_), deals, round_)


def state(hub: Hub) -> tuple[Any, ...]:
    room = hub.room
    return (room.scoring.section("A").ranking_json(),
            {tid: (t.round, sorted((str(s), v[0]) for s, v in t.seated.items()))
             for tid, t in room.tables.items()})


def test_individual_event_on_the_live_hub_ranked_per_player(
        embedded_broker: Any, tmp_path: Path, keyring: Any) -> None:
    setup = individual_setup(tmp_path)
    section_setup = setup.sections[0]
    assert section_setup.individual is not None and section_setup.movement.tables == 5
    keyring.issue_all(spare_devices(section_setup.ids, 3))
    url, data = embedded_broker.url, tmp_path / "hub"

    def hub_on() -> Hub:
        return Hub(data_log(data), url=url, setup=setup, setup_loader=setup_from_json,
                   tick_seconds=0.2, double_dummy=False, score_interval=0)

    def scored(running: HubRunner, rounds: int) -> bool:
        ranking = running.call(lambda: hub.room.scoring.section("A").ranking_json())
        return sum(b["scored"] for b in ranking["boards"]) == 5 * 2 * rounds

    hub = hub_on()
    section = hub.room.sections[0]
    with HubRunner(hub) as running:
        play_round(url, section, setup.deals, 1)
        wait(lambda: scored(running, 1))
        before = running.call(lambda: state(hub))
    # The hub goes mid-session; the one that comes back rebuilds the same state from its log.
    hub = hub_on()
    assert state(hub) == before
    with HubRunner(hub) as running:
        for r in (2, 3):
            play_round(url, section, setup.deals, r)
            wait(lambda r=r: scored(running, r))
        before_penalty = running.call(lambda: hub.room.scoring.section("A").ranking_json())
        # Law 90: a procedural penalty is one player's, named by his number; his partners
        # keep their score (the side form, two players at once, is refused).
        assert running.call(lambda: hub.director(
            {"op": "ruling", "kind": "penalty", "pair": 7, "amount": 1, "unit": "mp"}))["ok"]
        refused = running.call(lambda: hub.director(
            {"op": "ruling", "kind": "penalty", "table": "A1", "board": 1, "side": "NS",
             "amount": 1, "unit": "mp"}))
        assert "name the player" in refused["error"], refused
        wait(lambda: running.call(
            lambda: len(hub.room.scoring.section("A").ranking_json()["penalties"])) == 1)
        ranking = running.call(lambda: hub.room.scoring.section("A").ranking_json())
        results = running.call(lambda: export(hub.room, "results.pbn", "A")[0])
        traveller = running.call(lambda: hub.room.scoring.section("A").traveller_json(5))
        usebio = running.call(lambda: export(hub.room, "usebio.xml", "A")[0])
        with pytest.raises(ExportError, match="not for an individual"):
            running.call(lambda: export(hub.room, "bridgewebs.pbn", "A"))
    totals = {e["pair"]: e["total"] for e in before_penalty["ranking"]}
    assert {e["pair"]: e["total"] for e in ranking["ranking"]} == {
        **totals, 7: round(totals[7] - 1, 2)}
    assert ranking["individual"] is True
    # Each of the 20 players ranked under his own number and name, on his 6 boards.
    entries = ranking["ranking"]
    assert sorted(e["pair"] for e in entries) == list(range(1, 21))
    assert all(e["names"] == [NAMES[e["pair"]]] and e["boards"] == 6 for e in entries)
    # The rainbow keeps each player in his direction: North-South and East-West fields.
    assert ranking["field"] == "two-winner"
    assert {e["direction"] for e in entries if e["pair"] <= 5 or 10 < e["pair"] <= 15} == {"NS"}
    # The travellers name the partnerships of the round (protocol 12.2).
    for r in traveller["results"]:
        table = int(r["table"][1:])
        assert (r["NS"], r["EW"]) == (partnership(5, r["round"], table, Side.NS),
                                      partnership(5, r["round"], table, Side.EW))
    assert len(traveller["results"]) == 3 == ranking["expected"]   # 3 of the 5 rounds
    # Offline, from the results file alone (bridgecore): its ScoreTables give each line's
    # four players (PlayerId_North...), its TotalScoreTable each player's name.
    assert b'[Competition "Individuals"]' in results
    source = read_pbn_results(results.decode("utf-8"))
    assert source.problems == []
    rows = [row.result for row in source.rows]
    assert len(rows) == 30 and all(r.players is not None for r in rows)
    schedule = rainbow_individual(5, rounds=3, boards_per_round=2)
    seats = {partnership(5, a.round, a.table, side): a.seats
             for a in schedule.assignments for side in Side}
    assert all(seats[int(r.ns)] == seats[int(r.ew)] == r.players for r in rows)
    assert source.names == NAMES
    offline = score_event(rows, method_of(source.scoring)[0] or Method.MATCHPOINTS,
                          options=ScoringOptions(individual=True),
                          penalties=[Penalty(7, 1, PenaltyUnit.MATCHPOINTS)])
    want = sorted((p.pair, p.direction.value if p.direction else None, round(p.total, 2),
                   round(p.percent or 0, 2), p.rank) for p in offline.ranking)
    got = sorted((e["pair"], e["direction"], e["total"], e["percent"], e["rank"])
                 for e in entries)
    assert got == want
    # USEBIO: an INDIVIDUAL event, one PLAYER a participant with his place and total, each
    # traveller line with its four players.
    root = ET.fromstring(usebio)
    assert root.find("EVENT").get("EVENT_TYPE") == "INDIVIDUAL"
    players = root.findall(".//PARTICIPANTS/PLAYER")
    assert root.findall(".//PARTICIPANTS/PAIR") == [] and len(players) == 20
    by_number = {int(p.findtext("PLAYER_NUMBER")): p for p in players}
    for e in entries:
        player = by_number[e["pair"]]
        assert player.findtext("PLAYER_NAME") == NAMES[e["pair"]]
        assert player.findtext("PLACE").rstrip("=") == str(e["rank"])
        assert float(player.findtext("TOTAL_SCORE")) == pytest.approx(2 * e["total"])  # MP2
    lines = root.findall(".//BOARD/TRAVELLER_LINE")
    assert len(lines) == 30
    assert all(seats[int(line.findtext("NS_PAIR_NUMBER"))] == tuple(
        int(line.findtext(f"{seat}_PLAYER_NUMBER")) for seat in ("NORTH", "EAST", "SOUTH", "WEST"))
        for line in lines)
