"""Live scoring in the hub (hub/scoring.py): the rankings follow the results as they arrive
(Law 78A, Neuberg), and every kind of director's ruling rescores at once, each checked
against a hand computation: artificial scores (12C2, with 12C2(c)), assigned (12C1(a)),
weighted on the matchpoints (12C1(c)), split non-balancing (12C1(f)), procedural penalties
(90), fouled boards (87), IMPs for teams (78B, 12C2 ±3). Rulings replace and are withdrawn;
a bad one is refused with its reason and changes nothing; the log rebuilds the same scores,
and the hub publishes them retained over MQTT.

The event: the 3-table Mitchell of the table tests (pairs 1-3 North-South, 4-6 East-West,
boards 1-6, each board played three times: a top of 2). Boards 1 and 2 go round the room:

=====  =====  ======  ============================  ===============================
round  table  pairs   board 1 (dealer N, none vul)  board 2 (dealer E, NS vul)
=====  =====  ======  ============================  ===============================
1      A1     1 v 4   4S by N, 10 tricks: NS +420   3NT by E, 9 tricks: NS -400
2      A3     3 v 5   4S by N, 11 tricks: NS +450   3NT by E, 8 tricks: NS +50
3      A2     2 v 6   4S by N, 9 tricks: NS -50     3NT by E, 10 tricks: NS -430
=====  =====  ======  ============================  ===============================

Matchpoints (one per score beaten, a half per tie, Law 78A): board 1 gives NS 3: 2, 1: 1,
2: 0 and board 2 the same, so pair 3 has 4 of 4 (100%), pair 1 2 (50%), pair 2 0 (0%); in
East-West pair 6 has 100%, pair 4 50%, pair 5 0%.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from bridgecore.cards import Seat
from bridgecore.markings import Markings
from bridgecore.text import Text
from bridgecore.vulnerability import Vulnerability
from hub.director import parse_command
from hub.errors import HubError, error_text
from hub.room import Room, Section
from hub.scoring import RulingError
from hub.service import Hub, HubRunner, data_log
from tenace.sim.devices import DeviceEvent, VirtualDevice, envelopes
from tenace.sim.driver import run_tables
from tests.hub.test_service import MitchellSetup, listen, loader
from tests.hub.test_table import DEALS, MOVEMENT, START
from wire.mqtt import MqttClient
from wire.protocol import ProtocolError, parse_topic, topic_ranking, topic_traveller

# (round, table, board, contract by the dealer or PASS, tricks): the table of the docstring.
ROUND_ROBIN = [
    (1, "A1", 1, "4S", 10), (1, "A1", 2, "3NT", 9),
    (2, "A3", 1, "4S", 11), (2, "A3", 2, "3NT", 8),
    (3, "A2", 1, "4S", 9), (3, "A2", 2, "3NT", 10),
]


def board_script(room: Room, table: str, round_: int, board: int, contract: str,
                 tricks: int | None, now: float, device: str | None = None
                 ) -> list[DeviceEvent]:
    """A table's tablet plays ``board``: the movement's pairs check in, the dealer bids the
    contract and the others pass, declarer claims ``tricks``, both opponents accept."""
    a = room.assignment(table, round_)
    assert a is not None and board in a.boards
    name = device or f"{table}-tab"
    out: list[DeviceEvent] = []

    def add(type: str, **body: Any) -> None:
        out.append(DeviceEvent(table, name, type, body, now + len(out) * 0.01))

    add("checkin", direction="NS", pair=a.ns)
    add("checkin", direction="EW", pair=a.ew)
    add("board", board=board)
    dealer = room.markings(board).dealer   # Law 2: the board's markings govern
    calls = ["Pass"] * 4 if contract == "PASS" else [contract, "Pass", "Pass", "Pass"]
    seat = dealer
    for call in calls:
        add("call", seat=seat.letter, call=call)
        seat = seat.lho
    if contract != "PASS":
        add("claim", seat=dealer.letter, tricks=tricks)
        add("claim_answer", seat=dealer.lho.letter, accept=True)
        add("claim_answer", seat=dealer.rho.letter, accept=True)
    return out


class Session:
    """Tables and director driving a room directly (the hub's own path: Room.apply for the
    devices, hub.director then Room.fact for the director), the facts kept as the log."""

    def __init__(self, room: Room | None = None):
        self.room = room or Room(Section("A", MOVEMENT), DEALS)
        self.now = START
        self.devices: dict[str, VirtualDevice] = {}
        self.facts: list[tuple[str, dict[str, Any], float]] = []
        self.round = 0

    def start_round(self, number: int) -> None:
        assert self.director({"op": "round_start", "round": number})["ok"]
        self.round = number

    def play(self, plays: Iterable[tuple[int, str, int, str, int | None]]) -> None:
        for round_, table, board, contract, tricks in plays:
            if round_ != self.round:
                self.start_round(round_)
            self.now += 60
            events = board_script(self.room, table, round_, board, contract, tricks, self.now)
            for tid, env in envelopes(events, devices=self.devices):
                assert self.room.apply(tid, env, env.time).reply.status == "ack"

    def director(self, command: dict[str, Any]) -> dict[str, Any]:
        """As Hub.director: checked, then applied; a refusal changes nothing."""
        try:
            fact, body = parse_command(command, self.room)
        except (ProtocolError, HubError) as err:
            return {"ok": False, "error": getattr(err, "reason", str(err)),
                    "error_text": error_text(err).to_json()}
        self.now += 1
        self.room.fact(fact, body, self.now)
        self.facts.append((fact, body, self.now))
        return {"ok": True, "fact": fact, **({"ruling": body["id"]} if fact == "ruling" else {})}

    def rule(self, **fields: Any) -> str:
        done = self.director({"op": "ruling", **fields})
        assert done["ok"], done
        return str(done["ruling"])

    def points(self, board: int) -> dict[tuple[int, int], tuple[float, float]]:
        """(NS, EW) pairs -> (NS points, EW points) on ``board``, as scored now."""
        scored = self.room.scoring.section("A")
        return {(r["NS"], r["EW"]): (r["ns_points"], r["ew_points"])
                for r in scored.traveller_json(board)["results"]}

    def ranking(self) -> dict[int, tuple[float, float | None, int, str | None]]:
        """pair -> (total, percent, rank, direction)."""
        return {e["pair"]: (e["total"], e["percent"], e["rank"], e["direction"])
                for e in self.room.scoring.section("A").ranking()}


def neuberg(beaten: float, actual: int, expected: int = 3) -> float:
    """formats.md 9.1 by hand: (M + 1/2)·E/A - 1/2."""
    return (beaten + 0.5) * expected / actual - 0.5


# Results as they arrive -------------------------------------------------------------------

def test_law_78a_ranking_follows_the_results_as_they_arrive() -> None:
    """Law 78A live: one result alone is an average (Neuberg to the 3 the movement plays);
    a second better one splits the board; the full board gives 2/1/0; the field is
    two-winner (a Mitchell: no pair sits both ways)."""
    s = Session()
    s.play(ROUND_ROBIN[:1])
    assert s.points(1) == {(1, 4): (1.0, 1.0)}                       # 50% of the top of 2
    assert s.ranking() == {1: (1.0, 50.0, 1, "NS"), 4: (1.0, 50.0, 1, "EW")}
    s.play(ROUND_ROBIN[1:3])                    # A1's board 2, then round 2: A3, 450
    high, low = neuberg(1, 2), neuberg(0, 2)                          # 1.75 and 0.25
    assert s.points(1) == {(1, 4): (low, high), (3, 5): (high, low)}
    assert s.ranking()[3] == (high, 87.5, 1, "NS")
    assert s.ranking()[1] == (low + 1.0, 31.25, 2, "NS")              # 1.25 of 4
    s.play(ROUND_ROBIN[3:])                                           # everything else
    assert s.points(1) == {(1, 4): (1.0, 1.0), (2, 6): (0.0, 2.0), (3, 5): (2.0, 0.0)}
    assert s.points(2) == {(1, 4): (1.0, 1.0), (2, 6): (0.0, 2.0), (3, 5): (2.0, 0.0)}
    assert s.ranking() == {3: (4.0, 100.0, 1, "NS"), 1: (2.0, 50.0, 2, "NS"),
                           2: (0.0, 0.0, 3, "NS"), 6: (4.0, 100.0, 1, "EW"),
                           4: (2.0, 50.0, 2, "EW"), 5: (0.0, 0.0, 3, "EW")}
    ranking = s.room.scoring.section("A").ranking_json()
    assert ranking["field"] == "two-winner" and ranking["units"] == "MP"
    assert ranking["boards"] == [{"board": 1, "results": 3, "scored": 3},
                                 {"board": 2, "results": 3, "scored": 3}]


def test_law_78a_a_new_result_sends_the_ranking_and_its_boards_traveller_only() -> None:
    """A result on board 2 changes board 2's matchpoints and the totals, nothing on board 1:
    the ranking and board 2's traveller are published again, board 1's is not (a room of a
    thousand tables would send every traveller of the section at each result); a forced
    publication (the broker restarted) sends them all."""
    s = Session()
    s.play(ROUND_ROBIN[:3])
    first = dict(s.room.scoring.publications())
    assert topic_traveller("A", 1) in first and topic_traveller("A", 2) in first
    assert s.room.scoring.publications() == []         # nothing new: nothing sent
    s.play(ROUND_ROBIN[3:4])                          # A3's board 2
    again = dict(s.room.scoring.publications())
    assert set(again) == {topic_ranking("A"), topic_traveller("A", 2)}
    assert again[topic_traveller("A", 2)] != first[topic_traveller("A", 2)]
    forced = dict(s.room.scoring.publications(force=True))
    assert set(forced) == {topic_ranking("A"), topic_traveller("A", 1),
                           topic_traveller("A", 2)}
    assert forced[topic_traveller("A", 1)] == first[topic_traveller("A", 1)]


def test_law_2_the_traveller_carries_the_hand_records_markings() -> None:
    """Law 2: board 1 is marked dealer West, both vulnerable: West declares 4S and makes it,
    620 to East-West vulnerable; the published traveller says dealer W, vulnerability All;
    board 2 keeps Law 2's."""
    s = Session(Room(Section("A", MOVEMENT), DEALS,
                     markings={1: Markings(Seat.WEST, Vulnerability.BOTH)}))
    s.play(ROUND_ROBIN[:2])
    one = s.room.scoring.section("A").traveller_json(1)
    assert (one["dealer"], one["vulnerability"]) == ("W", "All")
    assert one["results"][0]["score_ns"] == -620 and one["results"][0]["declarer"] == "W"
    assert one["results"][0]["scored"]                 # -620 is a score when vulnerable (77)
    assert not s.room.scoring.section("A").problems
    s.rule(kind="assigned", table="A1", board=1, score_ns=-620)  # only vulnerable (12C1, 77)
    assert s.points(1) == {(1, 4): (1.0, 1.0)}
    two = s.room.scoring.section("A").traveller_json(2)
    assert (two["dealer"], two["vulnerability"]) == ("E", "NS")


