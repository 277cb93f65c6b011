"""Rescoring after a correction (issue 6): only the corrected board, the same event as
scoring everything again with the corrections as rulings."""

from hypothesis import given, settings
from hypothesis import strategies as st

from bridgecore.adjusted import (
    Artificial,
    ArtificialScore,
    Assigned,
    BoardResult,
    Penalty,
    PenaltyUnit,
    Weighted,
)
from bridgecore.ranking import EventScore, Method, ScoringOptions, score_event
from bridgecore.rescoring import EventScorer

PLUS, MINUS = ArtificialScore.AVERAGE_PLUS, ArtificialScore.AVERAGE_MINUS


def same(a: EventScore, b: EventScore) -> None:
    assert a.boards == b.boards
    assert a.ranking == b.ranking
    assert a.problems == b.problems
    assert a.tops == b.tops and a.expected == b.expected and a.penalties == b.penalties


def field() -> list[BoardResult]:
    """Three boards, three tables, a Mitchell: NS 1-3 against EW 4-6."""
    scores = {1: (420, 450, -50), 2: (620, 600, 650), 3: (-100, 110, 140)}
    return [BoardResult(b, ns, 4 + (ns - 1 + b) % 3, s[ns - 1])
            for b, s in scores.items() for ns in (1, 2, 3)]


def test_law_78a_a_corrected_score_rescores_only_its_board():
    scorer = EventScorer(field(), "mp")
    before = scorer.event
    after = scorer.correct(BoardResult(1, 3, 4, 480))  # -50 was 4S one down: it made 11
    assert scorer.full_rescorings == 1
    assert after.boards[2] == before.boards[2] and after.boards[3] == before.boards[3]
    assert [(s.result.ns, s.ns_points) for s in after.boards[1]] == [(1, 0.0), (2, 1.0),
                                                                     (3, 2.0)]
    same(after, score_event(field(), "mp", rulings=[BoardResult(1, 3, 4, 480)]))


def test_law_12c1_assigned_and_weighted_scores_rescore_one_board_in_every_method():
    rulings = [BoardResult(2, 1, 6, 620, Assigned(650)),
               BoardResult(3, 2, 5, 110, Weighted(((0.5, 140), (0.5, -100))))]
    for method in (Method.MATCHPOINTS, Method.BUTLER, Method.CROSS_IMPS,
                   Method.TOTAL_POINTS):
        scorer = EventScorer(field(), method, penalties=[Penalty(1, 1, PenaltyUnit.IMPS)])
        for ruling in rulings:
            scorer.correct(ruling)
        assert scorer.full_rescorings == 1, method
        same(scorer.event, score_event(field(), method, rulings=rulings,
                                       penalties=[Penalty(1, 1, PenaltyUnit.IMPS)]))


def test_law_12c2c_artificial_score_rescores_everything_under_the_session_rule():
    """The session percentage of 12C2(c) reaches every board: the whole event is scored
    again (2017); under 1997 (no such rule) the board alone is."""
    ruling = BoardResult(3, 1, 4, None, Artificial(PLUS, MINUS))
    for name, full in (("2017", 2), ("1997", 1)):
        scorer = EventScorer(field(), "mp", edition=name)
        scorer.correct(ruling)
        assert scorer.full_rescorings == full, name
        same(scorer.event, score_event(field(), "mp", edition=name, rulings=[ruling]))


def test_a_ruling_that_adds_a_result_or_is_refused_rescores_everything():
    scorer = EventScorer(field(), "mp")
    scorer.correct(BoardResult(1, 7, 8, 420))  # a fourth table: E changes on every board
    assert scorer.full_rescorings == 2
    scorer.correct(BoardResult(2, 1, 6, 625))  # impossible: refused, the result stands
    assert scorer.full_rescorings == 3
    scorer.correct(BoardResult(9, 1, 6, 620))  # no such board
    rulings = [BoardResult(1, 7, 8, 420), BoardResult(2, 1, 6, 625), BoardResult(9, 1, 6, 620)]
    same(scorer.event, score_event(field(), "mp", rulings=rulings))
    assert len(scorer.event.problems) == 2


