"""Exceptions of bridgecore.

Facts found in a game record (a revoke, an insufficient bid) are values
(:class:`bridgecore.irregularity.Irregularity`), never exceptions. Exceptions are
for bad input and for misuse of the API::

    BridgeError
    ├── ParseError (ValueError)            text that is not a card, call, deal, ...
    │   └── FormatError                    a file that cannot be read at all
    ├── IllegalCallError (ValueError)      make_call() refused a call
    ├── IllegalPlayError (ValueError)      play_card() refused a card
    ├── RuleError (ValueError)             a value the Laws or a movement's shape do not
    │                                      allow (an adjusted score, a movement's size)
    ├── StateError (RuntimeError)          an operation that makes no sense now
    └── AnalysisUnavailable (RuntimeError) double-dummy solving without endplay installed
"""

from __future__ import annotations

from bridgecore.text import Text


class BridgeError(Exception):
    """Base of every error raised by bridgecore."""


class ParseError(BridgeError, ValueError):
    """Text that does not describe the value asked for."""


class FormatError(ParseError):
    """A file that cannot be read; carries the file name and line when known."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None):
        self.file = file
        self.line = line
        where = ""
        if file is not None:
            where = f"{file}:{line}: " if line is not None else f"{file}: "
        super().__init__(f"{where}{message}")
        self.message = message


class IllegalCallError(BridgeError, ValueError):
    """A checked call (``make_call``) that the Laws do not allow at this point; ``text``:
    why, as a message a player reads in his language (bridgecore.text)."""

    def __init__(self, message: str, text: Text | None = None):
        super().__init__(message)
        self.text = text


class IllegalPlayError(BridgeError, ValueError):
    """A checked play (``play_card``) that the Laws do not allow at this point; ``text``:
    why, as a message (bridgecore.text)."""

    def __init__(self, message: str, text: Text | None = None):
        super().__init__(message)
        self.text = text


class RuleError(BridgeError, ValueError):
    """A value the Laws (an adjusted score, Law 12C) or a movement's shape (its tables, its
    rounds) do not allow; ``text``: why, as a message an application renders in its
    reader's language (bridgecore.text)."""

    def __init__(self, message: str, text: Text | None = None):
        super().__init__(message)
        self.text = text


class StateError(BridgeError, RuntimeError):
    """An operation asked at a moment where it has no meaning (play before the auction ends)."""


class AnalysisUnavailable(BridgeError, RuntimeError):
    """Double-dummy solving (:mod:`bridgecore.doubledummy`) asked for without endplay, the
    ``analysis`` extra."""
