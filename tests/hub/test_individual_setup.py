"""An individual section's set-up (hub/section_setup.py): ``movement = "individual"`` with
``players`` (4·T, T prime to 6) or an individual ``.ASC`` movement file, every bad key named,
kept whole through the log's JSON; its partnerships and the players of each seat."""

from __future__ import annotations

import base64
import tomllib
from pathlib import Path
from typing import Any

import pytest

from bridgecore.cards import Side
from bridgecore.individual import partnership, rainbow_individual
from bridgecore.movement_files import write_asc
from hub.event import read_document, setup_from_json
from hub.room import Room
from hub.section_setup import SectionSetup
from tenace.sim.devices import DeviceEvent, apply_local
from tests.hub.test_console_setup import get, send_setup, waiting  # noqa: F401 - fixture
from tests.hub.test_table import DEALS, START
from wire.views import Pairs, TableView

HEAD = '[event]\nname = "Individual"\n[boards]\ngenerate = true\n[[section]]\nname = "A"\n'


def read(text: str, base: Path | None = None) -> tuple[object, list[str]]:
    return read_document(tomllib.loads(HEAD + text), base)


def test_an_individual_of_players_is_the_rainbow_played_by_its_partnerships() -> None:
    setup, problems = read('movement = "individual"\nplayers = 20\nrounds = 3\n'
                           '[section.pairs]\n7 = ["Player Seven"]\n')
    assert problems == [] and setup is not None
    section = setup.sections[0]   # type: ignore[attr-defined]
    assert section.individual == rainbow_individual(5, rounds=3)
    room = section.room_section()
    assert room.players("A2", 3) == section.individual.assignment(3, 2).seats
    a = section.movement.assignment(3, 2)
    assert (a.ns, a.ew) == (partnership(5, 3, 2, Side.NS), partnership(5, 3, 2, Side.EW))
    assert (a.ns, a.ew) == (23, 24)     # each partnership plays one round
    assert len(section.movement.pairs) == 2 * 5 * 3
    assert room.pairs == {7: ("Player Seven",)}
    assert section.summary("fr")[0].endswith("20 joueurs, 3 tours de 2 donnes, donnes 1-10")
    again = setup_from_json(setup.to_json())   # type: ignore[attr-defined]
    assert again.sections[0].individual == section.individual  # type: ignore[union-attr]


def test_an_individual_movement_file_is_read_and_kept_in_the_log(tmp_path: Path) -> None:
    schedule = rainbow_individual(7, rounds=4, boards_per_round=1)
    (tmp_path / "ind.asc").write_text(write_asc(schedule))
    setup, problems = read('movement = "individual"\nmovement_file = "ind.asc"\n'
                           'boards_per_round = 3\n', tmp_path)
    assert problems == [] and setup is not None
    section = setup.sections[0]   # type: ignore[attr-defined]
    assert section.individual is not None
    assert [a.seats for a in section.individual.assignments] == [
        a.seats for a in schedule.assignments]
    assert section.movement.boards == tuple(range(1, 22))
    again = setup_from_json(setup.to_json())   # type: ignore[attr-defined]
    assert again.sections[0].individual == section.individual  # type: ignore[union-attr]


@pytest.mark.parametrize(("keys", "problem"), [
    ("players = 18", "players: 4 a table, not 18"),
    ("players = 24", "a number of tables prime to 6"),
    ("", "players: an individual needs its number of players"),
    ("players = 20\ntables = 5", "tables: not for an individual"),
    ("players = 20\n[section.pairs]\n21 = [\"Nobody\"]", "pairs: player 21 does not play"),
])
def test_a_bad_individual_is_refused_naming_the_key(keys: str, problem: str) -> None:
    setup, problems = read(f'movement = "individual"\n{keys}\n')
    assert setup is None and len(problems) == 1 and problem in problems[0], problems


def test_players_only_for_an_individual() -> None:
    setup, problems = read('movement = "mitchell"\ntables = 5\nplayers = 20\n')
    assert setup is None and "players: only for an individual" in problems[0]


