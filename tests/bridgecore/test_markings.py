"""A board's markings (bridgecore/markings.py): Law 2 by the number, or the hand record's."""

from __future__ import annotations

import pytest

from bridgecore.cards import Seat
from bridgecore.errors import ParseError
from bridgecore.markings import Markings
from bridgecore.vulnerability import Vulnerability

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


def test_law_2_markings_follow_the_cycle_of_16() -> None:
    assert Markings.of_board(1) == Markings(N, Vulnerability.NONE)
    assert Markings.of_board(4) == Markings(W, Vulnerability.BOTH)
    assert Markings.of_board(17) == Markings.of_board(1)
    assert all(not Markings.of_board(n).law_2_differences(n) for n in range(1, 65))


def test_law_2_a_hand_record_gives_what_it_has_law_2_the_rest() -> None:
    assert Markings.given(2, S, None) == Markings(S, Vulnerability.NS)
    assert Markings.given(2, None, None) == Markings.of_board(2)
    assert Markings.given(2, S, None).law_2_differences(2) == ("dealer S (Law 2: E)",)
    assert Markings(W, Vulnerability.BOTH).law_2_differences(1) == (
        "dealer W (Law 2: N)", "vulnerability All (Law 2: None)")


def test_markings_json_round_trip_and_refusals() -> None:
    marks = Markings(W, Vulnerability.EW)
    assert Markings.from_json(marks.to_json()) == marks
    assert marks.to_json() == {"dealer": "W", "vulnerability": "EW"}
    assert str(marks) == "dealer W, vulnerability EW"
    for bad in ({"dealer": "W"}, {"dealer": "Q", "vulnerability": "EW"},
                {"dealer": 1, "vulnerability": "EW"}, ["W", "EW"]):
        with pytest.raises(ParseError):
            Markings.from_json(bad)  # type: ignore[arg-type]
