"""Cards, seats, strains (Laws 1, 3, 18E) and deal problems (Laws 1, 7B, 13, 14)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgecore import ALL_CARDS, Card, Deal, Hand, ParseError, Rank, Seat, Side, Strain, Suit

FULL = "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"


def test_law_1_pack_is_52_distinct_cards_in_file_order():
    assert len(ALL_CARDS) == 52 == len(set(ALL_CARDS))
    assert str(ALL_CARDS[0]) == "SA" and str(ALL_CARDS[13]) == "HA" and str(ALL_CARDS[51]) == "C2"
    assert [c.index for c in ALL_CARDS] == list(range(52))
    assert all(Card.from_index(c.index) is c for c in ALL_CARDS)


def test_law_18E_strain_order_is_bidding_order():
    assert Strain.CLUBS < Strain.DIAMONDS < Strain.HEARTS < Strain.SPADES < Strain.NOTRUMP
    assert Suit.CLUBS < Suit.DIAMONDS < Suit.HEARTS < Suit.SPADES
    assert Strain.of(Suit.HEARTS) is Strain.HEARTS and Strain.NOTRUMP.suit is None


def test_rotation_is_clockwise():
    assert [s.letter for s in Seat] == ["N", "E", "S", "W"]
    assert Seat.NORTH.lho is Seat.EAST and Seat.NORTH.rho is Seat.WEST
    assert Seat.EAST.partner is Seat.WEST and Seat.WEST.side is Side.EW
    assert Seat.SOUTH.offset(3) is Seat.EAST and Seat.WEST.distance_to(Seat.EAST) == 2
    assert Side.NS.opponents is Side.EW and Side.EW.seats == (Seat.EAST, Seat.WEST)


@pytest.mark.parametrize("text,expected", [
    ("SA", "SA"), ("s10", "ST"), ("♠A", "SA"), ("AS", "SA"), ("10♥", "HT"), ("HX", "HT"),
    ("CR", "CK"), ("HD", "HQ"), ("DV", "DJ"), ("SF", "SJ"), ("♦2", "D2"),
])
def test_card_parse_accepts_symbols_and_french_italian_letters(text, expected):
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text", ["", "S", "S1", "Z9", "SAA", "11S"])
def test_card_parse_rejects_with_message(text):
    with pytest.raises(ParseError, match="not a card"):
        Card.parse(text)


@given(st.sampled_from(ALL_CARDS))
def test_card_round_trips(card):
    assert Card.parse(str(card)) is card
    assert eval(repr(card)) == card


def test_rank_honours_law_50B():
    assert [r.is_honour for r in (Rank.NINE, Rank.TEN, Rank.ACE)] == [False, True, True]


def test_deal_parse_rotates_and_writes_from_any_seat():
    deal = Deal.parse(FULL)
    assert deal.problems() == []
    west_first = deal.pbn(Seat.WEST)
    assert west_first.startswith("W:KQT2.AT.J6542.85 ")
    assert Deal.parse(west_first) == deal
    assert deal.owner(Card.parse("SA")) is Seat.EAST
    assert Deal.from_owners(deal.owners()) == deal
    assert deal.rotated(1)[Seat.EAST] == deal[Seat.NORTH]


def test_missing_fourth_hand_is_completed():
    deal = Deal.parse("N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 -")
    assert deal == Deal.parse(FULL)


def test_laws_1_13_14_problems_are_all_reported_at_once():
    # North has SA as well as East (a duplicate), and West lacks C5: 14 and 12 cards.
    bad = Deal.parse("N:A.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.8")
    found = {(p.kind, p.law, str(p.card) if p.card else None, p.seats) for p in bad.problems()}
    assert found == {
        ("wrong_card_count", "13", None, (Seat.NORTH,)),
        ("wrong_card_count", "13", None, (Seat.WEST,)),
        ("duplicate_card", "13F", "SA", (Seat.NORTH, Seat.EAST)),
        ("missing_card", "14", "C5", ()),
    }


def test_law_14_short_hand_without_long_one():
    deal = Deal.parse("N:.63.AKQ987.A973 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85")
    kinds = [(p.kind, p.law) for p in deal.problems()]
    assert kinds == [("wrong_card_count", "14"), ("missing_card", "14")]


@pytest.mark.parametrize("text", ["N:", "X:... ... ... ...", "N:AK.Q.J", "N:AZ.Q.J.T - - -"])
def test_deal_parse_rejects_with_message(text):
    with pytest.raises(ParseError):
        Deal.parse(text)


def test_hand_parse_accepts_10_and_lower_case():
    assert str(Hand.parse("ak10.k..")) == "AKT.K.."


def test_north_and_clubs_are_true_values():
    """Seat.NORTH and Suit.CLUBS are 0 as integers; they must never read as 'no seat'."""
    assert Seat.NORTH and Suit.CLUBS and Strain.CLUBS
    assert (Seat.NORTH or Seat.SOUTH) is Seat.NORTH


def test_unknown_hands_are_not_counted_as_wrong():
    """PBN '-' hands: only what is known is checked (PBN 2.1 section 3.4.11)."""
    deal = Deal.parse("W:- .63.AKQ987.A9732 - J973.J98742.3.K4")
    assert deal.unknown == {Seat.WEST, Seat.EAST}
    assert deal.problems() == [] and not deal.is_complete
    assert Deal.parse(deal.pbn()) == deal
    short = Deal.parse("W:- .63.AKQ987.A973 - J973.J98742.3.K4")
    assert [p.kind for p in short.problems()] == ["wrong_card_count"]


def test_end_position_is_recognised():
    ending = Deal.parse("N:A.K.. K.A.. Q.Q.. J.J..")
    assert ending.is_end_position and not ending.is_complete
    assert not Deal.parse("N:A.K.. K.A.. Q.Q.. J.J.2.").is_end_position


@pytest.mark.parametrize("text", ["²C", "0S", "1Z", "", "XXX", "٣NT"])
def test_call_parse_rejects_with_parse_error(text):
    from bridgecore import Call
    with pytest.raises(ParseError):
        Call.parse(text)


@pytest.mark.parametrize("text,expected", [("1nt", "1NT"), ("2SA", "2NT"), ("3♠", "3S"),
                                           ("p", "Pass"), ("Dbl", "X"), ("R", "XX"), ("8C", "8C")])
def test_call_parse_accepts_common_spellings(text, expected):
    from bridgecore import Call
    assert str(Call.parse(text)) == expected


def test_a_cards_index_and_a_hands_mask_are_made_once_and_follow_the_cards() -> None:
    """Kept rather than worked out at each read (issue 27): a card's index is its place in
    ♠A ... ♣2 order; a hand's mask has one bit per card held, a card twice one bit."""
    assert [(3 - c.suit) * 13 + (14 - c.rank) for c in ALL_CARDS] == [c.index for c in ALL_CARDS]
    assert Card.parse("SA").index == 0 and Card.parse("C2").index == 51
    hand = Hand.parse("AK..QJ.2")
    assert hand.mask == sum(1 << c.index for c in hand) and hand.mask == hand.mask
    twice = Hand.of([Card.parse("SA"), Card.parse("SA"), Card.parse("H3")])
    assert len(twice) == 3 and twice.mask == 1 | 1 << Card.parse("H3").index
    assert Hand.of([]).mask == 0 and Hand.of([]) == Hand(())
