"""Revokes: detection (61A), establishment (63A) and the Law 64 transfer, by edition."""

import pytest

from bridgecore import Card, Contract, Deal, Edition, Kind, Seat, Side, edition
from bridgecore.play import Play, Trick
from bridgecore.revoke import EQUITY_NOTE, Attention, Revoke, transfer

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
ROT = Deal.parse("N:K95.Q84.J73.AT62 Q84.J73.AT62.K95 J73.AT62.K95.Q84 AT62.K95.Q84.J73")
E2017, E2007, E1997 = edition("2017"), edition("2007"), edition("1997")


def c(text: str) -> Card:
    return Card.parse(text)


def run(play: Play, text: str) -> None:
    for token in text.split():
        seat, card = token.split(":")
        play.push(Seat.parse(seat), c(card))


def tricks(winners: str, cards: dict[int, tuple[tuple[Seat, Card], ...]] | None = None
           ) -> list[Trick]:
    """13 tricks won by the seats of ``winners`` ("NNEW..."); cards only where given."""
    out = []
    for i, letter in enumerate(winners, start=1):
        seat = Seat.parse(letter)
        played = (cards or {}).get(i, ((seat, c("C2")),))
        out.append(Trick(i, seat, played, seat))
    return out


def rv(seat: Seat, trick: int, suit: str = "H", established: bool = True, faced: bool = False,
       corrected: bool = False) -> Revoke:
    card = c("C3") if suit != "C" else c("D3")
    return Revoke(seat, trick, card, c(suit + "2").suit, faced=faced, established=established,
                  corrected=corrected)


# 64A by the pure function ------------------------------------------------------------------------
def test_law_64A1_offender_won_revoke_trick_transfers_two() -> None:
    result = transfer([rv(E, 3)], tricks("NNENNNNWNNNNN"), S, E2017)
    (t,) = result.transfers
    assert (t.law, t.tricks) == ("64A1", 2) and result.declarer_change == 2
    assert t.detail.endswith(EQUITY_NOTE)


def test_law_64A1_offender_won_revoke_trick_but_no_later_trick_transfers_one() -> None:
    (t,) = transfer([rv(E, 3)], tricks("NNENNNNNNNNNN"), S, E2017).transfers
    assert (t.law, t.tricks) == ("64A1", 1)


def test_law_64A2_partner_won_revoke_trick_transfers_one() -> None:
    (t,) = transfer([rv(E, 3)], tricks("NNWNNNNWNNNNN"), S, E2017).transfers
    assert (t.law, t.tricks) == ("64A2", 1)


def test_law_64A2_trick_won_in_dummy_is_not_won_by_declarer() -> None:
    result = transfer([rv(S, 3)], tricks("EENEEEEEEEEEE"), S, E2017)
    (t,) = result.transfers
    assert (t.law, t.tricks) == ("64A2", 1) and result.declarer_change == -1


def test_law_64A2_later_trick_of_offending_side_counts() -> None:
    (t,) = transfer([rv(E, 3)], tricks("NNNNNNNNNNNNW"), S, E2017).transfers
    assert (t.law, t.tricks) == ("64A2", 1)


@pytest.mark.parametrize(("ed", "n"), [(E1997, 2), (E2007, 1), (E2017, 1)])
def test_law_64A2_1997_extra_trick_for_later_win_with_a_card_of_the_suit(ed: Edition,
                                                                       n: int) -> None:
    played = tricks("NNWNNNENNNNNN", {7: ((E, c("HJ")),)})
    (t,) = transfer([rv(E, 3)], played, S, ed).transfers
    assert (t.law, t.tricks) == ("64A2", n)


def test_law_64A2_1997_no_extra_trick_when_later_win_is_in_another_suit() -> None:
    played = tricks("NNWNNNENNNNNN", {7: ((E, c("SA")),)})
    (t,) = transfer([rv(E, 3)], played, S, E1997).transfers
    assert t.tricks == 1


