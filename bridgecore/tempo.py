"""Tempo as evidence: the time each call and card took, breaks in tempo, slow play.

The director rules on tempo (Laws 16B, 73C, 73D: a hesitation that passed unauthorised
information; Annex I of the FFB regulations: the STOP wait after a jump bid; Law 74B4 and
Law 90: slow play). This module turns a board's timed actions into that evidence; it judges
nothing. A mark says "this took longer than the rule below"; the director decides what it
means (docs/tempo.md has the rule, its constants and why).

* :class:`Action` is one call or card as a source gave it: who, what, when it was made, how
  the time was taken (:class:`Source`: a tablet tap, a card reader's tag, the hub's own
  clock, a file) and, for a call, whether a STOP card was shown with it.
* :func:`time_board` gives each action of a :class:`BoardActions` its :class:`TimedAction`:
  when it became that seat's turn (the previous action, or the board's start for the first
  call), the STOP wait counted apart (the left-hand opponent's first
  :data:`STOP_WAIT_MAX` seconds after a jump bid or a STOP card), the think time left, the
  player who decided (declarer for dummy's cards) and the precision of it all.
* :func:`mark_breaks` compares every think time with the player's own pace in the session
  and with the field (the other tables) on the same board (:func:`threshold`), and marks
  breaks in tempo
  (``tempo_break``) and STOP waits not kept (``stop_not_kept``).
* :func:`slow_play` sets each table's and each side's time on a board against the round's
  allowance per board.
* :func:`tempo_table` and :func:`apply_tempo_table` carry the times of a
  :class:`~bridgecore.record.GameRecord` in a PBN supplemental table (:data:`TEMPO_TABLE`)
  that programs not knowing it skip; :func:`board_actions` reads a record back into
  :class:`BoardActions`. A PBN record keeps its table unread until its calls, cards, tables
  or problems are first read, or with ``tempo="lazy"`` until :func:`resolve_tempo` (issue 27).

Standard library and bridgecore only. An :class:`Action` that is not one (a kind other than
call or card, a seat that is not a :class:`~bridgecore.cards.Seat`, a time that is not a
finite number) raises ``ValueError``; an item that does not parse is timed but plays no part
in the auction (no jump, no declarer).
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bridgecore.auction import Auction
from bridgecore.calls import Call, CallKind
from bridgecore.cards import Card, Seat
from bridgecore.errors import ParseError
from bridgecore.record import CallRecord, CardRecord, GameRecord, Table
from bridgecore.tempo_reading import (
    _START,
    TEMPO_TABLE,
    _cell,
    _float,
    _last_index,
    apply_tempo_table,
    resolve_tempo,
)
from bridgecore.text import Text

__all__ = [
    "FIELD_MIN", "FIELD_QUANTILE", "FLOORS", "OWN_FACTOR", "OWN_MIN", "PRECISION",
    "STOP_WAIT_MAX", "STOP_WAIT_MIN", "TEMPO_TABLE", "Action", "BoardActions", "BoardTempo",
    "Mark", "SlowBoard", "Source", "TimedAction", "apply_tempo_table", "board_actions",
    "counted",
    "is_jump", "mark_breaks", "nearest_rank", "player_key", "record_calls_cards",
    "resolve_tempo", "slow_play", "tempo_table",
    "threshold", "time_board",
]

# The rule (docs/tempo.md) -------------------------------------------------------------------
STOP_WAIT_MIN = 5.0     # Annex I: after a jump bid LHO waits 5 to 10 seconds
STOP_WAIT_MAX = 10.0    # ... the first 10 s of LHO's turn are the STOP wait, not thought
OWN_FACTOR = 3.0        # a break: more than 3 x the player's median for that kind of action
OWN_MIN = 5             # ... a median of at least 5 of his actions of that kind
FIELD_QUANTILE = 0.9    # ... and more than the field's 90th percentile on that board
FIELD_MIN = 8           # ... of at least 8 think times of that kind at the other tables
FLOORS = {"call": 8.0, "lead": 30.0, "card": 10.0}   # ... and more than this floor (s)


class Source(StrEnum):
    """How an action's time was taken, which sets its precision (:data:`PRECISION`)."""

    TAP = "tap"         # a tablet's tap, stamped by the tablet
    TAG = "tag"         # a card reader's tag read, stamped by the reader's daemon
    HUB = "hub"         # no device time: the hub's time of receipt
    RECORD = "record"   # a file's time, source unknown