def test_law_16_tablets_still_see_only_the_boards_they_finished() -> None:
    """The live scores change nothing of what a table sees (Law 16): A2 in round 1 plays
    boards 3-4 and its state holds nothing of board 1, scored at A1 and A3."""
    s = Session()
    s.play([*ROUND_ROBIN[:1], (1, "A2", 3, "PASS", None), *ROUND_ROBIN[2:3]])
    assert s.room.scoring.section("A").traveller_json(1)["results"]
    state = s.room.tables["A2"].public_state()
    assert [r["contract"] for r in state["traveller"]] == ["PASS"]
    assert "4S" not in json.dumps(state)


# Rulings ----------------------------------------------------------------------------------

def test_law_12c2_artificial_scores_and_the_12c2c_session_rule() -> None:
    """Board 1 could not be played at A2 (2 v 6) in round 3. Law 12C2(a): average-plus 60%,
    average-minus 40% of the top of 2 (1.2 and 0.8). Pair 2 scored 0% on its other board and
    pair 6 100%: with average-plus to pair 2 and average-minus to pair 6 the 12C2(c) rule
    changes nothing; the other way round it does: pair 6, not at fault, keeps its 100%, and
    pair 2, at fault, its 0%. The two real results are Neuberg-scaled as 2 of 3."""
    s = Session()
    s.play(ROUND_ROBIN[:4] + ROUND_ROBIN[5:])
    first = s.rule(kind="artificial", table="A2", board=1, ns="A+", ew="A-",
                   text="board not played: slow play by EW")
    assert s.room.scoring.section("A").traveller_json(1)["results"][1]["adjustment"] == "A+ A-"
    high, low = neuberg(1, 2), neuberg(0, 2)
    assert s.points(1) == {(1, 4): (low, high), (2, 6): (1.2, 0.8), (3, 5): (high, low)}
    second = s.rule(kind="artificial", table="A2", board=1, ns="A-", ew="A+")
    assert s.points(1)[2, 6] == (0.0, 2.0)                           # 12C2(c) both ways
    assert s.ranking()[6] == (4.0, 100.0, 1, "EW") and s.ranking()[2] == (0.0, 0.0, 3, "NS")
    rulings = {r["id"]: r for r in s.room.scoring.rulings_json()}
    assert rulings[first]["status"] == "replaced" and rulings[second]["replaces"] == first
    assert rulings[second]["status"] == "in force" and rulings[second]["round"] == 3
    # Withdrawn: the ruling it replaced is in force again.
    assert s.director({"op": "ruling_undo", "id": second})["ok"]
    assert s.points(1)[2, 6] == (1.2, 0.8)


