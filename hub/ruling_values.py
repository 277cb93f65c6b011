"""The numbers and values a director's ruling carries, each checked and bounded (issue 23:
a penalty of 1e308 % made the results -Infinity, which is not JSON): hub.scoring checks a
ruling's fields with these, and refuses, with a :class:`RulingError` naming the field and
its bounds, anything beyond them. The bounds are generous: no ruling the Laws allow reaches
them. A ruling an earlier hub logged beyond them is not applied on replay
(:func:`out_of_bounds` says why; hub.scoring logs it).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from bridgecore.adjusted import ArtificialScore
from hub.errors import HubError

__all__ = ["MAX_PENALTY", "MAX_SCORE", "RulingError", "artificial_level", "bounded_number",
           "out_of_bounds", "outcomes_value", "score_value", "side_award"]

MAX_SCORE = 10_000                 # a North-South score (7NTXX vulnerable, 13 down: 7,600)
MAX_PENALTY = {"percent": 100.0, "mp": 10_000.0, "imp": 100.0, "vp": 100.0}
_LEVEL = re.compile(r"^A([+=-])$")


class RulingError(HubError, ValueError):
    """A ruling the hub cannot take: a table, board, pair or alert that does not exist, or a
    score the Laws do not allow. The message names the ruling and what is wrong."""


def bounded_number(value: Any, name: str, where: str, low: float = -1e6,
            high: float = 1e6) -> float:
    """``value`` as a finite number from ``low`` to ``high``, else a RulingError naming it."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RulingError(f"{where}: {name} must be a number, not {value!r:.40}")
    if not low <= value <= high:
        raise RulingError(f"{where}: {name} {value:.6g} is out of bounds ({low:g} to "
                          f"{high:g})")
    return float(value)


def out_of_bounds(ruling: Mapping[str, Any]) -> str:
    """What of a logged ruling is beyond today's bounds (empty when nothing is)."""
    try:
        if ruling.get("kind") == "penalty":
            bounded_number(ruling.get("amount"), "amount", "penalty", 0.0,
                    MAX_PENALTY.get(str(ruling.get("unit")), 0.0))
        for name in ("ns_percent", "ew_percent"):
            if ruling.get(name) is not None:
                bounded_number(ruling[name], name, "ruling", 0.0, 100.0)
        if ruling.get("score_ns") is not None:
            score_value(ruling["score_ns"], "score_ns", "ruling")
        for weight, score in ruling.get("outcomes") or ():
            bounded_number(weight, "a weight", "ruling", 0.0, 1.0)
            score_value(score, "score", "ruling")
    except (RulingError, TypeError, ValueError) as err:
        return str(err)
    return ""


def artificial_level(value: Any, name: str, where: str) -> ArtificialScore:
    match = _LEVEL.match(value.strip().upper()) if isinstance(value, str) else None
    if match is None:
        raise RulingError(f"{where}: {name} {value!r:.40} is not an artificial adjusted score "
                          "(A+, A= or A-, Law 12C2)")
    return ArtificialScore("A" + match.group(1))


def score_value(value: Any, name: str, where: str) -> int:
    if (isinstance(value, bool) or not isinstance(value, int) or value % 10
            or abs(value) > MAX_SCORE):
        raise RulingError(f"{where}: {name} {value!r:.40} is not a score (a whole multiple "
                          f"of 10, North-South's, at most {MAX_SCORE} either way)")
    return value


def outcomes_value(value: Any, name: str, where: str) -> list[list[float | int]]:
    if not isinstance(value, list) or not value:
        raise RulingError(f"{where}: {name} is a list of [weight, score_ns] (Law 12C1(c))")
    out: list[list[float | int]] = []
    for item in value:
        if not isinstance(item, list) or len(item) != 2:
            raise RulingError(f"{where}: {name}: {item!r:.40} is not [weight, score_ns]")
        out.append([bounded_number(item[0], "a weight", where, 0.0, 1.0),
                    score_value(item[1], "score", where)])
    return out


def side_award(value: Any, name: str, where: str) -> str | int | list[list[float | int]]:
    """One side's award of a split score, normalised: "A+", a score, or weighted outcomes."""
    if isinstance(value, str):
        return str(artificial_level(value, name, where))
    if isinstance(value, list):
        return outcomes_value(value, name, where)
    return score_value(value, name, where)
