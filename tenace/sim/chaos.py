"""A simulated room under chaos (``tenace sim --chaos``): the hub killed, the broker
restarted and crashed, tables cut off, messages duplicated and delayed; then the results
compared with a clean run of the same seed.

:func:`run_chaos` sets up, in a folder of its own (a temporary one unless given):

* the accounts of the event and of the tools, issued there, their passwords in a keyring
  file every client of this process (and the hub's process) reads (``TENACE_MQTT_KEYRING``);
* a Mosquitto (:class:`hub.mosquitto.Mosquitto`, with ``deploy/mosquitto.conf``'s
  persistence and limits, :data:`MOSQUITTO_EXTRA`);
* the hub in its own process (``python -m tenace hub --broker URL --data DIR --console
  off``), its event log started with the simulation's set-up (the hub goes on with it);
* one TCP proxy per table (:mod:`tenace.sim.proxy`) through which that table's devices reach
  the broker: it duplicates and delays their messages and can cut the table off.

Every table plays its script (:func:`tenace.sim.session.simulate`) through the real device
link (:class:`wire.link.DeviceLink`, an outbox in memory per device, ``sent`` stamps as a
tablet puts them) at the script's pace. Meanwhile the faults of the :class:`ChaosPlan`
happen at moments drawn from the seed, one after the other: SIGKILL of the hub (restarted at
once on the same data directory; every event acknowledged to a device must be in the log
at the kill), a graceful restart of the broker (SIGTERM: it saves its persistence file), a
crash of the broker (SIGKILL), and cuts of a table's network for a while. Two ways for a
table whose devices are offline (``play_on``):

* ``True`` (the real tablet and card reader): while its device is online, each event waits
  for the hub's answer before the next one is played (the players see it on the tablet);
  while the device is offline (its table cut off, the broker or the hub away), the players
  go on at their own pace (never sooner after their last event than the script has them,
  even when the table is behind its schedule: a table slowed by a busy hub does not rush
  through the rest of its session in a few seconds), the device's events wait in its
  outbox and go when the network is back. A table waits for its event's answer at most
  ``event_timeout`` after the hub last answered that device (one emptying its outbox is
  answered event by event: it is not stuck);
* ``False``: a device waits for the hub's answer to each event before the next one is
  played, online or not (what the issue found to hold).

When every table has played and every outbox is empty, the hub is stopped and the report
made from its event log (the truth the hub keeps): ``lost`` (events a device entered that
the log lacks, not counting those a clean run refuses too), ``duplicated`` (device events
the log holds more than once), ``refused`` (events refused that a clean run accepts),
``restarts`` (of the hub and the broker), ``results_equal`` (every board's result at every
table, every traveller and every ranking equal to those of :func:`clean_room`: the same
script applied to a room without any network). ``differences`` lists what differs.

The injected vs detected counts come from the alerts of the room the log holds (a table cut
off for longer than the hub's offline grace is expected to raise ``device_offline``).

Errors: :class:`ChaosError` (a RuntimeError) when the broker, the hub or the proxies cannot
be set up or a table cannot finish (names what; the broker's and the proxies' own errors
are wrapped in it); :class:`tenace.sim.script.SimError` for a :class:`ChaosPlan` that makes
no sense.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import queue
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tenace.sim.devices import DeviceEvent, apply_local, envelopes
from tenace.sim.script import Expected, SimError, SimScript, compare

__all__ = ["MOSQUITTO_EXTRA", "ChaosError", "ChaosPlan", "HubProcess", "clean_room",
           "published_differences", "report_lines", "results_of", "run_chaos"]

log = logging.getLogger(__name__)

MOSQUITTO_EXTRA = ("autosave_interval 30", "max_inflight_messages 20",
                   "persistent_client_expiration 2d", "max_packet_size 1048576")
"""deploy/mosquitto.conf's settings that matter here, beside the persistence the test
broker always has (hub/mosquitto.py)."""

_KINDS = {"tab": "tablet", "rdr": "reader"}
_OFFLINE_GRACE = 15.0   # the hub's default grace before a device_offline alert


class ChaosError(RuntimeError):
    """The chaos run could not be set up or could not finish (names what)."""


@dataclass(frozen=True, slots=True)
class ChaosPlan:
    """The faults of one run. Counts of each fault; ``cut_seconds`` the range of a cut's
    length; ``duplicate`` the rate of device messages sent twice; ``delay`` the range of
    seconds each device message is held back; ``window`` the part of the session (fractions
    of its length) where the faults happen; ``play_on`` as in the module docstring."""

    hub_kills: int = 2
    broker_restarts: int = 1
    broker_kills: int = 1
    cuts: int = 2
    cut_seconds: tuple[float, float] = (30.0, 120.0)
    duplicate: float = 0.02
    delay: tuple[float, float] = (0.0, 0.02)
    window: tuple[float, float] = (0.1, 0.8)
    play_on: bool = True

    def __post_init__(self) -> None:
        counts = (self.hub_kills, self.broker_restarts, self.broker_kills, self.cuts)
        if min(counts) < 0:
            raise SimError(f"fault counts cannot be negative: {counts}")
        for name, (lo, hi) in (("cut_seconds", self.cut_seconds), ("delay", self.delay),
                               ("window", self.window)):
            if lo < 0 or hi < lo:
                raise SimError(f"{name}: a range (low, high) from 0, not {(lo, hi)}")
        if self.window[1] > 1:
            raise SimError(f"window: fractions of the session, not {self.window}")
        if not 0 <= self.duplicate <= 1:
            raise SimError(f"duplicate: a rate from 0 to 1, not {self.duplicate}")


@dataclass(frozen=True, slots=True)
class _Fault:
    at: float                # seconds after the session started
    kind: str                # hub_kill, broker_restart, broker_kill, cut
    table: str | None = None
    seconds: float = 0.0


def _schedule(plan: ChaosPlan, rng: random.Random, length: float,
              tables: Sequence[str]) -> list[_Fault]:
    lo, hi = plan.window
    faults: list[_Fault] = []
    for kind, count in (("hub_kill", plan.hub_kills), ("broker_restart", plan.broker_restarts),
                        ("broker_kill", plan.broker_kills)):
        faults += [_Fault(rng.uniform(lo, hi) * length, kind) for _ in range(count)]
    for _ in range(plan.cuts):
        faults.append(_Fault(rng.uniform(lo, hi) * length, "cut", rng.choice(list(tables)),
                             round(rng.uniform(*plan.cut_seconds), 3)))
    faults.sort(key=lambda f: f.at)
    return faults


# The clean run and the results --------------------------------------------------------------

def clean_room(setup: Any, script: SimScript) -> tuple[Any, set[tuple[str, int]]]:
    """The room after the whole script applied without any network (the ground truth), and
    the events it refuses, as (device, seq)."""
    room = setup.build_room()
    events = script.merged()
    outcomes, _ = apply_local(room, events)
    refused = {(env.device, env.seq) for (_, env), out in zip(envelopes(events), outcomes,
                                                             strict=True)
               if out.reply.status != "ack"}
    return room, refused


_VOLATILE = frozenset({"time", "at", "hub_time", "updated"})


def results_of(room: Any) -> dict[str, Any]:
    """Every result by "section/table/round/board", and every traveller and ranking by
    section, as JSON values (what two rooms must agree on)."""
    out: dict[str, Any] = {}
    for scored in room.scoring.sections():
        out[f"ranking/{scored.key}"] = scored.ranking_json()
        for board in sorted(scored.lines):
            traveller = scored.traveller_json(board)
            out[f"traveller/{scored.key}/{board}"] = traveller
            for row in traveller["results"]:
                out[f"result/{scored.key}/{row['table']}/{row['round']}/{board}"] = {
                    k: v for k, v in row.items() if k not in _VOLATILE}
    return out


def published_differences(clean: Any, published: Mapping[str, Any],
                          one_field: bool = False) -> list[str]:
    """What the hub published of the live scores (``published``: the latest payload of each
    ``results/ranking/...`` and ``results/traveller/...`` topic, as JSON values) against the
    same publications of the ``clean`` room (:func:`clean_room`, the ground truth: every
    ranking and traveller of every section; with ``one_field`` the field's ranking,
    ``results/field``, made from them); empty if every one is equal. A traveller the
    hub emptied (its last result gone) counts as absent."""
    import json

    truth = {topic: json.loads(payload)
             for topic, payload in clean.scoring.publications(force=True)}
    if one_field:
        truth.update(field_truth(truth, clean.edition.name, clean.conventions))
    live = {topic: data for topic, data in published.items() if data}
    return _differences(truth, live, "not published by the hub")


def field_truth(publications: Mapping[str, Any], edition: str,
                conventions: str = "") -> dict[str, Any]:
    """``results/field`` as the field's ranking (hub.field) of these sections' rankings and
    travellers (topic -> JSON value) comes out."""
    from hub.field import FieldRanking
    from wire.protocol import parse_topic, topic_field_ranking

    field = FieldRanking(edition, conventions)
    for topic, data in publications.items():
        parsed = parse_topic(topic)
        if parsed.kind == "traveller" and parsed.section and parsed.board:
            field.traveller(parsed.section, parsed.board, data)
        elif parsed.kind == "ranking" and parsed.section:
            field.ranking(parsed.section, data)
    return {topic_field_ranking(): field.ranking_json()}


def _differences(clean: Mapping[str, Any], chaos: Mapping[str, Any],
                 missing: str = "missing after the chaos run") -> list[str]:
    out = []
    for key in sorted(clean.keys() | chaos.keys()):
        if key not in chaos:
            out.append(f"{key}: {missing}")
        elif key not in clean:
            out.append(f"{key}: not in the clean run")
        elif clean[key] != chaos[key]:
            out.append(f"{key}: differs{_where(clean[key], chaos[key])}")
    return out


def _where(clean: Any, chaos: Any, path: str = "") -> str:
    """Where two JSON values first differ: `` at PATH: CLEAN != CHAOS``."""
    if isinstance(clean, dict) and isinstance(chaos, dict):
        for k in sorted(clean.keys() | chaos.keys(), key=str):
            if clean.get(k) != chaos.get(k):
                return _where(clean.get(k), chaos.get(k), f"{path}.{k}")
    if (isinstance(clean, list) and isinstance(chaos, list) and len(clean) == len(chaos)):
        for i, (a, b) in enumerate(zip(clean, chaos, strict=True)):
            if a != b:
                return _where(a, b, f"{path}[{i}]")
    return f" at {path or '.'}: {clean!r:.200} != {chaos!r:.200}"


# One table --------------------------------------------------------------------------------

@dataclass(slots=True)
class _TableRun:
    table: str
    entered: dict[str, tuple[str, int]] = field(default_factory=dict)  # id -> (device, seq)
    replies: dict[str, Any] = field(default_factory=dict)   # id -> final Reply
    answered: dict[str, float] = field(default_factory=dict)  # device -> last reply (monotonic)
    published: int = 0
    error: str | None = None


class _Room:
    """Every table's devices, each through its table's proxy; replies collected."""

    def __init__(self, url_of: Callable[[str], str], scripts: Mapping[str, Sequence[DeviceEvent]],
                 *, reply_timeout: float, connect_timeout: float):
        from wire.link import DeviceLink
        from wire.outbox import Outbox

        self.runs = {t: _TableRun(t) for t in scripts}
        self.acked: set[str] = set()
        self._lock = threading.Lock()
        self._answered = threading.Condition(self._lock)
        self.links: dict[str, dict[str, DeviceLink]] = {}
        try:
            for table, events in scripts.items():
                run = self.runs[table]
                self.links[table] = {
                    device: DeviceLink(
                        url_of(table), table, device, outbox=Outbox(":memory:", device),
                        views=False, presence=True,
                        kind=_KINDS.get(device.rpartition("-")[2], "tablet"),
                        stamp_sent=True, reply_timeout=reply_timeout,
                        reconnect_delay=(0.1, 1.0),
                        on_reply=functools.partial(self._reply, run))
                    for device in sorted({e.device for e in events})}
            for links in self.links.values():
                for link in links.values():
                    link.client.wait_connected(connect_timeout)
        except BaseException:
            self.close()
            raise

    def _reply(self, run: _TableRun, reply: Any, env: Any) -> None:
        with self._answered:
            run.replies[env.id] = reply
            run.answered[env.device] = time.monotonic()
            if reply.status == "ack":
                self.acked.add(env.id)
            self._answered.notify_all()

    @staticmethod
    def _settled(run: _TableRun, ref: str, stop: threading.Event,
                 offline: Callable[[], bool] | None) -> bool:
        """Whether the table may go on: the event answered, the run stopped, or (a table
        that plays on) its device offline."""
        return ref in run.replies or stop.is_set() or (offline is not None and offline())

    @staticmethod
    def _offline(link: Any) -> bool:
        from wire.link import LinkState
        return link.connection is not LinkState.ONLINE

    def acked_ids(self) -> set[str]:
        with self._lock:
            return set(self.acked)

    def play(self, table: str, events: Sequence[DeviceEvent], pacer: Callable[[float], float],
             play_on: bool, timeout: float, stop: threading.Event) -> None:
        run = self.runs[table]
        links = self.links[table]
        previous: tuple[float, float] | None = None   # (script time, monotonic) of the last
        try:
            for event in events:
                # The players' pace: never sooner after the last event than the script has
                # them (a table behind its schedule, its hub slow, does not rush through the
                # rest of its session in a few seconds when it goes offline), nor before the
                # script's own time.
                delay = pacer(event.time)
                if previous is not None:
                    delay = max(delay, (event.time - previous[0])
                                - (time.monotonic() - previous[1]))
                if delay > 0 and stop.wait(delay):
                    return
                if stop.is_set():
                    return
                previous = (event.time, time.monotonic())
                link = links[event.device]
                env = link.send(event.type, dict(event.body), at=event.at)
                run.entered[env.id] = (env.device, env.seq)
                offline = functools.partial(self._offline, link) if play_on else None
                sent = time.monotonic()
                with self._answered:   # polled: a link says nothing when it goes offline
                    while not self._settled(run, env.id, stop, offline):
                        # A device still emptying its outbox (what its table played offline
                        # goes first, one reply at a time) is not stuck: the wait counts
                        # from the hub's last answer to it.
                        since = max(sent, run.answered.get(env.device, sent))
                        left = since + timeout - time.monotonic()
                        if left <= 0:
                            run.error = f"table {table}: no reply to {env.type} {env.id} " \
                                        f"in {timeout:g} s (nor to any other event of " \
                                        f"{env.device}, {link.pending} pending)"
                            return
                        self._answered.wait(min(left, 0.05))
        except Exception as err:   # reported, not raised in a thread
            run.error = f"table {table}: {err}"

    def wait_delivered(self, timeout: float) -> list[str]:
        """Until every outbox is empty; the devices still holding events after ``timeout``."""
        deadline = time.monotonic() + timeout
        late = []
        for links in self.links.values():
            for device, link in links.items():
                if not link.wait_delivered(max(0.1, deadline - time.monotonic())):
                    late.append(f"{device} ({link.pending} pending)")
        return late

    def close(self) -> None:
        for table, links in self.links.items():
            for link in links.values():
                link.close(farewell=True)
                self.runs[table].published += link.published
                link.outbox.close()
        self.links = {}


# The hub in its own process -----------------------------------------------------------------

class HubProcess:
    """``python -m tenace hub`` on ``data`` against ``url``, killed and started again.
    ``shard``: a hub.shards.Shard, this process is that shard (``tenace hub --shard K --of
    N``; its log in ``data``/shard-K holds its own sections' set-up)."""

    def __init__(self, url: str, data: Path, setup: Any, shard: Any = None):
        from hub.log_records import Record
        from hub.setup_facts import SETUP_FACT
        from hub.store import LOG_NAME, EventLog

        self.url = url
        self.shard = shard
        self.setup = setup   # the event's
        self.base = data
        if shard is not None:
            data = data / shard.directory
            setup = shard.restrict(setup)
        self.data = data
        self.path = data / LOG_NAME
        data.mkdir(parents=True, exist_ok=True)
        with EventLog.open(self.path) as event_log:   # the hub goes on with this event
            event_log.append(Record.fact(SETUP_FACT, setup.to_json(), hub_time=time.time()))
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self, started_after: float = 0.0, timeout: float = 60.0) -> None:
        from tenace.sim.observer import wait_for_hub
        from wire.protocol import topic_hub_status, topic_shard_status

        shard = self.shard
        more = [] if shard is None else ["--shard", str(shard.index), "--of", str(shard.count)]
        with (self.data / "hub.out").open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "tenace", "hub", "--broker", self.url, "--data",
                 str(self.base), "--console", "off", "--no-double-dummy", *more],
                stdout=out, stderr=subprocess.STDOUT)
        self.starts += 1
        topic = topic_hub_status() if shard is None else topic_shard_status(shard.index)
        if not wait_for_hub(self.url, started_after=started_after, process=self.process,
                            timeout=timeout, topic=topic):
            tail = (self.data / "hub.out").read_text(errors="replace")[-2000:]
            raise ChaosError(f"the hub did not come online (start {self.starts}):\n{tail}")

    def kill(self) -> float:
        """SIGKILL; returns the moment (time.time()) it was killed."""
        assert self.process is not None
        killed = time.time()
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()
        return killed

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def device_ids(self) -> list[str]:
        """The ids of every device event in the log, in log order (repeats kept)."""
        from hub.store import EventLog

        with EventLog.open(self.path, verify=False, note_head=False) as event_log:
            return [r.event_id for r in event_log.replay() if r.source == "device"]

    def room(self, setup: Any) -> tuple[Any, int]:
        """The room the log holds, and how many records it could not apply."""
        from hub.setup_facts import SETUP_FACT
        from hub.store import EventLog

        room = setup.build_room()
        failed = 0
        with EventLog.open(self.path, note_head=False) as event_log:
            for record in event_log.replay():
                if record.type == SETUP_FACT:
                    continue
                try:
                    room.replay(record)
                except Exception as err:
                    failed += 1
                    log.error("chaos: record %d (%s) not applied: %s", record.position,
                              record.type, err)
        return room, failed


