"""The director's side of a simulated room, over MQTT: what the hub tells the director, and
whether the hub is up.

:class:`Observer` collects the alerts (the latest version of each), the results and,
optionally, the tables' public states and the live rankings and travellers the hub
publishes (with when each result first reached a traveller). :meth:`Observer.settle` waits until
everything the hub published before the call has arrived: the observer publishes a marker
on a topic of its own and waits for it to come back. A broker forwards to each subscriber
in the order it received, so once the marker is back, every message the broker had for the
observer before it has been taken: the hub publishes the alerts and views of a batch of
events before its replies (:meth:`hub.service.Hub.handle`), so a settle called once a
device has its reply finds the alerts that event raised; the rankings and travellers come
after the replies, within the hub's ``score_interval``: a settle whose ``quiet`` is longer
than that finds them too. :func:`wait_for_hub` waits for
a hub's retained presence.

Both connect with an account (hub/access.py): the observer as ``director`` (its client id;
it reads the alerts, the results and the tables' states, never a seat's hand), the hub's
watcher as ``director.watch``. Their credentials are in the URL or the keyring
(wire/mqtt.py).
"""

from __future__ import annotations

import json
import logging
import queue
import subprocess
import threading
import time
from collections.abc import Mapping
from typing import Any

from wire.mqtt import Message, MqttClient
from wire.protocol import ROOT, topic_hub_status

__all__ = ["Observer", "wait_for_hub"]

log = logging.getLogger(__name__)


class Observer:
    """The director's view over MQTT: alerts (latest version by id) and results."""

    def __init__(self, url: str, *, client_id: str | None = None, states: bool = False,
                 fresh: bool = True, scores: bool = False):
        """``states``: the tables' public states too; ``scores``: the live rankings and
        travellers too (:attr:`scores`, the latest payload by topic, and the moments each
        arrived: :attr:`row_seen`, :attr:`ranking_seen`)."""
        self.alerts: dict[str, dict[str, Any]] = {}
        self.alert_seen: dict[str, float] = {}   # alert id -> first arrival (monotonic)
        self.scores: dict[str, dict[str, Any]] = {}   # results/... topic -> latest payload
        # (section key, board, table, round) -> when its row first reached a traveller
        self.row_seen: dict[tuple[str, int, str, int], float] = {}
        self.ranking_seen: dict[str, list[float]] = {}   # section key -> every arrival
        self.results: dict[tuple[str, int, int], dict[str, Any]] = {}
        self.states: dict[str, dict[str, Any]] = {}   # table -> latest public state
        self.received = 0
        self.fresh = fresh      # ignore what was retained before this run (an earlier hub's)
        self.client_id = client_id or "director"
        # The account's own echo topic: only this account reads and writes it, the hub
        # subscribes to nothing there.
        self._marker_topic = f"{ROOT}/echo/{self.client_id}"
        self._markers = 0        # markers published
        self._back = 0           # the last marker come back
        self._last = time.monotonic()
        self._changed = threading.Condition()
        self._client = MqttClient(url, self.client_id, clean_session=True, start=False,
                                  on_message=self._take)
        self._client.subscribe(f"{ROOT}/director/alert/+", 1, wait=False)
        self._client.subscribe(f"{ROOT}/result/+/+/+", 1, wait=False)
        if states:
            self._client.subscribe(f"{ROOT}/t/+/state", 1, wait=False)
        if scores:
            self._client.subscribe(f"{ROOT}/results/ranking/+", 1, wait=False)
            self._client.subscribe(f"{ROOT}/results/traveller/+/+", 1, wait=False)
            self._client.subscribe(f"{ROOT}/results/field", 1, wait=False)
        self._client.subscribe(self._marker_topic, 1, wait=False)
        self._client.start()
        self._client.wait_connected(10.0)

    def _take(self, message: Message) -> None:
        with self._changed:
            self._last = time.monotonic()
            if message.topic == self._marker_topic:
                try:
                    self._back = max(self._back, int(message.payload))
                except ValueError:
                    log.warning("observer: marker %r not understood", message.payload[:32])
                self._changed.notify_all()
                return
            self.received += 1
            if not message.payload or (self.fresh and message.retain):
                return
            try:
                data = json.loads(message.payload)
            except ValueError:
                log.warning("observer: not JSON on %s", message.topic)
                return
            if message.topic.endswith("/state"):
                self.states[message.topic.split("/")[3]] = data
            elif "/results/" in message.topic:
                self._score(message.topic, data)
            elif "/director/alert/" in message.topic:
                old = self.alerts.get(data.get("id"))
                if old is None or (data.get("version", 0), _rank(data)) >= (
                        old.get("version", 0), _rank(old)):
                    self.alerts[data["id"]] = data
                self.alert_seen.setdefault(data["id"], self._last)
            else:
                key = (data.get("table"), data.get("round"), data.get("board"))
                self.results[key] = data  # type: ignore[index]

    def _score(self, topic: str, data: Any) -> None:
        """A ranking or a traveller (under the lock): kept, and when its news arrived."""
        self.scores[topic] = data
        if not isinstance(data, dict):
            return
        if "/results/ranking/" in topic:
            self.ranking_seen.setdefault(str(data.get("key")), []).append(self._last)
            return
        for row in data.get("results", ()):
            key = (str(data.get("key")), int(data.get("board", 0)), str(row.get("table")),
                   int(row.get("round", 0)))
            self.row_seen.setdefault(key, self._last)

    def settle(self, quiet: float = 0.3, limit: float = 15.0) -> bool:
        """Wait until everything the broker had for this observer when called has arrived
        (the marker round trip, module docstring), then until nothing more has arrived for
        ``quiet`` seconds (what the hub is still publishing: a result scored after its
        board, an alert updated); at most ``limit`` seconds in all. False if the marker did
        not come back in time."""
        end = time.monotonic() + limit
        with self._changed:
            self._markers += 1
            marker = self._markers
        self._client.publish(self._marker_topic, str(marker), 1)
        with self._changed:
            back = self._changed.wait_for(lambda: self._back >= marker,
                                          max(0.0, end - time.monotonic()))
            while True:
                idle = time.monotonic() - self._last
                left = end - time.monotonic()
                if idle >= quiet or left <= 0:
                    break
                self._changed.wait(min(quiet - idle, left))
        if not back:
            log.warning("observer: settle marker %d not back after %.1f s", marker, limit)
        return back

    @property
    def lock(self) -> threading.Condition:
        """Held while a message is taken: hold it to read the collections consistently."""
        return self._changed

    def alert_list(self) -> list[dict[str, Any]]:
        with self._changed:
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


def wait_for_hub(url: str, *, started_after: float = 0.0,
                 process: subprocess.Popen[bytes] | None = None,
                 timeout: float = 60.0, client_id: str = "director.watch",
                 topic: str | None = None) -> bool:
    """Until the hub's retained status says online, started after ``started_after`` (hub
    clock); False after ``timeout`` or once ``process`` (the hub's, or its broker's) has
    exited. The broker may still be starting: the watcher keeps trying to connect.
    ``topic``: the status to read (default ``hub/status``; a shard's own, hub.shards)."""
    watcher = MqttClient(url, client_id, clean_session=True,
                         reconnect_delay=(0.1, 1.0), start=False)
    watcher.subscribe(topic or topic_hub_status(), 1, wait=False)
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
