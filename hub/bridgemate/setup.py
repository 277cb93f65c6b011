"""The room a scoring program sets up (hub.bridgemate): :class:`BridgemateSetup`.

The event document holds what the Data Connector was sent, normalized: the sessions, the
scoring groups, the sections with their tables and rounds (the movement: RoundDTO pairs and
board range, pair 0 an empty seat), the players, the seating, the hand records, and the
Laws settings the hub had. Section letters + table number are the hub's table ids
(``A1``); sections playing the same board number play the same deal. The document is the
set-up the hub logs (``to_json``/``from_json``, ``hub.service.RoomSetup``) and builds its
room from. :func:`lost_play` names what a new document would drop of the play recorded.
A document that cannot be a room is a :class:`hub.errors.ConfigError`.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from bridgecore.cards import Side
from bridgecore.deal import Deal
from bridgecore.editions import edition as laws_edition
from bridgecore.errors import BridgeError
from bridgecore.movements import Assignment, Movement, ranges
from hub.bridgemate.model import SCORING_METHODS
from hub.errors import ConfigError
from hub.room import Room, Section
from wire.protocol import ProtocolError, topic_state

__all__ = ["BridgemateSetup", "empty_doc", "laws_of", "lost_play"]

def _doc_problems(doc: Mapping[str, Any]) -> list[str]:
    """What makes an event document unusable as a room (everything at once)."""
    out: list[str] = []
    sessions = [s["guid"] for s in doc["sessions"]]
    if len(set(sessions)) != len(sessions):
        out.append("a session guid is given twice")
    groups = [(g["session"], g["number"]) for g in doc["groups"]]
    for session, number in sorted({k for k in groups if groups.count(k) > 1}):
        out.append(f"session {session}: scoring group {number} is given twice")
    seen: set[str] = set()
    for s in doc["sections"]:
        letters = s["letters"]
        if letters in seen:
            out.append(f"section {letters}: its letters are given twice (unique in an event)")
        seen.add(letters)
        if (s["session"], s["group"]) not in groups:
            out.append(f"section {letters}: no scoring group {s['group']} in its session")
        tables = s["tables"]
        for t in sorted({t for t in tables if tables.count(t) > 1}):
            out.append(f"section {letters}: table {t} is given twice")
        cells: set[tuple[int, int]] = set()
        seated: dict[tuple[int, int], int] = {}
        for table, number, ns, ew, *_ in s["rounds"]:
            if (table, number) in cells:
                out.append(f"section {letters}: table {table}, round {number} is given twice")
            cells.add((table, number))
            for pair in (ns, ew):
                other = seated.setdefault((number, pair), table) if pair else table
                if other != table:
                    out.append(f"section {letters}, round {number}: pair {pair} at tables "
                               f"{other} and {table}")
        for t in tables:
            try:
                topic_state(f"{letters}{t}")
            except ProtocolError:
                out.append(f"section {letters}: table {t} makes a table id longer than 16")
    for number, text in doc["deals"].items():
        if not str(number).isdecimal():
            out.append(f"deals: {number!r} is not a board number")
        try:
            Deal.parse(text)
        except BridgeError as err:
            out.append(f"deals: board {number}: {err}")
    return out


def _movement(section: Mapping[str, Any]) -> Movement:
    """A section's rounds as a :class:`Movement` (board sets numbered by board range)."""
    rows = section["rounds"]
    spans = sorted({(r[4], r[5]) for r in rows if r[4]})
    sets = {span: i + 1 for i, span in enumerate(spans)}
    holders: dict[tuple[int, int], set[int]] = defaultdict(set)
    cells = []
    for table, number, ns, ew, low, high, *_ in rows:
        boards = tuple(range(low, high + 1)) if low else ()
        cells.append(Assignment(number, table, ns or None, ew or None, sets.get((low, high), 0),
                                boards))
        for b in boards:
            holders[number, b].add(table)
    shared = tuple({frozenset(t) for t in holders.values() if len(t) > 1})
    kind = "Teams" if section["game_type"] == 30 else "Pairs"
    return Movement(max(section["tables"], default=1), max((r[1] for r in rows), default=1),
                    tuple(cells), max((h - lo + 1 for lo, h in spans), default=1), shared,
                    name=f"{kind} section {section['letters']} (Bridgemate)")


