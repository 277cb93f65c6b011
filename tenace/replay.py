"""Game records played through the live system: the game side of ``tenace replay``.

A record (PBN or LIN, :class:`bridgecore.record.GameRecord`) becomes what its table's
devices would publish (:func:`record_events`): the tablet announces the board, the card
reader reads the four pockets (the hub learns the deal from the cards, a flawed deal
included), the tablet sends the calls with their alerts and explanations, the reader the
cards played, and when the record's play stops short of 13 tricks with a result, declarer
claims the rest and both defenders accept (the audit's reading of such a record, see
:mod:`bridgecore.audit`). What the hub then tells the director (the result message, the
alerts) becomes one line of ``tenace check --json`` again (:func:`board_line`), so that the
live path and the offline audit can be compared board by board.

The room (:class:`ReplaySetup`): one table per record (``R1``, ``R2``... in file order),
no movement, bidding-box mode (everything recorded, everything alerted), the chosen edition,
no clock-skew check (record times are historical). Each record gets its own hub board
number, because a hub board *is* its number (Law 2 dealer and vulnerability, the hand
record): the record's number when it is free and its dealer and vulnerability are the
Law 2 ones, else the first free number with the record's dealer and vulnerability (the
16-board cycle has every pair of them). The line reports the record's own number.

What the live path reports differently, and why (the test lists each real case):

* ``time`` of an irregularity is kept only when the record gives a time for every call
  and card; otherwise the device times are invented (one second apart) and what depends
  on them is dropped (``time``; ``elapsed`` and its words in a change of call's detail).
* A record that gives only a contract and a result (no auction) is entered as the shortest
  auction reaching that contract (passes up to declarer, the bid, the double by declarer's
  LHO, the redouble by his partner, three passes), or four passes for a passed-out board.
  A contract without a declarer cannot be entered.
* The reader reads the four pockets of a deal in play, a flawed one too (the hub must find
  the flaw from the pockets; it also holds the deal as the hand record, which it needs to
  name the owner of a card not in the player's hand). The cards of a deal that is flawed,
  partial (hands unknown, an end position) or absent are not played, since the audit judges
  no play on such a deal: declarer claims the record's result at once.
* A result that contradicts the play recorded (or is not 0-13) cannot be claimed: the
  board stays unfinished live, while the audit reports the file's result with a problem.
* Without a vulnerability in the record (no board number, no tag) the audit gives no score;
  the hub board has one, so its score is dropped, except for a passed-out board (0).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bridgecore.audit import read_setting
from bridgecore.calls import DOUBLE, PASS, REDOUBLE, Call, Contract, Risk
from bridgecore.cards import ALL_CARDS, Card, Seat
from bridgecore.deal import Deal, Hand
from bridgecore.editions import DEFAULT_EDITION, Edition
from bridgecore.editions import edition as edition_named
from bridgecore.irregularity import Kind
from bridgecore.play import Play
from bridgecore.record import GameRecord, RecordProblem
from bridgecore.vulnerability import Vulnerability
from hub.room import Room, Section
from tenace.sim.devices import DeviceEvent, VirtualDevice, envelopes

__all__ = ["BoardPlan", "Replay", "ReplaySetup", "board_line", "plan_replay",
           "record_events", "replay_local", "replay_records", "room_for"]

log = logging.getLogger(__name__)

SETUP_KIND = "replay"
ROUND = 1
_BRIDGECORE_KINDS = frozenset(k.value for k in Kind)
_DEAL_KINDS = frozenset({Kind.WRONG_CARD_COUNT.value, Kind.DUPLICATE_CARD.value,
                         Kind.MISSING_CARD.value})
_SEAT_ORDER = {seat.letter: i for i, seat in enumerate(Seat)}
_CARD_ORDER = {str(card): i for i, card in enumerate(ALL_CARDS)}
# Facts the hub adds to an irregularity's own JSON (hub/table.py): not part of the audit's.
_HUB_FACTS = ("final", "fits")


# What the record says, read as the audit reads it -----------------------------------------

@dataclass(frozen=True, slots=True)
class _Reading:
    """The record as bridgecore.audit reads it: dealer, vulnerability, contract, deal."""

    dealer: Seat | None
    vulnerability: Vulnerability | None
    contract: Contract | None
    passed_out: bool
    deal_in_play: bool      # a deal of four hands (flawed or not): the reader reads it
    deal_ok: bool           # ... and a valid one: its play can be judged


def _read(record: GameRecord, edition: Edition) -> _Reading:
    setting = read_setting(record, edition)
    deal = record.deal
    in_play = deal is not None and not deal.unknown and not deal.is_end_position
    return _Reading(setting.dealer, setting.vulnerability, setting.contract,
                    setting.passed_out, in_play,
                    in_play and deal is not None and not deal.problems())


def _entered_auction(contract: Contract | None, passed_out: bool,
                     dealer: Seat) -> list[tuple[Seat, Call]]:
    """The shortest auction from ``dealer`` reaching ``contract`` (or four passes)."""
    if passed_out:
        return [(dealer.offset(i), PASS) for i in range(4)]
    if contract is None or contract.declarer is None:
        return []
    declarer = contract.declarer
    calls: list[tuple[Seat, Call]] = []
    seat = dealer
    while seat is not declarer:
        calls.append((seat, PASS))
        seat = seat.lho
    calls.append((declarer, Call.bid(contract.level, contract.strain)))
    if contract.risk >= Risk.DOUBLED:
        calls.append((declarer.lho, DOUBLE))
        if contract.risk is Risk.REDOUBLED:
            calls.append((declarer.partner, REDOUBLE))
    last = calls[-1][0]
    calls += [(last.offset(i), PASS) for i in (1, 2, 3)]
    return calls


def _declared(record: GameRecord) -> int | None:
    return record.claim if record.claim is not None else record.result


def _claim(record: GameRecord, reading: _Reading, edition: Edition,
           problems: list[RecordProblem]) -> tuple[Seat, int] | None:
    """Declarer's claim that ends the board as the record does: (declarer, tricks of the
    remaining ones), or None (no claim: all 13 tricks played, no result, or one that does
    not fit, which goes to ``problems`` in the audit's words)."""
    contract = reading.contract
    if contract is None or contract.declarer is None or reading.passed_out:
        return None
    declarer = contract.declarer
    declared = _declared(record)
    if declared is not None and not 0 <= declared <= 13:
        problems.append(RecordProblem(f"the result {declared} does not fit: tricks are 0-13",
                                      record.file, record.line, record.board))
        return None
    if declared is None:
        return None
    if not record.plays or not reading.deal_ok:
        return declarer, declared
    assert record.deal is not None
    play = Play(record.deal, contract, edition)
    for c in record.plays:
        play.push(c.seat, c.card, c.time)
    if play.is_complete:
        return None
    remaining = 13 - len(play.completed_tricks)
    already = play.tricks_won(declarer.side)
    claimed = declared - already
    if 0 <= claimed <= remaining:
        return declarer, claimed
    problems.append(RecordProblem(
        f"the result {declared} does not fit the play so far "
        f"({already} tricks won by declarer, {remaining} to play)",
        record.file, record.line, record.board))
    return None


def _real_times(record: GameRecord) -> bool:
    """The record times every call and card (then those are the device times)."""
    times = [c.time for c in record.calls] + [c.time for c in record.plays]
    return bool(times) and all(t is not None for t in times)


# Events ------------------------------------------------------------------------------------

def record_events(record: GameRecord, table: str, *, board: int | None = None,
                  edition: Edition = DEFAULT_EDITION, start: float = 0.0,
                  problems: list[RecordProblem] | None = None) -> list[DeviceEvent]:
    """The events ``table``'s devices publish to play ``record`` (hub board ``board``,
    default the record's number). Devices, named as their accounts are (hub/access.py):
    ``{table}-tab`` (board, calls, claim and its acceptance) and ``{table}-rdr`` (the four
    pockets, the cards played). Device times are
    the record's when it times every act, else ``start`` + 1, + 2... seconds. Problems met
    (a result that cannot be claimed) are added to ``problems``."""
    number = record.board if board is None else board
    if number is None or number < 1:
        raise ValueError(f"board {number!r} of {record.file or '<input>'}:{record.line}: the "
                         "hub needs a board number of 1 or more (give board=)")
    reading = _read(record, edition)
    dealer = Seat.dealer_of(number)  # the hub's board is its number (Law 2)
    if reading.dealer is not None and reading.dealer is not dealer:
        raise ValueError(f"board {number} is dealt by {dealer}, the record's by "
                         f"{reading.dealer}: give a board number with that dealer")
    found: list[RecordProblem] = [] if problems is None else problems
    tablet, reader = f"{table}-tab", f"{table}-rdr"
    real = _real_times(record)
    times = [c.time for c in record.calls] + [c.time for c in record.plays]
    first = min((t for t in times if t is not None), default=start) if real else start
    clock = [first - 20.0 if real else start]  # the board and the pockets come first
    out: list[DeviceEvent] = []

    def emit(device: str, type_: str, body: dict[str, Any], when: float | None = None) -> None:
        clock[0] = when if when is not None else clock[0] + 1.0
        out.append(DeviceEvent(table, device, type_, body, clock[0]))

    emit(tablet, "board", {"board": number})
    deal = record.deal
    if reading.deal_in_play and deal is not None:
        for seat in Seat:
            emit(reader, "hand", {"seat": seat.letter, "when": "out", "board": number,
                                  "cards": [str(c) for c in deal[seat]]})
    if record.calls and reading.dealer is not None:
        for c in record.calls:
            body: dict[str, Any] = {"seat": c.seat.letter, "call": str(c.call)}
            if c.alert:
                body["alert"] = True
            if c.explanation is not None:
                body["explanation"] = c.explanation
            emit(tablet, "call", body, c.time if real else None)
    elif not record.calls:
        for seat, call in _entered_auction(reading.contract, reading.passed_out, dealer):
            emit(tablet, "call", {"seat": seat.letter, "call": str(call)})
    contract = reading.contract
    if contract is not None and contract.declarer is not None and reading.deal_ok:
        for card in record.plays:
            emit(reader, "card", {"seat": card.seat.letter, "card": str(card.card),
                                  "source": "record"}, card.time if real else None)
    claim = _claim(record, reading, edition, found)
    if claim is not None:
        declarer, tricks = claim
        when = record.plays[-1].time if real and record.plays and reading.deal_ok else None
        emit(tablet, "claim", {"seat": declarer.letter, "tricks": tricks}, when)
        for defender in (declarer.lho, declarer.rho):
            emit(tablet, "claim_answer", {"seat": defender.letter, "accept": True}, when)
    return out


# The room ----------------------------------------------------------------------------------

class ReplaySetup:
    """The hub's set-up for a replay (the service's ``RoomSetup``): tables, hand records by
    hub board number, edition. No movement, bidding-box mode, no clock-skew check."""

    def __init__(self, tables: Sequence[str], deals: Mapping[int, Deal],
                 edition: Edition = DEFAULT_EDITION):
        self.tables = list(tables)
        self.deals = dict(deals)
        self.edition = edition

    def to_json(self) -> dict[str, Any]:
        return {"kind": SETUP_KIND, "edition": self.edition.name, "tables": self.tables,
                "deals": {str(n): {s.letter: [str(c) for c in d[s]] for s in Seat}
                          for n, d in sorted(self.deals.items())}}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> ReplaySetup:
        if obj.get("kind") != SETUP_KIND:
            raise ValueError(f"not a replay set-up: kind {obj.get('kind')!r}")
        try:
            deals = {int(n): Deal({Seat.parse(s): Hand.of(Card.parse(c) for c in cards)
                                   for s, cards in hands.items()})
                     for n, hands in obj["deals"].items()}
            return cls([str(t) for t in obj["tables"]], deals, edition_named(obj["edition"]))
        except (KeyError, TypeError, AttributeError, ValueError) as err:
            raise ValueError(f"not a valid replay set-up: {err!r}") from err

    def build_room(self) -> Room:
        return Room(Section("replay", None, tables=self.tables), self.deals,
                    edition=self.edition, strict=False, clock_tolerance=None)


@dataclass(frozen=True, slots=True)
class BoardPlan:
    """One record and how it is played: at ``table``, as hub board ``board``, in ``round``.
    ``problems`` are the record's reading problems and those met planning its events."""

    index: int
    record: GameRecord
    table: str
    board: int
    events: tuple[DeviceEvent, ...]
    vulnerability_known: bool
    real_times: bool
    problems: tuple[str, ...] = ()
    round: int = ROUND


@dataclass(slots=True)
class Replay:
    """A file's replay: the hub's set-up and the plan of every board, in file order."""

    setup: ReplaySetup
    boards: list[BoardPlan] = field(default_factory=list)

    def scripts(self) -> dict[str, list[DeviceEvent]]:
        """Each table's events, in order (for :func:`tenace.sim.driver.run_tables`)."""
        out: dict[str, list[DeviceEvent]] = {}
        for plan in self.boards:
            out.setdefault(plan.table, []).extend(plan.events)
        return out

    def events(self) -> list[DeviceEvent]:
        return [e for plan in self.boards for e in plan.events]


def _hub_numbers(records: Sequence[GameRecord], readings: Sequence[_Reading]) -> list[int]:
    """A distinct hub board number per record, with the record's dealer and vulnerability:
    its own number when that fits, else the first free one that does."""
    used: set[int] = set()
    out: list[int | None] = [None] * len(records)

    def fits(n: int, reading: _Reading) -> bool:
        return (n not in used
                and (reading.dealer is None or Seat.dealer_of(n) is reading.dealer)
                and (reading.vulnerability is None
                     or Vulnerability.of_board(n) is reading.vulnerability))

    for i, (record, reading) in enumerate(zip(records, readings, strict=True)):
        if record.board is not None and record.board >= 1 and fits(record.board, reading):
            used.add(record.board)
            out[i] = record.board
    for i, reading in enumerate(readings):
        if out[i] is None:
            n = 1
            while not fits(n, reading):
                n += 1
            used.add(n)
            out[i] = n
    return [n for n in out if n is not None]


def plan_replay(records: Sequence[GameRecord], edition: Edition = DEFAULT_EDITION, *,
                tables: int | None = None, start: float = 0.0) -> Replay:
    """Plan the replay of ``records``: one table per record (``tables=None``), or the
    records dealt in turn to ``tables`` tables that play theirs in sequence."""
    readings = [_read(r, edition) for r in records]
    numbers = _hub_numbers(records, readings)
    count = len(records) if tables is None else max(1, min(tables, len(records)))
    ids = [f"R{i + 1}" for i in range(count)]
    deals = {n: r.deal for r, reading, n in zip(records, readings, numbers, strict=True)
             if reading.deal_in_play and r.deal is not None}
    replay = Replay(ReplaySetup(ids, deals, edition))
    clock = start
    for i, (record, reading, number) in enumerate(zip(records, readings, numbers,
                                                      strict=True)):
        found: list[RecordProblem] = []
        events = record_events(record, ids[i % count], board=number, edition=edition,
                               start=clock, problems=found)
        clock = max([clock, *(e.time for e in events)]) + 60.0
        replay.boards.append(BoardPlan(
            i, record, ids[i % count], number, tuple(events),
            reading.vulnerability is not None, _real_times(record),
            tuple(str(p) for p in [*record.problems, *found])))
    return replay


def room_for(records: Sequence[GameRecord], edition: Edition = DEFAULT_EDITION) -> Room:
    """A fresh room set up to replay ``records`` (see :func:`plan_replay`)."""
    return plan_replay(records, edition).setup.build_room()


# From what the director was told back to a line of ``tenace check --json`` ---------------

def _irregularity(alert: Mapping[str, Any], keep_time: bool) -> dict[str, Any]:
    facts = dict(alert.get("facts") or {})
    for key in _HUB_FACTS:
        facts.pop(key, None)
    if not keep_time:  # invented device times: what depends on them is dropped
        facts.pop("time", None)
        elapsed = facts.pop("elapsed", None)
        detail = facts.get("detail")
        if elapsed is not None and isinstance(detail, str):
            facts["detail"] = detail.removesuffix(f" ({elapsed:g} s later)")
    options = alert.get("options") or []
    if options:
        facts["options"] = [dict(o) for o in options]
    return facts


def _order(alert: Mapping[str, Any]) -> tuple[int, int, float]:
    """The audit's order: the deal (as :meth:`bridgecore.deal.Deal.problems` lists it: the
    counts seat by seat, then the cards in pack order; one alert per fact, first found by
    whichever pocket), then the auction and the play as found, the revokes last (in the
    order they were made). ``detected`` is the hub time of the first version; alerts found
    together keep the order given (the order raised)."""
    kind = alert.get("kind")
    detected = alert.get("detected")
    when = float(detected) if isinstance(detected, int | float) else 0.0
    if kind == Kind.REVOKE.value:
        return 3, 0, when
    if kind in _DEAL_KINDS and alert.get("call") is None and alert.get("trick") is None:
        facts = alert.get("facts") or {}
        seat, card = facts.get("seat"), facts.get("card")
        if isinstance(seat, str) and seat in _SEAT_ORDER:
            return 0, _SEAT_ORDER[seat], when
        if isinstance(card, str) and card in _CARD_ORDER:
            return 0, 4 + _CARD_ORDER[card], when
        return 0, 0, when
    return 1, 0, when


def _is_irregularity(alert: Mapping[str, Any]) -> bool:
    """An alert made from a bridgecore Irregularity (its facts are the irregularity's
    JSON), not one of the hub's own findings (pockets, seating, boards, results)."""
    facts = alert.get("facts") or {}
    kind = alert.get("kind")
    return kind in _BRIDGECORE_KINDS and facts.get("kind") == kind and "law" in facts


def board_line(plan: BoardPlan, result: Mapping[str, Any] | None,
               alerts: Iterable[Mapping[str, Any]], state: Mapping[str, Any] | None = None,
               refused: Iterable[str] = ()) -> dict[str, Any]:
    """One line of ``tenace check --json`` from what the hub said about ``plan``'s board.

    ``result``: the result message of that table and board (None: the board did not end);
    ``alerts``: alert JSON (``Alert.to_json``; others' tables and boards are ignored, the
    latest version of each id wins); ``state``: the table's public state after the board's
    last event (for the contract of a board that did not end); ``refused``: events the hub
    refused, as text (reported as problems)."""
    record = plan.record
    contract = declarer = tricks = rectified = score = None
    if result is not None:
        contract = result.get("contract")
        declarer = result.get("declarer")
        tricks = result.get("tricks")
        rectified = result.get("tricks_rectified")
        score = result.get("score_ns_rectified")
        if not plan.vulnerability_known and contract != "PASS":
            score = None
    elif state is not None and state.get("board") == plan.board and "contract" in state:
        contract = state.get("contract")
        declarer = state.get("declarer")
    latest: dict[str, Mapping[str, Any]] = {}
    for alert in alerts:
        if (alert.get("table") != plan.table or alert.get("board") != plan.board
                or alert.get("round") != plan.round or not _is_irregularity(alert)):
            continue
        old = latest.get(alert["id"])
        if old is None or alert.get("version", 0) >= old.get("version", 0):
            latest[alert["id"]] = alert
    ordered = sorted(latest.values(), key=_order)
    out: dict[str, Any] = {
        "board": record.board, "contract": contract, "declarer": declarer, "tricks": tricks,
        "tricks_rectified": rectified, "score_ns": score,
        "irregularities": [_irregularity(a, plan.real_times) for a in ordered],
    }
    problems = [*plan.problems, *refused]
    if problems:
        out["problems"] = problems
    return out


# Without a broker --------------------------------------------------------------------------

def replay_local(path: str, edition: str | Edition | None = None, *,
                 tables: int | None = None) -> list[dict[str, Any]]:
    """``tenace replay`` without a broker: the events go straight into a room
    (:meth:`hub.room.Room.apply`, hub time = device time); one line per board."""
    from tenace.commands import read_records

    return replay_records(read_records(path), edition, tables=tables)


def replay_records(records: Sequence[GameRecord], edition: str | Edition | None = None, *,
                   tables: int | None = None) -> list[dict[str, Any]]:
    """:func:`replay_local` for records already read."""
    ed = edition_named(edition)
    replay = plan_replay(records, ed, tables=tables)
    room = replay.setup.build_room()
    devices: dict[str, VirtualDevice] = {}
    lines = []
    for plan in replay.boards:
        refused: list[str] = []
        for table_id, env in envelopes(plan.events, devices=devices):
            reply = room.apply(table_id, env, env.time).reply
            if reply.status != "ack":
                refused.append(f"the hub refused {env.type} {env.body}: {reply.code}: "
                               f"{reply.reason}")
                log.warning("%s board %s: %s", plan.record.file or "<input>",
                            plan.record.board, refused[-1])
        table = room.tables[plan.table]
        sitting = table.sittings.get((plan.round, plan.board))
        result = None if sitting is None else table.result(sitting)
        if result is not None:
            result = dict(result, table=plan.table, round=plan.round, board=plan.board)
        alerts = [a.to_json() for a in room.alerts.of_table(plan.table)
                  if a.board == plan.board]
        # As the broker would carry them: JSON.
        wire = json.loads(json.dumps({"result": result, "alerts": alerts,
                                      "state": table.public_state()}))
        lines.append(board_line(plan, wire["result"], wire["alerts"], wire["state"], refused))
    return lines
