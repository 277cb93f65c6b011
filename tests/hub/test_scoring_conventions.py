"""The conventions of the established scoring programs, each against figures worked by hand
in the test (docs/scoring.md says which program or regulation each one follows).

The room: a 4-table Howell (pairs 1-8, 2 boards a round, 7 rounds, 14 boards, each board
played 4 times: a top of 3). Board 1 goes r1 A1 8 v 1, r4 A3 6 v 2, r6 A2 7 v 5, r7 A4 3 v 4;
board 5 goes r1 A2 2 v 7, r2 A4 5 v 6, r3 A1 8 v 3, r6 A3 1 v 4. In round 5 table A4 (1 v 2,
boards 11-12) is given boards 1 and 5 instead, and plays them: both pairs had played board
1 already, and pair 2 had played board 5.
"""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from bridgecore.bigdeal import random_deal
from bridgecore.movements import howell, mitchell
from hub.room import Room, Section
from hub.session_export import export
from tenace.sim.devices import DeviceEvent, envelopes
from tests.hub.test_live_scoring import Session, neuberg

HOWELL = howell(4, boards_per_round=2)
DEALS = {n: random_deal(random.Random(100 + n)) for n in range(1, 15)}


def howell_session() -> Session:
    return Session(Room(Section("A", HOWELL), DEALS))


def play_board(s: Session, round_: int, table: str, board: int, contract: str,
               tricks: int) -> None:
    """``table`` plays ``board`` in ``round_`` with the movement's pairs, whether or not the
    movement gives it that board (a misboarded table: Law 15): the dealer declares
    ``contract`` and claims ``tricks``."""
    if round_ != s.round:
        s.start_round(round_)
    s.now += 60
    a = s.room.assignment(table, round_)
    assert a is not None
    out: list[DeviceEvent] = []

    def add(type: str, **body: Any) -> None:
        out.append(DeviceEvent(table, f"{table}-tab", type, body, s.now + len(out) * 0.01))

    add("checkin", direction="NS", pair=a.ns)
    add("checkin", direction="EW", pair=a.ew)
    add("board", board=board)
    dealer = s.room.markings(board).dealer
    for i, call in enumerate([contract, "Pass", "Pass", "Pass"]):
        seat = dealer
        for _ in range(i):
            seat = seat.lho
        add("call", seat=seat.letter, call=call)
    add("claim", seat=dealer.letter, tricks=tricks)
    add("claim_answer", seat=dealer.lho.letter, accept=True)
    add("claim_answer", seat=dealer.rho.letter, accept=True)
    for tid, env in envelopes(out, devices=s.devices):
        assert s.room.apply(tid, env, env.time).reply.status == "ack"


# (round, table, board, contract, tricks) in the order they were played. Board 1 (dealer N,
# none vulnerable): 420, 450, -50, 420 as scheduled, and 480 at A4 in round 5 (1 v 2: both
# had played it). Board 5 (dealer N, NS vulnerable): 620, -100, 650 as scheduled, -200 at A4
# in round 5 (1 v 2: pair 2 had played it in round 1), and 620 at A3 in round 6 (1 v 4:
# pair 1 had played it, in round 5).
MISPLAYED = [
    (1, "A1", 1, "4S", 10), (1, "A2", 5, "4S", 10),
    (2, "A4", 5, "4S", 9),
    (3, "A1", 5, "4S", 11),
    (4, "A3", 1, "4S", 11),
    (5, "A4", 1, "4S", 12), (5, "A4", 5, "4S", 8),
    (6, "A2", 1, "4S", 9), (6, "A3", 5, "4S", 10),
    (7, "A4", 1, "4S", 10),
]


def misplayed_session() -> Session:
    s = howell_session()
    for play in MISPLAYED:
        play_board(s, *play)
    return s


