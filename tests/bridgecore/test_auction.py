"""The auction (Laws 17-22) and its irregularities (Laws 25-39): golden cases."""

import pytest

from bridgecore import Call, IllegalCallError, Kind, Risk, Seat, StateError, edition
from bridgecore.auction import Auction, CallStatus

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
C = Call.parse


def stream(dealer, *pairs, ed=None):
    """An auction from "N:1C", "E:P", ... in the order given (rotation not enforced)."""
    a = Auction(dealer) if ed is None else Auction(dealer, edition(ed))
    found = []
    for pair in pairs:
        seat, call = pair.split(":")
        found.append(a.push(Seat.parse(seat), C(call)))
    return a, found


def statuses(a):
    return [str(e.status) for e in a.entries]


def laws(irregularity):
    return [o.law for o in irregularity.options]


# -- correct procedure (Laws 17-22) --------------------------------------------------------

def test_law_17_dealer_calls_first_then_clockwise():
    a, seen = Auction(W), []
    for call in ("1C", "P", "P", "P"):
        seen.append(a.turn)
        a.make_call(a.turn, C(call))
    assert seen == [W, N, E, S] and a.is_over and a.turn is None


def test_law_18_sufficiency_by_rank_and_legal_calls():
    a = Auction.from_calls(N, ["1S"])
    legal = a.legal_calls
    assert C("1H") not in legal and C("1S") not in legal and C("1NT") in legal
    assert C("2C") in legal and C("7NT") in legal and C("X") in legal and C("XX") not in legal
    assert a.is_legal(E, C("1NT")) and not a.is_legal(E, C("1H")) and not a.is_legal(S, C("2C"))
    assert len(Auction(N).legal_calls) == 36  # Pass and the 35 bids


def test_law_19A1_double_only_of_opponents_last_bid_with_only_passes_since():
    assert Auction.from_calls(N, ["1S", "P", "P"]).is_legal(W, C("X"))
    assert not Auction.from_calls(N, ["1S", "P"]).is_legal(S, C("X"))  # own side's bid
    assert not Auction(N).is_legal(N, C("X"))  # no bid
    assert not Auction.from_calls(N, ["1S", "X", "P"]).is_legal(W, C("X"))  # already doubled


def test_law_19B1_redouble_only_of_opponents_double():
    assert Auction.from_calls(N, ["1S", "X"]).is_legal(S, C("XX"))
    assert Auction.from_calls(N, ["1S", "X", "P", "P"]).is_legal(N, C("XX"))
    assert Auction.from_calls(N, ["1S", "P", "P", "X"]).is_legal(N, C("XX"))
    assert not Auction.from_calls(N, ["1S", "X", "XX"]).is_legal(W, C("XX"))  # already
    assert not Auction.from_calls(N, ["1S", "X", "P"]).is_legal(W, C("XX"))  # own side's X
    assert not Auction.from_calls(N, ["1S"]).is_legal(E, C("XX"))  # no double


def test_law_22A1_four_passes_pass_out():
    a = Auction.from_calls(E, ["P", "P", "P", "P"])
    assert a.is_over and a.is_passed_out and a.contract is None and a.declarer is None
    assert a.legal_calls == [] and a.turn is None and not a.irregularities


def test_law_22A2_three_passes_after_a_bid_end_the_auction_with_risk():
    a = Auction.from_calls(N, ["1S", "X", "XX", "P", "P", "P"])
    assert a.is_over and not a.is_passed_out
    contract = a.contract
    assert contract is not None and str(contract) == "1SXX" and contract.risk is Risk.REDOUBLED
    assert (a.declarer, a.dummy, a.opening_leader) == (N, S, E)
    assert not Auction.from_calls(N, ["1S", "P", "P"]).is_over


def test_law_19C_a_later_bid_supersedes_the_double():
    a = Auction.from_calls(N, ["1S", "X", "2S", "P", "P", "P"])
    assert str(a.contract) == "2S" and a.contract.risk is Risk.UNDOUBLED


