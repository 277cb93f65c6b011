"""Tenace scoring benchmarks (issue 6). Prints figures; asserts nothing.

    python benchmarks/scoring.py [--tables 200] [--boards 27] [--pairs 1000] [--repeat 7]
                                 [--batch 50]

* Rescoring after one correction: an event of ``--tables`` tables (a Mitchell: each NS
  pair meets a different EW pair on every board) and ``--boards`` boards of plausible
  table results; a director corrects one result and the event is scored and ranked again.
  :class:`bridgecore.rescoring.EventScorer` scores only the corrected board and adds the
  totals up again (target 200 ms or less), against scoring the whole event again
  (:func:`bridgecore.ranking.score_event` with the correction as a ruling) in the same run,
  for matchpoints, Butler and cross-IMPs. Medians over ``--repeat`` corrections.
* Ranking ``--pairs`` pairs: the event scored and ranked from scratch with that many pairs,
  and the ranking alone (ranks with ties over the pairs' totals) against Python's
  ``sorted`` of the same totals as the baseline.
* ``tenace score --json`` of the event written as a PBN results file: read, score, JSON.
* Live scoring (issue 16): the same event's results arriving round by round as a Mitchell
  plays them (each round every table plays one board; ``--batch`` results between two
  rescorings, as the hub coalesces them), each rescoring given the event scored before it
  (``score_event``'s ``previous``: a board whose results are unchanged is neither checked
  nor scored again) against scoring from nothing each time, in the same run; the total and
  the last rescoring (the whole event in), and the ratio. In a Mitchell each table plays
  another board, so a batch touches nearly every board and little is kept: what bounds
  live scoring in the hub is that it takes at most a quarter of its thread
  (hub.service.SCORE_SHARE), rescoring less often when a rescoring costs more.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bridgecore.adjusted import BoardResult
from bridgecore.calls import Contract, Risk
from bridgecore.cards import Seat, Side, Strain
from bridgecore.ranking import Method, rank, score_event
from bridgecore.rescoring import EventScorer
from bridgecore.results_io import ResultsFile, TableResult, read_pbn_results, write_results_pbn
from bridgecore.scoring import score_ns
from bridgecore.vulnerability import Vulnerability

TARGET_MS = 200.0


def _line(name: str, value: str, target: str = "", ok: bool | None = None) -> None:
    mark = "" if ok is None else ("  [meets target]" if ok else "  [BELOW TARGET]")
    print(f"{name:<52} {value:>16}   {target}{mark}")


def table_result(rng: random.Random, board: int, ns: int, ew: int) -> TableResult:
    """A plausible result: a contract of one to six, declarer's tricks near what it needs."""
    if rng.random() < 0.02:
        return TableResult(BoardResult(board, ns, ew, 0), None, True)
    declarer = rng.choice(list(Seat))
    contract = Contract(rng.choice((1, 2, 2, 3, 3, 4, 4, 4, 5, 6)), rng.choice(list(Strain)),
                        Risk.DOUBLED if rng.random() < 0.08 else Risk.UNDOUBLED, declarer)
    tricks = max(0, min(13, contract.tricks_needed + rng.choice((-2, -1, -1, 0, 0, 0, 1, 1))))
    vul = Vulnerability.of_board(board)
    score = score_ns(contract, tricks, vul.is_vulnerable(Side.NS), vul.is_vulnerable(Side.EW))
    return TableResult(BoardResult(board, ns, ew, score), contract, False, tricks)


def mitchell(rng: random.Random, tables: int, boards: int) -> list[TableResult]:
    """NS pairs 1..T, EW pairs T+1..2T; on board b table t meets EW pair T + (t + b) % T + 1."""
    return [table_result(rng, b, t, tables + (t + b) % tables + 1)
            for b in range(1, boards + 1) for t in range(1, tables + 1)]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def bench_correction(rows: list[TableResult], tables: int, boards: int, repeat: int) -> None:
    results = [r.result for r in rows]
    rng = random.Random(11)
    corrections = []
    for _ in range(repeat):
        wrong = rng.choice(results)
        fixed = table_result(rng, wrong.board, int(wrong.ns), int(wrong.ew)).result
        corrections.append(fixed)
    print(f"rescoring after one correction: {tables} tables, {boards} boards, "
          f"{len(results):,} results")
    for method in (Method.MATCHPOINTS, Method.BUTLER, Method.CROSS_IMPS):
        t0 = time.perf_counter()
        scorer = EventScorer(results, method)
        first = time.perf_counter() - t0
        incremental, full = [], []
        for k, ruling in enumerate(corrections, 1):
            t0 = time.perf_counter()
            event = scorer.correct(ruling)
            incremental.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            again = score_event(results, method, rulings=corrections[:k])
            full.append(time.perf_counter() - t0)
            assert event.ranking == again.ranking  # the same event either way
        inc, base = statistics.median(incremental), statistics.median(full)
        _line(f"  {method.value}: rescore one board, totals, ranking", _ms(inc),
              f"<= {TARGET_MS:.0f} ms", inc * 1000 <= TARGET_MS)
        _line("    baseline: score the whole event again", _ms(base),
              f"ratio {base / inc:.1f}x")
        _line("    first scoring of the event", _ms(first),
              f"full rescorings {scorer.full_rescorings} of {len(corrections) + 1}")


