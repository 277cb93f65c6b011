"""The probes of issue 23, each against a live hub on both brokers (embedded amqtt and
Mosquitto), as tests/hub/test_hostile.py runs its hostile messages: what an attacker on the
club's network, or holding a paired device, tried and must not get.

* A board not scheduled at a table shows nothing of itself there (no hand, no deal, no
  traveller, no other table's result) until the director allows it (hub.withheld).
* A 1e308 % penalty, and every other number out of bounds in a ruling, is refused with a
  reason, and nothing the hub publishes or serves holds NaN or Infinity.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bridgecore.cards import Seat
from hub.service import Hub, HubRunner, data_log
from hub.withheld import message as withheld_message
from tenace.sim.devices import DeviceEvent
from tenace.sim.driver import run_tables
from tests.hub.test_service import drain, hub_on, listen, wait_until
from tests.hub.test_table import DEALS
from wire.mqtt import MqttClient
from wire.protocol import Envelope, Reply, topic_event, topic_hub_command, topic_seat, topic_state


def event(table: str, device: str, type: str, **body: Any) -> DeviceEvent:
    return DeviceEvent(table, device, type, body, time.time())


def passed_out(table: str, pairs: tuple[int, int], board: int) -> list[DeviceEvent]:
    tab = f"{table}-tab"
    return [event(table, tab, "checkin", direction="NS", pair=pairs[0]),
            event(table, tab, "checkin", direction="EW", pair=pairs[1]),
            event(table, tab, "board", board=board),
            *(event(table, tab, "call", seat=s, call="Pass") for s in "NESW")]


@dataclass
class Attacker:
    """A client that publishes a device's events itself and reads every reply and view of
    its table (a hub-role account of the tests: it sees what each seat's account may)."""

    client: MqttClient
    table: str
    seq: int = 0
    seen: list[Any] = field(default_factory=list)   # every message but the replies

    def drain(self, settle: float) -> list[Any]:
        out, self.seen = [*self.seen, *drain(self.client, settle)], []
        return out

    def send(self, device: str, type: str, **body: Any) -> Reply:
        self.seq += 1
        env = Envelope(f"atk-{device}-{self.seq}", device, self.seq, time.time(), type, body)
        self.client.publish(topic_event(self.table, device), env.to_json(), 1)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            message = self.client.messages.get(timeout=15)
            if "/reply/" in message.topic:
                reply = Reply.from_json(message.payload)
                if reply.ref == env.id:
                    return reply
            else:
                self.seen.append(message)
        raise AssertionError(f"no reply to {type} {body}")


@pytest.fixture
def running(broker_url: str, tmp_path: Path) -> Iterator[tuple[Hub, HubRunner]]:
    hub = hub_on(broker_url, tmp_path)
    with HubRunner(hub) as runner:
        yield hub, runner


def views(messages: list[Any], table: str) -> tuple[list[dict[str, Any]],
                                                     dict[str, list[dict[str, Any]]]]:
    states = [json.loads(m.payload) for m in messages
              if m.topic == topic_state(table) and m.payload]
    seats = {x.letter: [json.loads(m.payload) for m in messages
                        if m.topic == topic_seat(table, x.letter) and m.payload] for x in Seat}
    return states, seats


def test_law_15_a_board_not_scheduled_here_shows_nothing_until_the_director_allows_it(
        broker_url: str, running: tuple[Hub, HubRunner], tmp_path: Path) -> None:
    """Board 5 is A3's in round 1 (A2 has 3-4). A3 plays it; then A2's table tablet
    announces board 5 and passes it out in four taps. No view A2's devices read holds a
    hand of board 5, its deal, the traveller or A3's result; the table is told "board 5 is
    not yours this round: the director is called", and the director gets ``wrong_board``.
    Once the director allows it (``allow_board``, logged with ``by``), the board shows."""
    hub, runner = running
    assert run_tables(broker_url, {"A3": passed_out("A3", (3, 6), 5)})["A3"].codes == {"ok": 7}
    spy = listen(broker_url, "tenace/v1/t/A2/#")
    attacker = Attacker(spy, "A2")
    try:
        attacker.send("A2-tab", "checkin", direction="NS", pair=2)
        attacker.send("A2-tab", "checkin", direction="EW", pair=5)
        attacker.drain(0.5)
        reply = attacker.send("A2-tab", "board", board=5)
        assert (reply.status, reply.notice) == ("ack", "wrong_board")
        assert reply.reason == withheld_message(5) == \
            "board 5 is not yours this round: the director is called"
        # North's own tablet asks for its hand: nothing (a seat tablet announcing too).
        for seat in "NESW":
            assert attacker.send("A2-tab", "call", seat=seat, call="Pass").status == "ack"
        states, seats = views(attacker.drain(1.0), "A2")
        assert states and all(s.get("board") == 5 for s in states)
        dealt = {str(c) for x in Seat for c in DEALS[5][x]}
        for state in states:
            assert state["withheld"] == withheld_message(5)
            for key in ("deal", "traveller", "percentage", "imps", "field", "dd", "dummy"):
                assert key not in state, (key, state)
            text = json.dumps(state)
            assert not any(f'"{c}"' in text for c in dealt), "a card of the deal shown"
        assert states[-1]["phase"] == "over"     # passed out, and still nothing of it
        for seat, seen in seats.items():
            for view in seen:
                if view["board"] == 5:
                    assert view["hand"] == [] and view["withheld"], (seat, view)
        alerts = runner.call(lambda: [a for a in hub.room.alerts.open()
                                      if a.kind == "wrong_board"])
        assert [(a.table, a.board) for a in alerts] == [("A2", 5)]
        # The director allows it: the board is shown there as any other.
        spy.publish(topic_hub_command("director"),
                    json.dumps({"op": "allow_board", "table": "A2", "board": 5}), 1, wait=True)

        def shown() -> Any:
            states, _ = views(attacker.drain(0.2), "A2")
            return [s for s in states if "deal" in s]

        after = wait_until(shown)
        assert after and "withheld" not in after[-1]
        assert [r["table"] for r in after[-1]["traveller"]] == ["A2", "A3"]
    finally:
        spy.close()
    with data_log(tmp_path) as stored:
        allowed = [r.data() for r in stored.replay() if r.type == "board_allowed"]
    assert allowed == [{"table": "A2", "board": 5, "round": 1, "by": "director"}]


def test_a_board_of_its_own_schedule_or_of_a_late_round_is_never_withheld(
        broker_url: str, running: tuple[Hub, HubRunner]) -> None:
    """The control costs the honest table nothing: A2's own board 3 shows its hands."""
    hub, runner = running
    assert run_tables(broker_url, {"A2": passed_out("A2", (2, 5), 3)[:3]})["A2"].codes == \
        {"ok": 3}
    hands = runner.call(lambda: hub.room.tables["A2"].seat_view(Seat.NORTH))
    assert len(hands["hand"]) == 13 and "withheld" not in hands
