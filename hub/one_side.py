"""A ruling's adjusted score, and Law 15B's artificial score for one side of a line alone.

:func:`adjustment_of` turns a checked result ruling (hub.rulings) into bridgecore's adjusted
score.

Law 15B (2017): the second play of a board by a player is cancelled "both for his side and
his opponents", and the Director awards an artificial adjusted score to the contestants
deprived of the opportunity to earn a valid score. hub.scoring keeps the first play in
time of each pair; on a cancelled line, the pair whose first play of the board that line
was (it had not played the board before) is the one deprived: :func:`deprived_side` names
its side, and the traveller says so (``deprived``; the reason ``problem.played_before_deprived``
names the pair). The other pair, the one that had played the board, keeps the score of its
first play. At most one side of a cancelled line is deprived: a line whose two pairs had
not played the board before is no second play.

The award is an ``artificial`` ruling on that line with the deprived side's level alone
(``ns`` or ``ew``, :func:`only_side`): scored for that side alone
(``bridgecore.adjusted.BoardResult.only``), never compared with the board's results, never
in the expected number nor in the top, and never a second score for the other side's pair.
The director gives it (the console offers it on the line); the hub never awards it itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bridgecore.adjusted import (
    Adjustment,
    Artificial,
    ArtificialScore,
    Assigned,
    SideAward,
    Split,
    Weighted,
)
from bridgecore.cards import Side
from bridgecore.text import Text
from hub.ruling_values import ruling_refused

__all__ = ["adjustment_of", "adjustment_text", "check_deprived", "deprived_reason",
           "deprived_side", "only_side"]


def _side(value: Any) -> SideAward:
    if isinstance(value, str):
        return ArtificialScore(value)
    if isinstance(value, list):
        return Weighted(tuple((float(w), int(s)) for w, s in value))
    return Assigned(int(value))


def only_side(ruling: Mapping[str, Any]) -> Side | None:
    """The one side an ``artificial`` ruling scores (Law 15B: ``ns`` or ``ew`` alone), or
    None for a ruling on both sides."""
    if ruling.get("kind") != "artificial":
        return None
    ns, ew = ruling.get("ns") is not None, ruling.get("ew") is not None
    return None if ns == ew else Side.NS if ns else Side.EW


def adjustment_of(ruling: Mapping[str, Any]) -> Adjustment:
    """The bridgecore adjusted score of a (checked) result ruling; ValueError if the Laws do
    not allow it (weights not adding up to 1, a percentage not of its level). A one-sided
    artificial ruling gives its level to both sides: only its side is scored on it."""
    kind = ruling["kind"]
    if kind == "artificial":
        only = only_side(ruling)
        ns, ew = ("ns", "ew") if only is None else ("ns", "ns") if only is Side.NS \
            else ("ew", "ew")
        return Artificial(ArtificialScore(ruling[ns]), ArtificialScore(ruling[ew]),
                          ruling.get(f"{ns}_percent"), ruling.get(f"{ew}_percent"))
    if kind == "assigned":
        return Assigned(int(ruling["score_ns"]))
    if kind == "weighted":
        return Weighted(tuple((float(w), int(s)) for w, s in ruling["outcomes"]))
    if kind == "split":
        return Split(_side(ruling["ns"]), _side(ruling["ew"]))
    raise ValueError(f"a {kind} ruling is not an adjusted score")


def adjustment_text(ruling: Mapping[str, Any]) -> str:
    """The adjusted score as the traveller writes it: ``A+ A-``; ``NS A+`` for one side."""
    only = only_side(ruling)
    if only is None:
        return str(adjustment_of(ruling))
    name = only.value.lower()
    percent = ruling.get(f"{name}_percent")
    return f"{only.value} {ruling[name]}" + ("" if percent is None else f"{percent:g}")


def deprived_side(line: Mapping[str, Any], first: Mapping[int, Mapping[str, Any]]
                  ) -> str | None:
    """On a cancelled line (Law 15B), the side (``"NS"``/``"EW"``) whose pair had not played
    the board before: ``first`` (each pair's first play of the board, this line's noted)
    holds this very line for it. None when both pairs had played it."""
    for side in ("NS", "EW"):
        pair = line[side]
        if pair is not None and first.get(pair) is line:
            return side
    return None


def deprived_reason(reason: Text, pair: int) -> Text:
    """Why a line is not scored, and that ``pair`` it deprived is owed an artificial score."""
    if reason.key != "problem.played_before":
        return reason
    return Text.of("problem.played_before_deprived", **reason.fields, deprived=pair)


def check_deprived(ruling: Mapping[str, Any], body: Mapping[str, Any],
                   lines: Iterable[Mapping[str, Any]], teams: bool, where: Text) -> None:
    """A one-sided ``artificial`` ruling (checked into ``ruling`` from the command ``body``)
    is for the side a cancelled second play deprived of a valid score, on its line among
    the board's traveller ``lines``, in a pairs section (not ``teams``): RulingError
    (hub.ruling_values) saying so otherwise."""
    side = only_side(ruling)
    assert side is not None
    other = "ew_percent" if side is Side.NS else "ns_percent"
    if body.get(other) is not None:
        raise ruling_refused(where, Text.of("refusal.not_for_kind", fields=other))
    line = next((x for x in lines
                 if (x["table"], x["round"]) == (ruling["table"], ruling["round"])), None)
    if teams or line is None or line.get("deprived") != side.value:
        raise ruling_refused(where, Text.of("refusal.not_deprived", side=side.value,
                                            table=ruling["table"], board=ruling["board"]))
