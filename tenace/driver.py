"""Virtual devices on a real broker: play scripts of :class:`tenace.devices.DeviceEvent`
through MQTT to a running hub, and watch what the director is told.

Each table gets its own MQTT connection (persistent session) that speaks for all the
table's devices (each event still goes to its own device's topic, with its own sequence
numbers). A table sends its events in order and waits for each reply, as a player waits
for the tablet to show his call; an event without a reply in time is sent again with the
same id (the protocol's rule: the id makes it harmless). Tables run in parallel threads.

:class:`Observer` is the director's side: it collects the alerts (the latest version of
each) and the results the hub publishes.
"""

from __future__ import annotations

import json
import logging
import queue
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tenace.devices import DeviceEvent, VirtualDevice
from wire.mqtt import Message, MqttClient
from wire.protocol import (
    ROOT,
    Envelope,
    Reply,
    topic_device_status,
    topic_event,
    topic_hub_status,
)

__all__ = ["DriverError", "Observer", "TableRun", "run_tables", "wait_for_hub"]

log = logging.getLogger(__name__)


class DriverError(RuntimeError):
    """A virtual table could not get its events through (names the table and the event)."""


@dataclass(slots=True)
class TableRun:
    """What happened to one table's script: replies by code, the rejected events."""

    table: str
    sent: int = 0
    resent: int = 0
    codes: dict[str, int] = field(default_factory=dict)
    rejected: list[tuple[Envelope, Reply]] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)   # publish -> reply, seconds


def _table_worker(url: str, table: str, events: Sequence[DeviceEvent], run: str,
                  timeout: float, retries: int, realtime: Callable[[float], float] | None,
                  out: TableRun, errors: list[str], announce: bool,
                  stop: threading.Event | None = None) -> None:
    client_id = f"tenace-sim-{run}-{table}"
    devices: dict[str, VirtualDevice] = {}
    client = MqttClient(url, client_id, start=False)
    replies = client.messages
    try:
        client.subscribe(f"{ROOT}/t/{table}/reply/+", 1, wait=False)
        client.start()
        client.wait_connected(timeout)
        if announce:
            for device in sorted({e.device for e in events}):
                client.publish(topic_device_status(table, device),
                               json.dumps({"online": True}), 1, True)
        for event in events:
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
            dev = devices.get(event.device)
            if dev is None:
                dev = devices[event.device] = VirtualDevice(event.device, run)
            env = dev.envelope(event)
            if realtime is not None:  # the device's clock is now
                env = Envelope(env.id, env.device, env.seq, time.time(), env.type, env.body)
            reply = _send(client, replies, table, env, timeout, retries, out)
            if reply is None:
                errors.append(f"table {table}: no reply to {env.type} {env.id} after "
                              f"{retries + 1} tries")
                return
            out.codes[reply.code] = out.codes.get(reply.code, 0) + 1
            if reply.status != "ack":
                out.rejected.append((env, reply))
    except Exception as err:  # reported, not raised in a thread
        errors.append(f"table {table}: {err}")
    finally:
        client.close(farewell=False)


def _send(client: MqttClient, replies: queue.Queue[Message], table: str, env: Envelope,
          timeout: float, retries: int, out: TableRun) -> Reply | None:
    topic = topic_event(table, env.device)
    payload = env.to_json()
    for attempt in range(retries + 1):
        started = time.perf_counter()
        client.publish(topic, payload, 1)
        out.sent += 1
        out.resent += attempt > 0
        deadline = started + timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                break
            try:
                message = replies.get(timeout=left)
            except queue.Empty:
                break
            try:
                reply = Reply.from_json(message.payload)
            except ValueError:
                continue
            if reply.ref == env.id:
                out.latencies.append(time.perf_counter() - started)
                return reply
    return None


