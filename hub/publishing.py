"""The hub's publishing: the retained views of every table (public state, seats, table
tablet, results), the alerts, and the live scores, paced so that they never starve the
devices' replies (:data:`SCORE_SHARE`; hub.service's module docstring).

:class:`Publishing` is a part of :class:`hub.service.Hub` (as :mod:`hub.device_events` and
:mod:`hub.log_startup` are). A payload the same as the last one on its topic is not sent
again (:func:`_digest`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import msgspec

from bridgecore.cards import Seat
from hub.alerts import Alert
from wire.protocol import (
    topic_alert,
    topic_result,
    topic_seat,
    topic_state,
    topic_tablet,
)

if TYPE_CHECKING:
    from hub.device_events import HubStats
    from hub.room import Room
    from hub.shards import Shard
    from hub.webserver import RoomFeed
    from wire.mqtt import MqttClient

__all__ = ["SCORE_SHARE", "Publishing", "dumps"]

log = logging.getLogger("hub.service")   # the hub's log, as before this was split off

_SEATS = tuple(Seat)     # iterating the enum builds a list each time
SCORE_SHARE = 0.25           # of the hub's thread, at most, spent on live scores


_STRICT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def dumps(obj: Any) -> str:
    return _STRICT.encode(obj)


_ENCODE = msgspec.json.Encoder().encode


def _view(obj: dict[str, Any]) -> str:
    """The payload of a view (wire.views), encoded from the dict the hub built. The hub
    builds each view from its typed state, so its shape holds by construction: it is not
    validated again for every publication (``from_builtins`` then ``to_json`` took 0.9 µs a
    view, this 0.3 µs: issue 27, docs/performance.md). The guarantee is tested instead:
    tests/hub/test_publishing.py checks every payload the hub publishes in whole simulated
    sessions against the type of its topic (``from_json``), and that the typed view writes
    the same text (the same keys, in the same order, nothing more)."""
    return _ENCODE(obj).decode()


def _digest(payload: str) -> bytes:
    """What the hub keeps of a payload it published, to know whether the next one differs."""
    return hashlib.blake2b(payload.encode(), digest_size=16).digest()


class Publishing:
    """The hub's retained views, alerts and live scores (a part of :class:`hub.service.Hub`)."""

    if TYPE_CHECKING:
        room: Room
        shard: Shard | None    # hub.sharding's
        stats: HubStats
        console: RoomFeed | None
        listeners: list[Callable[[str, Any], None]]
        score_interval: float
        _client: MqttClient | None
        _loop: asyncio.AbstractEventLoop | None
        _last: dict[str, bytes]
        _results: dict[tuple[str, int, int], bytes]
        _seat_keys: dict[tuple[str, Seat], tuple[Any, ...]]
        _scores_timer: asyncio.TimerHandle | None
        _scores_sent: float
        _scores_wait: float
        _scores_round: list[str]
        _scores_spent: float

    def _retain(self, topic_name: str, payload: str, force: bool = False) -> None:
        digest = _digest(payload)
        if not force and self._last.get(topic_name) == digest:
            return
        self._last[topic_name] = digest
        if self._client is not None:
            self._client.send(topic_name, payload, 1, True)
            self.stats.published += 1

    def _publish_alerts(self, alerts: Iterable[Alert]) -> None:
        latest: dict[str, Alert] = {}
        for alert in alerts:
            latest[alert.id] = alert
        for alert in latest.values():
            self.stats.alerts += 1
            name = topic_alert(alert.id)
            data = _view(alert.to_json())
            client = self._client
            if client is not None:
                if alert.is_open:
                    client.send(name, data, 1, True)
                else:  # closed: say so once, and clear the retained copy
                    client.send(name, data, 1, False)
                    client.send(name, b"", 1, True)
            for listener in self.listeners:
                listener("alert", alert)
            if self.console is not None:
                self.console.alert_changed(alert)

    def _publish_tables(self, tables: Iterable[str], force: bool = False) -> None:
        for table_id in sorted(set(tables)):
            table = self.room.tables.get(table_id)
            if table is None:
                continue
            state = table.public_state()
            if self.shard is not None:   # its devices read its shard's presence (14)
                state["shard"] = self.shard.index
            self._retain(topic_state(table_id), _view(state), force)
            for seat in _SEATS:
                key = table.seat_key(seat)
                if force or self._seat_keys.get((table_id, seat)) != key:
                    self._seat_keys[table_id, seat] = key
                    self._retain(topic_seat(table_id, seat.letter),
                                 _view(table.seat_view(seat)),
                                 force)
            # The table tablet's explanations (hub.explain; _retain skips an unchanged one).
            self._retain(topic_tablet(table_id), _view(table.tablet_view()), force)
            # Only the board in play can change (a confirmation is for the current board);
            # on start every board's result is published again.
            sittings = table.sittings.items() if force else (
                [] if table.sitting is None else
                [((table.sitting.round, table.sitting.board.number), table.sitting)])
            for (round_, board), sitting in sittings:
                result = table.result(sitting)
                if result is None:
                    continue
                ns, ew = table.pairs(round_)
                data = dict(result, table=table_id, round=round_, board=board,
                            pairs={"NS": ns, "EW": ew},
                            confirmed=any(ok for ok, _ in sitting.confirmations.values()),
                            ended=sitting.ended)
                text = _view(data)
                key = (table_id, round_, board)
                digest = _digest(text)
                if force or self._results.get(key) != digest:
                    self._results[key] = digest
                    if self._client is not None:
                        self._client.send(topic_result(table_id, round_, board), text, 1,
                                             True)
                    for listener in self.listeners:
                        listener("result", data)
            for listener in self.listeners:
                listener("table", table_id)
            if self.console is not None:
                self.console.table_changed(table_id)

    def _scores_later(self) -> None:
        """Publish the live scores once the replies are out: at the next turn of the loop,
        or when the last publication allows (:meth:`_scores_step`) if that is later; one
        publication covers every batch until then. Without a running loop (a hub driven by
        ``handle`` directly), at once."""
        loop = self._loop
        if loop is None or not loop.is_running():
            self._publish_scores()
            return
        if self._scores_timer is not None or self._scores_round:
            return   # already due, or under way: it will take this batch's changes too
        wait = self._scores_sent + self._scores_wait - time.monotonic()
        self._scores_timer = loop.call_later(max(0.0, wait), self._scores_due)

    def _scores_due(self) -> None:
        self._scores_timer = None
        client = self._client
        if client is None or client.closed:
            return
        self._scores_round = self.room.scoring.unpublished()
        self._scores_spent = 0.0
        self._scores_step()

    def _scores_step(self) -> None:
        """Rescore and publish one section of the round, then give the loop back (the
        replies and events that came meanwhile go first) before the next. At the end of
        the round, the next one waits ``score_interval``, or longer when the round was
        costly: live scoring takes at most :data:`SCORE_SHARE` of the hub's thread, so a
        room of a thousand tables never starves the devices' replies."""
        client = self._client
        if client is None or client.closed:
            self._scores_round = []
            return
        if self._scores_round:
            name = self._scores_round.pop(0)
            started = time.perf_counter()
            self._publish_scores(only=(name,))
            self._scores_spent += time.perf_counter() - started
            if self._scores_round and self._loop is not None:
                self._loop.call_soon(self._scores_step)
                return
        self._scores_wait = max(self.score_interval,
                                self._scores_spent * (1 - SCORE_SHARE) / SCORE_SHARE)
        if self.room.scoring.unpublished():   # changed during the round: the next one
            self._scores_later()

    def _publish_scores(self, force: bool = False, only: Iterable[str] | None = None) -> None:
        """The rankings and travellers of the sections whose results or rulings changed
        (hub.scoring; ``only`` these); a payload that is the same as the last one is not
        sent again."""
        try:
            publications = self.room.scoring.publications(force, only)
        except Exception:  # the scores must never stop the room
            log.exception("live scoring failed")
            return
        finally:
            self._scores_sent = time.monotonic()
        for topic_name, payload in publications:
            self._retain(topic_name, payload, force)

    def republish(self) -> None:
        """Every retained view again, and the resolved alerts cleared again (on start and
        on every reconnection to the broker: a broker restarted may have lost them, or
        restored an old save of them)."""
        self._publish_tables(self.room.tables, force=True)
        if self._scores_timer is not None:   # this publication covers it
            self._scores_timer.cancel()
            self._scores_timer = None
        self._publish_scores(force=True)
        client = self._client
        if client is not None:
            for alert in self.room.alerts:
                if alert.is_open:
                    client.send(topic_alert(alert.id),
                                _view(alert.to_json()), 1, True)
                else:   # a broker restored from an old save may hold it still open
                    client.send(topic_alert(alert.id), b"", 1, True)
