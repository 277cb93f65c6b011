"""Law 15B: a second play of a board is cancelled for both sides, and the Director awards an
artificial adjusted score (Law 12C2) to the contestant deprived of the opportunity to earn a
valid score. That contestant is one side of the cancelled line: a result scored for that
side alone (``BoardResult.only``), never compared with the board's other results, never
counted in the expected number of results nor in the top, and never a second score for the
other side's pair, which has its score of the board at its first play. Figures by hand.
"""

import pytest

from bridgecore.adjusted import Artificial, ArtificialScore, Assigned, BoardResult, check_results
from bridgecore.cards import Side
from bridgecore.editions import edition
from bridgecore.ranking import Method, ScoringOptions, score_event

PLUS = ArtificialScore.AVERAGE_PLUS

# Board 1: 1 v 4 420, 2 v 5 450, 3 v 6 170; then 7 v 4 played it again (pair 4's second
# play, cancelled): pair 7, at its first play of the board, is deprived and gets A+ alone.
BOARD_1 = [BoardResult(1, 1, 4, 420), BoardResult(1, 2, 5, 450), BoardResult(1, 3, 6, 170)]
DEPRIVED = BoardResult(1, 7, 4, None, Artificial(PLUS, PLUS), only=Side.NS)


def points(event):
    return {(s.result.ns, s.result.ew): (s.ns_points, s.ew_points)
            for s in event.boards[1]}


def test_law_15b_the_deprived_side_alone_gets_its_artificial_score_not_compared():
    """Three results, A = E = 3, a top of 2, no Neuberg (the one-sided line is no play):
    North-South 450 → 2, 420 → 1, 170 → 0; pair 7's A+ is 60% of 2 = 1.2 (Law 12C2(a));
    pair 4 has its 1 of 1 v 4 and nothing from the cancelled line."""
    event = score_event([*BOARD_1, DEPRIVED])
    assert event.expected == 3 and event.tops[1] == 2.0
    assert points(event) == {(1, 4): (1.0, 1.0), (2, 5): (2.0, 0.0), (3, 6): (0.0, 2.0),
                             (7, 4): (1.2, 0.0)}
    totals = {p.pair: (p.total, p.boards) for p in event.ranking}
    assert totals[7] == (1.2, 1) and totals[4] == (1.0, 1)
    assert not event.problems
    assert event.boards[1][-1].to_json()["only"] == "NS"


def test_law_15b_the_one_sided_line_is_out_of_the_top_and_of_neuberg():
    """With E = 4 scheduled, the three results are Neuberg-scaled exactly as without the
    deprived pair's line: (M + ½)·4/3 − ½, 450 → 17/6, 420 → 1.5, 170 → 1/6, top 3; pair 7
    gets 60% of 3 = 1.8. Without Neuberg (BriAn's top over real results) the top stays 2."""
    event = score_event([*BOARD_1, DEPRIVED], options=ScoringOptions(expected=4))
    alone = score_event(BOARD_1, options=ScoringOptions(expected=4))
    got = points(event)
    assert {k: v for k, v in got.items() if k != (7, 4)} == points(alone)
    assert got[2, 5][0] == pytest.approx(17 / 6) and got[7, 4] == (pytest.approx(1.8), 0.0)
    plain = score_event([*BOARD_1, DEPRIVED], options=ScoringOptions(neuberg=False))
    assert plain.tops[1] == 2.0 and points(plain)[7, 4] == (pytest.approx(1.2), 0.0)


def test_law_12c2c_the_deprived_pair_keeps_a_better_session_percentage():
    """Law 12C2(c) on the one side: pair 7 beats the other result of board 2 (620 against
    100), 2 results of E = 3: (1 + ½)·3/2 − ½ = 1.75 of a top of 2, 87.5%; so its A+ on
    board 1 is 87.5% of 2 = 1.75 (2017, 2007), and 60% = 1.2 in 1997."""
    rows = [*BOARD_1, DEPRIVED, BoardResult(2, 7, 5, 620), BoardResult(2, 1, 6, 100)]
    assert points(score_event(rows))[7, 4] == (pytest.approx(1.75), 0.0)
    assert points(score_event(rows, edition="1997"))[7, 4] == (pytest.approx(1.2), 0.0)


