"""Brokers for the benchmarks: Mosquitto (the Debian package) or the embedded amqtt one."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from pathlib import Path

from hub.broker import EmbeddedBroker
from hub.mosquitto import Mosquitto


@contextlib.contextmanager
def broker(kind: str) -> Iterator[str]:
    """The URL of a fresh broker of ``kind`` ("mosquitto" or "amqtt"), stopped afterwards."""
    if kind == "amqtt":
        with EmbeddedBroker("127.0.0.1", 0) as embedded:
            yield embedded.url
        return
    with tempfile.TemporaryDirectory() as tmp, \
            Mosquitto(Path(tmp), ("max_inflight_messages 1000",), queued=0) as real:
        yield real.url
