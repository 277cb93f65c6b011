"""firmware_bridge's exceptions: one tree for the card readers, the decks, the dealing
machines and the test rig's pcscd.

::

    FirmwareBridgeError                     every error of firmware_bridge (names the device)
    ├── ReaderError                         a card reader cannot be opened or used
    │   ├── UnknownBackendError (ValueError)    no backend of that name, or a bad spec
    │   └── BackendUnavailableError         the backend's library or service is missing
    ├── DeckError (ValueError)              a deck file unreadable or unwritable, a bad deck
    ├── DealerError                         a dealing machine cannot be used
    │   ├── DealerConnectionError           the port cannot be opened, or is gone
    │   ├── DealerSilent                    the machine does not answer
    │   ├── DealerRefused                   the machine refused a command (NACK): code, reason
    │   └── DealerFileError                 a board file cannot be read or written
    ├── MessageError (ValueError)           a dealer frame that is not what its type says
    └── PcscdError (RuntimeError)           pcscd cannot be started here (tests, benchmarks)

The modules that raise them import them from here and re-export them
(``firmware_bridge.dealer.DealerError`` is this ``DealerError``). Errors of the layer below
(:class:`wire.errors.WireError`: the MQTT client, the outbox, the link) are the wire's own.
This module imports nothing.
"""

from __future__ import annotations

__all__ = [
    "BackendUnavailableError", "DealerConnectionError", "DealerError", "DealerFileError",
    "DealerRefused", "DealerSilent", "DeckError", "FirmwareBridgeError", "MessageError",
    "PcscdError", "ReaderError", "UnknownBackendError",
]


class FirmwareBridgeError(Exception):
    """Base of every error firmware_bridge raises; the message names the device or file."""


# Card readers ------------------------------------------------------------------------------

class ReaderError(FirmwareBridgeError):
    """A card reader cannot be opened or used; the message names the reader."""


class UnknownBackendError(ReaderError, ValueError):
    """No reader backend of that name, or a reader spec that is not ``backend:channel``."""


class BackendUnavailableError(ReaderError):
    """The backend's library is not installed, or its service (pcscd) is not running."""


class DeckError(FirmwareBridgeError, ValueError):
    """A deck file that cannot be read or written, or a deck that is not one (names it)."""


# Dealing machines --------------------------------------------------------------------------

class DealerError(FirmwareBridgeError):
    """A dealing machine cannot be used; the message names it."""


class DealerConnectionError(DealerError):
    """The machine's port cannot be opened, or went away."""


class DealerSilent(DealerError):
    """The machine does not answer."""


class DealerFileError(DealerError):
    """A board file (hand record, event set-up, machine file) cannot be read or written."""


class DealerRefused(DealerError):
    """The machine refused a command (NACK)."""

    def __init__(self, message: str, code: int, reason: str):
        super().__init__(message)
        self.code = code
        self.reason = reason


class MessageError(FirmwareBridgeError, ValueError):
    """A frame whose payload is not what its type says; ``code`` is the NACK to answer
    (a :class:`firmware_bridge.dealer_messages.NackCode`)."""

    def __init__(self, code: int, reason: str):
        super().__init__(reason)
        self.code = code
        self.reason = reason


# The test rig ------------------------------------------------------------------------------

class PcscdError(FirmwareBridgeError, RuntimeError):
    """pcscd cannot be started here (not root, another pcscd running, vpcd missing)."""
