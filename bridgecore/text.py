"""A text made by the program for a person, as data: a catalog key and its values.

The game finds facts (an irregularity, a refusal, a ruling) and says them as a :class:`Text`,
never as a sentence: the reader's application renders it in the reader's language from its
own gettext catalog (docs/translating.md, docs/protocol.md section 1 "Texts"). A value's
**field name** says what it is, so that each language writes it in its own notation:

* ``seat`` or a name ending ``_seat`` (``"N"``), ``seats`` (a list of seats);
* ``card`` or ``..._card`` (``"SK"``: ♠R in French), ``cards`` (a list);
* ``call`` or ``..._call`` (``"1NT"``, ``"Pass"``: 1SA, Passe);
* ``time`` or ``..._time`` (seconds since the epoch: the reader's clock, 24-hour in French);
* a text (``{"key", "values"}``) is a part of the sentence, rendered in turn; a list of
  texts is separated by the language's ``text.separator`` (``"; "``), except the field
  ``more``, whose parts follow one another, each with its own punctuation;
* anything else is shown as it is (numbers, board and table ids, law numbers).

A :class:`Text` is a value: frozen, compared by key and values, JSON both ways
(``{"key": "alert.revoke", "values": {"seat": "E", "trick": 5}}``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

__all__ = ["PLAIN", "Text", "kind_of"]

# The key of a text written before texts were keys (an old log's English): shown as it is.
PLAIN = "text.plain"

_KEY = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$")
_KINDS = ("seat", "card", "call", "time")


def kind_of(name: str) -> str:
    """What the value of field ``name`` is: ``seat``, ``seats``, ``card``, ``cards``,
    ``call``, ``time`` or ``""`` (shown as it is)."""
    for kind in _KINDS:
        if name in (kind, kind + "s") or name.endswith(("_" + kind, "_" + kind + "s")):
            return kind + "s" if name.endswith("s") and kind != "time" else kind
    return ""


def _plain(value: Any) -> Any:
    if isinstance(value, Text):
        return value        # a part of the sentence, itself a text (rendered in turn)
    if isinstance(value, Mapping) and isinstance(value.get("key"), str):
        return Text.from_json(value)
    if isinstance(value, Enum):
        return str(value)   # a Seat: "E"
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return tuple(_plain(v) for v in value)
    return str(value)   # a Seat, a Card, a Call: its protocol form


def _json(value: Any) -> Any:
    if isinstance(value, Text):
        return value.to_json()
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Text:
    """``key`` (a catalog key, ``area.what``) and ``values`` (field -> JSON value)."""

    key: str
    values: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        if not _KEY.match(self.key):
            raise ValueError(f"text key {self.key!r:.80}: not a catalog key (area.what)")

    @classmethod
    def of(cls, key: str, **values: Any) -> Text:
        """``Text.of("alert.revoke", seat=Seat.EAST, trick=5)``: values in their protocol
        form (a seat ``"E"``, a card ``"SK"``, a call ``"1NT"``)."""
        return cls(key, tuple(sorted((name, _plain(v)) for name, v in values.items())))

    @classmethod
    def plain(cls, text: str) -> Text:
        """A text that is already words (an old log's English, a device's own report)."""
        return cls(PLAIN, (("text", text),))

    @property
    def fields(self) -> dict[str, Any]:
        return dict(self.values)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "values": {name: _json(v) for name, v in self.values}}

    @classmethod
    def from_json(cls, obj: Any) -> Text:
        """The inverse of :meth:`to_json`; a plain string (an old record) is a plain text."""
        if isinstance(obj, str):
            return cls.plain(obj)
        if not isinstance(obj, Mapping) or not isinstance(obj.get("key"), str):
            raise ValueError(f"not a text: {obj!r:.120}")
        values = obj.get("values") or {}
        if not isinstance(values, Mapping):
            raise ValueError(f"text {obj['key']!r:.80}: values are not an object")
        return cls.of(obj["key"], **{str(k): v for k, v in values.items()})
