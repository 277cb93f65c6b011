"""Accounts and topic access (hub/accounts.py, hub/access.py), and hostile clients against
both brokers, as a player with a phone on the club's Wi-Fi would try: no account, another
seat's or another table's account, wildcards, retained probes, forged retained views,
commands without the director's role, a takeover of the hub's client id, a revoked account.
"""

from __future__ import annotations

import base64
import contextlib
import json
import queue
import stat
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hub.access import (
    device_role,
    filters_overlap,
    grants,
    matches,
    may_read,
    may_subscribe,
    may_write,
    mosquitto_acl,
)
from hub.accounts import (
    AccountError,
    Accounts,
    Credentials,
    event_accounts,
    mosquitto_hash,
    verify_mosquitto_hash,
)
from hub.event import EventSetup
from hub.service import HubRunner
from tenace.sim.driver import run_tables
from tests.conftest import REPO, Keyring
from tests.hub.test_service import hub_on, revoke_script
from wire.mqtt import KEYRING_ENV, Message, MqttClient, MqttError
from wire.protocol import (
    ROOT,
    topic_alert,
    topic_event,
    topic_hub_command,
    topic_hub_status,
    topic_reply,
    topic_result,
    topic_seat,
    topic_state,
)

HANDS = {seat: f"{seat}'s hand".encode() for seat in "NESW"}


# The one table of rules ---------------------------------------------------------------------

def test_roles_come_from_the_names_and_a_spare_has_its_original_s() -> None:
    assert [device_role(n) for n in ("tenace-hub", "director", "scorer", "results", "A1-tab",
                                     "A1-N", "A-12-W", "A1-rdr", "dealer-1", "A1-N.3f9c0a",
                                     "A1-x", "A1-rdr-N")] == [
        "hub", "director", "scorer", "results", "table", "seat", "seat", "reader", "dealer",
        "seat", None, None]
    assert grants("A-12-W", "seat").read[2] == f"{ROOT}/t/A-12/seat/W"
    with pytest.raises(ValueError, match="does not name"):
        grants("dealer-1", "seat")
    with pytest.raises(ValueError, match="unknown role"):
        grants("A1-N", "admin")


def test_a_seat_reads_its_own_hand_and_writes_only_its_own_event_and_presence() -> None:
    north = grants("A1-N", "seat")
    assert may_read(north, topic_seat("A1", "N")) and may_read(north, topic_state("A1"))
    assert not any(may_read(north, topic_seat("A1", s)) for s in "ESW")
    assert not may_read(north, topic_seat("A2", "N")) and not may_read(north, topic_alert("x"))
    assert not may_read(north, topic_reply("A1", "A1-E"))
    assert may_write(north, topic_event("A1", "A1-N"))
    assert may_write(north, f"{ROOT}/t/A1/dev/A1-N/status")
    for topic in (topic_event("A1", "A1-tab"), topic_event("A2", "A1-N"), topic_state("A1"),
                  topic_seat("A1", "N"), topic_result("A1", 1, 1), topic_hub_status(),
                  f"{ROOT}/hub/cmd", topic_hub_command("A1-N"), topic_alert("a"),
                  topic_reply("A1", "A1-N"), f"{ROOT}/t/A1/cmd"):
        assert not may_write(north, topic), topic
    assert may_subscribe(north, "#") and may_subscribe(north, f"{ROOT}/t/+/seat/+")
    assert not may_subscribe(north, f"{ROOT}/t/A2/seat/N")
    table = grants("A1-tab", "table")
    assert not any(may_read(table, topic_seat("A1", s)) for s in "NESW")
    reader = grants("A1-rdr", "reader")
    assert not any(may_read(reader, topic_seat("A1", s)) for s in "NESW")
    assert may_write(reader, f"{ROOT}/t/A1/dev/A1-rdr-S/status")


