"""The tablet's link (tablet/link.py) against real brokers and a real hub: entries made
offline, app restarts, lost and late replies, refusals, a spare tablet, bad messages.

The tablet reaches the broker through :class:`tests.cable.Cable` (the simulator's chaos
proxy) that the test can unplug: the tablet's network goes down while the hub's stays up, as
when a tablet's Wi-Fi drops."""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bridgecore.cards import Seat
from hub.event import EventSetup
from hub.log_records import StoredRecord
from hub.service import Hub, HubRunner, data_log
from tests.cable import Cable
from tests.conftest import Keyring
from wire.link import DeviceLink, LinkError, LinkState, device_id, spare_device_id
from wire.mqtt import MqttClient
from wire.outbox import OUTBOX_NAME, Outbox
from wire.protocol import (
    Envelope,
    Reply,
    topic_device_command,
    topic_hub_status,
    topic_reply,
    topic_seat,
    topic_state,
    topic_table_command,
)

SEED = "0123456789abcdef0123456789abcdef01234567"
FAST = {"reconnect_delay": (0.1, 0.5)}


# A cable the test can pull -------------------------------------------------------------------

# What a screen is told -----------------------------------------------------------------------

class Screen:
    """Collects the link's callbacks (from its worker thread) in the order they came."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.events: list[tuple[str, Any]] = []
        self.threads: set[str] = set()

    def callbacks(self) -> dict[str, Any]:
        def record(kind: str) -> Callable[..., None]:
            def callback(*args: Any) -> None:
                with self.lock:
                    self.events.append((kind, args[0] if len(args) == 1 else args))
                    self.threads.add(threading.current_thread().name)
            return callback
        return {f"on_{k}": record(k) for k in ("state", "seat", "reply", "connection",
                                                "command")}

    def of(self, kind: str) -> list[Any]:
        with self.lock:
            return [v for k, v in self.events if k == kind]

    def state(self) -> dict[str, Any]:
        states = self.of("state")
        return states[-1] if states else {}

    def replies(self) -> list[tuple[Reply, Envelope]]:
        return self.of("reply")

    def wait(self, done: Callable[[], bool], timeout: float = 60.0) -> bool:
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True


def calls(state: dict[str, Any]) -> list[tuple[str, str]]:
    return [(e["seat"], e["call"]) for e in state.get("auction", [])]


# The hub -------------------------------------------------------------------------------------

@pytest.fixture
def hub(broker_url: str, tmp_path: Path) -> Iterator[Hub]:
    setup = EventSetup.quick(tables=3, boards_per_round=2, seed=SEED)
    running = Hub(data_log(tmp_path / "hub"), url=broker_url, setup=setup, tick_seconds=0.2)
    try:
        with HubRunner(running):
            yield running
    finally:
        running.log.close()


def device_records(hub: Hub, device: str) -> list[StoredRecord]:
    return hub.call(lambda: [r for r in hub.log.replay()
                             if r.source == "device" and r.device == device])


def seat_pairs(link: DeviceLink) -> list[Envelope]:
    """Round 1 at A1 of the 3-table Mitchell: pairs 1 (NS) and 4 (EW), board 1 (North deals)."""
    return [link.send("checkin", {"direction": "NS", "pair": 1}),
            link.send("checkin", {"direction": "EW", "pair": 4}),
            link.send("board", {"board": 1})]


def open_link(url: str, box: Outbox, screen: Screen, seat: str | None = None,
              **kw: Any) -> DeviceLink:
    return DeviceLink(url, "A1", box.device, seat=seat, outbox=box,
                      **{**FAST, **kw, **screen.callbacks()})


# Offline, restarts, exactly once -------------------------------------------------------------

def test_entries_made_offline_reach_the_hub_in_order_exactly_once(hub: Hub,
                                                                  tmp_path: Path) -> None:
    cable = Cable(hub.url)
    screen = Screen()
    box = Outbox(tmp_path / OUTBOX_NAME, "A1-tab")
    link = open_link(cable.url, box, screen)
    try:
        assert link.wait_online()
        sent = seat_pairs(link)
        assert link.wait_delivered()
        assert screen.wait(lambda: screen.state().get("phase") == "auction")
        cable.cut()                                    # the tablet's network goes down
        assert screen.wait(lambda: link.connection is LinkState.OFFLINE)
        entered = [("N", "1C"), ("E", "1H"), ("S", "1S"), ("W", "2C")]
        offline = [link.send("call", {"seat": s, "call": c}) for s, c in entered]
        assert link.pending == 4 and hub.call(lambda: hub.stats.accepted) == 3
        cable.plug()
        assert link.wait_delivered(15)
        assert screen.wait(lambda: calls(screen.state()) == entered)
    finally:
        link.close()
        cable.close()
        box.close()
    stored = device_records(hub, "A1-tab")
    assert [r.event_id for r in stored] == [e.id for e in sent + offline]
    assert [r.seq for r in stored] == list(range(1, 8))
    assert hub.call(lambda: hub.stats.accepted) == 7
    assert [(r.code, e) for r, e in screen.replies()] == [("ok", e) for e in sent + offline]
    assert screen.of("connection") == [LinkState.ONLINE, LinkState.OFFLINE, LinkState.ONLINE]
    assert screen.threads == {"tenace-link-A1-tab"}


def test_the_outbox_survives_an_app_restart_and_numbering_goes_on(hub: Hub,
                                                                  tmp_path: Path) -> None:
    path = tmp_path / "tablet" / OUTBOX_NAME
    cable = Cable(hub.url)
    cable.cut()                                        # the tablet starts without network
    box = Outbox(path, "A1-tab")
    screen = Screen()
    first = open_link(cable.url, box, screen)
    entered = seat_pairs(first)
    assert first.connection is LinkState.CONNECTING and first.pending == 3
    first.close(farewell=False)                        # the app is stopped, then restarted
    box.close()
    cable.plug()
    box = Outbox(path)
    again = open_link(cable.url, box, screen)
    try:
        assert again.wait_delivered()
        more = again.send("call", {"seat": "N", "call": "1NT"})
        assert more.seq == 4
        assert again.wait_delivered()
    finally:
        again.close()
        cable.close()
        box.close()
    stored = device_records(hub, "A1-tab")
    assert [(r.event_id, r.seq) for r in stored] == [(e.id, e.seq) for e in [*entered, more]]


def test_a_lost_reply_is_answered_as_a_duplicate_and_applied_once(hub: Hub,
                                                                  tmp_path: Path) -> None:
    """The app dies after the hub committed an event but before the reply reached the
    outbox: the event is sent again with the same id, the hub acknowledges it as a
    duplicate without applying it twice."""
    path = tmp_path / OUTBOX_NAME
    screen = Screen()
    with Outbox(path, "A1-tab") as box:
        link = open_link(hub.url, box, screen)
        entered = seat_pairs(link)
        assert link.wait_delivered()
        link.close(farewell=False)
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE entries SET status = 'pending' WHERE seq = 3")
    with Outbox(path) as box:
        assert box.pending() == entered[2:]
        link = open_link(hub.url, box, screen)
        try:
            assert link.wait_delivered()
        finally:
            link.close()
    codes = [(r.code, e.seq) for r, e in screen.replies()]
    assert codes == [("ok", 1), ("ok", 2), ("ok", 3), ("duplicate", 3)]
    assert [r.seq for r in device_records(hub, "A1-tab")] == [1, 2, 3]
    assert hub.call(lambda: hub.stats.duplicates) == 1


def test_a_late_reply_makes_the_tablet_send_again_and_the_hub_applies_it_once(
        hub: Hub, tmp_path: Path) -> None:
    screen = Screen()
    with Outbox(tmp_path / OUTBOX_NAME, "A1-tab") as box:
        link = open_link(hub.url, box, screen, reply_timeout=0.1)
        try:
            assert link.wait_online()
            busy = threading.Thread(target=hub.call, args=(lambda: time.sleep(0.8),))
            busy.start()                               # the hub is slow for a moment
            time.sleep(0.05)
            entered = seat_pairs(link)
            assert link.wait_delivered()
            busy.join()
        finally:
            link.close()
    assert hub.call(lambda: hub.stats.duplicates) >= 1   # it was sent more than once...
    assert [r.event_id for r in device_records(hub, "A1-tab")] == [e.id for e in entered]
    assert [(r.code, e) for r, e in screen.replies()] == [("ok", e) for e in entered]


def test_while_the_hub_is_away_entries_wait_and_go_once_it_is_back(broker_url: str,
                                                                  tmp_path: Path) -> None:
    setup = EventSetup.quick(tables=3, boards_per_round=2, seed=SEED)
    screen = Screen()
    box = Outbox(tmp_path / OUTBOX_NAME, "A1-tab")
    first = Hub(data_log(tmp_path / "hub"), url=broker_url, setup=setup, tick_seconds=0.2)
    with HubRunner(first):
        link = open_link(broker_url, box, screen)
        assert link.wait_online()
        before = seat_pairs(link)
        assert link.wait_delivered()
    first.log.close()
    try:
        assert screen.wait(lambda: link.connection is LinkState.OFFLINE)  # the hub's will
        assert link.hub_online is False and link.client.connected.is_set()
        during = [link.send("call", {"seat": "N", "call": "1S"}),
                  link.send("call", {"seat": "E", "call": "Pass"})]
        second = Hub(data_log(tmp_path / "hub"), url=broker_url,
                     setup_loader=EventSetup.from_json, tick_seconds=0.2)
        with HubRunner(second):
            assert link.wait_delivered()
            assert screen.wait(lambda: link.connection is LinkState.ONLINE)
            stored = device_records(second, "A1-tab")
        second.log.close()
    finally:
        link.close()
        box.close()
    assert [r.event_id for r in stored] == [e.id for e in before + during]
    assert [r.code for r, e in screen.replies() if e in during] == ["ok", "ok"]


def test_entries_made_during_a_long_outage_keep_the_time_the_player_acted(
        hub: Hub, tmp_path: Path) -> None:
    """After a long outage the envelopes' own times are far from the hub's clock: each copy
    carries ``sent`` (the clock at publication), the hub checks that, and the events keep
    the times they happened; without ``sent`` the hub refuses them (``clock_skew``)."""
    ago = 300.0

    def clock() -> float:
        return time.time() - ago

    screen = Screen()
    cable = Cable(hub.url)
    cable.cut()
    with Outbox(tmp_path / "a" / OUTBOX_NAME, "A1-tab") as box:
        link = open_link(cable.url, box, screen, clock=clock)
        try:
            entered = seat_pairs(link)       # offline, five minutes ago
            assert all(e.time < time.time() - ago + 5 for e in entered)
            ago = 0.0                        # now the network is back
            cable.plug()
            assert link.wait_delivered()
            assert box.rejections() == []
        finally:
            link.close()
            cable.close()
    with contextlib.closing(sqlite3.connect(tmp_path / "a" / OUTBOX_NAME)) as db:
        kept = db.execute("SELECT device_time, status FROM entries ORDER BY seq").fetchall()
    assert kept == [(e.time, "done") for e in entered]
    stored = device_records(hub, "A1-tab")
    assert [r.event_id for r in stored] == [e.id for e in entered]
    assert [r.device_time for r in stored] == [e.time for e in entered]   # as it happened
    assert [r.code for r, _ in screen.replies()] == ["ok"] * 3

    strict = Screen()                        # without ``sent`` the hub refuses them
    cable = Cable(hub.url)
    cable.cut()
    with Outbox(tmp_path / "b" / OUTBOX_NAME, "A2-tab") as box:
        link = DeviceLink(cable.url, "A2", "A2-tab", outbox=box, clock=clock, stamp_sent=False,
                          reconnect_delay=(0.1, 0.5), **strict.callbacks())
        try:
            ago = 300.0
            link.send("checkin", {"direction": "NS", "pair": 2})
            ago = 0.0
            cable.plug()
            assert link.wait_delivered()
        finally:
            link.close()
            cable.close()
    assert [r.code for r, _ in strict.replies()] == ["clock_skew"]


# Refusals ------------------------------------------------------------------------------------

def test_a_refusal_is_reported_with_its_reason_then_the_state_again(hub: Hub,
                                                                    tmp_path: Path) -> None:
    """Strict mode (the hub refuses a call out of turn instead of recording it for the
    director): the tablet reports why, resynchronises, and the next call goes through."""
    assert hub.call(lambda: hub.director({"op": "table_mode", "table": "A1",
                                          "strict": True}))["ok"]
    screen = Screen()
    with Outbox(tmp_path / OUTBOX_NAME, "A1-tab") as box:
        link = open_link(hub.url, box, screen)
        try:
            seat_pairs(link)
            assert link.wait_delivered()
            assert screen.wait(lambda: screen.state().get("turn") == "N")
            wrong = link.send("call", {"seat": "E", "call": "1C"})
            right = link.send("call", {"seat": "N", "call": "1C"})
            assert link.wait_delivered()
            assert screen.wait(lambda: calls(screen.state()) == [("N", "1C")])
            assert box.rejections() == [(wrong, "not_your_turn",
                                         "it is North's turn to call")]
        finally:
            link.close()
    refused = [(r, e) for r, e in screen.replies() if r.status == "reject"]
    assert [(r.code, r.reason, e) for r, e in refused] == [
        ("not_your_turn", "it is North's turn to call", wrong)]
    with screen.lock:
        kinds = [k for k, _ in screen.events]
        at = next(i for i, (k, v) in enumerate(screen.events)
                  if k == "reply" and v[1] == wrong)
        assert screen.events[at + 1][0] == "state"     # resynchronised at once
    assert kinds.count("reply") == 5
    assert [r.code for r, e in screen.replies() if e == right] == ["ok"]


# A spare tablet, and who sees which hand -----------------------------------------------------

def test_a_spare_tablet_takes_over_a_table_in_mid_board(hub: Hub, tmp_path: Path,
                                                        keyring: Keyring) -> None:
    screen = Screen()
    dead_box = Outbox(tmp_path / "dead" / OUTBOX_NAME, device_id("A1"))
    dead = open_link(hub.url, dead_box, screen)
    seat_pairs(dead)
    dead.send("call", {"seat": "N", "call": "1NT"})
    dead.send("call", {"seat": "E", "call": "Pass"})
    assert dead.wait_delivered()
    dead.client._break_connection()                    # the tablet dies
    dead.close(farewell=False)
    dead_box.close()

    spare_id = spare_device_id("A1")
    assert spare_id.startswith("A1-tab.") and spare_id != dead.device
    keyring.issue(spare_id)                            # the spare's own account
    spare_screen = Screen()
    with Outbox(tmp_path / "spare" / OUTBOX_NAME, spare_id) as box:
        spare = open_link(hub.url, box, spare_screen)
        try:
            assert spare_screen.wait(lambda: spare_screen.state().get("turn") == "S")
            assert calls(spare_screen.state()) == [("N", "1NT"), ("E", "Pass")]
            taken = spare.send("call", {"seat": "S", "call": "3NT"})
            assert taken.seq == 1
            assert spare.wait_delivered()
            assert spare_screen.wait(lambda: len(calls(spare_screen.state())) == 3)
        finally:
            spare.close()
    assert [(r.code, e) for r, e in spare_screen.replies()] == [("ok", taken)]
    assert [r.event_id for r in device_records(hub, spare_id)] == [taken.id]
    assert screen.of("seat") == spare_screen.of("seat") == []   # a table tablet: no hand


def test_a_seat_tablet_reads_its_own_hand_and_no_other(hub: Hub, tmp_path: Path) -> None:
    """A table device never receives a hand it could not see at the table."""
    table_screen, south_screen = Screen(), Screen()
    with Outbox(tmp_path / "t" / OUTBOX_NAME, device_id("A1")) as table_box, \
            Outbox(tmp_path / "s" / OUTBOX_NAME, device_id("A1", "S")) as south_box:
        table = open_link(hub.url, table_box, table_screen)
        south = open_link(hub.url, south_box, south_screen, seat="S")
        try:
            assert south.mode == "seat" and table.mode == "table"
            assert south.wait_online()
            seat_pairs(table)
            assert table.wait_delivered()
            assert south_screen.wait(lambda: any(v["board"] == 1
                                                 for v in south_screen.of("seat")))
            south.send("call", {"seat": "N", "call": "Pass"})  # for whoever is to act
            assert south.wait_delivered()
        finally:
            table.close()
            south.close()
    deal = hub.room.deal(1)
    assert deal is not None
    dealt = sorted(str(c) for c in deal[Seat.SOUTH])
    view = south_screen.of("seat")[-1]
    assert view["seat"] == "S" and sorted(view["hand"]) == dealt
    assert {v["seat"] for v in south_screen.of("seat")} == {"S"}
    assert table_screen.of("seat") == []


# Bad input from the network ------------------------------------------------------------------

def test_malformed_messages_are_logged_and_never_stop_the_link(
        hub: Hub, tmp_path: Path, caplog: pytest.LogCaptureFixture, keyring: Keyring) -> None:
    caplog.set_level(logging.WARNING, logger="wire.link")
    screen = Screen()
    with Outbox(tmp_path / OUTBOX_NAME, "A1-N") as box:
        link = open_link(hub.url, box, screen, seat="N")
        keyring.issue("rogue", "hub")  # a broken hub: it may write what devices read
        rogue = MqttClient(hub.url, "rogue", clean_session=True).wait_connected()
        try:
            assert link.wait_online()
            seat_pairs(link)
            assert link.wait_delivered()
            assert screen.wait(lambda: screen.state().get("phase") == "auction")
            good_state, good_seat = link.state, link.seat_view
            bad: list[tuple[str, bytes]] = [
                (topic_state("A1"), b"{not json"),
                (topic_state("A1"), b"\xff\xfe"),
                (topic_state("A1"), b"[1, 2]"),
                (topic_state("A1"), b'{"phase": NaN}'),
                (topic_state("A1"), json.dumps({"table": "A2", "phase": "play"}).encode()),
                (topic_seat("A1", "N"), b'{"seat": "N", "hand": "SA"}'),
                (topic_seat("A1", "N"), json.dumps({"seat": "E", "hand": []}).encode()),
                (topic_reply("A1", "A1-N"), b"{}"),
                (topic_reply("A1", "A1-N"), b'"ack"'),
                (topic_reply("A1", "A1-N"), json.dumps(
                    {"type": "maybe", "ref": "A1-N-x-000001"}).encode()),
                (topic_reply("A1", "A1-N"), Reply("nobody-000009", 9, "reject", "x", "y"
                                                  ).to_json().encode()),
                (topic_table_command("A1"), b"\x00\x01"),
                (topic_device_command("A1", "A1-N"), b"17"),
                (topic_hub_status(), b'{"online": "perhaps"}'),
            ]
            for topic, payload in bad:
                rogue.publish(topic, payload, 1, wait=True)
            rogue.publish(topic_device_command("A1", "A1-N"), b'{"op": "resync"}', 1,
                          wait=True)
            assert screen.wait(lambda: len(screen.of("command")) == 1)
            assert link.state == good_state and link.seat_view == good_seat
            assert link.connection is LinkState.ONLINE
            link.send("call", {"seat": "N", "call": "1D"})   # and the link goes on
            assert link.wait_delivered()
            assert screen.wait(lambda: calls(screen.state()) == [("N", "1D")])
        finally:
            rogue.close()
            link.close()
    warned = [r for r in caplog.records if r.name == "wire.link"
              and r.levelno == logging.WARNING and "ignored" in r.getMessage()]
    assert len(warned) == len(bad) - 1   # the reply to nobody is only a debug line
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert screen.of("command") == [{"op": "resync"}]


# Set-up errors (no network) ------------------------------------------------------------------

def test_device_ids_and_set_up_errors(tmp_path: Path) -> None:
    assert device_id("A1") == "A1-tab" and device_id("7", "W") == "7-W"
    assert spare_device_id("A1", "N") != spare_device_id("A1", "N")
    for bad in (lambda: device_id("A 1"), lambda: device_id("A1", "X")):
        with pytest.raises(ValueError):
            bad()
    with Outbox(tmp_path / OUTBOX_NAME, "A1-tab") as box:
        with pytest.raises(LinkError, match="serves device A1-tab, not A1-N"):
            DeviceLink("mqtt://127.0.0.1:1", "A1", "A1-N", seat="N", outbox=box)
        with pytest.raises(ValueError, match="seat 'Q'"):
            DeviceLink("mqtt://127.0.0.1:1", "A1", "A1-tab", seat="Q", outbox=box)
        link = DeviceLink("mqtt://127.0.0.1:1", "A1", "A1-tab", outbox=box, start=False)
        link.close()
        link.close()
        with pytest.raises(LinkError, match="closed"):
            link.send("call", {"seat": "N", "call": "1C"})
        assert len(box) == 0
