"""Deal numbers (formats.md §5.1 step 4 and §5.3): Pavlicek, Andrews and BigDeal's Gödel numbering.

The vectors in formats.md are 1-based (as the books and web pages show them); the API is 0-based.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgecore.deal import Deal
from bridgecore.dealnumbers import (
    D,
    andrews_deal,
    andrews_index,
    goedel_deal,
    goedel_index,
    pavlicek_deal,
    pavlicek_index,
)

NUMBERINGS = [
    (pavlicek_index, pavlicek_deal),
    (andrews_index, andrews_deal),
    (goedel_index, goedel_deal),
]
SORTED = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
BIGDEAL_1 = "N:.K9842.JT.AKJT62 K874.73.KQ32.Q84 AQJ53.65.A7654.9 T962.AQJT.98.753"

indexes = st.integers(min_value=0, max_value=D - 1)


def test_d_is_the_number_of_bridge_deals():
    assert D == 53644737765488792839237440000 < 2**96


@pytest.mark.parametrize("display,deal", [
    (1, SORTED),
    (10, "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT9876543.6 ..2.AKQJT9875432"),
    (10**27, "N:AK72.Q543.T863.8 QJ84.KT762.AK4.7 T953.9.972.QJ643 6.AJ8.QJ5.AKT952"),
])
def test_pavlicek_vectors(display, deal):
    assert pavlicek_deal(display - 1) == Deal.parse(deal)
    assert pavlicek_index(Deal.parse(deal)) == display - 1


@pytest.mark.parametrize("display,deal", [
    (1, SORTED),
    (10, "N:AKQJT98765432... .AKQJT98765432.. ..AKQJ98765432.A ..T.KQJT98765432"),
    (10**27, "N:KT862.J62.9632.A A93.K94.J4.K9765 4.A5.AKT75.QJT43 QJ75.QT873.Q8.82"),
])
def test_andrews_vectors(display, deal):
    assert andrews_deal(display - 1) == Deal.parse(deal)
    assert andrews_index(Deal.parse(deal)) == display - 1


def test_bigdeal_board_1_in_all_three_numberings():
    deal = Deal.parse(BIGDEAL_1)
    assert pavlicek_index(deal) == 32545517349106375896524404779
    assert andrews_index(deal) == 45286389828368002873021181927
    assert goedel_index(deal) == 53301503727407314439313454177
    assert goedel_deal(53301503727407314439313454177) == deal


@pytest.mark.parametrize("g,deal", [
    (14733584908486735158383141351,
     "N:KQ9.T5.T5432.A74 82.76432.KJ6.JT9 753.AKQ8.A8.8532 AJT64.J9.Q97.KQ6"),
    (12580614700977778627944499832,
     "N:A42.Q.AK974.AK96 J6.AJ975.JT3.J43 KQT7.KT642.6.QT5 9853.83.Q852.872"),
    (43391898326473110941799352415,
     "N:96432.K9.5.A8762 T.QJT52.K632.KT9 J8.764.AQ97.QJ43 AKQ75.A83.JT84.5"),
])
def test_goedel_vectors_of_bigdeal_boards_2_to_4(g, deal):
    assert goedel_deal(g) == Deal.parse(deal)
    assert goedel_index(Deal.parse(deal)) == g


def test_goedel_zero_is_the_sorted_deal():
    assert goedel_deal(0) == Deal.parse(SORTED)


@pytest.mark.parametrize("index_of,deal_of", NUMBERINGS)
def test_ends_of_the_range(index_of, deal_of):
    for index in (0, 1, D - 2, D - 1):
        deal = deal_of(index)
        assert deal.is_complete
        assert index_of(deal) == index


@pytest.mark.parametrize("index_of,deal_of", NUMBERINGS)
@given(index=indexes)
def test_index_to_deal_to_index(index_of, deal_of, index):
    deal = deal_of(index)
    assert deal.is_complete  # Law 6B: four hands of 13
    assert index_of(deal) == index


@given(index=indexes)
def test_deal_to_index_to_deal_across_numberings(index):
    deal = pavlicek_deal(index)
    assert andrews_deal(andrews_index(deal)) == deal
    assert goedel_deal(goedel_index(deal)) == deal


@pytest.mark.parametrize("deal_of", [d for _, d in NUMBERINGS])
@pytest.mark.parametrize("bad", [-1, D, D + 5])
def test_index_out_of_range_is_refused(deal_of, bad):
    with pytest.raises(ValueError, match="0 to D-1"):
        deal_of(bad)


@pytest.mark.parametrize("index_of", [i for i, _ in NUMBERINGS])
def test_incomplete_deal_has_no_number(index_of):
    short = Deal.parse("N:AKQJT9876543... .AKQJT98765432.. ..AKQJT98765432. 2...AKQJT98765432")
    with pytest.raises(ValueError, match="not a complete deal"):
        index_of(short)
