"""The values of an event's TOML and JSON tables, checked one by one: each checker turns a
value into what the set-up holds or raises :class:`_Bad` with what was wrong; :class:`_Keys`
reads one table, collecting every problem with where it is, and refuses keys it does not
know. :mod:`hub.event` reads its documents with them.
"""

from __future__ import annotations

import datetime
import difflib
import string
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from bridgecore.conventions import CONVENTIONS
from bridgecore.editions import edition as laws_edition
from bridgecore.text import Text
from hub.console_i18n import LANGUAGES
from hub.errors import ConfigError
from hub.explain import REGULATIONS

__all__ = ["BOARD_NUMBERS", "SCORINGS", "Nested", "Problem", "nested"]

SCORINGS = ("matchpoints", "imps", "butler", "cross-imps")
"""The scoring methods an event may name (``scoring``; empty: by the movement)."""

T = TypeVar("T")


def _fail(problems: list[str], where: str | None = None) -> ConfigError:
    """One ConfigError for every problem: ``where: problem`` or a list under ``where``;
    ``problems`` kept on it (a :class:`Problem` keeps its text: :class:`Nested`)."""
    head = f"{where}: " if where else ""
    if len(problems) == 1:
        error = ConfigError(head + problems[0])
    else:
        error = ConfigError(f"{head}{len(problems)} problems:\n" +
                            "\n".join(f"  {p}" for p in problems))
    error.problems = list(problems)
    return error


def nested(where: str, err: ConfigError) -> str:
    """The problem of a table that could not be built (``section[1]: section 'A': ...``):
    its English string, a :class:`Nested` when some of its problems are texts."""
    parts = getattr(err, "problems", [])
    words = f"{where}: {err}"
    return Nested(words, where, parts) if any(isinstance(p, Problem) for p in parts) else words


def _bye_vp(value: Any) -> float | str:
    """A Swiss bye's VPs: a number (0 to 20, the section checks) or "average"."""
    if value == "average":
        return "average"
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Bad(Text.of("setup_error.vps", value=_shown(value)))
    return float(value)


BOARD_NUMBERS = Text.of("setup_error.board_numbers")    # a board file's table keys


class Nested(str):
    """The problems of a table read in one (a section that cannot be built: ``section[1]:
    section 'A': ...``), its English string as every problem, with ``key`` (the table's,
    ``section[1]``) and ``parts``, the problems themselves (some a :class:`Problem`)."""

    key: str
    parts: list[str]

    def __new__(cls, words: str, key: str, parts: list[str]) -> Nested:
        made = super().__new__(cls, words)
        made.key, made.parts = key, parts
        return made


class Problem(str):
    """A problem of a table, ``key: what is wrong`` in English (the string, as every other
    problem), with ``key`` and ``text``, what is wrong as a catalog key and its values: the
    console's set-up page words it in its director's language (hub.console_setup)."""

    key: str
    text: Text

    def __new__(cls, key: str, text: Text) -> Problem:
        from hub.texts import render  # the catalogs: loaded once a text is rendered
        made = super().__new__(cls, f"{key}: {render(text, 'en')}")
        made.key, made.text = key, text
        return made


class _Bad(ValueError):
    """A value of the wrong type or range (the message says what was expected); ``text``
    the same as a catalog key and its values, when it is one."""

    def __init__(self, message: Text | str):
        self.text = message if isinstance(message, Text) else None
        if isinstance(message, Text):
            from hub.texts import render
            message = render(message, "en")
        super().__init__(message)


def _shown(value: Any) -> str:
    return repr(value) if isinstance(value, str | int | float | bool) else type(value).__name__


def _int(least: int = 1) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Bad(Text.of("setup_error.whole_number", value=_shown(value)))
        if value < least:
            raise _Bad(Text.of("setup_error.at_least", least=least, value=value))
        return value
    return check


def _optional(check: Callable[[Any], T]) -> Callable[[Any], T | None]:
    return lambda value: None if value is None else check(value)


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Bad(Text.of("setup_error.boolean", value=_shown(value)))
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise _Bad(Text.of("setup_error.string", value=_shown(value)))
    return value


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Bad(Text.of("setup_error.number", value=_shown(value)))
    if not value > 0 or value == float("inf"):
        raise _Bad(Text.of("setup_error.positive", value=value))
    return float(value)


def _carry(value: Any) -> float | None:
    """A final's carry-over (hub.series): with ``carry_form`` "margin" the share (0 to 1) of
    the earlier sessions' margin over 50% carried into it; with "place" the percentage
    points the qualifying's first carries (0 to 100); null (or absent) for sessions that add
    up."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 100:
        raise _Bad(Text.of("setup_error.carry", value=_shown(value)))
    return float(value)


def _carry_form(value: Any) -> str:
    """How a final's carry-over is worked out (hub.series): "margin" or "place"."""
    if value not in ("margin", "place"):
        raise _Bad(Text.of("setup_error.carry_form", value=_shown(value)))
    return str(value)


def _tolerance(value: Any) -> float | None:
    """Seconds, or false / null for no clock check."""
    if value is None or value is False:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1e9:
        raise _Bad(Text.of("setup_error.tolerance", value=_shown(value)))
    return float(value)


