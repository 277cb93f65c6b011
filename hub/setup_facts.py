"""The kinds of the event log's set-up facts, shared by the hub's service (which writes
them) and whoever reads the log for them (hub.bridgemate): ``event_setup``, the first
record of every log (the set-up the room is built from), and ``setup_replaced`` (a set-up
replaced from outside, ``{"setup", "keep_play"}``: ``Hub.replace_setup``). This module
imports nothing."""

from __future__ import annotations

__all__ = ["SETUP_FACT", "SETUP_REPLACED"]

SETUP_FACT = "event_setup"
SETUP_REPLACED = "setup_replaced"
