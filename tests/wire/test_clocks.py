"""Clocks and resends that survive outages (docs/protocol.md, section 6): a device learns the
hub's clock from its replies and stamps each copy with its offset; the hub judges the
corrected time, takes a late copy of an outage, notices a clock that jumps; a device's
``hello`` refills a hub log restored from an older backup from the device's outbox.

The live tests run a real hub and broker; the tablet reaches the broker through
:class:`tests.cable.Cable`, here with a silent cut too (:class:`Cable.stall`: the bytes stop, the
sockets stay open, as when Wi-Fi drops without a word). Time that passes during a cut is
virtual: the hub's and the tablet's clocks (and the steady clock the tablet compares its own
with) move together by the length of the cut."""

from __future__ import annotations

import contextlib
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bridgecore.board import Board
from bridgecore.calls import Call
from bridgecore.cards import Seat
from hub.alerts import AlertBook
from hub.clock import JUMP_SECONDS, MAX_HELD, ClockBook, history_alert, judge
from hub.event import EventSetup
from hub.service import Hub, HubRunner, data_log
from hub.store import LOG_NAME
from tests.cable import Cable
from tests.wire.test_link import Screen, device_records, open_link, seat_pairs
from wire.link import ClockEstimate, DeviceLink
from wire.outbox import OUTBOX_NAME, Outbox
from wire.protocol import Envelope, Reply

SEED = "0123456789abcdef0123456789abcdef01234567"


def env(time_: float, sent: float | None = None, offset: float | None = None) -> Envelope:
    return Envelope("A1-tab-x-000001", "A1-tab", 1, time_, "call",
                    {"seat": "N", "call": "1C"}, sent=sent, offset=offset)


# The hub's check (hub.clock.judge) ------------------------------------------------------------

def test_a_device_clock_an_hour_off_passes_once_corrected_by_its_offset() -> None:
    hub_time = 1_780_000_000.0
    off = env(hub_time + 3600, sent=hub_time + 3600)
    assert "from the hub's" in str(judge(off, hub_time, 120.0))          # an earlier device
    assert judge(env(hub_time + 3600, sent=hub_time + 3600, offset=-3600.0), hub_time,
                 120.0) is None
    assert judge(env(hub_time - 300, sent=hub_time - 300, offset=300.0), hub_time,
                 120.0) is None
    assert judge(off, hub_time, None) is None                            # check switched off


def test_a_copy_stamped_ahead_of_the_hub_is_refused_even_with_an_offset() -> None:
    hub_time = 1_780_000_000.0
    reason = judge(env(hub_time, sent=hub_time + 200, offset=0.0), hub_time, 120.0)
    assert reason is not None and "ahead of the hub's" in reason


def test_a_late_copy_is_judged_by_when_it_was_sent_and_held_up_to_a_session() -> None:
    """A copy that waited 160 s in a queue (sent 160 s ago on the hub's clock) passes with
    its offset; without one (an earlier device) the tolerance holds both ways, as before;
    beyond :data:`MAX_HELD` it is refused."""
    hub_time = 1_780_000_000.0
    late = hub_time - 160
    assert judge(env(late - 5, sent=late, offset=0.0), hub_time, 120.0) is None
    assert judge(env(late - 5, sent=late), hub_time, 120.0) is not None
    reason = judge(env(hub_time - MAX_HELD - 10, sent=hub_time - MAX_HELD - 1, offset=0.0),
                   hub_time, 120.0)
    assert reason is not None and "held longer" in reason