PRECISION = {Source.TAP: 0.1, Source.TAG: 0.5, Source.HUB: 1.0, Source.RECORD: 1.0}
"""Seconds either side of an action's time (the tap's latency, the reader's polling and
the card laid before it is read, the network, a file's unknown rounding)."""


@dataclass(frozen=True, slots=True)
class Action:
    """One call or card as its source gave it; ``at`` is a corrected device time (s)."""

    kind: str                 # "call" | "card"
    seat: Seat
    item: str                 # "1S", "Pass", "X", "SA"
    at: float | None
    source: Source = Source.RECORD
    device: str | None = None
    stop: bool = False        # a STOP card shown with this call (Annex I)

    def __post_init__(self) -> None:
        if self.kind not in ("call", "card"):
            raise ValueError(f"an action is a call or a card, not {self.kind!r}")
        if not isinstance(self.seat, Seat):
            raise ValueError(f"not a seat: {self.seat!r}")
        if self.at is not None and not math.isfinite(self.at):
            raise ValueError(f"{self.kind} {self.item}: time {self.at!r} is not a number")
        object.__setattr__(self, "source", Source(self.source))


@dataclass(frozen=True, slots=True)
class BoardActions:
    """A board played at a table: its calls and cards in the order made. ``started_at`` is
    when the board reached the table (the first call's turn); ``ns``/``ew`` the pairs."""

    table: str
    board: int
    dealer: Seat
    actions: tuple[Action, ...]
    started_at: float | None = None
    round: int | None = None
    ns: str | None = None
    ew: str | None = None


@dataclass(frozen=True, slots=True)
class TimedAction:
    """An action with its times. ``think`` is ``at - turn_at - stop_wait`` (None when a time
    is missing); ``precision`` is the seconds either side of ``think`` (both ends')."""

    index: int                # in the board's order: calls, then cards
    kind: str                 # "call" | "lead" (the opening lead) | "card"
    seat: Seat                # whose turn it was (dummy's seat for dummy's cards)
    player: Seat              # who decided (declarer for dummy's cards)
    item: str
    at: float | None
    turn_at: float | None
    think: float | None
    stop_wait: float = 0.0    # seconds of the turn that were the STOP wait (Annex I)
    after_jump: bool = False  # LHO's call after a jump bid or a STOP card
    precision: float = 1.0
    source: Source = Source.RECORD
    device: str | None = None
    stop: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "kind": self.kind, "seat": self.seat.letter,
                "player": self.player.letter, "item": self.item, "at": self.at,
                "turn_at": self.turn_at, "think": _round(self.think),
                "stop_wait": _round(self.stop_wait), "after_jump": self.after_jump,
                "precision": self.precision, "source": self.source.value,
                "device": self.device, "stop": self.stop}


@dataclass(frozen=True, slots=True)
class Mark:
    """What the rule found at one action. ``kind`` is ``tempo_break`` (Laws 16B, 73C, 73D)
    or ``stop_not_kept`` (Annex I, 73A2). ``partner_next`` is the index of the player's
    partner's next action (the one a director looks at under 16B), if any."""

    index: int
    kind: str
    law: str
    player: Seat
    think: float
    limit: float
    own_median: float | None = None
    field_p90: float | None = None
    partner_next: int | None = None
    detail: str = ""
    text: Text | None = None    # the detail as a message (rendered in the reader's language)

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "kind": self.kind, "law": self.law,
                "player": self.player.letter, "think": _round(self.think),
                "limit": _round(self.limit), "own_median": _round(self.own_median),
                "field_p90": _round(self.field_p90), "partner_next": self.partner_next,
                "detail": self.detail, "text": None if self.text is None else self.text.to_json()}


@dataclass(slots=True)
class BoardTempo:
    """A board's timeline at one table, and its marks once :func:`mark_breaks` ran."""

    table: str
    board: int
    dealer: Seat
    declarer: Seat | None
    actions: list[TimedAction]
    started_at: float | None = None
    round: int | None = None
    ns: str | None = None
    ew: str | None = None
    marks: list[Mark] = field(default_factory=list)

    @property
    def ended_at(self) -> float | None:
        times = [a.at for a in self.actions if a.at is not None]
        return max(times) if times else None

    @property
    def seconds(self) -> float | None:
        """The table's time on the board: from its start (else its first action) to its
        last action."""
        start = self.started_at
        if start is None:
            start = next((a.at for a in self.actions if a.at is not None), None)
        end = self.ended_at
        return None if start is None or end is None else max(0.0, end - start)

    def side_seconds(self) -> dict[str, float]:
        """Each side's time on the board: the sum of its players' turns (STOP waits
        included: the time the others waited for it)."""
        out = {"NS": 0.0, "EW": 0.0}
        for a in self.actions:
            if a.think is not None:
                out[a.player.side.name] += a.think + a.stop_wait
        return out

    def pair_of(self, seat: Seat) -> str | None:
        return self.ns if seat in (Seat.NORTH, Seat.SOUTH) else self.ew

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "board": self.board, "round": self.round,
                "dealer": self.dealer.letter,
                "declarer": None if self.declarer is None else self.declarer.letter,
                "ns": self.ns, "ew": self.ew, "started_at": self.started_at,
                "ended_at": self.ended_at, "seconds": _round(self.seconds),
                "side_seconds": {k: _round(v) for k, v in self.side_seconds().items()},
                "actions": [a.to_json() for a in self.actions],
                "marks": [m.to_json() for m in self.marks]}


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


