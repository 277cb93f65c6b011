"""The federations' scoring conventions where they differ (bridgecore.conventions), each
against figures worked by hand here, each citing the regulation (docs/scoring.md)."""

from __future__ import annotations

import pytest

from bridgecore.adjusted import BoardResult
from bridgecore.conventions import CONVENTIONS, LAWS_ONLY, Rounding, conventions
from bridgecore.methods import butler_board, butler_datum, matchpoint_board
from bridgecore.ranking import ScoringOptions, score_event


def board(*scores: int, forms: list[int] | None = None) -> list[BoardResult]:
    forms = forms or [0] * len(scores)
    return [BoardResult(1, i + 1, i + 101, s, None, f)
            for i, (s, f) in enumerate(zip(scores, forms, strict=True))]


def ns_points(rows: list[BoardResult], name: str, expected: int | None = None
              ) -> list[float]:
    event = score_event(rows, "mp", options=ScoringOptions.of(name, expected=expected))
    return [s.ns_points for s in event.boards[1]]


# Law 78A: the matchpoint scale -------------------------------------------------------------

def test_law_78a_acbl_scores_one_a_score_beaten_the_ebu_ffb_wbf_two():
    """Law 78A allows either unit; ACBLscore tops a board n-1, the EBU (USEBIO), the FFB
    (Magic Contest's ``MatchPoints;MP1``) and the WBF 2(n-1). 100, 50, 50, -100."""
    rows = board(100, 50, 50, -100)
    assert ns_points(rows, "acbl") == [3.0, 1.5, 1.5, 0.0]
    for name in ("ebu", "ffb", "wbf"):
        assert ns_points(rows, name) == [6.0, 3.0, 3.0, 0.0]
    event = score_event(rows, "mp", options=ScoringOptions.of("ebu"))
    assert event.tops[1] == 6.0
    assert [p.percent for p in event.ranking if p.pair == 1] == [100.0]


# Neuberg's rounding ------------------------------------------------------------------------

def test_neuberg_ebu_rounds_to_a_tenth_halves_towards_the_average():
    """EBU "Scoring of fouled boards": nearest 0.1 MP, 0.05 towards the average. E=5 (top
    8, average 4), A=4: (M+1)·5/4 - 1 for M = 6, 4, 2, 0 is 7.75, 5.25, 2.75, 0.25 ->
    7.7, 5.2, 2.8, 0.3 (they still add up to 4 x 4); the WBF's formula keeps them exact."""
    rows = board(400, 300, 200, 100)
    assert ns_points(rows, "ebu", expected=5) == [7.7, 5.2, 2.8, 0.3]
    assert ns_points(rows, "wbf", expected=5) == [7.75, 5.25, 2.75, 0.25]


def test_neuberg_ebu_article_figures():
    """The EBU article's vectors: E=11, A=10, all different: 18 -> 19.9, 16 -> 17.7,
    0 -> 0.1."""
    rows = board(510, 490, 480, 460, 450, 430, 420, 400, 170, 140)
    points = ns_points(rows, "ebu", expected=11)
    assert (points[0], points[1], points[-1]) == (19.9, 17.7, 0.1)


def test_neuberg_acbl_rounds_to_a_hundredth_halves_up():
    """ACBLscore manual, "Fouled/Adjusted board formula": nearest hundredth, .005 up.
    E=5 (top 4), A=4: (M+1/2)·5/4 - 1/2 for M = 3..0 is 3.875, 2.625, 1.375, 0.125."""
    rows = board(400, 300, 200, 100)
    assert ns_points(rows, "acbl", expected=5) == [3.88, 2.63, 1.38, 0.13]


def test_rounding_only_touches_a_half():
    half_up = Rounding(0.01, False)
    assert half_up(1.374, 2.0) == 1.37 and half_up(1.376, 2.0) == 1.38
    to_average = Rounding(0.1, True)
    assert to_average(5.25, 4.0) == 5.2 and to_average(2.75, 4.0) == 2.8


# Law 87B: small groups of a fouled board ---------------------------------------------------

