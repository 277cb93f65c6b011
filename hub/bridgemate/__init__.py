"""Bridgemate compatibility: the hub answers the Bridgemate Data Connector HTTP API (BCS 5).

A scoring program written for Bridgemate talks to the Data Connector of Bridgemate Control
Software (formats.md 3.2); :class:`DataConnector` answers it in its place, on the hub's
asyncio loop, so that the scoring program sets up and reads a Tenace room as it would a
room of Bridgemates (docs/bridgemate.md). The package, at its seams:

* ``server``: the HTTP routes, :class:`DataConnector` (aiohttp, hub.webserver): ``GET /``
  the banner, ``POST /dc-scoringprogram`` every command;
* ``model``: the API's vocabulary (command numbers, data and error types, scoring methods)
  and the ScoringProgramResponse;
* ``dto``: what the scoring program sends (the ScoringProgramRequest and its DTOs), read
  and checked with every problem named at once;
* ``commands``: each command answered (InitializeEvent, UpdateMovement, the Put commands,
  polls and accepts, ...), and why the others are not;
* ``setup``: :class:`BridgemateSetup`, the room the scoring program set up (the hub's
  ``RoomSetup``), and what a change would drop of the play recorded;
* ``queues``: what the scoring program reads (results, player data, participations, TD
  calls), each delivery and acceptance a fact of the event log.

Exceptions: :class:`BridgemateError` (a :class:`hub.errors.HubError`) carries the
ErrorType of a refused command; a set-up that cannot be a room is a
:class:`hub.errors.ConfigError`; a request refused at the HTTP level is a
:class:`hub.webserver.HttpError`.
"""

from __future__ import annotations

from hub.bridgemate.model import BridgemateError
from hub.bridgemate.server import DEFAULT_PORT, DataConnector
from hub.bridgemate.setup import BridgemateSetup

__all__ = ["DEFAULT_PORT", "BridgemateError", "BridgemateSetup", "DataConnector"]
