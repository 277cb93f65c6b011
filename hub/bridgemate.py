"""Bridgemate compatibility: the hub answers the Bridgemate Data Connector HTTP API (BCS 5).

A scoring program written for Bridgemate talks to the Data Connector of Bridgemate Control
Software (formats.md 3.2); :class:`DataConnector` answers it in its place, on the hub's
asyncio loop (standard library only, one request per connection), so that the scoring
program sets up and reads a Tenace room as it would a room of Bridgemates.

HTTP: ``GET /`` answers the banner the clients look for (``Bridgemate dataconnector service
version``); every command is ``POST /dc-scoringprogram`` with a ScoringProgramRequest
(``Command``, ``ClubId``, ``LicenceKey``, ``SessionGuid``, ``SerializedData``: a JSON string
holding the command's DTO) and gets a ScoringProgramResponse (``RequestCommand``,
``DataType``, ``LastQueueItemId``, ``ErrorType``, ``SessionGuid``, ``SerializedData``).

The commands answered (numbers of ScoringProgramDataConnectorCommands):

* 1 Connect, 3 Disconnect, 4 Ping (echoes its data);
* 5 InitializeEvent (InitDTO: sessions, scoring groups, sections, tables, rounds, and the
  optional player data, participations and hand records): the room becomes this event
  (``Hub.replace_setup``): section letters + table number are the hub's table ids (``A1``),
  the rounds are the movement (RoundDTO: pairs, board range; pair 0 = empty seat), the
  hand records are the deals. Refused once a board has been started in the room: a new
  event needs a new data directory. The same InitDTO again is a no-op (a client's retry);
* 31 ContinueEvent: the event the hub runs, by its event guid (or its only session's);
* 6 UpdateMovement (SectionUpdateDTO: add, replace or delete a section), 7 AddSession,
  8 UpdateScoringGroups, 11 PutPlayerData, 12 PutParticipations, 13 PutHandrecords: the
  set-up changes and the room is rebuilt with every record of the session replayed into it,
  so nothing played is lost. Refused when the change would drop play: a table or a board
  already started there, or another hand record for a board already started (one with no
  hand record may get one, unless a table in strict mode started it);
* 14, 15 PutBridgemate2/3Settings: acknowledged; they set up Bridgemate devices and have no
  effect on Tenace tablets;
* 19/23 PollQueueFor{New,All}Results, 27 AcceptResultQueueItems: each board's result as
  the hub records it (``TableState.result``, what it publishes on ``result/{table}/{round}/
  {board}``): pairs (as checked in, else the movement's), declarer, contract, tricks as
  played, the opening lead; a passed-out board is level 0. A result that changes is queued
  again. The score is left to the scoring program (a ResultDTO has no score);
* 20/24 PlayerData, 21/25 Participations (28, 29 accept): the players the tablets checked
  in (``checkin`` ``players`` [{number, name}]: the first sits North or East, the second
  South or West; the name is split at its first space into first and last name);
* 36/37 PollQueueFor{New,All}TdCalls, 38 AcceptTdCallQueueItems: the hub's director
  alerts of kind ``director_call`` (status: open = Launched, acknowledged = InProgress,
  ruled or resolved = Resolved; hour and minute of detection, local time);
* 35 ClearData: everything queued so far counts as delivered and accepted.

Not answered (ErrorType NotImplemented, with the reason): 10 PutResults and 39 PutTdCalls
(results come from the tables, calls are answered on the director's console), 22/26/30
hand records back from the tables, 32-34 GetMovement, GetAllMovements, ManageBCS, and the
commands BCS itself does not support. Individual (GameType 20) and combined sections are
refused: the hub seats pairs. Sections playing the same board number play the same deal.

Queues: a poll for new items first delivers what changed since the last delivery, each
item with an id never used again, then answers every item not yet accepted
(``LastQueueItemId``: the last id delivered); an accept up to an id means those are not
sent again; a poll for all answers the latest item of every key.
Deliveries and acceptances are facts of the event log (``bridgemate_delivered``,
``bridgemate_accepted``), written before the answer: after a restart nothing accepted is
sent again and nothing delivered is forgotten. A new event starts empty queues.

Errors: a request that is not a ScoringProgramRequest (not JSON, not an object, a field of
the wrong type, ClubId or LicenceKey missing) gets HTTP 400, an unknown path 404, another
method 405, each with a ScoringProgramResponse whose ``DataType`` is Error (4) and whose
``SerializedData`` says what was wrong. A well-formed request the hub refuses (a DTO with
problems: every problem at once, each with its path such as ``Sessions[0].ScoringGroups[0]
.Sections[0].Tables[2].Rounds[1].PairEW``; an unknown session; a change that would drop
play) gets HTTP 200 with DataType Error, the ErrorType (Validation, EntryUnknown, NoData,
NotImplemented, Exception) and the message, as the Data Connector answers: the client
libraries retry a non-2xx answer and would hide the message. Every refusal is logged and
changes nothing. There is no licence check: ClubId and LicenceKey are only required, so
bind the server to a loopback or the club's own network (``host``).

Exceptions: :class:`BridgemateError` (a :class:`hub.errors.HubError`) carries the
ErrorType of a refused command.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import re
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from datetime import date
from enum import IntEnum
from typing import Any, Protocol

from bridgecore.cards import Seat, Side
from bridgecore.deal import Deal
from bridgecore.editions import edition as laws_edition
from bridgecore.errors import BridgeError
from bridgecore.movements import Assignment, Movement, ranges
from hub.alerts import AlertStatus, HubKind
from hub.errors import ConfigError, HubError
from hub.room import Room, Section
from hub.service import SETUP_FACT, SETUP_REPLACED
from hub.store import EventLog, Record, StoreError
from wire.protocol import ProtocolError, topic_state

__all__ = ["DEFAULT_PORT", "BridgemateError", "BridgemateSetup", "DataConnector"]

log = logging.getLogger(__name__)

DEFAULT_PORT = 5079
ENDPOINT = "/dc-scoringprogram"
BANNER = "Bridgemate dataconnector service version 5 (Tenace hub)"
MAX_HEAD = 16 * 1024
MAX_BODY = 8 * 1024 * 1024       # an InitDTO with player data and hand records fits easily
DELIVERED = "bridgemate_delivered"
ACCEPTED = "bridgemate_accepted"
SCORING_METHODS = {10: "matchpoints", 20: "Butler IMPs", 21: "Butler IMPs", 22: "Butler IMPs",
                   25: "Butler IMPs", 26: "Butler IMPs", 27: "Butler IMPs", 30: "cross-IMPs",
                   31: "cross-IMPs", 35: "cross-IMPs", 36: "cross-IMPs", 40: "team IMPs",
                   50: "VPs", 51: "VPs", 60: "board-a-match", 70: "Patton"}
_GUID = re.compile(r"^[0-9A-F]{32}$")
_LETTERS = re.compile(r"^([A-Z])\1{0,2}$")
_RANKS = "AKQJT98765432"
_SEATS = ("North", "East", "South", "West")
_SUITS = ("Spades", "Hearts", "Diamonds", "Clubs")      # PBN order
_REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed",
            408: "Request Timeout", 411: "Length Required", 413: "Payload Too Large",
            431: "Request Header Fields Too Large", 500: "Internal Server Error"}


class Command(IntEnum):
    """ScoringProgramDataConnectorCommands: the wire numbers, by their wire names."""

    None_ = 0
    Connect = 1
    StopBCS = 2
    Disconnect = 3
    Ping = 4
    InitializeEvent = 5
    UpdateMovement = 6
    AddSession = 7
    UpdateScoringGroups = 8
    PutTableGraph = 9
    PutResults = 10
    PutPlayerData = 11
    PutParticipations = 12
    PutHandrecords = 13
    PutBridgemate2Settings = 14
    PutBridgemate3Settings = 15
    UpdateSession = 16
    UpdateSection = 17
    UpdateTable = 18
    PollQueueForNewResults = 19
    PollQueueForNewPlayerData = 20
    PollQueueForNewParticipations = 21
    PollQueueForNewHandrecords = 22
    PollQueueForAllResults = 23
    PollQueueForAllPlayerData = 24
    PollQueueForAllParticipations = 25
    PollQueueForAllHandrecords = 26
    AcceptResultQueueItems = 27
    AcceptPlayerDataQueueItems = 28
    AcceptParticipantQueueItems = 29
    AcceptHandrecordQueueItems = 30
    ContinueEvent = 31
    GetMovement = 32
    GetAllMovements = 33
    ManageBCS = 34
    ClearData = 35
    PollQueueForNewTdCalls = 36
    PollQueueForAllTdCalls = 37
    AcceptTdCallQueueItems = 38
    PutTdCalls = 39
    TestData = 40


class DataType(IntEnum):
    """DataConnectorResponseData: what a response's SerializedData holds."""

    OK = 1
    ERROR = 4
    PLAYER_DATA = 10
    PARTICIPATIONS = 11
    RESULTS = 12
    TD_CALLS = 21