def test_law_12c1a_assigned_score_replaces_the_table_result() -> None:
    """Law 12C1(a): A2's -50 on board 1 becomes +420 for both sides: a tie with A1's 420
    (half a matchpoint each) below A3's 450."""
    s = Session()
    s.play(ROUND_ROBIN)
    s.rule(kind="assigned", table="A2", board=1, score_ns=420)
    assert s.points(1) == {(1, 4): (0.5, 1.5), (2, 6): (0.5, 1.5), (3, 5): (2.0, 0.0)}
    line = s.room.scoring.section("A").traveller_json(1)["results"][1]
    assert line["score_ns"] == -50 and line["adjustment"] == "420" and line["ruling"] == "R1"


def test_law_12c1c_weights_apply_to_the_matchpoints_of_each_outcome() -> None:
    """Law 12C1(c): at A2, 50% of 4S making (+420) and 50% of 4S one down (-50). Pair 2 gets
    half of what each would earn: 420 ties A1 (0.5 MP), -50 beats nothing: 0.25. Pair 1's 420
    ties half of it and beats the other half: 0.5·0.5 + 0.5·1 = 0.75; pair 3 beats both: 2.
    (Averaging the scores, 185, would have given pair 2 nothing.) East-West mirror it."""
    s = Session()
    s.play(ROUND_ROBIN)
    s.rule(kind="weighted", table="A2", board=1, outcomes=[[0.5, 420], [0.5, -50]])
    assert s.points(1) == {(1, 4): (0.75, 1.25), (2, 6): (0.25, 1.75), (3, 5): (2.0, 0.0)}
    assert s.ranking()[2] == (0.25, 6.25, 3, "NS")                  # 0.25 of 4


