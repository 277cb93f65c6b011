"""The ``sim-link`` role (hub/access.py) on a real Mosquitto: the accounts a club's set-up
issues for a simultaneous event (hub.accounts.event_accounts) may read the hub's table results
and the organiser's topics and write the organiser's topics only; they never read a table's
state or a seat's hand, never publish a device's event or a hub command. The club's bridge
runs as ``sim-link.bridge`` and carries the organiser's topics only."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from hub.access import grants, may_read, may_write
from hub.accounts import SIM_BRIDGE, SIM_LINK, Accounts, event_accounts
from hub.mosquitto import Mosquitto
from hub.simultaneous.bridging import bridge_stanza
from hub.simultaneous.event import topic
from tests.hub.simultaneous.helpers import make_event
from wire.mqtt import Message, MqttClient

HAND = "tenace/v1/t/A1/seat/N"
STATE = "tenace/v1/t/A1/state"
DEVICE_EVENT = "tenace/v1/t/A1/ev/A1-N"
HUB_COMMAND = f"tenace/v1/hub/cmd/{SIM_LINK}"
RESULT = "tenace/v1/result/A1/1/1"


class Seen:
    def __init__(self) -> None:
        self.topics: list[str] = []
        self.lock = threading.Condition()

    def take(self, message: Message) -> None:
        with self.lock:
            self.topics.append(message.topic)
            self.lock.notify_all()

    def wait(self, test: Callable[[list[str]], bool], timeout: float = 30.0) -> bool:
        with self.lock:
            return self.lock.wait_for(lambda: test(self.topics), timeout)


def _client(url: str, name: str, password: str, seen: Seen | None = None) -> MqttClient:
    client = MqttClient(url.replace("mqtt://", f"mqtt://{name}:{password}@"), name,
                        clean_session=True, on_message=seen.take if seen else None)
    client.wait_connected()
    return client


def test_the_role_grants_the_organisers_topics_only() -> None:
    for account in (SIM_LINK, SIM_BRIDGE):
        grant = grants(account, "sim-link")
        assert may_read(grant, RESULT) and may_read(grant, "tenace/sim/v1/e/c/deals")
        assert may_write(grant, "tenace/sim/v1/e/c/result")
        for name in (HAND, STATE, "tenace/v1/t/A1/tablet", DEVICE_EVENT, HUB_COMMAND):
            assert not may_read(grant, name), name
            assert not may_write(grant, name), name
    setup = type("Setup", (), {"tables": ["A1"]})()
    assert SIM_LINK not in event_accounts(setup)
    accounts = event_accounts(setup, simultaneous=True)
    assert accounts[SIM_LINK] == accounts[SIM_BRIDGE] == "sim-link"


def test_sim_link_on_a_real_mosquitto_reads_no_hand_and_writes_no_device_event(
        tmp_path: Path) -> None:
    event = make_event({"lyon": (datetime(2026, 4, 12, 18, tzinfo=UTC), 1)}, boards=2)
    accounts = Accounts(tmp_path / "club")
    setup = type("Setup", (), {"tables": ["A1"]})()
    issued = {c.username: c.password
              for c in accounts.issue_all(event_accounts(setup, simultaneous=True))}
    with Mosquitto(tmp_path / "organiser", open_access=True) as organiser:
        # The club's bridge as the kit writes it: its local side is sim-link.bridge.
        stanza = bridge_stanza(event, "lyon", "unused", host="127.0.0.1", port=organiser.port,
                               ca_file=None, local_password=issued[SIM_BRIDGE])
        assert f"local_username {SIM_BRIDGE}" in stanza
        with Mosquitto(tmp_path / "club-broker", tuple(stanza.strip().splitlines()),
                       accounts=accounts) as club:
            far, link_seen, hub_seen = Seen(), Seen(), Seen()
            watcher = MqttClient(organiser.url, "watcher", clean_session=True,
                                 on_message=far.take)
            watcher.wait_connected()
            watcher.subscribe("#")
            hub = _client(club.url, "tenace-hub", issued["tenace-hub"], hub_seen)
            hub.subscribe("tenace/#")
            link = _client(club.url, SIM_LINK, issued[SIM_LINK], link_seen)
            for f in ("#", HAND, STATE, "tenace/v1/t/#", "tenace/v1/result/#",
                      "tenace/sim/v1/#"):
                link.subscribe(f)
            clients = (watcher, hub, link)
            try:
                # The bridge is up once what the organiser publishes reaches the club.
                deals = topic(event.id, "lyon", "deals")
                deadline = time.monotonic() + 60
                while not link_seen.wait(lambda t: deals in t, 1.0):
                    assert time.monotonic() < deadline, "the bridge never came up"
                    watcher.publish(deals, b"{}", 1, wait=True)
                # The hub publishes a hand, the state, then a result: sim-link gets the result.
                hub.publish(HAND, b"AKQJ.T98.765.432", 1, wait=True)
                hub.publish(STATE, b"{}", 1, wait=True)
                hub.publish(RESULT, b"{}", 1, wait=True)
                assert link_seen.wait(lambda t: RESULT in t), "sim-link got no result"
                # sim-link publishes a device event and a hub command, then the event's result.
                link.publish(DEVICE_EVENT, b'{"kind": "card"}', 1, wait=True)
                link.publish(HUB_COMMAND, b'{"op": "round_start"}', 1, wait=True)
                result = topic(event.id, "lyon", "result")
                link.publish(result, b"{}", 1, wait=True)
                assert far.wait(lambda t: result in t), "the bridge did not carry the result"
                # Whatever the broker routed to the hub before that reaches it before this.
                hub.publish("tenace/v1/hub/status", b"{}", 1, wait=True)
                assert hub_seen.wait(lambda t: "tenace/v1/hub/status" in t)
                link.publish("tenace/sim/v1/sentinel", b"", 1, wait=True)
                assert link_seen.wait(lambda t: "tenace/sim/v1/sentinel" in t)
            finally:
                for client in clients:
                    client.close()
    assert HAND not in link_seen.topics and STATE not in link_seen.topics
    assert not any(t.startswith("tenace/v1/t/") for t in link_seen.topics), link_seen.topics
    assert DEVICE_EVENT not in hub_seen.topics and HUB_COMMAND not in hub_seen.topics
    # Nothing of the tables crossed the bridge (Mosquitto 2.0 does not apply the ACL to a
    # bridge's local side: its topic lines are what keeps the tables in: docs/security.md).
    assert not any(t.startswith("tenace/v1/") for t in far.topics), far.topics


def test_the_clubs_set_up_issues_the_links_accounts(tmp_path: Path) -> None:
    from hub.deploy import DEVICE_CREDENTIALS, write_access_files
    setup = type("Setup", (), {"tables": ["A1"]})()
    write_access_files(tmp_path / "plain", setup)
    assert SIM_LINK not in Accounts(tmp_path / "plain")
    write_access_files(tmp_path / "sim", setup, simultaneous=True)
    accounts = Accounts(tmp_path / "sim")
    assert accounts.role(SIM_LINK) == accounts.role(SIM_BRIDGE) == "sim-link"
    credentials = json.loads((tmp_path / "sim" / DEVICE_CREDENTIALS).read_text())
    assert accounts.verify(SIM_BRIDGE, credentials[SIM_BRIDGE])
    acl = (tmp_path / "sim" / "mosquitto.acl").read_text()
    block = acl.split(f"user {SIM_LINK}\n", 1)[1].split("\n\n", 1)[0]
    assert block.splitlines() == ["topic readwrite tenace/sim/v1/#",
                                  "topic read tenace/v1/result/#",
                                  "topic read tenace/v1/results/traveller/#"]
