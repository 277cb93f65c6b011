"""A club hub's results relayed to the event (hub.simultaneous.relay), on a real Mosquitto: the
hub's ``result/{table}/{round}/{board}`` become the event's results with stable ids, a board is
``finished`` once the club's tables have all played it, a malformed hub result is skipped."""

from __future__ import annotations

import json
import time
from pathlib import Path

from hub.mosquitto import Mosquitto
from hub.simultaneous.club import ClubLink
from hub.simultaneous.event import generate_key, load_public_key, public_pem
from hub.simultaneous.relay import ClubRelay
from tests.hub.simultaneous.helpers import write_accounts
from wire.mqtt import Message, MqttClient
from wire.protocol import topic_result, topic_traveller

PASSWORD = "club-local-secret-0123456789"


def _hub_result(table: str, rnd: int, board: int, ns: int, ew: int, score: int) -> bytes:
    return json.dumps({"contract": "3NT", "declarer": "S", "tricks": 9, "score_ns": score,
                       "tricks_rectified": 9, "score_ns_rectified": score, "table": table,
                       "round": rnd, "board": board, "pairs": {"NS": ns, "EW": ew},
                       "confirmed": True, "ended": 1780000300.5}).encode()


def test_the_hubs_results_become_the_events(tmp_path: Path) -> None:
    names = ("tenace-hub", "sim-link", "watch")
    lines = write_accounts(tmp_path / "acc", {n: (PASSWORD, ["topic readwrite #"])
                                              for n in names})
    seen: list[Message] = []
    with Mosquitto(tmp_path / "broker", lines, open_access=True) as broker:
        url = broker.url.replace("mqtt://", "mqtt://{}:" + PASSWORD + "@")
        watch = MqttClient(url.format("watch"), "watch", clean_session=True,
                           on_message=seen.append)
        watch.wait_connected()
        watch.subscribe("tenace/sim/#")
        link = ClubLink("spring", "lyon", url.format("sim-link"),
                        load_public_key(public_pem(generate_key())),
                        client_id="sim-link").start()
        relay = ClubRelay(link, {1: 2, 2: 1}).start()
        hub = MqttClient(url.format("tenace-hub"), "tenace-hub", clean_session=True)
        hub.wait_connected()
        try:
            hub.publish(topic_result("A1", 1, 1), _hub_result("A1", 1, 1, 1, 4, 400),
                        retain=True, wait=True)
            hub.publish(topic_result("A1", 1, 1), _hub_result("A1", 1, 1, 1, 4, 400),
                        retain=True, wait=True)               # published again: same id
            hub.publish(topic_result("A2", 1, 2), b"{not json", retain=True, wait=True)
            hub.publish(topic_result("A2", 2, 1), _hub_result("A2", 2, 1, 2, 3, -100),
                        retain=True, wait=True)
            hub.publish(topic_result("A3", 1, 2), _hub_result("A3", 1, 2, 3, 6, 110),
                        retain=True, wait=True)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and sum(
                    m.topic.endswith("/finished") for m in seen) < 2:
                time.sleep(0.05)
        finally:
            for client in (relay, link, hub, watch):
                client.close()
    results = [json.loads(m.payload) for m in seen if m.topic.endswith("/result")]
    assert [r["id"] for r in results] == ["A1-1-1", "A1-1-1", "A2-2-1", "A3-1-2"]
    assert results[2] == {"v": 1, "id": "A2-2-1", "board": 1, "ns": 2, "ew": 3,
                          "score_ns": -100}
    finished = [json.loads(m.payload) for m in seen if m.topic.endswith("/finished")]
    assert finished == [{"v": 1, "board": 1, "results": 2}, {"v": 1, "board": 2, "results": 1}]
    assert all(m.topic.startswith("tenace/sim/v1/spring/lyon/") for m in seen)


def _traveller(board: int, rows: list[tuple[str, int, int]]) -> bytes:
    """A traveller (protocol 12.3) with each (table, round, form) line."""
    return json.dumps({"v": 1, "section": "A", "key": "A", "board": board, "method": "mp",
                       "fouled": any(f for _, _, f in rows),
                       "results": [{"table": t, "round": r, "NS": 1, "EW": 4,
                                    "contract": "3NT", "score_ns": 400, "form": f}
                                   for t, r, f in rows]}).encode()


def test_a_fouled_boards_form_goes_out_as_its_version_law_87(tmp_path: Path) -> None:
    names = ("tenace-hub", "sim-link", "watch")
    lines = write_accounts(tmp_path / "acc", {n: (PASSWORD, ["topic readwrite #"])
                                              for n in names})
    seen: list[Message] = []
    with Mosquitto(tmp_path / "broker", lines, open_access=True) as broker:
        url = broker.url.replace("mqtt://", "mqtt://{}:" + PASSWORD + "@")
        watch = MqttClient(url.format("watch"), "watch", clean_session=True,
                           on_message=seen.append)
        watch.wait_connected()
        watch.subscribe("tenace/sim/#")
        link = ClubLink("spring", "lyon", url.format("sim-link"),
                        load_public_key(public_pem(generate_key())),
                        client_id="sim-link").start()
        relay = ClubRelay(link, 3).start()
        hub = MqttClient(url.format("tenace-hub"), "tenace-hub", clean_session=True)
        hub.wait_connected()
        try:
            hub.publish(topic_result("A1", 1, 1), _hub_result("A1", 1, 1, 1, 4, 400),
                        retain=True, wait=True)
            hub.publish(topic_result("A2", 1, 1), _hub_result("A2", 1, 1, 2, 5, 420),
                        retain=True, wait=True)
            # The director rules board 1 fouled: A2 played a changed form (the traveller).
            hub.publish(topic_traveller("A", 1), _traveller(1, [("A1", 1, 0), ("A2", 1, 1),
                                                               ("A3", 1, 1)]),
                        retain=True, wait=True)
            hub.publish(topic_result("A3", 1, 1), _hub_result("A3", 1, 1, 3, 6, -50),
                        retain=True, wait=True)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not any(
                    m.topic.endswith("/finished") for m in seen):
                time.sleep(0.05)
        finally:
            for client in (relay, link, hub, watch):
                client.close()
    results = [json.loads(m.payload) for m in seen if m.topic.endswith("/result")]
    assert [(r["id"], r.get("version")) for r in results] == [
        ("A1-1-1", None), ("A2-1-1", None), ("A2-1-1", "form-1"), ("A3-1-1", "form-1")]