def test_only_the_hub_writes_what_devices_read_and_commands_need_the_director() -> None:
    retained = (topic_state("A1"), topic_seat("A1", "N"), topic_result("A1", 1, 1),
                f"{ROOT}/results/ranking/A", f"{ROOT}/results/traveller/A/1",
                topic_hub_status(), topic_alert("a"), topic_reply("A1", "A1-N"))
    for name, role in (("director", "director"), ("scorer", "scorer"),
                       ("results", "results"), ("A1-tab", "table"), ("A1-rdr", "reader"),
                       ("dealer-1", "dealer")):
        assert not any(may_write(grants(name, role), t) for t in retained), name
    assert all(may_write(grants("tenace-hub", "hub"), t) for t in retained)
    assert may_write(grants("director", "director"), topic_hub_command("director"))
    assert not may_write(grants("director", "director"), topic_hub_command("scorer"))
    assert may_write(grants("scorer", "scorer"), topic_hub_command("scorer"))
    # the bare hub/cmd of earlier versions: the hub refuses it, and the broker too
    assert not may_write(grants("director", "director"), f"{ROOT}/hub/cmd")
    assert not may_write(grants("scorer", "scorer"), f"{ROOT}/hub/cmd")
    assert not may_read(grants("director", "director"), topic_seat("A1", "N"))
    assert not may_read(grants("results", "results"), topic_state("A1"))


def test_topic_filters_match_as_mqtt_says() -> None:
    assert matches("a/b/c", "a/+/c") and matches("a/b/c", "#") and matches("a/b", "a/b/#")
    assert not matches("a/b/c", "a/b") and not matches("$SYS/x", "#")
    assert filters_overlap("#", "a/b") and filters_overlap("a/+/c", "a/b/#")
    assert not filters_overlap("a/b", "a/c") and not filters_overlap("a/b/c", "a/b")


def test_the_deploy_acl_example_is_what_the_table_renders_for_table_a1() -> None:
    names = ["tenace-hub", "director", "scorer", "results", "A1-tab",
             *(f"A1-{s}" for s in "NESW"), "A1-rdr", "dealer-1"]
    rendered = mosquitto_acl((n, device_role(n) or "dealer") for n in names)
    example = (REPO / "deploy" / "acl.example").read_text()
    assert example.endswith(rendered.split("\n", 3)[3])
    assert "use_username_as_clientid true" in (REPO / "deploy" / "mosquitto.conf").read_text()


# The accounts file ----------------------------------------------------------------------------

def test_an_event_has_an_account_per_device_and_tool() -> None:
    setup = EventSetup.quick(tables=2, boards_per_round=2, seed="0" * 40)
    names = event_accounts(setup, dealers=("dealer-1", "dealer-2"))
    assert set(names) == {"tenace-hub", "director", "scorer", "results", "dealer-1",
                          "dealer-2", *(f"A{t}-{d}" for t in (1, 2)
                                        for d in ("tab", "N", "E", "S", "W", "rdr"))}
    assert names["A2-W"] == "seat" and names["dealer-2"] == "dealer"


def test_issue_shows_the_password_once_keeps_hashes_only_and_rotates(tmp_path: Path) -> None:
    accounts = Accounts(tmp_path / "data")
    first = accounts.issue("A1-N")
    assert accounts.verify("A1-N", first.password) and "A1-N" in accounts
    assert first.password not in repr(first)
    for path in (accounts.path, accounts.passwd_file, accounts.acl_file):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
        assert first.password not in path.read_text()
    again = Accounts(tmp_path / "data")          # read back from the file
    assert again.verify("A1-N", first.password) and again.role("A1-N") == "seat"
    second = again.issue("A1-N")
    assert again.verify("A1-N", second.password) and not again.verify("A1-N", first.password)
    again.revoke("A1-N")
    assert not again.verify("A1-N", second.password) and "A1-N" not in again
    assert "A1-N" not in again.passwd_file.read_text()
    with pytest.raises(AccountError, match="no account"):
        again.revoke("A1-N")
    with pytest.raises(AccountError, match="give its role"):
        again.issue("somebody")
    assert again.issue("machine-7", "dealer").username == "machine-7"
    assert Credentials("A1-N", "p@ss").url("mqtt://h:1") == "mqtt://A1-N:p%40ss@h:1"