def run_tables(url: str, scripts: Mapping[str, Sequence[DeviceEvent]], *, run: str | None = None,
               timeout: float = 5.0, retries: int = 3,
               realtime: Callable[[float], float] | None = None,
               announce: bool = True,
               stop: threading.Event | None = None) -> dict[str, TableRun]:
    """Play every table's script in parallel; returns each table's :class:`TableRun`.
    Raises :class:`DriverError` if a table could not get an event through.

    ``run`` makes the event ids of this run unique (default: random). With ``realtime``
    (device time -> seconds to wait first), events keep their pace and carry the real
    clock. ``announce`` publishes each device's birth status first; ``stop`` ends every
    table's script early (its connection closed cleanly)."""
    run = run or uuid.uuid4().hex[:8]
    results = {table: TableRun(table) for table in scripts}
    errors: list[str] = []
    threads = [threading.Thread(target=_table_worker, name=f"sim-{table}",
                                args=(url, table, events, run, timeout, retries, realtime,
                                      results[table], errors, announce, stop), daemon=True)
               for table, events in scripts.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise DriverError("; ".join(errors))
    return results


class Observer:
    """The director's view over MQTT: alerts (latest version by id) and results."""

    def __init__(self, url: str, *, client_id: str | None = None, states: bool = False,
                 fresh: bool = True):
        self.alerts: dict[str, dict[str, Any]] = {}
        self.results: dict[tuple[str, int, int], dict[str, Any]] = {}
        self.states: dict[str, dict[str, Any]] = {}   # table -> latest public state
        self.received = 0
        self.fresh = fresh      # ignore what was retained before this run (an earlier hub's)
        self._last = time.monotonic()
        self._lock = threading.Lock()
        self._client = MqttClient(url, client_id or f"tenace-observer-{uuid.uuid4().hex[:8]}",
                                  clean_session=True, start=False, on_message=self._take)
        self._client.subscribe(f"{ROOT}/director/alert/+", 1, wait=False)
        self._client.subscribe(f"{ROOT}/result/+/+/+", 1, wait=False)
        if states:
            self._client.subscribe(f"{ROOT}/t/+/state", 1, wait=False)
        self._client.start()
        self._client.wait_connected(10.0)

    def _take(self, message: Message) -> None:
        with self._lock:
            self.received += 1
            self._last = time.monotonic()
            if not message.payload or (self.fresh and message.retain):
                return
            try:
                data = json.loads(message.payload)
            except ValueError:
                log.warning("observer: not JSON on %s", message.topic)
                return
            if message.topic.endswith("/state"):
                self.states[message.topic.split("/")[3]] = data
            elif "/director/alert/" in message.topic:
                old = self.alerts.get(data.get("id"))
                if old is None or (data.get("version", 0), _rank(data)) >= (
                        old.get("version", 0), _rank(old)):
                    self.alerts[data["id"]] = data
            else:
                key = (data.get("table"), data.get("round"), data.get("board"))
                self.results[key] = data  # type: ignore[index]

    def settle(self, quiet: float = 0.3, limit: float = 15.0) -> None:
        """Wait until nothing has arrived for ``quiet`` seconds (at most ``limit``)."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            with self._lock:
                idle = time.monotonic() - self._last
            if idle >= quiet:
                return
            time.sleep(min(quiet - idle, 0.05) + 0.001)

    def alert_list(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self.alerts.values())

    def close(self) -> None:
        self._client.close(farewell=False)

    def __enter__(self) -> Observer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_STATUS_RANK = {"open": 0, "acknowledged": 1, "ruled": 2, "resolved": 3}


def _rank(alert: Mapping[str, Any]) -> int:
    return _STATUS_RANK.get(str(alert.get("status")), 0)


def tables_of(events: Iterable[DeviceEvent]) -> dict[str, list[DeviceEvent]]:
    """Split one list of events into scripts per table, keeping their order."""
    out: dict[str, list[DeviceEvent]] = {}
    for event in events:
        out.setdefault(event.table, []).append(event)
    return out


def wait_for_hub(url: str, *, started_after: float = 0.0,
                 process: subprocess.Popen[bytes] | None = None,
                 timeout: float = 60.0) -> bool:
    """Until the hub's retained status says online, started after ``started_after`` (hub
    clock); False after ``timeout`` or once ``process`` (the hub's, or its broker's) has
    exited. The broker may still be starting: the watcher keeps trying to connect."""
    watcher = MqttClient(url, f"tenace-wait-{uuid.uuid4().hex[:8]}", clean_session=True,
                         reconnect_delay=(0.1, 1.0), start=False)
    watcher.subscribe(topic_hub_status(), 1, wait=False)
    watcher.start()
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and (process is None or process.poll() is None):
            try:
                status = json.loads(watcher.messages.get(timeout=0.5).payload or b"{}")
            except (queue.Empty, ValueError):
                continue
            if (isinstance(status, dict) and status.get("online")
                    and status.get("started", 0) > started_after):
                return True
        return False
    finally:
        watcher.close(farewell=False)
