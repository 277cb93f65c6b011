"""Scoring and ranking a whole event: conventions of issue 6, rulings, penalties, and
published results reproduced from tests/data/realdata (SOURCES.md describes each file).

Published figures are rounded, and each source rounds its own way; the test compares
with the same rounding:

* PairsScorer sample (USEBIO): whole MP1 matchpoints, percentages to 0.01.
* EBUScore (USEBIO): board matchpoints to 0.01 (Neuberg too), percentages to 0.01.
* Pianola cross-IMPs (USEBIO): each board's cross-IMPs to 0.01.
* Magic Contest (PBN, FFB): board matchpoints to 0.1 (Neuberg too), totals are sums of
  those, percentages to 0.01 of the total over 30 tops of 42.
"""

import json
import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgecore.adjusted import (
    Artificial,
    ArtificialScore,
    Assigned,
    BoardResult,
    Penalty,
    PenaltyUnit,
    Split,
    Weighted,
    check_results,
)
from bridgecore.cards import Side
from bridgecore.editions import edition
from bridgecore.methods import victory_points
from bridgecore.ranking import Method, ScoringOptions, rank, score_boards, score_event

PLUS, MINUS = ArtificialScore.AVERAGE_PLUS, ArtificialScore.AVERAGE_MINUS


# Small readers of the published files (tests only) ----------------------------------------

def read_usebio(path):
    """Traveller lines as BoardResults, with the published points and participants."""
    root = ET.parse(path).getroot()
    rows, published = [], {}
    for b in root.iter("BOARD"):
        number = int(b.findtext("BOARD_NUMBER"))
        for line in b.findall("TRAVELLER_LINE"):
            ns, ew, text = (line.findtext(t) for t in ("NS_PAIR_NUMBER", "EW_PAIR_NUMBER",
                                                       "SCORE"))
            if text.startswith("A"):
                row = BoardResult(number, ns, ew, None, Artificial.parse(text))
            else:
                row = BoardResult(number, ns, ew, int(text))
            rows.append(row)
            published[(number, ns, ew)] = tuple(
                float(line.findtext(f"{side}_{kind}"))
                for kind in ("MATCH_POINTS", "CROSS_IMP_POINTS")
                if line.find(f"NS_{kind}") is not None for side in ("NS", "EW"))
    pairs = {p.findtext("PAIR_NUMBER"): {e.tag: e.text for e in p} for p in root.iter("PAIR")}
    return rows, published, pairs


def read_pbn_scoretables(path):
    """ScoreTable rows (Magic Contest columns) and the TotalScoreTable, by a small tokenizer."""
    rows, published, totals = [], {}, {}
    board = table = None
    for line in path.read_text(encoding="latin-1").splitlines():
        tag = re.match(r'\[(\w+) "(.*)"\]', line)
        if tag:
            table = tag.group(1) if tag.group(1).endswith("Table") else None
            if tag.group(1) == "Board":
                board = int(tag.group(2))
            continue
        if table is None or not line.strip() or line.startswith("%"):
            continue
        tokens = [t.strip('"') for t in re.findall(r'"[^"]*"|\S+', line)]
        if table == "ScoreTable":
            ns, ew, score_ns, score_ew = tokens[2], tokens[3], tokens[8], tokens[9]
            if score_ns.startswith("A"):
                row = BoardResult(board, ns, ew, None, Artificial.parse(f"{score_ns} {score_ew}"))
            else:
                row = BoardResult(board, ns, ew,
                                  int(score_ns) if score_ns != "-" else -int(score_ew))
            rows.append(row)
            published[(board, ns, ew)] = (float(tokens[10]), float(tokens[11]))
        elif table == "TotalScoreTable":
            totals[tokens[1]] = (int(tokens[0]), float(tokens[4]), float(tokens[5]))
    return rows, published, totals


def points_of(event):
    return {(b, s.result.ns, s.result.ew): (s.ns_points, s.ew_points)
            for b, scored in event.boards.items() for s in scored}


# Published results ----------------------------------------------------------------------

