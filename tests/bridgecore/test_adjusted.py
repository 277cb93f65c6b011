"""Adjusted scores (Laws 12, 86, 88), procedural penalties (Law 90) and input checking."""

import pytest

from bridgecore.adjusted import (
    Artificial,
    ArtificialAward,
    ArtificialScore,
    Assigned,
    BoardResult,
    Penalty,
    PenaltyUnit,
    Split,
    Weighted,
    artificial_imps,
    artificial_percent,
    awards,
    check_results,
)
from bridgecore.editions import edition
from bridgecore.errors import ParseError
from bridgecore.methods import butler_board, cross_imp_board, imp_match_board, matchpoint_board
from bridgecore.vulnerability import Vulnerability

PLUS, EVEN, MINUS = (ArtificialScore.AVERAGE_PLUS, ArtificialScore.AVERAGE,
                     ArtificialScore.AVERAGE_MINUS)
E1997, E2007, E2017 = edition("1997"), edition("2007"), edition("2017")

# 8 other results: 420 beats 6 of them (12 MP in 2-unit steps), -50 beats 1 (2 MP).
FIELD = [-100, 100, 140, 170, 200, 300, 450, 620]


def field(*extra):
    rows = [BoardResult(1, f"N{i}", f"E{i}", s) for i, s in enumerate(FIELD)]
    return rows + [BoardResult(1, "NS", "EW", *e) for e in extra]


# Law 12C2 artificial adjusted scores -----------------------------------------------------

def test_law_12c2a_average_plus_average_average_minus_are_60_50_40():
    assert [s.percent for s in (PLUS, EVEN, MINUS)] == [60, 50, 40]
    assert ArtificialScore.of_percent(65) is PLUS and ArtificialScore.of_percent(30) is MINUS
    with pytest.raises(ValueError, match="12C2"):
        ArtificialScore.of_percent(55)


def test_law_12c2a_average_plus_is_at_least_60_average_minus_at_most_40():
    assert Artificial(PLUS, MINUS, 65, 35).ns_percent == 65
    with pytest.raises(ValueError, match="12C2"):
        Artificial(PLUS, MINUS, 55)
    with pytest.raises(ValueError, match="12C2"):
        Artificial(PLUS, MINUS, None, 45)
    assert Artificial(PLUS, MINUS, 60, 40) == Artificial(PLUS, MINUS)


@pytest.mark.parametrize("text,value", [
    ("A+", Artificial(PLUS, PLUS)),
    ("A+ A-", Artificial(PLUS, MINUS)),
    ("a-/a+", Artificial(MINUS, PLUS)),
    ("A=", Artificial(EVEN, EVEN)),
    ("A6040", Artificial(PLUS, MINUS)),
    ("A5050", Artificial(EVEN, EVEN)),
    ("A7030", Artificial(PLUS, MINUS, 70, 30)),
    ("A+65 A-", Artificial(PLUS, MINUS, 65)),
])
def test_artificial_parse_pbn_and_usebio_forms(text, value):
    assert Artificial.parse(text) == value
    assert Artificial.parse(str(value)) == value


@pytest.mark.parametrize("text", ["", "A", "A+ A- A=", "A5545", "B+", "A+x"])
def test_artificial_parse_rejects_other_text(text):
    with pytest.raises(ParseError, match="artificial"):
        Artificial.parse(text)


def test_law_12c2c_session_above_60_or_below_40_keeps_its_percentage():
    """2007/2017: NOS above 60% keeps his own, OS below 40% keeps his own."""
    for ed in (E2007, E2017):
        assert artificial_percent(PLUS, ed, session_percent=66.2) == 66.2
        assert artificial_percent(PLUS, ed, session_percent=55.0) == 60.0
        assert artificial_percent(MINUS, ed, session_percent=35.5) == 35.5
        assert artificial_percent(MINUS, ed, session_percent=45.0) == 40.0
        assert artificial_percent(EVEN, ed, session_percent=70.0) == 50.0


def test_law_88_1997_non_offender_minimum_60_without_session_rule():
    """1997 Law 88: at least 60% for the non-offender; no 12C2(c) session percentage."""
    assert artificial_percent(PLUS, E1997, session_percent=70.0) == 60.0
    assert artificial_percent(MINUS, E1997, session_percent=30.0) == 40.0
    assert artificial_percent(PLUS, E1997, percent=65.0) == 65.0


