"""The board screen's presenter (tablet/presenters/board.py), without a window, fed by a
real hub table (tests/tablet/tables.py): Laws 2, 8A and 15."""

from __future__ import annotations

import pytest

from tablet.presenters import PresenterError
from tests.tablet.tables import Table


def test_law_2_board_start_shows_number_dealer_and_vulnerability() -> None:
    t = Table().seated(board=2)   # board 2: dealer East, North-South vulnerable
    north = t["N"]
    assert north.screen == "auction"
    assert north.header == ["Table A1", "You: North", "Board 2", "Dealer East",
                            "North-South vulnerable"]
    assert north.model.vulnerable("N") and north.model.vulnerable("S")
    assert not north.model.vulnerable("E") and not north.model.vulnerable("W")
    assert north.model.columns == ["E", "S", "W", "N"]   # the grid starts at the dealer
    assert t["E"].auction.turn_text == "Your turn to call"
    assert north.auction.turn_text == "East to call"
    with pytest.raises(PresenterError):
        north.board.announce(3)   # a board is in play: the next one only once it is over


def test_law_15_wrong_board_warning_from_the_state_and_a_notice_in_a_reply() -> None:
    t = Table().seated(board=1)
    north = t["N"]
    assert north.board.warning is None     # board 1 is among this round's, 1 and 2
    assert north.board.suggested_boards == [2]      # the round's next board
    t = Table()
    north, east = t["N"], t["E"]
    t.ok(north, north.checkin.check_in(1, "NS"))
    t.ok(east, east.checkin.check_in(4, "EW"))
    reply = t.send(north, north.board.announce(3))  # board 3 is A2's this round
    assert reply.notice == "wrong_board"   # the hub tells the table, and the director
    assert north.board.warning is not None and "Board 3" in north.board.warning
    assert north.model.message is not None and "Law 15" in north.model.message.text
    message = north.on_reply({"type": "ack", "code": "ok", "notice": "wrong_board"})
    assert message is not None and "Law 15" in message
    assert north.on_reply({"type": "ack", "code": "ok"}) is None
    assert north.on_reply({"type": "ack", "code": "wrong_seating"}) is not None


def test_law_8a_end_of_round_says_where_pairs_and_boards_go_next() -> None:
    """Law 8A: at the end of the round the players are told where to go, as the movement
    says (Mitchell: North-South stay, East-West up a table, boards down a table)."""
    t = Table().seated(board=1)
    north = t["N"]
    assert north.board.next_text is None              # the round has only started
    t.calls("Pass", "Pass", "Pass", "Pass")
    t.ok(north, north.board.announce(2))
    t.calls("Pass", "Pass", "Pass", "Pass")
    assert north.model.phase == "over" and north.board.suggested_boards == []
    text = north.board.next_text
    assert text is not None
    assert "pair 1 to table A1 North-South" in text and "pair 4 to table A2 East-West" in text
    assert "boards to table A3" in text
