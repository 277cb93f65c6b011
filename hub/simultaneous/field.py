"""The field of a simultaneous event scored as the clubs' results arrive (bridgecore.ranking).

A result is ``{"v": 1, "id": ..., "board": n, "ns": pair, "ew": pair, "score_ns": int}``
(pairs as the club numbers them; the field names them ``<club>:<pair>``). Its ``id`` makes a
result delivered twice (QoS 1, a bridge reconnecting) count once; the same id with another
score is the club's correction and replaces it. ``finished`` ``{"v": 1, "board": n,
"results": k}`` says the club has played board n ``k`` times: the club has finished the board
once those k results are in and ``k`` is at least the club's ``plays`` (the event file), and
only then may it see the field's results of the board (Law 16). A board a table of the club
did not play (a sit-out, a line cancelled) is finished with fewer only with ``"closed":
true``: the club's director closed the board; a short count without it holds the board back.
Matchpoints (or cross-IMPs, Butler) across the field, Neuberg (Law 78) to the field's
expected number of results per board: a board a club did not play, a pair that sat out, are
missing results scaled up, not zeros.

A withdrawal ``{"v": 1, "id": ..., "board": n, "withdrawn": true}`` is the id's latest
version: the club's hub no longer scores that line (a ruling alone on a board not played at
the table, withdrawn; a result removed; a line cancelled), and the result leaves the field. A
club withdraws only its own results (results are keyed by the club they came from); an id
the organiser never had from the club is refused by name.

Fouled boards (Law 87): a result may say which version of the deal its table played:
``"deal"`` (the PBN deal string as played) or ``"version"`` (the club's name for a changed
form, e.g. ``form-1`` from its director's fouled-board ruling); without either, the
organiser's deal. Each version is scored as its own group across the field (bridgecore's
``form``): a ``deal`` equal to the organiser's is the correct version; the same ``deal`` at
several clubs is one group; a club's ``version`` without its deal is a group of that club's
own. Each group is Neuberg-scaled to the field's expected number; with the event's
``small_groups`` a group of 2 or 3 gets the EBU percentages instead (formats.md 9.1,
bridgecore.methods ``small_group_percent``). A pair is ranked on the points of its group.

Adjusted scores (Law 12C): a result may carry the club director's ``"adjusted"`` score
(docs/protocol.md, bridgecore.results_io.parse_adjustment): an assigned score (12C1(a), also
its ``score_ns``) is compared in the field as the board's result; split scores (12C1(f)) score
each side against its direction's field from its own score; an artificial score (12C2) is not
compared: the side gets the event's convention (``artificial``: ``"session"``, 60/50/40 or
the pair's session percentage on its other boards if higher for average-plus, lower for
average-minus, 12C2(c); ``"fixed"``, 60/50/40) and the board's other results are Neuberg-scaled
as for a missing result (bridgecore.methods). Under ``"session"`` a board with an artificial
score is scored again whenever its artificial pairs' other boards change.

Rescoring is incremental: a board's points depend on its own results and the expected number
of results only (bridgecore.ranking), and the expected number is the event's, fixed, so only
the boards that received a result are scored again (each alone, by ``score_boards``); the
totals of the pairs that played them are added up again in board order, as bridgecore's
``EventTotals`` adds them, and ranked by it. A board that only received new results since,
with no problem then, has only those checked (bridgecore.adjusted.check_results ``checked``).
The event is the one scoring every result together gives (the tests compare, after each
result of a random field too).
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
from collections import defaultdict
from functools import reduce
from operator import add
from typing import Any

from bridgecore.adjusted import (
    Adjustment,
    ArtificialAward,
    Assigned,
    BoardResult,
    Pair,
    ScoreProblem,
    artificial_imps,
    artificial_percent,
    awards,
)
from bridgecore.cards import Side
from bridgecore.deal import Deal
from bridgecore.editions import edition as edition_named
from bridgecore.errors import BridgeError
from bridgecore.pbn import read_pbn
from bridgecore.ranking import (
    BoardScorer,
    EventScore,
    EventTotals,
    Method,
    ScoredResult,
    ScoringOptions,
    score_boards,
)
from bridgecore.results_io import parse_adjustment
from hub.simultaneous.event import SimError, SimEvent

__all__ = ["FieldScorer", "check_finished", "check_result", "check_version", "check_withdrawal",
           "field_pair"]

log = logging.getLogger(__name__)
_MAX_SCORE = 7600   # beyond any score a board can give (bridgecore.scoring)
# A pair's sides (sat North-South, sat East-West): shared, only read (EventTotals.ranking).
_SIDES: dict[tuple[bool, bool], set[Side]] = {
    (True, False): {Side.NS}, (False, True): {Side.EW}, (True, True): {Side.NS, Side.EW}}


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
    adjustment = check_adjusted(data.get("adjusted"), rid, score)
    if (score is not None or adjustment is None) and (
            not isinstance(score, int) or isinstance(score, bool) or abs(score) > _MAX_SCORE
            or score % 10):
        raise SimError(f"result {rid}: {score!r} is not a North-South score")
    ns, ew = _pair(data.get("ns"), f"result {rid} ns"), _pair(data.get("ew"), f"result {rid} ew")
    if ns == ew:
        raise SimError(f"result {rid}: pair {ns} on both sides")
    return rid, BoardResult(board, ns, ew, score, adjustment)


def check_adjusted(text: object, rid: str, score: object) -> Adjustment | None:
    """The director's adjusted score of a result payload (Law 12C; docs/protocol.md), None
    when it has none; SimError naming what is wrong."""
    if text is None:
        return None
    if not isinstance(text, str) or not 0 < len(text) <= 80:
        raise SimError(f"result {rid}: adjusted {text!r:.60} is not an adjusted score's text")
    try:
        adjustment = parse_adjustment(text)
    except BridgeError as err:
        raise SimError(f"result {rid}: {err}") from err
    if isinstance(adjustment, Assigned) and score != adjustment.score_ns:
        raise SimError(f"result {rid}: the assigned score {adjustment} (Law 12C1(a)) is the "
                       f"board's result, score_ns {score!r} is not it")
    if not isinstance(adjustment, Assigned) and score is not None:
        raise SimError(f"result {rid}: adjusted {text!r} has no one score: score_ns is null, "
                       f"not {score!r}")
    return adjustment


def check_version(data: dict[str, Any], rid: str) -> tuple[str, Deal | None]:
    """(the club's version name or "", the deal as played or None) of a result payload."""
    version, deal = data.get("version", ""), data.get("deal")
    if not isinstance(version, str) or len(version) > 40 or any(c in version for c in "/#+"):
        raise SimError(f"result {rid}: version {version!r:.60} is not a name (40 at most)")
    if deal is None:
        return version, None
    if not isinstance(deal, str):
        raise SimError(f"result {rid}: deal {deal!r:.60} is not a PBN deal string")
    try:
        played = Deal.parse(deal)
    except (BridgeError, ValueError) as err:
        raise SimError(f"result {rid}: deal {deal!r:.80}: {err}") from err
    if played.problems():
        raise SimError(f"result {rid}: deal {deal!r:.80} is not a whole deal")
    return version, played


def check_withdrawal(data: object, boards: tuple[int, ...]) -> tuple[str, int]:
    """(id, board) of a withdrawal payload (``{"v": 1, "id", "board", "withdrawn": true}``);
    SimError naming what is wrong."""
    if not isinstance(data, dict) or data.get("v") != 1 or data.get("withdrawn") is not True:
        raise SimError(f"a withdrawal of an unknown version: {data!r:.80}")
    rid, board = data.get("id"), data.get("board")
    if not isinstance(rid, str) or not 0 < len(rid) <= 80:
        raise SimError(f"a withdrawal without a valid id: {rid!r:.80}")
    if not isinstance(board, int) or isinstance(board, bool) or board not in boards:
        raise SimError(f"withdrawal of {rid}: board {board!r} is not one of the event's")
    return rid, board


def check_finished(data: object, boards: tuple[int, ...]) -> tuple[int, int, bool]:
    """(board, results, closed) of a finished payload (``closed``: the club's director closed
    the board, a table of the club did not play it; module docstring)."""
    if not isinstance(data, dict) or data.get("v") != 1:
        raise SimError(f"a finished message of an unknown version: {data!r:.80}")
    board, count = data.get("board"), data.get("results")
    if not isinstance(board, int) or isinstance(board, bool) or board not in boards:
        raise SimError(f"finished: board {board!r} is not one of the event's")
    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 1000:
        raise SimError(f"finished board {board}: {count!r} results")
    closed = data.get("closed", False)
    if not isinstance(closed, bool):
        raise SimError(f"finished board {board}: closed is true or false, not {closed!r}")
    return board, count, closed


class FieldScorer:
    """Every club's results, the boards each club has finished, the field's scores."""

    def __init__(self, event: SimEvent):
        self.event = event
        self.boards = event.boards
        self.options = ScoringOptions(expected=event.expected, small_groups=event.small_groups)
        self.edition = dataclasses.replace(
            edition_named(None), session_percentage_rule=event.artificial == "session")
        # Only the deals: a TempoTable there stays unread (tempo="lazy", issue 27).
        self.deals = {r.board: r.deal for r in read_pbn(event.deals, tempo="lazy").records
                      if r.board is not None and r.deal is not None}
        self.versions: dict[tuple[str, str], str] = {}   # (club, id) -> its group ("": correct)
        self._forms: dict[int, list[str]] = {}   # board -> its groups, by form number
        self.results: dict[tuple[str, str], BoardResult] = {}   # (club, id) -> field result
        self._per_club: dict[tuple[str, int], set[str]] = defaultdict(set)
        self._finished: dict[tuple[str, int], tuple[int, bool]] = {}   # (count, closed)
        self.score: EventScore | None = None
        self.duplicates = 0
        self.withdrawn: set[tuple[str, str]] = set()   # (club, id) withdrawn, not sent since
        self._rows: dict[int, dict[tuple[str, str], BoardResult]] = defaultdict(dict)
        self._dirty: set[int] = set()
        self.changed: frozenset[int] = frozenset()   # the boards the last rescoring scored
        self._scored: dict[int, tuple[ScoredResult, ...]] = {}
        self._tops: dict[int, float] = {}
        self._problems: dict[int, tuple[ScoreProblem, ...]] = {}
        self._points: dict[Pair, dict[int, float]] = defaultdict(dict)   # pair -> board ->
        self._north_south: dict[Pair, dict[int, bool]] = defaultdict(dict)   # sat NS there
        self._total: dict[Pair, float] = {}
        self._played: dict[Pair, int] = {}
        self._pair_tops: dict[Pair, float] = {}
        self._sides: dict[Pair, set[Side]] = {}
        self._artificial: dict[int, set[Pair]] = {}   # board -> its pairs scored artificially
        self._accepted: dict[int, tuple[BoardResult, ...]] = {}   # as last scored
        self._added: dict[int, list[tuple[str, str]]] = defaultdict(list)   # since then
        self._redo: set[int] = set()   # boards a correction changed: all checked again

    def add_result(self, club: str, data: object) -> bool:
        """Take a club's result; False for a duplicate (already counted, the same)."""
        self.event.club(club)
        rid, r = check_result(data, self.boards)
        assert isinstance(data, dict)
        version, deal = check_version(data, rid)
        group = self._group(club, r.board, version, deal)
        field = BoardResult(r.board, field_pair(club, r.ns), field_pair(club, r.ew), r.score_ns,
                            r.adjustment)
        before = self.results.get((club, rid))
        if before == field and self.versions.get((club, rid), "") == group:
            self.duplicates += 1
            return False
        if before is not None:
            log.info("club %s corrects result %s: %s -> %s", club, rid, before, field)
            self._per_club[(club, before.board)].discard(rid)
            del self._rows[before.board][(club, rid)]
            self._dirty.add(before.board)
            self._redo.update((before.board, r.board))
        self.withdrawn.discard((club, rid))   # a line withdrawn, then given again
        self.results[(club, rid)] = field
        self.versions[(club, rid)] = group
        self._per_club[(club, r.board)].add(rid)
        self._rows[r.board][(club, rid)] = field
        self._added[r.board].append((club, rid))
        self._dirty.add(r.board)
        return True

    def withdraw_result(self, club: str, data: object) -> bool:
        """Take a club's withdrawal of one of its results (the club's hub no longer scores
        it): the result leaves the field, its board is scored again at the next rescoring.
        False for a duplicate (withdrawn already); SimError, nothing changed, for an id the
        organiser never had from ``club`` (another club's: a club withdraws only its own
        results) or a board that is not the result's."""
        self.event.club(club)
        rid, board = check_withdrawal(data, self.boards)
        key = (club, rid)
        before = self.results.get(key)
        if before is None:
            if key in self.withdrawn:
                self.duplicates += 1
                return False
            owners = sorted({c for c, i in (*self.results, *self.withdrawn)
                             if i == rid and c != club})
            if owners:
                raise SimError(f"club {club} withdraws result {rid}: it is club "
                               f"{owners[0]}'s, not {club}'s: a club withdraws only its own "
                               f"results")
            raise SimError(f"club {club} withdraws result {rid}, which the organiser never "
                           f"had from it")
        if before.board != board:
            raise SimError(f"club {club} withdraws result {rid} of board {board}: that result "
                           f"is on board {before.board}")
        log.info("club %s withdraws result %s: %s", club, rid, before)
        del self.results[key], self.versions[key], self._rows[board][key]
        self._per_club[(club, board)].discard(rid)
        self.withdrawn.add(key)
        self._dirty.add(board)
        self._redo.add(board)
        return True

    def _group(self, club: str, board: int, version: str, deal: Deal | None) -> str:
        """The version group of a result (module docstring): "" the organiser's deal."""
        if deal is not None:
            if deal == self.deals.get(board):
                return ""
            return "deal:" + hashlib.sha256(deal.pbn().encode()).hexdigest()[:16]
        return f"{club}/{version}" if version else ""

    def version_of(self, board: int, form: int) -> str:
        """The group of ``form`` on ``board`` at the last scoring ("" the correct one)."""
        forms = self._forms.get(board, [""])
        return forms[form] if 0 <= form < len(forms) else ""

    def finish(self, club: str, data: object) -> int:
        self.event.club(club)
        board, count, closed = check_finished(data, self.boards)
        self._finished[(club, board)] = (count, closed)
        return board

    def short(self, club: str, board: int) -> bool:
        """Whether ``club`` said ``board`` finished with fewer results than it plays (the
        event's ``plays``) without its director closing the board: not finished (Law 16)."""
        said = self._finished.get((club, board))
        return said is not None and not said[1] and said[0] < self.event.club(club).plays

    def has_finished(self, club: str, board: int) -> bool:
        """Whether ``club`` has finished ``board``: said so with as many results as it plays
        (or its director closed the board), and its results are all in (Law 16)."""
        said = self._finished.get((club, board))
        return said is not None and not self.short(club, board) \
            and len(self._per_club[(club, board)]) >= said[0]

    def finished_boards(self, club: str) -> tuple[int, ...]:
        return tuple(b for b in self.boards if self.has_finished(club, b))

    def rescore(self) -> EventScore:
        """Score the field again: the boards that received a result since, then the totals of
        their pairs and the ranking (module docstring)."""
        touched: set[Pair] = set()
        changed = set(self._dirty)
        for board in sorted(self._dirty):
            for s in self._scored.get(board, ()):
                for pair in (s.result.ns, s.result.ew):
                    self._points[pair].pop(board, None)
                    self._north_south[pair].pop(board, None)
                    touched.add(pair)
            self._score_board(board)
            for s in self._scored[board]:
                self._points[s.result.ns][board] = s.ns_points
                self._points[s.result.ew][board] = s.ew_points
                self._north_south[s.result.ns][board] = True
                self._north_south[s.result.ew][board] = False
                touched.update((s.result.ns, s.result.ew))
        self._dirty.clear()
        if self.edition.session_percentage_rule:
            for board, pairs in sorted(self._artificial.items()):
                if pairs and (board in changed or pairs & touched):
                    self._session_board(board, pairs)
                    changed.add(board)
                    touched.update(pairs)
        self.changed = frozenset(changed)
        self._add_up(touched)
        problems = [p for b in sorted(self._problems) for p in self._problems[b]]
        scorer = BoardScorer({}, self.event.method, self.edition, self.options,
                             self.event.expected, problems)
        scorer.tops = dict(self._tops)
        totals = EventTotals(scorer, {}, problems)
        totals.total.update(self._total)
        totals.played.update(self._played)
        totals.tops.update(self._pair_tops)
        totals.sides.update(self._sides)
        scored = {b: self._scored[b] for b in sorted(self._scored) if self._scored[b]}
        self.score = EventScore(self.event.method, scored, totals.ranking(), tuple(problems),
                                {b: self._tops[b] for b in scored},
                                self.event.expected
                                if self.event.method is Method.MATCHPOINTS else None)
        return self.score

    def _score_board(self, board: int) -> None:
        """Score one board alone (bridgecore.ranking.score_boards, as score_event scores
        it). A board that only received new results since, with no problem then and no new
        version, has its new results checked only, after the ones accepted then."""
        rows = self._rows[board]
        forms = ["", *sorted({self.versions[k] for k in rows} - {""})]
        added = self._added.pop(board, [])
        clean = board not in self._redo and board in self._accepted \
            and not self._problems.get(board) and forms == self._forms.get(board)
        self._redo.discard(board)
        self._forms[board] = forms
        keys = added if clean else list(rows)
        fresh = [dataclasses.replace(rows[k], form=forms.index(self.versions[k]))
                 if self.versions[k] else rows[k] for k in keys]
        scorer, scored = score_boards(fresh, self.event.method, self.edition, self.options,
                                      checked=self._accepted[board] if clean else ())
        self._accepted[board] = tuple(scorer.boards.get(board, ()))
        self._scored[board] = scored.get(board, ())
        self._artificial[board] = {pair for s in self._scored[board]
                                   if s.result.adjustment is not None
                                   for pair, award in zip((s.result.ns, s.result.ew),
                                                          awards(s.result), strict=True)
                                   if isinstance(award, ArtificialAward)}
        self._tops[board] = scorer.tops.get(board, 0.0)
        self._problems[board] = tuple(scorer.problems)

    def _add_up(self, pairs: set[Pair]) -> None:
        """The totals of ``pairs`` added up again over their boards, in board order as
        EventTotals adds them (the same floating-point sums as scoring from nothing; a sum
        updated by a board's difference would not be)."""
        tops_of = self._tops
        for pair in pairs:
            points = self._points[pair]
            if not points:
                for table in (self._total, self._played, self._pair_tops, self._sides):
                    table.pop(pair, None)
                continue
            boards = sorted(points)
            self._total[pair] = reduce(add, map(points.__getitem__, boards), 0.0)
            self._pair_tops[pair] = reduce(add, map(tops_of.__getitem__, boards), 0.0)
            self._played[pair] = len(boards)
            seats = self._north_south[pair].values()
            self._sides[pair] = _SIDES[(True in seats, False in seats)]

    def _session(self, pair: Pair, board: int) -> float | None:
        """The pair's session score on its boards not scored artificially for it, as
        bridgecore.ranking's 12C2(c) pass takes it: percent (matchpoints) or IMPs a board."""
        mp = self.event.method is Method.MATCHPOINTS
        total = denominator = 0.0
        for b in sorted(self._points[pair]):
            if b != board and pair not in self._artificial.get(b, ()):
                total += self._points[pair][b]
                denominator += self._tops.get(b, 0.0) if mp else 1.0
        return (100.0 if mp else 1.0) * total / denominator if denominator > 0 else None

    def _session_board(self, board: int, pairs: set[Pair]) -> None:
        """Score ``board`` again with its artificial pairs' session scores (Law 12C2(c)):
        their points only move, the board's other results are not compared with them."""
        session = {pair: value for pair in pairs
                   if (value := self._session(pair, board)) is not None}
        mp, ed = self.event.method is Method.MATCHPOINTS, self.edition

        def rule(r: BoardResult, side: Side, award: ArtificialAward) -> float:
            mine = session.get(r.ns if side is Side.NS else r.ew)
            if mp:
                return artificial_percent(award.score, ed, session_percent=mine,
                                          percent=award.percent)
            return artificial_imps(award.score, ed, session_average=mine,
                                   amounts=self.options.artificial_imps)

        rows = [s.result for s in self._scored[board]]
        scorer = BoardScorer({board: rows}, self.event.method, ed, self.options,
                             self.event.expected, [])
        self._scored[board] = tuple(scorer.board(board, rule))
        for s in self._scored[board]:
            for pair, points in ((s.result.ns, s.ns_points), (s.result.ew, s.ew_points)):
                if pair in pairs:
                    self._points[pair][board] = points

    def board_payload(self, board: int) -> dict[str, Any]:
        """The field's results of ``board`` with their points (for clubs that finished it)."""
        score = self.score or self.rescore()
        rows = score.boards.get(board, ())
        return {"v": 1, "event": self.event.id, "board": board,
                "top": score.tops.get(board), "expected": self.event.expected,
                "fouled": len(self._forms.get(board, [""])) > 1,
                "results": [{**s.to_json(), "version": self.version_of(board, s.result.form)}
                            for s in rows]}

    def ranking_payload(self, club: str | None = None) -> dict[str, Any]:
        """The field's ranking; for ``club``, with the club's own (:meth:`club_rankings`)."""
        score = self.score or self.rescore()
        payload = {"v": 1, "event": self.event.id, "method": score.method.value,
                   "ranking": [p.to_json() for p in score.ranking]}
        if club is not None:
            payload["club"] = {"id": club, "ranking": self.club_rankings().get(club, [])}
        return payload

    def club_rankings(self) -> dict[str, list[dict[str, Any]]]:
        """Each club's own ranking on the field's scores: its pairs in the field's order,
        ``rank`` their place among the club's pairs of their direction (ties share it: one
        more than the club's pairs placed before them in the field), ``field_rank`` their
        place in the field, ``pair`` the club's number."""
        score = self.score or self.rescore()
        out: dict[str, list[dict[str, Any]]] = defaultdict(list)
        before: dict[tuple[str, object], dict[int, int]] = defaultdict(dict)   # field rank ->
        # the club's pairs of that direction placed ahead of it
        seen: dict[tuple[str, object], int] = defaultdict(int)
        for p in score.ranking:
            club, _, number = str(p.pair).partition(":")
            side = (club, p.direction)
            rank = before[side].setdefault(p.rank, seen[side]) + 1
            seen[side] += 1
            out[club].append({**p.to_json(), "pair": number, "rank": rank,
                              "field_rank": p.rank})
        return dict(out)