def test_law_15b_the_other_sides_pair_is_not_scored_twice_the_deprived_one_is():
    """The one side's pair is checked for a second score, the other side's is not: pair 4
    is on two lines of board 1, scored once; a one-sided score for pair 4 itself (East-West
    here) is its second score and refused, as is a pair 7 with a result elsewhere."""
    boards, problems = check_results([*BOARD_1, DEPRIVED], edition("2017"))
    assert len(boards[1]) == 4 and not problems
    twice = BoardResult(1, 7, 4, None, Artificial(PLUS, PLUS), only=Side.EW)
    _, problems = check_results([*BOARD_1, twice], edition("2017"))
    assert [p.text.key for p in problems] == ["score.twice"]
    _, problems = check_results([*BOARD_1, BoardResult(1, 7, 8, 100), DEPRIVED],
                                edition("2017"))
    assert [p.text.key for p in problems] == ["score.twice"]


def test_law_15b_a_one_sided_score_is_artificial_and_never_in_a_teams_event():
    """Only an artificial score (Law 12C2) is scored for one side alone: an assigned score
    would be compared with the board's results; a teams match compares its two rooms."""
    assigned = BoardResult(1, 7, 4, None, Assigned(420), only=Side.NS)
    _, problems = check_results([*BOARD_1, assigned], edition("2017"))
    assert [p.text.key for p in problems] == ["score.one_side"]
    assert "only side NS is scored" in problems[0].message
    event = score_event([BoardResult(1, 1, 4, 420), BoardResult(1, 3, 2, 400),
                         BoardResult(1, 5, 2, None, Artificial(PLUS, PLUS), only=Side.NS)],
                        Method.IMPS, options=ScoringOptions(teams={1: 1, 2: 1, 3: 2, 4: 2,
                                                                   5: 3, 6: 3}))
    assert "score.one_side" in {p.text.key for p in event.problems if p.text}


def test_law_15b_butler_and_cross_imps_leave_the_one_side_out_of_the_datum():
    """Butler: the datum of 420, 450, 170 is 350 (347 to the nearest 10): +2, +3, -5 IMPs;
    the deprived pair gets +3 IMPs (12C2(b)) and pair 4 nothing more. Cross-IMPs: the
    one-sided line is no comparison."""
    event = score_event([*BOARD_1, DEPRIVED], "butler")
    assert points(event)[7, 4] == (3.0, 0.0)
    assert points(event)[1, 4] == points(score_event(BOARD_1, "butler"))[1, 4]
    cross = score_event([*BOARD_1, DEPRIVED], "crossimp")
    assert points(cross)[2, 5] == points(score_event(BOARD_1, "crossimp"))[2, 5]
    assert points(cross)[7, 4] == (3.0, 0.0)


def test_law_15b_the_results_files_keep_the_one_side_and_read_it_back():
    """The PBN and CSV results files write pair 7's line with its side's points alone and
    the ruling ``NS A+``; read back, the line scores that side alone again: the same
    points, pair 4 still once (a file read as two-sided would score pair 4 twice)."""
    from bridgecore.results_io import (
        ResultsFile,
        TableResult,
        read_pbn_results,
        read_results_csv,
        write_results_csv,
        write_results_pbn,
    )

    rows = [*BOARD_1, DEPRIVED]
    event = score_event(rows)
    source = ResultsFile(rows=[TableResult(r) for r in rows])
    pbn = write_results_pbn(source, event)
    line = next(x.split() for x in pbn.splitlines() if x.split()[:2] == ["7", "4"])
    assert line[-6:] == ["1.2", "-", "60", "-", '"NS', 'A+"']
    csv_text = write_results_csv(source, event)
    assert "1,7,4,,,,,,NS A+,1.2,,,\n" in csv_text
    for back in (read_pbn_results(pbn), read_results_csv(csv_text)):
        again = score_event([t.result for t in back.rows])
        assert points(again) == points(event) and not again.problems
        assert [t.result.only for t in back.rows if t.result.ns == 7] == [Side.NS]
