"""The club's side run as ``tenace sim-event club`` runs it (hub.simultaneous.kit.run_club) on
a real Mosquitto: the deals that come in signed by the organiser are written to the kit, a
forgery is not, and the hub's results go out as the event's."""

from __future__ import annotations

import json
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

from bridgecore.errors import FormatError
from bridgecore.usebio import read_usebio
from hub.mosquitto import Mosquitto
from hub.simultaneous.event import generate_key, public_pem, sign, topic
from hub.simultaneous.handover import SIGNED_DEALS, read_signed_deals
from hub.simultaneous.kit import PUBLIC_KEY, RELAY_STATE, UPLOAD_FILE, run_club
from hub.simultaneous.organiser import deals_body
from tests.hub.simultaneous.helpers import make_event, until, write_accounts
from tests.hub.simultaneous.test_relay import _hub_result
from wire.mqtt import Message, MqttClient
from wire.protocol import topic_result, topic_traveller

PASSWORD = "club-local-secret-0123456789"




def _upload_rows(kit: Path) -> list[object]:
    try:
        return list(read_usebio((kit / UPLOAD_FILE).read_bytes()).rows)
    except (OSError, FormatError):
        return []


def test_run_club_writes_checked_deals_and_relays_results(tmp_path: Path) -> None:
    start = datetime(2026, 4, 12, 18, tzinfo=UTC)
    event = make_event({"lyon": (start, 1)}, boards=2)
    key = generate_key()
    kit = tmp_path / "kit"
    kit.mkdir()
    (kit / PUBLIC_KEY).write_bytes(public_pem(key))
    lines = write_accounts(tmp_path / "acc", {n: (PASSWORD, ["topic readwrite #"])
                                              for n in ("sim-link", "bridge")})
    seen: list[Message] = []
    stop = threading.Event()
    with Mosquitto(tmp_path / "broker", lines, open_access=True) as broker:
        url = broker.url.replace("mqtt://", "mqtt://{}:" + PASSWORD + "@")
        bridge = MqttClient(url.format("bridge"), "bridge", clean_session=True,
                            on_message=seen.append)   # stands for what the bridge carries
        bridge.wait_connected()
        bridge.subscribe(topic(event.id, "lyon", "result"))
        worker = threading.Thread(target=run_club, args=(
            kit, event.id, "lyon", url.format("sim-link"), 1, stop), kwargs={"poll": 0.05})
        worker.start()
        try:
            forged = sign(generate_key(), deals_body(event, "lyon", start))
            bridge.publish(topic(event.id, "lyon", "deals"), forged, retain=True, wait=True)
            real = sign(key, deals_body(event, "lyon", start))
            time.sleep(0.5)
            assert not (kit / "deals.pbn").exists()       # the forgery is not written
            bridge.publish(topic(event.id, "lyon", "deals"), real, retain=True, wait=True)
            assert until(lambda: (kit / "deals.pbn").exists()), "the deals were not written"
            assert (kit / "deals.pbn").read_text() == event.deals
            # Kept as it came for the hub, which checks it again (tenace hub --sim-kit).
            assert until(lambda: (kit / SIGNED_DEALS).exists())
            assert (kit / SIGNED_DEALS).read_bytes() == real
            assert read_signed_deals(kit, event.id, "lyon")["pbn"] == event.deals
            bridge.publish(topic_result("A1", 1, 2), _hub_result("A1", 1, 2, 1, 2, 110),
                           wait=True)
            assert until(lambda: bool(seen)), "the hub's result did not go out"
            assert json.loads(seen[0].payload)["id"] == "A1-1-2"
            # The club's results as its ECATS upload file (USEBIO).
            assert until(lambda: (kit / UPLOAD_FILE).exists()), "no upload file"
            rows = read_usebio((kit / UPLOAD_FILE).read_bytes()).rows
            assert [(r.result.board, r.result.ns, r.result.ew, r.result.score_ns)
                    for r in rows] == [(2, 1, 2, 110)]
            # The ids it sent, for its next start (a line gone meanwhile is withdrawn).
            assert until(lambda: (kit / RELAY_STATE).exists())
            assert json.loads((kit / RELAY_STATE).read_text()) == {
                "ids": {"A1-1-2": 2}, "finished": [2]}
            # A ruling alone on board 1 (12C2(a)), then withdrawn: the upload follows both.
            line = {"table": "A2", "round": 1, "NS": 3, "EW": 4, "contract": None,
                    "score_ns": None, "form": 0, "adjustment": "A+ A-", "ruling": "R1",
                    "corrected": None, "not_scored": None}
            for rows_now, lines_now in ((2, [line]), (1, [])):
                bridge.publish(topic_traveller("A", 1), json.dumps(
                    {"v": 1, "section": "A", "key": "A", "board": 1, "method": "mp",
                     "fouled": False, "results": lines_now}), retain=True, wait=True)
                assert until(lambda n=rows_now: len(_upload_rows(kit)) == n), rows_now
            assert seen[-1].payload == json.dumps(
                {"v": 1, "id": "A2-1-1", "board": 1, "withdrawn": True}).encode()
        finally:
            stop.set()
            worker.join(30)
            bridge.close()
    assert not worker.is_alive()