def test_law_15b_a_second_play_counts_neither_in_the_results_nor_in_the_top() -> None:
    """Law 15B: pairs 1 and 2 had both played board 1 when A4 played it again in round 5:
    that score is cancelled, and it is no result of the board: board 1 has its 4 results,
    a top of 3, and is matchpointed as it stands, without Neuberg (a program counting the
    cancelled line gives E = 5, top 4 and every board Neuberg-scaled). By hand, North-South:
    450 beats three (3), each 420 beats one and ties one (1.5), -50 nothing (0)."""
    s = misplayed_session()
    scored = s.room.scoring.section("A")
    assert scored.expected == 4
    traveller = scored.traveller_json(1)
    assert traveller["top"] == 3.0 and traveller["expected"] == 4
    assert s.points(1) == {(8, 1): (1.5, 1.5), (6, 2): (3.0, 0.0), (7, 5): (0.0, 3.0),
                           (3, 4): (1.5, 1.5), (1, 2): (None, None)}
    cancelled = next(r for r in traveller["results"] if r["NS"] == 1)
    assert cancelled["scored"] is False and cancelled["score_ns"] == 480
    assert "pair 1 played the board before, at table A1 in round 1" in cancelled["not_scored"]
    assert "15B" in cancelled["not_scored"]
    counts = {b["board"]: b for b in scored.ranking_json()["boards"]}
    assert counts[1] == {"board": 1, "results": 4, "scored": 4}


def test_law_15b_the_first_play_in_time_stands_not_the_first_by_pair_number() -> None:
    """Law 15B, the first play in time: on board 5 pair 2 played against 7 in round 1, then
    against 1 in round 5 (cancelled: pair 2's second play); pair 1, whose first play that
    was, plays it again against 4 in round 6 (cancelled too: a cancelled play is still a
    play). Sorting by pair number would keep 1 v 2 (round 5) and cancel 2 v 7 (round 1).
    Three results stand, 2 v 7 (+620), 5 v 6 (-100) and 8 v 3 (+650), each Neuberg-scaled
    from a top of 2 to the 4 expected: (M + 1/2)·4/3 - 1/2 (formats.md 9.1)."""
    s = misplayed_session()
    points = s.points(5)
    assert points[2, 7] == (neuberg(1, 3, 4), neuberg(1, 3, 4))          # 1.5 each
    assert points[8, 3] == (round(neuberg(2, 3, 4), 2), round(neuberg(0, 3, 4), 2))
    assert points[5, 6] == (round(neuberg(0, 3, 4), 2), round(neuberg(2, 3, 4), 2))
    assert points[8, 3] == (2.83, 0.17)
    assert points[1, 2] == (None, None) and points[1, 4] == (None, None)
    lines = {(r["NS"], r["EW"]): r for r in s.room.scoring.section("A").traveller_json(5)
             ["results"]}
    assert "pair 2 played the board before, at table A2 in round 1" in lines[1, 2]["not_scored"]
    assert "pair 1 played the board before, at table A4 in round 5" in lines[1, 4]["not_scored"]
    assert lines[2, 7]["not_scored"] is None and lines[2, 7]["scored"]


def test_law_15b_the_log_rebuilds_the_same_order() -> None:
    """The order in time is the log's: a room rebuilt from the same facts scores the same."""
    s = misplayed_session()
    again = howell_session()
    for play in MISPLAYED:
        play_board(again, *play)
    assert again.points(5) == s.points(5) and again.points(1) == s.points(1)


def test_a_sit_out_lowers_the_top_and_no_board_is_neuberg_scaled() -> None:
    """A 3-table Mitchell with East-West pair 6 absent (its opponents sit out): each board
    is played twice, so the top is 1 and a board with both its results is matchpointed as
    it stands (the programs all take the movement's count, not the tables'; counting 3
    would scale every board by Neuberg). Board 1: A1 (1 v 4) 420, A3 in round 2 (3 v 5)
    450: 450 beats 420, 1 to pair 3 and pair 4, 0 to pairs 1 and 5."""
    s = Session(Room(Section("A", mitchell(3, boards_per_round=2, missing_pair=6)),
                     {n: random_deal(random.Random(200 + n)) for n in range(1, 7)}))
    s.play([(1, "A1", 1, "4S", 10), (2, "A3", 1, "4S", 11)])
    scored = s.room.scoring.section("A")
    assert scored.expected == 2
    assert scored.traveller_json(1)["top"] == 1.0
    assert s.points(1) == {(1, 4): (0.0, 1.0), (3, 5): (1.0, 0.0)}
    ranking = s.ranking()
    assert ranking[3] == (1.0, 100.0, 1, "NS") and ranking[1] == (0.0, 0.0, 2, "NS")


