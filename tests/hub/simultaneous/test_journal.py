"""The organiser stopped and started again (``tenace sim-event run``, its journal,
hub.simultaneous.organiser): the clubs' results, finished boards and withdrawals it had are
taken again from its journal, those published while it was stopped come from its persistent
session on the broker, nothing counts twice; a line torn by a crash is named in the log and
skipped, the rest taken."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bridgecore.adjusted import BoardResult
from bridgecore.ranking import ScoringOptions, score_event
from hub.mosquitto import Mosquitto
from hub.simultaneous.event import generate_key, topic
from hub.simultaneous.field import field_pair
from hub.simultaneous.organiser import Organiser
from tests.hub.simultaneous.helpers import club_results, make_event, scored
from wire.mqtt import MqttClient

T0 = datetime(2026, 4, 12, 18, 0, tzinfo=UTC)


def test_the_organiser_started_again_has_everything_it_had(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="hub.simultaneous")
    event = make_event({"lyon": (T0, 3), "york": (T0, 2)}, boards=2)
    rows = {"lyon": club_results("lyon", 3, 2, seed=21), "york": club_results("york", 2, 2,
                                                                              seed=22)}
    journal, key = tmp_path / "journal.jsonl", generate_key()
    gone, late = rows["lyon"][1], rows["york"][3]
    with Mosquitto(tmp_path / "broker", open_access=True) as broker:
        club = MqttClient(broker.url, "clubs", clean_session=True)
        club.wait_connected()
        try:
            with Organiser(event, broker.url, key, now=lambda: T0, journal=journal) as first:
                for name, club_rows in rows.items():
                    for row in club_rows:
                        if row is not late:
                            club.publish(topic(event.id, name, "result"), json.dumps(row), 1)
                    club.publish(topic(event.id, name, "result"),
                                 json.dumps(club_rows[0]), 1)          # again: counted once
                    for board in (1, 2):
                        club.publish(topic(event.id, name, "finished"), json.dumps(
                            {"v": 1, "board": board, "results": len(club_rows) // 2}), 1)
                club.publish(topic(event.id, "lyon", "result"), json.dumps(
                    {"v": 1, "id": gone["id"], "board": gone["board"], "withdrawn": True}), 1)
                assert first.wait_for(lambda f: scored(f) == 8 and f.withdrawn, 60)
                assert first.field.duplicates == 2
            # Stopped: york's last result waits in the organiser's session on the broker.
            club.publish(topic(event.id, "york", "result"), json.dumps(late), 1, wait=True)
            with journal.open("ab") as torn:
                torn.write(b'{"club": "lyon", "kind": "res')      # a crash mid-write
            with Organiser(event, broker.url, key, now=lambda: T0, journal=journal) as again:
                assert again.wait_for(lambda f: scored(f) == 9
                                      and f.finished_boards("york") == (1, 2), 60)
                assert again.field.withdrawn == {("lyon", gone["id"])}
                assert again.field.duplicates == 0
                assert again.released == {"lyon", "york"}
                assert again.field.finished_boards("lyon") == (2,)   # board 1: 2 of its 3
                score = again.field.score
        finally:
            club.close()
    left = [(c, r) for c, club_rows in rows.items() for r in club_rows if r is not gone]
    offline = score_event([BoardResult(r["board"], field_pair(c, r["ns"]),
                                       field_pair(c, r["ew"]), r["score_ns"])
                           for c, r in left], options=ScoringOptions(expected=5))
    assert score is not None and score.ranking == offline.ranking
    assert any("line 17 not taken" in r.getMessage() for r in caplog.records)
    # The journal: each club's deals released (once: not again at the second start), a line
    # a message that changed the field (9 results, 4 finished, the withdrawal), the torn
    # one, then the late result on a line of its own.
    lines = journal.read_bytes().splitlines()
    assert [json.loads(line)["kind"] for line in lines[:2]] == ["deals", "deals"]
    assert len(lines) == 18 and lines[16] == b'{"club": "lyon", "kind": "res'
    assert json.loads(lines[17])["data"] == late
