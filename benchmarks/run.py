"""Tenace benchmarks for the game engine (issue 2). Prints figures; asserts nothing.

    python benchmarks/run.py [--boards 10000] [--dd 32]

* ``tenace check`` throughput: a generated PBN file of fully played random boards is read
  and audited in this process (one core); target 2,000 boards per second or more.
* The median and p99 cost of one call and one card pushed with every detector on
  (target: median 50 microseconds or less), with the cost of an empty timed call
  measured the same way as the baseline.
* Deals generated per second, secure (CSPRNG) and BigDeal-compatible (target 10,000 or more),
  against Python's own ``random.shuffle`` of a 52-card list as the baseline.
* Double-dummy boards per second through endplay (DDS), when the analysis extra is installed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bridgecore.audit import audit_record
from bridgecore.bigdeal import BigDeal, random_deal, secure_deals
from bridgecore.board import Board
from bridgecore.cards import ALL_CARDS
from bridgecore.pbn import read_pbn, write_pbn
from bridgecore.randomgame import random_record


def _line(name: str, value: str, target: str, ok: bool | None = None) -> None:
    mark = "" if ok is None else ("  [meets target]" if ok else "  [BELOW TARGET]")
    print(f"{name:<46} {value:>22}   target {target}{mark}")


def bench_check(boards: int) -> None:
    rng = random.Random(2026)
    records = [random_record(rng, n, random_deal(rng)) for n in range(1, boards + 1)]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "played.pbn"
        path.write_bytes(write_pbn(records).encode("latin-1"))
        size = path.stat().st_size
        t0 = time.perf_counter()
        data = path.read_bytes()
        lines = data.decode("latin-1").splitlines()
        t_base = time.perf_counter() - t0
        t0 = time.perf_counter()
        parsed = read_pbn(path.read_bytes(), file=str(path)).records
        t_read = time.perf_counter() - t0
        t0 = time.perf_counter()
        flagged = sum(1 for r in parsed if audit_record(r).irregularities)
        t_audit = time.perf_counter() - t0
    total = t_read + t_audit
    rate = len(parsed) / total
    print(f"check: {len(parsed)} fully played boards, {size / 1e6:.1f} MB, {len(lines)} lines; "
          f"{flagged} flagged (expected 0)")
    _line("tenace check boards/s (read + audit)", f"{rate:,.0f}", ">= 2,000", rate >= 2000)
    _line("  read PBN boards/s", f"{len(parsed) / t_read:,.0f}", "")
    _line("  audit boards/s", f"{len(parsed) / t_audit:,.0f}", "")
    _line("  ratio to decoding+splitting the file", f"{total / t_base:,.0f}x", "")


def bench_push(boards: int) -> None:
    rng = random.Random(7)
    games = [random_record(rng, n, random_deal(rng)) for n in range(1, boards + 1)]
    clock = time.perf_counter_ns
    calls: list[int] = []
    cards: list[int] = []
    for g in games:
        assert g.deal is not None
        board = Board(g.board or 1, g.deal)
        for c in g.calls:
            t0 = clock()
            board.push_call(c.seat, c.call, c.time)
            calls.append(clock() - t0)
        for p in g.plays:
            t0 = clock()
            board.push_card(p.seat, p.card, p.time)
            cards.append(clock() - t0)
    empty: list[int] = []

    def nothing() -> None:
        return None

    for _ in range(len(cards)):
        t0 = clock()
        nothing()
        empty.append(clock() - t0)
    base = statistics.median(empty) / 1000

    def q(values: list[int], p: float) -> float:
        return sorted(values)[int(p * (len(values) - 1))] / 1000

    for name, values in (("call", calls), ("card", cards)):
        median = statistics.median(values) / 1000
        _line(f"push one {name}, every detector on: median", f"{median:.2f} us",
              "<= 50 us", median <= 50)
        _line(f"  p99 ({len(values):,} {name}s)", f"{q(values, 0.99):.2f} us", "")
        _line("  ratio to an empty timed call", f"{median / base:.0f}x", "")


def bench_deals(count: int) -> None:
    t0 = time.perf_counter()
    pack = list(ALL_CARDS)
    rng = random.Random(1)
    for _ in range(count):
        rng.shuffle(pack)
    t_base = time.perf_counter() - t0
    t0 = time.perf_counter()
    deals = secure_deals(1, count)
    t_secure = time.perf_counter() - t0
    assert len(deals) == count
    bigdeal = BigDeal(bytes(range(20)), "Tenace benchmark")
    t0 = time.perf_counter()
    bigdeal.deals(1, count)
    t_big = time.perf_counter() - t0
    for name, t in (("secure deals/s (CSPRNG)", t_secure), ("BigDeal-compatible deals/s", t_big)):
        rate = count / t
        _line(name, f"{rate:,.0f}", ">= 10,000", rate >= 10000)
        _line("  ratio to random.shuffle of 52 cards", f"{t / t_base:.1f}x", "")


def bench_dd(count: int) -> None:
    try:
        from bridgecore.doubledummy import solve_deals
    except ImportError:
        print("double-dummy: bridgecore.doubledummy not importable")
        return
    from bridgecore.cards import Seat
    from bridgecore.vulnerability import Vulnerability

    rng = random.Random(3)
    todo = [(random_deal(rng), Seat.dealer_of(n), Vulnerability.of_board(n))
            for n in range(1, count + 1)]
    try:
        solve_deals(todo[:1])  # import and warm up
    except RuntimeError as err:
        print(f"double-dummy: {err}")
        return
    t0 = time.perf_counter()
    solve_deals(todo)
    t = time.perf_counter() - t0
    _line("double-dummy boards/s (endplay, table + par)", f"{count / t:,.1f}", "(measured)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=10000)
    parser.add_argument("--push-boards", type=int, default=2000)
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--dd", type=int, default=32)
    args = parser.parse_args()
    bench_check(args.boards)
    bench_push(args.push_boards)
    bench_deals(args.deals)
    bench_dd(args.dd)


if __name__ == "__main__":
    main()
