"""The hub alone (no broker), two checkouts alternated A B A B (issue 27). Prints figures.

    python benchmarks/ab.py /path/to/checkout-A /path/to/checkout-B [--tables 200] [--pairs 5]
                            [--cpu]

Each run is ``benchmarks/hub.py``'s "hub alone" measure (every event of a room of fully played
boards applied straight to a hub in one process, every detector on, each batch committed to
SQLite) in a fresh interpreter whose imports come from that checkout. Runs alternate so that a
machine shared with other work weighs on both alike; the median of the B/A ratios of each
pair is the figure to quote. ``--cpu`` times the run by the process's CPU time rather than
the wall clock (a machine shared with other work takes the CPU away from a run for a while:
its CPU time moves far less than its wall time).
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

_RUN = """
import importlib.util, sys, time, types
sys.path.insert(0, {root!r})
spec = importlib.util.spec_from_file_location("hub_bench", {root!r} + "/benchmarks/hub.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
if {cpu!r}:     # the measure's clock only (the hub's own pacing keeps the wall clock)
    clock = types.ModuleType("time")
    clock.__dict__.update(time.__dict__, perf_counter=time.process_time)
    bench.time = clock
bench.bench_direct(bench.BenchSetup({tables}))
"""


def rate(root: Path, tables: int, cpu: bool = False) -> float:
    code = _RUN.format(root=str(root), tables=tables, cpu=cpu)
    out = subprocess.run([sys.executable, "-c", code],
                         capture_output=True, text=True, check=True, cwd=root).stdout
    m = re.search(r"events/s\s+([\d,]+)", out)
    if m is None:
        raise RuntimeError(f"no rate in {out!r}")
    return float(m.group(1).replace(",", ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", type=Path)
    ap.add_argument("b", type=Path)
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--cpu", action="store_true",
                    help="time each run by its CPU time, not the wall clock")
    args = ap.parse_args()
    ratios = []
    for i in range(args.pairs):
        ra = rate(args.a.resolve(), args.tables, args.cpu)
        rb = rate(args.b.resolve(), args.tables, args.cpu)
        ratios.append(rb / ra)
        print(f"pair {i + 1}: A {ra:8,.0f}  B {rb:8,.0f} events/s  B/A {rb / ra:.2f}", flush=True)
    print(f"B/A median {statistics.median(ratios):.2f} (min {min(ratios):.2f}, "
          f"max {max(ratios):.2f}) over {args.pairs} pairs, {args.tables} tables"
          + (", CPU time" if args.cpu else ""))


if __name__ == "__main__":
    main()
