"""The director's and the scorer's commands, as the hub takes them: a part of
:class:`hub.service.Hub` (from the console, on the loop: :meth:`DirectorService.director`;
over MQTT, on ``hub/cmd/{account}``, in a batch: ``_command``), and the facts of the console's
device jobs (:meth:`DirectorService.record`). What each command means and checks is
hub.director's; here it is refused, counted, logged, applied to the room and published.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import msgspec

from bridgecore.text import Text
from hub.alerts import Alert
from hub.errors import HubError, error_text
from hub.late_changes import named_at
from hub.log_records import Record
from hub.store import EventLog, StoreError
from hub.texts import refused_answer
from wire.messages import check_payload
from wire.protocol import ROOT, ProtocolError

if TYPE_CHECKING:
    from hub.room import Room
    from hub.shards import Shard

log = logging.getLogger("hub.service")

# hub/status counts a director command refused for what it asks (a round beyond the movement,
# no such pair...) under this code; the console shows it as "director's commands"
COMMAND_REFUSED = "director_command"


class DirectorService:
    """Commands in (module docstring): a part of :class:`hub.service.Hub`, which sets these
    attributes in its ``__init__``; the methods named under ``TYPE_CHECKING`` are the Hub's
    other parts' (hub.device_events, hub.publishing, hub.sharding, hub.service)."""

    room: Room
    log: EventLog
    shard: Shard | None
    clock: Callable[[], float]

    if TYPE_CHECKING:
        def _refused(self, code: str) -> None: ...
        def from_shard(self, account: str, command: Any) -> tuple[bool, str]: ...
        def _other_shards(self, command: Any) -> bool: ...
        def _answer_later(self, account: str, ref: Any, result: dict[str, Any]) -> None: ...
        def _rebuild_from_log(self) -> None: ...
        def _publish_alerts(self, alerts: Iterable[Alert]) -> None: ...
        def _publish_tables(self, tables: Iterable[str], force: bool = False) -> None: ...
        def _publish_scores(self, force: bool = False,
                            only: Iterable[str] | None = None) -> None: ...
        def _status_changed(self) -> None: ...

    def _command(self, account: str | None, payload: bytes, records: list[Record],
                 alerts: list[Alert], changed: set[str]) -> None:
        """A command over MQTT, on ``hub/cmd/{account}``: only the director's and the
        scorer's accounts are taken (the broker's ACL lets an account write only its own
        topic; the hub refuses the others itself too), and in a sharded event the other
        shards' (their consoles', ``by`` the user there: hub.sharding). Refusals are logged;
        the one reply is to another shard's console, on this shard's answer topic, once the
        batch is stored (hub.sharding ``_answer_later``)."""
        from hub.director import COMMAND_ACCOUNTS
        if account is None:
            self._refused("no_account")
            log.warning("director command on %s/hub/cmd refused: commands go to "
                        "%s/hub/cmd/{account}, the account that gives them", ROOT, ROOT)
            return
        shard, _ = self.from_shard(account, None)
        if account not in COMMAND_ACCOUNTS and not shard:
            if self.shard is not None and account == self.shard.account:
                return    # this shard's own, sent to the others (hub.sharding)
            self._refused("not_allowed")
            log.warning("director command from account %r refused: only %s give commands",
                        account, " and ".join(COMMAND_ACCOUNTS))
            return
        try:
            obj = msgspec.json.decode(check_payload(payload))
        except ProtocolError as err:
            self._refused(err.code)
            log.warning("director command from %s refused (%s): %s", account, err.code,
                        err.reason)
            return
        except (msgspec.DecodeError, RecursionError, UnicodeDecodeError) as err:
            self._refused("malformed")
            log.warning("director command from %s is not JSON: %.200s", account, err)
            return
        ref, sender = None, account
        if shard:   # from another shard's console: who gave it there (hub.sharding)
            _, account = self.from_shard(account, obj)
            ref = obj.pop("ref", None) if isinstance(obj, dict) else None
        if self._other_shards(obj):   # another shard's table, section or alert
            return
        result = self._director(obj, records, alerts, changed, account)
        if shard:
            self._answer_later(sender, ref, result)
        if not result.get("ok"):
            self._refused(result.get("code", COMMAND_REFUSED))
            log.warning("director command from %s refused: %s", account, result.get("error"))

    # Director ------------------------------------------------------------------------------
    def director(self, command: Any, account: str = "console") -> dict[str, Any]:
        """A director command from the console (on the loop): logged, applied, published.
        ``account``: who gave it, the console's logged-in user (the fact's ``by``)."""
        records: list[Record] = []
        alerts: list[Alert] = []
        changed: set[str] = set()
        result = self._director(command, records, alerts, changed, account)
        code = result.pop("code", None)
        if code is not None:
            self._refused(code)
        if records:
            try:
                self.log.append_many(records)
            except StoreError as err:
                log.critical("director command not stored: %s", err)
                self._rebuild_from_log()
                return refused_answer(Text.of("refusal.not_stored", error=str(err)))
        self._publish_alerts(alerts)
        self._publish_tables(changed)
        self._publish_scores()
        self._status_changed()
        return result

    def _director(self, command: Any, records: list[Record], alerts: list[Alert],
                  changed: set[str], account: str) -> dict[str, Any]:
        from hub.director import parse_command
        try:
            kind, body = parse_command(command, self.room, account)
        except (ProtocolError, HubError) as err:
            return {"ok": False, "error": getattr(err, "reason", str(err)),
                    "error_text": error_text(err).to_json(),
                    # a command refused for what it asks: counted as such in hub/status
                    "code": getattr(err, "code", COMMAND_REFUSED)}
        now = self.clock()
        try:
            raised = self.room.fact(kind, body, now)
        except HubError as err:  # parse_command checked; this is a bug, not a crash
            log.exception("director command %s %r failed", kind, body)
            return {"ok": False, "error": str(err), "error_text": error_text(err).to_json()}
        records.append(Record.fact(kind, body, hub_time=now, source="director"))
        alerts.extend(raised)
        if kind in ("round_start", "table_mode", "round_pause", "round_time", "swiss_round"):
            changed.update(self.room.tables)        # the tables' round clocks too
        changed.update(a.table for a in raised)
        changed.update(named_at(self.room.sections, kind, body))   # a player's new name
        if kind == "board_allowed":
            changed.add(body["table"])
        done = {"ok": True, "fact": kind, "alerts": [a.id for a in raised]}
        if kind == "ruling":
            done["ruling"] = body["id"]
        return done

    def record(self, kind: str, body: dict[str, Any], account: str) -> list[Alert]:
        """A fact of the console's device jobs (hub.pairing: ``pairing_code``,
        ``device_paired``, ``device_revoked``, ``pairing_failures``) with ``by`` =
        ``account``: applied to the room, logged, its alerts published (on the loop)."""
        now = self.clock()
        body = {**body, "by": account}
        raised = self.room.fact(kind, body, now)
        self._record_fact(kind, body, now, source="director")
        self._publish_alerts(raised)
        self._status_changed()
        return raised

    def _record_fact(self, kind: str, body: dict[str, Any], now: float,
                     source: str = "hub") -> None:
        try:
            self.log.append(Record.fact(kind, body, hub_time=now, source=source))
        except StoreError as err:
            log.critical("fact %s not stored: %s", kind, err)
