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

A human at a tablet sends an event every few seconds; a card reader reads a hand at once
(13 cards); ``tenace replay`` and the simulator go faster. The defaults leave every honest
device far below them: 1,000 events at once, 200 a second after that.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

__all__ = ["BURST", "RATE", "DeviceBuckets"]

log = logging.getLogger(__name__)

BURST = 200.0      # events a device may send at once
RATE = 200.0       # events a second, after the burst
_MAX_DEVICES = 10_000   # buckets kept (the quietest forgotten beyond: they are full anyway)


class DeviceBuckets:
    """A token bucket per device (``take`` on the hub's loop only: no lock)."""

    def __init__(self, burst: float = BURST, rate: float = RATE,
                 clock: Callable[[], float] = time.monotonic):
        if burst < 1 or rate <= 0:
            raise ValueError(f"a device's limit needs a burst of 1 or more and a rate above 0, "
                             f"not {burst} and {rate}")
        self.burst = float(burst)
        self.rate = float(rate)
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}   # device -> (tokens, when)
        self.limited: dict[str, int] = {}                      # device -> events refused

    def take(self, device: str) -> bool:
        """Whether ``device`` may send one more event now (and, if so, it is counted)."""
        now = self.clock()
        tokens, when = self._buckets.get(device, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.rate)
        if tokens >= 1.0:
            if len(self._buckets) >= _MAX_DEVICES and device not in self._buckets:
                self._buckets.clear()
            self._buckets[device] = (tokens - 1.0, now)
            return True
        self._buckets[device] = (tokens, now)
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


def _power_of_ten(n: int) -> bool:
    while n % 10 == 0:
        n //= 10
    return n == 1
