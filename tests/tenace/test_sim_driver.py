"""The simulator's driver and observer (tenace/sim/driver.py, tenace/sim/observer.py) against
a real Mosquitto and a stand-in hub: each device speaks through wire.link.DeviceLink (an event
without a reply is sent again with the same id), and the observer's settle waits for what
was published before it, not for a quiet moment."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from hub.mosquitto import Mosquitto
from tenace.sim.devices import DeviceEvent
from tenace.sim.driver import run_tables
from tenace.sim.observer import Observer
from wire.mqtt import Message, MqttClient
from wire.protocol import Envelope, Reply, parse_topic, topic_alert, topic_reply


@pytest.fixture(scope="module")
def mosquitto(tmp_path_factory: pytest.TempPathFactory, keyring: Any) -> Iterator[Mosquitto]:
    with Mosquitto(tmp_path_factory.mktemp("mosquitto"), accounts=keyring.accounts) as broker:
        yield broker


class StandInHub:
    """Acknowledges every event, except that it ignores the first copy of the ids in
    ``drop_once`` (a lost reply, as far as the device can tell)."""

    def __init__(self, url: str, drop_once: set[str] | None = None):
        self.drop_once = set(drop_once or ())
        self.copies: list[Envelope] = []
        self.ids: dict[str, int] = {}
        self._lock = threading.Lock()
        self.client = MqttClient(url, "tenace-hub", clean_session=True, start=False,
                                 on_message=self._take)
        self.client.subscribe("tenace/v1/t/+/ev/+", 1, wait=False)
        self.client.start().wait_connected()

    def _take(self, message: Message) -> None:
        topic = parse_topic(message.topic)
        assert topic.table is not None and topic.device is not None
        env = Envelope.from_json(message.payload)
        with self._lock:
            self.copies.append(env)
            key = f"{env.type}:{env.body.get('call', '')}"
            if key in self.drop_once:
                self.drop_once.discard(key)
                return
            seen = self.ids.get(env.id, 0)
            self.ids[env.id] = seen + 1
        code = "ok" if seen == 0 else "duplicate"
        self.client.send(topic_reply(topic.table, topic.device),
                         Reply(env.id, env.seq, "ack", code).to_json(), 1)

    def close(self) -> None:
        self.client.close(farewell=False)


def script() -> list[DeviceEvent]:
    return [DeviceEvent("A1", "A1-tab", "checkin", {"direction": "NS", "pair": 1}, 100.0),
            DeviceEvent("A1", "A1-rdr", "card", {"seat": "W", "card": "SA",
                                                  "source": "reader"}, 101.0),
            DeviceEvent("A1", "A1-tab", "call", {"seat": "N", "call": "1C"}, 102.0),
            DeviceEvent("A1", "A1-tab", "call", {"seat": "E", "call": "Pass"}, 103.0)]


@pytest.mark.parametrize("mux", [False, True], ids=["threads", "one-loop"])
def test_each_device_sends_in_order_and_a_lost_reply_means_the_same_id_again(
        mosquitto: Mosquitto, mux: bool) -> None:
    """Threads per device, or every table on one wire.mux.LinkLoop thread: the same."""
    hub = StandInHub(mosquitto.url, drop_once={"call:1C"})
    try:
        # 3 s for a reply before the event goes again: the lost one does, a slow one (a
        # busy machine) should not.
        runs = run_tables(mosquitto.url, {"A1": script()}, timeout=3.0, retries=5, mux=mux,
                          connect_timeout=60.0)
    finally:
        hub.close()
    run = runs["A1"]
    assert run.codes == {"ok": 4} and not run.rejected
    assert (run.sent, run.resent) == (5, 1) and len(run.latencies) == 4
    # The device time of the script, no `sent` stamp; seq from 1 per device, in order.
    assert [(e.device, e.seq, e.time, e.sent) for e in hub.copies] == [
        ("A1-tab", 1, 100.0, None), ("A1-rdr", 1, 101.0, None), ("A1-tab", 2, 102.0, None),
        ("A1-tab", 2, 102.0, None), ("A1-tab", 3, 103.0, None)]
    assert hub.copies[2].id == hub.copies[3].id


def test_settle_sees_what_was_published_before_it_without_a_quiet_period(
        mosquitto: Mosquitto) -> None:
    """The alerts about an event reach the broker before its reply; once a device has its
    reply, the observer's settle must find them, however busy the machine (the marker round
    trip), even when asked for no quiet period at all."""
    publisher = MqttClient(mosquitto.url, "tenace-hub", clean_session=True).wait_connected()
    try:
        with Observer(mosquitto.url) as director:
            for n in range(30):
                alert: dict[str, Any] = {"id": f"a{n}", "kind": "revoke", "version": 1,
                                         "status": "open"}
                publisher.publish(topic_alert(f"a{n}"), json.dumps(alert), 1, wait=True)
                assert director.settle(quiet=0.0, limit=10.0)
                assert f"a{n}" in {a["id"] for a in director.alert_list()}
    finally:
        publisher.close(farewell=False)
