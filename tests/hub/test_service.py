"""The hub service (hub/service.py) against real brokers: events in over MQTT, replies,
retained views, alerts to the director, results, the log, and bad input."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from bridgecore.cards import Seat
from hub.room import Room, Section
from hub.service import SETUP_FACT, Hub, HubRunner, data_log
from tenace.sim.devices import DeviceEvent
from tenace.sim.driver import run_tables
from tenace.sim.observer import Observer
from tests.hub.test_table import DEALS, MOVEMENT
from wire.mqtt import Message, MqttClient
from wire.protocol import Envelope, Reply, topic_event, topic_seat, topic_state

T0 = time.time()


class MitchellSetup:
    """Three tables of the Mitchell the table tests use, with their deals."""

    def to_json(self) -> dict[str, Any]:
        return {"test": "mitchell-3", "boards": sorted(DEALS)}

    def build_room(self) -> Room:
        return Room(Section("A", MOVEMENT), DEALS)


def loader(obj: dict[str, Any]) -> MitchellSetup:
    assert obj == MitchellSetup().to_json()
    return MitchellSetup()


def hub_on(url: str, folder: Path, **kw: Any) -> Hub:
    return Hub(data_log(folder), url=url, setup=MitchellSetup(), setup_loader=loader,
               tick_seconds=0.2, **kw)


def ev(type: str, device: str = "A1-tab", **body: Any) -> DeviceEvent:
    return DeviceEvent("A1", device, type, body, time.time())


def revoke_script() -> list[DeviceEvent]:
    """Board 1 at A1: 1H by South; East ruffs a spade holding spades (Law 61)."""
    out = [ev("checkin", direction="NS", pair=1), ev("checkin", direction="EW", pair=4),
           ev("board", board=1)]
    for seat, call in zip("NESW" * 2, ("Pass", "Pass", "1H", "Pass", "Pass", "Pass"),
                          strict=False):
        out.append(ev("call", seat=seat, call=call))
    for seat, card in (("W", "S2"), ("N", "SA"), ("E", "ST"), ("S", "S3"), ("N", "SK"),
                       ("E", "H9")):
        out.append(ev("card", "A1-rdr", seat=seat, card=card, source="reader"))
    return out


def listen(url: str, *filters: str, account: str = "tenace-hub.observer") -> MqttClient:
    """A client that may read (and write) everything: a hub-role account of the tests."""
    client = MqttClient(url, account, clean_session=True, start=False)
    for f in filters:
        client.subscribe(f, 1, wait=False)
    client.start().wait_connected()
    return client


def drain(client: MqttClient, settle: float = 0.3) -> list[Message]:
    out: list[Message] = []
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            out.append(client.messages.get(timeout=settle))
        except Exception:
            break
    return out


def test_law_61_revoke_reaches_the_director_and_never_the_table(broker_url: str,
                                                                tmp_path: Path) -> None:
    hub = hub_on(broker_url, tmp_path)
    with HubRunner(hub) as running, Observer(broker_url) as director:
        table_side = listen(broker_url, "tenace/v1/t/A1/#")
        runs = run_tables(broker_url, {"A1": revoke_script()})
        assert runs["A1"].codes == {"ok": len(revoke_script())}
        director.settle()
        revokes = [a for a in director.alert_list() if a["kind"] == "revoke"]
        assert len(revokes) == 1 and revokes[0]["law"] == "61" and revokes[0]["table"] == "A1"
        assert revokes[0]["seats"] == ["E"] and revokes[0]["evidence"]["contract"] == "1H"
        seen = drain(table_side)
        assert not any("alert" in m.topic or b"revoke" in m.payload for m in seen)
        state = json.loads([m for m in seen if m.topic == topic_state("A1")][-1].payload)
        assert state["phase"] == "play" and state["dummy"]["seat"] == "N"
        south = json.loads([m for m in seen if m.topic == topic_seat("A1", "S")][-1].payload)
        dealt = {str(c) for c in DEALS[1][Seat.SOUTH]}
        assert len(south["hand"]) == 12 and set(south["hand"]) == dealt - {"S3"}
        table_side.close()
        snapshot = running.call(hub.room.snapshot)
    # Everything accepted is in the log: a fresh room rebuilt from it is the same room.
    with data_log(tmp_path) as stored:
        records = list(stored.replay())
        assert records[0].type == SETUP_FACT
        assert sum(r.source == "device" for r in records) == len(revoke_script())
        rebuilt = MitchellSetup().build_room().rebuild(records[1:])
    assert rebuilt.snapshot() == snapshot


def test_bad_input_is_rejected_with_a_reason_and_nothing_accepted_is_lost(
        broker_url: str, tmp_path: Path) -> None:
    hub = hub_on(broker_url, tmp_path)
    with HubRunner(hub) as running:
        run_tables(broker_url, {"A1": revoke_script()[:3]})
        device = listen(broker_url, "tenace/v1/t/+/reply/#")
        topic = topic_event("A1", "A1-tab")
        now = time.time()
        good = Envelope("x-1", "A1-tab", 100, now, "call", {"seat": "N", "call": "Pass"})
        cases = [
            (b"{not json", "malformed"),
            (json.dumps({"v": 2, "id": "x-2"}).encode(), "unsupported_version"),
            (Envelope("x-3", "A1-other", 101, now, "call", {"seat": "N", "call": "1C"}
                      ).to_json().encode(), "device_mismatch"),
            (Envelope("x-4", "A1-tab", 102, now - 3600, "call", {"seat": "N", "call": "1C"}
                      ).to_json().encode(), "clock_skew"),
            (Envelope("x-5", "A1-tab", 103, now, "fly", {}).to_json().encode(),
             "unknown_type"),
            (good.to_json().encode(), "ok"),
            (good.to_json().encode(), "duplicate"),
            (Envelope("x-6", "A1-tab", 99, now, "call", {"seat": "E", "call": "Pass"}
                      ).to_json().encode(), "out_of_order"),
        ]
        for payload, _ in cases:
            device.publish(topic, payload, 1)
        # A device of A1 publishing under A2's topic: bound to its table.
        device.publish(topic_event("A2", "A1-tab"), Envelope(
            "x-7", "A1-tab", 104, now, "call", {"seat": "N", "call": "1C"}).to_json(), 1)
        replies = [Reply.from_json(m.payload) for m in drain(device)]
        codes = [r.code for r in replies]
        assert codes == [c for _, c in cases] + ["wrong_table"], replies
        assert all(r.reason for r in replies if r.status == "reject")
        device.close()
        assert running.call(lambda: hub.stats.accepted) == 4
        auction = running.call(lambda: hub.room.tables["A1"].public_state()["auction"])
        assert [e["call"] for e in auction] == ["Pass"]
    with data_log(tmp_path) as stored:
        assert [r.type for r in stored.replay() if r.source == "device"] == [
            "checkin", "checkin", "board", "call"]


def test_restart_rebuilds_every_table_and_republishes_its_state(broker_url: str,
                                                                tmp_path: Path) -> None:
    with HubRunner(hub_on(broker_url, tmp_path)) as first:
        run_tables(broker_url, {"A1": revoke_script()})
        before = first.call(first.room.snapshot)
    second = Hub(data_log(tmp_path), url=broker_url, setup_loader=loader)
    assert second.room.snapshot() == before
    with HubRunner(second):
        viewer = listen(broker_url, topic_state("A1"))
        state = json.loads(drain(viewer)[-1].payload)
        viewer.close()
    assert state["board"] == 1 and state["trick"]["number"] == 2


def test_a_device_gone_offline_is_reported_to_the_director(broker_url: str,
                                                           tmp_path: Path) -> None:
    with HubRunner(hub_on(broker_url, tmp_path)), Observer(broker_url) as director:
        status = "tenace/v1/t/A2/dev/A2-tab/status"
        tablet = MqttClient(broker_url, "A2-tab", will=(status, '{"online":false}', 1, True),
                            birth=(status, '{"online":true}', 1, True)).wait_connected()
        tablet._break_connection()   # a network failure: the broker sends the will
        tablet.close(farewell=False)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not director.alert_list():
            time.sleep(0.05)
        director.settle()
        alerts = director.alert_list()
    assert [a["kind"] for a in alerts] == ["device_offline"]
    assert alerts[0]["table"] == "A2" and alerts[0]["facts"]["device"] == "A2-tab"


def test_a_new_event_needs_a_new_data_directory(tmp_path: Path) -> None:
    Hub(data_log(tmp_path), url="mqtt://127.0.0.1:1", setup=MitchellSetup(),
        setup_loader=loader).log.close()

    class Other(MitchellSetup):
        def to_json(self) -> dict[str, Any]:
            return {"test": "another event"}

    with pytest.raises(Exception, match="holds another event"):
        Hub(data_log(tmp_path), url="mqtt://127.0.0.1:1", setup=Other(), setup_loader=loader)


def http(url: str, body: dict[str, Any] | None = None) -> Any:
    import urllib.error
    import urllib.request
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if body is None else "POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as err:   # a refusal: 4xx with the reason as JSON
        with err:
            return dict(json.loads(err.read()), http_status=err.code)


def test_law_9_the_director_acknowledges_from_the_console_and_it_is_logged(
        mosquitto: Any, tmp_path: Path) -> None:
    """Laws 9, 10, 81: the alert reaches the console; the director's acknowledgement is
    recorded with its time, logged, republished, and survives a restart."""
    hub = hub_on(mosquitto.url, tmp_path, console=("127.0.0.1", 0))
    with HubRunner(hub), Observer(mosquitto.url) as director:
        run_tables(mosquitto.url, {"A1": revoke_script()})
        base = hub.console.url.rstrip("/")
        room = http(f"{base}/api/room")
        a1 = next(t for t in room["tables"] if t["id"] == "A1")
        assert a1["status"] == "alert" and a1["alerts"] == 1
        (alert_id,) = [a["id"] for a in room["alerts"] if a["kind"] == "revoke"]
        assert http(f"{base}/api/alert/{alert_id}")["evidence"]["contract"] == "1H"
        assert http(f"{base}/api/director", {"op": "acknowledge", "id": alert_id})["ok"]
        refused = http(f"{base}/api/director", {"op": "acknowledge", "id": alert_id})
        assert refused["http_status"] == 400 and refused["ok"] is False
        assert refused["error"]
        director.settle()
        seen = director.alerts[alert_id]
        assert seen["status"] == "acknowledged" and seen["acknowledged_at"] >= seen["detected"]
    with data_log(tmp_path) as stored:
        facts = [r for r in stored.replay() if r.source == "director"]
    assert [(r.type, r.data()) for r in facts] == [("alert_acknowledge", {"id": alert_id})]
    again = Hub(data_log(tmp_path), url=mosquitto.url, setup_loader=loader)
    assert again.room.alerts[alert_id].acknowledged_at == seen["acknowledged_at"]
