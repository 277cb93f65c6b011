"""Fairness under load: one device, paired or stolen, can slow only itself (issue 23: 10,000
events from one seat tablet in a few seconds made another table's good events wait 4.7 to
37 s). Each table device has a token bucket in the hub: :data:`BURST` events at once, then
:data:`RATE` a second. An event over its device's bucket is refused at once, before it is
parsed as an event or applied, with the reply code ``rate_limited`` ("device A2-N sends
faster than 50 events a second: this one is refused, send it again"), counted in
``hub/status`` (``counters.refused.rate_limited``) and by device
(:attr:`DeviceBuckets.limited`), and logged on the 1st, 10th, 100th ... refusal of a device
(a flood never floods the log). The device sends it again like any refused event it must
(docs/protocol.md section 5); nothing it sent is logged or applied.

A device's presence (protocol 14: its birth, will and farewell, a handful a connection) has
a bucket of its own (:class:`PresenceGate`: :data:`PRESENCE_BURST` at once, then
:data:`PRESENCE_RATE` a second). Each presence applied is a fact of the event log: a seat
tablet's credentials alternating online and farewell 20,000 times in 0.2 s wrote 20,000
records (audit ``auditsec``), an evening's worth of gigabytes to verify at every start. The
hub (hub.device_events) asks the gate once a presence is read and its table known (one it
cannot read is refused and counted as before): one over the bucket is held, the latest
only, and applied when the bucket allows (each tick of the hub): the log holds few presence
facts of a flooding device, and the director still sees its last presence.

A human at a tablet sends an event every few seconds; a card reader reads a hand at once
(13 cards); ``tenace replay`` and the simulator go faster. The defaults leave every honest
device far below them: 1,000 events at once, 200 a second after that.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

__all__ = ["BURST", "PRESENCE_BURST", "PRESENCE_RATE", "RATE", "DeviceBuckets", "PresenceGate"]

log = logging.getLogger(__name__)

BURST = 200.0      # events a device may send at once
RATE = 200.0       # events a second, after the burst
PRESENCE_BURST = 20.0   # presence messages a device may send at once
PRESENCE_RATE = 1.0     # presence messages a second, after the burst
_MAX_DEVICES = 10_000   # buckets kept (the quietest forgotten beyond: they are full anyway)


class _Buckets:
    """A token bucket per device: ``burst`` tokens at once, ``rate`` a second after (on the
    hub's loop only: no lock)."""

    def __init__(self, burst: float, rate: float, clock: Callable[[], float]):
        self.burst = float(burst)
        self.rate = float(rate)
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}   # device -> (tokens, when)

    def tokens(self, device: str, now: float) -> float:
        tokens, when = self._buckets.get(device, (self.burst, now))
        return min(self.burst, tokens + (now - when) * self.rate)

    def spend(self, device: str, now: float, *, may: bool = True) -> bool:
        """Whether ``device`` has a token now (and ``may`` spend it): if so it is spent."""
        tokens = self.tokens(device, now)
        if tokens >= 1.0 and may:
            if len(self._buckets) >= _MAX_DEVICES and device not in self._buckets:
                self._buckets.clear()
            self._buckets[device] = (tokens - 1.0, now)
            return True
        self._buckets[device] = (tokens, now)
        return False


class DeviceBuckets(_Buckets):
    """A token bucket per device for its events (``take`` on the hub's loop only)."""

    def __init__(self, burst: float = BURST, rate: float = RATE,
                 clock: Callable[[], float] = time.monotonic):
        if burst < 1 or rate <= 0:
            raise ValueError(f"a device's limit needs a burst of 1 or more and a rate above 0, "
                             f"not {burst} and {rate}")
        super().__init__(burst, rate, clock)
        self.limited: dict[str, int] = {}                      # device -> events refused

    def take(self, device: str) -> bool:
        """Whether ``device`` may send one more event now (and, if so, it is counted)."""
        if self.spend(device, self.clock()):
            return True
        count = self.limited.get(device, 0) + 1
        self.limited[device] = count
        if _power_of_ten(count):
            log.warning("device %s sends faster than %g events a second: %d event(s) "
                        "refused (rate_limited)", device, self.rate, count)
        return False

    def reason(self, device: str) -> str:
        """What the device is told."""
        return (f"device {device} sends faster than {self.rate:g} events a second: this one "
                "is refused, send it again")


class PresenceGate(_Buckets):
    """A bucket per device for its presence messages (module docstring); on the hub's loop
    only."""

    def __init__(self, burst: float = PRESENCE_BURST, rate: float = PRESENCE_RATE,
                 clock: Callable[[], float] = time.monotonic):
        super().__init__(burst, rate, clock)
        self.pending: dict[str, tuple[str, bytes]] = {}       # device -> (table, payload)
        self.held: dict[str, int] = {}                         # device -> messages held

    def take(self, table: str, device: str, payload: bytes) -> bool:
        """Whether this presence of ``device`` is applied now (and counted); if not, it is
        held (replacing any held before) until :meth:`due` gives it back."""
        if self.spend(device, self.clock(), may=device not in self.pending):
            return True
        self.pending[device] = (table, payload)
        count = self.held.get(device, 0) + 1
        self.held[device] = count
        if _power_of_ten(count):
            log.warning("device %s sends its presence faster than %g a second: %d message(s) "
                        "held back, its latest applied later", device, self.rate, count)
        return False

    def due(self) -> list[tuple[str, str, bytes]]:
        """(table, device, payload) of each held presence whose device's bucket allows one
        now: no longer held, to be given to :meth:`take` again."""
        now = self.clock()
        out = []
        for device, (table, payload) in list(self.pending.items()):
            if self.tokens(device, now) >= 1.0:
                del self.pending[device]
                out.append((table, device, payload))
        return out


def _power_of_ten(n: int) -> bool:
    while n % 10 == 0:
        n //= 10
    return n == 1
