"""Results, the director's adjusted scores and procedural penalties (Laws 12, 77, 88, 90).

A :class:`BoardResult` is one table's result on a board. A ruling is an
:data:`Adjustment` carried by the result it replaces: an :class:`Artificial` score
(12C2), an :class:`Assigned` score (12C1(a)), a :class:`Weighted` score (12C1(c)) or a
:class:`Split` non-balancing pair of awards (12C1(f)). A :class:`Penalty` (Law 90) is
given to one contestant only.

:func:`awards` says what each side of a result is scored on. The edition's rules turn
an artificial score into points (:func:`artificial_percent` for pairs,
:func:`artificial_imps` for IMPs). :func:`check_results` sets apart, as problems, the
results that cannot be scored (an impossible score, a pair playing a board twice, a
ruling on a board that does not exist) so that the rest of the event is scored.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from bridgecore.calls import Contract, Risk
from bridgecore.cards import Side, Strain
from bridgecore.editions import Edition
from bridgecore.errors import ParseError, RuleError
from bridgecore.scoring import score as law77_score
from bridgecore.text import Text
from bridgecore.vulnerability import Vulnerability

__all__ = [
    "SCORE_PROBLEMS", "Adjustment", "Artificial", "ArtificialAward", "ArtificialScore",
    "Assigned", "Award", "BoardResult", "Distribution", "Pair", "Penalty", "PenaltyUnit",
    "ScoreProblem", "SideAward", "Split", "Weighted", "artificial_imps", "artificial_percent",
    "awards", "check_results",
]

Pair = int | str
"""A contestant's number or name as the event knows it (pair, team or player)."""


class ArtificialScore(Enum):
    """Law 12C2(a): the artificial adjusted scores, by the side's share of fault."""

    AVERAGE_PLUS = "A+"  # in no way at fault: at least 60%
    AVERAGE = "A="  # only partly at fault: 50%
    AVERAGE_MINUS = "A-"  # directly at fault: at most 40%

    @property
    def percent(self) -> float:
        """The Law 12C2(a) percentage for pairs: 60, 50 or 40."""
        return _PERCENT[self]

    @classmethod
    def of_percent(cls, percent: float) -> ArtificialScore:
        """The level a percentage stands for: 60 or more A+, 50 A=, 40 or less A-."""
        if percent >= 60:
            return cls.AVERAGE_PLUS
        if percent <= 40:
            return cls.AVERAGE_MINUS
        if percent == 50:
            return cls.AVERAGE
        raise RuleError(f"{percent:g}% is not an artificial adjusted score (Law 12C2(a))",
                        Text.of("adjusted.percent_level", percent=f"{percent:g}"))

    def __str__(self) -> str:
        return self.value


_PERCENT = {
    ArtificialScore.AVERAGE_PLUS: 60.0,
    ArtificialScore.AVERAGE: 50.0,
    ArtificialScore.AVERAGE_MINUS: 40.0,
}


def _check_percent(score: ArtificialScore, percent: float | None) -> None:
    if percent is None:
        return
    if not 0 <= percent <= 100 or ArtificialScore.of_percent(percent) is not score:
        raise RuleError(f"{percent:g}% is not a possible {score} (Law 12C2(a): "
                        "average-plus at least 60, average 50, average-minus at most 40)",
                        Text.of("adjusted.percent_score", percent=f"{percent:g}",
                                score=str(score)))


