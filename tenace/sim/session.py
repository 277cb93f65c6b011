"""A whole simulated session: every table of a room playing its movement, round after round.

:func:`simulate` takes the sections of a room (each with its movement) and the hand records
and writes, for every table, what its devices would publish during the whole session: the
tablet (``{table}-tab``) checks the pairs in, announces each board, makes the calls, the
claims and their answers and the result confirmation; the card reader (``{table}-rdr``)
reads the four hands out of the pockets and reports some of the cards played (a card is
sometimes reported by both, which the hub must count once). Each board is played by
:class:`tenace.sim.board.BoardPlay`. Each table's script is a list of
:class:`tenace.sim.devices.DeviceEvent` with rising device times; tables are independent
(the driver runs them in parallel).

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
:func:`tenace.sim.driver.run_tables` the pace (``realtime=script.pacer()``); ``pace`` scales
the club's pace (1.0: about seven minutes a board).

:func:`run_local` runs a script into a :class:`hub.room.Room` without a broker.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from bridgecore.board import Board
from bridgecore.cards import Side
from bridgecore.deal import Deal
from bridgecore.editions import DEFAULT_EDITION, Edition
from bridgecore.movements import Assignment, Movement
from hub.room import Room, Section
from tenace.sim.board import Act, BoardPlay, Habits
from tenace.sim.devices import DeviceEvent, apply_local, envelopes
from tenace.sim.noise import ReaderNoise, add_noise
from tenace.sim.script import (
    BOARD_KINDS,
    CONSEQUENCES,
    Expected,
    Injection,
    SimError,
    SimScript,
    check_rates,
    compare,
)

__all__ = ["run_local", "simulate"]

log = logging.getLogger(__name__)

# Timing (seconds of device time, times ``pace``) --------------------------------------------

_DELAYS = {"checkin": (3.0, 8.0), "board": (20.0, 40.0), "hand": (1.0, 3.0),
           "call": (2.0, 10.0), "card": (1.0, 6.0), "claim": (2.0, 5.0),
           "claim_answer": (3.0, 8.0), "result_confirm": (5.0, 15.0),
           "director_call": (1.0, 4.0), "again": (0.2, 1.0)}
_ROUND_GAP = 60.0


# One table --------------------------------------------------------------------------------

class _Table:
    """The events of one table, its clock and its random stream."""

    def __init__(self, tid: str, number: int, section: Section, seed: int, pace: float,
                 start: float):
        self.id = tid
        self.number = number
        self.section = section
        self.rng = random.Random(f"tenace-sim:{seed}:{tid}")
        # The card readers' errors draw from their own stream: a noiseless script is the
        # same with or without the model (tenace.sim.noise).
        self.noise_rng = random.Random(f"tenace-noise:{seed}:{tid}")
        self.pace = pace
        self.clock = start
        self.events: list[DeviceEvent] = []
        self.sat: set[int] = set()  # boards played here this round
        # The record as the table's events report it (the events' ``at``, hub.ordering).
        self.board: int | None = None
        self.hands = 0
        self.answers = 0
        self.calls = 0
        self.cards: list[str] = []

    def emit(self, act: Act) -> None:
        lo, hi = _DELAYS[act.delay]
        self.clock += max(1e-6, self.rng.uniform(lo, hi) * self.pace)
        self.events.append(DeviceEvent(self.id, f"{self.id}-{act.device}", act.type,
                                       act.body, round(self.clock, 6), self._at(act)))

    def _at(self, act: Act) -> dict[str, int] | None:
        """Where ``act`` belongs in the table's record (the envelope's ``at``, hub.ordering):
        the board, its hand sweeps, answers, calls and card reports so far (a card reported twice,
        by the tablet and the reader, counts twice). Counted as the hub counts them."""
        board = self.board
        at = None if board is None else {"board": board, "hands": self.hands,
                                         "answers": self.answers, "calls": self.calls,
                                         "cards": len(self.cards)}
        if act.type == "board":
            self.board = int(act.body["board"])
            self.hands, self.answers, self.calls, self.cards = 0, 0, 0, []
        elif act.type == "hand" and board is not None:
            self.hands += 1
        elif act.type == "answer" and board is not None:
            self.answers += 1
        elif act.type == "call" and board is not None:
            self.calls += 1
        elif act.type == "card" and board is not None:
            self.cards.append(str(act.body.get("card", "")))
        return at


class _Sim:
    def __init__(self, sections: Sequence[Section], deals: Mapping[int, Deal], *, seed: int,
                 rates: dict[str, float], rounds: int | None, start: float, pace: float,
                 edition: Edition, claim_rate: float, reader_rate: float,
                 double_report: float, noise: ReaderNoise | None = None):
        self.deals = deals
        self.noise = noise
        self.reader_errors: dict[str, int] = {}
        self.seed = seed
        self.rates = rates
        self.edition = edition
        self.habits = Habits(claim_rate, reader_rate, double_report)
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
                         self.expected, self.round_starts, self.seed, dict(self.rates),
                         dict(self.reader_errors))

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
            seats = table.section.players(table.id, a.round)
            if seats is not None:   # an individual: the side's two players, by number
                body["players"] = [
                    {"number": p, **({"name": table.section.pairs[p][0]}
                                     if table.section.pairs.get(p) else {})}
                    for p in (seats[0::2] if side is Side.NS else seats[1::2])]
            elif names := table.section.pairs.get(pair):
                body["players"] = [{"name": n} for n in names]
            table.emit(Act("tab", "checkin", body, "checkin"))
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
        play_board = BoardPlay(self.habits, table.rng, board, kind)
        acts = play_board.acts()
        if self.noise is not None:
            play = board.play
            acts = add_noise(acts, self.noise, table.noise_rng, self.reader_errors,
                             None if play is None else play.dummy)
        if kind is not None and play_board.injected:
            self.injected.append(Injection(table.id, a.round, number, kind,
                                           play_board.detail))
        table.emit(Act("tab", "board", {"board": number}, "board"))
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


def simulate(sections: Section | Sequence[Section], deals: Mapping[int, Deal], *, seed: int,
             inject: Mapping[str, float] | None = None, rounds: int | None = None,
             start: float = 1_000_000.0, pace: float = 1.0,
             edition: Edition = DEFAULT_EDITION, claim_rate: float = 0.2,
             reader_rate: float = 0.3, double_report: float = 0.05,
             reader_noise: ReaderNoise | None = None) -> SimScript:
    """The whole session of every table of ``sections`` (each with its movement) on the
    hand records ``deals``, reproducible from ``seed``.

    ``inject``: alert kind -> rate (see the module docstring); ``rounds``: play only the
    first rounds; ``start``: device time of the first round; ``pace``: scales every delay
    (1.0 is a club's pace, about seven minutes a board); ``claim_rate``: boards where
    declarer claims; ``reader_rate``: cards reported by the card reader rather than the
    tablet; ``double_report``: cards reported by both; ``reader_noise``: the card readers'
    errors (:mod:`tenace.sim.noise`), with the table's answers when the hub asks."""
    section_list = [sections] if isinstance(sections, Section) else list(sections)
    if pace <= 0:
        raise SimError(f"pace must be positive, not {pace}")
    if rounds is not None and rounds < 1:
        raise SimError(f"rounds start at 1, not {rounds}")
    rates = check_rates(inject or {})
    return _Sim(section_list, deals, seed=seed, rates=rates, rounds=rounds, start=start,
                pace=pace, edition=edition, claim_rate=claim_rate, reader_rate=reader_rate,
                double_report=double_report, noise=reader_noise).run()


# Injected vs detected --------------------------------------------------------------------


def run_local(room: Room, script: SimScript, *, director: bool = False,
              run: str = "") -> dict[str, Any]:
    """Play ``script`` into ``room`` without a broker (:func:`tenace.sim.devices.apply_local`),
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
