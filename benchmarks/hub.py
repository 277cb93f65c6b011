"""Tenace hub benchmarks (issue 3). Prints figures; asserts nothing.

    python benchmarks/hub.py [--tables 500] [--broker mosquitto|amqtt] [--no-access] [--tls]

Access control is on, as in production (benchmarks/brokers.py): the hub, the tables' devices
and the benchmark's clients connect with accounts and the broker checks every topic;
``--no-access`` runs the same against an open broker, to measure what the controls cost.
The benchmark's publishers speak for every table at once, so they use hub-role accounts.

* Throughput: every event of a room of fully played boards (check-ins, the board, the
  four hands read from the pocket, calls, 52 cards read as played, the result confirmed)
  is queued at the broker for the hub's persistent session, then ``tenace hub`` starts in
  its own process (as in production) and takes them: events per second from the first
  event logged to the last (the hub's own times, read from its log), every detector on and
  every accepted event committed to the SQLite log before its reply (target 5,000 or more).
  The same events applied straight to a hub in this process, with no broker, show its own
  cost. The double-dummy tables of the result screens are off (``--no-double-dummy``):
  they are solved on a worker, once per board, and this room has a board per table (200
  boards: 20 s of solving) where a session has about 30.
* Latency: ``--tables`` tables play at a steady pace (``--rate`` events per second in all)
  against ``tenace hub`` in its own process, while a probe table calls the director; the
  time from the probe publishing to the director's alert arriving, p50 and p99, against
  the broker's own round trip measured in the same run by the same client (an echo on a
  topic it subscribes to): target, the hub adds 5 ms or less at p99.
* Memory: tracemalloc of the room and the hub's caches per table, after each table has
  played a board.
* TLS (``--tls``): the throughput and latency runs twice, through a plain broker (the
  baseline) and through a broker with the club's certificates (``mqtts://``, every client
  verifying it), the hub and its clients the same; the TLS figures as ratios of the
  baseline's.
* The controls (``--controls``, issue 12): the same runs through an open broker (the
  baseline: no accounts, no topic checks, no TLS), with accounts and topic checks, and with
  both and TLS as in production; ratios of the open baseline. ``--rounds 2`` runs them
  A B C C B A.
"""

from __future__ import annotations

import argparse
import gc
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bridgecore.deal import Deal
from bridgecore.randomgame import random_board
from hub.event import EventSetup
from hub.room import Room
from hub.service import Hub
from hub.store import LOG_NAME, EventLog
from tenace.sim.devices import DeviceEvent, envelopes
from tenace.sim.observer import wait_for_hub
from wire.mqtt import Message, MqttClient


def _line(name: str, value: str, target: str = "", ok: bool | None = None) -> None:
    mark = "" if ok is None else ("  [meets target]" if ok else "  [BELOW TARGET]")
    print(f"{name:<52} {value:>20}   {target}{mark}")


SEED = "5eed0000000000000000000000000000000000b1"


class BenchSetup:
    """A Mitchell of ``tables`` tables, one board a round, two rounds, BigDeal deals from
    :data:`SEED`: the same event ``tenace hub --tables N --boards-per-round 1 --rounds 2
    --seed SEED`` sets up, so a hub in its own process agrees with the scripts made here."""

    def __init__(self, tables: int):
        self.tables = tables
        self.event = EventSetup.quick(tables=tables, boards_per_round=1, rounds=2, seed=SEED)
        self.movement = self.event.sections[0].movement
        self.deals: dict[int, Deal] = dict(self.event.deals)
        self.seed = 2026

    def to_json(self) -> dict[str, Any]:
        return self.event.to_json()

    def build_room(self) -> Room:
        return self.event.build_room()

    def hub_command(self, url: str, data: Path) -> list[str]:
        return [sys.executable, "-m", "tenace", "hub", "--broker", url, "--data", str(data),
                "--tables", str(self.tables), "--boards-per-round", "1", "--rounds", "2",
                "--seed", SEED, "--console", "off", "--no-double-dummy"]


