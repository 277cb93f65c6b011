"""Many device links driven by one :class:`wire.mux.LinkLoop` thread, against real brokers
and a real hub: every device its own connection and account, every reply matched to its
event, and outages (a cable cut, a broker restarted) with nothing lost or applied twice."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hub.event import EventSetup
from hub.service import Hub, HubRunner, data_log
from tests.hub.conftest import Mosquitto
from tests.wire.test_link import Cable, Screen, calls, device_records, seat_pairs
from wire.link import DeviceLink, LinkState
from wire.mux import LinkLoop
from wire.outbox import Outbox
from wire.protocol import Envelope

SEED = "0123456789abcdef0123456789abcdef01234567"
FAST = {"reconnect_delay": (0.1, 0.5)}
TABLES = ("A1", "A2", "A3", "A4")
DEVICES = [f"{t}-{d}" for t in TABLES for d in ("tab", "N", "E", "S", "W")]


@pytest.fixture
def loop() -> Iterator[LinkLoop]:
    with LinkLoop("test-links") as running:
        yield running


def start_hub(url: str, tmp_path: Path) -> Hub:
    setup = EventSetup.quick(tables=len(TABLES), boards_per_round=2, seed=SEED)
    return Hub(data_log(tmp_path / "hub"), url=url, setup=setup, tick_seconds=0.2)


@pytest.fixture
def hub(broker_url: str, tmp_path: Path) -> Iterator[Hub]:
    running = start_hub(broker_url, tmp_path)
    try:
        with HubRunner(running):
            yield running
    finally:
        running.log.close()


def open_links(url: str, loop: LinkLoop, devices: list[str], screen: Screen,
               **kw: object) -> dict[str, DeviceLink]:
    return {d: DeviceLink(url, d.split("-")[0], d, outbox=Outbox(":memory:", d), loop=loop,
                          **{**FAST, **kw, **screen.callbacks()})   # type: ignore[arg-type]
            for d in devices}


def close_links(links: dict[str, DeviceLink]) -> None:
    for link in links.values():
        link.close()
        link.outbox.close()


def test_many_links_on_one_thread_each_get_the_replies_to_their_own_events(
        hub: Hub, loop: LinkLoop) -> None:
    before = {t.name for t in threading.enumerate()}
    screen = Screen()
    links = open_links(hub.url, loop, DEVICES, screen)
    try:
        assert all(link.wait_online() for link in links.values())
        assert {t.name for t in threading.enumerate()} - before <= {"test-links"}
        sent: dict[str, list[Envelope]] = {d: [] for d in DEVICES}
        for _ in range(3):   # every device at once, each event its own alert (9B1)
            for device, link in links.items():
                sent[device].append(link.send("director_call", {}))
        assert all(link.wait_delivered() for link in links.values())
    finally:
        close_links(links)
    replies = screen.replies()
    assert len(replies) == 3 * len(DEVICES)
    assert {e.id for _, e in replies} == {e.id for es in sent.values() for e in es}
    assert all(r.ref == e.id and r.status == "ack" and r.code == "ok" for r, e in replies)
    assert screen.threads == {"test-links"}   # every callback on the loop's thread
    for device in DEVICES:
        stored = device_records(hub, device)
        assert [(r.event_id, r.seq) for r in stored] == [(e.id, e.seq) for e in sent[device]]


def test_a_late_reply_sends_the_same_id_again_and_the_hub_applies_it_once(
        hub: Hub, loop: LinkLoop) -> None:
    screen = Screen()
    links = open_links(hub.url, loop, ["A1-tab"], screen, reply_timeout=0.1)
    link = links["A1-tab"]
    try:
        assert link.wait_online()
        busy = threading.Thread(target=hub.call, args=(lambda: time.sleep(0.8),))
        busy.start()                                    # the hub is slow for a moment
        time.sleep(0.05)
        entered = seat_pairs(link)
        assert link.wait_delivered()
        busy.join()
        assert link.published > len(entered)            # copies went again, by timer
    finally:
        close_links(links)
    assert hub.call(lambda: hub.stats.duplicates) >= 1
    assert [r.event_id for r in device_records(hub, "A1-tab")] == [e.id for e in entered]
    assert [(r.code, e) for r, e in screen.replies()] == [("ok", e) for e in entered]


def test_a_table_cut_off_plays_on_and_every_entry_reaches_the_hub_once_in_order(
        hub: Hub, loop: LinkLoop) -> None:
    cable = Cable(hub.url)
    screen = Screen()
    links = open_links(cable.url, loop, ["A1-tab"], screen)
    others = open_links(hub.url, loop, ["A2-tab", "A3-tab"], Screen())
    link = links["A1-tab"]
    try:
        assert link.wait_online()
        sent = seat_pairs(link)
        assert link.wait_delivered()
        cable.cut()                                      # this table's network goes down
        assert screen.wait(lambda: link.connection is LinkState.OFFLINE)
        entered = [("N", "1C"), ("E", "1H"), ("S", "1S"), ("W", "2C")]
        offline = [link.send("call", {"seat": s, "call": c}) for s, c in entered]
        calls_elsewhere = [o.send("director_call", {}) for o in others.values()]
        assert all(o.wait_delivered() for o in others.values())   # the loop goes on
        assert link.pending == 4 and hub.call(lambda: hub.stats.accepted) == 3 + 2
        cable.plug()
        assert link.wait_delivered(15)
    finally:
        close_links(links)
        close_links(others)
        cable.close()
    stored = device_records(hub, "A1-tab")
    assert [r.event_id for r in stored] == [e.id for e in sent + offline]
    assert [r.seq for r in stored] == list(range(1, 8))
    assert [(r.code, e) for r, e in screen.replies()] == [("ok", e) for e in sent + offline]
    assert screen.of("connection") == [LinkState.ONLINE, LinkState.OFFLINE, LinkState.ONLINE]
    assert len(calls_elsewhere) == 2
    assert calls(hub.call(lambda: hub.room.tables["A1"].public_state())) == entered


@pytest.mark.parametrize("kill", [False, True], ids=["restarted", "crashed"])
def test_a_broker_restart_in_mid_play_loses_nothing_and_doubles_nothing(
        mosquitto: Mosquitto, loop: LinkLoop, tmp_path: Path, kill: bool) -> None:
    running = start_hub(mosquitto.url, tmp_path)
    screen = Screen()
    sent: dict[str, list[Envelope]] = {d: [] for d in DEVICES}
    try:
        with HubRunner(running):
            links = open_links(mosquitto.url, loop, DEVICES, screen, reply_timeout=1.0)
            try:
                assert all(link.wait_online() for link in links.values())
                for round_ in range(4):
                    if round_ == 2:
                        mosquitto.restart(kill=kill)     # events in flight and entered
                    for device, link in links.items():
                        sent[device].append(link.send("director_call", {}))
                assert all(link.wait_delivered(30) for link in links.values())
            finally:
                close_links(links)
            stored = {d: device_records(running, d) for d in DEVICES}
    finally:
        running.log.close()
    for device in DEVICES:
        assert [(r.event_id, r.seq) for r in stored[device]] == \
            [(e.id, e.seq) for e in sent[device]]
    answered = [e.id for _, e in screen.replies()]
    assert sorted(answered) == sorted(e.id for es in sent.values() for e in es)