def test_the_mosquitto_hash_is_mosquitto_passwd_s(tmp_path: Path) -> None:
    passwd = tmp_path / "passwd"
    subprocess.run(["mosquitto_passwd", "-c", "-b", str(passwd), "alice", "s3cret"],
                   check=True)
    written = passwd.read_text().strip().split(":", 1)[1]
    _, kind, iterations, salt, _ = written.split("$")
    assert kind == "7"
    assert mosquitto_hash("s3cret", base64.b64decode(salt), int(iterations)) == written
    assert verify_mosquitto_hash("s3cret", written)
    assert not verify_mosquitto_hash("secret", written)
    assert verify_mosquitto_hash("x", mosquitto_hash("x"))


def test_tenace_accounts_issue_list_revoke(tmp_path: Path) -> None:
    def tenace(*words: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "tenace", "accounts", *words, "--data",
                               str(tmp_path)], capture_output=True, text=True, timeout=60)

    issued = json.loads(tenace("issue", "A3-S").stdout)
    assert issued["username"] == "A3-S" and issued["role"] == "seat"
    assert issued["url"] == f"mqtt://A3-S:{issued['password']}@127.0.0.1:1883"
    url = tenace("issue", "dealer-2", "--url").stdout.strip()
    assert url.startswith("mqtt://dealer-2:")
    listed = tenace("list").stdout
    assert listed.splitlines() == ["A3-S\tseat", "dealer-2\tdealer"]
    assert issued["password"] not in listed
    assert tenace("revoke", "A3-S").returncode == 0
    refused = tenace("revoke", "A3-S")
    assert refused.returncode == 2 and "no account" in refused.stderr


# Hostile clients, on both brokers ---------------------------------------------------------

def connect(url: str, client_id: str, *, keyring: Keyring | None = None,
            user: str | None = None, **kw: object) -> MqttClient:
    """A client of ``user``'s account (default: its client id) from the keyring."""
    if keyring is not None:
        url = keyring.url(url, user or client_id)
    return MqttClient(url, client_id, clean_session=True, reconnect_delay=(0.1, 0.5),
                      **kw).wait_connected()  # type: ignore[arg-type]


def refused(url: str, client_id: str, **kw: object) -> str | None:
    """Why the broker refused the client (None if it let it in; 60 s a guard)."""
    client = MqttClient(url, client_id, clean_session=True, reconnect_delay=(0.1, 0.5),
                        **kw)  # type: ignore[arg-type]
    try:
        deadline = time.monotonic() + 60
        while client.last_error is None and time.monotonic() < deadline:
            if client.connected.is_set():
                return None
            time.sleep(0.01)
        return None if client.connected.is_set() else client.last_error
    finally:
        client.close(farewell=False)


GUARD = 60.0   # seconds: only keeps a broken broker from hanging the suite


def drain(client: MqttClient, done: Callable[[list[Message]], bool]) -> list[Message]:
    """What ``client`` receives until ``done`` holds of it (``GUARD`` a ceiling): a test
    waits for the message it expects, never for a fixed time."""
    out: list[Message] = []
    deadline = time.monotonic() + GUARD
    while not done(out):
        left = deadline - time.monotonic()
        assert left > 0, f"{client.client_id} never received what it awaited: {out}"
        with contextlib.suppress(queue.Empty):
            out.append(client.messages.get(timeout=min(left, 0.5)))
    return out


def fenced(client: MqttClient, broker_url: str) -> list[Message]:
    """What ``client`` received up to a fence: a hub-role account publishes a token, not
    retained, on the hub's status (which every account reads) and the client's messages
    are read until the token comes. What was to reach the client before the fence has
    then come; that nothing else came is asserted on what was read, with no sleep."""
    token = f'{{"fence":"{uuid.uuid4().hex}"}}'.encode()
    with connect(broker_url, "tenace-hub.observer2") as hub:
        hub.publish(topic_hub_status(), token, wait=True, timeout=GUARD)
    seen = drain(client, lambda out: bool(out) and out[-1].payload == token)
    return seen[:-1]


