"""A championship on one hub (issue 16): many tables in several sections, live scoring on,
against ``tenace hub`` in its own process through Mosquitto with every account checked, and
the figures that say whether the hub keeps up.

:func:`run_championship` sets up, in a temporary folder, the accounts of the event and of
the tools (their passwords in a keyring every client of this process and the hub's reads),
a Mosquitto (:class:`hub.mosquitto.Mosquitto`, with ``deploy/mosquitto.conf``'s limits) and
the hub in its own process (:class:`tenace.sim.chaos.HubProcess`: its log started with the
set-up). The event is :func:`championship_setup`: ``tables`` tables shared out among
``sections`` Mitchell sections (A, B, C...) on the same boards, and a probe section ``P`` of
two tables where nobody plays. Every table plays its script (:func:`tenace.sim.session.
simulate`, irregularities injected) through the real device link, one
:class:`wire.link.DeviceLink` per device (the accounts allow no less: a device writes only
its own topic, hub/access.py), at the script's pace (:func:`tenace.sim.driver.run_tables`),
all the links of a process driven by one :class:`wire.mux.LinkLoop` thread (``mux``: no
thread per device or table, the link's usual keepalive), in one process or shared out among
several.

Meanwhile it measures, with the director's view (:class:`tenace.sim.observer.Observer`,
the rankings and travellers included) and a probe client (a hub-role account):

* ``alert_ms``: a device event to the director's alert (a ``director_call`` at a table of
  section P, the alert read back by the probe), against ``echo_ms``, the broker's own round
  trip measured by the same client in the same moments (an echo on its own topic);
* ``traveller_ms`` and ``ranking_ms``: a board's last card at a table (the answer that
  settled a claim; the last call of a board passed out) to the first traveller of its
  section carrying that table's result, and to the ranking published with it (the last
  ranking of the section that arrived at the latest with that traveller): the hub's
  coalescing of the scores (``score_interval``, 0.25 s) is part of it, by design;
* ``rss``: the hub process's resident memory (``/proc/PID/status``), sampled every
  ``memory_every`` seconds from the first event to the last;
* ``log_bytes`` and ``sittings``: the event log's size (with its ``-wal``) once the hub has
  stopped, and the boards played at all tables;
* the correctness: injected vs detected (:func:`tenace.sim.script.compare`, the probe's
  alerts left out), and ``results_equal``: every ranking and traveller the hub published
  equal to those of the script applied to a room without any network
  (:func:`tenace.sim.chaos.clean_room`, :func:`tenace.sim.chaos.published_differences`).

No time is asserted anywhere; benchmarks/championship.py prints the figures.
:class:`tenace.sim.chaos.ChaosError` when the broker or the hub cannot be set up, and
:class:`tenace.sim.driver.DriverError` when a table cannot get its events through.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import random
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tenace.sim.devices import DeviceEvent

__all__ = ["PROBE_ACCOUNT", "PROBE_SECTION", "Championship", "championship_setup",
           "run_championship"]

log = logging.getLogger(__name__)

PROBE_SECTION = "P"
PROBE_ACCOUNT = "tenace-hub.probe"
_KEEPALIVE = 15    # the simulated devices' (driver.run_tables): the link's own
_CONNECT = 300.0   # seconds a simulated device may take to connect (a thousand at once)
_PLAY = frozenset({"card", "claim_answer"})   # what ends the play of a board (or a call)


@dataclass(slots=True)
class Championship:
    """What one run measured (module docstring); times in milliseconds, ``rss`` as
    (seconds since the start of play, bytes)."""

    tables: int
    sections: int
    boards: int                       # per table
    events: int = 0
    seconds: float = 0.0              # the whole play, first event to last reply
    alert_ms: list[float] = field(default_factory=list)
    echo_ms: list[float] = field(default_factory=list)
    traveller_ms: list[float] = field(default_factory=list)
    ranking_ms: list[float] = field(default_factory=list)
    rss: list[tuple[float, int]] = field(default_factory=list)
    log_bytes: int = 0
    sittings: int = 0
    report: dict[str, Any] = field(default_factory=dict)   # compare()'s, and results_equal
    rejected: list[dict[str, Any]] = field(default_factory=list)
    killed: list[tuple[int, int]] = field(default_factory=list)   # (shard, its events logged)


def championship_setup(tables: int, sections: int, boards_per_round: int, rounds: int,
                       seed: int, minutes: float = 15.0, shards: int = 1,
                       one_field: bool = False) -> Any:
    """``tables`` Mitchell tables in ``sections`` sections (A, B...), and section P's two
    tables for the probe; the deals drawn from ``seed``; ``shards`` hub processes
    (hub.shards); ``one_field``: the sections ranked as one field too (hub.field)."""
    from bridgecore.bigdeal import random_deal
    from hub.event import EventSetup, SectionSetup
    from tenace.sim.cli import section_name, section_sizes

    parts = [SectionSetup(section_name(i), "mitchell", tables=size,
                          boards_per_round=boards_per_round, rounds=rounds)
             for i, size in enumerate(section_sizes(tables, sections))]
    parts.append(SectionSetup(PROBE_SECTION, "mitchell", tables=2, boards_per_round=1,
                              rounds=1))
    rng = random.Random(seed)
    numbers = sorted({b for part in parts for b in part.movement.boards})
    deals = {n: random_deal(rng) for n in numbers}
    return EventSetup(tuple(parts), deals, minutes_per_round=minutes,
                      boards_source="deals given", shards=shards, one_field=one_field)


@contextlib.contextmanager
def _accounts(folder: Path, setup: Any) -> Iterator[Any]:
    from hub.access import SHARD_ROLE
    from hub.accounts import Accounts, event_accounts, write_keyring
    from hub.shards import shard_accounts
    from tenace.live import TOOL_ACCOUNTS
    from wire.mqtt import using_keyring

    accounts = Accounts(folder / "accounts")
    issued = accounts.issue_all({**event_accounts(setup), **TOOL_ACCOUNTS,
                                 PROBE_ACCOUNT: "hub"})
    if setup.shards > 1:     # each shard's account, its tables and sections (hub.access)
        issued += [accounts.issue(name, SHARD_ROLE, scope=scope, save=False)
                   for name, scope in shard_accounts(setup, setup.shards)]
        accounts.save()
    with using_keyring(write_keyring(folder / "keyring.json", issued)):
        yield accounts


def _rss_all(pids: Sequence[int]) -> int:
    return sum(_rss(pid) for pid in pids)


def _rss(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class _Probe:
    """The broker's round trip and a device event to the director's alert, in turns, from
    one hub-role client, until stopped or ``count`` probes are done."""

    def __init__(self, url: str, count: int, gap: float):
        from wire.mqtt import MqttClient
        from wire.protocol import ROOT

        self.count, self.gap = count, gap
        self.echo_topic = f"{ROOT}/echo/{PROBE_ACCOUNT}"
        self.alert_ms: list[float] = []
        self.echo_ms: list[float] = []
        self.alert_ids: set[str] = set()
        self.client = MqttClient(url, PROBE_ACCOUNT, clean_session=True, start=False)
        self.client.subscribe(f"{ROOT}/director/alert/+", 1, wait=False)
        self.client.subscribe(self.echo_topic, 1, wait=False)
        self.client.start().wait_connected(30.0)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="championship-probe",
                                       daemon=True)

    def _wait(self, test: Any, limit: float = 30.0) -> bool:
        deadline = time.monotonic() + limit
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = self.client.messages.get(timeout=left)
            except queue.Empty:
                return False
            if test(message):
                return True
        return False

    def _run(self) -> None:
        from wire.protocol import ROOT

        table = f"{PROBE_SECTION}1"
        device = f"{table}-tab"
        for seq in range(1, self.count + 1):
            if self.stop.wait(self.gap):
                return
            t0 = time.perf_counter()
            self.client.publish(self.echo_topic, str(seq), 1)
            if not self._wait(lambda m: m.topic == self.echo_topic):
                log.warning("championship probe: echo %d not back", seq)
                return
            self.echo_ms.append((time.perf_counter() - t0) * 1000)
            payload = json.dumps({"v": 1, "id": f"probe-{seq}", "device": device, "seq": seq,
                                  "time": time.time(), "type": "director_call", "body": {}})
            t0 = time.perf_counter()
            self.client.publish(f"{ROOT}/t/{table}/ev/{device}", payload, 1)

            def alert(m: Any) -> bool:   # each director call is a new alert (9B1)
                if "/director/alert/" not in m.topic or not m.payload:
                    return False
                alert_id = m.topic.rsplit("/", 1)[1]
                if alert_id in self.alert_ids or f'"{table}"'.encode() not in m.payload:
                    return False
                self.alert_ids.add(alert_id)
                return True
            if not self._wait(alert):
                log.warning("championship probe: no alert for probe %d", seq)
                return
            self.alert_ms.append((time.perf_counter() - t0) * 1000)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(60)
        self.client.close(farewell=False)


def _ends(scripts: Mapping[str, Sequence[DeviceEvent]]
          ) -> dict[str, list[tuple[int, int, int]]]:
    """Per table, each sitting as (board, first event index, end index): the events of the
    board from its announcement to the next one."""
    out: dict[str, list[tuple[int, int, int]]] = {}
    for table, events in scripts.items():
        marks = [(i, int(e.body["board"])) for i, e in enumerate(events) if e.type == "board"]
        spans = []
        for k, (start, board) in enumerate(marks):
            end = marks[k + 1][0] if k + 1 < len(marks) else len(events)
            spans.append((board, start, end))
        out[table] = spans
    return out


def run_championship(*, tables: int = 1000, sections: int = 10, boards_per_round: int = 3,
                     rounds: int = 9, pace: float = 0.05, seed: int = 2026,
                     inject: Mapping[str, float] | None = None, probes: int = 400,
                     probe_gap: float = 0.05, memory_every: float = 1.0,
                     reply_timeout: float = 10.0, processes: int = 1,
                     folder: str | Path | None = None, shards: int = 1,
                     one_field: bool = False, kill_shard: int | None = None) -> Championship:
    """One championship (module docstring): ``tables`` in ``sections``, each table playing
    ``rounds`` rounds of ``boards_per_round`` boards at ``pace`` of a club's pace;
    ``inject``: rates by kind (:mod:`tenace.sim.script`); ``probes`` alert probes at most,
    ``probe_gap`` seconds apart. ``folder`` keeps the broker's, the hub's and the accounts'
    files (default: a temporary folder, removed). ``processes``: the tables shared out among
    that many driver processes (one device link per device all the same). ``shards``: the
    hub as that many processes (hub.shards; ``rss`` their sum); ``one_field``: the sections
    ranked as one field too, compared with the ground truth's field. ``kill_shard``: that
    shard's process killed (SIGKILL) once its log holds half of its tables' events, and
    started again at once on its own log, while the others play on."""
    if folder is None:
        with tempfile.TemporaryDirectory(prefix="tenace-championship-") as temporary:
            return _run(Path(temporary), tables, sections, boards_per_round, rounds, pace,
                        seed, inject or {}, probes, probe_gap, memory_every, reply_timeout,
                        processes, shards, one_field, kill_shard)
    return _run(Path(folder), tables, sections, boards_per_round, rounds, pace, seed,
                inject or {}, probes, probe_gap, memory_every, reply_timeout, processes,
                shards, one_field, kill_shard)


def _run(folder: Path, tables: int, sections: int, boards_per_round: int, rounds: int,
         pace: float, seed: int, inject: Mapping[str, float], probes: int, probe_gap: float,
         memory_every: float, reply_timeout: float, processes: int, shards: int = 1,
         one_field: bool = False, kill_shard: int | None = None) -> Championship:
    from hub.broker import BrokerError
    from hub.mosquitto import Mosquitto
    from hub.shards import Shard
    from hub.store import LOG_NAME
    from tenace.sim.chaos import MOSQUITTO_EXTRA, ChaosError, HubProcess
    from tenace.sim.observer import Observer
    from tenace.sim.session import simulate

    setup = championship_setup(tables, sections, boards_per_round, rounds, seed,
                               shards=shards, one_field=one_field)
    room = setup.build_room()
    played = [s for s in room.sections if s.name != PROBE_SECTION]
    script = simulate(played, {n: room.deal(n) for n in setup.deals}, seed=seed,
                      inject=inject, pace=pace, edition=room.edition, start=time.time())
    scripts = script.events_by_table
    out = Championship(tables, sections, boards_per_round * rounds, events=script.events,
                       sittings=sum(1 for ev in scripts.values() for e in ev
                                    if e.type == "board"))
    sent: dict[str, list[float]] = {t: [0.0] * len(ev) for t, ev in scripts.items()}
    folder.mkdir(parents=True, exist_ok=True)
    with _accounts(folder, setup) as accounts:
        try:
            broker = Mosquitto(folder / "mosquitto",
                               MOSQUITTO_EXTRA, accounts=accounts)
        except BrokerError as err:
            raise ChaosError(f"the broker: {err}") from err
        hubs = ([HubProcess(broker.url, folder / "data", setup)] if shards == 1 else
                [HubProcess(broker.url, folder / "data", setup, Shard(k, shards))
                 for k in range(shards)])
        try:
            pids = []
            # The director's view first: it takes only what is published after it came
            # (fresh), and a hub publishes every ranking once as it starts.
            with Observer(broker.url, scores=True) as director:
                for hub in hubs:
                    hub.start()
                    assert hub.process is not None
                    pids.append(hub.process.pid)
                probe = _Probe(broker.url, probes, probe_gap)
                stop_sampling = threading.Event()
                began = time.monotonic()

                def sample() -> None:
                    while True:
                        out.rss.append((time.monotonic() - began, _rss_all(pids)))
                        if stop_sampling.wait(memory_every):
                            return
                sampler = threading.Thread(target=sample, name="championship-rss",
                                           daemon=True)
                sampler.start()
                probe.thread.start()
                killer = None if kill_shard is None else _Killer(
                    hubs[kill_shard], pids, kill_shard, scripts, out)
                try:
                    pacer = _Pacer(script.round_starts.get(1, 0.0), time.time())
                    rejected = _play(broker.url, scripts, pacer, reply_timeout, processes,
                                     sent)
                finally:
                    out.seconds = time.monotonic() - began
                    if killer is not None:
                        killer.close()
                    probe.close()
                    stop_sampling.set()
                    sampler.join()
                out.rss.append((time.monotonic() - began, _rss_all(pids)))
                director.settle(quiet=1.0, limit=120.0)
                with director.lock:
                    alerts = [a for a in director.alerts.values()
                              if a.get("id") not in probe.alert_ids]
                    published = dict(director.scores)
                    row_seen = dict(director.row_seen)
                    ranking_seen = {k: list(v) for k, v in director.ranking_seen.items()}
        finally:
            for hub in hubs:
                hub.stop()
            broker.stop()
        out.log_bytes = sum(p.stat().st_size for hub in hubs
                            for p in hub.data.glob(f"{LOG_NAME}*"))
    out.alert_ms, out.echo_ms = probe.alert_ms, probe.echo_ms
    _board_times(out, scripts, sent, row_seen, ranking_seen, setup)
    from tenace.sim.chaos import clean_room, published_differences
    from tenace.sim.script import compare

    out.report = compare(script.injected, alerts, script.expected,
                         [k for k, rate in script.rates.items() if rate > 0])
    differences = published_differences(clean_room(setup, script)[0], published,
                                        one_field=one_field)
    out.report["results_equal"] = not differences
    if differences:
        out.report["differences"] = differences[:50]
    out.rejected = rejected
    return out


class _Killer:
    """A shard killed mid-session (SIGKILL) once its log holds half of its tables'
    events, and started again at once on its own log (module docstring)."""

    def __init__(self, hub: Any, pids: list[int], index: int,
                 scripts: Mapping[str, Sequence[DeviceEvent]], out: Championship):
        self.hub, self.pids, self.index, self.out = hub, pids, index, out
        tables = {t for s in hub.shard.restrict(hub.setup).sections for t in s.ids}
        self.half = sum(len(ev) for t, ev in scripts.items() if t in tables) // 2
        self.stop = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="championship-killer",
                                       daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            while not self.stop.wait(0.2):
                logged = len(self.hub.device_ids())
                if logged >= self.half:
                    killed = self.hub.kill()
                    self.out.killed.append((self.index, logged))
                    self.hub.start(started_after=killed)
                    self.pids[self.index] = self.hub.process.pid
                    return
        except BaseException as err:   # reported by close()
            self.error = err

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        if self.error is not None:
            raise self.error


@dataclass(frozen=True, slots=True)
class _Pacer:
    """:meth:`tenace.sim.script.SimScript.pacer` as a value a driver process can be given:
    device time -> seconds to wait, round 1 starting at ``wall`` (``time.time()``)."""

    origin: float
    wall: float

    def __call__(self, device_time: float) -> float:
        return (device_time - self.origin) - (time.time() - self.wall)


def _play_part(url: str, scripts: Mapping[str, Sequence[DeviceEvent]], pacer: Any,
               reply_timeout: float, results: Any) -> None:
    """In a driver process of its own: play ``scripts``, put (sent, rejected, error)."""
    from tenace.sim.driver import DriverError, run_tables

    sent = {t: [0.0] * len(ev) for t, ev in scripts.items()}

    def on_sent(table: str, index: int, when: float) -> None:
        sent[table][index] = when
    error = None
    rejected: list[dict[str, Any]] = []
    try:
        runs = run_tables(url, scripts, realtime=pacer, timeout=reply_timeout,
                          on_sent=on_sent, keepalive=_KEEPALIVE,
                          connect_timeout=_CONNECT, mux=True)
        rejected = _rejected(runs)
    except DriverError as err:
        error = str(err)
    results.put((sent, rejected, error))


def _rejected(runs: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [{"table": t, "type": env.type, "code": reply.code, "reason": reply.reason}
            for t, run in runs.items() for env, reply in run.rejected]


def _play(url: str, scripts: Mapping[str, Sequence[DeviceEvent]], pacer: Any,
          reply_timeout: float, processes: int,
          sent: dict[str, list[float]]) -> list[dict[str, Any]]:
    """Every table's script through the real device link: in this process, or shared out
    among ``processes`` driver processes (spawned, not forked: this process has threads;
    each gets its tables' scripts and the pacer, and the keyring through the environment;
    ``time.monotonic()`` is the machine's, the same in all of them). Fills ``sent``;
    returns the events refused; DriverError if a table could not get an event through."""
    from tenace.sim.driver import DriverError, run_tables

    if processes <= 1:
        def on_sent(table: str, index: int, when: float) -> None:
            sent[table][index] = when
        return _rejected(run_tables(url, scripts, realtime=pacer, timeout=reply_timeout,
                                    on_sent=on_sent, keepalive=_KEEPALIVE,
                                    connect_timeout=_CONNECT, mux=True))
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    tables = list(scripts)
    parts = [{t: scripts[t] for t in tables[k::processes]} for k in range(processes)]
    workers = [context.Process(target=_play_part, name=f"championship-driver-{k}",
                               args=(url, part, pacer, reply_timeout, results), daemon=True)
               for k, part in enumerate(parts) if part]
    for worker in workers:
        worker.start()
    rejected: list[dict[str, Any]] = []
    errors: list[str] = []
    for _ in workers:
        part_sent, part_rejected, error = results.get()
        sent.update(part_sent)
        rejected += part_rejected
        if error:
            errors.append(error)
    for worker in workers:
        worker.join()
    if errors:
        raise DriverError("; ".join(errors))
    return rejected


def _board_times(out: Championship, scripts: Mapping[str, Sequence[DeviceEvent]],
                 sent: Mapping[str, list[float]],
                 row_seen: Mapping[tuple[str, int, str, int], float],
                 ranking_seen: Mapping[str, list[float]], setup: Any) -> None:
    """Each board at each table: its last card (the answer that settled a claim; the last
    call of a board passed out) to the first traveller carrying its result, and to the
    ranking published with it."""
    import bisect

    section_of = {tid: s.name for s in setup.sections for tid in s.ids}
    rounds: dict[tuple[str, int], list[tuple[int, float]]] = {}
    for (_key, board, table, round_), seen in row_seen.items():
        rounds.setdefault((table, board), []).append((round_, seen))
    for table, spans in _ends(scripts).items():
        times = sent[table]
        events = scripts[table]
        for board, start, end in spans:
            arrivals = rounds.get((table, board))
            if not arrivals:
                continue   # an extra board (Law 15) the hub does not score here
            seen = min(t for _, t in arrivals)
            span = range(start, end)
            ends = [i for i in span if events[i].type in _PLAY] or \
                [i for i in span if events[i].type == "call"]   # passed out
            if not ends or not 0 < times[ends[-1]] <= seen:
                continue
            done = times[ends[-1]]
            out.traveller_ms.append((seen - done) * 1000)
            ranks = ranking_seen.get(section_of.get(table, ""), [])
            at = bisect.bisect_right(ranks, seen)
            if at and ranks[at - 1] >= done:
                out.ranking_ms.append((ranks[at - 1] - done) * 1000)


def summary(result: Championship) -> dict[str, Any]:
    """The figures of a run as JSON values (benchmarks/championship.py prints them)."""
    rss = [r for _, r in result.rss if r]
    first, middle, last = (rss[0], rss[len(rss) // 2], rss[-1]) if rss else (0, 0, 0)
    report = result.report
    return {
        "tables": result.tables, "sections": result.sections, "boards": result.boards,
        "events": result.events, "seconds": round(result.seconds, 1),
        "events_per_second": round(result.events / result.seconds) if result.seconds else 0,
        "echo_ms": [_percentile(result.echo_ms, 0.5), _percentile(result.echo_ms, 0.99)],
        "alert_ms": [_percentile(result.alert_ms, 0.5), _percentile(result.alert_ms, 0.99)],
        "probes": len(result.alert_ms),
        "traveller_ms": [_percentile(result.traveller_ms, 0.5),
                         _percentile(result.traveller_ms, 0.99)],
        "ranking_ms": [_percentile(result.ranking_ms, 0.5), _percentile(result.ranking_ms, 0.99)],
        "boards_timed": len(result.traveller_ms),
        "rss": [first, middle, last], "rss_ratio": last / first if first else float("nan"),
        "log_bytes": result.log_bytes, "sittings": result.sittings,
        "log_bytes_per_board": result.log_bytes / result.sittings if result.sittings else 0,
        "injected": sum(report.get("injected", {}).values()),
        "detected": sum(report.get("detected", {}).values()),
        "missed": len(report.get("missed", [])),
        "false_alarms": len(report.get("false_alarms", [])),
        "results_equal": report.get("results_equal"),
        "rejected": len(result.rejected),
    }