@dataclass(frozen=True, slots=True)
class Artificial:
    """Law 12C2: an artificial adjusted score for each side (no result could be obtained).

    ``ns_percent`` / ``ew_percent`` set a percentage other than 60/50/40 where the
    regulations allow it (average-plus at least 60, average-minus at most 40).
    """

    ns: ArtificialScore
    ew: ArtificialScore
    ns_percent: float | None = None
    ew_percent: float | None = None

    def __post_init__(self) -> None:
        _check_percent(self.ns, self.ns_percent)
        _check_percent(self.ew, self.ew_percent)
        for name, level in (("ns_percent", self.ns), ("ew_percent", self.ew)):
            if getattr(self, name) == level.percent:
                object.__setattr__(self, name, None)

    @classmethod
    def parse(cls, text: str) -> Artificial:
        """``A+`` (both sides), ``A+ A-``, ``A+/A-``, ``A+65 A-35`` or USEBIO ``A6040``."""
        t = text.strip().upper()
        usebio = re.fullmatch(r"A(\d\d)(\d\d)", t)
        try:
            if usebio:
                ns, ew = (float(g) for g in usebio.groups())
                return cls(ArtificialScore.of_percent(ns), ArtificialScore.of_percent(ew), ns, ew)
            tokens = re.split(r"[\s/]+", t)
            sides = [re.fullmatch(r"A([+=-])(\d+(?:\.\d+)?)?", tok) for tok in tokens]
            if len(sides) not in (1, 2) or not all(sides):
                raise ValueError("expected A+, A= or A- for each side")
            parsed = [(ArtificialScore("A" + m.group(1)), float(m.group(2)) if m.group(2)
                       else None) for m in sides if m]
            (ns_score, ns_pct), (ew_score, ew_pct) = parsed[0], parsed[-1]
            return cls(ns_score, ew_score, ns_pct, ew_pct)
        except ValueError as err:
            raise ParseError(f"not an artificial adjusted score: {text!r} ({err})") from None

    def __str__(self) -> str:
        def token(score: ArtificialScore, percent: float | None) -> str:
            return str(score) + (f"{percent:g}" if percent is not None else "")
        return f"{token(self.ns, self.ns_percent)} {token(self.ew, self.ew_percent)}"


def _check_score(score: int) -> None:
    if isinstance(score, bool) or not isinstance(score, int) or score % 10:
        raise ValueError(f"a total-point score is a whole multiple of 10, got {score!r}")


@dataclass(frozen=True, slots=True)
class Assigned:
    """Law 12C1(a): an assigned score, a total-point result that replaces the table result."""

    score_ns: int

    def __post_init__(self) -> None:
        _check_score(self.score_ns)

    def __str__(self) -> str:
        return str(self.score_ns)


@dataclass(frozen=True, slots=True)
class Weighted:
    """Law 12C1(c): several possible results with their weights, ``((weight, score_ns), ...)``.

    The weights apply to the matchpoints or IMPs each result would earn, never to an
    averaged total-point score (laws.md 5.6: 50% x 12 MP + 50% x 2 MP = 7 MP).
    """

    outcomes: tuple[tuple[float, int], ...]

    def __post_init__(self) -> None:
        outcomes = tuple((float(w), s) for w, s in self.outcomes)
        if not outcomes:
            raise RuleError("a weighted score needs at least one outcome (Law 12C1(c))",
                            Text.of("adjusted.no_outcome"))
        for weight, score in outcomes:
            _check_score(score)
            if not weight > 0:
                raise RuleError(f"weight {weight:g} of {score} is not positive",
                                Text.of("adjusted.weight", weight=f"{weight:g}", score=score))
        if not math.isclose(sum(w for w, _ in outcomes), 1.0, abs_tol=1e-9):
            total = f"{sum(w for w, _ in outcomes):g}"
            raise RuleError(f"the weights of a weighted score add up to 1, not {total}",
                            Text.of("adjusted.weights", total=total))
        object.__setattr__(self, "outcomes", outcomes)

    def __str__(self) -> str:
        return " + ".join(f"{100 * w:g}% {s}" for w, s in self.outcomes)


SideAward = Assigned | Weighted | ArtificialScore
"""What one side of a :class:`Split` receives."""


@dataclass(frozen=True, slots=True)
class Split:
    """Law 12C1(f): non-balancing adjusted scores, each side scored on its own award."""

    ns: SideAward
    ew: SideAward

    def __str__(self) -> str:
        return f"NS {self.ns} / EW {self.ew}"


Adjustment = Artificial | Assigned | Weighted | Split
"""A director's adjusted score for one result (Law 12)."""


class PenaltyUnit(Enum):
    """What a procedural penalty is counted in (Law 90; amounts are for the regulations)."""

    MATCHPOINTS = "mp"  # matchpoints, in the event's units
    PERCENT = "percent"  # percentage points of the contestant's session score
    IMPS = "imp"
    VICTORY_POINTS = "vp"


