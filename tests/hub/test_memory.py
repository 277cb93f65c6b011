"""The hub's memory across a session (issue 16: flat). A board the table can no longer come
back to (over, and the table in a later round) keeps its record and result and drops what
only the play in progress needed (hub.sitting.Sitting.settle): no undo states, no card
sources, no reads' state; the accepted events' ids are runs of numbers per device
(hub.seen). Structural bounds only: the bytes are benchmarks/memory.py's."""

from __future__ import annotations

import gc
import inspect
import random
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from bridgecore.bigdeal import random_deal
from bridgecore.cards import Seat
from bridgecore.errors import StateError
from bridgecore.movements import mitchell
from hub.ordering import TableOrder
from hub.room import Room, Section
from hub.seen import EventIds
from hub.sitting import Sitting
from hub.table import TableState
from tenace.sim.chaos import results_of
from tenace.sim.devices import envelopes
from tenace.sim.noise import ReaderNoise
from tenace.sim.session import run_local, simulate
from wire.protocol import Envelope

BOARDS_PER_ROUND = 3
INJECT = {"revoke": 0.05, "lead_out_of_turn": 0.05, "insufficient_bid": 0.05,
          "result_disagrees": 0.05}


def _session() -> tuple[Room, dict[str, Any]]:
    movement = mitchell(4, boards_per_round=BOARDS_PER_ROUND)
    deals = {b: random_deal(random.Random(b)) for b in movement.boards}
    script = simulate(Section("A", movement), deals, seed=7, inject=INJECT,
                      reader_noise=ReaderNoise(missed=0.02, cross=0.02, late=0.02, repeat=0.02))
    room = Room(Section("A", movement), deals)
    report = run_local(room, script)
    return room, report


def test_a_finished_board_of_an_earlier_round_keeps_only_its_record() -> None:
    room, report = _session()
    assert report["rejected"] == []
    settled = 0
    for table in room.tables.values():
        for (r, _), s in table.sittings.items():
            if s is table.sitting or r >= table.round or not s.over:
                continue
            settled += 1
            assert s.card_source == {} and s.play_keys == {}
            with pytest.raises(StateError):
                s.board.pop()   # no undo states kept
            assert table.result(s) is not None and s.board.auction.entries
        # the reads' state of the boards the table can still come back to, no more
        assert len(table._read_states) <= BOARDS_PER_ROUND + 1
    assert settled >= len(room.tables) * BOARDS_PER_ROUND * (room.clock.round or 1) // 2


def test_settling_changes_nothing_a_consumer_sees(monkeypatch: pytest.MonkeyPatch) -> None:
    """The snapshot (every record, result, alert and view) and the scores are the same
    whether finished boards are settled or kept whole."""
    settled, _ = _session()
    monkeypatch.setattr(Sitting, "settle", lambda self: None)
    whole, _ = _session()
    assert settled.snapshot() == whole.snapshot()
    assert results_of(settled) == results_of(whole)


def test_event_ids_behave_as_a_set_of_strings() -> None:
    """hub.seen.EventIds against a set, on ids of every shape: the outbox's, the
    simulator's, numbers out of order and repeated, and ids that only look numbered."""
    rng = random.Random(16)
    shapes = [lambda n: f"A1-tab-k3x9-{n:06d}", lambda n: f"A1-rdr-{n:06d}",
              lambda n: f"B2-N-{n:07d}", lambda n: f"x-{n:05d}", lambda n: f"x-0{n:06d}",
              lambda n: f"{n:06d}", lambda n: f"-{n:06d}", lambda n: f"id{n}",
              lambda n: f"C-{n:06d}".replace("0", "\u0660"), lambda n: f"C--{n:06d}"]
    ids, truth = EventIds(), set()
    for _ in range(5000):
        shape = rng.choice(shapes)
        event_id = shape(rng.choice([rng.randrange(1, 40), rng.randrange(1, 10**7)]))
        assert (event_id in ids) == (event_id in truth), event_id
        ids.add(event_id)
        truth.add(event_id)
        assert len(ids) == len(truth) and bool(ids)
    probes = [shape(n) for shape in shapes for n in range(0, 60)]
    assert [p in ids for p in probes] == [p in truth for p in probes]
    assert not EventIds() and 5 not in ids


