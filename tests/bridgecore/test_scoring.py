"""Law 77 scores, the Law 78B IMP scale and the Law 2 board cycle: golden tables."""

import itertools

import pytest

from bridgecore import Contract, Risk, Seat, Strain, Vulnerability, imps, score, score_ns
from bridgecore.scoring import IMP_THRESHOLDS, trick_score

# Law 2: dealer and vulnerability of boards 1-16 as printed in the seed table (laws.md 1.2).
LAW_2_TABLE = [
    (1, "N", "None"), (2, "E", "NS"), (3, "S", "EW"), (4, "W", "All"),
    (5, "N", "NS"), (6, "E", "EW"), (7, "S", "All"), (8, "W", "None"),
    (9, "N", "EW"), (10, "E", "All"), (11, "S", "None"), (12, "W", "NS"),
    (13, "N", "All"), (14, "E", "None"), (15, "S", "NS"), (16, "W", "EW"),
]


@pytest.mark.parametrize("board,dealer,vul", LAW_2_TABLE)
def test_law_2_dealer_and_vulnerability_repeat_every_16(board, dealer, vul):
    for b in (board, board + 16, board + 32, board + 160):
        assert Seat.dealer_of(b).letter == dealer
        assert str(Vulnerability.of_board(b)) == vul


def _reference(level, strain, dbl, vul, tricks):
    """An independent transcription of the Law 77 tables (laws.md 5.1-5.2), row by row."""
    need = level + 6
    if tricks >= need:
        per = {Strain.CLUBS: 20, Strain.DIAMONDS: 20}.get(strain, 30)
        odd = [per] * level
        if strain is Strain.NOTRUMP:
            odd[0] = 40
        tp = sum(odd) * (1, 2, 4)[dbl]
        total = tp + ((500 if vul else 300) if tp >= 100 else 50)
        total += {6: 750 if vul else 500, 7: 1500 if vul else 1000}.get(level, 0)
        total += (0, 50, 100)[dbl]
        over = tricks - need
        if dbl == 0:
            total += over * per
        else:
            total += over * (200 if vul else 100) * dbl
        return total
    down = need - tricks
    if dbl == 0:
        return -down * (100 if vul else 50)
    table = [(200 if vul else 100)] + [300 if vul else 200] * 2 + [300] * 10
    return -sum(table[:down]) * dbl


def test_law_77_every_contract_score_golden_table():
    """Every (level, strain, risk, vulnerability, tricks): 7*5*3*2*14 = 2,940 cases."""
    count = 0
    for level, strain, dbl, vul, tricks in itertools.product(
            range(1, 8), Strain, range(3), (False, True), range(14)):
        contract = Contract(level, strain, Risk(dbl))
        assert score(contract, tricks, vul) == _reference(level, strain, dbl, vul, tricks), (
            contract, vul, tricks)
        count += 1
    assert count == 2940


@pytest.mark.parametrize("contract,tricks,vul,expected", [
    ("4S", 10, True, 620), ("3NT", 9, False, 400), ("3NT", 10, True, 630), ("1NT", 7, False, 90),
    ("2D", 8, False, 90), ("2HX", 8, False, 470), ("1CXX", 7, False, 230),
    ("1NTXX", 7, False, 560), ("1CX", 9, False, 340), ("5CX", 11, True, 750),
    ("6NT", 12, True, 1440), ("7NTXX", 13, True, 2980), ("4SX", 6, False, -800),
    ("4SX", 5, False, -1100), ("3NTX", 6, True, -800),
])
def test_law_77_worked_examples_from_the_spec(contract, tricks, vul, expected):
    assert score(Contract.parse(contract), tricks, vul) == expected


def test_law_77_trick_score_and_game_threshold():
    assert trick_score(3, Strain.NOTRUMP) == 100
    assert trick_score(4, Strain.HEARTS) == 120
    assert trick_score(4, Strain.DIAMONDS) == 80  # part-score: not game
    assert trick_score(2, Strain.HEARTS, Risk.DOUBLED) == 120


def test_law_77_pass_out_scores_zero_and_ns_view():
    assert score_ns(None, 0, True, True) == 0
    c = Contract.parse("4H", Seat.EAST)
    assert score_ns(c, 10, False, True) == -620
    assert score_ns(Contract.parse("4H", Seat.SOUTH), 9, False, True) == -50


IMP_SCALE = [  # laws.md 5.4 (Law 78B): (low, high, imps)
    (0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5),
    (220, 260, 6), (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10), (500, 590, 11),
    (600, 740, 12), (750, 890, 13), (900, 1090, 14), (1100, 1290, 15), (1300, 1490, 16),
    (1500, 1740, 17), (1750, 1990, 18), (2000, 2240, 19), (2250, 2490, 20), (2500, 2990, 21),
    (3000, 3490, 22), (3500, 3990, 23), (4000, 7600, 24),
]


def test_law_78B_imp_scale_every_multiple_of_ten():
    for low, high, value in IMP_SCALE:
        for diff in range(low, high + 1, 10):
            assert imps(diff) == value and imps(-diff) == -value
    assert len(IMP_THRESHOLDS) == 24


def test_law_78B_non_multiples_round_to_nearest_ten():
    assert imps(15) == 1 and imps(14) == 0 and imps(425) == 10 and imps(-415.5) == -9
