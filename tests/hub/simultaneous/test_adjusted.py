"""A club director's adjusted scores across the field (Law 12C; hub.simultaneous.field,
hub.simultaneous.ecats), hand-computed: an artificial average-plus/average-minus at one club
(12C2(a): not compared, the board's other results Neuberg-scaled as for a missing result,
Law 78; the event's convention 60/50/40 or the session percentage, 12C2(c)), a split assigned
score (12C1(f): each side against its direction's field from its own score), an assigned
score and a ruling changed after the result went out (same id, replaced), a USEBIO upload
carrying them (SCORE ``A6040``, NOTES ``Ruling: ...``). Every field is the one scoring all
results together offline gives.

Matchpoints: one a score beaten, a half a tie; E = 5 (club a plays each board 3 times, b 2),
top 4; Neuberg M' = (M + 1/2)·E/A - 1/2 (formats.md 9.1). Board 1 is not vulnerable (Law 2).
"""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime
from typing import Any

import pytest

from bridgecore.adjusted import (
    Adjustment,
    Artificial,
    ArtificialScore,
    Assigned,
    BoardResult,
    Split,
)
from bridgecore.ranking import EventScore, Method, ScoringOptions, score_event
from hub.simultaneous import SimError
from hub.simultaneous.ecats import club_upload, read_upload
from hub.simultaneous.field import FieldScorer
from tests.hub.simultaneous.helpers import club_results, make_event

T0 = datetime(2026, 4, 12, 18, 0, tzinfo=UTC)
PLUS, MINUS = ArtificialScore.AVERAGE_PLUS, ArtificialScore.AVERAGE_MINUS


def _field(boards: int, artificial: str = "session",
           method: Method = Method.MATCHPOINTS) -> FieldScorer:
    event = make_event({"a": (T0, 3), "b": (T0, 2)}, boards=boards)
    return FieldScorer(dataclasses.replace(event, artificial=artificial, method=method))


def _row(rid: str, board: int, ns: int, ew: int, score: int | None,
         adjusted: str = "") -> dict[str, Any]:
    return {"v": 1, "id": rid, "board": board, "ns": ns, "ew": ew, "score_ns": score,
            **({"adjusted": adjusted} if adjusted else {})}


# Board 1: a1 v a4 given A+ A- (no result could be obtained); board 2 played at every table.
SESSION_ROWS = {
    "a": [_row("t1-1", 1, 1, 4, None, "A+ A-"), _row("t2-1", 1, 2, 5, 110),
          _row("t3-1", 1, 3, 6, 140),
          _row("t1-2", 2, 1, 4, 200), _row("t2-2", 2, 2, 5, 110), _row("t3-2", 2, 3, 6, 140)],
    "b": [_row("t1-1", 1, 1, 3, -100), _row("t2-1", 1, 2, 4, 170),
          _row("t1-2", 2, 1, 3, -100), _row("t2-2", 2, 2, 4, 170)],
}
OFFLINE_ADJUSTED: dict[str, Adjustment] = {"A+ A-": Artificial(PLUS, MINUS),
                                           "NS 140 / EW 200": Split(Assigned(140),
                                                                    Assigned(200)),
                                           "420": Assigned(420),
                                           "A= A=": Artificial(ArtificialScore.AVERAGE,
                                                               ArtificialScore.AVERAGE),
                                           "A- A+": Artificial(MINUS, PLUS),
                                           "A= A-": Artificial(ArtificialScore.AVERAGE, MINUS),
                                           "A+65 A-35": Artificial(PLUS, MINUS, 65.0, 35.0)}


def _offline(field: FieldScorer, rows: dict[str, list[dict[str, Any]]]) -> EventScore:
    """Every result scored together (bridgecore), the adjusted scores built by hand."""
    return score_event([BoardResult(r["board"], f"{c}:{r['ns']}", f"{c}:{r['ew']}",
                                    r["score_ns"], OFFLINE_ADJUSTED.get(r.get("adjusted", "")))
                        for c, club_rows in rows.items() for r in club_rows],
                       field.event.method, edition=field.edition,
                       options=ScoringOptions(expected=5))