def test_pairsscorer_sample_all_242_matchpoints_and_22_percentages(realdata):
    """Law 78A in MP1 units, top 20 (11 results a board); percent = MP / (22 x 20)."""
    rows, published, pairs = read_usebio(
        realdata / "usebio" / "ebu_sample_mp_pairs_pairsscorer_v1.2.xml")
    event = score_event(rows, "mp", options=ScoringOptions(units=2))
    assert not event.problems and len(rows) == 242
    assert points_of(event) == published
    assert len(event.ranking) == 22
    for p in event.ranking:
        assert f"{p.percent:.2f}" == f"{float(pairs[p.pair]['PERCENTAGE']):.2f}"
        assert p.rank == int(pairs[p.pair]["PLACE"])
        assert p.direction is Side(pairs[p.pair]["DIRECTION"])  # two-winner Mitchell


def test_ebuscore_neuberg_to_top_14_and_percentages(realdata):
    """Board 18 has 7 real results and an A5050 (7 of 14): the 7 are Neuberg-scaled to E=8."""
    rows, published, pairs = read_usebio(realdata / "usebio" / "club_ebuscore_pairs_2025-01-02.xml")
    event = score_event(rows, "mp", options=ScoringOptions(units=2, digits=2))
    assert not event.problems and event.expected == 8
    assert points_of(event) == published
    assert points_of(event)[(18, "8", "10")] == (7.0, 7.0)
    for p in event.ranking:
        assert p.percent == pytest.approx(float(pairs[p.pair]["PERCENTAGE"]), abs=0.005)
        assert p.rank == int(pairs[p.pair]["PLACE"])


def test_pianola_cross_imps_all_192_values(realdata):
    """Cross-IMPs: each result against the 7 others of its board, divided by 7."""
    rows, published, _ = read_usebio(
        realdata / "usebio" / "ebu_sample_cross_imp_pairs_pianola_v1.2.xml")
    event = score_event(rows, "crossimp", options=ScoringOptions(digits=2))
    assert not event.problems and len(rows) == 192
    assert points_of(event) == published
    assert all(p.direction is None for p in event.ranking)  # pairs sit both ways


def test_magic_contest_ffb_matchpoints_neuberg_artificial_totals_percentages(realdata):
    rows, published, totals = read_pbn_scoretables(
        realdata / "pbn-results" / "magiccontest_ffb_dn1_2022_seance1.pbn")
    event = score_event(rows, "mp", options=ScoringOptions(units=2, digits=1))
    assert not event.problems and len(event.boards) == 30 and event.expected == 22
    assert points_of(event) == published
    assert points_of(event)[(9, "1", "9")] == (16.8, 25.2)  # A- / A+: 40% / 60% of 42
    assert set(event.tops.values()) == {42.0}
    assert len(event.ranking) == 44
    for p in event.ranking:
        place, total, percent = totals[p.pair]
        assert round(p.total, 1) == total
        assert round(p.percent, 2) == percent
        assert p.rank == place or (p.rank, place) == (31, 32)  # tie: the source breaks it


# Issue 6 conventions ---------------------------------------------------------------------

def test_rank_ties_share_and_skip():
    assert rank([10, 8, 8, 5]) == [1, 2, 2, 4]
    assert rank([1.0, 0.1 + 0.2, 0.3]) == [1, 2, 2]
    assert rank([]) == []


def mitchell():
    """Two NS pairs v two EW pairs over two boards."""
    return [BoardResult(1, 1, 3, 420), BoardResult(1, 2, 4, 170),
            BoardResult(2, 1, 4, -100), BoardResult(2, 2, 3, -100)]


