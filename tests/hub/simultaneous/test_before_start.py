"""A club's messages before its start (issue 28, Law 16; audit of the branch `audit28`): with
its own account a club could say `finished` (0 results) of a board before its deals came,
and the organiser sent it every other club's results of that board at once, before the
club had even received the deals. The organiser now refuses a club's `result` and
`finished` until it has released that club's deals, logs why, and sends nothing; once the
club's start has come, the same messages count."""

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


def test_a_club_says_nothing_that_counts_before_its_deals_are_released(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="hub.simultaneous")
    clock = [T0]
    later = T0 + timedelta(hours=1)
    event = make_event({"lyon": (T0, 2), "york": (later, 2)}, boards=2)
    lyon = club_results("lyon", 2, 2, seed=5)
    seen: list[Message] = []
    with Mosquitto(tmp_path / "broker", open_access=True) as broker, \
            Organiser(event, broker.url, generate_key(), now=lambda: clock[0]) as organiser:
        york = MqttClient(broker.url, "york-eye", clean_session=True, on_message=seen.append)
        try:
            york.wait_connected()
            york.subscribe(topic(event.id, "york", "field") + "/+")
            york.subscribe(topic(event.id, "york", "deals"))
            for row in lyon:
                york.publish(topic(event.id, "lyon", "result"), json.dumps(row), 1)
            for board in (1, 2):
                york.publish(topic(event.id, "lyon", "finished"),
                             json.dumps({"v": 1, "board": board, "results": 2}), 1)
            assert organiser.wait_for(lambda f: f.finished_boards("lyon") == (1, 2))
            # york, an hour before its start: finished with no result, and a result.
            york.publish(topic(event.id, "york", "finished"),
                         json.dumps({"v": 1, "board": 1, "results": 0}), 1)
            york.publish(topic(event.id, "york", "result"), json.dumps(
                {"v": 1, "id": "york-b2-t1", "board": 2, "ns": 1, "ew": 3, "score_ns": 420}), 1)
            assert until(lambda: sum("york's deals are not released yet" in r.getMessage()
                                      for r in list(caplog.records)) == 2)
            assert organiser.field.finished_boards("york") == ()
            assert not any(key[0] == "york" for key in organiser.field.results)
            assert not seen     # neither deals nor any field result reached york
            # Its start comes: its deals go out, and the same messages count.
            clock[0] = later
            assert until(lambda: any(m.topic.endswith("/deals") for m in seen))
            york.publish(topic(event.id, "york", "result"), json.dumps(
                {"v": 1, "id": "york-b2-t1", "board": 2, "ns": 1, "ew": 3, "score_ns": 420}), 1)
            york.publish(topic(event.id, "york", "finished"),
                         json.dumps({"v": 1, "board": 2, "results": 1, "closed": True}), 1)
            assert organiser.wait_for(lambda f: f.finished_boards("york") == (2,))
            assert until(lambda: any(m.topic.endswith("/field/2") for m in seen))
            assert not any(m.topic.endswith("/field/1") for m in seen)
        finally:
            york.close()
