"""The ranking across the field: every pairs section of an event matchpointed as one.

Where the set-up says ``one_field = true`` (hub.event), the sections playing the same deals
are one field as well as sections of their own (Law 78A: each score against every other
score of the board in the field): the hub (shard 0 of a sharded event, hub.shards) reads
every section's travellers as they are published (``results/traveller/{section}/{board}``,
retained: whichever shard holds the section), keeps their lines (:class:`FieldRanking`)
and publishes ``results/field`` (retained), a ranking of the same shape as a section's
(wire.views ``RankingView``, ``section`` and ``key`` ``field``), each contestant named
``{section}:{pair}``. A single hub and a sharded one read the same travellers, so they rank
the same field.

What the field counts: each board's results as played in every matchpoint section, scored
by :func:`bridgecore.ranking.score_event` (matchpoints, Neuberg to the sum of the sections'
expected results, a two-winner field where no pair changes direction). Left out, and said
in ``problems``: a section scored otherwise than by matchpoints, a line with an adjusted
score (the director's ruling is scored in its section only) and a line not scored there
(Law 15B). Procedural penalties stay in the sections' rankings.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from bridgecore.adjusted import BoardResult
from bridgecore.conventions import conventions as conventions_named
from bridgecore.ranking import EventScore, Method, ScoringOptions, score_event
from bridgecore.text import Text
from hub.texts import render

__all__ = ["FIELD_KEY", "FieldRanking", "field_pair"]

log = logging.getLogger(__name__)

FIELD_KEY = "field"
"""``section`` and ``key`` of the field's ranking."""


def field_pair(section: str, pair: int) -> str:
    """A contestant of the field: its section's key and its number there."""
    return f"{section}:{pair}"


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, 2) + 0.0  # never -0.0


def _reason(line: Mapping[str, Any]) -> Text:
    """Why a traveller's line is not scored: its message, or the words of a hub before."""
    try:
        return Text.from_json(line.get("not_scored_text") or str(line["not_scored"]))
    except ValueError:
        return Text.plain(str(line["not_scored"]))


class FieldRanking:
    """Every section's travellers as published, and the field ranked from them."""

    def __init__(self, edition: str | None = None, conventions: str = "",
                 language: str = "en"):
        self.edition = edition
        self.conventions = conventions   # the event's federation (bridgecore.conventions)
        self.language = language         # the event's: the words of ``problems``
        # section key -> board -> the traveller's payload as received
        self._travellers: dict[str, dict[int, Mapping[str, Any]]] = {}
        self._names: dict[str, list[str]] = {}
        self._substitutes: dict[str, list[Any]] = {}   # as the sections publish them
        self._scored: EventScore | None = None
        self._problems: list[Text] = []
        self._counts: dict[int, list[int]] = {}   # board -> [results, scored], as last scored
        self.changed = False

    def traveller(self, section: str, board: int, payload: Mapping[str, Any] | None) -> None:
        """A section's traveller for ``board`` as published (None or empty: withdrawn)."""
        boards = self._travellers.setdefault(section, {})
        if not payload or not payload.get("results"):
            if boards.pop(board, None) is not None:
                self.changed = True
            return
        if boards.get(board) != payload:
            boards[board] = payload
            self.changed = True

    def ranking(self, section: str, payload: Mapping[str, Any] | None) -> None:
        """A section's ranking as published: only its players' names (and substitutes,
        hub.substitutes) are read."""
        for entry in (payload or {}).get("ranking", ()):
            pair = entry.get("pair")
            if isinstance(pair, int) and entry.get("names"):
                self._names[field_pair(section, pair)] = list(entry["names"])
            if isinstance(pair, int) and isinstance(entry.get("substitutes"), list):
                self._substitutes[field_pair(section, pair)] = list(entry["substitutes"])

    def _results(self) -> tuple[list[BoardResult], int, list[Text], dict[int, list[int]]]:
        problems: list[Text] = []
        results: list[BoardResult] = []
        expected: dict[int, int] = {}
        counts: dict[int, list[int]] = {}
        for section in sorted(self._travellers):
            for board, traveller in sorted(self._travellers[section].items()):
                if traveller.get("method") != Method.MATCHPOINTS.value:
                    problems.append(Text.of("problem.field_method", section=section,
                                            method=str(traveller.get("method"))))
                    break
                expected[board] = expected.get(board, 0) + int(traveller.get("expected") or 0)
                count = counts.setdefault(board, [0, 0])
                for line in traveller["results"]:
                    count[0] += 1
                    where = {"board": board, "section": section,
                             "table": str(line.get("table"))}
                    if line.get("not_scored"):
                        problems.append(Text.of("problem.field_not_scored", **where,
                                                reason=_reason(line)))
                    elif line.get("ruling") or line.get("score_ns") is None:
                        problems.append(Text.of("problem.field_adjusted", **where))
                    elif isinstance(line.get("NS"), int) and isinstance(line.get("EW"), int):
                        results.append(BoardResult(board, field_pair(section, line["NS"]),
                                                   field_pair(section, line["EW"]),
                                                   int(line["score_ns"])))
                        count[1] += 1
        return results, max(expected.values(), default=1), problems, counts

    def score(self) -> EventScore:
        """The field scored as it stands (again only when a traveller changed)."""
        if self._scored is None or self.changed:
            results, expected, problems, self._counts = self._results()
            self._scored = score_event(results, Method.MATCHPOINTS, edition=self.edition,
                                       options=ScoringOptions.of(self.conventions,
                                                                 expected=max(1, expected)))
            self._problems = problems + [p.as_text() for p in self._scored.problems]
            self.changed = False
        return self._scored

    def problem_texts(self) -> list[dict[str, Any]]:
        """What the field leaves out, as messages (docs/protocol.md 1, Texts)."""
        self.score()
        return [p.to_json() for p in self._problems]

    def ranking_json(self) -> dict[str, Any]:
        """The payload of ``results/field`` (wire.views ``RankingView``)."""
        event = self.score()
        counts = self._counts
        entries = [{"pair": p.pair, "names": self._names.get(str(p.pair), []),
                    "direction": None if p.direction is None else p.direction.value,
                    "total": _r(p.total), "percent": _r(p.percent), "rank": p.rank,
                    "boards": p.boards} for p in event.ranking]
        for e in entries:
            if self._substitutes.get(str(e["pair"])):
                e["substitutes"] = self._substitutes[str(e["pair"])]
        two = any(e["direction"] is not None for e in entries)
        return {"v": 1, "section": FIELD_KEY, "key": FIELD_KEY,
                "method": Method.MATCHPOINTS.value,
                "field": "two-winner" if two else "one-winner",
                "expected": event.expected or 1, "units": "MP",
                "boards": [{"board": b, "results": c[0], "scored": c[1]}
                           for b, c in sorted(counts.items())],
                "ranking": entries, "penalties": [],
                "problems": [render(p, self.language) for p in self._problems],
                "ties": conventions_named(self.conventions).tie_style}
