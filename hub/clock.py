"""Device clocks as the hub sees them: the clock check of every event, each device's offset
to the hub's clock, and what the director hears of clocks and of a device's history.

A table's tablet often has no time server (a club network without internet): its clock may
be minutes or hours off, or jump when someone sets it. The device learns the hub's clock
from the ``time`` of the hub's replies (:mod:`wire.link`) and stamps each copy it publishes
with ``sent`` (its clock then) and ``offset`` (its estimate of the hub's clock minus its
own). The hub judges the corrected time ``sent + offset`` (docs/protocol.md, section 6):

* :func:`judge` is the check, a pure function of the envelope and the hub's time (the same
  answer when the log is replayed). A copy stamped ahead of the hub's clock by more than
  the tolerance is refused ``clock_skew``. A copy stamped behind it is late, not wrong: with
  an ``offset`` it is a copy that waited in a queue or an outbox through an outage, and it is
  taken when it is at most :data:`MAX_HELD` old; without an ``offset`` (a device of an
  earlier version) the tolerance holds both ways, as before.
* :class:`ClockBook` (``Room.clocks``) keeps each device's offset as its accepted events
  declared it and notices a device whose clock jumps in mid-session (its declared offset
  moves by more than :data:`JUMP_SECONDS`): logged and raised to the director as a
  ``clock_jump`` alert, never a refusal. The tables get every event already read on the
  hub's clock (:meth:`wire.protocol.Envelope.corrected`); ``offset(device)`` is for a
  device's raw times (a stored record's ``device_time``, a status's ``time``).
* :func:`history_alert`: a device said (``hello``) that the hub had acknowledged events the
  log no longer holds (a restored or damaged log): the director is told (``history_missing``)
  while the device sends them again from its outbox.

Nothing here reads the wall clock: times come in as arguments.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bridgecore.text import Text
from hub.alerts import Alert, HubKind

if TYPE_CHECKING:
    from hub.alerts import AlertBook
    from wire.protocol import Envelope

__all__ = ["JUMP_SECONDS", "MAX_HELD", "ClockBook", "DeviceClock", "history_alert", "judge"]

log = logging.getLogger(__name__)

MAX_HELD = 12 * 3600.0
"""Seconds a copy with an ``offset`` may have waited before it reached the hub: a session."""

JUMP_SECONDS = 10.0
"""A change of a device's declared offset beyond this is a jump of its clock, not the
refinement of its estimate (on a club network the estimate is within a fraction of a
second)."""


def judge(env: Envelope, hub_time: float, tolerance: float | None,
          max_held: float = MAX_HELD) -> str | None:
    """Why ``env`` fails the clock check at ``hub_time`` (the reason of a ``clock_skew``
    refusal), or None when it passes. ``tolerance`` None: no check (the event's setting)."""
    if tolerance is None:
        return None
    stamped = env.clock if env.offset is None else env.clock + env.offset
    ahead = stamped - hub_time
    which = "sent" if env.sent is not None else "time"
    if env.offset is None:
        if abs(ahead) > tolerance:
            return f"device clock {env.clock:.3f} is {ahead:+.1f} s from the hub's"
        return None
    if ahead > tolerance:
        return (f"device clock {env.clock:.3f} corrected by its offset {env.offset:+.3f} is "
                f"{ahead:+.1f} s ahead of the hub's")
    if -ahead > max_held:
        return (f"copy {which} {-ahead:.0f} s ago on the hub's clock: held longer than "
                f"{max_held:.0f} s")
    return None


@dataclass(slots=True)
class DeviceClock:
    """What the hub knows of one device's clock: its declared offset (hub minus device,
    seconds), when it was last declared (hub time), and how many jumps were noticed."""

    offset: float
    seen: float
    jumps: int = 0


class ClockBook:
    """Each device's clock offset, from the ``offset`` its accepted events declare.

    ``offset(device)`` is the seconds to add to a device's raw time stamps to read them on
    the hub's clock (0.0 for a device that never declared one: an earlier version's device,
    or one whose clock is taken as right); the times a table is handed are corrected already.
    :meth:`observe` is called with every accepted event (by the room, so a replay of the log
    rebuilds the book); it returns the jump when the device's clock jumped: seconds its
    clock moved (the old offset minus the new)."""

    def __init__(self, jump: float = JUMP_SECONDS):
        self.jump = jump
        self._devices: dict[str, DeviceClock] = {}

    def offset(self, device: str) -> float:
        """Hub clock minus ``device``'s clock, seconds (0.0 when unknown)."""
        known = self._devices.get(device)
        return 0.0 if known is None else known.offset

    def offsets(self) -> dict[str, float]:
        """Every known device's offset (a copy: another thread may read it)."""
        return {device: known.offset for device, known in self._devices.items()}

    def known(self, device: str) -> bool:
        """The device declared an offset."""
        return device in self._devices

    def get(self, device: str) -> DeviceClock | None:
        return self._devices.get(device)

    def observe(self, device: str, offset: float | None, hub_time: float) -> float | None:
        """Note the offset an accepted event of ``device`` declared; the jump when it moved
        by more than :attr:`jump` since the last one (logged), else None."""
        if offset is None:
            return None
        known = self._devices.get(device)
        if known is None:
            self._devices[device] = DeviceClock(offset, hub_time)
            return None
        moved = offset - known.offset
        known.offset, known.seen = offset, hub_time
        if abs(moved) <= self.jump:
            return None
        known.jumps += 1
        log.warning("the clock of device %s jumped by %+.1f s (offset to the hub's clock now "
                    "%+.1f s): its events are taken, corrected", device, -moved, offset)
        return -moved

    def snapshot(self) -> dict[str, list[float]]:
        return {d: [c.offset, c.seen, c.jumps] for d, c in sorted(self._devices.items())}

    def __len__(self) -> int:
        return len(self._devices)


def clock_jump_alert(alerts: AlertBook, table: str, round: int | None, board: int | None,
                     device: str, jump: float, offset: float, n: int,
                     hub_time: float) -> Alert | None:
    """The director's notice of a device's clock jump (``clock_jump``, no law): its events
    keep their true times through the offset it declares; he may want to look at the
    tablet's clock."""
    return alerts.raise_alert(
        f"{table}:clock:{device}:{n}", kind=HubKind.CLOCK_JUMP.value, law="", table=table,
        round=round, board=board, detected=hub_time,
        detail=Text.of("alert.clock_jump", device=device, table=table,
                       jump=f"{jump:+.0f}", offset=f"{offset:+.0f}"),
        facts={"device": device, "jump": round_seconds(jump), "offset": round_seconds(offset)})


def history_alert(alerts: AlertBook, table: str, round: int | None, board: int | None,
                  body: Mapping[str, Any], hub_time: float) -> Alert | None:
    """The fact ``history_missing`` ``{device, table, last, acked}``: the hub had acknowledged
    to ``device`` events up to ``acked`` and its log holds them only up to ``last`` (null:
    none). The device sends them again from its outbox; the director is told. The same fact
    with ``recovered`` (how many came back once the device's events reached ``acked``) is the
    alert's next version: what was recovered."""
    device, last, acked = str(body["device"]), body.get("last"), body.get("acked")
    held = Text.of("alert.history_none") if last is None else Text.of("alert.history_upto",
                                                                         last=last)
    facts: dict[str, Any] = {"device": device, "last": last, "acked": acked}
    detail = Text.of("alert.history_missing", device=device, acked=acked, held=held)
    if "recovered" in body:
        facts["recovered"] = body["recovered"]
        detail = Text.of("alert.history_recovered", device=device, acked=acked, held=held,
                         n=body["recovered"])
    return alerts.raise_alert(
        f"{table}:history:{device}:{acked}", kind=HubKind.HISTORY_MISSING.value, law="",
        table=table, round=round, board=board, detected=hub_time, detail=detail, facts=facts)


def round_seconds(value: float) -> float:
    return round(value, 3)