class ErrorType(IntEnum):
    """ErrorType: why a request failed."""

    NONE = 0
    NO_DATA = 2
    VALIDATION = 5
    ENTRY_UNKNOWN = 6
    EXCEPTION = 7
    NOT_IMPLEMENTED = 8


# The queues: kind -> its data type, the commands that poll it (new, all) and accept it.
_QUEUES = {"results": DataType.RESULTS, "player_data": DataType.PLAYER_DATA,
           "participations": DataType.PARTICIPATIONS, "td_calls": DataType.TD_CALLS}
_POLLS = {Command.PollQueueForNewResults: ("results", False),
          Command.PollQueueForAllResults: ("results", True),
          Command.PollQueueForNewPlayerData: ("player_data", False),
          Command.PollQueueForAllPlayerData: ("player_data", True),
          Command.PollQueueForNewParticipations: ("participations", False),
          Command.PollQueueForAllParticipations: ("participations", True),
          Command.PollQueueForNewTdCalls: ("td_calls", False),
          Command.PollQueueForAllTdCalls: ("td_calls", True)}
_ACCEPTS = {Command.AcceptResultQueueItems: "results",
            Command.AcceptPlayerDataQueueItems: "player_data",
            Command.AcceptParticipantQueueItems: "participations",
            Command.AcceptTdCallQueueItems: "td_calls"}
_NOT_ANSWERED = {
    Command.PutResults: "results come from the tables; adjusted scores are the director's, "
                        "on the console",
    Command.PutTdCalls: "director calls are answered on the director's console",
    Command.PollQueueForNewHandrecords: "the tables send no hand records back",
    Command.PollQueueForAllHandrecords: "the tables send no hand records back",
    Command.AcceptHandrecordQueueItems: "the tables send no hand records back",
}
_SETTINGS = (Command.PutBridgemate2Settings, Command.PutBridgemate3Settings)
_TD_STATUS = {AlertStatus.OPEN: 1, AlertStatus.ACKNOWLEDGED: 2, AlertStatus.RULED: 3,
              AlertStatus.RESOLVED: 3}


