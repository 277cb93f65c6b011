"""Virtual table devices: what a tablet or a card reader would publish, as data.

The simulator (``tenace sim``) and the replay of game records (``tenace replay``) both turn
a table's life into a list of :class:`DeviceEvent` (which device, which event type, which
body, at what device time). :class:`VirtualDevice` gives each event the envelope a real
device would send (its id, its per-device sequence number). Two ways to run a script:

* :func:`apply_local` feeds the envelopes straight into a :class:`hub.room.Room` (what the
  hub does with them after the broker): for tests of detection without a broker;
* :func:`tenace.sim.driver.run_tables` publishes them through a real MQTT broker to a
  running hub, each device through its own :class:`wire.link.DeviceLink`.

Both number each device's events the same way (``seq`` from 1, in order), so what one
finds the other must find.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from wire.protocol import Envelope

if TYPE_CHECKING:
    from hub.alerts import Alert
    from hub.room import Room
    from hub.table import Outcome

__all__ = ["DeviceEvent", "VirtualDevice", "apply_local", "as_cut_off", "envelopes"]


@dataclass(frozen=True, slots=True)
class DeviceEvent:
    """One event a device of ``table`` publishes at device time ``time`` (seconds), ``at``
    the place in the table's record it belongs (every device of a simulated table sees the
    record as the table's events so far report it)."""

    table: str
    device: str
    type: str
    body: dict[str, Any] = field(default_factory=dict)
    time: float = 0.0
    at: dict[str, int] | None = None   # where in the table's record (the envelope's ``at``)


def as_cut_off(events: Iterable[DeviceEvent]) -> list[DeviceEvent]:
    """The events with the places a real table's devices give while cut off from the hub
    (docs/protocol.md section 6): the card reader knows the board it read on
    (firmware_bridge.daemon), the tablet its board and the calls entered on it, not the
    cards the reader saw (tablet.model.TableModel.place). The simulator's own places are
    every device's view of the whole record."""
    out = []
    for event in events:
        at = event.at
        if at is not None and "board" in at:
            known = ("board",) if event.device.endswith("-rdr") else ("board", "calls")
            at = {k: v for k, v in at.items() if k in known}
        out.append(DeviceEvent(event.table, event.device, event.type, event.body, event.time,
                               at))
    return out


class VirtualDevice:
    """Numbers the events of one device as the protocol asks: ids unique, ``seq`` rising."""

    def __init__(self, device: str, run: str = "", start_seq: int = 0):
        self.device = device
        self.run = run          # makes ids unique across runs against the same hub
        self.seq = start_seq

    def envelope(self, event: DeviceEvent) -> Envelope:
        self.seq += 1
        prefix = f"{self.run}-" if self.run else ""
        return Envelope(f"{prefix}{self.device}-{self.seq:06d}", self.device, self.seq,
                        event.time, event.type, dict(event.body),
                        at=None if event.at is None else dict(event.at))


def envelopes(events: Iterable[DeviceEvent], run: str = "",
              devices: dict[str, VirtualDevice] | None = None
              ) -> list[tuple[str, Envelope]]:
    """(table, envelope) for each event, numbered per device in order."""
    devices = {} if devices is None else devices
    out = []
    for event in events:
        dev = devices.get(event.device)
        if dev is None:
            dev = devices[event.device] = VirtualDevice(event.device, run)
        out.append((event.table, dev.envelope(event)))
    return out


def apply_local(room: Room, events: Iterable[DeviceEvent], *, run: str = "",
                hub_time: float | None = None) -> tuple[list[Outcome], list[Alert]]:
    """Apply a script to ``room`` directly. The hub's time is each event's device time
    (or ``hub_time`` when given). Returns every outcome and every alert raised or updated."""
    outcomes: list[Outcome] = []
    alerts: list[Alert] = []
    for table, env in envelopes(events, run):
        out = room.apply(table, env, env.time if hub_time is None else hub_time)
        outcomes.append(out)
        alerts.extend(out.alerts)
    return outcomes, alerts
