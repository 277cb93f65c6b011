"""Tempo from the hub's event log: every board played, each call and card timed.

:func:`boards_from_log` walks the log's device records (hub.store) table by table and
rebuilds, for each board played at each table, the :class:`bridgecore.tempo.BoardActions`
the tempo rules read: the board's start (its first ``board`` event), the calls (a call
taken back under Law 25A is dropped with those after it, as hub.table drops them), the
cards played (a card reported by both the reader and a tablet counted once, the first
report; a card faced during the auction is no play). Each time is the device's own, read on
the hub's clock: corrected by the offset the event itself declared (the envelope's
``offset``, hub clock minus the device's: docs/protocol.md section 6), else by
``offsets[device]`` (the same sense: the room's ``ClockBook``, hub.clock), so the corrected
time is ``device_time + offset``. Its precision is the source's (``Source.TAP`` for a tablet,
``Source.TAG`` for a card reader: bridgecore.tempo.PRECISION); an event without a device
time falls back on the hub's time of receipt (``Source.HUB``), and so does one whose time is
not believed: later than the hub received it (beyond the source's precision), or earlier
than the same device's previous event (a device cannot shape its own tempo evidence).

:func:`session_tempo` adds what the room knows (:class:`RoomFacts`, taken on the hub's
loop: the board's dealer from its markings, the round, the pairs) and marks the breaks in
tempo (bridgecore.tempo.mark_breaks); all of it reads only the log and those facts, so the
console runs it on a worker thread, never blocking the hub;
:func:`slow_play_report` is each table's and pair's time per board against the round's
allowance (Law 74B4); :func:`played_records` turns the boards into
:class:`~bridgecore.record.GameRecord` values whose PBN and LIN exports carry the times.
:func:`timeline_reference` is what a ruling records of the view it was given: the log
position the view was computed at and the SHA-256 of its JSON, so that the same view can
be computed again from the log (``upto``) and checked.

Players never see any of this: it is served on the director's console only.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bridgecore.auction import Auction
from bridgecore.calls import Call
from bridgecore.cards import Card, Seat
from bridgecore.deal import Deal
from bridgecore.errors import ParseError
from bridgecore.markings import Markings
from bridgecore.record import CallRecord, GameRecord
from bridgecore.tempo import (
    PRECISION,
    TEMPO_TABLE,
    Action,
    BoardActions,
    BoardTempo,
    Source,
    mark_breaks,
    record_calls_cards,
    slow_play,
    tempo_table,
    time_board,
)
from hub.log_records import StoredRecord
from hub.room import Room
from hub.sitting import Sitting

__all__ = ["LoggedBoard", "RoomFacts", "boards_from_log", "find_board", "played_records",
           "session_tempo", "slow_play_report", "timeline_reference"]

_SEATS = {s.letter: s for s in Seat}


@dataclass(slots=True)
class LoggedBoard:
    """A board at a table as the log tells it (module docstring)."""

    table: str
    board: int
    started_at: float | None
    actions: list[Action] = field(default_factory=list)
    pairs: dict[str, int] = field(default_factory=dict)   # "NS"/"EW" -> pair checked in
    last_position: int = 0

    def auction_over(self, dealer: Seat) -> bool:
        auction = Auction(dealer)
        for a in self.actions:
            if a.kind == "call":
                try:
                    auction.push(a.seat, Call.parse(a.item))
                except (ParseError, ValueError):
                    continue
        return auction.is_over


def _time(record: StoredRecord, offsets: Mapping[str, float], source: Source,
          last: dict[str, float]) -> tuple[float, Source]:
    """When the action was made, and how that time was taken. A device's time (on the hub's
    clock) is believed only between the device's previous event and the hub's receipt of
    this one, the source's precision given (issue 23: a device must not shape its own
    tempo evidence); out of those bounds the hub's time of receipt is taken (``Source.HUB``)."""
    device = record.device or ""
    if record.device_time is None:
        at, source = record.hub_time, Source.HUB
    else:
        declared = _declared_offset(record)
        offset = declared if declared is not None else offsets.get(device, 0.0)
        at = record.device_time + offset
        before = last.get(device)
        if at > record.hub_time + PRECISION[source] or (before is not None and at < before):
            at, source = record.hub_time, Source.HUB
    last[device] = at
    return at, source


