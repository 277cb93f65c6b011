"""Play: tricks, turn, legal cards, leads and plays out of turn, cards not in hand (Laws 41-67)."""

import pytest

from bridgecore import (
    Card,
    Contract,
    Deal,
    IllegalPlayError,
    Irregularity,
    Kind,
    Seat,
    StateError,
    edition,
)
from bridgecore.play import Play, trick_winner

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
# Everyone holds every suit; aces: W spades, S hearts, E diamonds, N clubs.
ROT = Deal.parse("N:K95.Q84.J73.AT62 Q84.J73.AT62.K95 J73.AT62.K95.Q84 AT62.K95.Q84.J73")
# One suit each: N spades, E hearts, S diamonds, W clubs. Nobody can ever follow suit.
STRIPES = Deal.parse("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")


def c(text: str) -> Card:
    return Card.parse(text)


def run(play: Play, text: str) -> list[Irregularity]:
    """Push "W:HK N:H4 ..." and return every irregularity found."""
    found: list[Irregularity] = []
    for token in text.split():
        seat, card = token.split(":")
        found.extend(play.push(Seat.parse(seat), c(card)))
    return found


def three_nt(deal: Deal = ROT, year: str = "2017") -> Play:
    return Play(deal, Contract.parse("3NT", S), edition(year))


# Trick winners (44E-G) ---------------------------------------------------------------------
def test_law_44F_no_trump_highest_card_of_suit_led_wins() -> None:
    cards = ((W, c("H5")), (N, c("HQ")), (E, c("SA")), (S, c("H2")))
    assert trick_winner(cards, c("H5").suit, None) is N


def test_law_44E_lowest_trump_beats_aces_of_other_suits() -> None:
    cards = ((W, c("HA")), (N, c("C2")), (E, c("SA")), (S, c("HK")))
    assert trick_winner(cards, c("HA").suit, c("C2").suit) is N


def test_law_44E_overruff_wins() -> None:
    cards = ((W, c("HA")), (N, c("C2")), (E, c("C3")), (S, c("HK")))
    assert trick_winner(cards, c("HA").suit, c("C2").suit) is E


def test_law_44G_winner_leads_next_trick_and_tricks_won_by_side_and_seat() -> None:
    play = three_nt()
    assert run(play, "W:H5 N:HQ E:HJ S:H2") == []
    trick = play.completed_tricks[0]
    assert (trick.number, trick.leader, trick.winner) == (1, W, N)
    assert play.turn is N  # dummy's seat: declarer plays dummy's cards (45B)
    assert play.tricks_won(N) == 1 and play.tricks_won(S) == 0  # dummy's trick is not declarer's
    assert play.declarer_tricks == 1


def test_law_41A_opening_leader_is_declarers_lho() -> None:
    play = three_nt()
    assert play.opening_leader is W and play.turn is W
    assert play.current_trick is not None and play.current_trick_is_empty


# Legal cards and the checked form (44C-D) ----------------------------------------------------
def test_law_44C_legal_cards_are_the_suit_led_when_held() -> None:
    play = three_nt()
    play.play_card(W, c("HK"))
    assert play.legal_cards == (c("HQ"), c("H8"), c("H4"))


def test_law_44D_void_player_may_play_any_card() -> None:
    play = three_nt(STRIPES)
    play.play_card(W, c("CA"))
    assert len(play.legal_cards) == 13


def test_play_card_follow_suit_message() -> None:
    play = three_nt()
    play.play_card(W, c("HK"))
    play.play_card(N, c("H4"))
    with pytest.raises(IllegalPlayError, match=r"^E must follow suit: holds H3 H7 HJ on a heart "
                       r"lead, trick 1$"):
        play.play_card(E, c("D2"))


def test_play_card_refuses_wrong_turn_and_card_not_held() -> None:
    play = three_nt()
    with pytest.raises(IllegalPlayError, match="it is W's turn to lead, trick 1"):
        play.play_card(E, c("H3"))
    with pytest.raises(IllegalPlayError, match="W does not hold HA, trick 1"):
        play.play_card(W, c("HA"))
    assert play.history == ()


def test_play_card_refuses_after_13_tricks() -> None:
    play = three_nt(STRIPES)
    for rank in "AKQJT98765432":
        run(play, f"W:C{rank} N:S{rank} E:H{rank} S:D{rank}")
    assert play.is_complete and play.turn is None and play.current_trick is None
    assert play.tricks_won(W) == 13
    with pytest.raises(IllegalPlayError, match="all 13 tricks"):
        play.play_card(W, c("CA"))