def test_the_clock_book_keeps_each_devices_offset_and_notices_a_jump() -> None:
    book = ClockBook()
    assert book.offset("A1-tab") == 0.0 and not book.known("A1-tab")
    assert book.observe("A1-tab", None, 10.0) is None and not book.known("A1-tab")
    assert book.observe("A1-tab", -300.0, 10.0) is None
    assert book.observe("A1-tab", -300.4, 11.0) is None          # the estimate refined
    assert book.offset("A1-tab") == -300.4
    jump = book.observe("A1-tab", -900.4, 12.0)                  # the tablet's clock +600 s
    assert jump == pytest.approx(600.0)
    assert book.offset("A1-tab") == -900.4
    clock = book.get("A1-tab")
    assert clock is not None and clock.jumps == 1
    assert book.observe("A1-tab", -900.4 + JUMP_SECONDS / 2, 13.0) is None
    assert book.offset("A1-E") == 0.0 and len(book) == 1


def test_history_missing_is_one_alert_per_device_and_gap() -> None:
    alerts = AlertBook()
    body = {"device": "A1-tab", "table": "A1", "last": 1, "acked": 3}
    first = history_alert(alerts, "A1", 1, 1, body, 5.0)
    assert first is not None and first.kind == "history_missing" and first.law == ""
    assert first.facts == {"device": "A1-tab", "last": 1, "acked": 3}
    assert history_alert(alerts, "A1", 1, 1, body, 6.0) is None


# The device's estimate (wire.link.ClockEstimate) ---------------------------------------------

def test_the_estimate_is_the_sample_of_the_lowest_delay_and_moves_with_a_jump() -> None:
    estimate = ClockEstimate(keep=3)
    assert estimate.offset is None
    estimate.add_one_way(100.0, 400.0)             # hub/status: used only until better
    assert estimate.offset == 300.0
    estimate.add(100.0, 100.2, 400.3)              # delay 0.2: 400.3 - 100.1
    estimate.add(101.0, 102.0, 402.0)              # delay 1.0
    assert estimate.offset == pytest.approx(300.2) and estimate.delay == pytest.approx(0.2)
    estimate.shift(60.0)                           # the device's clock jumped +60 s
    assert estimate.offset == pytest.approx(240.2)
    for t in range(3):                             # the old samples leave
        estimate.add(200.0 + t, 200.5 + t, 500.25 + t)
    assert estimate.offset == pytest.approx(300.0) and len(estimate) == 3


# The outbox keeps the device's history -------------------------------------------------------

def test_the_outbox_refills_what_the_hub_lacks_and_clears_a_refusal_then_accepted() -> None:
    with Outbox(":memory:", "A1-tab") as box:
        envs = [box.add("board", {"board": 1}, 10.0 + n) for n in range(4)]
        assert box.acked() is None
        for e in envs[:3]:
            box.done(e.id, Reply(e.id, e.seq, "ack", time=20.0))
        assert box.acked() == 3
        again = box.resend_after(1)
        assert [e.seq for e in again] == [2, 3]
        assert [e.seq for e in box.pending()] == [2, 3, 4]            # in order, first
        assert box.resend_after(None) == [envs[0]]
        refused = Reply(envs[3].id, 4, "reject", "clock_skew", "late", 30.0)
        box.done(envs[0].id)
        box.rejected(envs[3].id, refused)
        assert box.cleared(envs[0].id, refused) is None               # not refused
        assert box.cleared(envs[3].id, Reply(envs[3].id, 4, "ack", "duplicate")) == envs[3]
        assert box.rejections() == []


def test_the_outbox_never_sends_another_logs_history_to_a_new_log() -> None:
    with Outbox(":memory:", "A1-tab") as box:
        envs = [box.add("board", {"board": 1}, 10.0 + n) for n in range(5)]
        assert box.hub_log is None and box.adopt_log("hub:a") and not box.adopt_log("hub:a")
        for e in envs[:3]:
            box.done(e.id)
        assert box.adopt_log("hub:b")                   # last week's hub, a new session
        for e in envs[3:]:
            box.done(e.id)
        assert box.hub_log == "hub:b"
        assert [e.seq for e in box.resend_after(None)] == [4, 5]      # only hub:b's


# Live: a real hub and broker ------------------------------------------------------------------