def _declared_offset(record: StoredRecord) -> float | None:
    """The clock offset the logged envelope declared (hub.clock), None without one."""
    if '"offset"' not in record.payload:
        return None
    try:
        value = json.loads(record.payload).get("offset")
    except (ValueError, AttributeError):
        return None
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) \
        else None


def boards_from_log(records: Iterable[StoredRecord], offsets: Mapping[str, float] | None = None,
                    *, dealer_of: Any = None, upto: int | None = None) -> list[LoggedBoard]:
    """Every board played at every table, in the order each was started (module
    docstring). ``dealer_of(board)`` gives a board's dealer (default Law 2); ``upto`` stops
    at that log position (the view as it was then)."""
    offsets = offsets or {}
    dealer = dealer_of or Seat.dealer_of
    boards: dict[tuple[str, int], LoggedBoard] = {}
    current: dict[str, LoggedBoard] = {}
    pairs: dict[str, dict[str, int]] = {}
    last: dict[str, float] = {}     # device -> the time of its previous event (_time)
    for r in records:
        if upto is not None and r.position > upto:
            break
        if r.source != "device" or r.table_id is None:
            continue
        try:
            body = r.data().get("body") or {}
        except (ValueError, AttributeError):
            continue
        tid = r.table_id
        if (r.type == "checkin" and body.get("direction") in ("NS", "EW")
                and isinstance(body.get("pair"), int)):
            pairs.setdefault(tid, {})[body["direction"]] = body["pair"]
        elif r.type == "board" and isinstance(body.get("board"), int):
            key = (tid, body["board"])
            found = boards.get(key)
            if found is None:
                at, _ = _time(r, offsets, Source.TAP, last)
                found = boards[key] = LoggedBoard(tid, body["board"], at)
            found.pairs.update(pairs.get(tid, {}))
            found.last_position = r.position
            current[tid] = found
        elif r.type in ("call", "card", "undo") and tid in current:
            b = current[tid]
            seat = _SEATS.get(str(body.get("seat")))
            if seat is None:
                continue
            b.last_position = r.position
            if r.type == "call":
                _call(b, r, body, seat, offsets, last)
            elif r.type == "undo":
                mine = [i for i, a in enumerate(b.actions) if a.kind == "call" and a.seat is seat]
                if mine and not any(a.kind == "card" for a in b.actions):
                    del b.actions[mine[-1]:]
            else:
                _card(b, r, body, seat, offsets, dealer(b.board), last)
    return list(boards.values())


def _call(b: LoggedBoard, r: StoredRecord, body: Mapping[str, Any], seat: Seat,
          offsets: Mapping[str, float], last: dict[str, float]) -> None:
    try:
        call = Call.parse(str(body.get("call")))
    except (ParseError, ValueError):
        return
    at, source = _time(r, offsets, Source.TAP, last)
    b.actions.append(Action("call", seat, str(call), at, source, r.device,
                            bool(body.get("stop"))))


def _card(b: LoggedBoard, r: StoredRecord, body: Mapping[str, Any], seat: Seat,
          offsets: Mapping[str, float], dealer: Seat, last: dict[str, float]) -> None:
    try:
        card = Card.parse(str(body.get("card")))
    except (ParseError, ValueError):
        return   # a foreign tag (Law 1): not a card of the play
    if any(a.kind == "card" and a.item == str(card) for a in b.actions):
        return   # reported twice (reader and tablet): the first report counts
    if not b.auction_over(dealer):
        return   # faced during the auction (Law 24): no play
    at, source = _time(r, offsets, Source.TAG if body.get("source") == "reader"
                       else Source.TAP, last)
    b.actions.append(Action("card", seat, str(card), at, source, r.device))


