"""A section scored (:class:`SectionScore`): every board's traveller lines with their
points, the ranking, the penalties and the problems, and the JSON published of them
(``results/ranking/{section}``, ``results/traveller/{section}/{board}``) and a pair's score
card; and which lines are scored (:func:`not_scored`, :func:`whole_matches`; why a line is
never scored is a message: hub.texts renders it). :class:`hub.scoring.LiveScoring` makes one
at each rescoring of a section.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bridgecore.adjusted import BoardResult, Pair
from bridgecore.conventions import LAWS_ONLY, Conventions
from bridgecore.markings import Markings
from bridgecore.ranking import EventScore, Method, rank
from bridgecore.text import Text
from hub.texts import render

__all__ = ["SectionScore", "not_scored", "whole_matches"]


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, 2) + 0.0  # never -0.0


def _natural(pair: Any) -> tuple[int, int, str]:
    return (0, pair, "") if isinstance(pair, int) else (1, 0, str(pair))


@dataclass(slots=True)
class SectionScore:
    """A section scored: every board's traveller lines with their points, the ranking, the
    penalties and the problems (results that could not be scored, and why)."""

    name: str
    key: str                         # the section in topics: its name, or S1, S2...
    method: Method
    one_winner: bool
    expected: int
    units: str                       # of the totals: MP, IMPs or VP
    event: EventScore
    lines: dict[int, list[dict[str, Any]]]
    names: dict[Any, list[str]]      # contestant -> players (a team: its two pairs')
    penalties: list[dict[str, Any]]
    problems: list[Text]             # each a message (hub.texts renders it)
    markings: Mapping[int, Markings] = field(default_factory=dict)  # the boards' (Law 2)
    conventions: Conventions = LAWS_ONLY   # the event's federation (how ties are written)
    # A Swiss section's standings (hub.swiss: VPs with the byes, the tie-breaks), which are
    # its ranking everywhere; None for any other section.
    ranked_by: Callable[[SectionScore], list[dict[str, Any]] | None] | None = None
    individual: bool = False         # contestants are players (docs/protocol.md 12.2)
    language: str = "en"             # the event's: the words of the ranking's ``problems``
    # pair -> who played for one of its players in some rounds (hub.substitutes), as data
    substitutes: Mapping[Any, list[dict[str, Any]]] = field(default_factory=dict)

    @property
    def swiss(self) -> list[dict[str, Any]] | None:
        """The Swiss standings as ranking entries (total: the VPs), or None."""
        return None if self.ranked_by is None else self.ranked_by(self)

    def ranking(self) -> list[dict[str, Any]]:
        """The contestants in order, each with its players, total, percent and rank (a
        Swiss section: its standings, :attr:`swiss`)."""
        swiss = self.swiss
        if swiss is not None:
            return swiss
        entries: list[dict[str, Any]] = [
            {"pair": p.pair, "names": self.names.get(p.pair, []),
             "direction": None if p.direction is None else p.direction.value,
             "total": p.total, "percent": p.percent, "rank": p.rank, "boards": p.boards}
            for p in self.event.ranking]
        if self.one_winner and any(e["direction"] is not None for e in entries):
            # The movement seats pairs both ways, but not every pair has yet: one field.
            keys = [e["percent"] if e["percent"] is not None else e["total"] for e in entries]
            for e, place in zip(entries, rank(keys), strict=True):
                e.update(direction=None, rank=place)
            entries.sort(key=lambda e: (e["rank"], _natural(e["pair"])))
        for e in entries:
            e.update(total=_r(e["total"]), percent=_r(e["percent"]))
            if self.substitutes.get(e["pair"]):
                e["substitutes"] = [dict(sub) for sub in self.substitutes[e["pair"]]]
        return entries

    def ranking_json(self) -> dict[str, Any]:
        """The payload of ``results/ranking/{section}``."""
        return {"v": 1, "section": self.name, "key": self.key, "method": self.method.value,
                "field": "one-winner" if self.one_winner else "two-winner",
                "expected": self.expected,
                "units": self.units if self.ranked_by is None or self.swiss is None else "VP",
                "boards": [{"board": b, "results": sum(1 for r in rows if not r["not_scored"]),
                            "scored": sum(1 for r in rows if r["scored"])}
                           for b, rows in self.lines.items()],
                "ranking": self.ranking(), "penalties": self.penalties,
                "problems": [render(p, self.language) for p in self.problems],
                "ties": self.conventions.tie_style,
                **({"individual": True} if self.individual else {})}

    def problem_texts(self) -> list[dict[str, Any]]:
        """The problems as messages (docs/protocol.md 1, Texts), for the results pages."""
        return [p.to_json() for p in self.problems]

    def traveller_json(self, board: int) -> dict[str, Any]:
        """The payload of ``results/traveller/{section}/{board}``: every result so far."""
        rows = self.lines.get(board, [])
        top = self.event.tops.get(board)
        return {"v": 1, "section": self.name, "key": self.key, "board": board,
                "method": self.method.value, "top": top, "expected": self.expected,
                **self.markings.get(board, Markings.of_board(board)).to_json(),
                "fouled": max((r["form"] for r in rows), default=0) > 0,
                "results": [dict(r, ns_points=_r(r["ns_points"]), ew_points=_r(r["ew_points"]),
                                 ns_percent=_r(r["ns_percent"]), ew_percent=_r(r["ew_percent"]))
                            for r in rows]}

    def played(self, contestant: int) -> list[int]:
        """The boards ``contestant`` played, in order: a pair's (its lines' NS or EW), or in
        an individual a player's (the lines that seat him, ``players``)."""
        if self.individual:
            return sorted(b for b, rows in self.lines.items()
                          if any(contestant in (r.get("players") or ()) for r in rows))
        return sorted(b for b, rows in self.lines.items()
                      if any(contestant in (r["NS"], r["EW"]) for r in rows))

    def card(self, pair: int) -> list[dict[str, Any]]:
        """A pair's score card: each board it played, from its side of the table."""
        out = []
        for board, rows in self.lines.items():
            for r in rows:
                if pair not in (r["NS"], r["EW"]):
                    continue
                ns = r["NS"] == pair
                score = r["score_ns"]
                out.append({
                    "board": board, "round": r["round"], "table": r["table"],
                    "direction": "NS" if ns else "EW", "opponents": r["EW"] if ns else r["NS"],
                    "contract": r["contract"], "declarer": r["declarer"], "tricks": r["tricks"],
                    "score": None if score is None else (score if ns else -score) + 0,
                    "points": _r(r["ns_points" if ns else "ew_points"]),
                    "percent": _r(r["ns_percent" if ns else "ew_percent"]),
                    "top": self.event.tops.get(board), "adjustment": r["adjustment"],
                    "ruling": r["ruling"],     # the deprived side of a 15B line, scored
                    "scored": r["scored"] or r["ns_points" if ns else "ew_points"] is not None,
                    "not_scored": r.get("not_scored"),
                    "not_scored_text": r.get("not_scored_text"),
                    "corrected": r.get("corrected")})
        out.sort(key=lambda c: (c["round"], c["board"]))
        return out


# The lines scored (hub.scoring) ------------------------------------------------------------

def not_scored(line: Mapping[str, Any], first: Mapping[int, Mapping[str, Any]]
               ) -> Text | None:
    """Why ``line`` is never to be scored, or None: the pairs not known, or a pair that
    played the board before (Law 15B: "the second score is cancelled for both sides";
    ``first`` holds the line where each pair first played the board, earlier in time,
    scored or not: a pair whose first play was cancelled has still played the board)."""
    ns, ew = line["NS"], line["EW"]
    if ns is None or ew is None:
        return Text.of("problem.pairs_unknown")
    for pair in (ns, ew):
        before = first.get(pair)
        if before is not None:
            return Text.of("problem.played_before", pair=pair, table=before["table"],
                           round=before["round"])
    return None


def whole_matches(results: Iterable[BoardResult], teams: Mapping[Pair, Pair]
                   ) -> list[BoardResult]:
    """The results whose other table of the match has its result too: a teams board is
    scored once both rooms have played it (78B)."""
    rows = list(results)
    present = {(r.board, teams.get(r.ns), teams.get(r.ew)) for r in rows}
    return [r for r in rows if (r.board, teams.get(r.ew), teams.get(r.ns)) in present]
