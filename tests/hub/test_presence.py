"""A device's last will held a grace before it is an alert (hub.presence.OfflineGrace)."""

from __future__ import annotations

from hub.presence import OfflineGrace


def test_a_will_becomes_an_alert_only_after_the_grace() -> None:
    wills = OfflineGrace(15.0)
    assert wills.will("A1-tab", "A1", 100.0) == 115.0
    assert wills.expire("A1-tab", 110.0, connected=True) is None
    assert wills.expire("A1-tab", 115.0, connected=True) == "A1"
    assert wills.pending == {} and wills.expire("A1-tab", 200.0, connected=True) is None


def test_a_birth_within_the_grace_drops_the_will() -> None:
    wills = OfflineGrace(15.0)
    wills.will("A1-tab", "A1", 100.0)
    assert wills.back("A1-tab") and not wills.back("A1-tab")
    assert wills.expire("A1-tab", 200.0, connected=True) is None


def test_the_grace_counts_from_the_hubs_own_reconnection() -> None:
    """A broker restart: the wills come just before the hub loses its own connection; they
    wait until the grace has passed since the hub came back, and never while it is away."""
    wills = OfflineGrace(15.0)
    wills.will("A1-tab", "A1", 100.0)
    assert wills.expire("A1-tab", 120.0, connected=False) is None   # the hub is cut off
    wills.reconnected(125.0)
    assert wills.due("A1-tab") == 140.0
    assert wills.expire("A1-tab", 130.0, connected=True) is None
    assert wills.expire("A1-tab", 140.0, connected=True) == "A1"


def test_the_first_will_of_an_outage_counts() -> None:
    wills = OfflineGrace(10.0)
    wills.will("A1-rdr", "A1", 100.0)
    assert wills.will("A1-rdr", "A1", 105.0) == 110.0
    assert wills.due("nobody") == float("inf")
