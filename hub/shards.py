"""An event's sections shared out among several hub processes (shards), one event.

One hub process holds every table of its room on one thread: a championship of a thousand
tables is that thread's limit. With ``shards = N`` in the set-up (``[event]``, or ``tenace
hub --shard K --of N``), N hub processes share the room, over the one broker the devices
already use: shard K holds the sections whose place in the set-up (counted from 0) is K
modulo N, with its own data directory and event log (``shard-K`` in ``--data``). Devices
change nothing: every topic they use names their table, and only the shard that holds the
table subscribes to it.

What each shard does (docs/deploying.md, docs/protocol.md section 2):

* its tables' events, presence, replies, views and results, its sections' live rankings
  and travellers (``results/ranking/{section}``, ``results/traveller/{section}/{board}``),
  its tables' alerts (an alert's id begins with its table);
* its presence on ``hub/shard/{K}/status`` (retained, with its last will; shard 0's will is
  on ``hub/status``, the event's, and shard 0 publishes there too); every table's state
  names its shard, and the devices of shard K's tables read ``hub/shard/{K}/status`` (shard
  0's: ``hub/status``) as their hub's presence (protocol 14);
* director commands (``hub/cmd/{account}``) reach every shard: the shard that holds the
  table or section a command names applies it (and answers a shard's console that sent it,
  on ``hub/shard/{K}/answer``: hub.sharding); a command for the whole room (the round
  clock) is applied by each to its own tables; the others let it pass with a debug line;
* shard 0 alone takes the dealing machines' topics and, where the event is one field
  (``field = true``), reads every section's travellers and publishes the ranking across
  the field (``results/field``, :mod:`hub.field`).

A shard killed and started again rebuilds from its own log, as a single hub does; the
others play on (a device of the stopped shard resends on its reply timeout).

Access: each shard connects with its own account (``tenace-hub-K``, role ``shard``), whose
rules (:func:`hub.access.shard_grant`) name its tables and sections one by one: it may
publish only its own tables' and sections' topics, and the broker refuses the rest.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from hub.errors import ConfigError
from wire.protocol import ProtocolError, topic_ranking

__all__ = ["SHARD_DIRECTORY", "Shard", "shard_account", "shard_accounts", "shard_scope"]

SHARD_DIRECTORY = "shard-{index}"
"""A shard's data directory inside ``--data``: its event log and its files."""


def shard_account(index: int) -> str:
    """The MQTT account (and client id) of shard ``index``."""
    return f"tenace-hub-{index}"


@dataclass(frozen=True, slots=True)
class Shard:
    """Shard ``index`` of ``count`` (0 <= index < count)."""

    index: int
    count: int

    def __post_init__(self) -> None:
        for name, value in (("index", self.index), ("count", self.count)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"shard {name}: a whole number is expected, not {value!r}")
        if self.count < 1:
            raise ConfigError(f"shards: at least 1, not {self.count}")
        if not 0 <= self.index < self.count:
            raise ConfigError(f"shard {self.index}: shards are numbered 0 to "
                              f"{self.count - 1} (of {self.count})")

    @property
    def account(self) -> str:
        return shard_account(self.index)

    @property
    def directory(self) -> str:
        return SHARD_DIRECTORY.format(index=self.index)

    def owns(self, place: int) -> bool:
        """Whether the section at ``place`` in the set-up (from 0) is this shard's."""
        return place % self.count == self.index

    def sections(self, setup: Any) -> list[Any]:
        """The set-up's sections this shard holds (``setup.sections`` in order)."""
        return [s for place, s in enumerate(setup.sections) if self.owns(place)]

    def restrict(self, setup: Any) -> Any:
        """The set-up of this shard's room: its sections only (and the strict tables among
        them), everything else the event's. ConfigError when the shard has no section or a
        section's name cannot be a topic level (each shard's rankings must keep the name the
        whole event knows it by)."""
        if len(setup.sections) < self.count:
            raise ConfigError(f"shards: {self.count} shards for {len(setup.sections)} "
                              f"sections: every shard needs a section at least")
        for s in setup.sections:
            try:
                topic_ranking(s.name)
            except ProtocolError as err:
                raise ConfigError(f"section {s.name!r}: a sharded event's section names "
                                  f"are topic levels (letters, digits, - and _): "
                                  f"{err.reason}") from None
        mine = self.sections(setup)
        tables = {tid for s in mine for tid in s.ids}
        strict = setup.strict if isinstance(setup.strict, bool) else tuple(
            t for t in setup.strict if t in tables)
        return dataclasses.replace(setup, sections=tuple(mine), strict=strict,
                                   shards=self.count)


def shard_scope(setup: Any, shard: Shard) -> dict[str, Any]:
    """What shard ``shard``'s account may touch (hub.access.shard_grant): its number, its
    tables, its sections' names."""
    mine = shard.sections(setup)
    return {"shard": shard.index, "tables": sorted(t for s in mine for t in s.ids),
            "sections": [s.name for s in mine]}


def shard_accounts(setup: Any, count: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """(account, scope) of every shard of ``setup`` shared among ``count`` shards."""
    for index in range(count):
        yield shard_account(index), shard_scope(setup, Shard(index, count))


def shard_sections(setup: Any, count: int) -> Sequence[list[str]]:
    """The section names of each shard, in shard order (for a director reading the plan)."""
    return [[s.name for s in Shard(k, count).sections(setup)] for k in range(count)]