@contextlib.contextmanager
def _accounts(folder: Path, setup: Any) -> Iterator[Any]:
    """Every account of the event and of the tools, the keyring named for the duration."""
    from hub.accounts import Accounts, event_accounts, write_keyring
    from tenace.live import TOOL_ACCOUNTS
    from wire.mqtt import using_keyring

    accounts = Accounts(folder / "accounts")
    issued = accounts.issue_all({**event_accounts(setup), **TOOL_ACCOUNTS})
    keyring = write_keyring(folder / "keyring.json", issued)
    with using_keyring(keyring):
        yield accounts


# The run --------------------------------------------------------------------------------------

def run_chaos(setup: Any, script: SimScript, *, seed: int, plan: ChaosPlan,
              folder: str | Path | None = None, reply_timeout: float = 2.0,
              event_timeout: float | None = None,
              chaos_seed: int | None = None) -> dict[str, Any]:
    """Play ``script`` (of ``setup``'s room, drawn from ``seed``) under ``plan``'s faults
    drawn from ``chaos_seed`` (default ``seed``); returns the report (module docstring).
    ``folder`` keeps the broker's, the hub's and the accounts' files (default: a temporary
    folder, removed). ``reply_timeout``: a device sends an unanswered event again after it;
    ``event_timeout``: a waiting table (``play_on`` False) gives up on an event after it,
    and every outbox must be empty that long after the last table has played (default: the
    longest cut and two minutes more)."""
    if event_timeout is None:
        event_timeout = plan.cut_seconds[1] + 120.0
    if folder is None:
        with tempfile.TemporaryDirectory(prefix="tenace-chaos-") as temporary:
            return _run(setup, script, seed, plan, Path(temporary), reply_timeout,
                        event_timeout, seed if chaos_seed is None else chaos_seed)
    return _run(setup, script, seed, plan, Path(folder), reply_timeout, event_timeout,
                seed if chaos_seed is None else chaos_seed)