def test_law_12c2b_imp_artificial_scores_and_their_session_equivalent():
    assert [artificial_imps(s, E2017) for s in (PLUS, EVEN, MINUS)] == [3.0, 0.0, -3.0]
    assert artificial_imps(PLUS, E2017, session_average=4.5) == 4.5
    assert artificial_imps(MINUS, E2017, session_average=-5.0) == -5.0
    assert artificial_imps(PLUS, E1997, session_average=4.5) == 3.0
    assert artificial_imps(PLUS, E2017, amounts=(2.0, 0.0, -2.0)) == 2.0


# Law 12C1 assigned, weighted and split scores ------------------------------------------

def test_law_12c1a_assigned_score_replaces_the_table_result():
    rows = field((-50, Assigned(420)))
    assert matchpoint_board(rows, units=2)[-1] == (12.0, 4.0)
    assert awards(rows[-1]) == (((1.0, 420),), ((1.0, 420),))


def test_law_12c1c_weighted_score_weights_the_matchpoints_not_the_scores():
    """laws.md 5.6 (2017 guide): 50% x 12 MP + 50% x 2 MP = 7 MP, not the MP of 185."""
    rows = field((None, Weighted(((0.5, 420), (0.5, -50)))))
    points = matchpoint_board(rows, units=2)
    assert points[-1] == (pytest.approx(7.0), pytest.approx(9.0))
    averaged = matchpoint_board(field((185,)), units=2)[-1][0]
    assert averaged == 8.0 != points[-1][0]
    # the others meet each outcome at its weight: the board still shares out n tops
    assert sum(ns for ns, _ in points) == pytest.approx(2 * 9 * 8 / 2)
    assert points[5][0] == pytest.approx(10 + 0.5 * 0 + 0.5 * 2)  # 300 v {420, -50}


def test_law_12c1c_weighted_score_in_imps_is_the_weighted_imps():
    rows = [BoardResult(1, "1", "2", None, Weighted(((0.6, 620), (0.4, 170)))),
            BoardResult(1, "3", "4", 170)]
    (x, _), _ = imp_match_board(*rows)
    assert x == pytest.approx(0.6 * 10 + 0.4 * 0)
    cross = cross_imp_board([*rows, BoardResult(1, "5", "6", -100)])
    assert cross[0][0] == pytest.approx((0.6 * (10 + 12) + 0.4 * (0 + 7)) / 2)


def test_law_12c1f_split_scores_do_not_balance():
    rows = field((100, Split(Assigned(420), Assigned(-50))))
    ns, ew = matchpoint_board(rows, units=2)[-1]
    assert (ns, ew) == (12.0, 14.0)  # NS on 420, EW on -50: 26 on a top of 16
    rows = field((100, Split(Weighted(((0.5, 420), (0.5, -50))), MINUS)))
    assert matchpoint_board(rows, units=2)[-1] == (pytest.approx(7.0), pytest.approx(6.4))


def test_law_12c4_knockout_non_balancing_imps_average_the_two():
    a = BoardResult(1, "1", "2", 100, Split(Assigned(620), Assigned(-100)))
    b = BoardResult(1, "3", "4", 170)
    assert imp_match_board(a, b) == ((10, 7), (7, 10))  # 450 -> 10; Y: 170+100 = 270 -> 7
    assert imp_match_board(a, b, knockout=True) == ((1.5, -1.5), (-1.5, 1.5))


def test_butler_weighted_and_artificial():
    rows = [BoardResult(1, "1", "2", 420), BoardResult(1, "3", "4", 420),
            BoardResult(1, "5", "6", None, Artificial(PLUS, MINUS))]
    assert butler_board(rows) == [(0, 0), (0, 0), (3.0, -3.0)]


def test_weighted_and_assigned_validation():
    with pytest.raises(ValueError, match="add up to 1"):
        Weighted(((0.5, 420), (0.4, -50)))
    with pytest.raises(ValueError, match="not positive"):
        Weighted(((1.5, 420), (-0.5, -50)))
    with pytest.raises(ValueError, match="multiple of 10"):
        Assigned(425)
    assert str(Weighted(((0.6, 420), (0.4, -50)))) == "60% 420 + 40% -50"
    assert awards(BoardResult(1, "1", "2", None, Split(PLUS, Assigned(100))))[0] == \
        ArtificialAward(PLUS)


def test_law_90_penalty_is_positive_and_one_sided():
    with pytest.raises(ValueError, match="positive"):
        Penalty("3", -1, PenaltyUnit.MATCHPOINTS)
    assert Penalty("3", 2, PenaltyUnit.PERCENT).law == "90"


# Checking the input: problems, never exceptions -----------------------------------------