def _points(score: EventScore, board: int) -> dict[str, float]:
    out: dict[str, float] = {}
    for s in score.boards[board]:
        out[str(s.result.ns)], out[str(s.result.ew)] = s.ns_points, s.ew_points
    return out


def _percent(score: EventScore) -> dict[str, float | None]:
    return {str(p.pair): p.percent for p in score.ranking}


# Board 1's four real results, Neuberg-scaled from A = 4 to E = 5 (the artificial one is not
# compared): NS 170 3 -> 3.875, 140 2 -> 2.625, 110 1 -> 1.375, -100 0 -> 0.125.
BOARD_1 = {"a:2": 1.375, "a:5": 2.625, "a:3": 2.625, "a:6": 1.375,
           "b:1": 0.125, "b:3": 3.875, "b:2": 3.875, "b:4": 0.125}


def test_an_artificial_score_at_one_club_fixed_60_40_law_12c2a() -> None:
    field = _field(2, "fixed")
    for club, rows in SESSION_ROWS.items():
        for row in rows:
            field.add_result(club, row)
    score = field.rescore()
    # Law 12C2(a): A+ 60% and A- 40% of the top of 4, whatever the pairs did elsewhere.
    assert _points(score, 1) == pytest.approx({**BOARD_1, "a:1": 2.4, "a:4": 1.6})
    # Board 2, five results, no scaling: 200 4, 170 3, 140 2, 110 1, -100 0.
    assert _points(score, 2) == pytest.approx({"a:1": 4, "a:4": 0, "b:2": 3, "b:4": 1,
                                               "a:3": 2, "a:6": 2, "a:2": 1, "a:5": 3,
                                               "b:1": 0, "b:3": 4})
    percent = _percent(score)
    assert percent["a:1"] == pytest.approx(100 * 6.4 / 8)     # 80%
    assert percent["a:4"] == pytest.approx(100 * 1.6 / 8)     # 20%
    assert percent["b:2"] == pytest.approx(100 * 6.875 / 8)   # 85.9375%: first North-South
    assert [p.pair for p in score.ranking][:2] == ["b:2", "a:1"]
    assert score.ranking == _offline(field, SESSION_ROWS).ranking
    assert field.board_payload(1)["results"][0]["adjustment"] == "A+ A-"


def test_an_artificial_score_takes_the_session_percentage_when_better_law_12c2c() -> None:
    field = _field(2, "session")
    for row in SESSION_ROWS["a"][:3] + SESSION_ROWS["b"][:2]:       # board 1 first
        field.add_result("a" if row in SESSION_ROWS["a"] else "b", row)
    score = field.rescore()
    assert _points(score, 1)["a:1"] == pytest.approx(2.4)      # no other board yet: 60%
    for row in SESSION_ROWS["a"][3:]:
        field.add_result("a", row)
    for row in SESSION_ROWS["b"][2:]:
        field.add_result("b", row)
    score = field.rescore()
    assert 1 in field.changed              # board 1 scored again: a1's session moved it
    # a1 scored 100% on its other board: A+ gives max(60, 100) = 100% of 4; a4 scored 0%:
    # A- gives min(40, 0) = 0. The board's other results do not move.
    assert _points(score, 1) == pytest.approx({**BOARD_1, "a:1": 4.0, "a:4": 0.0})
    percent = _percent(score)
    assert percent["a:1"] == pytest.approx(100.0) and percent["a:4"] == pytest.approx(0.0)
    assert score.ranking[0].pair == "a:1"
    assert score.ranking == _offline(field, SESSION_ROWS).ranking


