"""The probes of audit ``auditsec`` (an attacker on the club's network, or holding a seat
tablet's credentials), each against what a default ``tenace hub`` exposes: its embedded
broker and its console, live on loopback. What held is tested where it was before
(tests/hub/test_access.py, test_console_auth.py, test_hostile_probes.py); here are the
holes found and closed, and the probes no test covered yet.

* Connections that never send a request (or send it a byte at a time) held the hub's file
  descriptors: the console kept each for an hour, the embedded broker a half CONNECT for
  ever. 1,100 of them from one phone locked the director out of the console and flooded the
  log; enough on the broker would lock every device out.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from hub.broker import EmbeddedBroker
from hub.broker_limits import CONNECT_DEADLINE
from tests.conftest import Keyring
from tests.hub.test_service import listen, wait_until


def closed_by_peer(sock: socket.socket) -> bool:
    """Whether the other side has closed ``sock`` (what it sent before is read and
    dropped)."""
    sock.setblocking(False)
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


@pytest.fixture
def broker(keyring: Keyring, tmp_path: Path) -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker("127.0.0.1", 0, accounts=keyring.accounts.path,
                        log=tmp_path / "broker.log") as embedded:
        yield embedded


def test_the_embedded_broker_closes_a_connection_that_never_finishes_its_connect(
        broker: EmbeddedBroker, tmp_path: Path) -> None:
    """amqtt waited for a CONNECT for ever: connections sending nothing, or half a CONNECT
    (a header announcing 32 bytes, none of them sent), were all still open 90 s later, so a
    phone opening 60 every 10 s (the connection rate allowed) would exhaust the broker's file
    descriptors. Each is now closed CONNECT_DEADLINE after it opened, in one log line, and a
    device still connects."""
    silent = [socket.create_connection(("127.0.0.1", broker.port), timeout=5)
              for _ in range(10)]
    halves = [socket.create_connection(("127.0.0.1", broker.port), timeout=5)
              for _ in range(10)]
    for sock in halves:
        sock.sendall(b"\x10\x20")            # CONNECT, 32 bytes to follow: never sent
    try:
        # A guard, not a measure: the broker closes them CONNECT_DEADLINE after they opened.
        assert wait_until(lambda: all(closed_by_peer(s) for s in silent + halves),
                          CONNECT_DEADLINE + 80), "the broker keeps connections without CONNECT"
        device = listen(broker.url)
        device.close()
    finally:
        for sock in silent + halves:
            sock.close()
    text = (tmp_path / "broker.log").read_text(errors="replace")
    lines = [line for line in text.splitlines() if "no CONNECT within" in line]
    assert len(lines) == 20 and "Traceback" not in text, text[-2000:]