def table_script(setup: BenchSetup, number: int, rng: random.Random,
                 t0: float) -> list[DeviceEvent]:
    """One table's first round: a whole board, as its tablet and card reader send it."""
    table = f"A{number}"
    a = setup.movement.assignment(1, number)
    assert a is not None and a.ns is not None and a.ew is not None
    board_number = a.boards[0]
    deal = setup.deals[board_number]
    board = random_board(rng, board_number, deal, start=t0)
    tab, rdr = f"{table}-tab", f"{table}-rdr"
    out = [DeviceEvent(table, tab, "checkin", {"direction": "NS", "pair": a.ns}, t0),
           DeviceEvent(table, tab, "checkin", {"direction": "EW", "pair": a.ew}, t0),
           DeviceEvent(table, tab, "board", {"board": board_number}, t0)]
    for seat in deal:
        out.append(DeviceEvent(table, rdr, "hand", {
            "seat": seat.letter, "cards": [str(c) for c in deal[seat]], "when": "out"}, t0))
    for e in board.auction.entries:
        out.append(DeviceEvent(table, tab, "call", {"seat": e.seat.letter,
                                                    "call": str(e.call)}, t0))
    if board.play is not None:
        for seat, card, _ in board.play.history:
            out.append(DeviceEvent(table, rdr, "card", {"seat": seat.letter, "card": str(card),
                                                        "source": "reader"}, t0))
    # North keeps the record: East-West confirm it (Law 79A, docs/protocol.md 7.9).
    out.append(DeviceEvent(table, tab, "result_confirm", {"seat": "E", "accept": True}, t0))
    return out


def room_messages(setup: BenchSetup, run: str) -> list[Message]:
    rng = random.Random(setup.seed)
    t0 = time.time()
    events: list[DeviceEvent] = []
    scripts = [table_script(setup, n, rng, t0) for n in range(1, setup.tables + 1)]
    # Interleave the tables, as a room plays: one event of each table in turn.
    longest = max(len(s) for s in scripts)
    for i in range(longest):
        events += [s[i] for s in scripts if i < len(s)]
    return [Message(f"tenace/v1/t/{table}/ev/{env.device}", env.to_json().encode(), 1)
            for table, env in envelopes(events, run)]


# Throughput ---------------------------------------------------------------------------------

def bench_direct(setup: BenchSetup) -> None:
    messages = room_messages(setup, "direct")
    with tempfile.TemporaryDirectory() as tmp:
        hub = Hub(EventLog.open(Path(tmp) / "log.sqlite3"), url="mqtt://unused:1",
                  setup=setup, double_dummy=False)
        t0 = time.perf_counter()
        for i in range(0, len(messages), 512):
            hub.handle(messages[i:i + 512])
        elapsed = time.perf_counter() - t0
        alerts = len(hub.room.alerts)
        hub.log.close()
    rate = hub.stats.accepted / elapsed
    _line("hub alone (no broker): events/s", f"{rate:,.0f}", "")
    print(f"    {hub.stats.accepted} events accepted of {len(messages)}, {alerts} alerts "
          f"(expected 0), {elapsed:.2f} s")


