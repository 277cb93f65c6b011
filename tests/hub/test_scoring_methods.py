"""The scoring the director chooses at set-up counts (issue 13): the live ranking, the
travellers and the results files of a pairs section follow the event's ``scoring``, each
method checked against a hand computation (Law 78; formats.md 9.2).

The event is test_live_scoring's 3-table Mitchell (pairs 1-3 North-South, 4-6 East-West),
boards 1 and 2 played by every table:

=====  ======  ==================  ==================
round  pairs   board 1 (none vul)  board 2 (NS vul)
=====  ======  ==================  ==================
1      1 v 4   NS +420             NS -400
2      3 v 5   NS +450             NS +50
3      2 v 6   NS -50              NS -430
=====  ======  ==================  ==================

IMPs by the Law 78B scale (0-10: 0, 20-40: 1, 30: 1, 140: 4, 150: 4, 170: 5, 310: 7,
320: 8, 450: 10, 470: 10, 480: 10, 500: 11):

* ``imps``, against a datum, the mean North-South score rounded to the nearest 10:
  board 1 (420 + 450 - 50) / 3 = 273.3, datum 270: +150 = 4, +180 = 5, -320 = -8; board 2
  (-400 + 50 - 430) / 3 = -260: -140 = -4, +310 = 7, -170 = -5. North-South pair 1 has
  4 - 4 = 0, pair 3 5 + 7 = 12, pair 2 -8 - 5 = -13; East-West the opposite.
* ``butler``, the datum without the board's top and bottom scores (three results: the
  middle one): board 1 datum 420: 0, +30 = 1, -470 = -10; board 2 datum -400: 0, +450 = 10,
  -30 = -1. Pair 1 0, pair 3 11, pair 2 -11.
* ``cross-imps``, each result against the other two, summed and divided by the two
  comparisons: board 1 +420: (-1 + 10) / 2 = 4.5, +450: (1 + 11) / 2 = 6, -50: (-10 - 11) / 2
  = -10.5; board 2 -400: (-10 + 1) / 2 = -4.5, +50: (10 + 10) / 2 = 10, -430: (-1 - 10) / 2 =
  -5.5. Pair 1 0, pair 3 16, pair 2 -16.
* ``matchpoints`` (78A): pair 3 100%, pair 1 50%, pair 2 0% (test_live_scoring).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bridgecore.results_io import method_of, read_pbn_results
from bridgecore.usebio import read_usebio
from hub.event import SCORINGS, EventSetup
from hub.room import Room, Section
from hub.scoring import METHODS
from hub.session_export import export
from hub.traveller import traveller_fields
from tests.hub.test_live_scoring import ROUND_ROBIN, Session
from tests.hub.test_table import DEALS, MOVEMENT

# scoring -> (board 1 NS points by NS pair, board 2's, NS totals, units, method)
HAND: dict[str, tuple[dict[int, float], dict[int, float], dict[int, float], str, str]] = {
    "imps": ({1: 4, 3: 5, 2: -8}, {1: -4, 3: 7, 2: -5}, {1: 0, 3: 12, 2: -13},
             "IMPs", "butler"),
    "butler": ({1: 0, 3: 1, 2: -10}, {1: 0, 3: 10, 2: -1}, {1: 0, 3: 11, 2: -11},
               "IMPs", "butler"),
    "cross-imps": ({1: 4.5, 3: 6, 2: -10.5}, {1: -4.5, 3: 10, 2: -5.5}, {1: 0, 3: 16, 2: -16},
                   "IMPs", "crossimp"),
    "matchpoints": ({1: 1, 3: 2, 2: 0}, {1: 1, 3: 2, 2: 0}, {1: 2, 3: 4, 2: 0}, "MP", "mp"),
}
OPPONENTS = {1: 4, 3: 5, 2: 6}


def played(scoring: str) -> Session:
    """The round robin of the docstring played in a room set up with ``scoring``."""
    setup = dataclasses.replace(EventSetup.quick(tables=3, boards_per_round=2, deals=DEALS),
                                scoring=scoring)
    assert setup.sections[0].movement == MOVEMENT
    room = setup.build_room()
    assert room.sections[0].scoring == scoring
    session = Session(room)
    session.play(ROUND_ROBIN)
    return session


def test_every_scoring_of_the_set_up_has_its_method() -> None:
    assert set(SCORINGS) | {""} == set(METHODS)


@pytest.mark.parametrize("scoring", list(HAND))
def test_law_78_the_live_scores_follow_the_scoring_chosen(scoring: str) -> None:
    board_1, board_2, totals, units, method = HAND[scoring]
    s = played(scoring)
    for board, hand in ((1, board_1), (2, board_2)):
        assert s.points(board) == {(ns, OPPONENTS[ns]): (float(v), (2.0 - v) if method == "mp"
                                                         else -float(v) + 0.0)
                                   for ns, v in hand.items()}, (scoring, board)
    scored = s.room.scoring.section("A")
    ranking = s.ranking()
    for ns, total in totals.items():
        ew_total = 4.0 - total if method == "mp" else -float(total) + 0.0
        assert ranking[ns][0] == total and ranking[OPPONENTS[ns]][0] == ew_total
    assert [p for p, (_, _, r, d) in ranking.items() if r == 1] == [3, 6]  # two-winner
    view = scored.ranking_json()
    assert (view["method"], view["units"], view["field"]) == (method, units, "two-winner")
    traveller = scored.traveller_json(1)
    assert traveller["method"] == method
    if method == "mp":
        assert traveller["top"] == 2 and ranking[3][1] == 100.0
    else:
        assert traveller["top"] is None and all(v[1] is None for v in ranking.values())
        assert all(r["ns_percent"] is None for r in traveller["results"])


def test_law_12c2_average_plus_is_three_imps_in_a_butler_pairs_section() -> None:
    """An artificial score in IMP pairs is +3/-3 IMPs (Law 12C2, formats.md 9), not a
    percentage; a penalty is in IMPs, a matchpoint penalty is refused."""
    s = played("imps")
    s.rule(kind="artificial", table="A2", board=1, ns="A+", ew="A-")   # pairs 2 v 6
    assert s.points(1)[2, 6] == (3.0, -3.0)
    # The datum is now of the two real scores: (420 + 450) / 2 = 435 -> 440: -20 = -1,
    # +10 = 0.
    assert s.points(1)[1, 4] == (-1.0, 1.0) and s.points(1)[3, 5] == (0.0, 0.0)
    refused = s.director({"op": "ruling", "kind": "penalty", "pair": 1, "amount": 1,
                          "unit": "mp"})
    assert refused["error"] == ("ruling penalty: a penalty in mp is not a unit of section A "
                                "(it takes imp)")
    s.rule(kind="penalty", pair=1, amount=2, unit="imp")
    assert s.ranking()[1][0] == -1.0 - 4 - 2


def exported(s: Session, name: str) -> bytes:
    data, _kind = export(s.room, name, "A", title="Monday", now=1_780_000_000)
    return data


@pytest.mark.parametrize(("scoring", "usebio", "pbn"), [
    ("matchpoints", "MATCH_POINTS", "MatchPoints;MP2"),
    ("imps", "BUTLER_IMPS", "IMP;Butler"),
    ("butler", "BUTLER_IMPS", "IMP;Butler-2"),
    ("cross-imps", "CROSS_IMPS", "IMP;Cross2"),
])
def test_the_results_files_say_the_method_and_read_back_with_it(
        scoring: str, usebio: str, pbn: str) -> None:
    s = played(scoring)
    method = s.room.scoring.section("A").method
    xml = exported(s, "usebio.xml")
    assert f"<BOARD_SCORING_METHOD>{usebio}</BOARD_SCORING_METHOD>" in xml.decode("latin-1")
    back = read_usebio(xml)
    assert method_of(back.scoring)[0] is method
    text = exported(s, "results.pbn").decode("latin-1")
    assert f'[Scoring "{pbn}"]' in text
    again = read_pbn_results(text)
    assert method_of(again.scoring)[0] is method
    columns: Any = ("MP_NS", "Percentage_NS", "TotalMP") if method.value == "mp" else (
        "IMP_NS", "IMP_EW", "TotalIMP")
    assert all(c in text for c in columns)
    if method.value != "mp":
        assert ";MP_NS" not in text and "TotalPercentage" not in text


def test_a_teams_section_is_imps_whatever_the_pairs_scoring() -> None:
    """A teams section is scored by IMPs between its two rooms (78B) under any scoring: the
    event's scoring is how its pairs sections are scored."""
    from bridgecore.movements import teams

    for scoring in ("", "butler", "cross-imps"):
        room = Room(Section("T", teams(2, boards_per_round=2), scoring=scoring), DEALS)
        s = Session(room)
        s.play([(1, "T1", 1, "4S", 10), (1, "T2", 1, "4S", 8)])
        scored = room.scoring.section("T")
        assert {e["pair"]: e["total"] for e in scored.ranking()} == {1: 11.0, 2: -11.0}
        assert (scored.method.value, scored.units) == ("imp", "IMPs")