def test_law_15b_the_tables_traveller_leaves_a_second_play_unscored() -> None:
    """What a table sees after the board (Law 16's traveller): A4 finishing board 1 in round
    7 (3 v 4, 420) sees the 5 lines, the second play (1 v 2, 480) without a percentage,
    and 4 results of 4: its 420 beats -50 and ties 420, 1.5 of a top of 3, 50%."""
    s = misplayed_session()
    state = s.room.tables["A4"].public_state()
    lines = {(r["NS"], r["EW"]): r for r in state["traveller"]}
    assert len(lines) == 5 and "percent_ns" not in lines[1, 2]
    assert state["field"]["results"] == 4 and state["field"]["expected"] == 4
    assert lines[3, 4]["percent_ns"] == 50.0 and lines[6, 2]["percent_ns"] == 100.0
    assert state["percentage"] == {"NS": 50.0, "EW": 50.0}


def test_law_15b_a_nine_table_mitchell_misplayed_keeps_its_top_of_8() -> None:
    """The issue's room: a 9-table Mitchell (one board a round). Board 1 is played by its 9
    tables, and once more at A1 in round 9 (1 v 11: pair 1 had played it in round 1, pair
    11 in round 5: "1 plays the board twice"). That line is cancelled and no result: the
    board has 9 of 9 results, a top of 8, and whole matchpoints, 0 to 8 (a program counting
    it gives E = 10, "9/10", and every score Neuberg-scaled by 10/9). North plays 4S and
    takes 4 to 12 tricks round by round (none vulnerable: -300, -250, ..., +480), so round
    r's North-South pair scores r - 1."""
    plays = [(1, "A1", 1), (2, "A9", 1), (3, "A8", 1), (4, "A7", 1), (5, "A6", 1),
             (6, "A5", 1), (7, "A4", 1), (8, "A3", 1), (9, "A2", 1)]
    s = Session(Room(Section("A", mitchell(9)),
                     {n: random_deal(random.Random(300 + n)) for n in range(1, 10)}))
    for round_, table, board in plays:
        play_board(s, round_, table, board, "4S", 3 + round_)
    play_board(s, 9, "A1", 1, "4S", 13)                       # the wrong board: 1 v 11
    scored = s.room.scoring.section("A")
    assert scored.expected == 9
    traveller = scored.traveller_json(1)
    assert traveller["top"] == 8.0
    points = s.points(1)
    assert points[1, 11] == (None, None)
    ns_points = {ns: p[0] for (ns, ew), p in points.items() if (ns, ew) != (1, 11)}
    # round r is played by North-South pair 1 (round 1), then 9, 8, ..., 2
    by_round = {1: 1, 2: 9, 3: 8, 4: 7, 5: 6, 6: 5, 7: 4, 8: 3, 9: 2}
    assert {r: ns_points[pair] for r, pair in by_round.items()} == {
        r: float(r - 1) for r in range(1, 10)}
    assert {b["board"]: (b["results"], b["scored"])
            for b in scored.ranking_json()["boards"]}[1] == (9, 9)