def test_a_session_keeps_its_event_ids_in_runs() -> None:
    """A device's ids numbered one after the other are one run, whatever the session's
    length: the room's memory of them does not grow with its events."""
    room, report = _session()
    seen = room._seen
    assert len(seen) == report["events"] > 0 and not seen._other
    assert all(len(runs.starts) <= 2 for runs in seen._runs.values())


# Issue 27: what a board leaves beside its record --------------------------------------------

_ROOT = Path(__file__).resolve().parents[2]
BOOKKEEPING = ("hub/room.py", "hub/ordering.py", "hub/seen.py", "hub/reads.py", "hub/table.py",
               "hub/sitting.py", "hub/clock.py", "hub/late_changes.py", "hub/fairness.py")
"""The modules of the per-event paths (the table, the ordering, the room): what they keep of
a board once it is settled is not its record."""
RECORD_MAKERS = (TableState._start_board, TableState.evidence, Room.mark_played,
                 Sitting.pocket_out, Sitting.found_revoke)
"""Where those modules make a board's record: its sitting and board (the record itself), the
evidence an alert keeps for the director, which pair played which board (the movement kept),
the pockets read out and not back (which replay reproduces) and the revokes found on it (Law
64: what the director rules on). Before issue 27 every sitting made those sets, empty, in
``_start_board``; they are now made when something goes in them."""


def _lines(functions: tuple[Any, ...]) -> set[tuple[str, int]]:
    out: set[tuple[str, int]] = set()
    for f in functions:
        lines, first = inspect.getsourcelines(f)
        name = str(Path(inspect.getsourcefile(f) or "").resolve().relative_to(_ROOT))
        out.update((name, n) for n in range(first, first + len(lines)))
    return out


def _bookkeeping(snapshot: tracemalloc.Snapshot, record: set[tuple[str, int]]) -> int:
    """Bytes whose innermost frame in this repository is a bookkeeping module's, outside
    the functions that make the record."""
    total = 0
    for stat in snapshot.statistics("traceback"):
        for frame in reversed(stat.traceback):     # innermost first
            try:
                name = str(Path(frame.filename).resolve().relative_to(_ROOT))
            except ValueError:
                continue
            if name in BOOKKEEPING and (name, frame.lineno) not in record:
                total += stat.size
            break
    return total


def test_a_settled_board_leaves_little_beside_its_record() -> None:
    """The memory the per-event paths keep grows by a few hundred bytes a board played at
    most, measured between the starts of rounds 2 and 5 (the same moment of a round: every
    earlier board settled, the round begun), the table's view built at each board as the
    hub publishes it. Before issue 27 the room kept every table's schedule of every round
    (about 600 B a board played here); then the ordering kept a dictionary of sittings and a
    tuple made per event beside its tallies (414 B; 298 B since)."""
    movement = mitchell(5, boards_per_round=BOARDS_PER_ROUND)
    deals = {b: random_deal(random.Random(b)) for b in movement.boards}
    script = simulate(Section("A", movement), deals, seed=27, inject=INJECT,
                      reader_noise=ReaderNoise(missed=0.02, cross=0.02, late=0.02, repeat=0.02))
    events = envelopes(script.merged())
    room = Room(Section("A", movement), deals)
    record = _lines(RECORD_MAKERS)
    started = dict.fromkeys(room.tables, 0)   # boards begun at each table
    marks = {2: 0, 5: 0}                      # round -> bytes kept by the bookkeeping
    sittings = {}
    tracemalloc.start(5)
    try:
        for table, env in events:
            if env.type == "board":
                # A full collection empties the interpreter's free lists: a block freed into
                # one keeps the place that first allocated it, and whatever reuses it (a
                # board's record made from a dict the room's schedule freed) would be
                # counted there. Collected at every board, each block has its own place.
                gc.collect()
                started[table] += 1
                low = min(started.values())
                for r in marks:
                    if low == BOARDS_PER_ROUND * (r - 1) + 1 and r not in sittings:
                        gc.collect()
                        marks[r] = _bookkeeping(tracemalloc.take_snapshot(), record)
                        sittings[r] = sum(len(t.sittings) for t in room.tables.values())
            out = room.apply(table, env, env.time)
            if env.type == "board" and out.state_changed:   # the view the hub publishes
                room.tables[table].public_state()
    finally:
        tracemalloc.stop()
    assert set(sittings) == {2, 5}, sittings
    played = sittings[5] - sittings[2]
    assert played >= 3 * len(room.tables) * BOARDS_PER_ROUND
    per_board = (marks[5] - marks[2]) / played
    print(f"bookkeeping kept per board played: {per_board:.0f} B "
          f"({marks[2]} B at round 2, {marks[5]} B at round 5)")
    assert per_board < 400