class Clocks:
    """Virtual time: ``passed`` seconds added to the hub's clock, the device's and the
    steady clock the device compares its own with; ``device_off`` on the device's only."""

    def __init__(self, device_off: float = 0.0):
        self.passed = 0.0
        self.device_off = device_off

    def hub(self) -> float:
        return time.time() + self.passed

    def device(self) -> float:
        return time.time() + self.passed + self.device_off

    def steady(self) -> float:
        return time.monotonic() + self.passed


@contextlib.contextmanager
def running_hub(url: str, folder: Path, clock: Callable[[], float] = time.time,
                **setup: Any) -> Iterator[Hub]:
    quick = EventSetup.quick(tables=3, boards_per_round=2, seed=SEED, **setup)
    hub = Hub(data_log(folder), url=url, setup=quick, tick_seconds=0.2, clock=clock)
    try:
        with HubRunner(hub):
            yield hub
    finally:
        hub.log.close()


def play_board(link: DeviceLink, hub: Hub) -> list[Envelope]:
    """Board 1 at A1 from the table's tablet: seated, 1NT by North passed out, 52 cards."""
    sent = seat_pairs(link)
    deal = hub.call(lambda: hub.room.deal(1))
    board = Board(1, deal)
    for seat, call in zip((Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST),
                          ("1NT", "Pass", "Pass", "Pass"), strict=True):
        sent.append(link.send("call", {"seat": seat.letter, "call": call}))
        board.make_call(seat, Call.parse(call))
    while board.phase == "play":
        assert board.play is not None
        seat = board.turn
        assert seat is not None
        card = board.play.legal_cards[0]
        board.play_card(seat, card)
        sent.append(link.send("card", {"seat": seat.letter, "card": str(card)}))
    return sent


def refusals(screen: Screen) -> list[tuple[str, str]]:
    return [(r.ref, r.code) for r, _ in screen.replies() if r.status != "ack"]


@pytest.mark.parametrize("off", [300.0, 3600.0, -3600.0])
def test_a_tablet_minutes_or_an_hour_off_plays_a_board_with_true_times(
        broker_url: str, tmp_path: Path, off: float) -> None:
    clocks = Clocks(device_off=off)
    with running_hub(broker_url, tmp_path / "hub", clocks.hub) as hub:
        screen = Screen()
        box = Outbox(":memory:", "A1-tab")
        link = open_link(hub.url, box, screen, clock=clocks.device,
                         steady_clock=clocks.steady)
        try:
            assert link.wait_online()
            began = clocks.hub()
            sent = play_board(link, hub)
            assert link.wait_delivered(30)
            assert refusals(screen) == []
            assert screen.wait(lambda: screen.state().get("phase") == "over")
            offset = link.clock_offset
            assert offset is not None and abs(offset + off) < 1.0
            assert hub.call(lambda: hub.room.clocks.offset("A1-tab")) == pytest.approx(
                -off, abs=1.0)
            records = device_records(hub, "A1-tab")
            assert [r.event_id for r in records] == [e.id for e in sent]
            # The player's times, on the hub's clock: after the board began, before the hub
            # logged them (the offset's estimate within a second), however slow the delivery.
            for record in records:
                stored = Envelope.from_json(record.payload)
                assert began - 1.0 <= stored.acted <= record.hub_time + 1.0
            times = hub.call(lambda: [e.time for e in
                                      hub.room.tables["A1"].sittings[1, 1].board.auction.entries])
            assert len(times) == 4                 # the table reads them on the hub's clock
            assert all(t is not None and began - 1.0 <= t <= clocks.hub() + 1.0 for t in times)
            assert not [a for a in hub.room.alerts if a.kind == "clock_jump"]
            # the tempo evidence (issue 14) reads the same true times from the log
            from hub.tempo import boards_from_log
            logged = hub.call(lambda: list(hub.log.replay()))
            timed = [a for b in boards_from_log(logged) for a in b.actions
                     if a.device == "A1-tab"]
            assert len([a for a in timed if a.kind == "call"]) == 4 and len(timed) == 56
            assert all(a.at is not None and began - 1.0 <= a.at <= clocks.hub() + 1.0
                       for a in timed)
        finally:
            link.close()
            box.close()


