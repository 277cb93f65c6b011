"""``tenace sim`` plays a whole Swiss teams event against a live hub (``tenace hub`` in its
own process): it learns each round as the hub draws it, from the tables' views
(tenace/sim/swiss.py), plays to the last round, and the final ranking the hub publishes
(``results/ranking/A``: the Swiss standings, VPs with the bye and the tie-breaks) equals
the one worked out again offline from the hub's results file (Law 78B IMPs, Law 78D VPs)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.event import EventSetup
from hub.mosquitto import Mosquitto
from hub.section import Section
from hub.session_export import export
from tenace.cli import main
from tenace.sim.chaos import HubProcess
from tenace.sim.devices import envelopes
from tenace.sim.session import simulate
from tenace.sim.swiss import next_pairings
from tests.hub.swiss_play import SEED, hub_pairings, offline_standings, swiss_setup

EVENT = f"""[event]
name = "Swiss teams"
clock_tolerance = false
[boards]
seed = "{SEED}"
[[section]]
name = "A"
movement = "swiss_teams"
teams = 5
rounds = 3
boards_per_round = 2
"""


@pytest.fixture
def mosquitto(tmp_path_factory: pytest.TempPathFactory, keyring: Any) -> Iterator[Mosquitto]:
    with Mosquitto(tmp_path_factory.mktemp("mosquitto"), accounts=keyring.accounts) as broker:
        yield broker


def test_tenace_sim_plays_a_swiss_teams_event_to_its_final_ranking(
        mosquitto: Mosquitto, tmp_path: Path, keyring: Any,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "swiss.toml"
    path.write_text(EVENT, encoding="utf-8")
    setup = EventSetup.load(str(path))
    # Its devices (A1-tab... A4-rdr) and the director's account are the keyring's already.
    url = mosquitto.url
    process = HubProcess(url, tmp_path / "hub", setup)
    try:
        process.start()
        assert main(["sim", "--json", "--hub", url, "--event", str(path), "--seed", "5"]) == 0
        report = json.loads(capsys.readouterr().out)
    finally:
        process.stop()
    assert report.get("rejected") is None and report["missed"] == []
    swiss = report["swiss"]["A"]
    room, failed = process.room(setup)
    assert failed == 0
    pairings = hub_pairings(room)
    # Every round played, as the hub drew it: 3 rounds, a bye each (5 teams), no rematch.
    assert swiss["pairings"] == [[p.round, p.home, p.away] for p in pairings]
    assert [p.round for p in pairings] == [1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert room.swiss.complete("A", 3)
    met = [frozenset((p.home, p.away)) for p in pairings if p.away is not None]
    assert len(met) == len(set(met)) == 6
    results = export(room, "results.pbn", "A")[0]
    offline = offline_standings(results, pairings, teams=True, entrants=5,
                                boards_per_round=2)
    assert [(e["pair"], e["rank"], e["total"]) for e in swiss["ranking"]] == [
        (s["contestant"], s["rank"], s["vp"]) for s in offline]
    assert sum(s["byes"] for s in offline) == 3


def test_each_next_round_is_read_from_the_tables_views_byes_included(tmp_path: Path) -> None:
    """Seven pairs (a bye each round), 3 rounds of one board played in the room: before the
    hub draws round r + 1 the tables' views of round r give no round; once it has, they
    give the round as drawn, the pair back from its bye seated where the views lack one."""
    setup = swiss_setup(tmp_path, "swiss_pairs", 7, 3, 1, "seed = 4\n")
    room = setup.build_room()
    section = room.sections[0]
    settings = section.swiss
    assert settings is not None
    deals = {n: room.deal(n) for n in setup.deals}
    devices: dict[str, Any] = {}
    for r in (1, 2):
        known = list(room.swiss.pairings["A"])
        drawn = [p for p in known if p.round == r]
        script = simulate(Section("A", settings.movement(drawn), tables=dict(section.tables)),
                          deals, seed=r, start=1_000_000.0 * r)
        for table, env in envelopes(script.merged(), "", devices):
            assert room.apply(table, env, env.time).reply.status == "ack"

        def views() -> dict[str, Any]:
            return {tid: room.tables[tid].public_state() for tid in section.tables}

        assert next_pairings(section, known, views(), r) is None   # not drawn yet
        for body in room.swiss.due():
            room.fact("swiss_round", body, 1_000_000.0 * r + 60_000)
        assert room.swiss.drawn("A") == r + 1
        read = next_pairings(section, known, views(), r)
        assert read is not None
        assert sorted(p.to_json() for p in read) == sorted(
            p.to_json() for p in room.swiss.pairings["A"] if p.round == r + 1)
        bye = next(p.home for p in drawn if p.away is None)
        assert any(bye in (p.home, p.away) for p in read if p.away is not None)