def test_declarer_is_first_of_the_side_to_name_the_strain():
    # E names hearts first, but N-S play hearts: S named them first for his side.
    a = Auction.from_calls(N, ["1S", "2H", "3H", "P", "4H", "P", "P", "P"])
    assert a.contract is not None and a.contract.declarer is S and a.declarer is S
    assert a.dummy is N and a.opening_leader is W
    b = Auction.from_calls(N, ["1C", "P", "1H", "P", "1S", "P", "2NT", "P", "3NT", "P", "P", "P"])
    assert b.declarer is S and str(b.contract) == "3NT"


def test_entries_keep_metadata_beside_the_call():
    a = Auction(N)
    a.push(N, C("2C"), 12.5, alert=True, explanation="strong")
    (entry,) = a.entries
    assert (entry.seat, entry.call, entry.time, entry.alert, entry.explanation) == \
        (N, C("2C"), 12.5, True, "strong")
    assert entry.index == 1 and entry.status is CallStatus.MADE and len(a) == 1


def test_push_checks_types_only():
    a = Auction(N)
    with pytest.raises(TypeError):
        a.push("N", C("1C"))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        a.push(N, "1C")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        a.push(N, C("1C"), "12:00")  # type: ignore[arg-type]
    assert len(a) == 0


# -- checked calls ------------------------------------------------------------------------------

@pytest.mark.parametrize("calls,seat,call,message", [
    (["1S"], E, "1H", "insufficient bid 1H after 1S by N"),
    (["1S"], S, "2S", "out of rotation: it is E's turn"),
    (["1S", "P"], S, "X", "Law 19A1: 1S was bid by N, his own side"),
    (["1S"], E, "XX", "Law 19B1: there is no double to redouble"),
    (["1S"], E, "8C", "bid above seven"),
    (["1S", "P", "P", "P"], E, "2H", "the auction is over"),
])
def test_make_call_refuses_illegal_calls_with_a_precise_message(calls, seat, call, message):
    a = Auction.from_calls(N, calls)
    with pytest.raises(IllegalCallError, match=message):
        a.make_call(seat, C(call))
    assert len(a) == len(calls)


def test_make_call_respects_pass_obligations():
    a = Auction.from_calls(N, ["1S"])
    a.impose_pass_obligation(E, False, "30B1")
    assert a.legal_calls == [C("P")]
    with pytest.raises(IllegalCallError, match=r"E must pass \(Law 30B1\)"):
        a.make_call(E, C("2H"))
    a.make_call(E, C("P"))
    assert a.pass_obligations == {} and not a.irregularities


# -- Law 27 --------------------------------------------------------------------------------------

@pytest.mark.parametrize("calls,lowest", [
    (["1S", "1H"], "2H"), (["1H", "1C"], "2C"), (["1NT", "1S"], "2S"), (["2D", "2C"], "3C"),
    (["7NT", "7C"], None),
])
def test_law_27_insufficient_bid_reports_lowest_sufficient_bid(calls, lowest):
    a = Auction.from_calls(N, calls)
    (irr,) = a.irregularities
    assert irr.kind is Kind.INSUFFICIENT_BID and irr.law == "27" and irr.seat is E
    assert irr.call == 2 and dict(irr.extra)["lowest_sufficient"] == lowest
    assert a.entries[1].status is CallStatus.PENDING


def test_law_27A1_lho_call_accepts_the_insufficient_bid_which_becomes_the_last_bid():
    a = Auction.from_calls(N, ["1S", "1H", "1NT", "P", "P", "P"])
    assert len(a.irregularities) == 1 and statuses(a)[1] == "accepted"
    assert str(a.contract) == "1NT" and a.declarer is S