def test_law_78b_teams_correction_rescores_its_board_only():
    teams = {"1": "A", "2": "B", "3": "B", "4": "A"}
    rows = [BoardResult(b, ns, ew, s) for b, pairs in
            ((1, ((("1", "2"), 420), (("3", "4"), 170))),
             (2, ((("1", "2"), -100), (("3", "4"), -100))))
            for (ns, ew), s in pairs]
    options = ScoringOptions(teams=teams, victory_points=True)
    scorer = EventScorer(rows, "imp", options=options)
    scorer.correct(BoardResult(1, "3", "4", 420))
    assert scorer.full_rescorings == 1
    same(scorer.event, score_event(rows, "imp", options=options,
                                   rulings=[BoardResult(1, "3", "4", 420)]))
    assert {p.pair: p.total for p in scorer.event.ranking} == {"A": 10.0, "B": 10.0}


scores = st.sampled_from([420, 450, -50, 170, 620, -100, 0, 10])
adjustments = st.one_of(st.none(), st.builds(Assigned, st.sampled_from([420, -50, 170])),
                        st.builds(Artificial, st.sampled_from(list(ArtificialScore)),
                                  st.sampled_from(list(ArtificialScore))))
rulings = st.builds(BoardResult, st.integers(1, 4), st.integers(1, 4), st.integers(5, 8),
                    scores, adjustments)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.builds(BoardResult, st.integers(1, 3), st.integers(1, 4), st.integers(5, 8),
                          scores), min_size=1, max_size=14),
       st.data(), st.sampled_from([Method.MATCHPOINTS, Method.BUTLER, Method.CROSS_IMPS]),
       st.sampled_from(["1997", "2017"]), st.booleans())
def test_incremental_rescoring_equals_scoring_everything(rows, data, method, name, neuberg):
    """Corrections of existing results (the incremental path) mixed with any ruling."""
    corrected = st.builds(lambda r, score, adjustment: BoardResult(r.board, r.ns, r.ew, score,
                                                                   adjustment),
                          st.sampled_from(rows), scores, adjustments)
    corrections = data.draw(st.lists(st.one_of(corrected, corrected, rulings), max_size=5))
    options = ScoringOptions(neuberg=neuberg, digits=2 if neuberg else None)
    scorer = EventScorer(rows, method, edition=name, options=options)
    for k, ruling in enumerate(corrections, 1):
        scorer.correct(ruling)
        same(scorer.event, score_event(rows, method, edition=name, options=options,
                                       rulings=corrections[:k]))


# Live scoring: results arriving one at a time (score_event's ``previous``) -------------------

@settings(max_examples=60, deadline=None)
@given(st.lists(st.builds(BoardResult, st.integers(1, 4), st.integers(1, 5), st.integers(6, 9),
                          scores, st.one_of(st.none(), st.none(), st.none(), adjustments)),
                min_size=1, max_size=16, unique_by=lambda r: (r.board, r.ns)),
       st.sampled_from([Method.MATCHPOINTS, Method.BUTLER, Method.CROSS_IMPS]),
       st.sampled_from(["1997", "2017"]), st.booleans(), st.sampled_from([None, 5]))
def test_law_78_live_scoring_result_by_result_equals_scoring_everything(
        rows, method, name, neuberg, expected):
    """Law 78: each result that arrives is scored with the event scored before it; the
    boards it leaves alone are not scored again (artificial scores, 12C2(c), and a change of
    the expected results rescore everything): always the event scored from nothing."""
    options = ScoringOptions(neuberg=neuberg, digits=2 if neuberg else None, expected=expected)
    previous = None
    for k in range(1, len(rows) + 1):
        live = score_event(rows[:k], method, edition=name, options=options, previous=previous)
        same(live, score_event(rows[:k], method, edition=name, options=options))
        previous = live


def test_law_78a_a_result_on_one_board_scores_only_that_board_again(monkeypatch):
    """The matchpoints of the other boards are taken as they were (their results unchanged,
    the expected number of results set by the movement)."""
    import bridgecore.ranking as ranking

    options = ScoringOptions(expected=3)
    before = score_event(field()[:-1], "mp", options=options)
    scored: list[int] = []
    board = ranking.BoardScorer.board

    def counting(self, b, rule):
        scored.append(b)
        return board(self, b, rule)

    monkeypatch.setattr(ranking.BoardScorer, "board", counting)
    after = score_event(field(), "mp", options=options, previous=before)
    assert scored == [3]
    same(after, score_event(field(), "mp", options=options))