def _name(first: str, last: str) -> str:
    return " ".join(x for x in (first.strip(), last.strip()) if x)


class BridgemateSetup:
    """The room a scoring program set up (``hub.service.RoomSetup``): an event document
    holding what the Data Connector was sent, normalized (``to_json``/``from_json``).
    ``BridgemateSetup.waiting()`` is a room without sections, until InitializeEvent."""

    VERSION = 1

    def __init__(self, doc: Mapping[str, Any]):
        self.doc = copy.deepcopy(dict(doc))
        try:
            problems = _doc_problems(self.doc)
            self.movements = {} if problems else {
                s["letters"]: _movement(s) for s in self.doc["sections"]}
        except (KeyError, TypeError, ValueError, IndexError) as err:
            raise ConfigError(f"Bridgemate event set-up: not an event document ({err})") \
                from err
        if problems:
            raise ConfigError("Bridgemate event set-up: " + "; ".join(problems))

    @classmethod
    def waiting(cls, laws: Mapping[str, Any] | None = None) -> BridgemateSetup:
        return cls(empty_doc(laws or _LAWS))

    @classmethod
    def from_json(cls, obj: Any) -> BridgemateSetup:
        if not isinstance(obj, Mapping) or obj.get("bridgemate") != cls.VERSION:
            raise ConfigError(f"not a Bridgemate event set-up of version {cls.VERSION}")
        return cls(obj)

    def to_json(self) -> dict[str, Any]:
        return copy.deepcopy(self.doc)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BridgemateSetup) and self.doc == other.doc

    __hash__ = None  # type: ignore[assignment]

    # What the scoring program set up --------------------------------------------------------
    @property
    def sessions(self) -> list[str]:
        return [s["guid"] for s in self.doc["sessions"]]

    @property
    def event(self) -> str:
        """The event guid (that of the only session when none was given)."""
        sessions = self.sessions
        return self.doc["event"] or (sessions[0] if len(sessions) == 1 else "")

    def places(self) -> dict[str, tuple[str, str, int]]:
        """Hub table id -> (session guid, section letters, table number)."""
        return {f"{s['letters']}{t}": (s["session"], s["letters"], t)
                for s in self.doc["sections"] for t in s["tables"]}

    def deal(self, board: int) -> Deal | None:
        text = self.doc["deals"].get(str(board))
        return None if text is None else Deal.parse(text)

    # The room ----------------------------------------------------------------------------
    def build_room(self) -> Room:
        sections = []
        for s in self.doc["sections"]:
            movement = self.movements[s["letters"]]
            sections.append(Section(s["letters"], movement,
                                    tables={f"{s['letters']}{t}": t for t in s["tables"]},
                                    pairs=self._pair_names(s, movement)))
        played = {b for m in self.movements.values() for b in m.boards}
        deals = {int(b): Deal.parse(t) for b, t in self.doc["deals"].items() if int(b) in played}
        laws = self.doc["laws"]
        return Room(sections, deals, minutes_per_round=laws["minutes_per_round"],
                    edition=laws_edition(laws["edition"]), strict=laws["strict"],
                    clock_tolerance=laws["clock_tolerance"])

    def _pair_names(self, section: Mapping[str, Any], movement: Movement
                    ) -> dict[int, tuple[str, ...]]:
        """The players of each pair, from the first round's seating (the director's
        evidence), North before South and East before West."""
        known = {(p["session"], p["number"]): _name(p["first"], p["last"])
                 for p in self.doc["players"]}
        names: dict[int, dict[int, str]] = defaultdict(dict)
        for seat in self.doc["seating"]:
            if (seat["session"], seat["letters"], seat["round"]) != (
                    section["session"], section["letters"], 1):
                continue
            a = movement.assignment(1, seat["table"])
            pair = None if a is None else a.pair(Side.NS if seat["direction"] % 2 else Side.EW)
            name = (known.get((seat["session"], seat["number"]), "") if seat["number"]
                    else _name(seat["first"], seat["last"]))
            if pair is not None and name:
                names[pair][seat["direction"]] = name
        return {p: tuple(v[d] for d in sorted(v)) for p, v in sorted(names.items())}

    def summary(self) -> list[str]:
        """What the director reads when the hub starts."""
        doc = self.doc
        laws = doc["laws"]
        if not doc["sessions"]:
            return ["No event yet: waiting for the scoring program (Bridgemate Data "
                    f"Connector); Laws of {laws['edition']}"]
        lines = [f"Bridgemate event {self.event}: Laws of {laws['edition']}, "
                 f"{laws['minutes_per_round']:g} minutes a round"]
        methods = {(g["session"], g["number"]): g["method"] for g in doc["groups"]}
        for session in doc["sessions"]:
            y, m, d, hh, mm = session["date"]
            lines.append(f"Session {session['name']!r} of {y}-{m:02d}-{d:02d} {hh:02d}:{mm:02d} "
                         f"({session['guid']})")
            for s in doc["sections"]:
                if s["session"] != session["guid"]:
                    continue
                movement = self.movements[s["letters"]]
                method = SCORING_METHODS.get(methods.get((s["session"], s["group"]), 0), "?")
                lines.append(f"  Section {s['letters']}: {len(movement.pairs)} pairs, "
                             f"{movement.rounds} rounds, boards {ranges(movement.boards) or '-'}"
                             f", {method}, tables "
                             + ", ".join(f"{s['letters']}{t}" for t in s["tables"]))
        deals = sorted(int(b) for b in doc["deals"])
        lines.append(f"Boards: hand records for {ranges(deals)}" if deals
                     else "Boards: no hand records yet")
        return lines


