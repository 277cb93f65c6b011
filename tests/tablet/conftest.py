"""The tablet's tests reuse the hub's real brokers (tests/hub/conftest.py)."""

from tests.hub.conftest import broker_url, embedded_broker, mosquitto  # noqa: F401
