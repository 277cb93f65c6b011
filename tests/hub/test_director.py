"""Director commands (hub/director.py): every op becomes the room fact it names, checked
against a real room with a real alert; every bad input is refused with its reason and leaves
the room as it was. The director acknowledges, rules and resolves; the system only records
it (Laws 9, 10, 81)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bridgecore.bigdeal import random_deal
from bridgecore.cards import Seat
from bridgecore.movements import mitchell
from hub.alerts import Alert, AlertStatus
from hub.director import COMMANDS, MAX_TEXT, parse_command
from hub.errors import AlertError, ConfigError
from hub.room import Room, Section
from tenace.sim.devices import DeviceEvent, VirtualDevice, envelopes
from wire.protocol import ProtocolError

START = 1_700_000_000.0
MOVEMENT = mitchell(6, boards_per_round=2)
DEALS = {n: random_deal(random.Random(n)) for n in range(1, 13)}


class Tables:
    """Drives the tables of a room as their tablets would (real envelopes, numbered per
    device), one second apart on the hub's clock."""

    def __init__(self, room: Room, now: float = START):
        self.room = room
        self.now = now
        self.devices: dict[str, VirtualDevice] = {}

    def send(self, table: str, type: str, **body: Any) -> list[Alert]:
        self.now += 1.0
        event = DeviceEvent(table, f"{table}-tab", type, body, self.now)
        found: list[Alert] = []
        for tid, env in envelopes([event], devices=self.devices):
            out = self.room.apply(tid, env, self.now)
            assert out.reply.status == "ack", out.reply
            found += out.alerts
        return found

    def sit(self, table: str, board: int) -> None:
        a = self.room.assignment(table, self.room.tables[table].round)
        assert a is not None
        self.send(table, "checkin", direction="NS", pair=a.ns)
        self.send(table, "checkin", direction="EW", pair=a.ew)
        self.send(table, "board", board=board)

    def calls(self, table: str, *calls: str) -> list[Alert]:
        """Calls in rotation from the dealer of the board in play (or on from the last)."""
        sitting = self.room.tables[table].sitting
        assert sitting is not None
        entries = sitting.board.auction.entries
        seat = entries[-1].seat.lho if entries else Seat.dealer_of(sitting.board.number)
        found: list[Alert] = []
        for call in calls:
            found += self.send(table, "call", seat=seat.letter, call=call)
            seat = seat.lho
        return found

    def card(self, table: str, seat: str, card: str) -> list[Alert]:
        return self.send(table, "card", seat=seat, card=card)


def make_room() -> Room:
    room = Room(Section("A", MOVEMENT), DEALS, minutes_per_round=15)
    room.start_round(1, START)
    return room


def insufficient_bid(tables: Tables, table: str = "A1") -> Alert:
    """1S by North, 1H by East (Law 27) on the table's first board."""
    a = tables.room.assignment(table, 1)
    assert a is not None
    board = a.boards[0]
    tables.sit(table, board)
    assert Seat.dealer_of(board) is Seat.NORTH
    (alert,) = tables.calls(table, "1S", "1H")
    assert alert.kind == "insufficient_bid"
    return alert


@pytest.fixture
def room_alert() -> tuple[Room, Alert]:
    room = make_room()
    return room, insufficient_bid(Tables(room))


def apply(room: Room, obj: Any, t: float, account: str = "director"
          ) -> tuple[str, dict[str, Any], list[Alert]]:
    fact, body = parse_command(obj, room, account)
    return fact, body, room.fact(fact, body, t)


# Every op ---------------------------------------------------------------------------------

def test_law_9b_acknowledge_records_when_attention_was_drawn(room_alert: tuple[Room, Alert]
                                                            ) -> None:
    room, alert = room_alert
    fact, body, (new,) = apply(room, {"op": "acknowledge", "id": alert.id}, START + 60)
    assert (fact, body) == ("alert_acknowledge", {"id": alert.id, "by": "director"})
    assert new.status is AlertStatus.ACKNOWLEDGED and new.acknowledged_at == START + 60
    assert room.alerts[alert.id] == new


def test_law_81_rule_then_resolve(room_alert: tuple[Room, Alert]) -> None:
    room, alert = room_alert
    score = {"NS": 60, "EW": 40, "kind": "artificial"}
    fact, body, (ruled,) = apply(room, {"op": "rule", "id": alert.id, "v": 1,
                                        "text": "  27B1: 2H, no further rectification ",
                                        "score": score}, START + 90)
    assert fact == "alert_rule"
    assert body == {"id": alert.id, "text": "27B1: 2H, no further rectification",
                    "score": score, "by": "director"}
    assert ruled.status is AlertStatus.RULED and ruled.ruled_at == START + 90
    assert ruled.acknowledged_at == START + 90    # a ruling draws attention if nothing did
    assert ruled.ruling == {"text": "27B1: 2H, no further rectification", "score": score,
                            "by": "director"}
    fact, body, (done,) = apply(room, {"op": "resolve", "id": alert.id}, START + 95)
    assert (fact, body) == ("alert_resolve", {"id": alert.id, "by": "director"})
    assert done.status is AlertStatus.RESOLVED and done.resolved_at == START + 95
    assert done.ruling == ruled.ruling


