"""A late pair in the absent pair's place on the live hub (issue 25): 17 pairs set up as a
9-table Mitchell with pair 9 absent, round 1 played by the room simulator over MQTT (table
A9 sits out); the director's ``pair_add`` gives the 18th pair pair 9's place from round 2,
logged with his name; rounds 2 and 3 played by the simulator, table A9 with the late pair;
its boards scored against E = 9 (top 8, docs/scoring.md) and in the results file; the hub
stopped and started again on its log rebuilds the same movement, late pair and ranking."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from bridgecore.results_io import read_pbn_results
from hub.event import EventSetup, read_document, setup_from_json
from hub.service import Hub, HubRunner, data_log
from hub.session_export import export
from tests.hub.swiss_play import SEED, spare_devices, wait
from tests.hub.test_individual_live import play_round


def mitchell_setup(tmp_path: Path) -> EventSetup:
    text = (f'[event]\nname = "Club night"\nclock_tolerance = false\n'
            f'[boards]\nseed = "{SEED}"\n'
            '[[section]]\nname = "A"\nmovement = "mitchell"\ntables = 9\nmissing_pair = 9\n'
            'boards_per_round = 1\n')
    setup, problems = read_document(tomllib.loads(text), tmp_path)
    assert setup is not None, problems
    return setup


def test_a_late_pair_plays_the_sit_outs_seats_on_the_live_hub(
        embedded_broker: Any, tmp_path: Path, keyring: Any) -> None:
    setup = mitchell_setup(tmp_path)
    keyring.issue_all(spare_devices(setup.sections[0].ids, 3))
    url, data = embedded_broker.url, tmp_path / "hub"

    def hub_on() -> Hub:
        return Hub(data_log(data), url=url, setup=setup, setup_loader=setup_from_json,
                   tick_seconds=0.2, double_dummy=False, score_interval=0)

    def scored(running: HubRunner) -> int:
        ranking = running.call(lambda: hub.room.scoring.section("A").ranking_json())
        return int(sum(b["scored"] for b in ranking["boards"]))

    hub = hub_on()
    with HubRunner(hub) as running:
        section = hub.room.sections[0]
        play_round(url, section, setup.deals, 1)
        wait(lambda: scored(running) == 8)                       # A9 sat out
        done = running.call(lambda: hub.director(
            {"op": "pair_add", "section": "A", "pair": 9, "names": ["Ada", "Alan"],
             "from_round": 2}, account="dora"))
        assert done["ok"], done
        (logged,) = running.call(lambda: [r.data() for r in hub.log.of_type("pair_add")])
        assert logged == {"section": "A", "pair": 9, "names": ["Ada", "Alan"],
                          "from_round": 2, "by": "dora"}
        for r in (2, 3):
            play_round(url, hub.room.sections[0], setup.deals, r)
        wait(lambda: scored(running) == 8 + 9 + 9)               # A9 plays rounds 2 and 3
        card = running.call(lambda: hub.room.scoring.section("A").card(9))
        assert len(card) == 2
        a9 = running.call(lambda: hub.room.assignment("A9", 2))
        assert a9 is not None and (a9.ns, a9.plays) == (9, True)
        traveller = running.call(lambda: hub.room.scoring.section("A").traveller_json(
            a9.boards[0]))
        assert (traveller["expected"], traveller["top"]) == (9, 8)
        mine = [r for r in traveller["results"] if r["NS"] == 9]
        assert len(mine) == 1 and mine[0]["table"] == "A9" and mine[0]["round"] == 2
        assert mine[0]["ns_points"] + mine[0]["ew_points"] == 8
        # the results file credits the late pair with its board at A9
        pbn = running.call(lambda: export(hub.room, "results.pbn", "A")[0])
        rows = read_pbn_results(pbn.decode("utf-8")).rows
        assert sorted(r.result.board for r in rows if int(r.result.ns) == 9) == sorted(
            b for r in (2, 3) for b in running.call(
                lambda r=r: hub.room.assignment("A9", r)).boards)
        before = running.call(lambda: (hub.room.sections[0].movement,
                                       hub.room.late.snapshot(),
                                       hub.room.scoring.section("A").ranking_json()))
    hub = hub_on()                                               # a restart from the log
    assert (hub.room.sections[0].movement, hub.room.late.snapshot(),
            hub.room.scoring.section("A").ranking_json()) == before