def test_two_winner_field_ranks_each_direction():
    event = score_event(mitchell())
    assert [(p.pair, p.direction, p.total, p.percent, p.rank) for p in event.ranking] == [
        (1, Side.NS, 1.5, 75.0, 1), (2, Side.NS, 0.5, 25.0, 2),
        (4, Side.EW, 1.5, 75.0, 1), (3, Side.EW, 0.5, 25.0, 2)]
    rows = [*mitchell(), BoardResult(3, 1, 3, 100), BoardResult(3, 2, 4, 100)]
    assert [p.rank for p in score_event(rows).ranking] == [1, 2, 1, 2]
    rows[-1] = BoardResult(3, 2, 4, 400)  # 1 and 2 tie at 50%, 3 and 4 too
    assert [(p.pair, p.rank) for p in score_event(rows).ranking] == [(1, 1), (2, 1), (3, 1),
                                                                     (4, 1)]


def test_one_winner_field_when_a_pair_sits_both_ways():
    rows = [*mitchell(), BoardResult(3, 3, 1, 100), BoardResult(3, 4, 2, 50)]
    event = score_event(rows)
    assert {p.direction for p in event.ranking} == {None}
    assert [p.rank for p in event.ranking] == [1, 2, 3, 4]


def test_json_has_the_issue_6_shape():
    data = json.loads(json.dumps(score_event(mitchell()).to_json()))
    assert set(data) >= {"boards", "ranking"}
    assert data["boards"][0] == {"board": 1, "results": [
        {"ns": 1, "ew": 3, "score_ns": 420, "ns_points": 1.0, "ew_points": 0.0},
        {"ns": 2, "ew": 4, "score_ns": 170, "ns_points": 0.0, "ew_points": 1.0}]}
    assert data["ranking"][0] == {"pair": 1, "direction": "NS", "total": 1.5, "percent": 75.0,
                                  "rank": 1}
    imps = score_event(mitchell(), "butler").to_json()
    assert imps["ranking"][0]["percent"] is None


def test_individual_event_each_player_scores_his_seat_side():
    rows = [BoardResult(1, "1", "2", 420, players=("a", "b", "c", "d")),
            BoardResult(1, "3", "4", 170, players=("e", "f", "g", "h")),
            BoardResult(2, "5", "6", 100, players=("a", "e", "f", "b")),
            BoardResult(2, "7", "8", 50, players=("c", "g", "d", "h"))]
    event = score_event(rows, options=ScoringOptions(individual=True))
    scores = {p.pair: p.total for p in event.ranking}
    assert scores == {"a": 2.0, "b": 0.0, "c": 1.0, "d": 0.0, "e": 0.0, "f": 2.0,
                      "g": 1.0, "h": 2.0}
    assert {p.direction for p in event.ranking} == {None}


def test_law_12c3_individual_adjustment_applies_to_both_members_penalty_to_one():
    rows = [BoardResult(1, "1", "2", 420, players=("a", "b", "c", "d")),
            BoardResult(1, "3", "4", None, Artificial(PLUS, MINUS), players=("e", "f", "g", "h")),
            BoardResult(1, "5", "6", 170, players=("i", "j", "k", "l"))]
    event = score_event(rows, options=ScoringOptions(individual=True),
                        penalties=[Penalty("e", 0.5, PenaltyUnit.MATCHPOINTS)])
    scores = {p.pair: p.total for p in event.ranking}
    assert (scores["g"], scores["f"], scores["h"]) == (1.2, 0.8, 0.8)  # 60% / 40% of 2
    assert scores["e"] == pytest.approx(0.7)  # Law 90 penalty on the player only


# Adjusted scores and penalties in an event ------------------------------------------------

def session(*board_3):
    """Boards 1 and 2: pair 1 scores 100%, pair 2 0%, pairs 3 and 4 50%; board 3 as given."""
    return [BoardResult(1, 1, 3, 420), BoardResult(1, 2, 4, 170),
            BoardResult(2, 1, 4, 100), BoardResult(2, 2, 3, -100), *board_3]


def test_law_12c2c_non_offender_above_60_percent_keeps_his_session_percentage():
    rows = session(BoardResult(3, 2, 3, 100), BoardResult(3, 1, 4, None, Artificial(PLUS, MINUS)))
    for name, expected in (("2017", (1.0, 0.4)), ("2007", (1.0, 0.4)), ("1997", (0.6, 0.4))):
        event = score_event(rows, edition=name)
        assert points_of(event)[(3, 1, 4)] == pytest.approx(expected), name