class BridgemateError(HubError):
    """A command the hub refuses: its ErrorType and the message for the scoring program."""

    def __init__(self, error: ErrorType, message: str):
        super().__init__(message)
        self.error = error
        self.message = message


def _shown(value: Any) -> str:
    return repr(value) if isinstance(value, str | int | float | bool) or value is None \
        else type(value).__name__


# Reading DTOs -----------------------------------------------------------------------------

class _Fields:
    """One DTO being read: each problem is noted with its path, and reading goes on, so a
    request gets every problem at once."""

    def __init__(self, data: Any, path: str, problems: list[str]):
        self.path = path
        self.problems = problems
        if not isinstance(data, Mapping):
            self.note(None, f"an object is expected, not {_shown(data)}")
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
            self.note(name, f"a whole number is expected, not {_shown(value)}")
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
            self.note(name, f"text is expected, not {_shown(value)}")
            return None
        if required and (value is None or not value.strip()):
            self.note(name, "required")
        return value

    def flag(self, name: str) -> bool:
        value = self.data.get(name)
        if value is None:
            return False
        if not isinstance(value, bool):
            self.note(name, f"true or false is expected, not {_shown(value)}")
            return False
        return value

    def guid(self, name: str, required: bool = True) -> str:
        value = self.data.get(name)
        if value is None and not required:
            return ""
        if not isinstance(value, str) or not _GUID.match(value):
            self.note(name, f"{_shown(value)} is not a guid: 32 characters 0-9 and capital A-F")
            return ""
        return value

    def letters(self, name: str) -> str:
        value = self.data.get(name)
        if not isinstance(value, str) or not _LETTERS.match(value):
            self.note(name, f"{_shown(value)} are not section letters: A-Z, AA-ZZ or AAA-ZZZ")
            return ""
        return value

    def same(self, name: str, expected: Any) -> None:
        value = self.data.get(name)
        if value != expected:
            self.note(name, f"{_shown(value)} differs from {_shown(expected)} above it")

    def objects(self, name: str) -> list[_Fields]:
        value = self.data.get(name)
        if value is None:
            return []
        if not isinstance(value, list):
            self.note(name, f"a list is expected, not {_shown(value)}")
            return []
        base = f"{self.path}.{name}" if self.path else name
        return [_Fields(item, f"{base}[{i}]", self.problems) for i, item in enumerate(value)]


def _items(payload: Any, what: str, problems: list[str]) -> list[_Fields]:
    """The DTOs of a Put command: a non-empty list (NoData otherwise)."""
    if not isinstance(payload, list):
        raise BridgemateError(ErrorType.VALIDATION,
                              f"a list of {what} is expected, not {_shown(payload)}")
    if not payload:
        raise BridgemateError(ErrorType.NO_DATA, f"no {what} sent")
    return [_Fields(item, f"{what}[{i}]", problems) for i, item in enumerate(payload)]


def _refuse(what: str, problems: list[str]) -> BridgemateError:
    head = f"{what} refused: "
    if len(problems) == 1:
        return BridgemateError(ErrorType.VALIDATION, head + problems[0])
    return BridgemateError(ErrorType.VALIDATION,
                           f"{head}{len(problems)} problems:\n" + "\n".join(problems))


def _read_session(f: _Fields, doc: dict[str, Any], event: str) -> None:
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
            doc["sections"].append(_read_section(s, session, number))


def _read_section(f: _Fields, session: str, group: int) -> dict[str, Any]:
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


def _read_round(f: _Fields, table: int) -> list[int]:
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


def _read_player(f: _Fields, sessions: Iterable[str]) -> dict[str, Any]:
    session = f.guid("SessionGuid")
    if session and session not in sessions:
        f.note("SessionGuid", f"no session {session} in the event")
    return {"session": session, "number": (f.text("PlayerNumber", required=True) or "").strip(),
            "first": f.text("FirstName") or "", "last": f.text("LastName", required=True) or "",
            "country": f.text("CountryCode") or ""}


