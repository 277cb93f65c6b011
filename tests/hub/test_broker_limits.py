"""The limits of hub.fairness (the hub's token bucket per device) and hub.broker_limits (the
embedded broker's queue and connection rate) on a test clock; the live tests, through both
brokers, are in tests/hub/test_hostile_probes.py."""

from __future__ import annotations

import logging

import pytest

from hub.broker_limits import ConnectionRate, QueueLimit
from hub.fairness import DeviceBuckets


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_device_has_its_burst_then_its_rate_and_others_are_not_touched(
        caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    buckets = DeviceBuckets(burst=5, rate=2, clock=clock)
    assert [buckets.take("A2-N") for _ in range(7)] == [True] * 5 + [False] * 2
    assert buckets.take("A1-tab")                      # another device: its own bucket
    clock.now += 1.0                                   # two more a second
    assert [buckets.take("A2-N") for _ in range(3)] == [True, True, False]
    assert buckets.limited == {"A2-N": 3}
    assert "sends faster than 2 events a second" in buckets.reason("A2-N")
    # Logged on the 1st and the 10th refusal, not on every one.
    for _ in range(20):
        buckets.take("A2-N")
    lines = [r for r in caplog.records if "A2-N" in r.getMessage()]
    assert len(lines) == 2, [r.getMessage() for r in lines]


def test_a_bucket_refuses_nonsense_limits() -> None:
    with pytest.raises(ValueError):
        DeviceBuckets(burst=0)
    with pytest.raises(ValueError):
        DeviceBuckets(rate=0)


def test_a_client_away_keeps_at_most_its_queue(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    queues = QueueLimit(limit=3)
    assert [queues.full("A1-N", n) for n in range(5)] == [False, False, False, True, True]
    assert queues.dropped == {"A1-N": 2}
    assert sum("A1-N" in r.getMessage() for r in caplog.records) == 1


def test_an_address_connecting_too_often_is_closed_but_loopback_never() -> None:
    clock = Clock()
    rate = ConnectionRate(limit=3, window=10.0, clock=clock)
    assert [rate.allow("192.168.1.50") for _ in range(4)] == [True, True, True, False]
    assert rate.allow("192.168.1.51")                  # another address
    assert all(rate.allow("127.0.0.1") for _ in range(100))
    assert all(rate.allow("::1") for _ in range(100))
    clock.now += 10.5                                  # the window has passed
    assert rate.allow("192.168.1.50")
    assert rate.refused == {"192.168.1.50": 1}
