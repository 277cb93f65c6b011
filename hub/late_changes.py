"""The director's late changes to a session in progress: pairs added late, withdrawn or
renamed, the round clock paused, resumed or given another length.

Each is a director command (hub.director) logged as a fact and replayed by the room
(:meth:`hub.room.Room.fact`), so a restart rebuilds the same session. None of them touches
what was played: a withdrawn pair keeps every result it has (Law 82: the director gives
the boards it will not play an artificial adjusted score with the ``ruling`` command, as he
chooses); a renamed pair keeps its number, hence its results; a late pair takes a pair
number of the movement that nobody had yet (the sit-out of a Mitchell, the half table).

Facts (``type``: body, each with ``by``, the account that gave it)::

    pair_add       {"section", "pair", "names": [...]}   a late pair takes pair number ``pair``
    pair_names     {"section", "pair", "names": [...]}   the players' names corrected
    pair_withdraw  {"section", "pair", "text"?}          the pair leaves; its results stay
    round_pause    {"paused": bool}                      the round clock stops, or runs again
    round_time     {"minutes": m}                        the round's length from now on

A paused clock reports no late table (:meth:`LateChanges.paused`); when it runs again the
round's start moves on by the time it stood still, so the deadline does too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from hub.errors import ConfigError
from hub.section import Section

__all__ = ["FACTS", "MAX_MINUTES", "MAX_NAME", "LateChanges", "check_change"]

FACTS = ("pair_add", "pair_names", "pair_withdraw", "round_pause", "round_time")
MAX_NAME = 80            # characters of a player's name
MAX_MINUTES = 240.0      # the longest round


class _Clock(Protocol):
    minutes: float
    started: float | None


class Room(Protocol):
    """What the late changes need of the room (hub.room.Room)."""

    @property
    def sections(self) -> Sequence[Section]: ...
    @property
    def clock(self) -> _Clock: ...
    @property
    def scoring(self) -> Any: ...        # hub.scoring.LiveScoring
    @property
    def late(self) -> LateChanges: ...


class LateChanges:
    """What the late changes left in a room: withdrawn pairs, late pairs, the pause."""

    def __init__(self, room: Room):
        self.room = room
        self.withdrawn: dict[tuple[str, int], dict[str, Any]] = {}   # (section, pair) -> fact
        self.late: set[tuple[str, int]] = set()
        self.paused_at: float | None = None

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    def fact(self, type: str, body: Mapping[str, Any], hub_time: float) -> None:
        """Apply one logged late change (checked by :func:`check_change` when given)."""
        if type in ("pair_add", "pair_names"):
            section = _section(self.room, str(body["section"]))
            pair = int(body["pair"])
            section.pairs[pair] = tuple(str(n) for n in body["names"])
            if type == "pair_add":
                self.late.add((section.name, pair))
            self.room.scoring.names_changed(section.name)
        elif type == "pair_withdraw":
            key = (str(body["section"]), int(body["pair"]))
            self.withdrawn[key] = {"time": hub_time, "by": body.get("by"),
                                   "text": body.get("text", "")}
        elif type == "round_pause":
            clock = self.room.clock
            if body["paused"]:
                if self.paused_at is None:
                    self.paused_at = hub_time
            elif self.paused_at is not None:
                if clock.started is not None:
                    clock.started += hub_time - self.paused_at
                self.paused_at = None
        elif type == "round_time":
            self.room.clock.minutes = float(body["minutes"])
        else:
            raise ConfigError(f"unknown late change {type!r}")

    def to_json(self) -> dict[str, Any]:
        """For the console: the pause, the late and withdrawn pairs."""
        return {"paused": self.paused, "paused_at": self.paused_at,
                "late": [{"section": s, "pair": p} for s, p in sorted(self.late)],
                "withdrawn": [{"section": s, "pair": p, **v}
                              for (s, p), v in sorted(self.withdrawn.items())]}

    def snapshot(self) -> dict[str, Any]:
        return {"paused_at": self.paused_at, "late": sorted(f"{s}:{p}" for s, p in self.late),
                "withdrawn": sorted(f"{s}:{p}" for s, p in self.withdrawn)}


def _section(room: Room, name: str) -> Section:
    for section in room.sections:
        if section.name == name:
            return section
    raise ConfigError(f"no section {name!r:.40} in this session")


# What each director command does, in a director's words: the start of every error it
# gets (hub.director), never the command's name.
DOING: dict[str, str] = {
    "acknowledge": "Acknowledging the alert", "rule": "The ruling on the alert",
    "resolve": "Resolving the alert", "round_start": "Starting the round",
    "table_mode": "Changing the table's mode", "ruling": "The score ruling",
    "ruling_undo": "Withdrawing the score ruling", "public_results": "What the room sees",
    "pair_add": "Adding a late pair", "pair_names": "Correcting the pair's names",
    "pair_withdraw": "Withdrawing the pair", "round_pause": "Pausing the clock",
    "round_time": "Changing the time of a round",
}


def doing(op: str) -> str:
    """What the command ``op`` does, in words (:data:`DOING`)."""
    return DOING.get(op, "The director's command")


def check_change(op: str, body: dict[str, Any], room: Room) -> None:
    """Check the late change ``op`` (its fields typed by hub.director) against ``room``;
    ConfigError names the field that is wrong. Names are stripped in place."""
    changes: LateChanges = room.late
    if op in ("pair_add", "pair_names", "pair_withdraw"):
        section = _section(room, body["section"])
        pair = body["pair"]
        movement = section.movement
        known = set(movement.pairs) if movement is not None else set(section.pairs)
        if pair not in known:
            raise ConfigError(f"{doing(op)}: no pair {pair} in section {section.name}")
        key = (section.name, pair)
        if op == "pair_withdraw":
            if key in changes.withdrawn:
                raise ConfigError(f"{doing(op)}: pair {pair} of section {section.name} has already "
                                  "withdrawn")
            text = body.get("text")
            if text is not None:
                body["text"] = text.strip()[:4000]
            return
        names = body["names"]
        if not 1 <= len(names) <= 4 or not all(isinstance(n, str) for n in names):
            raise ConfigError(f"{doing(op)}: one to four names, not {len(names)}")
        body["names"] = names = [" ".join(n.split()) for n in names]
        if not all(0 < len(n) <= MAX_NAME for n in names):
            raise ConfigError(f"{doing(op)}: each name has 1 to {MAX_NAME} characters")
        if op == "pair_add" and (section.pairs.get(pair)
                                 or room.scoring.section(section.name).card(pair)):
            raise ConfigError(f"{doing(op)}: pair {pair} of section {section.name} already "
                              "has players or results (correct its names instead)")
        return
    if op == "round_pause":
        if body["paused"] and changes.paused:
            raise ConfigError(f"{doing(op)}: the clock is already paused")
        if not body["paused"] and not changes.paused:
            raise ConfigError("Restarting the clock: the clock is not paused")
        return
    if op == "round_time":
        minutes = body["minutes"]
        if isinstance(minutes, bool) or not 1 <= minutes <= MAX_MINUTES:
            raise ConfigError(f"{doing(op)}: 1 to {MAX_MINUTES:g} minutes, not {minutes!r}")
        body["minutes"] = float(minutes)
        return
    raise ConfigError(f"unknown late change {op!r}")
