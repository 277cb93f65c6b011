"""PBN reading with and without tempo tables (issue 27). Prints figures; asserts nothing.

    python benchmarks/pbn_read.py [--boards 3000] [--repeat 3] [--cpu]

Writes ``--boards`` fully played random boards twice, once plain and once with Tenace's
``[TempoTable]`` per board (the times of every call and card), then reads each file with
Tenace's reader (:func:`bridgecore.pbn.read_pbn`) and, when the analysis extra is installed,
with endplay's (``endplay.parsers.pbn.loads``) on the plain file as the baseline. Each read is
repeated ``--repeat`` times, alternating the files, and the best time is kept. The figures are
ratios measured in the same run (target: the tempo file within 1.5x of the plain one).
The tempo file is read as ``read_pbn`` reads it by default (each table read when its record
is first read: ``tempo="deferred"``), then so and every record read (the file's
``problems``: what a caller that reads every time pays; and each record's calls read, one
record after the other, the collector running), eagerly (every table read, every
action timed, at once), lazily (each table kept as text: ``tempo="lazy"``), and lazily then
resolved (:meth:`~bridgecore.pbn.PbnFile.resolve_tempo`).
``--cpu`` times each read by the process's CPU time (a shared machine takes the CPU away
from a read for a while: its CPU time moves far less than its wall time).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bridgecore.bigdeal import random_deal
from bridgecore.pbn import read_pbn
from bridgecore.pbn_writer import write_pbn
from bridgecore.randomgame import random_record
from bridgecore.record import GameRecord
from bridgecore.tempo import TEMPO_TABLE, tempo_table


def played_records(count: int, tempo: bool) -> list[GameRecord]:
    """``count`` fully played random boards (the same each time), with every action timed
    and a ``TempoTable`` each (``tempo``), or no times at all."""
    rng = random.Random(27)
    out = []
    for n in range(1, count + 1):
        record = random_record(rng, n, random_deal(rng))
        if tempo:
            table = tempo_table(record, started_at=0.0)
            if table is not None:
                record.tables[TEMPO_TABLE] = table
        else:       # no times: the writer adds a TempoTable wherever an action has one
            record.calls = [replace(c, time=None) for c in record.calls]
            record.plays = [replace(p, time=None) for p in record.plays]
        out.append(record)
    return out


_clock = time.perf_counter


def _best(read: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = _clock()
        read()
        best = min(best, _clock() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cpu", action="store_true",
                    help="time each read by the process's CPU time, not the wall clock")
    args = ap.parse_args()
    global _clock
    if args.cpu:
        _clock = time.process_time
    plain = write_pbn(played_records(args.boards, tempo=False))
    timed = write_pbn(played_records(args.boards, tempo=True))
    readers: dict[str, Callable[[], object]] = {
        "tenace, plain": lambda: read_pbn(plain),
        "tenace, with [TempoTable]": lambda: read_pbn(timed),
        "tenace, tempo, all read": lambda: read_pbn(timed).problems,
        "tenace, tempo, each read": lambda: [r.calls for r in read_pbn(timed).records],
        "tenace, tempo eager": lambda: read_pbn(timed, tempo="eager"),
        "tenace, tempo lazy": lambda: read_pbn(timed, tempo="lazy"),
        "tenace, tempo lazy+resolved": lambda: read_pbn(timed, tempo="lazy").resolve_tempo(),
    }
    try:
        from endplay.parsers import pbn as endplay_pbn
    except ImportError:
        print("endplay not installed: no baseline")
    else:
        readers["endplay, plain"] = lambda: endplay_pbn.loads(plain)
        readers["endplay, with [TempoTable]"] = lambda: endplay_pbn.loads(timed)
    times = {name: float("inf") for name in readers}
    for _ in range(args.repeat):     # alternate the readers: a busy machine hits them alike
        for name, read in readers.items():
            times[name] = min(times[name], _best(read, 1))
    print(f"{args.boards} played boards: plain {len(plain) / 1e6:.1f} MB, "
          f"with tempo {len(timed) / 1e6:.1f} MB; best of {args.repeat}"
          + (", CPU time" if args.cpu else ""))
    for name, t in times.items():
        print(f"  {name:30} {t:7.3f} s  {args.boards / t:9,.0f} boards/s")
    base = times["tenace, plain"]
    tempo = times["tenace, with [TempoTable]"]
    print(f"  tempo / plain (tenace)         {tempo / base:.2f}x  (target <= 1.5x)")
    print(f"  tempo, all read / plain        {times['tenace, tempo, all read'] / base:.2f}x")
    print(f"  tempo, each read / plain       {times['tenace, tempo, each read'] / base:.2f}x")
    print(f"  eager tempo / plain            {times['tenace, tempo eager'] / base:.2f}x")
    print(f"  lazy tempo / plain             {times['tenace, tempo lazy'] / base:.2f}x")
    print(f"  lazy+resolved / plain          "
          f"{times['tenace, tempo lazy+resolved'] / base:.2f}x")
    if "endplay, plain" in times:
        ep = times["endplay, plain"]
        print(f"  tenace plain vs endplay plain  {ep / base:.2f}x as fast")
        print(f"  tenace tempo vs endplay plain  {ep / tempo:.2f}x as fast")
        ept = times["endplay, with [TempoTable]"]
        print(f"  tenace tempo vs endplay tempo  {ept / tempo:.2f}x as fast")


if __name__ == "__main__":
    main()