_LAWS: dict[str, Any] = {"edition": "2017", "minutes_per_round": 15.0,
                         "clock_tolerance": 120.0, "strict": False}


def empty_doc(laws: Mapping[str, Any]) -> dict[str, Any]:
    return {"bridgemate": BridgemateSetup.VERSION, "event": "", "club": "",
            "laws": dict(laws), "sessions": [], "groups": [], "sections": [], "players": [],
            "seating": [], "deals": {}}


def laws_of(setup: Any) -> dict[str, Any]:
    """The Laws settings of the set-up the hub runs (kept when a scoring program takes over)."""
    if isinstance(setup, BridgemateSetup):
        return dict(setup.doc["laws"])
    strict = getattr(setup, "strict", False)
    return {"edition": str(getattr(setup, "edition", _LAWS["edition"])),
            "minutes_per_round": float(getattr(setup, "minutes_per_round",
                                               _LAWS["minutes_per_round"])),
            "clock_tolerance": getattr(setup, "clock_tolerance", _LAWS["clock_tolerance"]),
            "strict": strict is True}


def lost_play(room: Room, setup: BridgemateSetup) -> list[str]:
    """What the room has played that ``setup`` would drop or contradict."""
    out: list[str] = []
    places = setup.places()
    for tid, table in room.tables.items():
        for number, board in sorted(table.sittings):
            where = f"table {tid}, round {number}, board {board}"
            if tid not in places:
                out.append(f"{where} has been started: the table cannot be removed")
                continue
            _, letters, n = places[tid]
            a = setup.movements[letters].assignment(number, n)
            if a is None or board not in a.boards:
                out.append(f"{where} has been started: the movement must keep it there")
            old, new = room.deal(board), setup.deal(board)
            if old is not None and new != old:
                out.append(f"{where} has been started with its hand record: it cannot change")
            elif old is None and new is not None and table.strict:
                out.append(f"{where} has been started in strict mode without a hand record: "
                           "the cards were checked without one")
    return out