# 64B exclusions -------------------------------------------------------------------------------
def test_law_64B1_offending_side_won_nothing_from_revoke_trick_on() -> None:
    (t,) = transfer([rv(E, 3)], tricks("EENNNNNNNNNNN"), S, E2017).transfers
    assert (t.law, t.tricks, t.exclusions) == ("64B1", 0, ("64B1",))


def test_law_64B2_second_revoke_same_suit_same_player() -> None:
    first, second = transfer([rv(E, 3), rv(E, 6)], tricks("NNENNEWNNNNNW"), S, E2017).transfers
    assert first.law == "64A1" and first.tricks == 2
    assert (second.law, second.tricks) == ("64B2", 0)


@pytest.mark.parametrize(("ed", "law"), [(E2007, "64B2"), (E2017, "64A2")])
def test_law_64B2_2017_counts_only_an_established_first_revoke(ed: Edition, law: str) -> None:
    revokes = [rv(E, 3, established=False), rv(E, 6)]
    _, second = transfer(revokes, tricks("NNNNNWNNNNNNN"), S, ed).transfers
    assert second.law == law


def test_law_64B3_dummy_revoke_no_transfer() -> None:
    (t,) = transfer([rv(N, 3, faced=True)], tricks("NNNNNNNNNNNNN"), S, E2017).transfers
    assert (t.law, t.tricks) == ("64B3", 0)


def test_law_64B4_attention_after_next_board_call() -> None:
    attention = Attention(after_next_board_call=True)
    (t,) = transfer([rv(E, 3)], tricks("NNENNNNWNNNNN"), S, E2017, attention).transfers
    assert (t.law, t.tricks) == ("64B4", 0)


def test_law_64B5_attention_after_round_end() -> None:
    attention = Attention.at(100.0, round_end=90.0)
    assert attention.after_round_end and not attention.after_next_board_call
    (t,) = transfer([rv(E, 3)], tricks("NNENNNNWNNNNN"), S, E2017, attention).transfers
    assert (t.law, t.tricks) == ("64B5", 0)


def test_law_64B6_trick_12_revoke_is_corrected_not_transferred() -> None:
    (t,) = transfer([rv(E, 12)], tricks("NNNNNNNNNNNEW"), S, E2017).transfers
    assert (t.law, t.tricks) == ("64B6", 0)
    assert t.irregularity().options[0].law == "62D1"


@pytest.mark.parametrize(("ed", "laws"), [(E1997, ("64A2", "64A2")), (E2007, ("64B7", "64B7")),
                                          (E2017, ("64B7", "64B7"))])
def test_law_64B7_both_sides_revoked_from_2007(ed: Edition, laws: tuple[str, str]) -> None:
    revokes = [rv(E, 3), rv(S, 5)]
    result = transfer(revokes, tricks("NNWNNNNWNNNNN"), S, ed)
    assert tuple(t.law for t in result.transfers) == laws


def test_law_64B7_2017_needs_both_revokes_established() -> None:
    revokes = [rv(E, 3), rv(S, 5, established=False)]
    first, second = transfer(revokes, tricks("NNWNNNNWNNNNN"), S, E2017).transfers
    assert (first.law, first.tricks) == ("64A2", 1) and second.law == "62A"


@pytest.mark.parametrize(("ed", "law"), [(E2017, "64B8"), (E2007, "64A2")])
def test_law_64B8_revoke_corrected_under_62C3(ed: Edition, law: str) -> None:
    (t,) = transfer([rv(E, 3, corrected=True)], tricks("NNWNNNNNNNNNN"), S, ed).transfers
    assert t.law == law


def test_transfer_capped_by_tricks_the_offending_side_won() -> None:
    """Interpretation note (laws.md 4.8 a): two revokes cannot take more tricks than won."""
    result = transfer([rv(E, 5), rv(W, 9, "S")], tricks("NNNNENNNNNWNN"), S, E2017)
    first, second = result.transfers
    assert (first.law, first.tricks) == ("64A1", 1) and "capped" in first.detail
    assert (second.law, second.tricks) == ("64A2", 1)
    assert result.declarer_change == 2