@dataclass(frozen=True, slots=True)
class RoomFacts:
    """What the tempo needs of the room, taken on the hub's loop (:meth:`of`) so that the
    rest can run on a worker thread: each board's markings and deal, and for each board
    played at each table its round and pairs, the round's minutes and boards."""

    markings: Mapping[int, Markings]
    deals: Mapping[int, Deal]
    seating: Mapping[tuple[str, int], tuple[int, int | None, int | None]]
    boards_per_round: Mapping[tuple[str, int], int]
    minutes: float
    # (table, board) -> (seat, call, its occurrence by that seat, explanation): what the
    # exports write beside each explained call (PBN notes, LIN an|; hub.explain).
    explained: Mapping[tuple[str, int], tuple[tuple[str, str, int, str], ...]] = field(
        default_factory=dict)

    @classmethod
    def of(cls, room: Room) -> RoomFacts:
        numbers = room.board_numbers()
        seating: dict[tuple[str, int], tuple[int, int | None, int | None]] = {}
        per_round: dict[tuple[str, int], int] = {}
        for tid, state in room.tables.items():
            for rnd, number in state.sittings:
                seating[(tid, number)] = (rnd, *state.pairs(rnd))
                a = room.assignment(tid, rnd)
                per_round[(tid, rnd)] = len(a.boards) if a is not None and a.boards else 1
                numbers.append(number)
        explained = {(tid, number): call_notes(sitting)
                     for tid, state in room.tables.items()
                     for (_, number), sitting in state.sittings.items()}
        return cls({n: room.markings(n) for n in numbers},
                   {n: d for n in numbers if (d := room.deal(n)) is not None},
                   seating, per_round, room.clock.minutes,
                   {k: v for k, v in explained.items() if v})

    def marks(self, board: int) -> Markings:
        found = self.markings.get(board)
        return found if found is not None else Markings.of_board(board)

    def allowance(self, table: str, round: int | None) -> float:
        """Seconds a board at ``table`` in ``round``: the round's minutes over its boards."""
        boards = 1 if round is None else self.boards_per_round.get((table, round), 1)
        return self.minutes * 60.0 / boards


def session_tempo(facts: RoomFacts, records: Iterable[StoredRecord],
                  offsets: Mapping[str, float] | None = None, *,
                  upto: int | None = None) -> list[BoardTempo]:
    """Every board of the session timed and marked (bridgecore.tempo)."""
    def dealer_of(board: int) -> Seat:
        return facts.marks(board).dealer

    out = []
    for b in boards_from_log(records, offsets, dealer_of=dealer_of, upto=upto):
        rnd, ns, ew = facts.seating.get((b.table, b.board),
                                        (None, b.pairs.get("NS"), b.pairs.get("EW")))
        out.append(time_board(BoardActions(
            b.table, b.board, dealer_of(b.board), tuple(b.actions), b.started_at, rnd,
            None if ns is None else str(ns), None if ew is None else str(ew))))
    return mark_breaks(out)


def find_board(boards: Iterable[BoardTempo], table: str, board: int) -> BoardTempo | None:
    return next((b for b in boards if b.table == table and b.board == board), None)


def slow_play_report(facts: RoomFacts, boards: Iterable[BoardTempo]) -> dict[str, Any]:
    """Each board at each table against its allowance, and each pair's total (Law 74B4;
    a penalty for slow play is the director's, Law 90)."""
    rows = []
    totals: dict[str, dict[str, float]] = {}
    for b in boards:
        (row,) = slow_play([b], facts.allowance(b.table, b.round))
        rows.append(row.to_json())
        for side, seconds in row.sides.items():
            pair = row.pairs.get(side)
            if pair is None:
                continue
            t = totals.setdefault(pair, {"seconds": 0.0, "allowance": 0.0, "boards": 0})
            t["seconds"] += seconds
            t["allowance"] += row.allowance / 2
            t["boards"] += 1
    pairs = [{"pair": p, "seconds": round(t["seconds"], 3), "share": round(t["allowance"], 3),
              "boards": int(t["boards"]), "over": t["seconds"] > t["allowance"]}
             for p, t in sorted(totals.items(), key=lambda kv: -kv[1]["seconds"])]
    return {"law": "74B4", "minutes_per_round": facts.minutes, "boards": rows,
            "pairs": pairs, "slow_tables": sorted({r["table"] for r in rows if r["over"]})}


