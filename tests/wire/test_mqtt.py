"""The MQTT layer (hub/mqtt.py, hub/broker.py) against real brokers on loopback: the embedded
amqtt broker and Mosquitto. QoS 1, retained state, last will, birth after resubscription,
persistent sessions, raw bytes; the broker's life cycle; the deploy/ access list."""

from __future__ import annotations

import asyncio
import os
import queue
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from hub.broker import BrokerError, EmbeddedBroker
from hub.mosquitto import Mosquitto, free_port
from tests.conftest import Keyring
from wire.mqtt import Message, MqttClient, MqttError, parse_url
from wire.protocol import (
    topic_device_command,
    topic_device_status,
    topic_event,
    topic_hub_status,
    topic_seat,
    topic_state,
)

REPO = Path(__file__).resolve().parents[2]
ONLINE = b'{"online": true}'
OFFLINE = b'{"online": false}'
FAST = (0.05, 0.5)  # reconnect backoff for tests


def client(url: str, client_id: str, **kwargs: object) -> MqttClient:
    """A connected client that reconnects quickly."""
    kwargs.setdefault("reconnect_delay", FAST)
    return MqttClient(url, client_id, **kwargs).wait_connected()  # type: ignore[arg-type]


def receive(mqtt: MqttClient, count: int = 1, timeout: float = 5.0) -> list[Message]:
    """The next ``count`` messages, failing after ``timeout``."""
    deadline = time.monotonic() + timeout
    got = []
    while len(got) < count:
        try:
            got.append(mqtt.messages.get(timeout=max(0.0, deadline - time.monotonic())))
        except queue.Empty:
            pytest.fail(f"{mqtt}: {len(got)} of {count} messages after {timeout} s: {got}")
    return got


def silence(mqtt: MqttClient, seconds: float = 0.3) -> list[Message]:
    """Whatever arrives within ``seconds`` (used to assert that nothing does)."""
    time.sleep(seconds)
    got = []
    while not mqtt.messages.empty():
        got.append(mqtt.messages.get_nowait())
    return got


# Delivery --------------------------------------------------------------------------------

def test_qos1_round_trip_is_acknowledged_and_delivered(broker_url: str) -> None:
    event = topic_event("t3", "t3-N")
    with client(broker_url, "tenace-hub") as hub, client(broker_url, "t3-N") as device:
        hub.subscribe("tenace/v1/t/+/ev/+")
        delivery = device.publish(event, b'{"v": 1}', qos=1, wait=True)
        assert delivery.done
        assert receive(hub) == [Message(event, b'{"v": 1}', qos=1, retain=False)]


def test_an_unsubscribed_filter_delivers_nothing_more(broker_url: str) -> None:
    """hub.sharding lets another shard's table go once no panel follows it."""
    with client(broker_url, "tenace-hub") as hub:
        hub.subscribe(topic_state("t3"))
        hub.subscribe(topic_state("A1"))
        hub.unsubscribe(topic_state("t3"))
        hub.unsubscribe(topic_state("t3"))               # twice: nothing more to do
        # The broker has the UNSUBSCRIBE before this (one connection, in order).
        hub.publish(topic_state("A1"), b"marker", wait=True)
        assert receive(hub)[0].payload == b"marker"
        hub.publish(topic_state("t3"), b"not for me", wait=True)
        hub.publish(topic_state("A1"), b"after", wait=True)
        assert [m.payload for m in receive(hub)] == [b"after"]
        hub.publish(topic_state("t3"), b"", retain=True, wait=True)
        hub.publish(topic_state("A1"), b"", retain=True, wait=True)