def test_claimed_tricks_count_as_won_after_play() -> None:
    (t,) = transfer([rv(E, 3)], tricks("NNE"), S, E2017, claimed={Side.EW: 1, Side.NS: 9}
                    ).transfers
    assert (t.law, t.tricks) == ("64A1", 2)


def test_not_established_revoke_transfers_nothing() -> None:
    (t,) = transfer([rv(E, 3, established=False)], tricks("NNENNNNWNNNNN"), S, E2017).transfers
    irr = t.irregularity()
    assert (irr.law, irr.transfer, irr.established) == ("62A", 0, False)


# Detection and establishment in Play (61A, 63A) -------------------------------------------------
def four_clubs(year: str = "2017") -> Play:
    return Play(ROT, Contract.parse("4C", S), edition(year))


def test_law_61A_revoke_detected_when_holding_the_suit_led() -> None:
    play = four_clubs()
    run(play, "W:HK N:H4")
    (found,) = play.push(E, c("C5"))
    assert found.kind is Kind.REVOKE and found.law == "61" and found.established is False
    assert "holding H3 H7 HJ" in found.detail
    assert play.revokes()[0].established is False


def test_law_63A1_established_by_offender_playing_to_next_trick_then_64A1_end_to_end() -> None:
    play = four_clubs()
    run(play, "W:HK N:H4 E:C5 S:H2")  # E ruffs while holding hearts: E wins trick 1
    assert play.completed_tricks[0].winner is E and not play.revokes()[0].established
    run(play, "E:DA")
    (r,) = play.revokes()
    assert r.established and r.established_by == "63A1: E played to trick 2"
    run(play, "S:D5 W:D4 N:D3")
    play.claim(S, 10)  # concedes one: the offending side wins a later trick
    play.accept(W)
    play.accept(E)
    (irr,) = play.revoke_irregularities()
    assert (irr.law, irr.transfer, irr.established) == ("64A1", 2, True)
    result = play.result()
    assert (result.tricks_as_played, result.tricks_rectified, result.claimed) == (10, 12, True)


def test_law_63A1_lead_by_non_offending_side_does_not_establish() -> None:
    play = Play(ROT, Contract.parse("3NT", S), E2017)
    run(play, "W:HK N:H4 E:D2 S:HA S:DK")  # E revoked; S won and led to trick 2
    assert not play.revokes()[0].established
    run(play, "W:D4")  # the offender's partner plays to trick 2
    assert play.revokes()[0].established_by == "63A1: W played to trick 2"


def test_attention_before_establishment_means_no_transfer() -> None:
    play = Play(ROT, Contract.parse("3NT", S), E2017)
    run(play, "W:HK N:H4 E:D2 S:HA S:DK W:D4 N:D3 E:DA")
    attention = Attention(after_cards=5)  # drawn after S's lead to trick 2
    (irr,) = play.revoke_irregularities(attention)
    assert (irr.law, irr.established, irr.transfer) == ("62A", False, 0)
    assert play.revoke_irregularities()[0].established is True


def test_law_64B3_dummy_revoke_end_to_end() -> None:
    play = Play(ROT, Contract.parse("3NT", S), E2017)
    run(play, "W:HK N:D3 E:H3 S:HA S:DK")
    (r,) = play.revokes()
    assert r.faced and r.established
    play.claim(S, 11)
    play.accept(W)
    play.accept(E)
    (irr,) = play.revoke_irregularities()
    assert (irr.law, irr.transfer) == ("64B3", 0)
    assert play.result().tricks_rectified == 12


