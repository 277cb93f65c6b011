"""The ladder credits each player over the boards he played, by member number
(hub/series_players.py, hub.series_ladder.ladder_json), against figures worked by hand.

The 3-table Mitchell of tests/hub/test_live_scoring.py (2 boards a round, boards 1-6, pair 1
North-South at table A1 all evening), every board played by the three tables, each board
3NT by its dealer (Law 2: boards 1 and 5 North, 2 and 6 East, 3 South, 4 West). Pair 1's
tricks beside the other two tables', and its matchpoints of a top of 2:

=====  =====  ==========  ============  ============  ===========  ==========
board  round  declarer    A1 (pair 1)   A2 (pair 2)   A3 (pair 3)  pair 1
=====  =====  ==========  ============  ============  ===========  ==========
1      1      N (NS)      10            8             9            2: 100%
2      1      E (EW)      8             10            9            2: 100%
3      2      S (NS)      8             9             10           0: 0%
4      2      W (EW)      9             8             10           1: 50%
5      3      N (NS)      9             10            8            1: 50%
6      3      E (EW)      9             10            8            1: 50%
=====  =====  ==========  ============  ============  ===========  ==========

Pair 1 scores 7 of 12, 58.33% over 6 boards (pair 2 5, 41.67%; pair 3 6, 50%). Zoé Roux
played round 2 for Bob Baker: Ann Archer played the 6 boards, 58.33%; Bob Baker rounds 1
and 3, (100 + 100 + 50 + 50)/4 = 75% over 4 boards; Zoé Roux round 2, (0 + 50)/2 = 25%
over 2 boards.

The ladder of this evening and a second (stored by hand): Ann Archer, member 11, is
written "Ann Archer-Smith" the second evening with her number, 60%: one player, (58.33 +
60)/2 = 59.17, shown as last written; two members both named Cid Cole (21 and 22) are two
players; Bob Baker, not in the roster, by his name (75 then 40: 57.5); Zoé Roux 25%.
"""

from __future__ import annotations

from typing import Any

import pytest

from hub.room import Room, Section
from hub.roster import Member, Roster
from hub.series import StoredSession, session_fact
from hub.series_ladder import ladder_json
from hub.series_players import section_players
from tests.hub.test_live_scoring import Session
from tests.hub.test_table import DEALS, MOVEMENT

NAMES = {1: ("Ann Archer", "Bob Baker"), 2: ("Cid Cole", "Dee Dunn"),
         3: ("Cid Cole", "Eve Ewing")}
# (round, table, board, contract by the dealer, tricks): the table of the docstring
PLAYS = [
    (1, "A1", 1, "3NT", 10), (1, "A1", 2, "3NT", 8), (1, "A2", 3, "3NT", 9),
    (1, "A2", 4, "3NT", 8), (1, "A3", 5, "3NT", 8), (1, "A3", 6, "3NT", 8),
    (2, "A1", 3, "3NT", 8), (2, "A1", 4, "3NT", 9), (2, "A2", 5, "3NT", 10),
    (2, "A2", 6, "3NT", 10), (2, "A3", 1, "3NT", 9), (2, "A3", 2, "3NT", 9),
    (3, "A1", 5, "3NT", 9), (3, "A1", 6, "3NT", 9), (3, "A2", 1, "3NT", 8),
    (3, "A2", 2, "3NT", 10), (3, "A3", 3, "3NT", 10), (3, "A3", 4, "3NT", 10),
]
ROSTER = Roster([Member("Ann Archer", 11), Member("Zoé Roux", 13), Member("Cid Cole", 21),
                 Member("Cid Cole", 22)])


def evening() -> Session:
    s = Session(Room(Section("A", MOVEMENT, pairs=dict(NAMES)), DEALS))
    s.play(PLAYS)
    assert s.director({"op": "substitute", "section": "A", "pair": 1, "player": 2,
                       "name": "Zoé Roux", "rounds": [2]})["ok"]
    return s


def test_each_player_is_credited_over_the_boards_he_played() -> None:
    s = evening()
    scored = s.room.scoring.section("A")
    assert {b: [r["ns_points"] for r in rows if r["NS"] == 1]
            for b, rows in scored.lines.items()} == {
        1: [2.0], 2: [2.0], 3: [0.0], 4: [1.0], 5: [1.0], 6: [1.0]}
    pair = next(e for e in scored.ranking() if e["pair"] == 1)
    assert pair["percent"] == pytest.approx(58.33, abs=0.01)
    players = section_players(s.room, scored, ROSTER)[1]
    assert [(p["name"], p["member"], p["boards"], round(p["percent"], 2))
            for p in players] == [("Ann Archer", 11, 6, 58.33), ("Bob Baker", None, 4, 75.0),
                                  ("Zoé Roux", 13, 2, 25.0)]
    # two members of that name: the roster cannot say which Cid Cole played
    assert [p["member"] for p in section_players(s.room, scored, ROSTER)[2]] == [None, None]


