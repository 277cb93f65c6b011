"""The hub's memory across a whole session (issue 16: flat). Prints figures; asserts nothing.

    python benchmarks/memory.py [--tables 20] [--sections 2] [--through room|hub]
                                [--frames 12] [--seed 2026] [--sites N] [--json]

``--tables`` tables in ``--sections`` Mitchell sections play 9 rounds of 3 boards (27 boards
a table) at a compressed pace, irregularities injected (the championship's set-up and
script, :mod:`tenace.sim.championship`), in this process with no network:

* ``--through room`` (default): each event straight into a :class:`hub.room.Room`, as
  :func:`tenace.sim.chaos.clean_room` does;
* ``--through hub``: each event as the MQTT message a device publishes, in batches, into a
  :class:`hub.service.Hub` without a broker (its event log in a temporary folder, the live
  scores published after each batch): what the hub process keeps beside its room.

Python's allocations are traced (:mod:`tracemalloc`, ``--frames`` deep) from the set-up
built; at boards 1, 3 (the end of the first round), 9, 18 and 27 (every table has finished
that many boards), after a garbage collection, it prints the memory traced, the process's
RSS, and the memory added per sitting (a board played at a table) since the end of the first
round and since the mark before. At board 27 every table's last round is still whole (a
board is settled when its table is in a later round: hub.table.TableState.settle_finished),
so the last step counts one round of boards in full. What is kept for the results (a
finished board's record and result, the scores: the modules of :data:`RESULT_OWNERS`)
legitimately grows with the boards played: it is printed apart from the rest
(``transient``), whose ratio last/first after the first round is the figure (flat: about
1.0). Then the bytes added per sitting from board 9 to 18, by the module that allocated them
(the innermost frame of this repository), and with ``--sites`` by line: both marks are taken
as the slowest table begins a round (rounds 4 and 7), the boards before it settled and the
round begun alike, where board 27 holds the last round whole (issue 27: from 9 to 27 a
round's play in progress counted as growth).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import tempfile
import tracemalloc
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tenace.sim.championship import PROBE_SECTION, championship_setup
from tenace.sim.devices import envelopes
from tenace.sim.session import simulate

INJECT = {"revoke": 0.01, "lead_out_of_turn": 0.01, "call_out_of_rotation": 0.01,
          "insufficient_bid": 0.01, "wrong_board": 0.005, "result_disagrees": 0.01,
          "director_call": 0.01}
ROOT = Path(__file__).resolve().parents[1]
MARKS = (1, 3, 9, 18, 27)
RESULT_OWNERS = frozenset({"bridgecore.auction", "bridgecore.play", "bridgecore.tricks",
                           "bridgecore.board", "bridgecore.claims", "bridgecore.ranking",
                           "bridgecore.rescoring", "bridgecore.scoring", "hub.scoring",
                           "hub.traveller", "hub.pockets"})
"""Where a finished board's record (auction, tricks, claims, the pockets read) and the
scores are allocated: what the results, the console and the exports need of every board."""


def _rss() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


_PACKAGES = ("hub", "bridgecore", "wire")


def _owner(trace: Any, line: bool = False) -> str:
    """The module (with ``line``: and line) of the innermost frame of this repository that
    made the allocation."""
    for frame in reversed(trace):   # a traceback runs from the oldest frame
        try:
            rel = Path(frame.filename).resolve().relative_to(ROOT)
        except ValueError:
            continue
        if rel.parts and rel.parts[0] in _PACKAGES:
            name = ".".join(rel.with_suffix("").parts)
            return f"{name}:{frame.lineno}" if line else name
    return "other"


def _by_owner(snapshot: tracemalloc.Snapshot, line: bool = False) -> Counter[str]:
    sizes: Counter[str] = Counter()
    for stat in snapshot.statistics("traceback"):
        sizes[_owner(stat.traceback, line)] += stat.size
    return sizes


class _Player:
    """Applies the events one by one (``--through room``) or in batches (``hub``)."""

    def __init__(self, setup: Any, through: str, folder: Path, batch: int = 64):
        self.through = through
        self.batch = batch
        self._pending: list[Any] = []
        self._now = 0.0
        if through == "room":
            self.room = setup.build_room()
            self.hub = None
            return
        from hub.fairness import DeviceBuckets
        from hub.service import Hub, data_log

        def loader(obj: dict[str, Any]) -> Any:
            return setup

        self.hub = Hub(data_log(folder), url="mqtt://127.0.0.1:1", setup=setup,
                       setup_loader=loader, clock=lambda: self._now, double_dummy=False,
                       score_interval=0)
        # The devices' rate is measured on the session's clock, as the hub's is here: on the
        # wall clock the events pumped as fast as this process goes were refused
        # (rate_limited) and, no device sending them again here, every later event of their
        # board was held for the rest of the session (issue 27: 1.4 kB a board "kept").
        self.hub.fairness = DeviceBuckets(clock=lambda: self._now)
        self.room = self.hub.room

    def play(self, table: str, env: Any) -> None:
        if self.hub is None:
            self.room.apply(table, env, env.time)
            return
        from wire.mqtt import Message
        from wire.protocol import topic_event

        self._pending.append(Message(topic_event(table, env.device), env.to_json().encode(),
                                     1))
        self._now = env.time
        if len(self._pending) >= self.batch:
            self.flush()

    def flush(self) -> None:
        if self.hub is not None and self._pending:
            self.hub.handle(self._pending)
            self._pending = []

    def sittings(self) -> int:
        return sum(len(t.sittings) for t in self.room.tables.values())

    def close(self) -> None:
        if self.hub is not None:
            self.hub.log.close()


def measure(tables: int, sections: int, through: str, frames: int, seed: int,
            sites: int = 0, say: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    """The figures of one run (module docstring), as JSON values."""
    setup = championship_setup(tables, sections, 3, 9, seed)
    room = setup.build_room()
    played = [s for s in room.sections if s.name != PROBE_SECTION]
    script = simulate(played, {n: room.deal(n) for n in setup.deals}, seed=seed,
                      inject=INJECT, pace=0.05, edition=room.edition)
    events = script.merged()
    pairs = envelopes(events)
    ids = {t for s in played for t in s.ids.values()}
    del room
    say(f"{len(events):,} events, {len(ids)} tables")
    gc.collect()
    rows: list[dict[str, Any]] = []
    owners: dict[int, Counter[str]] = {}
    lines: dict[int, Counter[str]] = {}
    with tempfile.TemporaryDirectory(prefix="tenace-memory-") as tmp:
        tracemalloc.start(frames)
        player = _Player(setup, through, Path(tmp))
        gc.collect()
        base = tracemalloc.get_traced_memory()[0]
        finished = dict.fromkeys(ids, -1)   # boards finished per table (a board event: +1)
        low = -1
        marks = list(MARKS)

        def take(mark: int) -> None:
            player.flush()
            gc.collect()
            snap = tracemalloc.take_snapshot()
            owners[mark] = _by_owner(snap)
            if sites and mark in (9, 18):
                lines[mark] = _by_owner(snap, line=True)
            traced = tracemalloc.get_traced_memory()[0] - base
            kept = sum(v for k, v in owners[mark].items() if k in RESULT_OWNERS)
            rows.append({"board": mark, "sittings": player.sittings(), "traced": traced,
                         "results": kept, "transient": traced - kept, "rss": _rss()})
            say(f"board {mark}: {traced / 2**20:.1f} MiB traced")

        for (table, env), event in zip(pairs, events, strict=True):
            if event.type == "board" and table in finished:
                finished[table] += 1
                low = min(finished.values())
                while marks and low >= marks[0] and marks[0] < 27:
                    take(marks.pop(0))
            player.play(table, env)
        take(27)
        player.close()
        tracemalloc.stop()
    first = next(r for r in rows if r["board"] == 3)
    last = rows[-1]
    prev = None
    for r in rows:
        extra = r["sittings"] - first["sittings"]
        r["per_sitting"] = (r["traced"] - first["traced"]) / extra if extra > 0 else None
        step = 0 if prev is None else r["sittings"] - prev["sittings"]
        r["interval"] = (r["traced"] - prev["traced"]) / step if prev and step > 0 else None
        prev = r
    nine = next(r for r in rows if r["board"] == 9)
    span = last["sittings"] - nine["sittings"]
    eighteen = next(r for r in rows if r["board"] == 18)
    span18 = eighteen["sittings"] - nine["sittings"]
    growth = owners[18] - owners[9]
    by_owner = {k: round(v / span18) for k, v in growth.most_common()
                if span18 and v / span18 >= 50}
    return {
        "tables": len(ids), "sections": sections, "through": through, "events": len(events),
        "marks": rows,
        "ratio_traced": last["traced"] / first["traced"],
        "ratio_transient": last["transient"] / first["transient"],
        "ratio_results": last["results"] / first["results"] if first["results"] else None,
        "ratio_rss": last["rss"] / first["rss"] if first["rss"] else None,
        "per_sitting_9_27": (last["traced"] - nine["traced"]) / span if span else None,
        "per_sitting_by_owner": by_owner,
        "per_sitting_9_18": (eighteen["traced"] - nine["traced"]) / span18 if span18 else None,
        "per_sitting_by_line": {k: round(v / span18) for k, v in
                                (lines[18] - lines[9]).most_common(sites)} if sites else {},
    }


def _report(out: dict[str, Any]) -> None:
    print(f"{out['tables']} tables x 27 boards through the {out['through']}, "
          f"{out['events']:,} events; memory traced from the set-up built")
    print(f"{'board':>5} {'sittings':>9} {'traced MiB':>11} {'results MiB':>12} "
          f"{'transient MiB':>14} {'RSS MiB':>8} {'B/sitting since board 3':>24} "
          f"{'since the mark before':>22}")
    for r in out["marks"]:
        per = "" if r["per_sitting"] is None else f"{r['per_sitting']:,.0f}"
        step = "" if r["interval"] is None else f"{r['interval']:,.0f}"
        print(f"{r['board']:>5} {r['sittings']:>9,} {r['traced'] / 2**20:>11.2f} "
              f"{r['results'] / 2**20:>12.2f} {r['transient'] / 2**20:>14.2f} "
              f"{r['rss'] / 2**20:>8.1f} {per:>24} {step:>22}")
    print(f"ratio last/first after the first round (board 27 / board 3): traced "
          f"{out['ratio_traced']:.2f}, transient {out['ratio_transient']:.2f} (flat: about "
          f"1.0), results {_ratio(out['ratio_results'])}, RSS {_ratio(out['ratio_rss'])}")
    print(f"bytes added per sitting from board 9 to 27: {out['per_sitting_9_27']:,.0f}; from "
          f"board 9 to 18 (rounds 4 to 7 begun): {out['per_sitting_9_18']:,.0f}, by owner "
          "(R: kept for the results):")
    for owner, size in out["per_sitting_by_owner"].items():
        mark = "R" if owner in RESULT_OWNERS else " "
        print(f"  {mark} {owner:<28} {size:>8,}")
    if out["per_sitting_by_line"]:
        print("by line:")
        for where, size in out["per_sitting_by_line"].items():
            print(f"    {where:<28} {size:>8,}")


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--sections", type=int, default=2)
    p.add_argument("--through", choices=("room", "hub"), default="room")
    p.add_argument("--frames", type=int, default=12,
                   help="frames kept per allocation (the owners need a few)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--sites", type=int, default=0,
                   help="also the N lines that added the most from board 9 to 18")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = p.parse_args(argv)
    out = measure(args.tables, args.sections, args.through, args.frames, args.seed, args.sites,
                  say=(lambda _: None) if args.json else
                  (lambda text: print(text, file=sys.stderr, flush=True)))
    if args.json:
        print(json.dumps(out))
    else:
        _report(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
