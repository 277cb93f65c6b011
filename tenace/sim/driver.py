"""Virtual devices on a real broker: play scripts of :class:`tenace.sim.devices.DeviceEvent`
through MQTT to a running hub.

Each device of a table speaks through its own :class:`wire.link.DeviceLink`, the link the
tablet and the card readers use, with its outbox in memory (``Outbox(":memory:", device)``:
ids unique to the run, ``seq`` from 1 per device) and reading only its replies
(``views=False``). A table sends its events in order and waits for each reply, as a player
waits for the tablet to show his call; the link sends an event again with the same id when
its reply is late (the protocol's rule: the id makes it harmless), and not while the hub is
known to be away. Tables run in parallel threads, or (``mux=True``, a room of hundreds of
tables) all of them on one :class:`wire.mux.LinkLoop` thread: every link driven by the loop,
each table's script a chain of timers on it (the next event booked when the last one is
answered, at its time), no thread per table or device.

A virtual device connects as its own account (its device id is its MQTT client id and
username, hub/access.py), its password in the URL or the keyring (wire/mqtt.py): the
commands that run the simulator issue them (tenace/live.py).
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tenace.sim.devices import DeviceEvent
from wire.link import DeviceLink
from wire.mux import LinkLoop, Timer
from wire.outbox import Outbox
from wire.protocol import Envelope, Reply

__all__ = ["DriverError", "TableRun", "run_tables", "tables_of"]

log = logging.getLogger(__name__)

_KINDS = {"tab": "tablet", "rdr": "reader"}


class DriverError(RuntimeError):
    """A virtual table could not get its events through (names the table and the event)."""


@dataclass(slots=True)
class TableRun:
    """What happened to one table's script: replies by code, the rejected events."""

    table: str
    sent: int = 0          # envelopes published, copies sent again included
    resent: int = 0        # copies sent again
    codes: dict[str, int] = field(default_factory=dict)
    rejected: list[tuple[Envelope, Reply]] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)   # entered -> reply, seconds


def _outbox(device: str, folder: str | None) -> Outbox:
    """A virtual device's outbox: in memory, or its file in ``folder`` (run_tables)."""
    return Outbox(":memory:" if folder is None else os.path.join(folder, f"{device}.outbox"),
                  device)


def _kind(device: str) -> str:
    """What a virtual device's birth says it is: ``A1-rdr`` a reader, else a tablet."""
    return _KINDS.get(device.rpartition("-")[2], "tablet")