def test_the_events_conventions_ebu_two_units_a_score_beaten_neuberg_to_a_tenth() -> None:
    """The set-up's ``conventions = "ebu"`` (bridgecore.conventions): Law 78A's two units a
    score beaten (top 6 for 4 results) and Neuberg rounded to 0.1, halves towards the
    average (EBU, "Scoring of fouled boards"). Board 5 has 3 results of 4 (the misplayed
    room): 650, 620, -100 score 4, 2, 0 among themselves; (M + 1)·4/3 - 1 gives 5.67 ->
    5.7, 3.0 and 0.33 -> 0.3 (the Laws alone, one unit: 2.83, 1.5, 0.17)."""
    s = Session(Room(Section("A", HOWELL), DEALS, conventions="ebu"))
    for play in MISPLAYED:
        play_board(s, *play)
    scored = s.room.scoring.section("A")
    assert scored.traveller_json(5)["top"] == 6.0
    points = s.points(5)
    assert points[8, 3] == (5.7, 0.3) and points[2, 7] == (3.0, 3.0)
    assert points[5, 6] == (0.3, 5.7)
    assert s.points(1)[6, 2] == (6.0, 0.0)
    usebio, _ = export(s.room, "usebio.xml", "A")
    tree = ET.fromstring(usebio.split(b"\n", 2)[2])
    line = next(t for t in tree.iter("TRAVELLER_LINE") if t.findtext("NS_PAIR_NUMBER") == "8"
                and t.findtext("EW_PAIR_NUMBER") == "3")
    assert line.findtext("NS_MATCH_POINTS") == "5.7"       # MP2 already: not doubled again
    pbn, _ = export(s.room, "results.pbn", "A")
    assert b'[Scoring "MatchPoints;MP1"]' in pbn


def test_the_events_conventions_acbl_one_unit_rounded_to_a_hundredth() -> None:
    """``conventions = "acbl"``: one matchpoint a score beaten (top 3) and a factored score
    rounded to the hundredth (ACBLscore): (M + 1/2)·4/3 - 1/2 = 2.83, 1.5, 0.17; the
    ranking's totals are those rounded points."""
    s = Session(Room(Section("A", HOWELL), DEALS, conventions="acbl"))
    for play in MISPLAYED:
        play_board(s, *play)
    assert s.room.scoring.section("A").traveller_json(5)["top"] == 3.0
    assert s.points(5)[8, 3] == (2.83, 0.17)
    event = s.room.scoring.section("A").event
    assert [x.ns_points for x in event.boards[5]
            if (x.result.ns, x.result.ew) == (8, 3)] == [2.83]


def test_law_87b_a_fouled_board_under_the_acbls_small_groups() -> None:
    """The 3-table round robin, board 1 fouled at A2 (Law 87B). ACBL (ACBLscore's "Fouled/
    Adjusted board formula"): the single result gets 60% of the top (2) each way, 1.2; the
    group of two 65% and 55%: 450 -> 1.3 / 1.1, 420 -> 1.1 / 1.3. Without conventions both
    groups are Neuberg-scaled: 1.75 / 0.25 and an average for the single one."""
    from tests.hub.test_live_scoring import ROUND_ROBIN
    from tests.hub.test_table import DEALS as TABLE_DEALS
    from tests.hub.test_table import MOVEMENT

    s = Session(Room(Section("A", MOVEMENT), TABLE_DEALS, conventions="acbl"))
    s.play(ROUND_ROBIN)
    s.rule(kind="fouled", board=1, groups=[["A2"]])
    assert s.points(1) == {(1, 4): (1.1, 1.3), (2, 6): (1.2, 1.2), (3, 5): (1.3, 1.1)}
    plain = Session(Room(Section("A", MOVEMENT), TABLE_DEALS))
    plain.play(ROUND_ROBIN)
    plain.rule(kind="fouled", board=1, groups=[["A2"]])
    assert plain.points(1) == {(1, 4): (0.25, 1.75), (2, 6): (1.0, 1.0), (3, 5): (1.75, 0.25)}


# Law 15B: the contestant a cancelled second play deprived of a valid score ------------------

