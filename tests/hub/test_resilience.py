"""The hub riding out damage and restarts (issue 16): a logged record it cannot apply is set
aside, a log behind its noted head is reported, sequence gaps are counted, a broker restart
raises no false ``device_offline`` and every retained topic comes back."""

from __future__ import annotations

import json
import logging
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hub.broker import EmbeddedBroker
from hub.log_records import Record
from hub.mosquitto import Mosquitto
from hub.service import Hub, HubRunner, data_log
from hub.store import LOG_NAME
from tenace.sim.driver import run_tables
from tenace.sim.observer import Observer
from tests.hub.test_service import MitchellSetup, drain, hub_on, listen, loader, revoke_script
from wire.mqtt import Message, MqttClient
from wire.protocol import Envelope, topic_event, topic_hub_status, topic_state

NOWHERE = "mqtt://127.0.0.1:1"     # no broker: the hub is only built (its log replayed)


def _wait(predicate: Callable[[], object], timeout: float = 30.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"not true after {timeout} s: {what or predicate}"
        time.sleep(0.05)


def _checkin(event_id: str, seq: int, direction: str, pair: int) -> Envelope:
    return Envelope(event_id, "A1-tab", seq, time.time(), "checkin",
                    {"direction": direction, "pair": pair})


def _new_log(folder: Path) -> None:
    Hub(data_log(folder), url=NOWHERE, setup=MitchellSetup(), setup_loader=loader).log.close()


def _damage(hub: Hub) -> list[Any]:
    return [a for a in hub.room.alerts if a.kind == "log_damage"]


# A damaged log --------------------------------------------------------------------------

def test_a_record_that_cannot_be_applied_is_set_aside_and_the_rest_rebuilt(
        tmp_path: Path) -> None:
    _new_log(tmp_path)
    with data_log(tmp_path) as log:
        log.append(Record.from_envelope(_checkin("c-1", 1, "NS", 1), "A1"))
        bad = log.append(Record.fact("round_start", {"round": "first"}))   # int() fails
        log.append(Record.from_envelope(_checkin("c-2", 2, "EW", 4), "A1"))
    hub = Hub(data_log(tmp_path), url=NOWHERE, setup_loader=loader)
    try:
        assert hub.set_aside == [bad]
        assert hub.room.snapshot()["events"] == 2           # both check-ins, around it
        [alert] = _damage(hub)
        assert alert.table == "hub" and alert.facts["position"] == bad
        assert alert.facts["problem"] == "set_aside" and "set aside" in alert.detail
        status = hub.status()
        assert status.set_aside == [bad]
        assert hub.log.get(f"hub:set-aside:{bad}") is not None        # the fact, logged
        assert hub.log.get("hub:set-aside:0") is None
    finally:
        hub.log.close()
    again = Hub(data_log(tmp_path), url=NOWHERE, setup_loader=loader)
    try:   # found again, the same alert, the fact not logged twice
        assert again.set_aside == [bad] and len(_damage(again)) == 1
        assert sum(r.type == "log_damage" for r in again.log.replay()) == 1
    finally:
        again.log.close()


def test_a_log_behind_its_noted_head_is_reported_once_at_start(tmp_path: Path) -> None:
    live, copy = tmp_path / "live", tmp_path / "copy"
    _new_log(live)
    with data_log(live) as log:       # closed after: checkpointed into events.sqlite3
        for n in range(5):
            log.append(Record.from_envelope(_checkin(f"a-{n}", n + 1, "NS", 1), "A1"))
    with data_log(live) as log:       # these three stay in the -wal
        log.append_many([Record.fact("tick", {}) for _ in range(3)])
        noted = log.head()
        copy.mkdir()                  # a backup of events.sqlite3 alone (and its .head)
        for name in (LOG_NAME, f"{LOG_NAME}.head"):
            shutil.copyfile(live / name, copy / name)
    hub = Hub(data_log(copy), url=NOWHERE, setup_loader=loader)
    try:
        assert hub.log_behind == 3 and hub.status().log_behind == 3
        [alert] = _damage(hub)
        assert alert.facts["problem"] == "behind" and alert.facts["missing"] == 3
        assert alert.facts["noted"] == f"{noted[0]}:{noted[1]}"
        assert "missing" in alert.detail
    finally:
        hub.log.close()
    again = Hub(data_log(copy), url=NOWHERE, setup_loader=loader)
    try:   # said once: the alert replays from its fact, the loss is not counted again
        assert again.log_behind == 0 and len(_damage(again)) == 1
    finally:
        again.log.close()


def test_a_torn_last_wal_transaction_is_reported_not_silently_lost(tmp_path: Path) -> None:
    live, torn = tmp_path / "live", tmp_path / "torn"
    _new_log(live)
    with data_log(live) as log:          # left open: everything is in the -wal
        for n in range(4):
            log.append(Record.from_envelope(_checkin(f"t-{n}", n + 1, "NS", 1), "A1"))
        torn.mkdir()
        for name in (LOG_NAME, f"{LOG_NAME}.head"):
            shutil.copyfile(live / name, torn / name)
        wal = (live / f"{LOG_NAME}-wal").read_bytes()
        (torn / f"{LOG_NAME}-wal").write_bytes(wal[:-3])   # the power went mid-write
    hub = Hub(data_log(torn), url=NOWHERE, setup_loader=loader)
    try:
        assert hub.log_behind == 1 and hub.room.snapshot()["events"] == 3
        [alert] = _damage(hub)
        assert alert.facts["missing"] == 1
    finally:
        hub.log.close()


def test_sequence_gaps_are_logged_and_counted_per_device(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    hub = Hub(data_log(tmp_path), url=NOWHERE, setup=MitchellSetup(), setup_loader=loader)
    try:
        topic = topic_event("A1", "A1-tab")
        with caplog.at_level(logging.INFO, logger="hub"):
            for env in (_hello("A1-tab"), _checkin("g-1", 1, "NS", 1),
                        _checkin("g-2", 5, "EW", 4)):
                hub.handle([Message(topic, env.to_json().encode(), 1, False)])
        assert hub.stats.accepted == 2 and hub.stats.gaps == 1
        assert hub.stats.gaps_by_device == {"A1-tab": 1}
        assert any("sequence gap from A1-tab" in r.getMessage() and "3 skipped" in
                   r.getMessage() for r in caplog.records)
        counters = hub.status().counters
        assert not isinstance(counters, type(None))
        assert json.loads(hub.status().to_json())["counters"] == {
            "accepted": 2, "duplicates": 0, "refused": {}, "queue": 0, "devices": 1,
            "gaps": 1}
    finally:
        hub.log.close()


def _hello(device: str, **body: Any) -> Envelope:
    return Envelope(f"{device}-hello-1", device, 0, time.time(), "hello", dict(body))


def test_an_event_with_a_gap_before_the_devices_hello_is_held_for_it(
        tmp_path: Path) -> None:
    """A hub restarted on a log (restored from a backup): the broker hands it an event the
    device sent while it was away, seq 5 after the log's 1. Taken now, the device's hello
    would find 5 reached and never send 2..4 again (issue 24): it is held (not applied, not
    logged, not answered) until the hello, whose reply says the log holds up to 1."""
    topic = topic_event("A1", "A1-tab")
    hub = Hub(data_log(tmp_path), url=NOWHERE, setup=MitchellSetup(), setup_loader=loader)
    try:
        hub.handle([Message(topic, _checkin("h-1", 1, "NS", 1).to_json().encode(), 1, False)])
    finally:
        hub.log.close()
    again = Hub(data_log(tmp_path), url=NOWHERE, setup_loader=loader)
    try:
        count = again.log.count()
        late = _checkin("h-5", 5, "EW", 4).to_json().encode()
        again.handle([Message(topic, late, 1, False)])
        assert again.log.count() == count and again.stats.accepted == 0
        assert again.stats.unheard == 1 and again.room.devices["A1-tab"].last_seq == 1
        again.handle([Message(topic, _hello("A1-tab").to_json().encode(), 1, False)])
        again.handle([Message(topic, late, 1, False)])   # after hello: a gap, as before
        assert again.stats.accepted == 1 and again.stats.gaps == 1
        assert again.room.devices["A1-tab"].last_seq == 5
    finally:
        again.log.close()


def test_clock_tolerance_given_to_the_hub_overrides_the_events_and_replays(
        tmp_path: Path) -> None:
    hub = Hub(data_log(tmp_path), url=NOWHERE, setup=MitchellSetup(), setup_loader=loader,
              clock_tolerance=7200.0)
    try:
        late = Envelope("k-1", "A1-tab", 1, time.time() - 3600, "checkin",
                        {"direction": "NS", "pair": 1})
        hub.handle([Message(topic_event("A1", "A1-tab"), late.to_json().encode(), 1, False)])
        assert hub.stats.accepted == 1 and hub.room.clock_tolerance == 7200.0
    finally:
        hub.log.close()
    again = Hub(data_log(tmp_path), url=NOWHERE, setup_loader=loader)   # the event's 120 s
    try:
        assert again.room.clock_tolerance == 120.0
        assert again.room.snapshot()["events"] == 1   # replayed: judged when accepted
    finally:
        again.log.close()
    off = Hub(data_log(tmp_path), url=NOWHERE, setup_loader=loader, clock_tolerance=False)
    try:
        assert off.room.clock_tolerance is None
    finally:
        off.log.close()


# The broker restarting -------------------------------------------------------------------

GRACE = 3.0


def _device(url: str, table: str) -> MqttClient:
    status = f"tenace/v1/t/{table}/dev/{table}-tab/status"
    return MqttClient(url, f"{table}-tab", will=(status, '{"online":false}', 1, True),
                      birth=(status, '{"online":true}', 1, True),
                      reconnect_delay=(0.2, 1.0)).wait_connected()


def _retained(url: str, *filters: str) -> dict[str, bytes]:
    """What a fresh client subscribing to ``filters`` gets: what the broker holds retained,
    and what is published meanwhile (the hub republishing)."""
    client = listen(url, *filters)
    try:
        return {m.topic: m.payload for m in drain(client) if m.payload}
    finally:
        client.close()


def _held(url: str, wanted: Callable[[dict[str, bytes]], object],
          *filters: str) -> dict[str, bytes]:
    """:func:`_retained` until ``wanted`` holds of it (the hub may still be publishing)."""
    found: dict[str, bytes] = {}

    def check() -> object:
        found.clear()
        found.update(_retained(url, *filters))
        return wanted(found)

    _wait(check, what=f"retained {filters}")
    return found


def _ride_out(url: str, hub: Hub, restart: Callable[[], None]) -> None:
    """Play to an open alert, restart the broker under the hub and two tablets, then check:
    no false device_offline, every retained topic back; a tablet really gone is alerted."""
    with HubRunner(hub):
        runs = run_tables(url, {"A1": revoke_script()})
        assert runs["A1"].codes == {"ok": len(revoke_script())}
        stay, leave = _device(url, "A2"), _device(url, "A3")
        _wait(lambda: hub.call(lambda: {"A2-tab", "A3-tab"} <= set(hub.room.devices)),
              what="the tablets' births")
        before = hub.stats.reconnections
        restart()
        _wait(lambda: hub.stats.reconnections > before, what="the hub reconnected")
        _wait(lambda: stay.connected.is_set() and leave.connected.is_set(),
              what="the tablets reconnected")
        held = _held(url, lambda h: topic_state("A1") in h and topic_hub_status() in h
                     and any("revoke" in t for t in h), "tenace/v1/t/A1/state",
                     "tenace/v1/hub/status", "tenace/v1/director/alert/#", "tenace/v1/result/#")
        assert topic_state("A1") in held and json.loads(held[topic_state("A1")])["board"] == 1
        assert json.loads(held[topic_hub_status()])["online"] is True
        assert any("revoke" in t for t in held), sorted(held)
        leave._break_connection()          # now a tablet truly goes: its will, then an alert
        leave.close(farewell=False)

        def offline() -> list[tuple[str, Any]]:
            return hub.call(lambda: [(a.kind, a.facts.get("device"))
                                     for a in hub.room.alerts if a.kind == "device_offline"])

        _wait(offline, what="the tablet gone reported")
        _wait(lambda: hub.call(lambda: not hub.wills.pending), what="every grace over")
        kinds = offline()
        stay.close()
    assert kinds == [("device_offline", "A3-tab")]


def test_an_embedded_broker_restart_raises_no_false_offline_and_all_comes_back(
        embedded_broker: EmbeddedBroker, tmp_path: Path) -> None:
    hub = hub_on(embedded_broker.url, tmp_path, offline_grace=GRACE)
    _ride_out(embedded_broker.url, hub, embedded_broker.restart)


@pytest.mark.parametrize("kill", [False, True], ids=["graceful", "killed"])
def test_a_mosquitto_restart_raises_no_false_offline_and_all_comes_back(
        mosquitto: Mosquitto, tmp_path: Path, kill: bool) -> None:
    hub = hub_on(mosquitto.url, tmp_path, offline_grace=GRACE)
    _ride_out(mosquitto.url, hub, lambda: mosquitto.restart(kill=kill))


def test_tenace_hub_status_prints_the_counters(
        embedded_broker: EmbeddedBroker, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    from tenace.cli import main

    hub = hub_on(embedded_broker.url, tmp_path)
    with HubRunner(hub), Observer(embedded_broker.url):
        run_tables(embedded_broker.url, {"A1": revoke_script()[:3]})
        _held(embedded_broker.url, lambda h: b'"accepted":3' in h.get(topic_hub_status(), b""),
              "tenace/v1/hub/status")
        assert main(["hub", "status", "--broker", embedded_broker.url]) == 0
    out = capsys.readouterr().out
    assert "hub online" in out and "events accepted 3" in out and "devices online" in out


def test_a_set_aside_record_reaches_the_director_and_hub_status(
        embedded_broker: EmbeddedBroker, tmp_path: Path) -> None:
    _new_log(tmp_path)
    with data_log(tmp_path) as log:
        bad = log.append(Record.fact("round_start", {"round": "first"}))
    hub = Hub(data_log(tmp_path), url=embedded_broker.url, setup_loader=loader)
    with HubRunner(hub):
        held = _held(embedded_broker.url, lambda h: topic_hub_status() in h and any(
            "/director/alert/" in t for t in h) and b"set_aside" in h[topic_hub_status()],
            "tenace/v1/hub/status", "tenace/v1/director/alert/+")
    alerts = [json.loads(p) for t, p in held.items() if "/director/alert/" in t]
    assert [a["kind"] for a in alerts] == ["log_damage"] and alerts[0]["table"] == "hub"
    assert alerts[0]["facts"]["position"] == bad
    assert json.loads(held[topic_hub_status()])["set_aside"] == [bad]


def test_the_hub_command_takes_the_clock_tolerance_and_the_offline_grace() -> None:
    from tenace.cli import _parser

    args = _parser().parse_args(["hub", "--clock-tolerance", "off", "--offline-grace", "20"])
    assert args.job == "run" and args.clock_tolerance is False and args.offline_grace == 20.0
    assert _parser().parse_args(["hub", "--clock-tolerance", "600"]).clock_tolerance == 600.0
    with pytest.raises(SystemExit):
        _parser().parse_args(["hub", "--clock-tolerance", "-5"])
    assert _parser().parse_args(["hub", "status"]).job == "status"


def test_the_console_overview_shows_the_hubs_counters(tmp_path: Path) -> None:
    from hub.console import Console

    hub = Hub(data_log(tmp_path), url=NOWHERE, setup=MitchellSetup(), setup_loader=loader)
    try:
        hub.handle([Message(topic_event("A1", "A1-tab"),
                            _checkin("o-1", 1, "NS", 1).to_json().encode(), 1, False)])
        shown = Console(hub).overview()["hub"]
        assert shown["online"] is True and shown["counters"]["accepted"] == 1
        assert shown["counters"]["devices"] == 1 and shown["chain"].startswith("2:")
    finally:
        hub.log.close()


def test_a_device_that_never_says_hello_is_held_only_for_the_hello_wait(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A client without ``hello`` (an older device) is never stuck: once its gapped event
    has waited :data:`hub.device_events.HELLO_WAIT` for a hello, it is taken with the gap
    (logged and counted), as before."""
    from hub import device_events

    topic = topic_event("A1", "A1-tab")
    hub = Hub(data_log(tmp_path), url=NOWHERE, setup=MitchellSetup(), setup_loader=loader)
    try:
        hub.handle([Message(topic, _checkin("w-1", 1, "NS", 1).to_json().encode(), 1, False)])
    finally:
        hub.log.close()
    again = Hub(data_log(tmp_path), url=NOWHERE, setup_loader=loader)
    try:
        late = Message(topic, _checkin("w-4", 4, "EW", 4).to_json().encode(), 1, False)
        again.handle([late])
        assert again.stats.accepted == 0 and again.stats.unheard == 1
        monkeypatch.setattr(device_events, "HELLO_WAIT", 0.0)   # the wait is over
        again.handle([late])                                        # its copy sent again
        assert again.stats.accepted == 1 and again.stats.gaps == 1
        assert again.room.devices["A1-tab"].last_seq == 4
    finally:
        again.log.close()