def test_a_160_s_silent_cut_with_120_s_tolerance_loses_nothing_and_shows_no_refusal(
        broker_url: str, tmp_path: Path) -> None:
    """The tablet's Wi-Fi goes silent with an event in flight; the player goes on; 160 s
    later (tolerance 120 s) the network is back: every event is logged once, in order, none
    is shown refused, and the MQTT client never held a second copy of the one in flight."""
    clocks = Clocks(device_off=45.0)
    with running_hub(broker_url, tmp_path / "hub", clocks.hub) as hub:
        cable = Cable(hub.url)
        screen = Screen()
        box = Outbox(tmp_path / OUTBOX_NAME, "A1-tab")
        link = open_link(cable.url, box, screen, clock=clocks.device,
                         steady_clock=clocks.steady, reply_timeout=0.3, keepalive=60)
        try:
            assert link.wait_online()
            sent = seat_pairs(link)
            assert link.wait_delivered()
            cable.stall()                               # silent: paho thinks it is connected
            published = link.published
            sent.append(link.send("call", {"seat": "N", "call": "1C"}))   # in flight, lost
            assert screen.wait(lambda: link.in_flight is not None)
            sent += [link.send("call", {"seat": "E", "call": "Pass"}),    # entered offline
                     link.send("call", {"seat": "S", "call": "1H"})]
            time.sleep(2.0)                             # many reply timeouts
            assert link.published == published + 1      # one copy, not one per timeout
            clocks.passed += 160.0                      # the cut lasts 160 s
            cable.cut()                                 # the connection is seen gone
            cable.plug()
            assert link.wait_delivered(30)
            assert refusals(screen) == [] and box.rejections() == []
            records = device_records(hub, "A1-tab")
            assert [r.event_id for r in records] == [e.id for e in sent]
            assert hub.call(lambda: hub.stats.rejected_by_code.get("clock_skew", 0)) == 0
            assert screen.wait(lambda: [(c["seat"], c["call"]) for c in
                                        screen.state().get("auction", [])]
                               == [("N", "1C"), ("E", "Pass"), ("S", "1H")])
        finally:
            link.close()
            box.close()
            cable.close()


def test_a_clock_that_jumps_mid_session_is_noticed_not_refused(broker_url: str,
                                                              tmp_path: Path) -> None:
    clocks = Clocks(device_off=0.0)
    with running_hub(broker_url, tmp_path / "hub", clocks.hub) as hub:
        screen = Screen()
        box = Outbox(":memory:", "A1-tab")
        link = open_link(hub.url, box, screen, clock=clocks.device,
                         steady_clock=clocks.steady)
        try:
            assert link.wait_online()
            sent = seat_pairs(link)
            assert link.wait_delivered()
            clocks.device_off = 600.0                   # someone sets the tablet's clock
            assert screen.wait(lambda: link.clock_jumps == 1)
            before = clocks.hub()
            sent.append(link.send("call", {"seat": "N", "call": "1NT"}))
            assert link.wait_delivered()
            assert refusals(screen) == []
            assert [r.event_id for r in device_records(hub, "A1-tab")] == [e.id for e in sent]
            jumps = hub.call(lambda: [a for a in hub.room.alerts if a.kind == "clock_jump"])
            assert len(jumps) == 1 and jumps[0].facts["device"] == "A1-tab"
            assert jumps[0].facts["jump"] == pytest.approx(600.0, abs=1.0)
            last = Envelope.from_json(device_records(hub, "A1-tab")[-1].payload)
            assert before - 1.0 <= last.acted <= clocks.hub() + 1.0   # its time stays true
        finally:
            link.close()
            box.close()