def test_impossible_score_is_a_problem_and_the_rest_scores():
    """Law 77: 620 needs a vulnerable 4M; board 1 is not vulnerable, board 2 NS is."""
    rows = [BoardResult(1, "1", "2", 620), BoardResult(1, "3", "4", 420),
            BoardResult(2, "1", "2", 620), BoardResult(2, "3", "4", 425)]
    boards, problems = check_results(rows, E2017)
    assert [len(v) for v in boards.values()] == [1, 1]
    assert [(p.board, "impossible score" in p.message) for p in problems] == [(1, True),
                                                                             (2, True)]
    assert "620" in str(problems[0]) and str(problems[0]).startswith("board 1:")


def test_a_pair_playing_a_board_twice_is_a_problem_the_first_result_stands():
    rows = [BoardResult(1, "1", "2", 420), BoardResult(1, "3", "2", 450),
            BoardResult(1, "3", "4", 400)]
    boards, problems = check_results(rows, E2017)
    assert boards[1] == [rows[0], rows[2]]
    assert problems[0].board == 1 and "2 plays the board twice" in problems[0].message


def test_a_ruling_on_a_board_that_does_not_exist_is_a_problem():
    rows = [BoardResult(1, "1", "2", 420)]
    ruling = BoardResult(7, "1", "2", None, Artificial(PLUS, MINUS))
    boards, problems = check_results(rows, E2017, rulings=[ruling])
    assert boards == {1: rows}
    assert "no such board" in str(problems[0]) and "board 7" in str(problems[0])


def test_a_ruling_replaces_the_result_or_adds_one_on_an_existing_board():
    rows = [BoardResult(1, "1", "2", 420), BoardResult(1, "3", "4", 450)]
    fix = BoardResult(1, "3", "4", 420)
    unplayed = BoardResult(1, "5", "6", None, Artificial(PLUS, MINUS))
    boards, problems = check_results(rows, E2017, rulings=[fix, unplayed])
    assert boards[1] == [rows[0], fix, unplayed] and not problems


@pytest.mark.parametrize("row,words", [
    (BoardResult(1, "1", "2"), "no score"),
    (BoardResult(1, "1", "1", 100), "sits both"),
    (BoardResult(1, ["x"], "2", 100), "a pair is"),
    (BoardResult(0, "1", "2", 100), "not a board number"),
    (BoardResult("1", "1", "2", 100), "not a board number"),
    (BoardResult(1, "1", "2", 100, "A+"), "not an adjustment"),
    (BoardResult(1, "1", "2", 100, Split("A+", Assigned(100))), "not an award"),
    (BoardResult(1, "1", "2", 100, form=[1]), "form of a fouled board"),
    (BoardResult(1, "1", "2", True), "impossible score"),
    ("1 2 420", "not a board result"),
])
def test_bad_results_are_problems_not_exceptions(row, words):
    boards, problems = check_results([row, BoardResult(1, "8", "9", 100)], E2017)
    assert words in str(problems[0])
    assert boards[1] == [BoardResult(1, "8", "9", 100)]


def test_law_12c1c_weighted_scores_are_not_in_the_1997_laws():
    row = BoardResult(1, "1", "2", None, Weighted(((0.5, 420), (0.5, -50))))
    _, problems = check_results([row], E1997)
    assert "12C1(c)" in str(problems[0])
    assert check_results([row], E2007)[1] == []


def test_law_78c_artificial_scores_have_no_total_point_value():
    row = BoardResult(1, "1", "2", None, Artificial(PLUS, MINUS))
    assert "78C" in str(check_results([row], E2017, total_points=True)[1][0])


def test_individual_and_team_checks():
    row = BoardResult(1, "1", "2", 100, players=("a", "b", "a", "d"))
    assert "four different players" in str(check_results([row], E2017, individual=True)[1][0])
    row = BoardResult(1, "1", "2", 100)
    assert "in no team" in str(check_results([row], E2017, teams={"1": "A"})[1][0])
    assert "both pairs" in str(check_results([row], E2017, teams={"1": "A", "2": "A"})[1][0])


def test_law_2_a_score_is_checked_against_the_boards_marked_vulnerability() -> None:
    """Laws 2, 77: board 1 marked all vulnerable: 620 (4S made vulnerable) is a score there,
    though not with Law 2's vulnerability (none) for board 1."""
    result = BoardResult(1, 1, 2, 620)
    _, problems = check_results([result], edition("2017"))
    assert "impossible score 620" in problems[0].message
    assert "vulnerability is None" in problems[0].message
    boards, problems = check_results([result], edition("2017"),
                                     vulnerability={1: Vulnerability.BOTH})
    assert not problems and boards[1] == [result]
