"""A championship on one hub (issue 16). Prints figures; asserts nothing.

    python benchmarks/championship.py [--tables 1000] [--sections 10] [--boards-per-round 3]
                                      [--rounds 9] [--pace 0.05] [--seed 2026]
                                      [--processes 1] [--shards 1] [--one-field] [--json]

``--tables`` tables (``--tables 100`` for a quick run) in ``--sections`` Mitchell sections,
``--rounds`` x ``--boards-per-round`` boards a table (27 by default), at ``--pace`` of a
club's pace (1.0: about seven minutes a board), irregularities injected, live scoring on,
against ``tenace hub`` in its own process through Mosquitto with every account and topic
checked (tenace/sim/championship.py says how each figure is taken); ``--processes N``
shares the tables out among N driver processes (each drives all its devices, every one its
own link and account, on one thread: wire/mux.py); ``--shards N`` runs the hub as N
processes (``tenace hub --shard K --of N``, hub/shards.py: the sections shared out, each
shard its own log and account) and ``--one-field`` ranks the sections as one field too
(``results/field``, compared with the ground truth's). It prints:

* the broker's own round trip p50/p99 (the baseline, the same client in the same moments)
  and a device event to the director's alert p50/p99, their ratios, and what the hub adds
  at p99 (the issue's target: 5 ms or less);
* every time below also as a ratio to the broker's round trip p50 of the same run (the
  machine's load moves both: compare ratios between runs, not milliseconds);
* a board's last card to its traveller, and to the ranking updated, p50/p99 (the hub
  publishes the scores after its replies, coalesced: at most every 0.25 s);
* the hub process's memory (RSS) first / middle / last across the session and last/first
  (with shards, the sum of theirs);
* event log bytes per board played;
* irregularities detected / injected, false alarms, events refused, and whether every
  ranking and traveller the hub published equals the ground truth (the script's results
  scored by a room without any network).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tenace.sim.championship import run_championship, summary

INJECT = {"revoke": 0.01, "lead_out_of_turn": 0.01, "call_out_of_rotation": 0.01,
          "insufficient_bid": 0.01, "wrong_board": 0.005, "result_disagrees": 0.01,
          "director_call": 0.01}


def _line(name: str, value: str, note: str = "") -> None:
    print(f"{name:<52} {value:>24}   {note}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=1000)
    p.add_argument("--sections", type=int, default=10)
    p.add_argument("--boards-per-round", type=int, default=3)
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--pace", type=float, default=0.05,
                   help="fraction of a club's pace (default 0.05: about 21 s a board)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--probes", type=int, default=400)
    p.add_argument("--processes", type=int, default=1,
                   help="driver processes the tables are shared out among (default 1)")
    p.add_argument("--shards", type=int, default=1,
                   help="hub processes the sections are shared out among (default 1)")
    p.add_argument("--one-field", action="store_true",
                   help="rank the sections as one field too (results/field)")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    for name in ("wire.mqtt", "wire.mqtt.paho", "wire.link"):
        logging.getLogger(name).setLevel(logging.ERROR)
    result = run_championship(tables=args.tables, sections=args.sections,
                              boards_per_round=args.boards_per_round, rounds=args.rounds,
                              pace=args.pace, seed=args.seed, inject=INJECT,
                              probes=args.probes, processes=args.processes,
                              shards=args.shards, one_field=args.one_field)
    s = summary(result)
    if args.json:
        print(json.dumps(s))
        return 0
    print(f"championship: {s['tables']} tables in {s['sections']} sections, {s['boards']} "
          f"boards a table, pace {args.pace}, {s['events']:,} events in {s['seconds']} s "
          f"({s['events_per_second']:,}/s), live scoring on, hub in "
          + ("its own process" if args.shards == 1 else f"{args.shards} shard processes")
          + (", one field" if args.one_field else ""))
    (b50, b99), (a50, a99) = s["echo_ms"], s["alert_ms"]
    _line("broker round trip p50 / p99 (ms)", f"{b50:.2f} / {b99:.2f}", "baseline")
    _line("device event to director alert p50 / p99 (ms)", f"{a50:.2f} / {a99:.2f}",
          f"ratio {a50 / b50:.1f}x / {a99 / b99:.1f}x, {s['probes']} probes")
    _line("  added by the hub at p99 (ms)", f"{a99 - b99:.2f}", "target 5 ms or less")
    t50, t99 = s["traveller_ms"]
    r50, r99 = s["ranking_ms"]
    _line("last card to its traveller p50 / p99 (ms)", f"{t50:.0f} / {t99:.0f}",
          f"{t50 / b50:.0f}x / {t99 / b50:.0f}x broker p50, {s['boards_timed']} boards")
    _line("last card to the ranking updated p50 / p99 (ms)", f"{r50:.0f} / {r99:.0f}",
          f"{r50 / b50:.0f}x / {r99 / b50:.0f}x broker p50")
    first, middle, last = (x / 2**20 for x in s["rss"])
    _line("hub RSS first / middle / last (MiB)", f"{first:.0f} / {middle:.0f} / {last:.0f}",
          f"last/first {s['rss_ratio']:.2f}")
    _line("event log bytes per board", f"{s['log_bytes_per_board']:,.0f}",
          f"{s['log_bytes']:,} bytes, {s['sittings']:,} boards played")
    _line("irregularities detected / injected", f"{s['detected']} / {s['injected']}",
          f"missed {s['missed']}")
    _line("false alarms", str(s["false_alarms"]))
    _line("events refused by the hub", str(s["rejected"]))
    _line("rankings and travellers equal to the ground truth", str(s["results_equal"]))
    for item in result.report.get("differences", [])[:10]:
        print(f"    {item}")
    for item in result.report.get("missed", [])[:10] + result.report.get("false_alarms", [])[:10]:
        print(f"    {item}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
