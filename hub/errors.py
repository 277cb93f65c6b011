"""Exceptions of the hub's game logic (tables, room, alerts).

Facts found at a table (a revoke, a wrong board) are :class:`hub.alerts.Alert` values and
refusals of a device's event are :class:`wire.protocol.Reply` rejections, never exceptions.
Exceptions are for a room set up wrongly and for director commands that make no sense::

    HubError                       every error of the hub
    ├── ConfigError (ValueError)   a room that cannot be: unknown table, section, movement
    └── AlertError (ValueError)    an unknown alert id, or a status change out of order

``StoreError`` (hub.store) and ``BrokerError`` (hub.broker) derive from the same
``HubError``: one tree. The wire layer's errors (``ProtocolError``, ``MqttError``) are
``wire.errors.WireError``.

An error a person reads (the refusal of a director's command, a set-up page's field) is
raised with a :class:`~bridgecore.text.Text`, a catalog key and its values, never a
sentence: ``ConfigError(Text.of("refusal.no_table", table="A9"))``. ``err.text`` is that
text, rendered in the reader's language where the reader is known (the console's answer,
hub.texts); ``str(err)`` is its English words, for the log and every older reader of
``str(err)``. An error raised with a string has ``text`` ``None`` (:func:`error_text` makes
it a plain text). A problem kept as a string among others (a roster's line) is a
:class:`Worded`: its English words, with its ``text``.
"""

from __future__ import annotations

from typing import Any

from bridgecore.text import Text

__all__ = ["AlertError", "ConfigError", "HubError", "Worded", "error_text"]


class HubError(Exception):
    """Base of every error the hub raises; its first argument, a :class:`Text` or English
    words (module docstring)."""

    text: Text | None

    def __init__(self, *args: Any) -> None:
        if args and isinstance(args[0], Text):
            self.text = args[0]
            from hub.texts import render  # the catalogs: loaded once a text is rendered
            args = (render(args[0], "en"), *args[1:])
        else:
            self.text = None
        super().__init__(*args)


class Worded(str):
    """English words (a problem kept as a string, ``str`` as ever) that are the rendering
    of ``text``, for a reader of another language (hub.roster's line problems)."""

    text: Text

    def __new__(cls, text: Text) -> Worded:
        from hub.texts import render  # the catalogs: loaded once a text is rendered
        made = super().__new__(cls, render(text, "en"))
        made.text = text
        return made


def error_text(err: BaseException) -> Text:
    """What ``err`` says, as a text: its own (``err.text``: a :class:`HubError`, a
    ``ProtocolError`` the hub raised with one), else its words as they are."""
    text = getattr(err, "text", None)
    if isinstance(text, Text):
        return text
    return Text.plain(str(getattr(err, "reason", None) or err))


class ConfigError(HubError, ValueError):
    """A room, section or table set up in a way that cannot work (names the item);
    ``problems``, when it gathers several (hub.event_values), each of them."""

    problems: list[str]


class AlertError(HubError, ValueError):
    """A director command on an alert that does not exist or is not in the right status."""
