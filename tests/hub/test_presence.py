"""A device's last will held a grace before it is an alert (hub.presence.OfflineGrace)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from hub.mosquitto import Mosquitto
from hub.presence import SETTLE, OfflineGrace
from hub.service import Hub, HubRunner, data_log
from tests.hub.test_service import hub_on
from wire.mqtt import Message
from wire.protocol import topic_device_status


def test_a_will_becomes_an_alert_only_after_the_grace() -> None:
    wills = OfflineGrace(15.0)
    assert wills.will("A1-tab", "A1", 100.0) == 115.0
    assert wills.expire("A1-tab", 110.0, connected=True) is None
    assert wills.expire("A1-tab", 115.0, connected=True) == "A1"
    assert wills.pending == {} and wills.expire("A1-tab", 200.0, connected=True) is None


def test_a_birth_within_the_grace_drops_the_will() -> None:
    wills = OfflineGrace(15.0)
    wills.will("A1-tab", "A1", 100.0)
    assert wills.back("A1-tab") and not wills.back("A1-tab")
    assert wills.expire("A1-tab", 200.0, connected=True) is None


def test_the_hubs_own_reconnection_gives_a_little_more_never_a_new_grace() -> None:
    """A broker restart: the wills come just before the hub loses its own connection; they
    wait a few seconds after the hub came back (the devices come back after it), never
    while it is away, and never a whole grace again (issue 24: a cut longer than the grace
    through restarts was never reported)."""
    wills = OfflineGrace(15.0)
    wills.will("A1-tab", "A1", 100.0)
    assert wills.expire("A1-tab", 120.0, connected=False) is None   # the hub is cut off
    wills.reconnected(125.0)
    assert wills.due("A1-tab") == 125.0 + SETTLE
    assert wills.expire("A1-tab", 126.0, connected=True) is None
    assert wills.expire("A1-tab", 125.0 + SETTLE, connected=True) == "A1"
    wills.will("A1-rdr", "A1", 200.0)
    wills.reconnected(205.0)            # within the grace: the grace from the will stands
    assert wills.due("A1-rdr") == 215.0


def test_the_first_will_of_an_outage_counts() -> None:
    wills = OfflineGrace(10.0)
    wills.will("A1-rdr", "A1", 100.0)
    assert wills.will("A1-rdr", "A1", 105.0) == 110.0
    assert wills.due("nobody") == float("inf")


def test_a_cut_longer_than_the_grace_is_reported_across_hub_restarts(
        mosquitto: Mosquitto, tmp_path: Path) -> None:
    """A table cut off 43 s while the hub restarted twice, each time within the 20-s grace:
    the will's time is in the log (``device_will``), so each hub holds it from then, and the
    third one reports the cut (``device_offline``) without beginning the grace again."""
    passed = [0.0]

    def clock() -> float:
        return time.time() + passed[0]

    gone = Message(topic_device_status("A1", "A1-rdr"), b'{"online": false}', 1, True)
    for shift in (0.0, 12.0, 43.0):       # the first hub, then two restarts
        passed[0] = shift
        hub = hub_on(mosquitto.url, tmp_path, offline_grace=20.0, clock=clock)
        try:
            with HubRunner(hub):
                _restarted(hub, gone, shift)
        finally:
            hub.log.close()
    with data_log(tmp_path) as stored:
        kinds = [r.type for r in stored.replay() if r.type.startswith("device_")]
    assert kinds == ["device_will", "device_offline"]


def _restarted(hub: Hub, gone: Message, shift: float) -> None:
    """A hub ``shift`` seconds after the will: the will (retained) comes again; its grace
    runs from the will (a few seconds more after the hub's start at most), and once it is
    over the cut is reported."""
    hub.call(lambda: hub.handle([gone]))
    if shift == 0.0:
        return
    due = hub.call(lambda: hub.wills.due("A1-rdr") - hub.wills.link_up)
    assert due <= max(SETTLE, 20.0 - shift) + 0.5
    if shift > 20.0:
        assert _wait(lambda: hub.call(lambda: [a for a in hub.room.alerts
                                               if a.kind == "device_offline"]))


def _wait(predicate: Callable[[], object], timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return bool(predicate())


def test_a_simulator_that_exits_cleanly_leaves_its_devices_offline_across_a_hub_restart(
        mosquitto: Mosquitto, tmp_path: Path) -> None:
    """Issue 25: ``tenace sim``'s devices said goodbye to nobody (a clean disconnect, so no
    will) and stayed "online" on the console, even after a hub restart. Now each device
    publishes its farewell (``leaving``, protocol 14) before it disconnects: through the
    broker, the hub has every one offline at once, with no ``device_offline`` alert (its
    grace here is ten minutes: only the farewell can do it), the same in the threaded and
    the one-loop simulator, and a hub started later reads them offline too."""
    from tenace.sim.driver import run_tables
    from tests.hub.test_service import revoke_script
    devices = {"A1-tab", "A1-rdr"}
    hub = hub_on(mosquitto.url, tmp_path, offline_grace=600.0)
    try:
        with HubRunner(hub):
            # the table tablet's auction threaded, then the reader's cards on one loop
            for mux, script in ((False, revoke_script()[:9]), (True, revoke_script()[9:])):
                runs = run_tables(mosquitto.url, {"A1": script}, mux=mux)
                assert set(runs["A1"].codes) == {"ok"}, runs["A1"].codes
                playing = {e.device for e in script}
                assert _wait(lambda p=playing: hub.call(lambda: all(     # type: ignore[misc]
                    d in hub.room.devices and not hub.room.devices[d].online
                    for d in p))), hub.call(lambda: dict(hub.room.devices))
            assert hub.call(lambda: [a for a in hub.room.alerts
                                     if a.kind == "device_offline"]) == []
            assert hub.call(lambda: hub.wills.pending) == {}
    finally:
        hub.log.close()
    with data_log(tmp_path) as stored:
        gone = [r.data() for r in stored.replay() if r.type == "device_offline"]
    assert {g["device"] for g in gone} == devices and all(g["leaving"] for g in gone)
    again = hub_on(mosquitto.url, tmp_path, offline_grace=600.0)   # the hub restarted
    try:
        with HubRunner(again):
            assert _wait(lambda: again.call(lambda: all(
                d in again.room.devices for d in devices)))
            assert again.call(lambda: [d for d in devices if again.room.devices[d].online]) == []
    finally:
        again.log.close()