SPLIT_ROWS = {
    "a": [_row("t1-1", 1, 1, 4, 110), _row("t2-1", 1, 2, 5, 140), _row("t3-1", 1, 3, 6, -100)],
    "b": [_row("t1-1", 1, 1, 3, None, "NS 140 / EW 200"), _row("t2-1", 1, 2, 4, 90)],
}


def test_a_split_assigned_score_scores_each_side_on_its_own_law_12c1f() -> None:
    field = _field(1)
    for club, rows in SPLIT_ROWS.items():
        for row in rows:
            field.add_result(club, row)
    score = field.rescore()
    # North-South compared on 110, 140, -100, 140 (b1's), 90: 140s 3.5 each, 110 2, 90 1,
    # -100 0. East-West on 110, 140, -100, 200 (b3's), 90: -100 4, 90 3, 110 2, 140 1,
    # 200 0. b1 + b3 = 3.5: the scores need not balance.
    assert _points(score, 1) == pytest.approx({"a:1": 2, "a:4": 2, "a:2": 3.5, "a:5": 1,
                                               "a:3": 0, "a:6": 4, "b:1": 3.5, "b:3": 0,
                                               "b:2": 1, "b:4": 3})
    assert score.ranking == _offline(field, SPLIT_ROWS).ranking
    b1 = next(r for r in field.board_payload(1)["results"] if r["ns"] == "b:1")
    assert b1["adjustment"] == "NS 140 / EW 200" and b1["score_ns"] is None


def test_a_ruling_after_the_result_was_sent_replaces_it_law_12c1a() -> None:
    field = _field(1)
    rows = {"a": [_row("t1-1", 1, 1, 4, 110), _row("t2-1", 1, 2, 5, 140),
                  _row("t3-1", 1, 3, 6, -100)],
            "b": [_row("t1-1", 1, 1, 3, 110), _row("t2-1", 1, 2, 4, 90)]}
    for club, club_rows in rows.items():
        for row in club_rows:
            field.add_result(club, row)
    score = field.rescore()
    assert _points(score, 1)["a:1"] == pytest.approx(2.5)     # 110 ties b1's: 2 + 1/2
    # The director assigns 4S= by North, 420 (12C1(a)): the same id, the board's result now.
    rows["a"][0] = _row("t1-1", 1, 1, 4, 420, "420")
    assert field.add_result("a", rows["a"][0])
    assert not field.add_result("a", dict(rows["a"][0]))    # sent twice: counted once
    score = field.rescore()
    assert len(field.results) == 5
    assert _points(score, 1)["a:1"] == pytest.approx(4.0)     # 420 beats the 4 others
    assert _points(score, 1)["b:1"] == pytest.approx(2.0)
    assert score.ranking == _offline(field, rows).ranking
    # He changes his mind: no result could be obtained, average to both (12C2(a)).
    rows["a"][0] = _row("t1-1", 1, 1, 4, None, "A= A=")
    field.add_result("a", rows["a"][0])
    score = field.rescore()
    # a1, a4 50% of 4; the others Neuberg from 4 results to 5: 140 3 -> 3.875,
    # 110 2 -> 2.625, 90 1 -> 1.375, -100 0 -> 0.125.
    assert _points(score, 1) == pytest.approx({"a:1": 2, "a:4": 2, "a:2": 3.875,
                                               "a:5": 0.125, "b:1": 2.625, "b:3": 1.375,
                                               "b:2": 1.375, "b:4": 2.625, "a:3": 0.125,
                                               "a:6": 3.875})
    assert len(field.results) == 5
    assert score.ranking == _offline(field, rows).ranking


@pytest.mark.parametrize(("change", "words"), [
    ({"score_ns": 110, "adjusted": "420"}, "assigned score 420"),
    ({"score_ns": 110, "adjusted": "A+ A-"}, "score_ns is null"),
    ({"score_ns": None}, "None is not a North-South score"),
    ({"score_ns": None, "adjusted": "A+ B"}, "not an artificial adjusted score"),
    ({"score_ns": None, "adjusted": "50% 420 + 30% 110"}, "add up to 1"),
    ({"score_ns": None, "adjusted": 60}, "not an adjusted score's text"),
])
def test_bad_adjusted_scores_are_refused_by_name(change: dict[str, object], words: str) -> None:
    field = _field(1)
    with pytest.raises(SimError, match=words):
        field.add_result("a", {**_row("t1-1", 1, 1, 4, 110), **change})
    assert not field.results