class _Table:
    """One table's devices, each with its link; the replies of all of them on one queue."""

    def __init__(self, url: str, table: str, devices: Iterable[str],
                 timeout: float, announce: bool, keepalive: int = 15,
                 connect_timeout: float | None = None, outboxes: str | None = None):
        self.replies: queue.Queue[tuple[Reply, Envelope]] = queue.Queue()
        self.links: dict[str, DeviceLink] = {}
        try:
            for device in sorted(set(devices)):
                self.links[device] = DeviceLink(
                    url, table, device, outbox=_outbox(device, outboxes), views=False,
                    presence=announce, kind=_kind(device), stamp_sent=False,
                    reply_timeout=timeout,
                    on_reply=lambda reply, env: self.replies.put((reply, env)),
                    reconnect_delay=(0.1, 1.0), keepalive=keepalive)
            for link in self.links.values():
                link.client.wait_connected(connect_timeout or timeout)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Leave with each device's farewell (protocol 14: ``leaving``): the console shows
        them offline at once, with no alert, and a hub started later too."""
        for link in self.links.values():
            link.close(farewell=True)
            link.outbox.close()


def _table_worker(url: str, table: str, events: Sequence[DeviceEvent],
                  timeout: float, retries: int, realtime: Callable[[float], float] | None,
                  out: TableRun, errors: list[str], announce: bool,
                  stop: threading.Event | None = None,
                  on_sent: Callable[[str, int, float], None] | None = None,
                  keepalive: int = 15, connect_timeout: float | None = None,
                  outboxes: str | None = None) -> None:
    devices: _Table | None = None
    sent = 0
    try:
        devices = _Table(url, table, (e.device for e in events), timeout, announce,
                         keepalive, connect_timeout, outboxes)
        for index, event in enumerate(events):
            if stop is not None and stop.is_set():
                return
            if realtime is not None:
                delay = realtime(event.time)
                if delay > 0:
                    if stop is not None:
                        if stop.wait(delay):
                            return
                    else:
                        time.sleep(delay)
            link = devices.links[event.device]
            started = time.perf_counter()
            # With ``realtime`` the device's clock is now.
            env = link.send(event.type, dict(event.body),
                            device_time=time.time() if realtime is not None else event.time,
                            at=event.at)
            sent += 1
            if on_sent is not None:
                on_sent(table, index, time.monotonic())
            reply = _reply_to(devices.replies, env, started + timeout * (retries + 1))
            if reply is None:
                errors.append(f"table {table}: no reply to {env.type} {env.id} after "
                              f"{retries + 1} tries")
                return
            out.latencies.append(time.perf_counter() - started)
            out.codes[reply.code] = out.codes.get(reply.code, 0) + 1
            if reply.status != "ack":
                out.rejected.append((env, reply))
    except Exception as err:  # reported, not raised in a thread
        errors.append(f"table {table}: {err}")
    finally:
        if devices is not None:
            out.sent = sum(link.published for link in devices.links.values())
            out.resent = max(0, out.sent - sent)
            devices.close()


def _reply_to(replies: queue.Queue[tuple[Reply, Envelope]], env: Envelope,
              deadline: float) -> Reply | None:
    """The final reply to ``env`` (its link resends it meanwhile), None at ``deadline``."""
    while (left := deadline - time.perf_counter()) > 0:
        try:
            reply, answered = replies.get(timeout=left)
        except queue.Empty:
            break
        if answered.id == env.id:
            return reply
    return None


def run_tables(url: str, scripts: Mapping[str, Sequence[DeviceEvent]], *, timeout: float = 5.0,
               retries: int = 3, realtime: Callable[[float], float] | None = None,
               announce: bool = True,
               stop: threading.Event | None = None,
               on_sent: Callable[[str, int, float], None] | None = None,
               keepalive: int = 15,
               connect_timeout: float | None = None,
               mux: bool = False, outboxes: str | None = None) -> dict[str, TableRun]:
    """Play every table's script in parallel; returns each table's :class:`TableRun`.
    Raises :class:`DriverError` if a table could not get an event through.

    An event is sent again every ``timeout`` seconds without its reply; after ``retries``
    more tries' time the table gives up. With ``realtime`` (device time -> seconds to wait
    first), events keep their pace and carry the real clock. ``announce`` publishes each
    device's birth status first (and sets its last will; the devices leave with their
    farewell, ``leaving``, when their scripts end); ``stop`` ends every table's script
    early (its connections closed cleanly). ``on_sent(table, index, when)`` is called (on the
    table's thread) as each event of a script goes out, ``when`` by ``time.monotonic()``.
    ``keepalive``: the devices' MQTT keepalive, seconds (the link's 15 by default; a room of
    a thousand simulated devices on two cores may starve their network threads longer than
    a real tablet's ever is, and the broker would drop them); ``connect_timeout``: how long
    a device may take to connect (default ``timeout``). ``mux``: every table and device on
    one :class:`wire.mux.LinkLoop` thread (module docstring), every device connected before
    the first event; ``on_sent`` is then called on that thread. ``outboxes``: a folder for
    the devices' outboxes (one file each, as a tablet keeps its own), so that a device
    played again by a later call goes on with its ``seq`` (a Swiss event played round by
    round, tenace.sim.swiss); default in memory, ``seq`` from 1."""
    if mux:
        return _run_on_loop(url, scripts, timeout, retries, realtime, announce, stop, on_sent,
                            keepalive, connect_timeout, outboxes)
    results = {table: TableRun(table) for table in scripts}
    errors: list[str] = []
    threads = [threading.Thread(target=_table_worker, name=f"sim-{table}",
                                args=(url, table, events, timeout, retries, realtime,
                                      results[table], errors, announce, stop, on_sent,
                                      keepalive, connect_timeout, outboxes),
                               daemon=True)
               for table, events in scripts.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise DriverError("; ".join(errors))
    return results


def tables_of(events: Iterable[DeviceEvent]) -> dict[str, list[DeviceEvent]]:
    """Split one list of events into scripts per table, keeping their order."""
    out: dict[str, list[DeviceEvent]] = {}
    for event in events:
        out.setdefault(event.table, []).append(event)
    return out


class _LoopTable:
    """One table's script on a :class:`wire.mux.LinkLoop`: each event sent when its time
    comes and the one before it is answered (as :func:`_table_worker` does in a thread)."""

    def __init__(self, loop: LinkLoop, url: str, table: str, events: Sequence[DeviceEvent],
                 timeout: float, retries: int, realtime: Callable[[float], float] | None,
                 out: TableRun, announce: bool, keepalive: int,
                 on_sent: Callable[[str, int, float], None] | None,
                 finished: Callable[[_LoopTable, str | None], None],
                 outboxes: str | None = None):
        self.loop, self.table, self.events = loop, table, events
        self.timeout, self.retries, self.realtime = timeout, retries, realtime
        self.out, self.on_sent, self.finished = out, on_sent, finished
        self.index = 0
        self.sent = 0
        self.waiting: Envelope | None = None
        self.started = 0.0
        self.timer: Timer | None = None
        self.done = False
        self.links: dict[str, DeviceLink] = {}
        try:
            for device in sorted({e.device for e in events}):
                self.links[device] = DeviceLink(
                    url, table, device, outbox=_outbox(device, outboxes), views=False,
                    presence=announce, kind=_kind(device), stamp_sent=False,
                    reply_timeout=timeout, on_reply=self._reply,
                    reconnect_delay=(0.1, 1.0), keepalive=keepalive, loop=loop)
        except BaseException:
            self.close()
            raise

    def connected(self) -> bool:
        return all(link.client.connected.is_set() for link in self.links.values())

    def next(self) -> None:
        """Book the next event (on the loop), or finish."""
        self.timer = None
        if self.done:
            return
        if self.index >= len(self.events):
            self.finish(None)
            return
        if self.realtime is not None:
            delay = self.realtime(self.events[self.index].time)
            if delay > 0:
                self.timer = self.loop.call_later(delay, self.fire)
                return
        self.fire()

    def fire(self) -> None:
        self.timer = None
        if self.done:
            return
        event = self.events[self.index]
        self.started = time.perf_counter()
        try:
            self.waiting = self.links[event.device].send(
                event.type, dict(event.body),
                device_time=time.time() if self.realtime is not None else event.time,
                at=event.at)
        except Exception as err:
            self.finish(f"table {self.table}: {err}")
            return
        self.sent += 1
        if self.on_sent is not None:
            self.on_sent(self.table, self.index, time.monotonic())
        self.timer = self.loop.call_later(self.timeout * (self.retries + 1), self.late,
                                          self.waiting)

    def late(self, env: Envelope) -> None:
        if self.waiting is env and not self.done:
            self.finish(f"table {self.table}: no reply to {env.type} {env.id} after "
                        f"{self.retries + 1} tries")

    def _reply(self, reply: Reply, env: Envelope) -> None:
        if self.waiting is None or env.id != self.waiting.id or self.done:
            return
        self.waiting = None
        if self.timer is not None:
            self.timer.cancel()
        out = self.out
        out.latencies.append(time.perf_counter() - self.started)
        out.codes[reply.code] = out.codes.get(reply.code, 0) + 1
        if reply.status != "ack":
            out.rejected.append((env, reply))
        self.index += 1
        self.next()

    def finish(self, error: str | None) -> None:
        if self.done:
            return
        self.done = True
        if self.timer is not None:
            self.timer.cancel()
        self.out.sent = sum(link.published for link in self.links.values())
        self.out.resent = max(0, self.out.sent - self.sent)
        self.finished(self, error)

    def close(self) -> None:
        """Leave with each device's farewell, as the threaded tables do."""
        for link in self.links.values():
            link.close(farewell=True)
            link.outbox.close()


def _run_on_loop(url: str, scripts: Mapping[str, Sequence[DeviceEvent]], timeout: float,
                 retries: int, realtime: Callable[[float], float] | None, announce: bool,
                 stop: threading.Event | None,
                 on_sent: Callable[[str, int, float], None] | None, keepalive: int,
                 connect_timeout: float | None,
                 outboxes: str | None = None) -> dict[str, TableRun]:
    """:func:`run_tables` with every table on one :class:`wire.mux.LinkLoop`."""
    results = {table: TableRun(table) for table in scripts}
    errors: list[str] = []
    left = {"tables": len(scripts)}
    all_done = threading.Event()

    def finished(table: _LoopTable, error: str | None) -> None:
        if error is not None:
            errors.append(error)
        left["tables"] -= 1
        if left["tables"] <= 0:
            all_done.set()

    tables: list[_LoopTable] = []
    with LinkLoop(f"sim-links-{len(scripts)}") as loop:
        try:
            def build() -> None:
                for table, events in scripts.items():
                    tables.append(_LoopTable(loop, url, table, events, timeout, retries,
                                             realtime, results[table], announce, keepalive,
                                             on_sent, finished, outboxes))
                for table_ in tables:
                    for link in table_.links.values():
                        link.start()
            loop.run(build, timeout=600.0)
            deadline = time.monotonic() + (connect_timeout or timeout)
            while not all(t.connected() for t in tables):
                if time.monotonic() > deadline or (stop is not None and stop.is_set()):
                    late = [t.table for t in tables if not t.connected()]
                    if stop is not None and stop.is_set():
                        return results
                    raise DriverError(f"tables {', '.join(late[:10])} ({len(late)} in all): "
                                      f"not connected after {connect_timeout or timeout} s")
                time.sleep(0.1)
            if not tables:
                all_done.set()
            for table_ in tables:
                loop.call_soon(table_.next)
            while not all_done.wait(0.2):
                if stop is not None and stop.is_set():
                    def end() -> None:
                        for t in tables:
                            t.finish(None)
                    loop.run(end)
                    break
        finally:
            def close() -> None:
                for t in tables:
                    t.close()
            loop.run(close, timeout=600.0)
            loop.wait_detached(30.0)   # the DISCONNECTs written: no last will sent
    if errors:
        raise DriverError("; ".join(errors))
    return results
