"""The field's scoring (hub.simultaneous.field): duplicates count once, a correction replaces,
a club has finished a board only when all its results are in (Law 16), missing results are
Neuberged (Law 78) as scoring the whole field offline does, bad results are refused by name."""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime
from typing import Any

import pytest

from bridgecore.adjusted import BoardResult
from bridgecore.ranking import EventScore, ScoringOptions, score_event
from bridgecore.results_io import parse_adjustment
from hub.simultaneous import SimError
from hub.simultaneous.field import FieldScorer, field_pair
from tests.hub.simultaneous.helpers import SCORES, club_results, make_event

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


def _withdrawal(row: dict[str, Any]) -> dict[str, Any]:
    return {"v": 1, "id": row["id"], "board": row["board"], "withdrawn": True}


def _offline(rows: dict[str, list[dict[str, Any]]]) -> EventScore:
    return score_event([BoardResult(r["board"], field_pair(c, r["ns"]), field_pair(c, r["ew"]),
                                    r["score_ns"], parse_adjustment(r["adjusted"])
                                    if r.get("adjusted") else None)
                        for c, club_rows in rows.items() for r in club_rows],
                       options=ScoringOptions(expected=5))


def test_a_withdrawn_result_leaves_the_field_and_it_is_rescored() -> None:
    """An artificial score alone on a board not played at a table (Law 12C2), then withdrawn:
    the field is the offline scoring of the results left, the board Neuberged again (Law 78)
    without it, the pairs it gave an artificial score to no longer ranked on it."""
    field = _field()
    rows = {"a": club_results("a", 3, 3, seed=7, sit_out=frozenset({(2, 3)})),
            "b": club_results("b", 2, 3, seed=8)}
    ruling = {"v": 1, "id": "a-b2-t3", "board": 2, "ns": 3, "ew": 6, "score_ns": None,
              "adjusted": "A+ A-"}
    for club, club_rows in rows.items():
        for row in club_rows:
            field.add_result(club, row)
    field.add_result("a", ruling)
    field.finish("a", {"v": 1, "board": 2, "results": 3})
    score = field.rescore()
    assert score.ranking == _offline({**rows, "a": [*rows["a"], ruling]}).ranking
    assert field.has_finished("a", 2)
    assert field.withdraw_result("a", _withdrawal(ruling))
    assert ("a", ruling["id"]) not in field.results
    score = field.rescore()
    assert field.changed == {2}
    offline = _offline(rows)
    assert score.ranking == offline.ranking
    assert _by_board(score) == _by_board(offline)
    assert score.tops[2] == offline.tops[2]
    assert all(ruling["adjusted"] != r.get("adjustment")
               for r in field.board_payload(2)["results"])
    assert not field.has_finished("a", 2)    # said 3 results, 2 left: until it says again
    field.finish("a", {"v": 1, "board": 2, "results": 2})
    assert not field.has_finished("a", 2)    # 2 of the 3 it plays: short (Law 16)
    field.finish("a", {"v": 1, "board": 2, "results": 2, "closed": True})
    assert field.has_finished("a", 2)        # its director closed it: table 3 did not play
    # Delivered twice: counted once. Given again (another ruling): back in the field.
    assert not field.withdraw_result("a", _withdrawal(ruling))
    assert field.duplicates == 1
    assert field.add_result("a", {**ruling, "adjusted": "A= A="})
    assert field.rescore().ranking == _offline(
        {**rows, "a": [*rows["a"], {**ruling, "adjusted": "A= A="}]}).ranking


def test_a_withdrawal_of_every_result_of_a_board_empties_it() -> None:
    field = _field()
    rows = [r for r in club_results("a", 3, 3, seed=9) if r["board"] == 3]
    for row in rows:
        field.add_result("a", row)
    field.rescore()
    for row in rows:
        assert field.withdraw_result("a", _withdrawal(row))
    score = field.rescore()
    assert 3 not in score.boards and score.ranking == ()
    assert field.board_payload(3)["results"] == []


