"""The auction screen's presenter (tablet/presenters/auction.py), without a window, fed
by a real hub table (tests/tablet/tables.py), every event it produces accepted by the
table. Each Law the pad applies has its test."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridgecore.auction import Auction
from bridgecore.calls import Call
from bridgecore.cards import Seat
from tablet.presenters import PresenterError, is_jump
from tests.tablet.tables import SEATS, Table, enabled


def test_law_18_19_strict_pad_offers_only_the_legal_calls_of_the_player_in_turn() -> None:
    t = Table(strict=True).seated()
    t.calls("1S")
    east, south = t["E"], t["S"]
    offered = enabled(east.auction.call_options)
    legal = [str(c) for c in Auction.from_calls(Seat.NORTH, ["1S"]).legal_calls]
    assert offered == legal and "X" in offered and "1H" not in offered and "XX" not in offered
    assert enabled(south.auction.call_options) == []         # not his turn: nothing (Laws 28-32)
    with pytest.raises(PresenterError) as err:
        south.auction.call("2S")
    assert err.value.key == "err.not_your_turn"
    with pytest.raises(PresenterError) as err:
        east.auction.call("1H")                               # insufficient (27): not offered
    assert err.value.key == "err.illegal_call"
    for call in offered:                              # whatever is offered, the hub takes
        event = east.auction.call(call)
        assert event == ("call", {"seat": "E", "call": call, "alert": False}) or \
            event[1].get("stop") is True


def test_law_19_36_strict_pad_never_offers_an_inadmissible_double() -> None:
    t = Table(strict=True).seated()
    t.calls("1S", "Pass")
    south = t["S"]
    offered = enabled(south.auction.call_options)
    assert "X" not in offered and "XX" not in offered   # no double of partner's bid
    t.calls("2S")
    assert "X" in enabled(t["W"].auction.call_options)
    t.calls("X", "Pass", "Pass")
    assert "XX" in enabled(t["S"].auction.call_options)
    assert "XX" not in enabled(t["E"].auction.call_options)


def test_law_27_29_bidding_box_mode_offers_every_call_and_the_hub_alerts_the_director() -> None:
    t = Table().seated()
    t.calls("1S")
    east, west = t["E"], t["W"]
    options = {o.call: o for o in east.auction.call_options}
    assert options["1C"].enabled and not options["1C"].proper    # insufficient, still possible
    assert options["2C"].enabled and options["2C"].proper
    assert all(o.enabled for o in west.auction.call_options)  # out of turn, as with a box
    t.ok(east, east.auction.call("1C"))
    assert [a.kind for a in t.alerts] == ["insufficient_bid"] and t.alerts[0].law.startswith("27")
    t.ok(west, west.auction.call("Pass"))
    kinds = {a.kind for a in t.alerts}
    assert "call_out_of_rotation" in kinds or "insufficient_bid" in kinds


def test_annex_i_jump_bid_carries_stop_and_locks_the_next_players_pad() -> None:
    t = Table().seated()
    north, east, south = t["N"], t["E"], t["S"]
    event = north.auction.call("2S")                                 # a jump opening
    assert event == ("call", {"seat": "N", "call": "2S", "alert": False, "stop": True})
    t.ok(north, event)
    assert east.auction.stop_wait == pytest.approx(10.0)
    assert enabled(east.auction.call_options) == []
    with pytest.raises(PresenterError) as err:
        east.auction.call("Pass")
    assert err.value.key == "err.stop_wait"
    assert south.auction.stop_wait == 0 and east.auction.stop_banner == "STOP: jump bid by North"
    t.now += 4.0
    assert east.auction.stop_wait == pytest.approx(6.0)
    t.now += 6.0
    assert east.auction.stop_wait == 0 and "Pass" in enabled(east.auction.call_options)
    assert east.auction.stop_banner is None
    t.ok(east, east.auction.call("Pass"))
    event = south.auction.call("3S")                                 # not a jump: no STOP
    assert "stop" not in event[1]
    south.auction.set_stop(True)                                     # STOP shown by hand
    assert south.auction.call("3S")[1]["stop"] is True
    assert south.auction.stop_armed is False


def test_annex_i_what_is_a_jump_bid() -> None:
    def jump(call: str, last: str | None) -> bool:
        return is_jump(Call.parse(call), None if last is None else Call.parse(last))
    assert not jump("1C", None) and jump("2C", None) and jump("3NT", None)
    assert not jump("2H", "1S") and jump("3H", "1S") and not jump("2S", "1S")
    assert jump("3S", "1S") and not jump("1NT", "1S") and jump("2NT", "1S")
    assert not jump("Pass", "1S") and not jump("X", "1S")


def test_law_16_40_a_self_alert_reaches_the_opponents_not_partner() -> None:
    t = Table().seated()
    north = t["N"]
    north.auction.set_alert(True, "  5+ spades, 11-15  ")
    event = north.auction.call("1S")
    assert event == ("call", {"seat": "N", "call": "1S", "alert": True,
                              "explanation": "5+ spades, 11-15"})
    assert north.auction.alert_armed is False
    t.ok(north, event)
    stored = t.room.tables["A1"].snapshot()["boards"][0]["auction"][0]
    assert stored[3] is True and stored[4] == "5+ spades, 11-15"
    assert t["E"].auction.cells[0].alert and t["W"].auction.cells[0].alert
    assert north.auction.cells[0].alert
    assert not t["S"].auction.cells[0].alert                      # partner: no UI (16B)
    # EBU (partner explains, hub.explain): the caller's own note is for the director only;
    # it reaches no tablet, partner's least of all (the explanations: test_explain.py).
    assert all(t[seat].auction.cells[0].explanation is None for seat in SEATS)


def test_law_25a_undo_only_before_partner_has_called() -> None:
    t = Table().seated()
    north, south = t["N"], t["S"]
    t.calls("1H")
    assert north.auction.undo_seat == "N"
    t.ok(north, north.auction.undo())
    assert north.model.has_auction and north.model.auction_entries == []
    assert north.model.turn == "N"
    t.calls("1S", "Pass")
    assert north.auction.undo_seat == "N"                 # LHO has called, partner not yet
    t.calls("2S")
    assert north.auction.undo_seat is None                # partner has called: too late (25A)
    with pytest.raises(PresenterError) as err:
        north.auction.undo()
    assert err.value.key == "err.undo_late"
    assert south.auction.undo_seat == "S"
    with pytest.raises(PresenterError) as err:
        t["W"].auction.undo()
    assert err.value.key == "err.undo_none"


def test_law_25a_table_tablet_takes_back_the_last_call() -> None:
    t = Table([None]).seated()
    tab = t[None]
    t.calls("1S", "Pass")
    assert tab.auction.undo_seat == "E"
    t.ok(tab, tab.auction.undo())
    assert [e.call for e in tab.model.auction_entries] == ["1S"] and tab.model.turn == "E"


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_law_17_to_22_whatever_the_strict_pad_offers_the_strict_hub_accepts(
        data: st.DataObject) -> None:
    """Property: calls picked among those offered, from the tablet in turn, are all accepted
    by a strict-mode hub, and the auction ends (Law 22)."""
    t = Table(strict=True).seated()
    for _ in range(60):
        turn = t["N"].model.turn
        if t["N"].model.phase != "auction" or turn is None:
            break
        tablet = t[turn]
        t.now += 20.0
        offered = enabled(tablet.auction.call_options)
        assert offered and all(enabled(t[s].auction.call_options) == [] for s in SEATS if s != turn)
        weights = ["Pass"] * 6 + offered
        call = data.draw(st.sampled_from(weights))
        t.ok(tablet, tablet.auction.call(call))
    assert t["N"].model.phase in ("play", "over")