def test_retained_state_reaches_a_late_subscriber(broker_url: str) -> None:
    with client(broker_url, "tenace-hub") as hub:
        hub.publish(topic_state("t3"), b"old", retain=True, wait=True)
        hub.publish(topic_state("t3"), b"new", retain=True, wait=True)
        hub.publish(topic_seat("t3", "N"), b"north hand", retain=True, wait=True)
    with client(broker_url, "t3-N") as device:
        device.subscribe(topic_state("t3"))
        assert receive(device) == [Message(topic_state("t3"), b"new", qos=1, retain=True)]
        device.subscribe(topic_seat("t3", "N"))
        assert receive(device) == [Message(topic_seat("t3", "N"), b"north hand", 1, True)]
        assert silence(device) == []


def test_malformed_payloads_pass_through_as_bytes(broker_url: str) -> None:
    """The client layer hands over any bytes unchanged; judging them is the hub's job."""
    garbage = [b"\xff\xfe\x00{not json", b"", bytes(range(256)) * 300, "é".encode("latin-1")]
    with client(broker_url, "tenace-hub") as hub, client(broker_url, "t3-N") as device:
        hub.subscribe(topic_event("t3", "t3-N"))
        for payload in garbage:
            device.publish(topic_event("t3", "t3-N"), payload, wait=True)
        assert [m.payload for m in receive(hub, len(garbage))] == garbage
        device.publish(topic_event("t3", "t3-N"), b"still alive", wait=True)
        assert receive(hub)[0].payload == b"still alive"


def test_messages_can_go_to_an_asyncio_loop(broker_url: str) -> None:
    """With on_message and loop, the callback runs on the loop's thread, never paho's."""

    async def main() -> tuple[list[Message], set[int]]:
        loop = asyncio.get_running_loop()
        got: list[Message] = []
        threads: set[int] = set()
        done = asyncio.Event()

        def on_message(message: Message) -> None:
            got.append(message)
            threads.add(threading.get_ident())
            if len(got) == 2:
                done.set()

        hub = MqttClient(broker_url, "tenace-hub", on_message=on_message, loop=loop)
        try:
            await asyncio.to_thread(hub.subscribe, "tenace/v1/t/+/ev/+")
            with client(broker_url, "t3-N") as device:
                device.publish(topic_event("t3", "t3-N"), b"\x00one", wait=True)
                device.publish(topic_event("t3", "t3-N"), b"two", wait=True)
            await asyncio.wait_for(done.wait(), 5)
        finally:
            await asyncio.to_thread(hub.close)
        return got, threads

    got, threads = asyncio.run(main())
    assert [m.payload for m in got] == [b"\x00one", b"two"]
    assert threads == {threading.get_ident()}


# Presence: last will and birth ---------------------------------------------------------------

_DEVICE = textwrap.dedent("""
    import sys, time
    from wire.mqtt import MqttClient
    url, device, status = sys.argv[1:]
    MqttClient(url, device, will=(status, b'{"online": false}', 1, True),
               birth=(status, b'{"online": true}', 1, True)).wait_connected()
    print("up", flush=True)
    time.sleep(60)
""")


def test_last_will_is_published_retained_when_a_device_dies(broker_url: str) -> None:
    status = topic_device_status("t3", "t3-N")
    with client(broker_url, "tenace-hub") as hub:
        hub.subscribe(status)
        with subprocess.Popen([sys.executable, "-c", _DEVICE, broker_url, "t3-N", status],
                              stdout=subprocess.PIPE, cwd=REPO) as device:
            try:
                assert device.stdout is not None and device.stdout.readline() == b"up\n"
                assert receive(hub) == [Message(status, ONLINE, qos=1, retain=False)]
                os.kill(device.pid, signal.SIGKILL)  # no DISCONNECT: the broker sends the will
            finally:
                device.kill()
        assert receive(hub) == [Message(status, OFFLINE, qos=1, retain=False)]
    with client(broker_url, "director") as console:
        console.subscribe(status)
        assert receive(console) == [Message(status, OFFLINE, qos=1, retain=True)]