def test_law_12c1f_split_scores_do_not_balance() -> None:
    """Law 12C1(f): at A2, North-South are scored as if +420 (0.5 MP, tied with A1), East-
    West as if -50 had been scored, i.e. +50 for them, better than every other East-West:
    2 MP. The board's points no longer add up to the top (2.5, not 2)."""
    s = Session()
    s.play(ROUND_ROBIN)
    s.rule(kind="split", table="A2", board=1, ns=420, ew=-50)
    assert s.points(1) == {(1, 4): (0.5, 1.0), (2, 6): (0.5, 2.0), (3, 5): (2.0, 0.0)}
    s.rule(kind="split", table="A2", board=1, ns="A+", ew=[[0.5, 420], [0.5, -50]])
    ns, ew = s.points(1)[2, 6]
    assert ns == 1.2                                # average-plus: 60% of 2
    # East-West 6, in East-West terms, against pairs 4 (-420) and 5 (-450): its -420 ties
    # pair 4 and beats pair 5 (1.5), its +50 beats both (2); half of each: 1.75.
    assert ew == 1.75


def test_law_90_procedural_penalty_to_one_side_only() -> None:
    """Law 90: a penalty is deducted from the offending contestant alone; its opponents
    keep their score (non-zero-sum). In matchpoints or in percent of the pair's tops."""
    s = Session()
    s.play(ROUND_ROBIN)
    s.rule(kind="penalty", table="A3", board=2, side="NS", amount=0.5, unit="mp",
           text="late arrival")
    assert s.ranking()[3] == (3.5, 87.5, 1, "NS") and s.ranking()[5] == (0.0, 0.0, 3, "EW")
    s.rule(kind="penalty", pair=1, amount=25, unit="percent")       # 25% of its tops of 4
    assert s.ranking()[1] == (1.0, 25.0, 2, "NS")
    assert s.points(2)[3, 5] == (2.0, 0.0)          # the board itself is not changed
    penalties = s.room.scoring.section("A").ranking_json()["penalties"]
    assert [(p["pair"], p["amount"], p["unit"]) for p in penalties] == [
        (3, 0.5, "mp"), (1, 25.0, "percent")]


