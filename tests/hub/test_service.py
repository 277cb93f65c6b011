"""The hub service (hub/service.py) against real brokers: events in over MQTT, replies,
retained views, alerts to the director, results, the log, and bad input."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from bridgecore.cards import Seat
from hub.room import Room, Section
from hub.service import SETUP_FACT, Hub, HubRunner, data_log
from hub.store import LOG_NAME
from tenace.sim.devices import DeviceEvent
from tenace.sim.driver import run_tables
from tenace.sim.observer import Observer
from tests.hub.test_table import DEALS, MOVEMENT
from wire.mqtt import Message, MqttClient
from wire.protocol import (
    ROOT,
    Envelope,
    Reply,
    topic_event,
    topic_hub_command,
    topic_hub_status,
    topic_seat,
    topic_state,
)

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
        assert revokes[0]["text"]["key"] == "irr.revoke"        # a message (protocol 1)
        assert revokes[0]["text"]["values"]["seat"] == "E"
        seen = drain(table_side)
        assert not any("alert" in m.topic or b"revoke" in m.payload for m in seen)
        state = json.loads([m for m in seen if m.topic == topic_state("A1")][-1].payload)
        assert state["phase"] == "play" and state["dummy"]["seat"] == "N"
        south = json.loads([m for m in seen if m.topic == topic_seat("A1", "S")][-1].payload)
        dealt = {str(c) for c in DEALS[1][Seat.SOUTH]}
        assert len(south["hand"]) == 12 and set(south["hand"]) == dealt - {"S3"}
        table_side.close()
        wait_farewells(hub, 2)    # else one logged after the snapshot is not in it
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


def wait_farewells(hub: Hub, devices: int) -> None:
    """Wait until the hub has all ``devices`` and has logged each one's farewell (issue 25),
    which the simulator's devices send as their scripts end: one that comes after the hub
    stopped is a ``device_offline`` the next run logs. The ceiling is a guard only."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not hub.call(
            lambda: len(hub.room.devices) == devices
            and not any(d.online for d in hub.room.devices.values())):
        time.sleep(0.05)


def test_restart_rebuilds_every_table_and_republishes_its_state(broker_url: str,
                                                                tmp_path: Path) -> None:
    with HubRunner(hub_on(broker_url, tmp_path)) as first:
        run_tables(broker_url, {"A1": revoke_script()})
        wait_farewells(first, 2)
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
    with HubRunner(hub_on(broker_url, tmp_path, offline_grace=0.5)), \
            Observer(broker_url) as director:
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


def http(url: str, body: dict[str, Any] | None = None, session: Any = None) -> Any:
    """GET (or POST ``body``) as JSON, with ``session`` (:func:`console_login`)."""
    import urllib.error
    import urllib.request
    opener, csrf = session or (urllib.request.build_opener(), "")
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if body is None else "POST",
                                     headers={"Content-Type": "application/json",
                                              "X-CSRF-Token": csrf})
    try:
        with opener.open(request, timeout=10) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as err:   # a refusal: 4xx with the reason as JSON
        with err:
            return dict(json.loads(err.read()), http_status=err.code)


def console_login(base: str, name: str, password: str) -> tuple[Any, str]:
    """A console session (hub.console): its cookie opener and its CSRF token."""
    import urllib.request
    from http.cookiejar import CookieJar
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    done = http(f"{base}/api/login", {"name": name, "password": password}, (opener, ""))
    return opener, done["csrf"]


