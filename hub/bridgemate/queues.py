"""What a scoring program reads through the Data Connector (hub.bridgemate): its queues.

* results: each board's result as the hub records it (``TableState.result``, what it
  publishes on ``result/{table}/{round}/{board}``): pairs (as checked in, else the
  movement's), declarer, contract, tricks as played, the opening lead; a passed-out board is
  level 0. A result that changes is queued again. The score is left to the scoring program
  (a ResultDTO has no score);
* player data and participations: the players the tablets checked in (``checkin``
  ``players`` [{number, name}]: the first sits North or East, the second South or West; the
  name is split at its first space into first and last name);
* TD calls: the hub's director alerts of kind ``director_call`` (status: open = Launched,
  acknowledged = InProgress, ruled or resolved = Resolved; hour and minute of detection,
  local time).

A poll for new items first delivers what changed since the last delivery, each item with an
id never used again, then answers every item not yet accepted (``LastQueueItemId``: the
last id delivered); an accept up to an id means those are not sent again; a poll for all
answers the latest item of every key. Deliveries and acceptances are facts of the event log
(``bridgemate_delivered``, ``bridgemate_accepted``), written before the answer: after a
restart nothing accepted is sent again and nothing delivered is forgotten. A new event
starts empty queues.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from bridgecore.cards import Seat, Side
from hub.alerts import AlertStatus, HubKind
from hub.bridgemate.model import BridgemateError, ErrorType
from hub.bridgemate.setup import BridgemateSetup
from hub.log_records import Record
from hub.room import Room
from hub.setup_facts import SETUP_FACT, SETUP_REPLACED
from hub.store import EventLog, StoreError

__all__ = ["ACCEPTED", "DELIVERED", "BridgemateHub", "ResultQueues"]

log = logging.getLogger(__name__)

DELIVERED = "bridgemate_delivered"
ACCEPTED = "bridgemate_accepted"
_TD_STATUS = {AlertStatus.OPEN: 1, AlertStatus.ACKNOWLEDGED: 2, AlertStatus.RULED: 3,
              AlertStatus.RESOLVED: 3}


class BridgemateHub(Protocol):
    """What the Data Connector needs of the hub (hub.service.Hub)."""

    room: Room
    setup: Any
    log: EventLog
    listeners: list[Callable[[str, Any], None]]

    def replace_setup(self, setup: Any, *, keep_play: bool) -> None: ...
    def hub_time(self) -> float: ...


class _Queue:
    """One session's queue of one kind: the latest item delivered per key, the last id
    delivered, the last id accepted."""

    def __init__(self) -> None:
        self.delivered: dict[tuple[Any, ...], tuple[int, dict[str, Any]]] = {}
        self.last = 0
        self.accepted = 0


def _split(name: str) -> tuple[str, str]:
    first, _, last = name.strip().partition(" ")
    return (first, last.strip()) if last.strip() else ("", first)


class ResultQueues:
    """What the scoring program reads of ``hub`` (module docstring): ``start()`` (the queues
    as the log has them; the hub's listener), ``poll``, ``accept``, ``rescan`` (the set-up
    changed), ``forget`` (a new event), ``stop()``."""

    def __init__(self, hub: BridgemateHub):
        self.hub = hub
        self._queues: dict[tuple[str, str], _Queue] = {}
        self._next_id = 1
        self._places: dict[str, tuple[str, str, int]] = {}
        self._results: dict[tuple[str, int, int], dict[str, Any]] = {}

    def start(self) -> None:
        """The queues as the log has them; then each result the hub publishes."""
        self._load()
        self.rescan()
        self.hub.listeners.append(self._changed)

    def stop(self) -> None:
        """No more results from the hub (idempotent)."""
        with contextlib.suppress(ValueError):
            self.hub.listeners.remove(self._changed)

    def forget(self) -> None:
        """A new event: its queues start empty."""
        self._queues.clear()

    def _load(self) -> None:
        """The queues as the log has them: what the current event delivered and accepted."""
        for record in self.hub.log.replay():
            if record.type == SETUP_FACT or (record.type == SETUP_REPLACED
                                             and not record.data()["keep_play"]):
                self._queues.clear()
            elif record.type == DELIVERED:
                body = record.data()
                queue = self._queue(body["session"], body["kind"])
                for item_id, key, dto in body["items"]:
                    queue.delivered[tuple(key)] = (item_id, dto)
                    queue.last = max(queue.last, item_id)
                    self._next_id = max(self._next_id, item_id + 1)
            elif record.type == ACCEPTED:
                body = record.data()
                queue = self._queue(body["session"], body["kind"])
                queue.accepted = max(queue.accepted, body["upto"])

    def _queue(self, session: str, kind: str) -> _Queue:
        queue = self._queues.get((session, kind))
        if queue is None:
            queue = self._queues[session, kind] = _Queue()
        return queue

    def rescan(self) -> None:
        """Every result of the room again (on start, and after the set-up changed)."""
        setup = self.hub.setup
        self._places = setup.places() if isinstance(setup, BridgemateSetup) else {}
        self._results = {}
        for tid, table in self.hub.room.tables.items():
            for number, board in table.sittings:
                self._result_changed((tid, number, board))

    def _changed(self, what: str, data: Any) -> None:
        """The hub's listener: a board's result was published (on the loop)."""
        if what == "result":
            self._result_changed((data["table"], data["round"], data["board"]))

    def _result_changed(self, key: tuple[str, int, int]) -> None:
        dto = self._result_dto(key)
        if dto is None:
            self._results.pop(key, None)
        else:
            self._results[key] = dto

    # What the room holds, as DTOs ------------------------------------------------------------
    def _result_dto(self, key: tuple[str, int, int]) -> dict[str, Any] | None:
        tid, number, board = key
        place = self._places.get(tid)
        table = self.hub.room.tables.get(tid)
        sitting = None if table is None else table.sittings.get((number, board))
        if place is None or table is None or sitting is None:
            return None
        result = table.result(sitting)
        if result is None:
            return None
        ns, ew = (p or 0 for p in table.pairs(number))
        dto = {"SessionGuid": place[0], "SectionLetters": place[1], "TableNumber": place[2],
               "RoundNumber": number, "BoardNumber": board, "ScoringDirection": 3,
               "IsDeleted": False, "PairNorthSouth": ns, "PairEastWest": ew,
               "DeclaringPair": ns, "DeclarerDirection": 0, "Level": 0, "Denomination": 0,
               "Stake": 0, "TotalTricks": 0, "LeadCardRank": 0, "LeadCardSuit": 0,
               "ValidationMessages": None}
        play = sitting.board.play
        if play is not None:
            contract, declarer = play.contract, play.declarer
            dto.update(DeclaringPair=ns if declarer in (Seat.NORTH, Seat.SOUTH) else ew,
                       DeclarerDirection=int(declarer) + 1, Level=contract.level,
                       Denomination=int(contract.strain) + 1, Stake=int(contract.risk),
                       TotalTricks=result["tricks"])
            tricks = play.tricks
            lead = tricks[0].card_of(tricks[0].leader) if tricks else None
            if lead is not None:
                dto.update(LeadCardRank=int(lead.rank), LeadCardSuit=int(lead.suit) + 1)
        return dto

    def _seats(self, session: str) -> dict[tuple[Any, ...], dict[str, Any]]:
        """The participations the tablets checked in: (table, round, direction) -> DTO."""
        out: dict[tuple[Any, ...], dict[str, Any]] = {}
        for tid, table in self.hub.room.tables.items():
            place = self._places.get(tid)
            if place is None or place[0] != session:
                continue
            for side, (_, players, _, number) in table.seated.items():
                for i, player in enumerate(players[:2]):
                    if not isinstance(player, Mapping):
                        continue
                    direction = (1 if side is Side.NS else 2) + 2 * i
                    first, last = _split(str(player.get("name") or ""))
                    player_number = player.get("number")
                    out[tid, number, direction] = {
                        "SessionGuid": session, "SectionLetters": place[1],
                        "TableNumber": place[2], "Direction": direction, "RoundNumber": number,
                        "PlayerNumber": None if player_number is None else str(player_number),
                        "IsPlayerSwap": False, "IsRemoval": False, "FirstName": first or None,
                        "LastName": last or None, "CountryCode": None,
                        "ValidationMessages": None}
        return out

    def _current(self, session: str, kind: str) -> dict[tuple[Any, ...], dict[str, Any]]:
        """Every item of ``kind`` the room holds now for ``session``, by key."""
        if kind == "results":
            return {k: v for k, v in self._results.items() if v["SessionGuid"] == session}
        if kind == "td_calls":
            out: dict[tuple[Any, ...], dict[str, Any]] = {}
            for alert in self.hub.room.alerts:
                place = self._places.get(alert.table)
                if alert.kind != HubKind.DIRECTOR_CALL.value or place is None \
                        or place[0] != session:
                    continue
                when = time.localtime(alert.detected)
                number = alert.round or self.hub.room.tables[alert.table].round
                out[alert.id,] = {"SessionGuid": session, "SectionLetters": place[1],
                                  "TableNumber": place[2], "RoundNumber": number,
                                  "Hour": when.tm_hour, "Minute": when.tm_min,
                                  "Status": _TD_STATUS[alert.status],
                                  "ValidationMessages": None}
            return out
        seats = self._seats(session)
        if kind == "participations":
            return seats
        club = self.hub.setup.doc["club"]
        return {(s["PlayerNumber"],): {
            "SessionGuid": session, "ClubId": club, "PlayerNumber": s["PlayerNumber"],
            "FirstName": s["FirstName"], "LastName": s["LastName"], "CountryCode": None,
            "ValidationMessages": None}
            for _, s in sorted(seats.items()) if s["PlayerNumber"] and s["LastName"]}

    # Queues ------------------------------------------------------------------------------
    def poll(self, session: str, kind: str, everything: bool
             ) -> tuple[list[dict[str, Any]], int]:
        """Deliver what changed (logged first), then the items not yet accepted (all the
        latest ones with ``everything``): (DTOs in id order, the last id delivered)."""
        queue = self._queue(session, kind)
        current = self._current(session, kind)
        fresh = [(key, dto) for key, dto in sorted(current.items())
                 if queue.delivered.get(key, (0, None))[1] != dto]
        if fresh:
            items = [(self._next_id + i, key, dto) for i, (key, dto) in enumerate(fresh)]
            self._store(DELIVERED, {"session": session, "kind": kind,
                                    "items": [[i, list(k), d] for i, k, d in items]})
            self._next_id += len(items)
            for item_id, key, dto in items:
                queue.delivered[key] = (item_id, dto)
            queue.last = items[-1][0]
        chosen = sorted((item_id, dto) for item_id, dto in queue.delivered.values()
                        if everything or item_id > queue.accepted)
        return [dto for _, dto in chosen], queue.last

    def accept(self, session: str, kind: str, upto: int) -> None:
        """Items of ``kind`` up to id ``upto`` are not to be sent again (logged)."""
        queue = self._queue(session, kind)
        if upto > queue.last:
            raise BridgemateError(ErrorType.VALIDATION,
                                  f"queue item {upto} was never delivered (the last "
                                  f"{kind.replace('_', ' ')} item delivered is {queue.last})")
        if upto > queue.accepted:
            self._store(ACCEPTED, {"session": session, "kind": kind, "upto": upto})
            queue.accepted = upto

    def _store(self, kind: str, body: dict[str, Any]) -> None:
        try:
            self.hub.log.append(Record.fact(kind, body, hub_time=self.hub.hub_time()))
        except StoreError as err:
            log.critical("Bridgemate queue not stored: %s", err)
            raise BridgemateError(ErrorType.EXCEPTION, f"the hub could not store it: {err}") \
                from err
