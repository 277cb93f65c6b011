"""One club's account against the organiser of a simultaneous event (audit ``auditsec``):
what a club may publish (its ``result`` and ``finished``) must never stop the organiser for
the other clubs.

One ``result`` of 100,000 ``[`` (100 KB, well under any packet limit) raised RecursionError
in the organiser's worker thread, which caught only the errors it expected: the thread died,
and from then on no club's deals were released, no result taken, no field result sent, with
nothing but a traceback on the organiser's terminal.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hub.mosquitto import Mosquitto
from hub.simultaneous.event import generate_key, topic
from hub.simultaneous.organiser import Organiser
from tests.hub.simultaneous.helpers import club_results, make_event, until
from wire.mqtt import Message, MqttClient

T0 = datetime(2026, 4, 12, 18, 0, tzinfo=UTC)


def test_a_clubs_deeply_nested_message_never_stops_the_organiser(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="hub.simultaneous")
    clock = [T0]
    later = T0 + timedelta(hours=1)
    event = make_event({"lyon": (T0, 2), "york": (later, 2)}, boards=2)
    seen: list[Message] = []
    with Mosquitto(tmp_path / "broker", open_access=True) as broker, \
            Organiser(event, broker.url, generate_key(), now=lambda: clock[0]) as organiser:
        lyon = MqttClient(broker.url, "lyon-x", clean_session=True)
        york = MqttClient(broker.url, "york-eye", clean_session=True, on_message=seen.append)
        try:
            lyon.wait_connected()
            york.wait_connected()
            york.subscribe(topic(event.id, "york", "deals"))
            york.subscribe(topic(event.id, "lyon", "field") + "/+")
            # lyon's deals are out (its start has come): its messages are read.
            assert until(lambda: "lyon" in organiser.released)
            for kind in ("result", "finished"):
                lyon.publish(topic(event.id, "lyon", kind), "[" * 100_000, 1, wait=True)
            # The organiser goes on: lyon's genuine results and finished count ...
            for row in club_results("lyon", 2, 2, seed=5):
                lyon.publish(topic(event.id, "lyon", "result"), json.dumps(row), 1)
            for board in (1, 2):
                lyon.publish(topic(event.id, "lyon", "finished"),
                             json.dumps({"v": 1, "board": board, "results": 2}), 1)
            assert organiser.wait_for(lambda f: f.finished_boards("lyon") == (1, 2))
            assert until(lambda: {m.topic for m in seen} >= {
                topic(event.id, "lyon", "field") + "/1", topic(event.id, "lyon", "field") + "/2"})
            # ... and york's deals are released when its start comes.
            clock[0] = later
            assert until(lambda: any(m.topic.endswith("/york/deals") for m in seen))
            # Each refused in one line of the log, naming its topic.
            refused = [r.getMessage() for r in caplog.records
                       if "JSON nested too deep" in r.getMessage()]
            assert len(refused) == 2 and all("/lyon/" in line for line in refused), refused
            assert not any(r.exc_info for r in caplog.records)
        finally:
            lyon.close()
            york.close()


def _publish_packet(topic_name: str, body: bytes) -> bytes:
    """An MQTT 3.1.1 PUBLISH, QoS 0, of ``body`` (its remaining length as the spec says)."""
    payload = len(topic_name).to_bytes(2, "big") + topic_name.encode() + body
    n, length = len(payload), b""
    while True:
        byte, n = n % 128, n // 128
        length += bytes([byte | (0x80 if n else 0)])
        if not n:
            return b"\x30" + length + payload


def test_a_clubs_oversized_publish_never_reaches_the_organiser(
        tmp_path: Path, closing: list[object]) -> None:
    """The organiser's Mosquitto, as ``sim-event init`` configures it, took a packet of any
    size (Mosquitto's own limit is 256 MB): a club's certificate could hand the organiser's
    service a 100 MB ``result`` to hold and parse, and keep 100 MB retained on each of its
    topics. It now refuses a packet over 1 MiB (``max_packet_size``, as the hub's broker):
    the club's connection is closed and the organiser never sees it, while a result of
    normal size from the same club arrives."""
    import socket
    import ssl

    from hub.simultaneous.kit import organiser_url
    from tests.hub.simultaneous.test_revoked import OrganiserBroker, _init

    out, port, bridge_port = _init(tmp_path)
    org, lyon = out / "organiser", out / "clubs" / "lyon"
    broker = OrganiserBroker(org / "mosquitto.conf", (port, bridge_port),
                             tmp_path / "organiser.log")
    closing.append(broker)
    taken: list[Message] = []
    organiser = MqttClient(organiser_url(out, f"localhost:{port}"), "organiser",
                           clean_session=True, on_message=taken.append)
    closing.append(organiser)
    organiser.wait_connected(30)
    organiser.subscribe("tenace/sim/v1/spring/+/result")
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH,
                                         cafile=str(org / "tls" / "ca.crt"))
    context.load_cert_chain(str(lyon / "bridge.crt"), str(lyon / "bridge.key"))
    result = topic("spring", "lyon", "result")
    connect = b"\x10\x0e\x00\x04MQTT\x04\x02\x00\x3c\x00\x02id"
    with socket.create_connection(("localhost", bridge_port), 30) as raw, \
            context.wrap_socket(raw, server_hostname="localhost") as tls:
        tls.sendall(connect)
        assert tls.recv(4) == b"\x20\x02\x00\x00"          # lyon's certificate: accepted
        tls.sendall(_publish_packet(result, b'{"small": true}'))
        assert until(lambda: any(m.payload == b'{"small": true}' for m in taken))
        huge = _publish_packet(result, b"[" + b"0," * (4 * 1024 * 1024) + b"0]")
        closed = False
        try:
            tls.sendall(huge)
            tls.settimeout(30)
            closed = tls.recv(16) == b""
        except TimeoutError:
            closed = False
        except (ssl.SSLError, OSError):
            closed = True
        assert closed, "the organiser's broker kept the connection of an 8 MB packet"
    assert "max_packet_size 1048576" in (org / "mosquitto.conf").read_text().splitlines()
    # A last small result from the organiser's side of the ACL: everything before it came.
    organiser.publish(result, b'{"last": true}', 1, wait=True)
    assert until(lambda: any(m.payload == b'{"last": true}' for m in taken))
    assert all(len(m.payload) < 1024 for m in taken), [len(m.payload) for m in taken]