@pytest.mark.parametrize(("year", "laws"), [("2017", ["64B8", "62A"]), ("2007", ["64B7", "62A"])])
def test_law_62C3_both_sides_revoke_in_one_trick(year: str, laws: list[str]) -> None:
    play = Play(ROT, Contract.parse("3NT", S), edition(year))
    run(play, "W:HK N:H4 E:D2 S:C4 W:S2")  # E and S revoke; W (E's side) leads to trick 2
    attention = Attention(after_cards=5)
    assert [i.law for i in play.revoke_irregularities(attention)] == laws


def trick_12_revoke(ed: Edition) -> Play:
    """W runs clubs; at trick 12 E discards D2 on W's H2 while still holding H3."""
    deal = Deal.parse("N:AKQJT98765432... .AKQJT9876543.2. ..AKQJT9876543.2 .2..AKQJT9876543")
    play = Play(deal, Contract.parse("3NT", S), ed)
    run(play, "W:CA N:SA E:HA S:C2")
    for w, n, e, s in zip("KQJT987654", "KQJT987654", "KQJT987654", "AKQJT98765", strict=True):
        run(play, f"W:C{w} N:S{n} E:H{e} S:D{s}")
    run(play, "W:H2 N:S3 E:D2 S:D4 W:C3 N:S2 E:H3 S:D3")
    return play


@pytest.mark.parametrize("ed", [E2017, E2007, E1997], ids=["2017", "2007", "1997"])
def test_law_62D1_a_trick_12_revoke_is_never_established_before_the_hands_go_back(
        ed: Edition) -> None:
    """62D1 (the same in 1997, 2007 and 2017): a revoke on the twelfth trick, even after a
    play to trick 13 (63A1), must be corrected before the hands are returned to the board;
    no trick is transferred (64B6)."""
    play = trick_12_revoke(ed)
    (revoke,) = play.revokes()
    assert (revoke.trick, revoke.established, revoke.established_by) == (12, False, "")
    (irr,) = play.revoke_irregularities()
    assert (irr.law, irr.transfer, irr.established) == ("64B6", 0, False)
    assert irr.options[0].law == "62D1"
    assert "62D1" in irr.detail and "64B6" in irr.detail
    assert irr.to_json()["established"] is False
    (detected,) = [i for i in play.irregularities if i.kind is Kind.REVOKE]
    assert "trick 12 must be corrected" in detected.detail
    assert detected.options[0].law == "62D1"


def test_law_62D1_once_the_hands_are_back_in_the_board_it_stands_established() -> None:
    """Attention drawn after the round ended (or the next board was bid): the hands are back
    in the board, 62D1 can no longer correct it; 63A established it, 64B6 still transfers
    nothing."""
    play = trick_12_revoke(E2017)
    late = Attention(after_round_end=True)
    (revoke,) = play.revokes(late)
    assert revoke.established and revoke.established_by.startswith("63A1")
    (irr,) = play.revoke_irregularities(late)
    assert irr.established is True and irr.transfer == 0
    assert "64B6" in dict(irr.extra)["exclusions"]


def test_law_64B6_trick_12_revoke_end_to_end() -> None:
    """W runs clubs; at trick 12 E discards D2 on W's H2 while still holding H3 (62D, 64B6)."""
    deal = Deal.parse("N:AKQJT98765432... .AKQJT9876543.2. ..AKQJT9876543.2 .2..AKQJT9876543")
    play = Play(deal, Contract.parse("3NT", S), E2017)
    run(play, "W:CA N:SA E:HA S:C2")
    for w, n, e, s in zip("KQJT987654", "KQJT987654", "KQJT987654", "AKQJT98765", strict=True):
        run(play, f"W:C{w} N:S{n} E:H{e} S:D{s}")
    run(play, "W:H2 N:S3 E:D2 S:D4 W:C3 N:S2 E:H3 S:D3")
    assert play.is_complete and play.irregularities[0].trick == 12
    (irr,) = play.revoke_irregularities()
    # 62D1: E played to trick 13 (63A1), yet the revoke is corrected, not established.
    assert (irr.law, irr.transfer, irr.established) == ("64B6", 0, False)
    assert play.result().tricks_rectified == 0
