"""The result screen's presenter (tablet/presenters/result.py), without a window, fed by
a real hub table (tests/tablet/tables.py): the result from the play, Laws 22 and 79."""

from __future__ import annotations

import pytest

from tablet.presenters import PresenterError
from tests.tablet.tables import Table, in_play


def test_law_79a_result_from_the_play_confirmed_by_the_other_side_then_the_hand_record() -> None:
    t = in_play()
    north, east, west = t["N"], t["E"], t["W"]
    assert north.result.hand_record == {}                                  # not before the end
    t.ok(north, north.play.claim(11))
    t.ok(east, east.play.claim_answer(True))
    t.ok(west, west.play.claim_answer(True))
    result = north.result.view
    assert result is not None and result.contract == "4S" and result.tricks == 12
    assert result.lines == ("4\u2660 by North: 12 tricks", "Made +2", "NS +480   EW -480")
    assert north.result.confirm_seats == () and east.result.confirm_seats == ("E",)
    with pytest.raises(PresenterError):
        north.result.confirm(True)
    assert east.result.hand_record == {} and north.result.hand_record == {}  # confirmation first
    t.ok(east, east.result.confirm(True))
    assert north.result.confirmed and west.result.confirm_seats == ()
    record = north.result.hand_record
    assert record["N"][:4] == ["SA", "SK", "SQ", "SJ"] and len(record["W"]) == 13
    north.result.next_board()
    assert north.screen == "board" and north.board.suggested_boards == [2]


def test_law_79b_disagreement_calls_the_director() -> None:
    t = in_play(seats=[None])
    tab = t[None]
    t.ok(tab, tab.play.claim(12))
    t.ok(tab, tab.play.claim_answer(True, "E"))
    t.ok(tab, tab.play.claim_answer(True, "W"))
    assert tab.result.confirm_seats == ("E",)
    t.ok(tab, tab.result.confirm(False))
    assert tab.result.disagreed and tab.model.message is not None
    assert "79B" in tab.model.message.text
    assert "result_disagrees" in {a.kind for a in t.alerts}
    assert tab.result.hand_record                       # answered here: the board is finished


def test_law_22_passed_out_board() -> None:
    t = Table().seated()
    t.calls("Pass", "Pass", "Pass", "Pass")
    north = t["N"]
    assert north.screen == "result"
    result = north.result.view
    assert result is not None and result.contract == "PASS"
    assert result.lines[0] == "Passed out"
