"""Card-reader benchmarks (issues 5 and 15). Prints figures; asserts nothing.

    python benchmarks/readers.py [--boards 4] [--no-vpcd] [--lines 200000]
    python benchmarks/readers.py --noise-only [--tables 7] [--seeds 3]

* Latency: from the reader returning a tag's UID (the time stamped on the read: for PC/SC
  once ``FF CA 00 00 00`` has answered, so the reader's own read time is left out) to the
  ``card`` event reaching the hub. Table A1's daemon (four readers, its outbox, its link)
  plays ``--boards`` random boards against ``tenace hub`` in its own process on Mosquitto,
  as in a club; each card is put on its seat's reader once the hub has answered the one
  before (players are seconds apart). "At the hub" is when the broker delivers the event
  to a subscriber of the device's topic, as it does to the hub; "acknowledged" is when the
  hub's reply comes back (logged in SQLite, the state published). Target: 10 ms or less
  at p99. Baseline, in the same run: one QoS 1 message from a publisher to a subscriber
  through the same broker. North's reader is a real PC/SC path (pcscd, vsmartcard-vpcd, a
  virtual tag) on the first board when running as root; the others are simulated.
* The serial readers' line parser: lines per second through ``TagLineParser.feed`` in
  4 KiB chunks, against splitting the same bytes on newlines (framing alone).
* Readers that err (issue 15): the room simulator (``tenace.sim``, a Mitchell of
  ``--tables`` tables, every round, ``--seeds`` sessions) with irregularities injected and
  the card readers' errors (``tenace.sim.noise``) at three levels: none, the issue's (2%
  missed, 1% cross-reads, 1% late, 1% repeated, 5% of sweeps missing a card, a tag that
  cannot be read on 2% of boards) and double that; half the cards played are read by the
  readers, the other half tapped. Played into the hub's room (hub.reads decides what each
  read means; the simulated players answer what the table is asked). Prints the precision
  and recall of the director's alerts per kind, the false director alerts per 100 boards
  (target: at most 1) and the prompts to the table per board; every injected irregularity
  must be detected.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bridgecore.board import Board
from bridgecore.cards import ALL_CARDS, Seat
from bridgecore.randomgame import random_board
from firmware_bridge.daemon import TableDaemon
from firmware_bridge.decks import Deck, DeckStore
from firmware_bridge.readers import CardReader, open_reader
from firmware_bridge.readers import sim as simulated
from firmware_bridge.readers.pcsc import PcscReader
from firmware_bridge.readers.tagline import TagLineParser, format_line
from firmware_bridge.vpcd_card import Pcscd, PcscdError, VirtualCard
from hub.event import EventSetup
from hub.mosquitto import Mosquitto
from tenace.sim.observer import wait_for_hub
from wire.link import DeviceLink
from wire.mqtt import Message, MqttClient
from wire.outbox import Outbox
from wire.protocol import Envelope, Reply, topic_event, topic_reply

SEED = "5eed0000000000000000000000000000000000b5"
TABLES = 3


def _line(name: str, value: str, target: str = "", ok: bool | None = None) -> None:
    mark = "" if ok is None else ("  [meets target]" if ok else "  [BELOW TARGET]")
    print(f"{name:<58} {value:>24}   {target}{mark}")


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (f"p50 {statistics.median(ordered) * 1000:.2f} / p99 {p99 * 1000:.2f} ms "
            f"(n={len(ordered)})")


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def uid(deck: int, index: int) -> str:
    return f"04{deck:02X}BE7C4D{index:02X}00"


def baseline(url: str, count: int = 500) -> list[float]:
    """One QoS 1 message, publisher to subscriber, through the broker."""
    got: dict[int, float] = {}
    done = threading.Event()

    def take(message: Message) -> None:
        got[int(message.payload)] = time.time()
        if len(got) == count:
            done.set()

    subscriber = MqttClient(url, "bench-sub", clean_session=True, start=False, on_message=take)
    subscriber.subscribe("bench/latency", 1, wait=False)
    subscriber.start().wait_connected()
    publisher = MqttClient(url, "bench-pub", clean_session=True).wait_connected()
    sent: dict[int, float] = {}
    for i in range(count):
        sent[i] = time.time()
        publisher.publish("bench/latency", str(i), 1)
        deadline = time.monotonic() + 2
        while i not in got and time.monotonic() < deadline:
            time.sleep(0.0002)
    done.wait(5)
    publisher.close(farewell=False)
    subscriber.close(farewell=False)
    return [got[i] - sent[i] for i in sent if i in got]


class Watch:
    """When each reader event of ``table`` and each reply to it arrive (a subscriber of
    the device's topics, as the hub is)."""

    def __init__(self, url: str, table: str):
        self.events: dict[str, tuple[Envelope, float]] = {}
        self.replies: dict[str, tuple[Reply, float]] = {}
        self.lock = threading.Lock()
        self.client = MqttClient(url, f"bench-watch-{table}", clean_session=True,
                                 start=False, on_message=self._take)
        self.client.subscribe(topic_event(table, f"{table}-rdr"), 1, wait=False)
        self.client.subscribe(topic_reply(table, f"{table}-rdr"), 1, wait=False)
        self.client.start().wait_connected()

    def _take(self, message: Message) -> None:
        now = time.time()
        with self.lock:
            if "/ev/" in message.topic:
                env = Envelope.from_json(message.payload)
                self.events.setdefault(env.id, (env, now))
            else:
                reply = Reply.from_json(message.payload)
                self.replies.setdefault(reply.ref, (reply, now))

    def answered(self) -> int:
        with self.lock:
            return len(self.replies)

    def wait(self, before: int, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while self.answered() == before and time.monotonic() < deadline:
            time.sleep(0.0005)

    def latencies(self) -> tuple[list[float], list[float]]:
        """Per card event: read -> at the hub, read -> acknowledgement back."""
        at_hub, acked = [], []
        with self.lock:
            for ref, (env, arrived) in self.events.items():
                if env.type == "card":
                    at_hub.append(arrived - env.time)
                    if ref in self.replies:
                        acked.append(self.replies[ref][1] - env.time)
        return at_hub, acked


def played_board(number: int, deal: Any) -> Board:
    rng = random.Random(number)
    while True:
        board = random_board(rng, number, deal)
        if board.play is not None:
            return board


def play_table(url: str, setup: EventSetup, table: str, boards: int,
               pcsc: tuple[PcscReader, int] | None, folder: Path) -> Watch:
    """Table ``table`` plays its first ``boards`` boards with readers at every seat
    (North's through PC/SC when ``pcsc`` gives the reader and its vpcd port)."""
    seating = setup.build_room().assignment(table, 1)
    assert seating is not None
    numbers = list(seating.boards)[:boards]
    decks = DeckStore(decks=[Deck(f"deck-{b}", {uid(b, c.index): c for c in ALL_CARDS}, (b,))
                             for b in numbers])
    readers: dict[Seat, CardReader] = {}
    present: dict[Seat, Any] = {}
    for seat in Seat:
        name = f"bench-{table}-{seat.letter}"
        readers[seat] = open_reader(f"sim:{name}")
        present[seat] = simulated.channel(name).present
    watch = Watch(url, table)
    if pcsc is not None:
        north, port = pcsc
        readers[Seat.NORTH].close()
        readers[Seat.NORTH] = north

        def on_north(tag: str) -> None:
            before = watch.answered()
            virtual = VirtualCard(port, tag).insert()
            watch.wait(before)
            virtual.remove()
            while north.on_reader is not None:   # pcscd sees it gone before the next
                time.sleep(0.005)

        present[Seat.NORTH] = on_north
    outbox = Outbox(folder / f"readers-{table}.sqlite3", f"{table}-rdr")
    tablet = DeviceLink(url, table, f"{table}-tab", outbox=Outbox(":memory:", f"{table}-tab"))
    daemon = TableDaemon(url, table, readers, decks, outbox, hand_gap=0.3)
    try:
        tablet.send("checkin", {"direction": "NS", "pair": seating.ns})
        tablet.send("checkin", {"direction": "EW", "pair": seating.ew})
        for number in numbers:
            board = played_board(number, setup.deals[number])
            tablet.send("board", {"board": number})
            for entry in board.auction.entries:
                tablet.send("call", {"seat": entry.seat.letter, "call": str(entry.call)})
            assert tablet.wait_delivered(30)
            while ((daemon.state or {}).get("phase"), (daemon.state or {}).get("board")) \
                    != ("play", number):
                time.sleep(0.005)
            assert board.play is not None
            for seat, card, _ in board.play.history:
                before = watch.answered()
                present[seat](uid(number, card.index))
                watch.wait(before)
                time.sleep(0.002)
            assert daemon.wait_delivered(30)
        rejected = outbox.rejections()
        if rejected:
            print(f"{table}: {len(rejected)} events refused by the hub: {rejected[:3]}")
    finally:
        daemon.close()
        tablet.close()
        watch.client.close(farewell=False)
        for reader in readers.values():
            reader.close()
        outbox.close()
    return watch


def bench_latency(boards: int, use_vpcd: bool) -> None:
    setup = EventSetup.quick(tables=TABLES, boards_per_round=boards, rounds=1, seed=SEED)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        broker = Mosquitto(folder / "mosquitto", open_access=True)  # no accounts: see hub.py
        pcscd: Pcscd | None = None
        if use_vpcd:
            try:
                pcscd = Pcscd(folder / "pcscd").start()
            except PcscdError as err:
                print(f"(PC/SC path left out: {err})")
        hub = subprocess.Popen(
            [sys.executable, "-m", "tenace", "hub", "--broker", broker.url, "--data",
             str(folder / "hub"), "--tables", str(TABLES), "--boards-per-round", str(boards),
             "--rounds", "1", "--seed", SEED, "--console", "off", "--no-double-dummy"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            if not wait_for_hub(broker.url, process=hub, timeout=60):
                raise SystemExit("the hub did not start")
            base = baseline(broker.url)
            at_hub, acked = play_table(broker.url, setup, "A1", boards, None,
                                       folder).latencies()
            pcsc: list[float] = []
            if pcscd is not None:
                reader = open_reader(f"pcsc:{pcscd.READERS[0]}")
                assert isinstance(reader, PcscReader)
                watch = play_table(broker.url, setup, "A2", 1, (reader, pcscd.ports[0]),
                                   folder)
                with watch.lock:
                    pcsc = [arrived - env.time for env, arrived in watch.events.values()
                            if env.type == "card" and env.body["seat"] == "N"]
        finally:
            hub.terminate()
            hub.wait(10)
            if pcscd is not None:
                pcscd.stop()
            broker.stop()
    print(f"Latency: {boards} boards at A1 (simulated readers), hub in its own process, "
          "Mosquitto")
    _line("baseline: QoS 1 publisher -> subscriber", _ms(base))
    _line("tag UID -> card event at the hub", _ms(at_hub), "target p99 <= 10 ms",
          _p99(at_hub) <= 0.010)
    _line("tag UID -> the hub's acknowledgement back", _ms(acked))
    _line("reader path p50 / baseline p50",
          f"{statistics.median(at_hub) / statistics.median(base):.1f}x")
    if pcsc:
        _line("PC/SC (vpcd) at A2 North: UID answered -> at the hub", _ms(pcsc),
              "target p99 <= 10 ms", _p99(pcsc) <= 0.010)


def bench_parser(lines: int) -> None:
    rng = random.Random(5)
    data = b"".join(format_line("TAG", f"04{rng.getrandbits(48):012X}") for _ in range(lines))
    chunks = [data[i:i + 4096] for i in range(0, len(data), 4096)]
    parser = TagLineParser()
    start = time.perf_counter()
    count = sum(len(parser.feed(chunk)) for chunk in chunks)
    parsed = time.perf_counter() - start
    start = time.perf_counter()
    split = len(data.split(b"\n")) - 1
    framing = time.perf_counter() - start
    assert count == split == lines
    print(f"Serial line parser, {lines} lines of {len(data) // lines} bytes")
    _line("TagLineParser.feed (4 KiB chunks)", f"{lines / parsed:,.0f} lines/s")
    _line("baseline: bytes.split on newlines", f"{lines / framing:,.0f} lines/s")
    _line("parser cost / framing alone", f"{parsed / framing:.0f}x")


NOISE_INJECT = {"revoke": 0.04, "lead_out_of_turn": 0.03, "play_out_of_turn": 0.04,
                "card_not_in_hand": 0.03, "call_out_of_rotation": 0.02,
                "insufficient_bid": 0.02, "rotated_board": 0.03, "wrong_board": 0.01,
                "disputed_claim": 0.02, "director_call": 0.01}


def _noise_run(tables: int, seed: int, level: float) -> dict[str, Any]:
    from bridgecore.bigdeal import random_deal
    from bridgecore.movements import mitchell
    from hub.room import Room, Section
    from tenace.sim.devices import envelopes
    from tenace.sim.noise import ISSUE_NOISE
    from tenace.sim.script import compare
    from tenace.sim.session import simulate

    movement = mitchell(tables, boards_per_round=2)
    deals = {b: random_deal(random.Random(1000 * seed + b)) for b in movement.boards}
    script = simulate(Section("A", movement), deals, seed=seed, inject=NOISE_INJECT,
                      reader_noise=ISSUE_NOISE.scaled(level) if level else None,
                      reader_rate=0.5)
    room = Room(Section("A", movement), deals)
    alerts: list[Any] = []
    prompts: set[str] = set()
    for table, env in envelopes(script.merged()):
        out = room.apply(table, env, env.time)
        alerts += out.alerts
        prompts.update(p["id"] for p in room.tables[table].prompts())
    report = compare(script.injected, alerts, script.expected, NOISE_INJECT)
    found: dict[str, set[tuple[Any, ...]]] = {}
    for a in alerts:
        found.setdefault(a.kind, set()).add((a.table, a.round, a.board))
    report["found"] = {k: len(v) for k, v in found.items()}
    report["boards"] = sum(e.type == "board" for t in script.events_by_table.values()
                           for e in t)
    report["prompts"] = len(prompts)
    report["errors"] = sum(script.reader_errors.values())
    return report


def bench_noise(tables: int, seeds: int) -> None:
    levels = ((0.0, "no reader error"), (1.0, "the issue's errors"), (2.0, "double"))
    print(f"Readers that err: room simulator, Mitchell of {tables} tables, {seeds} "
          "session(s) per level, irregularities injected")
    for level, name in levels:
        injected: dict[str, int] = {}
        detected: dict[str, int] = {}
        found: dict[str, int] = {}
        false: dict[str, int] = {}
        boards = prompts = errors = 0
        for seed in range(1, seeds + 1):
            r = _noise_run(tables, seed, level)
            for k, v in r["injected"].items():
                injected[k] = injected.get(k, 0) + v
            for k, v in r["detected"].items():
                detected[k] = detected.get(k, 0) + v
            for k, v in r["found"].items():
                found[k] = found.get(k, 0) + v
            for item in r["false_alarms"]:
                false[item["kind"]] = false.get(item["kind"], 0) + 1
            boards += r["boards"]
            prompts += r["prompts"]
            errors += r["errors"]
        print(f"  {name}: {boards} boards, {errors} reader errors made "
              f"({errors / max(boards, 1):.2f} a board)")
        for kind in sorted(set(injected) | set(false)):
            n, hit, f = injected.get(kind, 0), detected.get(kind, 0), false.get(kind, 0)
            total = found.get(kind, 0)
            precision = "-" if total == 0 else f"{(total - f) / total:.2f}"
            recall = "-" if n == 0 else f"{hit / n:.2f}"
            _line(f"    {kind}", f"recall {recall} ({hit}/{n})  precision {precision}",
                  "", None if n == 0 else hit == n)
        all_false = sum(false.values())
        per100 = 100.0 * all_false / max(boards, 1)
        _line("    false director alerts per 100 boards", f"{per100:.2f} ({all_false})",
              "target <= 1", per100 <= 1.0)
        _line("    prompts to the table per board", f"{prompts / max(boards, 1):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=4)
    parser.add_argument("--no-vpcd", action="store_true", help="simulated readers only")
    parser.add_argument("--lines", type=int, default=200_000)
    parser.add_argument("--noise-only", action="store_true",
                        help="only the readers-that-err figures (no broker needed)")
    parser.add_argument("--tables", type=int, default=7, help="tables of the simulated room")
    parser.add_argument("--seeds", type=int, default=3, help="sessions per noise level")
    args = parser.parse_args()
    if not args.noise_only:
        bench_parser(args.lines)
        print()
        bench_latency(args.boards, not args.no_vpcd and os.geteuid() == 0)
        print()
    bench_noise(args.tables, args.seeds)


if __name__ == "__main__":
    main()