class HubProcess:
    """``tenace hub`` in its own process, as in production; stopped by SIGTERM."""

    def __init__(self, setup: BenchSetup, url: str, data: Path):
        data.mkdir(parents=True, exist_ok=True)
        self.log = (data / "hub.out").open("ab")
        self.proc = subprocess.Popen(setup.hub_command(url, data), stdout=self.log,
                                     stderr=subprocess.STDOUT)
        if not wait_for_hub(url, started_after=time.time() - 1, process=self.proc,
                            timeout=120.0):
            self.stop()
            raise RuntimeError(f"the hub did not start: see {data / 'hub.out'}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def _device_records(path: Path) -> list[float]:
    with EventLog.open(path, verify=False) as log:
        return [r.hub_time for r in log.replay() if r.source == "device"]


def bench_backlog(setup: BenchSetup, url: str) -> float:
    messages = room_messages(setup, "backlog")
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        # A first run of the hub creates its persistent session at the broker, then stops.
        HubProcess(setup, url, data).stop()
        publisher = MqttClient(url, "tenace-hub.bench", clean_session=True).wait_connected()
        deliveries = [publisher.publish(m.topic, m.payload, 1) for m in messages]
        for d in deliveries:
            d.wait(60)
        publisher.close()
        hub = HubProcess(setup, url, data)
        deadline = time.monotonic() + 300
        times: list[float] = []
        while time.monotonic() < deadline:
            time.sleep(0.5)
            times = _device_records(data / LOG_NAME)
            if len(times) >= len(messages):
                break
        hub.stop()
    span = times[-1] - times[0] if len(times) > 1 else float("nan")
    rate = (len(times) - 1) / span
    _line("hub through the broker, durable log: events/s", f"{rate:,.0f}", "target 5,000",
          rate >= 5000)
    print(f"    {len(times)} of {len(messages)} events in the log, {span:.2f} s from the "
          f"first to the last (hub in its own process, times from its log)")
    return rate


# Latency ------------------------------------------------------------------------------------

def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_latency(setup: BenchSetup, url: str, rate: float,
                  probes: int) -> tuple[float, float]:
    messages = room_messages(setup, "latency")
    probe_table = f"A{setup.tables}"
    with tempfile.TemporaryDirectory() as tmp:
        hub = HubProcess(setup, url, Path(tmp) / "data")
        try:
            stop = threading.Event()

            def background() -> None:
                client = MqttClient(url, "tenace-hub.bench", clean_session=True).wait_connected()
                interval = 1.0 / rate
                next_at = time.perf_counter()
                for m in messages:
                    if stop.is_set():
                        break
                    if m.topic.startswith(f"tenace/v1/t/{probe_table}/"):
                        continue
                    client.publish(m.topic, m.payload, 1)
                    next_at += interval
                    delay = next_at - time.perf_counter()
                    if delay > 0:
                        time.sleep(delay)
                client.close()

            load = threading.Thread(target=background, daemon=True)
            load.start()
            probe = MqttClient(url, "tenace-hub.probe", clean_session=True, start=False)
            echo = "tenace/v1/echo/tenace-hub.probe"
            probe.subscribe("tenace/v1/director/alert/+", 1, wait=False)
            probe.subscribe(echo, 1, wait=False)
            probe.start().wait_connected()
            time.sleep(1.0)  # the room is playing
            hub_ms: list[float] = []
            echo_ms: list[float] = []
            seen: set[str] = set()
            for i in range(probes):
                # The broker's own round trip, by the same client, in the same conditions.
                t0 = time.perf_counter()
                probe.publish(echo, str(i), 1)
                while probe.messages.get(timeout=10).topic != echo:
                    pass
                echo_ms.append((time.perf_counter() - t0) * 1000)
                seq = i + 1
                device = f"{probe_table}-tab"
                payload = (f'{{"v":1,"id":"probe-{seq}","device":"{device}","seq":{seq},'
                           f'"time":{time.time()},"type":"director_call","body":{{}}}}')
                t0 = time.perf_counter()
                probe.publish(f"tenace/v1/t/{probe_table}/ev/{device}", payload, 1)
                while True:  # each director call is a new alert (9B1)
                    m = probe.messages.get(timeout=10)
                    if m.topic.startswith("tenace/v1/director/alert/") and \
                            m.topic not in seen and b"director_call" in m.payload:
                        seen.add(m.topic)
                        break
                hub_ms.append((time.perf_counter() - t0) * 1000)
                time.sleep(0.01)
            stop.set()
            load.join()
            probe.close()
        finally:
            hub.stop()
        during = len(_device_records(Path(tmp) / "data" / LOG_NAME))
    p50, p99 = _percentile(hub_ms, 0.5), _percentile(hub_ms, 0.99)
    b50, b99 = _percentile(echo_ms, 0.5), _percentile(echo_ms, 0.99)
    print(f"latency with {setup.tables} tables playing ({rate:.0f} events/s of room load, "
          f"{during} events taken), {probes} probes:")
    _line("  broker round trip p50 / p99 (ms)", f"{b50:.2f} / {b99:.2f}", "baseline")
    _line("  device event to director alert p50 / p99 (ms)", f"{p50:.2f} / {p99:.2f}",
          f"ratio {p50 / b50:.1f}x / {p99 / b99:.1f}x")
    _line("  added by the hub at p99 (ms)", f"{p99 - b99:.2f}", "target 5 ms or less",
          p99 - b99 <= 5.0)
    return p50, p99


# Memory -------------------------------------------------------------------------------------

def bench_memory(tables: int) -> None:
    setup = BenchSetup(tables)
    messages = room_messages(setup, "memory")
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    hub = Hub(EventLog.memory(), url="mqtt://unused:1", setup=setup, double_dummy=False)
    empty = tracemalloc.get_traced_memory()[0]
    for i in range(0, len(messages), 512):
        hub.handle(messages[i:i + 512])
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    _line("hub memory per table, set up (KiB)", f"{(empty - before) / tables / 1024:.1f}")
    _line("hub memory per table after a played board (KiB)",
          f"{(after - before) / tables / 1024:.1f}")
    hub.log.close()


# TLS ----------------------------------------------------------------------------------------

VARIANTS = {
    "open": {"access": False, "tls": False},
    "access": {"access": True, "tls": False},
    "TLS": {"access": True, "tls": True},
}
"""The brokers compared: an open one (no accounts, no topic checks, no TLS: the baseline),
accounts and topic checks, then both with TLS (production)."""


def bench_compare(args: argparse.Namespace, names: list[str]) -> None:
    """The same throughput and latency runs on each variant, the first one the baseline;
    the others' figures as ratios of it. ``--rounds 2`` runs the variants forwards then
    backwards (A B B A) so that a machine growing busier weighs on each the same."""
    from benchmarks.brokers import broker

    order = names if args.rounds < 2 else names + names[::-1]
    runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name in names}
    for name in order:
        variant = VARIANTS[name]
        with broker(args.broker, access=variant["access"], tls=variant["tls"],
                    tables=max(args.tables, args.throughput_tables)) as url:
            print(f"--- {name}: {args.broker} at {url.rsplit('@', 1)[-1]}, access control "
                  f"{'on' if variant['access'] else 'off'}, TLS "
                  f"{'on' if variant['tls'] else 'off'}")
            rate = bench_backlog(BenchSetup(args.throughput_tables), url)
            p50, p99 = bench_latency(BenchSetup(args.tables), url, args.rate, args.probes)
            runs[name].append((rate, p50, p99))

    def mean(name: str, i: int) -> float:
        return sum(run[i] for run in runs[name]) / len(runs[name])

    base = names[0]
    rate, p50, p99 = mean(base, 0), mean(base, 1), mean(base, 2)
    print(f"against the {base} baseline of the same run ({args.broker}, "
          f"{len(order) // len(names)} round(s)):")
    _line(f"  {base}: throughput, alert latency p50 / p99",
          f"{rate:,.0f} events/s, {p50:.2f} / {p99:.2f} ms", "baseline")
    for name in names[1:]:
        n_rate, n_p50, n_p99 = mean(name, 0), mean(name, 1), mean(name, 2)
        _line(f"  {name}: throughput / {base}", f"{n_rate / rate:.2f}x",
              f"{n_rate:,.0f} events/s")
        _line(f"  {name}: alert latency p50 / {base}", f"{n_p50 / p50:.2f}x",
              f"{n_p50:.2f} ms")
        _line(f"  {name}: alert latency p99 / {base}", f"{n_p99 / p99:.2f}x",
              f"{n_p99:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--throughput-tables", type=int, default=200)
    parser.add_argument("--rate", type=float, default=500.0,
                        help="room load in events per second during the latency run")
    parser.add_argument("--probes", type=int, default=300)
    parser.add_argument("--broker", choices=["mosquitto", "amqtt"], default="mosquitto")
    parser.add_argument("--tls", action="store_true",
                        help="throughput and latency with TLS, against the same runs without")
    parser.add_argument("--controls", action="store_true",
                        help="the cost of the security controls: an open broker (the "
                             "baseline), then accounts and topic checks, then both with TLS")
    parser.add_argument("--rounds", type=int, default=1, choices=[1, 2],
                        help="with --tls or --controls: 2 runs the variants A B B A")
    parser.add_argument("--no-access", action="store_true",
                        help="an open broker: no accounts, no topic checks (to measure their "
                             "cost; never in production)")
    args = parser.parse_args()
    if args.controls:
        bench_compare(args, ["open", "access", "TLS"])
        return
    if args.tls:
        bench_compare(args, ["access", "TLS"] if not args.no_access else ["open", "TLS"])
        return
    from benchmarks.brokers import broker
    bench_direct(BenchSetup(args.throughput_tables))
    bench_memory(args.tables)
    with broker(args.broker, access=not args.no_access,
                tables=max(args.tables, args.throughput_tables)) as url:
        print(f"broker: {args.broker} at {url}, access control "
              f"{'off' if args.no_access else 'on'}")
        bench_backlog(BenchSetup(args.throughput_tables), url)
        bench_latency(BenchSetup(args.tables), url, args.rate, args.probes)


if __name__ == "__main__":
    main()
