"""Real brokers on loopback for the hub's tests: Mosquitto (the Debian package) and the
embedded amqtt broker, each on a free port, each stopped by its PID at teardown.

``broker_url`` runs a test against both. Mosquitto missing is a failure, not a skip: CI
installs it (scripts/test).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hub.broker import EmbeddedBroker

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
BROKERS = ("amqtt", "mosquitto")


def free_port() -> int:
    """A TCP port free on loopback right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(port: int, timeout: float, process: subprocess.Popen[bytes]) -> bool:
    """True once something accepts connections on ``port``; False if ``process`` exits first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            time.sleep(0.01)
    return False


class Mosquitto:
    """A Mosquitto on 127.0.0.1 with a temporary configuration and persistence folder."""

    def __init__(self, folder: Path, extra: tuple[str, ...] = ()):
        assert Path(MOSQUITTO).exists(), f"mosquitto not installed ({MOSQUITTO}): see scripts/test"
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"mqtt://127.0.0.1:{self.port}"
        self.config = folder / "mosquitto.conf"
        self.log = folder / "mosquitto.log"
        lines = [*extra, f"listener {self.port} 127.0.0.1", "persistence true",
                 f"persistence_location {folder}/", "max_queued_messages 10000"]
        if not any(line.startswith("allow_anonymous") for line in extra):
            lines.append("allow_anonymous true")
        if os.geteuid() == 0:
            lines.append("user root")  # else it drops to 'mosquitto' and cannot write folder
        self.config.write_text("\n".join(lines) + "\n")
        with self.log.open("wb") as log:
            self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.config)],
                                            stdout=log, stderr=subprocess.STDOUT)
        if not wait_for_port(self.port, 10.0, self.process):
            self.stop()
            pytest.fail(f"mosquitto did not start:\n{self.log.read_text()}")

    def stop(self) -> None:
        """Stop by PID (SIGTERM, SIGKILL after 5 s); idempotent."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[Mosquitto]:
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