def test_law_9_the_director_acknowledges_from_the_console_and_it_is_logged(
        mosquitto: Any, tmp_path: Path) -> None:
    """Laws 9, 10, 81: the alert reaches the console; the director's acknowledgement is
    recorded with its time and his name, logged, republished, and survives a restart."""
    from argon2 import PasswordHasher

    from hub.users import UserStore
    users = UserStore.in_directory(tmp_path / "console", hasher=PasswordHasher(
        time_cost=1, memory_cost=1024, parallelism=1))
    users.add("dora", "director", "director-pass-1")
    hub = hub_on(mosquitto.url, tmp_path, console=("127.0.0.1", 0),
                 console_options={"users": users})
    with HubRunner(hub), Observer(mosquitto.url) as director:
        run_tables(mosquitto.url, {"A1": revoke_script()})
        wait_farewells(hub, 2)    # they come after the scripts' last replies
        base = hub.console.url.rstrip("/")
        dora = console_login(base, "dora", "director-pass-1")
        room = http(f"{base}/api/room", session=dora)
        a1 = next(t for t in room["tables"] if t["id"] == "A1")
        # the simulator has left (its devices' farewell, issue 25): the table reads offline,
        # its alert still open
        assert a1["status"] == "offline" and a1["alerts"] == 1
        (alert_id,) = [a["id"] for a in room["alerts"] if a["kind"] == "revoke"]
        assert http(f"{base}/api/alert/{alert_id}", session=dora)["evidence"]["contract"] == "1H"
        assert http(f"{base}/api/director", {"op": "acknowledge", "id": alert_id}, dora)["ok"]
        refused = http(f"{base}/api/director", {"op": "acknowledge", "id": alert_id}, dora)
        assert refused["http_status"] == 400 and refused["ok"] is False
        assert refused["error"] == (f"Acknowledging the alert: alert {alert_id} is already "
                                    "acknowledged")
        # Her language chosen, the same refusal is worded in it; the text beside it is the
        # same key and values (hub.errors: a refusal is a text).
        assert http(f"{base}/api/i18n", {"language": "fr"}, dora).get("http_status") is None
        french = http(f"{base}/api/director", {"op": "acknowledge", "id": alert_id}, dora)
        assert french["http_status"] == 400 and french["error"] == (
            f"Prise en compte de l'alerte : l'alerte {alert_id} est déjà vue")
        assert french["error_text"] == refused["error_text"]
        assert french["error_text"]["key"] == "refusal.command"
        director.settle()
        seen = director.alerts[alert_id]
        assert seen["status"] == "acknowledged" and seen["acknowledged_at"] >= seen["detected"]
    with data_log(tmp_path) as stored:
        facts = [r for r in stored.replay() if r.source == "director"]
    assert [(r.type, r.data()) for r in facts] == [("alert_acknowledge",
                                                    {"id": alert_id, "by": "dora"})]
    again = Hub(data_log(tmp_path), url=mosquitto.url, setup_loader=loader)
    assert again.room.alerts[alert_id].acknowledged_at == seen["acknowledged_at"]


