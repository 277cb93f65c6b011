"""The traveller of a board, its score so far and its double-dummy table, for a table that has
finished it (issue 4: what the tablets show on the result screen).

Law 16 (extraneous information): a table must not learn anything of a board's results before
it has played it. So :func:`traveller_fields` gives something only for a board *over at this
table*, lists only the tables that have finished *that* board, and never another board; the
hub puts it in the table's public state (:meth:`hub.table.TableState.public_state`) beside
the hand record, which follows the same rule.

* ``traveller``: one row per finished sitting of the board in the table's section: table,
  round, pairs (as :meth:`TableState.pairs` gives them), contract, declarer, tricks and the
  North-South score as played (``score_ns``; adjusted scores are the director's, issue 6),
  the row's matchpoint percentage so far, and ``own`` for this table's row. Rows in
  North-South pair order.
* ``percentage``: this table's matchpoints (Law 78A, one per score beaten, a half per tie)
  against the results so far, as a percentage for each direction. A board with fewer results
  than the movement plays is Neuberg-scaled to that number (formats.md 9.1,
  :func:`bridgecore.methods.matchpoint_board`): a result alone is 50%, a top among two of
  three results is not yet 100%. ``field`` says how many results there are and how many the
  movement expects.
* ``imps`` (teams movements, :func:`bridgecore.movements.teams`, and pairs sections scored in
  IMPs, else None): in a teams movement, cross-IMPs (Law 78B) of this table's result
  against every other table's, averaged per comparison (in a match of two rooms, the IMPs
  against the other room); in a pairs section, the section's own method
  (:attr:`hub.section.Section.pairs_method`: IMPs against the datum of the results so far,
  with or without their top and bottom, or cross-IMPs), each row's as ``imps_ns``.
* ``field``: ``{"board", "results", "expected", "method"}``: the board these are of, the
  results in, the results the movement plays, ``"MP"`` or ``"IMP"``.
* ``dd``: the double-dummy tricks of each declarer in each strain and the par
  (:mod:`bridgecore.doubledummy`, through endplay: the ``analysis`` extra). Solved once per board
  and kept (:class:`DoubleDummyTables`); None when endplay is not installed (logged once),
  and in a room without a movement (the replay of files: :class:`hub.room.Room` turns it
  off there, nobody reads it and a long file would cost 0.1 s a board).

The scores are per section: sections playing the same board numbers are scored apart.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeGuard, runtime_checkable

from bridgecore.adjusted import BoardResult
from bridgecore.cards import Seat, Strain
from bridgecore.deal import Deal
from bridgecore.doubledummy import solve_deals
from bridgecore.errors import AnalysisUnavailable
from bridgecore.markings import Markings
from bridgecore.methods import butler_board, cross_imp_board, matchpoint_board
from bridgecore.movements import Movement
from bridgecore.ranking import Method
from bridgecore.vulnerability import Vulnerability
from hub.section import PAIRS_METHODS, Section

if TYPE_CHECKING:
    from hub.sitting import Sitting

__all__ = ["DoubleDummyTables", "TravellerContext", "TravellerTable", "dd_json", "expected_results",
           "percentages", "prepare_double_dummy", "result_row", "row_order", "showing_traveller",
           "traveller_fields", "traveller_rows"]

log = logging.getLogger(__name__)

_STRAINS = (Strain.CLUBS, Strain.DIAMONDS, Strain.HEARTS, Strain.SPADES, Strain.NOTRUMP)


class TravellerTable(Protocol):
    """What the traveller reads of a table (:class:`hub.table.TableState` has it; the table
    imports this module, so the traveller names only what it needs)."""

    @property
    def id(self) -> str: ...
    @property
    def context(self) -> object: ...
    @property
    def sitting(self) -> Sitting | None: ...
    @property
    def sittings(self) -> Mapping[tuple[int, int], Sitting]: ...

    def result(self, sitting: Sitting, /) -> dict[str, Any] | None: ...
    def pairs(self, round: int | None = None, /) -> tuple[int | None, int | None]: ...


@runtime_checkable
class TravellerContext(Protocol):
    """What the traveller needs from the session (:class:`hub.room.Room` has it)."""

    double_dummy: DoubleDummyTables

    @property
    def tables(self) -> Mapping[str, TravellerTable]: ...

    @property
    def sections(self) -> Sequence[Section]: ...

    def deal(self, board: int) -> Deal | None: ...
    def markings(self, board: int) -> Markings: ...
    def section_tables(self, table: str) -> tuple[list[str], Movement | None]: ...
    def played_by(self, table: str, pair: int) -> Mapping[int, tuple[str, int]]: ...


def first_play(context: TravellerContext, row: Mapping[str, Any], board: int) -> bool:
    """Whether ``row`` is the first play of ``board`` by both its pairs (Law 15B: a second
    play is cancelled; the room keeps where each pair began each board, in the log's order).
    hub.scoring decides the same by the order the plays ended, which is the same order: a
    pair plays at one table at a time."""
    for pair in (row["NS"], row["EW"]):
        if pair is None:
            continue
        first = context.played_by(row["table"], pair).get(board)
        if first is not None and tuple(first) != (row["table"], row["round"]):
            return False
    return True


# The double-dummy tables ------------------------------------------------------------------

class DoubleDummyTables:
    """Double-dummy table and par of each board, solved on first demand and kept.

    ``get(board, deal, dealer, vulnerability)`` solves synchronously the first time (about
    0.13 s a board on two cores, 0.6 s more for the very first, which imports endplay);
    ``prepare(boards)`` solves many, a few per solver call, and may run on a worker thread
    (endplay's solver releases the GIL; one solver call at a time): a hub can call it at
    start so that no board is solved on its event loop, a ``get`` then waiting at most for
    one chunk. Both only add to the cache; a board's table is a function of its deal, so
    the state stays a function of the log. Without endplay every ``get`` is None and
    :attr:`available` is False; with ``enabled`` False nothing is solved (a bulk replay).
    """

    CHUNK = 4

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        # With ``background`` (a function that runs a job on a worker thread) ``get`` never
        # solves on the caller's thread: it queues the board and returns None; once solved,
        # ``on_solved(boards)`` is called (on the worker) so the hub republishes.
        self.background: Callable[[Callable[[], None]], Any] | None = None
        self.on_solved: Callable[[list[int]], None] | None = None
        self._queued: set[int] = set()
        self._cache: dict[int, dict[str, Any]] = {}
        self._lock = threading.Lock()      # one solver call at a time
        self.available: bool | None = None  # None: not tried yet
        self.solved = 0                     # boards solved, and the time it took (logs)
        self.seconds = 0.0
        self.stopped = False                # the hub stopped: a running prepare ends early

    def stop(self) -> None:
        """The hub is stopping: a :meth:`prepare` running on a worker ends after its chunk
        (its worker is not waited for, and must not go on solving a whole event)."""
        self.stopped = True

    def __contains__(self, board: int) -> bool:
        return board in self._cache

    def get(self, board: int, deal: Deal, dealer: Seat,
            vulnerability: Vulnerability) -> dict[str, Any] | None:
        """The ``dd`` JSON of ``board`` (see :func:`dd_json`), or None without endplay."""
        found = self._cache.get(board)
        if found is None and self.enabled and self.available is not False:
            job = [(board, deal, dealer, vulnerability)]
            if self.background is not None:
                if board not in self._queued:
                    self._queued.add(board)
                    self.background(lambda: self.prepare_and_tell(job))
                return None
            self.prepare(job)
            found = self._cache.get(board)
        return found

    def prepare_and_tell(self, boards: Iterable[tuple[int, Deal, Seat, Vulnerability]]
                         ) -> None:
        """:meth:`prepare` (on a worker thread), then ``on_solved`` with what it solved."""
        todo = list(boards)
        try:
            self.prepare(todo)
        except Exception:  # the result screens can live without their tables
            log.exception("double-dummy solving failed")
            return
        solved = [b[0] for b in todo if b[0] in self._cache]
        if solved and self.on_solved is not None:
            self.on_solved(solved)

    def prepare(self, boards: Iterable[tuple[int, Deal, Seat, Vulnerability]]) -> int:
        """Solve every board not solved yet; returns how many were solved."""
        todo = [b for b in boards if b[0] not in self._cache and not b[1].problems()]
        done = 0
        for i in range(0, len(todo), self.CHUNK):
            if not self.enabled or self.stopped or self.available is False:
                break
            done += self._solve(todo[i:i + self.CHUNK])
        return done

    def _solve(self, chunk: list[tuple[int, Deal, Seat, Vulnerability]]) -> int:
        with self._lock:
            chunk = [b for b in chunk if b[0] not in self._cache]
            if not chunk:
                return 0
            start = time.perf_counter()   # for the log only: never part of the state
            try:
                results = solve_deals([(deal, dealer, vul) for _, deal, dealer, vul in chunk])
            except AnalysisUnavailable as err:
                self.available = False
                log.warning("no double-dummy tables on the result screens: %s", err)
                return 0
            self.available = True
            spent = time.perf_counter() - start
            for (board, *_), result in zip(chunk, results, strict=True):
                self._cache[board] = dd_json(result.tricks, result.par_score_ns,
                                             result.par_contracts)
            self.solved += len(chunk)
            self.seconds += spent
        if not self.stopped:   # a hub gone: its logging may be gone too (a worker finishing)
            log.info("double-dummy table(s) of board(s) %s solved in %.2f s",
                     ", ".join(str(b[0]) for b in chunk), spent)
        return len(chunk)


def dd_json(tricks: Mapping[tuple[Seat, Strain], int], par_score_ns: int,
            par_contracts: Iterable[str]) -> dict[str, Any]:
    """``{"tricks": {"N": {"C": 4, "D": 8, "H": 6, "S": 7, "NT": 5}, ...}, "par": "NS 4S",
    "par_score_ns": 420}``: tricks for each declarer (N E S W) in each strain."""
    return {"tricks": {seat.letter: {strain.symbol: tricks[seat, strain] for strain in _STRAINS}
                       for seat in Seat},
            "par": "; ".join(dict.fromkeys(par_contracts)),
            "par_score_ns": par_score_ns}


# The traveller ----------------------------------------------------------------------------

def result_row(state: TravellerTable, round_: int, sitting: Sitting) -> dict[str, Any] | None:
    """One traveller row: the result of ``sitting`` (played at ``state`` in ``round_``) once
    it is over with the session's hand record, else None (hub.scoring keeps these too)."""
    if not sitting.over or not sitting.has_record:
        return None
    result = state.result(sitting)
    if result is None:  # pragma: no cover - over implies a result
        return None
    ns, ew = state.pairs(round_)
    return {"table": state.id, "round": round_, "NS": ns, "EW": ew,
            "contract": result["contract"], "declarer": result["declarer"],
            "tricks": result["tricks"], "score_ns": result["score_ns"]}


def row_order(row: Mapping[str, Any]) -> tuple[Any, ...]:
    """Traveller rows in North-South pair order (pairs not known last)."""
    return (row["NS"] is None, row["NS"] or 0, row["EW"] or 0, row["round"], row["table"])


def traveller_rows(context: TravellerContext, table: str, board: int) -> list[dict[str, Any]]:
    """Every result of ``board`` so far at the tables of ``table``'s section (sittings over,
    with the session's hand record), in North-South pair order, without percentages."""
    ids, _ = context.section_tables(table)
    rows: list[dict[str, Any]] = []
    for tid in ids:
        state = context.tables[tid]
        for (round_, number), sitting in state.sittings.items():
            if number != board:
                continue
            row = result_row(state, round_, sitting)
            if row is not None:
                rows.append(row)
    rows.sort(key=row_order)
    return rows


def expected_results(movement: Movement | None, board: int, played: int) -> int:
    """How many results of ``board`` the movement plays (at least those already in)."""
    if movement is None:
        return played
    return max(movement.times_played(board), played)


def percentages(scores: list[int], expected: int) -> list[float]:
    """North-South matchpoint percentage of each score among ``scores`` (Law 78A),
    Neuberg-scaled to ``expected`` results; 50 when the board has a single expected result."""
    if not scores:
        return []
    expected = max(expected, len(scores))
    top = expected - 1
    if top == 0:
        return [50.0 for _ in scores]
    results = [BoardResult(0, i, i, s) for i, s in enumerate(scores)]
    return [ns / top * 100 for ns, _ in matchpoint_board(results, expected)]


def _imps(scores: list[int], method: Method = Method.CROSS_IMPS, trim: int = 0) -> list[float]:
    """North-South IMPs of each score among ``scores`` (Law 78B): cross-IMPs averaged per
    comparison, or against the Butler datum (``trim`` scores left out at each end)."""
    results = [BoardResult(0, i, i, s) for i, s in enumerate(scores)]
    if method is Method.BUTLER:
        return [ns for ns, _ in butler_board(results, trim=trim)]
    return [ns for ns, _ in cross_imp_board(results)]


def _pairs_method(context: TravellerContext, table: str) -> tuple[Method, int]:
    """The method of ``table``'s section when it is scored as pairs (matchpoints for a
    table of no section)."""
    section = next((s for s in context.sections if table in s.tables), None)
    return PAIRS_METHODS[""] if section is None else section.pairs_method


def _is_teams(movement: Movement | None) -> bool:
    return movement is not None and movement.name.startswith("Teams")


_TRAVELS: dict[type, bool] = {}


def _travels(context: object) -> TypeGuard[TravellerContext]:
    """Whether ``context`` is a :class:`TravellerContext`, known once for its class: the
    protocol's ``isinstance`` looks up each of its members every time (issue 27: 0.7 % of
    the hub's work, every public view of a board over)."""
    kind = type(context)
    known = _TRAVELS.get(kind)
    if known is None:
        known = _TRAVELS[kind] = isinstance(context, TravellerContext)
    return known


def traveller_fields(table: TravellerTable, sitting: Sitting) -> dict[str, Any]:
    """``traveller``, ``percentage``, ``imps``, ``field`` and ``dd`` for the public state
    of ``table`` showing ``sitting``; empty unless that board is over there with the
    session's hand record (Law 16)."""
    context = table.context
    if not sitting.over or not sitting.has_record or not _travels(context):
        return {}
    board = sitting.board
    number = board.number
    rows = traveller_rows(context, table.id, number)
    own = next((r for r in rows if r["table"] == table.id and r["round"] == sitting.round),
               None)
    if own is None:  # pragma: no cover - the sitting is over, so it is a row
        return {}
    own["own"] = True
    _, movement = context.section_tables(table.id)
    # A second play (Law 15B) is shown, never scored: it is no result of the board.
    scored = [r for r in rows if first_play(context, r, number)]
    expected = expected_results(movement, number, len(scored))
    scores = [r["score_ns"] for r in scored]
    pct = 50.0
    for row, value in zip(scored, percentages(scores, expected), strict=True):
        row["percent_ns"] = round(value, 2)
        if row is own:
            pct = value
    imps = None
    method, trim = (Method.CROSS_IMPS, 0) if _is_teams(movement) else \
        _pairs_method(context, table.id)
    if method is not Method.MATCHPOINTS:
        for row, value in zip(scored, _imps(scores, method, trim), strict=True):
            row["imps_ns"] = round(value, 2) + 0.0  # never -0.0
        own_imps = own.get("imps_ns", 0.0)
        imps = {"NS": own_imps, "EW": -own_imps + 0.0}
    dd = context.double_dummy.get(number, board.deal, board.dealer, board.vulnerability)
    return {"traveller": rows,
            "percentage": {"NS": round(pct, 2), "EW": round(100 - pct, 2)},
            "imps": imps,
            "field": {"board": number, "results": len(scored), "expected": expected,
                      "method": "IMP" if imps is not None else "MP"},
            "dd": None if dd is None else _copy_dd(dd)}


def _copy_dd(dd: dict[str, Any]) -> dict[str, Any]:
    """A copy of a cached table (a caller may change the state it gets)."""
    return dict(dd, tricks={seat: dict(row) for seat, row in dd["tricks"].items()})


def showing_traveller(context: TravellerContext, changed: Iterable[str]) -> set[str]:
    """The tables whose state shows the traveller of a board that one of the ``changed``
    tables is on (another table finishing it adds a row): the hub republishes them too."""
    # The boards by section, then each section's tables looked at once (issue 27: once per
    # board and section was tables x boards a batch). A section's tables are asked once a
    # call, its other tables finding its boards by their id (asking each changed table's
    # section copied and hashed the section's list of ids every time: 2 % at 200 tables).
    boards: list[tuple[list[str], set[int]]] = []
    found: dict[str, set[int]] = {}
    for tid in changed:
        state = context.tables.get(tid)
        if state is None or state.sitting is None:
            continue
        numbers = found.get(tid)
        if numbers is None:
            ids = context.section_tables(tid)[0]
            numbers = set()
            boards.append((ids, numbers))
            found.update(dict.fromkeys(ids, numbers))
        numbers.add(state.sitting.board.number)
    out: set[str] = set()
    for ids, numbers in boards:
        for tid in ids:
            sitting = context.tables[tid].sitting
            if (sitting is not None and sitting.board.number in numbers and sitting.over
                    and sitting.has_record):
                out.add(tid)
    return out - set(changed)


def prepare_double_dummy(context: TravellerContext, boards: Iterable[int]) -> int:
    """Solve the double-dummy tables of ``boards`` (those with a hand record) in one batch,
    e.g. on a worker thread when the hub starts; returns how many were solved."""
    todo = []
    for n in sorted(set(boards)):
        deal = context.deal(n)
        if deal is not None:
            marks = context.markings(n)  # Law 2: the board's markings govern (par, 4th seat)
            todo.append((n, deal, marks.dealer, marks.vulnerability))
    return context.double_dummy.prepare(todo)