def _texts(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Bad(Text.of("setup_error.strings", value=_shown(value)))
    return tuple(value)


def _strict(value: Any) -> bool | tuple[str, ...]:
    return value if isinstance(value, bool) else _texts(value)


def _arrow_switch(value: Any) -> bool | tuple[int, ...]:
    if isinstance(value, bool):
        return value
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool)
                                              for v in value):
        raise _Bad(Text.of("setup_error.rounds_switch", value=_shown(value)))
    return tuple(value)


def _edition(value: Any) -> str:
    try:
        return laws_edition(value if isinstance(value, str | int) and
                            not isinstance(value, bool) else repr(value)).name
    except ValueError as err:
        raise _Bad(str(err)) from None


def _alerting(value: Any) -> str:
    if value not in REGULATIONS:
        raise _Bad(Text.of("setup_error.one_of", choices=", ".join(REGULATIONS),
                           value=_shown(value)))
    return str(value)


def _conventions(value: Any) -> str:
    """A federation's scoring conventions (bridgecore.conventions), or "" (the Laws alone)."""
    text = _text(value).strip().lower()
    if text and text not in CONVENTIONS:
        raise _Bad(Text.of("setup_error.one_of", choices=", ".join(CONVENTIONS),
                           value=_shown(value)))
    return text


def _language(value: Any) -> str:
    """The event's language (the results files' words, docs/translating.md): a language of
    the console's catalogs (hub.console_i18n.LANGUAGES), or "" (English, the default: kept
    as "", so that a set-up in English is the same whether it says so or not)."""
    text = _text(value).strip()
    if text and text not in LANGUAGES:
        raise _Bad(f"one of {', '.join(LANGUAGES)} is expected, not {_shown(value)}")
    return "" if text == "en" else text


def _date(value: Any) -> str:
    """An ISO date ``YYYY-MM-DD`` (a TOML date too)."""
    text = value.isoformat() if isinstance(value, datetime.date) else _text(value)
    try:
        return datetime.date.fromisoformat(text).isoformat() if text else ""
    except ValueError:
        raise _Bad(Text.of("setup_error.date", value=f"{value!r:.40}")) from None


def _scoring(value: Any) -> str:
    """One of :data:`SCORINGS`, or "" (by the movement)."""
    text = _text(value).strip().lower()
    if text and text not in SCORINGS:
        raise _Bad(Text.of("setup_error.scoring", value=f"{value!r:.40}",
                           choices=", ".join(SCORINGS)))
    return text


def _seed(value: Any) -> bytes:
    if isinstance(value, bytes):
        seed = value
    else:
        text = _text(value).strip()
        if not text or not all(c in string.hexdigits for c in text) or len(text) % 2:
            raise _Bad(Text.of("setup_error.seed", value=f"{value!r:.60}"))
        seed = bytes.fromhex(text)
    if len(seed) != 20:
        raise _Bad(Text.of("setup_error.seed_length", digits=len(seed) * 2))
    return seed


def _board_range(value: Any) -> range | None:
    """``"1-24"``, ``"5"``, ``24`` (1-24) or true (None: the boards played)."""
    if value is True:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        low, high = 1, value
    elif isinstance(value, str):
        low_text, _, high_text = value.partition("-")
        try:
            low = int(low_text)
            high = int(high_text) if high_text else low
        except ValueError:
            raise _Bad(Text.of("setup_error.board_range", value=f"{value!r:.40}")) from None
    else:
        raise _Bad(Text.of("setup_error.boards_value", value=_shown(value)))
    if not 1 <= low <= high:
        raise _Bad(Text.of("setup_error.boards_order", value=f"{value!r:.40}"))
    return range(low, high + 1)


class _Keys:
    """A TOML or JSON table being read: typed keys; problems collected, not raised."""

    def __init__(self, data: Any, where: str, problems: list[str]):
        self.where = where
        self.problems = problems
        self.asked: list[str] = []
        if isinstance(data, Mapping):
            self.data: Mapping[str, Any] = data
        else:
            self.data = {}
            problems.append(Problem(where, Text.of("setup_error.table", value=_shown(data))))

    def key(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def bad(self, key: str, message: Text | str) -> None:
        if isinstance(message, Text):
            self.problems.append(Problem(self.key(key), message))
        else:
            self.problems.append(f"{self.key(key)}: {message}")

    def has(self, key: str) -> bool:
        self.asked.append(key)
        return key in self.data

    def get(self, key: str, check: Callable[[Any], T], default: Any) -> T:
        fallback: T = default
        if not self.has(key):
            return fallback
        try:
            return check(self.data[key])
        except _Bad as err:
            self.bad(key, err.text or str(err))
            return fallback

    def raw(self, key: str) -> Any:
        self.has(key)
        return self.data.get(key)

    def done(self) -> None:
        """Report every key nobody asked for (a typo), with the nearest known key."""
        known = list(dict.fromkeys(self.asked))
        for key in self.data:
            if key not in known:
                near = difflib.get_close_matches(str(key), known, 1)
                self.bad(str(key), Text.of("setup_error.unknown_key_near", near=near[0],
                                           known=", ".join(known)) if near else
                         Text.of("setup_error.unknown_key", known=", ".join(known)))