def test_law_87b_a_group_of_three_in_eight_acbl_percentages_ebu_neuberg():
    """E=8 split 5/3. ACBL: a group of 3 that is not the largest gets 70/60/50% of the top
    (7): 4.9, 4.2, 3.5. EBU White Book 4.2.3.3: only when E >= 3A (9 > 8), so Neuberg in
    MP2: (M+1)·8/3 - 1 for M = 4, 2, 0: 12.33 -> 12.3, 7.0, 1.67 -> 1.7. The group of 5
    is Neuberg for both: ACBL (M+1/2)·8/5 - 1/2 = 6.7, 5.1, 3.5, 1.9, 0.3."""
    rows = board(500, 400, 300, 200, 100, 420, 170, 140, forms=[0] * 5 + [1] * 3)
    acbl = ns_points(rows, "acbl")
    assert acbl[5:] == [4.9, 4.2, 3.5]
    assert acbl[:5] == [6.7, 5.1, 3.5, 1.9, 0.3]
    assert ns_points(rows, "ebu")[5:] == [12.3, 7.0, 1.7]


def test_law_87b_a_single_result_acbl_sixty_percent_ebu_neuberg():
    """E=6 split 5/1. ACBL: a single score gets 60% of the top (5): 3.0 each way. EBU:
    Neuberg, (0+1)·6/1 - 1 = 5 of 10: average."""
    rows = board(500, 400, 300, 200, 100, 450, forms=[0] * 5 + [1])
    event = score_event(rows, "mp", options=ScoringOptions.of("acbl"))
    assert (event.boards[1][5].ns_points, event.boards[1][5].ew_points) == (3.0, 3.0)
    assert ns_points(rows, "ebu")[5] == 5.0


def test_law_87b_a_group_of_three_that_is_the_largest_acbl_neuberg():
    """ACBL: a group of 3 that is the largest (3/2, E=5) is Neuberg-scaled: M = 2 ->
    (2+1/2)·5/3 - 1/2 = 3.67; the group of 2 gets 65/55% of 4: 2.6, 2.2."""
    rows = board(300, 200, 100, 450, 420, forms=[0, 0, 0, 1, 1])
    points = ns_points(rows, "acbl")
    assert points[0] == 3.67
    assert points[3:] == [2.6, 2.2]


def test_law_87b_ebu_group_of_two_in_six_65_55():
    """EBU 4.2.3.3: A=2, E=6 >= 6: 65% and 55% of the top (10): 6.5, 5.5."""
    rows = board(500, 400, 300, 200, 450, 420, forms=[0] * 4 + [1, 1])
    assert ns_points(rows, "ebu")[4:] == [6.5, 5.5]


# Law 78B: the Butler datum -----------------------------------------------------------------

def test_law_78b_butler_datum_acbl_halves_to_the_even_ten():
    """ACBLscore manual, "IMPs using computed datum": 425 -> 420, 435 -> 440; the EBU's
    and the others' nearest ten goes away from zero: 425 -> 430. 510, 490, 400, 300 (mean
    425): against 420, +90 +70 -20 -120 are 3, 2, -1, -3 IMPs; against 430, +80 +60 -30
    -130 are 2, 2, -1, -4."""
    assert butler_datum([470, 380], half_even=True) == 420
    assert butler_datum([470, 400], half_even=True) == 440
    assert butler_datum([-470, -380], half_even=True) == -420
    assert butler_datum([470, 380]) == 430
    rows = board(510, 490, 400, 300)
    assert [p[0] for p in butler_board(rows, half_even=True)] == [3.0, 2.0, -1.0, -3.0]
    assert [p[0] for p in butler_board(rows)] == [2.0, 2.0, -1.0, -4.0]
    acbl = score_event(rows, "butler", options=ScoringOptions.of("acbl"))
    assert [s.ns_points for s in acbl.boards[1]] == [3.0, 2.0, -1.0, -3.0]
    ebu = score_event(rows, "butler", options=ScoringOptions.of("ebu"))
    assert [s.ns_points for s in ebu.boards[1]] == [2.0, 2.0, -1.0, -4.0]


# Ties in the ranking ---------------------------------------------------------------------

def test_ties_share_the_place_written_each_federations_way():
    assert conventions("ebu").place(3, 2) == "3="
    assert conventions("acbl").place(3, 2) == "3/4"
    assert conventions("acbl").place(1, 3) == "1/2/3"
    assert conventions("ffb").place(5, 1) == "5"


def test_unknown_conventions_named():
    with pytest.raises(ValueError, match="ebu, acbl, ffb, wbf"):
        conventions("fifa")
    assert conventions("") is LAWS_ONLY and conventions("EBU") is CONVENTIONS["ebu"]


def test_the_laws_alone_are_the_former_default():
    rows = board(400, 300, 200, 100)
    points = matchpoint_board(rows, 5)
    assert [p[0] for p in points] == ns_points(rows, "", expected=5)