def _read_seat(f: _Fields, doc: dict[str, Any], players: set[tuple[str, str]]
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


def _read_deal(f: _Fields, doc: dict[str, Any], deals: dict[int, str],
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
                                    f"{_shown(text)}")
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


def _put_seat(seating: list[dict[str, Any]], seat: dict[str, Any]) -> None:
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


# The set-up -------------------------------------------------------------------------------

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
        if not str(number).isdigit():
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
        return cls(_empty_doc(laws or _LAWS))

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


def _empty_doc(laws: Mapping[str, Any]) -> dict[str, Any]:
    return {"bridgemate": BridgemateSetup.VERSION, "event": "", "club": "",
            "laws": dict(laws), "sessions": [], "groups": [], "sections": [], "players": [],
            "seating": [], "deals": {}}


def _laws_of(setup: Any) -> dict[str, Any]:
    """The Laws settings of the set-up the hub runs (kept when a scoring program takes over)."""
    if isinstance(setup, BridgemateSetup):
        return dict(setup.doc["laws"])
    strict = getattr(setup, "strict", False)
    return {"edition": str(getattr(setup, "edition", _LAWS["edition"])),
            "minutes_per_round": float(getattr(setup, "minutes_per_round",
                                               _LAWS["minutes_per_round"])),
            "clock_tolerance": getattr(setup, "clock_tolerance", _LAWS["clock_tolerance"]),
            "strict": strict is True}


def _lost_play(room: Room, setup: BridgemateSetup) -> list[str]:
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


# The hub ----------------------------------------------------------------------------------

class BridgemateHub(Protocol):
    """What the Data Connector needs of the hub (hub.service.Hub)."""

    room: Room
    setup: Any
    log: EventLog
    listeners: list[Callable[[str, Any], None]]

    def replace_setup(self, setup: Any, *, keep_play: bool) -> None: ...
    def hub_time(self) -> float: ...


class _Queue:
    """One session's queue of one kind: the latest item delivered per key, the last id
    delivered, the last id accepted."""

    def __init__(self) -> None:
        self.delivered: dict[tuple[Any, ...], tuple[int, dict[str, Any]]] = {}
        self.last = 0
        self.accepted = 0


def _split(name: str) -> tuple[str, str]:
    first, _, last = name.strip().partition(" ")
    return (first, last.strip()) if last.strip() else ("", first)


class DataConnector:
    """The Data Connector for ``hub`` (module docstring): ``await start()``, ``url``,
    ``handle(body)``, ``await stop()``."""

    def __init__(self, hub: BridgemateHub, host: str = "127.0.0.1", port: int = DEFAULT_PORT,
                 *, timeout: float = 10.0):
        self.hub = hub
        self.host = host
        self.port = port
        self.timeout = timeout
        self._server: asyncio.Server | None = None
        self._requests: set[asyncio.Task[Any]] = set()
        self._queues: dict[tuple[str, str], _Queue] = {}
        self._next_id = 1
        self._places: dict[str, tuple[str, str, int]] = {}
        self._results: dict[tuple[str, int, int], dict[str, Any]] = {}

    # Life --------------------------------------------------------------------------------
    async def start(self) -> None:
        self._load()
        self._rescan()
        self.hub.listeners.append(self._changed)
        self._server = await asyncio.start_server(self._serve, self.host, self.port,
                                                  limit=MAX_HEAD)
        self.port = self._server.sockets[0].getsockname()[1]
        log.info("Bridgemate Data Connector on %s", self.url)

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    async def stop(self) -> None:
        """Close the server (idempotent)."""
        with contextlib.suppress(ValueError):
            self.hub.listeners.remove(self._changed)
        server, self._server = self._server, None
        if server is None:
            return
        server.close()
        for task in list(self._requests):
            task.cancel()
        for task in list(self._requests):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await server.wait_closed()

    def _load(self) -> None:
        """The queues as the log has them: what the current event delivered and accepted."""
        for record in self.hub.log.replay():
            if record.type == SETUP_FACT or (record.type == SETUP_REPLACED
                                             and not record.data()["keep_play"]):
                self._queues.clear()
            elif record.type == DELIVERED:
                body = record.data()
                queue = self._queue(body["session"], body["kind"])
                for item_id, key, dto in body["items"]:
                    queue.delivered[tuple(key)] = (item_id, dto)
                    queue.last = max(queue.last, item_id)
                    self._next_id = max(self._next_id, item_id + 1)
            elif record.type == ACCEPTED:
                body = record.data()
                queue = self._queue(body["session"], body["kind"])
                queue.accepted = max(queue.accepted, body["upto"])

    def _queue(self, session: str, kind: str) -> _Queue:
        queue = self._queues.get((session, kind))
        if queue is None:
            queue = self._queues[session, kind] = _Queue()
        return queue

    def _rescan(self) -> None:
        """Every result of the room again (on start, and after the set-up changed)."""
        setup = self.hub.setup
        self._places = setup.places() if isinstance(setup, BridgemateSetup) else {}
        self._results = {}
        for tid, table in self.hub.room.tables.items():
            for number, board in table.sittings:
                self._result_changed((tid, number, board))

    def _changed(self, what: str, data: Any) -> None:
        """The hub's listener: a board's result was published (on the loop)."""
        if what == "result":
            self._result_changed((data["table"], data["round"], data["board"]))

    def _result_changed(self, key: tuple[str, int, int]) -> None:
        dto = self._result_dto(key)
        if dto is None:
            self._results.pop(key, None)
        else:
            self._results[key] = dto

    # What the room holds, as DTOs ------------------------------------------------------------
    def _result_dto(self, key: tuple[str, int, int]) -> dict[str, Any] | None:
        tid, number, board = key
        place = self._places.get(tid)
        table = self.hub.room.tables.get(tid)
        sitting = None if table is None else table.sittings.get((number, board))
        if place is None or table is None or sitting is None:
            return None
        result = table.result(sitting)
        if result is None:
            return None
        ns, ew = (p or 0 for p in table.pairs(number))
        dto = {"SessionGuid": place[0], "SectionLetters": place[1], "TableNumber": place[2],
               "RoundNumber": number, "BoardNumber": board, "ScoringDirection": 3,
               "IsDeleted": False, "PairNorthSouth": ns, "PairEastWest": ew,
               "DeclaringPair": ns, "DeclarerDirection": 0, "Level": 0, "Denomination": 0,
               "Stake": 0, "TotalTricks": 0, "LeadCardRank": 0, "LeadCardSuit": 0,
               "ValidationMessages": None}
        play = sitting.board.play
        if play is not None:
            contract, declarer = play.contract, play.declarer
            dto.update(DeclaringPair=ns if declarer in (Seat.NORTH, Seat.SOUTH) else ew,
                       DeclarerDirection=int(declarer) + 1, Level=contract.level,
                       Denomination=int(contract.strain) + 1, Stake=int(contract.risk),
                       TotalTricks=result["tricks"])
            tricks = play.tricks
            lead = tricks[0].card_of(tricks[0].leader) if tricks else None
            if lead is not None:
                dto.update(LeadCardRank=int(lead.rank), LeadCardSuit=int(lead.suit) + 1)
        return dto

    def _seats(self, session: str) -> dict[tuple[Any, ...], dict[str, Any]]:
        """The participations the tablets checked in: (table, round, direction) -> DTO."""
        out: dict[tuple[Any, ...], dict[str, Any]] = {}
        for tid, table in self.hub.room.tables.items():
            place = self._places.get(tid)
            if place is None or place[0] != session:
                continue
            for side, (_, players, _, number) in table.seated.items():
                for i, player in enumerate(players[:2]):
                    if not isinstance(player, Mapping):
                        continue
                    direction = (1 if side is Side.NS else 2) + 2 * i
                    first, last = _split(str(player.get("name") or ""))
                    player_number = player.get("number")
                    out[tid, number, direction] = {
                        "SessionGuid": session, "SectionLetters": place[1],
                        "TableNumber": place[2], "Direction": direction, "RoundNumber": number,
                        "PlayerNumber": None if player_number is None else str(player_number),
                        "IsPlayerSwap": False, "IsRemoval": False, "FirstName": first or None,
                        "LastName": last or None, "CountryCode": None,
                        "ValidationMessages": None}
        return out

    def _current(self, session: str, kind: str) -> dict[tuple[Any, ...], dict[str, Any]]:
        """Every item of ``kind`` the room holds now for ``session``, by key."""
        if kind == "results":
            return {k: v for k, v in self._results.items() if v["SessionGuid"] == session}
        if kind == "td_calls":
            out: dict[tuple[Any, ...], dict[str, Any]] = {}
            for alert in self.hub.room.alerts:
                place = self._places.get(alert.table)
                if alert.kind != HubKind.DIRECTOR_CALL.value or place is None \
                        or place[0] != session:
                    continue
                when = time.localtime(alert.detected)
                number = alert.round or self.hub.room.tables[alert.table].round
                out[alert.id,] = {"SessionGuid": session, "SectionLetters": place[1],
                                  "TableNumber": place[2], "RoundNumber": number,
                                  "Hour": when.tm_hour, "Minute": when.tm_min,
                                  "Status": _TD_STATUS[alert.status],
                                  "ValidationMessages": None}
            return out
        seats = self._seats(session)
        if kind == "participations":
            return seats
        club = self.hub.setup.doc["club"]
        return {(s["PlayerNumber"],): {
            "SessionGuid": session, "ClubId": club, "PlayerNumber": s["PlayerNumber"],
            "FirstName": s["FirstName"], "LastName": s["LastName"], "CountryCode": None,
            "ValidationMessages": None}
            for _, s in sorted(seats.items()) if s["PlayerNumber"] and s["LastName"]}

    # Queues ------------------------------------------------------------------------------
    def poll(self, session: str, kind: str, everything: bool
             ) -> tuple[list[dict[str, Any]], int]:
        """Deliver what changed (logged first), then the items not yet accepted (all the
        latest ones with ``everything``): (DTOs in id order, the last id delivered)."""
        queue = self._queue(session, kind)
        current = self._current(session, kind)
        fresh = [(key, dto) for key, dto in sorted(current.items())
                 if queue.delivered.get(key, (0, None))[1] != dto]
        if fresh:
            items = [(self._next_id + i, key, dto) for i, (key, dto) in enumerate(fresh)]
            self._store(DELIVERED, {"session": session, "kind": kind,
                                    "items": [[i, list(k), d] for i, k, d in items]})
            self._next_id += len(items)
            for item_id, key, dto in items:
                queue.delivered[key] = (item_id, dto)
            queue.last = items[-1][0]
        chosen = sorted((item_id, dto) for item_id, dto in queue.delivered.values()
                        if everything or item_id > queue.accepted)
        return [dto for _, dto in chosen], queue.last

    def accept(self, session: str, kind: str, upto: int) -> None:
        """Items of ``kind`` up to id ``upto`` are not to be sent again (logged)."""
        queue = self._queue(session, kind)
        if upto > queue.last:
            raise BridgemateError(ErrorType.VALIDATION,
                                  f"queue item {upto} was never delivered (the last "
                                  f"{kind.replace('_', ' ')} item delivered is {queue.last})")
        if upto > queue.accepted:
            self._store(ACCEPTED, {"session": session, "kind": kind, "upto": upto})
            queue.accepted = upto

    def _store(self, kind: str, body: dict[str, Any]) -> None:
        try:
            self.hub.log.append(Record.fact(kind, body, hub_time=self.hub.hub_time()))
        except StoreError as err:
            log.critical("Bridgemate queue not stored: %s", err)
            raise BridgemateError(ErrorType.EXCEPTION, f"the hub could not store it: {err}") \
                from err

    # Commands ----------------------------------------------------------------------------
    def handle(self, body: bytes) -> tuple[int, dict[str, Any]]:
        """One POSTed ScoringProgramRequest: (HTTP status, ScoringProgramResponse)."""
        try:
            request = _request(body)
        except BridgemateError as err:
            log.warning("Bridgemate request refused: %s", err.message)
            return 400, _response(Command.None_, DataType.ERROR, err.message, None, err.error)
        command, session = request["Command"], request["SessionGuid"]
        try:
            name = Command(command)
        except ValueError:
            name = None
        try:
            if name is None:
                raise BridgemateError(ErrorType.NOT_IMPLEMENTED, f"unknown command {command}")
            data_type, data, last = self._command(name, request)
        except BridgemateError as err:
            what = f"{name.name} ({command})" if name else f"command {command}"
            log.warning("Bridgemate %s refused: %s", what, err.message)
            return 200, _response(command, DataType.ERROR, f"{what}: {err.message}", session,
                                  err.error)
        return 200, _response(command, data_type, data, session, last_id=last)

    def _command(self, command: Command, request: Mapping[str, Any]
                 ) -> tuple[DataType, Any, int]:
        if command in (Command.Connect, Command.Disconnect):
            return DataType.OK, "OK", 0
        if command is Command.Ping:
            return DataType.OK, _payload(request), 0
        if command is Command.InitializeEvent:
            return DataType.OK, self._initialize(request), 0
        if command is Command.ContinueEvent:
            return DataType.OK, self._continue(request), 0
        if command is Command.AddSession:
            return DataType.OK, self._add_session(request), 0
        if command is Command.ClearData:
            return DataType.OK, self._clear(), 0
        if command not in _POLLS and command not in _ACCEPTS and command not in _SETTINGS \
                and command not in _SESSION_COMMANDS:
            reason = _NOT_ANSWERED.get(command, "not answered by the Tenace hub")
            raise BridgemateError(ErrorType.NOT_IMPLEMENTED, reason)
        session = self._session(request)
        if command in _POLLS:
            kind, everything = _POLLS[command]
            items, last = self.poll(session, kind, everything)
            return _QUEUES[kind], items, last
        if command in _ACCEPTS:
            upto = _payload(request)
            if isinstance(upto, bool) or not isinstance(upto, int) or upto < 0:
                raise BridgemateError(ErrorType.VALIDATION, f"the last queue item id is a "
                                      f"whole number from 0, not {_shown(upto)}")
            self.accept(session, _ACCEPTS[command], upto)
            return DataType.OK, f"accepted up to {upto}", 0
        if command in _SETTINGS:
            return DataType.OK, ("accepted: Bridgemate device settings have no effect on "
                                 "Tenace tablets"), 0
        return DataType.OK, _SESSION_COMMANDS[command](self, session, _payload(request)), 0

    def _session(self, request: Mapping[str, Any]) -> str:
        session = request["SessionGuid"]
        setup = self.hub.setup
        if not session:
            raise BridgemateError(ErrorType.VALIDATION, "SessionGuid is required")
        if not isinstance(setup, BridgemateSetup) or session not in setup.sessions:
            known = setup.sessions if isinstance(setup, BridgemateSetup) else []
            raise BridgemateError(ErrorType.ENTRY_UNKNOWN, f"unknown session {session!r} "
                                  f"(the hub runs {', '.join(known) or 'no Bridgemate event'})")
        return str(session)

    def _doc(self) -> dict[str, Any]:
        """A copy of the event document to change."""
        setup = self.hub.setup
        assert isinstance(setup, BridgemateSetup)
        return setup.to_json()

    def _replace(self, doc: dict[str, Any], what: str, *, keep_play: bool = True) -> str:
        """The room becomes ``doc``'s (checked: nothing played is dropped)."""
        try:
            setup = BridgemateSetup(doc)
        except ConfigError as err:
            raise BridgemateError(ErrorType.VALIDATION, str(err)) from None
        if setup == self.hub.setup:
            return f"{what}: no change"
        lost = _lost_play(self.hub.room, setup) if keep_play else []
        if lost:
            raise _refuse(what, lost)
        try:
            self.hub.replace_setup(setup, keep_play=keep_play)
        except StoreError as err:
            raise BridgemateError(ErrorType.EXCEPTION, f"the hub could not store it: {err}") \
                from err
        if not keep_play:
            self._queues.clear()
        self._rescan()
        log.info("Bridgemate: %s", what)
        return what

    def _initialize(self, request: Mapping[str, Any]) -> str:
        problems: list[str] = []
        f = _Fields(_payload(request), "", problems)
        event = f.guid("EventGuid", required=False)
        doc = _empty_doc(_laws_of(self.hub.setup))
        doc.update(event=event, club=str(request["ClubId"]))
        sessions = f.objects("Sessions")
        if not sessions:
            f.note("Sessions", "an event needs at least one session")
        elif len(sessions) > 1 and not event:
            f.note("EventGuid", "required with more than one session")
        for s in sessions:
            _read_session(s, doc, event)
        _add_people(f, doc, "PlayerData", "Participations")
        deals: dict[int, str] = {}
        origin: dict[int, str] = {}
        for h in f.objects("Handrecords"):
            _read_deal(h, doc, deals, origin)
        doc["deals"] = {str(b): d for b, d in sorted(deals.items())}
        if problems:
            raise _refuse("InitializeEvent", problems)
        current = self.hub.setup
        if isinstance(current, BridgemateSetup) and current.doc == doc:
            return "event already set up"
        started = sorted(f"{tid} (round {r}, board {b})" for tid, t in
                         self.hub.room.tables.items() for r, b in t.sittings)
        if started:
            raise BridgemateError(ErrorType.VALIDATION, "the room has play recorded (boards "
                                  f"started at {', '.join(started[:5])}"
                                  f"{', ...' if len(started) > 5 else ''}): a new event needs "
                                  "a new data directory; ContinueEvent goes on with this one")
        sections = len(doc["sections"])
        return self._replace(doc, f"event {event or doc['sessions'][0]['guid']} initialized: "
                                  f"{len(doc['sessions'])} session(s), {sections} section(s)",
                             keep_play=False)

    def _continue(self, request: Mapping[str, Any]) -> str:
        problems: list[str] = []
        event = _Fields(_payload(request), "", problems).guid("EventGuid")
        if problems:
            raise _refuse("ContinueEvent", problems)
        setup = self.hub.setup
        if not isinstance(setup, BridgemateSetup) or event != setup.event:
            raise BridgemateError(ErrorType.ENTRY_UNKNOWN, f"unknown event {event}: the hub runs "
                                  f"{getattr(setup, 'event', '') or 'no Bridgemate event'}")
        return f"event {event} goes on"

    def _add_session(self, request: Mapping[str, Any]) -> str:
        setup = self.hub.setup
        if not isinstance(setup, BridgemateSetup) or not setup.sessions:
            raise BridgemateError(ErrorType.ENTRY_UNKNOWN, "no event to add a session to: "
                                  "InitializeEvent first")
        problems: list[str] = []
        f = _Fields(_payload(request), "Session", problems)
        event = f.guid("EventGuid")
        if event and event != setup.event:
            f.note("EventGuid", f"{event} is not the hub's event {setup.event}")
        doc = self._doc()
        doc["event"] = setup.event
        _read_session(f, doc, event)
        if problems:
            raise _refuse("AddSession", problems)
        return self._replace(doc, f"session {doc['sessions'][-1]['guid']} added")

    def _clear(self) -> str:
        setup = self.hub.setup
        for session in setup.sessions if isinstance(setup, BridgemateSetup) else []:
            for kind in _QUEUES:
                _, last = self.poll(session, kind, False)
                self.accept(session, kind, last)
        return "queues cleared"

    def _update_movement(self, session: str, payload: Any) -> str:
        problems: list[str] = []
        f = _Fields(payload, "SectionUpdate", problems)
        doc = self._doc()
        letters = f.letters("Letters")
        f.same("SessionGuid", session)
        old = next((s for s in doc["sections"] if s["letters"] == letters), None)
        if old is not None and old["session"] != session:
            f.note("Letters", f"section {letters} belongs to session {old['session']}")
        if f.flag("IsDeleted"):
            if f.data.get("Tables"):
                f.note("Tables", "a section to delete has no tables")
            if old is None and letters:
                raise BridgemateError(ErrorType.ENTRY_UNKNOWN, f"no section {letters} to delete")
            if problems:
                raise _refuse("UpdateMovement", problems)
            doc["sections"].remove(old)
            return self._replace(doc, f"section {letters} deleted")
        group = f.whole("ScoringGroupNumber", least=1)
        method = f.whole("ScoringGroupScoringMethod", allowed=SCORING_METHODS)
        known = next((g for g in doc["groups"] if (g["session"], g["number"]) == (session, group)),
                     None)
        if known is None:
            doc["groups"].append({"session": session, "number": group, "method": method,
                                  "name": ""})
        elif known["method"] != method:
            f.note("ScoringGroupScoringMethod", f"{method} is not the method {known['method']} "
                                                f"of scoring group {group}")
        section = _read_section(f, session, group)
        if old is None:
            doc["sections"].append(section)
        else:
            doc["sections"][doc["sections"].index(old)] = section
        for p in f.objects("AddedPlayers"):
            _upsert_player(doc, _read_player(p, [session]))
        seats = f.objects("Participations")
        if seats:
            doc["seating"] = [s for s in doc["seating"] if s["letters"] != letters]
            numbers = {(p["session"], p["number"]) for p in doc["players"]}
            for s in seats:
                _put_seat(doc["seating"], _read_seat(s, doc, numbers))
        if problems:
            raise _refuse("UpdateMovement", problems)
        return self._replace(doc, f"section {letters} {'updated' if old else 'added'}")

    def _update_groups(self, session: str, payload: Any) -> str:
        problems: list[str] = []
        doc = self._doc()
        for f in _items(payload, "ScoringGroups", problems):
            f.same("SessionGuid", session)
            number = f.whole("ScoringGroupNumber", least=1)
            method = f.whole("ScoringMethod", allowed=SCORING_METHODS)
            group = next((g for g in doc["groups"]
                          if (g["session"], g["number"]) == (session, number)), None)
            moved = [s.letters("Letters") for s in f.objects("Sections")]
            if f.flag("IsDeleted"):
                users = [s["letters"] for s in doc["sections"]
                         if (s["session"], s["group"]) == (session, number)]
                if moved or users:
                    f.note("IsDeleted", f"scoring group {number} still has sections "
                                        f"{', '.join(moved or users)}")
                elif group is not None:
                    doc["groups"].remove(group)
                continue
            if group is None:
                group = {"session": session, "number": number, "method": method, "name": ""}
                doc["groups"].append(group)
            group.update(method=method, name=f.text("Name") or group["name"])
            for letters in moved:
                section = next((s for s in doc["sections"] if s["session"] == session
                                and s["letters"] == letters), None)
                if section is None:
                    f.note("Sections", f"no section {letters} in session {session}")
                else:
                    section["group"] = number
        if problems:
            raise _refuse("UpdateScoringGroups", problems)
        return self._replace(doc, "scoring groups updated")

    def _put_players(self, session: str, payload: Any) -> str:
        problems: list[str] = []
        doc = self._doc()
        items = _items(payload, "PlayerData", problems)
        for f in items:
            f.same("SessionGuid", session)
            _upsert_player(doc, _read_player(f, [session]))
        if problems:
            raise _refuse("PutPlayerData", problems)
        return self._replace(doc, f"{len(items)} player(s) received")

    def _put_seating(self, session: str, payload: Any) -> str:
        problems: list[str] = []
        doc = self._doc()
        numbers = {(p["session"], p["number"]) for p in doc["players"]}
        items = _items(payload, "Participations", problems)
        for f in items:
            f.same("SessionGuid", session)
            _put_seat(doc["seating"], _read_seat(f, doc, numbers))
        if problems:
            raise _refuse("PutParticipations", problems)
        return self._replace(doc, f"{len(items)} participation(s) received")

    def _put_deals(self, session: str, payload: Any) -> str:
        problems: list[str] = []
        doc = self._doc()
        deals: dict[int, str] = {}
        origin: dict[int, str] = {}
        for f in _items(payload, "Handrecords", problems):
            f.same("SessionGuid", session)
            _read_deal(f, doc, deals, origin)
        if problems:
            raise _refuse("PutHandrecords", problems)
        doc["deals"].update({str(b): d for b, d in deals.items()})
        doc["deals"] = dict(sorted(doc["deals"].items(), key=lambda kv: int(kv[0])))
        return self._replace(doc, f"hand records of boards {ranges(deals)} received")

    # HTTP --------------------------------------------------------------------------------
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._requests.add(task)
        try:
            status, body, kind = await self._answer(reader, writer)
            await self._send(writer, status, body, kind)
        except (ConnectionError, asyncio.IncompleteReadError, TimeoutError):
            pass
        except Exception:   # a bug costs this request, never the hub
            log.exception("Bridgemate request failed")
            with contextlib.suppress(Exception):
                await self._send(writer, 500, _error_body("internal error of the hub"),
                                 "application/json")
        finally:
            if task is not None:
                self._requests.discard(task)
            writer.close()

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
                      ) -> tuple[int, bytes, str]:
        json_type = "application/json; charset=utf-8"
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), self.timeout)
        except asyncio.LimitOverrunError:
            return 431, _error_body(f"request head over {MAX_HEAD} bytes"), json_type
        except TimeoutError:
            return 408, _error_body("request not received in time"), json_type
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ")
        if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
            return 400, _error_body(f"not an HTTP/1.x request line: {lines[0]!r:.80}"), json_type
        method, target, _ = parts
        headers = {}
        for line in lines[1:]:
            name, sep, value = line.partition(":")
            if sep:
                headers[name.strip().lower()] = value.strip()
        path = target.split("?", 1)[0]
        if path == "/" and method == "GET":
            return 200, BANNER.encode(), "text/plain; charset=utf-8"
        if path != ENDPOINT:
            return 404, _error_body(f"no page {path!r:.80}: commands go to POST {ENDPOINT}"), \
                json_type
        if method != "POST":
            return 405, _error_body(f"{method} {path}: commands are POSTed"), json_type
        length = headers.get("content-length", "")
        if "chunked" in headers.get("transfer-encoding", "") or not length.isdigit():
            return 411, _error_body("send the request with a Content-Length"), json_type
        if int(length) > MAX_BODY:
            return 413, _error_body(f"a request of {length} bytes, limit {MAX_BODY}"), json_type
        if headers.get("expect", "").lower() == "100-continue":
            writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
        try:
            body = await asyncio.wait_for(reader.readexactly(int(length)), self.timeout)
        except TimeoutError:
            return 408, _error_body("request body not received in time"), json_type
        status, response = self.handle(body)
        return status, _json(response), json_type

    async def _send(self, writer: asyncio.StreamWriter, status: int, body: bytes,
                    kind: str) -> None:
        head = (f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}\r\n"
                f"Content-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
                "Cache-Control: no-store\r\nConnection: close\r\n\r\n")
        writer.write(head.encode("latin-1") + body)
        await asyncio.wait_for(writer.drain(), self.timeout)


