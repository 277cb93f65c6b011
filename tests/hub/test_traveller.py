"""The traveller in the table's public state (hub/traveller.py): the results of a board so far,
the matchpoint percentage (Neuberg-scaled), cross-IMPs in a teams movement, and the
double-dummy table, only at a table that has finished the board (Law 16)."""

from __future__ import annotations

import logging
import sys

import pytest

from bridgecore.cards import Seat, Strain
from bridgecore.doubledummy import solve_deals
from bridgecore.movements import teams
from bridgecore.vulnerability import Vulnerability
from hub.room import Room, Section
from hub.traveller import percentages, prepare_double_dummy, showing_traveller
from tests.hub.test_table import BOARD_1, DEALS, START, Driver, make_room

FIELDS = ("traveller", "percentage", "imps", "field", "dd")


def claim_all(d: Driver) -> None:
    """1NT by North, East leads, North claims the 13 tricks, accepted: 1NT+6, NS 270."""
    d.calls("1NT", "Pass", "Pass", "Pass")
    d.card("E", "HJ")
    d.ok("claim", seat="N", tricks=13)
    d.ok("claim_answer", seat="E", accept=True)
    d.ok("claim_answer", seat="W", accept=True)


def neuberg_percent(beaten: float, actual: int, expected: int) -> float:
    """formats.md 9.1 by hand: (M + 1/2)·E/A - 1/2 on a top of E - 1, as a percentage."""
    return ((beaten + 0.5) * expected / actual - 0.5) / (expected - 1) * 100


def test_law_16_traveller_only_once_the_board_is_over_at_this_table() -> None:
    """Law 16: a table sees a board's results only after finishing it, only the tables that
    have finished it, never another board's; it grows as other tables finish the board."""
    room = make_room()
    a1, a2, a3 = Driver(room, "A1"), Driver(room, "A2"), Driver(room, "A3")
    a1.seat_pairs(1, 4, board=1)
    a1.calls("1NT", "Pass", "Pass", "Pass")
    a1.card("E", "HJ")
    assert not set(FIELDS) & set(a1.state.public_state())      # in play: nothing
    a1.ok("claim", seat="N", tricks=13)
    assert "traveller" not in a1.state.public_state()         # claim not accepted yet
    a1.ok("claim_answer", seat="E", accept=True)
    a1.ok("claim_answer", seat="W", accept=True)
    state = a1.state.public_state()
    assert state["phase"] == "over"
    assert state["traveller"] == [{
        "table": "A1", "round": 1, "NS": 1, "EW": 4, "contract": "1NT", "declarer": "N",
        "tricks": 13, "score_ns": 270, "own": True, "percent_ns": 50.0}]
    # One result of the three the Mitchell plays: Neuberg gives an average.
    assert state["percentage"] == {"NS": 50.0, "EW": 50.0}
    assert state["field"] == {"board": 1, "results": 1, "expected": 3, "method": "MP"}
    assert state["imps"] is None
    # Table A2 plays boards 3-4 this round: board 1's result is nowhere in its state.
    a2.seat_pairs(2, 5, board=3)
    a2.calls("Pass", "Pass", "Pass", "Pass")
    other = a2.state.public_state()
    assert [(r["table"], r["contract"]) for r in other["traveller"]] == [("A2", "PASS")]
    assert "1NT" not in str(other)
    # Round 2: board 1 moves to A3 (pairs 3 and 5). While it is played there, nothing.
    room.start_round(2, START + 900)
    a3.seat_pairs(3, 5, board=1)
    a3.calls("Pass", "Pass", "Pass")
    assert not set(FIELDS) & set(a3.state.public_state())
    a3.calls("Pass")                                           # passed out: NS 0
    state = a3.state.public_state()
    rows = state["traveller"]
    assert [(r["table"], r["round"], r["NS"], r["EW"], r["contract"], r["declarer"],
             r["tricks"], r["score_ns"]) for r in rows] == [
        ("A1", 1, 1, 4, "1NT", "N", 13, 270), ("A3", 2, 3, 5, "PASS", None, None, 0)]
    assert [r.get("own", False) for r in rows] == [False, True]
    low, high = neuberg_percent(0, 2, 3), neuberg_percent(1, 2, 3)   # 12.5% and 87.5%
    assert state["percentage"] == pytest.approx({"NS": low, "EW": 100 - low})
    assert [r["percent_ns"] for r in rows] == pytest.approx([high, low])
    assert state["field"] == {"board": 1, "results": 2, "expected": 3, "method": "MP"}
    # A1, still on board 1, sees the new row: the hub must republish it.
    assert showing_traveller(room, ["A3"]) == {"A1"}
    assert showing_traveller(room, ["A2"]) == set()
    # Several tables of a section changed in one batch: the boards of each count (the
    # section's tables are asked once, issue 27).
    assert showing_traveller(room, ["A2", "A3"]) == showing_traveller(room, ["A3", "A2"]) \
        == {"A1"}
    again = a1.state.public_state()
    assert again["percentage"] == pytest.approx({"NS": high, "EW": 100 - high})
    assert [r.get("own", False) for r in again["traveller"]] == [True, False]
    # The next board at A3: board 1's traveller is gone with it.
    a3.ok("board", board=2)
    assert not set(FIELDS) & set(a3.state.public_state())
    # Solved once for board 1 (A1 and A3 show it) and once for board 3.
    assert room.double_dummy.solved == 2