def test_law_15b_the_traveller_names_the_side_deprived_of_a_valid_score() -> None:
    """Law 15B: "the Director shall award an artificial adjusted score to the contestants
    deprived of the opportunity to earn a valid score". On board 5, A4's round-5 line (1 v
    2) is cancelled because pair 2 had played the board: pair 1 had not, it is deprived
    (North-South); A3's round-6 line (1 v 4) is cancelled because pair 1 had (in round 5):
    pair 4 had not, deprived (East-West). On board 1's 1 v 2 both had played it: nobody is.
    The machine awards nothing by itself: the lines stay unscored until the director rules."""
    s = misplayed_session()
    lines = {(r["NS"], r["EW"]): r for r in s.room.scoring.section("A").traveller_json(5)
             ["results"]}
    assert (lines[1, 2]["deprived"], lines[1, 4]["deprived"]) == ("NS", "EW")
    assert lines[2, 7]["deprived"] is None
    assert lines[1, 2]["not_scored"].endswith(
        "; the second score is cancelled (Law 15B); pair 1, deprived of a valid score, is owed "
        "an artificial adjusted score")
    assert lines[1, 2]["not_scored_text"]["key"] == "problem.played_before_deprived"
    assert lines[1, 2]["ns_points"] is None and lines[1, 4]["ew_points"] is None
    board_1 = next(r for r in s.room.scoring.section("A").traveller_json(1)["results"]
                   if r["NS"] == 1)
    assert board_1["deprived"] is None and "deprived" not in board_1["not_scored"]


def award_the_deprived(s: Session) -> tuple[str, str]:
    """The director's two Law 15B awards on board 5: A+ to pair 1 (North-South at A4 in
    round 5) and to pair 4 (East-West at A3 in round 6), each for that side alone."""
    return (s.rule(kind="artificial", table="A4", board=5, round=5, ns="A+",
                   text="Law 15B: pair 1 had not played board 5"),
            s.rule(kind="artificial", table="A3", board=5, ew="A+"))


def test_law_15b_12c2_the_deprived_pair_alone_gets_average_plus() -> None:
    """Laws 15B and 12C2: pair 1 and pair 4 each get A+ on board 5, for their side alone.
    The board's three results are scored as before, Neuberg from a top of 2 to the 4
    expected ((M + ½)·4/3 − ½: 650 2.83, 620 1.5, −100 0.17), the top stays 3 and the
    board has 3 results of 4: the awards are compared with nothing and count in neither.
    A+ is 60% of 3 = 1.8: each pair's session on its other boards is 50% (board 1: 1.5 of
    3, the 420 that beats −50 and ties 420), under 60, so Law 12C2(c) leaves 60%. Pair 2,
    whose second play it was, is never scored twice: its one score of board 5 is 2 v 7's
    (1.5); pair 1 has 1.5 + 1.8 = 3.3 of 6, 55%, and so has pair 4."""
    s = misplayed_session()
    before = s.points(5)
    award_the_deprived(s)
    points = s.points(5)
    assert points[1, 2] == (1.8, None) and points[1, 4] == (None, 1.8)
    assert {k: v for k, v in points.items() if k not in ((1, 2), (1, 4))} == \
        {k: v for k, v in before.items() if k not in ((1, 2), (1, 4))}
    assert points[8, 3] == (2.83, 0.17)
    scored = s.room.scoring.section("A")
    traveller = scored.traveller_json(5)
    assert (traveller["top"], traveller["expected"]) == (3.0, 4)
    lines = {(r["NS"], r["EW"]): r for r in traveller["results"]}
    assert lines[1, 2]["adjustment"] == "NS A+" and lines[1, 4]["adjustment"] == "EW A+"
    assert lines[1, 2]["ns_percent"] == 60.0 and lines[1, 2]["ew_percent"] is None
    assert lines[1, 2]["scored"] is False and lines[1, 2]["not_scored"]   # still no result
    assert {b["board"]: (b["results"], b["scored"]) for b in scored.ranking_json()["boards"]
            }[5] == (3, 3)
    ranking = s.ranking()
    assert ranking[1][:2] == (3.3, 55.0) and ranking[4][:2] == (3.3, 55.0)
    assert ranking[2][0] == 1.5           # 2 v 7 (1.5) and board 1 against 6 (0)
    card = {(c["board"], c["round"]): c for c in scored.card(2)}
    assert card[5, 1]["points"] == 1.5 and card[5, 5]["points"] is None
    assert not card[5, 5]["scored"]
    mine = {(c["board"], c["round"]): c for c in scored.card(1)}
    assert mine[5, 5]["points"] == 1.8 and mine[5, 5]["scored"] and mine[5, 6]["points"] is None
    assert "Law 12C2 NS A+ at table A4, round 5, board 5" in [
        r["summary"] for r in s.room.scoring.rulings_json()]