_SESSION_COMMANDS: dict[Command, Callable[[DataConnector, str, Any], str]] = {
    Command.UpdateMovement: DataConnector._update_movement,
    Command.UpdateScoringGroups: DataConnector._update_groups,
    Command.PutPlayerData: DataConnector._put_players,
    Command.PutParticipations: DataConnector._put_seating,
    Command.PutHandrecords: DataConnector._put_deals,
}


def _upsert_player(doc: dict[str, Any], player: dict[str, Any]) -> None:
    doc["players"] = [p for p in doc["players"]
                      if (p["session"], p["number"]) != (player["session"], player["number"])]
    doc["players"].append(player)


def _add_people(f: _Fields, doc: dict[str, Any], players: str, seats: str) -> None:
    """An InitDTO's player data and participations into ``doc``."""
    sessions = [s["guid"] for s in doc["sessions"]]
    seen: set[tuple[str, str]] = set()
    for p in f.objects(players):
        player = _read_player(p, sessions)
        key = (player["session"], player["number"])
        if key in seen and player["number"]:
            p.note("PlayerNumber", f"player {player['number']} is given twice")
        seen.add(key)
        _upsert_player(doc, player)
    for s in f.objects(seats):
        _put_seat(doc["seating"], _read_seat(s, doc, seen))


def _request(body: bytes) -> dict[str, Any]:
    """The ScoringProgramRequest in ``body``, checked (BridgemateError: HTTP 400)."""
    try:
        obj = json.loads(body.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as err:
        raise BridgemateError(ErrorType.VALIDATION, f"the request is not JSON: {err}") \
            from None
    if not isinstance(obj, dict):
        raise BridgemateError(ErrorType.VALIDATION, "the request is not a "
                              f"ScoringProgramRequest object but {_shown(obj)}")
    problems: list[str] = []
    f = _Fields(obj, "", problems)
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


def _payload(request: Mapping[str, Any]) -> Any:
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


def _response(command: int, data_type: DataType, data: Any, session: str | None,
              error: ErrorType = ErrorType.NONE, last_id: int = 0) -> dict[str, Any]:
    return {"RequestCommand": command, "DataType": int(data_type), "LastQueueItemId": last_id,
            "ErrorType": int(error), "SessionGuid": session or None,
            "SerializedData": json.dumps(data, separators=(",", ":"), ensure_ascii=False)}


def _error_body(message: str) -> bytes:
    return _json(_response(Command.None_, DataType.ERROR, message, None, ErrorType.VALIDATION))


def _json(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
