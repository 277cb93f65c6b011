"""What a scoring program sends the Data Connector (hub.bridgemate), read and checked.

:func:`read_request` checks a POSTed ScoringProgramRequest (``Command``, ``ClubId``,
``LicenceKey``, ``SessionGuid``, ``SerializedData``) and :func:`command_data` decodes its
SerializedData: the command's DTO as JSON text. The ``read_*`` functions read the DTOs
(SessionDTO, SectionDTO and SectionUpdateDTO with their tables and rounds, PlayerDataDTO,
ParticipationDTO, HandrecordDTO) into the event document of hub.bridgemate.setup, through
:class:`Fields`: each problem is noted with its path (``Sessions[0].ScoringGroups[0]
.Sections[0].Tables[2].Rounds[1].PairEW``) and reading goes on, so that a request is
refused with every problem at once (:func:`refuse`). Refusals are
:class:`hub.bridgemate.model.BridgemateError`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from bridgecore.deal import Deal
from hub.bridgemate.model import SCORING_METHODS, BridgemateError, ErrorType, shown

__all__ = ["Fields", "add_people", "command_data", "put_items", "put_seat", "read_deal",
           "read_player", "read_request", "read_seat", "read_section", "read_session",
           "refuse", "upsert_player"]

_GUID = re.compile(r"^[0-9A-F]{32}$")
_LETTERS = re.compile(r"^([A-Z])\1{0,2}$")
_RANKS = "AKQJT98765432"
_SEATS = ("North", "East", "South", "West")
_SUITS = ("Spades", "Hearts", "Diamonds", "Clubs")      # PBN order


class Fields:
    """One DTO being read: each problem is noted with its path, and reading goes on, so a
    request gets every problem at once."""

    def __init__(self, data: Any, path: str, problems: list[str]):
        self.path = path
        self.problems = problems
        if not isinstance(data, Mapping):
            self.note(None, f"an object is expected, not {shown(data)}")
            data = {}
        self.data: Mapping[str, Any] = data

    def note(self, name: str | None, text: str) -> None:
        where = ".".join(p for p in (self.path, name) if p)
        self.problems.append(f"{where}: {text}" if where else text)

    def whole(self, name: str, least: int | None = None, most: int | None = None,
              allowed: Iterable[int] | None = None) -> int:
        value = self.data.get(name)
        if value is None:
            value = 0                                      # the DTOs' default
        if isinstance(value, bool) or not isinstance(value, int):
            self.note(name, f"a whole number is expected, not {shown(value)}")
            return 0
        choices = None if allowed is None else sorted(allowed)
        if choices is not None and value not in choices:
            self.note(name, f"{value} is not one of {', '.join(map(str, choices))}")
        elif least is not None and value < least:
            self.note(name, f"{value}: at least {least}")
        elif most is not None and value > most:
            self.note(name, f"{value}: at most {most}")
        return value

    def text(self, name: str, required: bool = False) -> str | None:
        value = self.data.get(name)
        if value is not None and not isinstance(value, str):
            self.note(name, f"text is expected, not {shown(value)}")
            return None
        if required and (value is None or not value.strip()):
            self.note(name, "required")
        return value

    def flag(self, name: str) -> bool:
        value = self.data.get(name)
        if value is None:
            return False
        if not isinstance(value, bool):
            self.note(name, f"true or false is expected, not {shown(value)}")
            return False
        return value

    def guid(self, name: str, required: bool = True) -> str:
        value = self.data.get(name)
        if value is None and not required:
            return ""
        if not isinstance(value, str) or not _GUID.match(value):
            self.note(name, f"{shown(value)} is not a guid: 32 characters 0-9 and capital A-F")
            return ""
        return value

    def letters(self, name: str) -> str:
        value = self.data.get(name)
        if not isinstance(value, str) or not _LETTERS.match(value):
            self.note(name, f"{shown(value)} are not section letters: A-Z, AA-ZZ or AAA-ZZZ")
            return ""
        return value

    def same(self, name: str, expected: Any) -> None:
        value = self.data.get(name)
        if value != expected:
            self.note(name, f"{shown(value)} differs from {shown(expected)} above it")

    def objects(self, name: str) -> list[Fields]:
        value = self.data.get(name)
        if value is None:
            return []
        if not isinstance(value, list):
            self.note(name, f"a list is expected, not {shown(value)}")
            return []
        base = f"{self.path}.{name}" if self.path else name
        return [Fields(item, f"{base}[{i}]", self.problems) for i, item in enumerate(value)]


def put_items(payload: Any, what: str, problems: list[str]) -> list[Fields]:
    """The DTOs of a Put command: a non-empty list (NoData otherwise)."""
    if not isinstance(payload, list):
        raise BridgemateError(ErrorType.VALIDATION,
                              f"a list of {what} is expected, not {shown(payload)}")
    if not payload:
        raise BridgemateError(ErrorType.NO_DATA, f"no {what} sent")
    return [Fields(item, f"{what}[{i}]", problems) for i, item in enumerate(payload)]


def refuse(what: str, problems: list[str]) -> BridgemateError:
    head = f"{what} refused: "
    if len(problems) == 1:
        return BridgemateError(ErrorType.VALIDATION, head + problems[0])
    return BridgemateError(ErrorType.VALIDATION,
                           f"{head}{len(problems)} problems:\n" + "\n".join(problems))


def read_session(f: Fields, doc: dict[str, Any], event: str) -> None:
    session = f.guid("SessionGuid")
    own_event = f.guid("EventGuid", required=False)
    if own_event and event and own_event != event:
        f.note("EventGuid", f"{own_event} is not the event's {event}")
    name = f.text("Name", required=True) or ""
    when = [f.whole("Year", least=2000), f.whole("Month", 1, 12), f.whole("Day", 1, 31),
            f.whole("Hour", 0, 23), f.whole("Minute", 0, 59)]
    if when[0] >= 2000 and 1 <= when[1] <= 12 and 1 <= when[2] <= 31:
        try:
            date(when[0], when[1], when[2])
        except ValueError:
            f.note("Day", f"there is no date {when[0]}-{when[1]:02d}-{when[2]:02d}")
    groups = f.objects("ScoringGroups")
    if not groups:
        f.note("ScoringGroups", "a session needs at least one scoring group")
    doc["sessions"].append({"guid": session, "name": name, "date": when})
    for g in groups:
        g.same("SessionGuid", session)
        number = g.whole("ScoringGroupNumber", least=1)
        method = g.whole("ScoringMethod", allowed=SCORING_METHODS)
        doc["groups"].append({"session": session, "number": number, "method": method,
                              "name": g.text("Name") or ""})
        sections = g.objects("Sections")
        if not sections:
            g.note("Sections", "a scoring group needs at least one section")
        for s in sections:
            s.same("ScoringGroupNumber", number)
            doc["sections"].append(read_section(s, session, number))


def read_section(f: Fields, session: str, group: int) -> dict[str, Any]:
    """A SectionDTO or SectionUpdateDTO (its tables and rounds: the movement)."""
    f.same("SessionGuid", session)
    letters = f.letters("Letters")
    game = f.whole("GameType", allowed=(10, 20, 30))
    if game == 20:
        f.note("GameType", "individual sections (20) are not supported: the hub seats pairs")
    if f.flag("IsCombiSection"):
        f.note("IsCombiSection", "combined sections are not supported")
    section: dict[str, Any] = {
        "session": session, "group": group, "letters": letters, "name": f.text("Name") or "",
        "winners": f.whole("Winners", allowed=(1, 2)), "game_type": game,
        "missing_pair": f.whole("MissingPair"), "tables": [], "rounds": []}
    for t in f.objects("Tables"):
        t.same("SessionGuid", session)
        t.same("SectionLetters", letters)
        number = t.whole("TableNumber", least=1)
        section["tables"].append(number)
        for r in t.objects("Rounds"):
            r.same("SessionGuid", session)
            r.same("SectionLetters", letters)
            r.same("TableNumber", number)
            section["rounds"].append(_read_round(r, number))
    return section


def _read_round(f: Fields, table: int) -> list[int]:
    """A RoundDTO as [table, round, NS, EW, low board, high board, team NS, team EW]."""
    number = f.whole("RoundNumber", least=1)
    ns, ew = f.whole("PairNS", least=0), f.whole("PairEW", least=0)
    low, high = f.whole("LowBoardNumber", least=0), f.whole("HighBoardNumber", least=0)
    if (ns == 0 or ew == 0) and (low or high):
        f.note(None, "a sit-out or an empty table (PairNS or PairEW 0) has no boards")
    elif ns and ew and (low < 1 or high < low):
        f.note(None, f"boards {low}-{high}: LowBoardNumber from 1, HighBoardNumber from "
                     "LowBoardNumber")
    if ns and ns == ew:
        f.note("PairEW", f"pair {ns} on both sides of the table")
    return [table, number, ns, ew, low, high, f.whole("TeamNS", least=0),
            f.whole("TeamEW", least=0)]


def read_player(f: Fields, sessions: Iterable[str]) -> dict[str, Any]:
    session = f.guid("SessionGuid")
    if session and session not in sessions:
        f.note("SessionGuid", f"no session {session} in the event")
    return {"session": session, "number": (f.text("PlayerNumber", required=True) or "").strip(),
            "first": f.text("FirstName") or "", "last": f.text("LastName", required=True) or "",
            "country": f.text("CountryCode") or ""}


def read_seat(f: Fields, doc: dict[str, Any], players: set[tuple[str, str]]
               ) -> dict[str, Any]:
    """A ParticipationDTO: who sits where (round 0 and 1 are both the first round)."""
    session = f.guid("SessionGuid")
    letters = f.letters("SectionLetters")
    table = f.whole("TableNumber", least=1)
    section = next((s for s in doc["sections"]
                    if s["session"] == session and s["letters"] == letters), None)
    if section is None and session and letters:
        f.note("SectionLetters", f"no section {letters} in session {session}")
    elif section is not None and table and table not in section["tables"]:
        f.note("TableNumber", f"no table {table} in section {letters}")
    seat = {"session": session, "letters": letters, "table": table,
            "direction": f.whole("Direction", 1, 4),
            "round": max(1, f.whole("RoundNumber", least=0)),
            "number": (f.text("PlayerNumber") or "").strip(), "first": f.text("FirstName") or "",
            "last": (f.text("LastName") or "").strip(), "country": f.text("CountryCode") or "",
            "swap": f.flag("IsPlayerSwap"), "removal": f.flag("IsRemoval")}
    if seat["removal"]:
        if seat["number"] or seat["last"]:
            f.note("IsRemoval", "a removal names no player")
    elif bool(seat["number"]) == bool(seat["last"]):
        f.note("PlayerNumber", "give either the PlayerNumber or the LastName, one of them")
    elif seat["number"] and (session, seat["number"]) not in players:
        f.note("PlayerNumber", f"player {seat['number']} has no player data")
    return seat


def read_deal(f: Fields, doc: dict[str, Any], deals: dict[int, str],
               origin: dict[int, str]) -> None:
    """A HandrecordDTO into ``deals`` (board -> PBN deal); one deal per board number."""
    before = len(f.problems)
    session = f.guid("SessionGuid")
    f.whole("ScoringGroupNumber", least=1)
    letters = f.letters("SectionLetters")
    if session and letters and not any(s["session"] == session and s["letters"] == letters
                                       for s in doc["sections"]):
        f.note("SectionLetters", f"no section {letters} in session {session}")
    board = f.whole("BoardNumber", least=1)
    hands = []
    for seat in _SEATS:
        suits = []
        for suit in _SUITS:
            text = f.data.get(seat + suit)
            if not isinstance(text, str):
                f.note(seat + suit, f"ranks from {_RANKS} are expected ('' for a void), not "
                                    f"{shown(text)}")
                continue
            holding = text.upper()
            wrong = sorted(set(holding) - set(_RANKS))
            if wrong:
                f.note(seat + suit, f"{text!r}: not ranks {', '.join(map(repr, wrong))}")
            elif len(set(holding)) != len(holding):
                f.note(seat + suit, f"{text!r}: a rank twice")
            suits.append(holding)
        hands.append(".".join(suits))
    if len(f.problems) > before:
        return
    deal = Deal.parse("N:" + " ".join(hands), complete=False)
    for problem in deal.problems():
        f.note(None, f"board {board}: {problem}")
    if len(f.problems) > before:
        return
    pbn = deal.pbn()
    if deals.get(board, pbn) != pbn:
        f.note(None, f"board {board} has another deal in {origin[board]}: sections playing "
                     "the same board number play the same deal")
        return
    deals[board] = pbn
    origin[board] = f.path


def put_seat(seating: list[dict[str, Any]], seat: dict[str, Any]) -> None:
    """Apply one participation to the seating: sit, swap with partner, or leave."""
    def key(s: Mapping[str, Any], direction: int) -> bool:
        return (s["session"], s["letters"], s["table"], s["round"], s["direction"]) == (
            seat["session"], seat["letters"], seat["table"], seat["round"], direction)

    here = seat["direction"]
    partner = (here + 1) % 4 + 1           # N <-> S, E <-> W
    old = next((s for s in seating if key(s, here)), None)
    seating[:] = [s for s in seating if not key(s, here)]
    if seat["removal"]:
        return
    if seat["swap"]:
        seating[:] = [s for s in seating if not key(s, partner)]
        if old is not None:
            seating.append(dict(old, direction=partner))
    seating.append({k: v for k, v in seat.items() if k not in ("swap", "removal")})


def upsert_player(doc: dict[str, Any], player: dict[str, Any]) -> None:
    doc["players"] = [p for p in doc["players"]
                      if (p["session"], p["number"]) != (player["session"], player["number"])]
    doc["players"].append(player)


def add_people(f: Fields, doc: dict[str, Any], players: str, seats: str) -> None:
    """An InitDTO's player data and participations into ``doc``."""
    sessions = [s["guid"] for s in doc["sessions"]]
    seen: set[tuple[str, str]] = set()
    for p in f.objects(players):
        player = read_player(p, sessions)
        key = (player["session"], player["number"])
        if key in seen and player["number"]:
            p.note("PlayerNumber", f"player {player['number']} is given twice")
        seen.add(key)
        upsert_player(doc, player)
    for s in f.objects(seats):
        put_seat(doc["seating"], read_seat(s, doc, seen))


