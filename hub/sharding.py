"""A hub's part in a sharded event (hub.shards) and the field's ranking (hub.field).

:class:`Sharding` is a part of :class:`hub.service.Hub` (as hub.publishing is): what a
hub subscribes to, where it says it is online, which director commands are its own, and,
where the event is one field, the travellers of every section read back from the broker and
the field's ranking published (``results/field``, coalesced as the live scores are).
A hub that is not a shard (``shard`` None) subscribes to every table, as always.

The director's console of any shard runs the whole event: every shard publishes its
tables' summaries as the console shows them (``hub/shard/{K}/tables``, retained, at most
once a second and only when one changed) and keeps the others' (:attr:`remote_tables`) for
its room map; a shard whose console is on also reads the alerts and the results every shard
publishes, and a table's state while a director follows its panel (:attr:`remote`,
hub.shard_views), and sends the commands for another shard's tables, sections or alerts to
it over MQTT (:meth:`Sharding.forward_command`, on ``hub/cmd/tenace-hub-{K}``: the owner
applies them, as it does the director's tools', and answers on its own
``hub/shard/{J}/answer``: :meth:`Sharding.answer_of` waits for that answer, the console gives
it to its user). A command for a shard whose presence says it is offline is not sent.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import time
from typing import TYPE_CHECKING, Any

from bridgecore.text import Text
from hub.console_views import RoomView
from hub.field import FieldRanking
from hub.shard_views import RemoteViews
from hub.shards import shard_account
from hub.texts import refused_answer
from wire.protocol import (
    ROOT,
    ProtocolError,
    Topic,
    topic_field_ranking,
    topic_hub_command,
    topic_hub_status,
    topic_shard_answer,
    topic_shard_status,
    topic_shard_tables,
    topic_state,
    topic_tablet,
)
from wire.views import RankingView

if TYPE_CHECKING:
    from hub.device_events import HubStats
    from hub.room import Room
    from hub.shards import Shard
    from hub.webserver import RoomFeed
    from wire.mqtt import MqttClient

__all__ = ["Sharding"]

log = logging.getLogger("hub.service")

_ALERT_OPS = frozenset({"acknowledge", "rule", "resolve"})
FOLLOW_SECONDS = 180.0
"""Another shard's table is followed (its state read) this long after a panel last asked for
it: an open panel asks again every minute (hub/static/console.js)."""
ANSWER_SECONDS = 10.0
"""How long a console waits for the answer of the shard it sent a command to."""
_REF = re.compile(r"[A-Za-z0-9_.-]{1,64}")


class Sharding:
    """The hub's shard (None: the whole room) and the field's ranking."""

    shard: Shard | None
    room: Room
    field: FieldRanking | None
    stats: HubStats
    score_interval: float
    _client: MqttClient | None
    _loop: asyncio.AbstractEventLoop | None
    _field_timer: asyncio.TimerHandle | None
    _field_sent: str
    _tables_sent: str
    remote_tables: dict[str, dict[str, Any]]   # another shard's table id -> its summary
    remote: RemoteViews                          # the other shards' views (hub.shard_views)
    console: RoomFeed | None
    shard_online: dict[int, bool]                # the other shards' presence, as last read
    answer_seconds: float
    _waiting: dict[str, tuple[int | None, asyncio.Future[dict[str, Any]]]]
    _answers: list[tuple[int, str, dict[str, Any]]]   # (to, ref, answer) of this batch
    _refs: int                                   # the commands sent: their refs' numbers
    _ref_base: str                               # this run's refs' start (shard, random)

    def hub_time(self) -> float:
        raise NotImplementedError   # hub.service.Hub's

    def _sharding_start(self, shard: Shard | None) -> None:
        self.shard = shard
        self.field = None
        self._field_timer = None
        self._field_sent = ""
        self._tables_sent = ""
        self.remote_tables = {}
        self.remote = RemoteViews()
        self.shard_online = {}
        self.answer_seconds = ANSWER_SECONDS
        self._waiting = {}
        self._answers = []
        self._refs = 0
        self._ref_base = f"{shard.index}-{secrets.token_hex(3)}" if shard is not None else ""
        one_field = bool(getattr(getattr(self, "setup", None), "one_field", False))
        if one_field and (shard is None or shard.index == 0):
            self.field = FieldRanking(self.room.edition.name, self.room.conventions,
                                      self.room.language)

    # What it subscribes to and where it says it is online ---------------------------------
    def _subscriptions(self) -> list[str]:
        """The topic filters of this hub: every table, or a shard's own tables one by one
        (its account may read no other); commands; dealing machines (shard 0 only); every
        section's results where it ranks the field."""
        if self.shard is None:
            filters = [f"{ROOT}/t/+/ev/+", f"{ROOT}/t/+/dev/+/status"]
        else:
            filters = [f for table in self.room.tables
                       for f in (f"{ROOT}/t/{table}/ev/+", f"{ROOT}/t/{table}/dev/+/status")]
        # hub/cmd without an account too: refused, with a log line saying where to send it.
        filters += [f"{ROOT}/hub/cmd/+", f"{ROOT}/hub/cmd"]
        if self.shard is None or self.shard.index == 0:
            filters.append(f"{ROOT}/dealer/+/ev")
        if self.shard is not None:   # every shard's tables, for its console's room map
            filters.append(f"{ROOT}/hub/shard/+/tables")
        viewer = self.shard is not None and self._console_on()
        if self.field is not None or viewer:
            filters += [f"{ROOT}/results/traveller/+/+", f"{ROOT}/results/ranking/+"]
        if viewer:    # the whole event on its console and results pages (hub.shard_views)
            filters += [f"{ROOT}/director/alert/+", f"{ROOT}/results/field"]
            # its commands for the others: their presence and their answers (protocol 17)
            filters += [f"{ROOT}/hub/status", f"{ROOT}/hub/shard/+/status",
                        f"{ROOT}/hub/shard/+/answer"]
            filters += [f for table in sorted(self.remote.followed)
                        for f in (f"{ROOT}/t/{table}/state", f"{ROOT}/t/{table}/tablet")]
        return filters

    def _console_on(self) -> bool:
        return getattr(self, "console_address", None) is not None

    def _status_topics(self) -> list[str]:
        """Where the hub's status goes, the first with its last will: ``hub/status``
        (the event's, which devices read) for a single hub and for shard 0, besides its own
        ``hub/shard/{K}/status``."""
        if self.shard is None:
            return [topic_hub_status()]
        own = topic_shard_status(self.shard.index)
        return [topic_hub_status(), own] if self.shard.index == 0 else [own]

    # Director commands ------------------------------------------------------------------
    def _other_shards(self, command: Any) -> bool:
        """Whether a command over MQTT names a table, a section or an alert this shard does
        not hold: another shard's, let pass (every shard receives every command). A
        ruling's id begins with its shard's number (``1-R3``)."""
        if self.shard is None or not isinstance(command, dict):
            return False
        table, section, ident = command.get("table"), command.get("section"), command.get("id")
        own = f"{self.shard.index}-"    # a ruling's or a correction's id (hub.service)
        theirs = ((isinstance(table, str) and table not in self.room.tables)
                  or (command.get("op") == "ruling_undo" and isinstance(ident, str)
                      and not ident.startswith(own))
                  or (isinstance(section, str)
                      and section not in {s.name for s in self.room.sections})
                  or (command.get("op") in _ALERT_OPS and isinstance(ident, str)
                      and ident not in self.room.alerts))
        if theirs:
            log.debug("command %s for another shard: not shard %d's", command.get("op"),
                      self.shard.index)
        return theirs

    def forward_command(self, command: Any, user: str) -> dict[str, Any] | None:
        """A command given on this shard's console that is another shard's (its table,
        section or alert), or the whole room's (the round clock, the public results): sent to
        the shards over MQTT on this shard's ``hub/cmd/{account}``, ``by`` the console's
        user; the shard that holds what it names applies it (hub.service ``_command``). None
        when this shard applies it itself (its own, and the whole room's too); else the
        console's answer: for another shard's, ``ref`` names the answer
        :meth:`answer_of` waits for; refused, not sent, when the owner's presence says it is
        offline. A table, section or alert no shard is known to hold is this shard's to
        refuse (None)."""
        client = self._client
        if self.shard is None or not isinstance(command, dict) or client is None:
            return None
        theirs = self._other_shards(command)
        whole_room = not any(command.get(k) is not None for k in ("table", "section", "id"))
        if not theirs and not whole_room:
            return None
        owner = self._owner(command) if theirs else None
        if theirs and owner is None:    # no shard is known to hold it: refused here, in words
            return None
        if owner is not None and self.shard_online.get(owner) is False:
            log.warning("command %s of %s not sent: shard %d is offline", command.get("op"),
                        user, owner)
            return dict(refused_answer(Text.of("refusal.shard_offline", shard=owner)),
                        forwarded=False, shard=owner)
        sent = dict(command, by=user[:64])
        if theirs:
            self._refs += 1
            sent["ref"] = f"{self._ref_base}-{self._refs}"
        payload = json.dumps(sent, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        try:
            client.send(topic_hub_command(self.shard.account), payload, 1)
        except Exception as err:   # MqttError: the queue full, the client closed
            log.warning("command %s for the other shards not sent: %s", command.get("op"), err)
            return refused_answer(Text.of("refusal.not_forwarded", error=str(err)[:200]))
        self.stats.published += 1
        log.info("command %s of %s sent to the other shards", command.get("op"), user)
        if not theirs:
            return None
        loop = self._loop
        if loop is not None and loop.is_running():
            self._waiting[sent["ref"]] = (owner, loop.create_future())
        return {"ok": True, "forwarded": True, "shard": owner, "ref": sent["ref"]}

    async def answer_of(self, sent: dict[str, Any]) -> dict[str, Any]:
        """The answer to a command :meth:`forward_command` sent (``sent``, its result): the
        owning shard's, as its own console would have given it, with ``forwarded`` and
        ``shard``; refused (``refusal.shard_silent``) when none came in
        :attr:`answer_seconds`. Any other result as it is."""
        ref = sent.pop("ref", None)
        waiting = self._waiting.get(ref) if isinstance(ref, str) else None
        if waiting is None:
            return sent
        owner, future = waiting
        try:
            answer = await asyncio.wait_for(asyncio.shield(future), self.answer_seconds)
        except TimeoutError:
            log.warning("no answer from shard %s to command %s in %.0f s", owner, ref,
                        self.answer_seconds)
            return dict(refused_answer(Text.of("refusal.shard_silent", shard=owner,
                                               seconds=round(self.answer_seconds))),
                        forwarded=True, shard=owner)
        finally:
            self._waiting.pop(ref, None)
        return dict(answer, forwarded=True)

    def _answer_later(self, account: str, ref: Any, result: dict[str, Any]) -> None:
        """Another shard's console's command, taken here: its answer, sent once the batch
        is stored (:meth:`_send_answers`), when it carries a ``ref``."""
        number = account.rsplit("-", 1)[-1]
        if self.shard is None or not number.isdecimal():
            return
        if not isinstance(ref, str) or not _REF.fullmatch(ref):
            if ref is not None:
                log.warning("command from %s: ref %.80r is not [A-Za-z0-9_.-], 1-64: "
                            "no answer", account, ref)
            return
        answer = {k: v for k, v in result.items() if k != "code"}
        self._answers.append((int(number), ref, answer))

    def _send_answers(self, failed: Exception | None = None) -> None:
        """The answers of the batch just stored (or, ``failed``, not stored: refused)."""
        if not self._answers:   # every batch comes here: most have none
            return
        answers, self._answers = self._answers, []
        client = self._client
        if self.shard is None or client is None or client.closed:
            return
        for to, ref, answer in answers:
            if failed is not None and answer.get("ok"):
                answer = refused_answer(Text.of("refusal.not_stored", error=str(failed)))
            payload = json.dumps({"v": 1, "to": to, "ref": ref, "shard": self.shard.index,
                                  **answer}, separators=(",", ":"), ensure_ascii=False,
                                 allow_nan=False)
            client.send(topic_shard_answer(self.shard.index), payload, 1)
            self.stats.published += 1

    def _shard_message(self, topic: Topic, payload: bytes) -> None:
        """Another shard's presence (``hub/status``: shard 0's) or its answer to one of this
        shard's commands (protocol 17)."""
        if self.shard is None:
            return
        index = 0 if topic.kind == "hub_status" else topic.shard
        if index is None or index == self.shard.index:
            return
        try:
            body = json.loads(payload) if payload else {}
        except (ValueError, UnicodeDecodeError) as err:
            log.warning("shard %d's %s not read: %.200s", index, topic.kind, err)
            return
        if not isinstance(body, dict):
            return
        if topic.kind == "shard_answer":
            ref = body.get("ref")
            waiting = self._waiting.get(ref) if isinstance(ref, str) else None
            if body.get("to") == self.shard.index and waiting is not None \
                    and not waiting[1].done():
                answer = {k: v for k, v in body.items() if k not in ("v", "to", "ref")}
                waiting[1].set_result(dict(answer, shard=index))
        elif topic.kind == "hub_status" or index != 0:
            # shard 0's will is on hub/status (its own topic keeps its last birth)
            online = body.get("online")
            if isinstance(online, bool) and self.shard_online.get(index) != online:
                self.shard_online[index] = online
                log.info("shard %d is %s", index, "online" if online else "offline")
                if not online:
                    self._owner_gone(index)

    def _owner_gone(self, index: int) -> None:
        """Shard ``index`` went offline: the commands waiting for its answer are answered
        now, saying so (``refusal.shard_stopped``), rather than at the end of the wait."""
        for owner, future in self._waiting.values():
            if owner == index and not future.done():
                future.set_result(dict(refused_answer(Text.of("refusal.shard_stopped",
                                                              shard=index)), shard=index))

    def _owner(self, command: dict[str, Any]) -> int | None:
        """The shard that holds what ``command`` names, as far as this one knows."""
        table, section, ident = command.get("table"), command.get("section"), command.get("id")
        alert = self.remote.alerts.get(ident) if isinstance(ident, str) else None
        if alert is not None:
            table = alert.get("table")
        if isinstance(table, str) and table in self.remote_tables:
            return self.remote_tables[table].get("shard")
        if isinstance(section, str):
            return next((t.get("shard") for t in self.remote_tables.values()
                         if t.get("section") == section), None)
        number = ident.split("-", 1)[0] if isinstance(ident, str) else ""
        return int(number) if number.isdecimal() and len(number) <= 3 else None

    def from_shard(self, account: str, command: Any) -> tuple[bool, str]:
        """A command on another shard's ``hub/cmd/tenace-hub-{K}``: (take it, who gave it).
        This shard's own (sent by :meth:`forward_command`) is not taken again."""
        if self.shard is None or account == self.shard.account \
                or not any(account == shard_account(k) for k in range(self.shard.count)):
            return False, account
        by = command.pop("by", None) if isinstance(command, dict) else None
        return True, by if isinstance(by, str) and by else account

    # The other shards' views (hub.shard_views) -------------------------------------------
    def follow_table(self, table: str) -> dict[str, Any] | None:
        """Another shard's table for its panel on this shard's console: its live board from
        its published state (subscribed when a panel asks for it, until none has asked for
        :data:`FOLLOW_SECONDS`); None for a table no shard has."""
        summary = self.remote_tables.get(table)
        if summary is None:
            return None
        client = self._client
        if table not in self.remote.followed and client is not None and not client.closed:
            for name in (topic_state(table), topic_tablet(table)):
                client.subscribe(name, 1, wait=False)
        self.remote.followed[table] = time.monotonic()
        live = self.remote.live_table(table)
        if live is None:   # its state is on its way: the summary meanwhile
            live = {"table": table, "round": summary.get("round"),
                    "pairs": summary.get("pairs"), "board": None, "remote": True}
        return dict(live, shard=summary.get("shard"))

    def _remote_message(self, topic: Topic, payload: bytes) -> None:
        """Another shard's table state, alert, section results or the field's ranking
        (this shard's own, back from the broker, are let pass before they are decoded)."""
        if self.shard is None or (topic.table is not None and topic.table in self.room.tables) \
                or (topic.alert is not None and topic.alert in self.room.alerts) \
                or (topic.section is not None
                    and any(s.name == topic.section for s in self.room.sections)):
            return
        try:
            body = json.loads(payload) if payload else None
        except (ValueError, UnicodeDecodeError) as err:
            log.warning("%s not read: %.200s", topic.kind, err)
            return
        if body is not None and not isinstance(body, dict):
            return
        console, remote = self.console, self.remote
        if topic.kind in ("state", "tablet") and topic.table is not None:
            if topic.table not in remote.followed:
                return
            (remote.state if topic.kind == "state" else remote.tablet)(topic.table, body)
            changed = getattr(console, "remote_changed", None)
            if changed is not None:
                changed([topic.table])
        elif topic.kind == "alert" and topic.alert is not None:
            if not remote.alert(topic.alert, body):
                return
            changed = getattr(console, "remote_alert_changed", None)
            if changed is not None:
                changed(topic.alert)
        elif topic.kind == "field":
            remote.field = body
        elif topic.section is not None:
            if topic.kind == "ranking":
                remote.ranking(topic.section, body)
            elif topic.kind == "traveller" and topic.board is not None:
                remote.traveller(topic.section, topic.board, body)

    # Every shard's tables on one console ------------------------------------------------
    def unfollow_idle(self, now: float) -> list[str]:
        """The other shards' tables no panel has asked for in :data:`FOLLOW_SECONDS`
        before ``now`` (``time.monotonic()``): unsubscribed, forgotten; their ids."""
        idle = [t for t, asked in self.remote.followed.items() if now - asked > FOLLOW_SECONDS]
        client = self._client
        for table in idle:
            if client is not None and not client.closed:
                for name in (topic_state(table), topic_tablet(table)):
                    client.unsubscribe(name)
            self.remote.forget(table)
        return idle

    def _tables_tick(self) -> None:
        """Once a second: a shard's tables' summaries, published when one changed; the
        other shards' tables no panel follows any longer let go."""
        client = self._client
        if self.shard is None or client is None or client.closed:
            return
        if self.remote.followed:
            self.unfollow_idle(time.monotonic())
        payload = self.tables_summary()
        if payload != self._tables_sent:
            self._tables_sent = payload
            client.send(topic_shard_tables(self.shard.index), payload, 1, True)
            self.stats.published += 1

    def tables_summary(self) -> str:
        """The payload of ``hub/shard/{K}/tables``: every table of this shard as the
        console shows it (hub.console_views), with its shard's number."""
        index = -1 if self.shard is None else self.shard.index
        view = RoomView(self.room, self.hub_time())
        return json.dumps({"v": 1, "shard": index,
                           "tables": [dict(view.table(t), shard=index)
                                      for t in self.room.tables]},
                          separators=(",", ":"), allow_nan=False)

    def _shard_tables(self, topic: Topic, payload: bytes) -> None:
        """Another shard's tables' summaries: kept for the console, which shows them."""
        if self.shard is None or topic.shard is None or topic.shard == self.shard.index:
            return
        try:
            body = json.loads(payload) if payload else {}
            tables = {str(t["id"]): dict(t, shard=topic.shard)
                      for t in body.get("tables", ()) if t.get("id") not in self.room.tables}
        except (ValueError, UnicodeDecodeError, TypeError, KeyError, AttributeError) as err:
            log.warning("shard %d's tables not read: %.200s", topic.shard, err)
            return
        gone = [t for t, s in self.remote_tables.items()
                if s.get("shard") == topic.shard and t not in tables]
        for table_id in gone:
            del self.remote_tables[table_id]
        changed = [t for t, s in tables.items() if self.remote_tables.get(t) != s]
        self.remote_tables.update(tables)
        console = self.console
        if console is not None and changed:
            remote = getattr(console, "remote_changed", None)
            if remote is not None:
                remote(changed)

    # The field's ranking ------------------------------------------------------------------
    def _field_message(self, topic: Topic, payload: bytes) -> None:
        """A section's traveller or ranking as published (by this hub or another shard)."""
        field = self.field
        if field is None or topic.section is None:
            return
        try:
            body = json.loads(payload) if payload else None
        except (ValueError, UnicodeDecodeError) as err:
            log.warning("results on section %s not read for the field: %.200s",
                        topic.section, err)
            return
        if body is not None and not isinstance(body, dict):
            return
        if topic.kind == "traveller" and topic.board is not None:
            field.traveller(topic.section, topic.board, body)
            self._field_later()
        elif topic.kind == "ranking":
            field.ranking(topic.section, body)

    def _field_later(self) -> None:
        """Publish the field's ranking soon: coalesced as the live scores are."""
        loop = self._loop
        if loop is None or not loop.is_running():
            self._field_due()
            return
        if self._field_timer is None:
            self._field_timer = loop.call_later(self.score_interval, self._field_due)

    def _field_due(self, force: bool = False) -> None:
        self._field_timer = None
        field, client = self.field, self._client
        if field is None or client is None or client.closed:
            return
        if not force and not field.changed and self._field_sent:
            return
        try:
            payload = RankingView.from_builtins(field.ranking_json()).to_json()
        except (ProtocolError, ValueError, TypeError):   # the field must never stop the room
            log.exception("the field's ranking not published")
            return
        if payload != self._field_sent or force:
            self._field_sent = payload
            client.send(topic_field_ranking(), payload, 1, True)
            self.stats.published += 1