def test_law_27C_offenders_next_call_is_the_replacement_not_a_change_of_call():
    a, found = stream(N, "N:1S", "E:1H", "E:2H")
    assert found[2] == () and statuses(a) == ["made", "withdrawn", "made"]
    assert a.last_bid == C("2H") and a.turn is S
    a.push(S, C("P"))
    assert statuses(a)[2] == "made"  # the replacement stands (27C)


def test_law_27B4_an_insufficient_replacement_is_again_insufficient():
    a, found = stream(N, "N:1S", "E:1H", "E:1D")
    assert [i.kind for i in found[2]] == [Kind.INSUFFICIENT_BID]
    assert a.last_bid == C("1D")


@pytest.mark.parametrize("ed,present,absent,text", [
    ("1997", ["27A1", "27B1(a)", "27B2", "27B3"], ["27B1(b)", "27B4", "27D"], "both bids natural"),
    ("2007", ["27B1(a)", "27B1(b)", "27B4", "27D"], [], "same or a more precise meaning"),
    ("2017", ["27B1(a)", "27B1(b)", "27B4", "27D"], [], "comparable call"),
])
def test_law_27B1_options_follow_the_edition(ed, present, absent, text):
    (irr,) = Auction.from_calls(N, ["1S", "1H"], edition(ed)).irregularities
    assert set(present) <= set(laws(irr)) and not set(absent) & set(laws(irr))
    assert any(text in o.text for o in irr.options)


# -- Laws 28-32: calls out of rotation ------------------------------------------------------------

def test_law_31_insufficient_bid_out_of_rotation_is_reported_as_out_of_rotation_27A2():
    _, found = stream(N, "N:1S", "S:1H")
    (irr,) = found[1]
    assert irr.kind is Kind.CALL_OUT_OF_ROTATION and irr.law == "31" and "27A2" in irr.detail
    assert irr.extra == (("at_turn_of", "rho"),)


def test_law_28B_player_in_turn_calling_first_cancels_the_call_out_of_rotation():
    a, found = stream(N, "N:1C", "S:1H", "E:P")
    assert found[2] == () and statuses(a) == ["made", "cancelled", "made"]
    assert a.turn is S and a.last_bid == C("1C")


def test_law_29A_lho_calling_accepts_the_call_and_rotation_continues_from_it():
    a, found = stream(N, "N:1C", "S:1H", "W:P")
    assert found[2] == () and statuses(a) == ["made", "accepted", "made"]
    assert a.turn is N and a.last_bid == C("1H")  # East lost his turn
    for seat in (N, E):
        a.push(seat, C("P"))
    assert a.is_over and a.declarer is S


def test_a_pending_call_out_of_rotation_has_no_effect():
    a, _ = stream(N, "N:1C", "S:2H")
    assert a.turn is E and a.last_bid == C("1C") and statuses(a)[1] == "pending"


@pytest.mark.parametrize("pairs,relation,law,options", [
    (("E:P",), "rho", "30", ["29A", "28B", "29B", "30A"]),           # before any bid
    (("N:1C", "S:P"), "rho", "30", ["29A", "28B", "29B", "30B1"]),
    (("N:1C", "W:P"), "partner", "30", ["29A", "29B", "30B2(a)", "30B2(b)"]),
    (("N:1C", "S:P", "N:P"), "lho", "30", ["29A", "29B", "30B3"]),  # N had called
    (("N:1C", "S:1H"), "rho", "31", ["29A", "28B", "29B", "31A1", "31A2", "29C"]),
    (("N:1C", "W:1H"), "partner", "31", ["29A", "29B", "31B", "29C"]),
    (("W:1H",), "lho", "31", ["29A", "29B", "31B", "29C"]),  # LHO is dealer, W had not called
    (("N:1C", "E:P", "W:X"), "rho", "32", ["29A", "28B", "29B", "32B1", "32B2"]),
    (("N:1C", "W:X"), "partner", "32", ["29A", "29B", "32A"]),
])
def test_laws_30_31_32_options_by_relation_to_the_player_in_turn(pairs, relation, law, options):
    _, found = stream(N, *pairs, ed="2007")
    (irr,) = found[-1]
    assert irr.kind is Kind.CALL_OUT_OF_ROTATION and irr.law == law
    assert irr.extra == (("at_turn_of", relation),) and laws(irr) == options
    assert irr.to_json()["at_turn_of"] == relation


