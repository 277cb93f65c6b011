"""The public live ranking during play counts only the boards every table has finished
(Law 16; issue 23): a pair's total over every board it played, minus the boards the public
pages show, gave its result on the boards still being played at other tables. So the public
view (hub.results_pages) ranks each section again over the shown boards only, unless the
director chose ``live_ranking: "all"`` in the ``public_results`` settings.

A pairs section (matchpoints, IMPs against a datum, Butler, cross-IMPs): each contestant's
total is the sum of its points on the shown boards, a penalty taken off when it is on a
shown board or on none; its percentage (matchpoints) is that total over the tops of the
boards it played among them, a penalty in percent taken off that; ranks are given again in
each field (one winner, or each direction). A teams section's totals are whole matches
(victory points): its ranking is not shown until every board of it is; nor is a Swiss
section's (its standings, hub.swiss: between two rounds every board played is shown).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from bridgecore.ranking import Method, rank

if TYPE_CHECKING:
    from hub.scoring import SectionScore

__all__ = ["LIVE_RANKINGS", "public_ranking"]

LIVE_RANKINGS = ("finished", "all")   # the ``public_results`` setting's values


def public_ranking(scored: SectionScore, shown: Collection[int]) -> list[dict[str, Any]]:
    """``scored``'s ranking over the boards of ``shown`` only (module docstring)."""
    full = scored.ranking()
    if all(board in shown for board in scored.lines):
        return full
    if scored.method is Method.IMPS or scored.swiss is not None:   # teams, Swiss: whole
        return []                                                 # matches, not boards
    totals: dict[Any, float] = defaultdict(float)
    tops: dict[Any, float] = defaultdict(float)
    boards: dict[Any, int] = defaultdict(int)
    for board, rows in scored.lines.items():
        if board not in shown:
            continue
        top = scored.event.tops.get(board) or 0.0
        for row in rows:
            for side, points in (("NS", "ns_points"), ("EW", "ew_points")):
                if row[points] is None:    # not scored, or not that side (Law 15B)
                    continue
                # an individual's players each have their side's points (protocol 12.2)
                seats = row.get("players")
                who = [row[side]] if seats is None else seats[side == "EW"::2]
                for pair in who:
                    totals[pair] += row[points]
                    tops[pair] += top
                    boards[pair] += 1
    off_percent: dict[Any, float] = defaultdict(float)
    for penalty in scored.penalties:
        if penalty["board"] is not None and penalty["board"] not in shown:
            continue
        if penalty["unit"] == "percent":
            off_percent[penalty["pair"]] += penalty["amount"]
        else:
            totals[penalty["pair"]] -= penalty["amount"]
    entries = []
    for entry in full:
        pair = entry["pair"]
        percent = None
        if scored.method is Method.MATCHPOINTS:
            percent = (100 * totals[pair] / tops[pair] if tops[pair] else 0.0) \
                - off_percent[pair]
        entries.append(dict(entry, total=round(totals[pair], 2) + 0.0,
                            percent=None if percent is None else round(percent, 2) + 0.0,
                            boards=boards[pair]))
    fields: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for entry in entries:
        fields[entry["direction"]].append(entry)
    for field in fields.values():
        keys = [e["percent"] if e["percent"] is not None else e["total"] for e in field]
        for entry, place in zip(field, rank(keys), strict=True):
            entry["rank"] = place
    entries.sort(key=lambda e: (str(e["direction"]), e["rank"], str(e["pair"])))
    return entries