# Leads out of turn (53-56) --------------------------------------------------------------------
def test_law_54_opening_lead_by_wrong_defender_gives_five_options() -> None:
    play = three_nt()
    (found,) = play.push(E, c("H3"))
    assert found.kind is Kind.LEAD_OUT_OF_TURN and found.law == "54" and found.seat is E
    assert [o.law for o in found.options] == ["54B", "54A", "54D", "54D", "54D"]
    assert all(o.chooser == "declarer" for o in found.options)
    assert ("correct_leader", "W") in found.extra


def test_law_53A_play_by_next_hand_accepts_lead_out_of_turn() -> None:
    play = three_nt()
    play.push(E, c("H3"))
    assert play.turn is S
    assert run(play, "S:H2 W:H5 N:H4") == []
    trick = play.completed_tricks[0]
    assert trick.leader is E and trick.winner is W
    assert ("resolution", "accepted: S, next in rotation, played to it (53A)") in \
        play.irregularities[0].extra


def test_law_54D_correct_leader_leads_and_partners_opening_lead_is_withdrawn() -> None:
    play = three_nt()
    play.push(E, c("H3"))
    assert play.push(W, c("SA")) == ()
    assert c("H3") in play.remaining(E)
    trick = play.current_trick
    assert trick is not None and trick.leader is W and trick.cards == ((W, c("SA")),)
    assert trick.withdrawn == ((E, c("H3")),)
    resolution = dict(play.irregularities[0].extra)["resolution"]
    assert resolution.startswith("withdrawn") and "(54D)" in resolution
    assert run(play, "N:S5 E:S4 S:S3") == []  # E may play the card again later: no duplicate


@pytest.mark.parametrize(("year", "law"), [("2017", "53B"), ("2007", "53C")])
def test_law_53B_opponent_whose_lead_it_was_leads_correctly(year: str, law: str) -> None:
    play = three_nt(year=year)
    run(play, "W:HK N:H4 E:H3 S:HA")  # S won trick 1
    (found,) = play.push(W, c("S2"))
    assert found.law == "56"
    assert play.push(S, c("D5")) == ()
    resolution = dict(play.irregularities[0].extra)["resolution"]
    assert resolution.startswith("withdrawn") and f"({law})" in resolution
    assert c("S2") in play.remaining(W) and play.turn is W


def test_law_54E_attempted_opening_lead_by_dummy() -> None:
    play = three_nt()
    (found,) = play.push(N, c("SK"))
    assert found.law == "54E" and "Law 24" in found.detail


def test_law_56_defender_leads_out_of_turn_later_in_play() -> None:
    play = three_nt()
    run(play, "W:H5 N:HQ E:HJ S:H2")  # N (dummy) won: N leads
    (found,) = play.push(W, c("SA"))
    assert (found.law, found.trick) == ("56", 2)
    assert [o.law for o in found.options] == ["53A", "56"]


def test_law_55_declarer_leads_from_wrong_hand() -> None:
    play = three_nt()
    run(play, "W:H5 N:HQ E:HJ S:H2")
    (found,) = play.push(S, c("DK"))
    assert found.law == "55" and found.options[0].chooser == "defenders"


@pytest.mark.parametrize(("year", "winner"), [("2017", W), ("2007", E)])
def test_law_53A_trick_13_lead_out_of_turn_is_withdrawn_in_2017(year: str, winner: Seat) -> None:
    play = three_nt(STRIPES, year)
    for rank in "AKQJT9876543":
        run(play, f"W:C{rank} N:S{rank} E:H{rank} S:D{rank}")
    found = run(play, "E:H2 S:D2 W:C2 N:S2")
    assert found[0].kind is Kind.LEAD_OUT_OF_TURN and found[0].trick == 13
    assert play.completed_tricks[12].winner is winner
    assert play.tricks_won(W) == 12 + (winner is W)


# Plays out of turn inside a trick (57) -------------------------------------------------------
def _south_on_lead() -> Play:
    play = three_nt()
    run(play, "W:HK N:H4 E:H3 S:HA")  # S wins trick 1
    return play