# Timing -------------------------------------------------------------------------------------

def is_jump(call: Call, last_bid: Call | None) -> bool:
    """A jump bid (Annex I): a bid at least one level above the lowest sufficient bid in its
    strain; an opening bid above the one level is one ("y compris l'ouverture")."""
    if call.kind is not CallKind.BID:
        return False
    if last_bid is None:
        return call.level >= 2
    assert call.strain is not None and last_bid.strain is not None
    lowest = last_bid.level if call.strain > last_bid.strain else last_bid.level + 1
    return call.level > lowest


def _parse_call(text: str) -> Call | None:
    try:
        return Call.parse(text)
    except (ParseError, ValueError):
        return None


def time_board(board: BoardActions) -> BoardTempo:
    """Each action's times (module docstring); the marks are :func:`mark_breaks`'s."""
    auction = Auction(board.dealer)
    previous_at = board.started_at
    previous_precision = PRECISION[Source.HUB]
    last_bid: Call | None = None
    jump_by: Seat | None = None          # the seat of the last call if a jump or a STOP
    out: list[TimedAction] = []
    cards = 0
    for i, act in enumerate(board.actions):
        precision = PRECISION[act.source]
        stop_wait = 0.0
        after_jump = False
        kind = act.kind
        player = act.seat
        if act.kind == "call":
            call = _parse_call(act.item)
            after_jump = jump_by is not None and act.seat is jump_by.lho
            jump_by = None
            if call is not None:
                if not auction.is_over:
                    auction.push(act.seat, call)
                if is_jump(call, last_bid) or act.stop:
                    jump_by = act.seat
                if call.kind is CallKind.BID:
                    last_bid = call
        else:
            jump_by = None
            kind = "lead" if cards == 0 else "card"
            cards += 1
            dummy = auction.dummy
            if dummy is not None and act.seat is dummy and auction.declarer is not None:
                player = auction.declarer
        turn_at = previous_at
        think: float | None = None
        if act.at is not None and turn_at is not None:
            elapsed = max(0.0, act.at - turn_at)
            if after_jump:
                stop_wait = min(elapsed, STOP_WAIT_MAX)
            think = elapsed - stop_wait
        out.append(TimedAction(
            i, kind, act.seat, player, act.item, act.at, turn_at, think, stop_wait,
            after_jump, round(precision + (previous_precision if turn_at is not None else 0),
                              3), act.source, act.device, act.stop))
        # The next action's turn began when this one was made: unknown when this one has no
        # time (the last timed action's time would add this one's to the next think time).
        previous_at, previous_precision = act.at, precision
    return BoardTempo(board.table, board.board, board.dealer, auction.declarer, out,
                      board.started_at, board.round, board.ns, board.ew)


# Marks --------------------------------------------------------------------------------------