def test_clean_close_sends_no_will_and_farewell_publishes_it(broker_url: str) -> None:
    status = topic_device_status("t3", "t3-N")
    presence = (status, OFFLINE, 1, True)
    birth = (status, ONLINE, 1, True)
    with client(broker_url, "tenace-hub") as hub:
        hub.subscribe(status)
        device = client(broker_url, "t3-N", will=presence, birth=birth)
        assert receive(hub)[0].payload == ONLINE
        device.close(farewell=False)
        device.close()  # idempotent
        assert silence(hub) == []
        device = client(broker_url, "t3-N", will=presence, birth=birth)
        assert receive(hub)[0].payload == ONLINE
        device.close()
        assert receive(hub) == [Message(status, OFFLINE, qos=1, retain=False)]


def test_birth_follows_resubscription_after_a_reconnection(broker_url: str) -> None:
    """Without a session (clean session) the broker forgets the subscription on a network
    failure: the device must subscribe again before announcing itself, so a command sent as
    soon as its birth is seen reaches it."""
    status = topic_device_status("t3", "t3-N")
    command = topic_device_command("t3", "t3-N")
    with client(broker_url, "tenace-hub") as hub:
        hub.subscribe(status)
        device = client(broker_url, "t3-N", clean_session=True,
                        birth=(status, ONLINE, 1, True), will=(status, OFFLINE, 1, True))
        with device:
            device.subscribe(command)
            assert receive(hub)[0].payload == ONLINE
            device._break_connection()
            births = [m.payload for m in receive(hub, 2)]
            assert births == [OFFLINE, ONLINE]  # the will, then the birth after reconnecting
            hub.publish(command, b"resync", wait=True)
            assert receive(device) == [Message(command, b"resync", qos=1, retain=False)]
            assert device.connections == 2


def test_a_persistent_session_keeps_messages_published_while_away(broker_url: str) -> None:
    """QoS 1 messages for a disconnected persistent session are queued by the broker and
    delivered, in order and not flagged retained, when the same client id comes back.

    Stock amqtt 0.12 does not do this for anonymous clients (see the next test); the embedded
    broker's own authentication plugin makes it behave like Mosquitto."""
    command = topic_device_command("t3", "t3-N")
    away = client(broker_url, "t3-N")
    away.subscribe(command)
    away.close(farewell=False)
    with client(broker_url, "tenace-hub") as hub:
        for n in range(3):
            hub.publish(command, b"command %d" % n, wait=True)
    with MqttClient(broker_url, "t3-N") as back:  # subscribes to nothing itself
        assert receive(back, 3) == [Message(command, b"command %d" % n, 1, False)
                                    for n in range(3)]


_STOCK_AMQTT = textwrap.dedent("""
    import asyncio, logging, sys
    from amqtt.broker import Broker
    logging.disable(logging.WARNING)
    async def main():
        config = {"listeners": {"default": {"type": "tcp", "bind": "127.0.0.1:" + sys.argv[1]}},
                  "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin": {}}}
        broker = Broker(config)
        await broker.start()
        print("up", flush=True)
        await asyncio.Event().wait()
    asyncio.run(main())
""")


def test_stock_amqtt_quirks_that_the_embedded_broker_fixes() -> None:
    """amqtt 0.12 as shipped: an anonymous persistent session is dropped at disconnection
    (messages published meanwhile are lost), and a new client receives the retained
    messages of filters other clients subscribed to. If this fails after an amqtt upgrade,
    hub/broker.py's workarounds may go."""
    port = free_port()
    url = f"mqtt://127.0.0.1:{port}"
    with subprocess.Popen([sys.executable, "-c", _STOCK_AMQTT, str(port)],
                          stdout=subprocess.PIPE) as stock:
        try:
            leaked = _stock_amqtt_scenario(stock, url)
        finally:
            stock.terminate()
    assert [m.payload for m in leaked] == [b"north hand"]  # not its filter, not "lost"