def test_double_dummy_table_is_tenace_analysis_on_the_same_deal() -> None:
    room = make_room()
    d = Driver(room, "A1")
    d.seat_pairs(1, 4, board=1)
    claim_all(d)
    dd = d.state.public_state()["dd"]
    [expected] = solve_deals([(BOARD_1, Seat.dealer_of(1), Vulnerability.of_board(1))])
    assert dd["tricks"] == {seat.letter: {strain.symbol: expected.tricks[seat, strain]
                                          for strain in Strain} for seat in Seat}
    assert list(dd["tricks"]["N"]) == ["C", "D", "H", "S", "NT"]
    # North holds the top cards of every suit: 13 tricks for NS anywhere, 0 for EW.
    assert dd["tricks"]["S"]["NT"] == 13 and dd["tricks"]["W"]["S"] == 0
    assert dd["par_score_ns"] == expected.par_score_ns == 1520
    assert dd["par"] == "; ".join(dict.fromkeys(expected.par_contracts)) == "NS 7NT"
    dd["tricks"]["N"]["NT"] = 0                      # the caller's copy, not the cache
    assert d.state.public_state()["dd"]["tricks"]["N"]["NT"] == 13


def test_without_endplay_no_double_dummy_table_and_the_rest_stays(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setitem(sys.modules, "endplay.dds", None)   # as if not installed
    room = make_room()
    d = Driver(room, "A1")
    d.seat_pairs(1, 4, board=1)
    with caplog.at_level(logging.WARNING, logger="hub.traveller"):
        claim_all(d)
        state = d.state.public_state()
        d.state.public_state()
    assert state["dd"] is None and room.double_dummy.available is False
    assert state["percentage"] == {"NS": 50.0, "EW": 50.0} and len(state["traveller"]) == 1
    warned = [r for r in caplog.records if "endplay" in r.getMessage()]
    assert len(warned) == 1                          # said once, not at every publication


def test_law_78b_teams_match_imps_against_the_other_room() -> None:
    """Law 78B: in a teams match the two rooms play the same boards; each room's result is
    scored in IMPs against the other (cross-IMPs, here one comparison)."""
    room = Room(Section("A", teams(2, boards_per_round=2)), DEALS)
    room.start_round(1, START)
    open_room, closed_room = Driver(room, "A1"), Driver(room, "A2")
    open_room.seat_pairs(1, 4, board=1)
    claim_all(open_room)                              # NS +270
    closed_room.seat_pairs(3, 2, board=1)
    closed_room.calls("Pass", "Pass", "Pass", "Pass")  # NS 0
    closed = closed_room.state.public_state()
    # A difference of 270 is 7 IMPs (270-310 on the Law 78B scale).
    assert closed["imps"] == {"NS": -7.0, "EW": 7.0}
    assert closed["field"] == {"board": 1, "results": 2, "expected": 2, "method": "IMP"}
    assert [r["imps_ns"] for r in closed["traveller"]] == [7.0, -7.0]
    assert closed["percentage"] == {"NS": 0.0, "EW": 100.0}
    assert open_room.state.public_state()["imps"] == {"NS": 7.0, "EW": -7.0}


def test_law_78a_percentages_by_hand_ties_and_neuberg() -> None:
    """Law 78A: one matchpoint per score beaten, a half per tie; fewer results than
    expected are Neuberg-scaled (formats.md 9.1)."""
    assert percentages([270, 0, 270], 3) == pytest.approx([75.0, 0.0, 75.0])
    assert percentages([270, 0, 270], 4) == pytest.approx(
        [neuberg_percent(1.5, 3, 4), neuberg_percent(0, 3, 4), neuberg_percent(1.5, 3, 4)])
    assert percentages([-100], 1) == [50.0]          # a board played once
    assert percentages([-100, 620], 2) == [0.0, 100.0]
    assert percentages([], 3) == []


def test_boards_solved_ahead_in_chunks_are_not_solved_again() -> None:
    room = make_room()
    assert prepare_double_dummy(room, [1, 2, 3, 4, 5, 6, 99]) == 6   # 99: no hand record
    assert room.double_dummy.solved == 6 and 1 in room.double_dummy
    assert prepare_double_dummy(room, [1, 2]) == 0
    d = Driver(room, "A1")
    d.seat_pairs(1, 4, board=1)
    claim_all(d)
    assert d.state.public_state()["dd"]["tricks"]["N"]["NT"] == 13
    assert room.double_dummy.solved == 6


def test_a_room_without_movement_scores_its_results_and_solves_nothing() -> None:
    """A room without a movement (the replay of files) has a traveller of the results in
    and no double-dummy table (nothing to show it to)."""
    room = Room(Section("R", None, tables=["R1", "R2"]), DEALS, clock_tolerance=None)
    first, second = Driver(room, "R1"), Driver(room, "R2")
    for d in (first, second):
        d.ok("board", board=1)
    claim_all(first)
    second.calls("Pass", "Pass", "Pass", "Pass")
    state = second.state.public_state()
    assert state["field"] == {"board": 1, "results": 2, "expected": 2, "method": "MP"}
    assert state["percentage"] == {"NS": 0.0, "EW": 100.0}
    assert [r["NS"] for r in state["traveller"]] == [None, None]
    assert state["dd"] is None and room.double_dummy.solved == 0
