"""Movements (Laws 5B, 8A, 15): Mitchell, Howell, teams, validate(), the Dutch .ASC file.

The movement is what the Law 15 and Law 5B checks compare against: a board not
scheduled at a table, a pair at the wrong table or the wrong way round, a board a pair
already had.
"""

from collections import Counter
from dataclasses import replace
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgecore.cards import Side
from bridgecore.movement_files import read_asc, write_asc
from bridgecore.movements import (
    Assignment,
    Movement,
    board_numbers,
    howell,
    mitchell,
    teams,
)


def meetings(movement: Movement) -> Counter[frozenset[int]]:
    return Counter(frozenset((a.ns, a.ew)) for a in movement.assignments if a.plays)


def sets_played(movement: Movement, pair: int) -> Counter[int]:
    return Counter(a.board_set for a in movement.assignments
                   if a.plays and pair in (a.ns, a.ew))


def ns_pairs(t: int) -> range:
    return range(1, t + 1)


def ew_pairs(t: int) -> range:
    return range(t + 1, 2 * t + 1)


# Mitchell -------------------------------------------------------------------------------

@pytest.mark.parametrize("t", range(3, 16, 2))
def test_mitchell_odd_every_ns_meets_every_ew_once_law_15(t: int) -> None:
    m = mitchell(t, boards_per_round=2)
    assert (m.tables, m.rounds, m.board_sets, m.winners) == (t, t, t, 2)
    assert meetings(m) == Counter({frozenset((n, e)): 1 for n in ns_pairs(t)
                                   for e in ew_pairs(t)})
    for pair in m.pairs:
        assert sets_played(m, pair) == Counter(range(1, t + 1))
        assert m.boards_of(pair) == set(range(1, 2 * t + 1))
    assert m.validate() == []


def test_mitchell_moves_ew_up_and_boards_down() -> None:
    m = mitchell(5)
    for r in range(1, 5):
        for t in range(1, 6):
            now = m.assignment(r, t)
            up, down = m.assignment(r + 1, t % 5 + 1), m.assignment(r + 1, (t - 2) % 5 + 1)
            assert now is not None and up is not None and down is not None
            assert up.ew == now.ew and up.ns == t % 5 + 1
            assert down.board_set == now.board_set


