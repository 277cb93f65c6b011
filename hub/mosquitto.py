"""Run a Mosquitto broker (the Debian package) for the tests, the benchmarks and tools:
on loopback, a free port, a temporary configuration, stopped by its PID.

With ``accounts`` (hub/accounts.py) it reads the password and ACL files generated beside the
accounts file, refuses anonymous clients and takes a client's username as its client id
(``use_username_as_clientid``: no account can use another's client id, the hub's included);
:meth:`Mosquitto.reload` (SIGHUP) makes it read them again after an account changed, and
Mosquitto then disconnects the clients whose password no longer matches.
:meth:`Mosquitto.restart` stops it (gracefully, or killed like a crash) and starts it again
on the same port (the tests of the hub riding out a broker restart). Without accounts
(``open_access=True``: say you mean it) the ``extra`` lines decide who may connect, and
without such lines everyone may (benchmarks only).
"""

from __future__ import annotations

import logging
import os
import random
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType
from urllib.parse import quote

from hub.accounts import Accounts
from hub.broker import BrokerError
from wire.processes import stop_process, wait_for_port

__all__ = ["MOSQUITTO", "Mosquitto", "free_port", "wait_for_port"]

log = logging.getLogger(__name__)

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


_PORTS = random.Random(os.urandom(16))   # its own: a test's random.seed() never repeats it