@dataclass(frozen=True, slots=True)
class Penalty:
    """Law 90: a procedural penalty deducted from one contestant only (non-zero-sum).

    ``board`` says where the offence happened (needed for an IMP penalty in an event
    scored in victory points, to find the match).
    """

    pair: Pair
    amount: float
    unit: PenaltyUnit
    board: int | None = None
    law: str = "90"
    reason: str = ""

    def __post_init__(self) -> None:
        if not self.amount > 0:
            raise ValueError(f"a penalty amount is positive (it is deducted), got {self.amount}")


def artificial_percent(score: ArtificialScore, edition: Edition, *,
                       session_percent: float | None = None,
                       percent: float | None = None) -> float:
    """A pairs contestant's percentage for an artificial adjusted score.

    Law 12C2(a): 60/50/40 (or ``percent`` set by the regulations). Where the edition has
    the 12C2(c) rule (2007, 2017), a non-offender (average-plus) whose ``session_percent``
    on the other boards is higher keeps it, and an offender (average-minus) whose session
    percentage is lower keeps it. 1997 Law 88: a non-offender has at least 60%.
    """
    _check_percent(score, percent)
    value = score.percent if percent is None else percent
    if edition.session_percentage_rule and session_percent is not None:
        if score is ArtificialScore.AVERAGE_PLUS:
            value = max(value, session_percent)
        elif score is ArtificialScore.AVERAGE_MINUS:
            value = min(value, session_percent)
    if edition.indemnity_minimum_60 and score is ArtificialScore.AVERAGE_PLUS:
        value = max(value, 60.0)
    return value


def artificial_imps(score: ArtificialScore, edition: Edition, *,
                    session_average: float | None = None,
                    amounts: tuple[float, float, float] | None = None) -> float:
    """IMPs for an artificial adjusted score (Law 12C2(b), 86A).

    The edition's average-plus / average / average-minus (+3 / 0 / -3), or ``amounts``
    where the regulations vary them. With the 12C2(c) rule, the IMP equivalent of the
    session percentage is the contestant's average IMPs per board on the other boards.
    """
    plus, even, minus = amounts or (edition.imp_average_plus, edition.imp_average,
                                    edition.imp_average_minus)
    value = {ArtificialScore.AVERAGE_PLUS: plus, ArtificialScore.AVERAGE: even,
             ArtificialScore.AVERAGE_MINUS: minus}[score]
    if edition.session_percentage_rule and session_average is not None:
        if score is ArtificialScore.AVERAGE_PLUS:
            value = max(value, session_average)
        elif score is ArtificialScore.AVERAGE_MINUS:
            value = min(value, session_average)
    return value


# Results ---------------------------------------------------------------------------------

Distribution = tuple[tuple[float, int], ...]
"""Possible North-South scores with their weights; a table result is ``((1.0, score),)``."""


@dataclass(frozen=True, slots=True)
class ArtificialAward:
    """One side's artificial adjusted score (Law 12C2), with a regulation percentage if any."""

    score: ArtificialScore
    percent: float | None = None


Award = Distribution | ArtificialAward
"""What one side of a result is scored on."""


@dataclass(frozen=True, slots=True)
class BoardResult:
    """One table's result on a board: pairs, North-South score, and the ruling if any.

    ``score_ns`` is None when there is no table result (an adjusted score stands alone).
    ``form`` numbers the forms of a fouled board (Law 87B: 0 the correct one); ``players``
    (North, East, South, West) are given in individual events.

    ``only``: the one side scored on this result, the other side's pair having its score
    of the board elsewhere (Law 15B: a second play is cancelled for both sides, and the side
    it deprived of a valid score alone gets an artificial adjusted score on it). Such a
    result is artificial for that side (Law 12C2), so never compared with the board's
    other results nor counted in its top; the other side is given nothing on it.
    """

    board: int
    ns: Pair
    ew: Pair
    score_ns: int | None = None
    adjustment: Adjustment | None = None
    form: int = 0
    players: tuple[Pair, Pair, Pair, Pair] | None = None
    only: Side | None = None

    @property
    def sides(self) -> tuple[Side, ...]:
        """The sides this result scores: both, or ``only``'s."""
        return (Side.NS, Side.EW) if self.only is None else (self.only,)


