"""A table's card-reader daemon: its seats' readers, the hub's view of the table, and a
durable link to the hub (``tenace devices run --table A1``).

:class:`TableDaemon` opens nothing itself: it is given one :class:`CardReader` per seat
(any backend, mixed), the :class:`DeckStore` and an :class:`wire.outbox.Outbox` file. It
publishes as one device, ``{table}-rdr`` (the card reader of docs/protocol.md), through
:class:`wire.link.DeviceLink`: every event is committed to the outbox before anything is
sent, published one at a time in order, resent with the same id until the hub answers, and
kept across broker or hub outages and restarts of the daemon. Events are in the order the
tags were read across the four seats, which is the order of play, each with its place in
the table's record (the board it was read on: :class:`firmware_bridge.seats.Report`). Cut off
from the hub, the daemon keeps reading: :class:`TableReads` follows the table from the tags
alone (the opening lead, the next board) until the hub's state comes again. The link says
``hello`` on each connection and learns the hub's clock from its replies: each event keeps
the time its tag was read on the daemon's clock, and the hub reads it corrected by the
offset the link stamps (docs/protocol.md, section 6), so a reader's machine with no time
server plays too.

Each reader's presence is a device of its own, ``{table}-rdr-{seat}``, whose retained
status (``t/{table}/dev/{table}-rdr-{seat}/status``: ``online``, and ``detail`` in words)
says when it is unplugged or its service is gone: the hub tells the director
(``device_offline``) and notes its return.

Threads: one per reader hands its events to the daemon's queue; the daemon's own thread
(``tenace-readers-{table}``) owns the :class:`firmware_bridge.seats.TableReads` and is the
only one to send; the link's callbacks only queue the table's state for it.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from bridgecore.cards import Seat
from firmware_bridge.decks import DeckStore
from firmware_bridge.readers import CardReader, ReaderStatus, TagRead
from firmware_bridge.seats import HAND_GAP, Report, TableReads
from wire.link import DeviceLink, LinkState
from wire.outbox import Outbox
from wire.protocol import Envelope, topic_device_status

__all__ = ["TableDaemon", "device_ids"]

log = logging.getLogger(__name__)

_STOP = object()


def device_ids(table: str) -> tuple[str, dict[Seat, str]]:
    """The daemon's device id and each seat's reader id: ``A1-rdr``, ``A1-rdr-N``..."""
    device = f"{table}-rdr"
    return device, {seat: f"{device}-{seat.letter}" for seat in Seat}


class TableDaemon:
    """The card readers of ``table`` on the hub at ``url`` (module docstring).

    ``readers`` maps seats to readers (a seat without one is read by nobody);
    ``hand_gap`` is the pause that completes a hand (:mod:`firmware_bridge.seats`), on
    ``clock`` (the wall clock; a test steps its own, with the readers' tags stamped on it,
    and calls :meth:`caught_up` to have the daemon look at it again)."""

    def __init__(self, url: str, table: str, readers: Mapping[Seat, CardReader],
                 decks: DeckStore, outbox: Outbox, *, hand_gap: float = HAND_GAP,
                 reply_timeout: float = 3.0, reconnect_delay: tuple[float, float] = (0.5, 5.0),
                 start: bool = True, clock: Callable[[], float] = time.time):
        self.table = table
        self.clock = clock             # the reads' clock: when a gap has passed (a test's own)
        self.device, self.reader_ids = device_ids(table)
        self.readers = dict(readers)
        self.reads = TableReads(table, decks, hand_gap=hand_gap)
        self.reported = 0              # events put in the outbox
        self.state: dict[str, Any] | None = None   # the table's public state last seen
        self._queue: queue.Queue[Any] = queue.Queue()
        # Each reader's count of events queued, as far as they are in self._queue.
        self._forwarded = {seat: reader.queued - reader.backlog
                           for seat, reader in self.readers.items()}
        self._acted = threading.local()
        self._closed = False
        self._threads: list[threading.Thread] = []
        self.link = DeviceLink(url, table, self.device, outbox=outbox,
                               on_state=lambda state: self._queue.put(("state", state)),
                               on_connection=lambda link: self._queue.put(("link", link)),
                               clock=self._clock, reply_timeout=reply_timeout,
                               reconnect_delay=reconnect_delay, start=False)
        status = topic_device_status(table, self.device)
        self.link.client.birth = (status, json.dumps(
            {"online": True, "device": self.device, "table": table, "kind": "card_reader",
             "seats": {seat.letter: reader.spec for seat, reader in self.readers.items()}},
            separators=(",", ":")), 1, True)
        self.reads.connection(self.link.connection is LinkState.ONLINE)
        if start:
            self.start()

    # Life cycle ----------------------------------------------------------------------------
    def start(self) -> TableDaemon:
        if self._threads:
            return self
        worker = threading.Thread(target=self._run, name=f"tenace-readers-{self.table}",
                                  daemon=True)
        self._threads.append(worker)
        for seat, reader in self.readers.items():
            self._threads.append(threading.Thread(
                target=self._forward, args=(seat, reader), daemon=True,
                name=f"tenace-reader-{self.table}-{seat.letter}"))
        for thread in self._threads:
            thread.start()
        self.link.start()
        return self

    def close(self, *, farewell: bool = True) -> None:
        """Stop the readers' threads and the link (idempotent); the readers are their
        owner's to close, the outbox too (what is pending in it goes at the next start).
        With ``farewell`` every reader's status reads offline first."""
        if self._closed:
            return
        self._closed = True
        if self._threads:
            worker, *forwarders = self._threads
            for thread in forwarders:   # each passes on what its reader still holds
                thread.join(5.0)
            self._queue.put(_STOP)      # hands being read go as they are, then it stops
            if worker is not threading.current_thread():
                worker.join(5.0)
        if farewell and self.link.client.connected.is_set():
            for seat in self.readers:      # leaving on purpose (protocol 14): no alert
                self._publish_status(seat, False, "the table's reader daemon stopped",
                                     leaving=True)
        self.link.close(farewell=farewell)

    def __enter__(self) -> TableDaemon:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"TableDaemon({self.table!r}, {len(self.readers)} readers)"

    # What a caller may watch -----------------------------------------------------------------
    @property
    def connection(self) -> LinkState:
        return self.link.connection

    @property
    def pending(self) -> int:
        """Events not answered by the hub yet."""
        return self.link.pending

    def wait_delivered(self, timeout: float = 10.0) -> bool:
        """Every tag read so far is handled, every hand read is complete (its gap passed)
        and every event has its answer from the hub. False after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            if not self.caught_up(max(0.0, deadline - time.monotonic())):
                return False
            if self.reads.deadline is None:
                break
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return self.link.wait_delivered(max(0.0, deadline - time.monotonic()))

    def caught_up(self, timeout: float = 60.0) -> bool:
        """Every tag read so far is handled, and the reads looked at on :attr:`clock` once
        after them (a hand whose gap has passed on it is sent). False after ``timeout``."""
        deadline = time.monotonic() + timeout
        while not all(self._forwarded[seat] >= reader.queued
                      for seat, reader in self.readers.items()):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        passed = threading.Event()
        self._queue.put(passed)
        return passed.wait(max(0.0, deadline - time.monotonic()))

    def rejections(self) -> list[tuple[Envelope, str, str]]:
        """Events the hub refused: (envelope, code, reason)."""
        return self.link.outbox.rejections()

    # Threads -----------------------------------------------------------------------------
    def _forward(self, seat: Seat, reader: CardReader) -> None:
        while True:
            closing = self._closed
            event = reader.read(0 if closing else 0.1)
            if event is None:
                if closing:
                    return
                continue
            self._queue.put((seat, event))
            self._forwarded[seat] += 1

    def _run(self) -> None:
        while True:
            deadline = self.reads.deadline
            wait = None if deadline is None else max(0.0, deadline - self.clock())
            try:
                item = self._queue.get(timeout=wait)
            except queue.Empty:
                item = None
            if item is _STOP:
                self._send(self.reads.flush())
                return
            try:
                self._handle(item)
                self._send(self.reads.tick(self.clock()))
            except Exception:  # the daemon must outlive any bug: the reads go on
                log.exception("%s: step failed", self)
            if isinstance(item, threading.Event):
                item.set()   # a barrier: everything queued before it is handled, then sent

    def _handle(self, item: Any) -> None:
        if item is None:
            return
        if isinstance(item, threading.Event):
            return       # a barrier: set by _run once the reads are ticked after it
        first, payload = item
        if first == "link":   # cut off, the readers follow the table from the tags alone
            self.reads.connection(payload is LinkState.ONLINE)
            return
        if first == "state":
            if payload.get("table", self.table) == self.table:
                self.state = payload
                self._send(self.reads.view(payload))
            return
        seat: Seat = first
        if isinstance(payload, TagRead):
            self._send(self.reads.read(seat, payload))
        elif isinstance(payload, ReaderStatus):
            self._publish_status(seat, payload.present, payload.detail)

    def _send(self, reports: list[Report]) -> None:
        for report in reports:
            self._acted.time = report.time
            try:
                env = self.link.send(report.type, report.body, at=report.at)
            finally:
                self._acted.time = None
            self.reported += 1
            log.info("%s: %s %s %s", self, env.id, report.type, report.body)

    def _clock(self) -> float:
        """The link's clock: for an event being sent from the daemon's thread, the time its
        tag was read; otherwise now (the ``sent`` stamp of each copy published)."""
        acted = getattr(self._acted, "time", None)
        return time.time() if acted is None else acted

    def _publish_status(self, seat: Seat, present: bool, detail: str,
                        leaving: bool = False) -> None:
        device = self.reader_ids[seat]
        reader = self.readers[seat]
        status: dict[str, object] = {
            "online": present, "device": device, "table": self.table, "seat": seat.letter,
            "kind": "card_reader", "reader": reader.spec, "detail": detail, "time": time.time()}
        if leaving:
            status["leaving"] = True
        payload = json.dumps(status, separators=(",", ":"))
        self.link.client.send(topic_device_status(self.table, device), payload, 1, True)