def played_records(facts: RoomFacts, boards: Iterable[BoardTempo]) -> list[GameRecord]:
    """Each board played as a :class:`GameRecord` with its deal and every call and card
    with its time (and the board's start, sources and STOP cards in its TempoTable)."""
    out = []
    for b in boards:
        actions = [Action(a.kind if a.kind == "call" else "card", a.seat, a.item, a.at,
                          a.source, a.device, a.stop) for a in b.actions]
        calls, cards = record_calls_cards(actions)
        calls = with_notes(calls, facts.explained.get((b.table, b.board), ()))
        marks = facts.marks(b.board)
        record = GameRecord(board=b.board, dealer=marks.dealer,
                            vulnerability=marks.vulnerability, deal=facts.deals.get(b.board),
                            calls=calls, plays=cards)
        auction = Auction(marks.dealer)
        for c in calls:
            if not auction.is_over:
                auction.push(c.seat, c.call)
        record.auction_complete = auction.is_over
        record.passed_out = auction.is_passed_out
        record.contract = auction.contract
        record.declarer = auction.declarer
        record.play_complete = len(cards) == 52
        record.tags.update({"Event": "Tenace", "Table": b.table, "Board": str(b.board)})
        if b.round is not None:
            record.tags["Round"] = str(b.round)
        if b.ns is not None:
            record.tags["PairNS"] = b.ns
        if b.ew is not None:
            record.tags["PairEW"] = b.ew
        sources = [a.source for a in b.actions]
        stops = [i for i, a in enumerate(b.actions) if a.kind == "call" and a.stop]
        table = tempo_table(record, started_at=b.started_at, sources=sources, stops=stops)
        if table is not None:
            record.tables[TEMPO_TABLE] = table
            record.tags[TEMPO_TABLE] = ";".join(table.columns)
        out.append(record)
    return out


def call_notes(sitting: Sitting) -> tuple[tuple[str, str, int, str], ...]:
    """Each explained call of a board: the explanation the opponents were given (hub.explain),
    else the caller's own note; with the call's occurrence among that seat's same calls."""
    given = {e.call: e.text for e in sitting.explained}
    out = []
    seen: dict[tuple[str, str], int] = {}
    for entry in sitting.board.auction.entries:
        key = (entry.seat.letter, str(entry.call))
        seen[key] = k = seen.get(key, 0) + 1
        text = given.get(entry.index) or entry.explanation
        if text:
            out.append((*key, k, text))
    return tuple(out)


def with_notes(calls: list[CallRecord],
               notes: Iterable[tuple[str, str, int, str]]) -> list[CallRecord]:
    """``calls`` with each explained one's explanation beside it (its k-th occurrence)."""
    wanted = {(seat, call, k): text for seat, call, k, text in notes}
    if not wanted:
        return calls
    seen: dict[tuple[str, str], int] = {}
    out = []
    for c in calls:
        key = (c.seat.letter, str(c.call))
        seen[key] = k = seen.get(key, 0) + 1
        text = wanted.get((*key, k))
        out.append(c if text is None else replace(c, alert=True, explanation=text))
    return out


def timeline_reference(view: Mapping[str, Any], position: int) -> str:
    """What a ruling records of a timeline view: where to compute it again and its digest."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False)
    digest = hashlib.sha256(text.encode("ascii")).hexdigest()
    return (f"tempo view table {view.get('table')} board {view.get('board')} at log "
            f"position {position} (sha256 {digest})")
