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
from hub.console_i18n import LANGUAGES
from hub.errors import ConfigError
from hub.explain import REGULATIONS

__all__ = ["SCORINGS"]

SCORINGS = ("matchpoints", "imps", "butler", "cross-imps")
"""The scoring methods an event may name (``scoring``; empty: by the movement)."""

T = TypeVar("T")


def _fail(problems: list[str], where: str | None = None) -> ConfigError:
    """One ConfigError for every problem: ``where: problem`` or a list under ``where``."""
    head = f"{where}: " if where else ""
    if len(problems) == 1:
        return ConfigError(head + problems[0])
    return ConfigError(f"{head}{len(problems)} problems:\n" +
                       "\n".join(f"  {p}" for p in problems))


class _Bad(ValueError):
    """A value of the wrong type or range (the message says what was expected)."""


def _shown(value: Any) -> str:
    return repr(value) if isinstance(value, str | int | float | bool) else type(value).__name__


def _int(least: int = 1) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Bad(f"a whole number is expected, not {_shown(value)}")
        if value < least:
            raise _Bad(f"at least {least}, not {value}")
        return value
    return check


def _optional(check: Callable[[Any], T]) -> Callable[[Any], T | None]:
    return lambda value: None if value is None else check(value)


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Bad(f"true or false is expected, not {_shown(value)}")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise _Bad(f"a string is expected, not {_shown(value)}")
    return value


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Bad(f"a number is expected, not {_shown(value)}")
    if not value > 0 or value == float("inf"):
        raise _Bad(f"a positive number is expected, not {value}")
    return float(value)


def _carry(value: Any) -> float | None:
    """A final's carry-over (hub.series): with ``carry_form`` "margin" the share (0 to 1) of
    the earlier sessions' margin over 50% carried into it; with "place" the percentage
    points the qualifying's first carries (0 to 100); null (or absent) for sessions that add
    up."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 100:
        raise _Bad(f"a share from 0 to 1 (0.5: half the margin), or with carry_form = "
                   f"\"place\" the first's points, is expected, not {_shown(value)}")
    return float(value)


def _carry_form(value: Any) -> str:
    """How a final's carry-over is worked out (hub.series): "margin" or "place"."""
    if value not in ("margin", "place"):
        raise _Bad(f"\"margin\" (a share of the margin over 50%) or \"place\" (linear by "
                   f"the qualifying place) is expected, not {_shown(value)}")
    return str(value)


def _tolerance(value: Any) -> float | None:
    """Seconds, or false / null for no clock check."""
    if value is None or value is False:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1e9:
        raise _Bad(f"seconds (0 or more) or false is expected, not {_shown(value)}")
    return float(value)


def _texts(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Bad(f"a list of strings is expected, not {_shown(value)}")
    return tuple(value)


def _strict(value: Any) -> bool | tuple[str, ...]:
    return value if isinstance(value, bool) else _texts(value)


def _arrow_switch(value: Any) -> bool | tuple[int, ...]:
    if isinstance(value, bool):
        return value
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool)
                                              for v in value):
        raise _Bad(f"true, false or a list of round numbers is expected, not {_shown(value)}")
    return tuple(value)


def _edition(value: Any) -> str:
    try:
        return laws_edition(value if isinstance(value, str | int) and
                            not isinstance(value, bool) else repr(value)).name
    except ValueError as err:
        raise _Bad(str(err)) from None


def _alerting(value: Any) -> str:
    if value not in REGULATIONS:
        raise _Bad(f"one of {', '.join(REGULATIONS)} is expected, not {_shown(value)}")
    return str(value)


def _conventions(value: Any) -> str:
    """A federation's scoring conventions (bridgecore.conventions), or "" (the Laws alone)."""
    text = _text(value).strip().lower()
    if text and text not in CONVENTIONS:
        raise _Bad(f"one of {', '.join(CONVENTIONS)} is expected, not {_shown(value)}")
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
        raise _Bad(f"a date such as \"2026-11-26\" is expected, not {value!r}") from None


def _scoring(value: Any) -> str:
    """One of :data:`SCORINGS`, or "" (by the movement)."""
    text = _text(value).strip().lower()
    if text and text not in SCORINGS:
        raise _Bad(f"unknown scoring {value!r} ({', '.join(SCORINGS)})")
    return text


def _seed(value: Any) -> bytes:
    if isinstance(value, bytes):
        seed = value
    else:
        text = _text(value).strip()
        if not text or not all(c in string.hexdigits for c in text) or len(text) % 2:
            raise _Bad(f"40 hexadecimal digits (160 bits) are expected, not {value!r}")
        seed = bytes.fromhex(text)
    if len(seed) != 20:
        raise _Bad(f"40 hexadecimal digits (160 bits) are expected, got {len(seed) * 2}")
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
            raise _Bad(f"a range of boards such as \"1-24\" is expected, not {value!r}") \
                from None
    else:
        raise _Bad(f"a range such as \"1-24\", a number of boards or true is expected, not "
                   f"{_shown(value)}")
    if not 1 <= low <= high:
        raise _Bad(f"boards go from 1 up and first <= last, not {value!r}")
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
            problems.append(f"{where}: a table is expected, not {_shown(data)}")

    def key(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def bad(self, key: str, message: str) -> None:
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
            self.bad(key, str(err))
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
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                self.bad(str(key), f"unknown key{hint}; known keys: {', '.join(known)}")