def nearest_rank(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values`` by the nearest-rank method (no interpolation)."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


def player_key(tempo: BoardTempo, seat: Seat) -> str:
    """Who a player is across the session: his pair and seat (``"3N"``), or the table and
    seat when the pair is unknown (``"A1:N"``)."""
    pair = tempo.pair_of(seat)
    return f"{pair}{seat.letter}" if pair else f"{tempo.table}:{seat.letter}"


def threshold(kind: str, own: Sequence[float], field_: Sequence[float]
              ) -> tuple[float, float | None, float | None]:
    """``(limit, own median, field p90)``: the think time above which an action of ``kind``
    is marked: ``max(OWN_FACTOR x own median, field p90, FLOORS[kind])``, each of the first
    two only with enough values (:data:`OWN_MIN`, :data:`FIELD_MIN`)."""
    own_median = statistics.median(own) if len(own) >= OWN_MIN else None
    field_p90 = nearest_rank(field_, FIELD_QUANTILE) if len(field_) >= FIELD_MIN else None
    limit = FLOORS[kind]
    if own_median is not None:
        limit = max(limit, OWN_FACTOR * own_median)
    if field_p90 is not None:
        limit = max(limit, field_p90)
    return limit, own_median, field_p90


def counted(a: TimedAction) -> bool:
    """Whether ``a``'s think time counts in a player's pace and the field's: timed, and not
    the board's first call (it includes taking the cards out and sorting them)."""
    return a.think is not None and a.index > 0


def mark_breaks(boards: Iterable[BoardTempo]) -> list[BoardTempo]:
    """The boards with their marks (docs/tempo.md): a STOP wait not kept, and a think time
    above :func:`threshold` (plus its precision: the doubt goes to the player)."""
    boards = list(boards)
    own: dict[tuple[str, str], list[float]] = defaultdict(list)
    field_: dict[tuple[int, str], list[tuple[str, float]]] = defaultdict(list)
    for b in boards:
        for a in b.actions:
            if counted(a):
                assert a.think is not None
                own[(player_key(b, a.player), a.kind)].append(a.think)
                field_[(b.board, a.kind)].append((b.table, a.think))
    for b in boards:
        marks: list[Mark] = []
        for a in b.actions:
            if a.think is None:
                continue
            if a.after_jump and a.at is not None and a.turn_at is not None:
                waited = a.at - a.turn_at
                if waited + a.precision < STOP_WAIT_MIN:
                    marks.append(Mark(
                        a.index, "stop_not_kept", "Annex I, 73A2", a.player, waited,
                        STOP_WAIT_MIN, detail=f"{a.player} called {a.item} {waited:.1f} s after "
                        f"{a.player.rho}'s jump bid: the STOP wait is {STOP_WAIT_MIN:g} to "
                        f"{STOP_WAIT_MAX:g} s (Annex I)",
                        text=Text.of("tempo.stop_not_kept", seat=a.player, call=a.item,
                                     seconds=f"{waited:.1f}", jump_seat=a.player.rho,
                                     low=f"{STOP_WAIT_MIN:g}", high=f"{STOP_WAIT_MAX:g}")))
            if not counted(a):
                continue
            others = [t for table, t in field_[(b.board, a.kind)] if table != b.table]
            limit, median, p90 = threshold(a.kind, own[(player_key(b, a.player), a.kind)],
                                           others)
            if a.think > limit + a.precision:
                partner = next((x.index for x in b.actions[a.index + 1:]
                                if x.player is a.player.partner), None)
                # The partner's next action may be a card after the last call (16B).
                what = "card" if partner is not None and b.actions[partner].kind != "call" \
                    else "call"
                next_ = [] if partner is None else [
                    Text.of("tempo.partner_next_card", n=partner) if what == "card"
                    else Text.of("tempo.partner_next_call", n=partner)]
                seconds, most = f"{a.think:.1f}", f"{limit:.1f}"
                marks.append(Mark(
                    a.index, "tempo_break", "16B, 73C, 73D", a.player, a.think, limit, median,
                    p90, partner, f"{a.player} took {a.think:.1f} s over {a.item} (limit "
                    f"{limit:.1f} s)" + (f"; partner's next {what}: action {partner}"
                                         if partner is not None else ""),
                    Text.of("tempo.break_call", seat=a.player, call=a.item, seconds=seconds,
                            limit=most, more=next_) if a.kind == "call" else
                    Text.of("tempo.break_card", seat=a.player, card=a.item, seconds=seconds,
                            limit=most, more=next_)))
        b.marks = marks
    return boards


# Slow play ----------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SlowBoard:
    """A board at a table against the allowance (Law 74B4; a penalty is Law 90's)."""

    table: str
    board: int
    round: int | None
    seconds: float | None
    allowance: float
    sides: Mapping[str, float]
    pairs: Mapping[str, str | None]

    @property
    def over(self) -> bool:
        return self.seconds is not None and self.seconds > self.allowance

    def slow_sides(self) -> list[str]:
        """The sides whose own time went over their half of the allowance."""
        return [s for s, t in self.sides.items() if t > self.allowance / 2]

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "board": self.board, "round": self.round,
                "seconds": _round(self.seconds), "allowance": self.allowance,
                "over": self.over, "sides": {k: _round(v) for k, v in self.sides.items()},
                "pairs": dict(self.pairs), "slow_sides": self.slow_sides()}


