"""Scoring methods board by board (Law 78): hand-computed golden cases and properties."""

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgecore.adjusted import Artificial, ArtificialScore, BoardResult
from bridgecore.methods import (
    board_top,
    butler_board,
    butler_datum,
    cross_imp_board,
    cross_imps,
    group_by_board,
    imp_match_board,
    matchpoint_board,
    matchpoints,
    neuberg,
    small_group_percent,
    total_points_board,
    victory_points,
    vp_scale,
)

PLUS, MINUS = ArtificialScore.AVERAGE_PLUS, ArtificialScore.AVERAGE_MINUS
scores = st.lists(st.integers(-200, 200).map(lambda x: 10 * x), min_size=1, max_size=12)


def board(*scores_ns, number=1, forms=None):
    forms = forms or [0] * len(scores_ns)
    return [BoardResult(number, f"N{i}", f"E{i}", s, form=f)
            for i, (s, f) in enumerate(zip(scores_ns, forms, strict=True))]


# Law 78A matchpoints --------------------------------------------------------------------

def test_law_78a_one_matchpoint_per_score_beaten_half_per_tie():
    assert matchpoints([450, 420, 420, -50]) == [3.0, 1.5, 1.5, 0.0]


def test_law_78a_two_units_per_lower_score_one_per_equal():
    assert matchpoints([450, 420, 420, -50], units=2) == [6.0, 3.0, 3.0, 0.0]


def test_law_78a_east_west_gets_the_complement_of_the_top():
    points = matchpoint_board(board(450, 420, 420, -50))
    assert points == [(3.0, 0.0), (1.5, 1.5), (1.5, 1.5), (0.0, 3.0)]
    assert board_top(board(450, 420, 420, -50)) == 3.0


@given(scores, st.sampled_from([1, 2]))
def test_law_78a_a_board_shares_out_exactly_n_tops_in_each_direction(values, units):
    n = len(values)
    points = matchpoint_board(board(*values), units=units)
    assert sum(ns for ns, _ in points) == pytest.approx(units * n * (n - 1) / 2)
    assert all(ns + ew == pytest.approx(units * (n - 1)) for ns, ew in points)


# Neuberg (formats.md 9.1) ----------------------------------------------------------------

def test_neuberg_ebu_vectors_e11_a10_in_mp1_units():
    """EBU article: E=11, A=10, all different: 18 -> 19.9, 16 -> 17.7, 0 -> 0.1."""
    assert round(neuberg(18, 10, 11, units=2), 1) == 19.9
    assert round(neuberg(16, 10, 11, units=2), 1) == 17.7
    assert round(neuberg(0, 10, 11, units=2), 1) == 0.1


def test_neuberg_in_one_point_units_is_the_acbl_formula():
    """M' = (M + 1/2)·E/A - 1/2 equals ACBL's N·S/n + (N-n)/2n."""
    m, a, e = 7.5, 10, 13
    assert neuberg(m, a, e) == pytest.approx(m * e / a + (e - a) / (2 * a))
    assert neuberg(m, a, a) == m


def test_neuberg_on_a_board_with_fewer_results_than_expected():
    points = matchpoint_board(board(100, 50, -50), expected=4)  # top 3 on a 3-result board
    assert points[0] == (pytest.approx(2.5 * 4 / 3 - 0.5), pytest.approx(0.5 * 4 / 3 - 0.5))
    assert all(ns + ew == pytest.approx(3.0) for ns, ew in points)


def test_law_12c2_artificial_row_gets_its_share_of_the_top_and_the_rest_is_neuberged():
    """Magic Contest convention: A+ / A- rows at 60% / 40% of the top, others Neuberg to E."""
    rows = [*board(420, 170, -50), BoardResult(1, "P", "Q", None, Artificial(PLUS, MINUS))]
    points = matchpoint_board(rows, units=2)  # E = 4 rows, top 6
    assert points[3] == (pytest.approx(3.6), pytest.approx(2.4))
    assert points[0] == (pytest.approx((4 + 1) * 4 / 3 - 1), pytest.approx((0 + 1) * 4 / 3 - 1))


