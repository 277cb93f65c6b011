"""What the director's console shows of the room (hub.console): each table's status and
line on the room map, the round clock, and alerts in short.

A table's status (:func:`table_status`): ``offline`` when a device of the table is offline,
``alert`` with alerts not yet resolved, ``late`` past the end of the round without every
board of the round finished (or while the hub's ``late_table`` alert, its only alert, is not
resolved), else from the board in play: ``waiting``, ``bidding``, ``playing``, ``finished``
(every board of its round over).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hub.alerts import Alert, HubKind
from hub.room import Room

__all__ = ["STATUSES", "RoomView", "alert_summary", "rounds", "table_status"]

STATUSES = ("waiting", "bidding", "playing", "finished", "late", "alert", "offline")
_PHASES = {"auction": "bidding", "play": "playing"}
_LATE = HubKind.LATE_TABLE.value


def alert_summary(alert: Alert) -> dict[str, Any]:
    """An alert for the feed: ``Alert.to_json`` without facts, evidence and options, with
    ``ruled_by``, the account that gave its ruling (None before one, or in an older log)."""
    data = alert.to_json()
    for heavy in ("facts", "evidence", "options"):
        del data[heavy]
    data["ruled_by"] = None if alert.ruling is None else alert.ruling.get("by")
    return data


class RoomView:
    """What every table's status needs, computed once per overview or per flush."""

    def __init__(self, room: Room, now: float):
        self.room = room
        self.now = now
        self.open = Counter[str]()       # alerts not resolved, per table
        self.others = Counter[str]()     # ... of another kind than late_table
        for alert in room.alerts.open():
            self.open[alert.table] += 1
            if alert.kind != _LATE:
                self.others[alert.table] += 1
        self.offline: dict[str, list[str]] = {}
        self.online = Counter[str]()
        for device, info in room.devices.items():
            if info.online:
                self.online[info.table] += 1
            else:
                self.offline.setdefault(info.table, []).append(device)
        self.sections = {tid: (s.name, n) for s in room.sections for tid, n in s.tables.items()}

    def table(self, table_id: str) -> dict[str, Any]:
        room = self.room
        table = room.tables[table_id]
        section, number = self.sections.get(table_id, ("", 0))
        sitting = table.sitting
        play = None if sitting is None else sitting.board.play
        a = room.assignment(table_id, table.round)
        boards = [] if a is None or not a.plays else list(a.boards)
        ns, ew = table.pairs()
        return {
            "id": table_id, "section": section, "number": number, "round": table.round,
            "board": None if sitting is None else sitting.board.number,
            "phase": "waiting" if sitting is None else sitting.phase,
            "status": _status(room, table_id, self.now, bool(self.offline.get(table_id)),
                              self.others[table_id], self.open[table_id]),
            "pairs": {"NS": ns, "EW": ew}, "alerts": self.open[table_id],
            "strict": table.strict, "tapping_only": table.tapping_only,
            # Each seat's reader's errors this session (hub.reads): one that misses often is
            # a reader to move or replace.
            "readers": {seat: dict(counts) for seat, counts in
                        sorted(table.reader_errors.items())},
            "contract": None if play is None else str(play.contract),
            "declarer": None if play is None else play.declarer.letter,
            "boards": boards, "done": sum(1 for b in boards if table.finished(b)),
            "devices": {"online": self.online[table_id],
                        "offline": sorted(self.offline.get(table_id, []))},
        }

    def clock(self) -> dict[str, Any]:
        """The round clock, what the room is really doing (:func:`rounds`) and the
        movement's last round (``last``: the longest section's; None without a movement)."""
        clock = self.room.clock
        last = [s.movement.rounds for s in self.room.sections if s.movement is not None]
        return {"round": clock.round, "started": clock.started, "deadline": clock.deadline,
                "minutes": clock.minutes, "hub_time": self.now, **rounds(self.room),
                "last": max(last) if last else None}


def rounds(room: Room) -> dict[str, Any]:
    """What the room is doing, from the tables themselves: ``in_play``, the rounds some
    table has a board of on the table and not every board of it finished (sorted);
    ``finished``, the last round every table has finished (0: none); ``behind``, the tables
    that have not finished the clock's round (what starting the next one would report
    late)."""
    in_play: set[int] = set()
    last = room.clock.round
    for table in room.tables.values():
        s = table.sitting
        if s is not None and not table.round_done(s.round):
            in_play.add(s.round)
        last = max(last, table.round)
    finished = 0
    for number in range(1, last + 1):
        if not all(t.round_done(number) for t in room.tables.values()):
            break
        finished = number
    behind = 0 if room.clock.round < 1 else sum(
        1 for t in room.tables.values() if not t.round_done(room.clock.round))
    return {"in_play": sorted(in_play), "finished": finished, "behind": behind}


def table_status(room: Room, table_id: str, now: float) -> str:
    """One of :data:`STATUSES` for the table at hub time ``now`` (module docstring)."""
    offline = any(not d.online for d in room.devices.values() if d.table == table_id)
    alerts = [a for a in room.alerts.of_table(table_id) if a.is_open]
    return _status(room, table_id, now, offline, sum(1 for a in alerts if a.kind != _LATE),
                   len(alerts))


def _status(room: Room, table_id: str, now: float, offline: bool, others: int,
            open_alerts: int) -> str:
    if offline:
        return "offline"
    if others:
        return "alert"
    table = room.tables[table_id]
    clock = room.clock
    deadline = clock.deadline
    if open_alerts or (deadline is not None and now > deadline
                       and not table.round_done(clock.round)):
        return "late"        # the hub's late_table alert is this, until it is resolved
    sitting = table.sitting
    if sitting is None:
        return "waiting"
    if sitting.phase == "over":
        return "finished" if table.round_done(table.round) else "waiting"
    return _PHASES[sitting.phase]
