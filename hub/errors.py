"""Exceptions of the hub's game logic (tables, room, alerts).

Facts found at a table (a revoke, a wrong board) are :class:`hub.alerts.Alert` values and
refusals of a device's event are :class:`wire.protocol.Reply` rejections, never exceptions.
Exceptions are for a room set up wrongly and for director commands that make no sense::

    HubError                       every error of the hub
    ├── ConfigError (ValueError)   a room that cannot be: unknown table, section, movement
    └── AlertError (ValueError)    an unknown alert id, or a status change out of order

``StoreError`` (hub.store) and ``BrokerError`` (hub.broker) derive from the same
``HubError``: one tree. The wire layer's errors (``ProtocolError``, ``MqttError``) are
``wire.errors.WireError``. This module imports nothing else of the hub.
"""

from __future__ import annotations

__all__ = ["AlertError", "ConfigError", "HubError"]


class HubError(Exception):
    """Base of every error the hub raises."""


class ConfigError(HubError, ValueError):
    """A room, section or table set up in a way that cannot work (names the item)."""


class AlertError(HubError, ValueError):
    """A director command on an alert that does not exist or is not in the right status."""
