"""Fouled boards across the field (Law 87, hub.simultaneous.field): each version of a board is
scored as its own group across the clubs, Neuberg-scaled to the field's expected number
(formats.md 9.1), or with the event's small_groups the EBU percentages for a group of 2 or 3;
a pair is ranked on its group's points. Figures computed by hand in the comments."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from bridgecore.deal import Deal
from bridgecore.pbn import read_pbn
from hub.simultaneous import SimError
from hub.simultaneous.field import FieldScorer
from tests.hub.simultaneous.helpers import make_event

T0 = datetime(2026, 4, 12, 18, tzinfo=UTC)


def _row(rid: str, table: int, score: int, **more: object) -> dict[str, object]:
    return {"v": 1, "id": rid, "board": 1, "ns": table, "ew": 10 + table, "score_ns": score,
            **more}


def _field(small_groups: bool) -> FieldScorer:
    # E = 8: club a plays the board 4 times, club b 4 times.
    event = make_event({"a": (T0, 4), "b": (T0, 4)}, boards=1)
    field = FieldScorer(dataclasses.replace(event, small_groups=small_groups))
    for t, score in zip((1, 2, 3, 4), (100, 110, 120, 140), strict=True):
        field.add_result("a", _row(f"a{t}", t, score))
    field.add_result("b", _row("b1", 1, 90))
    field.add_result("b", _row("b2", 2, 170))
    # b's director ruled board 1 fouled: tables 3 and 4 played a changed form (Law 87A).
    field.add_result("b", _row("b3", 3, 400, version="form-1"))
    field.add_result("b", _row("b4", 4, -50, version="form-1"))
    return field


def _points(field: FieldScorer) -> dict[str, tuple[float, float]]:
    score = field.rescore()
    return {s.result.ns: (round(s.ns_points, 4), round(s.ew_points, 4))
            for s in score.boards[1]}


def test_each_version_is_its_own_group_neuberg_to_the_field() -> None:
    points = _points(_field(small_groups=False))
    # Correct version, A = 6 of E = 8 (1-point units, top 7): 90 100 110 120 140 170 earn
    # M = 0..5 North-South; M' = (M + 1/2)*8/6 - 1/2.
    assert points["a:1"] == (1.5, 5.5)        # 100: M 1 -> 1.5; EW M 4 -> 5.5
    assert points["b:1"] == (0.1667, 6.8333)  # 90: M 0 -> 1/6; EW M 5 -> 41/6
    assert points["b:2"] == (6.8333, 0.1667)  # 170
    assert points["a:4"] == (5.5, 1.5)        # 140: M 4
    # The fouled version, A = 2 of E = 8: M' = (M + 1/2)*4 - 1/2.
    assert points["b:3"] == (5.5, 1.5)        # 400 beats -50: M 1
    assert points["b:4"] == (1.5, 5.5)


def test_small_groups_get_the_ebu_percentages_and_the_pair_is_ranked_from_them() -> None:
    field = _field(small_groups=True)
    points = _points(field)
    # A group of 2 (E = 8 >= 6): 60% + (MP1 - 1)*5%: 65% and 55% of the top 7.
    assert points["b:3"] == (4.55, 3.85)
    assert points["b:4"] == (3.85, 4.55)
    assert points["a:1"] == (1.5, 5.5)        # the correct version is still Neuberg
    ranking = {p.pair: p for p in field.score.ranking} if field.score else {}
    assert ranking["b:3"].percent == pytest.approx(65.0)
    assert ranking["b:13"].percent == pytest.approx(55.0)
    payload = field.board_payload(1)
    assert payload["fouled"] is True
    assert {r["ns"]: r["version"] for r in payload["results"]}["b:3"] == "b/form-1"
    assert {r["ns"]: r["version"] for r in payload["results"]}["a:1"] == ""


def test_the_same_deal_as_played_is_one_group_across_clubs() -> None:
    event = make_event({"a": (T0, 2), "b": (T0, 2)}, boards=1)
    right = next(r.deal for r in read_pbn(event.deals).records if r.deal is not None)
    hands = right.pbn()[2:].split()
    wrong = Deal.parse("N:" + " ".join([hands[1], hands[0], hands[2], hands[3]]))  # N, E swapped
    field = FieldScorer(event)     # E = 4
    field.add_result("a", _row("a1", 1, 100, deal=right.pbn()))   # the organiser's deal
    field.add_result("a", _row("a2", 2, 200, deal=wrong.pbn()))
    field.add_result("b", _row("b1", 1, 150))
    field.add_result("b", _row("b2", 2, 300, deal=wrong.pbn()))
    points = _points(field)
    # Correct: 100 and 150, A = 2 of E = 4: M' = (M + 1/2)*2 - 1/2 -> 150: 2.5, 100: 0.5.
    assert points["b:1"] == (2.5, 0.5) and points["a:1"] == (0.5, 2.5)
    # The swapped deal, played at both clubs: one group, 300 beats 200.
    assert points["b:2"] == (2.5, 0.5) and points["a:2"] == (0.5, 2.5)
    versions = {r["ns"]: r["version"] for r in field.board_payload(1)["results"]}
    assert versions["a:2"] == versions["b:2"] != "" and versions["a:1"] == ""


def test_a_version_given_later_is_a_correction_and_bad_versions_are_refused() -> None:
    field = _field(small_groups=False)
    row = _row("a4", 4, 140)
    assert not field.add_result("a", row)                   # the same: a duplicate
    assert field.add_result("a", {**row, "version": "form-1"})   # the ruling came after
    assert field.versions[("a", "a4")] == "a/form-1"        # a's own, not b's form-1
    for bad, words in (({"version": "x/y"}, "version"), ({"deal": "N:AKQ"}, "deal"),
                       ({"version": 3}, "version")):
        with pytest.raises(SimError, match=words):
            field.add_result("a", _row("a9", 1, 100, **bad))