def _stored(position: int, date: str, sections: Any) -> StoredSession:
    return StoredSession(position, "Monday pairs", "", date, 0, None, tuple(sections))


def test_the_ladder_by_member_number_and_the_substitutes_boards() -> None:
    s = evening()
    fact = session_fact(None, s.room, ROSTER)
    assert fact is not None
    second = [{"name": "A", "method": "mp", "ranking": [
        {"pair": 1, "percent": 50.0, "boards": 24, "rank": 1, "direction": "NS",
         "names": ["Ann Archer-Smith", "Bob Baker"],
         "players": [{"name": "Ann Archer-Smith", "member": 11, "boards": 24, "percent": 60.0},
                     {"name": "Bob Baker", "member": None, "boards": 24, "percent": 40.0},
                     {"name": "Cid Cole", "member": 21, "boards": 24, "percent": 70.0}]},
        {"pair": 2, "percent": 30.0, "boards": 24, "rank": 2, "direction": "NS",
         "names": ["Cid Cole", "Dee Dunn"],
         "players": [{"name": "Cid Cole", "member": 22, "boards": 24, "percent": 30.0}]}]}]
    got = ladder_json([_stored(1, "2026-11-02", fact["sections"]),
                       _stored(2, "2026-11-09", second)])
    by = {(e["player"], tuple(e["sessions"])): e["percent"] for e in got["ranking"]}
    assert by[("Ann Archer-Smith", (58.33, 60.0))] == pytest.approx(59.17, abs=0.01)
    assert by[("Bob Baker", (75.0, 40.0))] == pytest.approx(57.5)
    assert by[("Zoé Roux", (25.0, None))] == pytest.approx(25.0)
    coles = {(tuple(e["sessions"]), e["ambiguous"]) for e in got["ranking"]
             if e["player"] == "Cid Cole"}
    # the first evening's Cid Coles have no number (the roster has two): neither member,
    # and not merged with one silently: marked, listed with where they played (pairs 2
    # and 3, the better of the two pairs' 50% counted), the two members apart the second
    assert coles == {((None, 30.0), False), ((None, 70.0), False), ((50.0, None), True)}
    assert got["ambiguous"] == [{"player": "Cid Cole", "members": [21, 22], "played": 1,
                                 "where": [{"position": 1, "date": "2026-11-02",
                                            "session": "", "section": "A", "pair": pair,
                                            "name": "Cid Cole"} for pair in (2, 3)]}]
    # the director tells them apart: pair 2's was member 22, pair 3's member 21
    told = ladder_json([_stored(1, "2026-11-02", fact["sections"]),
                        _stored(2, "2026-11-09", second)],
                       choices={(1, "A", 2, "cid cole"): 22, (1, "A", 3, "cid cole"): 21})
    assert told["ambiguous"] == []
    assert {tuple(e["sessions"]) for e in told["ranking"] if e["player"] == "Cid Cole"} \
        == {(50.0, 70.0), (41.67, 30.0)}


def test_a_butler_evening_credits_each_player_his_pair_s_imps_per_board() -> None:
    """The same evening scored by Butler: each player is credited with his pair's IMPs per
    board over the boards he played (docs/sessions.md, the IMP ladder), no percentage. Pair
    1's 6 boards are Ann Archer's; Bob Baker's 4 and Zoé Roux's 2 share them, so their
    credits weighted by their boards give hers, and hers is the pair's total over its 6."""
    s = Session(Room(Section("A", MOVEMENT, pairs=dict(NAMES), scoring="butler"), DEALS))
    s.play(PLAYS)
    assert s.director({"op": "substitute", "section": "A", "pair": 1, "player": 2,
                       "name": "Zoé Roux", "rounds": [2]})["ok"]
    scored = s.room.scoring.section("A")
    pair = next(e for e in scored.ranking() if e["pair"] == 1)
    ann, bob, zoe = section_players(s.room, scored, ROSTER)[1]
    assert (ann["boards"], bob["boards"], zoe["boards"]) == (6, 4, 2)
    assert {p["percent"] for p in (ann, bob, zoe)} == {None}
    assert ann["imps"] == pytest.approx(pair["total"] / 6)
    assert (4 * bob["imps"] + 2 * zoe["imps"]) / 6 == pytest.approx(ann["imps"])
    rows = {b: [r["ns_points"] for r in scored.lines[b] if r["NS"] == 1] for b in (3, 4)}
    assert zoe["imps"] == pytest.approx((rows[3][0] + rows[4][0]) / 2)   # round 2's boards
    fact = session_fact(None, s.room, ROSTER)
    assert fact is not None
    got = ladder_json([_stored(1, "2026-11-02", fact["sections"])])
    assert got["ranking"] == [] and got["left_out"] == []
    by = {e["player"]: e["imps"] for e in got["imp_ranking"]}
    assert by["Ann Archer"] == round(ann["imps"], 2) and by["Zoé Roux"] == round(zoe["imps"], 2)
