"""The field's scoring (hub.simultaneous.field): duplicates count once, a correction replaces,
a club has finished a board only when all its results are in (Law 16), missing results are
Neuberged (Law 78) as scoring the whole field offline does, bad results are refused by name."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bridgecore.adjusted import BoardResult
from bridgecore.ranking import ScoringOptions, score_event
from hub.simultaneous import SimError
from hub.simultaneous.field import FieldScorer, field_pair
from tests.hub.simultaneous.helpers import club_results, make_event

T0 = datetime(2026, 4, 12, 18, 0, tzinfo=UTC)


def _field() -> FieldScorer:
    return FieldScorer(make_event({"a": (T0, 3), "b": (T0, 2)}, boards=3))


def test_duplicates_count_once_and_corrections_replace() -> None:
    field = _field()
    row = club_results("a", 3, 3, seed=4)[0]
    assert field.add_result("a", row)
    assert not field.add_result("a", dict(row))
    assert field.duplicates == 1 and len(field.results) == 1
    corrected = {**row, "score_ns": -row["score_ns"] or 100}
    assert field.add_result("a", corrected)
    assert len(field.results) == 1
    assert next(iter(field.results.values())).score_ns == corrected["score_ns"]


def test_a_board_is_finished_once_all_its_results_are_in_law_16() -> None:
    field = _field()
    rows = [r for r in club_results("a", 3, 3, seed=4) if r["board"] == 1]
    field.finish("a", {"v": 1, "board": 1, "results": 3})
    for row in rows[:2]:
        field.add_result("a", row)
    assert not field.has_finished("a", 1)   # said finished, a result still on its way
    field.add_result("a", rows[2])
    assert field.has_finished("a", 1)
    assert field.finished_boards("a") == (1,)
    assert field.finished_boards("b") == ()


def test_the_field_scores_as_all_results_together_offline_neuberg_law_78() -> None:
    field = _field()
    rows = {"a": club_results("a", 3, 3, seed=5, sit_out=frozenset({(2, 1)})),
            "b": club_results("b", 2, 3, seed=6, sit_out=frozenset({(3, 2)}))}
    for club, club_rows in rows.items():
        for row in reversed(club_rows):      # in any order
            field.add_result(club, row)
            field.rescore()
    offline = score_event([BoardResult(r["board"], field_pair(c, r["ns"]),
                                       field_pair(c, r["ew"]), r["score_ns"])
                           for c, club_rows in rows.items() for r in club_rows],
                          options=ScoringOptions(expected=5))
    score = field.rescore()
    assert score.ranking == offline.ranking
    assert not score.problems
    # Board 2 was played 4 times of 5: its points are scaled to a top of 4 (n - 1 = 4).
    assert score.tops[2] == 4.0
    payload = field.board_payload(2)
    assert len(payload["results"]) == 4 and payload["expected"] == 5


@pytest.mark.parametrize(("change", "words"), [
    ({"v": 2}, "version"),
    ({"id": ""}, "id"),
    ({"board": 9}, "board 9"),
    ({"score_ns": 425}, "425"),
    ({"score_ns": True}, "True"),
    ({"ns": 1, "ew": 1}, "both sides"),
    ({"ns": None}, "pair number"),
])
def test_bad_results_are_refused_by_name(change: dict[str, object], words: str) -> None:
    field = _field()
    row = {**club_results("a", 3, 3, seed=4)[0], **change}
    with pytest.raises(SimError, match=words):
        field.add_result("a", row)
    assert not field.results


def test_an_unknown_club_is_refused() -> None:
    with pytest.raises(SimError, match="no club 'zz'"):
        _field().add_result("zz", club_results("a", 3, 3, seed=4)[0])


def test_a_correction_rescored_incrementally_equals_the_offline_field() -> None:
    field = _field()
    rows = {"a": club_results("a", 3, 3, seed=7), "b": club_results("b", 2, 3, seed=8)}
    for club, club_rows in rows.items():
        for row in club_rows:
            field.add_result(club, row)
    field.rescore()
    rows["a"][4] = {**rows["a"][4], "score_ns": rows["a"][4]["score_ns"] + 1000}
    field.add_result("a", rows["a"][4])            # the club's correction, same id
    score = field.rescore()
    offline = score_event([BoardResult(r["board"], field_pair(c, r["ns"]),
                                       field_pair(c, r["ew"]), r["score_ns"])
                           for c, club_rows in rows.items() for r in club_rows],
                          options=ScoringOptions(expected=5))
    assert score.ranking == offline.ranking
    assert {b: len(s) for b, s in score.boards.items()} == \
        {b: len(s) for b, s in offline.boards.items()}


def test_a_board_finished_without_results_has_an_empty_field_payload() -> None:
    field = _field()
    field.finish("b", {"v": 1, "board": 3, "results": 0})   # the club did not play it
    assert field.has_finished("b", 3)
    field.rescore()
    assert field.board_payload(3)["results"] == []