def wait_until(check: Any, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got or time.monotonic() > deadline:
            return got
        time.sleep(0.05)


def test_commands_name_their_account_and_other_accounts_are_refused(
        broker_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Director commands over MQTT come on hub/cmd/{account}: the director's and the
    scorer's are applied and the logged fact names them; the bare hub/cmd of earlier
    versions and any other account are refused with a log line, and counted in hub/status."""
    hub = hub_on(broker_url, tmp_path)
    with HubRunner(hub) as running:
        run_tables(broker_url, {"A1": revoke_script()})
        (alert_id,) = running.call(lambda: [a.id for a in hub.room.alerts.open()])
        tool = listen(broker_url, topic_hub_status())
        acknowledge = json.dumps({"op": "acknowledge", "id": alert_id})
        tool.publish(f"{ROOT}/hub/cmd", acknowledge, 1, wait=True)
        tool.publish(topic_hub_command("A1-N"), acknowledge, 1, wait=True)
        tool.publish(topic_hub_command("director"),
                     json.dumps({"op": "ack", "by": "director"}), 1, wait=True)
        tool.publish(topic_hub_command("director"), b"\x00\xff", 1, wait=True)
        tool.publish(topic_hub_command("director"),
                     json.dumps({"op": "rule", "id": alert_id, "text": "61B: established",
                                 "by": "scorer"}), 1, wait=True)   # by is the hub's to say
        tool.publish(topic_hub_command("director"),
                     json.dumps({"op": "rule", "id": alert_id, "text": "64A1: one trick"}),
                     1, wait=True)
        tool.publish(topic_hub_command("scorer"),
                     json.dumps({"op": "ruling", "kind": "artificial", "table": "A1",
                                 "board": 1, "ns": "A+", "ew": "A-"}), 1, wait=True)
        # a command the director may give, refused for what it asks (a round beyond the
        # movement): counted as a director's command refused, not as "refused refused"
        tool.publish(topic_hub_command("director"),
                     json.dumps({"op": "round_start", "round": 99}), 1, wait=True)

        def counted() -> Any:
            seen = [json.loads(m.payload) for m in drain(tool, 0.2) if m.payload]
            return [s for s in seen if s.get("counters", {}).get("refused", {}).get(
                "malformed") == 2]

        statuses = wait_until(counted)
        assert statuses, running.call(hub.stats.refused)
        status = statuses[-1]
        assert status["online"] and status["counters"]["refused"] == {
            "malformed": 2, "no_account": 1, "not_allowed": 1, "unknown_command": 1,
            "director_command": 1}
        assert status["counters"]["accepted"] == len(revoke_script())
        position, digest = running.call(hub.log.head)
        assert status["chain"] == f"{position}:{digest}" and "chain_broken" not in status
        ruling = running.call(lambda: hub.room.alerts[alert_id].ruling)
        assert ruling == {"text": "64A1: one trick", "by": "director"}
        (scored,) = running.call(hub.room.scoring.rulings_json)
        assert scored["by"] == "scorer" and scored["id"] == "R1"
        tool.close()
    messages = caplog.text
    assert "commands go to tenace/v1/hub/cmd/{account}" in messages
    assert "account 'A1-N' refused: only director and scorer" in messages
    with data_log(tmp_path) as stored:
        facts = [(r.type, r.data()["by"]) for r in stored.replay() if r.source == "director"]
        assert stored.verify().intact
    assert facts == [("alert_rule", "director"), ("ruling", "scorer")]


def test_a_broken_chain_is_told_at_start_and_never_stops_the_hub(
        mosquitto: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Someone edited a call in the log: the hub starts anyway, replays every record as
    stored, tells the director the position (log line, hub/status), takes new events."""
    with HubRunner(hub_on(mosquitto.url, tmp_path)) as first:
        run_tables(mosquitto.url, {"A1": revoke_script()[:5]})
        wait_farewells(first, 1)   # or a late one is a record of the next run
    with data_log(tmp_path) as stored:
        call = next(r for r in stored.replay() if r.type == "call")
        count = stored.count()
    raw = sqlite3.connect(tmp_path / LOG_NAME)
    raw.execute("DROP TRIGGER events_no_update")
    raw.execute("UPDATE events SET payload = replace(payload, '\"Pass\"', '\"1NT\"') "
                "WHERE position = ?", (call.position,))
    raw.commit()
    raw.close()
    again = Hub(data_log(tmp_path), url=mosquitto.url, setup_loader=loader)
    assert again.chain is not None and again.chain.broken_at == call.position
    assert f"BROKEN at position {call.position}" in caplog.text
    assert any(r.levelname == "CRITICAL" for r in caplog.records)
    with HubRunner(again) as running:
        status = listen(mosquitto.url, topic_hub_status())
        said = [json.loads(m.payload) for m in drain(status)]
        assert said and said[-1]["chain_broken"] == call.position
        status.close()
        auction = running.call(lambda: again.room.tables["A1"].public_state()["auction"])
        assert auction[0]["call"] == "1NT"            # replayed as stored: evidence kept
        device = listen(mosquitto.url, "tenace/v1/t/A1/reply/#")
        seq = running.call(lambda: again.room.devices["A1-tab"].last_seq) + 1
        device.publish(topic_event("A1", "A1-tab"), Envelope(
            "y-1", "A1-tab", seq, time.time(), "call", {"seat": "E", "call": "Pass"}
        ).to_json(), 1)
        assert [Reply.from_json(m.payload).code for m in drain(device)] == ["ok"]
        device.close()
    with data_log(tmp_path) as stored:
        assert stored.count() == count + 1 and stored.verify().broken_at == call.position
