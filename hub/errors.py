"""Exceptions of the hub's game logic (tables, room, alerts).

Facts found at a table (a revoke, a wrong board) are :class:`hub.alerts.Alert` values and
refusals of a device's event are :class:`hub.protocol.Reply` rejections, never exceptions.
Exceptions are for a room set up wrongly and for director commands that make no sense::

    HubError                       (hub.store today; see the note below)
    ├── ConfigError (ValueError)   a room that cannot be: unknown table, section, movement
    └── AlertError (ValueError)    an unknown alert id, or a status change out of order

``StoreError`` (hub.store), ``MqttError`` (hub.mqtt) and ``BrokerError`` (hub.broker)
derive from the same ``HubError``. It is defined in ``hub.store`` and re-exported here so
that there is one tree; this module imports nothing else of the hub.
"""

from __future__ import annotations

from hub.store import HubError

__all__ = ["AlertError", "ConfigError", "HubError"]


class ConfigError(HubError, ValueError):
    """A room, section or table set up in a way that cannot work (names the item)."""


class AlertError(HubError, ValueError):
    """A director command on an alert that does not exist or is not in the right status."""