def test_an_unknown_convention_is_refused() -> None:
    with pytest.raises(SimError, match="artificial is 'session' or 'fixed'"):
        _field(1, "sixty")


def test_an_ecats_upload_carries_the_adjusted_scores_usebio() -> None:
    event = _field(2).event
    split = _row("t4-1", 1, 7, 8, None, "NS 140 / EW 200")
    upload = club_upload(event, "a", [*SESSION_ROWS["a"], split])
    text = upload.decode()
    assert "<SCORE>A6040</SCORE>" in text                   # A, NS 60%, EW 40%
    assert "<NOTES>Ruling: NS 140 / EW 200</NOTES>" in text
    read = read_upload(event, upload, file="a.xml")
    assert not read.problems
    adjusted = {(r["board"], r["ns"]): (r["score_ns"], r.get("adjusted")) for r in read.results}
    assert adjusted[(1, 1)] == (None, "A+ A-")
    assert adjusted[(1, 7)] == (None, "NS 140 / EW 200")
    assert adjusted[(2, 1)] == (200, None)
    assert {f["board"]: f["results"] for f in read.finished} == {1: 4, 2: 3}
    # Read into the field, the club by file scores as the club on MQTT.
    by_file, by_relay = _field(2), _field(2)
    for row in read.results:
        by_file.add_result("a", row)
    for row in [*SESSION_ROWS["a"], split]:
        by_relay.add_result("a", row)
    for field in (by_file, by_relay):
        for row in SESSION_ROWS["b"]:
            field.add_result("b", row)
    assert by_file.rescore().ranking == by_relay.rescore().ranking


@pytest.mark.parametrize("method", [Method.MATCHPOINTS, Method.CROSS_IMPS, Method.BUTLER])
@pytest.mark.parametrize("convention", ["session", "fixed"])
def test_adjusted_scores_rescored_one_by_one_equal_the_offline_field(
        convention: str, method: Method) -> None:
    """Results in any order, the field rescored after each: always the offline scoring of
    the results so far (12C2(c) reaches the artificial boards of the pairs that moved; in
    IMPs its equivalent, the pair's average IMPs a board, 12C2(b))."""
    rng = random.Random(11)
    rows = {"a": club_results("a", 3, 4, seed=21), "b": club_results("b", 2, 4, seed=22)}
    for club, board, text in (("a", 1, "A+ A-"), ("a", 3, "A- A+"), ("b", 2, "A= A-"),
                              ("b", 4, "NS 140 / EW 200"), ("a", 4, "A+65 A-35")):
        i = next(i for i, r in enumerate(rows[club]) if r["board"] == board)
        rows[club][i] = {**rows[club][i], "score_ns": None, "adjusted": text}
    field = _field(4, convention, method)
    order = [(c, r) for c, club_rows in rows.items() for r in club_rows]
    rng.shuffle(order)
    so_far: dict[str, list[dict[str, Any]]] = {"a": [], "b": []}
    for club, row in order:
        field.add_result(club, row)
        so_far[club].append(row)
        score = field.rescore()
        offline = _offline(field, so_far)
        assert score.ranking == offline.ranking
        assert {b: [(s.result, s.ns_points, s.ew_points) for s in sorted(
            rs, key=lambda s: (str(s.result.ns)))] for b, rs in score.boards.items()} == \
            {b: [(s.result, s.ns_points, s.ew_points) for s in sorted(
                rs, key=lambda s: (str(s.result.ns)))] for b, rs in offline.boards.items()}
