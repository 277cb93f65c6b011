"""An event of several sessions: the sessions' scores added up, with a carry-over.

Each session is scored on its own (:func:`bridgecore.ranking.score_event`: its own tops,
Neuberg, datum within the session). What is added up is each session's score in its own
form (:class:`Form`): a matchpoint percentage, a total of IMPs (Butler, cross-IMPs, teams
without VPs) or of victory points (teams). The event's score of a pair is:

* **sessions that add up** (a two-session pairs): the pair's matchpoint percentages
  averaged over the boards it played, ``Σ(pct_s · boards_s) / Σ boards_s``; where every board
  has the same top this is its matchpoints over the matchpoints it could have scored, the
  way the EBU's and the ACBL's programs add sessions up;
* **IMPs** (Butler or cross-IMP pairs): the sessions' IMPs added up, ``Σ imps_s``, when
  every pair ranked played as many boards as every other (the winner is the pair with the
  highest total of IMPs over the boards it played: Sydney Bridge Centre, "The Butler
  scoring method for pairs competitions"); when the pairs' boards differ (sessions of
  different lengths a pair missed one of, a sit-out) the IMPs per board played,
  ``Σ imps_s / Σ boards_s``, the form of the Butler rankings of the world championships
  (IMPs scored divided by the boards played: BBO Forums, "Bermuda Bowl 2011", on the
  Butler ranking). :func:`imp_form` chooses;
* **victory points** (teams): the sessions' VPs added up, ``Σ vp_s`` (each match already
  on its VP scale, the teams ranked on their total as in a round robin);
* **a final with carry-over** (a qualifying then a final): the final's score plus the
  carry-over ``c · (q − n)``, q the pair's qualifying score, ``n`` its neutral value (50%
  in matchpoints, 0 IMPs: a Butler's datum is the average) and ``c`` the fraction the
  conditions of contest set (the organiser's choice; the one the event states);
* the pairs that did not play a session get nothing for it: a pair is ranked on the
  sessions it played (a pair missing a whole session is the organiser's call: it is left
  out of the event's ranking with ``require_all``).

Ties share a place (1, 2, 2, 4); a pair sitting the same direction in every session is
ranked in that direction, otherwise the event is one field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from bridgecore.adjusted import Pair
from bridgecore.cards import Side
from bridgecore.ranking import EventScore, Method, rank

__all__ = ["EventTotal", "Form", "SessionLine", "add_sessions", "add_up", "carry_by_place",
           "imp_form"]


class Form(StrEnum):
    """How the sessions' scores add up (module docstring); the value is the JSON's."""

    PERCENT = "percent"        # matchpoint percentages, weighted by the boards played
    IMPS = "imps"              # IMP totals added
    IMPS_PER_BOARD = "imps_per_board"   # the IMPs over the boards played
    VP = "vp"                  # victory point totals added

    @property
    def neutral(self) -> float | None:
        """The score of an average pair, from which a carry-over's margin is taken (None:
        a VP total has none, its margin depends on the matches played)."""
        return {Form.PERCENT: 50.0, Form.IMPS: 0.0, Form.IMPS_PER_BOARD: 0.0}.get(self)


@dataclass(frozen=True, slots=True)
class EventTotal:
    """A pair's place in an event of several sessions: its percentage over them (with the
    carry-over), each session's percentage (None where it did not play), its rank."""

    pair: Pair
    direction: Side | None
    percent: float
    sessions: tuple[float | None, ...]
    carry: float
    boards: int
    rank: int


SessionLine = tuple[Pair, float, int, Side | None]
"""One contestant of one session: its key (a pair number, or any identity that matches
the same pair across sessions), its score (a percentage, or its session's total of IMPs or
VPs), the boards it played, its direction (None in a one-winner field)."""


def imp_form(sessions: Sequence[Sequence[SessionLine]]) -> Form:
    """How IMP sessions add up: their totals when every contestant played the same number
    of boards over them, otherwise the IMPs per board played (module docstring)."""
    boards: dict[Pair, int] = {}
    for session in sessions:
        for key, _, played, _ in session:
            boards[key] = boards.get(key, 0) + played
    return Form.IMPS if len(set(boards.values())) <= 1 else Form.IMPS_PER_BOARD


