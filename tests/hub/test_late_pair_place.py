"""A late pair in the set-up's absent pair's place (issue 25): 17 pairs set up as a 9-table
Mitchell, pair 9 (NS) absent, its EW opponents sitting out each round; in round 2 an 18th
pair arrives and the director gives it pair 9's place from the round in progress
(hub.late_changes, the ``pair_add`` command with ``from_round``). From round 2 table A9
plays, its boards are scored with the others (Neuberg's E rises to the 9 results the
movement now schedules, docs/scoring.md); the board A9 did not play in round 1 is the late
pair's unplayed board, no result unless the director rules one; a restart from the log
rebuilds the same movement."""

from __future__ import annotations

import random
from typing import Any

from bridgecore.bigdeal import random_deal
from bridgecore.movements import mitchell
from hub.late_changes import unplayed
from hub.room import Room, Section
from tests.hub.test_live_scoring import Session, neuberg

MOVEMENT = mitchell(9, boards_per_round=1, missing_pair=9)
DEALS = {n: random_deal(random.Random(100 + n)) for n in range(1, 10)}


def room() -> Room:
    return Room(Section("A", MOVEMENT), DEALS)


def round_plays(session: Session, number: int, late_board: int | None = None
                ) -> list[tuple[int, str, int, str, int | None]]:
    """Every table that plays in round ``number``: passed out, but 3NT made by the dealer on
    ``late_board`` at table A9."""
    movement = session.room.sections[0].movement
    assert movement is not None
    return [(number, f"A{a.table}", b,
             "3NT" if (a.table, b) == (9, late_board) else "PASS", 9)
            for a in movement.round(number) if a.plays for b in a.boards]


