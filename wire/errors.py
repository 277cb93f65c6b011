"""The wire layer's exceptions: one tree for the protocol, the MQTT client, the outbox and the link.

::

    WireError                        every error of the wire layer
    ├── ProtocolError (ValueError)   a message that is not the protocol: ``code`` + ``reason``
    ├── MqttError                    no acknowledgement in time, subscription refused, client closed
    ├── OutboxError                  the outbox file cannot be opened, read or written
    │   └── InvalidEventError (ValueError)   an event the hub could not parse: not stored
    ├── LinkError                    the link is closed, or set up inconsistently
    └── PairingFailed                a device's pairing refused or impossible (wire.pairing):
                                     ``code`` + ``message`` (+ ``retry_after``)

This module imports nothing.
"""

from __future__ import annotations

from bridgecore.text import Text

__all__ = ["InvalidEventError", "LinkError", "MqttError", "OutboxError", "PairingFailed",
           "ProtocolError", "WireError"]


class WireError(Exception):
    """Base of every error the wire layer raises."""


class ProtocolError(WireError, ValueError):
    """A message the hub cannot take: ``code`` is machine-readable, ``reason`` for people
    (English). ``text``: the same reason as a catalog key and its values (bridgecore.text),
    when the application that raised it words it in its reader's language (a refused
    director command on the console)."""

    def __init__(self, code: str, reason: str, text: Text | None = None):
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason
        self.text = text


class MqttError(WireError):
    """The MQTT client failed: no acknowledgement in time, a refused subscription, closed."""


class OutboxError(WireError):
    """The outbox file cannot be used: unreadable, not an outbox, a write failed, or it
    still holds undelivered envelopes of another device. ``path`` names the file."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


class InvalidEventError(OutboxError, ValueError):
    """An event the hub would refuse as malformed (unknown type, a missing or mistyped
    field, a bad seat, a time that is not a number): a programming error, never stored."""


class LinkError(WireError):
    """The link is closed, or set up inconsistently (an outbox of another device)."""


class PairingFailed(WireError):
    """Pairing did not happen (wire.pairing): ``code`` (the hub's, or the device's own),
    ``message`` for the person; ``retry_after`` seconds when the hub said to wait."""

    def __init__(self, code: str, message: str, retry_after: float = 0.0):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.retry_after = retry_after