def test_law_87_fouled_board_groups_scored_apart() -> None:
    """Law 87B: A2 played board 1 in a changed form. Each form is scored as its own group,
    Neuberg-scaled to the 3 results the board has (87B; formats.md 9.1): A1 (420) and A3
    (450) as 2 of 3 (0.25 and 1.75), A2 (-50) alone, an average (1.0)."""
    s = Session()
    s.play(ROUND_ROBIN)
    ruling = s.rule(kind="fouled", board=1, groups=[["A2"]])
    low, high = neuberg(0, 2), neuberg(1, 2)
    assert s.points(1) == {(1, 4): (low, high), (2, 6): (1.0, 1.0), (3, 5): (high, low)}
    traveller = s.room.scoring.section("A").traveller_json(1)
    assert traveller["fouled"] and [r["form"] for r in traveller["results"]] == [0, 1, 0]
    s.rule(kind="fouled", board=1, groups=[["A2", "A3"]])           # replaces it
    assert s.points(1) == {(1, 4): (1.0, 1.0), (2, 6): (low, high), (3, 5): (high, low)}
    assert s.director({"op": "ruling_undo", "id": ruling})["ok"]     # the replaced one
    assert s.points(1)[1, 4] == (1.0, 1.0)                           # the second stands


def test_law_78b_teams_imps_and_12c2_three_imps() -> None:
    """Teams (78B): team 1 is pairs 1 and 2, team 2 pairs 3 and 4; the open room is 1 v 4,
    the closed room 3 v 2. Board 1: +420 in the open room, -100 in the closed: 520 for team
    1, 11 IMPs; a board is scored once both rooms have played it. Board 2 is played in the
    open room only and the closed room gets average-plus for team 2's North-South, average-
    minus for team 1's East-West (12C2(b): +3 and -3 IMPs)."""
    from bridgecore.movements import teams

    room = Room(Section("T", teams(2, boards_per_round=2)), DEALS)
    s = Session(room)
    s.play([(1, "T1", 1, "4S", 10)])
    scored = room.scoring.section("T")
    assert scored.ranking() == [] and not scored.traveller_json(1)["results"][0]["scored"]
    s.play([(1, "T2", 1, "4S", 8), (1, "T1", 2, "3NT", 9)])
    assert {e["pair"]: e["total"] for e in room.scoring.section("T").ranking()} == {
        1: 11.0, 2: -11.0}
    s.rule(kind="artificial", table="T2", board=2, ns="A+", ew="A-")
    scored = room.scoring.section("T")
    assert {e["pair"]: e["total"] for e in scored.ranking()} == {1: 8.0, 2: -8.0}
    assert scored.ranking_json()["field"] == "one-winner" and scored.units == "IMPs"
    assert s.director({"op": "ruling", "kind": "penalty", "table": "T1", "board": 1,
                       "side": "EW", "amount": 1, "unit": "mp"})["error"] == (
        "ruling penalty: a penalty in mp is not a unit of section T (it takes imp)")