def read_request(body: bytes) -> dict[str, Any]:
    """The ScoringProgramRequest in ``body``, checked (BridgemateError: HTTP 400)."""
    try:
        obj = json.loads(body.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as err:
        raise BridgemateError(ErrorType.VALIDATION, f"the request is not JSON: {err}") \
            from None
    if not isinstance(obj, dict):
        raise BridgemateError(ErrorType.VALIDATION, "the request is not a "
                              f"ScoringProgramRequest object but {shown(obj)}")
    problems: list[str] = []
    f = Fields(obj, "", problems)
    if "Command" not in obj:
        f.note("Command", "required")
    f.whole("Command", least=0)
    for name in ("ClubId", "LicenceKey"):
        f.text(name, required=True)
    f.text("SessionGuid")
    f.text("SerializedData")
    if problems:
        raise BridgemateError(ErrorType.VALIDATION, "not a ScoringProgramRequest: "
                              + "; ".join(problems))
    return {"Command": obj.get("Command") or 0, "ClubId": obj["ClubId"],
            "SessionGuid": obj.get("SessionGuid") or "",
            "SerializedData": obj.get("SerializedData") or ""}


def command_data(request: Mapping[str, Any]) -> Any:
    """The command's data: SerializedData is JSON text holding it."""
    text = request["SerializedData"]
    if not text.strip():
        raise BridgemateError(ErrorType.NO_DATA, "SerializedData is empty: this command "
                              "comes with data")
    try:
        return json.loads(text)
    except ValueError as err:
        raise BridgemateError(ErrorType.VALIDATION, f"SerializedData is not JSON: {err}") \
            from None