def _run(setup: Any, script: SimScript, seed: int, plan: ChaosPlan, folder: Path,
         reply_timeout: float, event_timeout: float, chaos_seed: int) -> dict[str, Any]:
    from hub.broker import BrokerError
    from hub.mosquitto import Mosquitto
    from tenace.sim.proxy import Proxies, ProxyError

    began = time.perf_counter()
    rng = random.Random(f"tenace-chaos:{chaos_seed}")
    scripts = script.events_by_table
    folder.mkdir(parents=True, exist_ok=True)
    with _accounts(folder, setup) as accounts:
        try:
            broker = Mosquitto(folder / "mosquitto", MOSQUITTO_EXTRA, accounts=accounts)
        except BrokerError as err:
            raise ChaosError(f"the broker: {err}") from err
        hub = HubProcess(broker.url, folder / "data", setup)
        try:
            hub.start()
            with Proxies(("127.0.0.1", broker.port)) as proxies:
                table_proxies = {
                    t: proxies.add(t, rng=random.Random(f"tenace-chaos:{chaos_seed}:{t}"),
                                   duplicate=plan.duplicate, delay=plan.delay)
                    for t in scripts}
                outcome = _play(setup, script, plan, rng, hub, broker, table_proxies,
                                reply_timeout, event_timeout)
                proxy_stats = {t: p.stats for t, p in table_proxies.items()}
        except (ProxyError, OSError) as err:
            raise ChaosError(f"the proxies: {err}") from err
        finally:
            hub.stop()
            broker.stop()
        ids = hub.device_ids()
        room, unapplied = hub.room(setup)
    truth, clean_refused = clean_room(setup, script)
    clean, chaos = results_of(truth), results_of(room)
    runs: dict[str, _TableRun] = outcome["runs"]
    in_log = set(ids)
    entered = {i: where for run in runs.values() for i, where in run.entered.items()}
    lost = sorted(i for i, where in entered.items()
                  if i not in in_log and where not in clean_refused)
    refused = [{"table": run.table, "device": entered[i][0], "seq": entered[i][1],
                "code": reply.code, "reason": reply.reason, "logged": i in in_log}
               for run in runs.values() for i, reply in run.replies.items()
               if reply.status != "ack" and entered[i] not in clean_refused]
    counts: dict[str, int] = {}
    for i in ids:
        counts[i] = counts.get(i, 0) + 1
    differences = _differences(clean, chaos)
    expected = list(script.expected) + [
        Expected(f.table, None, None, "device_offline", f"cut off for {f.seconds:g} s")
        for f in outcome["done"] if f.kind == "cut" and f.table and f.seconds > _OFFLINE_GRACE]
    report = compare(script.injected, list(room.alerts), expected,
                     [k for k, rate in script.rates.items() if rate > 0])
    restarts = {"hub": sum(1 for f in outcome["done"] if f.kind == "hub_kill"),
                "broker": sum(1 for f in outcome["done"] if f.kind.startswith("broker"))}
    report.update(
        events=script.events, seconds=round(time.perf_counter() - began, 2), seed=seed,
        chaos_seed=chaos_seed,
        lost=len(lost), duplicated=sum(n - 1 for n in counts.values() if n > 1),
        restarts=restarts, results_equal=not differences,
        faults=[{"at": round(f.at, 2), "kind": f.kind,
                 **({"table": f.table, "seconds": f.seconds} if f.table else {})}
                for f in outcome["done"]],
        lost_at_kill=outcome["lost_at_kill"],
        copies=sum(s.duplicated for s in proxy_stats.values()),
        published=sum(run.published for run in runs.values()),
        play_on=plan.play_on)
    if refused:
        report["refused"] = refused
    if lost:
        report["lost_ids"] = lost[:50]
    if differences:
        report["differences"] = differences[:50]
    if unapplied:
        report["unapplied"] = unapplied
    if outcome["late"]:
        report["undelivered"] = outcome["late"]
    return report