def test_law_15b_a_one_sided_award_is_for_the_deprived_side_only() -> None:
    """Refused, with the reason: the side that had played the board (pair 2 at A4), a
    cancelled line that deprived nobody (board 1, 1 v 2), a line that stands (A2 in round
    1), the other side's percentage; nothing changes."""
    s = misplayed_session()
    for fields in ({"table": "A4", "board": 5, "round": 5, "ew": "A+"},
                   {"table": "A4", "board": 1, "round": 5, "ns": "A+"},
                   {"table": "A2", "board": 5, "round": 1, "ns": "A+"},
                   {"table": "A4", "board": 5, "round": 5, "ns": "A+", "ew_percent": 60}):
        done = s.director({"op": "ruling", "kind": "artificial", **fields})
        assert not done["ok"], fields
        assert "15B" in done["error"] or "ew_percent" in done["error"]
    refused = s.director({"op": "ruling", "kind": "artificial", "table": "A4", "board": 5,
                          "round": 5, "ew": "A+"})
    assert "EW at table A4 on board 5 is not the side a cancelled second play deprived" in \
        refused["error"]
    assert s.room.scoring.rulings_json() == []


def test_law_15b_undo_and_the_log_rebuild_the_one_sided_award() -> None:
    """A one-sided award withdrawn (ruling_undo) leaves pair 1 with its one board; the log
    alone (the plays, then the ruling facts) rebuilds the same travellers and ranking."""
    s = misplayed_session()
    first, _ = award_the_deprived(s)
    live = s.room.scoring.section("A")
    again = misplayed_session()
    for fact, body, at in s.facts[len(again.facts):]:
        again.room.fact(fact, json.loads(json.dumps(body)), at)
    rebuilt = again.room.scoring.section("A")
    assert rebuilt.ranking_json() == live.ranking_json()
    assert rebuilt.traveller_json(5) == live.traveller_json(5)
    assert s.director({"op": "ruling_undo", "id": first})["ok"]
    assert s.points(5)[1, 2] == (None, None) and s.points(5)[1, 4] == (None, 1.8)
    assert s.ranking()[1][:2] == (1.5, 50.0)


def test_law_15b_12c2_a_nine_table_mitchell_with_two_deprived_pairs() -> None:
    """The issue's 9-table Mitchell (EW pair at table t in round r: 10 + (t − r) mod 9;
    board 1 at table t in round r when t + r ≡ 2 mod 9). A1 plays board 1 again in round 2
    (1 v 18): pair 1 had played it, pair 18 had not: cancelled, pair 18 (East-West)
    deprived. Pair 18's own scheduled play, A5 in round 6 (5 v 18), is then its second:
    cancelled too, and pair 5 (North-South) deprived. North takes 3 + r tricks in 4S in
    round r (−300, −250, ..., +480). Board 1 keeps 8 valid results of E = 9, each
    Neuberg-scaled, (M + ½)·9/8 − ½, round r's North-South pair beating the r − 1 rounds
    before it less the cancelled round 6; the top is 8 and each A+ is 60% of it, 4.8."""
    s = Session(Room(Section("A", mitchell(9)),
                     {n: random_deal(random.Random(300 + n)) for n in range(1, 10)}))
    plays = [(1, "A1", 1), (2, "A9", 1), (2, "A1", 1), (3, "A8", 1), (4, "A7", 1),
             (5, "A6", 1), (6, "A5", 1), (7, "A4", 1), (8, "A3", 1), (9, "A2", 1)]
    for round_, table, board in plays:
        play_board(s, round_, table, board, "4S", 3 + round_)
    lines = {(r["NS"], r["EW"]): r for r in s.room.scoring.section("A").traveller_json(1)
             ["results"]}
    assert (lines[1, 18]["deprived"], lines[5, 18]["deprived"]) == ("EW", "NS")
    s.rule(kind="artificial", table="A1", board=1, round=2, ew="A+")
    s.rule(kind="artificial", table="A5", board=1, round=6, ns="A+")
    traveller = s.room.scoring.section("A").traveller_json(1)
    assert (traveller["top"], traveller["expected"]) == (8.0, 9)
    points = s.points(1)
    assert points[1, 18] == (None, 4.8) and points[5, 18] == (4.8, None)
    by_round = {1: 1, 2: 9, 3: 8, 4: 7, 5: 6, 7: 4, 8: 3, 9: 2}     # North-South pairs
    for r, pair in by_round.items():
        beaten = r - 1 if r < 6 else r - 2
        assert points[pair, next(ew for ns, ew in points if ns == pair and ew != 18)
                      if pair != 1 else 10][0] == pytest.approx(neuberg(beaten, 8, 9), abs=0.005)
    assert s.ranking()[18][:2] == (4.8, 60.0) and s.ranking()[5][:2] == (4.8, 60.0)


