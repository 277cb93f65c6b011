"""The game behind ``tenace sim``: whole sessions of virtual tables, with irregularities
injected and the ground truth kept.

:func:`simulate` takes the sections of a room (each with its movement) and the hand records
and writes, for every table, what its devices would publish during the whole session: the
tablet (``{table}-tab``) checks the pairs in, announces each board, makes the calls, the
claims and their answers and the result confirmation; the card reader (``{table}-rdr``)
reads the four hands out of the pockets and reports some of the cards played (a card is
sometimes reported by both, which the hub must count once). Deals are the room's; auctions
are legal and sensible (each side bids towards a contract its combined strength and fit
justify, so most boards are played in a reasonable contract); the play is random among the
legal cards. Each table's script is a list of :class:`tenace.devices.DeviceEvent` with
rising device times; tables are independent (the driver runs them in parallel).

How rounds advance: by themselves, as the hub allows. After a table has finished its boards,
the first check-in of a pair scheduled there in the next round moves it on
(``TableState._checkin``), so no director command is needed. The new pair checks in first
(in a Mitchell, East-West: North-South stays and was already there). Every table starts
round ``r`` at the same device time, :attr:`SimScript.round_starts` ``[r]``, the director's
call to move; the driver keeps that pace so that what one table did (a board played by a
pair, Law 15B) is seen before the next round uses it. A director's ``round_start`` sent at
those times is harmless (:func:`run_local` can apply them, ``director=True``). Tables
without boards in a round (a sit-out) are left out: movements with sit-outs need the
director to start rounds. Over MQTT, :meth:`SimScript.pacer` gives
``tenace.driver.run_tables`` the pace (``realtime=script.pacer()``); ``pace`` scales the
club's pace (1.0: about seven minutes a board).

Injection (``inject``: alert kind -> rate). Rates are per opportunity: per board played at
a table for the board kinds (at most one board irregularity per board: their rates are the
probabilities of one draw and must add up to 1 at most), per table and round for
``wrong_direction``. A board where the irregularity is impossible (an insufficient bid
after 1C pass pass pass, a board already played in round 1) gets none: only what was
actually injected is recorded. Each injected irregularity is an :class:`Injection` with
the kind the hub raises (:class:`bridgecore.irregularity.Kind` or
:class:`hub.alerts.HubKind` values). After it the table goes on as a real one would before
the director arrives, following the Laws from the actual state (the hub never rectifies):

* ``revoke`` (61, 63A, 64): a player holding the suit led plays another suit; play goes on
  legally from the cards actually held, so the revoke is established (63A1).
* ``lead_out_of_turn`` (54): the opening leader's partner faces the opening lead; declarer
  plays next, which accepts it (53A, 54B), and play goes on in rotation from it.
* ``play_out_of_turn`` (57): a player plays to a trick before the player in turn; the
  skipped player then plays, and the trick goes on.
* ``call_out_of_rotation`` (28, 29; ``call_out_of_turn`` is accepted as its name): a call
  by the player in turn's partner or LHO; the player in turn calls next, which cancels it
  (28B).
* ``insufficient_bid`` (27): a bid lower than the last one; LHO calls over it (27A1).
* ``card_not_in_hand`` (87): the player on lead leads a card another player holds
  (hands mixed); the trick is finished with legal cards and declarer then claims, the
  defenders agree (the rest of the record could not be played without a second card not
  in hand or the same card twice).
* ``wrong_board`` (15): before one of its boards the table plays a board scheduled at
  another table this round, which neither pair has played, then plays its own (the extra
  board is drawn per scheduled board: these two kinds add a sitting).
* ``board_already_played`` (15B): the table plays again a board one of its pairs played in
  an earlier round (left on the table), then its own; the hub also says it is not this
  round's board (``wrong_board``, counted as a consequence).
* ``rotated_board`` (7): the reader reads every pocket turned by the same quarter; the
  players hold their own hands and the board is played normally.
* ``wrong_direction`` (5B): the two pairs sit the wrong way round for a whole round; the
  table still moves on to that round (the pairs are the round's, on the wrong sides).
* ``result_disagrees`` (79A): a defender does not agree with the result; his partner
  then confirms it.
* ``disputed_claim`` (68D, 70): declarer claims, a defender disputes, and the table plays
  the board out (evidence for the director, 70D3).
* ``director_call`` (9B1): a player calls the director from the tablet.

Consequences: a pair that played a board off schedule (``wrong_board``,
``board_already_played``) is told later that it had the board already when the movement
brings it there (Law 15B): those alerts are in :attr:`SimScript.expected`, with their
cause, and are not false alarms. :data:`CONSEQUENCES` lists the other alert kinds an
injection may bring at the same table and board. The bridgecore board the simulator plays
alongside checks that each act reveals exactly the irregularity intended and nothing else.

:func:`compare` turns the injected list and the alerts raised into the issue's report;
:func:`run_local` runs a script into a :class:`hub.room.Room` without a broker.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bridgecore.auction import CallStatus
from bridgecore.board import Board
from bridgecore.calls import DOUBLE, PASS, Call
from bridgecore.cards import Card, Rank, Seat, Side, Strain, Suit
from bridgecore.deal import Deal
from bridgecore.editions import DEFAULT_EDITION, Edition
from bridgecore.irregularity import Kind
from bridgecore.movements import Assignment, Movement
from hub.alerts import HubKind
from hub.room import Room, Section
from tenace.devices import DeviceEvent, apply_local, envelopes

__all__ = ["BOARD_KINDS", "CONSEQUENCES", "INJECTABLE", "LAWS", "ROUND_KINDS", "Expected",
           "Injection", "SimError", "SimScript", "compare", "parse_rates", "run_local",
           "simulate"]

log = logging.getLogger(__name__)

# The kinds the simulator can inject, in the order of the per-board draw.
BOARD_KINDS: tuple[str, ...] = (
    Kind.REVOKE.value, Kind.LEAD_OUT_OF_TURN.value, Kind.PLAY_OUT_OF_TURN.value,
    Kind.CALL_OUT_OF_ROTATION.value, Kind.INSUFFICIENT_BID.value, Kind.CARD_NOT_IN_HAND.value,
    HubKind.WRONG_BOARD.value, HubKind.ROTATED_BOARD.value,
    HubKind.BOARD_ALREADY_PLAYED.value, HubKind.RESULT_DISAGREES.value,
    Kind.DISPUTED_CLAIM.value, HubKind.DIRECTOR_CALL.value,
)
ROUND_KINDS: tuple[str, ...] = (HubKind.WRONG_DIRECTION.value,)
INJECTABLE: tuple[str, ...] = BOARD_KINDS + ROUND_KINDS
ALIASES = {"call_out_of_turn": Kind.CALL_OUT_OF_ROTATION.value}
# The law each injected kind breaks (the alert may cite a sub-law).
LAWS: dict[str, str] = {
    "revoke": "61", "lead_out_of_turn": "54", "play_out_of_turn": "57",
    "call_out_of_rotation": "29", "insufficient_bid": "27", "card_not_in_hand": "87",
    "wrong_board": "15", "rotated_board": "7", "board_already_played": "15B",
    "result_disagrees": "79A", "disputed_claim": "70", "director_call": "9B1",
    "wrong_direction": "5B",
}
# Other alert kinds an injection may bring at the same table and board.
CONSEQUENCES: dict[str, frozenset[str]] = {
    HubKind.BOARD_ALREADY_PLAYED.value: frozenset({HubKind.WRONG_BOARD.value}),
}
# Kinds about the seating of a round: matched by table and round (their board is not theirs).
_SEATING = frozenset({HubKind.WRONG_DIRECTION.value, HubKind.WRONG_TABLE.value,
                      HubKind.WRONG_PAIR.value})
_NEEDS_PLAY = frozenset({"revoke", "lead_out_of_turn", "play_out_of_turn",
                         "card_not_in_hand", "disputed_claim"})
_HCP = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}
_NOTES = ("hesitation before a pass", "question about an explanation", "card seen",
          "misinformation?", "slow play at the next table")


class SimError(ValueError):
    """A simulation that cannot be made: bad rates, a section without a movement, a board
    without a hand record, or (a bug) an act that would reveal what was not intended."""


# Ground truth ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Injection:
    """One irregularity injected: the alert ``kind`` the hub should raise for ``table`` and
    ``board`` (None for the seating of a round) in ``round``."""

    table: str
    round: int
    board: int | None
    kind: str
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "board": self.board, "kind": self.kind,
                "round": self.round, "detail": self.detail}


@dataclass(frozen=True, slots=True)
class Expected:
    """An alert that follows from an earlier injection (``cause``), elsewhere or later."""

    table: str
    round: int | None
    board: int | None
    kind: str
    cause: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "board": self.board, "kind": self.kind,
                "round": self.round, "cause": self.cause}


@dataclass(slots=True)
class SimScript:
    """A simulated session: each table's events, what was injected, what follows from it,
    and when each round starts (device time, the same at every table)."""

    events_by_table: dict[str, list[DeviceEvent]]
    injected: list[Injection] = field(default_factory=list)
    expected: list[Expected] = field(default_factory=list)
    round_starts: dict[int, float] = field(default_factory=dict)
    seed: int = 0
    rates: dict[str, float] = field(default_factory=dict)

    @property
    def events(self) -> int:
        """The number of events of all tables."""
        return sum(len(v) for v in self.events_by_table.values())

    def merged(self) -> list[DeviceEvent]:
        """Every event of every table in device-time order (ties: table order)."""
        order = {t: i for i, t in enumerate(self.events_by_table)}
        out = [e for events in self.events_by_table.values() for e in events]
        out.sort(key=lambda e: (e.time, order[e.table]))
        return out

    def pacer(self, wall_start: float | None = None) -> Callable[[float], float]:
        """For ``tenace.driver.run_tables(realtime=...)``: device time -> seconds to wait, so
        that the first round starts at ``wall_start`` (default: now) and every event keeps
        its place (the script's ``pace`` sets the speed)."""
        origin = self.round_starts.get(1, 0.0)
        wall = time.time() if wall_start is None else wall_start

        def wait(device_time: float) -> float:
            return (device_time - origin) - (time.time() - wall)
        return wait

    def injected_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for inj in self.injected:
            counts[inj.kind] = counts.get(inj.kind, 0) + 1
        return counts


def parse_rates(text: str) -> dict[str, float]:
    """``"revoke=0.02,lead_out_of_turn=0.01"`` -> rates by kind (aliases accepted)."""
    rates: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        if not sep:
            raise SimError(f"--inject: {part!r} is not kind=rate")
        try:
            rate = float(value)
        except ValueError:
            raise SimError(f"--inject: rate {value!r} of {name!r} is not a number") from None
        rates[name.strip()] = rate
    return _check_rates(rates)


def _check_rates(rates: Mapping[str, float]) -> dict[str, float]:
    out: dict[str, float] = {}
    for name, rate in rates.items():
        kind = ALIASES.get(name, name)
        if kind not in INJECTABLE:
            raise SimError(f"cannot inject {name!r}: the kinds are {', '.join(INJECTABLE)}")
        if not 0.0 <= rate <= 1.0:
            raise SimError(f"rate of {name!r} must be between 0 and 1, not {rate}")
        out[kind] = out.get(kind, 0.0) + float(rate)
    total = sum(r for k, r in out.items() if k in BOARD_KINDS)
    if total > 1.0 + 1e-9:
        raise SimError(f"the board irregularities' rates add up to {total:.3f}: at most one "
                       "per board, so at most 1")
    return out


# Timing (seconds of device time, times ``pace``) --------------------------------------------

_DELAYS = {"checkin": (3.0, 8.0), "board": (20.0, 40.0), "hand": (1.0, 3.0),
           "call": (2.0, 10.0), "card": (1.0, 6.0), "claim": (2.0, 5.0),
           "claim_answer": (3.0, 8.0), "result_confirm": (5.0, 15.0),
           "director_call": (1.0, 4.0), "again": (0.2, 1.0)}
_ROUND_GAP = 60.0


# Bidding ------------------------------------------------------------------------------------

def _hcp(cards: Iterable[Card]) -> int:
    return sum(_HCP.get(c.rank, 0) for c in cards)


def _lengths(cards: Iterable[Card]) -> dict[Suit, int]:
    out = dict.fromkeys(Suit, 0)
    for c in cards:
        out[c.suit] += 1
    return out


class _Bidder:
    """Sensible calls: each side aims at the contract its combined points and fit justify
    (the simulator sees all four hands), with a little noise; opening needs 12 points, an
    overcall 9 and a five-card suit."""

    def __init__(self, deal: Deal, rng: random.Random):
        self.rng = rng
        self.hcp = {s: _hcp(deal[s]) for s in Seat}
        self.lengths = {s: _lengths(deal[s]) for s in Seat}
        self.target: dict[Side, tuple[int, Strain]] = {}
        for side in Side:
            a, b = side.seats
            points = self.hcp[a] + self.hcp[b]
            fit = {suit: self.lengths[a][suit] + self.lengths[b][suit] for suit in Suit}
            majors = [s for s in (Suit.SPADES, Suit.HEARTS) if fit[s] >= 8]
            best = max(Suit, key=lambda s: (fit[s], s))
            if majors:
                strain = Strain.of(max(majors, key=lambda s: (fit[s], s)))
            elif points >= 23 or fit[best] < 8:
                strain = Strain.NOTRUMP
            else:
                strain = Strain.of(best)
            if points < 19:
                level = 2 if fit[best] >= 8 and points >= 15 else 1
            elif points < 22:
                level = 2
            elif points < 25:
                level = 2 if strain is Strain.NOTRUMP else 3
            elif points < 33:
                level = 3 if strain is Strain.NOTRUMP else 4 if strain.is_major else 5
            elif points < 37:
                level = 6
            else:
                level = 7
            if rng.random() < 0.15:
                level += rng.choice((-1, 1))
            self.target[side] = (min(7, max(1, level)), strain)

    def call(self, board: Board, seat: Seat, *, force_open: bool = False) -> Call:
        auction = board.auction
        legal = auction.legal_calls
        live = [e for e in auction.entries
                if e.status in (CallStatus.MADE, CallStatus.ACCEPTED)]
        bids = [e for e in live if e.call.is_bid]
        side = seat.side
        ours = [e for e in bids if e.seat.side is side]
        level, strain = self.target[side]
        last = bids[-1] if bids else None
        if not ours:
            need = 12 if not bids else 9
            lengths = self.lengths[seat]
            longest = max(Suit, key=lambda s: (lengths[s], s))
            passed_out = not bids and len(live) == 3
            weak = self.hcp[seat] < need or (bids and lengths[longest] < 5)
            if weak and not (force_open and passed_out):
                return self._double_or_pass(seat, last, legal)
            balanced = sorted(lengths.values()) in ([3, 3, 3, 4], [2, 3, 4, 4], [2, 3, 3, 5])
            own = (Strain.NOTRUMP if not bids and balanced and 15 <= self.hcp[seat] <= 17
                   else Strain.of(longest))
            bid = _cheapest(legal, own)
            limit = max(level, 1 if not bids else 2)
            if bid is None or (bid.level > limit and not (force_open and passed_out)):
                return self._double_or_pass(seat, last, legal)
            return bid
        if last is not None and last.seat.side is side and last.call.strain is strain \
                and last.call.level >= level:
            return PASS
        bid = _cheapest(legal, strain)
        if bid is not None and bid.level <= level and self.rng.random() < 0.92:
            return bid
        return self._double_or_pass(seat, last, legal)

    def _double_or_pass(self, seat: Seat, last: Any, legal: list[Call]) -> Call:
        if last is None or last.seat.side is seat.side or DOUBLE not in legal:
            return PASS
        their_level, _ = self.target[last.seat.side]
        a, b = seat.side.seats
        if (last.call.level > their_level + 1 and self.hcp[a] + self.hcp[b] >= 16
                and self.rng.random() < 0.5):
            return DOUBLE
        return PASS


def _cheapest(legal: Sequence[Call], strain: Strain) -> Call | None:
    return next((c for c in legal if c.is_bid and c.strain is strain), None)


# One table --------------------------------------------------------------------------------

@dataclass(slots=True)
class _Act:
    device: str   # "tab" or "rdr"
    type: str
    body: dict[str, Any]
    delay: str


class _Table:
    """The events of one table, its clock and its random stream."""

    def __init__(self, tid: str, number: int, section: Section, seed: int, pace: float,
                 start: float):
        self.id = tid
        self.number = number
        self.section = section
        self.rng = random.Random(f"tenace-sim:{seed}:{tid}")
        self.pace = pace
        self.clock = start
        self.events: list[DeviceEvent] = []
        self.sat: set[int] = set()  # boards played here this round

    def emit(self, act: _Act) -> None:
        lo, hi = _DELAYS[act.delay]
        self.clock += max(1e-6, self.rng.uniform(lo, hi) * self.pace)
        self.events.append(DeviceEvent(self.id, f"{self.id}-{act.device}", act.type,
                                       act.body, round(self.clock, 6)))


class _Sim:
    def __init__(self, sections: Sequence[Section], deals: Mapping[int, Deal], *, seed: int,
                 rates: dict[str, float], rounds: int | None, start: float, pace: float,
                 edition: Edition, claim_rate: float, reader_rate: float,
                 double_report: float):
        self.deals = deals
        self.seed = seed
        self.rates = rates
        self.edition = edition
        self.claim_rate = claim_rate
        self.reader_rate = reader_rate
        self.double_report = double_report
        self.tables: list[tuple[_Table, Movement]] = []
        for section in sections:
            if section.movement is None:
                raise SimError(f"section {section.name!r} has no movement to simulate")
            missing = [b for b in section.movement.boards if b not in deals]
            if missing:
                raise SimError(f"section {section.name!r}: no hand record for boards "
                               f"{missing}")
            for tid, number in section.tables.items():
                self.tables.append((_Table(tid, number, section, seed, pace, start),
                                    section.movement))
        most = max((m.rounds for _, m in self.tables), default=0)
        self.rounds = most if rounds is None else min(rounds, most)
        self.start = start
        self.pace = pace
        self.injected: list[Injection] = []
        self.expected: list[Expected] = []
        self.round_starts: dict[int, float] = {}
        # (section, pair) -> board -> (table, round) of its first call, as the hub marks it
        self.played: dict[tuple[str, int], dict[int, tuple[str, int]]] = {}
        # (section, pair, board) -> the injection that made the pair play it off schedule
        self.cause: dict[tuple[str, int, int], Injection] = {}

    # The session ------------------------------------------------------------------------
    def run(self) -> SimScript:
        begin = self.start
        for r in range(1, self.rounds + 1):
            self.round_starts[r] = begin
            for table, movement in self.tables:
                a = movement.assignment(r, table.number)
                if a is None or not a.plays:
                    continue
                table.clock = max(table.clock, begin)
                prev = movement.assignment(r - 1, table.number) if r > 1 else None
                table.sat = set()
                self._round(table, a, prev)
            begin = max([t.clock for t, _ in self.tables] + [begin]) + _ROUND_GAP * self.pace
        return SimScript({t.id: t.events for t, _ in self.tables}, self.injected,
                         self.expected, self.round_starts, self.seed, dict(self.rates))

    def _draw(self, table: _Table) -> str | None:
        u = table.rng.random()
        acc = 0.0
        for kind in BOARD_KINDS:
            acc += self.rates.get(kind, 0.0)
            if u < acc:
                return kind
        return None

    def _round(self, table: _Table, a: Assignment, prev: Assignment | None) -> None:
        rng = table.rng
        assert a.ns is not None and a.ew is not None
        before = set() if prev is None else {prev.ns, prev.ew}
        seats = [(Side.NS, a.ns), (Side.EW, a.ew)]
        seats.sort(key=lambda x: x[1] in before)  # a pair new to the table first
        swapped = rng.random() < self.rates.get("wrong_direction", 0.0)
        if swapped:
            self.injected.append(Injection(table.id, a.round, None, "wrong_direction",
                                           f"pairs {a.ns} and {a.ew} sit the wrong way round"))
        for side, pair in seats:
            direction = side.opponents if swapped else side
            body: dict[str, Any] = {"direction": str(direction), "pair": pair}
            names = table.section.pairs.get(pair)
            if names:
                body["players"] = [{"name": n} for n in names]
            table.emit(_Act("tab", "checkin", body, "checkin"))
        seated = {Side.NS: a.ew if swapped else a.ns, Side.EW: a.ns if swapped else a.ew}
        for number in a.boards:
            kind = self._draw(table)
            if kind in ("wrong_board", "board_already_played"):
                extra = self._extra_board(table, a, seated, kind)
                if extra is not None:
                    inj = Injection(table.id, a.round, extra, kind,
                                    f"board {extra} played before board {number}")
                    self.injected.append(inj)
                    self._sitting(table, a, seated, extra, None, inj)
                kind = None
            self._sitting(table, a, seated, number, kind, None)

    def _extra_board(self, table: _Table, a: Assignment, seated: dict[Side, int],
                     kind: str) -> int | None:
        section = table.section.name
        pairs = list(seated.values())
        done = [self.played.get((section, p), {}) for p in pairs]
        movement = table.section.movement
        assert movement is not None
        if kind == "wrong_board":
            pool = sorted({b for other in movement.round(a.round)
                           if other.table != table.number and other.plays
                           for b in other.boards
                           if b not in a.boards and b in self.deals
                           and not any(b in d for d in done)})
        else:
            pool = sorted({b for d in done for b, where in d.items()
                           if b not in a.boards and b in self.deals
                           and where != (table.id, a.round)})
        pool = [b for b in pool if b not in table.sat]  # one sitting per board and round
        return table.rng.choice(pool) if pool else None

    # One board at one table -------------------------------------------------------------
    def _sitting(self, table: _Table, a: Assignment, seated: dict[Side, int], number: int,
                 kind: str | None, extra: Injection | None) -> None:
        section = table.section.name
        self._predict(table, a, seated, number, extra)
        table.sat.add(number)
        board = Board(number, self.deals[number], edition=self.edition)
        play_board = _BoardPlay(self, table, board, kind)
        acts = play_board.acts()
        if kind is not None and play_board.injected:
            self.injected.append(Injection(table.id, a.round, number, kind,
                                           play_board.detail))
        table.emit(_Act("tab", "board", {"board": number}, "board"))
        for act in acts:
            table.emit(act)
        for pair in seated.values():
            record = self.played.setdefault((section, pair), {})
            if number not in record:
                record[number] = (table.id, a.round)
                if extra is not None:
                    self.cause[(section, pair, number)] = extra

    def _predict(self, table: _Table, a: Assignment, seated: dict[Side, int], number: int,
                 extra: Injection | None) -> None:
        """What the hub will say when the board is announced (Law 15); anything not the
        injection itself must be the consequence of an earlier one."""
        section = table.section.name
        found: list[tuple[str, int | None]] = []
        if number not in a.boards:
            found.append(("wrong_board", None))
        for seated_pair in seated.values():
            where = self.played.get((section, seated_pair), {}).get(number)
            if where is not None and where != (table.id, a.round):
                found.append(("board_already_played", seated_pair))
        allowed: set[str] = set()
        if extra is not None:
            allowed = {extra.kind} | CONSEQUENCES.get(extra.kind, frozenset())
        for kind, pair in found:
            if kind in allowed:
                continue
            cause = None if pair is None else self.cause.get((section, pair, number))
            if cause is None:
                raise SimError(f"table {table.id}, round {a.round}, board {number}: the hub "
                               f"would raise {kind} with no injection behind it")
            self.expected.append(Expected(
                table.id, a.round, number, kind,
                f"pair {pair} played board {number} at table {cause.table} in round "
                f"{cause.round} ({cause.kind})"))


class _BoardPlay:
    """The acts of one board at one table, checked against a bridgecore Board."""

    def __init__(self, sim: _Sim, table: _Table, board: Board, kind: str | None):
        self.sim = sim
        self.rng = table.rng
        self.board = board
        self.kind = kind
        self.injected = False
        self.detail = ""
        self.out: list[_Act] = []
        self.bidder = _Bidder(board.deal, self.rng)

    # Acts ---------------------------------------------------------------------------------
    def acts(self) -> list[_Act]:
        self._reads()
        self._auction()
        play = self.board.play
        if play is not None:
            self._play()
        self._confirm()
        if self.kind == "director_call":
            seat = self.rng.choice(list(Seat))
            note = self.rng.choice(_NOTES)
            at = self.rng.randint(0, len(self.out) - 1)
            self.out.insert(at, _Act("tab", "director_call",
                                     {"seat": seat.letter, "note": note}, "director_call"))
            self._mark(f"{seat} calls the director: {note}")
        return self.out

    def _mark(self, detail: str) -> None:
        self.injected = True
        self.detail = detail

    def _reads(self) -> None:
        deal = self.board.deal
        turn = 0
        if self.kind == "rotated_board":
            turn = self.rng.choice((1, 2, 3))
            self._mark(f"pockets read turned {90 * turn}°")
        order = list(Seat)
        self.rng.shuffle(order)
        for seat in order:
            cards = [str(c) for c in deal[seat.offset(-turn)]]
            self.out.append(_Act("rdr", "hand", {"seat": seat.letter, "cards": cards,
                                                 "board": self.board.number}, "hand"))

    # The auction ----------------------------------------------------------------------------
    def _call(self, seat: Seat, call: Call, expect: Kind | None = None) -> bool:
        """Push ``call`` on the board; keep it only if it reveals exactly ``expect``."""
        found = self.board.push_call(seat, call)
        if [i.kind for i in found] != ([] if expect is None else [expect]):
            self.board.pop()
            if expect is None:
                raise SimError(f"board {self.board.number}: {seat} {call} would reveal "
                               f"{[str(i) for i in found]}")
            return False
        self.out.append(_Act("tab", "call", {"seat": seat.letter, "call": str(call)}, "call"))
        return True

    def _auction(self) -> None:
        board, rng, kind = self.board, self.rng, self.kind
        auction = board.auction
        force = kind in _NEEDS_PLAY or kind in ("insufficient_bid", "call_out_of_rotation")
        oor_at = rng.randint(0, 3) if kind == "call_out_of_rotation" else -1
        insufficient_from = rng.randint(1, 4) if kind == "insufficient_bid" else -1
        while not auction.is_over:
            seat = auction.turn
            assert seat is not None
            n = len(auction)
            if not self.injected and ((kind == "call_out_of_rotation" and n >= oor_at
                                       and self._out_of_rotation(seat))
                                      or (kind == "insufficient_bid" and n >= insufficient_from
                                          and self._insufficient(seat))):
                continue
            call = self.bidder.call(board, seat, force_open=force)
            if (not self.injected and kind == "insufficient_bid" and call.is_pass
                    and self._would_end(call, seat) and self._insufficient(seat)):
                continue
            self._call(seat, call)

    def _would_end(self, call: Call, seat: Seat) -> bool:
        self.board.push_call(seat, call)
        over = self.board.auction.is_over
        self.board.pop()
        return over

    def _out_of_rotation(self, turn: Seat) -> bool:
        entries = self.board.auction.entries
        last = entries[-1].seat if entries else None
        offenders = [s for s in (turn.partner, turn.lho) if s is not last]
        self.rng.shuffle(offenders)
        for seat in offenders:
            bids = [e for e in entries if e.call.is_bid]
            call = PASS
            if not bids and self.rng.random() < 0.4:  # an opening bid before the dealer's
                lengths = self.bidder.lengths[seat]
                longest = max(Suit, key=lambda s: (lengths[s], s))
                call = Call.bid(1, Strain.of(longest))
            if self._call(seat, call, Kind.CALL_OUT_OF_ROTATION):
                self._mark(f"{seat} called {call} out of rotation, at {turn}'s turn")
                return True
        return False

    def _insufficient(self, seat: Seat) -> bool:
        last = self.board.auction.last_bid
        if last is None or last.rank < 1:
            return False
        low = max(0, last.rank - 5)
        ranks = list(range(low, last.rank))
        self.rng.shuffle(ranks)
        for rank in ranks:
            call = Call.bid(rank // 5 + 1, Strain(rank % 5))
            if self._call(seat, call, Kind.INSUFFICIENT_BID):
                self._mark(f"{seat} bid {call} after {last}")
                return True
        return False

    # The play --------------------------------------------------------------------------------
    def _card(self, seat: Seat, card: Card, expect: Kind | None = None, *,
              emit: bool = True) -> bool:
        found = self.board.push_card(seat, card)
        if [i.kind for i in found] != ([] if expect is None else [expect]):
            self.board.pop()
            if expect is None:
                raise SimError(f"board {self.board.number}: {seat} {card} would reveal "
                               f"{[str(i) for i in found]}")
            return False
        if emit:  # the 52nd card is not reported twice: the hub refuses it once play is over
            play = self.board.play
            last = play is not None and play.is_complete
            self._emit_card(seat, card, double=expect is None and not last)
        return True

    def _emit_card(self, seat: Seat, card: Card, double: bool = True) -> None:
        rng = self.rng
        reader = rng.random() < self.sim.reader_rate
        body = {"seat": seat.letter, "card": str(card)}
        first, second = ("rdr", "tab") if reader else ("tab", "rdr")
        self.out.append(_Act(first, "card", {**body, "source": _SOURCE[first]}, "card"))
        if double and rng.random() < self.sim.double_report:
            self.out.append(_Act(second, "card", {**body, "source": _SOURCE[second]}, "again"))

    def _play(self) -> None:
        play = self.board.play
        assert play is not None
        rng, kind = self.rng, self.kind
        claim_at: int | None = None
        if kind == "disputed_claim":
            claim_at = rng.randint(4, 12)
        elif rng.random() < self.sim.claim_rate:
            claim_at = rng.randint(7, 12)
        inject_at = {"revoke": rng.randint(1, 10), "play_out_of_turn": rng.randint(2, 11),
                     "card_not_in_hand": rng.randint(1, 11)}.get(kind or "", 0)
        revoked_at: int | None = None
        while not play.is_complete:
            trick = len(play.completed_tricks) + 1
            empty = play.current_trick_is_empty
            waits = kind in _NEEDS_PLAY and kind != "disputed_claim" and not self.injected
            if (empty and claim_at == trick and not waits
                    and (revoked_at is None or trick > revoked_at + 1)):
                self._claim(disputed=kind == "disputed_claim")
                return  # accepted, or disputed and played out
            seat = play.turn
            assert seat is not None
            if not self.injected and kind is not None and trick >= inject_at:
                if kind == "lead_out_of_turn" and trick == 1 and not play.history:
                    if self._lead_out_of_turn():
                        continue
                elif kind == "revoke" and not empty:
                    if self._revoke(seat, trick):
                        revoked_at = trick
                        continue
                elif kind == "play_out_of_turn" and not empty and trick <= 12:
                    if self._play_out_of_turn(seat, trick):
                        continue
                elif (kind == "card_not_in_hand" and empty and trick <= 11
                      and self._not_in_hand(seat, trick)):
                    return
            self._card(seat, rng.choice(list(play.legal_cards)))

    def _lead_out_of_turn(self) -> bool:
        play = self.board.play
        assert play is not None
        offender = play.opening_leader.partner
        cards = list(play.remaining(offender))
        card = self.rng.choice(cards)
        if self._card(offender, card, Kind.LEAD_OUT_OF_TURN):
            self._mark(f"{offender} led {card}; the opening lead was {play.opening_leader}'s")
            return True
        return False

    def _revoke(self, seat: Seat, trick: int) -> bool:
        play = self.board.play
        assert play is not None
        current = play.current_trick
        led = None if current is None else current.led_suit
        if led is None:
            return False
        held = list(play.remaining(seat))
        if not any(c.suit is led for c in held):
            return False
        others = [c for c in held if c.suit is not led]
        if not others:
            return False
        card = self.rng.choice(others)
        if self._card(seat, card, Kind.REVOKE):
            self._mark(f"{seat} played {card} on a {led.name.lower()} lead holding the suit, "
                       f"trick {trick}")
            return True
        return False

    def _play_out_of_turn(self, turn: Seat, trick: int) -> bool:
        play = self.board.play
        assert play is not None
        current = play.current_trick
        assert current is not None
        played = {s for s, _ in current.cards}
        offenders = [s for s in Seat if s not in played and s is not turn]
        self.rng.shuffle(offenders)
        led = current.led_suit
        for seat in offenders:
            held = list(play.remaining(seat))
            suited = [c for c in held if c.suit is led]
            card = self.rng.choice(suited or held)
            if self._card(seat, card, Kind.PLAY_OUT_OF_TURN):
                self._mark(f"{seat} played {card} to trick {trick} before {turn}")
                return True
        return False

    def _not_in_hand(self, leader: Seat, trick: int) -> bool:
        """The leader leads a card another player holds; the trick is finished with legal
        cards (the holder follows with another card of the suit) and declarer claims."""
        play = self.board.play
        assert play is not None
        choices = []
        for holder in Seat:
            if holder is leader:
                continue
            held = list(play.remaining(holder))
            for card in held:
                if sum(1 for c in held if c.suit is card.suit) >= 2:
                    choices.append((holder, card))
        if not choices:
            return False
        holder, card = self.rng.choice(choices)
        if not self._card(leader, card, Kind.CARD_NOT_IN_HAND):
            return False
        while not play.current_trick_is_empty:
            seat = play.turn
            assert seat is not None
            legal = [c for c in play.legal_cards if not (seat is holder and c == card)]
            self._card(seat, self.rng.choice(legal))
        self._claim(disputed=False, random_tricks=True)
        self._mark(f"{leader} led {card}, which {holder} holds, to trick {trick}")
        return True

    def _claim(self, disputed: bool, random_tricks: bool = False) -> None:
        """Declarer claims the tricks his side would win playing on (or, after a card not in
        hand, what he believes); both defenders agree, or one disputes and it is played
        out."""
        board = self.board
        play = board.play
        assert play is not None
        declarer = play.declarer
        done = len(play.completed_tricks)
        remaining = 13 - done
        rest: list[tuple[Seat, Card]] = []
        if random_tricks:
            tricks = self.rng.randint(0, remaining)
        else:
            while not play.is_complete:
                seat = play.turn
                assert seat is not None
                card = self.rng.choice(list(play.legal_cards))
                self._card(seat, card, emit=False)
                rest.append((seat, card))
            tricks = sum(1 for t in play.completed_tricks[done:]
                         if t.winner is not None and t.winner.side is declarer.side)
            for _ in rest:
                board.pop()
        statement = "the rest are mine" if tricks == remaining else f"{tricks} more"
        play.claim(declarer, tricks, None, statement)
        self.out.append(_Act("tab", "claim", {"seat": declarer.letter, "tricks": tricks,
                                              "statement": statement}, "claim"))
        first, second = declarer.lho, declarer.rho
        if disputed:
            who = self.rng.choice((first, second))
            found = play.dispute(who, None)
            if found.kind is not Kind.DISPUTED_CLAIM:  # pragma: no cover - bridgecore says so
                raise SimError(f"dispute gave {found}")
            self.out.append(_Act("tab", "claim_answer", {"seat": who.letter, "accept": False},
                                 "claim_answer"))
            self._mark(f"{who} disputes {declarer}'s claim of {tricks} of {remaining} tricks; "
                       "played out")
            for seat, card in rest:
                self._card(seat, card)
            return
        for seat in (first, second):
            play.accept(seat, None)
            self.out.append(_Act("tab", "claim_answer", {"seat": seat.letter, "accept": True},
                                 "claim_answer"))

    def _confirm(self) -> None:
        play = self.board.play
        seat = Seat.EAST if play is None else play.declarer.lho
        if self.kind == "result_disagrees":
            self.out.append(_Act("tab", "result_confirm", {"seat": seat.letter,
                                                           "accept": False}, "result_confirm"))
            self._mark(f"{seat} does not agree with the result")
            seat = seat.partner
        self.out.append(_Act("tab", "result_confirm", {"seat": seat.letter, "accept": True},
                             "result_confirm"))


_SOURCE = {"tab": "tablet", "rdr": "reader"}


def simulate(sections: Section | Sequence[Section], deals: Mapping[int, Deal], *, seed: int,
             inject: Mapping[str, float] | None = None, rounds: int | None = None,
             start: float = 1_000_000.0, pace: float = 1.0,
             edition: Edition = DEFAULT_EDITION, claim_rate: float = 0.2,
             reader_rate: float = 0.3, double_report: float = 0.05) -> SimScript:
    """The whole session of every table of ``sections`` (each with its movement) on the
    hand records ``deals``, reproducible from ``seed``.

    ``inject``: alert kind -> rate (see the module docstring); ``rounds``: play only the
    first rounds; ``start``: device time of the first round; ``pace``: scales every delay
    (1.0 is a club's pace, about seven minutes a board); ``claim_rate``: boards where
    declarer claims; ``reader_rate``: cards reported by the card reader rather than the
    tablet; ``double_report``: cards reported by both."""
    section_list = [sections] if isinstance(sections, Section) else list(sections)
    if pace <= 0:
        raise SimError(f"pace must be positive, not {pace}")
    if rounds is not None and rounds < 1:
        raise SimError(f"rounds start at 1, not {rounds}")
    rates = _check_rates(inject or {})
    return _Sim(section_list, deals, seed=seed, rates=rates, rounds=rounds, start=start,
                pace=pace, edition=edition, claim_rate=claim_rate, reader_rate=reader_rate,
                double_report=double_report).run()


# Injected vs detected --------------------------------------------------------------------

def _alert_fields(alert: Any) -> tuple[str, int | None, int | None, str]:
    if isinstance(alert, Mapping):
        return (str(alert.get("table")), alert.get("round"), alert.get("board"),
                str(alert.get("kind")))
    return alert.table, alert.round, alert.board, alert.kind


def _truth_fields(item: Any) -> tuple[str, int | None, int | None, str]:
    if isinstance(item, Mapping):
        return (str(item.get("table")), item.get("round"), item.get("board"),
                str(ALIASES.get(str(item.get("kind")), item.get("kind"))))
    return item.table, item.round, item.board, item.kind


def compare(injected: Iterable[Injection | Mapping[str, Any]],
            alerts: Iterable[Any],
            expected: Iterable[Expected | Mapping[str, Any]] = (),
            kinds: Iterable[str] = ()) -> dict[str, Any]:
    """Injected vs detected, in the issue's JSON shape: ``injected`` and ``detected``
    (counts per kind), ``missed`` and ``false_alarms`` (lists of {table, board, kind}).

    An injection is detected when an alert of its kind names its table, board and round
    (the seating kinds: its table and round; a round of None matches any). An alert is
    explained by an injection of its kind, by a :data:`CONSEQUENCES` kind of an injection
    at the same table, board and round, or by an ``expected`` entry (same table and kind,
    same board and round unless the entry's are None: e.g. a device-offline alert the
    driver caused on purpose); any other alert is a false alarm. ``alerts`` are
    :class:`hub.alerts.Alert` values or their JSON; the versions of an alert count once.
    ``kinds`` are listed in the counts even when none was injected."""
    truth = [_truth_fields(i) for i in injected]
    extra = [_truth_fields(e) for e in expected]
    found: dict[tuple[str, int | None, int | None, str], None] = {}
    for alert in alerts:
        table, rnd, board, kind = _alert_fields(alert)
        found[(table, rnd, None if kind in _SEATING else board, kind)] = None

    def same(a: int | None, b: int | None) -> bool:
        return a is None or b is None or a == b

    injected_n = {ALIASES.get(k, k): 0 for k in kinds}
    detected_n = dict(injected_n)
    missed: list[dict[str, Any]] = []
    for table, rnd, board, kind in truth:
        injected_n[kind] = injected_n.get(kind, 0) + 1
        detected_n.setdefault(kind, 0)
        if any(t == table and k == kind and same(r, rnd) and (k in _SEATING or b == board)
               for t, r, b, k in found):
            detected_n[kind] += 1
        else:
            missed.append({"table": table, "board": board, "kind": kind})
    false_alarms: list[dict[str, Any]] = []
    for table, rnd, board, kind in found:
        ok = any(t == table and same(r, rnd)
                 and (k == kind if kind in _SEATING else
                      b == board and (k == kind or kind in CONSEQUENCES.get(k, ())))
                 for t, r, b, k in truth)
        ok = ok or any(t == table and k == kind and same(b, board) and same(r, rnd)
                       for t, r, b, k in extra)
        if not ok:
            false_alarms.append({"table": table, "board": board, "kind": kind})
    return {"injected": injected_n, "detected": detected_n, "missed": missed,
            "false_alarms": false_alarms}


def run_local(room: Room, script: SimScript, *, director: bool = False,
              run: str = "") -> dict[str, Any]:
    """Play ``script`` into ``room`` without a broker (:func:`tenace.devices.apply_local`),
    all tables interleaved in device-time order, the hub's time being each event's. With
    ``director``, the director also starts each round at its time (``Room.start_round``).
    Returns :func:`compare`'s report plus ``events``, ``seconds`` (wall clock) and
    ``rejected`` (events the hub refused: none for a sound script)."""
    began = time.perf_counter()
    events = script.merged()
    alerts: list[Any] = []
    rejected: list[dict[str, Any]] = []
    if not director:
        outcomes, alerts = apply_local(room, events, run=run)
        pairs = list(zip(events, (o.reply for o in outcomes), strict=True))
    else:
        starts = sorted(script.round_starts.items())
        pairs = []
        for (table, env), event in zip(envelopes(events, run), events, strict=True):
            while starts and starts[0][1] <= env.time:
                r, t = starts.pop(0)
                alerts += room.start_round(r, t)
            out = room.apply(table, env, env.time)
            alerts += out.alerts
            pairs.append((event, out.reply))
    for event, reply in pairs:
        if reply.status != "ack":
            rejected.append({"table": event.table, "type": event.type, "time": event.time,
                             "code": reply.code, "reason": reply.reason})
            log.warning("sim: %s %s at %s refused: %s", event.table, event.type, event.time,
                        reply.reason)
    report = compare(script.injected, alerts, script.expected,
                     [k for k, rate in script.rates.items() if rate > 0])
    report.update(events=len(events), seconds=round(time.perf_counter() - began, 3),
                  rejected=rejected)
    return report