def _ephemeral_low() -> int:
    """The lowest port the kernel gives an outgoing connection (Linux: 32768 by default)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port() -> int:
    """A TCP port free on loopback right now, below the kernel's range for outgoing
    connections: a port the kernel gave (bind to 0) is one of those, and a program started on
    it could find it taken meanwhile as the source port of a connection of another test's
    (Mosquitto's "Address already in use", seen under load). Chosen at random among 12,000
    ports and tried; the kernel's choice when none of 200 is free."""
    low = _ephemeral_low()
    start = max(1024, low - 12000)
    for _ in range(200 if low - start > 1000 else 0):
        port = _PORTS.randrange(start, low)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        chosen: int = sock.getsockname()[1]
        return chosen


class Mosquitto:
    """A Mosquitto on 127.0.0.1 with a configuration and persistence folder in ``folder``.
    ``extra`` lines go first in the configuration; ``accounts`` (or ``open_access``) as in the
    module docstring. ``tls`` (CA file, certificate chain, key file: hub.tls's ``ca.crt``,
    ``broker.crt``, ``broker.key``) makes the listener a TLS one (TLS 1.2 at least) and
    :attr:`url` a ``mqtts://`` URL with that CA. ``listener_extra`` lines follow the listener's
    (settings of that listener, such as ``use_username_as_clientid``: given before any
    ``listener`` line, Mosquitto would open its default listener on port 1883 for them); they
    may open a second listener of their own, as the organiser's broker of a simultaneous
    event does for the clubs' bridges (hub.simultaneous.bridging.bridge_listener)."""

    def __init__(self, folder: Path, extra: tuple[str, ...] = (), *, port: int | None = None,
                 queued: int = 10000, tls: tuple[Path, Path, Path] | None = None,
                 accounts: Accounts | None = None, open_access: bool = False,
                 listener_extra: tuple[str, ...] = ()):
        if accounts is None and not open_access:
            raise BrokerError("Mosquitto needs accounts (hub/accounts.py) or open access")
        if not Path(MOSQUITTO).exists():
            raise BrokerError(f"mosquitto is not installed ({MOSQUITTO}): apt install mosquitto")
        folder.mkdir(parents=True, exist_ok=True)
        for attempt in range(1, 4):
            self._configure(folder, extra, port or free_port(), queued, tls, accounts,
                            listener_extra)
            try:
                self._spawn("wb")
                return
            except BrokerError:
                # A port free a moment ago may be taken by another program before Mosquitto
                # binds it (parallel test workers): another free one, when none was asked.
                in_use = "Address already in use" in self.log.read_text(errors="replace")
                if port is not None or not in_use or attempt == 3:
                    raise
                log.warning("mosquitto: port %d taken meanwhile, another one", self.port)

    def _configure(self, folder: Path, extra: tuple[str, ...], port: int, queued: int,
                   tls: tuple[Path, Path, Path] | None, accounts: Accounts | None,
                   listener_extra: tuple[str, ...] = ()) -> None:
        self.port = port
        self.url = f"mqtt://127.0.0.1:{self.port}"
        self.config = folder / "mosquitto.conf"
        self.log = folder / "mosquitto.log"
        listener = [f"listener {self.port} 127.0.0.1"]
        if tls is not None:
            ca, cert, key = tls
            self.url = f"mqtts://127.0.0.1:{self.port}?ca={quote(str(ca), safe='/')}"
            listener += [f"cafile {ca}", f"certfile {cert}", f"keyfile {key}",
                         "tls_version tlsv1.2"]
        lines = [*extra, *listener, *listener_extra, "set_tcp_nodelay true",
                 "persistence true",
                 f"persistence_location {folder}/", f"max_queued_messages {queued}",
                 "max_queued_bytes 67108864",  # as deploy/mosquitto.conf and the embedded
                 "max_packet_size 1048576"]   # as deploy/mosquitto.conf and the embedded
        self.accounts = accounts
        if accounts is not None:
            accounts.save()
            lines += [f"password_file {accounts.passwd_file}", f"acl_file {accounts.acl_file}",
                      "use_username_as_clientid true"]
        if not any(line.startswith("allow_anonymous") for line in extra):
            lines.append(f"allow_anonymous {'true' if accounts is None else 'false'}")
        if os.geteuid() == 0:
            lines.append("user root")  # else it drops to 'mosquitto' and cannot write folder
        self.config.write_text("\n".join(lines) + "\n")

    def _spawn(self, mode: str) -> None:
        before = self._running_lines() if mode == "ab" else 0
        with self.log.open(mode) as log:
            self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.config)],
                                            stdout=log, stderr=subprocess.STDOUT)
        # Its own log says it listens ("... running"): the port answering is not enough, since
        # another program may hold it (Mosquitto then exits with "Address already in use").
        deadline = time.monotonic() + 60.0          # a guard: it returns on the log line
        while self._running_lines() <= before and self.process.poll() is None:
            if time.monotonic() > deadline:
                break
            time.sleep(0.01)
        if self._running_lines() <= before or not wait_for_port(self.port, 60.0, self.process):
            self.stop()
            raise BrokerError(f"mosquitto did not start:\n{self.log.read_text()}")

    def _running_lines(self) -> int:
        try:
            text = self.log.read_text(errors="replace")
        except FileNotFoundError:
            return 0
        return sum(1 for line in text.splitlines() if line.endswith(" running"))

    def restart(self, *, kill: bool = False) -> None:
        """Stop Mosquitto and start it again on the same port with the same configuration:
        gracefully (SIGTERM: it saves its persistence file and sends its clients' wills), or
        with ``kill`` like a crash (SIGKILL: what was not saved is lost)."""
        if kill and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        else:
            self.stop()
        self._spawn("ab")

    def reload(self) -> None:
        """Make Mosquitto read its password and ACL files again (SIGHUP), and wait until it
        has (its log says so)."""
        if self.process.poll() is not None:
            return
        before = self.log.read_text(errors="replace").count("Reloading config")
        self.process.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 60.0          # a guard: it returns on the log line
        while time.monotonic() < deadline:
            if self.log.read_text(errors="replace").count("Reloading config") > before:
                time.sleep(0.05)  # the log line comes first, the reload right after
                return
            time.sleep(0.01)

    def stop(self) -> None:
        """Stop by PID (SIGTERM, SIGKILL after 5 s); idempotent."""
        stop_process(self.process)

    def __enter__(self) -> Mosquitto:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