def _side_award(award: SideAward) -> Award:
    if isinstance(award, ArtificialScore):
        return ArtificialAward(award)
    if isinstance(award, Assigned):
        return ((1.0, award.score_ns),)
    if isinstance(award, Weighted):
        return award.outcomes
    raise TypeError(f"not an award for one side: {award!r}")


def awards(result: BoardResult) -> tuple[Award, Award]:
    """What the North-South and East-West sides of a result are scored on (Law 12C)."""
    adj = result.adjustment
    if adj is None:
        if result.score_ns is None:
            raise ValueError(f"board {result.board}: {result.ns} v {result.ew} has no score "
                             "and no adjusted score")
        table: Distribution = ((1.0, result.score_ns),)
        return table, table
    if isinstance(adj, Artificial):
        return ArtificialAward(adj.ns, adj.ns_percent), ArtificialAward(adj.ew, adj.ew_percent)
    if isinstance(adj, Split):
        return _side_award(adj.ns), _side_award(adj.ew)
    if isinstance(adj, Assigned | Weighted):
        award = _side_award(adj)
        return award, award
    raise TypeError(f"not an adjustment: {adj!r}")


SCORE_PROBLEMS: dict[str, str] = {
    "score.on_board": "board {board}: {problem}",
    "score.not_a_ruling": "not a ruling: {ruling}",
    "score.ruling_no_board": "ruling for {ns} v {ew} on board {board}: the event has no such "
                             "board",
    "score.not_a_result": "not a board result: {result}",
    "score.not_a_board": "not a board number: {number}",
    "score.pair_kind": "{ns} v {ew}: a pair is a number or a name",
    "score.both_directions": "pair {pair} sits both North-South and East-West",
    "score.form_kind": "{ns} v {ew}: the form of a fouled board is a number, not {form}",
    "score.individual_players": "{ns} v {ew}: an individual result needs four different "
                                "players (N, E, S, W)",
    "score.no_team": "{ns} v {ew}: pair {pair} is in no team",
    "score.same_team": "{ns} v {ew}: both pairs are in team {team}",
    "score.no_score": "{ns} v {ew}: no score and no adjusted score",
    "score.bad_award": "{ns} v {ew}: {error}",
    "score.artificial_total_points": "{ns} v {ew}: an artificial adjusted score has no "
                                     "total-point value (Law 78C)",
    "score.weighted_edition": "{ns} v {ew}: weighted adjusted scores are not in the {edition} "
                              "Laws (Law 12C1(c), 2007 and later)",
    "score.impossible": "{ns} v {ew}: impossible score {score} (no contract scores it when "
                        "vulnerability is {vulnerability}, Law 77)",
    "score.twice": "{player} plays the board twice: {ns} v {ew} is not scored",
    "score.one_side": "{ns} v {ew}: only side {side} is scored, so its score must be "
                      "artificial (Law 15B, 12C2), and never in a teams event",
    "score.imps_two_tables": "{count} results: IMPs compare the two tables of a match (give "
                             "the teams)",
    "score.team_twice_ns": "{ns} v {ew}: team {home} already sat North-South against {away}",
    "score.other_table_missing": "{ns} v {ew}: no result at the other table of {home} v "
                                 "{away}",
    "score.forms_differ": "{home} v {away}: the two tables played different forms of the "
                          "board (Law 87): a ruling is needed",
    "score.vp_without_teams": "victory points need the teams of the pairs",
    "score.penalty_no_contestant": "penalty for {contestant}: no such contestant in the event",
    "score.penalty_no_board": "penalty for {contestant} on board {board}: the event has no "
                              "such board",
    "score.penalty_unit": "penalty for {contestant} in {unit}: not a unit of this event "
                          "({kind})",
}
"""Each scoring problem's key and its English text: the console catalog's English entry
for the same key (hub/locale, docs/translating.md; tests/bridgecore/test_score_problems.py
keeps the two the same), so that :attr:`ScoreProblem.message` is the catalog's English and
a reader's application renders :attr:`ScoreProblem.text` in its reader's language."""


