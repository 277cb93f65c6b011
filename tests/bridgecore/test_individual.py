"""Individual movements (bridgecore.individual) and their ``.ASC`` files (formats.md 8:
``N S E W group`` a table, header ``players tables rounds groups 1``).

No published individual movement with a stated source was found for a fixture: the one
Tenace builds is checked here on its own schedule, property by property."""

from __future__ import annotations

from collections import Counter

import pytest

from bridgecore.individual import IndividualAssignment, IndividualMovement, rainbow_individual
from bridgecore.movement_files import read_asc, read_individual_asc, write_asc


@pytest.mark.parametrize("tables", [5, 7, 11, 13])
def test_law_15_the_rainbow_individual_every_player_every_board_set_once(tables: int) -> None:
    """4·T players on T tables, T rounds: each player sits once a round, partners T
    different players (never twice), meets another as opponent at most once, and plays
    every set of boards exactly once (Law 15: no board twice); a round's tables play
    different sets."""
    m = rainbow_individual(tables)
    players = m.players
    assert players == tuple(range(1, 4 * tables + 1))
    for r in range(1, tables + 1):
        seated = [p for t in range(1, tables + 1) for p in m.assignment(r, t).seats]
        assert sorted(seated) == list(players)
        sets = [m.assignment(r, t).board_set for t in range(1, tables + 1)]
        assert sorted(sets) == list(range(1, tables + 1))
    for p in players:
        partners = m.partners(p)
        assert len(partners) == tables == len(set(partners))
    met: Counter[frozenset[int]] = Counter()
    played: Counter[tuple[int, int]] = Counter()
    for a in m.assignments:
        n, e, s, w = a.seats
        for x, y in ((n, e), (n, w), (s, e), (s, w)):
            met[frozenset((x, y))] += 1
        for p in a.seats:
            played[p, a.board_set] += 1
    assert max(met.values()) == 1
    assert set(played.values()) == {1} and len(played) == len(players) * tables
    assert m.problems() == []


def test_the_rainbow_needs_tables_prime_to_6() -> None:
    for bad in (3, 4, 6, 9):
        with pytest.raises(ValueError, match="prime to 6"):
            rainbow_individual(bad)
    assert rainbow_individual(7, rounds=4).rounds == 4


def test_asc_individual_written_and_read_back() -> None:
    m = rainbow_individual(5, boards_per_round=3)
    text = write_asc(m)
    header, first = text.splitlines()[:2]
    assert header == "20 5 5 5 1"
    a = m.assignment(1, 1)
    assert first.split()[:5] == [str(a.north), str(a.south), str(a.east), str(a.west), "A"]
    back, problems = read_individual_asc(text, boards_per_round=3)
    assert problems == [] and back is not None
    assert back.assignments == m.assignments


def test_asc_individual_by_hand_seats_in_the_files_order() -> None:
    """``N S E W group``: the second number is South, the third East."""
    text = "# two tables, one round\n8 2 1 2 1\n1 2 3 4 A  5-6-7-8 B\n"
    m, problems = read_individual_asc(text, boards_per_round=2)
    assert problems == [] and m is not None
    assert m.assignment(1, 1) == IndividualAssignment(1, 1, 1, 3, 2, 4, 1, (1, 2))
    assert m.assignment(1, 2) == IndividualAssignment(1, 2, 5, 7, 6, 8, 2, (3, 4))
    assert m.partners(1) == [2] and m.partners(3) == [4]


@pytest.mark.parametrize(("text", "message"), [
    ("8 2 1 2 0\n1-2 A 3-4 B\n", "header's 'individual' is 0: read it as a pairs"),
    ("8 2 1 2\n1 2 3 4 A 5 6 7 8 B\n", "header has no 'individual' field"),
    ("", "empty movement file"),
])
def test_asc_individual_unusable_headers(text: str, message: str) -> None:
    m, problems = read_individual_asc(text)
    assert m is None and problems[0].message.startswith(message)


def test_asc_individual_bad_tables_are_named_and_the_rest_kept() -> None:
    text = "8 2 2 2 1\n1 2 3 4 A 5 6 7 1 B\n1 3 5 x A 2 4 6 8 B\n"
    m, problems = read_individual_asc(text)
    assert m is not None
    messages = [(p.line, p.message) for p in problems]
    assert (2, "round 1, table 2: player 1 already seated this round") in messages
    assert (3, "round 2, table 1: not 'N S E W group': 1 3 5 x A") in messages
    assert [(a.round, a.table) for a in m.assignments] == [(1, 1), (2, 2)]


def test_problems_of_a_movement_read_from_a_file() -> None:
    """A file that seats two players as partners twice, or gives a player a set twice."""
    text = "8 2 2 2 1\n1 2 3 4 A 5 6 7 8 B\n1 2 5 6 B 3 4 7 8 A\n"
    m, problems = read_individual_asc(text)
    assert problems == [] and m is not None
    found = m.problems()
    assert "players 1 and 2 are partners 2 times" in found
    assert "player 1 plays board set 1 2 times (Law 15)" not in found
    assert "player 5 plays board set 2 2 times (Law 15)" in found


def test_a_player_in_two_places_is_refused_when_built() -> None:
    cells = (IndividualAssignment(1, 1, 1, 2, 3, 4, 1, (1,)),
             IndividualAssignment(1, 2, 5, 6, 7, 1, 2, (2,)))
    with pytest.raises(ValueError, match="player 1 at tables 1 and 2 in round 1"):
        IndividualMovement(2, 1, cells)
    with pytest.raises(ValueError, match="two seats"):
        IndividualAssignment(1, 1, 1, 2, 1, 4, 1, (1,))


def test_pairs_reader_still_refuses_an_individual_file() -> None:
    m, problems = read_asc("8 2 1 1 1\n1 2 3 4 A 5 6 7 8 B\n")
    assert m is None and "individual" in problems[0].message