def test_the_table_state_names_each_seats_player_and_where_he_goes_next() -> None:
    """The rainbow: North stays, East moves up one table, South two, West three."""
    setup, problems = read('movement = "individual"\nplayers = 20\nrounds = 2\n'
                           'boards_per_round = 1\n[section.pairs]\n7 = ["Player Seven"]\n')
    assert problems == [] and setup is not None
    room = Room(setup.sections[0].room_section(), DEALS)   # type: ignore[attr-defined]
    state = room.tables["A2"].public_state()
    view = TableView.from_builtins(state)
    assert view.schedule.expected == Pairs(3, 4)          # round 1's partnerships at A2
    players = state["schedule"]["players"]
    assert players == {
        "N": {"number": 2, "name": None, "next": {"table": "A2", "seat": "N"}},
        "E": {"number": 7, "name": "Player Seven", "next": {"table": "A3", "seat": "E"}},
        "S": {"number": 12, "name": None, "next": {"table": "A4", "seat": "S"}},
        "W": {"number": 17, "name": None, "next": {"table": "A5", "seat": "W"}}}
    assert view.to_builtins()["schedule"]["players"] == players
    last = room.round_info("A2", 2)["players"]
    assert all(p["next"] is None for p in last.values())   # the last round: nowhere next
    pairs = read('movement = "howell"\ntables = 3\n')[0]
    plain = Room(pairs.sections[0].room_section(), DEALS)   # type: ignore[attr-defined]
    assert "players" not in plain.tables["A1"].public_state()["schedule"]


def test_each_player_checks_in_at_his_seat_and_a_stranger_is_told_to_the_director() -> None:
    """Law 5B: each player checks in from his seat's tablet with his number; the side's
    partnership is seated with both; a player the movement seats elsewhere this round is
    seated all the same and the director gets ``wrong_pair`` naming him."""
    section = SectionSetup("A", "individual", players=20, rounds=2, boards_per_round=1)
    room = Room(section.room_section(), DEALS)
    a = section.movement.assignment(1, 2)

    def checkin(seat: str, player: int) -> list[Any]:
        direction = "NS" if seat in "NS" else "EW"
        pair = a.ns if direction == "NS" else a.ew
        event = DeviceEvent("A2", f"A2-{seat}", "checkin", {
            "direction": direction, "pair": pair, "players": [{"number": player}],
            "seat": seat}, START)
        outcomes, alerts = apply_local(room, [event])
        assert outcomes[0].reply.status == "ack"
        return alerts

    assert checkin("N", 2) == [] and checkin("S", 12) == []
    assert room.tables["A2"].seated[Side.NS][:2] == (a.ns, [{"number": 2}, {"number": 12}])
    (alert,) = checkin("E", 8)               # player 8 plays East at table A3 this round
    assert alert.kind == "wrong_pair" and alert.law == "5B"
    assert alert.detail == ("player 8 checked in EW at table A2, round 1: the movement seats "
                            "players 7, 17 there (Law 5B)")
    assert alert.text.key == "alert.wrong_player"      # a message (docs/protocol.md 1)


def test_the_set_up_api_takes_an_individual_and_its_movement_file(
        waiting: Any) -> None:  # noqa: F811
    """docs/console-api.md: ``movement = "individual"`` with ``players``, or with an
    individual ``.ASC`` sent as ``movement_file``; the page proposes it among its movements
    (tests/hub/test_setup_individual_browser.py)."""
    hub, client, _, _ = waiting
    assert "individual" in get(client, "api/setup")[1]["defaults"]["movements"]
    asc = base64.b64encode(write_asc(rainbow_individual(7, rounds=2)).encode()).decode()
    status, result = send_setup(client, {"event": {}, "sections": [
        {"movement": "individual", "players": 20, "rounds": 2},
        {"name": "B", "movement": "individual", "boards_per_round": 1,
         "movement_file": {"name": "ind7.asc", "data": asc}}]}, check=True)
    assert status == 200 and result["ok"], result
    status, result = send_setup(client, {"event": {}, "sections": [
        {"movement": "individual", "players": 20, "rounds": 2}]})
    assert status == 200 and result["ok"], result
    section = hub.call(lambda: hub.room.sections[0])
    assert section.individual == rainbow_individual(5, rounds=2)
    status, result = send_setup(client, {"event": {}, "sections": [
        {"movement": "individual", "players": 22}]}, check=True)
    assert result == {"ok": False, "errors": [{"field": "sections[0].players",
                                               "error": "4 a table, not 22",
                                               "error_text": {
                                                   "key": "setup_error.players_four",
                                                   "values": {"n": 22}}}]}
