"""The wire layer's tests use the real brokers of the hub's tests (tests/hub/conftest.py)."""

from tests.hub.conftest import broker_url, embedded_broker, mosquitto  # noqa: F401