def test_a_teams_section_is_exported_as_a_teams_event_in_imps() -> None:
    """USEBIO's teams shape (TEAM, MATCH with the IMPs of each board) with IMPS as both the
    board and the match scoring; PBN ``IMP`` with the teams' columns; both read back with
    the teams."""
    from bridgecore.movements import teams

    room = Room(Section("T", teams(2, boards_per_round=2), scoring="imps"), DEALS)
    s = Session(room)
    s.play([(1, "T1", 1, "4S", 10), (1, "T2", 1, "4S", 8)])
    data, _ = export(room, "usebio.xml", "T", now=1_780_000_000)
    xml = data.decode("latin-1")
    assert "<EVENT_TYPE>" not in xml and 'EVENT_TYPE="TEAMS"' in xml
    assert "<BOARD_SCORING_METHOD>IMPS</BOARD_SCORING_METHOD>" in xml
    assert "<MATCH_SCORING_METHOD>IMPS</MATCH_SCORING_METHOD>" in xml
    assert "<IMPS>11</IMPS>" in xml
    back = read_usebio(data)
    assert back.teams == {1: 1, 2: 1, 3: 2, 4: 2} and back.scoring == "IMP"
    text = export(room, "results.pbn", "T", now=1_780_000_000)[0].decode("latin-1")
    assert '[Scoring "IMP"]' in text and "Team_NS" in text
    assert read_pbn_results(text).teams == {1: 1, 2: 1, 3: 2, 4: 2}


@pytest.mark.parametrize("scoring", list(HAND))
def test_the_tables_traveller_shows_the_sections_imps(scoring: str) -> None:
    """The traveller a table sees once it has finished a board (hub.traveller, Law 16) is
    in the section's method: table A2 finishes board 1 last (pairs 2 v 6), so its traveller
    has every result, each row with its IMPs as the ranking has them."""
    board_1, _, _, _, method = HAND[scoring]
    s = played(scoring)
    state = s.room.tables["A2"]
    assert state.sitting is not None and state.sitting.board.number == 2
    sitting = next(v for (_, b), v in state.sittings.items() if b == 1)
    fields = traveller_fields(state, sitting)
    if method == "mp":
        assert fields["imps"] is None and fields["field"]["method"] == "MP"
        return
    assert fields["field"]["method"] == "IMP"
    assert {r["NS"]: r["imps_ns"] for r in fields["traveller"]} == board_1
    assert fields["imps"] == {"NS": board_1[2], "EW": -board_1[2]}
