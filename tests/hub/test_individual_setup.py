"""An individual section's set-up (hub/section_setup.py): ``movement = "individual"`` with
``players`` (4·T, T prime to 6) or an individual ``.ASC`` movement file, every bad key named,
kept whole through the log's JSON; its partnerships and the players of each seat."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bridgecore.cards import Side
from bridgecore.individual import partnership, rainbow_individual
from bridgecore.movement_files import write_asc
from hub.event import read_document, setup_from_json

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
