"""Fixtures the simultaneous event's tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture
def closing() -> Iterator[list[object]]:
    """What a test starts (brokers, links, relays, cut proxies), closed, cut or stopped in
    the reverse order after it, whatever its end."""
    things: list[object] = []
    yield things
    for thing in reversed(things):
        for name in ("close", "cut", "stop"):
            if hasattr(thing, name):
                getattr(thing, name)()
                break