def slow_play(boards: Iterable[BoardTempo], allowance: float) -> list[SlowBoard]:
    """Every board's time at its table and each side's share against ``allowance`` seconds
    a board (the round's time over its boards)."""
    return [SlowBoard(b.table, b.board, b.round, b.seconds, allowance, b.side_seconds(),
                      {"NS": b.ns, "EW": b.ew}) for b in boards]


# Records ------------------------------------------------------------------------------------

_COLUMNS = ["Action\\3R", "Seat", "Item\\4L", "Time\\16R", "Source", "Stop"]


def _time_text(at: float | None) -> str:
    return "?" if at is None else repr(float(at))


def tempo_table(record: GameRecord, *, started_at: float | None = None,
                sources: Sequence[Source] | None = None,
                stops: Iterable[int] = ()) -> Table | None:
    """The times of ``record``'s calls then cards as a :data:`TEMPO_TABLE` (None when no
    action has a time): a row per action (``C1``.., ``P1``..: call or card, its number),
    ``0`` for the board's start. ``sources`` are per action (calls then cards); ``stops``
    the indexes (from 0) of calls shown with a STOP card."""
    times = [c.time for c in record.calls] + [p.time for p in record.plays]
    if started_at is None and all(t is None for t in times):
        return None
    stop_set = set(stops)
    rows = [[_START, "-", "-", _time_text(started_at), Source.HUB.value, "-"]]
    items = [(f"C{i + 1}", c.seat, str(c.call), c.time, "1" if i in stop_set else "0")
             for i, c in enumerate(record.calls)]
    items += [(f"P{i + 1}", p.seat, str(p.card), p.time, "-") for i, p in enumerate(record.plays)]
    for i, (key, seat, item, at, stop) in enumerate(items):
        source = sources[i] if sources is not None and i < len(sources) else Source.RECORD
        rows.append([key, seat.letter, item, _time_text(at), Source(source).value, stop])
    return Table(list(_COLUMNS), rows)


def _rows(record: GameRecord) -> dict[str, list[str]]:
    table = record.tables.get(TEMPO_TABLE)
    if table is None:
        return {}
    names = table.names
    action = _last_index(names, "Action")
    if action < 0 or _last_index(names, "Time") < 0:
        return {}
    at = [_last_index(names, n) for n in ("Seat", "Item", "Time", "Source", "Stop")]
    # Two rows for one action: the first report counts (as the hub counts a card), so the
    # rows are taken last to first and the first one's is the value kept.
    return {_cell(row, action): [_cell(row, i) for i in at] for row in reversed(table.rows)}


def board_actions(record: GameRecord, *, table: str = "") -> BoardActions:
    """A record's calls and cards as :class:`BoardActions` (times, sources and STOP cards
    from its :data:`TEMPO_TABLE` when it has one). ``table`` defaults to the record's
    ``Table`` tag (else its ``Room``)."""
    rows = _rows(record)
    items = [("call", f"C{i + 1}", c.seat, str(c.call), c.time)
             for i, c in enumerate(record.calls)]
    items += [("card", f"P{i + 1}", p.seat, str(p.card), p.time)
              for i, p in enumerate(record.plays)]
    actions: list[Action] = []
    for kind, key, seat, item, at in items:
        row = rows.get(key, ["", "", "", "", ""])
        try:
            source = Source(row[3])
        except ValueError:
            source = Source.RECORD
        actions.append(Action(kind, seat, item, at, source, stop=row[4] == "1"))
    start_row = rows.get(_START)
    started = _float(start_row[2]) if start_row else None
    number = record.board if record.board is not None else 0
    dealer = record.dealer or Seat.dealer_of(max(1, number))
    tags = record.tags
    name = table or tags.get("Table") or tags.get("Room") or "?"
    rnd = tags.get("Round", "")
    return BoardActions(name, number, dealer, tuple(actions), started,
                        int(rnd) if rnd.isdecimal() else None,
                        tags.get("PairNS") or None, tags.get("PairEW") or None)


def record_calls_cards(actions: Sequence[Action]) -> tuple[list[CallRecord], list[CardRecord]]:
    """The :class:`~bridgecore.record.GameRecord` calls and cards of ``actions`` (the ones
    that parse), with their times."""
    calls: list[CallRecord] = []
    cards: list[CardRecord] = []
    for a in actions:
        if a.kind == "call":
            call = _parse_call(a.item)
            if call is not None:
                calls.append(CallRecord(a.seat, call, a.at))
        else:
            try:
                cards.append(CardRecord(a.seat, Card.parse(a.item), a.at))
            except (ParseError, ValueError):
                continue
    return calls, cards
