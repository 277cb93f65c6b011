"""Simultaneous pairs across clubs (issue 28): the field's recomputation. Prints figures;
asserts nothing.

    python benchmarks/simultaneous.py [--clubs 100] [--tables 10] [--boards 24] [--tail 40]

A field of ``--clubs`` clubs of ``--tables`` tables (2,000 pairs by default), each club
playing ``--boards`` boards, one a round, the pairs stationary and the boards moving (every
table plays every board once), one table sitting each round out (the field's missing
results, Neuberged). All results but the last ``--tail`` are in; the rest are
replayed into the organiser's scorer (hub.simultaneous.field) as they would arrive from the
bridges: at an evening's pace (the whole field's results spread over three hours), ten and a
hundred times faster, and all at once (a club reconnecting after a cut). As the organiser's
worker does, each rescoring takes every result waiting. For each pace: p50 and p99 of a new
result reflected in the field ranking (from its arrival to the ranking that counts it), and
their ratio to the baseline measured in the same run: the field scored from nothing
(bridgecore.ranking.score_event without ``previous``), what an organiser without incremental
scoring would pay for each result.
"""

from __future__ import annotations

import argparse
import queue
import random
import statistics
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bridgecore.ranking import score_event
from hub.simultaneous import Club, SimEvent
from hub.simultaneous.field import FieldScorer

T0 = datetime(2026, 4, 12, 18, 0, tzinfo=UTC)
# Scores possible at any vulnerability (Law 77: a score no contract gives is a problem, and
# a board with a problem is checked again at every rescoring).
SCORES = (0, 110, -110, 140, -140, 170, -170, 90, -90, 120, -120, 100, -100, 200, -200, 80,
          -80, 150, -150, 1430, -1430, 500, -500)
EVENING_S = 3 * 3600.0


def _deals(boards: int) -> str:
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    return "\n".join(f'[Board "{b}"]\n[Deal "{deal}"]\n' for b in range(1, boards + 1))


def field_results(clubs: int, tables: int, boards: int, seed: int = 1
                  ) -> tuple[SimEvent, list[tuple[str, dict[str, Any]]]]:
    rng = random.Random(seed)
    plays = tables - 1
    event = SimEvent("bench", _deals(boards), tuple(
        Club(f"c{c:03}", T0, plays) for c in range(clubs)))
    rows: list[tuple[str, dict[str, Any]]] = []
    for rnd in range(boards):            # round by round, every club at once
        for c in range(clubs):
            for t in range(1, tables + 1):
                board = (rnd + t - 1) % boards + 1
                if t == (rnd % tables) + 1:
                    continue             # this table sits the round out
                ew = tables + t
                rows.append((f"c{c:03}", {"v": 1, "id": f"r{rnd}-t{t}", "board": board,
                                          "ns": t, "ew": ew, "score_ns": rng.choice(SCORES)}))
    return event, rows


def replay(field: FieldScorer, tail: list[tuple[str, dict[str, Any]]],
           rate: float | None) -> list[float]:
    """Feed ``tail`` at ``rate`` results a second (None: all at once) to a worker that
    scores the field once per batch; each result's latency to a ranking counting it."""
    inbox: queue.Queue[tuple[float, str, dict[str, Any]] | None] = queue.Queue()
    latencies: list[float] = []

    def worker() -> None:
        while True:
            batch = [inbox.get()]
            while True:
                try:
                    batch.append(inbox.get_nowait())
                except queue.Empty:
                    break
            items = [b for b in batch if b is not None]
            for _, club, row in items:
                field.add_result(club, row)
            field.rescore()
            done = time.perf_counter()
            latencies.extend(done - arrived for arrived, _, _ in items)
            if len(items) < len(batch):
                return

    thread = threading.Thread(target=worker)
    thread.start()
    start = time.perf_counter()
    for i, (club, row) in enumerate(tail):
        if rate is not None:
            delay = start + i / rate - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
        inbox.put((time.perf_counter(), club, row))
    inbox.put(None)
    thread.join()
    return latencies


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clubs", type=int, default=100)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--boards", type=int, default=24)
    parser.add_argument("--tail", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    event, rows = field_results(args.clubs, args.tables, args.boards)
    print(f"field: {args.clubs} clubs, {2 * args.tables * args.clubs} pairs, "
          f"{args.boards} boards, {len(rows)} results (E = {event.expected} a board)")
    sizes = [max(1, args.tail // 4), args.tail, args.tail, args.tail]   # the evening is slow
    head = rows[:-sum(sizes)]
    tails, at = [], len(head)
    for size in sizes:
        tails.append(rows[at:at + size])
        at += size
    field = FieldScorer(event)
    t = time.perf_counter()
    for club, row in head:
        field.add_result(club, row)
    field.rescore()
    print(f"first scoring of {len(head)} results: {time.perf_counter() - t:.2f} s")

    baseline = []
    for _ in range(args.repeat):
        t = time.perf_counter()
        score_event(field.results.values(), event.method, options=field.options)
        baseline.append(time.perf_counter() - t)
    base = statistics.median(baseline)
    print(f"baseline, the field scored from nothing: median {base * 1000:.0f} ms")

    per_second = len(rows) / EVENING_S
    paces = [("evening", per_second), ("x10", 10 * per_second), ("x100", 100 * per_second),
             ("all at once", None)]
    for (name, rate), tail in zip(paces, tails, strict=True):
        lat = replay(field, tail, rate)
        p50, p99 = pct(lat, 0.50), pct(lat, 0.99)
        shown = "-" if rate is None else f"{rate:.1f}/s"
        print(f"{name:>12} ({shown:>8}, {len(tail)} results): p50 {p50 * 1000:6.0f} ms "
              f"({p50 / base:.2f} x baseline)  p99 {p99 * 1000:6.0f} ms "
              f"({p99 / base:.2f} x baseline)")


if __name__ == "__main__":
    main()