@pytest.mark.parametrize(("year", "count"), [("2017", 4), ("2007", 3), ("1997", 3)])
def test_law_57A_defender_plays_before_partner(year: str, count: int) -> None:
    play = three_nt(year=year)
    run(play, "W:HK N:H4 E:H3 S:HA S:D5")
    (found,) = play.push(E, c("D2"))
    assert found.kind is Kind.PLAY_OUT_OF_TURN and found.law == "57" and found.trick == 2
    assert len(found.options) == count and all(o.law == "57A" for o in found.options)
    assert play.turn is W


def test_law_57C2_declarer_premature_play_stands() -> None:
    play = three_nt()
    run(play, "W:HK")
    (found,) = play.push(S, c("H2"))
    assert found.law == "57C2" and found.options == ()
    assert play.current_trick is not None and play.current_trick.card_of(S) == c("H2")


def test_law_57C1_no_rectification_after_dummy_played() -> None:
    play = _south_on_lead()
    play.push(S, c("D5"))
    assert play.push(N, c("D3"))[0].law == "57C2"
    assert play.push(E, c("D2"))[0].law == "57C1"


def test_late_card_is_placed_in_its_trick_and_premature_lead_held() -> None:
    """A card read after the next lead (45E, 57): the trick is built right."""
    play = three_nt()
    found = run(play, "W:H5 N:HQ E:HJ N:S5")
    assert [f.law for f in found] == ["45E"]
    assert play.push(S, c("H2")) == ()
    assert play.completed_tricks[0].winner is N
    current = play.current_trick
    assert current is not None and current.cards == ((N, c("S5")),)


def test_law_57A_defender_leads_next_trick_before_partner_played() -> None:
    play = _south_on_lead()
    run(play, "S:D5 W:D4")
    (found,) = play.push(W, c("S2"))
    assert found.law == "57" and "lead to the next trick" in found.detail


# Cards not in hand, played twice (15, 17D, 87, 67) ---------------------------------------------
def test_card_not_in_hand_names_the_holder_and_is_still_played() -> None:
    play = three_nt()
    (found,) = play.push(W, c("HA"))
    assert found.kind is Kind.CARD_NOT_IN_HAND and found.law == "87"
    assert ("held_by", "S") in found.extra
    assert play.current_trick is not None and play.current_trick.cards == ((W, c("HA")),)
    assert c("HA") in play.remaining(S)


def test_card_from_no_hand_of_the_deal_is_law_15() -> None:
    short = Deal.parse("N:K95.Q84.J73.AT62 Q84.J73.AT62.K9 J73.AT62.K95.Q84 AT62.K95.Q84.J73")
    play = three_nt(short)
    (found,) = play.push(W, c("C5"))
    assert found.law == "15" and ("held_by", None) in found.extra


@pytest.mark.parametrize(("year", "law"), [("2017", "67B3"), ("2007", "67"), ("1997", "67")])
def test_law_67B3_card_played_twice(year: str, law: str) -> None:
    play = three_nt(year=year)
    run(play, "W:H5 N:HQ E:HJ S:H2")
    found = run(play, "N:S5 E:H5")
    twice = [f for f in found if f.kind is Kind.CARD_PLAYED_TWICE]
    assert len(twice) == 1 and twice[0].law == law and "already played by W to trick 1" in \
        twice[0].detail


# pop() ----------------------------------------------------------------------------------------
def test_pop_undoes_lead_out_of_turn_withdrawal() -> None:
    play = three_nt()
    play.push(E, c("H3"))
    before = (play.irregularities, play.remaining(E), play.tricks)
    play.push(W, c("SA"))
    assert play.pop() == (W, c("SA"))
    assert (play.irregularities, play.remaining(E), play.tricks) == before
    assert play.pop() == (E, c("H3")) and play.irregularities == () and play.history == ()
    with pytest.raises(StateError):
        play.pop()


def test_pop_refused_after_a_claim() -> None:
    play = three_nt()
    run(play, "W:H5 N:HQ E:HJ S:H2")
    play.claim(S, 12)
    with pytest.raises(StateError, match="claim"):
        play.pop()


def test_push_rejects_non_cards() -> None:
    play = three_nt()
    with pytest.raises(TypeError):
        play.push(W, "HK")  # type: ignore[arg-type]
    assert play.history == ()


def test_contract_without_declarer_is_refused() -> None:
    with pytest.raises(ValueError, match="no declarer"):
        Play(ROT, Contract.parse("3NT"))
