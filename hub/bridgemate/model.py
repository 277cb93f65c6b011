"""The Data Connector's vocabulary (hub.bridgemate): the command numbers, the response
data types and error types of the Bridgemate Data Connector API (BCS 5), the scoring
methods a scoring group may name, which command polls or accepts which queue, and the
ScoringProgramResponse every answer is.

Exceptions: :class:`BridgemateError` (a :class:`hub.errors.HubError`) carries the
ErrorType of a refused command.
"""

from __future__ import annotations

import json
from enum import IntEnum
from typing import Any

from hub.errors import HubError

__all__ = ["ACCEPTS", "NOT_ANSWERED", "POLLS", "QUEUES", "SCORING_METHODS", "SETTINGS",
           "BridgemateError", "Command", "DataType", "ErrorType", "make_response", "shown"]

SCORING_METHODS = {10: "matchpoints", 20: "Butler IMPs", 21: "Butler IMPs", 22: "Butler IMPs",
                   25: "Butler IMPs", 26: "Butler IMPs", 27: "Butler IMPs", 30: "cross-IMPs",
                   31: "cross-IMPs", 35: "cross-IMPs", 36: "cross-IMPs", 40: "team IMPs",
                   50: "VPs", 51: "VPs", 60: "board-a-match", 70: "Patton"}


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
QUEUES = {"results": DataType.RESULTS, "player_data": DataType.PLAYER_DATA,
           "participations": DataType.PARTICIPATIONS, "td_calls": DataType.TD_CALLS}
POLLS = {Command.PollQueueForNewResults: ("results", False),
          Command.PollQueueForAllResults: ("results", True),
          Command.PollQueueForNewPlayerData: ("player_data", False),
          Command.PollQueueForAllPlayerData: ("player_data", True),
          Command.PollQueueForNewParticipations: ("participations", False),
          Command.PollQueueForAllParticipations: ("participations", True),
          Command.PollQueueForNewTdCalls: ("td_calls", False),
          Command.PollQueueForAllTdCalls: ("td_calls", True)}
ACCEPTS = {Command.AcceptResultQueueItems: "results",
           Command.AcceptPlayerDataQueueItems: "player_data",
           Command.AcceptParticipantQueueItems: "participations",
           Command.AcceptTdCallQueueItems: "td_calls"}
NOT_ANSWERED = {
    Command.PutResults: "results come from the tables; adjusted scores are the director's, "
                        "on the console",
    Command.PutTdCalls: "director calls are answered on the director's console",
    Command.PollQueueForNewHandrecords: "the tables send no hand records back",
    Command.PollQueueForAllHandrecords: "the tables send no hand records back",
    Command.AcceptHandrecordQueueItems: "the tables send no hand records back",
}
SETTINGS = (Command.PutBridgemate2Settings, Command.PutBridgemate3Settings)


class BridgemateError(HubError):
    """A command the hub refuses: its ErrorType and the message for the scoring program."""

    def __init__(self, error: ErrorType, message: str):
        super().__init__(message)
        self.error = error
        self.message = message


def shown(value: Any) -> str:
    """A value as a refusal names it: short values as they are, others by their type."""
    return repr(value) if isinstance(value, str | int | float | bool) or value is None \
        else type(value).__name__


def make_response(command: int, data_type: DataType, data: Any, session: str | None,
                  error: ErrorType = ErrorType.NONE, last_id: int = 0) -> dict[str, Any]:
    """A ScoringProgramResponse: ``data`` becomes its SerializedData (JSON text)."""
    return {"RequestCommand": command, "DataType": int(data_type), "LastQueueItemId": last_id,
            "ErrorType": int(error), "SessionGuid": session or None,
            "SerializedData": json.dumps(data, separators=(",", ":"), ensure_ascii=False,
                                         allow_nan=False)}
