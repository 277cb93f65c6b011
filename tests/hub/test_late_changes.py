"""The director's late changes (hub.late_changes through hub.director): a late pair, a pair
withdrawn, names corrected, the round clock paused, resumed and lengthened, a board
cancelled; each logged with the account that gave it, replayed to the same room, and
nothing played lost."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from bridgecore.movements import mitchell
from hub.director import parse_command
from hub.errors import ConfigError
from hub.results_pages import overview
from hub.room import Room, Section
from tests.hub.test_director import DEALS, START, Tables, make_room


@dataclass
class _Fact:
    type: str
    payload: str
    hub_time: float
    source: str = "director"
    table_id: str | None = None

    def data(self) -> Any:
        return json.loads(self.payload)


class Director:
    """Gives commands as the console does, keeping the facts logged."""

    def __init__(self, room: Room):
        self.room = room
        self.log: list[_Fact] = []

    def __call__(self, t: float, account: str = "anne", **command: Any) -> dict[str, Any]:
        fact, body = parse_command(command, self.room, account)
        self.room.fact(fact, body, t)
        self.log.append(_Fact(fact, json.dumps(body), t))
        return body


def played_room() -> tuple[Room, Director]:
    """A room where table A1 has finished its first board (pairs 1 and 7 in the 6-table
    Mitchell)."""
    room = make_room()
    tables = Tables(room)
    a = room.assignment("A1", 1)
    assert a is not None
    tables.sit("A1", a.boards[0])
    tables.calls("A1", "1NT", "Pass", "Pass", "Pass")
    table = room.tables["A1"]
    assert table.sitting is not None
    return room, Director(room)


def test_a_late_pair_takes_a_free_number_and_is_named_in_the_ranking() -> None:
    room, director = played_room()
    body = director(START + 100, op="pair_add", section="A", pair=12,
                    names=["  Ada   Lovelace ", "Alan Turing"])
    assert body == {"section": "A", "pair": 12, "names": ["Ada Lovelace", "Alan Turing"],
                    "by": "anne"}
    assert room.sections[0].pairs[12] == ("Ada Lovelace", "Alan Turing")
    assert room.late.to_json()["late"] == [{"section": "A", "pair": 12}]
    assert room.scoring.section("A").names[12] == ["Ada Lovelace", "Alan Turing"]
    with pytest.raises(ConfigError, match="Adding a late pair: pair 12 of section A already"):
        director(START + 101, op="pair_add", section="A", pair=12, names=["X"])
    with pytest.raises(ConfigError, match="Adding a late pair: no pair 13 in section A"):
        director(START + 101, op="pair_add", section="A", pair=13, names=["X"])
    with pytest.raises(ConfigError, match="no section 'B'"):
        director(START + 101, op="pair_add", section="B", pair=1, names=["X"])
    with pytest.raises(ConfigError, match="each name has 1 to"):
        director(START + 101, op="pair_add", section="A", pair=11, names=["x" * 81])


def test_the_set_ups_absent_pair_takes_a_late_pair_in_its_place() -> None:
    """The set-up's absent pair (``missing_pair``: its opponents sit out) is a place for a
    late pair (issue 25: no director sets up an unnamed pair in advance): its number is
    taken from the round in progress; a number outside the movement is still refused."""
    room = Room(Section("A", mitchell(6, boards_per_round=2, missing_pair=12)), DEALS)
    room.start_round(1, START)
    director = Director(room)
    with pytest.raises(ConfigError, match="no pair 13 in section A"):
        director(START + 100, op="pair_add", section="A", pair=13, names=["Ann", "Bob"])
    body = director(START + 100, op="pair_add", section="A", pair=12, names=["Ann", "Bob"])
    assert body["from_round"] == 1
    assert room.assignment("A1", 1) is not None
    movement = room.sections[0].movement
    assert movement is not None and 12 in movement.pairs


def test_names_corrected_keep_the_pair_and_its_results() -> None:
    room, director = played_room()
    director(START + 100, op="pair_add", section="A", pair=1, names=["Jon Smith", "B"])
    before = room.scoring.section("A").card(1)
    director(START + 110, account="bob", op="pair_names", section="A", pair=1,
             names=["John Smith", "Betty Smith"])
    assert room.scoring.section("A").names[1] == ["John Smith", "Betty Smith"]
    assert room.scoring.section("A").card(1) == before
    assert director.log[-1].data()["by"] == "bob"


def test_law_82_a_withdrawn_pair_keeps_what_it_played() -> None:
    room, director = played_room()
    snapshot = room.snapshot()["tables"]
    director(START + 100, op="pair_withdraw", section="A", pair=7, text=" ill ")
    assert room.late.to_json()["withdrawn"] == [
        {"section": "A", "pair": 7, "time": START + 100, "by": "anne", "text": "ill"}]
    assert room.snapshot()["tables"] == snapshot
    with pytest.raises(ConfigError, match="already withdrawn"):
        director(START + 101, op="pair_withdraw", section="A", pair=7)


def test_a_paused_round_reports_no_late_table_and_its_deadline_moves() -> None:
    room, director = played_room()
    deadline = room.clock.deadline
    assert deadline == START + 15 * 60
    director(START + 600, op="round_pause", paused=True)
    assert room.tick(START + 2000) == []
    with pytest.raises(ConfigError, match="already paused"):
        director(START + 601, op="round_pause", paused=True)
    director(START + 900, op="round_pause", paused=False)
    assert room.clock.deadline == deadline + 300
    director(START + 901, op="round_time", minutes=20)
    assert room.clock.deadline == START + 300 + 20 * 60
    with pytest.raises(ConfigError, match="Changing the time of a round: 1 to"):
        director(START + 902, op="round_time", minutes=0)
    assert room.tick(START + 300 + 20 * 60 + 1) != []     # A1 is late now


def test_law_12c2_a_board_cancelled_is_an_artificial_score_of_the_director() -> None:
    """A board cancelled at a table before it was played (Law 6D, 16D): the director's
    artificial adjusted score, given with the existing ``ruling`` command."""
    room, director = played_room()
    a = room.assignment("A2", 1)
    assert a is not None
    body = director(START + 100, op="ruling", kind="artificial", table="A2",
                    board=a.boards[1], ns="A=", ew="A=", text="board cancelled: fouled")
    assert body["by"] == "anne" and body["kind"] == "artificial"
    lines = room.scoring.section("A").lines[a.boards[1]]
    (line,) = [line for line in lines if line["table"] == "A2"]
    assert line["ruling"] == body["id"] and line["adjustment"]


def test_late_changes_replay_to_the_same_room() -> None:
    room, director = played_room()
    director(START + 100, op="pair_add", section="A", pair=12, names=["Ada", "Alan"])
    director(START + 110, op="pair_withdraw", section="A", pair=3)
    director(START + 120, op="round_pause", paused=True)
    director(START + 130, op="round_pause", paused=False)
    director(START + 140, op="round_time", minutes=18)
    fresh = make_room()
    for fact in director.log:
        fresh.replay(fact)
    assert fresh.late.snapshot() == room.late.snapshot()
    assert (fresh.clock.started, fresh.clock.minutes) == (room.clock.started, 18.0)
    assert fresh.sections[0].pairs[12] == ("Ada", "Alan")


def test_the_ranking_is_hidden_during_the_last_rounds() -> None:
    room, director = played_room()
    director(START + 1, op="public_results", ranking=True, names=True, boards=True,
             hide_last_rounds=2)
    assert overview(room, public=True)["ranking_shown"] is True
    movement = room.sections[0].movement
    assert movement is not None
    room.start_round(movement.rounds - 1, START + 10)
    data = overview(room, public=True)
    assert data["ranking_shown"] is False
    assert all(s["ranking"] == [] for s in data["sections"])
    assert overview(room, public=False)["full"] is True
    with pytest.raises(ConfigError, match="What the room sees: 0 to 99 last rounds hidden"):
        director(START + 20, op="public_results", ranking=True, names=True, boards=True,
                 hide_last_rounds=100)


def test_the_hidden_ranking_is_published_once_every_table_has_finished_the_last_round() -> None:
    """Issue 25: hiding the ranking for the last round keeps the suspense while it is played,
    not after: once every table has finished the last round (the session over) the public
    ranking is shown, though the director has not unticked anything; while one table still
    plays its last board it stays hidden. Unticking "rankings" still hides it afterwards."""
    from tests.hub.test_live_scoring import Session
    movement = mitchell(3, boards_per_round=1)
    session = Session(Room(Section("A", movement), DEALS))
    assert session.director({"op": "public_results", "ranking": True, "names": True,
                             "boards": True, "hide_last_rounds": 1})["ok"]
    plays = [(r, f"A{a.table}", b, "3NT", 9) for r in range(1, movement.rounds + 1)
             for a in movement.round(r) if a.plays for b in a.boards]
    session.play(plays[:-1])                      # the last round's last board still in play
    assert session.room.clock.round == movement.rounds
    data = overview(session.room, public=True)
    assert data["ranking_shown"] is False and all(s["ranking"] == [] for s in data["sections"])
    session.play(plays[-1:])                      # every table has finished: the session over
    data = overview(session.room, public=True)
    assert data["ranking_shown"] is True
    assert [len(s["ranking"]) for s in data["sections"]] == [6]
    assert session.director({"op": "public_results", "ranking": False, "names": True,
                             "boards": True, "hide_last_rounds": 1})["ok"]
    assert overview(session.room, public=True)["ranking_shown"] is False
