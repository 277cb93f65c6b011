"""The field of a simultaneous event scored as the clubs' results arrive (bridgecore.ranking).

A result is ``{"v": 1, "id": ..., "board": n, "ns": pair, "ew": pair, "score_ns": int}``
(pairs as the club numbers them; the field names them ``<club>:<pair>``). Its ``id`` makes a
result delivered twice (QoS 1, a bridge reconnecting) count once; the same id with another
score is the club's correction and replaces it. ``finished`` ``{"v": 1, "board": n,
"results": k}`` says the club has played board n ``k`` times: the club has finished the board
once those k results are in, and only then may it see the field's results of the board (Law
16). Matchpoints (or cross-IMPs, Butler) across the field, Neuberg (Law 78) to the field's
expected number of results per board: a board a club did not play, a pair that sat out, are
missing results scaled up, not zeros.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from typing import Any

from bridgecore.adjusted import BoardResult
from bridgecore.ranking import EventScore, ScoringOptions, score_event
from hub.simultaneous.event import SimError, SimEvent

__all__ = ["FieldScorer", "check_finished", "check_result", "field_pair"]

log = logging.getLogger(__name__)
_MAX_SCORE = 7600   # beyond any score a board can give (bridgecore.scoring)


def field_pair(club: str, pair: object) -> str:
    return f"{club}:{pair}"


def _pair(value: object, what: str) -> str:
    if isinstance(value, bool) or not isinstance(value, int | str) or not str(value) \
            or len(str(value)) > 16:
        raise SimError(f"{what}: {value!r} is not a pair number")
    return str(value)


def check_result(data: object, boards: tuple[int, ...]) -> tuple[str, BoardResult]:
    """(id, result as the club numbers its pairs) of a result payload; SimError naming what
    is wrong."""
    if not isinstance(data, dict) or data.get("v") != 1:
        raise SimError(f"a result of an unknown version: {data!r:.80}")
    rid, board, score = data.get("id"), data.get("board"), data.get("score_ns")
    if not isinstance(rid, str) or not 0 < len(rid) <= 80:
        raise SimError(f"a result without a valid id: {rid!r:.80}")
    if not isinstance(board, int) or isinstance(board, bool) or board not in boards:
        raise SimError(f"result {rid}: board {board!r} is not one of the event's")
    if not isinstance(score, int) or isinstance(score, bool) or abs(score) > _MAX_SCORE \
            or score % 10:
        raise SimError(f"result {rid}: {score!r} is not a North-South score")
    ns, ew = _pair(data.get("ns"), f"result {rid} ns"), _pair(data.get("ew"), f"result {rid} ew")
    if ns == ew:
        raise SimError(f"result {rid}: pair {ns} on both sides")
    return rid, BoardResult(board, ns, ew, score)


def check_finished(data: object, boards: tuple[int, ...]) -> tuple[int, int]:
    """(board, results) of a finished payload."""
    if not isinstance(data, dict) or data.get("v") != 1:
        raise SimError(f"a finished message of an unknown version: {data!r:.80}")
    board, count = data.get("board"), data.get("results")
    if not isinstance(board, int) or isinstance(board, bool) or board not in boards:
        raise SimError(f"finished: board {board!r} is not one of the event's")
    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 1000:
        raise SimError(f"finished board {board}: {count!r} results")
    return board, count


class FieldScorer:
    """Every club's results, the boards each club has finished, the field's scores."""

    def __init__(self, event: SimEvent):
        self.event = event
        self.boards = event.boards
        self.options = ScoringOptions(expected=event.expected)
        self.results: dict[tuple[str, str], BoardResult] = {}   # (club, id) -> field result
        self._per_club: dict[tuple[str, int], set[str]] = defaultdict(set)
        self._finished: dict[tuple[str, int], int] = {}
        self.score: EventScore | None = None
        self.duplicates = 0

    def add_result(self, club: str, data: object) -> bool:
        """Take a club's result; False for a duplicate (already counted, the same)."""
        self.event.club(club)
        rid, r = check_result(data, self.boards)
        field = BoardResult(r.board, field_pair(club, r.ns), field_pair(club, r.ew), r.score_ns)
        before = self.results.get((club, rid))
        if before == field:
            self.duplicates += 1
            return False
        if before is not None:
            log.info("club %s corrects result %s: %s -> %s", club, rid, before, field)
            self._per_club[(club, before.board)].discard(rid)
        self.results[(club, rid)] = field
        self._per_club[(club, r.board)].add(rid)
        return True

    def finish(self, club: str, data: object) -> int:
        self.event.club(club)
        board, count = check_finished(data, self.boards)
        self._finished[(club, board)] = count
        return board

    def has_finished(self, club: str, board: int) -> bool:
        """Whether ``club`` has finished ``board``: said so, and its results are all in."""
        count = self._finished.get((club, board))
        return count is not None and len(self._per_club[(club, board)]) >= count

    def finished_boards(self, club: str) -> tuple[int, ...]:
        return tuple(b for b in self.boards if self.has_finished(club, b))

    def rescore(self) -> EventScore:
        """Score the field again (only the boards whose results changed are scored again:
        score_event's ``previous``)."""
        self.score = score_event(self.results.values(), self.event.method,
                                 options=self.options, previous=self.score)
        return self.score

    def board_payload(self, board: int) -> dict[str, Any]:
        """The field's results of ``board`` with their points (for clubs that finished it)."""
        score = self.score or self.rescore()
        rows = score.boards.get(board, ())
        return {"v": 1, "event": self.event.id, "board": board,
                "top": score.tops.get(board), "expected": self.event.expected,
                "results": [s.to_json() for s in rows]}

    def ranking_payload(self) -> dict[str, Any]:
        score = self.score or self.rescore()
        return {"v": 1, "event": self.event.id, "method": score.method.value,
                "ranking": [p.to_json() for p in score.ranking]}
