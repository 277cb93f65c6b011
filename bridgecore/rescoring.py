"""Rescoring an event after a correction: only the corrected board is scored again.

A director's correction or adjusted score changes one result of one board, and in a
matchpointed or IMPed field only that board's points can change; the totals and the
ranking are then added up again. :class:`EventScorer` keeps a scored event and does
that. It scores everything again (:func:`~bridgecore.ranking.score_event`'s way) when
one correction can move other boards or cannot be taken as it stands: an artificial
score under the 12C2(c) session rule (a session percentage reaches every board), a ruling
that adds a result rather than replacing one (the expected number of results, and with it
every board's Neuberg scaling, may change), a ruling refused as impossible, a board whose
IMP pairing had problems, or an individual event. Either way the event is the one
``score_event`` gives with every correction so far as ``rulings`` (the tests compare).

It works on :mod:`bridgecore.ranking`'s own scorer and totals, so that both paths share
every rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bridgecore.adjusted import ArtificialAward, BoardResult, Penalty, awards, check_results
from bridgecore.editions import Edition
from bridgecore.editions import edition as edition_named
from bridgecore.methods import board_top
from bridgecore.ranking import (
    BoardScorer,
    EventScore,
    EventTotals,
    Method,
    ScoredResult,
    ScoringOptions,
    round_points,
)

__all__ = ["EventScorer"]


def _artificial(rows: Iterable[BoardResult]) -> bool:
    return any(r.adjustment is not None and any(isinstance(a, ArtificialAward)
                                                for a in awards(r)) for r in rows)


class EventScorer:
    """An event scored once and kept up to date, one correction at a time.

    ``event`` is the current :class:`~bridgecore.ranking.EventScore`; :meth:`correct`
    applies a ruling (a result replacing the one of the same board and pairs, or adding
    one) and returns the event scored again.
    """

    def __init__(self, results: Iterable[BoardResult], method: Method | str = Method.MATCHPOINTS,
                 *, edition: Edition | str | None = None, penalties: Iterable[Penalty] = (),
                 options: ScoringOptions | None = None):
        try:
            self.method = Method(method)
        except ValueError:
            raise ValueError(f"unknown scoring method {method!r} (mp, imp, butler, crossimp, "
                             "total)") from None
        self.edition = edition_named(edition)
        self.options = options or ScoringOptions()
        self.results = list(results)
        self.penalties = tuple(penalties)
        self.rulings: list[BoardResult] = []
        self.full_rescorings = 0
        self.event = self._score_all()

    def correct(self, ruling: BoardResult) -> EventScore:
        """Apply one ruling and return the event scored again (its board only, if enough)."""
        self.rulings.append(ruling)
        self.event = self._score_board(ruling) or self._score_all()
        return self.event

    # Scoring ---------------------------------------------------------------------------

    def _rounded(self, results: Sequence[ScoredResult]) -> tuple[ScoredResult, ...]:
        digits = self.options.digits
        return tuple(ScoredResult(s.result, round_points(s.ns_points, digits),
                                  round_points(s.ew_points, digits)) for s in results)

    def _score_all(self) -> EventScore:
        self.full_rescorings += 1
        opts = self.options
        boards, problems = check_results(self.results, self.edition, rulings=self.rulings,
                                         individual=opts.individual, teams=opts.teams,
                                         total_points=self.method is Method.TOTAL_POINTS)
        expected = opts.expected or max((len(rows) for rows in boards.values()), default=1)
        self._scorer = BoardScorer(boards, self.method, self.edition, opts, expected, problems)
        self._problems = problems
        self._scored = {b: self._rounded(results) for b, results in self._scorer.score().items()
                        if results}
        self._artificial = {b for b, rows in boards.items() if _artificial(rows)}
        return self._totals()

    def _totals(self) -> EventScore:
        problems = list(self._problems)
        totals = EventTotals(self._scorer, self._scored, problems)
        applied = totals.apply(self.penalties)
        mp = self.method is Method.MATCHPOINTS
        return EventScore(self.method, dict(self._scored), totals.ranking(), tuple(problems),
                          dict(self._scorer.tops), self._scorer.expected if mp else None,
                          applied)

    def _score_board(self, ruling: BoardResult) -> EventScore | None:
        """The event with only the ruling's board scored again, or None if that is not
        enough (see the module's docstring)."""
        scorer, opts = self._scorer, self.options
        if opts.individual or not isinstance(ruling, BoardResult):
            return None
        board = ruling.board
        rows = scorer.boards.get(board) if isinstance(board, int) else None
        try:
            index = next((i for i, r in enumerate(rows or ())
                          if (r.ns, r.ew) == (ruling.ns, ruling.ew)), None)
        except TypeError:  # pairs that cannot be compared: let the full path report them
            return None
        if rows is None or index is None or board not in self._scored \
                or any(p.board == board for p in self._problems):
            return None
        checked, problems = check_results([*rows[:index], ruling, *rows[index + 1:]],
                                          self.edition, teams=opts.teams,
                                          total_points=self.method is Method.TOTAL_POINTS)
        if problems or board not in checked:
            return None
        new_rows = checked[board]
        artificial = self._artificial - {board} | ({board} if _artificial(new_rows) else set())
        if artificial and self.edition.session_percentage_rule:
            return None
        if self.method is Method.IMPS:
            saved, scorer.problems = scorer.problems, []
            try:
                matches = scorer._pairings(board, new_rows)
                if scorer.problems:
                    return None
            finally:
                scorer.problems = saved
            scorer.matches[board] = matches
        scorer.boards[board] = new_rows
        if self.method is Method.MATCHPOINTS:
            scorer.tops[board] = board_top(new_rows, scorer.expected, units=opts.units,
                                           neuberg=opts.neuberg)
        self._artificial = artificial
        self._scored[board] = self._rounded(scorer.board(board, scorer._rule(None)))
        return self._totals()