def test_law_12c2c_offender_below_40_percent_keeps_his_session_percentage():
    rows = session(BoardResult(3, 1, 4, 100), BoardResult(3, 2, 3, None, Artificial(MINUS, PLUS)))
    assert points_of(score_event(rows))[(3, 2, 3)] == pytest.approx((0.0, 0.6))
    assert points_of(score_event(rows, edition="1997"))[(3, 2, 3)] == pytest.approx((0.4, 0.6))


def test_law_12c2c_imp_equivalent_in_a_butler_event():
    """Pair 1 averages 5.5 IMPs (3 and 8) elsewhere; pair 4 averages -2, above -3."""
    rows = [BoardResult(1, 1, 3, 420), BoardResult(1, 2, 4, 170),  # datum 300: +3 / -4
            BoardResult(2, 1, 4, 620), BoardResult(2, 2, 3, -100),  # datum 260: +8 / -11
            BoardResult(3, 2, 3, 100), BoardResult(3, 1, 4, None, Artificial(PLUS, MINUS))]
    event = score_event(rows, "butler")
    assert points_of(event)[(3, 1, 4)] == (pytest.approx(5.5), pytest.approx(-3.0))
    assert points_of(score_event(rows, "butler", edition="1997"))[(3, 1, 4)] == (3.0, -3.0)


def test_rescoring_after_one_correction_changes_only_that_board():
    before = score_event(mitchell())
    after = score_event(mitchell(), rulings=[BoardResult(1, 2, 4, 450)])
    assert points_of(after)[(1, 2, 4)] == (1.0, 0.0)
    assert after.boards[2] == before.boards[2]


def test_bad_input_is_reported_and_the_rest_scores():
    rows = [*mitchell(), BoardResult(2, 1, 3, 620), BoardResult(1, 5, 6, 435)]
    event = score_event(rows, rulings=[BoardResult(9, 1, 3, 100)],
                        penalties=[Penalty(7, 1, PenaltyUnit.MATCHPOINTS)])
    messages = [str(p) for p in event.problems]
    assert any("board 2: 1 plays the board twice" in m for m in messages)
    assert any("board 1: 5 v 6: impossible score 435" in m for m in messages)
    assert any("board 9" in m and "no such board" in m for m in messages)
    assert any("penalty for 7" in m for m in messages)
    assert points_of(event) == points_of(score_event(mitchell()))


def test_law_90_procedural_penalty_hits_one_side_only():
    event = score_event(mitchell(), penalties=[Penalty(1, 0.5, PenaltyUnit.MATCHPOINTS),
                                               Penalty(4, 25, PenaltyUnit.PERCENT),
                                               Penalty(2, 3, PenaltyUnit.IMPS)])
    scores = {p.pair: (p.total, p.percent) for p in event.ranking}
    assert scores[1] == (1.0, 50.0) and scores[3] == (0.5, 25.0)  # opponents untouched
    assert scores[4] == (1.0, 50.0)  # 25% of its two tops
    assert scores[2] == (0.5, 25.0)
    assert "not a unit of this event" in str(event.problems[0])
    assert len(event.penalties) == 2


def test_law_78b_team_match_with_teams_and_victory_points():
    teams = {"1": "A", "2": "B", "3": "B", "4": "A"}
    rows = [BoardResult(1, "1", "2", 420), BoardResult(1, "3", "4", 170),  # 250: 6 IMPs
            BoardResult(2, "1", "2", -100), BoardResult(2, "3", "4", -100)]
    event = score_event(rows, Method.IMPS, options=ScoringOptions(teams=teams))
    assert {p.pair: p.total for p in event.ranking} == {"A": 6, "B": -6}
    assert points_of(event)[(1, "3", "4")] == (-6, 6)
    options = ScoringOptions(teams=teams, victory_points=True)
    vp = score_event(rows, "imp", options=options,
                     penalties=[Penalty("B", 1, PenaltyUnit.VICTORY_POINTS)])
    win, lose = victory_points(6, 2)
    assert {p.pair: p.total for p in vp.ranking} == {"A": win, "B": pytest.approx(lose - 1)}
    fined = score_event(rows, "imp", options=options,
                        penalties=[Penalty("A", 3, PenaltyUnit.IMPS, board=2)])
    # non-zero-sum: A is scored on a margin of 3, B on its own margin of -6
    assert {p.pair: p.total for p in fined.ranking} == {"A": victory_points(3, 2)[0],
                                                        "B": lose}
    assert [p.direction for p in fined.ranking] == [None, None]