def test_a_log_restored_from_an_older_backup_is_refilled_from_the_outbox(
        broker_url: str, tmp_path: Path) -> None:
    """The hub acknowledged seven events; its log is then restored from a backup that holds
    three: the tablet's hello finds the gap, sends the four again, the director is told."""
    folder, backup = tmp_path / "hub", tmp_path / "backup"
    screen = Screen()
    box = Outbox(tmp_path / OUTBOX_NAME, "A1-tab")
    link: DeviceLink | None = None
    try:
        with running_hub(broker_url, folder) as hub:
            link = open_link(hub.url, box, screen)
            assert link.wait_online()
            sent = seat_pairs(link)
            assert link.wait_delivered()
        backup.mkdir()
        for name in (LOG_NAME, f"{LOG_NAME}-wal", f"{LOG_NAME}-shm"):
            if (folder / name).exists():
                shutil.copy2(folder / name, backup / name)
        with running_hub(broker_url, folder) as hub:
            assert screen.wait(lambda: link is not None and link.hub_online is True)
            for seat, call in (("N", "1C"), ("E", "Pass"), ("S", "1H"), ("W", "Pass")):
                sent.append(link.send("call", {"seat": seat, "call": call}))
            assert link.wait_delivered()
            assert len(device_records(hub, "A1-tab")) == 7
        shutil.rmtree(folder)
        shutil.copytree(backup, folder)                 # the older backup comes back
        with running_hub(broker_url, folder) as hub:
            assert screen.wait(lambda: len(device_records(hub, "A1-tab")) == 7, 30)
            assert [r.event_id for r in device_records(hub, "A1-tab")] == [e.id for e in sent]
            missing = hub.call(lambda: [a for a in hub.room.alerts
                                        if a.kind == "history_missing"])
            assert len(missing) == 1
            assert missing[0].facts == {"device": "A1-tab", "last": 3, "acked": 7,
                                        "recovered": 4}   # what came back, once it did
            assert link.wait_delivered() and refusals(screen) == []
    finally:
        if link is not None:
            link.close()
        box.close()


def test_a_new_sessions_log_gets_no_history_of_the_last_one(broker_url: str,
                                                             tmp_path: Path) -> None:
    """The same tablet, its outbox kept, at next week's session (a new data directory): its
    hello names last week's log, the new hub neither alerts nor takes the old events."""
    screen = Screen()
    box = Outbox(tmp_path / OUTBOX_NAME, "A1-tab")
    link: DeviceLink | None = None
    try:
        with running_hub(broker_url, tmp_path / "week1") as hub:
            link = open_link(hub.url, box, screen)
            assert link.wait_online()
            seat_pairs(link)
            assert link.wait_delivered()
            first = box.hub_log
            assert first == hub.log_id
        with running_hub(broker_url, tmp_path / "week2") as hub:
            assert screen.wait(lambda: box.hub_log == hub.log_id, 30)
            assert first != hub.log_id
            new = link.send("checkin", {"direction": "NS", "pair": 1})
            assert link.wait_delivered()
            assert [r.event_id for r in device_records(hub, "A1-tab")] == [new.id]
            assert not hub.call(lambda: [a for a in hub.room.alerts
                                         if a.kind == "history_missing"])
    finally:
        if link is not None:
            link.close()
        box.close()


def test_the_hub_status_and_every_reply_carry_the_hubs_clock(broker_url: str,
                                                            tmp_path: Path) -> None:
    with running_hub(broker_url, tmp_path / "hub") as hub:
        status = hub.call(hub.status)
        assert isinstance(status.time, float) and abs(status.time - time.time()) < 5
        screen = Screen()
        box = Outbox(":memory:", "A1-tab")
        link = open_link(hub.url, box, screen)
        try:
            assert link.wait_online()
            seat_pairs(link)
            assert link.wait_delivered()
            assert all(r.time > 0 for r, _ in screen.replies())
            assert link.clock_offset is not None and abs(link.clock_offset) < 1.0
        finally:
            link.close()
            box.close()