def test_law_15b_the_results_files_and_the_live_ranking_carry_the_one_sided_award() -> None:
    """The one-sided awards in every file (USEBIO's and the FFB's scale of two a score
    beaten: 1.8 is 3.6): USEBIO's line has the deprived side's points alone and the ruling in
    NOTES; the PBN ScoreTable "-" for the other side and "NS A+" as the ruling, which
    bridgecore reads back for that side alone; the FFB's the same columns; BridgeWebs, which
    scores both pairs of every line again, gets no such line. The public ranking over board
    5 alone (``live_ranking`` "finished") gives pair 1 its 1.8 and pair 2 only 2 v 7's 1.5."""
    from bridgecore.cards import Side
    from bridgecore.results_io import table_result
    from hub.public_ranking import public_ranking

    s = misplayed_session()
    award_the_deprived(s)
    usebio, _ = export(s.room, "usebio.xml", "A")
    tree = ET.fromstring(usebio.split(b"\n", 2)[2])
    board_5 = next(b for b in tree.iter("BOARD") if b.findtext("BOARD_NUMBER") == "5")
    line = next(t for t in board_5.iter("TRAVELLER_LINE")
                if (t.findtext("NS_PAIR_NUMBER"), t.findtext("EW_PAIR_NUMBER")) == ("1", "2"))
    assert line.findtext("NS_MATCH_POINTS") == "3.6" and line.find("EW_MATCH_POINTS") is None
    assert line.findtext("NOTES") == "Ruling: NS A+" and not line.findtext("SCORE")
    pbn = export(s.room, "results.pbn", "A")[0].decode()
    rows = {tuple(r.split()[:2]): r.split() for r in pbn.split('[Board "5"]')[1]
            .split("[Board")[0].splitlines() if r.strip()[:1].isdigit()}
    assert rows["1", "2"][8:] == ["1.8", "-", "60", "-", '"NS', 'A+"']
    assert rows["1", "4"][8:] == ["-", "1.8", "-", "60", '"EW', 'A+"']
    again = table_result(5, "1", "4", contract="-", score_ns="-", score_ew="-", ruling="EW A+")
    assert again.result.only is Side.EW and str(again.result.adjustment) == "A+ A+"
    ffb = export(s.room, "ffb.pbn", "A")[0].decode("latin-1")
    ffb_5 = ffb.split('[Board "5"]')[1].split("[Board")[0]
    ffb_row = next(r.split() for r in ffb_5.splitlines() if r.split()[2:4] == ["1", "4"])
    assert ffb_row[-4:] == ["-", "3.6", "-", "60"]
    webs = export(s.room, "bridgewebs.pbn", "A")[0].decode("latin-1")
    webs_5 = webs.split('[Board "5"]')[1].split("[Board")[0]
    assert [r.split()[:2] for r in webs_5.splitlines() if r[:1].isdigit()] == [
        ["2", "7"], ["5", "6"], ["8", "3"]]
    ranked = {e["pair"]: e for e in public_ranking(s.room.scoring.section("A"), {5})}
    assert (ranked[1]["total"], ranked[1]["boards"]) == (1.8, 1)
    assert (ranked[2]["total"], ranked[2]["boards"]) == (1.5, 1)