@pytest.mark.parametrize(("club", "change", "words"), [
    ("a", {"id": "a-b9-t9"}, "withdraws result a-b9-t9, which the organiser never had"),
    ("b", {}, "it is club a's, not b's: a club withdraws only its own results"),
    ("a", {"board": 2}, "that result is on board 1"),
    ("a", {"board": 9}, "board 9 is not one of the event's"),
    ("a", {"withdrawn": "yes"}, "a withdrawal of an unknown version"),
    ("a", {"id": ""}, "a withdrawal without a valid id"),
    ("z", {}, "no club 'z'"),
])
def test_a_withdrawal_refused_names_why_and_changes_nothing(
        club: str, change: dict[str, object], words: str) -> None:
    field = _field()
    row = club_results("a", 3, 3, seed=4)[0]
    field.add_result("a", row)
    before = field.rescore()
    with pytest.raises(SimError, match=words):
        field.withdraw_result(club, {**_withdrawal(row), **change})
    assert ("a", row["id"]) in field.results and not field.withdrawn
    assert field.rescore().ranking == before.ranking


def test_a_board_finished_without_results_has_an_empty_field_payload() -> None:
    field = _field()
    field.finish("b", {"v": 1, "board": 3, "results": 0, "closed": True})   # not played
    assert field.has_finished("b", 3)
    field.rescore()
    assert field.board_payload(3)["results"] == []


def _from_scratch(field: FieldScorer, sent: dict[tuple[str, str], dict[str, Any]]
                  ) -> EventScore:
    """Every result in, in the order the field holds them (a correction moves to the end),
    scored together by bridgecore: each club version its own form (Law 87), numbered as
    the field numbers them."""
    versions = {k: f"{k[0]}/{row['version']}" if row.get("version") else ""
                for k, row in sent.items()}
    forms = {b: ["", *sorted({versions[k] for k, row in sent.items()
                              if row["board"] == b} - {""})] for b in field.boards}
    return score_event([BoardResult(row["board"], field_pair(c, row["ns"]),
                                    field_pair(c, row["ew"]), row["score_ns"],
                                    parse_adjustment(row["adjusted"])
                                    if row.get("adjusted") else None,
                                    form=forms[row["board"]].index(versions[(c, rid)]))
                        for (c, rid), row in sent.items()],
                       field.event.method, edition=field.edition, options=field.options)


def _by_board(score: EventScore) -> dict[int, list[tuple[object, ...]]]:
    return {b: sorted(((str(s.result.ns), str(s.result.ew), s.result.score_ns,
                        str(s.result.adjustment), s.result.form, s.ns_points, s.ew_points)
                       for s in rows), key=str) for b, rows in score.boards.items()}


@pytest.mark.parametrize(("artificial", "small_groups", "seed"),
                         [("session", False, 1), ("fixed", True, 2), ("session", True, 3),
                          ("fixed", False, 4)])
