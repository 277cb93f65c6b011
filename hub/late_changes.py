"""The director's late changes to a session in progress: pairs added late, withdrawn or
renamed, the round clock paused, resumed or given another length.

Each is a director command (hub.director) logged as a fact and replayed by the room
(:meth:`hub.room.Room.fact`), so a restart rebuilds the same session. None of them touches
what was played: a withdrawn pair keeps every result it has (Law 82: the director gives
the boards it will not play an artificial adjusted score with the ``ruling`` command, as he
chooses); a renamed pair keeps its number, hence its results; a late pair takes a pair
number of the movement that nobody had yet (the sit-out of a Mitchell, the half table), or
the set-up's absent pair's (``missing_pair``): it then takes that pair's place in the
movement from the round the director gives (``from_round``), the table that sat out
expecting it from then on, the boards of the rounds before a sit-out's, unplayed.

In an individual (``Section.individual``) the contestants are players: ``pair`` is then a
player's number, as in its ranking (docs/protocol.md 12.2), ``names`` his one name; a late
player takes a number of the schedule that has neither a name nor a board played; a
withdrawn player keeps his results, and the boards he will not play are the director's to
rule (Law 82; an artificial score at a table is his side's, both players of it, Law 12C3).

Facts (``type``: body, each with ``by``, the account that gave it)::

    pair_add       {"section", "pair", "names": [...], "from_round"?}
                                                         a late pair takes pair number ``pair``
                                                         (``from_round``: the absent pair's place)
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

from bridgecore.movements import Assignment, Movement
from bridgecore.text import Text
from hub.errors import ConfigError
from hub.section import Section

__all__ = ["FACTS", "MAX_MINUTES", "MAX_NAME", "LateChanges", "absent_pair", "check_change",
           "contestants", "named_at", "seated_from", "unplayed"]

FACTS = ("pair_add", "pair_names", "pair_withdraw", "round_pause", "round_time")
MAX_NAME = 80            # characters of a player's name
MAX_MINUTES = 240.0      # the longest round


class _Clock(Protocol):
    round: int
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
    def movement_changed(self, section: str) -> None: ...


class LateChanges:
    """What the late changes left in a room: withdrawn pairs, late pairs, the pause."""

    def __init__(self, room: Room):
        self.room = room
        self.withdrawn: dict[tuple[str, int], dict[str, Any]] = {}   # (section, pair) -> fact
        self.late: set[tuple[str, int]] = set()
        self.placed: dict[tuple[str, int], int] = {}   # (section, pair) -> from_round
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
                if "from_round" in body and section.movement is not None:
                    section.movement = seated_from(section.movement, pair,
                                                   int(body["from_round"]))
                    self.placed[section.name, pair] = int(body["from_round"])
                    section.placed[pair] = int(body["from_round"])
                    self.room.movement_changed(section.name)
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
            raise ConfigError(Text.of("refusal.unknown_change", change=str(type)[:40]))

    def to_json(self) -> dict[str, Any]:
        """For the console: the pause, the late and withdrawn pairs."""
        return {"paused": self.paused, "paused_at": self.paused_at,
                "late": [{"section": s, "pair": p,
                          **({"from_round": self.placed[s, p]} if (s, p) in self.placed
                             else {})}
                         for s, p in sorted(self.late)],
                "withdrawn": [{"section": s, "pair": p, **v}
                              for (s, p), v in sorted(self.withdrawn.items())]}

    def snapshot(self) -> dict[str, Any]:
        return {"paused_at": self.paused_at, "late": sorted(f"{s}:{p}" for s, p in self.late),
                "placed": sorted(f"{s}:{p}:{r}" for (s, p), r in self.placed.items()),
                "withdrawn": sorted(f"{s}:{p}" for s, p in self.withdrawn)}


def contestants(section: Section) -> set[int]:
    """The numbers the late changes name in ``section``: its movement's pairs, or in an
    individual its players."""
    if section.individual is not None:
        return set(section.individual.players)
    movement = section.movement
    return set(movement.pairs) if movement is not None else set(section.pairs)


def unplayed(section: Section, lines: Mapping[int, Sequence[Mapping[str, Any]]],
             contestant: int, last_round: int,
             placed: int | None = None) -> list[dict[str, Any]]:
    """The boards ``contestant`` (a pair, or in an individual a player) had a seat for at
    a full table in rounds 1 to ``last_round`` and that have no line yet at that table and
    round (neither played nor ruled): ``{"table", "round", "board", "side"}`` each, ``side``
    his (NS, EW). What a withdrawn or late contestant leaves for the director to rule (Law
    82; Law 12C2's artificial score, in an individual his side's, both its players, Law
    12C3); a round his number sat out (a half table) is none of them. ``placed``: the round
    from which a late pair took the set-up's absent pair's place; the absent pair's seats of
    the rounds before (a sit-out's, its opponents' half table) are its unplayed boards too,
    for the director to leave without a result or to rule as his regulations say; each is
    marked ``"sit_out": true`` (no pair opposite: a ruling on a table's result cannot take
    it)."""
    seats: list[tuple[int, int, tuple[int, ...], str]] = []    # round, table, boards, side
    sat_out: set[tuple[int, int]] = set()                       # round, table: a half table
    if section.individual is not None:
        for a in section.individual.assignments:
            if a.round <= last_round and contestant in a.seats and a.plays:
                side = "NS" if a.seats.index(contestant) in (0, 2) else "EW"
                seats.append((a.round, a.table, a.boards, side))
    elif section.movement is not None:
        for m in section.movement.assignments:
            if m.round <= last_round and contestant in (m.ns, m.ew) and m.plays:
                seats.append((m.round, m.table, m.boards, "NS" if m.ns == contestant else "EW"))
            elif (placed is not None and m.round < min(placed, last_round + 1) and m.boards
                  and (m.ns is None) != (m.ew is None)):
                seats.append((m.round, m.table, m.boards, "NS" if m.ns is None else "EW"))
                sat_out.add((m.round, m.table))
    out = []
    for round_, number, boards, side in sorted(seats):
        table = section.ids.get(number, f"{section.name}{number}")
        for board in boards:
            if not any(r.get("table") == table and r.get("round") == round_
                       for r in lines.get(board, ())):
                out.append({"table": table, "round": round_, "board": board, "side": side,
                            **({"sit_out": True} if (round_, number) in sat_out else {})})
    return out


def named_at(sections: Sequence[Section], fact: str, body: Mapping[str, Any]) -> set[str]:
    """The tables whose tablets show the name a ``pair_add``, ``pair_names`` or
    ``substitute`` fact gives: an individual's (each seat's player is named on it, protocol
    ``schedule.players``); none for a pair, except a late pair in the absent pair's place
    (``from_round``): its section's tables, whose schedule changed."""
    if fact == "pair_add" and "from_round" in body:
        return {t for s in sections if s.name == body.get("section") for t in s.tables}
    if fact not in ("pair_add", "pair_names", "substitute"):
        return set()
    return {t for s in sections if s.name == body.get("section") and s.individual is not None
            for t in s.tables}


