"""A hub restored from a mid-session backup gets back every event it had acknowledged
(docs/protocol.md section 6, "Hello"; issue 24): the devices' outboxes hold them, and the
broker (Mosquitto) outlives the hub, keeping for it the events sent while it was away.

The failure this guards against: the restored hub took a queued event (seq 8, sent while it
was down) before the device's ``hello``, accepted it with a gap after the backup's seq 3, and
the ``hello`` then found the device's last number already reached, so 4..7 were never sent
again. Now an event that skips numbers from a device the hub has not heard since it started
is held, unanswered, until that ``hello``; the reply's ``last`` sends the device's outbox
back from the hole, and the director hears what came back (the ``history_missing`` alert's
next version, ``recovered``)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from hub.event import EventSetup
from hub.logcheck import backup
from hub.mosquitto import Mosquitto
from hub.service import Hub, HubRunner, data_log
from hub.store import LOG_NAME
from tenace.sim.devices import DeviceEvent, apply_local
from tenace.sim.session import simulate
from tests.hub.test_ordering_live import _record
from tests.wire.test_clocks import SEED, refusals, running_hub
from tests.wire.test_link import Screen, device_records, open_link, seat_pairs
from wire.link import DeviceLink
from wire.outbox import OUTBOX_NAME, Outbox


def _wait(predicate: object, timeout: float = 30.0) -> bool:
    assert callable(predicate)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return bool(predicate())


def test_a_hub_restored_from_a_backup_gets_every_acknowledged_event_back(
        mosquitto: Mosquitto, tmp_path: Path) -> None:
    """Three events acknowledged, a backup; four more acknowledged; the hub is lost; one more
    entered while it is away waits in Mosquitto's queue for it; a hub on the backup alone
    holds that one until the tablet's hello, gets 4..7 back from the outbox, then it."""
    url = mosquitto.url
    folder, saved, restored = tmp_path / "hub", tmp_path / "saved", tmp_path / "restored"
    screen = Screen()
    box = Outbox(tmp_path / OUTBOX_NAME, "A1-tab")
    link: DeviceLink | None = None
    try:
        with running_hub(url, folder) as hub:
            link = open_link(hub.url, box, screen)
            assert link.wait_online()
            sent = seat_pairs(link)
            assert link.wait_delivered()
            backup(folder, saved / LOG_NAME)        # tenace log backup, mid-session
            for seat, call in (("N", "1C"), ("E", "Pass"), ("S", "1H"), ("W", "Pass")):
                sent.append(link.send("call", {"seat": seat, "call": call}))
            assert link.wait_delivered()
            assert len(device_records(hub, "A1-tab")) == 7
        assert _wait(lambda: link is not None and link.hub_online is False)
        sent.append(link.send("call", {"seat": "N", "call": "2C"}))   # queued for the hub
        assert _wait(lambda: link is not None and link.published >= 1)
        restored.mkdir()
        (saved / LOG_NAME).rename(restored / LOG_NAME)   # the backup alone, nothing else
        with running_hub(url, restored) as hub:
            assert _wait(lambda: len(device_records(hub, "A1-tab")) == 8)
            assert link.wait_delivered(30)
            assert [r.event_id for r in device_records(hub, "A1-tab")] == [e.id for e in sent]
            assert refusals(screen) == []
            [alert] = hub.call(lambda: [a for a in hub.room.alerts
                                        if a.kind == "history_missing"])
            assert alert.facts == {"device": "A1-tab", "last": 3, "acked": 7, "recovered": 4}
            assert alert.version == 2 and "sent 4 event(s) again" in alert.detail
            assert hub.stats.unheard >= 1
            assert hub.stats.gaps == 0
            calls = hub.call(lambda: [str(e.call) for e in hub.room.tables["A1"].sitting.board
                                      .auction.entries])
            assert calls == ["1C", "Pass", "1H", "Pass", "2C"]
    finally:
        if link is not None:
            link.close()
        box.close()


def test_a_table_played_through_a_restored_backup_ends_with_the_clean_record(
        mosquitto: Mosquitto, tmp_path: Path) -> None:
    """A table's tablet and card reader (real links and outboxes) through Mosquitto:
    ``tenace log backup`` at about 30 % of the table's events; the hub lost at about 60 %,
    one more event of each device entered while no hub runs (Mosquitto queues it for the
    hub); a hub on the backup alone: every event acknowledged is in its log, the table's
    record is the clean run's, and the only alerts are the director's ``history_missing``
    (each saying what was recovered)."""
    url = mosquitto.url
    setup = EventSetup.quick(tables=3, boards_per_round=2, seed=SEED)
    room = setup.build_room()
    script = simulate(room.sections, {n: room.deal(n) for n in setup.deals}, seed=5,
                      pace=0.001, start=time.time(), edition=room.edition, rounds=1)
    events = script.events_by_table["A1"]
    clean = setup.build_room()
    apply_local(clean, events)
    folder, saved, restored = tmp_path / "hub", tmp_path / "saved", tmp_path / "restored"
    boxes = {d: Outbox(tmp_path / f"{d}.sqlite3", d) for d in ("A1-tab", "A1-rdr")}
    links: dict[str, DeviceLink] = {}
    third, two_thirds = len(events) * 3 // 10, len(events) * 6 // 10
    sent: list[str] = []

    def send(part: Sequence[DeviceEvent]) -> None:
        for event in part:
            sent.append(links[event.device].send(event.type, dict(event.body),
                                                 device_time=event.time, at=event.at).id)
    try:
        hub = Hub(data_log(folder), url=url, setup=setup, tick_seconds=0.2)
        with HubRunner(hub):
            links.update({d: DeviceLink(url, "A1", d, outbox=box, views=False,
                                        kind="reader" if d.endswith("rdr") else "tablet",
                                        reconnect_delay=(0.1, 0.5))
                          for d, box in boxes.items()})
            send(events[:third])
            assert all(link.wait_delivered(60) for link in links.values())
            backup(folder, saved / LOG_NAME)
            send(events[third:two_thirds])
            assert all(link.wait_delivered(60) for link in links.values())
        hub.log.close()
        assert _wait(lambda: all(link.hub_online is False for link in links.values()))
        later = events[two_thirds:]
        first_of = {e.device: i for i, e in reversed(list(enumerate(later)))}
        queued = sorted(first_of.values())[:1]   # one device's next event, queued
        device = later[queued[0]].device
        before = links[device].published
        send([later[i] for i in queued])
        assert _wait(lambda: links[device].published > before)   # Mosquitto keeps it
        restored.mkdir()
        (saved / LOG_NAME).rename(restored / LOG_NAME)
        hub = Hub(data_log(restored), url=url, setup=setup, tick_seconds=0.2)
        with HubRunner(hub):
            send([e for i, e in enumerate(later) if i not in queued])
            assert all(link.wait_delivered(90) for link in links.values())
            logged = hub.call(lambda: {r.event_id for r in hub.log.replay()
                                       if r.source == "device"})
            played = hub.call(lambda: hub.room.tables["A1"].snapshot())
            alerts = hub.call(lambda: [a for a in hub.room.alerts])
        hub.log.close()
        assert all(not box.rejections() for box in boxes.values())
    finally:
        for link in links.values():
            link.close(farewell=False)
        for box in boxes.values():
            box.close()
    assert set(sent) <= logged and len(sent) == len(events)
    assert _record(played) == _record(clean.tables["A1"].snapshot())
    assert {a.kind for a in alerts} == {"history_missing"}
    assert all("recovered" in a.facts for a in alerts)
