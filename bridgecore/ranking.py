"""Scoring a whole event and ranking it: :func:`score_event`.

Results (and the director's rulings) go in; each board is scored by the chosen method
(:mod:`bridgecore.methods`), adjusted scores follow the edition's rules
(:mod:`bridgecore.adjusted`), procedural penalties are deducted from one contestant
only, and the contestants are ranked. Bad input never stops the event: every result,
ruling or penalty that cannot be scored is a :class:`ScoreProblem` naming the board,
and the rest is scored.

Conventions (issue 6): percent = a pair's matchpoints over the sum of the tops of the
boards it played; a field is two-winner when no pair sits both ways, else one-winner
(direction None); tied contestants share a rank and the next rank is skipped (1, 2, 2, 4).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bridgecore.adjusted import (
    ArtificialAward,
    BoardResult,
    Pair,
    Penalty,
    PenaltyUnit,
    ScoreProblem,
    artificial_imps,
    artificial_percent,
    awards,
    check_results,
)
from bridgecore.cards import Side
from bridgecore.conventions import Conventions, Rounding, SmallGroups
from bridgecore.conventions import conventions as conventions_named
from bridgecore.editions import Edition
from bridgecore.editions import edition as edition_named
from bridgecore.methods import (
    ArtificialRule,
    board_top,
    butler_board,
    cross_imp_board,
    imp_match_board,
    matchpoint_board,
    total_points_board,
    victory_points,
)
from bridgecore.vulnerability import Vulnerability

__all__ = [
    "BoardScorer", "EventScore", "EventTotals", "Method", "PairScore", "ScoreProblem",
    "ScoredResult", "ScoringOptions", "rank", "round_points", "score_boards", "score_event",
]


class Method(StrEnum):
    """How boards are scored (Law 78); the values are the ``--method`` names."""

    MATCHPOINTS = "mp"
    IMPS = "imp"  # teams: the two tables of a match
    BUTLER = "butler"
    CROSS_IMPS = "crossimp"
    TOTAL_POINTS = "total"


@dataclass(frozen=True, slots=True)
class ScoringOptions:
    """The conditions of contest the Laws leave to the organiser (Law 78D, 80).

    * ``units``: 1 = one matchpoint per score beaten (top n-1); 2 = Law 78A's two units
      (top 2(n-1), PBN MP1, USEBIO).
    * ``expected``: E for Neuberg; None = the most results any board has.
    * ``neuberg``: scale boards with fewer results (off: each board's own top, as BriAn).
    * ``small_groups``: percentages for the small groups of a fouled board: True or "ebu"
      (groups of 2 or 3), "acbl" (groups of 1, 2, or 3 not the largest); False: Neuberg.
    * ``rounding``: how a factored or small-group board score is rounded (None: exact).
    * ``datum_half_even``: a Butler datum half-way between two tens goes to the even one.
    * ``digits``: round each board's points as the published results do (None: exact).
    * ``butler_trim``: top and bottom scores left out of the Butler datum.
    * ``cross_imps_average``: divide cross-IMPs by the comparisons (False: the total).
    * ``artificial_imps``: IMPs for average-plus/average/average-minus (None: the edition's).
    * ``teams``: team of each pair (IMPs); ``victory_points``: convert each match's margin
      (WBF 2013 scale); ``knockout``: average non-balancing IMP results (Law 12C4, 86B).
    * ``individual``: rank the players of ``BoardResult.players``, each with his side's points.
    * ``vulnerability``: the vulnerability of the boards marked otherwise than Law 2 (their
      markings govern, Law 2), against which a score is checked (Law 77).
    """

    units: int = 1
    expected: int | None = None
    neuberg: bool = True
    small_groups: bool | str = False
    rounding: Rounding | None = None
    datum_half_even: bool = False
    digits: int | None = None
    butler_trim: int = 0
    cross_imps_average: bool = True
    artificial_imps: tuple[float, float, float] | None = None
    teams: Mapping[Pair, Pair] | None = field(default=None, hash=False)
    victory_points: bool = False
    knockout: bool = False
    individual: bool = False
    vulnerability: Mapping[int, Vulnerability] | None = field(default=None, hash=False)

    def __post_init__(self) -> None:
        if self.units not in (1, 2):
            raise ValueError(f"matchpoint units are 1 or 2 per score beaten, got {self.units}")
        if self.expected is not None and self.expected < 1:
            raise ValueError(f"expected results per board must be positive: {self.expected}")
        if self.butler_trim < 0 or (self.digits is not None and self.digits < 0):
            raise ValueError("butler_trim and digits cannot be negative")
        if not isinstance(self.small_groups, bool):
            SmallGroups(self.small_groups)   # ValueError naming a rule that does not exist

    @classmethod
    def of(cls, conventions: Conventions | str | None, **options: Any) -> ScoringOptions:
        """The options of a federation's ``conventions`` (bridgecore.conventions: ``ebu``,
        ``acbl``, ``ffb``, ``wbf``; "" the Laws alone), with ``options`` added."""
        c = conventions_named(conventions)
        return cls(**{"units": c.units, "small_groups": str(c.small_groups),
                      "rounding": c.rounding, "datum_half_even": c.datum_half_even,
                      **options})


@dataclass(frozen=True, slots=True)
class ScoredResult:
    """One result with the points each side earned on the board."""

    result: BoardResult
    ns_points: float
    ew_points: float

    def to_json(self, digits: int | None = 2) -> dict[str, Any]:
        r = self.result
        out: dict[str, Any] = {"ns": r.ns, "ew": r.ew, "score_ns": r.score_ns,
                               "ns_points": round_points(self.ns_points, digits),
                               "ew_points": round_points(self.ew_points, digits)}
        if r.adjustment is not None:
            out["adjustment"] = str(r.adjustment)
        if r.only is not None:
            out["only"] = r.only.value
        return out


@dataclass(frozen=True, slots=True)
class PairScore:
    """A contestant's place: total (matchpoints, IMPs or VPs), percent (matchpoints only)."""

    pair: Pair
    direction: Side | None
    total: float
    percent: float | None
    rank: int
    boards: int = 0

    def to_json(self, digits: int | None = 2) -> dict[str, Any]:
        return {"pair": self.pair,
                "direction": None if self.direction is None else self.direction.value,
                "total": round_points(self.total, digits),
                "percent": None if self.percent is None else round_points(self.percent, digits),
                "rank": self.rank}


@dataclass(frozen=True, slots=True)
class EventScore:
    """A scored event: every board's results with their points, the ranking, the problems."""

    method: Method
    boards: Mapping[int, tuple[ScoredResult, ...]]
    ranking: tuple[PairScore, ...]
    problems: tuple[ScoreProblem, ...] = ()
    tops: Mapping[int, float] = field(default_factory=dict)
    expected: int | None = None
    penalties: tuple[Penalty, ...] = ()

    def score_of(self, pair: Pair) -> PairScore | None:
        return next((p for p in self.ranking if p.pair == pair), None)

    def to_json(self, digits: int | None = 2) -> dict[str, Any]:
        """The ``tenace score --json`` object (issue 6): ``boards`` and ``ranking``."""
        return {
            "method": self.method.value,
            "boards": [{"board": b, "results": [s.to_json(digits) for s in scored]}
                       for b, scored in self.boards.items()],
            "ranking": [p.to_json(digits) for p in self.ranking],
            "problems": [str(p) for p in self.problems],
        }


def round_points(value: float, digits: int | None) -> float:
    return value if digits is None else round(value, digits) + 0.0  # no -0.0


def rank(values: Sequence[float]) -> list[int]:
    """Ranks, highest value first; ties share a rank and the next is skipped (1, 2, 2, 4).

    Values equal to 1e-6 are ties (sums of rounded board points).
    """
    keys = [round(v, 6) for v in values]
    ordered = sorted(keys, reverse=True)
    first: dict[float, int] = {}
    for i, k in enumerate(ordered):
        first.setdefault(k, i + 1)
    return [first[k] for k in keys]


# Scoring -------------------------------------------------------------------------------

def _contestants(r: BoardResult, side: Side, opts: ScoringOptions) -> tuple[Pair, ...]:
    """Who a side's points go to: the pair, its team, or its two players (individuals)."""
    if opts.individual and r.players is not None:
        north, east, south, west = r.players
        return (north, south) if side is Side.NS else (east, west)
    pair = r.ns if side is Side.NS else r.ew
    return (opts.teams[pair],) if opts.teams is not None else (pair,)


def _artificial(r: BoardResult, side: Side) -> bool:
    return r.adjustment is not None and isinstance(awards(r)[0 if side is Side.NS else 1],
                                                   ArtificialAward)


class BoardScorer:
    """One event's boards scored by one method, with the 12C2(c) second pass (shared with
    bridgecore.rescoring, which scores a corrected board again through it)."""

    def __init__(self, boards: dict[int, list[BoardResult]], how: Method, ed: Edition,
                 opts: ScoringOptions, expected: int, problems: list[ScoreProblem]):
        self.boards, self.how, self.ed, self.opts = boards, how, ed, opts
        self.expected, self.problems = expected, problems
        self.matches: dict[int, list[tuple[BoardResult, BoardResult]]] = {}
        if how is Method.IMPS:
            self.matches = {b: self._pairings(b, rows) for b, rows in boards.items()}
        self.tops = ({b: board_top(rows, expected, units=opts.units, neuberg=opts.neuberg)
                      for b, rows in boards.items()} if how is Method.MATCHPOINTS else {})

    def _pairings(self, board: int, rows: list[BoardResult]) -> list[tuple[BoardResult,
                                                                             BoardResult]]:
        teams = self.opts.teams
        if teams is None:
            if len(rows) == 2:
                return [(rows[0], rows[1])]
            self.problems.append(ScoreProblem.of(board, "score.imps_two_tables",
                                                 count=len(rows)))
            return []
        by_teams: dict[tuple[Pair, Pair], BoardResult] = {}
        for r in rows:
            key = (teams[r.ns], teams[r.ew])
            if key in by_teams:
                self.problems.append(ScoreProblem.of(board, "score.team_twice_ns", ns=r.ns,
                                                     ew=r.ew, home=key[0], away=key[1]))
                continue
            by_teams[key] = r
        out = []
        done: set[tuple[Pair, Pair]] = set()
        for (home, away), r in by_teams.items():
            if (home, away) in done:
                continue
            other = by_teams.get((away, home))
            if other is None:
                self.problems.append(ScoreProblem.of(board, "score.other_table_missing",
                                                     ns=r.ns, ew=r.ew, home=home, away=away))
                continue
            done.add((away, home))
            if r.form != other.form:
                self.problems.append(ScoreProblem.of(board, "score.forms_differ", home=home,
                                                     away=away))
                continue
            out.append((r, other))
        return out

    def _rule(self, session: Mapping[Pair, float] | None) -> ArtificialRule:
        ed, opts = self.ed, self.opts

        def rule(r: BoardResult, side: Side, award: ArtificialAward) -> float:
            values = [session[c] for c in _contestants(r, side, opts)
                      if session is not None and c in session]
            mine = sum(values) / len(values) if values else None
            if self.how is Method.MATCHPOINTS:
                return artificial_percent(award.score, ed, session_percent=mine,
                                          percent=award.percent)
            return artificial_imps(award.score, ed, session_average=mine,
                                   amounts=opts.artificial_imps)
        return rule

    def board(self, board: int, rule: ArtificialRule) -> list[ScoredResult]:
        rows, opts = self.boards[board], self.opts
        if self.how is Method.IMPS:
            out = []
            for a, b in self.matches[board]:
                (ax, ay), (bx, by) = imp_match_board(a, b, artificial=rule,
                                                     knockout=opts.knockout)
                out += [ScoredResult(a, ax, ay), ScoredResult(b, bx, by)]
            return out
        if self.how is Method.MATCHPOINTS:
            points = matchpoint_board(rows, self.expected, units=opts.units,
                                      neuberg=opts.neuberg, small_groups=opts.small_groups,
                                      rounding=opts.rounding, artificial=rule)
        elif self.how is Method.BUTLER:
            points = butler_board(rows, trim=opts.butler_trim,
                                  half_even=opts.datum_half_even, artificial=rule)
        elif self.how is Method.CROSS_IMPS:
            points = cross_imp_board(rows, average=opts.cross_imps_average, artificial=rule)
        else:
            points = total_points_board(rows)
        return [ScoredResult(r, ns if Side.NS in r.sides else 0.0,
                             ew if Side.EW in r.sides else 0.0)   # Law 15B: one side alone
                for r, (ns, ew) in zip(rows, points, strict=True)]

    def _session(self, scored: Mapping[int, list[ScoredResult]]) -> dict[Pair, float]:
        """Each contestant's score on the boards where it had no artificial score: a
        percentage (matchpoints) or average IMPs per board (12C2(c))."""
        points: dict[tuple[Pair, int], float] = {}
        spoilt: set[tuple[Pair, int]] = set()
        for b, results in scored.items():
            for s in results:
                for side, value in ((Side.NS, s.ns_points), (Side.EW, s.ew_points)):
                    if side not in s.result.sides:     # Law 15B: the other side's alone
                        continue
                    for c in _contestants(s.result, side, self.opts):
                        points[(c, b)] = value
                        if _artificial(s.result, side):
                            spoilt.add((c, b))
            if self.how is Method.IMPS:  # a team's other table shares its board score
                for a, o in self.matches[b]:
                    for x, y in ((a, o), (o, a)):
                        if _artificial(x, Side.NS) or _artificial(y, Side.EW):
                            for c in (*_contestants(x, Side.NS, self.opts),
                                      *_contestants(y, Side.EW, self.opts)):
                                spoilt.add((c, b))
        sums: dict[Pair, float] = defaultdict(float)
        denominators: dict[Pair, float] = defaultdict(float)
        for (c, b), value in points.items():
            if (c, b) not in spoilt:
                sums[c] += value
                denominators[c] += self.tops[b] if self.how is Method.MATCHPOINTS else 1.0
        scale = 100.0 if self.how is Method.MATCHPOINTS else 1.0
        return {c: scale * sums[c] / d for c, d in denominators.items() if d > 0}

    def score(self, reuse: Mapping[int, Sequence[ScoredResult]] | None = None
              ) -> dict[int, list[ScoredResult]]:
        """Every board scored; a board in ``reuse`` (scored before, its results unchanged,
        none of them artificial) is taken as it was."""
        reuse = reuse or {}
        scored = {b: list(reuse[b]) if b in reuse else self.board(b, self._rule(None))
                  for b in self.boards}
        with_artificial = [b for b, results in scored.items()
                           if any(s.result.adjustment is not None and _artificial(s.result, side)
                                  for s in results for side in Side)]
        if with_artificial and self.ed.session_percentage_rule:
            rule = self._rule(self._session(scored))
            for b in with_artificial:
                scored[b] = self.board(b, rule)
        return scored


# Totals, penalties, ranking --------------------------------------------------------------

def _natural(pair: Pair) -> tuple[int, int, str]:
    if isinstance(pair, int):
        return (0, pair, "")
    return (0, int(pair), pair) if pair.isascii() and pair.isdigit() else (1, 0, pair)


class EventTotals:
    """Each contestant's total, boards and tops, then penalties and victory points."""

    def __init__(self, scorer: BoardScorer, scored: Mapping[int, tuple[ScoredResult, ...]],
                 problems: list[ScoreProblem]):
        self.scorer, self.scored, self.problems = scorer, scored, problems
        self.per_board: dict[tuple[Pair, int], float] = {}
        self.sides: dict[Pair, set[Side]] = defaultdict(set)
        for b, results in scored.items():
            for s in results:
                for side, value in ((Side.NS, s.ns_points), (Side.EW, s.ew_points)):
                    if side not in s.result.sides:     # Law 15B: scored elsewhere
                        continue
                    for c in _contestants(s.result, side, scorer.opts):
                        self.per_board[(c, b)] = value  # a team's two tables: one score
                        self.sides[c].add(side)
        self.total: dict[Pair, float] = defaultdict(float)
        self.played: dict[Pair, int] = defaultdict(int)
        self.tops: dict[Pair, float] = defaultdict(float)
        for (c, b), value in self.per_board.items():
            self.total[c] += value
            self.played[c] += 1
            self.tops[c] += scorer.tops.get(b, 0.0)
        self.vp = scorer.how is Method.IMPS and scorer.opts.victory_points
        if self.vp and scorer.opts.teams is None:
            problems.append(ScoreProblem.of(None, "score.vp_without_teams"))
            self.vp = False

    def apply(self, penalties: Iterable[Penalty]) -> tuple[Penalty, ...]:
        """Deduct each penalty from its contestant only (Law 90; non-zero-sum)."""
        how, applied = self.scorer.how, []
        imp_fines: dict[tuple[Pair, int], float] = defaultdict(float)
        vp_fines: dict[Pair, float] = defaultdict(float)
        for p in penalties:
            c, unit = p.pair, p.unit
            if c not in self.total:
                self.problems.append(ScoreProblem.of(p.board, "score.penalty_no_contestant",
                                                     contestant=c))
                continue
            if p.board is not None and p.board not in self.scored:
                self.problems.append(ScoreProblem.of(None, "score.penalty_no_board",
                                                     contestant=c, board=p.board))
                continue
            if how is Method.MATCHPOINTS and unit is PenaltyUnit.MATCHPOINTS:
                self.total[c] -= p.amount
            elif how is Method.MATCHPOINTS and unit is PenaltyUnit.PERCENT:
                self.total[c] -= p.amount / 100 * self.tops[c]
            elif how in _IMP_METHODS and not self.vp and unit is PenaltyUnit.IMPS:
                self.total[c] -= p.amount
            elif self.vp and unit is PenaltyUnit.VICTORY_POINTS:
                vp_fines[c] += p.amount
            elif self.vp and unit is PenaltyUnit.IMPS and (c, p.board) in self.per_board:
                imp_fines[(c, p.board or 0)] += p.amount
            else:
                kind = "victory points" if self.vp else how.value
                self.problems.append(ScoreProblem.of(p.board, "score.penalty_unit",
                                                     contestant=c, unit=unit.value, kind=kind))
                continue
            applied.append(p)
        if self.vp:
            self._victory_points(imp_fines, vp_fines)
        return tuple(applied)

    def _victory_points(self, imp_fines: Mapping[tuple[Pair, int], float],
                        vp_fines: Mapping[Pair, float]) -> None:
        """Each match's IMP margin to VPs (WBF 2013); a fined team on its own margin."""
        teams = self.scorer.opts.teams
        assert teams is not None
        margins: dict[frozenset[Pair], dict[Pair, float]] = defaultdict(lambda: defaultdict(float))
        boards: dict[frozenset[Pair], set[int]] = defaultdict(set)
        for b, results in self.scored.items():
            for s in results[0::2]:  # the first table of each match: both teams' IMPs
                home, away = teams[s.result.ns], teams[s.result.ew]
                key = frozenset((home, away))
                boards[key].add(b)
                margins[key][home] += s.ns_points - imp_fines.get((home, b), 0.0)
                margins[key][away] += s.ew_points - imp_fines.get((away, b), 0.0)
        self.total = defaultdict(float)
        for key, margin in margins.items():
            for team, imps_won in margin.items():
                self.total[team] += victory_points(imps_won, len(boards[key]))[0]
        for team, fine in vp_fines.items():
            self.total[team] -= fine

    def ranking(self) -> tuple[PairScore, ...]:
        scorer = self.scorer
        one_winner = (scorer.how is Method.IMPS and scorer.opts.teams is not None) or any(
            len(s) > 1 for s in self.sides.values())
        groups: list[tuple[Side | None, list[Pair]]]
        if one_winner:
            groups = [(None, list(self.total))]
        else:
            groups = [(side, [c for c in self.total if side in self.sides[c]]) for side in Side]
        out = []
        for direction, members in groups:
            members.sort(key=_natural)
            percents = [100 * self.total[c] / self.tops[c]
                        if scorer.how is Method.MATCHPOINTS and self.tops[c] > 0 else None
                        for c in members]
            keys = [p if p is not None else self.total[c] for c, p in zip(members, percents,
                                                                          strict=True)]
            ranks = rank(keys)
            for i in sorted(range(len(members)), key=lambda i: ranks[i]):
                c = members[i]
                out.append(PairScore(c, direction, self.total[c], percents[i], ranks[i],
                                     self.played[c]))
        return tuple(out)


_IMP_METHODS = (Method.IMPS, Method.BUTLER, Method.CROSS_IMPS)


def score_event(results: Iterable[BoardResult], method: Method | str = Method.MATCHPOINTS, *,
                edition: Edition | str | None = None, rulings: Iterable[BoardResult] = (),
                penalties: Iterable[Penalty] = (),
                options: ScoringOptions | None = None,
                previous: EventScore | None = None) -> EventScore:
    """Score and rank an event: ``method`` is ``mp``, ``imp`` (teams), ``butler``,
    ``crossimp`` or ``total`` (Law 78); ``edition`` selects the adjusted-score rules.

    ``rulings`` are results that replace the result of the same board and pairs (a
    corrected score, an adjusted score) or add one on a board of the event. Results,
    rulings and penalties that cannot be scored are reported in ``problems``.

    ``previous``: the same event scored before with the same method and options, some
    results added or changed since (live scoring). A board's points depend on its own
    results only (and on the expected number of results, for matchpoints), so a board whose
    results are the same as then is not scored again; the totals and the ranking are added
    up again. With an artificial score anywhere (Law 12C2: under 12C2(c) a session's
    percentage reaches every board) or another expected number of results, everything is
    scored again. The event is the one scoring from nothing gives (the tests compare).
    """
    try:
        how = Method(method)
    except ValueError:
        raise ValueError(f"unknown scoring method {method!r} (mp, imp, butler, crossimp, "
                         "total)") from None
    ed = edition_named(edition)
    opts = options or ScoringOptions()
    rows = list(results)
    checked = None if rulings or previous is None else _checked_before(rows, previous)
    fresh = rows if checked is None else [r for r in rows if not _board_in(r, checked)]
    boards, problems = check_results(fresh, ed, rulings=rulings,
                                     individual=opts.individual, teams=opts.teams,
                                     total_points=how is Method.TOTAL_POINTS,
                                     vulnerability=opts.vulnerability)
    if checked:   # a board's checks look at its own results only
        boards = dict(sorted({**boards, **checked}.items()))
    expected = opts.expected or max((sum(r.only is None for r in rows)   # 15B's: no play
                                     for rows in boards.values()), default=1)
    scorer = BoardScorer(boards, how, ed, opts, expected, problems)
    scored = _scored(scorer, _unchanged(previous, boards, how, expected))
    totals = EventTotals(scorer, scored, problems)
    applied = totals.apply(penalties)
    return EventScore(how, scored, totals.ranking(), tuple(problems), scorer.tops,
                      expected if how is Method.MATCHPOINTS else None, applied)


def _scored(scorer: BoardScorer, reuse: Mapping[int, tuple[ScoredResult, ...]]
            ) -> dict[int, tuple[ScoredResult, ...]]:
    digits = scorer.opts.digits
    return {b: reuse[b] if b in reuse else
            tuple(ScoredResult(s.result, round_points(s.ns_points, digits),
                               round_points(s.ew_points, digits)) for s in results)
            for b, results in scorer.score(reuse).items() if results}


def score_boards(results: Iterable[BoardResult], method: Method, edition: Edition,
                 options: ScoringOptions, *, checked: Sequence[BoardResult] = ()
                 ) -> tuple[BoardScorer, dict[int, tuple[ScoredResult, ...]]]:
    """The boards of ``results`` scored as :func:`score_event` scores them, without the
    totals and the ranking (a live field scores the boards that changed, then adds up its
    own totals): the scorer (its ``tops`` and ``problems``) and the scored boards.
    ``options.expected`` must be given (a board's points then depend on its own results
    only). ``checked``: results accepted before by ``check_results`` (bridgecore.adjusted),
    in order, that ``results`` follow (a board's new results): they are not checked again.
    """
    if options.expected is None:
        raise ValueError("score_boards needs the expected number of results a board")
    boards, problems = check_results(results, edition, individual=options.individual,
                                     teams=options.teams,
                                     total_points=method is Method.TOTAL_POINTS,
                                     vulnerability=options.vulnerability, checked=checked)
    scorer = BoardScorer(boards, method, edition, options, options.expected, problems)
    return scorer, _scored(scorer, {})


def _board_in(r: object, boards: Mapping[int, object]) -> bool:
    board = getattr(r, "board", None)
    return isinstance(board, int) and not isinstance(board, bool) and board in boards


def _checked_before(rows: Sequence[BoardResult], previous: EventScore
                    ) -> dict[int, list[BoardResult]]:
    """The boards whose results are those ``previous`` scored, all of them accepted then
    (no problem on the board): checked already, they need not be checked again."""
    troubled = {p.board for p in previous.problems}
    if None in troubled:
        return {}
    by_board: dict[int, list[BoardResult]] = defaultdict(list)
    for r in rows:
        if isinstance(r, BoardResult) and isinstance(r.board, int) \
                and not isinstance(r.board, bool):
            by_board[r.board].append(r)
    out: dict[int, list[BoardResult]] = {}
    for b, group in by_board.items():
        before = previous.boards.get(b)
        if before is not None and b not in troubled and len(before) == len(group) and \
                all(s.result == r for s, r in zip(before, group, strict=True)):
            out[b] = group
    return out


def _unchanged(previous: EventScore | None, boards: Mapping[int, list[BoardResult]],
               how: Method, expected: int) -> dict[int, tuple[ScoredResult, ...]]:
    """The boards of ``previous`` that ``score_event`` may take as they were (its
    docstring): none if an artificial score is anywhere or the expected number of results
    (matchpoints) moved; else each board whose results are the same, in the same order."""
    if previous is None or previous.method is not how or \
            (how is Method.MATCHPOINTS and previous.expected != expected):
        return {}
    if any(_artificial(r, side) for rows in boards.values() for r in rows
           if r.adjustment is not None for side in Side):
        return {}
    out: dict[int, tuple[ScoredResult, ...]] = {}
    for b, rows in boards.items():
        before = previous.boards.get(b)
        if before is not None and len(before) == len(rows) and \
                all(s.result == r for s, r in zip(before, rows, strict=True)):
            out[b] = before
    return out