def _stock_amqtt_scenario(stock: subprocess.Popen[bytes], url: str) -> list[Message]:
    """What a client of stock amqtt sees (the docstring above)."""
    assert stock.stdout is not None and stock.stdout.readline() == b"up\n"
    away = client(url, "t3-N")
    away.subscribe("cmd")
    away.close(farewell=False)
    time.sleep(1.2)  # amqtt's session monitor runs every second
    with client(url, "tenace-hub") as hub:
        hub.publish("cmd", b"lost", wait=True)
        with client(url, "t3-S") as south:
            south.subscribe(topic_seat("t3", "N"))
            hub.publish(topic_seat("t3", "N"), b"north hand", retain=True, wait=True)
            assert receive(south)[0].payload == b"north hand"
        with client(url, "t3-N") as back:
            back.subscribe(topic_state("t3"))
            return silence(back, 0.5)


def test_embedded_broker_sends_only_the_clients_own_retained_messages(
        embedded_broker: EmbeddedBroker) -> None:
    url = embedded_broker.url
    with client(url, "tenace-hub") as hub, client(url, "t3-S") as south:
        south.subscribe(topic_seat("t3", "S"))
        hub.publish(topic_seat("t3", "S"), b"south hand", retain=True, wait=True)
        assert receive(south)[0].payload == b"south hand"
        with client(url, "t3-N") as north:
            north.subscribe(topic_seat("t3", "N"))
            assert silence(north) == []


# Connection handling -------------------------------------------------------------------------

def test_publish_waits_for_the_acknowledgement_and_times_out_without_broker(
        mosquitto: Mosquitto) -> None:
    with client(mosquitto.url, "t3-N") as device:
        mosquitto.stop()
        with pytest.raises(MqttError, match="no acknowledgement"):
            device.publish(topic_event("t3", "t3-N"), b"{}", wait=True, timeout=0.3)
        assert not device.connected.is_set()


def test_a_client_waits_for_a_broker_that_is_not_there_yet(keyring: Keyring) -> None:
    port = free_port()
    with MqttClient(f"mqtt://127.0.0.1:{port}", "t3-N", reconnect_delay=FAST) as device:
        with pytest.raises(MqttError, match="not connected"):
            device.wait_connected(0.2)
        with EmbeddedBroker(port=port, accounts=keyring.accounts.path):
            device.wait_connected(5)
            assert device.connections == 1


@pytest.mark.parametrize("url, port", [
    ("mqtt://127.0.0.1:1884", 1884), ("mqtt://hub.local", 1883), ("mqtt://[::1]:18830/", 18830),
])
def test_parse_url(url: str, port: int) -> None:
    assert parse_url(url).port == port


def test_parse_url_reads_credentials_and_hides_the_password() -> None:
    address = parse_url("mqtt://t3-north:s%40cret@hub:1883")
    assert (address.host, address.username, address.password) == ("hub", "t3-north", "s@cret")
    assert "cret" not in repr(address)


@pytest.mark.parametrize("url", [
    "", "127.0.0.1:1883", "http://hub:1883", "mqtts://hub?ca=", "mqtt://hub?ca=/etc/ca.crt",
    "mqtts://hub?ca=/a&ca=/b", "mqtt://", "mqtt://hub:99999",
    "mqtt://hub:port", "mqtt://hub:0", "mqtt://hub:1883/topic", "mqtt://hub?x=1",
])
def test_bad_urls_are_refused_clearly(url: str) -> None:
    with pytest.raises(ValueError, match="bad MQTT broker URL"):
        MqttClient(url, "t3-N")


def test_a_persistent_session_needs_a_client_id() -> None:
    with pytest.raises(ValueError, match="client id"):
        MqttClient("mqtt://127.0.0.1:1883", "", start=False)


# The embedded broker -------------------------------------------------------------------------

