"""A hub lost between writing an event to its log and publishing its reply (issue 24: the
chaos run's "no reply ... in 240 s" for events the log held): the device's outbox keeps the
event, the hub that comes back on the same log answers its copy ``ack`` (``duplicate``) and
does not apply it twice; the events behind it go on. Through Mosquitto, the real link and
outbox."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from hub.mosquitto import Mosquitto
from hub.service import Hub
from tests.wire.test_clocks import refusals, running_hub
from tests.wire.test_link import Screen, device_records, open_link, seat_pairs
from wire.link import DeviceLink
from wire.outbox import OUTBOX_NAME, Outbox
from wire.protocol import Reply


def _wait(predicate: Any, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return bool(predicate())


def _mute_replies(hub: Hub) -> list[str]:
    """From now on the hub logs what it takes but publishes no reply (it is lost right after
    its log's commit); returns the ids of the replies it kept to itself."""
    client = hub._client
    assert client is not None
    send, muted = client.send, []

    def quiet(topic: str, payload: bytes | str, qos: int = 1, retain: bool = False) -> None:
        if "/reply/" in topic:
            muted.append(str(Reply.from_json(payload).ref))
            return
        send(topic, payload, qos, retain)
    client.send = quiet   # type: ignore[method-assign]
    return muted


def test_an_event_logged_by_a_hub_lost_before_its_reply_is_acknowledged_by_the_next(
        mosquitto: Mosquitto, tmp_path: Path) -> None:
    url, folder = mosquitto.url, tmp_path / "hub"
    screen = Screen()
    box = Outbox(tmp_path / OUTBOX_NAME, "A1-tab")
    link: DeviceLink | None = None
    try:
        with running_hub(url, folder) as hub:
            link = open_link(hub.url, box, screen, reply_timeout=1.0)
            assert link.wait_online()
            sent = seat_pairs(link)
            assert link.wait_delivered()
            muted = hub.call(lambda: _mute_replies(hub))
            lost = link.send("call", {"seat": "N", "call": "1C"})
            assert _wait(lambda: lost.id in muted)
            assert [r.event_id for r in device_records(hub, "A1-tab")][-1] == lost.id
        assert _wait(lambda: link is not None and link.hub_online is False)
        assert link.pending == 1   # the outbox keeps what the hub never answered
        sent.append(lost)
        with running_hub(url, folder) as hub:
            sent.append(link.send("call", {"seat": "E", "call": "Pass"}))
            assert link.wait_delivered(60)
            assert [r.event_id for r in device_records(hub, "A1-tab")] == [e.id for e in sent]
            calls = hub.call(lambda: [str(e.call) for e in hub.room.tables["A1"].sitting.board
                                      .auction.entries])
            assert calls == ["1C", "Pass"]
            assert hub.stats.duplicates >= 1
        assert refusals(screen) == []
        answered = [args for kind, args in screen.events if kind == "reply"]
        assert [r.code for r, env in answered if env.id == lost.id] == ["duplicate"]
    finally:
        if link is not None:
            link.close()
        box.close()