@dataclass(frozen=True, slots=True)
class ScoreProblem:
    """A result, ruling or penalty that could not be scored, and why: ``message`` in
    English (``tenace score``, logs), ``text`` the same as a message (bridgecore.text: a
    ``score.*`` key and its values) that an application renders in its reader's
    language; None for a problem made with words only."""

    board: int | None
    message: str
    text: Text | None = None

    @classmethod
    def of(cls, board: int | None, key: str, /, **values: object) -> ScoreProblem:
        """``ScoreProblem.of(3, "score.no_score", ns=1, ew=4)``: the message (a key of
        :data:`SCORE_PROBLEMS`) and its English words."""
        text = Text.of(key, **values)
        return cls(board, SCORE_PROBLEMS[key].format(**text.fields), text)

    def as_text(self) -> Text:
        """The whole problem as a message, its board included (``score.on_board``)."""
        what = self.text if self.text is not None else Text.plain(self.message)
        if self.board is None:
            return what
        return Text.of("score.on_board", board=self.board, problem=what)

    def __str__(self) -> str:
        return f"board {self.board}: {self.message}" if self.board is not None else self.message


# Checking the input -------------------------------------------------------------------

@lru_cache(maxsize=2)
def _declarer_scores(vulnerable: bool) -> frozenset[int]:
    """Every score Law 77 can give the declarer's side, vulnerable or not."""
    return frozenset(law77_score(Contract(level, strain, risk), tricks, vulnerable)
                     for level in range(1, 8) for strain in Strain for risk in Risk
                     for tricks in range(14))


@lru_cache(maxsize=4)
def _attainable(vulnerability: Vulnerability) -> frozenset[int]:
    """Every North-South score Law 77 can give with this vulnerability (0: passed out).
    Each side's scores are worked out once (each vulnerability worked out both again: a
    fifth of a second of the hub's first scores, issue 27)."""
    return frozenset({0} | _declarer_scores(vulnerability.is_vulnerable(Side.NS))
                     | {-s for s in _declarer_scores(vulnerability.is_vulnerable(Side.EW))})


def _is_pair(p: object) -> bool:
    return isinstance(p, int | str) and not isinstance(p, bool)


def _result_problem(r: BoardResult, edition: Edition, individual: bool,
                    teams: Mapping[Pair, Pair] | None, total_points: bool,
                    vulnerability: Mapping[int, Vulnerability]) -> ScoreProblem | None:
    """Why a result cannot be scored, or None."""
    board, ns, ew = r.board, r.ns, r.ew
    if not _is_pair(r.ns) or not _is_pair(r.ew):
        return ScoreProblem.of(board, "score.pair_kind", ns=ns, ew=ew)
    if r.ns == r.ew:
        return ScoreProblem.of(board, "score.both_directions", pair=r.ns)
    if isinstance(r.form, bool) or not isinstance(r.form, int):
        return ScoreProblem.of(board, "score.form_kind", ns=ns, ew=ew, form=repr(r.form))
    if individual and (not isinstance(r.players, tuple) or len(r.players) != 4
                       or not all(_is_pair(p) for p in r.players) or len(set(r.players)) != 4):
        return ScoreProblem.of(board, "score.individual_players", ns=ns, ew=ew)
    if teams is not None:
        missing = [p for p in (r.ns, r.ew) if p not in teams]
        if missing:
            return ScoreProblem.of(board, "score.no_team", ns=ns, ew=ew, pair=missing[0])
        if teams[r.ns] == teams[r.ew]:
            return ScoreProblem.of(board, "score.same_team", ns=ns, ew=ew, team=teams[r.ns])
    if r.adjustment is None and r.score_ns is None:
        return ScoreProblem.of(board, "score.no_score", ns=ns, ew=ew)
    try:
        sides = awards(r)
    except (TypeError, ValueError) as err:
        return ScoreProblem.of(board, "score.bad_award", ns=ns, ew=ew, error=str(err))
    if r.only is not None and (not isinstance(r.only, Side) or teams is not None or
                               not isinstance(sides[r.only is Side.EW], ArtificialAward)):
        return ScoreProblem.of(board, "score.one_side", ns=ns, ew=ew, side=str(r.only))
    marked = vulnerability.get(r.board)
    vul = marked if marked is not None else Vulnerability.of_board(r.board)
    possible = _attainable(vul)
    for award in sides:
        if isinstance(award, ArtificialAward):
            if total_points:
                return ScoreProblem.of(board, "score.artificial_total_points", ns=ns, ew=ew)
            continue
        if len(award) > 1 and not edition.weighted_scores:
            return ScoreProblem.of(board, "score.weighted_edition", ns=ns, ew=ew,
                                   edition=str(edition))
        for _, s in award:
            if isinstance(s, bool) or s not in possible:
                return ScoreProblem.of(board, "score.impossible", ns=ns, ew=ew, score=repr(s),
                                       vulnerability=str(vul))
    return None