@pytest.mark.parametrize("t", range(4, 15, 2))
def test_mitchell_even_skip_no_repeat_meeting_or_board_law_15b(t: int) -> None:
    m = mitchell(t, boards_per_round=3)
    assert m.rounds == t - 1 and "skip" in m.name
    assert set(meetings(m).values()) == {1}
    for pair in m.pairs:
        assert set(sets_played(m, pair).values()) == {1}
        assert len(m.boards_of(pair)) == 3 * (t - 1)
    assert m.validate() == []
    first = m.where(t + 1, t // 2)
    after = m.where(t + 1, t // 2 + 1)
    assert first is not None and after is not None
    assert after[0] == (first[0] + 1) % t + 1  # the skip: two tables up


@pytest.mark.parametrize("t", [2, 4, 6, 8, 10, 12])
def test_mitchell_relay_and_bye_stand_shares_boards_between_tables_1_and_last(t: int) -> None:
    m = mitchell(t, relay=True)
    assert m.rounds == t and m.shared_tables == (frozenset({1, t}),)
    for r in range(1, t + 1):
        sets = [a.board_set for a in m.round(r)]
        assert sets[0] == sets[-1]  # the relay
        assert len(set(range(1, t + 1)) - set(sets)) == 1  # one set on the bye stand
    assert set(meetings(m).values()) == {1}
    for pair in m.pairs:
        assert sets_played(m, pair) == Counter(range(1, t + 1))
    assert m.validate() == []
    undeclared = replace(m, shared_tables=())
    assert len(undeclared.validate()) == t
    assert all("at once" in p for p in undeclared.validate())


def test_mitchell_arrow_switch_last_round_makes_one_winner() -> None:
    plain, switched = mitchell(7), mitchell(7, arrow_switch=True)
    assert (plain.winners, switched.winners) == (2, 1)
    assert switched.where(1, 7) == (1, Side.EW) and switched.where(8, 7) == (7, Side.NS)
    assert switched.where(1, 6) == (1, Side.NS)
    assert meetings(switched) == meetings(plain) and switched.validate() == []
    assert mitchell(7, arrow_switch=[3, 5]).where(1, 3) == (1, Side.EW)
    with pytest.raises(ValueError):
        mitchell(7, arrow_switch=[8])


def test_mitchell_half_table_phantom_pair_is_a_sit_out() -> None:
    m = mitchell(5, missing_pair=10)
    sitouts = [a for a in m.assignments if not a.plays]
    assert len(sitouts) == 5 and all(a.ew is None and a.ns is not None for a in sitouts)
    assert sorted(a.ns or 0 for a in sitouts) == [1, 2, 3, 4, 5]
    assert 10 not in m.pairs and m.where(10, 1) is None
    assert len(m.opponents(1)) == 4 and len(m.boards_of(1)) == 4
    assert m.validate() == []


def test_mitchell_refuses_bad_shapes() -> None:
    for call in (lambda: mitchell(1), lambda: mitchell(5, relay=True),
                 lambda: mitchell(6, rounds=6), lambda: mitchell(5, rounds=0)):
        with pytest.raises(ValueError):
            call()
    assert mitchell(6, rounds=4).rounds == 4


# Howell ---------------------------------------------------------------------------------

@pytest.mark.parametrize("n", range(2, 9))
def test_howell_every_pair_meets_every_other_once_no_set_twice_law_15b(n: int) -> None:
    m = howell(n, boards_per_round=2)
    assert (m.rounds, m.board_sets, m.winners, len(m.pairs)) == (2 * n - 1, 2 * n - 1, 1, 2 * n)
    assert meetings(m) == Counter({frozenset(p): 1 for p in combinations(range(1, 2 * n + 1), 2)})
    for pair in m.pairs:
        assert sets_played(m, pair) == Counter(range(1, 2 * n))
    assert all(m.where(2 * n, r) == (1, Side.NS) for r in range(1, m.rounds + 1))
    assert m.validate() == []


@pytest.mark.parametrize("n", range(2, 9))
def test_howell_shares_boards_only_where_declared(n: int) -> None:
    m = howell(n)
    undeclared = replace(m, shared_tables=())
    assert bool(undeclared.validate()) == (n in (2, 3, 5))
    for r in range(1, m.rounds + 1):
        holders = Counter(a.board_set for a in m.round(r))
        for board_set, count in holders.items():
            if count > 1:
                tables = {a.table for a in m.round(r) if a.board_set == board_set}
                assert any(tables <= g for g in m.shared_tables)


def test_howell_with_an_odd_number_of_pairs_sits_one_out() -> None:
    m = howell(4, missing_pair=8)
    for r in range(1, 8):
        table1 = m.assignment(r, 1)
        assert table1 is not None and table1.ns is None and not table1.plays
    assert all(len(m.opponents(p)) == 6 for p in range(1, 8)) and m.validate() == []
    with pytest.raises(ValueError):
        howell(9)


# Teams ----------------------------------------------------------------------------------

@pytest.mark.parametrize("count", range(2, 10))
@pytest.mark.parametrize("duplicated", [True, False])
def test_teams_both_rooms_same_boards_teams_swapped_law_15(count: int, duplicated: bool) -> None:
    m = teams(count, boards_per_round=4, duplicated=duplicated)
    team = {p: (p + 1) // 2 for p in m.pairs}
    met: Counter[frozenset[int]] = Counter()
    for r in range(1, m.rounds + 1):
        for open_room, closed_room in zip(m.round(r)[::2], m.round(r)[1::2], strict=True):
            assert open_room.boards == closed_room.boards and len(open_room.boards) == 4
            assert open_room.ns is not None and open_room.ew is not None
            assert closed_room.ns is not None and closed_room.ew is not None
            home, away = team[open_room.ns], team[open_room.ew]
            assert (team[closed_room.ns], team[closed_room.ew]) == (away, home)
            assert open_room.ns % 2 == 1 and closed_room.ew % 2 == 0
            met[frozenset((home, away))] += 1
    assert met == Counter({frozenset(p): 1 for p in combinations(range(1, count + 1), 2)})
    assert m.validate() == []
    assert all(team[a.ns or 0] != team[a.ew or 0] for a in m.assignments)


def test_teams_single_match_is_two_rooms_one_round() -> None:
    m = teams(2, boards_per_round=12)
    assert (m.tables, m.rounds, m.shared_tables) == (2, 1, (frozenset({1, 2}),))
    assert m.assignment(1, 1) == Assignment(1, 1, 1, 4, 1, tuple(range(1, 13)))
    assert m.assignment(1, 2) == Assignment(1, 2, 3, 2, 1, tuple(range(1, 13)))


# Queries, checks, validate() ------------------------------------------------------------

def test_board_sets_hold_consecutive_boards() -> None:
    assert board_numbers(1, 3) == (1, 2, 3) and board_numbers(4, 3) == (10, 11, 12)
    assert board_numbers(0, 3) == ()
    m = mitchell(3, boards_per_round=4)
    assert m.assignment(2, 1) == Assignment(2, 1, 1, 6, 2, (5, 6, 7, 8))
    assert m.board_numbers(3) == (9, 10, 11, 12) and m.boards == tuple(range(1, 13))
    assert m.tables_with(5, 2) == (1,) and m.tables_with(5, 1) == (2,)


def test_queries_where_opponents_and_unknown_cells() -> None:
    m = mitchell(3)
    assert m.where(4, 2) == (2, Side.EW) and m.where(9, 1) is None
    assert m.opponents(1) == (4, 6, 5) and m.scheduled_round(1, 3) == 3
    assert m.assignment(4, 1) is None and m.assignment(1, 4) is None


def broken() -> Movement:
    cells = [
        Assignment(1, 1, 1, 2, 1, (1, 2)), Assignment(1, 2, 3, 4, 1, (1, 2)),
        Assignment(2, 1, 1, 2, 2, (3, 4)), Assignment(2, 2, 3, 1, 1, (1, 2)),
    ]
    return Movement(2, 2, tuple(cells), boards_per_round=2)


def test_validate_catches_a_hand_made_broken_movement_law_15b() -> None:
    problems = broken().validate()
    assert problems == [
        "round 1: boards 1-2 at tables 1, 2 at once",
        "round 2: pair 1 at tables 1-2",
        "pairs 1 and 2 meet 2 times (rounds 1, 2)",
        "pair 1 plays boards 1-2 in rounds 1, 2 (Law 15B)",
        "pair 3 plays boards 1-2 in rounds 1, 2 (Law 15B)",
    ]


def test_validate_accepts_declared_shared_boards() -> None:
    relayed = replace(broken(), shared_tables=(frozenset({1, 2}),))
    assert not any("at once" in p for p in relayed.validate())


def test_structure_errors_raise() -> None:
    with pytest.raises(ValueError, match="both sides"):
        Assignment(1, 1, 3, 3, 1, (1,))
    with pytest.raises(ValueError):
        Assignment(0, 1, 1, 2, 1, (1,))
    with pytest.raises(ValueError, match="two assignments"):
        Movement(1, 1, (Assignment(1, 1, 1, 2, 1), Assignment(1, 1, 3, 4, 1)))
    with pytest.raises(ValueError, match="outside"):
        Movement(1, 1, (Assignment(2, 1, 1, 2, 1),))
    with pytest.raises(ValueError, match="sharing"):
        Movement(2, 1, (), shared_tables=(frozenset({1, 3}),))


def test_seating_problems_wrong_table_and_wrong_way_round_law_5b() -> None:
    m = mitchell(5)
    assert m.seating_problems(2, 3, 3, 7) == []
    assert m.seating_problems(2, 3, 7, 3) == [
        "table 3, round 2: pairs 7 and 3 sit the wrong way round (pair 7 is scheduled EW)"
        " (Law 5B)"]
    assert m.seating_problems(2, 3, 3, 8) == [
        "table 3, round 2: pair 8 sits EW, scheduled EW at table 4 (Law 5B)"]
    assert m.seating_problems(2, 3, 3, 12) == [
        "table 3, round 2: pair 12 sits EW, not scheduled to play (Law 5B)"]
    assert m.seating_problems(9, 3, 3, 7) == ["table 3 does not play in round 9"]


def test_seating_problems_wrong_board_and_board_already_played_law_15() -> None:
    m = mitchell(5)
    assert m.seating_problems(2, 3, 3, 7, board=4) == []
    wrong = m.seating_problems(2, 3, 3, 7, board=3)
    assert wrong == [
        "table 3, round 2: board 3 is not scheduled here (boards 4; board 3 is at table 2)"
        " (Law 15)",
        "pair 3 had board 3 in round 1 (Law 15B)"]


# The Dutch .ASC movement file (formats.md 8) ---------------------------------------------

FORMATS_EXAMPLE = """\
14  7  6  6 0
 1- 2 A  3- 4 B  5- 6 C  7- 8 D  9-10 E 11-12 F 13-14 A
 6- 3 A  7- 2 B 11-13 C  9- 4 D  5- 8 E  1-10 F
"""


def test_asc_example_of_formats_md_is_read_with_its_problems() -> None:
    movement, problems = read_asc(FORMATS_EXAMPLE, boards_per_round=2, file="ex.asc")
    assert movement is not None
    assert movement.assignment(1, 7) == Assignment(1, 7, 13, 14, 1, (1, 2))
    assert movement.assignment(2, 6) == Assignment(2, 6, 1, 10, 6, (11, 12))
    assert movement.assignment(2, 7) is None
    assert frozenset({1, 7}) in movement.shared_tables
    assert [(p.line, p.message) for p in problems] == [
        (3, "header says 6 rounds, the file has 2"),
        (3, "round 2: 6 tables, header says 7")]
    assert str(problems[0]).startswith("ex.asc:3:")


MOVEMENTS = [
    mitchell(7), mitchell(8), mitchell(8, relay=True), mitchell(9, arrow_switch=True),
    mitchell(5, missing_pair=3), mitchell(15, rounds=14), howell(5), howell(3, missing_pair=6),
    teams(5), teams(4, duplicated=False),
]


@pytest.mark.parametrize("movement", MOVEMENTS, ids=lambda m: m.name)
def test_asc_round_trip(movement: Movement) -> None:
    text = write_asc(movement)
    back, problems = read_asc(text, boards_per_round=movement.boards_per_round)
    assert problems == [] and back is not None
    assert back.assignments == movement.assignments
    assert back.shared_tables == movement.shared_tables
    assert write_asc(back) == text


def test_asc_writes_the_standard_layout() -> None:
    text = write_asc(mitchell(3, missing_pair=6))
    assert text.splitlines() == ["5 3 3 3 0", "1-4 A  2-5 B  3-0 C", "1-0 B  2-4 C  3-5 A",
                                 "1-5 C  2-0 A  3-4 B"]


def test_asc_reader_comments_numbers_and_empty_tables() -> None:
    text = "# two tables\n4 2 1 1 0\n\n1-2 1   0 0 0  # table 2 empty\n"
    movement, problems = read_asc(text, boards_per_round=3)
    assert problems == [] and movement is not None
    assert movement.assignment(1, 1) == Assignment(1, 1, 1, 2, 1, (1, 2, 3))
    assert movement.assignment(1, 2) == Assignment(1, 2, None, None, 0, ())


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty movement file"),
    ("14 7 six 6 0\n", "expected 'pairs tables rounds boardgroups individual'"),
    ("8 2 1 1 1\n1 2 3 4 A 5 6 7 8 B\n", "header's 'individual' is 1: read it as an individual"),
])
def test_asc_reader_unusable_files(text: str, message: str) -> None:
    movement, problems = read_asc(text)
    assert movement is None and problems and problems[0].message.startswith(message)


def test_asc_reader_keeps_going_after_a_bad_line() -> None:
    text = "4 2 2 2 0\n1-2 A 3-3 B\n1-4 B 3-? A\n"
    movement, problems = read_asc(text, file="x.asc")
    assert movement is not None
    assert [p.line for p in problems] == [2, 3]
    assert "pair 3 on both sides" in problems[0].message
    assert movement.assignment(1, 1) is not None and movement.assignment(2, 1) is not None


@settings(max_examples=200)
@given(st.text(alphabet="0123456789ABZaz -#\n\t?", max_size=200))
def test_asc_reader_never_crashes(text: str) -> None:
    movement, problems = read_asc(text)
    assert movement is not None or problems
    if movement is not None:
        movement.validate()


@pytest.mark.parametrize("movement", [mitchell(7), mitchell(8), mitchell(12, relay=True),
                                      howell(6), teams(4)], ids=repr)
def test_times_played_counts_the_tables_that_play_each_board(movement: Movement) -> None:
    """Counted once when the movement is made (every traveller view asks: issue 27)."""
    for board in (*movement.boards, max(movement.boards) + 1, 0):
        assert movement.times_played(board) == sum(
            1 for a in movement.assignments if a.plays and board in a.boards)
