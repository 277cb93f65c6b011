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
from bridgecore.text import Text
from hub.errors import HubError, error_text

__all__ = ["KIND_TEXTS", "MAX_PENALTY", "MAX_SCORE", "RulingError", "artificial_level",
           "bounded_number", "out_of_bounds", "outcomes_value", "ruling_refused", "score_value",
           "side_award"]

MAX_SCORE = 10_000                 # a North-South score (7NTXX vulnerable, 13 down: 7,600)
MAX_PENALTY = {"percent": 100.0, "mp": 10_000.0, "imp": 100.0, "vp": 100.0}
_LEVEL = re.compile(r"^A([+=-])$")
# A ruling's kind in the reader's words (a refusal starts "ruling artificial: ...")
KIND_TEXTS = {"artificial": Text.of("ruling.kind.artificial"),
              "assigned": Text.of("ruling.kind.assigned"),
              "weighted": Text.of("ruling.kind.weighted"), "split": Text.of("ruling.kind.split"),
              "penalty": Text.of("ruling.kind.penalty"), "fouled": Text.of("ruling.kind.fouled")}


class RulingError(HubError, ValueError):
    """A ruling the hub cannot take: a table, board, pair or alert that does not exist, or a
    score the Laws do not allow. The message names the ruling and what is wrong."""


def ruling_refused(where: Text, reason: Text | Exception) -> RulingError:
    """``where`` (the ruling: "ruling assigned on board 3 at table A1"), then why: a text, or
    bridgecore's error (its text, a RuleError's, else its English words)."""
    if isinstance(reason, Exception):
        reason = error_text(reason)
    return RulingError(Text.of("refusal.command", doing=where, reason=reason))


def bounded_number(value: Any, name: str, where: Text, low: float = -1e6,
                   high: float = 1e6) -> float:
    """``value`` as a finite number from ``low`` to ``high``, else a RulingError naming it."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ruling_refused(where, Text.of("refusal.not_number", name=name,
                                            value=f"{value!r:.40}"))
    if not low <= value <= high:
        raise ruling_refused(where, Text.of("refusal.out_of_bounds", name=name,
                                            value=f"{value:.6g}", low=f"{low:g}",
                                            high=f"{high:g}"))
    return float(value)


def out_of_bounds(ruling: Mapping[str, Any]) -> str:
    """What of a logged ruling is beyond today's bounds (empty when nothing is)."""
    where = Text.of("doing.ruling")
    try:
        if ruling.get("kind") == "penalty":
            bounded_number(ruling.get("amount"), "amount", where, 0.0,
                           MAX_PENALTY.get(str(ruling.get("unit")), 0.0))
        for name in ("ns_percent", "ew_percent"):
            if ruling.get(name) is not None:
                bounded_number(ruling[name], name, where, 0.0, 100.0)
        if ruling.get("score_ns") is not None:
            score_value(ruling["score_ns"], "score_ns", where)
        for weight, score in ruling.get("outcomes") or ():
            bounded_number(weight, "weight", where, 0.0, 1.0)
            score_value(score, "score", where)
    except (RulingError, TypeError, ValueError) as err:
        return str(err)
    return ""


def artificial_level(value: Any, name: str, where: Text) -> ArtificialScore:
    match = _LEVEL.match(value.strip().upper()) if isinstance(value, str) else None
    if match is None:
        raise ruling_refused(where, Text.of("refusal.not_artificial", name=name,
                                            value=f"{value!r:.40}"))
    return ArtificialScore("A" + match.group(1))


def score_value(value: Any, name: str, where: Text) -> int:
    if (isinstance(value, bool) or not isinstance(value, int) or value % 10
            or abs(value) > MAX_SCORE):
        raise ruling_refused(where, Text.of("refusal.not_score", name=name, value=f"{value!r:.40}",
                                            most=MAX_SCORE))
    return value


def outcomes_value(value: Any, name: str, where: Text) -> list[list[float | int]]:
    if not isinstance(value, list) or not value:
        raise ruling_refused(where, Text.of("refusal.outcomes", name=name))
    out: list[list[float | int]] = []
    for item in value:
        if not isinstance(item, list) or len(item) != 2:
            raise ruling_refused(where, Text.of("refusal.outcome_item", name=name,
                                                item=f"{item!r:.40}"))
        out.append([bounded_number(item[0], "weight", where, 0.0, 1.0),
                    score_value(item[1], "score", where)])
    return out


def side_award(value: Any, name: str, where: Text) -> str | int | list[list[float | int]]:
    """One side's award of a split score, normalised: "A+", a score, or weighted outcomes."""
    if isinstance(value, str):
        return str(artificial_level(value, name, where))
    if isinstance(value, list):
        return outcomes_value(value, name, where)
    return score_value(value, name, where)