# Refusals ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("command", "words"), [
    ({"kind": "artificial", "table": "A9", "board": 1, "ns": "A+", "ew": "A-"},
     "ruling artificial: no table 'A9' in this session"),
    ({"kind": "assigned", "table": "A1", "board": 99, "score_ns": 420},
     "ruling assigned: no board 99 in this session"),
    ({"kind": "assigned", "table": "A1", "board": 1, "round": 2, "score_ns": 420},
     "board 1 is not played at table A1 in round 2"),
    ({"kind": "assigned", "table": "A1", "board": 1, "score_ns": 410},
     "impossible score 410 (no contract scores it when vulnerability is None, Law 77)"),
    ({"kind": "assigned", "table": "A1", "board": 1, "score_ns": 425},
     "score_ns 425 is not a score"),
    ({"kind": "weighted", "table": "A1", "board": 1, "outcomes": [[0.5, 420], [0.4, -50]]},
     "the weights of a weighted score add up to 1, not 0.9"),
    ({"kind": "artificial", "table": "A1", "board": 1, "ns": "A+", "ew": "B"},
     "ew 'B' is not an artificial adjusted score"),
    ({"kind": "artificial", "table": "A1", "board": 1, "ns": "A+", "ew": "A-",
      "ns_percent": 55}, "55% is not an artificial adjusted score"),
    ({"kind": "penalty", "pair": 9, "amount": 1, "unit": "mp"}, "no pair 9 in section A"),
    ({"kind": "penalty", "pair": 1, "amount": -1, "unit": "mp"}, "the amount is positive"),
    ({"kind": "penalty", "pair": 1, "amount": 1, "unit": "vp"},
     "a penalty in vp is not a unit of section A"),
    ({"kind": "fouled", "board": 1, "groups": [["A2"], ["A2"]]}, "table A2 is in two groups"),
    ({"kind": "fouled", "board": 1, "groups": [["Z1"]]}, "no table 'Z1'"),
    ({"kind": "bribe", "table": "A1"}, "unknown kind 'bribe'"),
    ({"kind": "assigned", "table": "A1", "board": 1, "score_ns": 420, "groups": []},
     "groups not for this kind of ruling"),
    ({"kind": "assigned", "table": "A1", "board": 1, "score_ns": 420, "alert": "A1-x"},
     "no alert 'A1-x'"),
])
def test_bad_rulings_are_refused_with_their_reason_and_change_nothing(
        command: dict[str, Any], words: str) -> None:
    s = Session()
    s.play(ROUND_ROBIN[:2])
    before = (s.room.snapshot(), s.room.scoring.section("A").ranking_json())
    refused = s.director({"op": "ruling", **command})
    assert refused["ok"] is False and words in refused["error"], refused
    assert (s.room.snapshot(), s.room.scoring.section("A").ranking_json()) == before
    assert s.facts == [("round_start", {"round": 1, "by": "console"}, START + 1)]


def test_undo_of_a_ruling_that_does_not_exist_or_is_withdrawn_is_refused() -> None:
    s = Session()
    s.play(ROUND_ROBIN[:1])
    assert "no ruling 'R7'" in s.director({"op": "ruling_undo", "id": "R7"})["error"]
    ruling = s.rule(kind="assigned", table="A1", board=1, score_ns=450)
    assert s.director({"op": "ruling_undo", "id": ruling})["ok"]
    again = s.director({"op": "ruling_undo", "id": ruling})
    assert again == {"ok": False, "error": "Withdrawing the score ruling: ruling R1 is "
                                               "already withdrawn",
                     "error_text": Text.of("refusal.command", doing=Text.of("doing.ruling_undo"),
                                           reason=Text.of("refusal.ruling_withdrawn",
                                                          id="R1")).to_json()}
    with pytest.raises(RulingError):
        s.room.scoring.check({"kind": "assigned", "table": "A1", "board": "1",
                              "score_ns": 420})