def test_laws_30_to_32_comparable_call_in_2017_partner_passes_once():
    _, found = stream(N, "N:1C", "W:1H", ed="2017")
    (irr,) = found[-1]
    text = " ".join(o.text for o in irr.options)
    assert "comparable" in text and "pass at his next turn" in text and "throughout" not in text
    _, found = stream(N, "N:1C", "W:1H", ed="2007")
    assert "E must pass throughout" in " ".join(o.text for o in found[-1][0].options)


def test_law_28A_call_when_rho_is_obliged_to_pass_is_in_rotation():
    a = Auction.from_calls(N, ["1C"])
    a.impose_pass_obligation(E, False, "30B1")
    assert a.push(S, C("1H")) == ()
    assert a.turn is W and a.pass_obligations == {}  # E deemed to have passed, once
    a.push(W, C("P"))
    a.push(N, C("P"))
    a.push(E, C("P"))
    assert a.is_over and str(a.contract) == "1H" and a.declarer is S


def test_law_34_three_passes_one_out_of_rotation_east_skipped():
    """laws.md 3.1: N 1C, (E skipped) S P, W P, N P -> back to East, all three passes cancelled."""
    a, found = stream(N, "N:1C", "S:P", "W:P", "N:P", ed="2007")
    assert not a.is_over and a.turn is E and a.last_bid == C("1C")
    assert statuses(a) == ["made", "cancelled", "cancelled", "cancelled"]
    (irr,) = found[3]
    assert irr.kind is Kind.CALL_OUT_OF_ROTATION and irr.law == "17E2" and irr.seat is S
    assert irr.call == 2 and dict(irr.extra)["reverts_to"] == "E"
    a.push(E, C("P"))
    assert a.turn is S


def test_law_34_three_passes_one_out_of_rotation_south_skipped():
    """laws.md 3.1: N 1C, E P, (S skipped) W P, N P -> back to South, last two cancelled."""
    a, found = stream(N, "N:1C", "E:P", "W:P", "N:P")
    assert a.turn is S and not a.is_over
    assert statuses(a) == ["made", "made", "cancelled", "cancelled"]
    assert found[3][0].seat is W and found[3][0].law == "17D3"


@pytest.mark.parametrize("ed,law", [("1997", "34"), ("2007", "17E2"), ("2017", "17D3")])
def test_law_34_citation_follows_the_edition(ed, law):
    _, found = stream(N, "N:1C", "S:P", "W:P", "N:P", ed=ed)
    assert found[3][0].law == law


def test_law_22A1_accepted_first_pass_out_of_rotation_still_passes_out():
    a, _ = stream(N, "E:P", "S:P", "W:P", "N:P")  # all four passed, in rotation from East
    assert a.is_passed_out and statuses(a) == ["accepted", "made", "made", "made"]


# -- Laws 36-39 ----------------------------------------------------------------------------------

def test_law_36_inadmissible_double_has_no_effect_on_the_risk():
    a, found = stream(N, "N:1S", "E:P", "S:X")
    (irr,) = found[2]
    assert irr.kind is Kind.INADMISSIBLE_DOUBLE and irr.law == "36" and "19A1" in irr.detail
    assert laws(irr) == ["36A", "36B"] and statuses(a)[2] == "cancelled"
    for seat in (W, N, E):
        a.push(seat, C("P"))
    assert str(a.contract) == "1S" and a.contract.risk is Risk.UNDOUBLED
    assert statuses(a)[2] == "cancelled"  # never accepted


