"""Dummy's cards in the public state (protocol 11.1 ``dummy``) around an opening lead out of
turn (Law 54). A player met it: South led out of turn and every tablet, the defenders'
included, showed East's hand as dummy at once, though declarer may still spread his own
hand and become dummy (54A), making East declarer with his cards seen. Dummy is spread once
declarer accepts the lead (54B1), the director rules, or a card is played to it."""

from __future__ import annotations

from bridgecore.cards import Seat
from tests.hub.test_table import Driver


def held(d: Driver, seat: Seat) -> str:
    """A card ``seat`` holds (the play is under way: the auction is over)."""
    play = d.state.sitting.board.play
    return str(play.remaining_cards(seat)[0])


def opening_lead_out_of_turn() -> Driver:
    d = Driver()
    d.seat_pairs()
    d.calls("1NT", "Pass", "Pass", "Pass")   # North declares: East is on lead, South dummy
    d.card("W", held(d, Seat.WEST))                        # West, not East, leads
    return d


def test_law_54a_no_dummy_while_declarer_may_still_spread_his_own_hand() -> None:
    d = opening_lead_out_of_turn()
    state = d.state.public_state()
    assert [i["kind"] for i in state["irregularities"]] == ["lead_out_of_turn"]
    assert "dummy" not in state
    assert "auction" not in state            # the lead is faced: the auction is put away


def test_law_54b1_dummy_is_spread_once_declarer_accepts_the_lead() -> None:
    d = opening_lead_out_of_turn()
    irr = d.state.public_state()["irregularities"][0]
    assert irr["options"] == [{"choice": "accept", "seat": "N", "law": irr["options"][0]["law"]}]
    d.ok("rectify", "N", seat="N", irregularity=irr["id"], choice="accept")
    state = d.state.public_state()
    assert state["dummy"]["seat"] == "S" and len(state["dummy"]["cards"]) == 13


def test_law_54_dummy_is_spread_once_the_director_rules() -> None:
    d = opening_lead_out_of_turn()
    alert = next(a for a in d.room.alerts.open() if a.kind == "lead_out_of_turn")
    d.room.alerts.rule(alert.id, d.clock, "declarer accepts the lead")
    assert d.state.public_state()["dummy"]["seat"] == "S"


def test_law_41d_a_lead_in_turn_spreads_dummy_at_once() -> None:
    d = Driver()
    d.seat_pairs()
    d.calls("1NT", "Pass", "Pass", "Pass")
    d.card("E", held(d, Seat.EAST))
    assert d.state.public_state()["dummy"]["seat"] == "S"