def test_a_replayed_log_gives_the_same_scores() -> None:
    """Every ruling is a fact: the log alone rebuilds the same rankings and travellers."""
    s = Session()
    s.play(ROUND_ROBIN)
    s.rule(kind="weighted", table="A2", board=1, outcomes=[[0.5, 420], [0.5, -50]])
    s.rule(kind="penalty", pair=3, amount=1, unit="mp")
    undone = s.rule(kind="fouled", board=2, groups=[["A3"]])
    assert s.director({"op": "ruling_undo", "id": undone})["ok"]
    live = s.room.scoring.section("A")
    other = Session()
    other.play(ROUND_ROBIN)
    for fact, body, at in s.facts[3:]:          # after the round starts the play replayed
        other.room.fact(fact, json.loads(json.dumps(body)), at)
    again = other.room.scoring.section("A")
    assert again.ranking_json() == live.ranking_json()
    assert [again.traveller_json(b) for b in (1, 2)] == [live.traveller_json(b) for b in (1, 2)]
    assert other.room.scoring.rulings_json() == s.room.scoring.rulings_json()


# The hub: retained over MQTT, and rebuilt from its log -------------------------------------

def wait_for(client: MqttClient, topic: str, test: Any, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            message = client.messages.get(timeout=0.2)
        except Exception:
            continue
        if message.topic == topic and message.payload:
            data = json.loads(message.payload)
            if test(data):
                return data
    raise AssertionError(f"nothing on {topic} passed the test")


def test_hub_publishes_rankings_and_travellers_retained_and_rebuilds_them(
        embedded_broker: Any, tmp_path: Path, keyring: Any) -> None:
    """Results over MQTT, rankings and travellers published retained as they change; a
    ruling from the director rescores at once; a restart rebuilds the same scores from the
    log and publishes them again (for a display that subscribes later)."""
    url = embedded_broker.url
    for _, table, *_rest in ROUND_ROBIN:  # a fresh tablet per round: a spare of the table's
        for round_ in (1, 2, 3):
            keyring.issue(f"{table}-tab.r{round_}")
    hub = Hub(data_log(tmp_path), url=url, setup=MitchellSetup(), setup_loader=loader,
              tick_seconds=0.2)
    ranking, board_1 = topic_ranking("A"), topic_traveller("A", 1)
    assert parse_topic(board_1).kind == "traveller" and parse_topic(ranking).section == "A"
    with HubRunner(hub) as running:
        scores = listen(url, "tenace/v1/results/#")
        for round_ in (1, 2, 3):
            assert running.call(lambda r=round_: hub.director({"op": "round_start",
                                                               "round": r}))["ok"]
            plays = [p for p in ROUND_ROBIN if p[0] == round_]
            script = [e for _, table, board, contract, tricks in plays
                      for e in board_script(hub.room, table, round_, board, contract, tricks,
                                            time.time(), device=f"{table}-tab.r{round_}")]
            run_tables(url, {plays[0][1]: script})
        seen = wait_for(scores, ranking, lambda d: [b["scored"] for b in d["boards"]] == [3, 3])
        assert {e["pair"]: e["percent"] for e in seen["ranking"]} == {
            3: 100.0, 1: 50.0, 2: 0.0, 6: 100.0, 4: 50.0, 5: 0.0}
        done = running.call(lambda: hub.director({
            "op": "ruling", "kind": "assigned", "table": "A2", "board": 1, "score_ns": 420}))
        assert done == {"ok": True, "fact": "ruling", "alerts": [], "ruling": "R1"}
        traveller = wait_for(scores, board_1, lambda d: any(r["ruling"] for r in d["results"]))
        assert [(r["NS"], r["ns_points"]) for r in traveller["results"]] == [
            (1, 0.5), (2, 0.5), (3, 2.0)]
        refused = running.call(lambda: hub.director({
            "op": "ruling", "kind": "assigned", "table": "A2", "board": 7, "score_ns": 420}))
        assert refused["error"] == "ruling assigned: no board 7 in this session"
        # the same refusal as a text (the console words it in its director's language)
        assert refused["error_text"]["values"]["reason"] == {
            "key": "refusal.no_board", "values": {"board": 7}}
        scores.close()
        live = running.call(lambda: hub.room.scoring.section("A").ranking_json())
    again = Hub(data_log(tmp_path), url=url, setup_loader=loader, tick_seconds=0.2)
    assert again.room.scoring.section("A").ranking_json() == live
    with HubRunner(again):
        later = listen(url, "tenace/v1/results/#")
        assert wait_for(later, ranking, lambda d: True) == live
        later.close()