def test_law_36_inadmissible_redouble_cites_19B1():
    _, found = stream(N, "N:1S", "E:XX")
    (irr,) = found[1]
    assert irr.kind is Kind.INADMISSIBLE_REDOUBLE and "19B1" in irr.detail
    assert "no double to redouble" in irr.detail


def test_law_36B2_offenders_next_call_substitutes_the_inadmissible_double():
    a, found = stream(N, "N:1S", "E:P", "S:X", "S:2S")
    assert found[3] == () and a.last_bid == C("2S") and a.turn is W


def test_law_36B4_inadmissible_double_out_of_rotation():
    _, found = stream(N, "N:1S", "S:X")
    (irr,) = found[1]
    assert irr.kind is Kind.INADMISSIBLE_DOUBLE and laws(irr) == ["36A", "36B", "36B4"]
    assert irr.extra == (("at_turn_of", "rho"),)


def test_law_38_bid_above_seven_never_becomes_the_contract():
    a, found = stream(N, "N:1S", "E:8H", "S:P", "W:P", "N:P")
    (irr,) = found[1]
    assert irr.kind is Kind.BID_ABOVE_SEVEN and irr.law == "38"
    assert laws(irr) == ["38A", "38B", "38C", "38D"]
    assert a.is_over and str(a.contract) == "1S" and a.declarer is N


def test_law_37_call_in_breach_of_pass_obligation_stands_when_lho_calls():
    a = Auction.from_calls(N, ["1S", "P", "P"])
    a.impose_pass_obligation(W, True, "31B")
    (irr,) = a.push(W, C("2H"))
    assert irr.kind is Kind.CALL_IN_BREACH_OF_PASS_OBLIGATION and irr.law == "37"
    assert laws(irr) == ["37A", "37B"] and "31B" in irr.detail
    a.push(N, C("P"))
    assert statuses(a)[3] == "accepted" and a.last_bid == C("2H")
    a.push(E, C("3C"))
    a.push(S, C("P"))
    assert a.legal_calls == [C("P")] and a.turn is W  # W still obliged to pass throughout


def test_law_30B2b_partner_may_not_double_at_that_turn():
    a = Auction.from_calls(N, ["1S"])
    a.impose_pass_obligation(E, False, "30B2(b)", no_double=True)
    assert C("X") not in a.legal_calls and C("2H") in a.legal_calls
    (irr,) = a.push(E, C("X"))
    assert irr.kind is Kind.CALL_IN_BREACH_OF_PASS_OBLIGATION and "30B2(b)" in irr.detail
    assert a.pass_obligations == {}  # "at that turn" only


def test_pass_obligation_once_clears_after_the_next_call_throughout_stays():
    a = Auction.from_calls(N, ["1S"])
    a.impose_pass_obligation(E, False, "30B1")
    a.impose_pass_obligation(W, True, "30B2(a)")
    for call in ("P", "2S", "P", "P", "P"):
        a.push(a.turn, C(call))
    assert not a.irregularities and list(a.pass_obligations) == [W]
    with pytest.raises(StateError):
        a.impose_pass_obligation(N, True, "27B2")


@pytest.mark.parametrize("seat,call,options", [
    (E, "2H", ["39A", "39B", "39C"]),  # a defender's bid
    (E, "P", ["39A", "39B"]),          # a pass by a defender
    (S, "2S", ["39A", "39B"]),         # dummy
])
def test_law_39_call_after_the_final_pass(seat, call, options):
    a = Auction.from_calls(N, ["1S", "P", "P", "P"])
    (irr,) = a.push(seat, C(call))
    assert irr.kind is Kind.CALL_AFTER_FINAL_PASS and irr.law == "39" and laws(irr) == options
    assert a.is_over and str(a.contract) == "1S" and statuses(a)[-1] == "cancelled"