def test_law_15b_a_stored_session_keeps_the_award_for_the_events_files() -> None:
    """The session stored for the event's files (hub.series) keeps a cancelled line only
    for its award: pair 1's "NS A+", 1.8 North-South alone, no score as played; board 1's
    cancelled 1 v 2 (nobody deprived) is not kept. The event's USEBIO writes that side's
    points alone (MP1 units: 3.6)."""
    from bridgecore.event_files import SessionPart, write_usebio_event
    from hub.series import section_boards
    from hub.series_api import stored_boards

    s = misplayed_session()
    award_the_deprived(s)
    kept = {b["board"]: b["results"] for b in section_boards(s.room.scoring.section("A"))}
    line = next(r for r in kept[5] if (r["NS"], r["EW"]) == (1, 2))
    assert (line["score_ns"], line["contract"], line["adjustment"]) == (None, None, "NS A+")
    assert (line["ns_points"], line["ew_points"]) == (pytest.approx(1.8), None)
    assert not [r for r in kept[1] if (r["NS"], r["EW"]) == (1, 2)]
    boards = stored_boards({"method": "mp", "mp_units": 1, "boards": [
        {"board": 5, "results": kept[5]}]})
    xml = write_usebio_event("Pairs", "2026-11-28", [], [SessionPart(
        1, "evening", "2026-11-28", (("A", ()),), {"A": boards})]).decode()
    row = xml.split("<NS_PAIR_NUMBER>1</NS_PAIR_NUMBER>\n")[1].split("</TRAVELLER_LINE>")[0]
    assert "<NS_MATCH_POINTS>3.60</NS_MATCH_POINTS>" in row and "EW_MATCH_POINTS" not in row
    assert "<NOTES>Ruling: NS A+</NOTES>" in row


def test_law_15b_12c2b_the_one_sided_award_in_imps_against_a_datum() -> None:
    """The same room scored in IMPs against a datum (Law 78B, the section's scoring
    ``imps``): pair 1's A+ alone is +3 IMPs (Law
    12C2(b)), North-South only; its session elsewhere (board 1, East-West against 420's
    datum: the mean of 420, 450, −50, 420 is 310, −110 for it, −3 IMPs) is below +3, so
    12C2(c) leaves +3; the three results of board 5 keep the datum they had without it
    (8 v 1 on board 1: 420 against 310, +110, 3 IMPs)."""
    s = Session(Room(Section("A", HOWELL, scoring="imps"), DEALS))
    for play in MISPLAYED:
        play_board(s, *play)
    before = s.points(5)
    s.rule(kind="artificial", table="A4", board=5, round=5, ns="A+")
    points = s.points(5)
    assert points[1, 2] == (3.0, None)
    assert points[8, 3] == before[8, 3] and points[2, 7] == before[2, 7]
    assert s.points(1)[8, 1] == (3.0, -3.0)


def test_law_15b_a_logged_one_sided_award_whose_line_stands_is_not_applied() -> None:
    """A one-sided award in the log on a line that is not a cancelled one (a log written
    otherwise, or its order of play changed since): never applied, the line scored as
    played, and the section's problems say so (``problem.deprived_ruling``)."""
    s = misplayed_session()
    before = s.points(5)
    s.room.fact("ruling", {"id": "R1", "kind": "artificial", "section": "A", "table": "A2",
                           "round": 1, "board": 5, "ns": "A+"}, s.now + 1)
    assert s.points(5) == before
    scored = s.room.scoring.section("A")
    line = next(r for r in scored.traveller_json(5)["results"] if r["NS"] == 2)
    assert line["adjustment"] is None and line["scored"]
    assert ("ruling R1 at table A2 on board 5 gives one side alone an artificial score, but "
            "that side is not deprived of a valid score there (Law 15B): not applied"
            ) in scored.ranking_json()["problems"]