def probe(client: MqttClient, broker_url: str, *filters: str) -> list[Message]:
    """Subscribe to each filter (a refusal is fine) and return what arrives: the retained
    messages each subscription delivers, read up to a fence (:func:`fenced`)."""
    for topic_filter in filters:
        with contextlib.suppress(MqttError):
            client.subscribe(topic_filter, timeout=GUARD)
    status = topic_hub_status()
    own_status = not any(matches(status, f) for f in filters)
    if own_status:                          # the fence's topic, its retained value dropped
        client.subscribe(status, timeout=GUARD)
    # A last subscription, refused or not, is answered after the retained messages of the
    # ones before it went out (both brokers take a client's packets in turn).
    with contextlib.suppress(MqttError):
        client.subscribe(f"{ROOT}/fence/none", timeout=GUARD)
    return [m for m in fenced(client, broker_url) if not (own_status and m.topic == status)]


@pytest.fixture
def room(broker_url: str) -> Iterator[MqttClient]:
    """The hub's account publishes, retained, table A1's four hands and state, table A2's
    state, a result, an alert and its own status; yields its client."""
    hub = connect(broker_url, "tenace-hub")
    try:
        for seat, hand in HANDS.items():
            hub.publish(topic_seat("A1", seat), hand, retain=True)
        hub.publish(topic_state("A1"), b"A1 state", retain=True)
        hub.publish(topic_state("A2"), b"A2 state", retain=True)
        hub.publish(topic_result("A1", 1, 1), b"A1 result", retain=True)
        hub.publish(topic_alert("A1-1-revoke-1"), b"alert with the deal", retain=True)
        hub.publish(topic_hub_status(), b'{"online":true}', retain=True, wait=True)
        yield hub
    finally:
        hub.close(farewell=False)


