"""Real brokers on loopback for the hub's tests: Mosquitto (the Debian package) and the
embedded amqtt broker, each on a free port, each stopped by its PID at teardown.

``broker_url`` runs a test against both. Mosquitto missing is a failure, not a skip: CI
installs it (scripts/test).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hub.broker import EmbeddedBroker
from hub.mosquitto import MOSQUITTO, Mosquitto, free_port, wait_for_port

__all__ = ["BROKERS", "Mosquitto", "free_port", "wait_for_port"]

BROKERS = ("amqtt", "mosquitto")


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[Mosquitto]:
    assert Path(MOSQUITTO).exists(), f"mosquitto not installed ({MOSQUITTO}): see scripts/test"
    broker = Mosquitto(tmp_path / "mosquitto")
    try:
        yield broker
    finally:
        broker.stop()


@pytest.fixture
def embedded_broker() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker("127.0.0.1", 0) as broker:
        yield broker


@pytest.fixture(params=BROKERS)
def broker_url(request: pytest.FixtureRequest) -> str:
    """The URL of a fresh broker: the embedded amqtt one, then Mosquitto."""
    if request.param == "amqtt":
        embedded: EmbeddedBroker = request.getfixturevalue("embedded_broker")
        return embedded.url
    real: Mosquitto = request.getfixturevalue("mosquitto")
    return real.url


@pytest.fixture
def broker_kind(request: pytest.FixtureRequest, broker_url: str) -> str:
    """Which broker ``broker_url`` is: "amqtt" or "mosquitto"."""
    kind: str = request.node.callspec.params["broker_url"]
    return kind
