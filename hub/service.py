"""The hub service: the room's truth over MQTT (``tenace hub``).

One asyncio loop owns the :class:`hub.room.Room`; paho's network thread only hands messages
over (``call_soon_threadsafe``). Messages are taken in batches: each event of a batch is
checked (envelope, topic, device, sequence, clock) and applied to its table, the accepted
ones are written to the :class:`hub.store.EventLog` in one transaction, and only then are
the replies, the tables' views, the alerts and the results published. A device that got no
reply (the hub died before the commit) resends: the event id makes that harmless.

What the hub publishes (docs/protocol.md):

* ``t/{table}/reply/{device}``: ``ack`` or ``reject`` with the reason, for every event
  (``no_event`` while the hub waits for its event: a room without tables, hub.event's
  WaitingSetup or a scoring program's set-up not sent yet; ``hub/status`` then says
  ``tables`` 0);
* ``t/{table}/state`` and ``t/{table}/seat/{seat}`` (retained), republished only when they
  change, never an alert and never a hand the seat could not see;
* ``director/alert/{id}`` (retained while open: cleared once resolved), only for the
  director's account;
* ``result/{table}/{round}/{board}`` (retained) once a board is over, again when confirmed;
* ``results/ranking/{section}`` and ``results/traveller/{section}/{board}`` (retained): the
  live scores (hub.scoring), again when a result or a ruling changes them. They are off the
  path that answers devices: a batch's replies go out first, and the sections it changed
  are rescored and published after, coalesced (at most once every ``score_interval``
  seconds, default 0.25: a burst of results is one rescoring; always eventually, and at
  once on :meth:`Hub.republish`), one section per turn of the loop, and at most
  :data:`SCORE_SHARE` of the hub's thread (a costly round waits longer before the next);
* ``hub/status`` (retained): birth and last will; while it runs, at most once a second when
  they change, its counters (events accepted, duplicates, messages refused by reason code),
  the head of the log's hash chain and its clock (``time``).

Device clocks (hub.clock): every reply carries the hub's clock (``time``), from which a
device learns its offset; the room judges each event's time corrected by the offset it
declares. What comes from a device (its events, ``hello``, its status) is taken in
hub.device_events (:class:`hub.device_events.DeviceEvents`, a part of :class:`Hub`).

Director commands come on ``hub/cmd/{account}``: only from the ``director`` and ``scorer``
accounts (hub.director), and the fact logged names the account (``by``). A command on the
bare ``hub/cmd`` of earlier versions, or for any other account, is refused with a log line
and counted; commands get no reply.

The log at start (hub.log_startup, :class:`hub.log_startup.LogStartup`, a part of
:class:`Hub`): its hash chain verified, the room rebuilt by replaying it, a damaged log (a
broken chain, a record set aside, a log behind its noted head) reported, never fatal.

The broker restarting: the hub hears its own connection go (paho's disconnect) and come
back; on every reconnection it republishes every retained topic (tables' states and seats,
results, rankings and travellers, open alerts, and clears those resolved; its status), as it
does at start. A device's last will (``online: false``) raises ``device_offline`` only after
``offline_grace`` seconds (default 15) counted from the will (logged: a restarted hub keeps
counting from it; a few seconds more after the hub's own reconnection, hub.presence), and
only if the device has not come back meanwhile (its birth): a broker that restarts sends
every will, and its clients come back within seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
from msgspec import UNSET

from bridgecore.cards import Seat
from hub.alerts import Alert
from hub.device_events import NO_EVENT, DeviceEvents, HubStats
from hub.director_service import DirectorService
from hub.errors import ConfigError, HubError
from hub.fairness import DeviceBuckets, PresenceGate
from hub.log_records import Record
from hub.log_startup import LogStartup, RoomSetup
from hub.presence import OfflineGrace
from hub.publishing import SCORE_SHARE, Publishing, dumps
from hub.room import Room
from hub.series import SESSION_SCORED, SessionBook, session_fact
from hub.series_players import club_roster
from hub.setup_facts import SETUP_FACT, SETUP_REPLACED
from hub.sharding import Sharding
from hub.store import LOG_NAME, EventLog, StoreError
from hub.traveller import prepare_double_dummy, showing_traveller
from wire.mqtt import Message, MqttClient
from wire.protocol import (
    ProtocolError,
    parse_topic,
    topic_alert,
    topic_device_status,
    topic_result,
)
from wire.views import (
    HubCounters,
    HubStatus,
)

if TYPE_CHECKING:
    from hub.shards import Shard
    from hub.webserver import HttpFront, RoomFeed

__all__ = ["NO_EVENT", "OFFLINE_GRACE", "SCORE_INTERVAL", "SCORE_SHARE", "SETUP_FACT",
           "SETUP_REPLACED",
           "Hub", "HubRunner", "HubStats", "RoomSetup", "data_log"]

log = logging.getLogger(__name__)

_BATCH = 2048                # messages taken per turn of the loop
_SETTLE_SECONDS = 60.0       # how often the garbage collector is run and the heap frozen
SCORE_INTERVAL = 0.25        # live scores published at most this often (seconds)
_STATUS_SECONDS = 1.0        # hub/status is republished at most this often
OFFLINE_GRACE = 15.0         # seconds a device has to come back before device_offline


class Hub(DeviceEvents, LogStartup, Publishing, Sharding, DirectorService):
    """``Hub(log, setup_loader, url=...)``: ``await hub.run()`` until ``hub.stop()``.

    ``setup`` is the event set-up to start a new log with; an existing log carries its own
    (the first record) and ``setup_loader`` turns that JSON back into a set-up. Giving a
    set-up that differs from the log's is an error: a new event needs a new data directory.
    """

    def __init__(self, log_: EventLog, *, url: str,
                 setup: RoomSetup | None = None,
                 setup_loader: Callable[[dict[str, Any]], RoomSetup] | None = None,
                 client_id: str = "tenace-hub", tick_seconds: float = 1.0,
                 clock: Callable[[], float] = time.time,
                 console: tuple[str, int] | None = None, double_dummy: bool = True,
                 bridgemate: tuple[str, int] | None = None,
                 console_options: dict[str, Any] | None = None,
                 clock_tolerance: float | bool | None = None,
                 offline_grace: float = OFFLINE_GRACE,
                 score_interval: float = SCORE_INTERVAL,
                 next_session: RoomSetup | None = None, shard: Shard | None = None):
        """``clock_tolerance``: seconds, overriding the event's (False: no check; None:
        the event's). ``offline_grace``: seconds before a last will is an alert (module
        docstring; 0: at once). ``score_interval``: the least time between two live score
        publications (module docstring; 0: after every batch, still after its replies).
        ``next_session``: a set-up that starts the next session in this log (hub.series:
        the session the log holds is stored first), unless it is already the log's set-up
        (a hub restarted with the same command goes on with it).
        ``shard``: this hub is that shard of its event (hub.shards; its ``setup`` and log
        hold its own sections only); None: the whole room."""
        self.log = log_
        self.shard = shard   # hub.sharding: None, the whole room
        self.url = url
        self.client_id = client_id
        self.tick_seconds = tick_seconds
        self.clock = clock
        self.stats = HubStats()
        self.fairness = DeviceBuckets()   # events a device may send (hub.fairness)
        self.presence_gate = PresenceGate()   # and its presence messages
        self.clock_tolerance = clock_tolerance
        self.offline_grace = offline_grace
        if score_interval < 0:
            raise ConfigError(f"score_interval must be 0 or more, not {score_interval}")
        self.score_interval = score_interval
        self._scores_timer: asyncio.TimerHandle | None = None   # a publication due
        self._scores_sent = -score_interval     # time.monotonic() of the last publication
        self._scores_wait = score_interval      # from the last publication to the next
        self._scores_round: list[str] = []      # sections still to publish this round
        self._scores_spent = 0.0                # seconds this round has taken so far
        self.set_aside: list[int] = []    # log positions not applied when the room was rebuilt
        self.log_behind = 0               # records missing at start against the noted head
        self._damage: list[Record] = []   # log_damage facts found while opening, to log
        self.double_dummy = double_dummy   # the result screens' tables (endplay, a worker)
        self._solver = ThreadPoolExecutor(1, thread_name_prefix="tenace-dd")
        self.chain = self._verify_chain()
        self._epoch = 0   # log position of the last new event's set-up: replays start there
        self.log_id = ""  # the id of that set-up's record: what a device's history refers to
        self.series = SessionBook(log_, setup_loader)   # the sessions stored (hub.series)
        if next_session is not None and self.log.last_position() == 0:
            setup, next_session = next_session, None
        self.room, self.setup = self._open_room(setup, setup_loader)
        self._check_log_end()
        self.series.sessions()   # at start: an old log's sessions replayed (hub.series_replay)
        self._attach(self.room)
        self._sharding_start(shard)   # hub.sharding: its topics, the field's ranking
        self.console_address = console
        self.console_options = dict(console_options or {})   # hub.console.Console's: users...
        self.console: RoomFeed | None = None      # hub.console, through hub.webserver
        self.bridgemate_address = bridgemate   # hub.bridgemate: the Data Connector's HTTP API
        self.bridgemate: HttpFront | None = None
        self.ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._client: MqttClient | None = None
        self._inbox: list[Message] = []
        self._inbox_lock = threading.Lock()
        self._flush_scheduled = False
        self._stopping: asyncio.Event | None = None
        # topic -> the digest of the last payload published (retained; _digest): a result
        # per board played, kept all session, costs a few bytes rather than its text
        self._last: dict[str, bytes] = {}
        self._results: dict[tuple[str, int, int], bytes] = {}
        self._seat_keys: dict[tuple[str, Seat], tuple[Any, ...]] = {}
        self.listeners: list[Callable[[str, Any], None]] = []  # (what, data) after changes
        self._started = 0.0
        self._status_sent = -_STATUS_SECONDS     # time.monotonic() of the last hub/status
        self._status_last = ""
        self._status_timer: asyncio.TimerHandle | None = None
        self.wills = OfflineGrace(offline_grace)   # last wills held (hub.presence)
        self.device_reports: dict[str, dict[str, Any]] = {}   # for the device check
        self.greeted: set[str] = set()            # hub.device_events: a device's history
        self.unheard: dict[str, float] = {}
        self.recovering: dict[str, tuple[int | None, int, int]] = {}
        if next_session is not None and next_session.to_json() != self.setup.to_json():
            self.replace_setup(next_session, keep_play=False)

    # The room and its log ------------------------------------------------------------------
    def hub_time(self) -> float:
        return self.clock()

    def _rebuild_from_log(self) -> None:
        """A write failed: the room goes back to exactly what the log holds (the set-up is
        its first record, or the last one that replaced it)."""
        self.room = self._room_since(self.setup)
        self._damage.clear()   # found again while replaying: logged when it was first found
        self._attach(self.room)

    # A set-up replaced from outside (hub.bridgemate: the scoring program's) ------------------
    def replace_setup(self, setup: RoomSetup, *, keep_play: bool,
                      account: str | None = None) -> None:
        """The room becomes ``setup``'s (on the loop): empty for a new event, or, with
        ``keep_play``, with every record since the last new event replayed into it (the
        movement changed, hand records came: nothing played is lost). The fact
        ``setup_replaced`` is logged before the room changes (StoreError: nothing changes).
        Every retained view is published again; those of tables, results and alerts gone
        are cleared. ``account``: who replaced it (the console's user), logged with it."""
        room = self._room_since(setup) if keep_play else setup.build_room()
        body: dict[str, Any] = {"setup": setup.to_json(), "keep_play": keep_play}
        if account is not None:
            body["account"] = account
        record = Record.fact(SETUP_REPLACED, body, hub_time=self.clock())
        scored = None if keep_play else session_fact(self.setup, self.room,
                                                        club_roster(self.log.path))
        if scored is not None:   # the session played is stored for the next (hub.series)
            position = self.log.append_many([
                Record.fact(SESSION_SCORED, scored, hub_time=self.clock()), record])[-1]
            self.series.forget()
        else:
            position = self.log.append(record)
        if not keep_play and position is not None:
            self._epoch = position
            self.log_id = record.event_id
        old, self.room, self.setup = self.room, room, setup
        self._attach(self.room)
        last, results = self._last, self._results
        self._last, self._results, self._seat_keys = {}, {}, {}
        self.republish()
        if self.console is not None:
            self.console.clock_changed()
        client = self._client
        if client is None:
            return
        for topic_name in last.keys() - self._last.keys():
            client.send(topic_name, b"", 1, True)
        for table, round_, board in results.keys() - self._results.keys():
            client.send(topic_result(table, round_, board), b"", 1, True)
        for alert in old.alerts.open():
            if alert.id not in self.room.alerts or not self.room.alerts[alert.id].is_open:
                client.send(topic_alert(alert.id), b"", 1, True)

    # Double-dummy tables, solved on a worker so the loop never waits -------------------------
    def _attach(self, room: Room) -> None:
        if self.shard is not None:   # a ruling's and a correction's ids: the event's
            room.scoring.id_prefix = room.scoring.corrections.id_prefix = f"{self.shard.index}-"
        if self.clock_tolerance is not None:    # tenace hub --clock-tolerance
            room.clock_tolerance = (None if self.clock_tolerance is False
                                    else float(self.clock_tolerance))
        if not self.double_dummy:
            room.double_dummy.enabled = False
        room.double_dummy.background = self._solver.submit
        room.double_dummy.on_solved = self._dd_solved

    def _dd_solved(self, boards: list[int]) -> None:
        """On the solver's thread: republish the tables whose board was just solved."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._dd_publish, set(boards))

    def _dd_publish(self, boards: set[int]) -> None:
        if self._client is None or self._client.closed:
            return
        self._publish_tables([tid for tid, t in self.room.tables.items()
                              if t.sitting is not None and t.sitting.board.number in boards
                              and t.sitting.over])

    # Running -------------------------------------------------------------------------------
    async def run(self) -> None:
        """Connect, subscribe, republish every retained view, then serve until stop()."""
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        status = self._status_topics()[0]   # hub/status, or a shard's own (hub.sharding)
        self._started = self.clock()
        will = (status, HubStatus(online=False).to_json(), 1, True)
        birth = (status, HubStatus(online=True, started=self._started,
                                   tables=len(self.room.tables)).to_json(), 1, True)
        client = MqttClient(self.url, self.client_id, will=will, birth=birth,
                            on_message=self._receive, start=False,
                            on_connection=self._connection_changed)
        self._client = client
        for topic_filter in self._subscriptions():
            client.subscribe(topic_filter, 1, wait=False)
        client.start()
        try:
            await self._loop.run_in_executor(None, client.wait_connected, 30.0)
            if self.console_address is not None:
                from hub.console import Console
                self.console = Console(self, *self.console_address, **self.console_options)
                await self.console.start()
            if self.bridgemate_address is not None:
                from hub.bridgemate import DataConnector
                self.bridgemate = DataConnector(self, *self.bridgemate_address)
                await self.bridgemate.start()
            self.republish()
            if self.offline_grace > 0:   # wills a hub before this one held (hub.presence)
                for device, info in self.room.devices.items():
                    if info.will is not None and info.online:
                        self._offline_later(device, info.table, info.will)
            if (self.chain is not None and not self.chain.intact) or self.set_aside \
                    or self.log_behind or self.shard is not None:   # a shard: its own topic
                self._send_status()   # the director hears of it at once (else: birth first)
            _settle_memory()
            if self.room.double_dummy.enabled:   # ahead of the first table to finish
                self._solver.submit(prepare_double_dummy, self.room,
                                    self.room.board_numbers())
            self.ready.set()
            ticker = asyncio.create_task(self._ticker())
            await self._stopping.wait()
            ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
            self._flush()
            if self._scores_timer is not None:   # the last scores, before leaving
                self._scores_timer.cancel()
                self._scores_due()
            if self._field_timer is not None:
                self._field_timer.cancel()
                self._field_due()
        finally:
            if self._status_timer is not None:
                self._status_timer.cancel()
            if self.console is not None:
                await self.console.stop()
            if self.bridgemate is not None:
                await self.bridgemate.stop()
            client.close()
            self.room.double_dummy.stop()   # a whole event's solving must not outlive the hub
            self._solver.shutdown(wait=False, cancel_futures=True)

    def call(self, fn: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Run ``fn`` on the hub's loop and return its result (from another thread)."""
        loop = self._loop
        if loop is None or not loop.is_running():
            return fn()

        async def wrapped() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(wrapped(), loop).result(timeout)

    def stop(self) -> None:
        """Ask run() to finish (any thread; again once it has: nothing)."""
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):   # closed meanwhile: stopped already
                loop.call_soon_threadsafe(stopping.set)

    async def _ticker(self) -> None:
        last_settled = time.monotonic()
        while True:
            await asyncio.sleep(self.tick_seconds)
            try:
                self._tick()
                self._tables_tick()   # a shard's tables for the console (hub.sharding)
            except Exception:  # the clock must keep running
                log.exception("round clock tick failed")
            if time.monotonic() - last_settled >= _SETTLE_SECONDS:
                _settle_memory()
                last_settled = time.monotonic()

    def _tick(self) -> None:
        now = self.clock()
        # Just (re)started: the devices are sending again what the hub's outage kept in their
        # outboxes, so no held event is given up on yet (hub.ordering); said in the fact, so
        # that the log replays the same.
        fresh = now - self._started < self.room.hold_seconds
        alerts = self.room.tick(now, overdue=not fresh)
        asked, self.room.asked = self.room.asked, set()   # a card nobody read (hub.reads)
        if alerts or asked:
            self._record_fact("tick", {"overdue": False} if fresh else {}, now)
            self._publish_alerts(alerts)
            self._publish_tables({a.table for a in alerts} | asked)
        held = self.presence_gate.due()     # presence held back from a flood (hub.fairness)
        if held:
            self._handle([Message(topic_device_status(table, device), payload)
                          for table, device, payload in held])

    # Receiving -----------------------------------------------------------------------------
    def _receive(self, message: Message) -> None:
        """On paho's network thread: queue the message and wake the loop, once per batch
        (waking it for every message costs a system call each)."""
        stopping = self._stopping
        if stopping is None or stopping.is_set():
            return  # not acknowledged by a stopped hub's reply: the device sends it again
        with self._inbox_lock:
            self._inbox.append(message)
            if self._flush_scheduled:
                return
            self._flush_scheduled = True
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._flush)

    def _flush(self) -> None:
        """On the loop: take what has arrived (up to a batch) and handle it."""
        with self._inbox_lock:
            batch, self._inbox = self._inbox[:_BATCH], self._inbox[_BATCH:]
            more = bool(self._inbox)
            self._flush_scheduled = more
        if more:
            assert self._loop is not None
            self._loop.call_soon(self._flush)
        if self._client is None or self._client.closed:
            return
        if batch:
            self.handle(batch)

    def handle(self, batch: Iterable[Message]) -> None:
        """Apply a batch of messages: log what was accepted, then publish.

        Python's cyclic collector is paused for the batch (a batch is at most
        :data:`_BATCH` messages, so what it leaves is small): its passes in the middle of a
        batch walked the whole room again and again, about a seventh of the hub's time
        (issue 27). It runs again after, when the batch's garbage is there to take; left
        alone when the caller had it off."""
        paused = gc.isenabled()
        if paused:
            gc.disable()
        try:
            self._handle(batch)
        finally:
            if paused:
                gc.enable()

    def _handle(self, batch: Iterable[Message]) -> None:
        self.stats.batches += 1
        records: list[Record] = []
        replies: list[tuple[str, str]] = []
        alerts: list[Alert] = []
        changed: set[str] = set()
        for message in batch:
            self.stats.received += 1
            try:
                topic = parse_topic(message.topic)
            except ProtocolError as err:
                self._refused(err.code)
                log.warning("message on %r ignored: %s", message.topic, err.reason)
                continue
            try:
                if topic.kind == "ev":
                    assert topic.table is not None and topic.device is not None
                    self._event(topic.table, topic.device, message.payload, records, replies,
                                alerts, changed)
                elif topic.kind == "status":
                    assert topic.table is not None and topic.device is not None
                    self._presence(topic.table, topic.device, message.payload, records,
                                   alerts, changed)
                elif topic.kind == "hub_cmd":
                    self._command(topic.account, message.payload, records, alerts, changed)
                elif topic.kind == "dealer_ev":
                    assert topic.device is not None
                    self._dealer_event(topic.device, message.payload, records, replies, alerts)
                elif topic.kind in ("traveller", "ranking"):   # the field's (hub.sharding)
                    self._field_message(topic, message.payload)
                    self._remote_message(topic, message.payload)   # another shard's
                elif topic.kind in ("state", "tablet", "alert", "field"):
                    self._remote_message(topic, message.payload)   # (hub.shard_views)
                elif topic.kind == "shard_tables":   # another shard's, for the console
                    self._shard_tables(topic, message.payload)
                elif topic.kind in ("hub_status", "shard_status", "shard_answer"):
                    self._shard_message(topic, message.payload)   # (hub.sharding)
            except Exception:  # a bug must cost one message, never the batch or the hub
                self._refused("internal")
                log.exception("message on %s not handled", message.topic)
        self._swiss_due(records, changed)
        self._status_changed()
        if records:
            try:
                self.log.append_many(records)
            except StoreError as err:
                self._store_failed(err, replies)
                self._send_answers(err)
                return
        self._send_answers()
        # The views and alerts first: a device that has its reply finds the state updated.
        # A board finished here adds a row to the traveller other tables show (Law 16: only
        # tables that have finished it).
        self._publish_alerts(alerts)
        self._publish_tables(changed | showing_traveller(self.room, changed))
        client = self._client
        if client is not None:
            for topic_name, payload in replies:
                client.send(topic_name, payload, 1)
            self.stats.published += len(replies)
        # The live scores after the replies, coalesced: scoring never delays an answer.
        self._scores_later()

    def _swiss_due(self, records: list[Record], changed: set[str]) -> None:
        """A Swiss section whose round is scored through draws its next round (hub.swiss),
        logged with the batch that finished it: a restarted hub replays the same pairings."""
        if not self.room.swiss.pairings:
            return
        try:
            due = self.room.swiss.due()
        except Exception:  # the draw must never cost the batch: the director can draw
            log.exception("Swiss round not drawn")
            return
        now = self.clock()
        for body in due:
            self.room.fact("swiss_round", body, now)
            records.append(Record.fact("swiss_round", body, hub_time=now))
            changed.update(t for s in self.room.sections if s.name == body["section"]
                           for t in s.tables)

    def _store_failed(self, err: StoreError, replies: list[tuple[str, str]]) -> None:
        """The batch could not be written: nothing of it may count. The room goes back to
        what the log holds and no event of the batch is acknowledged (devices resend)."""
        log.critical("event log write failed, batch dropped and room rebuilt: %s", err)
        self._rebuild_from_log()
        client = self._client
        if client is None:
            return
        for topic_name, payload in replies:
            reply = json.loads(payload)
            reply.update(type="reject", code="storage",
                         reason="the hub could not store the event; send it again")
            client.send(topic_name, dumps(reply), 1)

    # The broker restarting (module docstring) -------------------------------------------------
    def _offline_later(self, device: str, table: str, since: float) -> None:
        """A last will, come at ``since`` (the hub's clock; logged, so a restarted hub
        holds it from then): the device has ``offline_grace`` seconds to come back."""
        now = time.monotonic()
        held = now - min(max(0.0, self.clock() - since), 86400.0)
        if device not in self.wills.pending:
            log.info("device %s at %s went offline %.0f s ago: an alert %g s after it went, "
                     "unless it comes back", device, table, now - held, self.offline_grace)
        self._offline_check_at(self.wills.will(device, table, held), device)

    def _offline_check_at(self, when: float, device: str) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_later(max(0.0, when - time.monotonic()), self._offline_due, device)

    def _offline_due(self, device: str) -> None:
        """The grace of a device's will may be over (hub.presence): then it is an alert."""
        client = self._client
        if device not in self.wills.pending or client is None or client.closed:
            return
        connected = client.connected.is_set()
        table = self.wills.expire(device, time.monotonic(), connected)
        if table is None:
            self._offline_check_at(max(self.wills.due(device), time.monotonic() + 0.5), device)
            return
        info = self.room.devices.get(device)
        if info is not None and not info.online:
            return
        now = self.clock()
        alerts = self.room.device_offline(device, now, table)
        try:
            self.log.append(Record.fact("device_offline", {"device": device, "table": table},
                                        hub_time=now))
        except StoreError as err:
            log.critical("device_offline of %s not stored: %s", device, err)
            self._rebuild_from_log()
            return
        self._publish_alerts(alerts)
        self._publish_tables([table])
        self._status_changed()

    def _connection_changed(self, up: bool) -> None:
        """On paho's network thread: the hub's own connection to the broker came (back) or
        went; handled on the loop."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._link_changed, up)

    def _link_changed(self, up: bool) -> None:
        client = self._client
        if client is None or client.closed:
            return
        if not up:
            log.warning("the hub lost its broker: device wills are held until %g s after it "
                        "is back", self.offline_grace)
            return
        self.wills.reconnected(time.monotonic())
        if client.connections <= 1:
            return   # the first connection: run() publishes everything
        self.stats.reconnections += 1
        log.warning("the hub is connected to its broker again: every retained topic "
                    "published again")
        self.republish()
        if self._field_sent:
            self._field_due(force=True)
        self._status_last = ""
        self._send_status()

    # hub/status: counters and the chain's head ----------------------------------------------
    def status(self) -> HubStatus:
        """What ``hub/status`` says while the hub runs."""
        position, digest = self.log.head()
        broken = self.chain.broken_at if self.chain is not None else None
        with self._inbox_lock:
            queued = len(self._inbox)
        online = sum(1 for info in self.room.devices.values() if info.online)
        return HubStatus(online=True, started=self._started, time=self.clock(),
                         tables=len(self.room.tables),
                         counters=HubCounters(self.stats.accepted, self.stats.duplicates,
                                              self.stats.refused(), queued, online,
                                              self.stats.gaps),
                         chain=f"{position}:{digest}",
                         chain_broken=UNSET if broken is None else broken,
                         set_aside=list(self.set_aside) if self.set_aside else UNSET,
                         log_behind=self.log_behind or UNSET)

    def _status_changed(self) -> None:
        """Republish ``hub/status`` soon: at once, or a second after the last time."""
        loop = self._loop
        if self._status_timer is not None or loop is None or loop.is_closed():
            return
        delay = max(0.0, self._status_sent + _STATUS_SECONDS - time.monotonic())
        self._status_timer = loop.call_later(delay, self._send_status)

    def _send_status(self) -> None:
        self._status_timer = None
        client = self._client
        if client is None or client.closed:
            return
        try:
            status = self.status()
        except StoreError as err:
            log.error("hub status not published: %s", err)
            return
        unchanged = msgspec.structs.replace(status, time=UNSET).to_json()  # the clock moves
        payload = status.to_json()
        if unchanged != self._status_last:
            self._status_last = unchanged
            self._status_sent = time.monotonic()
            for topic_name in self._status_topics():
                client.send(topic_name, payload, 1, True)
                self.stats.published += 1
            if self.console is not None:
                self.console.hub_changed(json.loads(payload))


def _settle_memory() -> None:
    """Collect the garbage of the last minute, then set what is left aside for good.

    A session's state only grows (every call and card of every table stays in memory), so
    Python's cyclic collector would walk all of it again and again, a stall of tens of
    milliseconds in the middle of the room's traffic once the room is large. Frozen objects
    are never walked again; only the new ones are, and once a minute."""
    gc.collect()
    gc.freeze()


class HubRunner:
    """A hub on its own thread and event loop (tests, ``tenace sim``, ``tenace demo``)::

        with HubRunner(hub) as hub: ...
    """

    def __init__(self, hub: Hub, *, timeout: float = 30.0):
        self.hub = hub
        self.timeout = timeout
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    def __enter__(self) -> Hub:
        def main() -> None:
            try:
                asyncio.run(self.hub.run())
            except BaseException as err:  # reported to the starting thread
                self._error = err
                self.hub.ready.set()

        self._thread = threading.Thread(target=main, name="tenace-hub", daemon=True)
        self._thread.start()
        if not self.hub.ready.wait(self.timeout):
            raise HubError(f"the hub did not start within {self.timeout} s")
        if self._error is not None:
            raise HubError(f"the hub did not start: {self._error}") from self._error
        return self.hub

    def __exit__(self, *exc: object) -> None:
        self.hub.stop()
        if self._thread is not None:
            self._thread.join(self.timeout)


def data_log(data: Path | str | None) -> EventLog:
    """The event log of a data directory (in memory without one)."""
    if data is None:
        return EventLog.memory()
    folder = Path(data)
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"--data {folder}: not a directory")
    return EventLog.open(folder / LOG_NAME)
