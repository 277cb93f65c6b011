"""Real brokers on loopback for the hub's tests: Mosquitto (the Debian package) and the
embedded amqtt broker, each on a free port, each stopped by its PID at teardown, both with
access control: they check the session's accounts (tests/conftest.py ``keyring``), and
every client of the tests finds its password in the keyring by its client id.

``broker_url`` runs a test against both. Mosquitto missing is a failure, not a skip: CI
installs it (scripts/test).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hub.broker import EmbeddedBroker
from hub.mosquitto import MOSQUITTO, Mosquitto, free_port, wait_for_port
from tests.conftest import Keyring

__all__ = ["BROKERS", "Mosquitto", "free_port", "wait_for_port"]

BROKERS = ("amqtt", "mosquitto")


@pytest.fixture
def mosquitto(tmp_path: Path, keyring: Keyring) -> Iterator[Mosquitto]:
    assert Path(MOSQUITTO).exists(), f"mosquitto not installed ({MOSQUITTO}): see scripts/test"
    broker = Mosquitto(tmp_path / "mosquitto", accounts=keyring.accounts)
    keyring.reloads.append(broker.reload)
    try:
        yield broker
    finally:
        keyring.reloads.remove(broker.reload)
        broker.stop()


@pytest.fixture
def embedded_broker(keyring: Keyring) -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker("127.0.0.1", 0, accounts=keyring.accounts.path) as broker:
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
