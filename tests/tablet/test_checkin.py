"""The check-in screen's presenter (tablet/presenters/checkin.py), without a window, fed by
a real hub table (tests/tablet/tables.py): Law 5."""

from __future__ import annotations

from typing import Any

import pytest

from tablet.presenter import TabletPresenter
from tablet.presenters import PresenterError
from tests.hub.test_table import START
from tests.tablet.tables import Table
from wire.protocol import Envelope, Reply
from wire.views import Pairs


def test_law_5_checkin_body_is_what_the_hub_takes_and_moves_to_the_board_screen() -> None:
    t = Table()
    north, east = t["N"], t["E"]
    assert north.screen == "checkin"
    event = north.checkin.check_in(1, players=[(11, " Anna "), (None, ""), (12, "")])
    assert event == ("checkin", {"direction": "NS", "pair": 1, "seat": "N",
                                 "players": [{"number": 11, "name": "Anna"}, {"number": 12}]})
    t.ok(north, event)
    assert north.screen == "board" and east.screen == "checkin"
    t.ok(east, east.checkin.check_in(4))
    assert east.screen == "board"
    assert north.board.pairs_text == "NS pair 1  -  EW pair 4"
    with pytest.raises(PresenterError) as err:
        north.checkin.check_in(0)
    assert err.value.key == "checkin.missing_pair"


def test_law_5_a_table_tablet_checks_both_pairs_in() -> None:
    t = Table([None])
    tab = t[None]
    t.ok(tab, tab.checkin.check_in(1, "NS"))
    assert tab.screen == "checkin"          # East-West still to come
    t.ok(tab, tab.checkin.check_in(4, "EW"))
    assert tab.screen == "board"
    tab.checkin.new_round()
    assert tab.screen == "checkin"
    with pytest.raises(PresenterError):
        tab.checkin.check_in(4, "NE")


def test_law_5b_refused_checkin_is_asked_again_and_the_movement_warning_when_known() -> None:
    t = Table([None])
    tab = t[None]
    reply = Reply("x", 1, "reject", "malformed", "pair numbers start at 1", START)
    tab.checkin.check_in(1, "NS")
    tab.on_reply(reply, Envelope("x", "A1-tab", 1, START, "checkin",
                                 {"direction": "NS", "pair": 1}))
    assert tab.screen == "checkin" and tab.model.message is not None
    # The movement's pairs, as the hub publishes them (schedule.expected): Law 5B.
    assert tab.model.state is not None
    assert tab.model.state.schedule.expected == Pairs(1, 4)
    assert tab.checkin.warning("NS", 1) is None
    tab.checkin.check_in(5, "EW")
    assert tab.model.message is not None and "Pair 5" in tab.model.message.text
    assert "pair 4" in tab.model.message.text and tab.model.message.level == "warning"


# What every state carries (wire.views.TableView): the mode and the round's schedule.
WAITING: dict[str, Any] = {"strict": False,
                           "schedule": {"boards": [], "expected": None, "next": None}}


def test_law_5_a_new_round_checkin_moves_on_with_the_table() -> None:
    """The pair of the next round checks in when the board is over; the hub then moves the
    table to that round: the tablet goes on to the board screen, not back to check-in."""
    north = TabletPresenter("A1", seat="N")
    over = {"table": "A1", "round": 1, "phase": "over", "board": 2, "dealer": "E",
            "vulnerability": "NS", "pairs": {"NS": 1, "EW": 4}, **WAITING}
    north.on_state(over)
    north.result.next_board()
    north.checkin.new_round()
    assert north.screen == "checkin"
    event = north.checkin.check_in(1)
    assert north.screen == "board"
    north.on_state({**over, "round": 2, "pairs": {"NS": 1, "EW": 6}})   # the hub moved on
    assert north.screen == "board"
    north.on_reply({"type": "ack", "code": "ok"}, {"type": event[0], "body": event[1]})
    north.on_state({"table": "A1", "round": 2, "phase": "waiting", **WAITING,
                    "pairs": {"NS": None, "EW": None}})
    assert north.screen == "board"
    north.on_state({"table": "A1", "round": 3, "phase": "waiting", **WAITING,
                    "pairs": {"NS": None, "EW": None}})    # the director's round
    assert north.screen == "checkin"


def test_law_5_partners_tablet_does_not_ask_again_once_north_checked_the_pair_in() -> None:
    """North checked pair 1 in: South's tablet went on asking for it (issue 22). The hub's
    state now says which sides are checked in this round (``checked_in``)."""
    t = Table()
    north, south, west = t["N"], t["S"], t["W"]
    assert south.screen == "checkin"
    t.ok(north, north.checkin.check_in(1))
    assert south.model.hub_state is not None and south.model.hub_state.checked_in == ["NS"]
    assert south.screen == "board" and west.screen == "checkin"
    t.ok(t["E"], t["E"].checkin.check_in(4))
    assert west.screen == "board"
    assert south.model.hub_state.checked_in == ["NS", "EW"]
