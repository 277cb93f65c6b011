"""The tablet's words in each language of its catalogs (English, French, Italian, German,
Dutch, Spanish, Polish: docs/translating.md), and how cards and calls are written.

``Translator(language)`` returns the text of a key with its fields filled in
(``tr("auction.turn", seat=...)``); a key missing in a language falls back to English, an
unknown key to the key itself (logged), never an exception in front of a player.

Cards and calls are written the way each country's players read them: honours K Q J are
R D V in French, R D F in Italian, K D B in German, H V B in Dutch, K D W in Polish, the ten
is ``10``, no trump is ``SA`` (sans-atout, senza atout) in French, Italian, German and Dutch,
``ST`` in Spanish, ``BA`` in Polish (the catalogs' ``rank.*`` and ``strain.NT``). Suits are
the symbols, in two colours (spades and clubs black, hearts and diamonds red) or four
(spades black, hearts red, diamonds blue, clubs green). Pure Python: the Kivy layer and the
presenter both use it.
"""

from __future__ import annotations

import logging
import string
from pathlib import Path
from typing import Any

from bridgecore.text import PLAIN, Text, kind_of
from wire import catalogs
from wire.catalogs import PSEUDO, SUIT_SYMBOLS, Catalogs

__all__ = [
    "CATALOGS", "LANGUAGES", "SUIT_SYMBOLS", "Translator", "call_label", "card_label",
    "rank_label", "reply_key", "seat_letter", "strain_label", "suit_colour",
]

log = logging.getLogger(__name__)

# The tablet's words: tablet/locale/<language>/LC_MESSAGES/tablet.po (docs/translating.md).
CATALOGS = Catalogs(Path(__file__).resolve().parent / "locale", "tablet")

# Each language offered (its catalog complete) -> its own name (the language switch).
LANGUAGES: dict[str, str] = CATALOGS.offered

Colour = tuple[float, float, float, float]
_BLACK: Colour = (0.08, 0.08, 0.10, 1.0)
_RED: Colour = (0.80, 0.05, 0.10, 1.0)
_BLUE: Colour = (0.05, 0.30, 0.80, 1.0)
_GREEN: Colour = (0.0, 0.52, 0.18, 1.0)
_TWO = {"S": _BLACK, "H": _RED, "D": _RED, "C": _BLACK}
_FOUR = {"S": _BLACK, "H": _RED, "D": _BLUE, "C": _GREEN}

# How cards, calls and seats are written are words of the catalogs too: rank.K (R in French
# and Italian), rank.J (V, F), strain.NT (SA), letter.W (O), call.Pass (Passe, Passo), the
# same keys as the console's (wire.catalogs.card_text, call_text).


# Reply codes with a message of their own; the rest share reply.malformed.
_REPLY_KEYS = {"not_your_turn", "illegal_call", "illegal_play", "wrong_state", "clock_skew",
               "wrong_table", "out_of_order", "storage", "no_event"}


def reply_key(code: str) -> str | None:
    """The message key for a rejection code (None for ``ok`` and ``duplicate``)."""
    if code in ("ok", "duplicate"):
        return None
    return f"reply.{code}" if code in _REPLY_KEYS else "reply.malformed"


class _Fields(string.Formatter):
    """Leaves ``{name}`` in place when a field is missing rather than raising."""

    def get_value(self, key: int | str, args: Any, kwargs: Any) -> Any:
        if isinstance(key, str) and key not in kwargs:
            log.warning("translation field %r missing", key)
            return "{" + key + "}"
        return super().get_value(key, args, kwargs)


_FORMATTER = _Fields()


class Translator:
    """``tr = Translator("fr"); tr("auction.turn", seat=tr.seat("W"))``."""

    def __init__(self, language: str = "en"):
        if language not in LANGUAGES and language != PSEUDO:
            raise ValueError(f"language {language!r} is not one of {', '.join(LANGUAGES)}")
        self.language = language
        self._gettext = CATALOGS.translation(language).gettext

    def __call__(self, key: str, **fields: Any) -> str:
        text = self._gettext(key)
        if text == key and key not in CATALOGS.source:
            log.warning("no text for %r", key)
            return key
        return _FORMATTER.format(text, **fields) if fields or "{" in text else text

    def text(self, message: Any) -> str | None:
        """A message the hub sent (a refusal's ``text``: ``{"key", "values"}``, docs/
        protocol.md section 1 "Texts") in the player's language, each value in the
        language's notation (a seat by its name, a card ♠R, a call 3SA); None when it is
        not a message or this catalog has no such key (the caller shows its own text)."""
        try:
            text = message if isinstance(message, Text) else Text.from_json(message)
        except (ValueError, TypeError):
            return None
        if text.key == PLAIN or text.key not in CATALOGS.source:
            return None
        return self(text.key, **{name: self._value(name, value) for name, value in text.values})

    def _value(self, name: str, value: Any) -> str:
        kind = kind_of(name)
        if isinstance(value, Text):
            return self.text(value) or ""
        if isinstance(value, tuple):
            return ", ".join(self._value(kind.rstrip("s") if kind else name, v) for v in value)
        if value is None:
            return "–"
        if kind == "seat":
            return self.seat(str(value))
        if kind == "card":
            return self.card(str(value))
        if kind == "call":
            return self.call(str(value))
        return str(value)

    def seat(self, letter: str) -> str:
        """A seat's name: ``"W"`` -> West, Ouest, Ovest."""
        return self(f"seat.{letter}")

    def seat_letter(self, letter: str) -> str:
        return seat_letter(letter, self.language)

    def side(self, side: str) -> str:
        return self(f"side.{side}")

    def call(self, call: str) -> str:
        return call_label(call, self.language)

    def card(self, card: str) -> str:
        return card_label(card, self.language)

    def rank(self, rank: str) -> str:
        return rank_label(rank, self.language)

    def strain(self, strain: str) -> str:
        return strain_label(strain, self.language)


def _lookup(language: str) -> catalogs.Lookup:
    return CATALOGS.translation(language).gettext


def seat_letter(letter: str, language: str) -> str:
    """N E S W in English and Polish, N E S O in French, Italian, Spanish, N O S W in
    German, N O Z W in Dutch."""
    return _lookup(language)(f"letter.{letter}")


def rank_label(rank: str, language: str) -> str:
    """A rank letter as bridgecore writes it (``"K"``, ``"T"``) as shown in ``language``."""
    return catalogs.rank_text(rank, _lookup(language))


def strain_label(strain: str, language: str) -> str:
    """``"S"`` -> ♠, ``"NT"`` -> NT or SA."""
    return catalogs.strain_text(strain, _lookup(language))


def card_label(card: str, language: str) -> str:
    """``"SK"`` -> ♠K, ♠R (French and Italian), ♠H (Dutch); ``"HT"`` -> ♥10
    (wire.catalogs.card_text over the tablet catalog, as the console writes it)."""
    return catalogs.card_text(card, _lookup(language))


def call_label(call: str, language: str) -> str:
    """A call as the hub writes it (``"1NT"``, ``"Pass"``, ``"X"``, ``"XX"``) for players
    (wire.catalogs.call_text over the tablet catalog)."""
    return catalogs.call_text(call, _lookup(language))


def suit_colour(suit: str, four_colour: bool = False) -> Colour:
    """The RGBA colour of a suit's symbol and cards."""
    return (_FOUR if four_colour else _TWO)[suit]
