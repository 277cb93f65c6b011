"""The session: sections, tables, the movement, the boards, the round clock, the alerts.

:class:`Room` owns every :class:`hub.table.TableState` and what they share: the movement of
each :class:`Section` (who sits where, which boards), the hand records (board -> Deal), the
boards each pair has already played (Law 15B), the round clock and the
:class:`hub.alerts.AlertBook`. ``apply(table, envelope, hub_time)`` checks what the protocol
asks of every event (duplicate id, device bound to another table, sequence, clock skew),
then the device's role (hub.roles: which events it sends, for which seats), and hands it to
the table in the order of the table's record (hub.ordering: an event ahead of it is held,
acknowledged ``held``, until what precedes it is applied; two cards at one place are one
``record_conflict`` alert, ``conflict``; events held too long are the director's,
``events_held``, from :meth:`Room.tick`). A device acting beyond its role is refused and
alerted (``device_overreach``).

Deterministic: nothing here reads the wall clock; times come in as arguments. The state is
a function of the log: :meth:`Room.rebuild` replays stored records (device events and the
facts below) into a fresh room, and :meth:`Room.snapshot` gives the JSON to compare.

Facts the service must log to be replayed (``type``: body), each produced by a method:

* ``round_start``: ``{"round": n}`` -- :meth:`Room.start_round` (the director's; without
  it the first table to start a board of a later round starts that round's clock, from the
  device event itself: :meth:`Room._round_reached`)
* ``tick``: ``{}`` -- :meth:`Room.tick` (log it when it returned alerts)
* ``device_offline`` / ``device_online``: ``{"device": d, "table"?: t}``; ``"leaving":
  true`` on a device's own farewell (protocol 14: offline, no alert)
* ``table_mode``: ``{"table": t, "strict": bool}`` -- :meth:`Room.set_strict`
* ``board_allowed``: ``{"table", "round", "board", "by"}``: a board the movement does not
  give that table shown there after all (hub.withheld)
* ``alert_acknowledge``: ``{"id"}``, ``alert_rule``: ``{"id", "text", "score"?}``,
  ``alert_resolve``: ``{"id", "text"?}`` -- the director's steps on :attr:`Room.alerts`
* ``ruling`` / ``ruling_undo``: the director's scoring rulings (Laws 12, 87, 90), kept and
  applied by :attr:`Room.scoring` (hub.scoring), which is told of every accepted event
* ``public_results``: ``{"ranking", "names", "boards", "hide_last_rounds"?}``: what the public
  results pages show (hub.results_pages), kept in :attr:`Room.public_results`
* ``pair_add``, ``pair_names``, ``pair_withdraw``, ``round_pause``, ``round_time``: the
  director's late changes (hub.late_changes), kept in :attr:`Room.late`
* ``device_overreach``: ``{"table", "device", "role", "type", "seat", "code", "reason",
  "law", "time"}`` -- a refused event's alert, in the :class:`Outcome` of :meth:`Room.apply`
  (``fact``) that refused it: the event is not logged, the fact is
* ``pairing_code``, ``device_paired``, ``device_revoked``: ``{"account", "by", ...}`` -- a
  code drawn, redeemed, an account revoked (hub.pairing, the console's Devices page):
  recorded, they change nothing here
* ``pairing_failures``: ``{"address", "count", "by"}`` -- repeated wrong pairing codes from
  one address: a ``pairing_failures`` alert on table ``hub`` (:data:`PAIRING_TABLE`)
* ``log_damage``: ``{"problem": "set_aside" | "behind", "detail", ...}`` -- the hub found its
  log damaged when it started (a record it could not apply, set aside; records missing at
  the end): one alert to the director (table ``hub``), raised again by every replay
* ``device_will``: ``{"device", "table"}`` -- a device's last will, held for the grace
  (hub.presence) from this time, across the hub's restarts, until ``device_online`` or
  ``device_offline``
* ``history_missing``: ``{"device", "table", "last", "acked"}`` -- a device's ``hello`` said
  the hub had acknowledged events its log lacks (hub.clock.history_alert)
* ``swiss_round``: ``{"section", "round", "pairings", "order", "by"}`` -- a Swiss section's
  next round drawn (hub.swiss): the section's movement has it from then on

A logged device event is replayed without judging its clock again: it was judged when it
was accepted, and the tolerance may have changed since (``tenace hub --clock-tolerance``).

What a table reads of the room (its movement, the hand records, the boards played, the
round clock) is :mod:`hub.room_context`'s part of the room; applying an event in the order
of the table's record, :mod:`hub.room_order`'s.

Device clocks (hub.clock): the clock check judges each event's time corrected by the offset
it declares (:func:`hub.clock.judge`), and the table gets the event with its times read on
the hub's clock (:meth:`wire.protocol.Envelope.corrected`); :attr:`Room.clocks` keeps each
device's offset as its accepted events declare it (rebuilt by the replay), and a jump
raises ``clock_jump`` (replayed with the events, no fact of its own).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bridgecore.cards import Seat
from bridgecore.deal import Deal
from bridgecore.editions import DEFAULT_EDITION, Edition
from bridgecore.markings import Markings
from bridgecore.text import Text
from hub.alerts import Alert, AlertBook, HubKind
from hub.clock import ClockBook, clock_jump_alert, history_alert, judge
from hub.dealing import DEALER_EVENTS, DealingRoom
from hub.errors import ConfigError
from hub.late_changes import FACTS as LATE_FACTS
from hub.late_changes import LateChanges, named_at
from hub.ordering import HOLD_SECONDS, TableOrder
from hub.roles import LAWS, NOT_YOUR_ROLE, NOT_YOUR_SEAT, DeviceRole, acted_for, check, role_of
from hub.room_context import RoomContext, RoundClock, TableRef
from hub.room_order import HELD, RecordOrder, board_of, phase_of, trick_of
from hub.scoring import LiveScoring
from hub.section import Section
from hub.seen import EventIds
from hub.swiss import FACTS as SWISS_FACTS
from hub.swiss import SwissRounds
from hub.table import Outcome, TableState, card_mask
from hub.texts import reply, stored_text
from hub.traveller import DoubleDummyTables
from wire.protocol import Envelope, ProtocolError, Reply

__all__ = ["FACTS", "DeviceInfo", "Replayable", "Room", "Section"]

log = logging.getLogger(__name__)

PAIRING_TABLE = "hub"   # the ``table`` of an alert about the hub itself (pairing_failures)

FACTS = ("round_start", "tick", "device_offline", "device_online", "device_will", "table_mode",
         "board_allowed",
         "alert_acknowledge", "alert_rule", "alert_resolve", "ruling", "ruling_undo",
         "result_corrected", "substitute",
         "public_results", "device_overreach", "pairing_code", "device_paired",
         "device_revoked", "pairing_failures", "log_damage", "history_missing", *LATE_FACTS,
         *SWISS_FACTS)


class Replayable(Protocol):
    """A stored record as :class:`hub.log_records.Record` has it."""

    @property
    def source(self) -> str: ...
    @property
    def type(self) -> str: ...
    @property
    def payload(self) -> str: ...
    @property
    def hub_time(self) -> float: ...
    @property
    def table_id(self) -> str | None: ...
    def data(self) -> Any: ...


@dataclass(slots=True)
class DeviceInfo:
    """What the room knows of a device: its table, last accepted seq, presence."""

    table: str
    last_seq: int = -1
    last_seen: float | None = None
    online: bool = True
    outages: int = 0
    will: float | None = None     # hub time of its last will, held for the grace (presence)


class Room(RoomContext, RecordOrder):
    """One session of a club: ``Room(sections, deals, minutes_per_round=...)``; ``markings``
    the boards the hand record marks with another dealer or vulnerability than Law 2's."""

    def __init__(self, sections: Section | Iterable[Section], deals: Mapping[int, Deal], *,
                 minutes_per_round: float = 15.0, edition: Edition = DEFAULT_EDITION,
                 strict: bool | Iterable[str] = False, clock_tolerance: float | None = 120.0,
                 markings: Mapping[int, Markings] | None = None, alerting: str = "ebu",
                 conventions: str = "", language: str = "en"):
        self.sections = [sections] if isinstance(sections, Section) else list(sections)
        self.edition = edition
        self.alerting = alerting    # who explains alerted calls (hub.explain)
        self.conventions = conventions  # the federation's scoring (bridgecore.conventions)
        self.language = language        # the event's: its results files' words (hub.texts)
        self.alerts = AlertBook()
        self.public_results: dict[str, bool | int | str] = {}   # the director's last public_results
        self.clock = RoundClock(minutes_per_round)
        self.clock_tolerance = clock_tolerance
        self.clocks = ClockBook()   # each device's clock offset (hub.clock)
        self._deals = dict(deals)
        self._markings = dict(markings or {})
        self.dealing = DealingRoom(self)   # the dealing machines' boards, checked (6D1, 87)
        self._refs: dict[str, TableRef] = {}
        self.tables: dict[str, TableState] = {}
        strict_ids = set(strict) if not isinstance(strict, bool) else set()
        for section in self.sections:
            for tid, number in section.tables.items():
                if tid in self._refs:
                    raise ConfigError(Text.of("refusal.table_two_sections", table=tid))
                ref = TableRef(section, number)
                ref.state = TableState(tid, self, round=1,
                                       strict=strict is True or tid in strict_ids)
                self._refs[tid] = ref
                self.tables[tid] = ref.state
        unknown = strict_ids - set(self.tables)
        if unknown:
            raise ConfigError(Text.of("refusal.strict_unknown",
                                      tables=", ".join(sorted(unknown))))
        # Hand index: the mask of every hand of every board.
        self._masks: dict[tuple[int, Seat], int] = {}
        self._hands: dict[int, list[tuple[int, Seat]]] = {}
        for number, deal in sorted(self._deals.items()):
            for seat in Seat:
                m = card_mask(deal[seat])
                self._masks[number, seat] = m
                self._hands.setdefault(m, []).append((number, seat))
        self._played: dict[tuple[str, int], dict[int, tuple[str, int]]] = {}
        self.devices: dict[str, DeviceInfo] = {}
        self._seen = EventIds()   # every accepted event's id (hub.seen: compact)
        # table -> (round, its schedule): the round the table is at, one a table (issue 27:
        # one per table and round grew with the session)
        self._schedule: dict[str, tuple[int, dict[str, Any]]] = {}
        self.swiss = SwissRounds(self)     # the Swiss sections' rounds as drawn (hub.swiss)
        # Double-dummy tables for the result screens, solved once per board (hub.traveller);
        # a session without a movement (the replay of files) solves none.
        self.double_dummy = DoubleDummyTables(
            enabled=any(s.movement is not None for s in self.sections))
        self.scoring = LiveScoring(self)   # rankings and travellers, rulings (hub.scoring)
        self.scoring.ranked_by = self.swiss.ranking   # a Swiss section's: its standings
        self.late = LateChanges(self)      # late pairs, withdrawals, the pause (hub.late_changes)
        # Each table's events in the order of its record (hub.ordering): held, released.
        self.order = {tid: TableOrder() for tid in self.tables}
        self.asked: set[str] = set()   # tables the clock asked about a card (tick)
        self.hold_seconds = HOLD_SECONDS

    # Events -----------------------------------------------------------------------------
    def apply(self, table_id: str, envelope: Envelope, hub_time: float) -> Outcome:
        """Apply one validated event published under ``table_id``. A duplicate id is
        acknowledged again (``duplicate``) and not applied; a refusal changes nothing."""
        env = envelope
        table = self.tables.get(table_id)
        if table is None:
            return _reject(env, hub_time, "wrong_table", Text.of("deny.no_table",
                                                                 table=table_id))
        if env.id in self._seen:
            return Outcome(Reply(env.id, env.seq, "ack", "duplicate", "already applied",
                                 hub_time))
        role = role_of(env.device, table_id)
        if role is None:
            home = self._home_table(env.device)
            if home is not None:
                return self._refuse(table, env, None, "wrong_table", Text.of(
                    "deny.other_table", device=env.device, home=home, table=table_id),
                    hub_time)
            return self._refuse(table, env, None, NOT_YOUR_ROLE, Text.of(
                "deny.no_role", device=env.device, table=table_id), hub_time)
        device = self.devices.get(env.device)
        if device is not None:
            if device.table != table_id:
                return _reject(env, hub_time, "wrong_table", Text.of(
                    "deny.other_table", device=env.device, home=device.table, table=table_id))
            if env.seq <= device.last_seq:
                return _reject(env, hub_time, "out_of_order", f"seq {env.seq} after "
                               f"{device.last_seq}")
        skew = judge(env, hub_time, self.clock_tolerance)
        if skew is not None:
            return _reject(env, hub_time, "clock_skew", skew)
        offset = env.offset
        env = env.corrected()   # the table reads every device's times on the hub's clock
        refusal = check(role, env.type, env.body, table.declarer())
        if refusal is not None:
            return self._refuse(table, env, role, refusal.code, refusal.reason, hub_time,
                                refusal.law)
        order = self.order[table_id]
        order.arrived(env, hub_time)
        # (An event that names no place, of a device with nothing held, never waits: the
        # table's place is not worked out for it.)
        if (env.at or order.holds(env.device)) and order.must_wait(
                env, board_of(table), phase_of(table), trick_of(table)):
            # Ahead of the record (hub.ordering): acknowledged and logged, applied once
            # what precedes it has been.
            order.hold(env, hub_time)
            self._accepted(table_id, env, hub_time)
            # A card reader's event held says its reads of earlier boards have all come: a
            # tablet's next board may be free now (hub.ordering).
            alerts, changed = self._release(table, hub_time)
            return Outcome(Reply(env.id, env.seq, "ack", HELD, "held until what precedes it "
                                 "in the table's record arrives", hub_time), alerts, changed)
        out = self._place(table, env, hub_time)
        if out.reply.code == NOT_YOUR_SEAT:   # a seat the Laws do not let answer (hub.table)
            return self._refuse(table, env, role, NOT_YOUR_SEAT,
                                out.reply.text or Text.plain(out.reply.reason), hub_time,
                                LAWS.get(env.type, ""))
        if out.reply.status == "ack":
            self._accepted(table_id, env, hub_time)
            self._clock_noted(table, env.device, offset, hub_time, out.alerts)
            alerts, changed = self._release(table, hub_time)
            if alerts or changed:
                out = Outcome(out.reply, out.alerts + alerts, True, out.fact)
        return out

    def _accepted(self, table_id: str, env: Envelope, hub_time: float) -> None:
        self._seen.add(env.id)
        device = self.devices.get(env.device)
        if device is None:
            device = self.devices[env.device] = DeviceInfo(table_id)
        device.last_seq = env.seq
        device.last_seen = hub_time
        self.scoring.note(table_id)

    def _clock_noted(self, table: TableState, device: str, offset: float | None,
                     hub_time: float, alerts: list[Alert]) -> None:
        """An accepted event's declared clock offset (hub.clock): a jump is alerted."""
        jump = self.clocks.observe(device, offset, hub_time)
        if jump is None:
            return
        known = self.clocks.get(device)
        s = table.sitting
        alert = clock_jump_alert(self.alerts, table.id, table.round if s is None else s.round,
                                 None if s is None else s.board.number, device, jump,
                                 self.clocks.offset(device),
                                 0 if known is None else known.jumps, hub_time)
        if alert is not None:
            alerts.append(alert)

    def _home_table(self, device: str) -> str | None:
        """The table of this session whose device ``device`` is, if any."""
        return next((tid for tid in self.tables if role_of(device, tid) is not None), None)

    def _refuse(self, table: TableState, env: Envelope, role: DeviceRole | None, code: str,
                reason: Text, hub_time: float, law: str = "") -> Outcome:
        """Refuse an event of a device acting beyond its role: it changes nothing, and the
        director is alerted (one alert per device per board) through the fact
        ``device_overreach``, which the service logs so that a replay raises it again (no
        fact once the alert has counted its last attempt, hub.table.OVERREACH_VERSIONS)."""
        seat = acted_for(env.type, env.body)
        body: dict[str, Any] = {
            "table": table.id, "device": env.device,
            "role": "none" if role is None else role.name, "type": env.type,
            "seat": None if seat is None else seat.letter, "code": code,
            "text": reason.to_json(), "law": law, "time": env.time}
        alerts = self.fact("device_overreach", body, hub_time)
        return Outcome(reply(env, hub_time, "reject", code, reason), alerts,
                       fact=("device_overreach", body) if alerts else None)

    def _overreach(self, body: Mapping[str, Any], hub_time: float) -> list[Alert]:
        seat = body.get("seat")
        table = self.tables.get(str(body["table"]))
        if table is None:
            raise ConfigError(Text.of("refusal.no_table", table=str(body["table"])[:40]))
        alert = table.overreach(
            str(body["device"]), str(body["role"]), str(body["type"]),
            None if seat is None else Seat.parse(str(seat)), str(body["code"]),
            stored_text(body, "reason"), str(body.get("law", "")), hub_time, body.get("time"))
        return [] if alert is None else [alert]

    # The clock and the devices -------------------------------------------------------------
    def _round_reached(self, round: int, started: float) -> None:
        """The first table to start a board of ``round`` starts the round clock (the clock
        follows the tables: the director need not start each round), at the time the event
        says on the hub's clock, never later than the hub received it (an event that waited
        in an outbox started the round when it was played). Nothing is checked of the
        tables still in an earlier round: they are late only at the round's end (tick), or
        when the director starts a round himself (:meth:`start_round`)."""
        log.info("round %d started by its first table (the clock was at round %d)", round,
                 self.clock.round)
        paused_at = self.late.paused_at
        if paused_at is not None:   # the clock stands: the round's time counts from the resume
            started = paused_at
        self.clock.round, self.clock.started = round, started

    def start_round(self, round: int, hub_time: float) -> list[Alert]:
        """The director starts ``round``: every table moves to it. Tables that had not
        finished the previous round, or left a result unconfirmed, are reported."""
        if round < 1:
            raise ConfigError(Text.of("refusal.round_from_one", round=round))
        out: list[Alert] = []
        if 1 <= self.clock.round < round:  # the previous round ends now
            for table in self.tables.values():
                out += table.check_round_end(self.clock.round, hub_time, hub_time)
        self.clock.round, self.clock.started = round, hub_time
        for table in self.tables.values():
            table.round = max(table.round, round)  # a table may have moved on already
        return out

    def tick(self, hub_time: float, overdue: bool = True) -> list[Alert]:
        """The hub's clock: after the end of the round, late tables and unconfirmed results;
        a card nobody read, asked of the table (hub.reads ``waiting_tick``; the tables asked
        in :attr:`asked`, for the service to log the tick and publish them); with
        ``overdue``, the events held too long (hub.ordering; not in the hub's first
        :attr:`hold_seconds`, while the devices send again what its outage kept)."""
        out = self._overdue(hub_time) if overdue else []
        for table in self.tables.values():
            if table.waiting_tick(hub_time):
                self.asked.add(table.id)
        deadline = self.clock.deadline
        if deadline is None or hub_time < deadline or self.late.paused:
            return out
        for table in self.tables.values():
            out += table.check_round_end(self.clock.round, deadline, hub_time)
        return out

    def device_offline(self, device: str, hub_time: float, table: str | None = None,
                       leaving: bool = False) -> list[Alert]:
        """A device went offline (its last will): raised once per outage; one ``leaving``
        (its own farewell, protocol 14) is offline with no alert."""
        info = self.devices.get(device)
        if info is None:
            if table is None or table not in self.tables:
                log.info("device %s offline, table unknown", device)
                return []
            info = self.devices[device] = DeviceInfo(table)
        info.will = None
        if not info.online:
            return []
        info.online = False
        if leaving:
            return []
        info.outages += 1
        alert = self.tables[info.table].device_offline(device, info.outages, info.last_seen,
                                                       hub_time)
        return [] if alert is None else [alert]

    def device_online(self, device: str, hub_time: float, table: str | None = None) -> None:
        info = self.devices.get(device)
        if info is None:
            if table is not None and table in self.tables:
                self.devices[device] = DeviceInfo(table, last_seen=hub_time)
            return
        info.online = True
        info.will = None

    def device_will(self, device: str, hub_time: float, table: str | None = None) -> None:
        """A device's last will came (hub.presence): held for the grace, from this time,
        across the hub's restarts; the first will of an outage counts."""
        info = self.devices.get(device)
        if info is None:
            if table is None or table not in self.tables:
                return
            info = self.devices[device] = DeviceInfo(table)
        if info.will is None:
            info.will = hub_time

    def log_damage(self, body: Mapping[str, Any], hub_time: float) -> list[Alert]:
        """The hub's log was found damaged at start (module docstring): one alert per
        finding, for the director (no table: ``hub``)."""
        problem = str(body["problem"])
        where = body.get("position", body.get("noted", ""))
        alert = self.alerts.raise_alert(
            f"log:{problem}:{where}", kind=HubKind.LOG_DAMAGE.value, law="", table="hub",
            round=None, board=None, detected=hub_time, detail=stored_text(body, "detail"),
            facts=dict(body))
        return [] if alert is None else [alert]

    def set_strict(self, table: str, strict: bool) -> None:
        """Switch a table between bidding-box mode and strict mode."""
        if table not in self.tables:
            raise ConfigError(Text.of("refusal.no_table", table=str(table)[:40]))
        self.tables[table].strict = bool(strict)

    # Replay -----------------------------------------------------------------------------
    def fact(self, type: str, body: Mapping[str, Any], hub_time: float) -> list[Alert]:
        """Apply one logged hub or director fact (see the module docstring)."""
        for named in named_at(self.sections, type, body):   # a seat's name changes
            self._schedule.pop(named, None)
        if type == "round_start":
            return self.start_round(int(body["round"]), hub_time)
        if type == "tick":
            return self.tick(hub_time, overdue=body.get("overdue") is not False)
        if type == "device_offline":
            return self.device_offline(str(body["device"]), hub_time, body.get("table"),
                                       leaving=body.get("leaving") is True)
        if type == "device_online":
            self.device_online(str(body["device"]), hub_time, body.get("table"))
            return []
        if type == "device_will":
            self.device_will(str(body["device"]), hub_time, body.get("table"))
            return []
        if type == "table_mode":
            if "strict" in body:
                self.set_strict(str(body["table"]), bool(body["strict"]))
            if "tapping_only" in body:   # reader cards logged, not played (hub.reads)
                self.tables[str(body["table"])].tapping_only = bool(body["tapping_only"])
            return []
        if type == "board_allowed":   # the director lets a table see a board (hub.withheld)
            table = self.tables.get(str(body["table"]))
            if table is None:
                raise ConfigError(Text.of("refusal.no_table", table=str(body["table"])[:40]))
            table.allow_board(int(body["round"]), int(body["board"]))
            return []
        if type == "alert_acknowledge":
            return [self.alerts.acknowledge(str(body["id"]), hub_time)]
        if type == "alert_rule":
            return [self.alerts.rule(str(body["id"]), hub_time, str(body["text"]),
                                     body.get("score"), body.get("by"), body.get("option"))]
        if type == "alert_resolve":
            return [self.alerts.resolve(str(body["id"]), hub_time, str(body.get("text", "")))]
        if type == "device_overreach":
            return self._overreach(body, hub_time)
        if type == "log_damage":
            return self.log_damage(body, hub_time)
        if type in ("ruling", "ruling_undo", "result_corrected", "substitute"):
            self.scoring.fact(type, body, hub_time)
            return []
        if type == "history_missing":
            table = self.tables.get(str(body["table"]))
            if table is None:
                raise ConfigError(Text.of("refusal.no_table", table=str(body["table"])[:40]))
            s = table.sitting
            alert = history_alert(self.alerts, table.id,
                                  table.round if s is None else s.round,
                                  None if s is None else s.board.number, body, hub_time)
            return [] if alert is None else [alert]
        if type == "public_results":
            self.public_results = {k: bool(body[k]) for k in ("ranking", "names", "boards")}
            if "hide_last_rounds" in body:
                self.public_results["hide_last_rounds"] = int(body["hide_last_rounds"])
            if "live_ranking" in body:   # "finished" (Law 16) or "all" (hub.public_ranking)
                self.public_results["live_ranking"] = str(body["live_ranking"])
            return []
        if type in LATE_FACTS:
            self.late.fact(type, body, hub_time)
            return []
        if type in SWISS_FACTS:
            self.swiss.fact(body)
            return []
        if type in ("pairing_code", "device_paired", "device_revoked"):   # recorded only
            return []
        if type == "pairing_failures":
            alert = self.alerts.raise_alert(
                f"pairing-{body['address']}", kind="pairing_failures", law="",
                table=PAIRING_TABLE, round=self.clock.round or None, board=None,
                detected=hub_time, detail=Text.of("alert.pairing_failures", n=body["count"],
                                                  address=body["address"]), facts=dict(body))
            return [] if alert is None else [alert]
        raise ConfigError(Text.of("refusal.unknown_fact", fact=f"{type!r:.40}"))

    def replay(self, record: Replayable) -> None:
        """Apply one stored record: a device event, or a fact of :data:`FACTS`."""
        if record.source == "device":
            tolerance, self.clock_tolerance = self.clock_tolerance, None
            try:   # judged when it was accepted (module docstring)
                self._replay_event(record)
            finally:
                self.clock_tolerance = tolerance
        elif record.type in FACTS:
            self.fact(record.type, record.data(), record.hub_time)
        else:
            log.debug("record %s of type %s is not a room fact", record.source, record.type)

    def _replay_event(self, record: Replayable) -> None:
        if record.table_id is None:
            if record.type in DEALER_EVENTS:   # a dealing machine's: no table
                self.dealing.replay(record.payload, record.hub_time)
            return
        try:
            env = Envelope.from_json(record.payload)
        except ProtocolError as err:
            log.warning("stored event not replayed: %s", err)
            return
        self.apply(record.table_id, env, record.hub_time)

    def rebuild(self, records: Iterable[Replayable]) -> Room:
        """Replay ``records`` in order into this (fresh) room; returns the room."""
        if self._seen or len(self.alerts):
            raise ConfigError(Text.of("refusal.rebuild_fresh"))
        for record in records:
            self.replay(record)
        return self

    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON: two rooms that saw the same log give equal snapshots."""
        return {
            "round": self.clock.round, "round_started": self.clock.started,
            "tables": {tid: t.snapshot() for tid, t in self.tables.items()},
            "alerts": self.alerts.to_json(),
            "played": {f"{s}:{p}": {str(b): list(v) for b, v in boards.items()}
                       for (s, p), boards in self._played.items()},
            "devices": {d: [i.table, i.last_seq, i.last_seen, i.online, i.outages]
                        for d, i in self.devices.items()},
            "events": len(self._seen),
            "dealing": self.dealing.snapshot(),
            "scoring": self.scoring.snapshot(),
            "late": self.late.snapshot(),
            "swiss": self.swiss.snapshot(),
            "order": {tid: o.snapshot() for tid, o in self.order.items()},
        }


def _reject(env: Envelope, t: float, code: str, reason: Text | str) -> Outcome:
    return Outcome(reply(env, t, "reject", code, reason))