def _section(room: Room, name: str) -> Section:
    for section in room.sections:
        if section.name == name:
            return section
    raise ConfigError(Text.of("refusal.no_section", section=name[:40]))


# What each director command does, in a director's words: the start of every error it
# gets (hub.director), never the command's name.
DOING: dict[str, Text] = {
    "acknowledge": Text.of("doing.acknowledge"), "rule": Text.of("doing.rule"),
    "resolve": Text.of("doing.resolve"), "round_start": Text.of("doing.round_start"),
    "table_mode": Text.of("doing.table_mode"), "ruling": Text.of("doing.ruling"),
    "ruling_undo": Text.of("doing.ruling_undo"),
    "public_results": Text.of("doing.public_results"),
    "pair_add": Text.of("doing.pair_add"), "pair_names": Text.of("doing.pair_names"),
    "pair_withdraw": Text.of("doing.pair_withdraw"),
    "round_pause": Text.of("doing.round_pause"), "round_time": Text.of("doing.round_time"),
    "allow_board": Text.of("doing.allow_board"), "swiss_draw": Text.of("doing.swiss_draw"),
    "substitute": Text.of("doing.substitute"),
    "checkin_accept": Text.of("doing.checkin_accept"),
    "result_correct": Text.of("doing.result_correct"),
}


def doing(op: str) -> Text:
    """What the command ``op`` does, in words (:data:`DOING`)."""
    return DOING.get(op) or Text.of("doing.command")


# The same in an individual, where they name a player.
DOING_SOLO: dict[str, Text] = {
    "pair_add": Text.of("doing.player_add"), "pair_names": Text.of("doing.player_names"),
    "pair_withdraw": Text.of("doing.player_withdraw"),
    "substitute": Text.of("doing.substitute"),
}


def refused(op: str, reason: Text, *, solo: bool = False) -> Text:
    """The refusal of the command ``op``: what it did, then ``reason`` ("Adding a late
    pair: no pair 12 in section A"); ``solo``: in an individual ("Adding a late player")."""
    said = (DOING_SOLO.get(op) if solo else None) or doing(op)
    return Text.of("refusal.command", doing=said, reason=reason)


