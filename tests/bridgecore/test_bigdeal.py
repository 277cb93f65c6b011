"""BigDeal-compatible, secure and seeded dealing (formats.md §5.1, §5.2; Law 6)."""

import random
from collections import Counter

import pytest

import bridgecore.bigdeal as bigdeal_module
from bridgecore.bigdeal import BigDeal, random_deal, secure_deals
from bridgecore.cards import ALL_CARDS, Seat
from bridgecore.deal import Deal
from bridgecore.dealfiles import write_dealfile
from bridgecore.dealnumbers import D, pavlicek_deal
from bridgecore.lin import write_lin
from bridgecore.record import GameRecord
from bridgecore.vulnerability import Vulnerability

SEED = bytes.fromhex("0123456789ABCDEF0123456789ABCDEF01234567")
OWNER = "Test Owner"
# formats.md §5.2: bigdealx -W "Test Owner" -h 0123...4567 -n 4
VECTORS = {
    1: (2, 53301503727407314439313454177,
        "N:.K9842.JT.AKJT62 K874.73.KQ32.Q84 AQJ53.65.A7654.9 T962.AQJT.98.753"),
    2: (3, 14733584908486735158383141351,
        "N:KQ9.T5.T5432.A74 82.76432.KJ6.JT9 753.AKQ8.A8.8532 AJT64.J9.Q97.KQ6"),
    3: (6, 12580614700977778627944499832,
        "N:A42.Q.AK974.AK96 J6.AJ975.JT3.J43 KQT7.KT642.6.QT5 9853.83.Q852.872"),
    4: (7, 43391898326473110941799352415,
        "N:96432.K9.5.A8762 T.QJT52.K632.KT9 J8.764.AQ97.QJ43 AKQ75.A83.JT84.5"),
}


@pytest.fixture(scope="module")
def boards():
    return BigDeal(SEED, OWNER).deals(1, 4)


def test_seqnos_and_goedel_numbers_match_bigdeal():
    """seqno 1, 4 and 5 gave 96-bit numbers >= D and were thrown away."""
    numbers = BigDeal(SEED, OWNER).numbers(1, 4)
    assert numbers == {b: (seq, g) for b, (seq, g, _) in VECTORS.items()}


def test_deals_match_bigdeal(boards):
    assert boards == {b: Deal.parse(text) for b, (_, _, text) in VECTORS.items()}


def test_dlm_writer_gives_bigdeals_lines(boards):
    text = write_dealfile(boards, "dlm").decode("ascii")
    for line in ("Board 01=jkpfogpdpagiejedokjebajmnm023", "Board 02=mdmgoogkmofbfjndleaapfgdik019",
                 "Board 03=cjlohdbighggoanemlbmcgdmjh005", "Board 04=poeldadbfdkgnjlooenegjeaoi022",
                 "Checksum=4"):
        assert line + "\r\n" in text


def test_dup_writer_gives_bigdeals_card_numbers(boards):
    data = write_dealfile(boards, "dup")
    assert data[:78] == (
        b"151920242630314041434448520207081121252829383942465001030410122223273435363745")
    assert data[156:156 + 78] == (
        b"020306182331363738394047500713212224252628303543444508101214151620273346495152")
    assert data[146:156] == b"YN1  0 04 "


def test_lin_writer_gives_bigdeals_board_2_line(boards):
    records = [GameRecord(board=n, dealer=Seat.dealer_of(n),
                          vulnerability=Vulnerability.of_board(n), deal=d)
               for n, d in boards.items()]
    lines = write_lin(records).splitlines()
    assert lines[1] == ("qx|o2|md|4S753HAKQ8DA8C8532,SAJT64HJ9DQ97CKQ6,SKQ9HT5DT5432CA74|rh||"
                        "ah|Board 2|sv|n|pg||")


def test_counter_restarts_with_every_run_whatever_the_first_board(boards):
    """As BigDeal's main.c: seqno starts at 0 for the first board asked for."""
    later = BigDeal(SEED, OWNER).deals(5, 8)
    assert list(later) == [5, 6, 7, 8]
    assert list(later.values()) == list(boards.values())


def test_owner_makes_a_different_series(boards):
    assert BigDeal(SEED, "Another Owner").deals(1, 4) != boards
    assert BigDeal(SEED, OWNER.encode()).deals(1, 4) == boards


@pytest.mark.parametrize("seed", [b"", b"\x00" * 19, b"\x00" * 21])
def test_seed_must_be_160_bits(seed):
    with pytest.raises(ValueError, match="160 bits"):
        BigDeal(seed, OWNER)


@pytest.mark.parametrize("first,last", [(0, 3), (5, 4)])
def test_board_range_is_checked(first, last):
    with pytest.raises(ValueError):
        BigDeal(SEED, OWNER).deals(first, last)
    with pytest.raises(ValueError):
        secure_deals(first, last)


def test_law_6_generated_deals_are_four_hands_of_thirteen():
    """Law 6B/6E: a computer deal gives each seat 13 cards, every card once."""
    made = [*BigDeal(SEED, OWNER).deals(1, 40).values(), *secure_deals(1, 40).values(),
            *(random_deal(random.Random(i)) for i in range(40))]
    assert all(deal.problems() == [] for deal in made)


def test_secure_deals_draw_a_uniform_index_from_secrets(monkeypatch):
    drawn = iter([0, D - 1, 12345])
    seen = []

    def randbelow(n):
        seen.append(n)
        return next(drawn)

    monkeypatch.setattr(bigdeal_module.secrets, "randbelow", randbelow)
    deals = secure_deals(7, 9)
    assert seen == [D, D, D]
    assert deals == {7: pavlicek_deal(0), 8: pavlicek_deal(D - 1), 9: pavlicek_deal(12345)}


def test_secure_deals_are_different_each_time():
    first, second = secure_deals(1, 8), secure_deals(1, 8)
    assert list(first) == list(range(1, 9))
    assert first != second  # 8 equal deals by chance: probability 1/D**8


def test_random_deal_is_reproducible_and_evenly_spread():
    rng = random.Random(2024)
    assert random_deal(random.Random(5)) == random_deal(random.Random(5))
    counts = Counter()
    for _ in range(2000):
        deal = random_deal(rng)
        for card, seat in zip(ALL_CARDS, deal.owners(), strict=True):
            counts[card, seat] += 1
    # Each card goes to each seat 500 times on average (sd about 19).
    assert all(400 < counts[card, seat] < 600 for card in ALL_CARDS for seat in Seat)