def test_the_field_after_each_result_equals_it_scored_from_scratch(
        artificial: str, small_groups: bool, seed: int) -> None:
    """Random results (adjusted scores, Law 12C; club versions of a fouled board, Law 87; a
    pair playing a board twice, an impossible score, Law 77), duplicates, corrections and
    withdrawals (some delivered twice, some lines given again afterwards), in random order,
    the field rescored incrementally after each: always the field scored from scratch
    (bridgecore, every result together), ranking, points and problems."""
    rng = random.Random(seed)
    clubs = {"a": 4, "b": 3, "c": 2}
    event = make_event({c: (T0, n) for c, n in clubs.items()}, boards=4)
    field = FieldScorer(dataclasses.replace(event, artificial=artificial,
                                            small_groups=small_groups))
    pool = [(c, row) for c, n in clubs.items() for row in club_results(c, n, 4, seed=seed)]
    for c, row in list(pool):
        roll = rng.random()
        if roll < 0.12:
            row.update(score_ns=None, adjusted=rng.choice(["A+ A-", "A= A-", "A- A+",
                                                           "A+65 A-35", "NS 140 / EW 200"]))
        elif roll < 0.25:
            row["version"] = rng.choice(["form-1", "form-2"])
        elif roll < 0.29:
            row["score_ns"] = 420   # impossible when North-South are vulnerable (Law 77)
        if rng.random() < 0.06:    # a pair entered twice on the board
            pool.append((c, {**row, "id": row["id"] + "-again", "ew": clubs[c] + 1}))
    rng.shuffle(pool)
    sent: dict[tuple[str, str], dict[str, Any]] = {}
    gone: list[tuple[tuple[str, str], dict[str, Any]]] = []   # withdrawn (Law 12C undone)
    withdrawals, problems = 0, False
    for step in range(len(pool) + 40):
        if step < len(pool):
            club, row = pool[step]
        elif rng.random() < 0.25 and (sent or gone):   # a line withdrawn (or again)
            fresh = sent and (not gone or rng.random() < 0.8)
            key, row = rng.choice(list(sent.items())) if fresh else rng.choice(gone)
            club = key[0]
            if field.withdraw_result(club, {"v": 1, "id": row["id"], "board": row["board"],
                                            "withdrawn": True}):
                gone.append((key, sent.pop(key)))
                withdrawals += 1
            score = field.rescore()
            offline = _from_scratch(field, sent)
            assert score.ranking == offline.ranking, step
            assert _by_board(score) == _by_board(offline), step
            continue
        else:                        # the clubs' corrections and resendings
            club, row = rng.choice([(c, dict(r)) for (c, _), r in [*sent.items(), *gone]])
            if rng.random() < 0.7:
                row.update(score_ns=rng.choice(SCORES), adjusted=None)
                row.pop("adjusted")
                if rng.random() < 0.3:
                    row["version"] = "" if row.get("version") else "form-1"
        if field.add_result(club, row):
            sent.pop((club, row["id"]), None)
            sent[(club, row["id"])] = row
        score = field.rescore()
        offline = _from_scratch(field, sent)
        assert score.ranking == offline.ranking, step
        assert _by_board(score) == _by_board(offline), step
        assert sorted(map(str, score.problems)) == sorted(map(str, offline.problems)), step
        problems = problems or bool(score.problems)
    assert problems and field.duplicates > 0 and withdrawals > 0


def test_each_club_has_its_own_ranking_on_the_fields_scores() -> None:
    """E = 4, top 3. North-South: york's 450 beats lyon's two 420s (1.5 each), york's 400
    last; each club's pairs placed among themselves by direction, ties sharing the place,
    with their place in the field."""
    field = FieldScorer(make_event({"lyon": (T0, 2), "york": (T0, 2)}, boards=1))
    for club, scores in (("lyon", (420, 420)), ("york", (400, 450))):
        for table, score in enumerate(scores, 1):
            field.add_result(club, {"v": 1, "id": f"t{table}", "board": 1, "ns": table,
                                    "ew": table + 2, "score_ns": score})
    field.rescore()
    own = {club: [(r["pair"], r["direction"], r["rank"], r["field_rank"], r["total"])
                  for r in rows] for club, rows in field.club_rankings().items()}
    assert own == {
        "york": [("2", "NS", 1, 1, 3.0), ("1", "NS", 2, 4, 0.0), ("3", "EW", 1, 1, 3.0),
                 ("4", "EW", 2, 4, 0.0)],
        "lyon": [("1", "NS", 1, 2, 1.5), ("2", "NS", 1, 2, 1.5), ("3", "EW", 1, 2, 1.5),
                 ("4", "EW", 1, 2, 1.5)]}
    payload = field.ranking_payload("lyon")
    assert payload["club"]["id"] == "lyon" and len(payload["ranking"]) == 8
    assert field.ranking_payload("nobody")["club"]["ranking"] == []