def test_what_a_board_seldom_fills_costs_nothing_until_filled() -> None:
    """Issue 27: a sitting's pockets out, revokes, exposed cards, STOP cards, explanations
    and questions are tuples, the one empty tuple until something goes in (three empty sets
    and four empty lists were about 870 bytes a board); they keep the order and behave as
    the sets did (one entry per seat or key)."""
    room, _ = _session()
    sittings = [s for t in room.tables.values() for s in t.sittings.values()]
    assert sittings
    for s in sittings:
        for name in ("out", "revokes", "unestablished", "exposed", "stops", "explained",
                     "asked"):
            value = getattr(s, name)
            assert isinstance(value, tuple) and (value or value == ())
        assert len(set(s.out)) == len(s.out) and set(s.unestablished) <= set(s.revokes)
    s = sittings[0]
    s.out = ()
    s.pocket_out(Seat.NORTH)
    s.pocket_out(Seat.EAST)
    s.pocket_out(Seat.NORTH)
    assert s.out == (Seat.NORTH, Seat.EAST)
    s.pocket_back(Seat.SOUTH)
    s.pocket_back(Seat.NORTH)
    s.pocket_back(Seat.EAST)
    assert s.out == ()
    s.revokes = s.unestablished = ()
    for key in ("A1:r1:b1:revoke:N:3", "A1:r1:b1:revoke:E:5", "A1:r1:b1:revoke:N:3"):
        s.found_revoke(key)
    assert s.revokes == s.unestablished == ("A1:r1:b1:revoke:N:3", "A1:r1:b1:revoke:E:5")
    s.revoke_established("A1:r1:b1:revoke:N:3")
    s.revoke_established("A1:r1:b1:revoke:W:7")
    assert s.unestablished == ("A1:r1:b1:revoke:E:5",) and len(s.revokes) == 2


def test_a_tally_keeps_its_sitting_and_a_new_sitting_of_the_board_starts_anew() -> None:
    """The ordering keeps which sitting each board's tally counts in the tally itself (no
    dictionary beside it, no tuple made per event): counts noted before the table reached
    the board stay with the sitting that reaches it; another sitting of the board starts a
    new tally; a board of an earlier round keeps its counts, not its cards."""
    room, _ = _session()
    order = TableOrder()
    first, later = _two_sittings(room)
    card = Envelope(id="A1-rdr-000001", device="A1-rdr", seq=1, time=1.0, type="card",
                    body={"seat": "N", "card": "SA"}, at={"board": 7})
    order.note(card, None)                  # the board named before the table is at it
    assert order.tallies[7].cards == 1 and order.tallies[7].played
    order.reached(7, first)
    assert order.tallies[7].cards == 1 and order.tallies[7].sitting is first
    order.note(card, 7, first)
    assert order.tallies[7].cards == 2
    order.reached(8, later)                 # a later round: board 7's cards are let go
    assert order.tallies[7].played is None and order.tallies[7].cards == 2
    order.reached(7, later)                 # board 7 played again in another sitting
    assert order.tallies[7].cards == 0 and order.tallies[7].sitting is later
    assert not hasattr(order, "_sittings")


def _two_sittings(room: Room) -> tuple[Sitting, Sitting]:
    table = next(iter(room.tables.values()))
    ordered = sorted(table.sittings.items(), key=lambda kv: kv[0])
    first = ordered[0][1]
    later = next(s for _, s in ordered if s.round > first.round)
    return first, later
