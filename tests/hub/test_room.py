"""The session (hub/room.py): protocol checks on every event, the round clock (late tables,
unconfirmed results), devices going offline, sections, and replay: the same log into a
fresh room gives the same snapshot."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgecore.cards import ALL_CARDS, Seat
from bridgecore.deal import Deal
from bridgecore.movements import mitchell
from hub.errors import ConfigError
from hub.log_records import Record
from hub.room import Room, Section
from hub.sitting import Outcome
from tests.hub.test_table import DEALS, MOVEMENT, START, Driver, kinds, make_room
from wire.protocol import Envelope, ProtocolError, Reply

ROUND = 15 * 60.0


def env(n: int, device: str = "A1-tab", t: float = START + 1, type: str = "checkin",
        **body: Any) -> Envelope:
    return Envelope(f"{device}-{n}", device, n, t, type, body or {"direction": "NS", "pair": 1})


# Protocol checks --------------------------------------------------------------------------

def test_duplicate_id_is_acknowledged_and_not_applied_twice() -> None:
    room = make_room()
    call = env(3, type="call", seat="N", call="1S")
    room.apply("A1", env(1, type="board", board=1), START + 1)
    assert room.apply("A1", call, START + 2).reply.code == "ok"
    again = room.apply("A1", call, START + 3)
    assert (again.reply.status, again.reply.code, again.state_changed) == ("ack", "duplicate",
                                                                           False)
    assert len(room.tables["A1"].sitting.board.auction) == 1


def test_out_of_order_wrong_table_clock_skew_and_unknown_table() -> None:
    room = make_room()
    assert room.apply("A1", env(5), START + 1).reply.code == "ok"
    assert room.apply("A1", env(4, device="A1-tab", pair=1, direction="NS"),
                      START + 2).reply.code == "out_of_order"
    assert room.apply("A2", env(6), START + 3).reply.code == "wrong_table"
    assert room.apply("A1", env(7, t=START - 500), START + 4).reply.code == "clock_skew"
    assert room.apply("Z9", env(1, device="Z9-tab"), START).reply.code == "wrong_table"


def test_a_refused_event_changes_nothing() -> None:
    d = Driver(strict=True)
    d.seat_pairs()
    d.calls("1S")
    before = json.dumps(d.room.snapshot())
    assert d.send("call", seat="E", call="1C").reply.status == "reject"
    assert d.send("card", seat="E", card="HJ").reply.status == "reject"
    assert d.send("undo", seat="W").reply.status == "reject"
    assert json.dumps(d.room.snapshot()) == before


# The round clock --------------------------------------------------------------------------

def test_law_8_late_table_at_the_end_of_the_round() -> None:
    room = make_room()
    done = Driver(room, "A2")
    done.seat_pairs(2, 5, board=3)
    done.calls("Pass", "Pass", "Pass", "Pass")
    done.ok("result_confirm", seat="E", accept=True)
    done.ok("board", board=4)
    done.calls("Pass", "Pass", "Pass", "Pass")
    done.ok("result_confirm", seat="N", accept=True)
    assert room.tick(START + ROUND - 1) == []
    late = room.tick(START + ROUND + 1)
    assert sorted(a.table for a in late) == ["A1", "A3"]
    assert {a.kind for a in late} == {"late_table"} and late[0].law == "8"
    assert late[0].facts == {"deadline": START + ROUND, "unfinished": [1, 2]}
    assert room.tick(START + ROUND + 60) == []   # raised once


def test_law_79a_result_not_confirmed_before_the_round_ends() -> None:
    room = make_room()
    d = Driver(room)
    d.seat_pairs()
    d.calls("Pass", "Pass", "Pass", "Pass")
    d.ok("board", board=2)
    d.calls("Pass", "Pass", "Pass", "Pass")
    d.ok("result_confirm", seat="E", accept=True)
    found = room.start_round(2, START + ROUND + 5)
    mine = [a for a in found if a.table == "A1"]
    assert kinds(mine) == ["result_unconfirmed"]
    assert mine[0].board == 1 and mine[0].law == "79A"
    assert room.tables["A1"].round == 2


def test_a_table_that_finished_moves_on_when_the_next_pairs_check_in() -> None:
    room = make_room()
    d = Driver(room)
    d.seat_pairs()
    d.calls("Pass", "Pass", "Pass", "Pass")
    d.ok("board", board=2)
    d.calls("Pass", "Pass", "Pass", "Pass")
    assert d.ok("checkin", direction="EW", pair=6) == []   # round 2's EW pair at A1
    assert room.tables["A1"].round == 2
    assert d.ok("board", board=3) == []


def test_a_late_table_finishes_its_board_after_the_next_round_starts() -> None:
    room = make_room()
    d = Driver(room)
    d.seat_pairs()
    d.calls("Pass", "Pass", "Pass", "Pass")
    room.start_round(2, START + ROUND)
    assert d.ok("board", board=2) == []                    # round 1's board, same pairs


# Devices ----------------------------------------------------------------------------------

def test_device_offline_alerts_once_per_outage() -> None:
    room = make_room()
    d = Driver(room)
    d.seat_pairs()
    first = room.device_offline("A1-tab", START + 50)
    assert kinds(first) == ["device_offline"] and first[0].table == "A1"
    assert first[0].facts["last_seen"] == pytest.approx(d.clock + 0.01)
    assert room.device_offline("A1-tab", START + 51) == []
    room.device_online("A1-tab", START + 60)
    second = room.device_offline("A1-tab", START + 70)
    assert len(second) == 1 and second[0].id != first[0].id
    assert room.device_offline("ghost", START) == []
    assert kinds(room.device_offline("A3-rdr", START, table="A3")) == ["device_offline"]


# Sections and configuration ---------------------------------------------------------------

def test_sections_keep_their_own_pairs_for_law_15b() -> None:
    movement = mitchell(3, boards_per_round=2)
    room = Room([Section("A", movement), Section("B", movement)], DEALS)
    room.start_round(1, START)
    a, b = Driver(room, "A1"), Driver(room, "B1")
    a.seat_pairs()
    a.calls("Pass")
    b.seat_pairs()
    assert b.calls("Pass") == []     # pair 1 of section B is not pair 1 of section A
    assert len(room.alerts) == 0


def test_configuration_errors() -> None:
    with pytest.raises(ConfigError, match="two sections"):
        Room([Section("A", MOVEMENT), Section("B", MOVEMENT, tables={"A1": 1})], DEALS)
    with pytest.raises(ConfigError, match="not in the movement"):
        Section("A", MOVEMENT, tables={"A9": 9})
    with pytest.raises(ConfigError, match="unknown tables"):
        Room(Section("A", MOVEMENT), DEALS, strict=["Q1"])
    with pytest.raises(ConfigError):
        Room(Section("A"), DEALS)


def test_a_practice_room_without_movement_or_hand_records() -> None:
    room = Room(Section("P", tables=["p1"]), {})
    d = Driver(room, "p1")
    d.seat_pairs(ns=7, ew=8, board=12)
    assert len(room.alerts) == 0
    hands = Deal.parse(
        "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432")
    for seat in Seat:
        d.ok("hand", "rdr", seat=seat.letter, cards=[str(c) for c in hands[seat]])
    assert d.state.seat_view(Seat.WEST)["hand"][0] == "S2"  # the reads are the deal
    assert len(room.alerts) == 0


# Replay -----------------------------------------------------------------------------------

class Recorder:
    """Sends events to a room and keeps what the service would log: accepted events and facts
    (a refusal's ``device_overreach`` too)."""

    def __init__(self, room: Room):
        self.room = room
        self.records: list[Record] = []
        self.seq: dict[str, int] = {}
        self.t = START

    def event(self, table: str, device: str, type: str, **body: Any) -> Any:
        device = f"{table}-{device}"
        self.seq[device] = n = self.seq.get(device, 0) + 1
        self.t += 0.7
        e = Envelope(f"{device}-{n}", device, n, self.t, type, body)
        try:   # what the service does first: what the decoder refuses never reaches the room
            e = Envelope.from_json(e.to_json())
        except ProtocolError as err:
            return Outcome(Reply(e.id, e.seq, "reject", err.code, err.reason, self.t + 0.05))
        out = self.room.apply(table, e, self.t + 0.05)
        if out.reply.status == "ack" and out.reply.code != "duplicate":
            self.records.append(Record.from_envelope(e, table, hub_time=self.t + 0.05))
        elif out.fact is not None:   # a refusal the director is alerted of (hub.roles)
            self.records.append(Record.fact(*out.fact, hub_time=self.t + 0.05))
        return out

    def fact(self, type: str, source: str = "hub", **body: Any) -> None:
        self.t += 0.3
        self.room.fact(type, body, self.t)
        self.records.append(Record.fact(type, body, source=source, hub_time=self.t))


def simulate(seed: int) -> Recorder:
    """A session with irregular streams: wrong pairs, wrong boards, rotated hands, random
    (often illegal) calls and cards, undos, claims, director calls, ticks and rulings."""
    rng = random.Random(seed)
    rec = Recorder(make_room(strict=["A3"]))
    rec.fact("round_start", round=1)
    for r in (1, 2):
        if r == 2:
            rec.fact("round_start", round=2)
        for tn in (1, 2, 3):
            table = f"A{tn}"
            a = MOVEMENT.assignment(r, tn)
            assert a is not None and a.ns is not None and a.ew is not None
            ns, ew = (a.ew, a.ns) if rng.random() < 0.2 else (a.ns, a.ew)
            rec.event(table, "tab", "checkin", direction="NS", pair=ns)
            rec.event(table, "tab", "checkin", direction="EW", pair=ew)
            for number in a.boards + ((7 - a.boards[0],) if rng.random() < 0.3 else ()):
                rec.event(table, "tab", "board", board=number)
                deal = DEALS.get(number)
                turn = rng.randrange(4) if rng.random() < 0.3 else 0
                if deal is not None:
                    for seat in Seat:
                        rec.event(table, "rdr", "hand", seat=seat.letter,
                                  cards=[str(c) for c in deal[seat.offset(turn)]])
                play_random_board(rec, rng, table)
            rec.event(table, "tab", "director_call", seat="N", note=f"round {r}")
        rec.fact("tick")
        rec.t += ROUND
        rec.fact("tick")
    rec.fact("device_offline", device="A2-rdr")
    for alert in list(rec.room.alerts)[:6]:
        rec.fact("alert_acknowledge", "director", id=alert.id)
        rec.fact("alert_rule", "director", id=alert.id, text="score stands")
    rec.fact("table_mode", table="A1", strict=True)
    return rec


def play_random_board(rec: Recorder, rng: random.Random, table: str) -> None:
    state = rec.room.tables[table]
    for _ in range(120):
        s = state.sitting
        assert s is not None
        board = s.board
        auction, play = board.auction, board.play
        if s.over:
            rec.event(table, "tab", "result_confirm", seat=rng.choice("NESW"),
                      accept=rng.random() < 0.8)
            return
        roll = rng.random()
        if play is None:
            seat = auction.turn if roll < 0.85 and auction.turn else rng.choice(list(Seat))
            calls = auction.legal_calls or ["Pass"]
            call = rng.choice(["Pass", "Pass", "1C", "1H", "X"]) if roll > 0.9 else (
                "Pass" if rng.random() < 0.6 else str(rng.choice(calls)))
            rec.event(table, "tab", "call", seat=seat.letter, call=str(call))
            if rng.random() < 0.05:
                rec.event(table, "tab", "undo", seat=seat.letter)
        elif roll < 0.02 and play.turn is not None:
            rec.event(table, "tab", "claim", seat=play.declarer.letter,
                      tricks=rng.randrange(14 - len(play.completed_tricks)))
            for defender in (play.declarer.lho, play.declarer.rho):
                rec.event(table, "tab", "claim_answer", seat=defender.letter,
                          accept=rng.random() < 0.7)
        else:
            seat = play.turn or rng.choice(list(Seat))
            hand = list(play.remaining(seat)) or list(board.deal[seat])
            card = rng.choice(list(play.legal_cards) if roll < 0.9 and play.legal_cards
                              else hand)
            rec.event(table, rng.choice(["tab", "rdr"]), "card", seat=seat.letter,
                      card=str(card))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_replaying_the_log_into_a_fresh_room_gives_the_same_snapshot(seed: int) -> None:
    live = simulate(seed)
    assert len(live.room.alerts) > 5   # the stream did exercise the detectors
    rebuilt = make_room(strict=["A3"]).rebuild(live.records)
    assert json.dumps(rebuilt.snapshot()) == json.dumps(live.room.snapshot())
    with pytest.raises(ConfigError, match="fresh"):
        rebuilt.rebuild(live.records)


def test_rebuild_skips_records_that_are_not_room_facts() -> None:
    room = make_room()
    room.rebuild([Record.fact("board_started", {"x": 1}, hub_time=START)])
    assert room.snapshot()["events"] == 0
    with pytest.raises(ConfigError, match="unknown fact"):
        room.fact("board_started", {}, START)


_SEATS = st.sampled_from("NESW")
# Valid envelopes only: the decoder (wire.messages) refuses an empty card, so a stored event
# never holds one.
_CARDS = st.sampled_from(["SA", "S2", "HK", "D7", "CT", "C2", "HQ", "DA", "joker", "S"])
_BODIES = {
    "checkin": st.fixed_dictionaries({"direction": st.sampled_from(["NS", "EW", "XX"]),
                                      "pair": st.integers(-1, 8)}),
    "board": st.fixed_dictionaries({"board": st.integers(-1, 8)}),
    "hand": st.fixed_dictionaries({"seat": _SEATS, "cards": st.lists(_CARDS, max_size=15)},
                                  optional={"when": st.sampled_from(["out", "back", "?"]),
                                            "board": st.integers(0, 8)}),
    "call": st.fixed_dictionaries({"seat": _SEATS, "call": st.sampled_from(
        ["Pass", "Pass", "Pass", "1C", "1NT", "2H", "X", "XX", "8S", "7NT", "bid"])},
        optional={"alert": st.booleans(), "stop": st.booleans()}),
    "card": st.fixed_dictionaries({"seat": _SEATS, "card": _CARDS},
                                  optional={"source": st.sampled_from(["tablet", "reader"])}),
    "undo": st.fixed_dictionaries({"seat": _SEATS}),
    "claim": st.fixed_dictionaries({"seat": _SEATS, "tricks": st.integers(-1, 14)}),
    "claim_answer": st.fixed_dictionaries({"seat": _SEATS, "accept": st.booleans()}),
    "result_confirm": st.fixed_dictionaries({"seat": _SEATS, "accept": st.booleans()}),
    "director_call": st.fixed_dictionaries({}, optional={"seat": _SEATS}),
}
# "next": the legal move of the player in turn (a bid one time in six), so that boards end.
_BODIES["next"] = st.fixed_dictionaries({"bid": st.integers(0, 5).map(lambda n: n == 0)})
_EVENTS = st.lists(st.tuples(st.sampled_from(["A1", "A2"]), st.sampled_from(["tab", "rdr"]),
                             st.sampled_from(sorted(_BODIES) + ["next"] * 25).flatmap(
                                 lambda k: st.tuples(st.just(k), _BODIES[k]))),
                   max_size=150)


def next_move(room: Room, table: str, bid: bool) -> tuple[str, dict[str, Any]]:
    """The call or card of the player in turn (a pass, or the cheapest bid); or a board."""
    s = room.tables[table].sitting
    if s is None or s.over:
        return "board", {"board": 1 if s is None else s.board.number % 6 + 1}
    auction, play = s.board.auction, s.board.play
    if play is None:
        assert auction.turn is not None
        legal = [c for c in auction.legal_calls if c.is_bid or c.is_pass]
        return "call", {"seat": auction.turn.letter, "call": str(legal[bid and len(legal) > 1])}
    if play.turn is None:
        return "claim_answer", {"seat": play.declarer.lho.letter, "accept": True}
    # A board the room has no hand record for (7 and 8 here): hands unknown, any card not
    # played yet.
    played = {c for _, c, _ in play.history}
    cards = play.legal_cards or tuple(c for c in ALL_CARDS if c not in played)
    return "card", {"seat": play.turn.letter, "card": str(cards[0])}


@settings(max_examples=60, deadline=None)
@given(_EVENTS, st.booleans())
def test_any_stream_of_valid_envelopes_is_applied_and_replays_identically(
        events: list[tuple[str, str, tuple[str, dict[str, Any]]]], strict: bool) -> None:
    rec = Recorder(make_room(strict=strict))
    for table, device, (type, body) in events:
        if type == "next":
            type, body = next_move(rec.room, table, body["bid"])
        out = rec.event(table, device, type, **body)
        assert out.reply.status in ("ack", "reject")
        json.dumps(rec.room.tables[table].public_state())
    rec.t += ROUND
    rec.fact("tick")
    rebuilt = make_room(strict=strict).rebuild(rec.records)
    assert json.dumps(rebuilt.snapshot()) == json.dumps(rec.room.snapshot())