def test_resolve_with_a_note_and_no_ruling(room_alert: tuple[Room, Alert]) -> None:
    room, alert = room_alert
    fact, body, (done,) = apply(room, {"op": "resolve", "id": alert.id,
                                       "text": "bid accepted by LHO"}, START + 30)
    assert (fact, body) == ("alert_resolve", {"id": alert.id, "text": "bid accepted by LHO",
                                              "by": "director"})
    assert done.ruling == {"text": "bid accepted by LHO"} and done.resolved_at == START + 30
    _, body, _ = apply(make_room_with_alert(), {"op": "resolve", "id": alert.id, "text": "  "},
                       START)
    assert body == {"id": alert.id, "by": "director"}   # a blank note is no note


def make_room_with_alert() -> Room:
    room = make_room()
    insufficient_bid(Tables(room))
    return room


def test_round_start_and_table_mode() -> None:
    room = make_room()
    fact, body, raised = apply(room, {"op": "round_start", "round": 2}, START + 900)
    assert (fact, body) == ("round_start", {"round": 2, "by": "director"})
    assert room.clock.round == 2 and room.clock.started == START + 900
    assert {a.kind for a in raised} == {"late_table"}           # nobody played round 1
    fact, body, _ = apply(room, {"op": "round_start", "round": 2}, START + 960)
    assert room.clock.started == START + 960                    # the same round: clock again
    fact, body, _ = apply(room, {"op": "table_mode", "table": "A3", "strict": True}, START)
    assert (fact, body) == ("table_mode", {"table": "A3", "strict": True, "by": "director"})
    assert room.tables["A3"].strict is True
    apply(room, {"op": "table_mode", "table": "A3", "strict": False}, START)
    assert room.tables["A3"].strict is False


def test_every_step_order_agrees_with_the_alert_book() -> None:
    """What parse_command refuses is what AlertBook would refuse, from every status."""
    steps = {"acknowledge": {}, "rule": {"text": "ruled"}, "resolve": {}}
    paths: list[list[str]] = [[], ["acknowledge"], ["rule"], ["acknowledge", "rule"],
                              ["resolve"], ["rule", "resolve"]]
    for path in paths:
        for op, extra in steps.items():
            room = make_room()
            alert = insufficient_bid(Tables(room))
            for done in path:
                apply(room, {"op": done, "id": alert.id, **steps[done]}, START)
            before = room.alerts[alert.id]
            try:
                parse_command({"op": op, "id": alert.id, **extra}, room)
            except AlertError as err:
                assert "already" in str(err)
                with pytest.raises(AlertError):     # the book refuses it too
                    room.fact(COMMANDS[op][0], {"id": alert.id, **extra}, START + 1)
                assert room.alerts[alert.id] == before
            else:
                room.fact(COMMANDS[op][0], {"id": alert.id, **extra}, START + 1)


# Bad input ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("obj", "code", "words"), [
    ([], "malformed", "JSON object"),
    ("acknowledge", "malformed", "JSON object"),
    (None, "malformed", "JSON object"),
    ({}, "malformed", "'op'"),
    ({"op": 3}, "malformed", "'op'"),
    ({"op": "adjust", "id": "x"}, "unknown_command", "'adjust'"),
    ({"op": "acknowledge", "id": "x", "v": 2}, "unsupported_version", "version 2"),
    ({"op": "acknowledge", "id": "x", "v": True}, "unsupported_version", "version True"),
    ({"op": "acknowledge"}, "malformed", "missing field 'id'"),
    ({"op": "acknowledge", "id": 7}, "malformed", "'id' must be a string"),
    ({"op": "acknowledge", "id": "x", "txt": "hi"}, "malformed", "unknown field(s) txt"),
    ({"op": "acknowledge", "id": "no spaces allowed"}, "malformed", "is not [A-Za-z0-9_.-]"),
    ({"op": "rule", "id": "A1-1-insufficient_bid-1"}, "malformed", "missing field 'text'"),
    ({"op": "rule", "id": "A1-1-insufficient_bid-1", "text": "x", "score": 60}, "malformed",
     "'score' must be an object"),
    ({"op": "rule", "id": "A1-1-insufficient_bid-1", "text": "x" * (MAX_TEXT + 1)},
     "malformed", f"limit {MAX_TEXT}"),
    ({"op": "rule", "id": "A1-1-insufficient_bid-1", "text": "x",
      "score": {"note": "y" * 5000}}, "malformed", "score of"),
    ({"op": "resolve", "id": "A1-1-insufficient_bid-1", "text": ["a"]}, "malformed",
     "'text' must be a string"),
    ({"op": "round_start"}, "malformed", "missing field 'round'"),
    ({"op": "round_start", "round": "2"}, "malformed", "'round' must be an integer"),
    ({"op": "round_start", "round": 2.0}, "malformed", "'round' must be an integer"),
    ({"op": "round_start", "round": True}, "malformed", "'round' must be an integer"),
    ({"op": "table_mode", "table": "A1"}, "malformed", "missing field 'strict'"),
    ({"op": "table_mode", "table": "A1", "strict": 1}, "malformed", "'strict' must be true"),
])
def test_malformed_commands_are_refused(room_alert: tuple[Room, Alert], obj: Any, code: str,
                                        words: str) -> None:
    room, alert = room_alert
    before = room.snapshot()
    with pytest.raises(ProtocolError) as err:
        parse_command(obj, room)
    assert err.value.code == code and words in err.value.reason, err.value.reason
    assert room.snapshot() == before and room.alerts[alert.id] == alert


