"""The tablet's tests reuse the hub's real brokers (tests/hub/conftest.py); every test keeps
the tablet's settings (tablet.settings) in its own folder, never the user's ~/.config."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hub.conftest import broker_url, embedded_broker, mosquitto  # noqa: F401


@pytest.fixture(autouse=True)
def tablet_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "tenace-config"
    monkeypatch.setenv("TENACE_CONFIG", str(folder))
    yield folder
