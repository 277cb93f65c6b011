"""Run a Mosquitto broker (the Debian package) for the tests, the benchmarks and tools:
on loopback, a free port, a temporary configuration, stopped by its PID."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from pathlib import Path
from types import TracebackType
from urllib.parse import quote

from hub.broker import BrokerError
from wire.processes import stop_process, wait_for_port

__all__ = ["MOSQUITTO", "Mosquitto", "free_port", "wait_for_port"]

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def free_port() -> int:
    """A TCP port free on loopback right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Mosquitto:
    """A Mosquitto on 127.0.0.1 with a configuration and persistence folder in ``folder``.
    ``extra`` lines go first in the configuration. ``tls`` (CA file, certificate chain, key
    file: hub.tls's ``ca.crt``, ``broker.crt``, ``broker.key``) makes the listener a TLS one
    (TLS 1.2 at least) and :attr:`url` a ``mqtts://`` URL with that CA."""

    def __init__(self, folder: Path, extra: tuple[str, ...] = (), *, port: int | None = None,
                 queued: int = 10000, tls: tuple[Path, Path, Path] | None = None):
        if not Path(MOSQUITTO).exists():
            raise BrokerError(f"mosquitto is not installed ({MOSQUITTO}): apt install mosquitto")
        folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.url = f"mqtt://127.0.0.1:{self.port}"
        self.config = folder / "mosquitto.conf"
        self.log = folder / "mosquitto.log"
        listener = [f"listener {self.port} 127.0.0.1"]
        if tls is not None:
            ca, cert, key = tls
            self.url = f"mqtts://127.0.0.1:{self.port}?ca={quote(str(ca), safe='/')}"
            listener += [f"cafile {ca}", f"certfile {cert}", f"keyfile {key}",
                         "tls_version tlsv1.2"]
        lines = [*extra, *listener, "set_tcp_nodelay true",
                 "persistence true",
                 f"persistence_location {folder}/", f"max_queued_messages {queued}"]
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
            raise BrokerError(f"mosquitto did not start:\n{self.log.read_text()}")

    def stop(self) -> None:
        """Stop by PID (SIGTERM, SIGKILL after 5 s); idempotent."""
        stop_process(self.process)

    def __enter__(self) -> Mosquitto:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