def test_without_neuberg_the_top_is_that_of_the_real_results():
    """BriAn's convention (SOURCES.md): an A5050 row gets 50% of 2·(real results - 1)."""
    rows = [*board(420, 170, -50), BoardResult(1, "P", "Q", None, Artificial.parse("A5050"))]
    assert board_top(rows, units=2, neuberg=False) == 4.0
    points = matchpoint_board(rows, units=2, neuberg=False)
    assert points == [(4.0, 0.0), (2.0, 2.0), (0.0, 4.0), (2.0, 2.0)]


# Law 87 fouled boards -------------------------------------------------------------------

def test_law_87b_fouled_board_groups_are_scored_apart_and_neuberged_to_e():
    """formats.md 9.1: E=10 split 7/3, group tops 12 -> 123/7 and 4 -> 47/3 (MP1 units)."""
    values = [700, 600, 500, 400, 300, 200, 100, -100, -200, -300]
    rows = board(*values, forms=[0] * 7 + [1] * 3)
    points = matchpoint_board(rows, units=2)
    assert points[0][0] == pytest.approx(123 / 7)
    assert points[7][0] == pytest.approx(47 / 3)
    assert round(points[0][0], 1) == 17.6 and round(points[7][0], 1) == 15.7
    assert all(ns + ew == pytest.approx(18.0) for ns, ew in points)


def test_law_87b_small_groups_option_ebu_percentages():
    """EBU: a group of 2 (E >= 6) scores 65/55 or 60/60; a group of 3 runs 70..50."""
    assert small_group_percent(2, 2, units=2) == 65.0
    assert small_group_percent(0.5, 2) == 60.0
    assert small_group_percent(0, 3, units=2) == 50.0
    values = [600, 500, 400, 300, 200, 100, 0, -100, 50, 50]
    rows = board(*values, forms=[0] * 8 + [1] * 2)
    points = matchpoint_board(rows, units=2, small_groups=True)
    assert points[8] == points[9] == (pytest.approx(0.6 * 18), pytest.approx(0.6 * 18))
    rows = board(*values[:8], 60, 50, forms=[0] * 8 + [1] * 2)
    points = matchpoint_board(rows, small_groups=True)
    assert points[8] == (pytest.approx(0.65 * 9), pytest.approx(0.55 * 9))


def test_matchpoint_board_refuses_results_of_several_boards():
    with pytest.raises(ValueError, match="several boards"):
        matchpoint_board([*board(100), *board(200, number=2)])


# Law 78B IMPs: teams, Butler, cross-IMPs ------------------------------------------------

def test_law_78b_team_match_imps_the_difference_of_the_two_tables():
    a, b = BoardResult(1, "1", "2", 620), BoardResult(1, "3", "4", 170)
    assert imp_match_board(a, b) == ((10, -10), (-10, 10))


def test_law_12c2b_artificial_in_a_team_match_is_plus_or_minus_three():
    a = BoardResult(1, "1", "2", None, Artificial(PLUS, MINUS))
    b = BoardResult(1, "3", "4", 170)
    assert imp_match_board(a, b) == ((3.0, -3.0), (-3.0, 3.0))


def test_butler_datum_is_the_mean_rounded_to_the_nearest_ten():
    assert butler_datum([420, 450, -50, 170]) == 250  # mean 247.5
    assert butler_datum([420, 430]) == 430  # 425: halves away from zero
    assert butler_datum([-420, -430]) == -430
    assert butler_datum([1000, 420, 450, -50, 170, 140], trim=1) == 300  # 295 without extremes
    assert butler_datum([100, 200], trim=1) == 150  # too few to trim


