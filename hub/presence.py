"""The grace a device gets before its last will is an alert (hub.service).

A broker that restarts sends the will of every client as it goes down (Mosquitto does, on
SIGTERM), and every client, the hub included, comes back within seconds: one
``device_offline`` per device would be an alert storm for nothing. :class:`OfflineGrace`
holds a will for ``grace`` seconds counted from the will, and never decides while the hub
itself is cut off; after the hub's own reconnection to the broker every held will waits at
least :data:`SETTLE` seconds more (or the grace, if shorter), time for the devices to come
back after it. A birth of the device meanwhile drops it. Only what is left when its time is
over becomes ``device_offline``.

The will's time is kept in the log (the fact ``device_will``, hub.room): a hub restarted
during a cut holds the will again from when it came, not from its own start, so a cut longer
than the grace is always reported, whatever restarts of the hub or the broker happen during
it (the grace is never begun again).

Plain bookkeeping on the hub's loop: times are ``time.monotonic()`` values passed in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["SETTLE", "OfflineGrace"]

SETTLE = 5.0   # seconds a device has after the hub's own reconnection to say it is back


@dataclass(slots=True)
class OfflineGrace:
    """``grace`` seconds (> 0) a device has to come back (module docstring)."""

    grace: float
    link_up: float = 0.0                       # the hub's last (re)connection
    pending: dict[str, tuple[str, float]] = field(default_factory=dict)  # device: (table, since)

    def will(self, device: str, table: str, now: float) -> float:
        """A device's will: held (the first one of an outage counts). When to look again."""
        self.pending.setdefault(device, (table, now))
        return self.due(device)

    def back(self, device: str) -> bool:
        """The device's birth: its will is dropped. Whether one was held."""
        return self.pending.pop(device, None) is not None

    def reconnected(self, now: float) -> None:
        """The hub's own connection to the broker is back: every held will waits a little
        more (module docstring), never a whole grace again."""
        self.link_up = now

    def due(self, device: str) -> float:
        """When the will of ``device`` may become an alert (``inf`` when none is held)."""
        held = self.pending.get(device)
        if held is None:
            return float("inf")
        return max(held[1] + self.grace, self.link_up + min(self.grace, SETTLE))

    def expire(self, device: str, now: float, connected: bool) -> str | None:
        """The table of ``device`` when its will is now an alert (and no longer held); None
        when it is not yet (look again at :meth:`due`), not while ``connected`` is false,
        or when it came back."""
        held = self.pending.get(device)
        if held is None or not connected or now < self.due(device) - 0.01:
            return None
        del self.pending[device]
        return held[0]