def add_sessions(sessions: Sequence[EventScore], *,
                 carry_from: Mapping[Pair, float] | None = None, carry_fraction: float = 0.0,
                 require_all: bool = False, victory_points: bool = False
                 ) -> tuple[EventTotal, ...]:
    """The event's ranking of ``sessions`` (module docstring), all scored by one method:
    matchpoint percentages weighted by boards played, IMP totals (or per board,
    :func:`imp_form`), or with ``victory_points`` (teams whose totals are VPs) VP totals;
    ``carry_from`` the qualifying score of each pair of a final, carried over as
    ``carry_fraction · (q − neutral)`` points."""
    if not sessions:
        raise ValueError("an event of sessions needs at least one session")
    methods = {s.method for s in sessions}
    if len(methods) > 1:
        raise ValueError("the sessions are scored by different methods ("
                         + ", ".join(sorted(m.value for m in methods)) + "): they cannot "
                         "be added up")
    method = methods.pop()
    if method is Method.TOTAL_POINTS:
        raise ValueError("total points sessions are not added up")
    if method is Method.MATCHPOINTS:
        lines = [[(p.pair, p.percent, p.boards, p.direction) for p in s.ranking
                  if p.percent is not None] for s in sessions]
        form = Form.PERCENT
    else:
        lines = [[(p.pair, p.total, p.boards, p.direction) for p in s.ranking]
                 for s in sessions]
        form = Form.VP if victory_points and method is Method.IMPS else imp_form(lines)
    return add_up(lines, carry_from=carry_from, carry_fraction=carry_fraction,
                  require_all=require_all, form=form)


def carry_by_place(qualifying: Mapping[Pair, float], top: float) -> dict[Pair, float]:
    """The linear carry-over by qualifying place: the first of ``qualifying`` (the finalists'
    qualifying percentages) carries ``top`` points, the last none, the places between in
    proportion, ``top · (n − place) / (n − 1)``; tied pairs share their place's carry (the
    WBF's form for its BAM final, 2023: the winner 6 VPs, the last qualifier 0)."""
    if top < 0:
        raise ValueError(f"a carry-over is 0 points or more, not {top}")
    pairs = list(qualifying)
    places = rank([qualifying[p] for p in pairs])
    n = len(pairs)
    return {p: top if n == 1 else top * (n - place) / (n - 1)
            for p, place in zip(pairs, places, strict=True)}


def add_up(sessions: Sequence[Sequence[SessionLine]], *,
           carry_from: Mapping[Pair, float] | None = None, carry_fraction: float = 0.0,
           carries: Mapping[Pair, float] | None = None,
           require_all: bool = False, form: Form = Form.PERCENT) -> tuple[EventTotal, ...]:
    """:func:`add_sessions` over each session's lines (:data:`SessionLine`), the
    contestants matched across sessions by their key: the hub keys a pair by its players,
    since its number changes from one session to the next. ``carries``: each pair's
    carry-over in points, given (:func:`carry_by_place`), instead of ``carry_from``'s.
    ``form``: how the lines' scores add up (:class:`Form`; an EventTotal's ``percent`` is
    then the event's score in that form)."""
    if not sessions:
        raise ValueError("an event of sessions needs at least one session")
    if not 0 <= carry_fraction <= 1:
        raise ValueError(f"a carry-over fraction is from 0 to 1, not {carry_fraction}")
    if carry_from is not None and form.neutral is None:
        raise ValueError(f"a carry-over of a share of the margin needs an average score: "
                         f"{form.value} has none (carry over by place)")
    pairs: dict[Pair, list[tuple[float | None, int, Side | None]]] = {}
    for index, session in enumerate(sessions):
        for key, percent, boards_played, side in session:
            row = pairs.setdefault(key, [(None, 0, None)] * len(sessions))
            row[index] = (percent, boards_played, side)
    out: list[tuple[Pair, Side | None, float, tuple[float | None, ...], float, int]] = []
    for pair, row in pairs.items():
        played = [(pct, boards) for pct, boards, _ in row if pct is not None and boards]
        if not played or (require_all and len(played) < len(sessions)):
            continue
        boards = sum(b for _, b in played)
        if form is Form.PERCENT:
            percent = sum(pct * b for pct, b in played) / boards
        elif form is Form.IMPS_PER_BOARD:
            percent = sum(total for total, _ in played) / boards
        else:
            percent = sum(total for total, _ in played)
        carry = 0.0
        if carries is not None:
            carry = carries.get(pair, 0.0)
        elif carry_from is not None and pair in carry_from:
            carry = carry_fraction * (carry_from[pair] - (form.neutral or 0.0))
        directions = {d for _, b, d in row if b}
        direction = directions.pop() if len(directions) == 1 else None
        out.append((pair, direction, percent + carry, tuple(p for p, _, _ in row), carry,
                    boards))
    one_field = any(d is None for _, d, *_ in out)
    results: list[EventTotal] = []
    sides = sorted({d for _, d, *_ in out if d is not None}, key=lambda d: d.value)
    fields: list[Side | None] = [None] if one_field else list(sides)
    for field in fields:
        members = [x for x in out if one_field or x[1] is field]
        ranks = rank([x[2] for x in members])
        for x, place in sorted(zip(members, ranks, strict=True),
                               key=lambda item: (item[1], str(item[0][0]))):
            pair, direction, percent, each, carry, boards = x
            results.append(EventTotal(pair, None if one_field else direction, percent, each,
                                      carry, boards, place))
    return tuple(results)