@pytest.mark.parametrize(("obj", "error", "words"), [
    ({"op": "acknowledge", "id": "A9-1-revoke-1"}, AlertError, "no alert 'A9-1-revoke-1'"),
    ({"op": "rule", "id": "A1-1-insufficient_bid-1", "text": " "}, AlertError,
     "a ruling needs a text"),
    ({"op": "round_start", "round": 0}, ConfigError, "rounds start at 1"),
    ({"op": "round_start", "round": 6}, ConfigError, "beyond the movement (5 rounds)"),
    ({"op": "table_mode", "table": "B1", "strict": True}, ConfigError, "no table 'B1'"),
])
def test_commands_that_make_no_sense_in_this_room(room_alert: tuple[Room, Alert], obj: Any,
                                                 error: type[Exception], words: str) -> None:
    room, alert = room_alert
    before = room.snapshot()
    with pytest.raises(error) as err:
        parse_command(obj, room)
    assert words in str(err.value)
    assert room.snapshot() == before and room.alerts[alert.id] == alert


def test_a_round_before_the_one_in_progress_is_refused() -> None:
    room = make_room()
    room.start_round(3, START + 1800)
    with pytest.raises(ConfigError, match=r"round 2 is before the round in progress \(3\)"):
        parse_command({"op": "round_start", "round": 2}, room)
    assert room.clock.round == 3


def test_acknowledging_twice_is_refused_and_keeps_the_first_time(
        room_alert: tuple[Room, Alert]) -> None:
    room, alert = room_alert
    apply(room, {"op": "acknowledge", "id": alert.id}, START + 10)
    with pytest.raises(AlertError, match="already acknowledged"):
        parse_command({"op": "acknowledge", "id": alert.id}, room)
    assert room.alerts[alert.id].acknowledged_at == START + 10


@pytest.mark.parametrize(("command", "code"), [
    ({"op": "rule", "id": "A1-1", "text": "a\ud800b"}, "malformed"),        # not text
    ({"op": "rule", "id": "A1-1", "text": "ok", "score": {"a": [[[[[[[[[1]]]]]]]]]}},
     "malformed"),                                                          # too deep
    ({"op": "resolve", "id": "A1-1", "text": "x" * 70_000}, "too_large"),
    ({"op": "round_start", "round": float("nan")}, "malformed"),
    ({"op": "acknowledge", "id": "A1-1", "by": "director"}, "malformed"),   # by: the hub's
])
def test_a_command_the_log_could_not_keep_is_refused_before_anything(
        room_alert: tuple[Room, Alert], command: dict[str, Any], code: str) -> None:
    room, _ = room_alert
    before = room.snapshot()
    with pytest.raises(ProtocolError) as err:
        parse_command(command, room, "director")
    assert err.value.code == code and err.value.reason
    assert room.snapshot() == before


def test_the_fact_names_the_account_the_console_by_default(room_alert: tuple[Room, Alert]
                                                           ) -> None:
    room, alert = room_alert
    assert parse_command({"op": "acknowledge", "id": alert.id}, room)[1]["by"] == "console"
    fact, body = parse_command({"op": "ruling", "kind": "artificial", "table": "A1",
                                "board": 1, "ns": "A+", "ew": "A-"}, room, "scorer")
    assert fact == "ruling" and body["by"] == "scorer"
    room.fact(fact, body, START)
    assert room.scoring.rulings_json()[0]["by"] == "scorer"
    with pytest.raises(ValueError, match="account"):
        parse_command({"op": "acknowledge", "id": alert.id}, room, "")


def test_the_console_shows_who_ruled(room_alert: tuple[Room, Alert]) -> None:
    from hub.console_views import alert_summary
    room, alert = room_alert
    assert alert_summary(room.alerts[alert.id])["ruled_by"] is None
    apply(room, {"op": "rule", "id": alert.id, "text": "27B1"}, START + 5, "scorer")
    assert alert_summary(room.alerts[alert.id])["ruled_by"] == "scorer"
    apply(room, {"op": "rule", "id": alert.id, "text": "27B1(b)"}, START + 9)
    assert alert_summary(room.alerts[alert.id])["ruled_by"] == "director"