def absent_pair(movement: Movement | None, pair: int) -> bool:
    """Whether ``pair`` is the set-up's absent pair (``missing_pair``): a number of the
    movement's two pairs a table, left out of it, its opponents sitting out (a half
    table)."""
    if movement is None or not 1 <= pair <= 2 * movement.tables or pair in movement.pairs:
        return False
    return any(a.ns is None or a.ew is None for a in movement.assignments)


def seated_from(movement: Movement, pair: int, from_round: int) -> Movement:
    """``movement`` with ``pair`` in the absent pair's place (each empty seat of a table
    whose opponents sit out) from round ``from_round`` on; the rounds before unchanged."""
    def seat(a: Assignment) -> Assignment:
        if a.round < from_round or (a.ns is None) == (a.ew is None):
            return a
        return Assignment(a.round, a.table, pair if a.ns is None else a.ns,
                          pair if a.ew is None else a.ew, a.board_set, a.boards)
    return Movement(movement.tables, movement.rounds,
                    tuple(seat(a) for a in movement.assignments), movement.boards_per_round,
                    movement.shared_tables, movement.name)


def check_change(op: str, body: dict[str, Any], room: Room) -> None:
    """Check the late change ``op`` (its fields typed by hub.director) against ``room``;
    ConfigError names the field that is wrong. Names are stripped in place."""
    changes: LateChanges = room.late
    if op in ("pair_add", "pair_names", "pair_withdraw"):
        _check_contestant(op, body, room)
        return
    if op == "round_pause":
        if body["paused"] and changes.paused:
            raise ConfigError(refused(op, Text.of("refusal.clock_paused")))
        if not body["paused"] and not changes.paused:
            raise ConfigError(Text.of("refusal.clock_not_paused"))
        return
    if op == "round_time":
        minutes = body["minutes"]
        if isinstance(minutes, bool) or not 1 <= minutes <= MAX_MINUTES:
            raise ConfigError(refused(op, Text.of("refusal.round_minutes",
                                                  most=f"{MAX_MINUTES:g}", minutes=minutes)))
        body["minutes"] = float(minutes)
        return
    raise ConfigError(Text.of("refusal.unknown_change", change=op[:40]))


def _check_contestant(op: str, body: dict[str, Any], room: Room) -> None:
    """:func:`check_change` of ``pair_add``, ``pair_names`` and ``pair_withdraw``: a pair,
    or in an individual a player (his number, one name)."""
    section = _section(room, body["section"])
    pair = body["pair"]
    solo = section.individual is not None

    def no(reason: Text) -> ConfigError:
        return ConfigError(refused(op, reason, solo=solo))

    movement = section.movement
    if op == "pair_add" and not solo and movement is not None and absent_pair(movement, pair):
        first = room.clock.round or 1
        given = body.get("from_round")
        from_round = first if given is None else given
        if isinstance(from_round, bool) or not first <= from_round <= movement.rounds:
            raise no(Text.of("refusal.late_round", round=from_round, first=first,
                             last=movement.rounds))
        body["from_round"] = from_round
    elif pair not in contestants(section):
        raise no(Text.of("refusal.no_player", pair=pair, section=section.name) if solo
                 else Text.of("refusal.no_pair", pair=pair, section=section.name))
    if op == "pair_withdraw":
        if (section.name, pair) in room.late.withdrawn:
            raise no(Text.of("refusal.player_withdrawn", pair=pair, section=section.name)
                     if solo else
                     Text.of("refusal.pair_withdrawn", pair=pair, section=section.name))
        text = body.get("text")
        if text is not None:
            body["text"] = text.strip()[:4000]
        return
    if op == "pair_add" and "from_round" in body and not absent_pair(movement, pair):
        del body["from_round"]          # the absent pair's place only: nothing else to place
    names = body["names"]
    if not 1 <= len(names) <= 4 or not all(isinstance(n, str) for n in names):
        raise no(Text.of("refusal.names_count", n=len(names)))
    if solo and len(names) != 1:
        raise no(Text.of("refusal.player_names", n=len(names)))
    body["names"] = names = [" ".join(n.split()) for n in names]
    if not all(0 < len(n) <= MAX_NAME for n in names):
        raise no(Text.of("refusal.name_length", most=MAX_NAME))
    if op == "pair_add" and (section.pairs.get(pair)
                             or room.scoring.section(section.name).played(pair)):
        raise no(Text.of("refusal.player_taken", pair=pair, section=section.name) if solo
                 else Text.of("refusal.pair_taken", pair=pair, section=section.name))
