"""The commands a scoring program sends the Data Connector (hub.bridgemate), answered.

:meth:`Commands.handle` takes a POSTed ScoringProgramRequest and gives the HTTP status and
the ScoringProgramResponse. The commands answered (numbers of
ScoringProgramDataConnectorCommands):

* 1 Connect, 3 Disconnect, 4 Ping (echoes its data);
* 5 InitializeEvent (InitDTO: sessions, scoring groups, sections, tables, rounds, and the
  optional player data, participations and hand records): the room becomes this event
  (``Hub.replace_setup``, hub.bridgemate.setup). Refused once a board has been started in
  the room: a new event needs a new data directory. The same InitDTO again is a no-op (a
  client's retry);
* 31 ContinueEvent: the event the hub runs, by its event guid (or its only session's);
* 6 UpdateMovement (SectionUpdateDTO: add, replace or delete a section), 7 AddSession,
  8 UpdateScoringGroups, 11 PutPlayerData, 12 PutParticipations, 13 PutHandrecords: the
  set-up changes and the room is rebuilt with every record of the session replayed into it,
  so nothing played is lost. Refused when the change would drop play: a table or a board
  already started there, or another hand record for a board already started (one with no
  hand record may get one, unless a table in strict mode started it);
* 14, 15 PutBridgemate2/3Settings: acknowledged; they set up Bridgemate devices and have no
  effect on Tenace tablets;
* 19/23 PollQueueFor{New,All}Results, 27 AcceptResultQueueItems, 20/24 PlayerData, 21/25
  Participations (28, 29 accept), 36/37 PollQueueFor{New,All}TdCalls, 38
  AcceptTdCallQueueItems: the queues (hub.bridgemate.queues);
* 35 ClearData: everything queued so far counts as delivered and accepted.

Not answered (ErrorType NotImplemented, with the reason): 10 PutResults and 39 PutTdCalls
(results come from the tables, calls are answered on the director's console), 22/26/30
hand records back from the tables, 32-34 GetMovement, GetAllMovements, ManageBCS, and the
commands BCS itself does not support. Individual (GameType 20) and combined sections are
refused: the hub seats pairs.

A request that is not a ScoringProgramRequest (not JSON, not an object, a field of the
wrong type, ClubId or LicenceKey missing) gets HTTP 400 with a response whose ``DataType``
is Error (4). A well-formed request the hub refuses (a DTO with problems: every problem at
once, each with its path; an unknown session; a change that would drop play) gets HTTP 200
with DataType Error, the ErrorType (Validation, EntryUnknown, NoData, NotImplemented,
Exception) and the message, as the Data Connector answers: the client libraries retry a
non-2xx answer and would hide the message. Every refusal is logged and changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from bridgecore.movements import ranges
from hub.bridgemate.dto import (
    Fields,
    add_people,
    command_data,
    put_items,
    put_seat,
    read_deal,
    read_player,
    read_request,
    read_seat,
    read_section,
    read_session,
    refuse,
    upsert_player,
)
from hub.bridgemate.model import (
    ACCEPTS,
    NOT_ANSWERED,
    POLLS,
    QUEUES,
    SCORING_METHODS,
    SETTINGS,
    BridgemateError,
    Command,
    DataType,
    ErrorType,
    make_response,
    shown,
)
from hub.bridgemate.queues import BridgemateHub, ResultQueues
from hub.bridgemate.setup import BridgemateSetup, empty_doc, laws_of, lost_play
from hub.errors import ConfigError
from hub.store import StoreError

__all__ = ["Commands"]

log = logging.getLogger(__name__)


class Commands:
    """The commands of the Data Connector for ``hub`` (module docstring), whose queues are
    ``queues``."""

    def __init__(self, hub: BridgemateHub, queues: ResultQueues):
        self.hub = hub
        self.queues = queues

    def handle(self, body: bytes) -> tuple[int, dict[str, Any]]:
        """One POSTed ScoringProgramRequest: (HTTP status, ScoringProgramResponse)."""
        try:
            request = read_request(body)
        except BridgemateError as err:
            log.warning("Bridgemate request refused: %s", err.message)
            return 400, make_response(Command.None_, DataType.ERROR, err.message, None, err.error)
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
            return 200, make_response(command, DataType.ERROR, f"{what}: {err.message}", session,
                                  err.error)
        return 200, make_response(command, data_type, data, session, last_id=last)

    def _command(self, command: Command, request: Mapping[str, Any]
                 ) -> tuple[DataType, Any, int]:
        if command in (Command.Connect, Command.Disconnect):
            return DataType.OK, "OK", 0
        if command is Command.Ping:
            return DataType.OK, command_data(request), 0
        if command is Command.InitializeEvent:
            return DataType.OK, self._initialize(request), 0
        if command is Command.ContinueEvent:
            return DataType.OK, self._continue(request), 0
        if command is Command.AddSession:
            return DataType.OK, self._add_session(request), 0
        if command is Command.ClearData:
            return DataType.OK, self._clear(), 0
        if command not in POLLS and command not in ACCEPTS and command not in SETTINGS \
                and command not in _SESSION_COMMANDS:
            reason = NOT_ANSWERED.get(command, "not answered by the Tenace hub")
            raise BridgemateError(ErrorType.NOT_IMPLEMENTED, reason)
        session = self._session(request)
        if command in POLLS:
            kind, everything = POLLS[command]
            items, last = self.queues.poll(session, kind, everything)
            return QUEUES[kind], items, last
        if command in ACCEPTS:
            upto = command_data(request)
            if isinstance(upto, bool) or not isinstance(upto, int) or upto < 0:
                raise BridgemateError(ErrorType.VALIDATION, f"the last queue item id is a "
                                      f"whole number from 0, not {shown(upto)}")
            self.queues.accept(session, ACCEPTS[command], upto)
            return DataType.OK, f"accepted up to {upto}", 0
        if command in SETTINGS:
            return DataType.OK, ("accepted: Bridgemate device settings have no effect on "
                                 "Tenace tablets"), 0
        return DataType.OK, _SESSION_COMMANDS[command](self, session, command_data(request)), 0

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
        lost = lost_play(self.hub.room, setup) if keep_play else []
        if lost:
            raise refuse(what, lost)
        try:
            self.hub.replace_setup(setup, keep_play=keep_play)
        except StoreError as err:
            raise BridgemateError(ErrorType.EXCEPTION, f"the hub could not store it: {err}") \
                from err
        if not keep_play:
            self.queues.forget()
        self.queues.rescan()
        log.info("Bridgemate: %s", what)
        return what

    def _initialize(self, request: Mapping[str, Any]) -> str:
        problems: list[str] = []
        f = Fields(command_data(request), "", problems)
        event = f.guid("EventGuid", required=False)
        doc = empty_doc(laws_of(self.hub.setup))
        doc.update(event=event, club=str(request["ClubId"]))
        sessions = f.objects("Sessions")
        if not sessions:
            f.note("Sessions", "an event needs at least one session")
        elif len(sessions) > 1 and not event:
            f.note("EventGuid", "required with more than one session")
        for s in sessions:
            read_session(s, doc, event)
        add_people(f, doc, "PlayerData", "Participations")
        deals: dict[int, str] = {}
        origin: dict[int, str] = {}
        for h in f.objects("Handrecords"):
            read_deal(h, doc, deals, origin)
        doc["deals"] = {str(b): d for b, d in sorted(deals.items())}
        if problems:
            raise refuse("InitializeEvent", problems)
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
        event = Fields(command_data(request), "", problems).guid("EventGuid")
        if problems:
            raise refuse("ContinueEvent", problems)
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
        f = Fields(command_data(request), "Session", problems)
        event = f.guid("EventGuid")
        if event and event != setup.event:
            f.note("EventGuid", f"{event} is not the hub's event {setup.event}")
        doc = self._doc()
        doc["event"] = setup.event
        read_session(f, doc, event)
        if problems:
            raise refuse("AddSession", problems)
        return self._replace(doc, f"session {doc['sessions'][-1]['guid']} added")

    def _clear(self) -> str:
        setup = self.hub.setup
        for session in setup.sessions if isinstance(setup, BridgemateSetup) else []:
            for kind in QUEUES:
                _, last = self.queues.poll(session, kind, False)
                self.queues.accept(session, kind, last)
        return "queues cleared"

    def _update_movement(self, session: str, payload: Any) -> str:
        problems: list[str] = []
        f = Fields(payload, "SectionUpdate", problems)
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
                raise refuse("UpdateMovement", problems)
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
        section = read_section(f, session, group)
        if old is None:
            doc["sections"].append(section)
        else:
            doc["sections"][doc["sections"].index(old)] = section
        for p in f.objects("AddedPlayers"):
            upsert_player(doc, read_player(p, [session]))
        seats = f.objects("Participations")
        if seats:
            doc["seating"] = [s for s in doc["seating"] if s["letters"] != letters]
            numbers = {(p["session"], p["number"]) for p in doc["players"]}
            for s in seats:
                put_seat(doc["seating"], read_seat(s, doc, numbers))
        if problems:
            raise refuse("UpdateMovement", problems)
        return self._replace(doc, f"section {letters} {'updated' if old else 'added'}")

    def _update_groups(self, session: str, payload: Any) -> str:
        problems: list[str] = []
        doc = self._doc()
        for f in put_items(payload, "ScoringGroups", problems):
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
            raise refuse("UpdateScoringGroups", problems)
        return self._replace(doc, "scoring groups updated")

    def _put_players(self, session: str, payload: Any) -> str:
        problems: list[str] = []
        doc = self._doc()
        items = put_items(payload, "PlayerData", problems)
        for f in items:
            f.same("SessionGuid", session)
            upsert_player(doc, read_player(f, [session]))
        if problems:
            raise refuse("PutPlayerData", problems)
        return self._replace(doc, f"{len(items)} player(s) received")

    def _put_seating(self, session: str, payload: Any) -> str:
        problems: list[str] = []
        doc = self._doc()
        numbers = {(p["session"], p["number"]) for p in doc["players"]}
        items = put_items(payload, "Participations", problems)
        for f in items:
            f.same("SessionGuid", session)
            put_seat(doc["seating"], read_seat(f, doc, numbers))
        if problems:
            raise refuse("PutParticipations", problems)
        return self._replace(doc, f"{len(items)} participation(s) received")

    def _put_deals(self, session: str, payload: Any) -> str:
        problems: list[str] = []
        doc = self._doc()
        deals: dict[int, str] = {}
        origin: dict[int, str] = {}
        for f in put_items(payload, "Handrecords", problems):
            f.same("SessionGuid", session)
            read_deal(f, doc, deals, origin)
        if problems:
            raise refuse("PutHandrecords", problems)
        doc["deals"].update({str(b): d for b, d in deals.items()})
        doc["deals"] = dict(sorted(doc["deals"].items(), key=lambda kv: int(kv[0])))
        return self._replace(doc, f"hand records of boards {ranges(deals)} received")


_SESSION_COMMANDS: dict[Command, Callable[[Commands, str, Any], str]] = {
    Command.UpdateMovement: Commands._update_movement,
    Command.UpdateScoringGroups: Commands._update_groups,
    Command.PutPlayerData: Commands._put_players,
    Command.PutParticipations: Commands._put_seating,
    Command.PutHandrecords: Commands._put_deals,
}
