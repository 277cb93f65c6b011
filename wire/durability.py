"""How durable a committed SQLite write is: the hub's event log and a device's outbox share it."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Durability"]


class Durability(StrEnum):
    """What a returned write survives: a crash of the process, or a power cut."""

    PROCESS = "process"
    POWER = "power"
