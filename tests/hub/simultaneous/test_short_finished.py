"""A club's short ``finished`` after its start (issue 28, Law 16; audit `audit28b`): with its
own account a club could say `finished` for a board with fewer results than it plays (or 0)
and get the field's results of the board while its tables still played it. The organiser now
releases a board's field results to a club only when its count reaches the club's ``plays``
(the event file) or its director closes the board (``"closed": true``, a table that did not
play it); a short count is logged and the operator told, and the board stays held."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from pathlib import Path

import pytest

from hub.mosquitto import Mosquitto
from hub.simultaneous import SimError, SimEvent
from hub.simultaneous.event import generate_key, topic
from hub.simultaneous.field import FieldScorer
from hub.simultaneous.organiser import Organiser
from tenace.cli import main
from tests.hub.simultaneous.helpers import club_results, deals_pbn, make_event, until
from wire.mqtt import Message, MqttClient

T0 = datetime(2026, 4, 12, 18, 0, tzinfo=UTC)


def test_the_field_holds_a_board_said_finished_short_until_closed_or_complete() -> None:
    field = FieldScorer(make_event({"lyon": (T0, 3), "york": (T0, 2)}, boards=2))
    rows = club_results("lyon", 3, 2, seed=3)
    field.add_result("lyon", rows[0])                  # board 1, one table of three
    field.finish("lyon", {"v": 1, "board": 1, "results": 1})
    assert field.short("lyon", 1) and field.finished_boards("lyon") == ()
    field.finish("lyon", {"v": 1, "board": 2, "results": 0})
    assert field.finished_boards("lyon") == ()
    # Its director closes board 1 (two tables did not play it): released.
    field.finish("lyon", {"v": 1, "board": 1, "results": 1, "closed": True})
    assert not field.short("lyon", 1) and field.finished_boards("lyon") == (1,)
    # Board 2 played by its three tables: released with its count.
    for row in rows[3:]:
        field.add_result("lyon", row)
    field.finish("lyon", {"v": 1, "board": 2, "results": 3})
    assert field.finished_boards("lyon") == (1, 2)
    with pytest.raises(Exception, match="closed is true or false"):
        field.finish("lyon", {"v": 1, "board": 2, "results": 3, "closed": "yes"})


def test_a_short_finished_on_the_broker_gets_nothing_and_the_operator_is_told(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="hub.simultaneous")
    event = make_event({"lyon": (T0, 3), "york": (T0, 3)}, boards=2)
    told: list[str] = []
    seen: list[Message] = []
    with Mosquitto(tmp_path / "broker", open_access=True) as broker, \
            Organiser(event, broker.url, generate_key(), now=lambda: T0,
                      on_notice=told.append) as organiser:
        york = MqttClient(broker.url, "york-eye", clean_session=True, on_message=seen.append)
        try:
            york.wait_connected()
            york.subscribe(topic(event.id, "york", "field") + "/+")
            assert until(lambda: organiser.released == {"lyon", "york"})
            for row in club_results("lyon", 3, 2, seed=5):
                york.publish(topic(event.id, "lyon", "result"), json.dumps(row), 1)
            for board in (1, 2):
                york.publish(topic(event.id, "lyon", "finished"),
                             json.dumps({"v": 1, "board": board, "results": 3}), 1)
            assert organiser.wait_for(lambda f: f.finished_boards("lyon") == (1, 2))
            # york, its tables still playing: board 1 finished with 0, board 2 with 1.
            york.publish(topic(event.id, "york", "result"), json.dumps(
                {"v": 1, "id": "york-b2-t1", "board": 2, "ns": 1, "ew": 4, "score_ns": 420}), 1)
            york.publish(topic(event.id, "york", "finished"),
                         json.dumps({"v": 1, "board": 1, "results": 0}), 1)
            york.publish(topic(event.id, "york", "finished"),
                         json.dumps({"v": 1, "board": 2, "results": 1}), 1)
            assert until(lambda: len(told) == 2)
            assert "club york said board 1 finished with 0 results but plays it 3 times" \
                in told[0]
            assert sum("held back" in r.getMessage() for r in caplog.records) == 2
            assert organiser.wait_for(lambda f: ("york", "york-b2-t1") in f.results)
            assert organiser.field.finished_boards("york") == ()
            # The worker scored after taking them and published nothing to york.
            assert not any("/york/field/" in name for name in organiser._sent)
            assert not seen
            # Its director closes board 2 (two tables did not play it): released.
            york.publish(topic(event.id, "york", "finished"),
                         json.dumps({"v": 1, "board": 2, "results": 1, "closed": True}), 1)
            assert until(lambda: any(m.topic.endswith("/field/2") for m in seen))
            assert any("york's director closed board 2 with 1 results of the 3" in r.getMessage()
                       for r in caplog.records)
            assert not any(m.topic.endswith("/field/1") for m in seen)
        finally:
            york.close()


def test_sim_event_init_warns_of_a_plays_its_movement_cannot_have(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A club's ``plays`` against the movement the event file says: an 8-table Mitchell (its
    skip) plays each board 7 times, a 5-table one 5 times; 8 would hold every board back."""
    (tmp_path / "deals.pbn").write_text(deals_pbn(3))
    path = tmp_path / "event.json"
    start = "2026-04-12T19:00:00+02:00"
    path.write_text(json.dumps({"version": 1, "event": "spring", "deals": "deals.pbn",
                                "clubs": [
                                    {"id": "lyon", "start": start, "plays": 8,
                                     "movement": "mitchell", "tables": 8},
                                    {"id": "york", "start": start, "plays": 5,
                                     "movement": "mitchell", "tables": 5},
                                    {"id": "bath", "start": start, "plays": 4}]}))
    event = SimEvent.load(path)
    assert event.club("york").plays_problem() is None
    assert event.club("bath").plays_problem() is None      # no movement said: nothing to check
    assert main(["sim-event", "init", str(path), str(tmp_path / "kit"),
                 "--host", "localhost"]) == 0
    err = capsys.readouterr().err
    assert "warning: club lyon: plays 8, but its movement (Mitchell 8 tables, skip) plays " \
        "each board 7 times" in err
    assert "club york" not in err and "club bath" not in err
    path.write_text(path.read_text().replace('"mitchell", "tables": 5', '"mitchell"'))
    with pytest.raises(SimError, match="club york: movement 'mitchell' of None tables"):
        SimEvent.load(path)