def test_a_late_pair_takes_the_absent_pairs_place_from_the_round_in_progress() -> None:
    session = Session(room())
    session.play(round_plays(session, 1))
    assert session.room.assignment("A9", 1) is not None
    sat_out = session.room.assignment("A9", 1)
    assert sat_out is not None and sat_out.ns is None and not sat_out.plays
    session.start_round(2)

    # the refusal of a round already past, or beyond the movement, names the rounds it takes
    refused = session.director({"op": "pair_add", "section": "A", "pair": 9,
                                "names": ["Ada", "Alan"], "from_round": 1})
    assert not refused["ok"]
    assert refused["error"] == ("Adding a late pair: the late pair takes the absent pair's "
                                "place from a round 2 to 9, not 1")
    assert session.room.sections[0].movement is MOVEMENT          # nothing changed
    done = session.director({"op": "pair_add", "section": "A", "pair": 9,
                             "names": ["Ada Lovelace", "Alan Turing"]})
    assert done["ok"], done
    fact, body, _ = session.facts[-1]
    assert (fact, body["from_round"], body["pair"]) == ("pair_add", 2, 9)

    # the table that sat out expects the late pair from round 2, not before
    assert session.room.round_info("A9", 2)["expected"] == {"NS": 9, "EW": 17}
    assert session.room.round_info("A9", 1)["expected"] == {"NS": None, "EW": 18}
    assert session.room.late.to_json()["late"] == [{"section": "A", "pair": 9,
                                                    "from_round": 2}]

    # table A9 plays rounds 2 to 9 with the others; 3NT made on its round-2 board
    a9 = session.room.assignment("A9", 2)
    assert a9 is not None and a9.plays
    (board,) = a9.boards
    for number in range(2, MOVEMENT.rounds + 1):
        session.play(round_plays(session, number, late_board=board))

    # by hand: 9 results of ``board`` (E = 9, top 8): pair 9's 3NT beats the 8 passes out,
    # which tie with each other (7 halves: 3.5)
    scored = session.room.scoring.section("A")
    traveller = scored.traveller_json(board)
    assert (traveller["expected"], traveller["top"]) == (9, 8)
    points = session.points(board)
    assert len(points) == 9
    dealer_ns = session.room.markings(board).dealer.letter in "NS"
    assert points[9, 17] == ((8.0, 0.0) if dealer_ns else (0.0, 8.0))
    assert all(p == (3.5, 4.5) if dealer_ns else p == (4.5, 3.5)
               for pairs, p in points.items() if pairs != (9, 17))

    # the board A9 did not play in round 1: 8 results, Neuberg-scaled to E = 9
    (missed,) = sat_out.boards
    assert len(session.points(missed)) == 8
    assert all(p == (neuberg(3.5, 8, 9), neuberg(3.5, 8, 9))
               for p in session.points(missed).values())
    assert neuberg(3.5, 8, 9) == 4.0                    # (3.5 + 1/2)·9/8 - 1/2
    section = session.room.sections[0]
    assert unplayed(section, scored.lines, 9, session.room.clock.round, 2) == [
        {"table": "A9", "round": 1, "board": missed, "side": "NS", "sit_out": True}]
    assert unplayed(section, scored.lines, 9, session.room.clock.round) == []

    # Law 12C2, if the director's regulations say so: A- to the late pair alone on the board
    # it missed (40% of the top, 3.2); the pair that sat out gets nothing, nor is E changed
    totals = {e["pair"]: e["total"] for e in scored.ranking()}
    refused = session.director({"op": "ruling", "kind": "artificial", "table": "A9",
                                "board": missed, "round": 1, "ew": "A-"})
    assert "not the side a cancelled second play deprived" in refused["error"]
    session.rule(kind="artificial", table="A9", board=missed, round=1, ns="A-", text="late")
    scored = session.room.scoring.section("A")
    traveller = scored.traveller_json(missed)
    assert traveller["expected"] == 9
    (ruled,) = [r for r in traveller["results"] if r["table"] == "A9"]
    assert (ruled["NS"], ruled["EW"], ruled["ns_points"], ruled["ew_points"],
            ruled["adjustment"]) == (9, 18, 3.2, None, "NS A-")
    assert all(p == (4.0, 4.0) for pairs, p in session.points(missed).items()
               if pairs != (9, 18))
    after = {e["pair"]: e["total"] for e in scored.ranking()}
    assert after[9] == totals[9] + 3.2
    assert {p: t for p, t in after.items() if p != 9} == {
        p: t for p, t in totals.items() if p != 9}
    assert unplayed(section, scored.lines, 9, session.room.clock.round, 2) == []

    # the late pair is ranked, named, with its 8 boards played and the one ruled
    ranking = {e["pair"]: e for e in scored.ranking()}
    assert ranking[9]["names"][:2] == ["Ada Lovelace", "Alan Turing"]
    assert len(scored.played(9)) == 9

    # a restart: the logged facts rebuild the same movement and the same late pair
    fresh = room()
    for fact, body, t in session.facts:
        fresh.fact(fact, body, t)
    assert fresh.sections[0].movement == session.room.sections[0].movement
    assert fresh.late.snapshot() == session.room.late.snapshot()
    assert fresh.round_info("A9", 3)["expected"] == session.room.round_info("A9", 3)["expected"]


def test_a_later_round_leaves_the_round_in_progress_a_sit_out() -> None:
    """The director gives round 4: table A9's opponents still sit out rounds 2 and 3."""
    session = Session(room())
    session.start_round(2)
    done = session.director({"op": "pair_add", "section": "A", "pair": 9,
                             "names": ["Ada", "Alan"], "from_round": 4})
    assert done["ok"], done
    movement: Any = session.room.sections[0].movement
    assert [movement.assignment(r, 9).ns for r in range(1, 10)] == [None] * 3 + [9] * 6
    refused = session.director({"op": "pair_add", "section": "A", "pair": 9,
                                "names": ["Ann", "Bob"]})
    assert "pair 9 of section A already" in refused["error"]
    too_late = Session(room())
    assert "from a round 1 to 9, not 10" in too_late.director(
        {"op": "pair_add", "section": "A", "pair": 9, "names": ["A"], "from_round": 10})["error"]