def bench_ranking(pairs: int, boards: int, repeat: int) -> None:
    tables = pairs // 2
    rng = random.Random(5)
    results = [r.result for r in mitchell(rng, tables, boards)]
    times = []
    for _ in range(max(1, repeat // 2)):
        t0 = time.perf_counter()
        event = score_event(results, Method.MATCHPOINTS)
        times.append(time.perf_counter() - t0)
    print(f"ranking {len(event.ranking):,} pairs ({tables} tables, {boards} boards)")
    _line("  score and rank the event from scratch", _ms(statistics.median(times)))
    totals = [p.total for p in event.ranking]
    shuffled = totals[:]
    rng.shuffle(shuffled)
    loops = 200
    t0 = time.perf_counter()
    for _ in range(loops):
        rank(shuffled)
    t_rank = (time.perf_counter() - t0) / loops
    t0 = time.perf_counter()
    for _ in range(loops):
        sorted(shuffled, reverse=True)
    t_sort = (time.perf_counter() - t0) / loops
    _line(f"  ranks with ties of {len(totals):,} totals", f"{t_rank * 1e6:.0f} us",
          f"ratio {t_rank / t_sort:.1f}x to sorted()")


def bench_cli(rows: list[TableResult]) -> None:
    source = ResultsFile(rows=rows, title="Benchmark")
    event = score_event(source.results)
    text = write_results_pbn(source, event)
    t0 = time.perf_counter()
    again = read_pbn_results(text)
    t_read = time.perf_counter() - t0
    t0 = time.perf_counter()
    data = json.dumps(score_event(again.results).to_json())
    t_score = time.perf_counter() - t0
    print(f"tenace score --json of the same event as PBN ({len(text) / 1e6:.1f} MB, "
          f"{len(data) / 1e6:.1f} MB of JSON)")
    _line("  read the ScoreTables", _ms(t_read))
    _line("  score, rank and write JSON", _ms(t_score))


def bench_live(rows: list[TableResult], tables: int, boards: int, batch: int) -> None:
    """Results in the order of play: in round r table t plays board (t + r) % boards + 1."""
    by_key = {(r.result.board, int(r.result.ns)): r.result for r in rows}
    arriving = [by_key[(t + r) % boards + 1, t] for r in range(boards)
                for t in range(1, tables + 1)]
    cuts = [*range(batch, len(arriving), batch), len(arriving)]
    print(f"live scoring: {len(arriving):,} results in the order of play, rescored every "
          f"{batch} ({len(cuts)} rescorings)")
    for method in (Method.MATCHPOINTS, Method.CROSS_IMPS):
        times: dict[bool, list[float]] = {True: [], False: []}
        for live in (False, True):
            previous = None
            for cut in cuts:
                t0 = time.perf_counter()
                event = score_event(arriving[:cut], method, previous=previous if live else None)
                times[live].append(time.perf_counter() - t0)
                previous = event
        inc, base = sum(times[True]), sum(times[False])
        _line(f"  {method.value}: every rescoring given the last", _ms(inc),
              f"last {_ms(times[True][-1])}")
        _line("    baseline: each scored from nothing", _ms(base),
              f"ratio {inc / base:.2f} of it")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--boards", type=int, default=27)
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--batch", type=int, default=50,
                        help="results between two live rescorings (default 50)")
    args = parser.parse_args()
    rows = mitchell(random.Random(2026), args.tables, args.boards)
    bench_correction(rows, args.tables, args.boards, args.repeat)
    bench_ranking(args.pairs, args.boards, args.repeat)
    bench_cli(rows)
    bench_live(rows, args.tables, args.boards, args.batch)


if __name__ == "__main__":
    main()