def _key(r: object) -> tuple[object, object, object] | None:
    if not isinstance(r, BoardResult):
        return None
    try:
        key = (r.board, r.ns, r.ew)
        hash(key)
    except TypeError:
        return None
    return key


def _apply_rulings(rows: list[BoardResult], rulings: Iterable[BoardResult],
                   problems: list[ScoreProblem]) -> None:
    index = {k: i for i, r in reversed(list(enumerate(rows))) if (k := _key(r)) is not None}
    boards = {k[0] for k in index}
    for ruling in rulings:
        key = _key(ruling)
        if key is not None and key in index:
            rows[index[key]] = ruling
        elif key is not None and key[0] in boards:
            index[key] = len(rows)
            rows.append(ruling)
        elif key is None:
            problems.append(ScoreProblem.of(None, "score.not_a_ruling", ruling=repr(ruling)))
        else:
            problems.append(ScoreProblem.of(None, "score.ruling_no_board", ns=ruling.ns,
                                            ew=ruling.ew, board=ruling.board))


def _people(r: BoardResult, individual: bool) -> tuple[Pair, ...]:
    """Who a result scores: its pairs (players), of its ``only`` side when it has one."""
    if individual:
        if r.players is None:
            return ()
        north, east, south, west = r.players
        every: dict[Side, tuple[Pair, ...]] = {Side.NS: (north, south), Side.EW: (east, west)}
    else:
        every = {Side.NS: (r.ns,), Side.EW: (r.ew,)}
    return tuple(p for side in r.sides for p in every[side])


def check_results(results: Iterable[BoardResult], edition: Edition, *,
                  rulings: Iterable[BoardResult] = (), individual: bool = False,
                  teams: Mapping[Pair, Pair] | None = None, total_points: bool = False,
                  vulnerability: Mapping[int, Vulnerability] | None = None,
                  checked: Sequence[BoardResult] = (),
                  ) -> tuple[dict[int, list[BoardResult]], list[ScoreProblem]]:
    """The results that can be scored, by board, and a problem for each of the others.

    Each ruling replaces the result of the same board and pairs (a corrected or adjusted
    score) or adds one on a board of the event; a ruling on another board is a problem.
    A result is refused when its score is impossible on the board (Law 77, with the
    board's vulnerability: as ``vulnerability`` gives it for a board marked otherwise, else
    Law 2's), when a pair or player already played the board (the
    first result stands), when it has neither score nor adjusted score, when it is
    weighted under an edition without 12C1(c), or artificial in a total-point event.

    ``checked``: results this function accepted before, all of them, in that order, that
    ``results`` follow (a live event's new results): taken as accepted, not checked again
    (a result's checks look at itself and the results before it on its board only).
    """
    problems: list[ScoreProblem] = []
    rows = list(results)
    _apply_rulings(rows, rulings, problems)
    boards: dict[int, list[BoardResult]] = defaultdict(list)
    seen: dict[int, set[Pair]] = defaultdict(set)
    for r in checked:
        seen[r.board].update(_people(r, individual))
        boards[r.board].append(r)
    for r in rows:
        if not isinstance(r, BoardResult):
            problems.append(ScoreProblem.of(None, "score.not_a_result", result=repr(r)))
            continue
        if isinstance(r.board, bool) or not isinstance(r.board, int) or r.board < 1:
            problems.append(ScoreProblem.of(None, "score.not_a_board", number=repr(r.board)))
            continue
        problem = _result_problem(r, edition, individual, teams, total_points,
                                  vulnerability or {})
        people = _people(r, individual)
        twice = [] if problem else [p for p in people if p in seen[r.board]]
        if twice:
            problem = ScoreProblem.of(r.board, "score.twice", player=twice[0], ns=r.ns,
                                      ew=r.ew)
        if problem:
            problems.append(problem)
            continue
        seen[r.board].update(people)
        boards[r.board].append(r)
    return dict(sorted(boards.items())), problems
