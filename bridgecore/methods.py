"""Scoring methods board by board (Law 78): matchpoints, IMPs, total points, victory points.

Pure and table-driven. Each ``*_board`` function takes the results of one board and
returns ``(ns_points, ew_points)`` for each result, in order.

* Matchpoints (78A): ``units=1`` gives one matchpoint per score beaten and a half per
  tie (top n-1, the default); ``units=2`` is Law 78A's two scoring units per lower score
  (top 2(n-1), PBN ``MP1``, USEBIO). A board with fewer results than expected is scaled
  by Neuberg's formula (formats.md 9.1); the forms of a fouled board (Law 87) are scored
  as separate groups, each scaled to the expected number, which reconciles them.
* IMPs (78B, :func:`bridgecore.scoring.imps`): teams compare the two tables of a match;
  Butler compares with a datum, cross-IMPs with every other result (formats.md 9.2).
* Total points (78C); victory points on the WBF 2013 continuous scale (78D, formats.md 9.3).

An artificial adjusted score (Law 12C2) is not part of the field: its side gets a share
of the top or a number of IMPs from the ``artificial`` callback (default: the Law 12C2
60/50/40% and +3/0/-3 IMPs). Assigned, weighted and split scores (12C1) are compared
with the field outcome by outcome: a weighted score earns the weighted sum of the points
of its outcomes, and the other results are compared with each outcome at its weight.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from bridgecore.adjusted import (
    ArtificialAward,
    ArtificialScore,
    Award,
    BoardResult,
    Distribution,
    awards,
)
from bridgecore.cards import Side
from bridgecore.conventions import Rounding, SmallGroups
from bridgecore.scoring import imps

__all__ = [
    "ArtificialRule", "board_top", "butler_board", "butler_datum", "cross_imp_board",
    "cross_imps", "group_by_board", "imp_match_board", "matchpoint_board", "matchpoints",
    "neuberg", "small_group_percent", "total_points_board", "victory_points", "vp_scale",
]

ArtificialRule = Callable[[BoardResult, Side, ArtificialAward], float]
"""Points for an artificial side: a percentage (matchpoints) or IMPs."""


def _default_percent(_result: BoardResult, _side: Side, award: ArtificialAward) -> float:
    return award.score.percent if award.percent is None else award.percent


def _imp_rule(amounts: tuple[float, float, float]) -> ArtificialRule:
    table = dict(zip(ArtificialScore, amounts, strict=True))
    return lambda _result, _side, award: table[award.score]


# Matchpoints (Law 78A) ------------------------------------------------------------------

def _field_matchpoints(entries: Sequence[Distribution], units: int) -> list[float]:
    """Matchpoints of each entry against all the others (higher score better)."""
    weight: dict[float, float] = defaultdict(float)
    for entry in entries:
        for w, s in entry:
            weight[s] += w
    below: dict[float, float] = {}
    acc = 0.0
    for value in sorted(weight):
        below[value] = acc
        acc += weight[value]
    half = units / 2
    out = []
    for entry in entries:
        points = 0.0
        for w, s in entry:
            less, equal = below[s], weight[s]
            for w2, s2 in entry:  # not against itself
                if s2 < s:
                    less -= w2
                elif s2 == s:
                    equal -= w2
            points += w * (units * less + half * equal)
        out.append(points)
    return out


def matchpoints(scores: Sequence[int], *, units: int = 1) -> list[float]:
    """Law 78A: each score against every other, ``units`` per lower score, half per tie."""
    return _field_matchpoints([((1.0, s),) for s in scores], units)


def neuberg(points: float, actual: int, expected: int, *, units: int = 1) -> float:
    """Neuberg's formula (formats.md 9.1): ``M' = (M + u/2)·E/A - u/2``.

    ``points`` were earned among ``actual`` results; the result is on the top of
    ``expected`` results (u = 1: ``(M + 1/2)·E/A - 1/2``; u = 2: ``(M + 1)·E/A - 1``).
    """
    if actual < 1 or expected < 1:
        raise ValueError(f"Neuberg needs at least one result and one expected, got "
                         f"{actual} and {expected}")
    half = units / 2
    return (points + half) * expected / actual - half


def small_group_percent(points: float, actual: int, *, units: int = 1) -> float:
    """A small fouled-board group's percentage: 60% + (M - (A-1))·5%, M in MP2 units (two
    a score beaten): 65/55 for two results, 70/60/50 for three, 60 for one (the EBU's and
    the ACBL's percentages, :class:`bridgecore.conventions.SmallGroups`)."""
    return 60.0 + (points * 2 / units - (actual - 1)) * 5.0


def _small_rule(value: bool | str | SmallGroups) -> SmallGroups:
    if value is True:
        return SmallGroups.EBU
    if value is False or value == "":
        return SmallGroups.NEUBERG
    return SmallGroups(value)


def _is_small(rule: SmallGroups, a: int, e: int, sizes: Sequence[int]) -> bool:
    """Whether a group of ``a`` results of a fouled board (its groups ``sizes``) gets the
    small-group percentages instead of Neuberg (Law 87B, by the regulations)."""
    if len(sizes) < 2 or a < 1:
        return False
    if rule is SmallGroups.EBU:
        return a in (2, 3) and e >= 3 * a
    if rule is SmallGroups.ACBL:
        return a in (1, 2) or (a == 3 and any(s > a for s in sizes))
    return False


def _check_board(results: Sequence[BoardResult]) -> None:
    if len({r.board for r in results}) > 1:
        raise ValueError(f"results of several boards: {sorted({r.board for r in results})}")


def _side_scores(award: Award, side: Side) -> Distribution | None:
    """The award as scores where higher is better for ``side`` (None when artificial)."""
    if isinstance(award, ArtificialAward):
        return None
    return award if side is Side.NS else tuple((w, -s) for w, s in award)


def _groups(results: Sequence[BoardResult]) -> list[list[int]]:
    groups: dict[int, list[int]] = defaultdict(list)
    for i, r in enumerate(results):
        groups[r.form].append(i)
    return list(groups.values())


def board_top(results: Sequence[BoardResult], expected: int | None = None, *,
              units: int = 1, neuberg: bool = True) -> float:
    """The top of a matchpointed board: ``units·(E-1)``, or without Neuberg scaling
    ``units·(A-1)`` with A the results that are not wholly artificial (BriAn's way)."""
    fouled = len({r.form for r in results}) > 1
    if neuberg or fouled:
        return float(units * ((expected or len(results)) - 1))
    real = sum(1 for r in results
               if not all(isinstance(a, ArtificialAward) for a in awards(r)))
    return float(units * max(real - 1, 0))


def matchpoint_board(results: Sequence[BoardResult], expected: int | None = None, *,
                     units: int = 1, neuberg: bool = True,
                     small_groups: bool | str | SmallGroups = False,
                     rounding: Rounding | None = None,
                     artificial: ArtificialRule | None = None) -> list[tuple[float, float]]:
    """Matchpoints of each result of one board (Law 78A), as ``(ns_points, ew_points)``.

    ``expected`` (E) defaults to the number of results; a direction with fewer results
    in the field is Neuberg-scaled to E. A fouled board (several ``form`` values, Law 87B)
    is scored form by form, each Neuberg-scaled to E; ``small_groups`` (``"ebu"`` or True,
    ``"acbl"``) gives the small groups that regulation's percentages instead
    (:class:`bridgecore.conventions.SmallGroups`). ``rounding`` rounds each scaled or
    small-group score as the regulations do. An artificial side gets
    ``artificial(result, side, award)`` percent of the top (default 60/50/40).
    """
    results = list(results)
    _check_board(results)
    if not results:
        return []
    e = expected or len(results)
    rule = artificial or _default_percent
    top = board_top(results, e, units=units, neuberg=neuberg)
    all_awards = [awards(r) for r in results]
    groups = _groups(results)
    scale = neuberg or len(groups) > 1
    small = _small_rule(small_groups)
    points: list[list[float]] = [[0.0, 0.0] for _ in results]
    for k, side in enumerate(Side):
        fields = [[(i, d) for i in group
                   if (d := _side_scores(all_awards[i][k], side)) is not None]
                  for group in groups]
        sizes = [len(f) for f in fields]
        for field in fields:
            a = len(field)
            raw = _field_matchpoints([d for _, d in field], units)
            for (i, _), m in zip(field, raw, strict=True):
                if _is_small(small, a, e, sizes):
                    value = small_group_percent(m, a, units=units) / 100 * top
                elif scale:
                    value = _neuberg(m, a, e, units)
                else:
                    value = m
                if rounding is not None and value != m:
                    value = rounding(value, top / 2)
                points[i][k] = value
    for i, (r, pair) in enumerate(zip(results, all_awards, strict=True)):
        for k, side in enumerate(Side):
            award = pair[k]
            if isinstance(award, ArtificialAward):
                points[i][k] = rule(r, side, award) / 100 * top
    return [(ns, ew) for ns, ew in points]


def _neuberg(points: float, actual: int, expected: int, units: int) -> float:
    return points if actual == expected else neuberg(points, actual, expected, units=units)


# IMPs (Law 78B) ---------------------------------------------------------------------------

def _expected(d: Distribution) -> float:
    return sum(w * s for w, s in d)


def _round_10(value: float, half_even: bool = False) -> int:
    """Nearest multiple of 10, halves away from zero (or to the even ten)."""
    if half_even:
        return round(value / 10) * 10
    return int(math.copysign(math.floor(abs(value) / 10 + 0.5), value)) * 10


def butler_datum(scores: Sequence[float], trim: int = 0, *, half_even: bool = False) -> int:
    """The Butler datum: the mean North-South score rounded to the nearest 10.

    ``trim`` drops that many top and bottom scores first when more than ``2·trim``
    results remain (PBN ``Butler-2``, Bridgemate "omit"); off by default. A mean half-way
    between two tens goes away from zero, or with ``half_even`` to the even ten (ACBLscore:
    425 to 420, 435 to 440).
    """
    if not scores:
        raise ValueError("a Butler datum needs at least one score")
    ordered = sorted(scores)
    if trim > 0 and len(ordered) > 2 * trim:
        ordered = ordered[trim:-trim]
    return _round_10(sum(ordered) / len(ordered), half_even)


def _imps_of(d: Distribution, reference: float) -> float:
    return sum(w * imps(s - reference) for w, s in d)


def butler_board(results: Sequence[BoardResult], *, trim: int = 0, half_even: bool = False,
                 artificial: ArtificialRule | None = None) -> list[tuple[float, float]]:
    """Butler IMPs of each result against the board's datum (per form of a fouled board)."""
    results = list(results)
    _check_board(results)
    rule = artificial or _imp_rule((3.0, 0.0, -3.0))
    all_awards = [awards(r) for r in results]
    points: list[list[float]] = [[0.0, 0.0] for _ in results]
    for group in _groups(results):
        field = []
        for i in group:
            sides = [_expected(a) for a in all_awards[i] if not isinstance(a, ArtificialAward)]
            if sides:
                field.append(sum(sides) / len(sides))
        datum = butler_datum(field, trim, half_even=half_even) if field else 0
        for i in group:
            for k, side in enumerate(Side):
                award = all_awards[i][k]
                if isinstance(award, ArtificialAward):
                    points[i][k] = rule(results[i], side, award)
                else:
                    ns = _imps_of(award, datum)
                    points[i][k] = ns if side is Side.NS else -ns
    return [(ns, ew) for ns, ew in points]


def _field_cross_imps(entries: Sequence[Distribution], average: bool) -> list[float]:
    weight: dict[float, float] = defaultdict(float)
    for entry in entries:
        for w, s in entry:
            weight[s] += w
    base: dict[float, float] = {}
    for value in weight:
        base[value] = sum(v * imps(value - o) for o, v in weight.items())
    out = []
    for entry in entries:
        total = sum(w * (base[s] - sum(w2 * imps(s - s2) for w2, s2 in entry))
                    for w, s in entry)
        if average:
            total = total / (len(entries) - 1) if len(entries) > 1 else 0.0
        out.append(total)
    return out


def cross_imps(scores: Sequence[int], *, average: bool = True) -> list[float]:
    """IMPs of each score against every other score, summed, divided by the n-1
    comparisons when ``average`` (Bridgemate "average", PBN ``Cross2``) or not ("total")."""
    return _field_cross_imps([((1.0, s),) for s in scores], average)


def cross_imp_board(results: Sequence[BoardResult], *, average: bool = True,
                    artificial: ArtificialRule | None = None) -> list[tuple[float, float]]:
    """Cross-IMPs of each result, each direction against the same direction's results."""
    results = list(results)
    _check_board(results)
    rule = artificial or _imp_rule((3.0, 0.0, -3.0))
    all_awards = [awards(r) for r in results]
    points: list[list[float]] = [[0.0, 0.0] for _ in results]
    for group in _groups(results):
        for k, side in enumerate(Side):
            field = [(i, d) for i in group
                     if (d := _side_scores(all_awards[i][k], side)) is not None]
            for (i, _), value in zip(field, _field_cross_imps([d for _, d in field], average),
                                     strict=True):
                points[i][k] = value
    for i, r in enumerate(results):
        for k, side in enumerate(Side):
            award = all_awards[i][k]
            if isinstance(award, ArtificialAward):
                points[i][k] = rule(r, side, award)
    return [(ns, ew) for ns, ew in points]


def imp_match_board(table_a: BoardResult, table_b: BoardResult, *,
                    artificial: ArtificialRule | None = None,
                    knockout: bool = False) -> tuple[tuple[float, float], tuple[float, float]]:
    """Law 78B teams: the two tables of a match, as ``(ns_points, ew_points)`` of each.

    The team sitting North-South at ``table_a`` and East-West at ``table_b`` scores the
    IMPs of the difference. Non-balancing scores (12C1(f)) are worked out for each team
    on its own awards; in a knockout match each team gets the average of the two
    (Law 12C4, 86B). An artificial side gets ``artificial(...)`` IMPs (default +3/0/-3),
    the mean of the two when both of a team's sides are artificial.
    """
    if table_a.board != table_b.board:
        raise ValueError(f"boards {table_a.board} and {table_b.board} are not one board")
    rule = artificial or _imp_rule((3.0, 0.0, -3.0))
    a_ns, a_ew = awards(table_a)
    b_ns, b_ew = awards(table_b)

    def team(ns: Award, ew: Award, ns_table: BoardResult, ew_table: BoardResult) -> float:
        parts = [rule(t, side, award) for t, side, award in
                 ((ns_table, Side.NS, ns), (ew_table, Side.EW, ew))
                 if isinstance(award, ArtificialAward)]
        if parts:
            return sum(parts) / len(parts)
        assert not isinstance(ns, ArtificialAward) and not isinstance(ew, ArtificialAward)
        return sum(w * v * imps(s - t) for w, s in ns for v, t in ew)

    x = team(a_ns, b_ew, table_a, table_b)
    y = team(b_ns, a_ew, table_b, table_a)
    if knockout and x + y != 0:
        x, y = (x - y) / 2, (y - x) / 2
    return (x, y), (y, x)


# Total points (Law 78C) -----------------------------------------------------------------

def total_points_board(results: Sequence[BoardResult]) -> list[tuple[float, float]]:
    """Law 78C: each side scores its own total points (assigned and weighted expected)."""
    out = []
    for r in results:
        ns, ew = awards(r)
        if isinstance(ns, ArtificialAward) or isinstance(ew, ArtificialAward):
            raise ValueError(f"board {r.board}: an artificial adjusted score has no "
                             "total-point value (Law 78C)")
        out.append((_expected(ns), -_expected(ew)))
    return out


# Victory points (Law 78D; WBF 2013 continuous scale) --------------------------------------

_R = ((math.sqrt(5) - 1) / 2) ** 3  # tau cubed


@lru_cache(maxsize=64)
def vp_scale(boards: int) -> tuple[float, ...]:
    """The WBF 2013 continuous 20-VP scale for a match of ``boards`` boards (formats.md 9.3).

    Winner's VPs for IMP margins 0, 1, ... up to the blitz ``B = 15·sqrt(boards)``:
    ``10 + 10·(1 - tau^(3M/B)) / (1 - tau^3)``, rounded to 0.01, then the WBF concavity
    correction: while some second difference is positive, the value before it is raised by
    0.01 (as ImportUsebio's ``Bridge Calculations.swift`` does).
    """
    if boards < 1:
        raise ValueError(f"a match has at least one board, got {boards}")
    blitz = 15 * math.sqrt(boards)
    hundredths = [min(2000, math.floor(1000 * (1 + (1 - _R ** (m / blitz)) / (1 - _R)) + 0.5))
                  for m in range(math.ceil(blitz) + 1)]
    while True:
        bad = next((i for i in range(2, len(hundredths))
                    if hundredths[i] - 2 * hundredths[i - 1] + hundredths[i - 2] > 0), None)
        if bad is None:
            break
        hundredths[bad - 1] += 1
    return tuple(h / 100 for h in hundredths)


def victory_points(margin: float, boards: int) -> tuple[float, float]:
    """VPs of the two teams for an IMP ``margin`` (first team's IMPs minus the second's).

    Whole margins read :func:`vp_scale`; a fractional margin (averaged or weighted
    scores) is interpolated between its two neighbours.
    """
    scale = vp_scale(boards)
    m = abs(margin)
    if m >= len(scale) - 1:
        winner = 20.0
    else:
        low = math.floor(m)
        winner = scale[low] + (m - low) * (scale[low + 1] - scale[low])
        winner = round(winner, 2)
    loser = round(20.0 - winner, 2)
    return (winner, loser) if margin >= 0 else (loser, winner)


def group_by_board(results: Iterable[BoardResult]) -> dict[int, list[BoardResult]]:
    """Results grouped by board number, boards in order, results in input order."""
    boards: dict[int, list[BoardResult]] = defaultdict(list)
    for r in results:
        boards[r.board].append(r)
    return dict(sorted(boards.items()))