def test_imps_without_teams_need_two_tables_a_board():
    rows = [BoardResult(1, "1", "2", 420), BoardResult(1, "3", "4", 170),
            BoardResult(1, "5", "6", 170)]
    event = score_event(rows, "imp")
    assert "two tables" in str(event.problems[0]) and not event.boards
    assert score_event(rows[:2], "imp").score_of("1").total == 6


def test_total_points_event_law_78c():
    event = score_event(mitchell(), "total")
    assert {p.pair: p.total for p in event.ranking} == {1: 320, 2: 70, 3: -320, 4: -70}
    assert event.ranking[0].percent is None


def test_unknown_method_is_a_usage_error():
    with pytest.raises(ValueError, match="unknown scoring method"):
        score_event(mitchell(), "rubber")


adjustments = st.one_of(
    st.none(),
    st.builds(Artificial, st.sampled_from(list(ArtificialScore)),
              st.sampled_from(list(ArtificialScore))),
    st.builds(Assigned, st.sampled_from([420, -50, 170, 7990])),
    st.builds(lambda w: Weighted(((w, 420), (1 - w, -50))), st.floats(0.1, 0.9)),
    st.builds(Split, st.sampled_from([PLUS, Assigned(100)]),
              st.sampled_from([MINUS, Assigned(-50)])),
)
results = st.builds(
    BoardResult, st.integers(1, 4), st.sampled_from(["1", "2", "3", "4", 5, 6]),
    st.sampled_from(["1", "2", "3", "4", 7, 8]),
    st.one_of(st.none(), st.sampled_from([420, 450, -50, 170, 620, 435, 0, -1400])),
    adjustments, st.integers(0, 1))


@given(st.lists(results, max_size=24), st.sampled_from(list(Method)),
       st.sampled_from(["1997", "2017"]), st.booleans())
def test_any_input_scores_without_exceptions(rows, method, name, small):
    event = score_event(rows, method, edition=name,
                        options=ScoringOptions(small_groups=small, victory_points=small))
    json.dumps(event.to_json())
    scored = sum(len(v) for v in event.boards.values())
    assert scored + len(event.problems) >= len(rows) if method is not Method.IMPS else True
    ranks = [p.rank for p in event.ranking]
    assert all(1 <= r <= len(ranks) for r in ranks)


@given(st.lists(results, max_size=24), st.integers(0, 24), st.sampled_from(list(Method)),
       st.sampled_from(["1997", "2017"]))
def test_boards_scored_alone_and_new_results_checked_alone_as_score_event(rows, k, method,
                                                                          name):
    """score_boards (a live field's boards) scores as score_event; results checked after
    the ones accepted before (``checked``) as if all were checked together."""
    opts = ScoringOptions(expected=6)
    event = score_event(rows, method, edition=name, options=opts)
    scorer, scored = score_boards(rows, method, edition(name), opts)
    assert scored == dict(event.boards) and scorer.tops == dict(event.tops)
    assert scorer.problems == list(event.problems)
    head, problems = check_results(rows[:k], edition(name))
    if not problems:
        accepted = [r for b in head.values() for r in b]
        accepted.sort(key=rows.index)
        assert check_results(rows[k:], edition(name), checked=accepted) == \
            check_results(rows, edition(name))


def test_score_boards_needs_the_expected_number_of_results():
    with pytest.raises(ValueError, match="expected"):
        score_boards(mitchell(), Method.MATCHPOINTS, edition(None), ScoringOptions())
