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
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hub.mosquitto import Mosquitto
from hub.simultaneous.event import generate_key, topic
from hub.simultaneous.organiser import Organiser
from tests.hub.simultaneous.helpers import club_results, make_event
from wire.mqtt import Message, MqttClient

T0 = datetime(2026, 4, 12, 18, 0, tzinfo=UTC)


def _until(test: object, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if test():   # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


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
            assert _until(lambda: "lyon" in organiser.released)
            for kind in ("result", "finished"):
                lyon.publish(topic(event.id, "lyon", kind), "[" * 100_000, 1, wait=True)
            # The organiser goes on: lyon's genuine results and finished count ...
            for row in club_results("lyon", 2, 2, seed=5):
                lyon.publish(topic(event.id, "lyon", "result"), json.dumps(row), 1)
            for board in (1, 2):
                lyon.publish(topic(event.id, "lyon", "finished"),
                             json.dumps({"v": 1, "board": board, "results": 2}), 1)
            assert organiser.wait_for(lambda f: f.finished_boards("lyon") == (1, 2))
            assert _until(lambda: {m.topic for m in seen} >= {
                topic(event.id, "lyon", "field") + "/1", topic(event.id, "lyon", "field") + "/2"})
            # ... and york's deals are released when its start comes.
            clock[0] = later
            assert _until(lambda: any(m.topic.endswith("/york/deals") for m in seen))
            # Each refused in one line of the log, naming its topic.
            refused = [r.getMessage() for r in caplog.records
                       if "JSON nested too deep" in r.getMessage()]
            assert len(refused) == 2 and all("/lyon/" in line for line in refused), refused
            assert not any(r.exc_info for r in caplog.records)
        finally:
            lyon.close()
            york.close()
