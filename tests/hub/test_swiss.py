"""Swiss sections in the hub without a broker (hub/swiss.py): the set-up's checks, its JSON
read back, round 1 from the set-up, a logged ``swiss_round`` that is the movement from then on
(replayed as it was drawn, never drawn again), the director's ``swiss_draw`` and its refusals,
and ``GET /api/swiss`` for the console's users only."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from hub.director import parse_command
from hub.errors import ConfigError
from hub.event import EventSetup, setup_from_json
from hub.section_setup import SectionSetup
from tests.hub.swiss_play import swiss_setup
from tests.hub.test_console import Login, make_users
from tests.hub.test_console_setup import start_hub
from tests.hub.test_event import error


def test_a_swiss_section_is_checked_with_every_problem_named(tmp_path: Path) -> None:
    message = error(tmp_path, '[[section]]\nmovement = "swiss_teams"\nteams = 1\n'
                              'entrants = 4\nbye_vp = 30\nrelay = true\n')
    for problem in ("rounds: a Swiss teams needs its number of rounds",
                    "teams: a Swiss teams needs at least 2, not 1",
                    "entrants: not for a Swiss teams", "relay: not for a Swiss teams",
                    'bye_vp: 0 to 20 VPs or "average", not 30.0'):
        assert problem in message, message
    message = error(tmp_path, '[[section]]\nmovement = "swiss_pairs"\nentrants = 6\n'
                              'rounds = 6\n')
    assert "rounds: 6 rounds for 6 entrants: at most 5 without a rematch" in message
    message = error(tmp_path, '[[section]]\nmovement = "swiss_pairs"\nrounds = 3\n')
    assert "entrants: a Swiss pairs needs its number of entrants" in message


def test_the_set_up_reads_back_from_its_json_and_plays_every_rounds_boards(
        tmp_path: Path) -> None:
    setup = swiss_setup(tmp_path, "swiss_pairs", 9, 4, 3, 'seed = 5\nbye_vp = "average"\n')
    assert setup_from_json(json.loads(json.dumps(setup.to_json()))) == setup
    assert sorted(setup.deals) == list(range(1, 13))   # 4 rounds of 3 boards
    section = setup.sections[0]
    assert section.ids == ("A1", "A2", "A3", "A4") and section.movement.drawn == 1
    room = setup.build_room()
    assert room.sections[0].scoring == "imps"    # IMPs against the datum
    assert [p.round for p in room.swiss.pairings["A"]] == [1] * 5


def test_a_logged_round_is_the_movement_and_is_replayed_as_drawn(tmp_path: Path) -> None:
    """The fact says 1 v 4, 2 v 3 (not what the standings would draw now): a room that
    replays it seats those pairs, whatever the scores say."""
    setup = swiss_setup(tmp_path, "swiss_teams", 4, 3, 2)
    room = setup.build_room()
    fact = {"section": "A", "round": 2, "pairings": [[1, 4], [2, 3]], "order": [1, 2, 3, 4],
            "by": "hub"}
    room.fact("swiss_round", fact, 1000.0)
    assert room.assignment("A1", 2) is not None
    cells = [(a.table, a.ns, a.ew, a.boards) for a in room.sections[0].movement.round(2)]
    assert cells == [(1, 1, 8, (3, 4)), (2, 7, 2, (3, 4)), (3, 3, 6, (3, 4)), (4, 5, 4, (3, 4))]
    assert room.round_info("A1", 1)["next"]["NS"] == {"pair": 1, "table": "A1",
                                                       "direction": "NS"}
    again = setup.build_room()
    again.fact("swiss_round", fact, 1000.0)
    assert again.snapshot()["swiss"] == room.snapshot()["swiss"]
    with pytest.raises(ConfigError, match="has drawn round 2, not ready for round 2"):
        room.fact("swiss_round", fact, 1001.0)
    with pytest.raises(ConfigError, match="plays twice"):
        room.fact("swiss_round", dict(fact, round=3, pairings=[[1, 2], [1, 3]]), 1002.0)


def test_the_directors_draw_and_its_refusals(tmp_path: Path) -> None:
    setup = swiss_setup(tmp_path, "swiss_teams", 4, 2, 2)
    room = setup.build_room()
    kind, body = parse_command({"op": "swiss_draw", "section": "A"}, room, "dora")
    assert kind == "swiss_round" and body["round"] == 2 and body["by"] == "dora"
    assert body["pairings"] == [[1, 3], [2, 4]]   # nothing scored: standings by number
    room.fact(kind, body, 1000.0)
    with pytest.raises(ConfigError, match="has drawn all its 2 rounds"):
        parse_command({"op": "swiss_draw", "section": "A"}, room, "dora")
    with pytest.raises(ConfigError, match="no Swiss section 'B'"):
        parse_command({"op": "swiss_draw", "section": "B"}, room, "dora")
    mitchell = EventSetup((SectionSetup("A", tables=3, boards_per_round=1),),
                          setup.deals).build_room()
    with pytest.raises(ConfigError, match="no Swiss section 'A'"):
        parse_command({"op": "swiss_draw", "section": "A"}, mitchell, "dora")


def test_the_swiss_api_is_for_the_consoles_users(tmp_path: Path, embedded_broker: Any) -> None:
    setup = swiss_setup(tmp_path, "swiss_pairs", 5, 3, 2)
    users = make_users(tmp_path / "users")
    with start_hub(tmp_path / "data", embedded_broker.url, users, setup) as hub:
        console = hub.console
        assert console is not None
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(console.url + "api/swiss", timeout=5)
        assert refused.value.code == 401
        refused.value.close()           # the error holds the answer's connection
        viewer = Login(console)
        assert viewer.login("vic")[0] == 200
        with viewer.open(console.url + "api/swiss") as r:
            data = json.loads(r.read())
        section = data["sections"][0]
        assert section["kind"] == "swiss_pairs" and section["drawn"] == 1
        assert section["pairings"][0]["matches"] == [
            {"home": 1, "away": 2, "tables": ["A1"], "boards": 0, "imps": None, "vp": None},
            {"home": 3, "away": 4, "tables": ["A2"], "boards": 0, "imps": None, "vp": None},
            {"home": 5, "away": None, "tables": [], "boards": 0, "imps": None, "vp": None}]
        assert [s["vp"] for s in section["standings"]] == [0.0] * 5   # no bye counted yet
        with viewer.open(console.url + "swiss") as r:
            assert b'<script src="/static/swiss.js"' in r.read()