def _play(setup: Any, script: SimScript, plan: ChaosPlan, rng: random.Random,
          hub: HubProcess, broker: Any, proxies: Mapping[str, Any], reply_timeout: float,
          event_timeout: float) -> dict[str, Any]:
    scripts = script.events_by_table
    room = _Room(lambda t: proxies[t].url(broker.url), scripts, reply_timeout=reply_timeout,
                 connect_timeout=30.0)
    stop = threading.Event()
    done: list[_Fault] = []
    lost_at_kill: list[str] = []
    failures: queue.Queue[str] = queue.Queue()
    try:
        pacer = script.pacer()
        origin = script.round_starts.get(1, 0.0)
        length = max((e.time for events in scripts.values() for e in events),
                     default=origin) - origin
        faults = _schedule(plan, rng, length, list(scripts))
        started = time.monotonic()
        players = [threading.Thread(target=room.play, name=f"chaos-{t}",
                                    args=(t, events, pacer, plan.play_on, event_timeout, stop),
                                    daemon=True)
                   for t, events in scripts.items()]
        for player in players:
            player.start()

        def chaos() -> None:
            try:
                for fault in faults:
                    wait = fault.at - (time.monotonic() - started)
                    if wait > 0 and stop.wait(wait):
                        return
                    if not any(p.is_alive() for p in players):
                        return   # the session is over: a fault now would test nothing
                    log.info("chaos: %s at %.1f s", fault.kind, fault.at)
                    if fault.kind == "hub_kill":
                        acked = room.acked_ids()
                        killed = hub.kill()
                        logged = set(hub.device_ids())
                        lost_at_kill.extend(sorted(acked - logged))
                        hub.start(started_after=killed)
                    elif fault.kind == "broker_restart":
                        broker.restart()
                    elif fault.kind == "broker_kill":
                        broker.restart(kill=True)
                    else:
                        assert fault.table is not None
                        proxies[fault.table].cut(fault.seconds)
                    done.append(fault)
            except Exception as err:
                log.exception("chaos: a fault failed")
                failures.put(f"{type(err).__name__}: {err}")

        chaos_thread = threading.Thread(target=chaos, name="chaos", daemon=True)
        chaos_thread.start()
        for player in players:
            player.join()
        stop.set()
        chaos_thread.join()
        for proxy in proxies.values():
            proxy.restore()
        errors = [run.error for run in room.runs.values() if run.error]
        while not failures.empty():
            errors.append(failures.get())
        if errors:
            raise ChaosError("; ".join(errors))
        late = room.wait_delivered(event_timeout)
    finally:
        stop.set()
        room.close()
    return {"runs": room.runs, "done": done, "lost_at_kill": lost_at_kill, "late": late}


def report_lines(report: Mapping[str, Any]) -> list[str]:
    """The chaos figures of a report, for a person."""
    lines = [f"chaos: {len(report['faults'])} faults "
             f"({', '.join(sorted({f['kind'] for f in report['faults']})) or 'none'}), "
             f"hub restarted {report['restarts']['hub']}x, broker {report['restarts']['broker']}x"
             f", {report['copies']} messages duplicated on the way",
             f"lost {report['lost']}, duplicated {report['duplicated']}, results "
             f"{'equal' if report['results_equal'] else 'DIFFERENT'} to a clean run"
             f" (tables {'played on' if report['play_on'] else 'waited'} while offline)"]
    for item in report.get("refused", [])[:20]:
        lines.append(f"  refused at {item['table']}: {item['device']} #{item['seq']}: "
                     f"{item['code']}: {item['reason']}")
    for item in report.get("differences", [])[:20]:
        lines.append(f"  {item}")
    if report.get("lost_at_kill"):
        lines.append(f"  acknowledged but not in the log at a kill: {report['lost_at_kill']}")
    return lines
