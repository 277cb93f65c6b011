"""The organiser's deals handed to a running club hub's set-up (hub.simultaneous.handover,
``tenace hub --sim-kit``): the signed set that ``tenace sim-event club`` keeps is checked by
the hub itself and becomes the event's deals (the room deals from them); a forged, tampered
or another club's set is refused with an error naming why, logged, the set-up unchanged."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bridgecore.pbn import read_pbn
from hub.event import EventSetup, setup_from_json
from hub.mosquitto import Mosquitto
from hub.service import Hub, HubRunner, data_log
from hub.simultaneous import SimError
from hub.simultaneous.event import generate_key, public_pem, sign
from hub.simultaneous.handover import CLUB_FILE, SIGNED_DEALS, DealsIntake, setup_with_deals
from hub.simultaneous.kit import PUBLIC_KEY
from hub.simultaneous.organiser import deals_body
from tests.hub.simultaneous.helpers import make_event

T0 = datetime(2026, 4, 12, 18, tzinfo=UTC)


def _kit(tmp_path: Path, key: object) -> Path:
    kit = tmp_path / "kit"
    kit.mkdir()
    (kit / PUBLIC_KEY).write_bytes(public_pem(key))   # type: ignore[arg-type]
    (kit / CLUB_FILE).write_text(json.dumps({"event": "sim-test", "club": "lyon"}))
    return kit


def _tampered(payload: bytes) -> bytes:
    """The organiser's message with one card of its deals moved: the signature no more fits."""
    outer = json.loads(payload)
    body = json.loads(outer["body"])
    first = body["pbn"].index('[Deal "N:') + len('[Deal "N:')
    hand = body["pbn"][first:first + 20]
    body["pbn"] = body["pbn"].replace(hand, hand[::-1], 1)
    outer["body"] = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return json.dumps(outer).encode()


def test_a_running_hub_takes_the_organisers_deals_and_refuses_any_other(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    event = make_event({"lyon": (T0, 4), "york": (T0, 4)}, boards=6)
    organiser = {b: r.deal for r in read_pbn(event.deals).records
                 if (b := r.board) is not None}
    key = generate_key()
    kit = _kit(tmp_path, key)
    setup = EventSetup.quick(tables=2, boards_per_round=2, seed="1" * 40)
    played = sorted(setup.deals)
    assert any(setup.deals[b] != organiser[b] for b in played)
    signed = sign(key, deals_body(event, "lyon", T0))
    with Mosquitto(tmp_path / "broker", open_access=True) as broker:
        hub = Hub(data_log(tmp_path / "data"), url=broker.url, setup=setup,
                  setup_loader=setup_from_json, tick_seconds=0.2)
        with HubRunner(hub):
            intake = DealsIntake(hub, kit, poll=0.05).start()
            try:
                caplog.set_level(logging.ERROR, "hub.simultaneous.handover")
                for bad, why in ((sign(generate_key(), deals_body(event, "lyon", T0)),
                                  "not the organiser's"),
                                 (_tampered(signed), "not the organiser's"),
                                 (sign(key, deals_body(event, "york", T0)), "sim-test/york"),
                                 (b"deals", "malformed")):
                    count = len(intake.refused)
                    (kit / SIGNED_DEALS).write_bytes(bad)
                    assert intake.wait_for(lambda i, n=count: len(i.refused) > n), why
                    assert why in intake.refused[-1]
                    assert hub.setup == setup, f"refused ({why}) yet the set-up changed"
                assert sum("deals refused" in r.getMessage() for r in caplog.records) == 4
                (kit / SIGNED_DEALS).write_bytes(signed)
                assert intake.wait_for(lambda i: i.taken is not None), intake.refused
            finally:
                intake.close()
            assert {b: hub.setup.deals[b] for b in played} == \
                {b: organiser[b] for b in played}
            assert all(hub.room.deal(b) == organiser[b] for b in played)
            assert "simultaneous sim-test" in hub.setup.boards_source
            assert hub.setup.sections == setup.sections
    # The log holds the new set-up: the hub opened again plays the organiser's deals.
    again = Hub(data_log(tmp_path / "data"), url=broker.url, setup_loader=setup_from_json)
    assert {b: again.setup.deals[b] for b in played} == {b: organiser[b] for b in played}
    again.log.close()


def test_deals_lacking_a_board_the_movement_plays_are_refused() -> None:
    event = make_event({"lyon": (T0, 4)}, boards=2)
    setup = EventSetup.quick(tables=2, boards_per_round=2, seed="1" * 40)
    with pytest.raises(SimError, match=r"lack boards \[3, 4\]"):
        setup_with_deals(setup, event.deals, event.id)


def test_tenace_hub_sim_kit_takes_the_deals_by_itself(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys
    import time

    event = make_event({"lyon": (T0, 2)}, boards=6)
    organiser = {b: r.deal for r in read_pbn(event.deals).records
                 if (b := r.board) is not None}
    key = generate_key()
    kit = _kit(tmp_path, key)
    with Mosquitto(tmp_path / "broker", open_access=True) as broker:
        env = {k: v for k, v in os.environ.items() if k != "TENACE_MQTT_KEYRING"}
        hub = subprocess.Popen(
            [sys.executable, "-m", "tenace", "hub", "--tables", "2", "--boards-per-round", "2",
             "--data", str(tmp_path / "data"), "--broker", broker.url, "--console", "off",
             "--sim-kit", str(kit)], env=env, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True)
        try:
            (kit / SIGNED_DEALS).write_bytes(sign(key, deals_body(event, "lyon", T0)))
            deadline = time.monotonic() + 90
            lines: list[str] = []
            assert hub.stdout is not None
            while time.monotonic() < deadline:
                line = hub.stdout.readline()
                if not line:
                    break
                lines.append(line)
                if "are the event's deals" in line:
                    break
            assert any("are the event's deals" in line for line in lines), "".join(lines)
        finally:
            hub.terminate()
            hub.communicate(timeout=30)   # the rest of its output; its pipe closed
    again = Hub(data_log(tmp_path / "data"), url=broker.url, setup_loader=setup_from_json)
    try:
        assert again.setup.deals and all(again.setup.deals[b] == organiser[b]
                                         for b in again.setup.deals)
    finally:
        again.log.close()
