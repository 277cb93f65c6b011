"""Child processes and loopback ports: the two helpers every program that starts a server
for itself needs (the hub's embedded broker, a test's Mosquitto, the card readers' test
pcscd), shared here so that no application imports another's.

* :func:`stop_process`: SIGTERM, then SIGKILL after a grace period;
* :func:`wait_for_port`: until something accepts connections on a loopback port, or the
  process that should listen there has exited.

Standard library only; raises nothing of its own.
"""

from __future__ import annotations

import socket
import subprocess
import time
from typing import Any

__all__ = ["stop_process", "wait_for_port"]


def stop_process(process: subprocess.Popen[Any], timeout: float = 5.0) -> bool:
    """Stop a child we started (a broker, pcscd): SIGTERM, SIGKILL after ``timeout``
    seconds. True when it had to be killed; nothing when it had already ended."""
    if process.poll() is not None:
        return False
    process.terminate()
    try:
        process.wait(timeout)
        return False
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return True


def wait_for_port(port: int, timeout: float, process: subprocess.Popen[Any]) -> bool:
    """True once something accepts connections on ``port``; False if ``process`` exits first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            time.sleep(0.01)
    return False