def test_embedded_broker_life_cycle(keyring: Keyring) -> None:
    broker = EmbeddedBroker(accounts=keyring.accounts.path)
    with broker:
        assert broker.running and broker.port > 0
        assert broker.url == f"mqtt://127.0.0.1:{broker.port}"
        with pytest.raises(BrokerError, match="already started"):
            broker.start()
        with pytest.raises(BrokerError, match="did not start"):
            EmbeddedBroker(port=broker.port, accounts=keyring.accounts.path).start()  # taken
        pid = broker.pid
    assert not broker.running and broker.pid is None
    broker.stop()  # idempotent
    assert pid is not None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_embedded_broker_exits_when_its_parent_dies(keyring: Keyring) -> None:
    """The child watches its stdin: the parent's death closes it, the broker exits."""
    broker = EmbeddedBroker(accounts=keyring.accounts.path).start()
    try:
        process = broker._process
        assert process is not None and process.stdin is not None
        process.stdin.close()
        assert process.wait(5) == 0
    finally:
        broker.stop()


def test_embedded_broker_url_for_a_lan_binding() -> None:
    assert EmbeddedBroker("0.0.0.0", 1883, accounts="a.json").url == "mqtt://127.0.0.1:1883"


def test_embedded_broker_needs_accounts_or_open_access() -> None:
    with pytest.raises(BrokerError, match="accounts file"):
        EmbeddedBroker()


# deploy/: Mosquitto with the example access list -----------------------------------------------

def deploy_mosquitto(tmp_path: Path, users: tuple[str, ...]) -> Mosquitto:
    """Mosquitto as deploy/mosquitto.conf and deploy/acl.example set it up, each of ``users``
    with the password ``{user}-pw`` (mosquitto_passwd's own file)."""
    passwords = tmp_path / "passwd"
    for i, user in enumerate(users):
        subprocess.run(["mosquitto_passwd", "-b", *(["-c"] if i == 0 else []),
                        str(passwords), user, f"{user}-pw"], check=True)
    lines = []
    for line in (REPO / "deploy" / "mosquitto.conf").read_text().splitlines():
        if line.startswith(("listener", "persistence_location")):
            continue
        lines.append(line.replace("/etc/mosquitto/tenace.passwd", str(passwords))
                     .replace("/etc/mosquitto/tenace.acl", str(REPO / "deploy" / "acl.example")))
    return Mosquitto(tmp_path / "mosquitto", tuple(lines), open_access=True)  # lines say


def test_deploy_access_list_keeps_hands_private(tmp_path: Path) -> None:
    """deploy/mosquitto.conf and deploy/acl.example load in Mosquitto, and a device reads its
    own seat only, publishes under its own table only; the hub reads everything."""
    broker = deploy_mosquitto(tmp_path, ("tenace-hub", "A1-N"))
    host = f"127.0.0.1:{broker.port}"
    try:
        with MqttClient(f"mqtt://{host}", "anonymous") as anonymous:  # no anonymous access
            deadline = time.monotonic() + 5
            while anonymous.last_error is None and time.monotonic() < deadline:
                time.sleep(0.01)
            assert anonymous.last_error == "refused by the broker: Not authorized"
            assert not anonymous.connected.is_set()
        with client(f"mqtt://tenace-hub:tenace-hub-pw@{host}", "tenace-hub") as hub, \
                client(f"mqtt://A1-N:A1-N-pw@{host}", "A1-N") as north:
            hub.subscribe("tenace/v1/#")
            north.subscribe("tenace/v1/t/A1/seat/+")  # granted, but filtered per topic
            north.subscribe(topic_state("A1"))
            for seat in "NESW":
                hub.publish(topic_seat("A1", seat), f"{seat} hand".encode(), retain=True)
            hub.publish(topic_state("A1"), b"state", retain=True, wait=True)
            assert sorted(m.payload for m in receive(north, 2)) == [b"N hand", b"state"]
            north.publish(topic_event("A1", "A1-N"), b"mine", wait=True)
            north.publish(topic_event("A2", "A1-N"), b"not my table", wait=True)
            north.publish(topic_hub_status(), b"forged", wait=True)
            seen = [m.payload for m in receive(hub, 6)]
            assert seen[-1] == b"mine"
            assert b"not my table" not in seen + [m.payload for m in silence(hub)]
            assert silence(north) == []
    finally:
        broker.stop()