def test_no_account_no_connection(broker_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert refused(broker_url, "anonymous") == "refused by the broker: Not authorized"
    monkeypatch.delenv(KEYRING_ENV)          # no password at all, as the hub's client id
    assert refused(broker_url, "tenace-hub") == "refused by the broker: Not authorized"
    wrong = broker_url.replace("mqtt://", "mqtt://A1-N:not-the-password@")
    assert refused(wrong, "A1-N") == "refused by the broker: Not authorized"
    nobody = broker_url.replace("mqtt://", "mqtt://nobody:x@")
    assert refused(nobody, "nobody") == "refused by the broker: Not authorized"


@pytest.mark.parametrize("account", ["A1-E", "A1-tab", "A1-rdr", "A2-N", "results"])
def test_wildcards_and_retained_probes_never_show_another_seat_s_hand(
        broker_url: str, room: MqttClient, account: str) -> None:
    """Subscribed after the hand was published (retained), with every wildcard."""
    with connect(broker_url, account) as spy:
        seen = probe(spy, broker_url, "#", f"{ROOT}/#", f"{ROOT}/t/+/seat/+", f"{ROOT}/t/A1/seat/N",
                     f"{ROOT}/t/A1/#", f"{ROOT}/director/#", f"{ROOT}/+/+/+")
    topics = {m.topic for m in seen}
    own_seat = topic_seat("A1", "E") if account == "A1-E" else None
    for seat in "NESW":
        if topic_seat("A1", seat) != own_seat:
            assert topic_seat("A1", seat) not in topics, (account, seat)
            assert not any(m.payload == HANDS[seat] for m in seen), (account, seat)
    assert topic_alert("A1-1-revoke-1") not in topics
    if account.startswith("A1"):
        assert topic_state("A1") in topics and topic_state("A2") not in topics
    if account == "A1-E":
        assert next(m.payload for m in seen if m.topic == own_seat) == HANDS["E"]
    if account == "results":
        assert topics <= {topic_result("A1", 1, 1), topic_hub_status()}


def test_a_device_cannot_forge_what_devices_read(broker_url: str, room: MqttClient) -> None:
    """A seat's account overwriting retained views, replies and the hub's status: the
    retained values stay the hub's."""
    forged = {topic_state("A1"): b"forged state", topic_seat("A1", "E"): b"forged hand",
              topic_result("A1", 1, 1): b"forged result", topic_hub_status(): b"forged",
              topic_alert("A1-1-revoke-1"): b"resolved", topic_reply("A1", "A1-E"): b"ack",
              f"{ROOT}/t/A1/cmd": b"resync", f"{ROOT}/results/ranking/A": b"forged"}
    with connect(broker_url, "A1-N") as north:
        for topic, payload in forged.items():
            north.publish(topic, payload, retain=True, wait=True)
    with connect(broker_url, "tenace-hub.observer") as reader:
        seen = {m.topic: m.payload for m in probe(reader, broker_url, f"{ROOT}/#")}
    assert seen[topic_state("A1")] == b"A1 state"
    assert seen[topic_seat("A1", "E")] == HANDS["E"]
    assert seen[topic_result("A1", 1, 1)] == b"A1 result"
    assert seen[topic_hub_status()] == b'{"online":true}'
    assert seen[topic_alert("A1-1-revoke-1")] == b"alert with the deal"
    assert not set(forged.values()) & set(seen.values())


def test_a_device_writes_only_its_own_event_topic_and_no_command(broker_url: str) -> None:
    with connect(broker_url, "tenace-hub.observer") as hub:
        hub.subscribe(f"{ROOT}/t/+/ev/+")
        hub.subscribe(f"{ROOT}/dealer/+/ev")
        hub.subscribe(f"{ROOT}/hub/cmd/#")
        hub.subscribe(f"{ROOT}/hub/cmd")
        with connect(broker_url, "A1-N") as north, connect(broker_url, "results") as results, \
                connect(broker_url, "director") as director:
            north.publish(topic_event("A1", "A1-tab"), b"as the table's tablet", wait=True)
            north.publish(topic_event("A2", "A2-N"), b"as another table's North", wait=True)
            north.publish(topic_event("A1", "A1-E"), b"as East", wait=True)
            north.publish(f"{ROOT}/dealer/dealer-1/ev", b"as a dealing machine", wait=True)
            north.publish(f"{ROOT}/hub/cmd", b"acknowledge", wait=True)
            north.publish(topic_hub_command("director"), b"rule", wait=True)
            results.publish(topic_hub_command("results"), b"rule", wait=True)
            director.publish(topic_hub_command("scorer"), b"as the scorer", wait=True)
            director.publish(f"{ROOT}/hub/cmd", b"on the bare hub/cmd", wait=True)
            north.publish(topic_event("A1", "A1-N"), b"mine", wait=True)
            director.publish(topic_hub_command("director"), b"director's", wait=True)
            seen = [m.payload for m in drain(
                hub, lambda out: any(m.payload == b"director's" for m in out))]
    assert seen == [b"mine", b"director's"]


def test_nobody_takes_the_hub_s_client_id(broker_url: str, broker_kind: str,
                                          keyring: Keyring) -> None:
    """Another account, or none, connecting as ``tenace-hub``: the hub stays connected and
    its presence is not replaced by its will."""
    status = topic_hub_status()
    hub = MqttClient(broker_url, "tenace-hub", will=(status, b'{"online":false}', 1, True),
                     birth=(status, b'{"online":true}', 1, True)).wait_connected()
    try:
        guess = broker_url.replace("mqtt://", "mqtt://tenace-hub:guess@")
        assert refused(guess, "tenace-hub") == "refused by the broker: Not authorized"
        with MqttClient(keyring.url(broker_url, "A1-N"), "tenace-hub", clean_session=True,
                        reconnect_delay=(0.1, 0.5)) as thief:
            deadline = time.monotonic() + 60       # a guard: the broker's answer is awaited
            while not (thief.last_error or thief.connected.is_set()):
                assert time.monotonic() < deadline, "the broker never answered the thief"
                time.sleep(0.05)
            if broker_kind == "amqtt":          # refused outright
                assert not thief.connected.is_set()
                assert thief.last_error == "refused by the broker: Not authorized"
            # Mosquitto: connected, but as A1-N (use_username_as_clientid)
        # Had either thief taken its place, the hub's connection would have dropped before
        # the fence reached it (the fence then comes after a reconnection, the second).
        hub.subscribe(status, timeout=GUARD)
        fenced(hub, broker_url)
        assert hub.connected.is_set() and hub.connections == 1
        with connect(broker_url, "director") as director:
            presence = probe(director, broker_url, status)
        assert [m.payload for m in presence] == [b'{"online":true}']
    finally:
        hub.close(farewell=False)


def test_a_last_will_on_a_forbidden_topic_forges_nothing(broker_url: str,
                                                         room: MqttClient) -> None:
    will = (topic_state("A1"), b"forged by a will", 1, True)
    client = MqttClient(broker_url, "A1-W", will=will, reconnect_delay=(0.1, 0.5))
    try:
        deadline = time.monotonic() + GUARD     # a guard: the broker's answer is awaited
        while not (client.last_error or client.connected.is_set()):
            assert time.monotonic() < deadline, "the broker never answered A1-W"
            time.sleep(0.05)
        if client.connected.is_set():
            client._break_connection()   # the broker would publish the will now
            # Connected again: the broker has ended the first connection, will and all.
            while client.connections < 2 or not client.connected.is_set():
                assert time.monotonic() < deadline, "A1-W never reconnected"
                time.sleep(0.05)
    finally:
        client.close(farewell=False)
    with connect(broker_url, "A1-tab") as table:
        assert [m.payload for m in probe(table, broker_url, topic_state("A1"))] == [b"A1 state"]


def test_a_revoked_or_rotated_account_is_disconnected_and_refused(
        broker_url: str, keyring: Keyring) -> None:
    keyring.issue("A7-S")
    old = keyring.url(broker_url, "A7-S")
    device = MqttClient(old, "A7-S", reconnect_delay=(0.1, 0.5)).wait_connected()
    try:
        keyring.issue("A7-S")                       # rotated: the old password is revoked
        deadline = time.monotonic() + 60            # a guard, the loop ends on the event
        while device.connected.is_set() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not device.connected.is_set()
        assert refused(old, "A7-S") == "refused by the broker: Not authorized"
        fresh = keyring.url(broker_url, "A7-S")
        connect(fresh, "A7-S").close()
        keyring.revoke("A7-S")
        assert refused(fresh, "A7-S") == "refused by the broker: Not authorized"
    finally:
        device.close(farewell=False)
        keyring.issue("A7-S")


def test_a_live_hub_s_hands_reach_only_their_seats(broker_url: str, tmp_path: Path) -> None:
    """A board announced and played through the hub: a device subscribed to everything it
    could ask for gets only what it may see (its own hand; the table's public state)."""
    hub = hub_on(broker_url, tmp_path)
    with HubRunner(hub):
        spies = {name: MqttClient(broker_url, name, clean_session=True, start=False)
                 for name in ("A1-E", "A1-rdr", "A2-N")}
        for spy in spies.values():
            for topic_filter in ("#", f"{ROOT}/t/+/seat/+", f"{ROOT}/t/A1/#"):
                spy.subscribe(topic_filter, 1, wait=False)
            spy.start().wait_connected()
        try:
            runs = run_tables(broker_url, {"A1": revoke_script()[:5]})
            assert runs["A1"].codes == {"ok": 5}
            seen = {name: fenced(spy, broker_url) for name, spy in spies.items()}
        finally:
            for spy in spies.values():
                spy.close(farewell=False)
    east = {m.topic for m in seen["A1-E"]}
    assert topic_seat("A1", "E") in east and topic_state("A1") in east
    assert not any("/seat/" in t and t != topic_seat("A1", "E") for t in east)
    assert not any("/seat/" in m.topic or "/director/" in m.topic for m in seen["A1-rdr"])
    assert not any("/t/A1/" in m.topic for m in seen["A2-N"])


def test_the_embedded_broker_refuses_to_start_open_by_mistake() -> None:
    from hub.broker import BrokerError, EmbeddedBroker
    with pytest.raises(BrokerError, match="accounts file"):
        EmbeddedBroker()
