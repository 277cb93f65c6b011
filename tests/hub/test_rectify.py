"""The Laws' flow at the table (hub/rectify.py; protocol 7.15, 11.1 ``irregularities``): the
table is told what happened and that the director is called; the player the Laws give a
choice takes it; the director's choice is shown; play goes on from it with no further alert.
Law 27 (insufficient bid: 27A1 LHO accepts, 27B the offender replaces), Law 29A (a call out
of rotation accepted), Laws 9, 10, 81 (the director rectifies), Law 16 (a revoke is not
told to the table)."""

from __future__ import annotations

from typing import Any

from tests.hub.test_table import Driver, make_room
from wire.views import TableView


def state(d: Driver) -> dict[str, Any]:
    data = d.state.public_state()
    TableView.from_builtins(data)      # the published view's schema
    return data


def statuses(d: Driver) -> list[tuple[str, str, str]]:
    return [(e.seat.letter, str(e.call), e.status.value)
            for e in d.state.sitting.board.auction.entries]


def test_law_27a1_lho_accepts_the_insufficient_bid_and_the_auction_goes_on() -> None:
    d = Driver(make_room())
    d.seat_pairs()
    d.ok("call", "N", seat="N", call="1NT")
    found = d.ok("call", "E", seat="E", call="1S")       # insufficient (27)
    assert [a.kind for a in found] == ["insufficient_bid"]
    (irr,) = state(d)["irregularities"]
    assert (irr["kind"], irr["law"], irr["seat"], irr["call"], irr["director"]) == (
        "insufficient_bid", "27", "E", 2, "called")
    assert irr["options"] == [{"choice": "accept", "seat": "S", "law": "27A1"}]
    body = {"irregularity": irr["id"], "choice": "accept"}
    refused = d.send("rectify", "E", seat="E", **body)    # only LHO chooses (27A1)
    assert (refused.reply.status, refused.reply.code) == ("reject", "not_your_seat")
    revised = d.ok("rectify", "S", seat="S", **body)
    assert revised[0].id == irr["id"] and revised[0].facts["accepted"]["seat"] == "S"
    (irr,) = state(d)["irregularities"]
    assert irr["accepted"]["seat"] == "S" and irr["options"] == []
    assert d.send("rectify", "S", seat="S", **body).reply.code == "wrong_state"   # once
    # The bid stands: South calls over it, the auction goes on, nothing more is alerted.
    after = d.calls("2S", "Pass", "Pass", "Pass")
    assert after == []
    assert statuses(d)[1] == ("E", "1S", "accepted")
    assert str(d.state.sitting.board.play.contract) == "2S"


def test_law_27b_the_director_chooses_and_the_offender_replaces_with_no_further_alert() -> None:
    d = Driver(make_room())
    d.seat_pairs()
    d.ok("call", "N", seat="N", call="1NT")
    d.ok("call", "E", seat="E", call="1S")
    (irr,) = state(d)["irregularities"]
    alert = d.room.alerts[irr["id"]]
    option = next(i for i, o in enumerate(alert.options) if o["law"] == "27B1(a)")
    # The director's choice from the console (hub.director: rule with its option).
    d.room.fact("alert_rule", {"id": irr["id"], "text": "East replaces with 2S, no "
                               "rectification (27B1(a))", "option": option}, d.clock)
    (irr,) = state(d)["irregularities"]
    assert irr["director"] == "ruled" and irr["options"] == []
    assert irr["ruling"] == {"law": "27B1(a)", "option": option,
                             "text": "East replaces with 2S, no rectification (27B1(a))",
                             "say": {"key": "rect.lowest_same_denominations",
                                     "values": {"lowest_call": "2S"}}}
    assert d.ok("call", "E", seat="E", call="2S") == []   # the replacement: no new alert
    assert d.calls("Pass", "Pass", "Pass") == []
    assert statuses(d) == [("N", "1NT", "made"), ("E", "1S", "withdrawn"),
                           ("E", "2S", "made"), ("S", "Pass", "made"), ("W", "Pass", "made"),
                           ("N", "Pass", "made")]
    assert str(d.state.sitting.board.play.contract) == "2S"
    d.room.fact("alert_resolve", {"id": irr["id"]}, d.clock)
    assert "irregularities" not in state(d)
    assert [a.kind for a in d.room.alerts.open()] == []


def test_law_29a_a_call_out_of_rotation_is_shown_to_the_table() -> None:
    d = Driver(make_room())
    d.seat_pairs()
    d.ok("call", "S", seat="S", call="1H")          # North deals: South out of rotation
    (irr,) = state(d)["irregularities"]
    assert irr["kind"] == "call_out_of_rotation" and irr["seat"] == "S"


def test_law_16_a_revoke_is_the_directors_alone() -> None:
    """Only the hub knows West still holds a heart: the table is not told (Laws 16, 64)."""
    d = Driver(make_room())
    d.seat_pairs()
    d.calls("1S", "Pass", "Pass", "Pass")
    found: list[str] = []
    for seat, card in (("E", "HJ"), ("S", "H8"), ("W", "C2"), ("N", "HA")):
        found += [a.kind for a in d.ok("card", seat=seat, card=card)]
    assert found == ["revoke"]
    assert "irregularities" not in state(d)