def test_law_39_after_pass_out():
    a = Auction.from_calls(N, ["P", "P", "P", "P"])
    (irr,) = a.push(N, C("1NT"))
    assert laws(irr) == ["39A", "39B"] and a.is_passed_out


# -- Law 25 --------------------------------------------------------------------------------------

def test_law_25_change_of_call_with_elapsed_time_and_edition_options():
    for ed, text in (("2007", "without pause for thought"), ("2017", "until S calls")):
        a = Auction(N, edition(ed))
        a.push(N, C("1S"), 10.0)
        (irr,) = a.push(N, C("2S"), 11.5)
        assert irr.kind is Kind.CHANGE_OF_CALL and irr.law == "25" and laws(irr) == ["25A", "25B"]
        assert dict(irr.extra) == {"original": "1S", "elapsed": 1.5}
        assert text in irr.options[0].text
        assert a.last_bid == C("2S") and statuses(a) == ["withdrawn", "pending"]
        a.push(E, C("P"))
        assert statuses(a) == ["withdrawn", "accepted", "made"]  # 25B1: LHO called


def test_law_25B_1997_delayed_change_options():
    _, found = stream(N, "N:1S", "N:2S", ed="1997")
    assert "average-minus" in found[1][0].options[1].text


def test_law_25_change_of_the_final_pass_reopens_the_auction():
    a, found = stream(N, "N:1S", "E:P", "S:P", "W:P", "W:2H")
    (irr,) = found[4]
    assert irr.kind is Kind.CHANGE_OF_CALL and "39" in laws(irr)
    assert not a.is_over and a.turn is N and a.last_bid == C("2H")


def test_law_25_change_of_a_call_out_of_rotation_stays_out_of_rotation():
    a, found = stream(N, "N:1C", "S:1H", "S:1S")
    assert [i.kind for i in found[2]] == [Kind.CHANGE_OF_CALL, Kind.CALL_OUT_OF_ROTATION]
    assert statuses(a) == ["made", "withdrawn", "pending"] and a.turn is E


# -- pop -----------------------------------------------------------------------------------------

def test_pop_undoes_push_including_law_34_reversion():
    a, _ = stream(N, "N:1C", "S:P", "W:P")
    before = (a.turn, statuses(a), a.irregularities)
    a.push(N, C("P"))
    entry = a.pop()
    assert entry.seat is N and entry.status is CallStatus.CANCELLED and entry.index == 4
    assert (a.turn, statuses(a), a.irregularities) == before
    with pytest.raises(StateError):
        Auction(N).pop()


def test_law_29A_call_before_the_dealer_is_accepted_when_dealer_calls():
    a, found = stream(N, "W:1H", "N:P", "E:P", "S:P")
    assert found[1:] == [(), (), ()] and statuses(a) == ["accepted", "made", "made", "made"]
    assert str(a.contract) == "1H" and a.declarer is W


def test_law_28B_partner_of_the_offender_calling_in_turn_cancels_the_call():
    a, _ = stream(N, "N:1C", "W:1H", "E:P")
    assert statuses(a) == ["made", "cancelled", "made"] and a.turn is S


def test_irregularities_carry_the_time_of_the_call_and_serialise():
    a = Auction.from_calls(N, ["1S"])
    (irr,) = a.push(E, C("1H"), 42.0)
    assert irr.time == 42.0 and irr.to_json()["lowest_sufficient"] == "2H"
    assert a.irregularities == (irr,)


def test_pop_restores_pass_obligations_and_statuses():
    a = Auction.from_calls(N, ["1S"])
    a.impose_pass_obligation(E, False, "30B1")
    a.push(E, C("P"))
    assert a.pass_obligations == {}
    a.pop()
    assert list(a.pass_obligations) == [E]
    a.push(S, C("2S"))  # 28A: East deemed to have passed
    assert a.pop().status is CallStatus.MADE and a.turn is E
