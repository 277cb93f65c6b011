"""Claims and concessions (Laws 68-71) and their effect on revokes (63A3, 63A4)."""

import pytest

from bridgecore import Card, Contract, Deal, IllegalPlayError, Kind, Seat, StateError, edition
from bridgecore.claims import Claim, ClaimStatus
from bridgecore.play import Play

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
ROT = Deal.parse("N:K95.Q84.J73.AT62 Q84.J73.AT62.K95 J73.AT62.K95.Q84 AT62.K95.Q84.J73")


def run(play: Play, text: str) -> None:
    for token in text.split():
        seat, card = token.split(":")
        play.push(Seat.parse(seat), Card.parse(card))


def started(contract: str = "3NT", year: str = "2017") -> Play:
    play = Play(ROT, Contract.parse(contract, S), edition(year))
    run(play, "W:H5 N:HQ E:HJ S:H2")  # N (dummy) wins trick 1
    return play


def test_law_69A_claim_accepted_by_both_defenders_is_scored_as_won() -> None:
    play = started()
    claim = play.claim(S, 9, time=12.5, statement="nine top tricks")
    assert (claim.remaining, claim.trick, claim.conceded) == (12, 2, 3)
    assert play.turn is None and play.legal_cards == ()
    play.accept(W)
    assert play.claims[-1].status is ClaimStatus.OPEN  # one defender is not enough
    play.accept(E, time=13.0)
    final = play.claims[-1]
    assert final.status is ClaimStatus.ACCEPTED and final.answers[-1] == ("accept", E, 13.0)
    result = play.result()
    assert (result.tricks_as_played, result.claimed, result.complete) == (10, True, False)


def test_law_68B1_concession_is_a_claim_of_fewer_tricks() -> None:
    play = started()
    claim = play.claim(E, 0)
    assert claim.is_concession and claim.tricks_for(S.side) == 12
    play.accept(S)
    assert play.result().tricks_as_played == 13


def test_law_71_1_cannot_arise_only_remaining_tricks_are_conceded() -> None:
    """71(1): conceding a trick already won is impossible in these values."""
    play = started()
    claim = play.claim(W, 2)
    assert claim.tricks_for(W.side) + claim.tricks_for(N.side) == 12 == 13 - 1
    with pytest.raises(ValueError, match="cannot claim 13 of the 12 remaining"):
        Claim(W, S, 13, 12, 2, 4)


def test_law_70_disputed_claim_gives_director_options() -> None:
    play = started("4C")
    play.claim(S, 12, statement="all")
    found = play.dispute(E, time=20.0)
    assert found.kind is Kind.DISPUTED_CLAIM and found.law == "70" and found.seat is S
    assert [o.law for o in found.options] == ["70A", "70B", "70C", "70D", "70E"]
    assert ("opponent_holds_trump", True) in found.extra and ("statement", "all") in found.extra
    assert play.irregularities[-1] == found
    result = play.result()
    assert not result.claimed and result.tricks_as_played == 1


def test_law_70C_aid_no_trump_held_at_no_trump() -> None:
    play = started("3NT")
    assert play.claim(S, 12).opponent_holds_trump is False


def test_law_68D_dummy_may_dispute() -> None:
    play = started()
    play.claim(E, 5)
    assert play.dispute(N).law == "70"
    assert play.claims[-1].status is ClaimStatus.DISPUTED


def test_law_68B2_defenders_concession_objected_by_partner_is_void() -> None:
    play = started()
    play.claim(W, 0)
    found = play.dispute(E)
    assert found.law == "68B2" and play.claims[-1].status is ClaimStatus.VOID
    assert play.claim_in_force is None and play.turn is N  # play continues
    play.play_card(N, Card.parse("S5"))


def test_law_69B_dispute_after_agreeing_is_withdrawal_of_acquiescence() -> None:
    play = started()
    play.claim(S, 12)
    play.accept(W)
    play.accept(E)
    assert play.dispute(W).law == "69B"


def test_law_68D_play_ceases_after_claim_and_later_cards_are_evidence() -> None:
    play = started()
    play.claim(S, 12)
    play.accept(W)
    play.accept(E)
    with pytest.raises(IllegalPlayError, match="68D"):
        play.play_card(N, Card.parse("S5"))
    run(play, "N:S5 E:SQ S:S3 W:S2")  # recorded as evidence (70D3)
    assert len(play.completed_tricks) == 2
    assert play.result().tricks_as_played == 13


def test_claim_errors() -> None:
    play = started()
    with pytest.raises(StateError, match="no open claim"):
        play.accept(W)
    with pytest.raises(StateError, match="no claim stands"):
        play.dispute(W)
    play.claim(S, 10)
    with pytest.raises(StateError, match="stands"):
        play.claim(W, 3)
    with pytest.raises(StateError, match="own side"):
        play.accept(N)
    with pytest.raises(StateError, match="his own claim"):
        play.dispute(S)
    with pytest.raises(ValueError, match="14 of the 13 remaining"):
        Play(ROT, Contract.parse("3NT", S)).claim(S, 14)


def test_defenders_claim_needs_declarers_agreement() -> None:
    play = started()
    play.claim(W, 4)
    play.accept(S)
    assert play.claims[-1].status is ClaimStatus.ACCEPTED
    assert play.result().tricks_as_played == 1 + 8


# Claims and revokes (63A3, 63A4) --------------------------------------------------------------
def revoked_then_claimed(year: str) -> Play:
    """E revokes at trick 1, S wins it and claims 11 of the 12 left before E plays again."""
    play = Play(ROT, Contract.parse("3NT", S), edition(year))
    run(play, "W:HK N:H4 E:D2 S:HA")
    play.claim(S, 11)
    return play


def test_law_63A3_agreeing_to_claim_establishes_revoke() -> None:
    play = revoked_then_claimed("2007")
    play.accept(W)
    (r,) = play.revokes()
    assert r.established and r.established_by == "63A3: W agreed to S's claim"
    play.accept(E)
    (irr,) = play.revoke_irregularities()
    assert (irr.law, irr.transfer) == ("64A2", 1)
    assert play.result().tricks_rectified == 1 + 11 + 1


def test_law_63A3_claim_by_offending_side_establishes() -> None:
    play = Play(ROT, Contract.parse("3NT", S), edition("2007"))
    run(play, "W:HK N:H4 E:D2 S:HA")
    play.claim(E, 1)
    assert play.revokes()[0].established_by == "63A3: claim by E"


@pytest.mark.parametrize(("year", "established"), [("2017", True), ("2007", False)])
def test_law_63A4_acquiescence_establishes_in_2017(year: str, established: bool) -> None:
    play = revoked_then_claimed(year)
    (r,) = play.revokes()
    assert r.established is established
    if established:
        assert r.established_by.startswith("63A4")


def test_law_68B2_void_concession_does_not_establish() -> None:
    play = Play(ROT, Contract.parse("3NT", S), edition("2017"))
    run(play, "W:HK N:H4 E:D2 S:HA")
    play.claim(W, 0)
    play.dispute(E)
    assert play.revokes()[0].established is False