def test_butler_board_imps_against_the_datum():
    points = butler_board(board(420, 450, -50, 170))  # datum 250: +170, +200, -300, -80
    assert points == [(5, -5), (5, -5), (-7, 7), (-2, 2)]


def test_butler_trimming_is_an_option_off_by_default():
    rows = board(2000, 420, 420, 420)
    assert butler_board(rows)[1][0] == -9  # datum 815 -> 820
    assert butler_board(rows, trim=1)[1][0] == 0  # datum 420


def test_cross_imps_each_against_every_other_divided_by_comparisons():
    # 620 v 170: 450 = 10 IMPs; 620 v -100: 720 = 12; 170 v -100: 270 = 7
    assert cross_imps([620, 170, -100]) == [11.0, -1.5, -9.5]
    assert cross_imps([620, 170, -100], average=False) == [22, -3, -19]
    assert cross_imps([420]) == [0.0]


@given(scores)
def test_cross_imps_add_up_to_zero(values):
    assert math.fsum(cross_imps(values)) == pytest.approx(0, abs=1e-9)
    assert all(ns == -ew for ns, ew in cross_imp_board(board(*values)))


def test_cross_imp_board_with_an_artificial_row_out_of_the_field():
    rows = [*board(620, 170), BoardResult(1, "P", "Q", None, Artificial(PLUS, MINUS))]
    assert cross_imp_board(rows) == [(10, -10), (-10, 10), (3.0, -3.0)]  # 450: 10 IMPs
    assert cross_imp_board(rows, artificial=lambda r, side, award: 2.0)[2] == (2.0, 2.0)


# Law 78C total points -------------------------------------------------------------------

def test_law_78c_total_points_each_side_its_score():
    assert total_points_board(board(620, -100)) == [(620, -620), (-100, 100)]
    with pytest.raises(ValueError, match="78C"):
        total_points_board([BoardResult(1, "1", "2", None, Artificial(PLUS, PLUS))])


# Victory points (WBF 2013 continuous scale, formats.md 9.3) -----------------------------

@pytest.mark.parametrize("boards,margin,vp", [
    (8, 0, 10.00), (8, 1, 10.44), (8, 2, 10.86), (8, 3, 11.27), (8, 4, 11.67),
    (8, 5, 12.05), (8, 10, 13.78), (8, 15, 15.23),
    (16, 1, 10.31), (16, 5, 11.48), (16, 10, 12.80), (16, 15, 13.97),
])
def test_law_78d_wbf_2013_vp_scale_computed_values(boards, margin, vp):
    assert vp_scale(boards)[margin] == vp
    assert victory_points(margin, boards) == (vp, round(20 - vp, 2))
    assert victory_points(-margin, boards) == (round(20 - vp, 2), vp)


def test_wbf_concavity_correction_raises_a_value_by_a_hundredth():
    """16 boards: the formula rounds 14 IMPs to 13.74, which breaks concavity; WBF 13.75."""
    assert vp_scale(16)[14] == 13.75


def test_vp_blitz_gives_twenty():
    assert victory_points(43, 8) == (20.0, 0.0)  # B = 15·sqrt(8) = 42.4
    assert victory_points(60, 16) == (20.0, 0.0)
    assert victory_points(7.5, 8) == pytest.approx((12.95, 7.05))  # between 12.77 and 13.12


@given(st.integers(1, 64))
def test_vp_scale_is_increasing_and_concave(boards):
    scale = [round(100 * v) for v in vp_scale(boards)]
    assert scale[0] == 1000 and scale[-1] == 2000
    assert all(b >= a for a, b in itertools.pairwise(scale))
    assert all(b > a for a, b in itertools.pairwise(scale) if b < 2000)
    assert all(scale[i] - 2 * scale[i - 1] + scale[i - 2] <= 0 for i in range(2, len(scale)))


def test_group_by_board_orders_boards():
    rows = [*board(100, number=3), *board(200, number=1)]
    assert list(group_by_board(rows)) == [1, 3]
